"""One writer per bench: a lease row in the store (`bench_leases`), on SQLite and PostgreSQL.

A bench process takes the lease of its bench run before it touches the run's attempts (a resume
closes the attempts it finds `running` as cut off: done by a second process while the first is
alive, that would redo every remaining attempt twice). While it works, a heartbeat thread renews
the lease; at the end it is released.

    lease = BenchLease.acquire(store, run_id)   # LeaseHeld (exit 2, one line naming the holder)
    with lease.kept():                          # heartbeats every ttl / 4 in a thread
        ...
    lease.release()

A lease is live until `expires_at`. One whose holder is gone is taken over: on another host once
it has expired (`ttl` seconds after its last heartbeat, `LEMMAFORGE_BENCH_LEASE_SECONDS`, default
60), on this host at once when its process no longer exists (a `kill -9`, then `--resume`) or,
in the same process, once the lease was released (a store that could not be written then keeps
the row).

Taking a lease is one write transaction: SQLite's write lock (`BEGIN IMMEDIATE`) or PostgreSQL's
row lock (`SELECT … FOR UPDATE`, or the primary key when two insert the first row at once)
serialize two processes that try at the same moment, so exactly one wins.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update

from lemmaforge.errors import BackendError

from .errors import StoreError, store_errors
from .models import BenchLeaseRow

log = logging.getLogger(__name__)

DEFAULT_TTL = 60.0
ENV_TTL = "LEMMAFORGE_BENCH_LEASE_SECONDS"
HOST = socket.gethostname()


_HELD: set[str] = set()  # owners of the leases this process holds (released ones leave, stored or not)


class LeaseHeld(BackendError):
    """Another live process holds the bench's lease: this one must not run it (exit 2)."""


def lease_ttl() -> float:
    try:
        value = float(os.environ.get(ENV_TTL, DEFAULT_TTL))
    except ValueError:
        return DEFAULT_TTL
    return value if value > 0 else DEFAULT_TTL


def owner_id() -> str:
    return f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _holder_gone(owner: str) -> bool:
    """The holder was a process on this host that no longer exists."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != HOST or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():  # this process: it knows which leases it still holds
        return owner not in _HELD
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # exists, someone else's
        return False
    return False


@dataclass
class BenchLease:
    store: Any
    run_id: str
    owner: str
    ttl: float
    lost: bool = False

    @classmethod
    def acquire(cls, store: Any, run_id: str, *, ttl: float | None = None, owner: str | None = None) -> BenchLease:
        """Take the lease of bench `run_id` or raise LeaseHeld naming its live holder."""
        lease = cls(store, run_id, owner or owner_id(), ttl or lease_ttl())
        try:
            lease._take(store, run_id)
        except BaseException:
            _HELD.discard(lease.owner)
            raise
        return lease

    def _take(self, store: Any, run_id: str) -> None:
        lease = self
        with store_errors(f"cannot take the lease of bench {run_id} in database {store.url}"), \
                store._guard, store._begin(write=True) as conn:
            now = time.time()
            # the row first, as an expired placeholder: two first takers then queue on the row's
            # lock (Postgres: the second insert waits for the first's commit, then does nothing)
            placeholder = {"run_id": run_id, "owner": "", "acquired_at": 0.0, "heartbeat_at": 0.0, "expires_at": 0.0}
            if store.dialect in ("postgresql", "sqlite"):
                conn.execute(_insert(store.dialect).values(**placeholder).on_conflict_do_nothing())
            elif conn.execute(select(BenchLeaseRow.run_id).where(BenchLeaseRow.run_id == run_id)).first() is None:
                conn.execute(insert(BenchLeaseRow).values(**placeholder))
            stmt = select(BenchLeaseRow).where(BenchLeaseRow.run_id == run_id).with_for_update()
            row = conn.execute(stmt).one()
            values = {"owner": lease.owner, "acquired_at": now, "heartbeat_at": now, "expires_at": now + lease.ttl}
            if row.expires_at > now and not _holder_gone(row.owner):
                raise LeaseHeld(
                    f"bench {run_id} is being run by {row.owner} (heartbeat {now - row.heartbeat_at:.0f} s ago, "
                    f"lease expires in {row.expires_at - now:.0f} s); one process per bench",
                    fix="wait for it to finish or stop it; a lease whose holder died is taken over once it expires",
                )
            else:
                if row.expires_at > now:
                    log.info("bench %s: lease of %s taken over (its process is gone)", run_id, row.owner)
                # held before the commit: another thread of this process that reads the row
                # once it is committed must find its holder alive (`_holder_gone`)
                _HELD.add(lease.owner)
                conn.execute(update(BenchLeaseRow).where(BenchLeaseRow.run_id == run_id).values(**values))

    def renew(self) -> bool:
        """Push the expiry on; False when the lease is no longer ours (taken over meanwhile)."""
        with store_errors(f"cannot renew the lease of bench {self.run_id}"), self.store._guard, \
                self.store._begin(write=True) as conn:
            now = time.time()
            done = conn.execute(
                update(BenchLeaseRow)
                .where(BenchLeaseRow.run_id == self.run_id, BenchLeaseRow.owner == self.owner)
                .values(heartbeat_at=now, expires_at=now + self.ttl)
            )
            ok = bool(done.rowcount)
        if not ok and not self.lost:
            self.lost = True
            log.warning("bench %s: its lease was taken over by another process", self.run_id)
        return ok

    def release(self) -> None:
        """Give the lease up (only ours: never another holder's). A store that cannot be written
        now keeps the row: it is taken over as its holder is gone (this process or, once it has
        exited, any other on this host; elsewhere once it expires)."""
        _HELD.discard(self.owner)
        with contextlib.suppress(StoreError), store_errors(f"cannot release the lease of bench {self.run_id}"), \
                self.store._guard, self.store._begin(write=True) as conn:
            conn.execute(delete(BenchLeaseRow).where(BenchLeaseRow.run_id == self.run_id,
                                                     BenchLeaseRow.owner == self.owner))

    @contextlib.contextmanager
    def kept(self) -> Iterator[BenchLease]:
        """Renew the lease every ttl / 4 in a daemon thread while the body runs. A renewal that
        fails (the store is down for a moment) is retried at the next beat."""
        stop = threading.Event()

        def beat() -> None:
            while not stop.wait(self.ttl / 4):
                try:
                    self.renew()
                except StoreError as exc:
                    # not for stderr: the run's own next write fails the same way, in one line
                    log.info("bench %s: lease heartbeat failed (%s)", self.run_id, exc)

        thread = threading.Thread(target=beat, name=f"lease-{self.run_id[:12]}", daemon=True)
        thread.start()
        try:
            yield self
        finally:
            stop.set()
            thread.join(timeout=5)


def _insert(dialect: str) -> Any:
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(BenchLeaseRow)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(BenchLeaseRow)


def lease_of(store: Any, run_id: str) -> dict[str, Any] | None:
    """The bench's lease row as a dict (for `runs`/`report`), or None."""
    with store_errors(f"cannot read the lease of bench {run_id}"), store._guard, store._begin(write=False) as conn:
        row = conn.execute(select(BenchLeaseRow).where(BenchLeaseRow.run_id == run_id)).first()
    return None if row is None else dict(row._mapping)

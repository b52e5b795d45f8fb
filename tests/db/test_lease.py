"""The bench lease (`lemmaforge.db.lease`) on SQLite and PostgreSQL: one holder at a time, a live
lease refused with its holder named, an expired one (or one whose process is gone) taken over, and
only the holder can renew or release it. Through the CLI: tests/errors/test_bench_lease.py."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import types

import pytest

from lemmaforge.db import Store
from lemmaforge.db.lease import HOST, BenchLease, LeaseHeld, lease_of


def test_a_live_lease_is_refused_naming_its_holder(store: Store) -> None:
    first = BenchLease.acquire(store, "B", ttl=30, owner="other-host:123:abc")
    with pytest.raises(LeaseHeld, match="bench B is being run by other-host:123:abc") as info:
        BenchLease.acquire(store, "B", ttl=30)
    assert "expires in" in str(info.value)
    assert lease_of(store, "B")["owner"] == first.owner


def an_hour_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lease's clock (`time.time` in lemmaforge.db.lease) an hour ahead of the wall clock: every
    lease taken before has expired, without waiting for it."""
    from lemmaforge.db import lease

    monkeypatch.setattr(lease, "time", types.SimpleNamespace(time=lambda: time.time() + 3600))


def test_an_expired_lease_is_taken_over_and_the_old_holder_can_no_longer_renew_it(store: Store, monkeypatch) -> None:
    old = BenchLease.acquire(store, "B", ttl=0.2, owner="other-host:123:abc")
    an_hour_later(monkeypatch)
    new = BenchLease.acquire(store, "B", ttl=30)
    assert lease_of(store, "B")["owner"] == new.owner
    assert old.renew() is False and old.lost
    old.release()  # never releases another holder's lease
    assert lease_of(store, "B")["owner"] == new.owner
    assert new.renew() is True
    new.release()
    assert lease_of(store, "B") is None


def test_a_lease_whose_process_on_this_host_is_gone_is_taken_over_at_once(store: Store) -> None:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    BenchLease.acquire(store, "B", ttl=3600, owner=f"{HOST}:{proc.pid}:dead")
    BenchLease.acquire(store, "B", ttl=30)  # no LeaseHeld: its holder died (kill -9, then --resume)


def test_two_processes_taking_the_same_lease_at_once_exactly_one_wins(db_url: str) -> None:
    Store(db_url).close()  # the schema, once
    stores = [Store(db_url) for _ in range(6)]
    barrier = threading.Barrier(len(stores))
    won: list[str] = []
    refused: list[str] = []

    def take(store: Store) -> None:
        barrier.wait()
        try:
            won.append(BenchLease.acquire(store, "RACE", ttl=30).owner)
        except LeaseHeld as exc:
            refused.append(str(exc))

    threads = [threading.Thread(target=take, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and len(refused) == len(stores) - 1
    assert all(won[0] in line for line in refused)

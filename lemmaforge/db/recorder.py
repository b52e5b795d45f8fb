"""`SqlRecorder`: the `Recorder` the search receives. `emit` only appends to a queue; a writer thread
stores the records in batches, one transaction per batch.

Guarantees
----------
* `emit` never blocks and never does I/O (a deque append; about a microsecond or less).
* Records are written in emission order (per recorder), `batch_size` at most per transaction, at the
  latest `flush_interval` seconds after they were emitted.
* `flush()` returns once every record emitted before it was called is committed (durable for
  SQLite WAL with synchronous=NORMAL against a process crash; a power loss may lose the last
  transactions). `aflush()` is the same for asyncio code, without blocking the loop.
* A batch that fails because the database is unavailable (`StoreUnavailable`: locked, connection
  lost, disk full) is retried with backoff; a batch with a record the database refuses
  (`StoreRecordError`) is written record by record, so one bad record cannot take its batch down.
  Records that still fail are logged, kept in `failed`, and a `StoreError` naming them is raised
  from the next `flush()` / `close()` (a bench stops on it; `--resume` redoes what was lost).
* `close()` flushes and stops the thread; it is idempotent, runs at interpreter exit (`atexit`),
  and may be called from a signal handler in the main thread while another call is in progress.
* `cached_proof` sees proofs that are still queued, then asks the store (any earlier run).
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import logging
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

from lemmaforge.records import ProofRecord, Record

from .errors import StoreError, StoreRecordError, StoreUnavailable, first_line
from .store import Store

log = logging.getLogger("lemmaforge.db")


@dataclass(eq=False)
class _FlushMarker:
    done: threading.Event = field(default_factory=threading.Event)


class SqlRecorder:
    """Queues records and writes them to a `Store` on a background thread."""

    def __init__(
        self,
        store: Store,
        *,
        batch_size: int = 500,
        flush_interval: float = 0.25,
        retries: int = 3,
        retry_backoff: float = 0.2,
        name: str = "lemmaforge-recorder",
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        if flush_interval <= 0:
            raise ValueError("flush_interval must be > 0")
        self.store = store
        self.batch_size = batch_size
        self.flush_interval = flush_interval
        self.retries = retries
        self.retry_backoff = retry_backoff
        self.failed: list[tuple[Record, BaseException]] = []  # records that could not be written
        self.written = 0  # records committed so far

        self._queue: collections.deque[Record | _FlushMarker] = collections.deque()
        self._pending_proofs: dict[tuple[str, str], ProofRecord] = {}  # queued subgoal proofs
        self._wake = threading.Event()
        self._stop = False
        self._closed = False
        self._errors: list[BaseException] = []  # not yet reported by flush()/close()
        self._errors_lock = threading.Lock()
        # one drainer at a time (the thread, or flush after close); reentrant so that a signal handler
        # that flushes while the main thread is draining cannot deadlock
        self._drain_lock = threading.RLock()
        self._close_lock = threading.RLock()  # RLock: close() re-entered from a signal handler
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()
        self._atexit: Callable[[], None] = _atexit_closer(weakref.ref(self))
        atexit.register(self._atexit)

    # ------------------------------------------------------------------------------- Recorder API

    def emit(self, record: Record) -> None:
        """Queues `record`; returns at once (no lock, no I/O)."""
        if type(record) is ProofRecord and record.kind == "subgoal":
            self._pending_proofs.setdefault((record.header, record.normalized_statement), record)
        self._queue.append(record)
        if self._closed:  # the writer is gone: write now rather than lose it
            log.warning(
                "SqlRecorder: %s emitted after close(); writing it synchronously", type(record).__name__
            )
            self._drain()  # failures are logged and kept in .failed
        elif len(self._queue) >= self.batch_size:
            self._wake.set()

    def cached_proof(self, header: str, normalized_statement: str) -> str | None:
        queued = self._pending_proofs.get((header, normalized_statement))
        if queued is not None:
            return queued.proof
        return self.store.cached_proof(header, normalized_statement)

    # ---------------------------------------------------------------------------------- lifecycle

    def flush(self, timeout: float | None = None) -> None:
        """Blocks until every record emitted before this call is committed; then raises StoreError
        if any record could not be written since the last flush. TimeoutError after `timeout` s."""
        if self._thread.is_alive() and not self._stop:
            marker = _FlushMarker()
            self._queue.append(marker)
            self._wake.set()
            deadline = None if timeout is None else time.monotonic() + timeout
            while not marker.done.wait(0.05):
                if not self._thread.is_alive():  # writer stopped (close() in a signal handler): drain here
                    self._drain()
                    break
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeoutError(f"SqlRecorder.flush: records not written within {timeout} s")
        else:
            self._drain()
        self._raise_errors()

    async def aflush(self) -> None:
        """`flush()` for asyncio code: waits in a worker thread, never blocks the event loop."""
        await asyncio.to_thread(self.flush)

    def close(self, timeout: float | None = None) -> None:
        """Flushes, stops the writer thread, and raises StoreError for records that failed.
        Idempotent; also called at interpreter exit."""
        with self._close_lock:
            if self._closed:
                return
            try:
                self.flush(timeout)
            finally:
                self._stop = True
                self._wake.set()
                if threading.current_thread() is not self._thread:
                    self._thread.join(timeout)
                # from here on emit() writes synchronously; set before the last drain so that no
                # record can slip in between that drain and the flag
                self._closed = True
                atexit.unregister(self._atexit)
                if not self._thread.is_alive():
                    self._drain()  # anything emitted while stopping
            self._raise_errors()

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    def __enter__(self) -> SqlRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def queued(self) -> int:
        """Records (and pending flush requests) emitted but not yet taken by the writer."""
        return len(self._queue)

    # ------------------------------------------------------------------------------------ writer

    def _run(self) -> None:
        while True:
            self._wake.wait(self.flush_interval)
            self._wake.clear()
            try:
                self._drain()
            except BaseException as e:  # never let the thread die silently
                log.exception("SqlRecorder writer thread failed")
                self._add_error(e)
            if self._stop:
                return

    def _drain(self) -> None:
        """Takes everything queued and writes it, `batch_size` records per transaction."""
        with self._drain_lock:
            batch: list[Record] = []
            while True:
                try:
                    item = self._queue.popleft()
                except IndexError:
                    break
                if isinstance(item, _FlushMarker):
                    if batch:
                        self._write(batch)
                        batch = []
                    item.done.set()
                    continue
                batch.append(item)
                if len(batch) >= self.batch_size:
                    self._write(batch)
                    batch = []
            if batch:
                self._write(batch)

    def _write(self, batch: list[Record]) -> None:
        try:
            self._write_with_retries(batch)
            self.written += len(batch)
        except StoreRecordError:
            # one bad record (a node of an unknown run…): keep the good ones
            for r in batch:
                try:
                    self._write_with_retries([r])
                    self.written += 1
                except StoreError as e:
                    # raised from the next flush()/close(): logged here only for debugging
                    log.debug("SqlRecorder: could not write %s: %s", type(r).__name__, e)
                    self.failed.append((r, e))
                    self._add_error(e)
        except StoreError as e:  # the database is unusable (locked, gone, disk full, read-only)
            log.debug("SqlRecorder: could not write %d records: %s", len(batch), e)
            self.failed.extend((r, e) for r in batch)
            self._add_error(e)
        finally:
            for r in batch:
                if type(r) is ProofRecord:
                    key = (r.header, r.normalized_statement)
                    if self._pending_proofs.get(key) is r:
                        del self._pending_proofs[key]

    def _write_with_retries(self, batch: list[Record]) -> None:
        for attempt in range(self.retries + 1):
            try:
                self.store.write(batch)
                return
            except StoreUnavailable:
                if attempt == self.retries:
                    raise
                time.sleep(self.retry_backoff * 2**attempt)

    def _add_error(self, e: BaseException) -> None:
        with self._errors_lock:
            self._errors.append(e)

    def _raise_errors(self) -> None:
        with self._errors_lock:
            errors, self._errors = self._errors, []
        if errors:
            first = errors[0]
            detail = f"{len(errors)} write error(s) in SqlRecorder (records kept in .failed); first: "
            if isinstance(first, StoreError):
                # keep the class (unavailable / misconfigured / record) and the fix of the first
                raise type(first)(detail + first.detail, backend=first.backend, fix=first.fix) from first
            raise StoreError(detail + f"{type(first).__name__}: {first_line(first)}") from first


def _atexit_closer(ref: weakref.ReferenceType[SqlRecorder]) -> Callable[[], None]:
    def close() -> None:
        rec = ref()
        if rec is not None:
            try:
                rec.close()
            except StoreError as e:  # at exit there is no one left to raise to
                log.error("SqlRecorder: error while closing at exit: %s", e)

    return close

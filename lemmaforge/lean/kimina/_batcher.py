"""Coalesce concurrent single checks into batched requests, within an in-flight limit.

Why: the search engine calls `check(code)` one file at a time from many tasks at once. One HTTP
request per file costs client CPU that grows with requests in flight (httpcore's pool) and leaves
a Kimina server with 64 REPLs mostly idle behind a small concurrency limit. The batcher collects
the checks that arrive within `window` seconds (or until `batch_size` are waiting) into one
`/api/check` request, keeps at most `max_in_flight` checks outstanding (sized to the server: its
REPL count or a little more, so it never idles), and so needs only a few connections.

Cancellation: a check that is cancelled while still queued is dropped (nothing was sent). A check
that is cancelled after its request left is NOT cancelled on the wire: Kimina destroys the REPL
that was running it when the request is aborted (a Mathlib re-import, 10-20 s), so the request
runs to the end and its verdict is kept in `orphans` (bounded by bytes), where the next `check` of
the same code finds it.

Order: waiting checks leave in the order of the check queue (lean/check_queue.py, the one the REPL
pool uses too: each check's `lean.priority.OrderKey`, held speculative work apart), not first-come-first-served:
while Lean is the bottleneck, the long dependent chains of the hard searches are what bound the
run's length. With `max_in_flight` near the server's REPL count the waiting happens here, where the
order is ours. Held work leaves as soon as no certain work waits, whatever is in flight: holding it
back further, so that it would not queue at the server ahead of certain work, starved the REPLs (a
request answers when its slowest check does, so checks in flight overstate busy REPLs).

Batch size follows the load (`spread_requests`): a request answers when its slowest check does, so
a check batched with three others waits, on average, for the slowest of four lognormal check times.
Under load that costs nothing (the REPLs stay busy; what batching saves is client CPU), but when
Lean has room — a run's end, where only the last searches' dependent chains are left — it delays
every step of those chains. So the checks in flight and waiting are spread over about
`spread_requests` requests before any two share one: below that many, each check leaves alone and
at once; above it, batches grow with the load up to `batch_size`. The default, 1, is plain
coalescing (every request as full as the waiting checks allow); for a 64-REPL server, 64.
Measurements of both choices: docs/performance.md, "Check queue".
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from lemmaforge import sending
from lemmaforge.lean.check_queue import CheckQueue, Ticket
from lemmaforge.lean.priority import LeanIdle, OrderKey
from lemmaforge.lean.verifier import CheckResult, CheckStatus, VerifierError

log = logging.getLogger(__name__)

# How long `close` lets requests already sent finish (a Mathlib check takes seconds).
CLOSE_GRACE_SECONDS = 5.0

SendBatch = Callable[[Sequence[str], float], Awaitable[list[CheckResult]]]


@dataclass(slots=True)
class BatcherStats:
    submitted: int = 0
    batches: int = 0
    sent: int = 0  # checks that left in a request
    dropped_unsent: int = 0  # cancelled while queued: never sent
    orphaned: int = 0  # cancelled after sending: finished anyway, verdict kept
    orphaned_seconds: float = 0.0  # Lean time (as the server reports it) of those checks
    speculated: int = 0  # checks sent while still held (Lean had room)
    orphaned_speculated_seconds: float = 0.0  # the part of orphaned_seconds those account for
    orphan_hits: int = 0  # checks answered from a kept verdict
    max_in_flight: int = 0


@dataclass(slots=True)
class _Item:
    code: str
    timeout: float
    future: asyncio.Future[CheckResult]
    ticket: Ticket[_Item] | None = None  # its place in the queue while it waits
    sent: bool = False
    orphaned: bool = False  # the caller left after the request was sent
    speculated: bool = False  # sent while held (Lean had room)
    on_sent: Callable[[], None] = lambda: None  # tells the caller's budget it left (lemmaforge/sending.py)


@dataclass(slots=True)
class _Orphans:
    """Verdicts of checks whose callers went away, bounded by the bytes of their code."""

    max_bytes: int
    bytes: int = 0
    items: OrderedDict[str, CheckResult] = field(default_factory=OrderedDict)

    def put(self, code: str, result: CheckResult) -> None:
        if result.status in (CheckStatus.TIMEOUT, CheckStatus.CRASHED) or len(code) > self.max_bytes:
            return  # infrastructure failures are not verdicts
        if code in self.items:
            return
        self.items[code] = result
        self.bytes += len(code)
        while self.bytes > self.max_bytes:
            old, _ = self.items.popitem(last=False)
            self.bytes -= len(old)

    def pop(self, code: str) -> CheckResult | None:
        result = self.items.pop(code, None)
        if result is not None:
            self.bytes -= len(code)
        return result


class CheckBatcher:
    def __init__(
        self,
        send: SendBatch,
        *,
        batch_size: int,
        window: float,
        max_in_flight: int,
        max_requests: int | None = None,
        orphan_bytes: int = 32 << 20,
        spread_requests: int = 1,
    ) -> None:
        if batch_size < 1 or max_in_flight < 1 or window < 0 or spread_requests < 1:
            raise ValueError("batch_size, max_in_flight and spread_requests must be >= 1, window >= 0")
        self._send = send
        self.batch_size = batch_size
        self.window = window
        self.max_in_flight = max_in_flight
        self.spread_requests = spread_requests
        # Requests in flight at once: enough to carry max_in_flight checks in full batches, plus
        # the light load's single-check requests (at least one: a small batch never holds the
        # others back) — no more of those than checks may be in flight, so the allowance, and
        # the connection pool sized from it, stays bounded however large the spread.
        self.max_requests = max_requests or -(-max_in_flight // batch_size) + min(spread_requests, max_in_flight)
        self.stats = BatcherStats()
        self.orphans = _Orphans(orphan_bytes)
        # lanes by timeout: one request has one
        self._queue: CheckQueue[_Item] = CheckQueue(on_release=self._poke)
        self._in_flight = 0
        self._requests = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._dispatcher: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._closed = False

    @property
    def in_flight(self) -> int:
        return self._in_flight

    @property
    def waiting(self) -> tuple[int, int]:
        """(certain checks waiting, held speculative checks waiting)."""
        return self._queue.counts

    @property
    def idle(self) -> LeanIdle:
        """Fired when the batcher has a free place and nothing left to send (`CheckQueue.idle`)."""
        return self._queue.idle

    def has_room(self) -> bool:
        """Whether a check submitted now would be sent at once: below the in-flight limit and no
        check that is not held waits (the same room that lets held work go)."""
        return self._in_flight < self.max_in_flight and not self._queue.counts[0]

    async def check(self, code: str, timeout: float, *, order: OrderKey | None = None) -> CheckResult:
        """`code`'s verdict; it waits its turn in `order` (None: `priority.UNORDERED`, a fresh search's place)."""
        if self._closed:
            raise VerifierError("the Kimina verifier was closed")
        kept = self.orphans.pop(code)
        if kept is not None:
            self.stats.orphan_hits += 1
            sending.not_sent()  # a verdict kept from a request already sent: nothing leaves now
            return kept
        self._bind_loop()
        assert self._loop is not None and self._wake is not None
        item = _Item(code, timeout, self._loop.create_future(), on_sent=sending.current())
        item.ticket = self._queue.put(item, order, lane=timeout)
        sending.queued()  # the dispatcher sends it (`_start` tells the caller's budget)
        self.stats.submitted += 1
        self._wake.set()
        try:
            return await asyncio.shield(item.future)
        except asyncio.CancelledError:
            if not item.sent:
                self.stats.dropped_unsent += 1
                self._queue.discard(item.ticket)
                item.future.cancel()
            else:
                item.orphaned = True  # the request runs on; its verdict goes to `orphans`
                self.stats.orphaned += 1
            raise

    def _poke(self) -> None:
        """Held work joined the certain work: the dispatcher looks again."""
        if self._wake is not None:
            self._wake.set()

    async def close(self, grace: float = CLOSE_GRACE_SECONDS) -> None:
        """Stop: nothing more is sent, checks still waiting are cancelled, and requests already
        sent get `grace` seconds to finish before they are aborted (aborting one costs Kimina the
        REPL running it: at the end of a bench those are the last orphans of won races)."""
        self._closed = True
        if self._dispatcher is not None:
            self._dispatcher.cancel()
            await asyncio.gather(self._dispatcher, return_exceptions=True)
        sending = list(self._sending)
        if sending and grace > 0:
            await asyncio.wait(sending, timeout=grace)
        for task in sending:
            task.cancel()
        if sending:
            await asyncio.gather(*sending, return_exceptions=True)
        for item in self._queue.clear():
            if not item.future.done():
                item.future.cancel()

    # --- dispatching ----------------------------------------------------------------------------

    def _bind_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is loop and self._dispatcher is not None and not self._dispatcher.done():
            return
        if self._loop is not loop:
            # A new event loop (e.g. a second asyncio.run with the same verifier): the old loop's
            # tasks and futures are gone with it; start afresh.
            self._queue.clear()
            self._sending.clear()
            self._in_flight = self._requests = 0
            self._loop = loop
            self._wake = asyncio.Event()
        self._dispatcher = loop.create_task(self._dispatch(), name="kimina-batcher")

    def _live(self) -> int:
        """How many checks wait, held ones included."""
        return len(self._queue)

    async def _dispatch(self) -> None:
        assert self._wake is not None
        wake = self._wake
        while not self._closed:
            if not self._live():
                if self._in_flight < self.max_in_flight:
                    self._queue.report_idle()  # room and nothing to send: work waiting for that may start
                wake.clear()
                await wake.wait()
                continue
            if self._in_flight >= self.max_in_flight or self._requests >= self.max_requests:
                wake.clear()
                await wake.wait()  # a finished request sets it
                continue
            if self._in_flight + self._live() < self.spread_requests:
                size = 1  # light load: each check alone, at once — its verdict waits for no other
            else:
                if self.window > 0 and self._live() < self.batch_size:
                    # Let the checks that arrive together travel together.
                    await asyncio.sleep(self.window)
                size = self._batch_size_for(self._in_flight + self._live())
            room = min(size, self.max_in_flight - self._in_flight)
            batch = self._take(room)
            if batch:
                self._start(batch)

    def _batch_size_for(self, load: int) -> int:
        """The load (checks in flight and waiting) spread over `spread_requests` requests, up to
        `batch_size` checks in one."""
        return max(1, min(self.batch_size, -(-load // self.spread_requests)))

    def _take(self, room: int) -> list[_Item]:
        """Up to `room` waiting items of one lane (one timeout: one request has one), in the
        queue's order; held work only while no certain work waits anywhere (Lean has room)."""
        lane = self._queue.best_lane()
        batch: list[_Item] = []
        while lane is not None and len(batch) < room:
            ticket = self._queue.pop(lane, held_too=not self._queue.counts[0])
            if ticket is None:
                break
            item = ticket.value
            item.sent = True
            if ticket.speculated:
                item.speculated = True
                self.stats.speculated += 1
            batch.append(item)
        return batch

    def _start(self, batch: list[_Item]) -> None:
        assert self._loop is not None
        for item in batch:
            item.sent = True
            item.on_sent()
        self._in_flight += len(batch)
        self._requests += 1
        self.stats.batches += 1
        self.stats.sent += len(batch)
        self.stats.max_in_flight = max(self.stats.max_in_flight, self._in_flight)
        task = self._loop.create_task(self._run(batch))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _run(self, batch: list[_Item]) -> None:
        try:
            results = await self._send([i.code for i in batch], batch[0].timeout)
        except asyncio.CancelledError:  # the batcher is closing
            for item in batch:
                item.future.cancel()
            raise
        except Exception as exc:  # handed to every waiter
            for item in batch:
                if not item.future.done():
                    item.future.set_exception(exc)
                    item.future.exception()  # retrieved: a waiter that left must not warn
            return
        finally:
            self._in_flight -= len(batch)
            self._requests -= 1
            if self._wake is not None:
                self._wake.set()
        for item, result in zip(batch, results, strict=True):
            if item.orphaned:
                self.orphans.put(item.code, result)
                self.stats.orphaned_seconds += result.time
                if item.speculated:
                    self.stats.orphaned_speculated_seconds += result.time
            if not item.future.done():
                item.future.set_result(result)

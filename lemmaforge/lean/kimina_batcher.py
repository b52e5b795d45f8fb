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

Order: waiting checks leave in the order of `lean.priority` (the searches that went deepest first,
then arrival), not first-come-first-served: while Lean is the bottleneck, the long dependent chains
of the hard searches are what bound the run's length. With `max_in_flight` near the server's REPL
count the waiting happens here, where the order is ours. Speculative work (a race's later candidate
while an earlier one is unanswered, a sketch's later hole while an earlier one is unsolved:
`priority.Siblings`) is held apart: it joins the queue when what held it is settled, or leaves
earlier when nothing else waits (Lean has room). Measured (scripts/bench_e2e.py, 244 problems, 64
REPLs, 128 in flight): releasing held work only below 64 or 96 checks in flight, so that it would
not queue at the server ahead of certain work, cut the orphaned Lean time (3.0 % -> 2.2-2.4 %) but
starved the REPLs (a request answers when its slowest check does, so checks in flight overstate
busy REPLs): useful utilisation 0.894 and 0.908 against 0.913-0.933.

Batch size follows the load (`spread_requests`): a request answers when its slowest check does, so
a check batched with three others waits, on average, for the slowest of four lognormal check times.
Under load that costs nothing (the REPLs stay busy; what batching saves is client CPU), but when
Lean has room — a run's end, where only the last searches' dependent chains are left — it delays
every step of those chains. So the checks in flight and waiting are spread over about
`spread_requests` requests before any two share one: below that many, each check leaves alone and
at once; above it, batches grow with the load up to `batch_size`. Measured (scripts/bench_e2e.py,
244 problems, 64 REPLs, batches of up to 4): spread over 32 requests, useful utilisation 0.949
(0.940-0.945 leaving alone only below 32-128) against 0.918-0.921 for full batches the same hour;
the drain after the last problem started shrank from 118 s to ~105 s. Spread over as many requests
as the server has REPLs (64), so that no check waits for a batch-mate while a REPL could take it,
runs alternated in one session: 0.932-0.942 (mean 0.938) against 0.916-0.937 (mean 0.928) for 32 —
about one run's spread, taken for its reason. The default, 1, is plain coalescing (every request
as full as the waiting checks allow).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from lemmaforge import sending
from lemmaforge.lean import priority
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
    key: tuple[priority.Priority, int]  # (priority, arrival): the heap's order
    queued_at: float = 0.0  # time.monotonic()
    sent: bool = False
    orphaned: bool = False  # the caller left after the request was sent
    path: priority.SiblingPath = ()  # the (sibling group, rank) pairs it works for
    held: bool = False  # waits in the held heap: an earlier sibling on its path is open
    held_order: priority.HeldOrder | None = None  # its live entry's place there (older entries are stale)
    speculated: bool = False  # sent while held (Lean had room)
    on_sent: Callable[[], None] = lambda: None  # tells the caller's budget it left (lemmaforge/sending.py)

    def __lt__(self, other: _Item) -> bool:
        return self.key < other.key


@dataclass(order=True, slots=True)
class _HeldEntry:
    """A held item in the held heap, in `priority.held_order`, then arrival."""

    order: priority.HeldOrder
    arrival: int
    item: _Item = field(compare=False)


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
        self._queue: list[_Item] = []  # a heap, by (priority, arrival)
        self._held: list[_HeldEntry] = []  # a heap: speculative items waiting for earlier siblings
        # entries of `_held` whose item left it another way (released, cancelled, sent as overdue):
        # skipped when popped, and the heap is rebuilt when they are most of it (a long run would
        # otherwise keep every released item, and its code, until the heap drains)
        self._held_stale = 0
        self._held_by_group: dict[priority.Siblings, list[_Item]] = {}
        self._arrived: deque[_Item] = deque()  # every waiting item by arrival: the oldest is never starved
        self._arrivals = itertools.count()
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
        """(checks waiting in the queue, held speculative checks), approximately: entries of
        checks cancelled while waiting are counted until the dispatcher skips them."""
        return len(self._queue), len(self._held)

    def has_room(self) -> bool:
        """Whether a check submitted now would be sent at once: below the in-flight limit and no
        check that is not held waits (the same room that lets held work go)."""
        while self._queue and (self._queue[0].future.done() or self._queue[0].sent):
            heapq.heappop(self._queue)
        return self._in_flight < self.max_in_flight and not self._queue

    async def check(self, code: str, timeout: float) -> CheckResult:
        if self._closed:
            raise VerifierError("the Kimina verifier was closed")
        kept = self.orphans.pop(code)
        if kept is not None:
            self.stats.orphan_hits += 1
            sending.not_sent()  # a verdict kept from a request already sent: nothing leaves now
            return kept
        self._bind_loop()
        assert self._loop is not None and self._wake is not None
        item = _Item(code, timeout, self._loop.create_future(), (priority.current(), next(self._arrivals)),
                     time.monotonic(), path=priority.current_siblings(), on_sent=sending.current())
        if item.path and priority.held(item.path):
            self._hold(item)
        else:
            heapq.heappush(self._queue, item)
        self._arrived.append(item)
        sending.queued()  # the dispatcher sends it (`_start` tells the caller's budget)
        self.stats.submitted += 1
        self._wake.set()
        try:
            return await asyncio.shield(item.future)
        except asyncio.CancelledError:
            if not item.sent:
                self.stats.dropped_unsent += 1  # the dispatcher skips it
                if item.held:
                    self._unhold(item)
                item.future.cancel()
            else:
                item.orphaned = True  # the request runs on; its verdict goes to `orphans`
                self.stats.orphaned += 1
            raise

    # --- held speculative items ---------------------------------------------------------------------

    def _push_held(self, item: _Item) -> None:
        item.held = True
        item.held_order = priority.held_order(item.path, item.key[0])
        heapq.heappush(self._held, _HeldEntry(item.held_order, item.key[1], item))

    def _reorder_held(self, item: _Item) -> None:
        """A group on `item`'s path let it go while another still holds it: its place among held work
        may have moved (a race no longer holding it puts it with the holes' work, `held_order`). The
        new entry goes in; the old one stays in the heap as stale."""
        order = priority.held_order(item.path, item.key[0])
        if order != item.held_order:
            item.held_order = order
            heapq.heappush(self._held, _HeldEntry(order, item.key[1], item))
            self._held_stale += 1

    def _hold(self, item: _Item) -> None:
        self._push_held(item)
        for group, rank in item.path:
            if not group.holds(rank):
                continue
            waiting = self._held_by_group.get(group)
            if waiting is None:
                waiting = self._held_by_group[group] = []
                group.listen(self._group_moved)
            waiting.append(item)

    def _group_moved(self, group: priority.Siblings) -> None:
        """An earlier sibling in `group` settled: what is held by nothing any more joins the queue."""
        waiting = self._held_by_group.get(group)
        if waiting is None:
            return
        still: list[_Item] = []
        released = False
        for item in waiting:
            if not self._live_held(item):
                continue  # gone (cancelled), sent as room allowed, or released by another group
            rank = next(r for g, r in item.path if g is group)
            if group.holds(rank):
                still.append(item)
            elif not priority.held(item.path):
                self._unhold(item)
                heapq.heappush(self._queue, item)
                released = True
            else:  # still held by another group on its path, which will tell when it moves
                self._reorder_held(item)
        if still:
            self._held_by_group[group] = still
        else:
            del self._held_by_group[group]
            group.forget(self._group_moved)
        if released and self._wake is not None:
            self._wake.set()

    def _unhold(self, item: _Item) -> None:
        """`item` leaves the held heap other than by being popped: its entry there goes stale."""
        item.held = False
        self._held_stale += 1
        if self._held_stale > 64 and 2 * self._held_stale > len(self._held):
            self._held = [e for e in self._held if self._live_entry(e)]
            heapq.heapify(self._held)
            self._held_stale = 0

    def _pop_held(self) -> _Item | None:
        """The first item still held, in `priority.held_order` (a sketch's holes' work before a race's
        candidates, then the least speculative), taken because Lean has room: no longer held."""
        while self._held:
            entry = heapq.heappop(self._held)
            if self._live_entry(entry):
                entry.item.held = False
                return entry.item
            self._held_stale -= 1
        return None

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
        queued, self._queue = self._queue, []
        queued += [entry.item for entry in self._held]
        self._forget_held()
        self._arrived.clear()
        for item in queued:
            if not item.future.done():
                item.future.cancel()

    def _forget_held(self) -> None:
        for group in self._held_by_group:
            group.forget(self._group_moved)
        self._held_by_group.clear()
        self._held.clear()
        self._held_stale = 0

    # --- dispatching ----------------------------------------------------------------------------

    def _bind_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is loop and self._dispatcher is not None and not self._dispatcher.done():
            return
        if self._loop is not loop:
            # A new event loop (e.g. a second asyncio.run with the same verifier): the old loop's
            # tasks and futures are gone with it; start afresh.
            self._queue.clear()
            self._forget_held()
            self._arrived.clear()
            self._sending.clear()
            self._in_flight = self._requests = 0
            self._loop = loop
            self._wake = asyncio.Event()
        self._dispatcher = loop.create_task(self._dispatch(), name="kimina-batcher")

    def _live(self) -> int:
        """How many items wait (an upper bound: dead items deeper in the heaps are skipped later)."""
        while self._queue and (self._queue[0].future.done() or self._queue[0].sent):
            heapq.heappop(self._queue)  # cancelled while queued, or sent as overdue (deeper ones: at their turn)
        while self._held and not self._live_entry(self._held[0]):
            heapq.heappop(self._held)
            self._held_stale -= 1
        while self._arrived and (self._arrived[0].future.done() or self._arrived[0].sent):
            self._arrived.popleft()
        waiting = len(self._queue) + len(self._held)
        if len(self._arrived) > 4 * waiting + 1024:
            # an old item still waiting (held for long) keeps every later one here: drop the dead
            self._arrived = deque(i for i in self._arrived if not (i.future.done() or i.sent))
        return waiting

    @staticmethod
    def _live_held(item: _Item) -> bool:
        return item.held and not item.future.done() and not item.sent

    @classmethod
    def _live_entry(cls, entry: _HeldEntry) -> bool:
        """The held heap's entry still stands for its item: held, and not moved by `_reorder_held`."""
        return cls._live_held(entry.item) and entry.order == entry.item.held_order

    async def _dispatch(self) -> None:
        assert self._wake is not None
        wake = self._wake
        while not self._closed:
            if not self._live():
                if self._in_flight < self.max_in_flight:
                    priority.lean_idle()  # room and nothing to send: work waiting for that may start
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
        """Up to `room` live items — first any that waited past `priority.MAX_WAIT_SECONDS`, oldest
        first, then in priority order — all with the first one's timeout (one request has one)."""
        self._live()
        batch: list[_Item] = []
        timeout: float | None = None

        def fits(item: _Item) -> bool:
            nonlocal timeout
            if item.future.done() or item.sent:
                return False
            timeout = item.timeout if timeout is None else timeout
            return item.timeout == timeout

        overdue_before = time.monotonic() - priority.MAX_WAIT_SECONDS
        for item in self._arrived:
            if len(batch) >= room or item.queued_at > overdue_before:
                break
            if fits(item):
                if item.held:
                    self._unhold(item)
                item.sent = True  # taken: the heaps skip it
                batch.append(item)
        kept: list[_Item] = []
        while self._queue and len(batch) < room:
            item = heapq.heappop(self._queue)
            if item.future.done() or item.sent:
                continue
            if not fits(item):
                kept.append(item)
                continue
            item.sent = True
            batch.append(item)
        # Nothing certain is left to send and the server has room: held work goes rather than leave
        # a REPL idle (in `priority.held_order`: a sketch's holes before a race's candidates).
        held_kept: list[_Item] = []
        while not kept and len(batch) < room and (held_item := self._pop_held()) is not None:
            if not fits(held_item):
                held_kept.append(held_item)
                continue
            held_item.sent = held_item.speculated = True
            self.stats.speculated += 1
            batch.append(held_item)
        for item in kept:
            heapq.heappush(self._queue, item)
        for item in held_kept:
            self._push_held(item)
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

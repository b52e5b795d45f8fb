"""The REPL pool's scheduling policy (`_verifier.py`): which check or tactic step gets which worker.

Scheduling (all on the event loop; only the blocking lean-interact calls run in threads, one
in-flight request per worker):
- a check goes to an idle worker that already has its header; else a new worker is started while
  there are fewer than `workers`; else the least recently used idle worker of another header is
  switched over (its process restarted with the new header) if that pays (below); else the check
  waits;
- a released worker goes, in this order, to a tactic step waiting for this very worker (its proof
  states live there), to the first check waiting for its header, or to the first check waiting for
  another header if switching pays — first in the order of the one check queue the Kimina batcher
  uses too (lean/check_queue.py: each check's `lean.priority.OrderKey`, held speculative work last, an overdue
  check first);
- switching pays when no worker serves that header (its checks would starve), or when its queue
  would still be busy after the switched worker has elaborated the header (measured averages of
  header and check times). A switch costs a whole header elaboration (Mathlib: 10-20 s), so a
  worker is not moved over for the last few checks of another header.

`PoolScheduling` is the part of `ReplVerifier` that decides this; it reads and writes the pool's
state (declared below), and the verifier holds it by inheriting this class.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass

from lemmaforge.lean.check_queue import CheckQueue, Ticket
from lemmaforge.lean.priority import OrderKey
from lemmaforge.lean.repl._process import Worker
from lemmaforge.lean.verifier import VerifierError


@dataclass(slots=True)
class Waiter:
    header: str | None  # None: waits for one specific worker (tactic step)
    slot: int | None
    future: asyncio.Future[Worker]
    ticket: Ticket[Waiter] | None = None  # a check's place in the queue (a tactic step has none)


class PoolScheduling:
    """Hands workers to checks and tactic steps (see the module docstring)."""

    # The pool's state, set up by ReplVerifier.__init__.
    _workers: list[Worker]
    _capacity: int
    _queue: CheckQueue[Waiter]
    _tactic_waiters: deque[Waiter]
    _closed: bool
    # Running averages of Lean's answer times, to decide when switching a worker's header pays.
    _avg_header_s: float | None
    _avg_check_s: float | None

    async def _acquire(
        self, header: str | None, *, slot: int | None = None, order: OrderKey | None = None
    ) -> Worker:
        """A worker for a check of `header` (waiting its turn in `order`), or the worker `slot`
        for a tactic step on a proof state of its process."""
        if self._closed:
            raise VerifierError("the REPL verifier was closed")
        worker = self._take_now(header, slot)
        if worker is not None:
            return worker
        waiter = Waiter(header, slot, asyncio.get_running_loop().create_future())
        if slot is None:
            waiter.ticket = self._queue.put(waiter, order, lane=header)
        else:
            self._tactic_waiters.append(waiter)
        try:
            return await waiter.future
        except asyncio.CancelledError:
            if waiter.future.done() and not waiter.future.cancelled():
                self._release(waiter.future.result())  # handed over just as we were cancelled
            elif waiter.ticket is not None:
                self._queue.discard(waiter.ticket)
            elif waiter in self._tactic_waiters:
                self._tactic_waiters.remove(waiter)
            raise

    def _take_now(self, header: str | None, slot: int | None) -> Worker | None:
        if slot is not None:
            worker = self._workers[slot]
            return self._mark_busy(worker, None) if not worker.busy else None
        assert header is not None
        idle = [w for w in self._workers if not w.busy]
        same = [w for w in idle if w.header == header]
        if same:
            return self._mark_busy(max(same, key=lambda w: w.last_released), None)
        if len(self._workers) < self._capacity:
            worker = Worker(slot=len(self._workers), header=header)
            self._workers.append(worker)
            return self._mark_busy(worker, None)
        if idle and self._worth_switching_to(header, queued=1 + self._queued_for(header)):  # LRU idle one switches
            return self._mark_busy(min(idle, key=lambda w: w.last_released), header)
        return None

    def _worth_switching_to(self, header: str, *, queued: int) -> bool:
        """Should a worker of another header restart with `header`, which has `queued` checks
        waiting? Always when no worker serves it (its checks would starve); otherwise only when its
        queue would still be busy by the time the switched worker has elaborated the header
        (measured averages). A switch costs a full header elaboration (Mathlib: 10-20 s), so moving
        a worker over for the last few queued checks of a header only adds work."""
        serving = self._serving(header)
        if serving == 0:
            return True
        if self._avg_header_s is None or self._avg_check_s is None:
            return False  # nothing measured yet: the header's own workers will get to it
        return queued * self._avg_check_s / serving > self._avg_header_s

    def _serving(self, header: str) -> int:
        return sum(1 for w in self._workers if w.header == header)

    def _queued_for(self, header: str) -> int:
        return self._queue.lane_size(header)

    def _mark_busy(self, worker: Worker, new_header: str | None) -> Worker:
        worker.busy = True
        if new_header is not None:
            worker.header = new_header  # _prepare restarts the process with it
        return worker

    def _release(self, worker: Worker) -> None:
        if worker.inflight is not None and not worker.inflight.done():
            # The caller was cancelled but the thread still talks to this process: release later.
            worker.inflight.add_done_callback(lambda _: self._release(worker))
            return
        worker.inflight = None
        worker.busy = False
        worker.last_released = time.monotonic()
        waiter = self._next_waiter_for(worker)
        if waiter is None:
            if not self._queue and not self._tactic_waiters:
                self._queue.report_idle()  # an idle worker and nothing to give it: work waiting for that may start
            return
        waiter.future.set_result(self._mark_busy(worker, waiter.header if waiter.header != worker.header else None))

    def _next_waiter_for(self, worker: Worker) -> Waiter | None:
        """Who gets the freed `worker`, taken out of the line: a tactic step on a proof state of
        this very process; else the first check of its header in the queue's order; else the first
        of the header with the longest backlog per worker serving it, if switching pays."""
        for step in self._tactic_waiters:
            if step.slot == worker.slot and not step.future.done():
                self._tactic_waiters.remove(step)
                return step
        check = self._pop_live(worker.header)
        if check is not None:
            return check
        queued = dict(self._queue.lane_sizes())
        candidates = [h for h, n in queued.items() if isinstance(h, str) and self._worth_switching_to(h, queued=n)]
        if not candidates:
            return None
        return self._pop_live(max(candidates, key=lambda h: queued[h] / (1 + self._serving(h))))

    def _pop_live(self, header: str | None) -> Waiter | None:
        """The first waiter of `header`'s lane whose caller still waits (one cancelled a moment ago
        may not have left the queue yet)."""
        while (ticket := self._queue.pop(header)) is not None:
            if not ticket.value.future.done():
                return ticket.value
        return None

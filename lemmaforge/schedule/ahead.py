"""Model requests started before the search needs them (`[search] prefetch`).

Why: at the end of a bench only the running searches' dependent chains are left — a check, then a
model call, then a check… — and every model call on such a chain is time the Lean workers idle. A
goal's next request is known before its turn comes (the prover's while the goal's automation is
checked, the planner's first sketch while the prover's candidates are, the next alternative's while
a sketch is tried), so it can start early: but only when that costs nothing — the model endpoint
has room and the budget has room beside what is already ahead. A hole waiting its turn behind
earlier siblings while Lean is busy (lean/priority.py holds its checks) starts its request when it
is next in line — one sibling away from its turn, about a model request's time before it — not at
once: its sketch is often abandoned before then. (Measured on scripts/bench_e2e.py: starting every
held hole's request at once shortened the run's tail but made 2.8 x as many requests nobody took.)
It also starts when the check queue of the run's verifier reports Lean idle (its `idle` event:
nothing left to send, held checks included) and Lean still has room: at the end of a run, the few searches left
cannot keep the workers busy one sibling at a time.

Budgets: a request started ahead spends its unit of `llm_calls` when it is sent (a budget caps what
leaves the process, search/budget.py); none is started without a unit left. One the search never
takes (its goal closed first) is aborted — an aborted request frees its slot on vLLM — and counted
in `SearchStats.prefetched_unused`: charged, not used.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from lemmaforge.errors import AttemptFailed
from lemmaforge.lean import priority as lean_priority
from lemmaforge.search.budget import Budget, BudgetedVerifier
from lemmaforge.search.interfaces import Generated, PlannerLike, ProverLike

MakeRequest = Callable[[], Awaitable[Any]]  # makes the request's coroutine when called
Ahead = asyncio.Task["Generated | None"]  # a request started ahead; None: it was never sent


class RequestsAhead:
    """One search's requests started ahead of need, and the rules for starting and taking them."""

    def __init__(
        self,
        budget: Budget,
        lean: BudgetedVerifier,
        generate: Callable[[Awaitable[Any]], Awaitable[Generated]],
        *,
        enabled: bool,
    ) -> None:
        self.budget = budget
        self.lean = lean
        self.enabled = enabled
        self._generate = generate  # the search's own budgeted request, for what was not started ahead
        self.pending: set[Ahead] = set()  # started, not yet taken or dropped
        self.held: set[asyncio.Task[Any]] = set()  # of those, the ones holding a unit (handed to the client)
        self.sent: set[asyncio.Task[Any]] = set()  # of those, the ones whose request went out

    def start(self, agent: PlannerLike | ProverLike | None, make: MakeRequest) -> Ahead | None:
        """Start `make()` now if it costs nothing (see the module's doc), or when the current goal
        is next in line; charged when it is sent. None: the request will be made when it is needed."""
        if not self.enabled:
            return None
        if agent is None or not agent.has_room():
            return None
        if not self.budget.has_calls(speculative=True):
            return None
        path = lean_priority.current_siblings()
        task: asyncio.Task[Any]
        if lean_priority.next_in_line(path) or self.lean.has_room():  # (work not held is next in line)
            task = asyncio.ensure_future(self._send(make))
        else:
            task = asyncio.ensure_future(self._when_next_in_line(path, agent.has_room, make))
        self.pending.add(task)
        return task

    async def _when_next_in_line(self, path: lean_priority.SiblingPath, room: Callable[[], bool],
                                 make: MakeRequest) -> Generated | None:
        await lean_priority.until_next_in_line(path, or_when=self.lean.has_room, idle=self.lean.idle)
        if not room():
            return None  # not sent: the request is made when needed
        return await self._send(make)

    async def _send(self, make: MakeRequest) -> Generated | None:
        """Hand the request to the client, in its own task as that task runs, holding a unit that
        is charged when the request leaves: one dropped before it ran, or while it waited for the
        client's slot, was never sent and is not charged. None: no unit left, not sent."""
        if not self.budget.has_calls(speculative=True):
            return None  # the request is made when needed, through the budget
        task = asyncio.current_task()
        assert task is not None
        unit = self.budget.hold_call(ahead=True, on_sent=lambda delta: self._sent(task, delta))
        self.held.add(task)
        return await self.budget.send(unit, _request(make))

    def _sent(self, task: asyncio.Task[Any], delta: int = 1) -> None:
        """The request is out of the process (+1), or, after all, still queued in the client (-1)."""
        if delta > 0:
            self.sent.add(task)
        else:
            self.sent.discard(task)
        self.budget.stats.prefetched_calls += delta

    async def take(self, ahead: Ahead | None, make: MakeRequest) -> Generated:
        """The request's answer: the one started ahead (charged when sent), else one made now
        through the budget."""
        if ahead is None or ahead not in self.pending:
            return await self._generate(make())
        self.pending.discard(ahead)
        if ahead not in self.held:  # still waiting for its turn, or it came without room: never sent
            ahead.cancel()
            return await self._generate(make())
        self.held.discard(ahead)
        self.sent.discard(ahead)
        out = await ahead  # (cancelled: its unit is given back, or counted cancelled if it had left)
        assert out is not None  # a sent request's answer
        self.budget.stats.generation_seconds += out.seconds
        return out

    def drop(self, ahead: Ahead | None) -> None:
        """A request started ahead that the search will not take: aborted; charged if it was sent,
        reported unused."""
        if ahead is None or ahead not in self.pending:
            return
        self.pending.discard(ahead)
        self.held.discard(ahead)
        if ahead in self.sent:
            self.sent.discard(ahead)
            self.budget.stats.prefetched_unused += 1
        if not ahead.done():
            ahead.cancel()
        elif not ahead.cancelled():
            ahead.exception()  # retrieved: an endpoint error here is met again by the request made instead


async def _request(make: MakeRequest) -> Generated:
    """One model request outside the budget. The coroutine is made inside the task, so that a task
    cancelled before it ran leaves no coroutine unawaited."""
    started = time.monotonic()
    try:
        out = Generated(await make())
    except AttemptFailed:
        out = Generated()  # the server refused this request (a 4xx): a failed attempt, as in the search
    out.seconds = time.monotonic() - started
    return out

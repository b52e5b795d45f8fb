"""Model requests started before the search needs them (`[search] prefetch`).

Why: at the end of a bench only the running searches' dependent chains are left — a check, then a
model call, then a check… — and every model call on such a chain is time the Lean workers idle. A
goal's next request is known before its turn comes (the prover's while the goal's automation is
checked, the planner's first sketch while the prover's candidates are, the next alternative's while
a sketch is tried), so it can start early: but only when that costs nothing — the model endpoint
has room, the budget has room beside what is already ahead, and the goal is not a hole waiting its
turn behind an earlier sibling while Lean is busy (its sketch is often abandoned before then).

Budgets: a request started ahead spends its unit of `llm_calls` when the search takes its answer,
exactly where a one-step-at-a-time search would have started it, so a budget buys the same search
whatever the timing. One the search never takes (its goal closed first) is aborted — an aborted
request frees its slot on vLLM — and counted in `SearchStats.prefetched_unused`, never charged.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from lemmaforge.errors import AttemptFailed
from lemmaforge.lean import priority as lean_priority
from lemmaforge.search.budget import Budget, BudgetedVerifier, BudgetExhausted
from lemmaforge.search.interfaces import Generated

MakeRequest = Callable[[], Awaitable[Any]]  # makes the request's coroutine when called


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
        self.pending: set[asyncio.Task[Generated]] = set()  # started, not yet taken or dropped

    def start(self, agent: Any, make: MakeRequest) -> asyncio.Task[Generated] | None:
        """Start `make()` now, uncharged, if it costs nothing (see the module's doc); None: the
        request will be made when it is needed."""
        if not self.enabled:
            return None
        room = getattr(agent, "has_room", None)
        if not callable(room) or not room():
            return None
        if self.budget.stats.llm_calls + len(self.pending) >= self.budget.cfg.llm_calls:
            return None
        if lean_priority.held(lean_priority.current_siblings()) and not self.lean.has_room():
            return None
        task = asyncio.ensure_future(_request(make))
        self.pending.add(task)
        self.budget.stats.prefetched_calls += 1
        return task

    async def take(self, ahead: asyncio.Task[Generated] | None, make: MakeRequest) -> Generated:
        """The request's answer: the one started ahead (charged now), else one made now through the
        budget."""
        if ahead is None or ahead not in self.pending:
            return await self._generate(make())
        self.pending.discard(ahead)
        try:
            self.budget.spend_call()
        except BudgetExhausted:
            self.pending.add(ahead)
            self.drop(ahead)
            raise
        try:
            out = await ahead
        except asyncio.CancelledError:
            self.budget.stats.cancelled_calls += 1
            raise
        self.budget.stats.generation_seconds += out.seconds
        return out

    def drop(self, ahead: asyncio.Task[Generated] | None) -> None:
        """A request started ahead that the search will not take: aborted, never charged."""
        if ahead is None or ahead not in self.pending:
            return
        self.pending.discard(ahead)
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

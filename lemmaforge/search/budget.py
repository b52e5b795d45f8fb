"""The engine's one door to Lean and to the models: budgets that hold, and counts that tell the truth.

Every Lean request a run makes (candidate checks, sketch checks, lemma building's `extract_goal`
and round-trip check, automation, the final audit) passes through `BudgetedVerifier`, which spends
one unit of `lean_checks` *before* the request leaves and deduplicates identical checks (one
request, every caller gets its verdict). Every model request spends one unit of `llm_calls` before
it is awaited. So a run never sends more than its budgets allow, and what it reports is what it
started: `cancelled_checks` / `cancelled_calls` count the requests that were spent and then
cancelled before an answer came (the only way "reported" can exceed "received by the server").

One exception, counted apart: a model request the engine starts ahead of need (`[search]
prefetch`, only while the endpoint has room) spends its unit when the search takes its answer —
exactly where a one-step-at-a-time search would have started it, so the budget buys the same
search whatever the timing. One the search never needed is aborted and reported as
`prefetched_unused`: the server receives at most `llm_calls + prefetched_unused` requests.
Checks likewise (`BudgetedVerifier.check_ahead`, only while Lean has room): one started ahead is
charged when the search checks that code, one never needed is reported as `checks_ahead_unused`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from lemmaforge.config import BudgetConfig
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Goal, TacticResult, Verifier

T = TypeVar("T")


class BudgetExhausted(Exception):
    def __init__(self, what: str) -> None:
        super().__init__(f"{what} budget exhausted")
        self.what = what


@dataclass(slots=True)
class SearchStats:
    llm_calls: int = 0  # model requests started (each spent one unit of budget.llm_calls)
    checks: int = 0  # Lean requests started (checks and tactic steps; one unit of budget.lean_checks each)
    generation_seconds: float = 0.0
    check_seconds: float = 0.0
    cache_hits: int = 0  # at the goal's start, or proved meanwhile by another hole (checked again before each step)
    cache_misses: int = 0
    dedup_hits: int = 0  # checks answered by an identical earlier / in-flight check (nothing sent)
    cancelled_calls: int = 0  # started, then cancelled before the model answered
    cancelled_checks: int = 0  # started, then cancelled before Lean answered
    # `[search] prefetch`: model requests started before the search needed them. One is charged to
    # `llm_calls` (above) when the search takes its answer, as if started then; one the search
    # never needed (its goal closed first) is aborted and counted here instead, never charged.
    prefetched_calls: int = 0
    prefetched_unused: int = 0
    # Lean checks started ahead of need while Lean had room (BudgetedVerifier.check_ahead): the
    # same rule, in units of `checks`.
    checks_ahead: int = 0
    checks_ahead_unused: int = 0
    engine_seconds: float = 0.0  # CPU time of the thread running the search (engine + in-process clients)


class Budget:
    def __init__(self, cfg: BudgetConfig) -> None:
        self.cfg = cfg
        self.stats = SearchStats()

    def spend_call(self) -> None:
        if self.stats.llm_calls >= self.cfg.llm_calls:
            raise BudgetExhausted("llm_calls")
        self.stats.llm_calls += 1

    def spend_check(self) -> None:
        if self.stats.checks >= self.cfg.lean_checks:
            raise BudgetExhausted("lean_checks")
        self.stats.checks += 1

    async def call(self, request: Awaitable[T]) -> T:
        """Await one model request under the budget (the coroutine is closed unsent when none is left)."""
        try:
            self.spend_call()
        except BudgetExhausted:
            close = getattr(request, "close", None)
            if close is not None:
                close()  # never awaited: close it so asyncio does not warn
            raise
        started = time.monotonic()
        try:
            return await request
        except asyncio.CancelledError:
            self.stats.cancelled_calls += 1
            raise
        finally:
            self.stats.generation_seconds += time.monotonic() - started


class BudgetedVerifier:
    """A `Verifier` that spends the run's Lean budget on every request and deduplicates checks.

    Handed to everything in a run that talks to Lean (lemma building, automation, the audit), so
    that no request can go around the budget. Only definitive verdicts are kept; a timeout or a
    crash (infrastructure) may be retried later."""

    def __init__(self, verifier: Verifier, budget: Budget, *, timeout: float) -> None:
        self.inner = verifier
        self.budget = budget
        self.timeout = timeout
        self.name = verifier.name
        self.supports_proof_states = verifier.supports_proof_states
        self._checked: dict[str, CheckResult] = {}
        self._inflight: dict[str, asyncio.Future[CheckResult]] = {}
        self._ahead: dict[str, asyncio.Task[CheckResult]] = {}  # started ahead, not yet taken

    def has_room(self) -> bool:
        """Whether the verifier would start a check submitted now at once (False when it cannot say)."""
        room = getattr(self.inner, "has_room", None)
        return bool(room()) if callable(room) else False

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult:
        known = self._checked.get(code)
        if known is not None:
            self.budget.stats.dedup_hits += 1
            return known
        running = self._inflight.get(code)
        if running is not None:
            self.budget.stats.dedup_hits += 1
            return await asyncio.shield(running)
        ahead = self._ahead.pop(code, None)
        try:
            self.budget.spend_check()
        except BudgetExhausted:
            if ahead is not None:
                self._ahead[code] = ahead
                self.drop_ahead(code)
            raise
        future: asyncio.Future[CheckResult] = asyncio.get_running_loop().create_future()
        self._inflight[code] = future
        try:
            if ahead is not None:  # started ahead of need: charged now, as if started now
                result = await ahead
            else:
                result = await self.inner.check(code, timeout=self.timeout if timeout is None else timeout)
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                self.budget.stats.cancelled_checks += 1
            future.set_exception(exc)
            future.exception()  # mark retrieved: waiters re-raise it themselves
            raise
        finally:
            self._inflight.pop(code, None)
        self.budget.stats.check_seconds += result.time
        if result.status not in (CheckStatus.TIMEOUT, CheckStatus.CRASHED):
            self._checked[code] = result
        future.set_result(result)
        return result

    def check_ahead(self, code: str) -> bool:
        """Start checking `code` before the search needs it, uncharged, if that costs nothing: Lean
        has room (the check starts at once, on a worker that would idle) and the budget has room
        beside what is already ahead. The search takes it by checking the same code (charged then,
        where a one-step-at-a-time search would have started it); `drop_ahead` if it never does."""
        if code in self._checked or code in self._inflight or code in self._ahead:
            return False
        if self.budget.stats.checks + len(self._ahead) >= self.budget.cfg.lean_checks or not self.has_room():
            return False
        self._ahead[code] = asyncio.ensure_future(self.inner.check(code, timeout=self.timeout))
        self.budget.stats.checks_ahead += 1
        return True

    def drop_ahead(self, code: str) -> None:
        """A check started ahead that the search will not take: never charged, reported unused
        (cancelled if still running: the verifier lets a sent check finish, lean/kimina_batcher.py)."""
        task = self._ahead.pop(code, None)
        if task is None:
            return
        self.budget.stats.checks_ahead_unused += 1
        if not task.done():
            task.cancel()
        elif not task.cancelled():
            task.exception()  # retrieved: an infrastructure error here is met again if checked for real

    async def check_many(self, codes: Sequence[str], *, timeout: float | None = None) -> list[CheckResult]:
        return list(await asyncio.gather(*(self.check(c, timeout=timeout) for c in codes)))

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        self.budget.spend_check()
        started = time.monotonic()
        try:
            return await self.inner.run_tactic(hole, tactic, timeout=timeout)
        except asyncio.CancelledError:
            self.budget.stats.cancelled_checks += 1
            raise
        finally:
            self.budget.stats.check_seconds += time.monotonic() - started

    async def close(self) -> None:  # the run does not own the verifier
        return None


def first_leaf(group: BaseException) -> BaseException:
    """The first non-group exception inside (possibly nested) exception groups."""
    while isinstance(group, BaseExceptionGroup) and group.exceptions:
        group = group.exceptions[0]
    return group

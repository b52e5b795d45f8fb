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

And work tried before its turn (`[search] parallel_alternatives`: a goal's next alternative sketch
beside the one being tried) spends provisionally (`Provisional`): its units are held apart — they
count against the budget, so the two together never exceed it — and are charged when its turn
comes (every earlier alternative failed: a one-at-a-time search would be trying it now, having
spent the same), or refunded and reported as `speculative_calls` / `speculative_checks` when an
earlier alternative closes the goal first. Work on its turn always has the budget first: a spend
that finds the budget held by provisional work cancels the latest such work and takes its units.
So a budget buys the same search whatever ran beside it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Literal, TypeVar

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
    # Spent by work tried before its turn that never got it (an earlier alternative closed the goal
    # first, or work on its turn needed the units): refunded, never charged (see `Provisional`).
    speculative_calls: int = 0
    speculative_checks: int = 0
    speculative_check_seconds: float = 0.0  # the Lean time of those checks (within check_seconds)
    engine_seconds: float = 0.0  # CPU time of the thread running the search (engine + in-process clients)


@dataclass(eq=False, slots=True)
class Provisional:
    """The spends of work tried before its turn, held apart until it is charged or refunded (see
    the module's doc). Spends made in a task whose context carries it (`Budget.provisional`) land
    here; `cancel` stops that work when work on its turn needs the units."""

    parent: Provisional | None
    cancel: Callable[[], object] = lambda: None
    calls: int = 0
    checks: int = 0
    check_seconds: float = 0.0  # Lean time its checks took (refunded work's is reported apart)
    state: Literal["open", "charged", "refunded"] = "open"
    children: list[Provisional] = field(default_factory=list)


_provisional: ContextVar[Provisional | None] = ContextVar("lemmaforge_provisional", default=None)


class Budget:
    def __init__(self, cfg: BudgetConfig) -> None:
        self.cfg = cfg
        self.stats = SearchStats()
        self.held_calls = 0  # units held by open `Provisional` ledgers
        self.held_checks = 0
        self._open: list[Provisional] = []  # by creation: the latest is preempted first

    # -- provisional work ----------------------------------------------------------------------

    def provisional(self) -> Provisional:
        """A ledger for work about to start before its turn, inside the current provisional work if
        any. Its spends land in it where `within(ledger)` is in force (or `enter(ledger)` was called
        in the task doing the work)."""
        ledger = Provisional(parent=self._open_ledger())
        if ledger.parent is not None:
            ledger.parent.children.append(ledger)
        self._open.append(ledger)
        return ledger

    @staticmethod
    def enter(ledger: Provisional | None) -> None:
        """The current task (and the tasks it creates) spends into `ledger` (None: no change)."""
        if ledger is not None:
            _provisional.set(ledger)

    @staticmethod
    @contextmanager
    def within(ledger: Provisional | None) -> Iterator[None]:
        """Spends inside the block land in `ledger` (None: no change)."""
        if ledger is None:
            yield
            return
        token = _provisional.set(ledger)
        try:
            yield
        finally:
            _provisional.reset(token)

    def charge(self, ledger: Provisional | None) -> None:
        """The work's turn has come: its units are charged (to the enclosing provisional work, if
        it is itself before its turn). None: work on its turn all along."""
        if ledger is None or ledger.state != "open":
            return
        parent = ledger.parent
        while parent is not None and parent.state == "charged":
            parent = parent.parent
        if parent is not None and parent.state == "refunded":
            self.refund(ledger)
            return
        ledger.state = "charged"
        self._open.remove(ledger)
        if parent is not None:  # still provisional, now as part of the enclosing work
            parent.calls += ledger.calls
            parent.checks += ledger.checks
            parent.check_seconds += ledger.check_seconds
            return
        self.held_calls -= ledger.calls
        self.held_checks -= ledger.checks
        self.stats.llm_calls += ledger.calls
        self.stats.checks += ledger.checks

    def refund(self, ledger: Provisional | None) -> None:
        """The work will never have its turn: its units are released, reported as speculative."""
        if ledger is None or ledger.state != "open":
            return
        ledger.state = "refunded"
        self._open.remove(ledger)
        self.held_calls -= ledger.calls
        self.held_checks -= ledger.checks
        self.stats.speculative_calls += ledger.calls
        self.stats.speculative_checks += ledger.checks
        self.stats.speculative_check_seconds += ledger.check_seconds
        for child in ledger.children:
            self.refund(child)

    def _open_ledger(self) -> Provisional | None:
        ledger = _provisional.get()
        while ledger is not None and ledger.state == "charged":
            ledger = ledger.parent
        return ledger

    def checked(self, seconds: float) -> None:
        """Lean time spent on a check (or tactic step) just answered, in the current context."""
        self.stats.check_seconds += seconds
        ledger = self._open_ledger()
        if ledger is not None:
            ledger.check_seconds += seconds

    def has_calls(self, extra: int = 0) -> bool:
        """Whether a model request (beside `extra` already promised) fits the budget."""
        return self.stats.llm_calls + self.held_calls + extra < self.cfg.llm_calls

    def has_checks(self, extra: int = 0) -> bool:
        return self.stats.checks + self.held_checks + extra < self.cfg.lean_checks

    def _preempt(self, what: str, spender: Provisional | None) -> None:
        """Work found the budget held by provisional work started after it (more speculative): cancel
        the latest such work until the spend fits (its units refunded)."""
        fits = self.has_calls if what == "llm_calls" else self.has_checks
        after = 0 if spender is None else self._open.index(spender) + 1
        while len(self._open) > after and not fits():
            ledger = self._open[-1]
            self.refund(ledger)
            ledger.cancel()

    # -- spends --------------------------------------------------------------------------------

    def spend_call(self) -> None:
        ledger = self._open_ledger()
        if self.stats.llm_calls >= self.cfg.llm_calls or (ledger is not None and ledger.state == "refunded"):
            raise BudgetExhausted("llm_calls")  # (refunded: work being cancelled spends nothing more)
        self._preempt("llm_calls", ledger)
        if not self.has_calls():
            raise BudgetExhausted("llm_calls")
        if ledger is None:
            self.stats.llm_calls += 1
        else:
            ledger.calls += 1
            self.held_calls += 1

    def spend_check(self) -> None:
        ledger = self._open_ledger()
        if self.stats.checks >= self.cfg.lean_checks or (ledger is not None and ledger.state == "refunded"):
            raise BudgetExhausted("lean_checks")  # (refunded: work being cancelled spends nothing more)
        self._preempt("lean_checks", ledger)
        if not self.has_checks():
            raise BudgetExhausted("lean_checks")
        if ledger is None:
            self.stats.checks += 1
        else:
            ledger.checks += 1
            self.held_checks += 1

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
        self.budget.checked(result.time)
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
        if not self.budget.has_checks(len(self._ahead)) or not self.has_room():
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
            self.budget.checked(time.monotonic() - started)

    async def close(self) -> None:  # the run does not own the verifier
        return None


def first_leaf(group: BaseException) -> BaseException:
    """The first non-group exception inside (possibly nested) exception groups."""
    while isinstance(group, BaseExceptionGroup) and group.exceptions:
        group = group.exceptions[0]
    return group

"""The engine's one door to Lean and to the models: budgets that cap what leaves the process.

A budget is a cap on work SENT. Every Lean request a run makes (candidate checks, sketch checks,
lemma building's `extract_goal` and round-trip check, automation, the final audit, the preflight's
statement check) passes through `BudgetedVerifier`, and every model request through `Budget.call`
or a request started ahead of need (schedule/ahead.py `RequestsAhead`). Each holds one unit of `lean_checks` / `llm_calls` when it is
handed to its client (a request that would exceed its cap is not sent: `BudgetExhausted`), and the
unit is charged when the request leaves the process: the client says so (lemmaforge/sending.py).
A request cancelled while it still waited inside its client (a concurrency slot, the Kimina
batcher's or the REPL pool's queue) never left: its unit is given back, and it is not counted.
Held units count against the cap, so the cap holds while requests wait. The unit of `llm_calls` is
one request, whatever its `n` (a prover request for 8 samples is one call; samples per goal are
`prover_samples_per_goal`).

Speculation (lemmaforge/schedule/, `[search] speculation`) spends the same units, through the same
calls: a model request or a check started ahead of need is held `ahead=True` and charged when it
is sent, and work tried before its turn is charged as it sends, its spends recorded besides in the
`Account` the run's schedule names for the task that sends (schedule/ledgers.py). The schedule
never writes these counts: it tells the budget what happened (`unused_ahead`, `lost`,
`took_ahead`) and the budget counts. It may only spend budget that is there, and never
a budget's last unit (left to work on its turn); nothing is lent or refunded, so `stats.llm_calls`
/ `stats.checks` are what the run sent. Beside them the stats say how much of it the search never
took (`prefetched_unused`, `checks_ahead_unused`, `speculative_calls`, `speculative_checks`):
`used_calls` / `used_checks` are the rest, what the proof's search used. Identical checks are
deduplicated (one request, every caller gets its verdict; `dedup_hits` sent nothing).

`cancelled_calls` / `cancelled_checks` count the requests sent and then cancelled before an answer
came (counted in `llm_calls` / `checks`: they reached a server).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from lemmaforge import sending
from lemmaforge.config import BudgetConfig
from lemmaforge.lean.gate import GatedVerifier
from lemmaforge.lean.priority import LeanIdle, OrderKey
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Goal,
    Message,
    ProbingVerifier,
    QueuedVerifier,
    ReportsRoom,
    StatementChecker,
    StatementVerdict,
    TacticResult,
    Verifier,
)

T = TypeVar("T")


class BudgetExhausted(Exception):
    def __init__(self, what: str) -> None:
        super().__init__(f"{what} budget exhausted")
        self.what = what


@dataclass(slots=True)
class SearchStats:
    # What the run SENT (each request charged one unit of its budget when it was handed on):
    llm_calls: int = 0  # model requests (one per request, whatever its n)
    checks: int = 0  # Lean requests (checks and tactic steps), the preflight's statement check included
    preflight_checks: int = 0  # of `checks`: the statement check made before the search
    # Tokens of the model requests that answered, as the endpoints reported them (the run's LLM call
    # records; filled in by services.prove_problem, which sees those records).
    prompt_tokens: int = 0
    completion_tokens: int = 0
    generation_seconds: float = 0.0
    check_seconds: float = 0.0
    cache_hits: int = 0  # at the goal's start, or proved meanwhile by another hole (checked again before each step)
    cache_misses: int = 0
    dedup_hits: int = 0  # checks answered by an identical earlier / in-flight check (nothing sent)
    cancelled_calls: int = 0  # sent, then cancelled before the model answered
    cancelled_checks: int = 0  # sent, then cancelled before Lean answered
    # `[search] speculation = "prefetch"`: model requests started before the search needed them (in `llm_calls`);
    # of those, the ones the search never took (their goal closed first), aborted.
    prefetched_calls: int = 0
    prefetched_unused: int = 0
    # Lean checks started ahead of need while Lean had room (in `checks`), and those never taken.
    checks_ahead: int = 0
    checks_ahead_unused: int = 0
    # Sent by work tried before its turn that never got it (an earlier alternative closed the goal
    # first): in `llm_calls` / `checks`, not used by the search.
    speculative_calls: int = 0
    speculative_checks: int = 0
    speculative_check_seconds: float = 0.0  # the Lean time of those checks (within check_seconds)
    engine_seconds: float = 0.0  # CPU time of the thread running the search (engine + in-process clients)

    @property
    def used_calls(self) -> int:
        """Of the model requests sent, those whose answers the search took."""
        return self.llm_calls - self.prefetched_unused - self.speculative_calls

    @property
    def used_checks(self) -> int:
        """Of the Lean requests sent, those whose verdicts the search took."""
        return self.checks - self.checks_ahead_unused - self.speculative_checks


Kind = Literal["calls", "checks"]


class Account(Protocol):
    """Work tried before its turn, as the budget sees it (schedule/ledgers.py `Provisional`): the
    units its tasks spend are recorded in it besides being charged."""

    @property
    def lost(self) -> bool:
        """Its turn will never come: nothing more is sent for it."""

    def spent(self, kind: Kind, delta: int) -> bool:
        """One unit moved between held (-1) and sent (+1). True: its work already lost its turn
        (the budget reports the unit unused at once)."""

    def checked(self, seconds: float) -> None:
        """Lean time of one of its checks."""


class DoorSchedule(Protocol):
    """What the run's doors ask its schedule as work leaves (search/interfaces.py `Schedule`
    declares these too): a check about to go, a unit about to be held."""

    def order(self) -> OrderKey | None:
        """The place of a Lean check submitted now in the verifier's queue (None: none)."""

    def started(self, code: str) -> Awaitable[CheckResult] | None:
        """A check of `code` started ahead of need, taken now by the search (None: none)."""

    def account(self) -> Account | None:
        """The work before its turn the current task spends for (None: work on its turn)."""


class Unscheduled:
    """The doors of a run without a schedule's say: no order, nothing ahead, nothing provisional."""

    __slots__ = ()

    def order(self) -> OrderKey | None:
        return None

    def started(self, code: str) -> Awaitable[CheckResult] | None:
        return None

    def account(self) -> Account | None:
        return None


UNSCHEDULED = Unscheduled()


@dataclass(eq=False, slots=True)
class Unit:
    """One request's unit of budget: held when the request is handed on (`Budget.hold_call` /
    `hold_check`), charged while the request is out of the process, given back when it is cancelled
    inside the client or answered without sending (lemmaforge/sending.py)."""

    kind: Kind
    ledger: Account | None  # the provisional work it was held in (None: work on its turn)
    on_sent: Callable[[int], object] | None = None  # told +1 when it is charged, -1 if that is undone
    ahead: bool = False  # started ahead of need: counted in prefetched_calls / checks_ahead when sent
    state: Literal["held", "sent", "returned"] = "held"
    confirmed: bool = False  # the client said it left (a later "queued", a retry's, changes nothing)


class Budget:
    def __init__(self, cfg: BudgetConfig, *, preflight_checks: int = 0, stats: SearchStats | None = None) -> None:
        """`preflight_checks`: Lean requests the run already sent before its search (the statement
        check): charged first. `stats`: the object to count into (a fresh one by default); `prove`'s
        live view passes its own, so that it reads the very counts the final line reports."""
        self.cfg = cfg
        self.stats = stats if stats is not None else SearchStats()
        self.stats.checks += preflight_checks
        self.stats.preflight_checks += preflight_checks
        # units held by requests handed on and not yet sent: they count against the caps
        self.held_calls = 0
        self.held_checks = 0
        # Whose account the current task spends into: the run's schedule (search/engine.py sets it).
        self.schedule: DoorSchedule = UNSCHEDULED

    # -- what speculation tells the budget (lemmaforge/schedule/) ------------------------------

    def lost(self, *, calls: int, checks: int, check_seconds: float) -> None:
        """Work tried before its turn that will never have it: what it sent stays charged (it left
        the process) and is reported as speculative, unused."""
        self.stats.speculative_calls += calls
        self.stats.speculative_checks += checks
        self.stats.speculative_check_seconds += check_seconds

    def unused_ahead(self, kind: Kind) -> None:
        """A request or check started ahead, sent, that the search never took."""
        if kind == "calls":
            self.stats.prefetched_unused += 1
        else:
            self.stats.checks_ahead_unused += 1

    def took_ahead(self, seconds: float) -> None:
        """The search took the answer of a model request started ahead, which took `seconds`."""
        self.stats.generation_seconds += seconds

    def checked(self, seconds: float) -> None:
        """Lean time spent on a check (or tactic step) just answered, in the current context."""
        self.stats.check_seconds += seconds
        ledger = self.schedule.account()
        if ledger is not None:
            ledger.checked(seconds)

    # Speculation (work started ahead of need, or before its turn) never takes a budget's last unit:
    # it is left to work on its turn, which would otherwise find the budget spent by a guess (a
    # hole's sketch drafted ahead before the hole's own prover request, say).

    def has_calls(self, *, speculative: bool = False) -> bool:
        """Whether one more model request fits the budget (`speculative`: and leaves one unit).
        Units held by requests waiting inside a client count as spent."""
        return self.stats.llm_calls + self.held_calls + speculative < self.cfg.llm_calls

    def has_checks(self, *, speculative: bool = False) -> bool:
        return self.stats.checks + self.held_checks + speculative < self.cfg.lean_checks

    # -- spends: one unit each, held when the request is handed on, charged when it leaves -----

    def hold_call(self, *, ahead: bool = False, on_sent: Callable[[int], object] | None = None) -> Unit:
        """Hold one unit for a model request about to be handed on, or raise BudgetExhausted
        (nothing sent). `ahead`: started ahead of need, accounted as such (schedule/ahead.py), not
        as the current provisional work's. Pass the unit to `send`."""
        ledger = None if ahead else self.schedule.account()
        if not self.has_calls(speculative=ahead or ledger is not None) or (ledger is not None and ledger.lost):
            raise BudgetExhausted("llm_calls")  # (lost: work being cancelled sends nothing more)
        self.held_calls += 1
        return Unit("calls", ledger, on_sent, ahead)

    def hold_check(self, *, ahead: bool = False, on_sent: Callable[[int], object] | None = None) -> Unit:
        ledger = None if ahead else self.schedule.account()
        if not self.has_checks(speculative=ahead or ledger is not None) or (ledger is not None and ledger.lost):
            raise BudgetExhausted("lean_checks")  # (lost: work being cancelled sends nothing more)
        self.held_checks += 1
        return Unit("checks", ledger, on_sent, ahead)

    def spend_call(self, *, ahead: bool = False) -> None:
        """Charge one model request sent now (held and charged at once), or raise BudgetExhausted."""
        self._charge(self.hold_call(ahead=ahead), +1)

    def spend_check(self, *, ahead: bool = False) -> None:
        self._charge(self.hold_check(ahead=ahead), +1)

    def _report(self, unit: Unit, word: sending.Word) -> None:
        """The client's word on `unit`'s request (lemmaforge/sending.py). A request is charged when
        it is handed on (a client that says nothing has no queue); "queued" undoes that until the
        client says "sent"; "not_sent" gives the unit back."""
        if unit.state == "returned":
            return
        if word == "sent":
            unit.confirmed = True
            if unit.state == "held":
                self._charge(unit, +1)
        elif word == "queued":
            if unit.state == "sent" and not unit.confirmed:
                self._charge(unit, -1)
        elif not unit.confirmed:  # "not_sent"
            if unit.state == "sent":
                self._charge(unit, -1)
            self._release(unit)

    def _release(self, unit: Unit) -> None:
        if unit.state == "held":
            if unit.kind == "calls":
                self.held_calls -= 1
            else:
                self.held_checks -= 1
            unit.state = "returned"

    def _charge(self, unit: Unit, delta: int) -> None:
        """Move `unit` between held (-1) and sent (+1), in the stats and in the provisional work it
        was held in (or where that work's spends went since)."""
        unit.state = "sent" if delta > 0 else "held"
        stats = self.stats
        if unit.kind == "calls":
            self.held_calls -= delta
            stats.llm_calls += delta
            if unit.ahead:
                stats.prefetched_calls += delta
        else:
            self.held_checks -= delta
            stats.checks += delta
            if unit.ahead:
                stats.checks_ahead += delta
        ledger = unit.ledger
        if ledger is not None and ledger.spent(unit.kind, delta):  # sent after its work lost its turn
            if unit.kind == "calls":
                stats.speculative_calls += delta
            else:
                stats.speculative_checks += delta
        if unit.on_sent is not None:
            unit.on_sent(delta)

    def give_back(self, unit: Unit) -> None:
        """A held unit whose request will never be sent (its task was dropped before it ran)."""
        self._report(unit, "not_sent")

    async def send(self, unit: Unit, request: Awaitable[T]) -> T:
        """Await `request` with `unit`: charged as it is handed on, unless the client says it waits
        inside (then when the client says it left), given back when it is cancelled still inside
        the client (lemmaforge/sending.py). One cancelled after leaving counts in
        `cancelled_calls` / `cancelled_checks`."""
        if unit.state != "held":  # given back before its task ran: not sent
            _close_unsent(request)
            raise asyncio.CancelledError
        self._charge(unit, +1)
        try:
            with sending.reporting(lambda word: self._report(unit, word)):
                result = await request
        except asyncio.CancelledError:
            if unit.state == "held":
                self._release(unit)  # cancelled inside the client: it never left
            elif unit.state == "sent":
                if unit.kind == "calls":
                    self.stats.cancelled_calls += 1
                else:
                    self.stats.cancelled_checks += 1
            raise
        except BaseException:
            self._report(unit, "sent")  # it failed after the client took it: it was tried
            raise
        self._report(unit, "sent")
        return result

    async def call(self, request: Awaitable[T]) -> T:
        """Await one model request under the budget (the coroutine is closed unsent when none is left)."""
        try:
            unit = self.hold_call()
        except BudgetExhausted:
            _close_unsent(request)
            raise
        started = asyncio.get_running_loop().time()
        try:
            return await self.send(unit, request)
        finally:
            self.stats.generation_seconds += asyncio.get_running_loop().time() - started


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
        # What the door asks as each check is about to go (its place in Lean's queue, a check of the
        # same text started ahead): the run's schedule (search/engine.py sets it).
        self.schedule: DoorSchedule = UNSCHEDULED
        self._never_idle = LeanIdle()  # the `idle` of an inner verifier without a check queue
        # The inner verifier where its checks queue (a runtime Protocol check costs ~0.1 ms: asked
        # once, not per check).
        self._queued: QueuedVerifier | None = verifier if isinstance(verifier, QueuedVerifier) else None

    # -- the audit's door (lean/gate/ `BehindGate`): the gate's members, the probe charged ------

    @property
    def gate(self) -> GatedVerifier | None:
        """The gate this run's texts pass (product code always wraps a gated verifier)."""
        return self.inner if isinstance(self.inner, GatedVerifier) else None

    @property
    def statement_checker(self) -> StatementChecker | None:
        """The gate's Lean-side statement check (SafeVerify), one unit of `lean_checks` per
        comparison (it compiles the original and the proof: Lean work like any check)."""
        checker = self.gate.statement_checker if self.gate is not None else None
        return _ChargedStatementChecker(checker, self.budget) if checker is not None else None

    async def probed_check(
        self, code: str, probe: str, *, timeout: float | None = None
    ) -> tuple[CheckResult, list[Message] | None]:
        """`code` checked with the product's `probe` as its own command (the backend behind the gate
        is a `ProbingVerifier`; the audit has passed `code` through the gate's rules): one check."""
        backend = self.gate.inner if self.gate is not None else self.inner
        if not isinstance(backend, ProbingVerifier):
            raise TypeError(f"{backend.name} cannot run a probe as its own command")
        unit = self.budget.hold_check()  # BudgetExhausted: not sent
        started = asyncio.get_running_loop().time()
        limit = self.timeout if timeout is None else timeout
        order = self.schedule.order() if isinstance(backend, QueuedVerifier) else None
        try:
            request = (backend.check_with_probe(code, probe, timeout=limit, order=order) if order is not None
                       else backend.check_with_probe(code, probe, timeout=limit))
            return await self.budget.send(unit, request)
        finally:
            self.budget.checked(asyncio.get_running_loop().time() - started)

    def has_room(self) -> bool:
        """Whether the verifier would start a check submitted now at once (`ReportsRoom`; False
        when it cannot say)."""
        return self.inner.has_room() if isinstance(self.inner, ReportsRoom) else False

    @property
    def idle(self) -> LeanIdle:
        """The inner verifier's "Lean has room" event (`QueuedVerifier.idle`; without a queue, one
        that never fires): what work waiting for Lean to idle listens to."""
        return self.inner.idle if isinstance(self.inner, QueuedVerifier) else self._never_idle

    def _send_check(self, code: str, timeout: float, order: OrderKey | None) -> Awaitable[CheckResult]:
        """The inner verifier's check of `code`, in `order` where its checks queue (None: the place
        the run's schedule gives a check submitted now, if any)."""
        if order is None:
            order = self.schedule.order()
        if order is not None and self._queued is not None:
            return self._queued.check(code, timeout=timeout, order=order)
        return self.inner.check(code, timeout=timeout)

    def known(self, code: str) -> bool:
        """Whether `code`'s verdict is kept or its check is in flight (a check of it would send
        nothing)."""
        return code in self._checked or code in self._inflight

    async def check(self, code: str, *, timeout: float | None = None, order: OrderKey | None = None) -> CheckResult:
        """`code`'s verdict under the budget (deduplicated); `order`: its place in the inner
        verifier's queue, where it has one."""
        known = self._checked.get(code)
        if known is not None:
            self.budget.stats.dedup_hits += 1
            return known
        running = self._inflight.get(code)
        if running is not None:
            self.budget.stats.dedup_hits += 1
            return await asyncio.shield(running)
        ahead = self.schedule.started(code)
        unit = self.budget.hold_check() if ahead is None else None  # BudgetExhausted: not sent
        future: asyncio.Future[CheckResult] = asyncio.get_running_loop().create_future()
        self._inflight[code] = future
        try:
            if ahead is not None:  # started ahead of need (its unit held then): taken now
                result = await ahead
            else:
                assert unit is not None
                result = await self.budget.send(unit, self._send_check(code, self.timeout if timeout is None else timeout, order))
        except BaseException as exc:
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

    async def sent_ahead(self, unit: Unit, code: str) -> CheckResult:
        """`code` checked ahead of need with `unit` (held `ahead=True`: schedule/ahead.py
        `ChecksAhead`), as its task runs: a check of the same text takes it (`DoorSchedule.started`)."""
        return await self.budget.send(unit, self._send_check(code, self.timeout, None))

    async def check_many(
        self, codes: Sequence[str], *, timeout: float | None = None, order: OrderKey | None = None
    ) -> list[CheckResult]:
        return list(await asyncio.gather(*(self.check(c, timeout=timeout, order=order) for c in codes)))

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        unit = self.budget.hold_check()
        started = asyncio.get_running_loop().time()
        try:
            return await self.budget.send(unit, self.inner.run_tactic(hole, tactic, timeout=timeout))
        finally:
            self.budget.checked(asyncio.get_running_loop().time() - started)

    async def close(self) -> None:  # the run does not own the verifier
        return None


class _ChargedStatementChecker:
    """A statement checker whose comparisons are charged to the run's Lean budget."""

    def __init__(self, inner: StatementChecker, budget: Budget) -> None:
        self.inner = inner
        self.budget = budget
        self.name = inner.name

    async def compare(self, original: str, candidate: str, *, allowed_axioms: set[str],
                      timeout: float | None = None) -> StatementVerdict:
        unit = self.budget.hold_check()
        return await self.budget.send(unit, self.inner.compare(original, candidate, allowed_axioms=allowed_axioms,
                                                               timeout=timeout))


def _close_unsent(request: Awaitable[object]) -> None:
    """A request that will never be awaited: a coroutine is closed, so that asyncio does not warn
    that it was never awaited (any other awaitable has nothing to close)."""
    if inspect.iscoroutine(request):
        request.close()


def leaves(error: BaseException) -> list[BaseException]:
    """The non-group exceptions inside (possibly nested) exception groups, in order."""
    if not isinstance(error, BaseExceptionGroup):
        return [error]
    return [leaf for inner in error.exceptions for leaf in leaves(inner)]


def first_leaf(error: BaseException) -> BaseException:
    """The exception a caller must see from (possibly nested) exception groups: the first that is
    neither a budget running out nor a cancellation (those are the search's plumbing: an error
    beside them is what happened), else the first of them."""
    found = leaves(error)
    if not found:
        return error
    return next((e for e in found if not isinstance(e, BudgetExhausted | asyncio.CancelledError)), found[0])

"""Scripted builders for the search's and the schedule's tests.

`wired_engine` is `SearchEngine` with its schedule picked from the settings' `[search]
speculation` exactly as `services.prove_problem` picks it (`services.schedule_for`): a test that
builds an engine by hand runs the schedule the product would run with those settings. The
stand-ins below are shared by several test files (a candidate or sketch, a planner that sketches
every goal with one `have`, a verifier whose every check takes 50 ms of the loop's time).
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lemmaforge.config import BudgetConfig, Settings
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Goal,
    ProofStatesUnsupported,
    TacticResult,
    Verifier,
    VerifierError,
)
from lemmaforge.records import MemoryRecorder, ProblemRecord, Recorder
from lemmaforge.search.cache import SubgoalCache
from lemmaforge.search.engine import SearchEngine
from lemmaforge.search.interfaces import PlannerLike, ProverLike
from lemmaforge.search.tree import ProofTree
from lemmaforge.services import schedule_for
from tests.fakes.agents import AgentStandIn
from tests.fakes.fake_common import CheckOnlyVerifier, probe_response
from tests.fakes.fake_kimina import MessageRule, ScriptedLean
from tests.search.scenarios import search_settings


def wired_engine(
    verifier: Verifier, planner: PlannerLike | None, prover: ProverLike | None, *, recorder: Recorder,
    settings: Settings | None = None, on_update: Callable[[ProofTree], None] | None = None,
    cache: SubgoalCache | None = None,
) -> SearchEngine:
    settings = settings or Settings()
    return SearchEngine(verifier, planner, prover, recorder=recorder, settings=settings, on_update=on_update,
                        cache=cache, schedule=schedule_for(settings))


async def virtual_sleep(seconds: float) -> None:
    """A stand-in's delay: `seconds` of looptime's virtual clock, never of the wall clock's. A test
    whose stand-ins take time is marked `pytest.mark.looptime`; one that is not fails here, rather
    than sleep for real (a delay of 0 only lets the other tasks run, on any loop)."""
    if seconds:
        loop = asyncio.get_running_loop()
        assert getattr(loop, "looptime_on", False), (
            "a stand-in's delay is virtual time: mark the test `pytest.mark.looptime`")
    await asyncio.sleep(seconds)


@dataclass
class Candidate:
    """A model output as the engine reads it (a prover candidate; a sketch, with `body` None and
    the plan its model wrote before the code in `informal`)."""

    code: str
    body: str | None
    raw: str = ""
    call_id: str | None = None
    aux: str = ""
    informal: str | None = None


OPEN_HOLE = {"pos": {"line": 99, "column": 0}, "goal": "⊢ x", "endPos": None}


def proves_ok(code: str) -> bool:
    """The stand-ins' default Lean: a proof whose body is `ok` checks, any other fails."""
    return "  ok" in code


class CountingVerifier(CheckOnlyVerifier):
    """A verifier scripted by rules, which counts what it was sent.

    Each check takes `delay` (virtual time), after `on_check(code)` saw it as it arrived (a test
    records the order context of the submission there). The audit's probes get their answers
    (`probe_response`); with `sketches_open`, a file with `sorry` checks with one open hole (a
    sketch); anything else checks when `proves(code)` (by default: its body is `ok`), and fails
    with the error `nope` (at `error_at`: line, column) otherwise. `checked` holds every code sent,
    `timeouts` the timeout each check was given."""

    def __init__(self, delay: float = 0.0, *, sketches_open: bool = False, proves: Callable[[str], bool] = proves_ok,
                 on_check: Callable[[str], None] | None = None, error_at: tuple[int, int] = (1, 0)) -> None:
        self.delay, self.sketches_open, self.proves, self.on_check = delay, sketches_open, proves, on_check
        self.error_at = error_at
        self.checked: list[str] = []
        self.timeouts: list[float | None] = []

    async def check(self, code: str, *, timeout=None) -> CheckResult:
        self.checked.append(code)
        self.timeouts.append(timeout)
        if self.on_check is not None:
            self.on_check(code)
        return await self._answer(code)

    async def _answer(self, code: str) -> CheckResult:
        await virtual_sleep(self.delay)
        if (probed := probe_response(code)) is not None:
            return CheckResult.from_repl_response(probed)
        if self.sketches_open and "sorry" in code:
            return CheckResult.from_repl_response({"env": 0, "messages": [], "sorries": [OPEN_HOLE]})
        bad = not self.proves(code)
        line, column = self.error_at
        msgs = [{"severity": "error", "pos": {"line": line, "column": column}, "data": "nope"}] if bad else []
        return CheckResult.from_repl_response({"env": 0, "messages": msgs})


@dataclass(frozen=True)
class Answer:
    """What a scripted prover answers one request with: a candidate whose body is `body` (no
    candidate at all for None), after `delay` (virtual time) — or the error `raises` (a bug, an
    endpoint that is down)."""

    body: str | None = "ok"
    delay: float = 0.0
    raises: BaseException | None = None


@dataclass(frozen=True)
class ProveRequest:
    """One request a scripted prover received."""

    statement: str
    n: int
    informal: str | None


class ScriptedProver(AgentStandIn):
    """A prover scripted by rules. By default the i-th request is answered with `bodies[i]` after
    `delays[i]` (both cycled); `rules` maps a piece of the lemma statement to the `Answer` (or the
    answers, one per request for such a statement, the last repeated) given to a request whose
    statement contains it, the first rule that matches winning. `room` is what `has_room` says
    (no room unless told). `calls` counts the requests, `requests` keeps them (statement, n,
    informal), `asked[piece]` counts those each rule answered."""

    def __init__(self, bodies: Sequence[str | None] = ("ok",), delays: Sequence[float] = (0.0,), *,
                 rules: dict[str, Answer | Sequence[Answer]] | None = None, room: bool = False) -> None:
        self.bodies, self.delays, self.calls = list(bodies), list(delays), 0
        self.rules = {piece: [a] if isinstance(a, Answer) else list(a) for piece, a in (rules or {}).items()}
        self.room = room
        self.requests: list[ProveRequest] = []
        self.asked: dict[str, int] = {}

    def has_room(self) -> bool:
        return self.room

    def answer(self, lemma_statement: str) -> Answer:
        i = self.calls
        self.calls += 1
        for piece, answers in self.rules.items():
            if piece in lemma_statement:
                k = self.asked[piece] = self.asked.get(piece, 0) + 1
                return answers[min(k, len(answers)) - 1]
        return Answer(self.bodies[i % len(self.bodies)], self.delays[i % len(self.delays)])

    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        self.requests.append(ProveRequest(lemma_statement, n, informal))
        answer = self.answer(lemma_statement)
        if answer.raises is not None:
            raise answer.raises
        await virtual_sleep(answer.delay)
        return [] if answer.body is None else [Candidate("", answer.body)]

    async def correct(self, header, candidate, errors, n=1, *, on_candidate=None, checked_code=None):
        return []


class OneHavePlanner(AgentStandIn):
    """Sketches any statement with one `have` (a hole) and the closing `sorry` (a second hole);
    counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    async def draft(self, header, statement, informal=None, n=1, *, avoid=()):
        self.calls += 1
        head = statement.rstrip()
        assert head.endswith("sorry")
        return [Candidate(head[: -len("sorry")] + "have a : x = x := by sorry\n  sorry\n", None)]

    async def correct(self, *a, **kw):
        return []


class TimedVerifier(CheckOnlyVerifier):
    """Sketches check with their holes, a file with `  bad` fails, anything else checks; each
    check takes 50 ms and is logged with its start and end."""

    def __init__(self, room: bool) -> None:
        self.room = room
        self.log: list[tuple[str, float, float]] = []
        self.started: list[str] = []  # every check received (`log`: those answered)

    def has_room(self) -> bool:
        return self.room

    async def check(self, code: str, *, timeout=None) -> CheckResult:
        loop = asyncio.get_running_loop()
        started = loop.time()
        self.started.append(code)
        await virtual_sleep(0.05)
        self.log.append((code, started, loop.time()))
        if (probed := probe_response(code)) is not None:
            return CheckResult.from_repl_response(probed)
        if "sorry" in code:
            holes = [{"pos": {"line": 99, "column": 0}, "goal": "⊢ x", "endPos": None}]
            return CheckResult.from_repl_response({"env": 0, "messages": [], "sorries": holes})
        bad = "  bad" in code
        msgs = [{"severity": "error", "pos": {"line": 1, "column": 0}, "data": "nope"}] if bad else []
        return CheckResult.from_repl_response({"env": 0, "messages": msgs})


HEADER = "import Mathlib\n\n"
PROBLEM = ProblemRecord("t/p", "p", HEADER, "theorem p (x : ℕ) : x = x := by\n  sorry\n")


class OneSketch(AgentStandIn):
    """Drafts the same two-hole sketch (holes `Easy x`, `Hard x`) for the theorem `p`."""

    async def draft(self, header, statement, informal=None, n=1, *, avoid=()):
        sketch = ("theorem p (x : ℕ) : x = x := by\n  have h1 : Easy x := by sorry\n"
                  "  have h2 : Hard x := by sorry\n  sorry\n")
        return [Candidate(sketch, None)]

    async def correct(self, *a, **kw):
        return []


TWO_HOLES = ("theorem p (x : ℕ) : x = x := by\n  have h1 : x + 0 = x := by sorry\n  sorry\n")
THREE_HOLES = ("theorem p (x : ℕ) : x = x := by\n  have h1 : x + 0 = x := by sorry\n"
                "  have h2 : 0 + x = x := by sorry\n  sorry\n")


class SketchOnce(AgentStandIn):
    """Drafts one sketch (of `p`, with two holes, or `holes`; or the given `sketch`, with its model's
    `informal` plan and `raw` output) for any goal; counts its calls; `room` is what `has_room` says."""

    def __init__(self, holes: int = 2, *, room: bool = False, sketch: str | None = None,
                 informal: str | None = None, raw: str = "") -> None:
        self.calls = 0
        self.sketch = sketch if sketch is not None else {2: TWO_HOLES, 3: THREE_HOLES}[holes]
        self.room, self.informal, self.raw = room, informal, raw

    def has_room(self) -> bool:
        return self.room

    async def draft(self, header, statement, informal=None, n=1, *, avoid=()):
        self.calls += 1
        return [Candidate(self.sketch, None, raw=self.raw, informal=self.informal)]

    async def correct(self, *a, **kw):
        return []


class RoomyProver(ScriptedProver):
    """A prover whose model has room (or not), logging when each request starts and whether it
    was cancelled."""

    def __init__(self, room: bool, log: list[tuple[str, float]], delay: float = 0.05) -> None:
        super().__init__(["ok"], [delay], room=room)
        self.log, self.cancelled = log, 0

    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        self.log.append(("prove", asyncio.get_running_loop().time()))
        try:
            return await super().prove(header, lemma_statement, n)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise


class AutomationVerifier(CountingVerifier):
    """Sketches check with their holes; the automation check (`auto_ok`) takes `auto_delay` and
    closes the goal only when `closes`; a body `ok` proves; `room` is what `has_room` says."""

    def __init__(self, log: list[tuple[str, float]], *, closes: bool, room: bool | None,
                 first_hole_delay: float = 0.2, on_check: Callable[[str], None] | None = None) -> None:
        super().__init__(on_check=on_check)
        self.log, self.closes, self.first_hole_delay = log, closes, first_hole_delay
        if room is not None:
            self.has_room = lambda: room  # type: ignore[method-assign]

    async def _answer(self, code: str) -> CheckResult:
        if "auto_ok" in code and "#print axioms" not in code and "#check @" not in code:
            first_hole = re.search(r":\s*x \+ 0 = x := by", code) is not None  # h1's own lemma
            await virtual_sleep(self.first_hole_delay if first_hole else 0.2)
            self.log.append(("automation", asyncio.get_running_loop().time()))
            msgs = [] if self.closes else [{"severity": "error", "pos": {"line": 1, "column": 0}, "data": "no"}]
            return CheckResult.from_repl_response({"env": 0, "messages": msgs})
        if "sorry" in code and "#print axioms" not in code and "#check @" not in code:
            return CheckResult.from_repl_response({"env": 0, "messages": [], "sorries": [OPEN_HOLE]})
        return await super()._answer(code)


def prefetch_engine(*, prover_room: bool, lean_room: bool | None, closes: bool, prefetch: bool = True,
                     prover_delay: float = 0.05, holes: int = 2):
    log: list[tuple[str, float]] = []
    # With three holes the first hole's automation answers last (0.3 s against 0.2 s), so the third
    # hole's automation answers before the first hole can be solved: an order, not a race.
    verifier = AutomationVerifier(log, closes=closes, room=lean_room, first_hole_delay=0.3 if holes == 3 else 0.2)
    prover = RoomyProver(prover_room, log, prover_delay)
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1)
    options = search_settings(budget=budget, portfolio=("auto_ok",), speculation="prefetch" if prefetch else "off")
    engine = wired_engine(verifier, SketchOnce(holes), prover, recorder=MemoryRecorder(), settings=options,
                          cache=SubgoalCache(MemoryRecorder()))
    return engine, prover, log


# --- a verifier with scripted Lean's semantics (the training tests' rewards and expert iteration) ---

# The tactic name our "wrong" proofs use; the scripted Lean reports it as an error.
BOGUS_TACTIC = "bogus_tactic"
CRASH_MARK = "CRASH_THE_REPL"
RAISE_MARK = "RAISE_VERIFIER_ERROR"
TIMEOUT_MARK = "SLOW_PROOF_TIMES_OUT"


@dataclass
class ScriptedVerifier:
    """An in-process Verifier: fake Kimina's scripted Lean semantics (sorries, `#print axioms`,
    `bogus_tactic` is an unknown tactic) plus markers for a timeout, a crash and a raise. Records
    the loop and thread of each check and the peak number of checks in flight."""

    name: str = "scripted"
    supports_proof_states: bool = False
    lean: ScriptedLean = field(default_factory=lambda: ScriptedLean(rules=[MessageRule(rf"\b{BOGUS_TACTIC}\b", "unknown tactic")]))
    checked: list[str] = field(default_factory=list)
    loops: list[Any] = field(default_factory=list)
    in_flight: int = 0
    peak: int = 0
    closed: bool = False

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult:
        self.loops.append((asyncio.get_running_loop(), threading.get_ident()))
        self.checked.append(code)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(0)  # the other checks start: checks in flight overlap, as on a server
            if RAISE_MARK in code:
                raise VerifierError("Kimina server unreachable")
            if CRASH_MARK in code:
                return CheckResult(CheckStatus.CRASHED, error="Lean process broken pipe", backend=self.name)
            if TIMEOUT_MARK in code:
                return CheckResult(CheckStatus.TIMEOUT, error="timed out", backend=self.name)
            return CheckResult.from_repl_response(self.lean(code), backend=self.name)
        finally:
            self.in_flight -= 1

    async def check_many(self, codes: Sequence[str], *, timeout: float | None = None) -> list[CheckResult]:
        return list(await asyncio.gather(*(self.check(c, timeout=timeout) for c in codes)))

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        raise ProofStatesUnsupported("scripted verifier has no proof states")

    async def close(self) -> None:
        self.closed = True

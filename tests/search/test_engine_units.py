"""Unit tests of the engine's pieces: tree, cache keys, hole alignment, proof bodies, budgets,
candidate racing — with in-test stand-ins for the verifier and the models."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.lean import judge
from lemmaforge.lean import syntax as lean_code
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Goal, Position
from lemmaforge.records import MemoryRecorder, NodeCreated, ProblemRecord, RunFinished
from lemmaforge.schedule import order
from lemmaforge.search.assemble import align_holes, proof_body
from lemmaforge.search.automation import first_combinator
from lemmaforge.search.cache import SubgoalCache, normalize_statement
from lemmaforge.search.tree import ProofTree
from tests.fakes.agents import AgentStandIn
from tests.fakes.fake_common import CheckOnlyVerifier, probe_response
from tests.fakes.scripted import wired_engine
from tests.search.scenarios import search_settings

# Virtual time (looptime): the stand-ins' delays and the tests' waits move the loop's clock, not
# the wall clock's; the order of events is what the delays say, however busy the machine.
pytestmark = pytest.mark.looptime

HEADER = "import Mathlib\n\n"


def test_normalize_statement_ignores_name_comments_whitespace_and_proof():
    a = "theorem sub_1 (x : ℝ) -- the variable\n    (h : 0 < x) :\n  0 < x ^ 2 := by\n  sorry"
    b = "lemma other (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by positivity"
    c = "theorem sub_1 (x : ℝ) (h : 0 ≤ x) : 0 < x ^ 2 := by\n  sorry"
    assert normalize_statement(a) == normalize_statement(b)
    assert normalize_statement(a) != normalize_statement(c)


def test_subgoal_cache_reuses_across_recorder():
    recorder = MemoryRecorder()
    cache = SubgoalCache(recorder)
    assert cache.get(HEADER, "theorem a (x : ℕ) : x = x := by\n  sorry") is None
    cache.put(HEADER, "theorem a (x : ℕ) : x = x := by\n  sorry", "rfl")
    assert cache.get(HEADER, "theorem b (x : ℕ) : x = x := by\n  sorry") == "rfl"
    assert (cache.hits, cache.misses) == (1, 1)


def test_proof_body_of_tactic_and_term_proofs():
    assert proof_body("theorem t : 1 = 1 := by\n  norm_num\n  rfl\n") == "norm_num\nrfl"
    assert proof_body("theorem t : 1 = 1 := by simp") == "simp"
    assert proof_body("theorem t : 1 = 1 := rfl") == "exact rfl"


def test_align_holes_by_whole_file_position():
    sketch = "theorem t (x : ℕ) : x = x := by\n  have h : x = x := by sorry\n  sorry\n"
    text_holes = lean_code.holes(sketch)
    lines = HEADER.count("\n")
    lean = [Goal("⊢ b", Position(3 + lines, 2)), Goal("⊢ a", Position(2 + lines, 23))]
    aligned = align_holes(text_holes, lean, header_lines=lines)
    assert [g.goal if g else None for g in aligned] == ["⊢ a", "⊢ b"]
    assert align_holes(text_holes, [], header_lines=lines) == [None, None]


def test_first_combinator_requires_each_alternative_to_close_the_goal():
    text = first_combinator(["simp", "norm_num [*]; linarith"])
    assert text.splitlines() == ["first", "  | (simp; done)", "  | (norm_num [*]; linarith; done)"]


def test_solved_depth_counts_sketch_levels():
    tree = ProofTree()
    root = tree.add_goal("root", depth=0)
    sketch = tree.add_sketch("sk", parent_id=root.node_id, depth=0)
    hole = tree.add_goal("h", depth=1, parent_id=sketch.node_id, hole_index=0)
    inner = tree.add_sketch("sk2", parent_id=hole.node_id, depth=1)
    tree.add_goal("h2", depth=2, parent_id=inner.node_id, hole_index=0)
    for n, strategy in ((root, "planner"), (hole, "planner")):
        n.status, n.strategy = "solved", strategy
    for n in (sketch, inner):
        n.status = "solved"
    assert tree.solved_depth() == 2
    assert tree.to_dict()["children"][0]["children"][0]["id"] == hole.node_id


# --- the engine with stand-ins ----------------------------------------------------------------------


@dataclass
class Candidate:
    code: str
    body: str | None
    raw: str = ""
    call_id: str | None = None
    aux: str = ""


class CountingVerifier(CheckOnlyVerifier):
    """Accepts a body `ok` (after a delay), rejects anything else; counts checks."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.checked: list[str] = []

    async def check(self, code: str, *, timeout=None) -> CheckResult:
        self.checked.append(code)
        await asyncio.sleep(self.delay)
        if (probed := probe_response(code)) is not None:
            return CheckResult.from_repl_response(probed)
        bad = "  ok" not in code
        msgs = [{"severity": "error", "pos": {"line": 1, "column": 0}, "data": "nope"}] if bad else []
        return CheckResult.from_repl_response({"env": 0, "messages": msgs})


class ScriptedProver(AgentStandIn):
    def __init__(self, bodies: list[str], delays: list[float]) -> None:
        self.bodies, self.delays, self.calls = bodies, delays, 0

    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        i = self.calls
        self.calls += 1
        await asyncio.sleep(self.delays[i % len(self.delays)])
        return [Candidate("", self.bodies[i % len(self.bodies)])]

    async def correct(self, header, candidate, errors, n=1, *, on_candidate=None, checked_code=None):
        return []


PROBLEM = ProblemRecord("t/p", "p", HEADER, "theorem p (x : ℕ) : x = x := by\n  sorry\n")


async def test_duplicate_candidates_are_checked_once_and_first_success_cancels_the_rest():
    verifier = CountingVerifier()
    # 4 samples: two identical failures, a success, and a slow success that must be cancelled
    prover = ScriptedProver(["bad", "bad", "ok", "ok"], [0.0, 0.0, 0.01, 5.0])
    recorder = MemoryRecorder()
    budget = BudgetConfig(root_whole_proof_attempts=4, self_corrections=0)
    options = search_settings(budget=budget, prover_samples_per_call=1)  # one request per sample: a race
    engine = wired_engine(verifier, None, prover, recorder=recorder, settings=options)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=3)
    assert result.proved and result.depth == 0
    candidate_checks = [c for c in verifier.checked if "#print axioms" not in c and "#check @" not in c]
    assert len(candidate_checks) == len(set(candidate_checks)) == 2  # "bad" once, "ok" once
    assert result.stats.llm_calls == 4
    finished = recorder.of_type(RunFinished)
    assert finished and finished[0].status == "proved"
    assert len(recorder.of_type(NodeCreated)) == 1


async def test_llm_budget_stops_the_search_cleanly():
    verifier = CountingVerifier()
    prover = ScriptedProver(["bad"], [0.0])
    budget = BudgetConfig(root_whole_proof_attempts=8, llm_calls=3, self_corrections=0)
    options = search_settings(budget=budget, prover_samples_per_call=1)
    engine = wired_engine(verifier, None, prover, recorder=MemoryRecorder(), settings=options)
    result = await engine.prove(PROBLEM)
    assert not result.proved
    assert result.stats.llm_calls == 3 and "llm_calls" in result.stop_reason
    assert all(n.status != "open" for n in result.tree.nodes())


async def test_wall_time_budget_cancels_in_flight_work():
    verifier = CountingVerifier(delay=10)
    prover = ScriptedProver(["ok"], [0.0])
    budget = BudgetConfig(root_whole_proof_attempts=2, wall_seconds=0.2)
    engine = wired_engine(verifier, None, prover, recorder=MemoryRecorder(), settings=search_settings(budget=budget))
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=3)
    assert not result.proved and "wall time" in result.stop_reason
    assert result.seconds < 2


@pytest.mark.parametrize("status", [CheckStatus.TIMEOUT, CheckStatus.CRASHED])
async def test_infrastructure_failures_are_not_cached(status):
    verifier = CountingVerifier()
    from lemmaforge.search.budget import Budget, BudgetedVerifier

    lean = BudgetedVerifier(verifier, Budget(BudgetConfig()), timeout=5)  # every run's Lean door
    calls = 0

    async def flaky(code, *, timeout=None):
        nonlocal calls
        calls += 1
        return CheckResult(status)

    verifier.check = flaky  # type: ignore[method-assign]
    await lean.check("x")
    await lean.check("x")
    assert calls == 2


async def test_an_exhausted_llm_budget_does_not_cancel_the_calls_it_paid_for():
    """llm_calls=2 with 8 samples wanted: the two calls the budget allows are sent and their
    candidates checked; the run reports 2 calls, and 2 is what the prover received (none of them
    reserved and then cancelled because the third could not be paid)."""
    verifier = CountingVerifier()
    prover = ScriptedProver(["bad1", "bad2"], [0.05])
    budget = BudgetConfig(root_whole_proof_attempts=8, llm_calls=2, self_corrections=0)
    options = search_settings(budget=budget, prover_samples_per_call=1)
    engine = wired_engine(verifier, None, prover, recorder=MemoryRecorder(), settings=options)
    result = await engine.prove(PROBLEM)
    assert not result.proved and "llm_calls" in result.stop_reason
    assert prover.calls == result.stats.llm_calls == 2
    assert result.stats.cancelled_calls == 0
    assert len(verifier.checked) == result.stats.checks == 2  # both candidates were checked


class _BrokenProver(ScriptedProver):
    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        if "Hard" in lemma_statement:
            raise ZeroDivisionError("a bug in the prover")
        return await super().prove(header, lemma_statement, n)


class _OneSketch(AgentStandIn):
    async def draft(self, header, statement, informal=None, n=1, *, avoid=()):
        sketch = ("theorem p (x : ℕ) : x = x := by\n  have h1 : Easy x := by sorry\n"
                  "  have h2 : Hard x := by sorry\n  sorry\n")
        return [Candidate(sketch, None)]

    async def correct(self, *a, **kw):
        return []


async def test_an_error_inside_a_sketchs_holes_propagates_as_itself():
    """A bug while solving one hole (inside the sketch's TaskGroup) is raised as that error, and
    the run is recorded as failed: never a "not proved" with stop reason "unhandled errors in a
    TaskGroup"."""

    class SketchVerifier(CountingVerifier):
        async def check(self, code, *, timeout=None):
            self.checked.append(code)
            holes = [{"pos": {"line": 99, "column": 0}, "goal": "⊢ x", "endPos": None}] if "sorry" in code else []
            return CheckResult.from_repl_response({"env": 0, "messages": [], "sorries": holes})

    recorder = MemoryRecorder()
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0)
    engine = wired_engine(SketchVerifier(), _OneSketch(), _BrokenProver(["bad"], [0.01]), recorder=recorder,
                          settings=search_settings(budget=budget, portfolio=()))
    with pytest.raises(ZeroDivisionError, match="a bug in the prover"):
        await engine.prove(PROBLEM)
    finished = recorder.of_type(RunFinished)
    assert [f.status for f in finished] == ["failed"]
    assert finished[0].summary["error"].startswith("ZeroDivisionError")


async def test_cache_reads_the_store_off_the_event_loop_with_the_stores_key():
    """The subgoal cache asks its ProofLookup in a worker thread (a synchronous SQL read must not
    stall the loop), with the store's own key: sha256 of the header text, normalized statement."""
    import threading

    from lemmaforge.db.store import text_hash
    from lemmaforge.search.cache import cache_key

    seen: list[tuple[int, str, str]] = []

    class Lookup:
        def cached_proof(self, header: str, normalized_statement: str) -> str | None:
            seen.append((threading.get_ident(), header, normalized_statement))
            return "omega" if "x + 0 = x" in normalized_statement else None

    cache = SubgoalCache(Lookup())
    lemma = "theorem sub_9 (x : ℕ) : x + 0 = x := by\n  sorry"
    assert await cache.lookup(HEADER, lemma) == "omega"
    assert await cache.lookup(HEADER, lemma.replace("sub_9", "other")) == "omega"  # local now
    assert await cache.lookup(HEADER, "theorem a (y : ℕ) : y = y := by\n  sorry") is None
    assert len(seen) == 2 and all(ident != threading.get_ident() for ident, _, _ in seen)
    assert (cache.hits, cache.misses, cache.source_reads) == (2, 1, 2)
    key = cache_key(HEADER, lemma)
    assert key.header_hash == text_hash(HEADER) and key.statement == normalize_statement(lemma)


async def test_attempts_record_generation_time_and_the_run_its_engine_cpu():
    verifier = CountingVerifier()
    prover = ScriptedProver(["ok"], [0.05])
    recorder = MemoryRecorder()
    budget = BudgetConfig(root_whole_proof_attempts=1, self_corrections=0)
    engine = wired_engine(verifier, None, prover, recorder=recorder, settings=search_settings(budget=budget))
    result = await engine.prove(PROBLEM)
    assert result.proved
    from lemmaforge.records import AttemptRecord

    prover_attempts = [a for a in recorder.of_type(AttemptRecord) if a.strategy == "prover"]
    assert prover_attempts and all(a.generation_seconds >= 0.05 for a in prover_attempts)
    assert result.stats.engine_seconds > 0
    assert result.to_json()["engine_seconds"] >= 0


@pytest.mark.parametrize("window", [1, 2])
async def test_a_races_later_candidates_are_held_until_the_earlier_ones_answer(window: int):
    """Each candidate's checks carry its race and rank (lean/order.py): submitted together,
    those with `race_window` earlier ones unanswered are held (window 1: the second and third while
    the first is unanswered; window 2: the third only); candidates of a later request,
    arriving after every earlier one failed, are not held; the race ends with nothing open."""
    seen: list[tuple[int, bool]] = []
    races: set[order.Siblings] = set()

    class RaceRecordingVerifier(CountingVerifier):
        async def check(self, code: str, *, timeout=None) -> CheckResult:
            path = order.current_siblings()
            if path:
                ((race, rank),) = path  # the root's race: nothing above it
                races.add(race)
                seen.append((rank, race.holds(rank)))
            return await super().check(code, timeout=timeout)

    class BatchProver(ScriptedProver):
        async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
            i = self.calls
            self.calls += 1
            await asyncio.sleep(self.delays[i])
            return [Candidate("", f"{self.bodies[i]}_{k}" if self.bodies[i] == "bad" else "ok") for k in range(n)]

    verifier = RaceRecordingVerifier(delay=0.02)
    prover = BatchProver(["bad", "ok"], [0.0, 0.2])  # the second request answers after the first's checks
    budget = BudgetConfig(root_whole_proof_attempts=6, self_corrections=0)
    options = search_settings(budget=budget, prover_samples_per_call=3, race_window=window)
    engine = wired_engine(verifier, None, prover, recorder=MemoryRecorder(), settings=options)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved
    assert seen[:3] == [(rank, rank >= window) for rank in range(3)]
    assert seen[3] == (3, False)  # ranks 0-2 failed before the second request's candidates came
    (race,) = races
    assert not race.holds(10**6)  # every rank left: nothing holds anything any more


async def test_a_sketchs_later_holes_are_held_while_an_earlier_hole_is_unsolved():
    """The checks of a sketch's second hole carry the sketch's hole group (lean/order.py) and
    are held while the first hole is unsolved; the first hole's are not."""
    held_at_submission: dict[str, list[bool]] = {"p_sub_1": [], "p_sub_2": [], "p_sub_3": []}  # by hole

    class HoleVerifier(CountingVerifier):
        async def check(self, code, *, timeout=None):
            self.checked.append(code)
            path = order.current_siblings()
            for name in held_at_submission:
                if path and f"theorem {name}\n" in code and "sorry" not in code:
                    held_at_submission[name].append(order.held(path))
            await asyncio.sleep(0.02)
            holes = [{"pos": {"line": 99, "column": 0}, "goal": "⊢ x", "endPos": None}] if "sorry" in code else []
            return CheckResult.from_repl_response({"env": 0, "messages": [], "sorries": holes})

    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0)
    engine = wired_engine(HoleVerifier(), _OneSketch(), ScriptedProver(["ok"], [0.0]), recorder=MemoryRecorder(),
                          settings=search_settings(budget=budget, portfolio=()))
    await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    # the first hole's candidate goes at once; the later holes' wait for it (then the room rule,
    # with nothing else waiting here, sends them anyway)
    assert held_at_submission == {"p_sub_1": [False], "p_sub_2": [True], "p_sub_3": [True]}


# --- model requests ahead of need ([search] prefetch) -----------------------------------------------

_TWO_HOLES = ("theorem p (x : ℕ) : x = x := by\n  have h1 : x + 0 = x := by sorry\n  sorry\n")
_THREE_HOLES = ("theorem p (x : ℕ) : x = x := by\n  have h1 : x + 0 = x := by sorry\n"
                "  have h2 : 0 + x = x := by sorry\n  sorry\n")


class _SketchOnce(AgentStandIn):
    """Drafts one sketch (two holes, or `holes`); counts its calls."""

    def __init__(self, holes: int = 2) -> None:
        self.calls = 0
        self.sketch = {2: _TWO_HOLES, 3: _THREE_HOLES}[holes]

    async def draft(self, header, statement, informal=None, n=1, *, avoid=()):
        self.calls += 1
        return [Candidate(self.sketch, None)]

    async def correct(self, *a, **kw):
        return []


class _RoomyProver(ScriptedProver):
    """A prover whose model has room (or not), logging when each request starts and whether it
    was cancelled."""

    def __init__(self, room: bool, log: list[tuple[str, float]], delay: float = 0.05) -> None:
        super().__init__(["ok"], [delay])
        self.room, self.log, self.cancelled = room, log, 0

    def has_room(self) -> bool:
        return self.room

    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        self.log.append(("prove", asyncio.get_running_loop().time()))
        try:
            return await super().prove(header, lemma_statement, n)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise


class _AutomationVerifier(CountingVerifier):
    """Sketches check with their holes; the automation check (`auto_ok`) takes `auto_delay` and
    closes the goal only when `closes`; a body `ok` proves; `room` is what `has_room` says."""

    def __init__(self, log: list[tuple[str, float]], *, closes: bool, room: bool | None,
                 first_hole_delay: float = 0.2) -> None:
        super().__init__()
        self.log, self.closes, self.first_hole_delay = log, closes, first_hole_delay
        if room is not None:
            self.has_room = lambda: room  # type: ignore[method-assign]

    async def check(self, code: str, *, timeout=None) -> CheckResult:
        if "auto_ok" in code and "#print axioms" not in code and "#check @" not in code:
            self.checked.append(code)
            first_hole = re.search(r":\s*x \+ 0 = x := by", code) is not None  # h1's own lemma
            await asyncio.sleep(self.first_hole_delay if first_hole else 0.2)
            self.log.append(("automation", asyncio.get_running_loop().time()))
            msgs = [] if self.closes else [{"severity": "error", "pos": {"line": 1, "column": 0}, "data": "no"}]
            return CheckResult.from_repl_response({"env": 0, "messages": msgs})
        if "sorry" in code and "#print axioms" not in code and "#check @" not in code:
            self.checked.append(code)
            holes = [{"pos": {"line": 99, "column": 0}, "goal": "⊢ x", "endPos": None}]
            return CheckResult.from_repl_response({"env": 0, "messages": [], "sorries": holes})
        return await super().check(code, timeout=timeout)


def _prefetch_engine(*, prover_room: bool, lean_room: bool | None, closes: bool, prefetch: bool = True,
                     prover_delay: float = 0.05, holes: int = 2):
    log: list[tuple[str, float]] = []
    # With three holes the first hole's automation answers last (0.3 s against 0.2 s), so the third
    # hole's automation answers before the first hole can be solved: an order, not a race.
    verifier = _AutomationVerifier(log, closes=closes, room=lean_room, first_hole_delay=0.3 if holes == 3 else 0.2)
    prover = _RoomyProver(prover_room, log, prover_delay)
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1)
    options = search_settings(budget=budget, portfolio=("auto_ok",), speculation="prefetch" if prefetch else "off")
    engine = wired_engine(verifier, _SketchOnce(holes), prover, recorder=MemoryRecorder(), settings=options,
                          cache=SubgoalCache(MemoryRecorder()))
    return engine, prover, log


@pytest.mark.parametrize("lean_room", [None, True])
async def test_the_provers_request_starts_while_automation_is_checked_and_is_charged_when_taken(lean_room):
    """With room at the model, a hole's prover request goes out with its automation check, not
    after it; the budget is charged once per request taken. Later holes are held behind the first
    (lean/order.py): while Lean has no room (a verifier that cannot say has none), the second,
    next in line, starts its request at once, the third not (here its automation answers before
    the first hole is solved: its request is made then); with room, all go ahead."""
    # The prover answers 0.5 s after it is asked, so the first two holes are solved long after the
    # third hole's automation (0.2 s) answers, even when a busy machine starts that check late.
    engine, prover, log = _prefetch_engine(prover_room=True, lean_room=lean_room, closes=False, holes=3,
                                           prover_delay=0.5)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved
    automation_done = sorted(t for kind, t in log if kind == "automation")
    proves = sorted(t for kind, t in log if kind == "prove")
    assert len(automation_done) == len(proves) == 3
    ahead = 3 if lean_room else 2
    assert sum(p < automation_done[0] for p in proves) == ahead
    stats = result.stats
    assert (stats.prefetched_calls, stats.prefetched_unused) == (ahead, 0)
    assert stats.llm_calls == 4 == prover.calls + 1  # the sketch and three prover requests, each once


def _requests_ahead(engine):
    """A search's requests ahead (schedule/ahead.py) on the engine's verifier and budget."""
    from lemmaforge.schedule.ahead import RequestsAhead
    from lemmaforge.search.budget import Budget, BudgetedVerifier

    budget = Budget(engine.settings.budget)
    lean = BudgetedVerifier(engine.verifier, budget, timeout=5)

    async def generate(call):
        from lemmaforge.search.interfaces import Generated

        return Generated(await budget.call(call))

    return RequestsAhead(budget, lean, generate, enabled=True)


def _ahead_behind_two_holes():
    """A search's RequestsAhead (Lean without room), and a sketch's hole group with holes 0 and 1
    open: work for hole 2 is held, two siblings from its turn."""
    engine, _, _ = _prefetch_engine(prover_room=True, lean_room=None, closes=False)
    ahead = _requests_ahead(engine)
    holes = order.Siblings()
    for rank in range(3):
        holes.enter(rank)
    return ahead, holes


@pytest.mark.parametrize("event", ["sibling solved", "its verifier idles with room", "its verifier idles without room",
                                   "another verifier idles with room"])
async def test_a_held_holes_request_waits_until_it_is_next_in_line_or_its_verifier_idles_with_room(event):
    """Hole 2's request waits while two earlier holes are open. It goes out when one of them is
    solved (one sibling from its turn), or when the check queue of the verifier the run uses reports
    Lean idle (`CheckQueue.report_idle`: nothing left to send) and Lean has room when it looks — at
    a run's end the few searches left cannot keep Lean busy one sibling at a time. Another
    verifier's queue idling wakes nothing here. The run's door is the product's chain (budget →
    gate → backend): both wrappers hand on the backend's own `idle`. Taken, the request is charged
    once and counted as ahead when it went out ahead."""
    from lemmaforge.lean.check_queue import CheckQueue
    from lemmaforge.lean.gate import GatedVerifier
    from lemmaforge.schedule.ahead import RequestsAhead
    from lemmaforge.search.budget import Budget, BudgetedVerifier
    from lemmaforge.search.interfaces import Generated

    prover = _RoomyProver(True, [])
    engine, _, _ = _prefetch_engine(prover_room=True, lean_room=None, closes=False)
    backend = engine.verifier
    room = {"lean": False}
    backend.has_room = lambda: room["lean"]
    mine, other = CheckQueue[str](), CheckQueue[str]()
    backend.idle = mine.idle  # the backend's checks wait in `mine` (a `QueuedVerifier` now)
    budget = Budget(engine.settings.budget)
    lean = BudgetedVerifier(GatedVerifier(backend), budget, timeout=5)
    assert lean.idle is mine.idle

    async def generate(call):
        return Generated(await budget.call(call))

    ahead = RequestsAhead(budget, lean, generate, enabled=True)
    holes = order.Siblings()
    for rank in range(3):
        holes.enter(rank)
    make = lambda: prover.prove(HEADER, "theorem a : True := by\n  sorry", n=1)  # noqa: E731
    sent = event in ("sibling solved", "its verifier idles with room")

    async def hole_two():
        order.join(holes, 2)
        task = ahead.start(prover, make)
        assert task is not None
        await asyncio.sleep(0.02)
        assert prover.calls == 0 and budget.stats.prefetched_calls == 0  # two siblings away
        if event == "sibling solved":
            holes.leave(0)
        else:
            room["lean"] = "without room" not in event
            (mine if event.startswith("its") else other).report_idle()
        await asyncio.sleep(0.02)
        assert prover.calls == budget.stats.prefetched_calls == (1 if sent else 0)
        return await ahead.take(task, make)

    out = await asyncio.wait_for(asyncio.ensure_future(hole_two()), timeout=3)
    assert out and budget.stats.llm_calls == 1 and prover.calls == 1
    assert not ahead.pending and not ahead.sent
    assert not mine.idle and not other.idle  # the waiter stopped listening


@pytest.mark.parametrize("ending", ["take", "drop"])
async def test_a_held_holes_request_not_yet_sent_is_made_when_needed_or_never(ending):
    """Taken before its hole was next in line (Lean found room for its checks first), the waiting
    request is made then, as a plain request; dropped, it was never sent: neither counts as ahead."""
    prover = _RoomyProver(True, [])
    ahead, holes = _ahead_behind_two_holes()
    make = lambda: prover.prove(HEADER, "theorem a : True := by\n  sorry", n=1)  # noqa: E731

    async def hole_two():
        order.join(holes, 2)
        task = ahead.start(prover, make)
        await asyncio.sleep(0.01)
        if ending == "take":
            return await ahead.take(task, make)
        ahead.drop(task)
        return None

    out = await asyncio.wait_for(asyncio.ensure_future(hole_two()), timeout=3)
    holes.end()  # a waiter left behind would wake here and send
    await asyncio.sleep(0.01)
    stats = ahead.budget.stats
    assert (stats.prefetched_calls, stats.prefetched_unused) == (0, 0)
    assert prover.calls == stats.llm_calls == (1 if ending == "take" else 0)
    assert (out is not None) == (ending == "take")
    assert not ahead.pending and not ahead.sent


@pytest.mark.parametrize("lean_room", [None, True])
async def test_with_lean_room_the_candidates_are_checked_while_automation_is(lean_room):
    """The prover's request started ahead answers while automation is checked: with room at Lean,
    its candidates' checks start then (ahead of need, uncharged) and the prover's turn takes their
    verdicts, charged once each; without room they wait for automation to fail."""
    engine, prover, log = _prefetch_engine(prover_room=True, lean_room=lean_room, closes=False)
    verifier = engine.verifier
    started: list[tuple[str, float]] = []
    check = verifier.check

    async def logged(code, *, timeout=None):
        if "  ok" in code and "have h1" not in code:  # a hole's candidate, not the assembled file
            started.append(("candidate", asyncio.get_running_loop().time()))
        return await check(code, timeout=timeout)

    verifier.check = logged
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved
    first_automation = min(t for kind, t in log if kind == "automation")
    candidates = [t for _, t in started]
    assert len(candidates) == 2  # one per hole: each checked once, ahead or not
    assert all((t < first_automation) == bool(lean_room) for t in candidates)
    stats = result.stats
    assert (stats.checks_ahead, stats.checks_ahead_unused) == ((2, 0) if lean_room else (0, 0))
    # the sketch, two automation checks, two candidates, the assembled file, the original's type
    # (lean/judge.py: once per problem): the same either way
    assert stats.checks == len(verifier.checked) == 7


@pytest.mark.parametrize("lean_room", [None, True])
async def test_with_lean_room_the_first_sketch_is_checked_while_the_provers_candidates_are(lean_room):
    """At the root the prover's candidate fails (slowly); the first sketch, drafted ahead
    meanwhile, is checked meanwhile too when Lean has room, and charged once when its turn
    comes; without room its check waits for the prover's turn to end."""
    log: list[tuple[str, float]] = []
    verifier = _AutomationVerifier(log, closes=True, room=lean_room)
    verifier.delay = 0.2  # the candidates' checks (the sketch's check is immediate)
    sketch_checks: list[float] = []
    check = verifier.check

    async def logged(code, *, timeout=None):
        if "sorry" in code and "#print" not in code and "#check" not in code:
            sketch_checks.append(asyncio.get_running_loop().time())
        return await check(code, timeout=timeout)

    verifier.check = logged

    class RoomyPlanner(_SketchOnce):
        def has_room(self) -> bool:
            return True

    prover = _RoomyProver(True, log)
    prover.bodies = ["bad"]
    budget = BudgetConfig(root_whole_proof_attempts=1, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1, max_depth=1)
    options = search_settings(budget=budget, portfolio=("auto_ok",))
    engine = wired_engine(verifier, RoomyPlanner(), prover, recorder=MemoryRecorder(), settings=options)
    loop = asyncio.get_running_loop()
    began = loop.time()
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved  # automation closes the holes
    assert len(sketch_checks) == 1  # checked once, ahead or not
    # the candidate's check ends ~0.25 s in (its request, then 0.2 s): the sketch's started before
    assert (sketch_checks[0] - began < 0.2) == bool(lean_room)
    stats = result.stats
    # with room: the sketch's check, and each hole's candidate (automation closed the holes
    # first: never taken, charged all the same: they were sent)
    assert (stats.checks_ahead, stats.checks_ahead_unused) == ((3, 2) if lean_room else (0, 0))
    assert stats.checks == len(verifier.checked)
    assert stats.used_checks == stats.checks - stats.checks_ahead_unused


async def test_candidates_checked_ahead_but_not_needed_are_charged_and_reported_unused():
    """Automation closes both holes (slowly): the candidates checked ahead meanwhile are dropped:
    charged (they were sent) and reported unused."""
    engine, _, _ = _prefetch_engine(prover_room=True, lean_room=True, closes=True)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved
    stats = result.stats
    assert stats.checks_ahead == stats.checks_ahead_unused == 2
    assert stats.checks == len(engine.verifier.checked)  # all Lean saw
    assert result.to_json()["checks_ahead_unused"] == 2
    assert result.to_json()["used_checks"] == stats.checks - 2  # less the two never taken


async def test_a_check_ahead_needs_lean_room_and_a_unit_left_and_is_charged_once_as_it_is_sent():
    from lemmaforge.schedule.ahead import ChecksAhead
    from lemmaforge.search.budget import Budget, BudgetedVerifier, BudgetExhausted, Unscheduled

    inner = CountingVerifier(delay=0.01)
    lean = BudgetedVerifier(inner, Budget(BudgetConfig(lean_checks=4)), timeout=5)
    ahead = ChecksAhead(lean, lean.budget)

    class TakesAhead(Unscheduled):  # the door takes a check started ahead by its text
        def started(self, code):
            return ahead.take(code)

    lean.schedule = TakesAhead()
    stats = lean.budget.stats
    assert not ahead.start("a  ok")  # a verifier that cannot say has no room
    inner.has_room = lambda: True
    assert ahead.start("a  ok") and ahead.start("b")
    assert not ahead.start("a  ok")  # already ahead
    assert (stats.checks, stats.checks_ahead) == (0, 0)  # units held, not yet sent: their tasks have not run
    assert not lean.budget.has_checks(speculative=True) or lean.budget.held_checks == 2
    await asyncio.sleep(0)
    assert (stats.checks, stats.checks_ahead) == (2, 2)  # charged as they are sent
    assert (await lean.check("a  ok")).status is CheckStatus.VALID
    assert stats.checks == 2  # taken: not charged again
    ahead.drop("b")
    assert ahead.start("c")
    ahead.drop("c")  # dropped before its request ran: never sent, its unit not spent
    await asyncio.sleep(0.02)
    assert (stats.checks, stats.checks_ahead, stats.checks_ahead_unused) == (2, 2, 1)
    assert sorted(inner.checked) == ["a  ok", "b"]  # each sent once: the taken check was not sent again
    assert (await lean.check("a  ok")).status is CheckStatus.VALID and stats.dedup_hits == 1
    await lean.check("e")
    assert not ahead.start("d")  # the budget's last unit is left to work on its turn
    await lean.check("d")
    with pytest.raises(BudgetExhausted):
        await lean.check("g")  # none left: not sent
    assert stats.checks == 4 == len(inner.checked) and stats.used_checks == 3


async def test_a_prefetched_request_not_needed_is_aborted_charged_and_reported_unused():
    """Automation closes both holes: the prover requests started ahead are cancelled; they were
    sent, so they are charged, and the run reports them unused."""
    engine, prover, _ = _prefetch_engine(prover_room=True, lean_room=True, closes=True, prover_delay=5.0)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=3)  # not waiting for them
    assert result.proved
    assert result.stats.prefetched_calls == result.stats.prefetched_unused == 2
    assert prover.cancelled == 2
    assert result.stats.llm_calls == 3  # the sketch and the two sent ahead
    assert result.stats.used_calls == 1  # the sketch only
    assert result.to_json()["prefetched_unused"] == 2


@pytest.mark.parametrize(("prover_room", "prefetch"), [(False, True), (True, False)])
async def test_without_room_or_with_prefetch_off_requests_follow_automation(prover_room, prefetch):
    engine, _, log = _prefetch_engine(prover_room=prover_room, lean_room=True, closes=False, prefetch=prefetch)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and result.stats.prefetched_calls == 0
    first_automation = min(t for kind, t in log if kind == "automation")
    assert all(t >= first_automation for kind, t in log if kind == "prove")


async def test_prefetch_sends_only_what_the_budget_has_left():
    """A request ahead is charged when its task sends it, and only while it leaves a unit of the
    budget to work on its turn: a search never has more requests out than its budget allows. One
    dropped before it was sent costs nothing."""
    engine, prover, _ = _prefetch_engine(prover_room=True, lean_room=True, closes=False)
    engine.settings.budget = BudgetConfig(llm_calls=3)
    ahead = _requests_ahead(engine)
    make = lambda: prover.prove(HEADER, "theorem a : True := by\n  sorry", n=1)  # noqa: E731
    first, second, third = ahead.start(prover, make), ahead.start(prover, make), ahead.start(prover, make)
    assert first is not None and second is not None and third is not None
    ahead.drop(third)  # before its task ran: never sent
    await asyncio.sleep(0)
    stats = ahead.budget.stats
    assert (stats.llm_calls, stats.prefetched_calls, stats.prefetched_unused) == (2, 2, 0)
    assert ahead.start(prover, make) is None  # one unit left: speculation leaves it to work on its turn
    taken = await ahead.take(first, make)
    assert taken and stats.llm_calls == 2  # taken: not charged again
    ahead.drop(second)
    await asyncio.sleep(0)
    assert stats.prefetched_unused == 1 and stats.used_calls == 1
    assert ahead.start(prover, make) is None  # a dropped request was sent: its unit stays spent


async def test_the_roots_assembly_check_is_the_audit_of_the_file_with_our_statement():
    """At the root, the assembled file checked is the whole proof — our statement (not the
    sketch's copy, here formatted differently) with the sketch's proof — and that one check carries
    the audit's axiom probe: the audit reads its report, and the file is not checked twice."""

    class Reformatting(_SketchOnce):
        async def draft(self, header, statement, informal=None, n=1, *, avoid=()):
            self.calls += 1
            return [Candidate(_TWO_HOLES.replace(" : x = x := by", " :\n    x = x := by", 1), None)]

    verifier = _AutomationVerifier([], closes=True, room=None)
    budget = BudgetConfig(root_whole_proof_attempts=0, self_corrections=0, sketch_alternatives=1)
    options = search_settings(budget=budget, portfolio=("auto_ok",))
    recorder = MemoryRecorder()
    engine = wired_engine(verifier, Reformatting(), None, recorder=recorder, settings=options)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and result.proof is not None
    assert result.proof.startswith(HEADER + "theorem p (x : ℕ) : x = x := by\n  have h1")
    probed = [c for c in verifier.checked if "#print axioms" in c]
    assert probed == [judge.with_probe(result.proof, judge.Probe.build("p", nonce=judge.nonce_for(result.proof)))]
    # the sketch, two holes' automation, the file, the original's type (lean/judge.py)
    assert result.stats.checks == len(verifier.checked) == 5
    from lemmaforge.records import AttemptRecord

    root_assemblies = [a for a in recorder.of_type(AttemptRecord) if a.strategy == "assembly"]
    assert [a.verdict for a in root_assemblies] == ["valid", "valid"]  # the sketch's assembly, the root's audit
    assert all(a.code == result.proof for a in root_assemblies)


# --- alternative sketches beside each other ([search] speculation = "full") -------------------------


class _TwoAlternatives(AgentStandIn):
    """The first sketch's hole is stuck (its prover answers late, wrongly); the second's closes."""

    def __init__(self, room: bool) -> None:
        self.room, self.avoided = room, []

    def has_room(self) -> bool:
        return self.room

    async def draft(self, header, statement, informal=None, n=1, *, avoid=()):
        if statement.startswith("theorem p "):  # the root's (holes' sketches may be drafted ahead)
            self.avoided.append(tuple(avoid))
        step = "Stuck x" if not avoid else "x + 0 = x"
        return [Candidate(f"theorem p (x : ℕ) : x = x := by\n  have h1 : {step} := by sorry\n  exact rfl\n", None)]

    async def correct(self, *a, **kw):
        return []


class _StuckProver(ScriptedProver):
    def __init__(self, stuck_for: float = 1.0) -> None:
        super().__init__(["ok"], [0.0])
        self.stuck_for = stuck_for

    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        self.calls += 1
        if "Stuck" in lemma_statement:
            await asyncio.sleep(self.stuck_for)
            return [Candidate("", "bad")]
        return [Candidate("", "ok")]


def _alternatives_engine(*, room: bool, parallel: bool, stuck_for: float = 1.0):
    class Verifier(_AutomationVerifier):
        def has_room(self) -> bool:
            return room

        async def check(self, code: str, *, timeout=None) -> CheckResult:
            if "sorry" in code and "theorem p " in code and "#print" not in code and "#check" not in code:
                step = "second" if "x + 0 = x" in code else "first"
                self.sketch_paths.append((step, len(order.current_siblings())))
            return await super().check(code, timeout=timeout)

    planner = _TwoAlternatives(room)
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=2, sketch_corrections=0)
    options = search_settings(budget=budget, portfolio=(), speculation="full" if parallel else "prefetch")
    verifier = Verifier([], closes=False, room=None)
    verifier.sketch_paths = []
    engine = wired_engine(verifier, planner, _StuckProver(stuck_for),
                          recorder=MemoryRecorder(), settings=options)
    return engine, planner


async def test_with_room_the_next_alternative_runs_beside_and_the_first_to_close_wins():
    """Lean and the planner idle: the second sketch (drafted to differ from the first) starts
    beside the first instead of after its stuck hole fails, closes the goal first, and the first
    alternative's work is cancelled — nothing left open."""
    # The stuck hole's prover would answer after 60 s: proving within the 5 s limit shows the
    # second alternative did not wait for it.
    engine, planner = _alternatives_engine(room=True, parallel=True, stuck_for=60.0)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and "x + 0 = x" in (result.proof or "")
    assert len(planner.avoided) == 2 and len(planner.avoided[1]) == 1  # the second avoids the first
    sketches = [n for n in result.tree.nodes() if n.kind == "sketch"]
    assert sorted(n.status for n in sketches) == ["cancelled", "solved"]
    # the second alternative's checks carry its place behind the first (lean/order.py)
    assert sorted(engine.verifier.sketch_paths) == [("first", 0), ("second", 1)]
    assert not any(n.status == "open" for n in result.tree.nodes())


@pytest.mark.parametrize(("room", "parallel"), [(False, True), (True, False)])
async def test_without_room_or_switched_off_alternatives_run_one_after_another(room, parallel):
    engine, planner = _alternatives_engine(room=room, parallel=parallel)
    loop = asyncio.get_running_loop()
    started = loop.time()
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and "x + 0 = x" in (result.proof or "")
    assert loop.time() - started >= 1.0  # the first alternative's stuck hole failed first
    sketches = [n for n in result.tree.nodes() if n.kind == "sketch"]
    assert sorted(n.status for n in sketches) == ["abandoned", "solved"]
    # one after another, neither alternative is speculation: no sibling group on their checks
    assert engine.verifier.sketch_paths == [("first", 0), ("second", 0)]


async def test_an_endpoint_error_in_a_request_started_ahead_surfaces_when_taken():
    """A prefetched request that failed (endpoint down) raises where the search takes it — the run
    fails with that error, as it would without prefetch — and is never counted as a failed
    attempt of the model."""
    from lemmaforge.agent.errors import LLMUnavailableError

    class DownProver(_RoomyProver):
        async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
            self.calls += 1
            raise LLMUnavailableError("connection refused", backend="LLM endpoint http://x (model m)")

    log: list[tuple[str, float]] = []
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1)
    recorder = MemoryRecorder()
    engine = wired_engine(_AutomationVerifier(log, closes=False, room=True), _SketchOnce(), DownProver(True, log),
                          recorder=recorder, settings=search_settings(budget=budget, portfolio=("auto_ok",)))
    with pytest.raises(LLMUnavailableError):
        await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert [f.status for f in recorder.of_type(RunFinished)] == ["failed"]


async def test_a_budget_spent_by_an_alternative_beside_caps_what_both_send():
    """The budget runs out while an alternative runs beside the first: nothing new is sent, the
    first alternative runs to its end on the unit speculation left it, and what the run reports
    is what the stand-ins received."""

    class SlowButRight(_StuckProver):
        async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
            self.calls += 1
            if "Stuck" in lemma_statement:
                await asyncio.sleep(0.5)
            return [Candidate("", "ok")]

    engine, _ = _alternatives_engine(room=True, parallel=True)
    engine.prover = SlowButRight()
    engine.settings.budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1,
                                         self_corrections=0, sketch_alternatives=2, sketch_corrections=0,
                                         llm_calls=3)  # two drafts and the first sketch's prover request
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and "Stuck x" in (result.proof or "")
    # sent and charged: the two drafts and the first sketch's prover request (speculation left it
    # the last unit); the second draft, beside it, never had its turn: reported unused
    stats = result.stats
    assert stats.llm_calls == len(engine.planner.avoided) + engine.prover.calls == 3
    assert (stats.speculative_calls, stats.used_calls) == (1, 2)


class _QuickStuckProver(_StuckProver):
    """The stuck hole fails at once; the second sketch's hole is proved, slowly."""

    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        self.calls += 1
        if "Stuck" in lemma_statement:
            return [Candidate("", "bad")]
        await asyncio.sleep(0.3)
        return [Candidate("", "ok")]


async def test_an_alternative_tried_beside_spends_what_it_would_on_its_turn():
    """The second alternative starts beside the first; the first fails, so the second's turn comes
    while it runs and it closes the goal: the budget is charged exactly what a one-at-a-time search
    spends (nothing speculative left over)."""
    spent = {}
    for parallel in (False, True):
        engine, _ = _alternatives_engine(room=True, parallel=parallel)
        engine.prover = _QuickStuckProver()
        result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
        assert result.proved and "x + 0 = x" in (result.proof or "")
        stats = result.stats
        spent[parallel] = (stats.llm_calls, stats.checks, stats.speculative_calls, stats.speculative_checks)
    assert spent[True] == spent[False] and spent[True][2:] == (0, 0)


class _SecondTimeLucky(_StuckProver):
    """The first sketch's stuck hole fails late; the second sketch's hole is proved on the second
    request for it only."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: dict[str, int] = {}

    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        self.calls += 1
        if "Stuck" in lemma_statement:
            await asyncio.sleep(0.5)
            return [Candidate("", "bad")]
        goal = lemma_statement.split(":=")[0].rsplit(":", 1)[1].strip()  # each try names its lemma anew
        self.asked[goal] = self.asked.get(goal, 0) + 1
        return [Candidate("", "ok" if self.asked[goal] > 1 else "bad")]


async def test_an_alternative_that_failed_beside_is_tried_again_on_its_turn():
    """The second alternative, started beside the first, fails before its turn; when the first
    fails, the second gets its turn as a one-at-a-time search would give it — tried again from its
    draft (not drafted again), its failed hole asked afresh — and closes the goal. Its failed try
    stays in the tree, and its spending is charged: its turn came."""
    engine, planner = _alternatives_engine(room=True, parallel=True)
    prover = engine.prover = _SecondTimeLucky()
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and "x + 0 = x" in (result.proof or "")
    assert len(planner.avoided) == 2  # two drafts: the retry reuses the second
    assert prover.asked == {"x + 0 = x": 2}
    sketches = [n for n in result.tree.nodes() if n.kind == "sketch"]
    assert sorted(n.status for n in sketches) == ["abandoned", "abandoned", "solved"]
    assert result.stats.speculative_calls == 0 and result.stats.speculative_checks == 0
    assert not any(n.status == "open" for n in result.tree.nodes())


async def test_a_statement_proved_meanwhile_is_taken_from_the_cache_before_the_next_step():
    """A goal looks in the cache when it starts; if the same statement is proved while its
    automation runs (by a hole of another sketch or alternative), it takes that proof instead of
    asking the prover."""
    cache = SubgoalCache()
    log: list[tuple[str, float]] = []
    verifier = _AutomationVerifier(log, closes=False, room=None)
    prover = _RoomyProver(False, log)
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1)
    engine = wired_engine(verifier, _SketchOnce(), prover, recorder=MemoryRecorder(), cache=cache,
                          settings=search_settings(budget=budget, portfolio=("auto_ok",)))
    loop = asyncio.get_running_loop()
    loop.call_later(0.1, cache.put, HEADER, "theorem elsewhere (x : ℕ) : x + 0 = x := by\n  sorry", "simp")
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and "simp" in (result.proof or "")
    [hole] = [n for n in result.tree.nodes() if n.kind == "goal" and n.hole_index == 0]
    assert hole.strategy == "cache"
    assert prover.calls == 1  # the closing hole only
    assert result.stats.cache_hits == 1


def _watch_engine(*, parallel_alternatives: bool, prover_delay: float):
    """A two-hole sketch whose holes' automation fails and whose prover answers after
    `prover_delay`, with the run's subgoal cache in the test's hands."""
    cache = SubgoalCache()
    log: list[tuple[str, float]] = []
    prover = _RoomyProver(False, log, delay=prover_delay)
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1)
    options = search_settings(budget=budget, portfolio=("auto_ok",),
                            speculation="full" if parallel_alternatives else "prefetch")
    engine = wired_engine(_AutomationVerifier(log, closes=False, room=None), _SketchOnce(), prover,
                          recorder=MemoryRecorder(), cache=cache, settings=options)
    return cache, prover, engine


async def test_a_goal_still_working_takes_the_proof_found_elsewhere_at_once():
    """With alternatives beside each other (where a hole is often open in two sketches at once),
    the same statement proved by another goal while this one is still working (here: waiting for
    slow prover answers) settles it at once: its requests are cancelled, its node is solved from
    the cache, and the search does not wait for work it no longer needs."""
    cache, prover, engine = _watch_engine(parallel_alternatives=True, prover_delay=30.0)
    loop = asyncio.get_running_loop()
    for statement in ("theorem a (x : ℕ) : x + 0 = x := by\n  sorry", "theorem b (x : ℕ) (h1 : x + 0 = x) : x = x := by\n  sorry"):
        loop.call_later(0.5, cache.put, HEADER, statement, "simp")
    started = loop.time()
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=10)
    assert loop.time() - started < 5  # not the prover's 30 s
    assert result.proved and result.proof is not None and result.proof.count("simp") == 2
    holes = [n for n in result.tree.nodes() if n.kind == "goal" and n.hole_index is not None]
    assert [(n.hole_index, n.status, n.strategy) for n in sorted(holes, key=lambda n: n.hole_index)] == [
        (0, "solved", "cache"), (1, "solved", "cache")]
    assert prover.calls == 2 and prover.cancelled == 2  # both holes' requests, no longer needed
    assert result.stats.cache_hits == 2


async def test_one_alternative_at_a_time_a_goal_looks_in_the_cache_only_between_its_steps():
    """Without parallel alternatives the goal is not watched (measured worse on the default
    workload): a proof of its statement found while its prover request is out is not taken until
    its next step, and here its own prover's answer closes it first."""
    cache, prover, engine = _watch_engine(parallel_alternatives=False, prover_delay=1.0)
    loop = asyncio.get_running_loop()
    loop.call_later(0.5, cache.put, HEADER, "theorem a (x : ℕ) : x + 0 = x := by\n  sorry", "simp")
    started = loop.time()
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=10)
    assert loop.time() - started >= 1.0 and result.proved
    [hole] = [n for n in result.tree.nodes() if n.kind == "goal" and n.hole_index == 0]
    assert hole.strategy == "prover" and prover.cancelled == 0


def test_watching_a_statement_is_told_of_its_proof_once_and_can_be_withdrawn():
    async def scenario() -> None:
        cache = SubgoalCache()
        lemma = "theorem a (x : ℕ) : x + 0 = x := by\n  sorry"
        same = "lemma other  (x : ℕ) :\n    x + 0 = x := by sorry"  # another name and layout
        told, withdrawn = cache.watch(HEADER, lemma), cache.watch(HEADER, lemma)
        cache.unwatch(HEADER, lemma, withdrawn)
        assert not told.done() and withdrawn.cancelled()
        cache.put(HEADER, same, "simp")
        assert told.result() == "simp"
        cache.put(HEADER, lemma, "omega")  # the first proof stays
        late = cache.watch(HEADER, lemma)  # already known: told at once
        assert late.result() == "simp" and cache._watchers == {}
        other_header = cache.watch("import Mathlib\nopen Nat\n", lemma)
        assert not other_header.done()
        cache.unwatch("import Mathlib\nopen Nat\n", lemma, other_header)
        assert cache._watchers == {}

    asyncio.run(scenario())


class _InformalRecordingProver(ScriptedProver):
    """Records the `informal` each request got (by statement), and fails every candidate."""

    def __init__(self) -> None:
        super().__init__(["bad"], [0.0])
        self.informal_of: list[tuple[str, str | None]] = []

    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        self.informal_of.append((lemma_statement.split(":", 1)[0], informal))
        return await super().prove(header, lemma_statement, n)


async def test_the_theorems_prover_requests_get_the_informal_statement_and_a_subgoals_do_not():
    class SketchesCompile(CountingVerifier):  # a sketch checks with its holes open; proofs fail
        async def check(self, code, *, timeout=None):
            if "sorry" not in code:
                return await super().check(code)
            holes = [{"pos": {"line": 99, "column": 0}, "goal": "⊢ x", "endPos": None}]
            return CheckResult.from_repl_response({"env": 0, "messages": [], "sorries": holes})

    problem = ProblemRecord("t/p", "p", HEADER, PROBLEM.statement, informal="Every x equals itself.")
    prover = _InformalRecordingProver()
    budget = BudgetConfig(root_whole_proof_attempts=2, prover_samples_per_goal=1, self_corrections=0, max_depth=1)
    engine = wired_engine(SketchesCompile(), _OneSketch(), prover, recorder=MemoryRecorder(),
                          settings=search_settings(budget=budget, portfolio=(), prover_samples_per_call=1))
    await asyncio.wait_for(engine.prove(problem), timeout=5)
    roots = [informal for name, informal in prover.informal_of if name == "theorem p (x "]
    subgoals = [informal for name, informal in prover.informal_of if name != "theorem p (x "]
    assert roots == ["Every x equals itself."] * 2
    assert subgoals and all(informal is None for informal in subgoals)  # the sketch's holes



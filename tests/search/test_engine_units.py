"""Unit tests of the engine's pieces: tree, cache keys, hole alignment, proof bodies, budgets,
candidate racing — with in-test stand-ins for the verifier and the models."""

from __future__ import annotations

import asyncio

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.lean import syntax as lean_code
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Goal, Position
from lemmaforge.records import MemoryRecorder, NodeCreated, ProblemRecord, RunFinished
from lemmaforge.search.assemble import align_holes, proof_body
from lemmaforge.search.automation import first_combinator
from lemmaforge.search.cache import SubgoalCache, normalize_statement
from lemmaforge.search.tree import ProofTree
from tests.fakes.scripted import (
    HEADER,
    PROBLEM,
    Answer,
    AutomationVerifier,
    CountingVerifier,
    OneSketch,
    RoomyProver,
    ScriptedProver,
    SketchOnce,
    wired_engine,
)
from tests.search.scenarios import search_settings

# Virtual time (looptime): the stand-ins' delays and the tests' waits move the loop's clock, not
# the wall clock's; the order of events is what the delays say, however busy the machine.
pytestmark = pytest.mark.looptime


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


async def test_an_error_inside_a_sketchs_holes_propagates_as_itself():
    """A bug while solving one hole (inside the sketch's TaskGroup) is raised as that error, and
    the run is recorded as failed: never a "not proved" with stop reason "unhandled errors in a
    TaskGroup"."""
    verifier = CountingVerifier(sketches_open=True, proves=lambda code: True)
    prover = ScriptedProver(["bad"], [0.01], rules={"Hard": Answer(raises=ZeroDivisionError("a bug in the prover"))})
    recorder = MemoryRecorder()
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0)
    engine = wired_engine(verifier, OneSketch(), prover, recorder=recorder,
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

    from lemmaforge.db.mapping import text_hash
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


async def test_a_statement_proved_meanwhile_is_taken_from_the_cache_before_the_next_step():
    """A goal looks in the cache when it starts; if the same statement is proved while its
    automation runs (by a hole of another sketch or alternative), it takes that proof instead of
    asking the prover."""
    cache = SubgoalCache()
    log: list[tuple[str, float]] = []
    verifier = AutomationVerifier(log, closes=False, room=None)
    prover = RoomyProver(False, log)
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1)
    engine = wired_engine(verifier, SketchOnce(), prover, recorder=MemoryRecorder(), cache=cache,
                          settings=search_settings(budget=budget, portfolio=("auto_ok",)))
    loop = asyncio.get_running_loop()
    loop.call_later(0.1, cache.put, HEADER, "theorem elsewhere (x : ℕ) : x + 0 = x := by\n  sorry", "simp")
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and "simp" in (result.proof or "")
    [hole] = [n for n in result.tree.nodes() if n.kind == "goal" and n.hole_index == 0]
    assert hole.strategy == "cache"
    assert prover.calls == 1  # the closing hole only
    assert result.stats.cache_hits == 1


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


async def test_the_theorems_prover_requests_get_the_informal_statement_and_a_subgoals_do_not():
    problem = ProblemRecord("t/p", "p", HEADER, PROBLEM.statement, informal="Every x equals itself.")
    prover = ScriptedProver(["bad"], [0.0])  # every candidate fails
    budget = BudgetConfig(root_whole_proof_attempts=2, prover_samples_per_goal=1, self_corrections=0, max_depth=1)
    sketches_compile = CountingVerifier(sketches_open=True)  # a sketch checks with its holes open; proofs fail
    engine = wired_engine(sketches_compile, OneSketch(), prover, recorder=MemoryRecorder(),
                          settings=search_settings(budget=budget, portfolio=(), prover_samples_per_call=1))
    await asyncio.wait_for(engine.prove(problem), timeout=5)
    informal_of = [(r.statement.split(":", 1)[0], r.informal) for r in prover.requests]
    roots = [informal for name, informal in informal_of if name == "theorem p (x "]
    subgoals = [informal for name, informal in informal_of if name != "theorem p (x "]
    assert roots == ["Every x equals itself."] * 2
    assert subgoals and all(informal is None for informal in subgoals)  # the sketch's holes



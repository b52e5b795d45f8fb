"""schedule/layers.py, the speculative schedule's hooks in the engine: a race's later candidates and
a sketch's later holes carry their sibling groups (held behind earlier ones), and with "full" a goal
is settled as soon as its statement is proved elsewhere (the engine records it)."""

from __future__ import annotations

import asyncio

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.lean.audit import _judge as judge
from lemmaforge.records import MemoryRecorder
from lemmaforge.schedule import order
from lemmaforge.search.cache import SubgoalCache
from tests.fakes.scripted import (
    HEADER,
    PROBLEM,
    TWO_HOLES,
    AutomationVerifier,
    Candidate,
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


@pytest.mark.parametrize("window", [1, 2])
async def test_a_races_later_candidates_are_held_until_the_earlier_ones_answer(window: int):
    """Each candidate's checks carry its race and rank (lean/order.py): submitted together,
    those with `race_window` earlier ones unanswered are held (window 1: the second and third while
    the first is unanswered; window 2: the third only); candidates of a later request,
    arriving after every earlier one failed, are not held; the race ends with nothing open."""
    seen: list[tuple[int, bool]] = []
    races: set[order.Siblings] = set()

    def record_race(code: str) -> None:
        path = order.current_siblings()
        if path:
            ((race, rank),) = path  # the root's race: nothing above it
            races.add(race)
            seen.append((rank, race.holds(rank)))

    class BatchProver(ScriptedProver):
        async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
            i = self.calls
            self.calls += 1
            await asyncio.sleep(self.delays[i])
            return [Candidate("", f"{self.bodies[i]}_{k}" if self.bodies[i] == "bad" else "ok") for k in range(n)]

    verifier = CountingVerifier(delay=0.02, on_check=record_race)
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

    def record_held(code: str) -> None:
        path = order.current_siblings()
        for name in held_at_submission:
            if path and f"theorem {name}\n" in code and "sorry" not in code:
                held_at_submission[name].append(order.held(path))

    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0)
    hole_verifier = CountingVerifier(0.02, sketches_open=True, proves=lambda code: True, on_check=record_held)
    engine = wired_engine(hole_verifier, OneSketch(), ScriptedProver(["ok"], [0.0]), recorder=MemoryRecorder(),
                          settings=search_settings(budget=budget, portfolio=()))
    await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    # the first hole's candidate goes at once; the later holes' wait for it (then the room rule,
    # with nothing else waiting here, sends them anyway)
    assert held_at_submission == {"p_sub_1": [False], "p_sub_2": [True], "p_sub_3": [True]}


# --- model requests ahead of need ([search] prefetch) -----------------------------------------------

async def test_the_roots_assembly_check_is_the_audit_of_the_file_with_our_statement():
    """At the root, the assembled file checked is the whole proof — our statement (not the
    sketch's copy, here formatted differently) with the sketch's proof — and that one check carries
    the audit's axiom probe: the audit reads its report, and the file is not checked twice."""

    class Reformatting(SketchOnce):
        async def draft(self, header, statement, informal=None, n=1, *, avoid=()):
            self.calls += 1
            return [Candidate(TWO_HOLES.replace(" : x = x := by", " :\n    x = x := by", 1), None)]

    verifier = AutomationVerifier([], closes=True, room=None)
    budget = BudgetConfig(root_whole_proof_attempts=0, self_corrections=0, sketch_alternatives=1)
    options = search_settings(budget=budget, portfolio=("auto_ok",))
    recorder = MemoryRecorder()
    engine = wired_engine(verifier, Reformatting(), None, recorder=recorder, settings=options)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and result.proof is not None
    assert result.proof.startswith(HEADER + "theorem p (x : ℕ) : x = x := by\n  have h1")
    probed = [c for c in verifier.checked if "#print axioms" in c]
    assert probed == [judge.with_probe(result.proof, judge.Probe.build("p", nonce=judge.nonce_for(result.proof)))]
    # the sketch, two holes' automation, the file, the original's type (lean/audit/_judge.py)
    assert result.stats.checks == len(verifier.checked) == 5
    from lemmaforge.records import AttemptRecord

    root_assemblies = [a for a in recorder.of_type(AttemptRecord) if a.strategy == "assembly"]
    assert [a.verdict for a in root_assemblies] == ["valid", "valid"]  # the sketch's assembly, the root's audit
    assert all(a.code == result.proof for a in root_assemblies)


# --- alternative sketches beside each other ([search] speculation = "full") -------------------------


def _watch_engine(*, parallel_alternatives: bool, prover_delay: float):
    """A two-hole sketch whose holes' automation fails and whose prover answers after
    `prover_delay`, with the run's subgoal cache in the test's hands."""
    cache = SubgoalCache()
    log: list[tuple[str, float]] = []
    prover = RoomyProver(False, log, delay=prover_delay)
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1)
    options = search_settings(budget=budget, portfolio=("auto_ok",),
                            speculation="full" if parallel_alternatives else "prefetch")
    engine = wired_engine(AutomationVerifier(log, closes=False, room=None), SketchOnce(), prover,
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

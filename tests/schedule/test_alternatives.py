"""schedule/alternatives.py (`[search] speculation = "full"`, experimental): a goal's alternative
sketches beside each other while Lean and the planner have room, the first to close the goal wins;
what one sends before its turn is provisional (schedule/ledgers.py)."""

from __future__ import annotations

import asyncio

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.records import MemoryRecorder
from lemmaforge.schedule import order
from tests.fakes.agents import AgentStandIn
from tests.fakes.scripted import (
    PROBLEM,
    Answer,
    AutomationVerifier,
    Candidate,
    ScriptedProver,
    wired_engine,
)
from tests.search.scenarios import search_settings

# Virtual time (looptime): the stand-ins' delays and the tests' waits move the loop's clock, not
# the wall clock's; the order of events is what the delays say, however busy the machine.
pytestmark = pytest.mark.looptime


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


def _stuck_prover(stuck_for: float = 1.0) -> ScriptedProver:
    """The first sketch's hole (`Stuck x`) fails after `stuck_for`; any other is proved at once."""
    return ScriptedProver(rules={"Stuck": Answer("bad", stuck_for)})


def _alternatives_engine(*, room: bool, parallel: bool, stuck_for: float = 1.0):
    sketch_paths: list[tuple[str, int]] = []  # each sketch check: which alternative, its sibling path's length

    def record_sketch(code: str) -> None:
        if "sorry" in code and "theorem p " in code and "#print" not in code and "#check" not in code:
            step = "second" if "x + 0 = x" in code else "first"
            sketch_paths.append((step, len(order.current_siblings())))

    planner = _TwoAlternatives(room)
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=2, sketch_corrections=0)
    options = search_settings(budget=budget, portfolio=(), speculation="full" if parallel else "prefetch")
    verifier = AutomationVerifier([], closes=False, room=room, on_check=record_sketch)
    verifier.sketch_paths = sketch_paths
    engine = wired_engine(verifier, planner, _stuck_prover(stuck_for),
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


async def test_a_budget_spent_by_an_alternative_beside_caps_what_both_send():
    """The budget runs out while an alternative runs beside the first: nothing new is sent, the
    first alternative runs to its end on the unit speculation left it, and what the run reports
    is what the stand-ins received."""

    engine, _ = _alternatives_engine(room=True, parallel=True)
    engine.prover = ScriptedProver(rules={"Stuck": Answer("ok", 0.5)})  # slow but right
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


async def test_an_alternative_tried_beside_spends_what_it_would_on_its_turn():
    """The second alternative starts beside the first; the first fails, so the second's turn comes
    while it runs and it closes the goal: the budget is charged exactly what a one-at-a-time search
    spends (nothing speculative left over)."""
    spent = {}
    for parallel in (False, True):
        engine, _ = _alternatives_engine(room=True, parallel=parallel)
        # the stuck hole fails at once; the second sketch's hole is proved, slowly
        engine.prover = ScriptedProver(["ok"], [0.3], rules={"Stuck": Answer("bad")})
        result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
        assert result.proved and "x + 0 = x" in (result.proof or "")
        stats = result.stats
        spent[parallel] = (stats.llm_calls, stats.checks, stats.speculative_calls, stats.speculative_checks)
    assert spent[True] == spent[False] and spent[True][2:] == (0, 0)


async def test_an_alternative_that_failed_beside_is_tried_again_on_its_turn():
    """The second alternative, started beside the first, fails before its turn; when the first
    fails, the second gets its turn as a one-at-a-time search would give it — tried again from its
    draft (not drafted again), its failed hole asked afresh — and closes the goal. Its failed try
    stays in the tree, and its spending is charged: its turn came."""
    engine, planner = _alternatives_engine(room=True, parallel=True)
    # the first sketch's stuck hole fails late; the second sketch's hole is proved on the second
    # request for it only
    prover = engine.prover = ScriptedProver(rules={"Stuck": Answer("bad", 0.5),
                                                   "x + 0 = x": [Answer("bad"), Answer("ok")]})
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and "x + 0 = x" in (result.proof or "")
    assert len(planner.avoided) == 2  # two drafts: the retry reuses the second
    assert prover.asked["x + 0 = x"] == 2 and prover.calls == sum(prover.asked.values())  # asked nothing else
    sketches = [n for n in result.tree.nodes() if n.kind == "sketch"]
    assert sorted(n.status for n in sketches) == ["abandoned", "abandoned", "solved"]
    assert result.stats.speculative_calls == 0 and result.stats.speculative_checks == 0
    assert not any(n.status == "open" for n in result.tree.nodes())

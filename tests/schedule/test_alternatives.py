"""schedule/alternatives.py (`[search] speculation = "full"`, experimental): a goal's alternative
sketches beside each other while Lean and the planner have room, the first to close the goal wins;
what one sends before its turn is provisional (schedule/ledgers.py)."""

from __future__ import annotations

import asyncio

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.lean.verifier import CheckResult
from lemmaforge.records import MemoryRecorder
from lemmaforge.schedule import order
from tests.fakes.agents import AgentStandIn
from tests.fakes.scripted import (
    PROBLEM,
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
    class Verifier(AutomationVerifier):
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

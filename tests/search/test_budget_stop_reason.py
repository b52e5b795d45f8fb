"""A budget that runs out deep in the tree says so, whatever TaskGroups it crossed; an error beside
it is what the caller sees.

Before: a budget exhausted in a hole of a hole's sketch reached the top wrapped in nested
exception groups, and the run ended `stop_reason: 'unhandled errors in a TaskGroup (2
sub-exceptions)'` — read as "not proved" for a reason nobody could act on.
"""

from __future__ import annotations

import asyncio

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.records import MemoryRecorder, ProblemRecord
from lemmaforge.search.budget import BudgetExhausted, first_leaf
from tests.fakes.scripted import OneHavePlanner, ScriptedProver, TimedVerifier, wired_engine
from tests.search.scenarios import search_settings

# Virtual time (looptime): the stand-ins' delays move the loop's clock, not the wall clock's.
pytestmark = pytest.mark.looptime

HEADER = "import Mathlib\n\n"
ROOT = "theorem p (x : ℕ) : x = x := by\n  sorry\n"


@pytest.mark.parametrize("llm_calls", range(1, 12))
async def test_a_budget_exhausted_below_nested_sketches_is_the_stop_reason(llm_calls: int) -> None:
    planner, prover = OneHavePlanner(), ScriptedProver(["bad"])  # every candidate fails
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1, max_depth=3, llm_calls=llm_calls)
    engine = wired_engine(TimedVerifier(False), planner, prover, recorder=MemoryRecorder(),
                          settings=search_settings(budget=budget, portfolio=(), speculation="off"))
    result = await asyncio.wait_for(engine.prove(ProblemRecord("t/p", "p", HEADER, ROOT)), timeout=20)
    assert not result.proved
    assert result.stop_reason == "llm_calls budget exhausted"
    assert result.stats.llm_calls == planner.calls + prover.calls == llm_calls


def test_the_leaf_a_caller_sees_is_the_error_beside_budget_and_cancellation() -> None:
    bug = RuntimeError("a bug")
    nested = ExceptionGroup("outer", [ExceptionGroup("inner", [BudgetExhausted("llm_calls")]), bug])
    assert first_leaf(nested) is bug
    only_budget = BaseExceptionGroup("outer", [asyncio.CancelledError(), BudgetExhausted("lean_checks")])
    assert isinstance(first_leaf(only_budget), asyncio.CancelledError)
    assert first_leaf(bug) is bug

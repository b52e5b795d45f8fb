"""What the search passes a prover (search/interfaces.py `ProverLike`): every prover takes every
parameter, and the search always passes them. A correction is given the very file Lean checked
the failed candidate as (`checked_code`), the file its error positions refer to."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.records import MemoryRecorder, ProblemRecord
from tests.fakes.agents import AgentStandIn
from tests.fakes.scripted import CountingVerifier, wired_engine
from tests.search.scenarios import search_settings

# Virtual time (looptime): the stand-ins' delays move the loop's clock, not the wall clock's.
pytestmark = pytest.mark.looptime

HEADER = "import Mathlib\n\n"
PROBLEM = ProblemRecord("t/p", "p", HEADER, "theorem p (x : ℕ) : x = x := by\n  sorry\n",
                        informal="Every x equals itself.")


@dataclass(frozen=True)
class Candidate:
    code: str
    body: str | None
    raw: str = ""
    call_id: str | None = None
    aux: str = ""


class CorrectingProver(AgentStandIn):
    """Writes a wrong proof (with a helper lemma before the theorem), then corrects it."""

    def __init__(self) -> None:
        self.proved: list[dict[str, Any]] = []
        self.corrected: list[dict[str, Any]] = []

    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        self.proved.append({"informal": informal, "on_candidate": on_candidate})
        return [Candidate("", "bad", aux="lemma helper : True := trivial")]

    async def correct(self, header, candidate, errors, n=1, *, on_candidate=None, checked_code=None):
        self.corrected.append({"candidate": candidate, "errors": list(errors), "checked_code": checked_code})
        return [Candidate("", "ok")]


async def test_a_correction_gets_the_file_lean_checked_and_its_errors() -> None:
    verifier, prover = CountingVerifier(error_at=(2, 2)), CorrectingProver()  # an error on the proof's line
    budget = BudgetConfig(root_whole_proof_attempts=1, self_corrections=1, max_depth=0)
    engine = wired_engine(verifier, None, prover, recorder=MemoryRecorder(),
                          settings=search_settings(budget=budget, portfolio=(), speculation="off"))
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved
    assert prover.proved == [{"informal": "Every x equals itself.", "on_candidate": None}]
    [asked] = prover.corrected
    failed_file = next(code for code in verifier.checked if "  bad" in code)
    assert asked["checked_code"] == failed_file and "lemma helper" in failed_file
    assert [e.pos.line for e in asked["errors"]] == [2]
    assert asked["candidate"].body == "bad"

"""What the search passes a prover (search/interfaces.py `ProverLike`): every prover takes every
parameter, and the search always passes them. A correction is given the very file Lean checked
the failed candidate as (`checked_code`), the file its error positions refer to."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.lean.verifier import CheckResult
from lemmaforge.records import MemoryRecorder, ProblemRecord
from tests.fakes.agents import AgentStandIn
from tests.fakes.fake_common import CheckOnlyVerifier, probe_response
from tests.fakes.scripted import wired_engine
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


class ErrorOnLine2(CheckOnlyVerifier):
    """A proof `ok` compiles; any other file has one error, on its line 2 (the proof's line)."""

    def __init__(self) -> None:
        self.checked: list[str] = []

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult:
        if (probed := probe_response(code)) is not None:
            return CheckResult.from_repl_response(probed)
        self.checked.append(code)
        bad = "  ok" not in code
        msgs = [{"severity": "error", "pos": {"line": 2, "column": 2}, "data": "nope"}] if bad else []
        return CheckResult.from_repl_response({"env": 0, "messages": msgs})


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
    verifier, prover = ErrorOnLine2(), CorrectingProver()
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

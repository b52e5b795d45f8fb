"""The bench's scheduler starts the statement checks of the problems queued next while searches
run, so their header imports and checks overlap with the running searches' LLM calls instead of
each search waiting for its own check first. Each problem is still checked once, before its search."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from lemmaforge.benchmarks import runner
from lemmaforge.config import load_config
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Goal
from lemmaforge.records import ProblemRecord
from tests.waiting import until

HEADER = "import Mathlib\n\n"


class RecordingVerifier:
    name = "recording"
    supports_proof_states = False

    def __init__(self) -> None:
        self.checked: list[str] = []

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult:
        self.checked.append(code.split("theorem ", 1)[1].split(" ", 1)[0])
        await asyncio.sleep(0)
        return CheckResult(CheckStatus.INCOMPLETE, holes=[Goal(goal="⊢ True")])

    async def check_many(self, codes: Sequence[str], *, timeout: float | None = None) -> list[CheckResult]:
        return [await self.check(c) for c in codes]

    async def close(self) -> None:
        pass


class NullRecorder:
    def emit(self, record: Any) -> None:
        pass

    def cached_proof(self, header: str, normalized_statement: str) -> str | None:
        return None

    def flush(self, timeout: float | None = None) -> None:
        pass

    async def aflush(self) -> None:
        pass


def problem(i: int) -> ProblemRecord:
    return ProblemRecord(problem_id=f"t/p{i}", name=f"p{i}", header=HEADER,
                         statement=f"theorem p{i} : True := by\n  sorry\n", dataset="t")


async def test_upcoming_problems_are_checked_while_the_first_search_runs(monkeypatch) -> None:
    verifier = RecordingVerifier()
    searched: list[str] = []
    seen_when_searching: dict[str, list[str]] = {}

    async def fake_attempt(services: Any, settings: Any, prob: ProblemRecord, **kw: Any) -> runner.AttemptResult:
        # the search's first LLM call: it answers once the look-ahead has checked the next two
        # problems, which can only happen if the look-ahead runs meanwhile (it would hang otherwise)
        i = int(prob.name[1:])
        await until(lambda: {f"p{j}" for j in range(i + 1, min(i + 3, 4))} <= set(verifier.checked),
                    what=f"the look-ahead past {prob.name}")
        seen_when_searching[prob.name] = list(verifier.checked)
        searched.append(prob.name)
        return runner.AttemptResult(prob.problem_id, kw["attempt"], "r", "not_proved")

    monkeypatch.setattr(runner, "run_attempt", fake_attempt)
    services = runner.Services(verifier, NullRecorder(), None, None, False)  # type: ignore[arg-type]
    settings = load_config(None, {}, environ={})
    jobs = [(problem(i), attempt) for i in range(4) for attempt in (1, 2)]
    results = await runner.run_jobs(jobs, services=services, settings=settings, bench_run_id="b", versions={},
                                    shared_cache=False, concurrency=2)
    assert len(results) == 8
    # two workers: while p0's searches run, the next two other problems' checks are done too
    assert set(seen_when_searching["p0"]) == {"p0", "p1", "p2"}
    assert set(seen_when_searching["p1"]) == {"p0", "p1", "p2", "p3"}
    # one check per problem, whatever its attempts; each before that problem's first search
    assert sorted(verifier.checked) == ["p0", "p1", "p2", "p3"]
    assert all(name in seen_when_searching[name] for name in searched)

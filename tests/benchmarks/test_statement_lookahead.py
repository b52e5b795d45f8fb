"""The bench's scheduler starts the statement checks of the problems queued next while searches
run, so their header imports and checks overlap with the running searches' LLM calls instead of
each search waiting for its own check first. Each problem is still checked once, before its search."""

from __future__ import annotations

from typing import Any

from lemmaforge.benchmarks import runner
from lemmaforge.config import load_config
from lemmaforge.records import ProblemRecord
from tests.fakes.scripted import CountingVerifier
from tests.waiting import until

HEADER = "import Mathlib\n\n"


def checked(verifier: CountingVerifier) -> list[str]:
    """The names of the theorems whose statements `verifier` was sent, in order."""
    return [code.split("theorem ", 1)[1].split(" ", 1)[0] for code in verifier.checked]


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
    verifier = CountingVerifier(sketches_open=True)  # a statement (`sorry`) checks with its hole
    searched: list[str] = []
    seen_when_searching: dict[str, list[str]] = {}

    async def fake_attempt(services: Any, settings: Any, prob: ProblemRecord, **kw: Any) -> runner.AttemptResult:
        # the search's first LLM call: it answers once the look-ahead has checked the next two
        # problems, which can only happen if the look-ahead runs meanwhile (it would hang otherwise)
        i = int(prob.name[1:])
        await until(lambda: {f"p{j}" for j in range(i + 1, min(i + 3, 4))} <= set(checked(verifier)),
                    what=f"the look-ahead past {prob.name}")
        seen_when_searching[prob.name] = checked(verifier)
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
    assert sorted(checked(verifier)) == ["p0", "p1", "p2", "p3"]
    assert all(name in seen_when_searching[name] for name in searched)

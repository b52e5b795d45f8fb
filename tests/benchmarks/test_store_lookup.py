"""Whoever wires a search gives its subgoal cache the store's lookup (`records.StoreRecorder`):
`prove_problem` reads proofs of earlier runs through the services' recorder, and a bench attempt
reads them only when the bench shares its cache (`--shared-cache`)."""

from __future__ import annotations

import pytest

from lemmaforge.benchmarks.runner import run_attempt
from lemmaforge.config import BudgetConfig
from lemmaforge.records import MemoryRecorder, ProblemRecord, ProofRecord, RunFinished
from lemmaforge.search.cache import normalize_statement
from lemmaforge.services import Services, prove_problem
from tests.fakes.scripted import CountingVerifier
from tests.search.scenarios import search_settings

HEADER = "import Mathlib\n\n"
THEOREM = "theorem p (x : ℕ) : x = x := by\n  sorry\n"
PROBLEM = ProblemRecord("t/p", "p", HEADER, THEOREM)


def _services_with_an_earlier_proof() -> Services:
    """No model at all: the only way to a proof is the store's proof of the same statement."""
    store = MemoryRecorder()
    store.emit(ProofRecord("earlier-run", "pf1", "subgoal", HEADER, THEOREM, normalize_statement(THEOREM), "ok"))
    return Services(CountingVerifier(), store, None, None)


def _settings():
    return search_settings(budget=BudgetConfig(self_corrections=0), portfolio=())


async def test_prove_problem_reads_earlier_runs_proofs_through_the_services_recorder() -> None:
    services = _services_with_an_earlier_proof()
    result = await prove_problem(services, _settings(), PROBLEM)
    assert result.proved and result.stats.cache_hits == 1
    assert result.proof is not None and "  ok" in result.proof


async def test_without_the_store_the_same_search_has_nothing_to_prove_with() -> None:
    services = Services(CountingVerifier(), MemoryRecorder(), None, None)
    result = await prove_problem(services, _settings(), PROBLEM)
    assert not result.proved and result.stats.cache_hits == 0


@pytest.mark.parametrize("shared", [True, False])
async def test_a_bench_attempt_reads_the_store_only_with_a_shared_cache(shared: bool) -> None:
    services = _services_with_an_earlier_proof()
    out = await run_attempt(services, _settings(), PROBLEM, bench_run_id="bench-1", attempt=0, versions={},
                            shared_cache=shared)
    assert out.status == ("proved" if shared else "not_proved")
    [finished] = [r for r in services.recorder.of_type(RunFinished) if r.run_id == out.run_id]  # type: ignore[attr-defined]
    assert finished.status == out.status

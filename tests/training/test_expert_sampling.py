"""Expert-iteration sampling asks the prover with the prompt its training rows are built with."""

from __future__ import annotations

import json
from types import SimpleNamespace

from lemmaforge.records import MemoryRecorder, ProblemRecord
from lemmaforge.training.expert._sampling import RoundSampler, problem_of
from tests.conftest import BENCHMARKS
from tests.fakes.scripted import ScriptedProver


def _minif2f_with_informal() -> ProblemRecord:
    """A real miniF2F row that has an informal statement."""
    with open(BENCHMARKS / "minif2f.jsonl", encoding="utf-8") as rows:
        row = next(r for r in map(json.loads, rows) if r.get("informal_statement"))
    return ProblemRecord(f"minif2f/{row['name']}", row["name"], row["header"], row["formal_statement"],
                         informal=row["informal_statement"])


def _sampler() -> RoundSampler:
    cfg = SimpleNamespace(prover_url="http://127.0.0.1:1/v1", prover_model=None, samples=2, eval_samples=1,
                          temperature=1.0, top_p=0.95, max_tokens=64, concurrency=1)
    return RoundSampler(cfg, store=None, recorder=MemoryRecorder(), verifier_factory=lambda: None)  # type: ignore[arg-type]


async def test_sampling_gives_the_prover_the_problems_informal_statement() -> None:
    record = _minif2f_with_informal()
    prover = ScriptedProver([None])  # answers nothing: nothing to audit
    counts = await _sampler().attempt(prover, None, problem_of(record), 2, run_id=None, node_id=None)  # type: ignore[arg-type]
    assert counts == {"candidates": 0, "proofs": 0}
    [request] = prover.requests
    assert request.statement.startswith(f"theorem {record.name}") and request.informal == record.informal

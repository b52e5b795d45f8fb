"""The issue's "done when": the export of a store that contains automation-closed holes (stored the
old way, as the whole portfolio), disguised held-out problems and sketches copied as final
proofs has no combinator, no leak and no reward for a copy."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lemmaforge.db import SqlRecorder, Store
from lemmaforge.lean import syntax as lean_code
from lemmaforge.records import ProblemRecord
from lemmaforge.search.automation import DEFAULT_PORTFOLIO, first_combinator, is_portfolio
from lemmaforge.training.export import collect
from lemmaforge.training.holdout import Holdout, statement_key
from lemmaforge.training.rewards import sketch_and_proof, structure_consistency_reward
from tests.training.test_canonical import DISGUISES
from tests.training.test_export import RunWriter, _pairs

PORTFOLIO = first_combinator(DEFAULT_PORTFOLIO)


def _with_sorry_replaced(statement: str, tactic: str) -> str:
    assert statement.rstrip().endswith("sorry")
    return statement.rstrip()[: -len("sorry")] + tactic + "\n"


@pytest.fixture(scope="module")
def dirty_store(tmp_path_factory, shared_data):
    valid = _pairs("valid", 2)
    test = {p.problem.name: p for p in _pairs("test", 2)}
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('dirty') / 'runs.db'}")
    rec = SqlRecorder(store)
    p1, p2 = valid
    # (1) an old run: a hole closed by automation stored as the portfolio, inline in the whole proof
    steps = lean_code.have_steps(p1.proof)
    first = steps[0]
    old_whole = p1.proof[: first.proof_start] + " by\n    " + PORTFOLIO.replace("\n", "\n    ") + p1.proof[first.proof_end :]
    w = RunWriter(rec, p1.problem, "old-automation")
    root = w.node("goal", 0, p1.problem.statement)
    hole = w.node("goal", 1, "theorem old_hole (x : ℝ) : x = x := by\n  sorry", root, 0)
    w.status(hole, "solved", "automation", PORTFOLIO)
    w.proof("subgoal", "theorem old_hole (x : ℝ) : x = x := by\n  sorry", PORTFOLIO, hole, "automation", 1)
    w.status(root, "solved", "prover", "...")
    w.proof("whole", p1.problem.statement, old_whole, root, "prover", 0)
    w.finish()
    # (2) a clean decomposed run (the cot row), automation's hole closed by one tactic
    sketch, _ = RunWriter(rec, p2.problem, "clean-sketch").decomposed(p2, "theorem other_lemma (y : ℕ) : y = y := by\n  sorry")
    # (3) disguised held-out miniF2F test problems, proved under names that are not held out
    for i, (name, disguise) in enumerate(DISGUISES):
        problem = ProblemRecord(f"adhoc/disguise_{i}", f"disguise_{i}", test_header(shared_data, name), disguise, "adhoc")
        RunWriter(rec, problem, f"disguise-{i}").direct(problem.header + _with_sorry_replaced(disguise, "norm_num"))
    # (4) a held-out test problem restated as a subgoal lemma of a valid problem's run
    t = next(iter(test.values()))
    w = RunWriter(rec, replace(p1.problem), "subgoal-leak")
    root = w.node("goal", 0, p1.problem.statement)
    leak = t.problem.statement.replace(t.problem.name, "helper_1", 1).replace("  ", " ")
    g = w.node("goal", 1, leak, root, 0)
    w.status(g, "solved", "prover", "nlinarith")
    w.proof("subgoal", leak, "nlinarith", g, "prover", 1)
    w.finish(proved=False)
    rec.close()
    return store, sketch


def test_header(shared_data, name: str) -> str:
    from lemmaforge.benchmarks.datasets import load_dataset

    return next(p for p in load_dataset("minif2f", split="test") if p.name == name).header


test_header.__test__ = False  # a helper, not a test


@pytest.mark.slow
def test_export_has_no_combinator_no_leak_and_no_reward_for_a_copy(dirty_store):
    store, sketch = dirty_store
    held = Holdout.load(["minif2f:test"])
    result = collect(store, holdout=held)
    rows = [r for kind_rows in result.rows.values() for r in kind_rows]
    assert rows, "the clean run must still export"

    # no combinator anywhere: the old runs' portfolio proofs are skipped and counted
    assert not any(is_portfolio(r["completion"][0]["content"]) for r in [*rows, *result.statements] if "completion" in r)
    assert result.counts["skipped"]["portfolio_proof"] == 2

    # no leak: every disguised held-out problem is excluded by its statement, the subgoal too
    for r in [*rows, *result.statements]:
        assert statement_key(r["statement"]) not in held.statements
        assert r.get("name") not in held.names
    by_statement = result.counts["excluded"]["by_statement"]
    assert by_statement.get("sft", 0) == len(DISGUISES) and by_statement.get("subgoal", 0) == 1

    # no reward for a copy: the cot row's completion earns the consistency reward; the same
    # completion whose final block is the sketch again earns nothing
    (cot,) = result.rows["cot"]
    text = cot["completion"][0]["content"]
    row_sketch, proof = sketch_and_proof(text)
    assert row_sketch.strip() == sketch.strip() and not is_portfolio(proof)
    copied = text.replace(proof, row_sketch)
    columns = {"header": [cot["header"]] * 2, "statement": [cot["statement"]] * 2}
    assert structure_consistency_reward(None, [text, copied], **columns) == [1.0, 0.0]

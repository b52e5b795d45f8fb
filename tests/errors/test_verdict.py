"""Statuses that cannot lie (issue 39, point 4): a bench whose every statement came back invalid
used to end `status: "proved"`, exit 0 (0/0 solved), so a broken verifier passed a CI gate."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from lemmaforge.benchmarks.verdict import bench_verdict
from lemmaforge.db import Store
from tests.benchmarks.bench_entry import app
from tests.benchmarks.bench_helpers import ENV, SOLVABLE, bench_args, lean_block, script_prover
from tests.conftest import error_lines
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()


def test_a_bench_whose_every_statement_is_invalid_fails_with_one_line_and_exit_2(tmp_path):
    # a "broken verifier": every statement check answers an error
    lean = ScriptedLean(rules=[MessageRule(r"theorem", "unknown package 'Mathlib'")])
    db = f"sqlite:///{tmp_path / 'allbad.db'}"
    default = lean_block("theorem wrong : True := by\n  norm_num\n")
    with FakeKimina(responder=lean) as kimina, FakeOpenAIServer(default=default) as llm:
        script_prover(llm, SOLVABLE)
        r = runner.invoke(app, bench_args(kimina, llm, db, "--limit", "2", "--run-id", "ALLBAD", "--json"), env=ENV)
        chat = [q for q in llm.requests if q.endpoint == "chat"]
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    lines = error_lines(r.stderr)
    assert len(lines) == 1 and "nothing valid to solve" in lines[0] and "2 statement(s)" in lines[0], r.stderr
    assert chat == []  # no budget spent
    run = Store(db).get_run("ALLBAD")
    assert run.status == "failed" and "nothing valid to solve" in run.summary["error"]
    r = runner.invoke(app, ["report", "ALLBAD", "--db", db, "--json"], env=ENV)
    assert r.exit_code == 0 and json.loads(r.stdout)["status"] == "failed"


def test_the_verdict_counts_invalid_statements():
    base = {"problems": 2, "solved": 2, "attempts_done": 2, "complete": True, "invalid": []}
    assert bench_verdict(base).status == "proved"
    assert bench_verdict({**base, "invalid": [{"problem_id": "x"}]}).status == "not_proved"
    assert bench_verdict({**base, "solved": 1}).status == "not_proved"
    assert bench_verdict({**base, "complete": False}).status == "failed"
    nothing = bench_verdict({**base, "problems": 0, "solved": 0, "attempts_done": 0, "invalid": [{"problem_id": "x"}]})
    assert nothing.status == "failed" and nothing.nothing_to_solve
    empty = bench_verdict({**base, "problems": 0, "solved": 0, "attempts_done": 0})
    assert empty.status == "failed" and empty.nothing_to_solve

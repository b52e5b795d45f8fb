"""`bench --protocol whole-proof --attempts K` is the papers' pass@K: exactly K prover samples per
problem (one per attempt, `n` = 1), no planner, no automation, no correction; every report states
how its numbers were made and divides by all the selected problems."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.benchmarks.bench_helpers import ENV, NAMES, SOLVABLE, fake_servers

runner = CliRunner()


def _args(kimina, llm, db: str, *extra: str) -> list[str]:
    return ["bench", "minif2f", "--split", "valid", "--limit", "3", "--verifier", "kimina", "--kimina-url", kimina.url,
            "--prover-url", llm.url, "--prover-model", "fake-model", "--db", db, "--no-progress", *extra]


def one_line_error(result, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    for n in needles:
        assert n in lines[0], lines[0]


def test_whole_proof_is_exactly_k_samples_per_problem(tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 'w.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        r = runner.invoke(app, _args(kimina, llm, db, "--protocol", "whole-proof", "--attempts", "4",
                                     "--run-id", "W", "--json"), env=ENV)
        assert r.exit_code == 0, r.output
        chats = llm.requests_to("chat")
    out = json.loads(r.stdout)
    # 3 problems x 4 attempts, one sample each; failed samples get no correction turn
    assert len(chats) == 12 and all(q.body.get("n", 1) == 1 for q in chats)
    theorem = re.compile(r"theorem (\w+)")
    per_problem = {}
    for q in chats:
        name = theorem.search(q.last_user).group(1)
        per_problem[name] = per_problem.get(name, 0) + 1
        assert "error" not in q.last_user.lower()  # no self-correction prompt
    assert per_problem == {n: 4 for n in NAMES[:3]}
    solved = [n for n in NAMES[:3] if n in SOLVABLE]
    assert out["solved"] == len(solved) and out["pass_at_k"]["1"] == round(len(solved) / 3, 4)
    assert out["protocol"]["name"] == "whole-proof"  # the bench's own JSON says it too
    rep = json.loads(runner.invoke(app, ["report", "W", "--db", db, "--json"]).stdout)
    proto = rep["protocol"]
    assert proto["name"] == "whole-proof" and proto["attempts_per_problem"] == 4
    assert proto["prover_samples_per_problem"] == 4.0 and proto["planner"] is None
    assert proto["prover"]["model"] == "fake-model"
    assert proto["tokens_per_problem"]["prompt"] > 0 and proto["tokens_per_problem"]["completion"] > 0
    budget = proto["budget_per_attempt"]
    assert (budget["root_whole_proof_attempts"], budget["self_corrections"], budget["max_depth"]) == (1, 0, 0)
    assert proto["dataset"]["name"] == "minif2f-deepseek-v1.5" and proto["dataset"]["lean_version"] == "v4.9.0"
    # the server said its Lean (cli/bench.py asks it): verified
    assert proto["verifier"] == {"backend": "kimina", "lean_version": "v4.9.0", "lean_verified": True,
                                 "lean_from": "verifier"}
    assert rep["config"]["protocol"] == "whole-proof"
    text = runner.invoke(app, ["report", "W", "--db", db]).stdout
    assert "protocol: whole-proof (the papers' pass@k" in text and "4 prover samples" in text
    assert "verifier: kimina, Lean v4.9.0" in text and "rates over all 3 selected problems" in text


def test_search_is_the_default_and_says_so(tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        r = runner.invoke(app, _args(kimina, llm, db, "--run-id", "S", "--budget", "root_whole_proof_attempts=2",
                                     "--json"), env=ENV)
        assert r.exit_code == 0, r.output
        chats = llm.requests_to("chat")
    assert any(q.body.get("n", 1) == 2 for q in chats)  # a search samples several at once
    rep = json.loads(runner.invoke(app, ["report", "S", "--db", db, "--json"]).stdout)
    assert rep["protocol"]["name"] == "search" and rep["config"]["protocol"] == "search"


def test_whole_proof_refuses_what_contradicts_it(tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 'x.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        one_line_error(runner.invoke(app, _args(kimina, llm, db, "--protocol", "whole-proof", "--budget",
                                                "self_corrections=1"), env=ENV), "fixes", "self_corrections")
        one_line_error(runner.invoke(app, _args(kimina, llm, db, "--protocol", "whole-proof", "--planner-url",
                                                llm.url), env=ENV), "uses no planner")
        one_line_error(runner.invoke(app, _args(kimina, llm, db, "--protocol", "pass@k"), env=ENV),
                       "unknown protocol 'pass@k'")
        r = runner.invoke(app, _args(kimina, llm, db, "--protocol", "whole-proof", "--run-id", "R", "--json"), env=ENV)
        assert r.exit_code == 0, r.output
        one_line_error(runner.invoke(app, ["bench", "--resume", "R", "--db", db, "--protocol", "search"], env=ENV),
                       "--protocol search (the run has whole-proof)")
        one_line_error(runner.invoke(app, ["bench", "--resume", "R", "--db", db, "--planner-url", llm.url], env=ENV),
                       "--planner-url (the run has no planner)")


@pytest.mark.slow
def test_putnam_answer_slots_make_the_rate_a_lower_bound(tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 'p.db'}"
    with fake_servers() as (kimina, llm):
        for answers, run_id in (("slots", "PS"), ("inlined", "PI")):
            r = runner.invoke(app, ["bench", "putnambench", "--names", "putnam_1962_a2,putnam_1962_a1",
                                    "--answers", answers, "--protocol", "whole-proof", "--verifier", "kimina",
                                    "--kimina-url", kimina.url, "--prover-url", llm.url, "--db", db,
                                    "--no-progress", "--run-id", run_id, "--json"], env=ENV)
            assert r.exit_code == 0, r.output
    slots = json.loads(runner.invoke(app, ["report", "PS", "--db", db, "--json"]).stdout)["protocol"]
    assert slots["lower_bound"].startswith("1 problem(s) have answer slots") and "lower bound" in slots["lower_bound"]
    text = runner.invoke(app, ["report", "PS", "--db", db]).stdout
    assert "lower bound: 1 problem(s) have answer slots" in text
    inlined = json.loads(runner.invoke(app, ["report", "PI", "--db", db, "--json"]).stdout)["protocol"]
    assert inlined["lower_bound"] is None  # the answers are given: nothing left unfilled


def test_report_names_known_wrong_statements_it_ran(tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 'k.db'}"
    with fake_servers() as (kimina, llm):
        r = runner.invoke(app, ["bench", "minif2f", "--names", "mathd_numbertheory_618,mathd_algebra_478",
                                "--protocol", "whole-proof", "--verifier", "kimina", "--kimina-url", kimina.url,
                                "--prover-url", llm.url, "--db", db, "--no-progress", "--run-id", "K", "--json"],
                          env=ENV)
        assert r.exit_code == 0, r.output
    rep = json.loads(runner.invoke(app, ["report", "K", "--db", db, "--json"]).stdout)
    assert rep["protocol"]["known_issues"] == [{"name": "mathd_numbertheory_618", "kind": "false"}]
    text = runner.invoke(app, ["report", "K", "--db", db]).stdout
    assert "known wrong statements among these problems (counted like the others): mathd_numbertheory_618 (false)" in text

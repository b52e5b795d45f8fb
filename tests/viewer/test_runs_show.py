"""`lemmaforge runs` and `lemmaforge show RUN` (text and --json) on runs recorded for real."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db import Store

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def invoke(*args: str):
    return runner.invoke(app, list(args), env=WIDE)


def walk(node):
    yield node
    for c in node["children"]:
        yield from walk(c)


@pytest.mark.slow
def test_runs_lists_newest_first_and_filters(recorded):
    r = invoke("runs", "--db", recorded.db, "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["runs"]
    assert [x["run_id"] for x in rows] == [recorded.failed, recorded.proved]
    assert rows[0]["status"] == "not_proved" and rows[0]["stop_reason"] == "llm_calls budget exhausted"
    assert rows[1]["status"] == "proved" and rows[1]["depth"] == 1 and rows[1]["llm_calls"] >= 3

    only = json.loads(invoke("runs", "--db", recorded.db, "--status", "proved", "--json").stdout)["runs"]
    assert [x["run_id"] for x in only] == [recorded.proved]
    assert len(json.loads(invoke("runs", "--db", recorded.db, "--limit", "1", "--json").stdout)["runs"]) == 1
    by_name = json.loads(invoke("runs", "--db", recorded.db, "--problem", "t", "--json").stdout)["runs"]
    assert len(by_name) == 2
    none = json.loads(invoke("runs", "--db", recorded.db, "--problem", "no_such_problem", "--json").stdout)["runs"]
    assert none == []

    table = invoke("runs", "--db", recorded.db)
    assert table.exit_code == 0
    assert recorded.proved[:12] in table.stdout and "not proved" in table.stdout and "budget exhausted" in table.stdout


@pytest.mark.slow
def test_runs_bad_input_is_one_line_exit_2(recorded, tmp_path):
    for args in (("--status", "great"), ("--limit", "-1")):
        r = invoke("runs", "--db", recorded.db, *args)
        assert r.exit_code == 2 and r.output.count("\n") == 1 and "error:" in r.output
    r = invoke("runs", "--db", f"sqlite:///{tmp_path / 'nothing.db'}")
    assert r.exit_code == 2 and "no database" in r.output
    assert not (tmp_path / "nothing.db").exists()


@pytest.mark.slow
def test_show_text_tells_how_each_goal_closed(recorded):
    r = invoke("show", recorded.proved, "--db", recorded.db)
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "proved" in out and "stop: proved" in out
    assert "by sketch" in out  # the root
    assert "by automation: auto_tac" in out  # hole h1
    assert "by prover sample 1" in out  # holes h2 and the closing one
    assert "all 3 holes closed" in out
    assert "prover sample #1 error: 17:2: error: tactic failed" in out  # a failed attempt with Lean's first error
    assert "LLM calls " in out and "/256" in out and "Lean checks " in out and "/2000" in out
    assert "exact hard_fact" in out  # the proof is printed


@pytest.mark.slow
def test_show_failed_run_names_the_budget_and_last_error(recorded):
    r = invoke("show", recorded.failed[:10], "--db", recorded.db)  # a unique prefix is enough
    assert r.exit_code == 0, r.output
    assert "stop: llm_calls budget exhausted" in r.stdout
    assert "last Lean error: 17:2: error: tactic failed" in r.stdout
    assert "LLM calls 3/3" in r.stdout
    # model text is printed as text, not interpreted as rich markup
    assert "goal cancelled" in r.stdout


@pytest.mark.slow
def test_show_json_is_the_whole_tree(recorded):
    r = invoke("show", recorded.proved, "--db", recorded.db, "--json")
    assert r.exit_code == 0
    view = json.loads(r.stdout)
    store = Store(recorded.db)
    assert view["run"]["run_id"] == recorded.proved and view["run"]["status"] == "proved"
    assert view["proof"] == recorded.proof
    nodes = list(walk(view["tree"]))
    assert len(nodes) == len(store.nodes(recorded.proved)) == 5
    assert sum(len(n["attempts"]) for n in nodes) == len(store.attempts(recorded.proved))
    closed = sorted(n["closed_by"] for n in nodes if n["kind"] == "goal")
    assert closed == ["automation: auto_tac", "prover sample 1", "prover sample 1", "sketch"]
    [sketch] = [n for n in nodes if n["kind"] == "sketch"]
    assert [h["hole_index"] for h in sketch["children"]] == [0, 1, 2]
    prover_attempts = [a for n in nodes for a in n["attempts"] if a["strategy"] == "prover"]
    assert all(a["prompt"] and "Complete the following Lean 4 code" in a["prompt"] for a in prover_attempts)
    assert all(a["completion"] for a in prover_attempts)
    failed = [a for a in prover_attempts if a["verdict"] == "error"]
    assert failed and all(a["first_error"] == "17:2: error: tactic failed" for a in failed)
    budget = view["budget"]
    # spent: the calls charged; the store (and the timeline) also has those started ahead and unused
    llm = budget["llm_calls"]
    assert llm["limit"] == 256 and llm["spent"] == store.get_run(recorded.proved).summary["calls"]
    assert llm["spent"] + llm["ahead_unused"] >= len(store.llm_calls(recorded.proved)) >= llm["spent"]
    summary = store.get_run(recorded.proved).summary
    assert budget["lean_checks"]["ahead_unused"] == summary["checks_ahead_unused"] + summary["speculative_checks"]
    assert budget["depth"]["limit"] == 3 and budget["lean_checks"]["limit"] == 2000
    kinds = {e["kind"] for e in view["timeline"]}
    assert kinds == {"llm", "lean"}
    assert all(0 <= e["start"] <= e["end"] for e in view["timeline"])
    assert len([e for e in view["timeline"] if e["kind"] == "llm"]) == len(store.llm_calls(recorded.proved))


@pytest.mark.slow
def test_show_unknown_run_is_exit_2(recorded, tmp_path):
    r = invoke("show", "nope-not-a-run", "--db", recorded.db)
    assert r.exit_code == 2 and "unknown run 'nope-not-a-run'" in r.output and r.output.count("\n") == 1
    r = invoke("show", recorded.proved, "--db", recorded.db, "--html", str(tmp_path / "missing" / "t.html"))
    assert r.exit_code == 2 and "does not exist" in r.output


@pytest.mark.slow
def test_report_on_a_single_prove_run_points_to_show(recorded):
    r = invoke("report", recorded.proved, "--db", recorded.db)
    assert r.exit_code == 0, r.output
    assert f"`lemmaforge show {recorded.proved}` shows its proof tree" in r.stderr


def test_the_budget_line_shows_work_started_ahead_and_never_needed_for_checks_too() -> None:
    from lemmaforge.viewer.text import budget_line

    line = budget_line({"llm_calls": {"spent": 7, "limit": 100, "ahead_unused": 3},
                        "lean_checks": {"spent": 20, "limit": 500, "ahead_unused": 4},
                        "depth": {"spent": 2, "limit": 3, "ahead_unused": 0}})
    assert "LLM calls 7/100 (3 of them sent ahead, not used)" in line
    assert "Lean checks 20/500 (4 of them sent ahead, not used)" in line
    assert "depth 2/3 ·" in line  # nothing ahead: no note

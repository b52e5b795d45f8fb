"""`lemmaforge report` on a fixture store written through `SqlRecorder`: hand-computed pass@k,
counts per split / category, cost, time, depth, strategies; text and JSON output; --compare,
--export, --plot; the child runs a report must not count (cut off, failed, duplicates).

The fixture bench B (4 attempts per problem):

    problem       split  category            attempts (P proved, N not proved)   c
    toy/p1        valid  algebra             P N P N                              2
    toy/p2        valid  number_theory       N N N N                              0
    toy/p3        test   algebra, imo        P(decomposition) P P P               4

plus a cut-off run (p2, attempt 1, closed as cancelled on resume), a failed run (p2, attempt 2)
and a second finished run of (p1, attempt 0) that must not count (a duplicate).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.benchmarks import report as rp
from lemmaforge.benchmarks.report import _text as report_text
from lemmaforge.db import SqlRecorder, Store
from lemmaforge.records import (
    NodeCreated,
    NodeStatusChanged,
    ProblemRecord,
    ProofRecord,
    RunFinished,
    RunStarted,
    new_id,
)
from tests.benchmarks.bench_entry import app

runner = CliRunner()
HEADER = "import Mathlib\n\n"

P = "P"  # proved by the prover at the root
D = "D"  # proved by decomposition (a sketch whose holes automation and a prover correction closed)
N = "N"  # not proved

BENCH_B = {"toy/p1": [P, N, P, N], "toy/p2": [N, N, N, N], "toy/p3": [D, P, P, P]}
BENCH_C = {"toy/p1": [N], "toy/p2": [P], "toy/p3": [P]}  # for --compare
BENCH_D = {"toy/p1": [P, N, P, N], "toy/p2": [P, N], "toy/p3": []}  # unfinished


def statement(pid: str) -> str:
    return f"theorem {pid.split('/')[1]} : True := by\n  sorry\n"


def emit_problems(rec: SqlRecorder) -> None:
    meta = {"toy/p1": ("valid", ["algebra"]), "toy/p2": ("valid", ["number_theory"]), "toy/p3": ("test", ["algebra", "imo"])}
    for pid, (split, category) in meta.items():
        rec.emit(ProblemRecord(pid, pid.split("/")[1], HEADER, statement(pid), "toy", split, None,
                               {"category": category, "lean_version": "v4.9.0"}))


def emit_child(rec, bench, pid, attempt, kind, t, *, status=None, stale=False) -> str:
    run = new_id()
    rec.emit(RunStarted(run, "prove", {"bench": {"run_id": bench, "attempt": attempt}}, {}, pid, bench, started_at=t))
    root = new_id()
    rec.emit(NodeCreated(run, root, "goal", 0, statement(pid), created_at=t))
    if status is not None:  # a run that did not finish normally
        summary = {"reason": "cut off", "stale": True} if stale else {"error": "RuntimeError: boom"}
        rec.emit(RunFinished(run, status, summary, finished_at=t + 0.5))
        return run
    if kind == D:
        dead = new_id()  # an abandoned first sketch, one of whose holes the prover had closed
        rec.emit(NodeCreated(run, dead, "sketch", 0, "sketch 1", parent_id=root, created_at=t + 0.01))
        h0 = new_id()
        rec.emit(NodeCreated(run, h0, "goal", 1, "lemma h0", parent_id=dead, hole_index=0, created_at=t + 0.02))
        rec.emit(NodeStatusChanged(run, h0, "solved", "prover", "simp", at=t + 0.03))
        rec.emit(NodeStatusChanged(run, dead, "abandoned", reason="a hole failed", at=t + 0.04))
        sk = new_id()
        rec.emit(NodeCreated(run, sk, "sketch", 0, "sketch 2", parent_id=root, created_at=t + 0.05))
        h1, h2 = new_id(), new_id()
        rec.emit(NodeCreated(run, h1, "goal", 1, "lemma h1", parent_id=sk, hole_index=0, created_at=t + 0.06))
        rec.emit(NodeCreated(run, h2, "goal", 1, "lemma h2", parent_id=sk, hole_index=1, created_at=t + 0.07))
        rec.emit(NodeStatusChanged(run, h1, "solved", "automation", "omega", at=t + 0.08))
        rec.emit(NodeStatusChanged(run, h2, "solved", "prover_correction", "linarith", at=t + 0.09))
        rec.emit(NodeStatusChanged(run, sk, "solved", "assembly", "have ...", at=t + 0.1))
        rec.emit(NodeStatusChanged(run, root, "solved", "planner", "have ...", at=t + 0.11))
        summary = {"calls": 5, "checks": 9, "depth": 1, "seconds": 4.0, "stop_reason": "proved"}
    elif kind == P:
        rec.emit(NodeStatusChanged(run, root, "solved", "prover", "trivial", at=t + 0.1))
        summary = {"calls": 1, "checks": 2, "depth": 0, "seconds": 1.0, "stop_reason": "proved"}
    else:
        rec.emit(NodeStatusChanged(run, root, "failed", reason="no strategy closed the goal", at=t + 0.1))
        summary = {"calls": 3, "checks": 4, "depth": None, "seconds": 1.0, "stop_reason": "exhausted"}
    if kind in (P, D):
        proof = HEADER + statement(pid).replace("sorry", "trivial" if kind == P else "exact h")
        rec.emit(ProofRecord(run, new_id(), "whole", HEADER, statement(pid), statement(pid), proof, pid, root,
                             "prover" if kind == P else "planner", summary["depth"]))
    rec.emit(RunFinished(run, "proved" if kind in (P, D) else "not_proved", summary, finished_at=t + 1))
    return run


def emit_bench(rec, bench, plan, attempts, t0=1000.0) -> None:
    config = {"bench": {"dataset": "toy", "attempts": attempts, "split": None, "limit": None},
              "problems": [{"problem_id": pid, "digest": "x"} for pid in plan]}
    rec.emit(RunStarted(bench, "bench", config, {}, started_at=t0))
    t = t0 + 1
    for pid, kinds in plan.items():
        for attempt, kind in enumerate(kinds):
            if bench == "B" and pid == "toy/p2" and attempt == 1:
                emit_child(rec, bench, pid, attempt, kind, t, status="cancelled", stale=True)
                t += 1
            if bench == "B" and pid == "toy/p2" and attempt == 2:
                emit_child(rec, bench, pid, attempt, kind, t, status="failed")
                t += 1
            emit_child(rec, bench, pid, attempt, kind, t)
            t += 1
    if bench == "B":  # a later second finished run of (p1, 0), e.g. from two resumes at once
        emit_child(rec, bench, "toy/p1", 0, N, t + 100)
    rec.emit(RunFinished(bench, "not_proved", {}, finished_at=t0 + 200))


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('report') / 'fixture.db'}"
    with SqlRecorder(Store(url)) as rec:
        emit_problems(rec)
        emit_bench(rec, "B", BENCH_B, 4)
        emit_bench(rec, "C", BENCH_C, 1, t0=5000.0)
        emit_bench(rec, "D", BENCH_D, 4, t0=9000.0)
        single = emit_child(rec, None, "toy/p3", 0, P, 20000.0)
    Store(url).get_run(single)
    return url


def report(db: str, *args: str):
    return runner.invoke(app, ["report", *args, "--db", db])


def report_json(db: str, run_id: str, *args: str) -> dict:
    r = report(db, run_id, "--json", *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# --- the numbers ----------------------------------------------------------------------------------


def test_pass_at_k_and_counts_against_hand_computed_values(db):
    rep = report_json(db, "B")
    assert rep["problems"] == 3 and rep["solved"] == 2 and rep["tried"] == 3 and rep["rate"] == pytest.approx(0.6667)
    assert rep["attempts"] == 4 and rep["attempts_done"] == 12 and rep["attempts_planned"] == 12 and rep["complete"]
    # p1: n=4, c=2 -> pass@1 1/2, pass@2 1 - C(2,2)/C(4,2) = 5/6, pass@3 = pass@4 = 1; p2: 0; p3: 1
    expected = {1: (0.5 + 0 + 1) / 3, 2: (5 / 6 + 0 + 1) / 3, 3: 2 / 3, 4: 2 / 3}
    assert {int(k): v for k, v in rep["pass_at_k"].items()} == pytest.approx(expected, abs=1e-4)
    assert rep["pass_at_k_problems"] == {"1": 3, "2": 3, "3": 3, "4": 3}
    assert rep["by_split"] == {"test": {"problems": 1, "solved": 1, "rate": 1.0},
                               "valid": {"problems": 2, "solved": 1, "rate": 0.5}}
    assert rep["by_category"] == {"algebra": {"problems": 2, "solved": 2, "rate": 1.0},
                                  "imo": {"problems": 1, "solved": 1, "rate": 1.0},
                                  "number_theory": {"problems": 1, "solved": 0, "rate": 0.0}}


def test_cost_time_depth_and_strategies(db):
    rep = report_json(db, "B")
    # counted attempts: calls p1 1+3+1+3, p2 4*3, p3 5+1+1+1 = 28; checks p1 2+4+2+4, p2 4*4, p3 9+2+2+2 = 43;
    # what was sent also holds the duplicate run of (p1, 0): 3 calls, 4 checks (the cut-off and the
    # failed run recorded none)
    assert rep["cost"]["llm_calls"] == 31 and rep["cost"]["lean_checks"] == 47
    assert rep["cost"]["uncounted_llm_calls"] == 3 and rep["cost"]["uncounted_lean_checks"] == 4
    assert rep["cost"]["statement_checks"] == 0
    assert rep["cost"]["used_llm_calls"] == 28 and rep["cost"]["used_lean_checks"] == 43
    assert rep["cost"]["llm_calls_per_solved"] == 15.5 and rep["cost"]["lean_checks_per_solved"] == 23.5
    assert rep["cost"]["per_proved_attempt"] == {"llm_calls": pytest.approx(10 / 6, abs=1e-3),
                                                 "lean_checks": pytest.approx(19 / 6, abs=1e-3)}
    # seconds per problem: p1 4, p2 4, p3 4 + 1 + 1 + 1 = 7
    assert rep["time"]["per_problem"] == {"mean": 5.0, "median": 4.0, "max": 7.0}
    assert rep["time"]["search_seconds"] == 15.0 and rep["time"]["wall_seconds"] == 200.0
    assert rep["depth"] == {"0": 5, "1": 1}
    # in the proofs: 2 + 3 root prover proofs, the decomposition and its two holes
    assert rep["strategies"]["in_proofs"] == {"automation": 1, "decomposition": 1, "prover": 6}
    # every solved goal: plus the hole of the abandoned sketch
    assert rep["strategies"]["all_solved_goals"] == {"automation": 1, "decomposition": 1, "prover": 7}


def test_cut_off_failed_and_duplicate_runs_are_not_counted(db):
    rep = report_json(db, "B")
    assert rep["ignored"] == {"cut_off": 1, "duplicate": 1, "failed": 1}
    p1 = next(r for r in rep["results"] if r["problem_id"] == "toy/p1")
    assert [r["status"] for r in p1["runs"]] == ["proved", "not_proved", "proved", "not_proved"]  # the earliest (0)
    assert [r["attempt"] for r in p1["runs"]] == [0, 1, 2, 3]
    p2 = next(r for r in rep["results"] if r["problem_id"] == "toy/p2")
    assert p2["attempts"] == 4 and p2["proved_attempts"] == 0 and not p2["solved"]


def test_an_unfinished_bench_reports_honestly(db):
    rep = report_json(db, "D")
    assert not rep["complete"] and rep["tried"] == 2 and rep["solved"] == 2
    assert rep["rate"] == pytest.approx(2 / 3, abs=1e-4)  # p3 counts as not solved, not as missing
    # pass@k over the problems with >= k attempts: k=1,2 -> p1 and p2; k=3,4 -> p1 only
    assert rep["pass_at_k"] == {"1": 0.5, "2": pytest.approx(((5 / 6) + 1) / 2, abs=1e-4), "3": 1.0, "4": 1.0}
    assert rep["pass_at_k_problems"] == {"1": 2, "2": 2, "3": 1, "4": 1}
    text = report(db, "D").stdout
    assert "incomplete: continue with --resume D" in text


def test_a_single_prove_run_is_a_one_attempt_report(db):
    single = next(r for r in Store(db).runs(kind="prove") if r.parent_run_id is None)
    rep = report_json(db, single.run_id)
    assert rep["kind"] == "prove" and rep["problems"] == 1 and rep["solved"] == 1 and rep["pass_at_k"] == {"1": 1.0}


# --- output ---------------------------------------------------------------------------------------


def test_text_report(db):
    r = report(db, "B")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert out.splitlines()[0].startswith("bench B: 2/3 solved (66.7%); pass@1 0.500 pass@2 0.611 pass@4 0.667")
    for needle in ("pass@k", "by split", "by category", "number_theory", "per solved problem 15.5 calls",
                   "depth of solved trees: 0: 5, 1: 1", "decomposition 1", "ignored child runs"):
        assert needle in out, needle


def test_compare(db):
    r = report(db, "B", "--compare", "C", "--json")
    assert r.exit_code == 0, r.output
    cmp = json.loads(r.stdout)
    assert cmp["only_a"] == ["toy/p1"] and cmp["only_b"] == ["toy/p2"] and cmp["both"] == ["toy/p3"]
    assert [x["run_id"] for x in cmp["runs"]] == ["B", "C"] and cmp["common_problems"] == 3
    text = report(db, "B", "--compare", "C").stdout
    assert "solved only by B (1): toy/p1" in text and "solved only by C (1): toy/p2" in text and "pass@1" in text


def test_export(db, tmp_path):
    out = tmp_path / "proofs"
    rep = report_json(db, "B", "--export", str(out))
    assert rep["export"]["files"] == 2
    assert sorted(p.name for p in out.iterdir()) == ["p1.lean", "p3.lean", "proofs.jsonl"]
    assert (out / "p1.lean").read_text() == HEADER + "theorem p1 : True := by\n  trivial\n"
    assert (out / "p3.lean").read_text() == HEADER + "theorem p3 : True := by\n  exact h\n"  # attempt 0's proof
    lines = [json.loads(x) for x in (out / "proofs.jsonl").read_text().splitlines()]
    assert [(x["problem_id"], x["attempt"], x["file"]) for x in lines] == [("toy/p1", 0, "p1.lean"), ("toy/p3", 0, "p3.lean")]
    assert all(x["proof"] == (out / x["file"]).read_text() for x in lines)


@pytest.mark.slow
def test_plot_writes_a_png(db, tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'lemmaforge[plot]')")
    png = tmp_path / "plots" / "b.png"
    # a missing folder is a one-line error, not silently created (a typo in the path shows)
    r = report(db, "B", "--plot", str(png))
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "does not exist" in r.output
    png.parent.mkdir()
    r = report(db, "B", "--compare", "C", "--plot", str(png))
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"plot written to {png}" in r.stdout


@pytest.mark.slow
def test_plot_axes_have_integer_ticks(db, tmp_path, monkeypatch):
    """k and problem counts are integers: the PNG's k, calls and solved axes carry no 2.5."""
    plt = pytest.importorskip("matplotlib.pyplot", reason="matplotlib is not installed")
    figures = []
    monkeypatch.setattr(plt, "close", lambda fig=None: figures.append(fig))
    data = rp.load_run(Store(db), "B")
    rp.plot([rp.summarize(Store(db), data)], [data], tmp_path / "b.png")
    [fig] = figures
    ax1, ax2 = fig.axes
    for ticks in (ax1.get_xticks(), ax2.get_xticks(), ax2.get_yticks()):
        assert len(ticks) and all(float(t).is_integer() for t in ticks), ticks


def test_plot_without_matplotlib_says_how_to_install(db, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    r = report(db, "B", "--plot", str(tmp_path / "x.png"))
    assert r.exit_code == 2 and "pip install 'lemmaforge[plot]'" in r.output
    assert not Path(tmp_path / "x.png").exists()


@pytest.mark.parametrize("args", [["nope"], ["B", "--compare", "nope"]])
def test_unknown_run_is_exit_2(db, args):
    r = report(db, *args)
    assert r.exit_code == 2 and "unknown run 'nope'" in r.output and len(r.output.strip().splitlines()) == 1


def test_missing_database_is_exit_2(tmp_path):
    r = runner.invoke(app, ["report", "B", "--db", f"sqlite:///{tmp_path / 'none.db'}"])
    assert r.exit_code == 2 and "no database at" in r.output


def test_headline_ks():
    assert report_text.headline_ks(1) == [1]
    assert report_text.headline_ks(4) == [1, 2, 4]
    assert report_text.headline_ks(12) == [1, 2, 4, 8, 12]

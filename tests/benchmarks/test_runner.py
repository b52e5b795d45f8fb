"""`lemmaforge bench` over the fakes: a real `kill -9` mid-run then `--resume`, resume rules, the
answer-comment guard for PutnamBench, fatal endpoint failures, and one-line input errors.

The fake OpenAI server plays the prover (it proves the theorems it was scripted for with
`norm_num` and answers everything else with a failing tactic), the fake Kimina server plays Lean,
and the store is a SQLite file. Both fakes run in the test process (threads); the bench that gets
killed runs in a subprocess (`tests/benchmarks/bench_entry.py`).
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from collections import Counter
from io import StringIO
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.benchmarks import resume as rs
from lemmaforge.benchmarks import spec as sp
from lemmaforge.benchmarks.datasets import load_dataset
from lemmaforge.db import Store
from tests.benchmarks.bench_entry import app
from tests.benchmarks.bench_helpers import (
    ENV,
    NAMES,
    SOLVABLE,
    bench_args,
    bench_killed_when,
    fake_servers,
    hold_all_but,
    outcome,
)
from tests.conftest import REPO_ROOT
from tests.processes import python_child
from tests.waiting import until_sync

runner = CliRunner()

def invoke(args: list[str]):
    return runner.invoke(app, args, env=ENV)


def child_counts(db_path: Path, bench_id: str) -> tuple[int, int]:
    """(finished, running) child runs of the bench, read straight from the SQLite file."""
    try:
        con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=1)
        try:
            rows = dict(con.execute(
                "SELECT status, count(*) FROM runs WHERE parent_run_id = ? GROUP BY status", (bench_id,)
            ).fetchall())
        finally:
            con.close()
        return rows.get("proved", 0) + rows.get("not_proved", 0), rows.get("running", 0)
    except sqlite3.Error:  # not created yet, or locked for a moment
        return 0, 0


# --- kill -9 and resume -----------------------------------------------------------------------------


@pytest.mark.slow
def test_kill_9_mid_run_then_resume_matches_an_uninterrupted_run(tmp_path):
    attempts, limit = 2, 6
    with fake_servers(SOLVABLE) as (kimina, llm):
        # the bench in a subprocess, killed with SIGKILL once a few attempts are in and one is in
        # flight. Not a race against the clock: the model answers the first four problems only (the
        # queue runs every problem's first attempt before any second one: 4 attempts finish, the
        # 5th and 6th wait) and holds every other request until the kill, so the kill lands mid-run
        # however fast or busy the machine. Answers are scripted: holding changes when they come,
        # not what they are.
        hold = hold_all_but(llm, NAMES[:4])
        db_path = tmp_path / "killed.db"
        args = bench_args(kimina, llm, f"sqlite:///{db_path}", "--limit", str(limit), "--attempts", str(attempts),
                          "--concurrency", "2", "--run-id", "K", "--json")
        def ready() -> bool:
            finished, in_flight = child_counts(db_path, "K")
            return finished >= 4 and in_flight >= 1

        try:  # the bound only stops a hang: the condition holds in seconds on any machine
            assert bench_killed_when(args, ready, seconds=600) == -signal.SIGKILL
        finally:
            hold.clear()  # the held requests were the killed process's; the runs below get answers

        store = Store(f"sqlite:///{db_path}")
        before = store.runs(parent="K")
        finished_before = {r.run_id for r in before if r.status in ("proved", "not_proved")}
        cut_off = [r.run_id for r in before if r.status == "running"]
        assert 4 <= len(finished_before) < attempts * limit and cut_off
        assert store.get_run("K").status == "running"

        # resume in this process, with no endpoint flags: the URLs come from the stored config
        r = invoke(["bench", "--resume", "K", "--db", f"sqlite:///{db_path}", "--json", "--no-progress"])
        assert r.exit_code == 0, r.output
        resumed = json.loads(r.stdout)

        # the same bench, uninterrupted
        ref_db = f"sqlite:///{tmp_path / 'ref.db'}"
        r = invoke(bench_args(kimina, llm, ref_db, "--limit", str(limit), "--attempts", str(attempts),
                              "--concurrency", "2", "--run-id", "R", "--json"))
        assert r.exit_code == 0, r.output
        reference = json.loads(r.stdout)

    # identical results, every (problem, attempt) finished exactly once
    assert outcome(store, "K") == outcome(Store(ref_db), "R")
    assert len(outcome(store, "K")) == attempts * limit
    for key in ("problems", "solved", "tried", "attempts_done", "attempts_planned", "pass_at_k", "complete",
                "by_split", "by_category", "depth"):
        assert resumed[key] == reference[key], key
    assert resumed["solved"] == len(SOLVABLE) and resumed["attempts_done"] == attempts * limit
    assert resumed["resumed"] is True and resumed["cut_off_closed"] == len(cut_off)
    # finished results survived untouched; cut-off runs were closed as cancelled, not counted
    after = {r.run_id: r for r in store.runs(parent="K")}
    assert finished_before <= set(after)
    assert all(after[i].status in ("proved", "not_proved") for i in finished_before)
    assert all(after[i].status == "cancelled" and after[i].summary["stale"] for i in cut_off)
    assert resumed["ignored"] == {"cut_off": len(cut_off)}
    statuses = Counter(r.status for r in after.values())
    assert statuses["proved"] + statuses["not_proved"] == attempts * limit
    assert store.get_run("K").status == "not_proved" and store.get_run("K").summary["complete"] is True

    # resuming a finished bench does nothing and reports the same
    r = invoke(["bench", "--resume", "K", "--db", f"sqlite:///{db_path}", "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    again = json.loads(r.stdout)
    assert again["pass_at_k"] == resumed["pass_at_k"] and len(store.runs(parent="K")) == len(after)


# --- resume rules and input errors ------------------------------------------------------------------


@pytest.fixture()
def finished_bench(tmp_path):
    db = f"sqlite:///{tmp_path / 'b.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        r = invoke(bench_args(kimina, llm, db, "--limit", "3", "--attempts", "2", "--run-id", "B", "--json"))
        assert r.exit_code == 0, r.output
        yield db, kimina, llm, json.loads(r.stdout)


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--attempts", "3"], "--attempts 3"),
        (["--limit", "5"], "--limit 5"),
        (["--budget", "llm_calls=9"], "--budget llm_calls=9"),
        (["--prover-model", "other"], "--prover-model other"),
        (["--cot"], "--cot"),
        (["--shared-cache"], "--shared-cache"),
    ],
)
@pytest.mark.slow
def test_resume_refuses_flags_that_change_the_experiment(finished_bench, flags, named):
    db, *_ = finished_bench
    r = invoke(["bench", "--resume", "B", "--db", db, *flags])
    assert r.exit_code == 2, r.output
    assert named in r.output and "cannot change on resume" in r.output
    assert len(r.output.strip().splitlines()) == 1


@pytest.mark.slow
def test_resume_accepts_unchanged_experiment_and_new_endpoints(finished_bench):
    db, kimina, llm, first = finished_bench
    r = invoke(["bench", "minif2f", "--resume", "B", "--db", db, "--limit", "3", "--attempts", "2",
                "--split", "valid", "--prover-url", llm.url, "--kimina-url", kimina.url, "--concurrency", "7",
                "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["pass_at_k"] == first["pass_at_k"]


@pytest.mark.slow
def test_bench_json_and_text_summary(finished_bench, tmp_path):
    db, kimina, llm, out = finished_bench
    assert out["bench_run_id"] == "B" and out["status"] == "not_proved"
    assert out["problems"] == 3 and out["solved"] == 2 and out["attempts_done"] == 6  # NAMES[0] and NAMES[2]
    assert out["pass_at_k"] == {"1": pytest.approx(2 / 3, abs=1e-4), "2": pytest.approx(2 / 3, abs=1e-4)}
    assert [p["name"] for p in out["results"]] == NAMES[:3]
    assert all(len(p["runs"]) == 2 for p in out["results"])
    r = invoke(bench_args(kimina, llm, f"sqlite:///{tmp_path / 't.db'}", "--limit", "2"))
    assert r.exit_code == 0, r.output
    line = r.stdout.strip()
    assert len(line.splitlines()) == 1 and "1/2 solved (50.0%)" in line and "pass@1 0.500" in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bench", "nosuchset", "--prover-url", "http://127.0.0.1:9/v1"], "unknown dataset 'nosuchset'"),
        (["bench", "minif2f", "--shard", "3/2", "--prover-url", "http://127.0.0.1:9/v1"], "bad shard"),
        (["bench", "minif2f", "--shard", "x", "--prover-url", "http://127.0.0.1:9/v1"], "bad shard"),
        (["bench", "minif2f", "--limit", "2"], "no model endpoint"),
        (["bench", "--resume", "nope"], "unknown run 'nope'"),
        (["bench"], "give a DATASET"),
        (["bench", "minif2f", "--executor", "dask"], "unknown executor"),
        (["bench", "minif2f", "--run-id", "x", "--resume", "y"], "not both"),
        (["bench", "minif2f", "--names", "no_such_problem", "--prover-url", "http://127.0.0.1:9/v1"], "unknown problem"),
        (["bench", "minif2f", "--split", "train", "--prover-url", "http://127.0.0.1:9/v1"], "no split 'train'"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, args, message):
    db = f"sqlite:///{tmp_path / 'e.db'}"
    if args[1:2] == ["--resume"]:
        Store(db)  # an existing, empty store
    r = invoke([*args, "--db", db])
    assert r.exit_code == 2, r.output
    assert message in r.output and len(r.output.strip().splitlines()) == 1, r.output
    if args[1:2] != ["--resume"]:
        assert not (tmp_path / "e.db").exists()  # bad input writes nothing


def test_resume_with_a_missing_database_file_says_so(tmp_path):
    r = invoke(["bench", "--resume", "B", "--db", f"sqlite:///{tmp_path / 'none.db'}"])
    assert r.exit_code == 2 and "no database at" in r.output
    assert not (tmp_path / "none.db").exists()


@pytest.mark.slow
def test_existing_run_id_is_refused(finished_bench):
    db, kimina, llm, _ = finished_bench
    r = invoke(bench_args(kimina, llm, db, "--limit", "1", "--run-id", "B"))
    assert r.exit_code == 2 and "already exists" in r.output and "--resume B" in r.output


def test_ray_executor_without_ray_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    r = invoke(["bench", "minif2f", "--executor", "ray", "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert r.exit_code == 2 and "pip install 'lemmaforge[ray]'" in r.output


# --- failures during a run --------------------------------------------------------------------------


@pytest.mark.slow
def test_a_dead_endpoint_stops_the_bench_and_resume_finishes_it(tmp_path):
    db = f"sqlite:///{tmp_path / 'f.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        llm.fail_always(500)
        r = invoke(bench_args(kimina, llm, db, "--limit", "3", "--run-id", "F", "--concurrency", "2"))
        assert r.exit_code == 2, r.output
        assert "--resume F" in r.output and llm.url in r.output
        store = Store(db)
        assert store.get_run("F").status == "failed"
        children = store.runs(parent="F")
        assert children and all(c.status in ("failed", "cancelled") for c in children)

        llm.fail_always(None)
        r = invoke(["bench", "--resume", "F", "--db", db, "--json", "--no-progress"])
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
    assert out["attempts_done"] == 3 and out["solved"] == 2 and out["complete"]
    assert out["ignored"].get("failed", 0) + out["ignored"].get("cancelled", 0) == len(children)


@pytest.mark.slow
def test_a_bug_in_one_search_stops_the_bench_exit_70_and_resume_finishes_it(tmp_path, monkeypatch):
    """A bug is never a failed sample: the bench stops (exit 70, the traceback, one line), the
    attempt it hit is not finished, and `--resume` redoes it once the bug is gone."""
    from lemmaforge.search import engine

    original = engine.SearchEngine.prove
    broken = {"minif2f-deepseek-v1.5/" + NAMES[1]}  # "minif2f" names the DeepSeek-V1.5 version

    async def flaky(self, problem, **kw):
        if problem.problem_id in broken:
            raise RuntimeError("boom")
        return await original(self, problem, **kw)

    db = f"sqlite:///{tmp_path / 'u.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        monkeypatch.setattr(engine.SearchEngine, "prove", flaky)
        r = invoke(bench_args(kimina, llm, db, "--limit", "3", "--run-id", "U", "--json", "--concurrency", "1"))
        assert r.exit_code == 70, r.output
        assert r.stdout == ""  # --json: nothing but JSON on stdout, and no JSON for a stopped bench
        assert "Traceback" in r.stderr and "RuntimeError: boom" in r.stderr.strip().splitlines()[-1]
        assert "--resume U" in r.stderr.strip().splitlines()[-1]
        store = Store(db)
        assert store.get_run("U").status == "failed" and "bug" in store.get_run("U").summary["error"]
        failed = [c for c in store.runs(parent="U") if c.status == "failed"]
        assert len(failed) == 1 and "boom" in failed[0].summary["error"] and failed[0].summary["bug"]

        broken.clear()
        r = invoke(["bench", "--resume", "U", "--db", db, "--json", "--no-progress"])
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        assert out["attempts_done"] == 3 and out["complete"] and out["solved"] == 2


@pytest.mark.slow
def test_several_problems_at_once_share_the_services(tmp_path, monkeypatch):
    from lemmaforge import services as app_module

    opened = []
    real = app_module.open_services

    def counting(*a, **kw):
        opened.append(1)
        return real(*a, **kw)

    monkeypatch.setattr(app_module, "open_services", counting)
    with fake_servers(SOLVABLE) as (kimina, llm):
        # the model answers only once three requests wait at once (attempts side by side), however
        # slow the machine; were they one after another, the gate's own timeout lets them through
        llm.gate = threading.Event()

        def release_when_three_wait() -> None:
            try:
                until_sync(lambda: llm.max_in_flight >= 3, what="three requests at once")
            finally:
                llm.gate.set()  # type: ignore[union-attr]

        threading.Thread(target=release_when_three_wait, daemon=True).start()
        r = invoke(bench_args(kimina, llm, f"sqlite:///{tmp_path / 'c.db'}", "--limit", "4", "--concurrency", "4"))
        assert r.exit_code == 0, r.output
        assert llm.max_in_flight >= 3 and not llm.unreleased
    assert len(opened) == 1


def test_progress_bar_on_a_terminal(tmp_path, monkeypatch):
    from rich.console import Console

    from lemmaforge.cli import common

    buf = StringIO()
    monkeypatch.setattr(common, "err", Console(file=buf, force_terminal=True, width=150))
    with fake_servers(SOLVABLE) as (kimina, llm):
        args = [a for a in bench_args(kimina, llm, f"sqlite:///{tmp_path / 'p.db'}", "--limit", "2")
                if a != "--no-progress"]
        r = invoke(args)
        assert r.exit_code == 0, r.output
    shown = buf.getvalue()
    assert "bench" in shown and "2/2" in shown and "solved 1/2" in shown and "ETA" in shown


def test_version_warning_when_the_verifier_runs_another_lean(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.19.0\n")
    # the Kimina server says which Lean it runs (`#eval Lean.versionString`); that is the verifier's
    with fake_servers(SOLVABLE, lean_version="4.19.0") as (kimina, llm):
        r = invoke(bench_args(kimina, llm, f"sqlite:///{tmp_path / 'v.db'}", "--limit", "1",
                              "--project", str(project)))
        assert r.exit_code == 0, r.output
    assert ("warning: dataset minif2f-deepseek-v1.5 is pinned to Lean v4.9.0 but the verifier runs Lean v4.19.0"
            in r.output)


# --- PutnamBench answers must not leak into prompts -------------------------------------------------


@pytest.mark.slow
def test_hidden_answer_comments_on_the_real_putnambench():
    problems = load_dataset("putnambench", tactic=True)
    with_slots = [p for p in problems if p.answer_slots]
    assert len(with_slots) == 346
    for p in with_slots:
        hidden = sp.hide_answer_comments(p)
        assert len(hidden.slots) == len(p.slots)  # every answer slot and the proof slot stay
        assert hidden.extra["answer_comment_lines_hidden"] >= 1
        for hole in hidden.answer_slots:
            line_end = hidden.code.find("\n", hole.end)
            next_line = hidden.code[line_end + 1 :].split("\n", 1)[0]
            assert not next_line.lstrip().startswith("--") and "--" not in hidden.code[hole.end:line_end]
        theorem_at = p.statement.index("theorem ")
        assert hidden.statement.endswith(p.statement[theorem_at:])  # the theorem itself is untouched
    without = next(p for p in problems if not p.answer_slots)
    assert sp.hide_answer_comments(without) is without


@pytest.mark.slow
def test_no_prompt_carries_a_putnam_answer(tmp_path):
    p = next(p for p in load_dataset("putnambench") if p.name == "putnam_1962_a2")
    answer = p.statement.split("\n")[1]
    assert answer.startswith("-- {f |")
    with fake_servers() as (kimina, llm):
        args = bench_args(kimina, llm, f"sqlite:///{tmp_path / 'p.db'}")
        args[1:4] = ["putnambench", "--names", "putnam_1962_a2"]
        r = invoke(args)
        assert r.exit_code == 0, r.output
        prompts = [q.all_text for q in llm.requests if q.endpoint == "chat"]
    assert prompts and all(answer[3:] not in text for text in prompts)
    assert all("putnam_1962_a2_solution" in text for text in prompts)


# --- Ctrl-C, custom datasets, shared problem rows ---------------------------------------------------


@pytest.mark.slow
def test_ctrl_c_closes_in_flight_attempts_as_cancelled_and_resume_finishes(tmp_path):
    with fake_servers(SOLVABLE) as (kimina, llm):
        db_path = tmp_path / "int.db"
        args = bench_args(kimina, llm, f"sqlite:///{db_path}", "--limit", "6", "--concurrency", "2", "--run-id", "I")
        # Not a race against the clock (a busy machine must not fail it): the model answers the
        # first problem only and holds every other request, so the attempts still running cannot
        # finish; Ctrl-C comes once one of them waits on the model. The deadline only bounds a hang.
        hold = hold_all_but(llm, NAMES[:1])
        answered = re.compile(rf"theorem {re.escape(NAMES[0])}\b")
        proc = python_child(  # SIGINT at its default, as for a terminal's foreground job (tests/processes.py)
            ["-m", "tests.benchmarks.bench_entry", *args], sigint="default", cwd=REPO_ROOT,
            env={**os.environ, **ENV}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )

        def waiting_on_the_model() -> bool:
            finished, in_flight = child_counts(db_path, "I")
            held = [q for q in llm.requests if q.endpoint in ("chat", "completions") and not answered.search(q.all_text)]
            return finished >= 1 and in_flight >= 1 and bool(held)

        try:
            until_sync(waiting_on_the_model, what="an attempt waiting on the model", limit=600, proc=proc)
            proc.send_signal(signal.SIGINT)
            _, stderr = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:
                proc.kill()
            hold.clear()  # the resume below runs to the end
        assert proc.returncode == 130, stderr
        assert "interrupted" in stderr and "--resume I" in stderr
        store = Store(f"sqlite:///{db_path}")
        assert store.get_run("I").status == "cancelled"
        children = store.runs(parent="I")
        assert not [c for c in children if c.status == "running"]  # closed on the way out, not cut off
        cancelled = [c for c in children if c.status == "cancelled"]
        assert cancelled and not any((c.summary or {}).get("stale") for c in cancelled)

        r = invoke(["bench", "--resume", "I", "--db", f"sqlite:///{db_path}", "--json", "--no-progress"])
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        llm_sent = llm.count("chat") + llm.count("completions")
        snippets = [s["id"] for q in kimina.check_requests for s in q.body["snippets"]]
    assert out["complete"] and out["attempts_done"] == 6 and out["solved"] == 3
    assert out["cut_off_closed"] == 0 and out["ignored"] == {"cancelled": len(cancelled)}
    # what the interrupted session sent is in the cost too: its cancelled attempts said what they had
    # sent, its statement checks are reported; only each session's Lean-version probe is left out
    versions = snippets.count("lf-lean-version")
    assert versions == 2
    assert out["cost"]["llm_calls"] == llm_sent, (out["cost"], llm_sent)
    assert out["cost"]["lean_checks"] == len(snippets) - versions - snippets.count("lf-position-probe"), out["cost"]
    assert out["cost"]["uncounted_llm_calls"] >= 1  # the request the interrupted attempt was waiting on


@pytest.mark.slow
def test_a_jsonl_dataset_resumes_from_another_directory(tmp_path, monkeypatch):
    rows = [p for p in load_dataset("minif2f", split="valid", limit=3)]
    data = tmp_path / "mine.jsonl"
    data.write_text("".join(
        json.dumps({"name": p.name, "header": p.header, "formal_statement": p.statement, "area": "mine"}) + "\n"
        for p in rows
    ))
    db = f"sqlite:///{tmp_path / 'j.db'}"
    monkeypatch.chdir(tmp_path)
    with fake_servers(SOLVABLE) as (kimina, llm):
        args = bench_args(kimina, llm, db, "--run-id", "J", "--json")
        args[1:4] = ["mine.jsonl"]
        r = invoke(args)
        assert r.exit_code == 0, r.output
        first = json.loads(r.stdout)
        assert first["config"]["dataset"] == str(data) and first["by_category"] == {
            "mine": {"problems": 3, "solved": 2, "rate": 0.6667}}
        monkeypatch.chdir(REPO_ROOT)
        r = invoke(["bench", "--resume", "J", "--db", db, "--json", "--no-progress"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["solved"] == 2


@pytest.mark.slow
def test_resume_survives_another_bench_replacing_the_shared_problem_rows(tmp_path):
    """Problem rows are keyed by dataset/name and shared between runs: a bench with the answers
    inlined rewrites putnam_1962_a2's row; the first bench still resumes with its own variant."""
    db = f"sqlite:///{tmp_path / 's.db'}"
    with fake_servers() as (kimina, llm):
        base = bench_args(kimina, llm, db)
        base[1:4] = ["putnambench", "--names", "putnam_1962_a2"]
        r = invoke([*base, "--run-id", "A", "--attempts", "2", "--concurrency", "1"])
        assert r.exit_code == 0, r.output
        hidden = Store(db).problem("putnambench/putnam_1962_a2").statement
        r = invoke([*base, "--run-id", "B2", "--answers", "inlined"])
        assert r.exit_code == 0, r.output
        assert Store(db).problem("putnambench/putnam_1962_a2").statement != hidden
        assert rs.stored_problems(Store(db), Store(db).get_run("A"))[0].statement == hidden
        r = invoke(["bench", "--resume", "A", "--db", db, "--json", "--no-progress"])
        assert r.exit_code == 0, r.output


@pytest.mark.slow
def test_resume_keeps_the_stored_experiment_against_config_and_environment(finished_bench, tmp_path):
    db, kimina, llm, first = finished_bench
    config = tmp_path / "lemmaforge.toml"
    config.write_text('[planner]\nurl = "http://127.0.0.1:9/v1"\n[budget]\nllm_calls = 1\n')
    store = Store(db)
    bench = rs.load_bench(store, "B")
    from lemmaforge.config import load_config

    settings = rs.resume_settings(bench, lambda o: load_config(config, o, environ={}), {"db_url": db})
    assert settings.planner.url is None  # the run had no planner: the config file does not add one
    assert settings.budget.llm_calls == bench.config["settings"]["budget"]["llm_calls"]
    assert settings.prover.url == llm.url
    r = invoke(["bench", "--resume", "B", "--db", db, "--planner-url", llm.url])
    assert r.exit_code == 2 and "--planner-url (the run has no planner)" in r.output

"""`lemmaforge prove`'s output contract: the proof on stdout byte for byte (what `-o` writes), all
decoration on stderr; a stop that names the budget, the last Lean error and the run id; Ctrl-C
prints the run id and exits 130; `--theorem` and `example` targets; another theorem's `sorry`
makes `prove` and `check` both say incomplete."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db import Store
from tests.conftest import REPO_ROOT, error_lines
from tests.fakes.fake_kimina import FakeKimina
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.fakes.prove_runs import ENV, auto_tac, fake_lean, prove_args
from tests.processes import python_child
from tests.search.scenarios import DEFS, HEADER, THEOREM, add_prover, lean_block, prover_rule
from tests.waiting import until_sync

runner = CliRunner()
# a proof line far wider than any terminal: a console that wraps would break it
LONG_TACTIC = "exact rfl  -- " + " ".join(["a long comment that no terminal is wide enough for"] * 3)


def servers(delay: float = 0.0):
    return FakeKimina(responder=fake_lean()), FakeOpenAIServer(default=lean_block("bad_default"), delay=delay)


def write(tmp_path: Path, text: str, name: str = "t.lean") -> Path:
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f


@pytest.mark.slow
def test_stdout_is_byte_identical_to_the_output_file(tmp_path, monkeypatch):
    auto_tac(monkeypatch)
    problem = write(tmp_path, HEADER + DEFS + THEOREM)
    db = f"sqlite:///{tmp_path / 'r.db'}"
    kimina, llm = servers()
    with kimina, llm:
        add_prover(llm, *prover_rule("D x", LONG_TACTIC))
        out_file = tmp_path / "o.lean"
        r = runner.invoke(app, [*prove_args(problem, kimina, llm, db), "-o", str(out_file)], env={**ENV, "COLUMNS": "40"})
        assert r.exit_code == 0, r.output
        written = out_file.read_bytes()
        assert LONG_TACTIC.encode() in written
        assert r.stdout_bytes == written  # nothing else on stdout, nothing wrapped
        assert "proved" in r.stderr and "run " in r.stderr

        # a real shell redirection to a file (not a TTY), with a narrow terminal width set
        redirected = tmp_path / "redirected.lean"
        env = {**os.environ, **ENV, "COLUMNS": "40", "PYTHONPATH": str(REPO_ROOT)}
        with redirected.open("wb") as fh:
            proc = subprocess.run([sys.executable, "-m", "lemmaforge.cli", *prove_args(problem, kimina, llm, db)],
                                  stdout=fh, stderr=subprocess.PIPE, env=env, cwd=tmp_path, timeout=120)
        assert proc.returncode == 0, proc.stderr.decode()
    assert redirected.read_bytes() == written
    assert b"proved" in proc.stderr


def test_not_proved_names_the_budget_the_last_lean_error_and_the_run(tmp_path, monkeypatch):
    auto_tac(monkeypatch)
    problem = write(tmp_path, HEADER + DEFS + THEOREM)
    db = f"sqlite:///{tmp_path / 'r.db'}"
    kimina, llm = servers()
    with kimina, llm:
        r = runner.invoke(app, [*prove_args(problem, kimina, llm, db, "--budget", "llm_calls=2")], env=ENV)
    assert r.exit_code == 1, r.output
    assert r.stdout == ""  # no proof, and no decoration on stdout
    [run] = Store(db).runs(kind="prove")
    assert "llm_calls budget exhausted" in r.stderr
    assert "LLM calls 2/2" in r.stderr
    assert "last Lean error: 17:2: error: tactic failed" in r.stderr
    assert run.run_id in r.stderr and f"lemmaforge show {run.run_id}" in r.stderr


def test_json_keeps_stdout_pure_and_carries_status(tmp_path, monkeypatch):
    auto_tac(monkeypatch)
    problem = write(tmp_path, HEADER + DEFS + THEOREM)
    kimina, llm = servers()
    with kimina, llm:
        r = runner.invoke(app, [*prove_args(problem, kimina, llm, f"sqlite:///{tmp_path / 'r.db'}", "--budget",
                                            "llm_calls=2"), "--json"], env=ENV)
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["status"] == "not_proved" and out["stop_reason"] == "llm_calls budget exhausted"
    assert out["last_lean_error"] == "17:2: error: tactic failed" and out["theorem"] == "t"


@pytest.mark.slow
def test_ctrl_c_prints_the_run_id_and_exits_130(tmp_path):
    problem = write(tmp_path, HEADER + DEFS + THEOREM)
    db_path = tmp_path / "c.db"
    # The model never answers (its server threads are daemons: they do not hold the test up), so
    # the run is surely still waiting on it when Ctrl-C comes, however slow a busy machine is.
    # The deadlines only bound a failure: generous, so that a loaded machine does not fail it.
    kimina, llm = servers(delay=3600.0)
    with kimina, llm:
        env = {**os.environ, **ENV, "PYTHONPATH": str(REPO_ROOT)}
        # Ctrl-C reaches a foreground job: SIGINT at its default, even when pytest runs in a script's
        # background and would hand an ignored SIGINT on (tests/processes.py)
        proc = python_child(
            ["-m", "lemmaforge.cli", *prove_args(problem, kimina, llm, f"sqlite:///{db_path}")], sigint="default",
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path, text=True,
        )
        try:
            until_sync(lambda: llm.count("chat") + llm.count("completions"), what="prove calling the model",
                       limit=600, proc=proc)  # the search waits on the model
            proc.send_signal(signal.SIGINT)
            stdout, stderr = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 130, stderr
    [run] = Store(f"sqlite:///{db_path}").runs(kind="prove")
    assert f"interrupted: run {run.run_id}" in stderr and "Traceback" not in stderr
    assert run.status == "cancelled" and stdout == ""


@pytest.mark.slow
def test_theorem_option_chooses_the_target(tmp_path, monkeypatch):
    auto_tac(monkeypatch)
    later = "\ntheorem later (x : ℕ) : D x := by\n  sorry\n"
    problem = write(tmp_path, HEADER + DEFS + THEOREM + later)
    db = f"sqlite:///{tmp_path / 'r.db'}"
    kimina, llm = servers()
    with kimina, llm:
        add_prover(llm, *prover_rule("D x", "exact rfl"))
        r = runner.invoke(app, [*prove_args(problem, kimina, llm, db, "--theorem", "t"), "--json"], env=ENV)
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        assert out["theorem"] == "t" and out["status"] == "proved"
        assert "theorem t (x : ℕ)" in out["proof"] and "later" not in out["proof"]
        prompts = [q.text for q in llm.requests if q.endpoint == "chat"]
        assert prompts and not any("theorem later" in p for p in prompts)

        r = runner.invoke(app, prove_args(problem, kimina, llm, db, "--theorem", "nope"), env=ENV)
        assert r.exit_code == 2 and "no theorem named 'nope'" in r.output and "t, later" in r.output

        # without --theorem: the last one, and the choice is said on stderr
        r = runner.invoke(app, prove_args(problem, kimina, llm, db), env=ENV)
        assert "target: theorem later (2 in the file: t, later; choose with --theorem)" in r.stderr


def test_example_target_is_accepted(tmp_path, monkeypatch):
    auto_tac(monkeypatch)
    problem = write(tmp_path, HEADER + DEFS + "example (x : ℕ) (h : A x) : D x := by\n  sorry\n")
    kimina, llm = servers()
    with kimina, llm:
        add_prover(llm, *prover_rule("D x", "exact rfl"))
        r = runner.invoke(app, [*prove_args(problem, kimina, llm, f"sqlite:///{tmp_path / 'r.db'}"), "--json"], env=ENV)
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        assert out["status"] == "proved" and out["theorem"] == "example" and "exact rfl" in out["proof"]
        proof_file = write(tmp_path, out["proof"], "p.lean")
        c = runner.invoke(app, ["check", str(proof_file), "--against", str(problem), "--verifier", "kimina",
                                "--kimina-url", kimina.url, "--json"])
        assert c.exit_code == 0, c.output
        assert json.loads(c.stdout)["status"] == "proved"


def test_another_theorems_sorry_is_incomplete_in_prove_and_check(tmp_path, monkeypatch):
    auto_tac(monkeypatch)
    helper = "theorem helper (x : ℕ) : A x := by\n  sorry\n\n"
    problem = write(tmp_path, HEADER + DEFS + helper + THEOREM)
    kimina, llm = servers()
    with kimina, llm:
        add_prover(llm, *prover_rule("D x", "exact rfl"))
        out_file = tmp_path / "out.lean"
        r = runner.invoke(app, [*prove_args(problem, kimina, llm, f"sqlite:///{tmp_path / 'r.db'}"), "-o",
                                str(out_file)], env=ENV)
        assert r.exit_code == 1, r.output
        assert "incomplete: t is proved but helper (line 16)" in r.stderr and "\nproved" not in r.stderr
        assert r.stdout_bytes == out_file.read_bytes()  # the proof of t is still given
        for against in ([], ["--against", str(problem)]):
            c = runner.invoke(app, ["check", str(out_file), *against, "--verifier", "kimina", "--kimina-url",
                                    kimina.url, "--json"])
            assert c.exit_code == 1, c.output
            assert json.loads(c.stdout)["status"] == "incomplete"


def test_output_into_a_missing_folder_is_one_line(tmp_path):
    problem = write(tmp_path, HEADER + DEFS + THEOREM)
    r = runner.invoke(app, ["prove", str(problem), "-o", str(tmp_path / "no" / "such" / "p.lean"),
                            "--prover-url", "http://127.0.0.1:9/v1"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "does not exist" in r.output


def test_search_that_runs_out_of_strategies_says_no_budget_ran_out(tmp_path, monkeypatch):
    auto_tac(monkeypatch)
    problem = write(tmp_path, HEADER + DEFS + THEOREM)
    kimina, llm = servers()
    with kimina, llm:
        r = runner.invoke(app, prove_args(problem, kimina, llm, f"sqlite:///{tmp_path / 'r.db'}", "--budget",
                                          "max_depth=0"), env=ENV)
    assert r.exit_code == 1, r.output
    assert "search exhausted (no budget ran out): every strategy failed on the root goal" in r.stderr
    assert "max_depth=0 was reached" in r.stderr and "last Lean error: 17:2: error: tactic failed" in r.stderr


def test_a_backend_that_dies_is_one_line_with_the_run_id(tmp_path, monkeypatch):
    auto_tac(monkeypatch)
    problem = write(tmp_path, HEADER + DEFS + THEOREM)
    db = f"sqlite:///{tmp_path / 'r.db'}"
    kimina, llm = servers()
    with kimina, llm:
        llm.fail_always(500)
        r = runner.invoke(app, prove_args(problem, kimina, llm, db), env=ENV)
    assert r.exit_code == 2, r.output
    [run] = Store(db).runs(kind="prove")
    # the lines said at start (which prover preset, no planner) come before the one error line
    lines = error_lines(r.stderr)
    assert len(lines) == 1 and lines[0].startswith("error:") and f"(run {run.run_id} recorded as failed" in lines[0]
    assert run.status == "failed" and r.stdout == ""

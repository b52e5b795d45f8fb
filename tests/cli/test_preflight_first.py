"""Before the first check and before any store (issue 49): an unreachable Kimina server is found by a
short health request (a few of them, seconds apart at most: never a check's minute of retries), with
advice that fits the command (`prove` has no resume; a resumed `bench` says how), and a command that
fails its preflight creates no store — the home directory's default included."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.benchmarks.bench_helpers import ENV, bench_args, fake_lean, fake_servers, lean_block
from tests.conftest import REPO_ROOT
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()
PROBLEM = "import Mathlib\n\ntheorem t (x : ℕ) (h : x = 1) : x = 1 := by\n  sorry\n"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _problem(tmp_path):
    path = tmp_path / "t.lean"
    path.write_text(PROBLEM, encoding="utf-8")
    return path


def test_prove_finds_a_kimina_server_that_is_down_with_health_requests_and_no_check(tmp_path):
    db = tmp_path / "runs.db"
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("x")) as llm:
        kimina.fail_always(503)
        result = runner.invoke(app, ["prove", str(_problem(tmp_path)), "--verifier", "kimina", "--kimina-url",
                                     kimina.url, "--prover-url", llm.url, "--db", f"sqlite:///{db}"], env=ENV)
        assert result.exit_code == 2
        [line] = result.stderr.strip().splitlines()
        assert "Kimina server at" in line and "3 health requests" in line and "--kimina-url" in line
        assert "resume" not in line  # prove has no resume
        assert [(r.method, r.path) for r in kimina.requests] == [("GET", "/health")] * 3  # no check was sent
        assert llm.requests == []  # Lean first: the models were not even probed
    assert not db.exists()


def test_a_wrong_kimina_url_is_one_line_without_a_check(tmp_path):
    url = f"http://127.0.0.1:{_closed_port()}"
    with FakeOpenAIServer(default=lean_block("x")) as llm:
        result = runner.invoke(app, ["prove", str(_problem(tmp_path)), "--verifier", "kimina", "--kimina-url", url,
                                     "--prover-url", llm.url, "--db", f"sqlite:///{tmp_path / 'r.db'}"], env=ENV)
    assert result.exit_code == 2 and f"Kimina server at {url} is unreachable" in result.stderr
    assert "start the Kimina Lean Server, or give its URL with --kimina-url" in result.stderr


def test_a_new_bench_stopped_by_its_preflight_writes_nothing_and_a_resumed_one_says_how_to_resume(tmp_path):
    db = tmp_path / "runs.db"
    with fake_servers() as (kimina, llm):
        kimina.fail_always(503)
        result = runner.invoke(app, bench_args(kimina, llm, f"sqlite:///{db}", "--limit", "1"), env=ENV)
        assert result.exit_code == 2 and "3 health requests" in result.stderr and "--resume" not in result.stderr
        assert not db.exists() and not [r for r in kimina.requests if r.method == "POST"]
        kimina.fail_always(None)
        llm.fail_always(503)  # the model goes down after the preflight: the bench stops, resumable
        ran = runner.invoke(app, bench_args(kimina, llm, f"sqlite:///{db}", "--limit", "1", "--run-id", "B1"), env=ENV)
        assert ran.exit_code == 2 and "continue it with --resume B1" in ran.stderr, ran.output
        llm.fail_always(None)
        kimina.fail_always(503)
        resumed = runner.invoke(app, ["bench", "--resume", "B1", "--db", f"sqlite:///{db}", "--no-progress",
                                      "--kimina-url", kimina.url], env=ENV)
        assert resumed.exit_code == 2 and "health requests" in resumed.stderr
        assert "continue it with --resume B1" in resumed.stderr


def test_prove_stopped_by_its_preflight_creates_no_store(tmp_path):
    db = tmp_path / "runs.db"
    broken = ScriptedLean(rules=[MessageRule(r"x = 1 :=", "type mismatch")])
    with FakeKimina(responder=broken) as kimina, FakeOpenAIServer(default=lean_block("x")) as llm:
        common = ["--verifier", "kimina", "--kimina-url", kimina.url, "--db", f"sqlite:///{db}"]
        dead = runner.invoke(app, ["prove", str(_problem(tmp_path)), *common, "--prover-url",
                                   f"http://127.0.0.1:{_closed_port()}/v1"], env=ENV)
        assert dead.exit_code == 2 and "unreachable" in dead.stderr
        invalid = runner.invoke(app, ["prove", str(_problem(tmp_path)), *common, "--prover-url", llm.url], env=ENV)
        assert invalid.exit_code == 2 and "statement does not compile" in invalid.stderr
    assert not db.exists()
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("x")) as llm:
        ran = runner.invoke(app, ["prove", str(_problem(tmp_path)), "--verifier", "kimina", "--kimina-url",
                                  kimina.url, "--db", f"sqlite:///{db}", "--prover-url", llm.url], env=ENV)
    assert ran.exit_code in (0, 1) and db.exists()  # past the preflight: the run is stored


def test_prove_without_lean_leaves_the_home_directory_alone(tmp_path):
    """The issue's case, as a user meets it: no --db, no Lean, the default store under ~."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEMMAFORGE_")}
    env.update(HOME=str(home), PYTHONPATH=str(REPO_ROOT), LEMMAFORGE_VERIFIER__LAKE_PATH=str(tmp_path / "no-lake"))
    proc = subprocess.run([sys.executable, "-m", "lemmaforge.cli", "prove", str(_problem(tmp_path)),
                           "--prover-url", "http://127.0.0.1:9/v1"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert not (home / ".lemmaforge").exists()

"""SIGTERM and SIGHUP behave as Ctrl-C does (issue 39, point 5): `timeout`, Slurm and Kubernetes
stop jobs with SIGTERM. Before, the process died at once (exit 143, no message), the run stayed
`running` forever and the LLM calls the server had answered had no rows.

Each command runs in a subprocess of the real console entry (`python -m lemmaforge.cli`), the
stand-in servers in this process; the signal is sent once the run row is in the store."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Literal

import pytest
from typer.testing import CliRunner

from lemmaforge.db import Store
from tests.benchmarks.bench_entry import app as bench_app
from tests.benchmarks.bench_helpers import ENV, NAMES, SOLVABLE, bench_args, fake_servers, outcome
from tests.conftest import REPO_ROOT
from tests.errors.test_prove_faults import ENV as PROVE_ENV
from tests.errors.test_prove_faults import HEADER, THEOREM
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer, Reply, Rule
from tests.processes import python_child
from tests.waiting import until_sync

SIGNALS = [(signal.SIGTERM, 143), (signal.SIGHUP, 129)]
FAILING = "```lean4\ntheorem t (x : ℕ) : x = x := by\n  bad_tactic\n```"


def rows(db_path: Path, sql: str, *args: object) -> list[tuple]:
    try:
        con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=1)
        try:
            return con.execute(sql, args).fetchall()
        finally:
            con.close()
    except sqlite3.Error:  # not created yet, or locked for a moment
        return []


def wait_for(what: str, check, proc: subprocess.Popen, timeout: float = 120.0) -> None:
    """Poll `check()` until true; a busy machine only makes this slower, never wrong."""
    try:
        until_sync(check, what=what, limit=timeout, proc=proc)
    finally:
        if proc.poll() is None and not check():
            proc.kill()


def start(args: list[str], env: dict[str, str], *, sigint: Literal["default", "ignored"] = "default") -> subprocess.Popen:
    """The command as a terminal's foreground job starts it, or (`sigint="ignored"`) as a script's
    `lemmaforge … &` does: a batch script under Slurm backgrounds the job, and `scancel` then sends
    SIGTERM to a process that ignores SIGINT, so it cannot lean on asyncio's Ctrl-C handler."""
    return python_child(["-m", "lemmaforge.cli", *args], sigint=sigint, cwd=REPO_ROOT,
                        env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


# SIGHUP takes the same path as SIGTERM: the fast subset runs one of them, the full suite both.
@pytest.mark.parametrize(("sig", "code", "sigint"), [
    pytest.param(*SIGNALS[0], "default", id="SIGTERM"),
    pytest.param(*SIGNALS[1], "default", id="SIGHUP", marks=pytest.mark.slow),
    pytest.param(*SIGNALS[0], "ignored", id="SIGTERM-to-a-background-job", marks=pytest.mark.slow),
])
def test_a_signal_stops_prove_as_ctrl_c_does(tmp_path, sig, code, sigint):
    lean = ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed")])
    path = tmp_path / "t.lean"
    path.write_text(HEADER + THEOREM, encoding="utf-8")
    db_path = tmp_path / "runs.db"
    never = threading.Event()  # every LLM request after the first is held until the fake stops
    with FakeKimina(responder=lean) as kimina, FakeOpenAIServer(default=FAILING) as llm:
        llm.add_rule(None, Reply(FAILING, gate=never),
                     when=lambda q: next(r for r in llm.requests if r.endpoint == "chat") is not q)
        args = ["prove", str(path), "--verifier", "kimina", "--kimina-url", kimina.url, "--prover-url", llm.url,
                "--prover-model", "fake-model", "--db", f"sqlite:///{db_path}", "--no-live",
                "--budget", "root_whole_proof_attempts=50", "--budget", "max_depth=0"]
        proc = start(args, PROVE_ENV, sigint=sigint)
        try:
            # the answered call stored and the next held in flight: the run is mid-way, however slow
            # the machine (the held call cannot be answered half-way through the signal)
            wait_for("answered LLM call", lambda: rows(db_path, "SELECT count(*) FROM llm_calls")[:1] not in ([], [(0,)])
                     and llm.in_flight > 0, proc)
            answered = sum(1 for q in llm.requests if q.endpoint == "chat" and q.status == 200)
            assert answered == 1
            proc.send_signal(sig)
            stdout, stderr = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == code, (stdout, stderr)
    (run,) = Store(f"sqlite:///{db_path}").runs()
    assert run.status == "cancelled"
    assert f"run {run.run_id}" in stderr and "recorded as cancelled" in stderr, stderr
    calls = [c for c in Store(f"sqlite:///{db_path}").llm_calls(run.run_id) if c.completions]
    assert len(calls) >= answered  # every call the server answered before the signal has its row


@pytest.mark.slow
@pytest.mark.parametrize(("sig", "code"), SIGNALS, ids=["SIGTERM", "SIGHUP"])
def test_a_signal_stops_bench_and_resume_gives_the_fault_free_report(tmp_path, sig, code):
    limit, attempts = 3, 2
    hold, never = threading.Event(), threading.Event()
    with fake_servers(SOLVABLE) as (kimina, llm):
        # while `hold` is set, only the first problem's requests are answered, the others held until
        # the fake stops: the bench cannot finish before the signal, however busy the machine
        first = re.compile(rf"theorem {re.escape(NAMES[0])}\b")
        llm.rules.insert(0, Rule(None, Reply("held", gate=never),
                                 when=lambda q: hold.is_set() and not first.search(q.all_text)))
        hold.set()
        db_path = tmp_path / "sig.db"
        args = bench_args(kimina, llm, f"sqlite:///{db_path}", "--limit", str(limit), "--attempts", str(attempts),
                          "--concurrency", "2", "--run-id", "S", "--json")
        proc = start(args, ENV)
        try:
            wait_for("finished attempt", lambda: rows(
                db_path, "SELECT count(*) FROM runs WHERE parent_run_id = 'S' AND status IN ('proved', 'not_proved')"
            )[:1] not in ([], [(0,)]), proc)
            proc.send_signal(sig)
            stdout, stderr = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
        hold.clear()  # the resume and the reference run are answered in full
        assert proc.returncode == code, (stdout, stderr)
        assert stdout == ""
        assert "interrupted" in stderr and "--resume S" in stderr, stderr
        store = Store(f"sqlite:///{db_path}")
        assert store.get_run("S").status == "cancelled"
        assert not [r for r in store.runs(parent="S") if r.status == "running"]  # each child closed

        runner = CliRunner()
        r = runner.invoke(bench_app, ["bench", "--resume", "S", "--db", f"sqlite:///{db_path}", "--json",
                                      "--no-progress"], env=ENV)
        assert r.exit_code == 0, r.output
        resumed = json.loads(r.stdout)
        ref_db = f"sqlite:///{tmp_path / 'ref.db'}"
        r = runner.invoke(bench_app, bench_args(kimina, llm, ref_db, "--limit", str(limit), "--attempts",
                                                str(attempts), "--concurrency", "2", "--run-id", "R", "--json"),
                          env=ENV)
        assert r.exit_code == 0, r.output
        reference = json.loads(r.stdout)
    assert outcome(store, "S") == outcome(Store(ref_db), "R")
    for key in ("problems", "solved", "tried", "attempts_done", "attempts_planned", "pass_at_k", "complete",
                "invalid"):
        assert resumed[key] == reference[key], key


def test_a_training_command_interrupted_records_its_run_cancelled_and_exits_130(tmp_path, capsys):
    """`train sft|grpo|es` run their body in `TrainingRun.failing_on_error`: a signal (turned into
    KeyboardInterrupt by lemmaforge.cli.signals) records the run as cancelled, names it on stderr
    and exits 130, which the console entry turns into 143 / 129."""
    from lemmaforge.training.runs import TrainingRun

    store = Store(f"sqlite:///{tmp_path / 'train.db'}")
    run = TrainingRun.start(store, "sft", data=None, output=tmp_path / "out", settings={})
    with pytest.raises(SystemExit) as exc, run.failing_on_error():
        raise KeyboardInterrupt
    assert exc.value.code == 130
    assert store.get_run(run.run_id).status == "cancelled"
    assert f"run {run.run_id}" in capsys.readouterr().err


def test_the_exit_code_of_a_signalled_command_is_128_plus_the_signal(monkeypatch):
    from lemmaforge.cli import signals

    monkeypatch.setattr(signals, "_received", [])
    assert signals.exit_code(130) == 130  # Ctrl-C
    monkeypatch.setattr(signals, "_received", [signal.SIGTERM])
    assert signals.exit_code(130) == 143 and signals.exit_code(2) == 2  # an error on the way out stays one


@pytest.mark.slow
def test_a_signal_that_comes_after_the_command_finished_does_not_change_its_exit_code():
    """Python resets its handlers to the default while it finalizes: a SIGTERM then used to kill a
    process that had already printed its result (exit -15). The command line stays settled."""
    # the atexit hook runs after main() returned; it says whether SIGTERM is ignored from then on
    # (Python's finalization resets handled signals to the default, ignored ones stay ignored)
    code = ("import atexit, signal, sys, time; import lemmaforge.cli as cli; "
            "atexit.register(lambda: (print('exiting', signal.getsignal(signal.SIGTERM) == signal.SIG_IGN, "
            "flush=True), time.sleep(2.0))); "
            "sys.argv = ['lemmaforge', '--version']; cli.main()")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith("lemmaforge ")
    assert proc.stdout.readline() == "exiting True\n"  # main() has returned: the process is exiting
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=30)
    assert proc.returncode == 0

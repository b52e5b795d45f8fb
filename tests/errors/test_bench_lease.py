"""One writer per bench (issue 39, point 3), through the CLI: two `bench --resume R` at once used
to run every remaining attempt twice. Now the second is refused with one line naming the holder
(exit 2), the first finishes with the fault-free report, and a lease whose holder was killed is
taken over at once by the next resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import pytest
from typer.testing import CliRunner

from lemmaforge.db import Store
from lemmaforge.db.lease import lease_of
from tests.benchmarks.bench_entry import app
from tests.benchmarks.bench_helpers import ENV, SOLVABLE, bench_args, fake_servers, outcome
from tests.conftest import REPO_ROOT, error_lines
from tests.errors.test_signals import rows, wait_for
from tests.waiting import until_sync

LIMIT, ATTEMPTS = 3, 2
KEYS = ("problems", "solved", "tried", "attempts_done", "attempts_planned", "pass_at_k", "complete", "invalid")
runner = CliRunner()


def resume_args(db: str, run_id: str) -> list[str]:
    return ["bench", "--resume", run_id, "--db", db, "--json", "--no-progress"]


def start(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.benchmarks.bench_entry", *args], cwd=REPO_ROOT,
                            env={**os.environ, **ENV}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stopped_bench(kimina, llm, db: str, run_id: str) -> None:
    """A bench stopped by a down endpoint after nothing was done: every attempt is left to resume."""
    llm.fail_always(500)
    r = runner.invoke(app, bench_args(kimina, llm, db, "--limit", str(LIMIT), "--attempts", str(ATTEMPTS),
                                      "--concurrency", "2", "--run-id", run_id, "--json"), env=ENV)
    assert r.exit_code == 2, r.output
    llm.fail_always(None)


@pytest.mark.slow
def test_two_resumes_racing_one_runs_the_other_is_refused_naming_the_holder(tmp_path):
    db_path = tmp_path / "race.db"
    db = f"sqlite:///{db_path}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        stopped_bench(kimina, llm, db, "R")
        llm.gate = threading.Event()  # the winner's LLM calls are held until the loser has given up:
        first, second = start(resume_args(db, "R")), start(resume_args(db, "R"))  # truly at once
        until_sync(lambda: first.poll() is not None or second.poll() is not None, what="a refused resume")
        llm.gate.set()
        outs = [p.communicate(timeout=300) for p in (first, second)]
        codes = sorted(p.returncode for p in (first, second))
        assert codes == [0, 2], outs
        winner, loser = (first, second) if first.returncode == 0 else (second, first)
        w_out, l_out = outs[0] if winner is first else outs[1], outs[0] if loser is first else outs[1]
        lines = error_lines(l_out[1])
        assert l_out[0] == "" and len(lines) == 1, l_out
        assert f":{winner.pid}:" in lines[0] and "is being run by" in lines[0]
        resumed = json.loads(w_out[0])
        ref = f"sqlite:///{tmp_path / 'ref.db'}"
        r = runner.invoke(app, bench_args(kimina, llm, ref, "--limit", str(LIMIT), "--attempts", str(ATTEMPTS),
                                          "--concurrency", "2", "--run-id", "REF", "--json"), env=ENV)
        assert r.exit_code == 0, r.output
        reference = json.loads(r.stdout)
    store = Store(db)
    assert outcome(store, "R") == outcome(Store(ref), "REF")  # each slot finished exactly once
    assert {k: resumed[k] for k in KEYS} == {k: reference[k] for k in KEYS}
    assert lease_of(store, "R") is None  # released at the end


@pytest.mark.slow
def test_a_resume_while_the_bench_runs_is_refused_and_a_killed_holder_s_lease_is_taken_over(tmp_path):
    db_path = tmp_path / "live.db"
    db = f"sqlite:///{db_path}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        llm.gate = threading.Event()  # LLM calls held: the bench is still running when the resume comes
        proc = start(bench_args(kimina, llm, db, "--limit", str(LIMIT), "--attempts", str(ATTEMPTS),
                                "--concurrency", "2", "--run-id", "L", "--json"))
        try:
            wait_for("a running attempt", lambda: rows(
                db_path, "SELECT count(*) FROM runs WHERE parent_run_id = 'L' AND status = 'running'"
            )[:1] not in ([], [(0,)]), proc)
            r = runner.invoke(app, resume_args(db, "L"), env=ENV)
            assert r.exit_code == 2, r.output
            assert r.stdout == "" and len(error_lines(r.stderr)) == 1
            assert f":{proc.pid}:" in r.stderr and "is being run by" in r.stderr
            # the refused resume closed nothing of the live bench's
            assert Store(db).get_run("L").status == "running"
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
        llm.gate = None  # the resume below is answered at once
        r = runner.invoke(app, resume_args(db, "L"), env=ENV)  # its holder is gone: taken over at once
        assert r.exit_code == 0, r.output
        resumed = json.loads(r.stdout)
    assert resumed["complete"] and resumed["attempts_done"] == LIMIT * ATTEMPTS
    assert len(outcome(Store(db), "L")) == LIMIT * ATTEMPTS

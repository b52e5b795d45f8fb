"""The store under foot (issue 39, point 6), through the CLI. A SQLite file deleted mid-run used
to go unnoticed (SQLite writes on into the unlinked inode: exit 0, a full JSON, nothing on disk);
a corrupted store made `runs` and `show` print tracebacks (exit 1). Now a write checks that the
file is still the one opened (device and inode) and stops the run with exit 2, and every command
that reads a damaged store says so in one line, exit 2."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app as main_app
from lemmaforge.db import Store
from tests.benchmarks.bench_entry import app as bench_app
from tests.benchmarks.bench_helpers import ENV, SOLVABLE, bench_args, fake_servers, outcome
from tests.conftest import error_lines
from tests.db.test_lease import an_hour_later
from tests.errors.test_bench_faults import after_requests

runner = CliRunner()
LIMIT, ATTEMPTS = 3, 2
KEYS = ("problems", "solved", "tried", "attempts_done", "attempts_planned", "pass_at_k", "complete", "invalid")


def bench(kimina, llm, db: str, run_id: str):
    return runner.invoke(bench_app, bench_args(kimina, llm, db, "--limit", str(LIMIT), "--attempts", str(ATTEMPTS),
                                               "--concurrency", "2", "--run-id", run_id, "--json"),
                         env={**ENV, "LEMMAFORGE_BENCH_LEASE_SECONDS": "1"})


def one_line(r) -> str:
    assert r.stdout == "", r.stdout
    lines = error_lines(r.stderr)
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]


@pytest.mark.parametrize("fault", ["deleted", pytest.param("replaced", marks=pytest.mark.slow)])
def test_a_store_file_deleted_or_replaced_mid_bench_stops_it_with_exit_2(tmp_path, fault, monkeypatch):
    path = tmp_path / "store.db"
    db = f"sqlite:///{path}"
    copy = tmp_path / "copy.db"

    def pull_the_rug() -> None:
        if fault == "deleted":
            path.unlink()
        else:  # a copy of itself moved in place: the same bytes, another file
            shutil.copy(path, copy)
            copy.replace(path)

    with fake_servers(SOLVABLE) as (kimina, llm):
        after_requests(llm, 3, pull_the_rug)
        r = bench(kimina, llm, db, "U")
        assert r.exit_code == 2, r.output
        line = one_line(r)
        assert f"{path} was {'deleted' if fault == 'deleted' else 'replaced by another file'}" in line
        llm.rules.pop(0)
        if fault == "replaced":  # what is on disk is resumable, and gives the fault-free report
            # the lease the stopped bench could not release (its file was gone) expires first; a
            # process of its own would be seen gone at once, this test runs it in-process: the
            # lease's clock is moved past its expiry
            an_hour_later(monkeypatch)
            r = runner.invoke(bench_app, ["bench", "--resume", "U", "--db", db, "--json", "--no-progress"], env=ENV)
            assert r.exit_code == 0, r.output
            resumed = json.loads(r.stdout)
            ref = f"sqlite:///{tmp_path / 'ref.db'}"
            r = bench(kimina, llm, ref, "REF")
            assert r.exit_code == 0, r.output
            assert {k: resumed[k] for k in KEYS} == {k: json.loads(r.stdout)[k] for k in KEYS}
            assert outcome(Store(db), "U") == outcome(Store(ref), "REF")
        else:
            assert not path.exists()


def test_a_store_file_deleted_mid_prove_is_exit_2(tmp_path):
    from tests.errors.test_prove_faults import HEADER, THEOREM
    from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
    from tests.fakes.fake_openai import FakeOpenAIServer

    path = tmp_path / "store.db"
    thm = tmp_path / "t.lean"
    thm.write_text(HEADER + THEOREM, encoding="utf-8")
    failing = "```lean4\ntheorem t (x : ℕ) : x = x := by\n  bad_tactic\n```"
    lean = ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed")])
    with FakeKimina(responder=lean) as kimina, FakeOpenAIServer(default=failing) as llm:
        after_requests(llm, 2, path.unlink)
        r = runner.invoke(main_app, ["prove", str(thm), "--verifier", "kimina", "--kimina-url", kimina.url,
                                     "--prover-url", llm.url, "--prover-model", "fake-model", "--db",
                                     f"sqlite:///{path}", "--json", "--no-live",
                                     "--budget", "root_whole_proof_attempts=4", "--budget", "max_depth=0"],
                          env={**ENV, "LEMMAFORGE_PROVER__RETRIES": "0"})
    assert r.exit_code == 2, r.output
    assert f"{path} was deleted" in one_line(r)


def _corrupt_json(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("UPDATE runs SET config = '{not json' WHERE id = 'C'")
    con.commit()
    con.close()


def _corrupt_pages(path: Path) -> None:
    con = sqlite3.connect(path)
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'runs'").fetchone()[0]
    size = con.execute("PRAGMA page_size").fetchone()[0]
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    with path.open("r+b") as f:
        f.seek((root - 1) * size)
        f.write(b"\x0d\xff\xff\xff" * 50)


@pytest.mark.parametrize("damage", [pytest.param(_corrupt_json, id="bad-json"),
                                    pytest.param(_corrupt_pages, id="bad-pages", marks=pytest.mark.slow)])
def test_a_corrupted_store_is_one_line_and_exit_2_from_every_command_that_reads_it(tmp_path, damage):
    path = tmp_path / "store.db"
    db = f"sqlite:///{path}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        r = runner.invoke(bench_app, bench_args(kimina, llm, db, "--limit", "1", "--run-id", "C", "--json"), env=ENV)
        assert r.exit_code == 0, r.output
    damage(path)
    commands = [["runs"], ["show", "C"], ["report", "C"], ["bench", "--resume", "C", "--no-progress"],
                ["gen-data", "--out", str(tmp_path / "out")]]
    for args in commands:
        r = runner.invoke(main_app, [*args, "--db", db], env=ENV)
        assert r.exit_code == 2, (args, r.output)
        line = one_line(r)
        assert str(path) in line and ("corrupted" in line or "malformed" in line), (args, line)
        assert "Traceback" not in r.output

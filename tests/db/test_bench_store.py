"""The bench against its store: `kill -9` then `--resume` on SQLite and PostgreSQL; a full disk at
the start or in the middle of a run, and a read-only database, give one line and exit 2, and the
bench resumes (or reruns) to the report of a fault-free run; `report` works on a read-only file.

The fakes play the prover and Lean as in `tests/benchmarks` (the bench runs in this process, or in
a subprocess where it gets killed)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, event
from typer.testing import CliRunner

from lemmaforge.db import Store, StoreError
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
from tests.conftest import error_lines

runner = CliRunner()
REPORT_KEYS = ("problems", "solved", "tried", "attempts_done", "attempts_planned", "pass_at_k", "complete",
               "by_split", "by_category", "depth")


def invoke(args: list[str]):
    return runner.invoke(app, args, env=ENV)


def one_line_error(result) -> str:  # type: ignore[no-untyped-def]
    lines = error_lines(result.output)
    assert result.exit_code == 2 and len(lines) == 1, result.output
    return lines[0]


def same_report(a: dict, b: dict) -> None:
    for key in REPORT_KEYS:
        assert a[key] == b[key], key


@pytest.fixture
def reference(tmp_path: Path):
    """The fault-free bench of the same experiment (6 problems, 1 attempt), and its servers."""
    with fake_servers(SOLVABLE, delay=0.05) as (kimina, llm):
        db = f"sqlite:///{tmp_path / 'reference.db'}"
        r = invoke(bench_args(kimina, llm, db, "--limit", "6", "--run-id", "R", "--json"))
        assert r.exit_code == 0, r.output
        yield json.loads(r.stdout), Store(db), kimina, llm


def finished_children(url: str, bench_id: str) -> tuple[int, int]:
    """(finished, running) child runs, read through a read-only store (0, 0 before it exists)."""
    try:
        store = Store(url, read_only=True)
    except StoreError:
        return 0, 0
    try:
        runs = store.runs(parent=bench_id)
    except StoreError:
        return 0, 0
    finally:
        store.close()
    return (sum(r.status in ("proved", "not_proved") for r in runs), sum(r.status == "running" for r in runs))


# --- kill -9 on each backend ------------------------------------------------------------------------


@pytest.mark.slow
def test_kill_9_mid_run_then_resume_matches_a_fault_free_run(any_db_url: str, reference) -> None:
    expected, ref_store, kimina, llm = reference
    # the first two problems are answered, the others held until the kill: it lands mid-run
    # however fast or busy the machine (answers are scripted: holding changes when, not what)
    hold = hold_all_but(llm, NAMES[:2])
    args = bench_args(kimina, llm, any_db_url, "--limit", "6", "--concurrency", "2", "--run-id", "K", "--json")
    def ready() -> bool:
        finished, in_flight = finished_children(any_db_url, "K")
        return finished >= 2 and in_flight >= 1

    try:
        assert bench_killed_when(args, ready, seconds=90) == -signal.SIGKILL
    finally:
        hold.clear()
    store = Store(any_db_url)
    assert store.get_run("K").status == "running"  # type: ignore[union-attr]
    cut_off = [r.run_id for r in store.runs(parent="K") if r.status == "running"]

    r = invoke(["bench", "--resume", "K", "--db", any_db_url, "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    resumed = json.loads(r.stdout)
    same_report(resumed, expected)
    assert resumed["cut_off_closed"] == len(cut_off) >= 1
    assert outcome(store, "K") == outcome(ref_store, "R")


# --- a full disk ------------------------------------------------------------------------------------


@contextlib.contextmanager
def sqlite_file_limited_to_its_size(path: Path) -> Iterator[None]:
    """Every new connection to `path` gets `max_page_count` = its current size: any write that
    needs a new page fails with SQLite's own SQLITE_FULL ("database or disk is full")."""

    def limit(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        cur = dbapi_connection.cursor()
        try:
            (name,) = [row[2] for row in cur.execute("PRAGMA database_list") if row[1] == "main"]
            if name and Path(name).resolve() == path.resolve():
                (pages,) = cur.execute("PRAGMA page_count").fetchone()
                cur.execute(f"PRAGMA max_page_count={int(pages)}")
        finally:
            cur.close()

    event.listen(Engine, "connect", limit)
    try:
        yield
    finally:
        event.remove(Engine, "connect", limit)


@pytest.mark.slow
def test_disk_full_at_bench_start_is_one_line_and_the_rerun_matches(tmp_path: Path, reference) -> None:
    expected, _, kimina, llm = reference
    path = tmp_path / "full.db"
    db = f"sqlite:///{path}"
    Store(db).close()  # the schema fits; nothing more does
    args = bench_args(kimina, llm, db, "--limit", "6", "--run-id", "S", "--json")
    with sqlite_file_limited_to_its_size(path):
        line = one_line_error(invoke(args))
    assert "database or disk is full" in line and "free disk space" in line and "did not start" in line
    assert Store(db).get_run("S") is None  # nothing half-written: the same command can run again

    r = invoke(args)
    assert r.exit_code == 0, r.output
    same_report(json.loads(r.stdout), expected)


@contextlib.contextmanager
def small_tmpfs(size: str) -> Iterator[Path]:
    """A real filesystem of `size` bytes (mounting needs root, or CAP_SYS_ADMIN)."""
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    mnt = Path(f"/tmp/lemmaforge-tmpfs-{uuid.uuid4().hex[:8]}")
    mnt.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mnt)], capture_output=True)
    if proc.returncode != 0:
        mnt.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.decode(errors='replace').strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)
        with contextlib.suppress(OSError):
            mnt.rmdir()


def remount(mnt: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(mnt)], check=True, capture_output=True)


@pytest.mark.slow
def test_a_disk_that_fills_up_mid_run_stops_the_bench_and_resume_finishes_it(reference) -> None:
    expected, ref_store, kimina, llm = reference
    with small_tmpfs("256k") as mnt:
        db = f"sqlite:///{mnt / 'b.db'}"
        r = invoke(bench_args(kimina, llm, db, "--limit", "6", "--run-id", "D", "--json"))
        line = one_line_error(r)
        assert "database or disk is full" in line and "--resume D" in line, line
        assert r.stdout == ""  # no JSON for a stopped bench

        remount(mnt, "size=64m")  # space freed
        r = invoke(["bench", "--resume", "D", "--db", db, "--json", "--no-progress"])
        assert r.exit_code == 0, r.output
        same_report(json.loads(r.stdout), expected)
        assert outcome(Store(db), "D") == outcome(ref_store, "R")


# --- read-only databases ----------------------------------------------------------------------------


def checkpointed_copy(src: Path, dst: Path) -> None:
    """A self-contained copy of an SQLite WAL database (the WAL folded into the file)."""
    con = sqlite3.connect(src)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    shutil.copyfile(src, dst)


def test_report_works_on_a_read_only_file_and_bench_says_read_only(tmp_path: Path, reference) -> None:
    expected, _, kimina, llm = reference
    src = tmp_path / "reference.db"
    with small_tmpfs("16m") as mnt:
        checkpointed_copy(src, mnt / "ro.db")
        remount(mnt, "ro")  # even root cannot write here
        db = f"sqlite:///{mnt / 'ro.db'}"
        r = invoke(["report", "R", "--db", db, "--json"])
        assert r.exit_code == 0, r.output
        same_report(json.loads(r.stdout), expected)
        assert sorted(os.listdir(mnt)) == ["ro.db"]  # nothing written, not even a WAL index

        line = one_line_error(invoke(bench_args(kimina, llm, db, "--limit", "6", "--run-id", "W")))
        assert "read-only" in line or "readonly" in line, line


@pytest.mark.slow
def test_report_opens_postgres_read_only(pg_url: str, reference) -> None:
    expected, _, kimina, llm = reference
    r = invoke(bench_args(kimina, llm, pg_url, "--limit", "6", "--run-id", "P", "--json"))
    assert r.exit_code == 0, r.output
    r = invoke(["report", "P", "--db", pg_url, "--json"])
    assert r.exit_code == 0, r.output
    same_report(json.loads(r.stdout), expected)
    ro = Store(pg_url, read_only=True)
    with ro.engine.connect() as conn:
        assert conn.exec_driver_sql("SHOW default_transaction_read_only").scalar() == "on"


@pytest.mark.slow
def test_a_write_that_fails_at_bench_end_is_one_line_and_resume_closes_the_bench(
    pg_url: str, reference, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL turns read-only just before the bench records its end (a failover to a replica,
    say): one line, exit 2; every attempt is stored, and --resume closes the bench."""
    from sqlalchemy import create_engine, text

    from lemmaforge.benchmarks import runner as rn

    expected, ref_store, kimina, llm = reference
    admin = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    real_finish = rn.finish_bench

    def read_only_then_finish(recorder, run_id, status, summary):  # type: ignore[no-untyped-def]
        with admin.connect() as conn:
            conn.execute(text("ALTER ROLE CURRENT_USER SET default_transaction_read_only = on"))
        recorder.store.engine.dispose()  # new connections get the setting
        return real_finish(recorder, run_id, status, summary)

    monkeypatch.setattr(rn, "finish_bench", read_only_then_finish)
    try:
        line = one_line_error(invoke(bench_args(kimina, llm, pg_url, "--limit", "6", "--run-id", "E", "--json")))
    finally:
        with admin.connect() as conn:
            conn.execute(text("ALTER ROLE CURRENT_USER RESET default_transaction_read_only"))
        admin.dispose()
    assert "read-only" in line and "--resume E" in line, line
    monkeypatch.setattr(rn, "finish_bench", real_finish)
    store = Store(pg_url)
    assert store.get_run("E").status == "running"  # type: ignore[union-attr]
    assert outcome(store, "E") == outcome(ref_store, "R")  # every attempt was stored

    r = invoke(["bench", "--resume", "E", "--db", pg_url, "--json", "--no-progress"])
    assert r.exit_code == 0, r.output
    same_report(json.loads(r.stdout), expected)
    assert store.get_run("E").status == "not_proved"  # type: ignore[union-attr]


# --- what Postgres used to refuse -----------------------------------------------------------------


def test_long_names_and_nul_in_model_output_do_not_stop_a_bench(any_db_url: str, tmp_path: Path) -> None:
    """The issue's crash on PostgreSQL: a problem name over 255 characters, a dataset file name
    over 64, a NUL character in the model's output. The bench finishes and stores them as given."""
    from tests.benchmarks.bench_helpers import NAMES, lean_block
    from tests.conftest import BENCHMARKS

    rows = [json.loads(line) for line in (BENCHMARKS / "minif2f.jsonl").read_text(encoding="utf-8").splitlines()]
    picked = {r["name"]: r for r in rows if r["name"] in NAMES[:3] and r.get("split") == "valid"}
    long_name = {n: f"{n}_{'long' * 80}" for n in NAMES[:3]}
    dataset = tmp_path / f"{'a_dataset_file_with_a_very_long_name_' * 3}.jsonl"
    dataset.write_text("".join(json.dumps({**picked[n], "name": long_name[n]}) + "\n" for n in NAMES[:3]),
                       encoding="utf-8")
    with fake_servers(SOLVABLE) as (kimina, llm):
        nul_reply = "Thinking\x00 aloud.\n\n" + lean_block(f"theorem {NAMES[1]} : True := by\n  bad_tactic\n")
        llm.add_rule(rf"theorem {NAMES[1]}\b", nul_reply)
        args = bench_args(kimina, llm, any_db_url, "--json", "--run-id", "L")
        args[1] = str(dataset)  # instead of minif2f
        del args[2:4]  # --split valid
        r = invoke(args)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["problems"] == 3 and out["solved"] == 2 and out["complete"]
    store = Store(any_db_url)
    problems = {p.name for p in store.problems(dataset=dataset.stem)}
    assert problems == set(long_name.values()) and len(dataset.stem) > 64
    child = next(c for c in store.runs(parent="L") if c.problem_id.endswith(long_name[NAMES[1]]))
    assert any("Thinking\x00 aloud." in c for call in store.llm_calls(child.run_id) for c in call.completions)


@pytest.mark.slow
def test_prove_on_a_full_disk_is_one_line_exit_2(tmp_path: Path) -> None:
    from lemmaforge.benchmarks.datasets import load_dataset
    from lemmaforge.cli import app as main_app

    problem = load_dataset("minif2f", split="valid", names=[SOLVABLE[0]])[0]
    lean_file = tmp_path / "t.lean"
    lean_file.write_text(problem.header + problem.statement, encoding="utf-8")
    path = tmp_path / "p.db"
    Store(f"sqlite:///{path}").close()
    with fake_servers(SOLVABLE) as (kimina, llm), sqlite_file_limited_to_its_size(path):
        r = runner.invoke(main_app, ["prove", str(lean_file), "--verifier", "kimina", "--kimina-url", kimina.url,
                                     "--prover-url", llm.url, "--prover-model", "fake-model",
                                     "--db", f"sqlite:///{path}", "--json", "--no-live"], env=ENV)
    line = one_line_error(r)
    assert "database or disk is full" in line and "not fully recorded" in line

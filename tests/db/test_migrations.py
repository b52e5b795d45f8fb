"""Schema versions (Alembic): a database written by the previous schema (commit 7dda6a9, from
`fixtures/`) is migrated when opened, a newer one is refused, a read-only store never migrates.
On SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from lemmaforge.db import SCHEMA_VERSION, Store, StoreMisconfigured
from lemmaforge.db.models import Base
from lemmaforge.db.schema import BASELINE, script_directory
from lemmaforge.records import AttemptRecord, NodeStatusChanged, ProblemRecord, ProofRecord, RunStarted
from tests.conftest import REPO_ROOT

from .synth import synthetic_run

FIXTURES = Path(__file__).parent / "fixtures"


def load_old_database(url: str) -> None:
    """The store commit 7dda6a9 wrote (no alembic_version table, VARCHAR(n) columns)."""
    if url.startswith("sqlite"):
        import sqlite3

        path = Path(url.removeprefix("sqlite:///"))
        path.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(path)
        con.executescript((FIXTURES / "schema_7dda6a9.sqlite.sql").read_text(encoding="utf-8"))
        con.close()
        return
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql((FIXTURES / "schema_7dda6a9.postgresql.sql").read_text(encoding="utf-8"))
    engine.dispose()


def stored_revisions(url: str) -> list[str]:
    engine = create_engine(url)
    with engine.connect() as conn:
        revs = [r for (r,) in conn.execute(text("SELECT version_num FROM alembic_version"))]
    engine.dispose()
    return revs


def test_the_head_revision_is_the_models_version() -> None:
    assert script_directory().get_current_head() == SCHEMA_VERSION
    assert [s.revision for s in script_directory().walk_revisions()][-1] == BASELINE


def test_a_new_database_is_created_at_the_head_revision(any_db_url: str) -> None:
    store = Store(any_db_url)
    assert store.schema.created and store.schema.migrated_from is None
    assert stored_revisions(any_db_url) == [SCHEMA_VERSION]
    again = Store(any_db_url)  # opening it again changes nothing
    assert not again.schema.created and again.schema.migrated_from is None
    assert stored_revisions(any_db_url) == [SCHEMA_VERSION]


def test_a_database_of_the_previous_schema_is_migrated_and_keeps_its_data(any_db_url: str) -> None:
    load_old_database(any_db_url)
    store = Store(any_db_url)
    assert store.schema.migrated_from == BASELINE
    assert stored_revisions(any_db_url) == [SCHEMA_VERSION]

    # everything the old code wrote reads back as the records it was given
    old = synthetic_run("run-old", parent_run_id="bench-old")
    assert store.attempts("run-old") == old.of(AttemptRecord)
    assert store.status_changes("run-old") == old.of(NodeStatusChanged)
    assert store.proofs("run-old") == old.of(ProofRecord)
    assert store.problem(old.problem_id) == old.of(ProblemRecord)[0]
    assert store.get_run("bench-old").summary == {"solved": 1}  # type: ignore[union-attr]
    assert [r.run_id for r in store.runs(parent="bench-old")] == ["run-old"]
    assert store.finished_problem_ids("bench-old") == {old.problem_id}

    # what the old schema refused on Postgres is stored now, next to the old rows
    long_name = "n" * 300
    new = synthetic_run("run-new", problem_id=f"{'d' * 80}/test/{long_name}", t0=1_800_000_000.0)
    store.write(new.records)
    assert store.attempts("run-new") == new.of(AttemptRecord)
    assert len(store.runs()) == 3


def test_the_migrated_schema_matches_the_models(any_db_url: str) -> None:
    """Migrating 7dda6a9's schema gives the schema a new database gets (Alembic's comparison)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    load_old_database(any_db_url)
    Store(any_db_url)
    engine = create_engine(any_db_url)
    with engine.connect() as conn:
        # SQLite never enforced VARCHAR lengths and keeps its declared types (see revision 0002)
        ctx = MigrationContext.configure(conn, opts={"compare_type": conn.dialect.name != "sqlite"})
        diffs = compare_metadata(ctx, Base.metadata)
    engine.dispose()
    assert diffs == []


def test_a_newer_schema_is_refused_with_a_clear_message(any_db_url: str) -> None:
    Store(any_db_url).close()
    engine = create_engine(any_db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(StoreMisconfigured, match="schema revision 9999, newer than this lemmaforge") as info:
        Store(any_db_url)
    assert "upgrade lemmaforge" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.slow
def test_read_only_never_migrates_and_says_how(any_db_url: str) -> None:
    load_old_database(any_db_url)
    with pytest.raises(StoreMisconfigured, match="older than this lemmaforge.*python -m lemmaforge.db upgrade"):
        Store(any_db_url, read_only=True)
    assert not _has_version_table(any_db_url)  # nothing was written
    proc = subprocess.run([sys.executable, "-m", "lemmaforge.db", "upgrade", any_db_url], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert f"upgraded from schema revision {BASELINE} to {SCHEMA_VERSION}" in proc.stdout
    ro = Store(any_db_url, read_only=True)
    assert [r.run_id for r in ro.runs(parent="bench-old")] == ["run-old"]
    with pytest.raises(StoreMisconfigured, match="read-only"):
        ro.write([RunStarted("x", "prove", {}, {})])


def test_read_only_on_an_empty_database_is_refused(any_db_url: str) -> None:
    if any_db_url.startswith("sqlite"):
        Path(any_db_url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        Path(any_db_url.removeprefix("sqlite:///")).touch()
    with pytest.raises(StoreMisconfigured, match="no lemmaforge database"):
        Store(any_db_url, read_only=True)


def _has_version_table(url: str) -> bool:
    from sqlalchemy import inspect

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return inspect(conn).has_table("alembic_version")
    finally:
        engine.dispose()


@pytest.mark.slow
def test_the_db_module_command(any_db_url: str) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "lemmaforge.db", *args], cwd=REPO_ROOT, capture_output=True,
                              text=True, timeout=120)

    proc = run("current", any_db_url)  # an empty database: read-only, so nothing is created
    assert proc.returncode == 2 and ("no lemmaforge database" in proc.stderr or "no SQLite database" in proc.stderr)
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = run("upgrade", any_db_url)
    assert proc.returncode == 0 and f"created at schema revision {SCHEMA_VERSION}" in proc.stdout
    proc = run("current", any_db_url)
    assert proc.returncode == 0 and f"at schema revision {SCHEMA_VERSION} (current)" in proc.stdout
    proc = run("sideways", any_db_url)
    assert proc.returncode == 2 and "usage:" in proc.stderr


@pytest.mark.slow
def test_opening_a_new_sqlite_database_waits_for_a_process_holding_its_lock(tmp_path: Path) -> None:
    """SQLite answers "database is locked" at once, without its busy handler, when the switch to
    WAL needs a lock that another process holds (here: a write transaction on the new file, as
    when several processes create one store at the same moment; seen in CI). Opening waits up to
    the busy timeout instead of failing."""
    import threading

    path = tmp_path / "new.db"
    holder = subprocess.Popen(  # holds the lock until the test writes a line to it
        [sys.executable, "-c", (
            "import sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "c.execute('BEGIN IMMEDIATE'); c.execute('create table other (x int)')\n"
            "print('held', flush=True); sys.stdin.readline(); c.execute('COMMIT')\n"
        ), str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    opened: list[Store | BaseException] = []

    def open_store() -> None:
        try:
            opened.append(Store(f"sqlite:///{path}", busy_timeout_ms=60_000))
        except BaseException as exc:  # handed to the test's thread
            opened.append(exc)

    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "held"
        opening = threading.Thread(target=open_store, daemon=True)
        opening.start()
        opening.join(0.5)
        # still waiting while the lock is held (a store that gave up at once would have ended;
        # a busy machine can only make it wait longer), and done once the holder commits
        assert opening.is_alive() and not opened, opened
        holder.stdin.write("commit\n")
        holder.stdin.flush()
        opening.join(120)  # a bound on a hang only
        [store] = opened
        assert isinstance(store, Store), store
        assert store.schema.created and stored_revisions(f"sqlite:///{path}") == [SCHEMA_VERSION]
        store.close()
    finally:
        if holder.stdin is not None and not holder.stdin.closed:
            holder.stdin.close()
        holder.wait(timeout=30)


@pytest.mark.slow
def test_processes_opening_a_new_database_at_once_create_it_once(any_db_url: str) -> None:
    """Ray workers open the same store together: one creates the schema, the others wait for it
    (Postgres: an advisory lock; SQLite: BEGIN IMMEDIATE), and one revision is recorded."""
    code = "import sys; from lemmaforge.db import Store; print(Store(sys.argv[1]).schema.created)"
    procs = [subprocess.Popen([sys.executable, "-c", code, any_db_url], cwd=REPO_ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert sorted(o.strip() for o, _ in outs) == ["False", "False", "False", "True"]
    assert stored_revisions(any_db_url) == [SCHEMA_VERSION]

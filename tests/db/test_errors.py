"""Database failures become the errors tree at the store boundary, classified by the driver's codes
(real SQLite result codes and PostgreSQL SQLSTATEs, produced here by real failures)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from lemmaforge.db import (
    Store,
    StoreError,
    StoreMisconfigured,
    StoreRecordError,
    StoreUnavailable,
    StoreURLError,
)
from lemmaforge.db.errors import map_error
from lemmaforge.errors import BackendError, BackendMisconfigured, BackendUnavailable, ExitCode, InputError
from lemmaforge.records import NodeCreated, RunStarted


def raised(url: str, sql: str, *, connect_args: dict | None = None) -> DBAPIError:
    engine = create_engine(url, connect_args=connect_args or {})
    try:
        with engine.begin() as conn:
            conn.execute(text(sql))
    except DBAPIError as e:
        return e
    finally:
        engine.dispose()
    raise AssertionError(f"{sql!r} did not fail")


def test_the_classes_sit_in_the_errors_tree() -> None:
    assert issubclass(StoreError, BackendError)
    assert issubclass(StoreUnavailable, BackendUnavailable) and issubclass(StoreMisconfigured, BackendMisconfigured)
    assert issubclass(StoreURLError, InputError) and issubclass(StoreURLError, StoreError)
    assert StoreError("x").exit_code == ExitCode.BAD_INPUT  # fatal: one line, exit 2, never a model failure


def test_sqlite_read_only(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    sqlite3.connect(path).execute("CREATE TABLE t (a INTEGER PRIMARY KEY)").connection.commit()
    ro = raised(f"sqlite:///file:{path}?mode=ro&uri=true", "INSERT INTO t VALUES (1)")
    err = map_error(ro, "database X")
    assert isinstance(err, StoreMisconfigured) and "read-only" in str(err) and str(err).startswith("database X: ")


def test_sqlite_full_and_constraint(tmp_path: Path) -> None:
    path = tmp_path / "y.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (a TEXT PRIMARY KEY)")
    con.execute("INSERT INTO t VALUES ('k')")
    con.commit()
    con.close()
    dup = raised(f"sqlite:///{path}", "INSERT INTO t VALUES ('k')")
    assert isinstance(map_error(dup, "db"), StoreRecordError)

    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
        conn.exec_driver_sql(f"PRAGMA max_page_count={pages}")
        with pytest.raises(DBAPIError) as info:
            conn.exec_driver_sql("INSERT INTO t VALUES (?)", (("z" * 100_000),))
    engine.dispose()
    err = map_error(info.value, "db")
    assert isinstance(err, StoreUnavailable) and "disk is full" in str(err) and "free disk space" in str(err)


def test_postgres_sqlstates(pg_url: str) -> None:
    ro = raised(pg_url, "CREATE TABLE t (a int)", connect_args={"options": "-c default_transaction_read_only=on"})
    assert isinstance(map_error(ro, "db"), StoreMisconfigured)
    nul = raised(pg_url, "SELECT 'a' || chr(0)")  # "null character not permitted": a data exception
    assert isinstance(map_error(nul, "db"), StoreRecordError)
    # psycopg gives connection failures no SQLSTATE: a missing database is classified as
    # unavailable, with the server's own words
    missing = raised(pg_url.replace("/postgres?", "/no_such_database?"), "SELECT 1")
    err = map_error(missing, "db")
    assert isinstance(err, StoreError) and 'database "no_such_database" does not exist' in str(err)


def test_store_methods_raise_only_store_errors(db_url: str) -> None:
    store = Store(db_url)
    with pytest.raises(StoreRecordError):  # a node of an unknown run: the foreign key
        store.write([NodeCreated(run_id="ghost", node_id="n", kind="goal", depth=0, text="t")])
    store.write([RunStarted("r", "prove", {}, {})])
    assert store.get_run("r") is not None

"""The SQLAlchemy engine behind a `Store`: URL checks, SQLite's WAL / read-only opening, Postgres
read-only sessions, and the pragmas and BEGIN mode that make SQLite's transactions real.

Every failure to build one is a `StoreURLError` (the URL is wrong) or `StoreMisconfigured` (it
never works here: missing driver, read-only file), one line each.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError
from sqlalchemy.pool import StaticPool

from .errors import StoreMisconfigured, StoreURLError, first_line


def _json_dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _sqlite_ro_connect(path: Path, busy_timeout_ms: int) -> Any:
    """A read-only connection to an SQLite file (`mode=ro`: nothing is ever written, not even the
    WAL's shared-memory file where it can be avoided). A WAL database in a directory we cannot
    write, with no `-shm` file left, cannot be opened that way; it is then opened `immutable`
    (SQLite reads the file as it is, which is what a report of a finished run wants)."""
    base = f"file:{quote(str(path))}?mode=ro"
    con = sqlite3.connect(base, uri=True, check_same_thread=False, timeout=busy_timeout_ms / 1000)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return con
    except sqlite3.OperationalError:
        con.close()
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        # immutable would read the main file only and silently miss what the WAL holds
        raise StoreMisconfigured(
            f"cannot read SQLite database {path} read-only: its write-ahead log {wal.name} is not "
            "folded in and the directory cannot be written",
            fix=f"open it once where it is writable, or run: sqlite3 {path} 'PRAGMA wal_checkpoint(TRUNCATE)'",
        )
    return sqlite3.connect(base + "&immutable=1", uri=True, check_same_thread=False)


def _writable(path: Path) -> bool:
    """Whether SQLite can write `path` and create its WAL beside it (`access(2)` also says no on a
    read-only filesystem, even to root)."""
    if path.exists() and not os.access(path, os.W_OK):
        return False
    return os.access(path.parent, os.W_OK | os.X_OK)


def _pg_read_only(u: URL) -> URL:
    """`u` with every transaction read-only (libpq `options`, merged with any given in the URL)."""
    options = u.query.get("options", "")
    if isinstance(options, tuple):
        options = " ".join(options)
    return u.update_query_dict({"options": f"{options} -c default_transaction_read_only=on".strip()})


def _switch_to_wal(cursor: Any, busy_timeout_ms: int) -> None:
    """`PRAGMA journal_mode=WAL`, waiting up to the busy timeout. SQLite answers "database is
    locked" at once, without calling its busy handler, when another connection holds the lock the
    switch needs — e.g. another process creating the same new database at the same moment (Ray
    workers opening one store) — so the wait is ours: retried with a growing pause."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    pause = 0.01
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if ("locked" not in str(e) and "busy" not in str(e)) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


def make_engine(url: str, *, busy_timeout_ms: int, echo: bool, read_only: bool) -> tuple[Engine, bool]:
    """The engine for `url`, and whether it is an in-memory SQLite database (one shared connection)."""
    try:
        u = make_url(url)
    except ArgumentError:
        raise StoreURLError(
            f"not a database URL: {url!r} (expected an SQLAlchemy URL such as sqlite:///path/to/lemmaforge.db)"
        ) from None
    shown = u.render_as_string(hide_password=True)
    # lenient JSON: a Path or an enum in a config must not cost the record; keep Lean's unicode readable
    kwargs: dict[str, Any] = {"echo": echo, "json_serializer": _json_dumps}
    memory = False
    if u.get_backend_name() == "sqlite":
        db = u.database or ""
        memory = db in ("", ":memory:") or "mode=memory" in db
        if not memory and not db.startswith("file:"):
            path = Path(db).expanduser()
            if read_only:
                if not path.is_file():
                    raise StoreURLError(f"no SQLite database at {path}")
                kwargs["creator"] = lambda: _sqlite_ro_connect(path, busy_timeout_ms)
            else:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as e:
                    blocker = next((a for a in path.parents if a.exists()), None)
                    if blocker is not None and not blocker.is_dir():
                        raise StoreURLError(
                            f"cannot create SQLite database {path}: {blocker} is a file, not a directory"
                        ) from None
                    raise StoreMisconfigured(
                        f"cannot create the directory of SQLite database {path}: {e.strerror or e}"
                    ) from None
            if path.is_dir():
                raise StoreURLError(f"cannot use {path} as an SQLite database: it is a directory")
            if not read_only and not _writable(path):
                # SQLite would only say "unable to open database file" (it cannot create the WAL)
                raise StoreMisconfigured(
                    f"SQLite database {path} is read-only (the file or its directory cannot be written)",
                    fix="give a writable --db (reports open databases read-only and work on it)",
                )
            u = u.set(database=str(path))
        if memory:  # every connection would otherwise get its own empty database
            kwargs.update(poolclass=StaticPool, connect_args={"check_same_thread": False})
    elif u.get_backend_name() == "postgresql" and read_only:
        u = _pg_read_only(u)
    try:
        engine = create_engine(u, **kwargs)
    except ImportError as e:
        raise StoreMisconfigured(
            f"cannot use database {shown}: its driver is not installed ({e})",
            fix="for PostgreSQL: pip install 'lemmaforge[postgres]'" if u.get_backend_name() == "postgresql" else "",
        ) from None
    except NoSuchModuleError as e:  # unknown dialect or driver name
        raise StoreURLError(f"cannot use database {shown}: unknown dialect or driver ({first_line(e)})") from None
    except ArgumentError as e:
        raise StoreURLError(f"cannot use database {shown}: {first_line(e)}") from None

    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            # SQLAlchemy's recipe for real transactions on pysqlite: the driver's own implicit
            # BEGIN is switched off and `_sqlite_begin` emits it, so DDL is transactional too
            dbapi_connection.isolation_level = None
            cur = dbapi_connection.cursor()
            try:
                cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
                if not memory and not read_only:
                    _switch_to_wal(cur, busy_timeout_ms)
                    cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
            finally:
                cur.close()

        @event.listens_for(engine, "begin")
        def _sqlite_begin(conn: Connection) -> None:
            # writers take the write lock at BEGIN (waiting up to busy_timeout) instead of failing
            # with SQLITE_BUSY when a read transaction tries to become a write transaction
            immediate = conn.get_execution_options().get("lemmaforge_write", False) and not read_only
            conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine, memory

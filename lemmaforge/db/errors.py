"""Store errors, and the one place where SQLAlchemy / driver exceptions become them.

Every `Store` method maps database exceptions at its boundary with `store_errors()`; nothing
above the store sees SQLAlchemy. The classes place a store failure in `lemmaforge.errors`:

    StoreError(BackendError)                    the store cannot be used: fatal to a run, never a
    │                                           model failure; a bench stops and `--resume` works
    ├── StoreUnavailable(.., BackendUnavailable) locked, connection lost, disk full: may come back
    │                                           (the recorder retries a few times, then gives up)
    ├── StoreMisconfigured(.., BackendMisconfigured)  read-only, schema too new, not a database,
    │   │                                       unknown driver: retrying cannot help
    │   └── StoreURLError(.., InputError)       the URL itself is wrong (the user's input)
    └── StoreRecordError                        one record cannot be stored (a node of an unknown
                                                run, a value the database refuses): an emitter bug
                                                or an unstorable value, never the database's state

Driver errors are classified by their codes, not their messages: SQLite's result code
(`sqlite3.Error.sqlite_errorcode`, Python 3.11+) and Postgres's SQLSTATE (`psycopg.Error.sqlstate`);
SQLAlchemy's DBAPI classes (OperationalError, IntegrityError, ...) are the fallback for other
drivers. Non-DBAPI SQLAlchemy errors (a bad query, a mapping error) are bugs and propagate.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from sqlalchemy import exc as sa_exc

from lemmaforge.errors import BackendError, BackendMisconfigured, BackendUnavailable, InputError, one_line


class RunIdError(InputError, LookupError):
    """A run id (or id prefix) the user gave names no run, or several, or is too short to say. One
    line, the user's to fix: exit 2."""


class StoreError(BackendError):
    """The database cannot be used, or a record cannot be stored. The message is one line."""

    def __init__(self, message: object, *, backend: str = "", fix: str = "") -> None:
        super().__init__(message, backend=backend, fix=fix)


class StoreUnavailable(StoreError, BackendUnavailable):
    """Locked, unreachable, out of disk space: may work again later (resume then)."""


class StoreMisconfigured(StoreError, BackendMisconfigured):
    """Read-only, a schema this version cannot use, not a database, no driver: fix, then resume."""


class StoreURLError(StoreMisconfigured, InputError):
    """The database URL is not usable as given (the user's input)."""


class StoreRecordError(StoreError):
    """One record cannot be stored: the rest of its batch can be."""


# SQLite primary result codes (https://sqlite.org/rescode.html)
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY, _SQLITE_IOERR = 5, 6, 8, 10
_SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_NOTADB = 11, 13, 14, 26
_SQLITE_CONSTRAINT, _SQLITE_TOOBIG, _SQLITE_MISMATCH = 19, 18, 20


def first_line(exc: BaseException) -> str:
    """The first line of the driver's message (SQLAlchemy appends the statement and parameters)."""
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__


def _classify_sqlite(code: int, where: str, detail: str) -> StoreError | None:
    primary = code & 0xFF
    if primary == _SQLITE_FULL:
        return StoreUnavailable(detail, backend=where, fix="free disk space, then run again (a bench: --resume it)")
    if primary == _SQLITE_READONLY:
        return StoreMisconfigured(
            detail, backend=where, fix="the database is read-only: make it writable or give another --db"
        )
    if primary in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return StoreUnavailable(detail, backend=where, fix="another process holds the database; retry later")
    if primary in (_SQLITE_IOERR, _SQLITE_CANTOPEN):
        return StoreUnavailable(detail, backend=where, fix="check the disk and the file's directory")
    if primary in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return StoreMisconfigured(detail, backend=where, fix="not a usable SQLite database: give another --db")
    if primary in (_SQLITE_CONSTRAINT, _SQLITE_TOOBIG, _SQLITE_MISMATCH):
        return StoreRecordError(detail, backend=where)
    return None


def _classify_sqlstate(state: str, where: str, detail: str) -> StoreError | None:
    cls = state[:2]
    if state == "53100":  # disk_full
        return StoreUnavailable(detail, backend=where, fix="free disk space on the database server, then --resume")
    if state == "25006":  # read_only_sql_transaction
        return StoreMisconfigured(
            detail, backend=where, fix="the database is read-only: give a writable --db (a primary, not a replica)"
        )
    if cls in ("08", "53", "57", "40", "55"):  # connection, resources, shutdown, rollback, lock
        return StoreUnavailable(detail, backend=where, fix="check that the database server is up, then --resume")
    if cls == "28":  # invalid authorization
        return StoreMisconfigured(detail, backend=where, fix="check the user and password in the URL")
    if cls == "3D":  # invalid catalog name: no such database
        return StoreMisconfigured(detail, backend=where, fix="create the database, or fix its name in the URL")
    if cls in ("22", "23", "54"):  # data exception, integrity, program limit (e.g. index row size)
        return StoreRecordError(detail, backend=where)
    if cls in ("42",):  # syntax error or access rule violation: permissions, missing table
        return StoreMisconfigured(detail, backend=where, fix="check the database user's permissions and schema")
    return None


def map_error(e: sa_exc.DBAPIError, where: str) -> StoreError:
    """The `StoreError` for a database exception raised while using the store at `where`."""
    detail = first_line(e)
    orig: Any = getattr(e, "orig", None)
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int):
        mapped = _classify_sqlite(code, where, detail)
        if mapped is not None:
            return mapped
    state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if isinstance(state, str) and len(state) == 5:
        mapped = _classify_sqlstate(state, where, detail)
        if mapped is not None:
            return mapped
    if isinstance(e, sa_exc.IntegrityError | sa_exc.DataError):
        return StoreRecordError(detail, backend=where)
    if isinstance(e, sa_exc.OperationalError | sa_exc.InterfaceError) or e.connection_invalidated:
        return StoreUnavailable(detail, backend=where)
    return StoreError(detail, backend=where)


@contextlib.contextmanager
def store_errors(where: str) -> Iterator[None]:
    """Maps database exceptions raised inside the block to `StoreError`s naming `where`.

    An encoding error from the driver (a string no database can take, which `SafeText` should
    have escaped) is a `StoreRecordError` too: one record, not the database, is at fault."""
    try:
        yield
    except sa_exc.DBAPIError as e:
        raise map_error(e, where) from e
    except sa_exc.TimeoutError as e:  # connection pool exhausted
        raise StoreUnavailable(one_line(e), backend=where) from e
    except UnicodeEncodeError as e:
        raise StoreRecordError(f"a value cannot be encoded: {e.reason}", backend=where) from e
    except json.JSONDecodeError as e:  # a JSON column holds text that is not JSON: the file is damaged
        raise StoreMisconfigured(
            f"corrupted: a stored JSON value cannot be read ({e.msg} at char {e.pos})", backend=where,
            fix="restore the database from a backup, or give another --db",
        ) from e

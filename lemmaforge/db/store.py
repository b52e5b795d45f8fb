"""`Store`: the one object that writes records to SQL and reads runs back as plain Python objects.

Any SQLAlchemy URL works; SQLite (the default) is opened in WAL mode so that readers (reports, the
subgoal cache, a second process) never wait for the writer (`lemmaforge.db.engine`). Every read
returns records from `lemmaforge.records` or the frozen dataclasses of `lemmaforge.db.store_reads`,
never live ORM objects: callers never touch SQLAlchemy sessions.
"""

from __future__ import annotations

import contextlib
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy import Connection, Table, bindparam, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from lemmaforge.records import (
    AttemptRecord,
    LLMCallRecord,
    NodeCreated,
    NodeStatusChanged,
    ProblemRecord,
    ProofRecord,
    Record,
    RunFinished,
    RunStarted,
)

from .engine import make_engine
from .errors import StoreError, StoreMisconfigured, StoreRecordError, store_errors
from .mapping import text_hash, to_row
from .models import AttemptRow, Base, LLMCallRow, NodeRow, NodeStatusRow, ProblemRow, ProofRow, RunRow
from .store_reads import StoreReads

if TYPE_CHECKING:
    from .schema import SchemaState

__all__ = ["Store"]

_CHUNK = 500  # ids per IN (...) list on the portable code path

K = TypeVar("K")


def _table(row: type[Base]) -> Table:
    """The Table of an ORM class (`__table__` is declared as a plain FromClause)."""
    return cast(Table, row.__table__)


def _dedupe(rows: list[dict[str, Any]], key: Sequence[str], *, keep_last: bool) -> list[dict[str, Any]]:
    """Rows with distinct keys, in first-seen order; the first or the last row of each key wins."""
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:
        k = tuple(row[c] for c in key)
        if keep_last or k not in out:
            out[k] = row
    return list(out.values())


def _chunks(items: list[K], n: int) -> Iterator[list[K]]:
    for i in range(0, len(items), n):
        yield items[i : i + n]


# record -> row: the columns no record field fills are given here


def _file_identity(url: Any) -> tuple[Path, tuple[int, int]] | None:
    """(path, (device, inode)) of a SQLite file database, else None."""
    if url.get_backend_name() != "sqlite":
        return None
    db = url.database or ""
    if not db or db == ":memory:" or db.startswith("file:") or "mode=memory" in db:
        return None
    path = Path(db).expanduser().resolve()
    try:
        st = path.stat()
    except OSError:
        return None
    return path, (st.st_dev, st.st_ino)


def _run_row(r: RunStarted) -> dict[str, Any]:
    return to_row(r, _table(RunRow), rename={"id": "run_id"}, status="running", summary=None, finished_at=None)


def _node_row(r: NodeCreated) -> dict[str, Any]:
    return to_row(
        r, _table(NodeRow), status="open", strategy=None, proof=None, reason=None, status_at=r.created_at
    )


def _proof_row(r: ProofRecord) -> dict[str, Any]:
    return to_row(
        r,
        _table(ProofRow),
        header_hash=text_hash(r.header),
        statement_hash=text_hash(r.normalized_statement),
    )


class Store(StoreReads):
    """Writes records and reads runs back. Thread-safe: every call uses its own connection.

    `write()` is synchronous (it is what the `SqlRecorder` thread calls); the search engine should
    use a `SqlRecorder`, never `write()` from the event loop.

    Opening a store creates the schema in an empty database and migrates an older one (see
    `lemmaforge.db.schema`). `read_only=True` (reports) never writes: SQLite is opened with
    `mode=ro`, Postgres sessions with `default_transaction_read_only`; an empty or older
    database is then refused instead of created or migrated.

    Every method raises `StoreError` subclasses (`lemmaforge.db.errors`), never SQLAlchemy's.
    """

    def __init__(
        self, url: str, *, read_only: bool = False, busy_timeout_ms: int = 30_000, echo: bool = False
    ) -> None:
        self.read_only = read_only
        self.engine, memory = make_engine(url, busy_timeout_ms=busy_timeout_ms, echo=echo, read_only=read_only)
        self.url = self.engine.url.render_as_string(hide_password=True)
        self.dialect = self.engine.dialect.name
        self._where = f"database {self.url}"
        # one in-memory SQLite connection is shared by all threads: serialize its use
        self._guard: contextlib.AbstractContextManager[Any] = (
            threading.RLock() if memory else contextlib.nullcontext()
        )
        # INSERT ... ON CONFLICT on SQLite and Postgres; select-then-insert elsewhere
        self._native_upsert = self.dialect in ("sqlite", "postgresql")
        self._file_identity: tuple[Path, tuple[int, int]] | None = None
        self.schema = self._open_schema()
        # what "the same file" is for the rest of the run: a write checks it (`_check_file`)
        self._file_identity = None if read_only or memory else _file_identity(self.engine.url)

    def _open_schema(self) -> SchemaState:
        from .schema import ensure_schema

        try:
            where = f"cannot open {self._where}"
            with store_errors(where), self._guard, self._begin(write=not self.read_only) as conn:
                return ensure_schema(conn, where, read_only=self.read_only)
        except StoreError:
            self.engine.dispose()
            raise

    @contextlib.contextmanager
    def _begin(self, *, write: bool) -> Iterator[Connection]:
        """A connection in a transaction (committed at the end, rolled back on error); `write`:
        SQLite takes the write lock at once."""
        if write and self._file_identity is not None:
            self._check_file()
        with self.engine.connect() as conn:
            if write:
                conn.execution_options(lemmaforge_write=True)
            with conn.begin():
                yield conn

    def _check_file(self) -> None:
        """The SQLite file this store opened is still the one at its path. Deleted (or replaced
        by another file) mid-run, SQLite would go on writing into the unlinked inode, and the run
        would end "done" with nothing on disk."""
        assert self._file_identity is not None
        path, identity = self._file_identity
        try:
            st = path.stat()
            now: tuple[int, int] | None = (st.st_dev, st.st_ino)
        except FileNotFoundError:
            now = None
        if now != identity:
            what = "deleted" if now is None else "replaced by another file"
            raise StoreMisconfigured(
                f"the database file {path} was {what} while this process was writing to it", backend=self._where,
                fix="what was written since is not in it; restore the file or start again",
            )

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    def close(self) -> None:
        """Closes the pooled connections (the Store stays usable: new ones are opened on demand)."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------------------------- writing

    def write(self, records: Sequence[Record]) -> None:
        """Stores `records` in one transaction (all or nothing).

        Idempotent: records with ids already stored are skipped (`NodeCreated`, `AttemptRecord`,
        `LLMCallRecord`, `ProofRecord`, `RunStarted`, a replayed `NodeStatusChanged`), a
        `ProblemRecord` replaces the stored problem with the same `problem_id`, a `RunFinished`
        overwrites the run's end. Records are applied by type in dependency order (problems, runs,
        nodes, LLM calls, attempts, status changes, proofs, run ends), each type in emission order;
        a node's current status is that of its latest status change by time, so replaying older
        changes never moves it back.

        Raises StoreRecordError for a record that cannot be stored (a `RunFinished` or a node of an
        unknown run, a value the database refuses), StoreUnavailable when the database cannot be
        written now (locked, disk full, connection lost), StoreMisconfigured when it never can
        (read-only).
        """
        if not records:
            return
        groups: dict[type, list[Any]] = {t: [] for t in _WRITE_ORDER}
        for r in records:
            group = groups.get(type(r))
            if group is None:
                raise StoreRecordError(f"cannot store {type(r).__name__!r}: not a lemmaforge.records record")
            group.append(r)
        if self.read_only:
            raise StoreMisconfigured("opened read-only", backend=self._where)
        with store_errors(self._where), self._guard, self._begin(write=True) as conn:
            for kind in _WRITE_ORDER:
                group = groups[kind]
                if not group:
                    continue
                if kind is NodeStatusChanged:
                    self._write_status(conn, group)
                elif kind is RunFinished:
                    self._write_finished(conn, group)
                else:
                    table, key, row = _ROWS[kind]
                    # a problem is replaced by a newer version of it; any other record is written once
                    put = self._upsert if kind is ProblemRecord else self._insert_new
                    put(conn, table, [row(r) for r in group], key)

    def _dialect_insert(self, table: Table) -> Any:
        return pg_insert(table) if self.dialect == "postgresql" else sqlite_insert(table)

    def _existing_keys(
        self, conn: Connection, table: Table, key: Sequence[str], rows: list[dict[str, Any]]
    ) -> set[tuple[Any, ...]]:
        """Keys among `rows` already in `table` (portable path). key = (id,) or (scope, id, more...)."""
        cols = [table.c[c] for c in key]
        found: set[tuple[Any, ...]] = set()
        if len(key) == 1:
            ids = list({r[key[0]] for r in rows})
            for chunk in _chunks(ids, _CHUNK):
                found.update(tuple(row) for row in conn.execute(select(*cols).where(cols[0].in_(chunk))))
            return found
        by_scope: dict[Any, set[Any]] = defaultdict(set)
        for r in rows:
            by_scope[r[key[0]]].add(r[key[1]])
        for scope, ids_ in by_scope.items():
            for chunk in _chunks(sorted(ids_), _CHUNK):
                stmt = select(*cols).where(cols[0] == scope, cols[1].in_(chunk))
                found.update(tuple(row) for row in conn.execute(stmt))
        return found

    def _insert_new(
        self, conn: Connection, table: Table, rows: list[dict[str, Any]], key: Sequence[str]
    ) -> None:
        rows = _dedupe(rows, key, keep_last=False)
        if self._native_upsert:
            conn.execute(self._dialect_insert(table).on_conflict_do_nothing(index_elements=list(key)), rows)
            return
        existing = self._existing_keys(conn, table, key, rows)
        new = [r for r in rows if tuple(r[c] for c in key) not in existing]
        if new:
            conn.execute(insert(table), new)

    def _upsert(self, conn: Connection, table: Table, rows: list[dict[str, Any]], key: Sequence[str]) -> None:
        rows = _dedupe(rows, key, keep_last=True)
        if self._native_upsert:
            stmt = self._dialect_insert(table)
            stmt = stmt.on_conflict_do_update(
                index_elements=list(key), set_={c: stmt.excluded[c] for c in rows[0] if c not in key}
            )
            conn.execute(stmt, rows)
            return
        existing = self._existing_keys(conn, table, key, rows)
        new = [r for r in rows if tuple(r[c] for c in key) not in existing]
        old = [r for r in rows if tuple(r[c] for c in key) in existing]
        if new:
            conn.execute(insert(table), new)
        if old:
            where = [table.c[c] == bindparam(f"k_{c}") for c in key]
            values: dict[str, Any] = {c: bindparam(f"v_{c}") for c in old[0] if c not in key}
            params = [{f"k_{c}" if c in key else f"v_{c}": v for c, v in r.items()} for r in old]
            conn.execute(update(table).where(*where).values(values), params)

    def _write_status(self, conn: Connection, changes: list[NodeStatusChanged]) -> None:
        rows = [to_row(r, _table(NodeStatusRow)) for r in changes]
        self._insert_new(conn, _table(NodeStatusRow), rows, ("run_id", "node_id", "at", "status"))
        t = _table(NodeRow)
        stmt = (
            update(t)
            .where(
                t.c.run_id == bindparam("b_run_id"),
                t.c.node_id == bindparam("b_node_id"),
                t.c.status_at <= bindparam("b_at"),
            )
            .values(
                status=bindparam("b_status"),
                strategy=bindparam("b_strategy"),
                proof=bindparam("b_proof"),
                reason=bindparam("b_reason"),
                status_at=bindparam("b_at"),
            )
        )
        conn.execute(stmt, [{f"b_{k}": v for k, v in row.items()} for row in rows])

    def _write_finished(self, conn: Connection, ends: list[RunFinished]) -> None:
        t = _table(RunRow)
        for r in _dedupe([{"id": e.run_id, "e": e} for e in ends], ("id",), keep_last=True):
            end: RunFinished = r["e"]
            res = conn.execute(
                update(t)
                .where(t.c.id == end.run_id)
                .values(status=end.status, summary=end.summary, finished_at=end.finished_at)
            )
            if res.rowcount == 0:
                raise StoreRecordError(f"RunFinished for unknown run {end.run_id!r} (no RunStarted was stored)")



_WRITE_ORDER: tuple[type, ...] = (
    ProblemRecord,
    RunStarted,
    NodeCreated,
    LLMCallRecord,
    AttemptRecord,
    NodeStatusChanged,
    ProofRecord,
    RunFinished,
)

#: record type -> its table, its natural key, its row (status changes and run ends have writers of their own)
_ROWS: dict[type, tuple[Table, tuple[str, ...], Callable[[Any], dict[str, Any]]]] = {
    ProblemRecord: (_table(ProblemRow), ("problem_id",), lambda r: to_row(r, _table(ProblemRow))),
    RunStarted: (_table(RunRow), ("id",), _run_row),
    NodeCreated: (_table(NodeRow), ("run_id", "node_id"), _node_row),
    LLMCallRecord: (_table(LLMCallRow), ("call_id",), lambda r: to_row(r, _table(LLMCallRow))),
    AttemptRecord: (_table(AttemptRow), ("run_id", "attempt_id"), lambda r: to_row(r, _table(AttemptRow))),
    ProofRecord: (_table(ProofRow), ("proof_id",), _proof_row),
}

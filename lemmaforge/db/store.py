"""`Store`: the one object that writes records to SQL and reads runs back as plain Python objects.

Any SQLAlchemy URL works; SQLite (the default) is opened in WAL mode so that readers (reports, the
subgoal cache, a second process) never wait for the writer. Every read returns records from
`lemmaforge.records` or the frozen dataclasses below, never live ORM objects: callers never touch
SQLAlchemy sessions.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import networkx as nx
from sqlalchemy import Connection, Engine, Table, bindparam, create_engine, event, insert, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from lemmaforge.errors import BackendError
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

from .models import (
    AttemptRow,
    Base,
    LLMCallRow,
    NodeRow,
    NodeStatusRow,
    ProblemRow,
    ProofRow,
    RunRow,
)

log = logging.getLogger("lemmaforge.db")

#: run statuses that count as done when a batch run resumes (cancelled / failed runs are retried)
DONE_STATUSES: frozenset[str] = frozenset({"proved", "not_proved"})

_CHUNK = 500  # ids per IN (...) list on the portable code path


class StoreError(BackendError):
    """The database cannot be used, or a record cannot be stored. The message is one line.
    A backend error (`lemmaforge.errors`): fatal to a run, never counted as a failed attempt."""

    def __init__(self, message: str) -> None:
        super().__init__(_one_line(message))


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__


def _json_dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def text_hash(text: str) -> str:
    """sha256 hex of a text: the key columns of the subgoal cache (`header_hash`, `statement_hash`)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# --------------------------------------------------------------------------------------------------
# what reads return
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunInfo:
    run_id: str
    kind: str
    status: str  # "running" until RunFinished, then its status
    config: dict[str, Any]
    versions: dict[str, Any]
    problem_id: str | None
    parent_run_id: str | None
    summary: dict[str, Any] | None
    started_at: float
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class NodeInfo:
    """A node as created (the `NodeCreated` fields) plus its latest status change."""

    run_id: str
    node_id: str
    kind: str
    depth: int
    text: str
    parent_id: str | None
    hole_index: int | None
    goal_state: str | None
    created_at: float
    status: str
    strategy: str | None
    proof: str | None
    reason: str | None
    status_at: float

    def created(self) -> NodeCreated:
        """The `NodeCreated` record this node came from."""
        return NodeCreated(
            run_id=self.run_id,
            node_id=self.node_id,
            kind=self.kind,  # type: ignore[arg-type]
            depth=self.depth,
            text=self.text,
            parent_id=self.parent_id,
            hole_index=self.hole_index,
            goal_state=self.goal_state,
            created_at=self.created_at,
        )


# --------------------------------------------------------------------------------------------------
# record -> row dicts (explicit: cheaper than dataclasses.asdict, which deep-copies)
# --------------------------------------------------------------------------------------------------


def _problem_row(r: ProblemRecord) -> dict[str, Any]:
    return {
        "problem_id": r.problem_id,
        "dataset": r.dataset,
        "name": r.name,
        "split": r.split,
        "header": r.header,
        "statement": r.statement,
        "informal": r.informal,
        "extra": r.extra,
    }


def _run_row(r: RunStarted) -> dict[str, Any]:
    return {
        "id": r.run_id,
        "kind": r.kind,
        "parent_run_id": r.parent_run_id,
        "problem_id": r.problem_id,
        "status": "running",
        "config": r.config,
        "versions": r.versions,
        "summary": None,
        "started_at": r.started_at,
        "finished_at": None,
    }


def _node_row(r: NodeCreated) -> dict[str, Any]:
    return {
        "run_id": r.run_id,
        "node_id": r.node_id,
        "kind": r.kind,
        "depth": r.depth,
        "text": r.text,
        "goal_state": r.goal_state,
        "parent_id": r.parent_id,
        "hole_index": r.hole_index,
        "status": "open",
        "strategy": None,
        "proof": None,
        "reason": None,
        "created_at": r.created_at,
        "status_at": r.created_at,
    }


def _status_row(r: NodeStatusChanged) -> dict[str, Any]:
    return {
        "run_id": r.run_id,
        "node_id": r.node_id,
        "status": r.status,
        "strategy": r.strategy,
        "proof": r.proof,
        "reason": r.reason,
        "at": r.at,
    }


def _attempt_row(r: AttemptRecord) -> dict[str, Any]:
    return {
        "run_id": r.run_id,
        "attempt_id": r.attempt_id,
        "node_id": r.node_id,
        "strategy": r.strategy,
        "verdict": r.verdict,
        "code": r.code,
        "output": r.output,
        "prompt": r.prompt,
        "llm_call_id": r.llm_call_id,
        "errors": list(r.errors),
        "generation_seconds": r.generation_seconds,
        "check_seconds": r.check_seconds,
        "created_at": r.created_at,
    }


def _call_row(r: LLMCallRecord) -> dict[str, Any]:
    return {
        "call_id": r.call_id,
        "run_id": r.run_id,
        "role": r.role,
        "endpoint": r.endpoint,
        "model": r.model,
        "request": r.request,
        "completions": list(r.completions),
        "finish_reasons": list(r.finish_reasons),
        "prompt_tokens": r.prompt_tokens,
        "completion_tokens": r.completion_tokens,
        "latency": r.latency,
        "error": r.error,
        "created_at": r.created_at,
    }


def _proof_row(r: ProofRecord) -> dict[str, Any]:
    return {
        "proof_id": r.proof_id,
        "run_id": r.run_id,
        "kind": r.kind,
        "header": r.header,
        "header_hash": text_hash(r.header),
        "statement": r.statement,
        "normalized_statement": r.normalized_statement,
        "statement_hash": text_hash(r.normalized_statement),
        "proof": r.proof,
        "problem_id": r.problem_id,
        "node_id": r.node_id,
        "strategy": r.strategy,
        "depth": r.depth,
        "audit": r.audit,
        "created_at": r.created_at,
    }


# row objects -> records / infos


def _problem(o: ProblemRow) -> ProblemRecord:
    return ProblemRecord(
        problem_id=o.problem_id,
        name=o.name,
        header=o.header,
        statement=o.statement,
        dataset=o.dataset,
        split=o.split,
        informal=o.informal,
        extra=o.extra if o.extra is not None else {},
    )


def _run(o: RunRow) -> RunInfo:
    return RunInfo(
        run_id=o.id,
        kind=o.kind,
        status=o.status,
        config=o.config if o.config is not None else {},
        versions=o.versions if o.versions is not None else {},
        problem_id=o.problem_id,
        parent_run_id=o.parent_run_id,
        summary=o.summary,
        started_at=o.started_at,
        finished_at=o.finished_at,
    )


def _node(o: NodeRow) -> NodeInfo:
    return NodeInfo(
        run_id=o.run_id,
        node_id=o.node_id,
        kind=o.kind,
        depth=o.depth,
        text=o.text,
        parent_id=o.parent_id,
        hole_index=o.hole_index,
        goal_state=o.goal_state,
        created_at=o.created_at,
        status=o.status,
        strategy=o.strategy,
        proof=o.proof,
        reason=o.reason,
        status_at=o.status_at,
    )


def _status(o: NodeStatusRow) -> NodeStatusChanged:
    return NodeStatusChanged(
        run_id=o.run_id,
        node_id=o.node_id,
        status=o.status,  # type: ignore[arg-type]
        strategy=o.strategy,  # type: ignore[arg-type]
        proof=o.proof,
        reason=o.reason,
        at=o.at,
    )


def _attempt(o: AttemptRow) -> AttemptRecord:
    return AttemptRecord(
        run_id=o.run_id,
        attempt_id=o.attempt_id,
        node_id=o.node_id,
        strategy=o.strategy,  # type: ignore[arg-type]
        verdict=o.verdict,  # type: ignore[arg-type]
        code=o.code,
        output=o.output,
        prompt=o.prompt,
        llm_call_id=o.llm_call_id,
        errors=list(o.errors or []),
        generation_seconds=o.generation_seconds,
        check_seconds=o.check_seconds,
        created_at=o.created_at,
    )


def _call(o: LLMCallRow) -> LLMCallRecord:
    return LLMCallRecord(
        run_id=o.run_id,
        call_id=o.call_id,
        role=o.role,
        endpoint=o.endpoint,
        model=o.model,
        request=o.request,
        completions=list(o.completions),
        finish_reasons=list(o.finish_reasons),
        prompt_tokens=o.prompt_tokens,
        completion_tokens=o.completion_tokens,
        latency=o.latency,
        error=o.error,
        created_at=o.created_at,
    )


def _proof(o: ProofRow) -> ProofRecord:
    return ProofRecord(
        run_id=o.run_id,
        proof_id=o.proof_id,
        kind=o.kind,  # type: ignore[arg-type]
        header=o.header,
        statement=o.statement,
        normalized_statement=o.normalized_statement,
        proof=o.proof,
        problem_id=o.problem_id,
        node_id=o.node_id,
        strategy=o.strategy,  # type: ignore[arg-type]
        depth=o.depth,
        audit=o.audit if o.audit is not None else {},
        created_at=o.created_at,
    )


K = TypeVar("K")


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


# --------------------------------------------------------------------------------------------------
# engine
# --------------------------------------------------------------------------------------------------


def _make_engine(url: str, *, busy_timeout_ms: int, echo: bool) -> tuple[Engine, bool]:
    """The engine for `url`, and whether it is an in-memory SQLite database (one shared connection)."""
    try:
        u = make_url(url)
    except ArgumentError:
        raise StoreError(
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
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                blocker = next((a for a in path.parents if a.exists()), None)
                if blocker is not None and not blocker.is_dir():
                    raise StoreError(
                        f"cannot create SQLite database {path}: {blocker} is a file, not a directory"
                    ) from None
                raise StoreError(
                    f"cannot create the directory of SQLite database {path}: {e.strerror or e}"
                ) from None
            if path.is_dir():
                raise StoreError(f"cannot use {path} as an SQLite database: it is a directory")
            u = u.set(database=str(path))
        if memory:  # every connection would otherwise get its own empty database
            kwargs.update(poolclass=StaticPool, connect_args={"check_same_thread": False})
    try:
        engine = create_engine(u, **kwargs)
    except ImportError as e:
        raise StoreError(f"cannot use database {shown}: its driver is not installed ({e})") from None
    except ArgumentError as e:  # includes NoSuchModuleError (unknown dialect or driver name)
        raise StoreError(
            f"cannot use database {shown}: unknown dialect or driver ({_first_line(e)})"
        ) from None
    except SQLAlchemyError as e:
        raise StoreError(f"cannot use database {shown}: {_first_line(e)}") from None

    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cur = dbapi_connection.cursor()
            try:
                if not memory:
                    cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
                cur.execute("PRAGMA foreign_keys=ON")
            finally:
                cur.close()

    return engine, memory


# --------------------------------------------------------------------------------------------------
# the store
# --------------------------------------------------------------------------------------------------


class Store:
    """Writes records and reads runs back. Thread-safe: every call uses its own connection.

    `write()` is synchronous (it is what the `SqlRecorder` thread calls); the search engine should
    use a `SqlRecorder`, never `write()` from the event loop.
    """

    def __init__(self, url: str, *, busy_timeout_ms: int = 30_000, echo: bool = False) -> None:
        self.engine, memory = _make_engine(url, busy_timeout_ms=busy_timeout_ms, echo=echo)
        self.url = self.engine.url.render_as_string(hide_password=True)
        self.dialect = self.engine.dialect.name
        # one in-memory SQLite connection is shared by all threads: serialize its use
        self._guard: contextlib.AbstractContextManager[Any] = (
            threading.RLock() if memory else contextlib.nullcontext()
        )
        # INSERT ... ON CONFLICT on SQLite and Postgres; select-then-insert elsewhere
        self._native_upsert = self.dialect in ("sqlite", "postgresql")
        self._create_schema()

    def _create_schema(self) -> None:
        for attempt in range(3):
            try:
                with self._guard:
                    Base.metadata.create_all(self.engine)
                return
            except SQLAlchemyError as e:
                # two processes creating the same schema at once: the loser sees "already exists"
                if attempt < 2 and "already exists" in str(e):
                    continue
                self.engine.dispose()
                raise StoreError(f"cannot open database {self.url}: {_first_line(e)}") from None

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

        Raises StoreError for a record that cannot be stored (e.g. a `RunFinished` of an unknown
        run) and SQLAlchemy errors for database failures (IntegrityError: a node of an unknown run).
        """
        if not records:
            return
        groups: dict[type, list[Any]] = {t: [] for t in _WRITE_ORDER}
        for r in records:
            group = groups.get(type(r))
            if group is None:
                raise StoreError(f"cannot store {type(r).__name__!r}: not a lemmaforge.records record")
            group.append(r)
        with self._guard, self.engine.begin() as conn:
            if groups[ProblemRecord]:
                self._upsert(
                    conn,
                    ProblemRow.__table__,
                    [_problem_row(r) for r in groups[ProblemRecord]],
                    ("problem_id",),
                )
            if groups[RunStarted]:
                self._insert_new(conn, RunRow.__table__, [_run_row(r) for r in groups[RunStarted]], ("id",))
            if groups[NodeCreated]:
                self._insert_new(
                    conn,
                    NodeRow.__table__,
                    [_node_row(r) for r in groups[NodeCreated]],
                    ("run_id", "node_id"),
                )
            if groups[LLMCallRecord]:
                self._insert_new(
                    conn, LLMCallRow.__table__, [_call_row(r) for r in groups[LLMCallRecord]], ("call_id",)
                )
            if groups[AttemptRecord]:
                self._insert_new(
                    conn,
                    AttemptRow.__table__,
                    [_attempt_row(r) for r in groups[AttemptRecord]],
                    ("run_id", "attempt_id"),
                )
            if groups[NodeStatusChanged]:
                self._write_status(conn, groups[NodeStatusChanged])
            if groups[ProofRecord]:
                self._insert_new(
                    conn, ProofRow.__table__, [_proof_row(r) for r in groups[ProofRecord]], ("proof_id",)
                )
            if groups[RunFinished]:
                self._write_finished(conn, groups[RunFinished])

    def _dialect_insert(self, table: Table) -> Any:
        if self.dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            return pg_insert(table)
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(table)

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
            values = {c: bindparam(f"v_{c}") for c in old[0] if c not in key}
            params = [{f"k_{c}" if c in key else f"v_{c}": v for c, v in r.items()} for r in old]
            conn.execute(update(table).where(*where).values(values), params)

    def _write_status(self, conn: Connection, changes: list[NodeStatusChanged]) -> None:
        rows = [_status_row(r) for r in changes]
        self._insert_new(conn, NodeStatusRow.__table__, rows, ("run_id", "node_id", "at", "status"))
        t = NodeRow.__table__
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
        t = RunRow.__table__
        for r in _dedupe([{"id": e.run_id, "e": e} for e in ends], ("id",), keep_last=True):
            end: RunFinished = r["e"]
            res = conn.execute(
                update(t)
                .where(t.c.id == end.run_id)
                .values(status=end.status, summary=end.summary, finished_at=end.finished_at)
            )
            if res.rowcount == 0:
                raise StoreError(f"RunFinished for unknown run {end.run_id!r} (no RunStarted was stored)")

    # ---------------------------------------------------------------------------------- reading

    def _read(self, fn: Callable[[Session], K]) -> K:
        with self._guard, Session(self.engine) as s:
            return fn(s)

    def problem(self, problem_id: str) -> ProblemRecord | None:
        return self._read(lambda s: (lambda o: _problem(o) if o else None)(s.get(ProblemRow, problem_id)))

    def problems(self, dataset: str | None = None) -> list[ProblemRecord]:
        stmt = select(ProblemRow).order_by(ProblemRow.problem_id)
        if dataset is not None:
            stmt = stmt.where(ProblemRow.dataset == dataset)
        return self._read(lambda s: [_problem(o) for o in s.scalars(stmt)])

    def get_run(self, run_id: str) -> RunInfo | None:
        return self._read(lambda s: (lambda o: _run(o) if o else None)(s.get(RunRow, run_id)))

    def runs(
        self, kind: str | None = None, parent: str | None = None, problem_id: str | None = None
    ) -> list[RunInfo]:
        """Runs, oldest first; `parent=bench_run_id` gives a bench run's per-problem runs."""
        stmt = select(RunRow).order_by(RunRow.started_at, RunRow.id)
        if kind is not None:
            stmt = stmt.where(RunRow.kind == kind)
        if parent is not None:
            stmt = stmt.where(RunRow.parent_run_id == parent)
        if problem_id is not None:
            stmt = stmt.where(RunRow.problem_id == problem_id)
        return self._read(lambda s: [_run(o) for o in s.scalars(stmt)])

    def finished_problem_ids(self, parent_run_id: str, statuses: Iterable[str] = DONE_STATUSES) -> set[str]:
        """Problems whose child run of `parent_run_id` ended with one of `statuses` (by default
        proved / not_proved: a resumed batch skips them and retries cancelled and failed ones)."""
        stmt = select(RunRow.problem_id).where(
            RunRow.parent_run_id == parent_run_id,
            RunRow.status.in_(list(statuses)),
            RunRow.problem_id.is_not(None),
        )
        return self._read(lambda s: {p for p in s.scalars(stmt) if p is not None})

    def nodes(self, run_id: str) -> list[NodeInfo]:
        """A run's nodes in creation order."""
        stmt = select(NodeRow).where(NodeRow.run_id == run_id).order_by(NodeRow.seq)
        return self._read(lambda s: [_node(o) for o in s.scalars(stmt)])

    def status_changes(self, run_id: str, node_id: str | None = None) -> list[NodeStatusChanged]:
        """Every status change of a run's nodes (or of one node), in emission order."""
        stmt = select(NodeStatusRow).where(NodeStatusRow.run_id == run_id).order_by(NodeStatusRow.seq)
        if node_id is not None:
            stmt = stmt.where(NodeStatusRow.node_id == node_id)
        return self._read(lambda s: [_status(o) for o in s.scalars(stmt)])

    def attempts(self, run_id: str, node_id: str | None = None) -> list[AttemptRecord]:
        stmt = select(AttemptRow).where(AttemptRow.run_id == run_id).order_by(AttemptRow.seq)
        if node_id is not None:
            stmt = stmt.where(AttemptRow.node_id == node_id)
        return self._read(lambda s: [_attempt(o) for o in s.scalars(stmt)])

    def llm_calls(self, run_id: str | None) -> list[LLMCallRecord]:
        """A run's LLM calls in emission order (`None`: the calls recorded without a run)."""
        cond = LLMCallRow.run_id.is_(None) if run_id is None else LLMCallRow.run_id == run_id
        stmt = select(LLMCallRow).where(cond).order_by(LLMCallRow.seq)
        return self._read(lambda s: [_call(o) for o in s.scalars(stmt)])

    def llm_call(self, call_id: str) -> LLMCallRecord | None:
        stmt = select(LLMCallRow).where(LLMCallRow.call_id == call_id)
        return self._read(lambda s: (lambda o: _call(o) if o else None)(s.scalars(stmt).first()))

    def proofs(
        self, run_id: str | None = None, kind: str | None = None, problem_id: str | None = None
    ) -> list[ProofRecord]:
        stmt = select(ProofRow).order_by(ProofRow.seq)
        if run_id is not None:
            stmt = stmt.where(ProofRow.run_id == run_id)
        if kind is not None:
            stmt = stmt.where(ProofRow.kind == kind)
        if problem_id is not None:
            stmt = stmt.where(ProofRow.problem_id == problem_id)
        return self._read(lambda s: [_proof(o) for o in s.scalars(stmt)])

    def cached_proof(self, header: str, normalized_statement: str) -> str | None:
        """The first stored subgoal proof (any run) of this statement under this header, or None."""
        stmt = (
            select(ProofRow.proof, ProofRow.header, ProofRow.normalized_statement)
            .where(
                ProofRow.header_hash == text_hash(header),
                ProofRow.statement_hash == text_hash(normalized_statement),
                ProofRow.kind == "subgoal",
            )
            .order_by(ProofRow.seq)
            .limit(8)
        )
        with self._guard, self.engine.connect() as conn:
            for proof, h, n in conn.execute(stmt):
                if h == header and n == normalized_statement:  # hashes matched; make sure the texts do
                    return proof
        return None

    def tree(self, run_id: str) -> nx.DiGraph:
        """The run's AND/OR tree: one graph node per tree node (attributes: the `NodeInfo` fields),
        edges parent → child: goal → sketch (`relation="decomposition"`) and sketch → goal
        (`relation="hole"`, `hole_index`). `graph.graph` holds `run_id` and `roots`."""
        nodes = self.nodes(run_id)
        g = nx.DiGraph(run_id=run_id)
        for n in nodes:
            g.add_node(n.node_id, **{f: getattr(n, f) for f in NodeInfo.__dataclass_fields__})
        for n in nodes:
            if n.parent_id is None:
                continue
            if n.parent_id not in g:
                log.warning("run %s: node %s has unknown parent %s", run_id, n.node_id, n.parent_id)
                continue
            if n.kind == "sketch":
                g.add_edge(n.parent_id, n.node_id, relation="decomposition")
            else:
                g.add_edge(n.parent_id, n.node_id, relation="hole", hole_index=n.hole_index)
        g.graph["roots"] = [n.node_id for n in nodes if n.parent_id is None]
        return g


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

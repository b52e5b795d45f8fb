"""What `Store` reads return, and the reads themselves (the `StoreReads` half of `Store`).

Every read returns records from `lemmaforge.records` or the frozen dataclasses below, never live
ORM objects: callers never touch SQLAlchemy sessions.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import networkx as nx
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from lemmaforge.records import (
    AttemptRecord,
    LLMCallRecord,
    NodeCreated,
    NodeStatusChanged,
    ProblemRecord,
    ProofRecord,
)

from .errors import RunIdError, store_errors
from .mapping import from_row, text_hash
from .models import AttemptRow, LLMCallRow, NodeRow, NodeStatusRow, ProblemRow, ProofRow, RunRow

log = logging.getLogger("lemmaforge.db")

#: the shortest run-id prefix a command accepts: `runs` shows 12 characters, and fewer than 4 hex
#: digits would name one run of a store only by luck (65,536 values)
MIN_RUN_PREFIX = 4
#: how many candidates an "ambiguous" message lists
AMBIGUOUS_SHOWN = 8

#: run statuses that count as done when a batch run resumes (cancelled / failed runs are retried)
DONE_STATUSES: frozenset[str] = frozenset({"proved", "not_proved"})

K = TypeVar("K")


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


def _problem(o: ProblemRow) -> ProblemRecord:
    return from_row(ProblemRecord, o, empty={"extra": dict})


def _run(o: RunRow) -> RunInfo:
    return from_row(RunInfo, o, rename={"run_id": "id"}, empty={"config": dict, "versions": dict})


def _node(o: NodeRow) -> NodeInfo:
    return from_row(NodeInfo, o)


def _status(o: NodeStatusRow) -> NodeStatusChanged:
    return from_row(NodeStatusChanged, o)


def _attempt(o: AttemptRow) -> AttemptRecord:
    return from_row(AttemptRecord, o, empty={"errors": list})


def _call(o: LLMCallRow) -> LLMCallRecord:
    return from_row(LLMCallRecord, o)


def _proof(o: ProofRow) -> ProofRecord:
    return from_row(ProofRecord, o, empty={"audit": dict})


class StoreReads:
    """The reads of a `Store` (which sets up `engine`, `_guard` and `_where`)."""

    engine: Engine
    _guard: contextlib.AbstractContextManager[Any]
    _where: str

    def _read(self, fn: Callable[[Session], K]) -> K:
        with store_errors(self._where), self._guard, Session(self.engine) as s:
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

    def resolve_run(self, ref: str) -> RunInfo:
        """The run that `ref` names: its full id, or a prefix of at least `MIN_RUN_PREFIX`
        characters that starts no other run's id. Every command that takes a run or bench id goes
        through here, so all of them name runs one way. RunIdError (one line) otherwise."""
        ref = ref.strip()
        exact = self.get_run(ref) if ref else None
        if exact is not None:
            return exact
        hint = "(list them with `lemmaforge runs`)"
        if len(ref) < MIN_RUN_PREFIX:
            raise RunIdError(f"run id {ref!r} is too short: give at least {MIN_RUN_PREFIX} characters of it {hint}")
        pattern = ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        stmt = (select(RunRow).where(RunRow.id.like(pattern, escape="\\")).order_by(RunRow.started_at, RunRow.id)
                .limit(AMBIGUOUS_SHOWN + 1))
        matches = self._read(lambda s: [_run(o) for o in s.scalars(stmt)])
        matches = [m for m in matches if m.run_id.startswith(ref)]  # LIKE ignores case on some databases
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise RunIdError(f"unknown run {ref!r} in {self._where} {hint}")
        shown = ", ".join(f"{m.run_id[:16]} ({m.kind}{', ' + m.problem_id if m.problem_id else ''})"
                          for m in matches[:AMBIGUOUS_SHOWN])
        more = ", …" if len(matches) > AMBIGUOUS_SHOWN else ""
        raise RunIdError(f"run id {ref!r} is ambiguous: {shown}{more}; give more of it")

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
        with store_errors(self._where), self._guard, self.engine.connect() as conn:
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


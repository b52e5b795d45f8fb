"""SQLAlchemy 2 ORM models: one table per kind of record, plus the node status history.

Conventions
-----------
* Ids are the ones the emitter chose (`lemmaforge.records.new_id()` or anything else that is unique in
  its scope): `problem_id`, `runs.id`, `llm_calls.call_id` and `proofs.proof_id` are unique across the
  database; `node_id` and `attempt_id` are unique within their run, so their natural key is
  `(run_id, node_id)` / `(run_id, attempt_id)`. Natural keys carry UNIQUE constraints: replays are
  idempotent (`INSERT ... ON CONFLICT DO NOTHING`).
* Tables whose rows come in a stream (nodes, status changes, attempts, LLM calls, proofs) have an
  integer surrogate primary key `seq`: it gives the order in which rows were written (= emission order
  for one recorder), which timestamps alone cannot (clock resolution, ties).
* Timestamps are POSIX seconds as floats (`time.time()`), exactly as the records carry them, so a
  record read back compares equal to the one emitted. Use `datetime.fromtimestamp(x, UTC)` to show.
* JSON columns are `JSON` (SQLite: TEXT with JSON functions) and `JSONB` on Postgres.
* Edges of the AND/OR tree are not stored in a table of their own: every node has exactly one parent
  (a sketch decomposes one goal; a goal is one hole of one sketch), so `nodes.parent_id` (+
  `hole_index`) *is* the edge list. `Store.tree()` derives the graph; an edge table would only
  duplicate it and could drift from it.
* Foreign keys tie what one run emits to that run (nodes, status changes, attempts, proofs → runs;
  status changes, attempts → nodes), so an emitter bug (a node of an unknown run) fails loudly, on
  SQLite (`PRAGMA foreign_keys=ON`) as on Postgres. References that may legitimately arrive out of
  order or from another process are kept soft (indexed, no constraint): `runs.parent_run_id` (a
  bench run's children are written by worker processes), `runs.problem_id`, `llm_calls.run_id`,
  `attempts.llm_call_id`, `proofs.problem_id`, `proofs.node_id`.
* The subgoal cache looks proofs up by `(header_hash, statement_hash)` (sha256 hex of the header and
  of the normalized statement), then compares the full texts. An index directly on the statement
  text would break on Postgres (btree entries are limited to ~2.7 kB) and MySQL (TEXT columns cannot
  be indexed without a prefix length).

* No length limits where user or model text goes: every string column is `TEXT` (Postgres stores
  `text` and `varchar(n)` alike; a limit only turns a long problem name into a crash). The
  exceptions are the sha256 hex columns, which are exactly 64 characters.
* Text and JSON values go through `SafeText` / `SafeJSON` (see `lemmaforge.db.safe_text`): a string
  that Postgres would refuse (a NUL character) or no driver can encode (a lone surrogate) is stored
  escaped and read back as it was, on every dialect.

The schema is versioned with Alembic (`lemmaforge/db/migrations`): a new database is created from
these models and stamped with the head revision; an older one is migrated when a `Store` opens it
for writing. A change to these models needs a new revision (see `lemmaforge.db.schema`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    CheckConstraint,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .safe_text import SafeJSON, SafeText

#: the Alembic revision these models describe (the newest in `lemmaforge/db/migrations/versions`)
SCHEMA_VERSION = "0004"

JSONType = SafeJSON
Text = SafeText


class Base(DeclarativeBase):
    pass


class ProblemRow(Base):
    __tablename__ = "problems"

    problem_id: Mapped[str] = mapped_column(Text, primary_key=True)
    dataset: Mapped[str] = mapped_column(Text, index=True)
    name: Mapped[str] = mapped_column(Text)
    split: Mapped[str | None] = mapped_column(Text)
    header: Mapped[str] = mapped_column(Text)
    statement: Mapped[str] = mapped_column(Text)
    informal: Mapped[str | None] = mapped_column(Text)
    extra: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)


class RunRow(Base):
    __tablename__ = "runs"

    id: Mapped[str] = mapped_column(Text, primary_key=True)
    kind: Mapped[str] = mapped_column(Text, index=True)
    parent_run_id: Mapped[str | None] = mapped_column(Text, index=True)  # soft reference to runs.id
    problem_id: Mapped[str | None] = mapped_column(Text, index=True)  # soft → problems
    status: Mapped[str] = mapped_column(Text, default="running")  # running until RunFinished
    config: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    versions: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    started_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float)


class NodeRow(Base):
    """A node of the AND/OR tree; `status`..`status_at` mirror its latest `NodeStatusChanged`."""

    __tablename__ = "nodes"
    __table_args__ = (
        UniqueConstraint("run_id", "node_id", name="uq_nodes_run_node"),
        CheckConstraint("kind IN ('goal', 'sketch')", name="ck_nodes_kind"),
    )

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(Text, ForeignKey("runs.id", ondelete="CASCADE"))
    node_id: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(Text)
    depth: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    goal_state: Mapped[str | None] = mapped_column(Text)
    parent_id: Mapped[str | None] = mapped_column(Text)  # node_id of the parent in the same run
    hole_index: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(Text, default="open")
    strategy: Mapped[str | None] = mapped_column(Text)
    proof: Mapped[str | None] = mapped_column(Text)
    reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)
    status_at: Mapped[float] = mapped_column(Float)  # time of the latest status change (or creation)


class NodeStatusRow(Base):
    """Every `NodeStatusChanged`, in order: the history behind `nodes.status`."""

    __tablename__ = "node_status_changes"
    __table_args__ = (
        # a replayed event (same node, same time, same status) is the same event
        UniqueConstraint("run_id", "node_id", "at", "status", name="uq_node_status_event"),
        ForeignKeyConstraint(
            ["run_id", "node_id"],
            ["nodes.run_id", "nodes.node_id"],
            ondelete="CASCADE",
            name="fk_status_node",
        ),
    )

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(Text, ForeignKey("runs.id", ondelete="CASCADE"))
    node_id: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(Text)
    strategy: Mapped[str | None] = mapped_column(Text)
    proof: Mapped[str | None] = mapped_column(Text)
    reason: Mapped[str | None] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class AttemptRow(Base):
    __tablename__ = "attempts"
    __table_args__ = (
        UniqueConstraint("run_id", "attempt_id", name="uq_attempts_run_attempt"),
        ForeignKeyConstraint(
            ["run_id", "node_id"],
            ["nodes.run_id", "nodes.node_id"],
            ondelete="CASCADE",
            name="fk_attempt_node",
        ),
        Index("ix_attempts_run_node", "run_id", "node_id"),
        Index("ix_attempts_strategy_verdict", "strategy", "verdict"),  # training-data export
    )

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(Text, ForeignKey("runs.id", ondelete="CASCADE"))
    attempt_id: Mapped[str] = mapped_column(Text)
    node_id: Mapped[str] = mapped_column(Text)
    strategy: Mapped[str] = mapped_column(Text)
    verdict: Mapped[str] = mapped_column(Text)
    code: Mapped[str] = mapped_column(Text)
    output: Mapped[str | None] = mapped_column(Text)
    prompt: Mapped[str | None] = mapped_column(Text)
    llm_call_id: Mapped[str | None] = mapped_column(Text, index=True)  # soft → llm_calls.call_id
    errors: Mapped[list[Any]] = mapped_column(JSONType, default=list)
    generation_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    check_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[float] = mapped_column(Float)


class LLMCallRow(Base):
    __tablename__ = "llm_calls"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    call_id: Mapped[str] = mapped_column(Text, unique=True)
    run_id: Mapped[str | None] = mapped_column(Text, index=True)  # soft → runs.id (may be None)
    role: Mapped[str] = mapped_column(Text, index=True)
    endpoint: Mapped[str] = mapped_column(Text)
    model: Mapped[str] = mapped_column(Text)
    request: Mapped[dict[str, Any]] = mapped_column(JSONType)
    completions: Mapped[list[Any]] = mapped_column(JSONType)
    finish_reasons: Mapped[list[Any]] = mapped_column(JSONType)
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0)
    latency: Mapped[float] = mapped_column(Float, default=0.0)
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)


class ProofRow(Base):
    __tablename__ = "proofs"
    __table_args__ = (
        CheckConstraint("kind IN ('whole', 'subgoal')", name="ck_proofs_kind"),
        Index("ix_proofs_cache", "header_hash", "statement_hash"),
    )

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    proof_id: Mapped[str] = mapped_column(Text, unique=True)
    run_id: Mapped[str] = mapped_column(Text, ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(Text, index=True)
    header: Mapped[str] = mapped_column(Text)
    header_hash: Mapped[str] = mapped_column(String(64))  # sha256 hex of `header`
    statement: Mapped[str] = mapped_column(Text)
    normalized_statement: Mapped[str] = mapped_column(Text)
    statement_hash: Mapped[str] = mapped_column(String(64))  # sha256 hex of `normalized_statement`
    proof: Mapped[str] = mapped_column(Text)
    problem_id: Mapped[str | None] = mapped_column(Text, index=True)  # soft → problems
    node_id: Mapped[str | None] = mapped_column(Text)  # soft → nodes.node_id of the same run
    strategy: Mapped[str | None] = mapped_column(Text)
    depth: Mapped[int | None] = mapped_column(Integer)
    audit: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    created_at: Mapped[float] = mapped_column(Float)


class BenchLeaseRow(Base):
    """Who runs a bench now (`lemmaforge.db.lease`): one row per bench run while a process works
    on it. `owner` is `host:pid:token`; the holder renews `heartbeat_at` / `expires_at`; another
    process takes a lease over only once it has expired (or its holder, on this host, is gone)."""

    __tablename__ = "bench_leases"

    run_id: Mapped[str] = mapped_column(Text, primary_key=True)  # soft → runs.id
    owner: Mapped[str] = mapped_column(Text)
    acquired_at: Mapped[float] = mapped_column(Float)
    heartbeat_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class VerifiedClaimRow(Base):
    """One claim `lemmaforge verify` decided (`lemmaforge.db.claims`): a proof of a problem, checked
    by the whole audit under one policy. `claim_key` is the sha256 of what decides the verdict (the
    proof's text, the problem's text, the audit policy), so a verify that stopped is resumed by
    skipping what is here, and nothing else is ever taken from it."""

    __tablename__ = "verified_claims"

    claim_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    problem: Mapped[str] = mapped_column(Text)
    dataset: Mapped[str | None] = mapped_column(Text)
    verdict: Mapped[str] = mapped_column(Text)  # confirmed | refuted | statement_mismatch
    reason: Mapped[str | None] = mapped_column(Text)
    report: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    verified_at: Mapped[float] = mapped_column(Float)

"""What happens during a run, as plain records.

The search engine and the LLM layer emit these; the store (`lemmaforge.db`) persists them. Neither
side knows the other: search never imports SQLAlchemy, and the store knows nothing about asyncio.
Every record carries the run id, and ids that the emitter chooses (node ids, attempt ids) so the
emitter never waits for the database to hand out a primary key.

The `Recorder` protocol is the one thing the search receives; `emit` must be cheap and must not
block the event loop (the SQL store queues records and writes them in batches on a thread).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable


def new_id() -> str:
    """A random UUID (version 4) as 32 hex digits, as `uuid.uuid4().hex` gives it, without the
    `UUID` object: a search makes several records per goal, and the object was most of the cost."""
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # RFC 4122 variant
    return raw.hex()


def now() -> float:
    return time.time()


NodeKind = Literal["goal", "sketch"]
NodeStatus = Literal["open", "solved", "failed", "abandoned", "cancelled"]
Strategy = Literal["automation", "prover", "prover_correction", "planner", "sketch_correction", "cache", "assembly"]
Verdict = Literal["valid", "incomplete", "error", "timeout", "crashed", "rejected", "skipped"]


@dataclass(frozen=True, slots=True)
class ProblemRecord:
    """A theorem to prove. `problem_id` is stable: dataset + name (or a hash of the statement)."""

    problem_id: str
    name: str
    header: str
    statement: str  # the theorem, ending in its proof slot (`sorry`)
    dataset: str = "adhoc"
    split: str | None = None
    informal: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunStarted:
    run_id: str
    kind: str  # "prove", "bench", "expert_iter", ...
    config: dict[str, Any]
    versions: dict[str, str | None]  # lemmaforge, lean, mathlib, lean-interact, model names…
    problem_id: str | None = None
    parent_run_id: str | None = None  # a bench run's per-problem runs point to the bench run
    started_at: float = field(default_factory=now)


@dataclass(frozen=True, slots=True)
class RunFinished:
    run_id: str
    status: Literal["proved", "not_proved", "failed", "cancelled"]
    summary: dict[str, Any]  # calls, checks, depth, seconds, stop reason…
    finished_at: float = field(default_factory=now)


@dataclass(frozen=True, slots=True)
class NodeCreated:
    """A node of the AND/OR tree. A goal node (OR over strategies) has a `statement` (the lemma
    text, ending in `sorry`); a sketch node (AND over its holes) has the sketch code."""

    run_id: str
    node_id: str
    kind: NodeKind
    depth: int
    text: str
    parent_id: str | None = None  # the goal a sketch decomposes; the sketch a goal is a hole of
    hole_index: int | None = None  # position of this goal among its sketch's holes
    goal_state: str | None = None  # Lean's pretty-printed goal, when the backend gave one
    created_at: float = field(default_factory=now)


@dataclass(frozen=True, slots=True)
class NodeStatusChanged:
    run_id: str
    node_id: str
    status: NodeStatus
    strategy: Strategy | None = None  # what solved it
    proof: str | None = None  # the tactic proof of a goal / the filled sketch
    reason: str | None = None  # why failed / abandoned
    at: float = field(default_factory=now)


@dataclass(frozen=True, slots=True)
class AttemptRecord:
    """One try of one strategy on one node, with Lean's verdict."""

    run_id: str
    attempt_id: str
    node_id: str
    strategy: Strategy
    verdict: Verdict
    code: str  # what was sent to Lean (or the tactic for proof-state runs)
    output: str | None = None  # the model output it came from
    prompt: str | None = None
    llm_call_id: str | None = None
    errors: list[str] = field(default_factory=list)
    generation_seconds: float = 0.0
    check_seconds: float = 0.0
    created_at: float = field(default_factory=now)


@dataclass(frozen=True, slots=True)
class LLMCallRecord:
    run_id: str | None
    call_id: str
    role: str  # "planner", "prover", …
    endpoint: str
    model: str
    request: dict[str, Any]  # messages or prompt + sampling parameters
    completions: list[str]
    finish_reasons: list[str | None]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency: float = 0.0
    error: str | None = None
    created_at: float = field(default_factory=now)


@dataclass(frozen=True, slots=True)
class ProofRecord:
    """A verified proof: a whole theorem (`kind="whole"`, audited) or a subgoal lemma."""

    run_id: str
    proof_id: str
    kind: Literal["whole", "subgoal"]
    header: str
    statement: str  # the lemma / theorem statement text (ending in `sorry`)
    normalized_statement: str  # key of the subgoal cache
    proof: str  # whole file for "whole", tactic text for "subgoal"
    problem_id: str | None = None
    node_id: str | None = None
    strategy: Strategy | None = None
    depth: int | None = None
    audit: dict[str, Any] = field(default_factory=dict)
    created_at: float = field(default_factory=now)


Record = (
    ProblemRecord
    | RunStarted
    | RunFinished
    | NodeCreated
    | NodeStatusChanged
    | AttemptRecord
    | LLMCallRecord
    | ProofRecord
)


@runtime_checkable
class Recorder(Protocol):
    """Where the search sends what it does: write-only. `emit` never blocks on I/O. (Reading proofs
    of earlier runs is the subgoal cache's job: `search.cache.SubgoalCache` over a `ProofLookup`,
    queried off the event loop; a `StoreRecorder` is one.)"""

    def emit(self, record: Record) -> None: ...


class StoreRecorder(Recorder, Protocol):
    """The recorder in front of a run's store (what `services.open_recorder` gives, and every
    wrapper of it passes on): besides `emit`,
    - `cached_proof`: proofs of earlier runs (a `search.cache.ProofLookup`: whoever wires a
      search gives it to the run's `SubgoalCache`; called in a worker thread);
    - `flush`: returns once every record emitted before it is written (raises the store's error);
    - `aflush`: `flush` for asyncio code (never blocks the event loop)."""

    def cached_proof(self, header: str, normalized_statement: str) -> str | None: ...

    def flush(self, timeout: float | None = None) -> None: ...

    async def aflush(self) -> None: ...


class ForwardingRecorder:
    """A `StoreRecorder` in front of another: records pass on through `emit` (a subclass looks at
    or rewrites them first), reads and flushes go to the inner one. Written out member by member:
    a wrapper forwards what the protocol declares, nothing found by name."""

    def __init__(self, inner: StoreRecorder) -> None:
        self.inner = inner

    def emit(self, record: Record) -> None:
        self.inner.emit(record)

    def cached_proof(self, header: str, normalized_statement: str) -> str | None:
        return self.inner.cached_proof(header, normalized_statement)

    def flush(self, timeout: float | None = None) -> None:
        self.inner.flush(timeout)

    async def aflush(self) -> None:
        await self.inner.aflush()


class MemoryRecorder:
    """Keeps records in a list: for runs without a database and for inspecting a run in tests."""

    def __init__(self) -> None:
        self.records: list[Record] = []
        self._proofs: dict[tuple[str, str], str] = {}

    def emit(self, record: Record) -> None:
        self.records.append(record)
        if isinstance(record, ProofRecord) and record.kind == "subgoal":
            self._proofs.setdefault((record.header, record.normalized_statement), record.proof)

    def cached_proof(self, header: str, normalized_statement: str) -> str | None:
        return self._proofs.get((header, normalized_statement))

    def flush(self, timeout: float | None = None) -> None:
        """Nothing to wait for: every record is kept as it is emitted."""

    async def aflush(self) -> None:
        """As `flush`."""

    def of_type(self, cls: type) -> list[Any]:
        return [r for r in self.records if isinstance(r, cls)]

"""The one interface every Lean backend implements, and the result types they return.

A check result says what Lean said (messages with positions, holes with their goals, proof states
where the backend has them), never a bare bool: the search engine needs the errors to correct a
sketch, the holes to recurse, and the audit needs the messages of `#print axioms`.

Positions follow the Lean REPL: line 1-based, column 0-based, relative to the code that was sent
(the whole file, header included: backends that split off the header shift positions back).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from lemmaforge.errors import BackendError, BackendMisconfigured, BackendUnavailable

if TYPE_CHECKING:
    from lemmaforge.lean.priority import LeanIdle, OrderKey


class VerifierError(BackendError):
    """The verifier itself is unusable (not installed, unreachable, misconfigured).

    Distinct from a proof that fails: callers turn this into exit code 2, not "not proved". Part of
    the one error tree (`lemmaforge.errors`): fatal to a run, never counted as a failed attempt.
    Backends raise the precise kind where they know it (`VerifierMisconfigured`: wrong URL, key or
    install; `VerifierUnavailable`: down after the retries).
    """


class VerifierMisconfigured(VerifierError, BackendMisconfigured):
    """Retrying cannot help: wrong URL or API key, Lean or the project not installed, a server that
    answers something other than the Kimina protocol."""


class VerifierUnavailable(VerifierError, BackendUnavailable):
    """The verifier did not answer after the retries (connection refused, timeouts, 5xx, 429)."""


class ProofStatesUnsupported(VerifierMisconfigured):
    """Raised by backends that cannot run tactics on a hole's proof state (Kimina, lake)."""


@dataclass(frozen=True, slots=True)
class Position:
    line: int  # 1-based
    column: int  # 0-based

    @classmethod
    def from_json(cls, obj: Any) -> Position | None:
        if not obj:
            return None
        return cls(int(obj["line"]), int(obj["column"]))

    def to_json(self) -> dict[str, int]:
        return {"line": self.line, "column": self.column}


class Severity(enum.StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    TRACE = "trace"


@dataclass(frozen=True, slots=True)
class Message:
    severity: Severity
    data: str
    pos: Position | None = None
    end_pos: Position | None = None

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Message:
        return cls(
            severity=Severity(obj.get("severity", "error")),
            data=str(obj.get("data", "")),
            pos=Position.from_json(obj.get("pos")),
            end_pos=Position.from_json(obj.get("endPos")),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"severity": self.severity.value, "data": self.data}
        if self.pos:
            out["pos"] = self.pos.to_json()
        if self.end_pos:
            out["endPos"] = self.end_pos.to_json()
        return out

    def format(self) -> str:
        where = f"{self.pos.line}:{self.pos.column}: " if self.pos else ""
        return f"{where}{self.severity.value}: {self.data}"


@dataclass(frozen=True, slots=True)
class Goal:
    """A `sorry` as Lean reported it: where it is, the goal it stands for, and (REPL only) the
    proof state on which tactics can be run.

    `worker` is an opaque handle that routes tactic steps back to the process that produced the
    state; `generation` lets that process detect a state id that a restart invalidated (ids
    restart at 0 and could silently point to a different state).
    """

    goal: str
    pos: Position | None = None
    end_pos: Position | None = None
    proof_state: int | None = None
    worker: Any = field(default=None, compare=False, repr=False)
    generation: int = field(default=0, compare=False)

    @classmethod
    def from_json(cls, obj: dict[str, Any], *, worker: Any = None, generation: int = 0) -> Goal:
        return cls(
            goal=str(obj.get("goal", "")),
            pos=Position.from_json(obj.get("pos")),
            end_pos=Position.from_json(obj.get("endPos")),
            proof_state=obj.get("proofState"),
            worker=worker,
            generation=generation,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"goal": self.goal}
        if self.pos:
            out["pos"] = self.pos.to_json()
        if self.end_pos:
            out["endPos"] = self.end_pos.to_json()
        if self.proof_state is not None:
            out["proofState"] = self.proof_state
        return out


class CheckStatus(enum.StrEnum):
    VALID = "valid"  # no error messages, no sorries
    INCOMPLETE = "incomplete"  # no error messages, but sorries / holes remain
    ERROR = "error"  # Lean reported at least one error
    TIMEOUT = "timeout"  # the check ran past its time limit (the worker was killed)
    CRASHED = "crashed"  # the Lean process died / returned garbage / the server failed


_SORRY_WARNINGS = ("declaration uses 'sorry'", "declaration uses `sorry`")


@dataclass(slots=True)
class CheckResult:
    """What Lean said about one piece of code."""

    status: CheckStatus
    messages: list[Message] = field(default_factory=list)
    holes: list[Goal] = field(default_factory=list)
    time: float = 0.0  # seconds spent in the backend for this check
    backend: str = ""
    error: str | None = None  # infrastructure problem (timeout, crash, REPL `{"message": ...}`)
    raw: dict[str, Any] | None = None  # the backend's response, for the record

    @property
    def errors(self) -> list[Message]:
        return [m for m in self.messages if m.severity is Severity.ERROR]

    @property
    def uses_sorry(self) -> bool:
        return bool(self.holes) or any(
            m.severity is Severity.WARNING and any(w in m.data for w in _SORRY_WARNINGS)
            for m in self.messages
        )

    @property
    def ok(self) -> bool:
        """Lean accepted the code with no error and no sorry. Not yet audited."""
        return self.status is CheckStatus.VALID and not self.errors and not self.uses_sorry

    @classmethod
    def from_repl_response(
        cls,
        resp: dict[str, Any],
        *,
        time: float = 0.0,
        backend: str = "",
        worker: Any = None,
        generation: int = 0,
        line_offset: int = 0,
    ) -> CheckResult:
        """Build a result from a REPL command response (`{"env", "messages", "sorries"}`) or a
        REPL error (`{"message": ...}`). `line_offset` is added to every line, for backends that
        sent the body separately from a header of that many lines."""
        if "message" in resp and "env" not in resp:
            return cls(
                status=CheckStatus.ERROR,
                messages=[Message(Severity.ERROR, str(resp["message"]))],
                time=time,
                backend=backend,
                error=str(resp["message"]),
                raw=resp,
            )
        messages = [_shift_message(Message.from_json(m), line_offset) for m in resp.get("messages", [])]
        holes = [
            _shift_goal(Goal.from_json(s, worker=worker, generation=generation), line_offset)
            for s in resp.get("sorries", [])
        ]
        if any(m.severity is Severity.ERROR for m in messages):
            status = CheckStatus.ERROR
        elif holes or any(any(w in m.data for w in _SORRY_WARNINGS) for m in messages):
            status = CheckStatus.INCOMPLETE
        else:
            status = CheckStatus.VALID
        return cls(status=status, messages=messages, holes=holes, time=time, backend=backend, raw=resp)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "ok": self.ok,
            "messages": [m.to_json() for m in self.messages],
            "holes": [h.to_json() for h in self.holes],
            "time": self.time,
            "backend": self.backend,
            "error": self.error,
        }


def _shift(pos: Position | None, offset: int) -> Position | None:
    if pos is None or offset == 0:
        return pos
    return Position(pos.line + offset, pos.column)


def _shift_message(m: Message, offset: int) -> Message:
    if offset == 0:
        return m
    return Message(m.severity, m.data, _shift(m.pos, offset), _shift(m.end_pos, offset))


def _shift_goal(g: Goal, offset: int) -> Goal:
    if offset == 0:
        return g
    return Goal(g.goal, _shift(g.pos, offset), _shift(g.end_pos, offset), g.proof_state, g.worker, g.generation)


@dataclass(slots=True)
class TacticResult:
    """What Lean said after running one tactic (or a tactic block) on a proof state."""

    goals: list[str] = field(default_factory=list)
    proof_status: str | None = None  # "Completed", "Incomplete: ...", "Error: ..."
    proof_state: int | None = None
    messages: list[Message] = field(default_factory=list)
    holes: list[Goal] = field(default_factory=list)
    error: str | None = None  # REPL `{"message": ...}`, timeout or crash
    time: float = 0.0

    @property
    def closed(self) -> bool:
        """The tactic closed the goal for real. `goals == []` alone is not enough: an
        elaboration error can leave `goals=[]` with status "Incomplete: contains sorry"."""
        return (
            self.error is None
            and not self.goals
            and self.proof_status == "Completed"
            and not any(m.severity is Severity.ERROR for m in self.messages)
        )


@runtime_checkable
class Verifier(Protocol):
    """A Lean backend. `code` is always a whole Lean file: header (imports, options, opens)
    plus body. Backends that can reuse an elaborated header do so on their own.

    What the product uses beyond these is declared below, one Protocol per capability, each with
    the fallback a verifier without it gets (`ReportsRoom`, `QueuedVerifier`, `ProbingVerifier`);
    the gate's own members (`admit`, `trust`, `check_probed`, `statement_checker`) are those of
    `gate.GatedVerifier`. Wrappers delegate each one explicitly (no attribute forwarding).

    Product code never holds a bare backend: `backends.make_verifier` wraps every one in
    `gate.GatedVerifier`, which refuses (without calling the backend) any text outside the
    whitelist."""

    @property
    def name(self) -> str: ...

    @property
    def supports_proof_states(self) -> bool: ...

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult: ...

    async def check_many(self, codes: Sequence[str], *, timeout: float | None = None) -> list[CheckResult]: ...

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        """Run `tactic` on `hole.proof_state`. Raises ProofStatesUnsupported where the backend
        has no proof states."""
        ...

    async def close(self) -> None: ...


@runtime_checkable
class ReportsRoom(Protocol):
    """A verifier that can say whether a check submitted now would start at once (a free worker,
    nothing queued): speculation (checks and model requests started ahead of need) only runs into
    room. Fallback for a verifier without it: no room, so nothing is started ahead on it."""

    def has_room(self) -> bool: ...


@runtime_checkable
class ProbingVerifier(Protocol):
    """A verifier that runs the audit's probe its own way (the REPL): `probe` as a separate command
    in the environment `code` produced, its messages returned apart (None: the probe did not run).
    Fallback (`gate.probe_axioms`, `judge.run_probed`): the probe is appended to the file and
    only the messages at its own position count. `order`: as `QueuedVerifier.check`'s, passed only
    to a backend that is one."""

    async def check_with_probe(
        self, code: str, probe: str, *, timeout: float | None = None, order: OrderKey | None = None
    ) -> tuple[CheckResult, list[Message] | None]: ...


@runtime_checkable
class QueuedVerifier(Verifier, Protocol):
    """A backend whose checks wait in a check queue (lean/check_queue.py: the Kimina batcher, the
    REPL pool). A check's place in it travels with the request (`order`, an opaque
    `lean.priority.OrderKey`; None: `priority.UNORDERED`), and the queue's `idle` event says
    when Lean has a free place and nothing left to send. Fallback for a verifier without a queue:
    the order is ignored and its `idle` is an event that never fires (`priority.LeanIdle()`)."""

    @property
    def idle(self) -> LeanIdle: ...

    async def check(self, code: str, *, timeout: float | None = None, order: OrderKey | None = None) -> CheckResult: ...

    async def check_many(
        self, codes: Sequence[str], *, timeout: float | None = None, order: OrderKey | None = None
    ) -> list[CheckResult]: ...


# --- statement identity decided by Lean (the audit's last step, where Lean is local) -----------


@dataclass(frozen=True, slots=True)
class StatementVerdict:
    """`same`: True (Lean says the submission states the reference), False (it does not), None
    (Lean could not decide: a compile failure, a crash, a timeout; or `skipped`)."""

    same: bool | None
    detail: str
    skipped: bool = False  # SafeVerify stopped before comparing for a reason the policy allows

    def to_json(self) -> dict[str, object]:
        return {"same": self.same, "detail": self.detail, "skipped": self.skipped}


class StatementChecker(Protocol):
    """Lean-side statement identity for the final audit: SafeVerify, or the stand-in that reports
    it is not installed. The gate holds one (`GatedVerifier.statement_checker`), the audit reads it,
    a run's budget charges it; declared here so that none of them imports the audit's SafeVerify."""

    name: str

    async def compare(self, original: str, candidate: str, *, allowed_axioms: set[str],
                      timeout: float | None = None) -> StatementVerdict: ...

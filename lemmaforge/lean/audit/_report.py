"""What an audit says (`lean/audit/` decides it): the overall status, the named reasons for a
rejection, the report with its JSON form, and how the reasons rank into one status.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from lemmaforge.lean.verifier import CheckResult


class AuditStatus(enum.StrEnum):
    PROVED = "proved"
    INCOMPLETE = "incomplete"
    ERROR = "error"
    REJECTED = "rejected"
    TIMEOUT = "timeout"


class Reason(enum.StrEnum):
    NO_THEOREM = "no_theorem"
    STATEMENT_CHANGED = "statement_changed"
    CONTEXT_CHANGED = "context_changed"
    BANNED_COMMAND = "banned_command"
    RUNS_CODE = "runs_code"
    BANNED_OPTION = "banned_option"
    BANNED_ATTRIBUTE = "banned_attribute"
    BANNED_MODIFIER = "banned_modifier"
    UNREADABLE = "unreadable"
    SORRY = "sorry"
    LEAN_ERROR = "lean_error"
    TIMEOUT = "timeout"
    VERIFIER_FAILURE = "verifier_failure"
    AXIOMS_UNKNOWN = "axioms_unknown"
    FORBIDDEN_AXIOM = "forbidden_axiom"
    EXAMPLE = "example_refused"  # an `example` in a final proof: it has no name to probe
    STATEMENT_UNKNOWN = "statement_unknown"  # Lean printed no elaborated type for the theorem
    DECLARATIONS_UNKNOWN = "declarations_unknown"  # Lean's declaration listing missing or malformed
    UNDECLARED = "lean_declared"  # Lean lists a declaration/entry the whitelist does not allow


@dataclass(frozen=True, slots=True)
class Rejection:
    reason: Reason
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"reason": self.reason.value, "detail": self.detail}

    def __str__(self) -> str:
        return f"{self.reason.value}: {self.detail}"


@dataclass(slots=True)
class AuditReport:
    status: AuditStatus
    theorem: str | None = None
    reasons: list[Rejection] = field(default_factory=list)
    axioms: list[str] | None = None
    check: CheckResult | None = None
    statement_check: dict[str, Any] | None = None  # Lean's own verdict (SafeVerify), where it ran
    lean_type: str | None = None  # the theorem's type as Lean elaborated it (`pp.all`), where probed

    @property
    def ok(self) -> bool:
        return self.status is AuditStatus.PROVED

    def to_json(self) -> dict[str, Any]:
        check = self.check
        return {
            "ok": self.ok,
            "status": self.status.value,
            "theorem": self.theorem,
            "errors": [m.format() for m in check.errors] if check else [],
            "holes": len(check.holes) if check else 0,
            "axioms": self.axioms or [],
            "reasons": [r.to_json() for r in self.reasons],
            "time": check.time if check else 0.0,
            "backend": check.backend if check else None,
            "statement_check": self.statement_check,
            "lean_type": self.lean_type,
        }


_ORDER = (
    (AuditStatus.REJECTED, {Reason.NO_THEOREM, Reason.STATEMENT_CHANGED, Reason.CONTEXT_CHANGED,
                            Reason.BANNED_COMMAND, Reason.RUNS_CODE, Reason.BANNED_OPTION, Reason.BANNED_ATTRIBUTE,
                            Reason.BANNED_MODIFIER, Reason.UNREADABLE, Reason.FORBIDDEN_AXIOM,
                            Reason.AXIOMS_UNKNOWN, Reason.EXAMPLE, Reason.STATEMENT_UNKNOWN,
                            Reason.DECLARATIONS_UNKNOWN, Reason.UNDECLARED}),
    (AuditStatus.ERROR, {Reason.LEAN_ERROR, Reason.VERIFIER_FAILURE}),
    (AuditStatus.TIMEOUT, {Reason.TIMEOUT}),
    (AuditStatus.INCOMPLETE, {Reason.SORRY}),
)


_STATIC_REJECTIONS = frozenset(
    {Reason.NO_THEOREM, Reason.STATEMENT_CHANGED, Reason.CONTEXT_CHANGED, Reason.BANNED_COMMAND, Reason.RUNS_CODE,
     Reason.BANNED_OPTION, Reason.BANNED_ATTRIBUTE, Reason.BANNED_MODIFIER, Reason.UNREADABLE, Reason.EXAMPLE}
)


def _status(reasons: list[Rejection]) -> AuditStatus:
    """Cheating outranks failing: a file with a new axiom AND an error is `rejected`."""
    present = {r.reason for r in reasons}
    for status, kinds in _ORDER:
        if present & kinds:
            return status
    return AuditStatus.PROVED

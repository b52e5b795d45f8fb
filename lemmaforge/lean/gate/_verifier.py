"""The gate at the verifier boundary: `GatedVerifier` applies the text rules (`_rules.py`) to every
text before its backend sees it, and sends the product's own axiom probe (`_probes.py`) for a
validated declaration name. `backends.make_verifier` always returns one, so no code path can send
text to Lean without it. `BehindGate` / `gate_of`: the gate behind a wrapper (a run's budget), and
`gate_violations`: the refusals a result records.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from lemmaforge import sending
from lemmaforge.lean.gate._probes import probe_axioms, valid_probe_name
from lemmaforge.lean.gate._rules import Context, Violation, admit_problem, check_candidate, check_tactic
from lemmaforge.lean.priority import LeanIdle
from lemmaforge.lean.priority import OrderKey as CheckOrder
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Goal,
    Message,
    QueuedVerifier,
    ReportsRoom,
    Severity,
    StatementChecker,
    TacticResult,
    Verifier,
)

# --- the gate at the verifier boundary -----------------------------------------------------------


def _gate_result(violations: Sequence[Violation], backend: str) -> CheckResult:
    messages = [Message(Severity.ERROR, f"lemmaforge gate: {v}") for v in violations]
    return CheckResult(
        status=CheckStatus.ERROR,
        messages=messages,
        backend=backend,
        raw={"gate": [v.to_json() for v in violations]},
    )


def gate_violations(result: CheckResult) -> list[dict[str, Any]]:
    """The gate's refusals recorded in a result (empty when Lean was asked)."""
    return list((result.raw or {}).get("gate", []))


@runtime_checkable
class BehindGate(Protocol):
    """A wrapper whose texts all pass one gate (a run's budget, search/budget.py): the audit reads
    the gate's own members through it (its dataset setting, the trusted context, the statement
    checker) and sends the product's probe through the wrapper, so that it is charged like any
    check (`probed_check`: the gate's backend runs the probe as its own command, where it can)."""

    @property
    def gate(self) -> GatedVerifier | None: ...

    @property
    def statement_checker(self) -> StatementChecker | None:
        """The gate's statement checker, its comparisons charged like the wrapper's checks."""
        ...

    async def probed_check(
        self, code: str, probe: str, *, timeout: float | None = None
    ) -> tuple[CheckResult, list[Message] | None]: ...


def gate_of(verifier: Verifier) -> GatedVerifier | None:
    """The gate `verifier`'s texts pass: itself, the one behind a wrapper (`BehindGate`), or none."""
    if isinstance(verifier, GatedVerifier):
        return verifier
    if isinstance(verifier, BehindGate):
        return verifier.gate
    return None


class GatedVerifier:
    """A verifier that gates every text before the backend sees it. Created by
    `backends.make_verifier` around every backend. Problems are registered with `admit`
    (dataset gate, then their context is trusted) or `trust` (a context already vetted)."""

    def __init__(self, inner: Verifier, *, trust_dataset: bool = False) -> None:
        self.inner = inner
        self.trust_dataset = trust_dataset
        self.context = Context()
        self.refused = 0  # texts the gate kept from the backend
        # Lean-side statement identity for the final audit (lean/safeverify.py), where Lean is local.
        self.statement_checker: StatementChecker | None = None
        self._never_idle = LeanIdle()  # the "Lean has room" event of a backend without a queue: never fired
        self._queued = inner if isinstance(inner, QueuedVerifier) else None  # asked once: ~0.1 ms a time

    # What the product reads of the backend is declared here, member by member (lean/verifier.py's
    # capability Protocols). The backend's other extras (pool statistics, ping, position mode) are
    # read on the backend itself by whoever built it (doctor, scripts), never through the gate; its
    # `check_with_probe` is not exposed (`check_probed` is the gated way).

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def supports_proof_states(self) -> bool:
        return self.inner.supports_proof_states

    def has_room(self) -> bool:
        """Whether a check submitted now would start at once (`ReportsRoom`; False where the
        backend cannot say)."""
        return self.inner.has_room() if isinstance(self.inner, ReportsRoom) else False

    def admit(self, problem: str, *, row: str) -> None:
        self.context.update(admit_problem(problem, row=row, trust=self.trust_dataset))

    def trust(self, context: Context) -> None:
        self.context.update(context)

    def violations(self, code: str) -> list[Violation]:
        return check_candidate(code, self.context)

    @property
    def idle(self) -> LeanIdle:
        """The backend's "Lean has room" event where its checks queue (`QueuedVerifier`), else an
        event that never fires."""
        return self.inner.idle if isinstance(self.inner, QueuedVerifier) else self._never_idle

    async def check(self, code: str, *, timeout: float | None = None, order: CheckOrder | None = None) -> CheckResult:
        """`order`: the check's place in the backend's queue, where it has one (`QueuedVerifier`)."""
        violations = self.violations(code)
        if violations:
            self.refused += 1
            sending.not_sent()  # refused here: nothing leaves (a run's budget gives its unit back)
            return _gate_result(violations, self.inner.name)
        if order is not None and self._queued is not None:
            return await self._queued.check(code, timeout=timeout, order=order)
        return await self.inner.check(code, timeout=timeout)

    async def check_many(
        self, codes: Sequence[str], *, timeout: float | None = None, order: CheckOrder | None = None
    ) -> list[CheckResult]:
        verdicts = [self.violations(c) for c in codes]
        allowed = [c for c, v in zip(codes, verdicts, strict=True) if not v]
        results = iter(await self._check_many(allowed, timeout, order) if allowed else [])
        out: list[CheckResult] = []
        for v in verdicts:
            if v:
                self.refused += 1
                out.append(_gate_result(v, self.inner.name))
            else:
                out.append(next(results))
        return out

    async def _check_many(self, codes: Sequence[str], timeout: float | None, order: CheckOrder | None) -> list[CheckResult]:
        if order is not None and self._queued is not None:
            return await self._queued.check_many(codes, timeout=timeout, order=order)
        return await self.inner.check_many(codes, timeout=timeout)

    async def check_probed(
        self, code: str, declaration: str, *, timeout: float | None = None
    ) -> tuple[CheckResult, list[Message] | None]:
        """Check `code` and the product's own `#print axioms declaration` probe. Returns the
        result and the probe's own messages (None: the probe did not run)."""
        violations = self.violations(code)
        if violations:
            self.refused += 1
            sending.not_sent()
            return _gate_result(violations, self.inner.name), None
        if not valid_probe_name(declaration):
            raise ValueError(f"not a declaration name: {declaration!r}")
        return await probe_axioms(self.inner, code, declaration, timeout=timeout)

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        violations = check_tactic(tactic)
        if violations:
            self.refused += 1
            sending.not_sent()
            return TacticResult(
                messages=[Message(Severity.ERROR, f"lemmaforge gate: {v}") for v in violations],
                proof_status="Error: refused by the gate",
                error=None,
            )
        return await self.inner.run_tactic(hole, tactic, timeout=timeout)

    async def close(self) -> None:
        await self.inner.close()

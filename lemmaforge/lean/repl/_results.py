"""REPL answers → the verifier's result types: the JSON of one answer, whether it holds errors, a
one-line summary of them, and the `CheckResult` / `TacticResult` of a round-trip's `Outcome`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lean_interact.interface import LeanError

from lemmaforge.lean.repl._process import Outcome
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Goal, Message, TacticResult

BACKEND = "repl"
# Says "proof state lost", which automation.on_proof_state looks for to stop trying tactics.
LOST_WITH_PROCESS = "proof state lost with the process"


@dataclass(frozen=True, slots=True)
class WorkerHandle:
    """What a Goal carries to route tactic steps back (picklable, unlike a process)."""

    pool: int  # which ReplVerifier
    slot: int  # which worker in it


def check_result(outcome: Outcome, handle: WorkerHandle, generation: int, offset: int) -> CheckResult:
    """The result of one check's round-trip; positions shifted back by the header's `offset` lines.
    A header that failed to elaborate gives an ERROR naming the header's first error."""
    if outcome.failure is not None:
        return CheckResult(status=outcome.failure, time=outcome.seconds, backend=BACKEND, error=outcome.error)
    assert outcome.response is not None
    if outcome.header_failed:
        # The header is at the top of the file: its positions need no shift.
        result = CheckResult.from_repl_response(outcome.response, time=outcome.seconds, backend=BACKEND)
        result.status = CheckStatus.ERROR
        result.error = "the header failed to elaborate: " + summarize_errors(result.messages, outcome.response)
        return result
    return CheckResult.from_repl_response(
        outcome.response,
        time=outcome.seconds,
        backend=BACKEND,
        worker=handle,
        generation=generation,
        line_offset=offset,
    )


def tactic_result(outcome: Outcome, handle: WorkerHandle, generation: int) -> TacticResult:
    if outcome.failure is not None:
        return TacticResult(error=f"{outcome.error} ({LOST_WITH_PROCESS})")
    response = outcome.response or {}
    if "message" in response and "proofStatus" not in response:
        return TacticResult(error=str(response["message"]))
    return TacticResult(
        goals=[str(g) for g in response.get("goals", [])],
        proof_status=response.get("proofStatus"),
        proof_state=response.get("proofState"),
        messages=[Message.from_json(m) for m in response.get("messages", [])],
        holes=[Goal.from_json(s, worker=handle, generation=generation) for s in response.get("sorries", [])],
    )


def response_dict(response: Any) -> dict[str, Any]:
    """lean-interact's pydantic response back to the REPL's JSON (camelCase, empty lists omitted)."""
    if isinstance(response, LeanError):
        return {"message": response.message}
    data = response.model_dump(by_alias=True, exclude_none=True, mode="json")
    return {k: v for k, v in data.items() if v != []}


def has_errors(response: dict[str, Any]) -> bool:
    if "message" in response and "env" not in response:
        return True
    return any(m.get("severity") == "error" for m in response.get("messages", []))


def summarize_errors(messages: list[Message], response: dict[str, Any]) -> str:
    errors = [m.format() for m in messages if m.severity.value == "error"]
    if errors:
        return errors[0].splitlines()[0] + (f" (+{len(errors) - 1} more)" if len(errors) > 1 else "")
    return str(response.get("message", "no environment returned"))


def copy_result(result: CheckResult) -> CheckResult:
    return CheckResult(
        status=result.status,
        messages=list(result.messages),
        holes=list(result.holes),
        time=0.0,
        backend=result.backend,
        error=result.error,
        raw=result.raw,
    )

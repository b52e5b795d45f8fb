"""The status a finished bench records, from counts that include invalid statements.

A bench may only say `proved` when there was something valid to solve, every planned attempt
finished and every problem -- the invalid ones included -- was solved. A bench with nothing valid
to solve (every statement failed to compile: usually a broken verifier or header, not the
dataset), or in which no attempt finished, never reports success: it is `failed`, so a CI gate
that reads the status or the exit code cannot pass on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Verdict:
    status: str  # proved | not_proved | failed
    error: str | None = None  # why `failed` (None: the bench ran; incomplete is said elsewhere)
    nothing_to_solve: bool = False  # no valid problem or no finished attempt: a stop, not a number


def bench_verdict(rep: dict[str, Any]) -> Verdict:
    """`rep` is `report.summarize`'s dict: `problems` counts the valid problems only, `invalid`
    lists the others."""
    invalid = len(rep.get("invalid") or [])
    valid = int(rep.get("problems") or 0) - invalid  # `problems` counts every selected one, invalid included
    done = int(rep.get("attempts_done") or 0)
    if valid == 0:
        if invalid:
            return Verdict("failed", f"nothing valid to solve: all {invalid} statement(s) failed to compile "
                                     "(check the verifier and the dataset's header)", True)
        return Verdict("failed", "nothing to solve: the bench has no problem", True)
    if not rep.get("complete"):
        return Verdict("failed")
    if done == 0:  # complete with no finished attempt cannot happen with valid problems; guard anyway
        return Verdict("failed", "no attempt finished", True)
    solved = int(rep.get("solved") or 0)
    return Verdict("proved" if solved == valid and invalid == 0 else "not_proved")

"""How a bench spends its attempts: the protocol, recorded with the bench and stated in its report.

* `search` (the default): every attempt is one full lemmaforge search (root whole-proof samples,
  planner sketches, automation, the prover on subgoals, self-correction), within `[budget]`.
* `whole-proof`: the papers' pass@K (DeepSeek-Prover-V1.5/V2, Goedel-Prover-V2, Kimina-Prover
  report it so): every attempt is exactly ONE prover sample of a whole proof of the theorem,
  checked whole; no planner, no automation, no subgoals, no self-correction. `--attempts K` gives
  exactly K samples per problem, and pass@k for k <= K is the unbiased estimate over them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lemmaforge.benchmarks.spec import PROTOCOLS, BenchError

if TYPE_CHECKING:
    from lemmaforge.config import Settings

__all__ = ["DESCRIPTIONS", "WHOLE_PROOF_BUDGET", "apply_protocol", "check_protocol"]

#: what `whole-proof` fixes, so that one attempt is one sample
WHOLE_PROOF_BUDGET: dict[str, int] = {"root_whole_proof_attempts": 1, "self_corrections": 0, "max_depth": 0}

DESCRIPTIONS = {
    "search": "lemmaforge search per attempt (whole-proof samples, sketches, automation, subgoal prover, "
              "self-correction) within the budget",
    "whole-proof": "the papers' pass@k: one prover sample per attempt, checked whole; no planner, no search, "
                   "no correction",
}


def check_protocol(name: str) -> str:
    if name not in PROTOCOLS:
        raise BenchError(f"unknown protocol '{name}' (choose {' or '.join(PROTOCOLS)})")
    return name


def apply_protocol(
    protocol: str, settings: Settings, *, budget_flags: dict[str, Any] | None = None, planner_flag: bool = False
) -> Settings:
    """The settings a bench of `protocol` runs with (a copy; `search` leaves them as they are).

    whole-proof: no planner (a configured one is not used), and the budget of one sample per
    attempt. Flags that contradict it (`--planner-url`, `--budget` on what it fixes) and a missing
    prover are BenchErrors: one line, exit 2."""
    check_protocol(protocol)
    if protocol == "search":
        return settings
    clash = sorted(k for k in (budget_flags or {}) if k in WHOLE_PROOF_BUDGET)
    if clash:
        fixed = ", ".join(f"{k}={v}" for k, v in WHOLE_PROOF_BUDGET.items())
        raise BenchError(f"--protocol whole-proof fixes {fixed}: drop --budget {', '.join(clash)}")
    if planner_flag:
        raise BenchError("--protocol whole-proof uses no planner: drop --planner-url")
    if not settings.prover.url:
        raise BenchError("--protocol whole-proof needs a prover: set --prover-url (or [prover].url)")
    out = settings.model_copy(deep=True)
    out.planner.url = None
    for key, value in WHOLE_PROOF_BUDGET.items():
        setattr(out.budget, key, value)
    return out

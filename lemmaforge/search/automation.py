"""The automation portfolio: cheap tactics tried on a goal before any model is asked.

Two ways to run it, so every backend can:
- on the hole's proof state (REPL): each tactic is a `ProofStep` on the state, in order of cost,
  stopping at the first that closes the goal (kernel-checked: `proofStatus == "Completed"`), or
  at the first that finds the state lost (its process restarted or died: `state_lost`);
- on the standalone lemma (Kimina, lake: no proof states; or a REPL state that was lost): ONE
  Lean check of the lemma proved by `first_combinator(portfolio)`, which costs one check instead
  of one per tactic (the engine runs it, through its deduplicating check). The combinator itself
  is then the proof (it is deterministic, so it re-checks in the assembled file).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lemmaforge.lean.verifier import CheckResult, Goal, TacticResult, Verifier

DEFAULT_PORTFOLIO: tuple[str, ...] = (
    "omega",
    "norm_num",
    "linarith",
    "positivity",
    "simp",
    "nlinarith",
    "aesop",
    # ProofAug's `my_hint` chain: normalise everything, clear denominators, then nonlinear
    # arithmetic; the `try`s let a step that finds nothing to do pass (ProofAug's HINT_DICT).
    "try norm_num [*]; try field_simp [*] at *; try ring_nf at *; nlinarith",
)


LOST_STATE = "proof state lost"  # in a TacticResult's error when the worker holding it restarted


@dataclass(slots=True)
class AutomationOutcome:
    proof: str | None  # tactic text that closed the goal
    checks: int  # Lean requests spent
    tried: list[str]
    last_error: str | None = None
    result: CheckResult | TacticResult | None = None
    state_lost: bool = False  # the proof state is gone: only the standalone lemma is left to try


def first_combinator(tactics: Sequence[str]) -> str:
    """`first | (t1; done) | (t2; done) …`: parenthesised so `;` chains stay whole, and each
    alternative must CLOSE the goal (`done`): `simp` that makes progress without finishing would
    otherwise be chosen by `first` and leave the goal open."""
    return "first\n" + "\n".join(f"  | ({t}; done)" for t in tactics)


async def on_proof_state(
    verifier: Verifier,
    hole: Goal,
    tactics: Sequence[str],
    *,
    timeout: float | None,
    before_each: Callable[[], None] = lambda: None,
) -> AutomationOutcome:
    """`before_each` runs before every tactic step (the engine spends one Lean check there; it
    may raise to stop, e.g. when the check budget is exhausted)."""
    tried: list[str] = []
    last: TacticResult | None = None
    for tactic in tactics:
        before_each()
        tried.append(tactic)
        last = await verifier.run_tactic(hole, tactic, timeout=timeout)
        if last.closed:
            return AutomationOutcome(tactic, len(tried), tried, None, last)
        if last.error and LOST_STATE in last.error:
            # The worker restarted: the state is gone, the caller falls back to the lemma path.
            return AutomationOutcome(None, len(tried), tried, last.error, last, state_lost=True)
    return AutomationOutcome(None, len(tried), tried, last.error if last else None, last)

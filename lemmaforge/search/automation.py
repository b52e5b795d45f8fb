"""The automation portfolio: cheap tactics tried on a goal before any model is asked.

Two ways to run it, so every backend can:
- on the hole's proof state (REPL): each tactic is a `ProofStep` on the state, in order of cost,
  stopping at the first that closes the goal (kernel-checked: `proofStatus == "Completed"`), or
  at the first that finds the state lost (its process restarted or died: `state_lost`);
- on the standalone lemma (Kimina, lake: no proof states; or a REPL state that was lost): ONE
  Lean check of the lemma proved by `first_combinator(portfolio)`, which costs one check instead
  of one per tactic when the portfolio fails (the engine runs it, through its deduplicating
  check). When it succeeds, the combinator is NOT the proof: `single_closer` checks each tactic
  alone, concurrently, and the cheapest one that closes the goal is stored and assembled. A
  portfolio in training data teaches a model to emit portfolios, and in an assembled proof the
  final check would re-run every failing alternative before the one that works.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
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


_PORTFOLIO_RE = re.compile(r"\bfirst\s*\|\s*\([^\n]*;\s*done\)")


def is_portfolio(proof: str) -> bool:
    """Whether `proof` contains a `first_combinator` portfolio (`first | (t; done) | …`): what
    an automation-closed hole was stored as before `single_closer` (export drops such rows)."""
    return bool(_PORTFOLIO_RE.search(proof))


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


async def single_closer(closes: Callable[[str], Awaitable[bool]], tactics: Sequence[str]) -> tuple[str | None, int]:
    """(the first tactic of `tactics`, in portfolio order = cheapest first, for which
    `await closes(tactic)` is True, number of checks started). Every check starts at once (one
    Lean round trip instead of one per tactic; the caller counts each in its budget); once a
    tactic closes and every cheaper one has answered, the dearer ones still running are
    cancelled. (None, n) when no tactic closes alone. An exception of a check (e.g. the budget
    ran out) is raised only when no tactic that did run closes the goal."""
    tasks = [asyncio.ensure_future(closes(t)) for t in tactics]
    error: BaseException | None = None
    try:
        for tactic, task in zip(tactics, tasks, strict=True):
            try:
                if await task:
                    return tactic, len(tasks)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - a dearer tactic may still close the goal
                error = error or exc
        if error is not None:
            raise error
        return None, len(tasks)
    finally:
        for task in tasks:
            if not task.done():
                task.cancel()
        # let the cancelled checks unwind (their exceptions are theirs: retrieve, do not raise)
        await asyncio.gather(*tasks, return_exceptions=True)


async def on_lemma(
    closes: Callable[[str], Awaitable[tuple[bool, CheckResult]]], tactics: Sequence[str]
) -> tuple[AutomationOutcome, str]:
    """The portfolio as ONE check of the standalone lemma (`closes(tactic)`: the lemma proved by
    `tactic` checks, and its check); when it closes the goal, the single tactic that does
    (`single_closer`) is the proof. Returns the outcome and the proof text its attempt records
    (the portfolio's, when no single tactic is found or it failed)."""
    proof = first_combinator(tactics) if len(tactics) > 1 else tactics[0]
    closed, result = await closes(proof)
    error = None if closed else (result.error or "; ".join(m.data for m in result.errors[:2]) or result.status.value)
    checks = 1
    if closed and len(tactics) > 1:
        # The portfolio is never the proof: the one tactic that closes the goal is (each check
        # through the run's door, so each is counted in the budget).
        async def single(tactic: str) -> bool:
            return (await closes(tactic))[0]

        found, n = await single_closer(single, tactics)
        checks += n
        if found is None:
            error = "the portfolio closed the goal but no single tactic of it did"
        else:
            proof = found
    return AutomationOutcome(proof if error is None else None, checks, list(tactics), error, result), proof

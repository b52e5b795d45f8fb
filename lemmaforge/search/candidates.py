"""What a model's answer becomes before Lean sees it, and what Lean's answer means for it."""

from __future__ import annotations

from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Severity
from lemmaforge.search.assemble import Solution
from lemmaforge.search.interfaces import CandidateLike


def aux(candidate: CandidateLike) -> str:
    """The helper declarations a candidate's model wrote before its theorem ("" for none)."""
    return candidate.aux.strip("\n")


def candidate_file(header: str, lemma: str, candidate: CandidateLike) -> str:
    """The file a candidate is checked as. The statement is OURS, not the model's: the body is
    filled into our lemma so a model that rewrote the statement cannot pass. The helper lemmas the
    model wrote before its theorem (`aux`) come first: its proof may use them, and they go through
    the gate and Lean like the rest (and into the proof with it: `solution_of`)."""
    helpers = aux(candidate)
    return header + (helpers + "\n\n" if helpers else "") + lean_syntax.fill(lemma, [candidate.body or ""])


def solution_of(candidate: CandidateLike) -> Solution:
    """A checked candidate's solution: its body, and its helper lemmas to be placed before the
    root theorem (as lemma-style assembly places proved lemmas)."""
    helpers = aux(candidate)
    return Solution(candidate.body or "", (helpers,) if helpers else ())


def proves(result: CheckResult, context_lines: int) -> bool:
    """Lean accepted the code: no error, and no hole or sorry warning past the context (its first
    `context_lines` lines: the problem's own context may carry `sorry`s, e.g. ProverBench helper
    lemmas; the final audit still rejects a theorem that depends on them)."""
    if result.status in (CheckStatus.TIMEOUT, CheckStatus.CRASHED) or result.errors:
        return False
    past = lambda pos: pos is None or pos.line > context_lines  # noqa: E731
    if any(past(h.pos) for h in result.holes):
        return False
    return not any(
        m.severity is not Severity.ERROR and "declaration uses" in m.data and "sorry" in m.data and past(m.pos)
        for m in result.messages
    )

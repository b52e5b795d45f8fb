"""Assembly of solved pieces: a sketch whose holes are all solved becomes one proof.

Inline first (each hole filled with its proof); when that does not check, lemma style (each
hole's lemma, proved, placed before the theorem, and the hole closed by applying it). Also the
text helpers the engine needs around assembly: the tactic proof of a checked theorem, the name of
a declaration, the pairing of a sketch's textual holes with the goals Lean reported, and the
verdict a check result records.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.syntax import Lines, TermProof, fill_with_body_span, rebase
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Goal
from lemmaforge.records import Verdict


@dataclass(slots=True)
class Solution:
    """A goal's proof: tactic text for its hole, plus lemmas it relies on (lemma-style assembly),
    which must be placed before the root theorem."""

    body: str
    lemmas: tuple[str, ...] = ()


# Checks one assembled file (header included), records the attempt, and says whether Lean proved it.
CheckAssembly = Callable[[str], Awaitable[bool]]


async def assemble(
    header: str, sketch_code: str, hole_lemmas: Sequence[str], solutions: Sequence[Solution],
    check: CheckAssembly, *, theorem: str | None = None,
) -> Solution | None:
    """Inline first; lemma style when inline fails to check. `hole_lemmas` are the holes' lemma
    statements (the child goals' text), in hole order, paired with their `solutions`.

    `theorem` (the root's own statement): each file checked states it, with the sketch's proof,
    instead of the sketch's copy of it — the very file the whole proof will be (`header`, its
    lemmas, `fill(theorem, [body])`), so that its check can be the final audit."""

    if await check(inline_file(header, sketch_code, solutions, theorem=theorem)):
        inline = inline_solution(sketch_code, solutions)
        if inline is not None:
            return inline

    # Lemma style: each hole's lemma, proved, goes before; the hole applies it.
    proved_lemmas = [lean_syntax.fill(text, [s.body]) for text, s in zip(hole_lemmas, solutions, strict=True)]
    names = [decl_name(lemma) for lemma in proved_lemmas]
    closers = [f"apply {name} <;> assumption" for name in names]
    lemma_style = lean_syntax.fill(sketch_code, closers)
    all_lemmas = _distinct([lemma for s in solutions for lemma in s.lemmas] + proved_lemmas)
    if await check(header + "\n\n".join(all_lemmas) + "\n\n" + _stated(lemma_style, theorem)):
        body = proof_body(lemma_style)
        if body is not None:
            return Solution(body, all_lemmas)
    return None


def inline_file(header: str, sketch_code: str, solutions: Sequence[Solution], *, theorem: str | None = None) -> str:
    """The file `assemble` checks first: the sketch with each hole filled inline, after the
    solutions' lemmas (and, with `theorem`, stating the root's own theorem)."""
    lemmas = _distinct([lemma for s in solutions for lemma in s.lemmas])
    prefix = "\n\n".join(lemmas) + "\n\n" if lemmas else ""
    if theorem is None:
        return header + prefix + lean_syntax.fill(sketch_code, [s.body for s in solutions])
    filled, body = _filled_and_body(sketch_code, solutions)
    return header + prefix + (filled if body is None else lean_syntax.fill(theorem, [body]))


def inline_solution(sketch_code: str, solutions: Sequence[Solution]) -> Solution | None:
    """The goal's solution when `inline_file` checks (None: the filled sketch has no proof body)."""
    _, body = _filled_and_body(sketch_code, solutions)
    return None if body is None else Solution(body, _distinct([lemma for s in solutions for lemma in s.lemmas]))


def _filled_and_body(sketch_code: str, solutions: Sequence[Solution]) -> tuple[str, str | None]:
    """The sketch filled inline, and its proof body. The proof's span comes from the sketch's
    reading and the edits where certain (lean/syntax/_filled.py): the filled text holds the whole
    subtree's proof, and is not read again for it."""
    filled, span = fill_with_body_span(sketch_code, [s.body for s in solutions])
    return filled, proof_body(filled) if span is None else _body_at(filled, *span)


def _distinct(lemmas: Sequence[str]) -> tuple[str, ...]:
    """`lemmas` in order, each text once: two holes proved with the same helper lemma (a prover's
    `lemma aux …` written twice) must not declare it twice."""
    return tuple(dict.fromkeys(lemmas))


def _stated(code: str, theorem: str | None) -> str:
    body = proof_body(code) if theorem is not None else None
    return code if body is None or theorem is None else lean_syntax.fill(theorem, [body])


_VERDICTS: dict[CheckStatus, Verdict] = {
    CheckStatus.VALID: "valid",
    CheckStatus.INCOMPLETE: "incomplete",
    CheckStatus.ERROR: "error",
    CheckStatus.TIMEOUT: "timeout",
    CheckStatus.CRASHED: "crashed",
}


def verdict_of(result: CheckResult) -> Verdict:
    return _VERDICTS[result.status]


def proof_body(code: str) -> str | None:
    """The proof of the last theorem in `code` as tactics (what fills the parent's hole): the
    tactic block after `:= by` re-based to column 0, or `exact <term>` for a term proof. Read
    with `lean.syntax` (comments, strings and commands as Lean sees them)."""
    decl = lean_syntax.last_theorem(code)
    if decl is None or decl.body_start is None:
        return None
    toks = lean_syntax.tokens(code[decl.body_start : decl.end])
    if not toks:
        return None
    lines = Lines(code)
    if toks[0].kind == "ident" and toks[0].text == "by":
        if len(toks) == 1:
            return None
        return rebase(code, decl.body_start + toks[1].start, decl.end, lines).strip("\n") or None
    term = rebase(code, decl.body_start + toks[0].start, decl.end, lines).strip("\n")
    return TermProof(term).as_tactic() if term.strip() else None


def _body_at(code: str, first: int, end: int) -> str | None:
    """`proof_body(code)` for a tactic proof whose first tactic and end are known."""
    return rebase(code, first, end, Lines(code[: first + 1])).strip("\n") or None


def decl_name(code: str) -> str:
    decl = lean_syntax.last_theorem(code)
    if decl is None:
        raise ValueError("lemma without a declaration")
    return decl.name


def align_holes(text_holes: Sequence[Any], lean_holes: Sequence[Goal], *, header_lines: int) -> list[Goal | None]:
    """Pair each textual hole of the sketch with the Goal Lean reported for it (by line and column,
    positions being whole-file, i.e. shifted by the header). Backends without goals give None."""
    by_pos = {(g.pos.line, g.pos.column): g for g in lean_holes if g.pos is not None}
    aligned: list[Goal | None] = []
    for h in text_holes:
        aligned.append(by_pos.get((h.line + header_lines, h.column)))
    if all(a is None for a in aligned) and len(lean_holes) == len(text_holes):
        return list(lean_holes)  # positions unavailable but counts agree: source order
    return aligned

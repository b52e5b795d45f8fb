"""Proof holes: every real `sorry` token of a text (tactic or term position), and `fill`, which
puts proofs into them with the indentation Lean's layout rules need."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from lemmaforge.lean.memo import ByteBoundedMemo
from lemmaforge.lean.syntax._layout import CLOSE_BRACKETS, analyze
from lemmaforge.lean.syntax._lexer import _CROSSES_LINES, Lines, strip_comments, tokens
from lemmaforge.lean.syntax._scanner import Token

__all__ = ["Hole", "TermProof", "fill", "fill_edits", "holes"]

HolePosition = Literal["tactic", "term"]


@dataclass(frozen=True, slots=True)
class Hole:
    """A `sorry` token. `position` is "tactic" when the `sorry` is itself a tactic (first
    tactic of a block opened by `by`, `·`, `case … =>` …; a new line at a tactic block's column;
    after `;`, `<;>`, `<|>`), "term" otherwise (`:= sorry`, `(sorry)`, `exact sorry`,
    `⟨sorry, h⟩`, `foo sorry`, `fun x => sorry`)."""

    offset: int
    line: int
    column: int
    position: HolePosition

    @property
    def end(self) -> int:
        return self.offset + len("sorry")


@dataclass(frozen=True, slots=True)
class _HoleContext:
    hole: Hole
    prev: Token | None
    prev2: Token | None
    enclosing_column: int | None  # column of the tactic block the hole's tactic/term lives in
    rest_of_line_empty: bool  # nothing but whitespace/comments after the sorry on its line
    rest_only_closers: bool  # …or only closing brackets (`(by sorry)`)
    line_start: bool  # the sorry is the first token on its line


def _is_sorry(t: Token) -> bool:
    return t.kind == "ident" and t.text == "sorry"


def _hole_contexts(code: str) -> tuple[_HoleContext, ...]:
    """The holes of `code` with what `fill` needs to know about each (memoised like `analyze`:
    a goal's lemma is filled once per candidate)."""
    closing = _closing_sorry(code)
    return closing if closing is not None else _hole_contexts_memo(code)


_CLOSING = " := by\n  sorry"


def _closing_sorry(code: str) -> tuple[_HoleContext] | None:
    """The one hole of a goal's lemma (`… := by\n  sorry`, lean/lemmas.py) without reading it
    token by token: when the text's only `sorry` and only `by` are those of its last line and it
    holds nothing whose reading crosses lines (strings, chars, comments, `«»`: the lexer's
    `_CROSSES_LINES`), the last three tokens are `:=`, `by`, `sorry` and no tactic block is open
    before the `by` (only a `by` opens the first one), which is all `fill` asks. A few scans
    in C instead of a layout analysis of a text that grows with the goal's depth; anything else
    (None) is read in full. tests/lean/syntax/test_pieces.py compares the two readings."""
    if not code.endswith(_CLOSING) or code.count("sorry") != 1 or code.count("by") != 1:
        return None
    if _CROSSES_LINES.search(code) is not None:
        return None
    end = len(code)
    hole = Hole(end - 5, code.count("\n") + 1, 2, "tactic")
    by = Token("ident", "by", end - 10, end - 8)
    assign = Token("symbol", ":=", end - 13, end - 11)
    return (_HoleContext(hole, by, assign, None, True, True, True),)


def _hole_contexts_uncached(code: str) -> tuple[_HoleContext, ...]:
    an = analyze(code)
    stripped = strip_comments(code)
    out: list[_HoleContext] = []
    for i, t in enumerate(an.toks):
        if not _is_sorry(t):
            continue
        line = an.lines.line(t.start)
        column = an.lines.column(t.start)
        position: HolePosition = "tactic" if an.tactic_pos[i] else "term"
        stack = an.stack[i]
        enclosing = stack[-1].column if stack else None
        eol = stripped.find("\n", t.end)
        rest = stripped[t.end : len(stripped) if eol < 0 else eol]
        out.append(
            _HoleContext(
                hole=Hole(t.start, line, column, position),
                prev=an.toks[i - 1] if i > 0 else None,
                prev2=an.toks[i - 2] if i > 1 else None,
                enclosing_column=enclosing,
                rest_of_line_empty=rest.strip() == "",
                rest_only_closers=all(c in CLOSE_BRACKETS or c.isspace() for c in rest),
                line_start=an.line_start_tok[i],
            )
        )
    return tuple(out)


# Sized for a Hilbert-size tree: every open goal's lemma has its holes read when the goal is keyed
# (search/cache.py) and filled later; ~10,000 lemmas of depth 4 (~1,400 characters each) fit.
_hole_contexts_memo = ByteBoundedMemo(_hole_contexts_uncached, 32 << 20, lambda code, found: 2 * len(code) + 200 * len(found))


def holes(code: str) -> list[Hole]:
    """Every real `sorry` token of `code`, in source order (see `Hole` for tactic vs term)."""
    return [c.hole for c in _hole_contexts(code)]


# --------------------------------------------------------------------------------------------
# Filling holes
# --------------------------------------------------------------------------------------------


class TermProof(str):
    """A proof written as a term (what followed `:=` without `by`). `fill` inserts it as a term
    instead of as tactics; everywhere else it is an ordinary `str`. `as_tactic()` gives the
    equivalent tactic text (`exact …`)."""

    __slots__ = ()

    def as_tactic(self) -> str:
        lines = str(self).split("\n")
        return "\n".join(["exact " + lines[0], *("  " + ln if ln.strip() else ln for ln in lines[1:])])


def rebase(code: str, start: int, end: int, lines: Lines) -> str:
    """code[start:end] as a block at column 0 keeping relative indentation. The first line is
    placed as if it began at the smaller of its real column and the indentation of the other
    lines: in valid Lean, continuation lines left of the first token are trailing combinators or
    bracket continuations, where the column does not matter, while lines right of it (arguments,
    nested blocks) keep their offset."""
    text = code[start:end]
    parts = text.split("\n")
    first_col = lines.column(start)
    rest_indents = [len(p) - len(p.lstrip(" \t")) for p in parts[1:] if p.strip()]
    base = min([first_col, *rest_indents])
    out = [parts[0]]  # the first line sits at `base` itself
    out.extend(p[base:] if p.strip() else "" for p in parts[1:])
    return "\n".join(ln.rstrip() for ln in out)


def dedent(text: str) -> str:
    """Prover output as a block at column 0: tabs expanded, common indentation removed, blank
    lines at both ends and trailing spaces dropped."""
    if "\n" not in text and "\t" not in text:
        # One line (most prover outputs for small goals): what the general path below gives it.
        return text.lstrip(" ").rstrip()
    text = textwrap.dedent(text.expandtabs(2))
    lines = [ln.rstrip() for ln in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return textwrap.dedent("\n".join(lines))


def _strip_leading_by(block: str) -> str:
    """`by tac…` (a term) → `tac…` (tactics), re-based; other text unchanged."""
    if not block.lstrip().startswith(("by", "--", "/-")):
        return block  # the first token cannot be `by`: no need to lex
    toks = tokens(block)
    if not toks or toks[0].text != "by" or toks[0].kind != "ident":
        return block
    if len(toks) == 1:
        return ""
    rest = toks[1]
    return rebase(block, rest.start, len(block), Lines(block)).strip("\n")


def _indent(lines: Sequence[str], column: int) -> list[str]:
    pad = " " * column
    return [pad + ln if ln else "" for ln in lines]


def _place(lines: Sequence[str], column: int) -> str:
    """First line in place (the caller put it at `column`), the others indented to `column`."""
    return "\n".join([lines[0], *_indent(lines[1:], column)])


def _fill_one(code: str, ctx: _HoleContext, proof: str, tactics: str) -> tuple[int, int, str]:
    """(start, end, replacement) that puts `proof` into the hole described by `ctx` (the rules
    are listed in `fill`); `tactics` is `proof` as a tactic block at column 0 (`_strip_leading_by(dedent(proof))`)."""
    hole = ctx.hole
    start, end = hole.offset, hole.end
    block_column = (ctx.enclosing_column if ctx.enclosing_column is not None else 0) + 2
    if isinstance(proof, TermProof):
        return _fill_term_proof(ctx, proof, block_column)
    lines = tactics.split("\n")
    single = len(lines) == 1
    prev = ctx.prev.text if ctx.prev is not None else None

    if hole.position == "tactic":
        if single:
            return start, end, lines[0]
        if prev == "by" and ctx.prev is not None and not ctx.line_start and ctx.rest_only_closers:
            # `:= by sorry`, `(by sorry)`: the block goes on the next lines.
            return ctx.prev.end, end, "\n" + "\n".join(_indent(lines, block_column))
        if prev in (";", "<;>", "<|>") or not ctx.rest_of_line_empty:
            return start, end, "(" + _place(lines, hole.column + 1) + ")"  # these take ONE tactic
        return start, end, _place(lines, hole.column)

    if (
        prev == ":="
        and ctx.prev is not None
        and ctx.rest_of_line_empty
        and code[ctx.prev.end : start].strip() == ""
    ):
        # The whole right-hand side of `:=`: no parentheses needed.
        if single:
            return ctx.prev.end, end, " by " + lines[0]
        return ctx.prev.end, end, " by\n" + "\n".join(_indent(lines, block_column))
    if single:
        return start, end, f"(by {lines[0]})"
    return start, end, "(by\n" + "\n".join(_indent(lines, block_column)) + ")"


def _fill_term_proof(ctx: _HoleContext, proof: TermProof, block_column: int) -> tuple[int, int, str]:
    hole = ctx.hole
    lines = dedent(proof).split("\n")
    term = _place(lines, block_column)
    prev = ctx.prev.text if ctx.prev is not None else None
    if ctx.hole.position == "tactic":
        if prev == "by" and ctx.prev is not None and ctx.prev2 is not None and ctx.prev2.text == ":=":
            return ctx.prev.start, hole.end, term
        return hole.offset, hole.end, _place(TermProof("\n".join(lines)).as_tactic().split("\n"), hole.column)
    if prev == ":=" and ctx.rest_of_line_empty:
        return hole.offset, hole.end, term
    return hole.offset, hole.end, "(" + term + ")"


def fill(code: str, proofs: Sequence[str | None] | Mapping[int, str]) -> str:
    """Put proofs into the holes of `code`.

    `proofs` is a list aligned with `holes(code)` (None leaves that hole), or a dict
    hole index → proof. A proof is tactic text as a prover returns it (one or many lines; their
    common indentation is removed), or a `by …` term (the `by` is dropped, so it never becomes
    `by by`), or a `TermProof` (a term, e.g. a PutnamBench answer). Proof `sorry` leaves the hole
    as it is; an empty proof is an error. Where the lines go:

    * tactic hole, one line: it replaces the `sorry` (`:= by sorry` → `:= by simp`).
    * tactic hole right after `by` with nothing but closing brackets after it (`:= by sorry`,
      `(by sorry)`), several lines: they go on the next lines, two columns deeper than the tactic
      block that contains the `by` (a `have` at column 2: column 4; a theorem: column 2).
    * other tactic hole, several lines: aligned at the `sorry`'s column (a new tactic line, or a
      block after `·`, `=>`, `case … =>`), or wrapped as `(l1\n l2)` when the hole follows `<;>`,
      `;` or `<|>`, or has code after it on its line (those positions take ONE tactic).
    * term hole that is the whole right-hand side of `:=` (`have h : P := sorry`, PutnamBench's
      `:=\nsorry`): `:= by tac`, or `:= by` + lines indented as above.
    * any other term hole (`exact sorry`, `foo (sorry)`): `(by tac)`, or `(by` + lines + `)`.
    * `TermProof`: `:= by sorry` → `:= term`; a term hole → `term` (whole right-hand side of
      `:=`) or `(term)`; another tactic hole → `exact term`. Continuation lines keep their
      relative indentation, two columns deeper than the enclosing block.
    """
    return apply_edits(code, fill_edits(code, proofs))


def apply_edits(code: str, edits: Sequence[tuple[int, int, str]]) -> str:
    """`code` with each (start, end, replacement) of `edits` (in source order, not overlapping)
    made: one join, where replacing one edit at a time copied the whole growing text per edit (a
    sketch filled with its subtree's proofs)."""
    parts: list[str] = []
    at = 0
    for start, end, replacement in edits:
        parts += (code[at:start], replacement)
        at = end
    parts.append(code[at:])
    return "".join(parts)


def fill_edits(code: str, proofs: Sequence[str | None] | Mapping[int, str]) -> list[tuple[int, int, str]]:
    """The edits `fill(code, proofs)` makes, in source order: (start, end, replacement)."""
    if isinstance(proofs, str):
        raise TypeError("proofs must be a list or a dict of proofs, not one string")
    contexts = _hole_contexts(code)
    if isinstance(proofs, Mapping):
        chosen = dict(proofs)
        bad = [k for k in chosen if not 0 <= k < len(contexts)]
        if bad:
            raise ValueError(f"hole indices {bad} out of range: the code has {len(contexts)} holes")
    else:
        if len(proofs) != len(contexts):
            raise ValueError(f"{len(proofs)} proofs for {len(contexts)} holes")
        chosen = {k: p for k, p in enumerate(proofs) if p is not None}
    edits = []
    for k, ctx in enumerate(contexts):
        proof = chosen.get(k)
        if proof is None or (not isinstance(proof, TermProof) and proof.strip() == "sorry"):
            continue
        tactics = _strip_leading_by(dedent(proof))
        if not tactics.strip():
            raise ValueError(f"empty proof for hole {k}")
        edits.append(_fill_one(code, ctx, proof, tactics))
    return sorted(edits)

"""The structure of a tactic proof: its top-level tactics, its `have`/`obtain` steps, the sketch
(`skeleton`) of a finished proof, and how far a proof keeps a sketch's steps."""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from lemmaforge.lean.syntax._commands import LOCAL_DEFINERS, Declaration, theorems_of
from lemmaforge.lean.syntax._compare import canonical_tokens, join_canonical
from lemmaforge.lean.syntax._holes import TermProof, holes, rebase
from lemmaforge.lean.syntax._layout import OPEN_BRACKETS, Analysis, Block, analyze
from lemmaforge.lean.syntax._lexer import lex, tokens
from lemmaforge.lean.syntax._scanner import Token

__all__ = ["HaveStep", "have_steps", "skeleton", "structure_consistency", "top_level_tactics"]

StepKind = Literal["have", "obtain"]


@dataclass(frozen=True, slots=True)
class HaveStep:
    """A `have`/`obtain` step of a tactic proof that states what it proves.

    Recognized: `have name binders? : P := proof`, `have : P := proof` (name `this`),
    `have ⟨a, b⟩ : P := proof` and `obtain pattern : P := proof` (name = the pattern text).
    Not steps: `have h := e` / `obtain ⟨x, hx⟩ := h` (no statement: they destructure or name a
    term), `have h : P` without `:=` (its proof is the following tactics), `let`, `set`,
    `suffices`, `show … from`, `replace`. Those stay ordinary tactics of a sketch.

    `statement` is the text between the top-level `:` and `:=`, stripped (it may span lines);
    `binders` the text between the name and that colon (`have h (n : ℕ) : P n`), usually "".
    `start`/`end` cover the whole step including its proof and any `<;> …` continuation lines at
    the step's own column; `proof_start`/`proof_end` cover the text after `:=` (`by …` included).
    """

    kind: StepKind
    name: str
    binders: str
    statement: str
    proof: str
    start: int
    end: int
    proof_start: int
    proof_end: int
    by_proof: bool
    line: int
    column: int
    # The tokens of `binders` and of `statement` (comments dropped), as the proof was read: a hole's
    # lemma key is built from them (`lean.syntax.pieces`) instead of lexing the lemma again.
    binder_tokens: tuple[Token, ...] = field(default=(), compare=False, repr=False)
    statement_tokens: tuple[Token, ...] = field(default=(), compare=False, repr=False)

    @property
    def full_statement(self) -> str:
        """The statement with the step's own binders quantified: `∀ (n : ℕ), P n`."""
        if not self.binders:
            return self.statement
        return f"∀ {self.binders}, {self.statement}"


@dataclass(frozen=True, slots=True)
class _Item:
    """One tactic of a block: token range [first, last]."""

    first: int
    last: int


def _block_items(an: Analysis, block: Block, lo: int, hi: int) -> list[_Item]:
    """The tactics of `block` among tokens [lo, hi)."""
    starts = [i for i in range(lo, hi) if an.item_of[i] is block]
    return [_item_at(an, s, starts[k + 1] if k + 1 < len(starts) else hi) for k, s in enumerate(starts)]


def _item_at(an: Analysis, first: int, limit: int) -> _Item:
    """The tactic starting at token `first` (an item of its block): it runs until the next item
    of the same block (`limit`) or until the block closes."""
    block = an.item_of[first]
    last = first
    for j in range(first + 1, limit):
        if block not in an.stack[j]:
            break
        last = j
    return _Item(first, last)


def _theorem_proof_block(an: Analysis, decl: Declaration) -> tuple[int, Block] | None:
    """(index of the `by` token, block it opens) for a tactic proof of `decl`."""
    if decl.body_start is None:
        return None
    i = bisect.bisect_left([t.start for t in an.toks], decl.body_start)
    if i + 1 >= len(an.toks) or an.toks[i].text != "by" or an.toks[i].start >= decl.end:
        return None
    block = an.item_of[i + 1]
    if block is None or an.toks[i + 1].start >= decl.end:
        return None
    return i, block


def _decl_token_range(an: Analysis, decl: Declaration) -> tuple[int, int]:
    starts = [t.start for t in an.toks]
    return bisect.bisect_left(starts, decl.start), bisect.bisect_left(starts, decl.end)


def _step_bounds(an: Analysis, item: _Item) -> tuple[int, int] | None:
    """(top-level `:`, `:=`) token indices of a `have`/`obtain` item that states what it proves
    and has a proof after `:=`; None for anything else."""
    toks = an.toks
    kw = toks[item.first]
    if kw.kind != "ident" or kw.text not in ("have", "obtain"):
        return None
    base_depth = an.depth[item.first]
    colon = assign = None
    local_definitions = 0
    for j in range(item.first + 1, item.last + 1):
        if an.depth[j] != base_depth:
            continue
        t = toks[j]
        if colon is not None and t.text in LOCAL_DEFINERS and t.kind == "ident":
            local_definitions += 1
        elif t.text == ":" and colon is None:
            colon = j
        elif t.text == ":=" and local_definitions:
            local_definitions -= 1
        elif t.text == ":=":
            assign = j
            break
    if colon is None or assign is None or assign == item.last:
        return None  # no statement, or no proof after `:=`
    return colon, assign


def _step_binders_first(an: Analysis, item: _Item, colon: int) -> int:
    """Token index where a step's own binders start (== colon when it has none)."""
    head = item.first + 1
    if head < colon and an.toks[item.first].text == "have":
        if an.toks[head].kind == "ident":
            return head + 1
        if an.toks[head].text in OPEN_BRACKETS and an.toks[head].text != "⟨":
            return head
    return colon


def _step_key(an: Analysis, item: _Item) -> str | None:
    """`normalize_code(step.full_statement)` without re-lexing (structure_consistency runs on
    every GRPO sample)."""
    bounds = _step_bounds(an, item)
    if bounds is None:
        return None
    colon, assign = bounds
    statement = join_canonical(canonical_tokens(an.toks[colon + 1 : assign]))
    first = _step_binders_first(an, item, colon)
    return (
        f"∀ {join_canonical(canonical_tokens(an.toks[first:colon]))}, {statement}"
        if first < colon
        else statement
    )


def _parse_step(an: Analysis, item: _Item) -> HaveStep | None:
    bounds = _step_bounds(an, item)
    if bounds is None:
        return None
    colon, assign = bounds
    toks, code = an.toks, an.code
    kw = toks[item.first]
    head_end = toks[colon].start
    head_first = item.first + 1
    binders_first = _step_binders_first(an, item, colon)
    binders = code[toks[binders_first].start : head_end].strip() if binders_first < colon else ""
    if head_first == colon or (binders_first == head_first and binders):
        name = "this"
    elif kw.text == "have" and toks[head_first].kind == "ident":
        name = toks[head_first].text
    else:
        name = code[toks[head_first].start : head_end].strip()
    statement = code[toks[colon].end : toks[assign].start].strip()
    proof_first = assign + 1
    proof_last = _proof_last(an, item, proof_first)
    proof_start, proof_end = toks[proof_first].start, toks[proof_last].end
    return HaveStep(
        kind=kw.text,  # type: ignore[arg-type]
        name=name,
        binders=binders,
        statement=statement,
        proof=code[proof_start:proof_end],
        start=kw.start,
        end=toks[item.last].end,
        proof_start=proof_start,
        proof_end=proof_end,
        by_proof=toks[proof_first].text == "by",
        line=an.lines.line(kw.start),
        column=an.lines.column(kw.start),
        binder_tokens=tuple(toks[binders_first:colon]),
        statement_tokens=tuple(toks[colon + 1 : assign]),
    )


def _proof_last(an: Analysis, item: _Item, proof_first: int) -> int:
    """Last token of the proof of a step: the step's tokens up to a continuation line that starts
    at (or left of) the step's own column, e.g. `  <;> linarith` under `  have … := by …`."""
    step_col = an.col(item.first)
    last = proof_first
    for j in range(proof_first + 1, item.last + 1):
        if an.line_start_tok[j] and an.depth[j] == an.depth[item.first] and an.col(j) <= step_col:
            break
        last = j
    return last


def _top_level(code: str) -> tuple[Analysis, Declaration, list[_Item], int] | None:
    """The analysis, the last theorem, its top-level tactics and the `by` token index."""
    an = analyze(code)
    if "top_level" not in an.cache:  # computed once per (cached) analysis
        an.cache["top_level"] = _compute_top_level(an)
    top = an.cache["top_level"]
    return None if top is None else (an, *top)


def _compute_top_level(an: Analysis) -> tuple[Declaration, list[_Item], int] | None:
    theorems = theorems_of(an)
    if not theorems:
        return None
    decl = theorems[-1]
    found = _theorem_proof_block(an, decl)
    if found is None:
        return None
    by_index, block = found
    _, hi = _decl_token_range(an, decl)
    return decl, _block_items(an, block, by_index + 1, hi), by_index


def top_level_tactics(code: str) -> list[tuple[int, int]]:
    """(start, end) offsets of each top-level tactic of the last theorem's tactic proof (the
    tactics at the proof block's column, each with everything that belongs to it); [] for a
    term-mode proof."""
    top = _top_level(code)
    if top is None:
        return []
    an, _, items, _ = top
    return [(an.toks[it.first].start, an.toks[it.last].end) for it in items]


def have_steps(code: str) -> list[HaveStep]:
    """The top-level steps (see `HaveStep`) of the tactic proof of the LAST theorem/lemma of
    `code`: the tactics at the proof block's own column. [] for a term-mode proof."""
    top = _top_level(code)
    if top is None:
        return []
    an, _, items, _ = top
    if "steps" not in an.cache:
        an.cache["steps"] = [s for s in (_parse_step(an, it) for it in items) if s is not None]
    return list(an.cache["steps"])


def _all_step_items(an: Analysis, decl: Declaration) -> list[_Item]:
    """Every `have`/`obtain` tactic of `decl`'s proof, at any depth."""
    lo, hi = _decl_token_range(an, decl)
    starts_by_block: dict[int, list[int]] = {}
    for i in range(lo, hi):
        b = an.item_of[i]
        if b is not None:
            starts_by_block.setdefault(id(b), []).append(i)
    items = []
    for starts in starts_by_block.values():
        for k, s in enumerate(starts):
            if an.toks[s].text in ("have", "obtain"):
                items.append(_item_at(an, s, starts[k + 1] if k + 1 < len(starts) else hi))
    return sorted(items, key=lambda it: it.first)


def _all_steps(code: str) -> list[HaveStep]:
    """Every step of the last theorem's proof, at any depth (nested blocks included)."""
    an = analyze(code)
    theorems = theorems_of(an)
    if not theorems:
        return []
    return [s for s in (_parse_step(an, it) for it in _all_step_items(an, theorems[-1])) if s is not None]


def _step_keys(code: str, *, nested: bool) -> list[str]:
    """Normalized full statements of the last theorem's steps (top level, or at any depth)."""
    an = analyze(code)
    theorems = theorems_of(an)
    if not theorems:
        return []
    if nested:
        items = _all_step_items(an, theorems[-1])
    else:
        top = _top_level(code)
        items = top[2] if top is not None else []
    return [k for k in (_step_key(an, it) for it in items) if k is not None]


# --------------------------------------------------------------------------------------------
# Skeleton and structure consistency
# --------------------------------------------------------------------------------------------


def skeleton(code: str) -> tuple[str, list[str]]:
    """The sketch of a finished proof and the pieces removed from it.

    In the last theorem's tactic proof each top-level `have`/`obtain` step keeps its statement
    and gets `:= by sorry` as proof; the top-level tactics after the last step become one
    `sorry`; everything else (other tactics between steps, comments) stays. A term-mode proof
    becomes `:= by\\n  sorry`. The pieces are returned in hole order of the sketch: tactic text
    re-based to column 0, a `TermProof` for a step proved by a term, and `"sorry"` for a `sorry`
    the proof already had. `fill(*skeleton(code))` gives back `code` up to whitespace."""
    an = analyze(code)
    theorems = theorems_of(an)
    if not theorems:
        raise ValueError("no theorem or lemma in the code")
    decl = theorems[-1]
    if decl.body_start is None:
        raise ValueError(f"theorem {decl.name} has no `:=`")
    edits: list[tuple[int, int, str, str]] = []  # (start, end, replacement, piece)
    found = _theorem_proof_block(an, decl)
    if found is None:
        first = next((t for t in lex(code[decl.body_start : decl.end])), None)
        if first is not None:
            piece = TermProof(rebase(code, decl.body_start + first.start, decl.end, an.lines))
            edits.append((decl.body_start, decl.end, " by\n  sorry", piece))
    else:
        by_index, block = found
        _, hi = _decl_token_range(an, decl)
        items = _block_items(an, block, by_index + 1, hi)
        steps = [(it, s) for it, s in ((it, _parse_step(an, it)) for it in items) if s is not None]
        for _, step in steps:
            edits.append(_step_edit(an, step))
        last_step_item = steps[-1][0].last if steps else by_index
        closing = [it for it in items if it.first > last_step_item]
        if closing:
            cstart = an.toks[closing[0].first].start
            cend = an.toks[closing[-1].last].end
            edits.append((cstart, cend, "sorry", rebase(code, cstart, cend, an.lines)))
    sketch, our_holes = _apply_edits(code, edits)
    pieces: list[str] = []
    ours = dict(our_holes)
    for h in holes(sketch):
        pieces.append(ours.get(h.offset, "sorry"))
    return sketch, pieces


def _step_edit(an: Analysis, step: HaveStep) -> tuple[int, int, str, str]:
    code = an.code
    if step.by_proof:
        # Comments count: one between `by` and the first tactic belongs to the piece.
        toks = lex(code[step.proof_start : step.proof_end])
        by_end = step.proof_start + toks[0].end
        if len(toks) == 1:
            return by_end, step.proof_end, " sorry", "skip"
        first = step.proof_start + toks[1].start
        return by_end, step.proof_end, " sorry", rebase(code, first, step.proof_end, an.lines)
    piece = TermProof(rebase(code, step.proof_start, step.proof_end, an.lines))
    assign = tokens(code[step.start : step.proof_start])[-1]  # the step's `:=`
    return step.start + assign.start, step.proof_end, ":= by sorry", piece


def _apply_edits(code: str, edits: list[tuple[int, int, str, str]]) -> tuple[str, list[tuple[int, str]]]:
    """Apply non-overlapping edits; return the new text and (offset of the `sorry` placed by each
    edit in the new text, its piece)."""
    out: list[str] = []
    placed: list[tuple[int, str]] = []
    last = 0
    length = 0
    for start, end, replacement, piece in sorted(edits, key=lambda e: e[0]):
        chunk = code[last:start]
        out.append(chunk)
        length += len(chunk)
        placed.append((length + replacement.rindex("sorry"), piece))
        out.append(replacement)
        length += len(replacement)
        last = end
    out.append(code[last:])
    return "".join(out), placed


def structure_consistency(sketch: str, proof: str) -> float:
    """The fraction of the sketch's top-level step statements that the proof also states.

    Statements are compared after `normalize_code`, as multisets: a statement the sketch states
    twice must be stated twice. The proof's steps are counted at any depth (a prover may nest a
    sketched step inside a bullet), only in its last theorem. A sketch without steps gives 1.0:
    there is no structure to be inconsistent with (callers that want to reward structure should
    check `have_steps(sketch)` first)."""
    wanted = Counter(_step_keys(sketch, nested=False))
    if not wanted:
        return 1.0
    have = Counter(_step_keys(proof, nested=True))
    matched = sum(min(count, have[stmt]) for stmt, count in wanted.items())
    return matched / sum(wanted.values())

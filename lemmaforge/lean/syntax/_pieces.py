"""A statement key put together from runs of tokens already read, without reading the text they make.

A hole's lemma (`lean/lemmas.py`, text type b) is text assembled from pieces of its sketch: the
theorem's binders, the earlier steps as hypotheses `(h : P)`, the step's own binders and its
statement. Its key (`compare.theorem_key`: the subgoal cache's and the store's) is the canonical
join of the lemma's signature tokens, and those tokens are the pieces' tokens, which the sketch's
reading already holds. So the key of a lemma deep in a big tree costs one string join per piece
instead of lexing and laying out a text that grows with depth.

Only where certain. A piece is used only when its tokens read the same wherever it is placed
after whitespace, and cannot change where the lemma's signature ends:

* its text has nothing that reaches across a line or depends on what came before it (strings,
  chars and primes, name literals, `«»`, comments, tab, CR: the lexer's `_CROSSES_LINES`, the
  same test that lets the lexer read a text line by line);
* no token that starts a command (`theorem`, `open`, `@[`, `#eval` …), ends a signature (`:=`,
  `where`) or opens a local definition (`let`, `have`: it would take the body's `:=`);
* brackets balanced and never closed below zero (the body's `:=` must be at depth 0);
* and a signature holding both a `|` and a `=>` is refused whole (`| p => …` could be read as a
  match alternative, which ends a signature).

Anything else gives `None`, and the caller reads the lemma's text as before. The key equals
`theorem_key` of the text byte for byte: tests/lean/syntax/test_pieces.py compares the two on
every sketch of the reference proofs and on miniF2F's statements.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from lemmaforge.lean.syntax._commands import LOCAL_DEFINERS
from lemmaforge.lean.syntax._compare import GLUE, canonical_tokens, join_canonical
from lemmaforge.lean.syntax._layout import _START_WORDS, CLOSE_BRACKETS, OPEN_BRACKETS
from lemmaforge.lean.syntax._lexer import _CROSSES_LINES, is_ident
from lemmaforge.lean.syntax._scanner import Token
from lemmaforge.lean.syntax._steps import _top_level, have_steps

__all__ = ["COLON", "Piece", "SketchPieces", "join_pieces", "literal", "name_piece", "piece", "signature_key", "sketch_pieces"]

# Tokens that could start a command or move the end of the lemma's signature.
_REFUSED = _START_WORDS | LOCAL_DEFINERS | {":=", "where", "extends"}


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of whole tokens as part of a key: its canonical text and what joining needs."""

    key: str  # join_canonical of its canonical tokens
    first: str  # first canonical token ("" when it has none)
    last: str  # last canonical token, glue mark removed
    bar: bool = False  # holds a `|`
    arrow: bool = False  # holds a `=>`


def literal(text: str) -> Piece:
    """One token the lemma builder writes itself (`(`, `:`, `∀`, `,`, `)`)."""
    return Piece(text, text, text)


def piece(text: str, toks: Sequence[Token]) -> Piece | None:
    """`text`, whose tokens (comments dropped) are `toks`, as a piece; None where unsure (see the
    module docstring)."""
    if _CROSSES_LINES.search(text) is not None:
        return None
    depth = 0
    bar = arrow = False
    for t in toks:
        x = t.text
        if x in _REFUSED or t.kind == "hashcmd":
            return None
        if x == "|":
            bar = True
        elif x == "=>":
            arrow = True
        elif t.kind == "symbol":
            if x in OPEN_BRACKETS:
                depth += 1
            elif x in CLOSE_BRACKETS:
                depth -= 1
                if depth < 0:
                    return None
    if depth:
        return None
    canon = canonical_tokens(toks)  # the first token has nothing before it: never glued
    if not canon:
        return Piece("", "", "")
    return Piece(join_canonical(canon), canon[0], canon[-1].removeprefix(GLUE), bar, arrow)


def name_piece(name: str) -> Piece | None:
    """A name the lemma builder writes (a hypothesis, the lemma's own): one plain identifier."""
    if _CROSSES_LINES.search(name) is not None or not is_ident(name) or name in _REFUSED:
        return None
    return literal(name)


def join_pieces(pieces: Sequence[Piece | None]) -> Piece | None:
    """The pieces one after another, separated by whitespace, as one piece: `join_canonical` of
    all their tokens (whose spacing depends only on two neighbouring tokens), one join per piece."""
    parts: list[str] = []
    first = prev = ""
    bar = arrow = False
    for p in pieces:
        if p is None:
            return None
        if not p.first:
            continue
        if parts and prev not in OPEN_BRACKETS and p.first not in CLOSE_BRACKETS and p.first != ",":
            parts.append(" ")
        parts.append(p.key)
        first = first or p.first
        prev = p.last
        bar, arrow = bar or p.bar, arrow or p.arrow
    return Piece("".join(parts), first, prev, bar, arrow)


def signature_key(pieces: Sequence[Piece | None], universe_params: str = "") -> str | None:
    """`theorem_key` of `theorem <name><universe_params> <pieces…> := …` (the pieces being its
    signature, in order); None where unsure."""
    joined = join_pieces(pieces)
    if joined is None or (joined.bar and joined.arrow):
        return None
    if not universe_params:
        return joined.key
    if _CROSSES_LINES.search(universe_params) is not None:
        return None
    return f"⊢ {universe_params} {joined.key}".strip()


COLON = literal(":")
_OPEN, _CLOSE, _FORALL, _COMMA = literal("("), literal(")"), literal("∀"), literal(",")


@dataclass(slots=True)
class SketchPieces:
    """The pieces of a sketch's last theorem and its top-level steps (`have_steps`), each read
    once and kept with the sketch's analysis: every hole's lemma repeats the steps before it."""

    binders: Piece | None  # the theorem's binders
    type: Piece | None  # the theorem's type (after the top-level colon)
    step_binders: list[Piece | None]
    statements: list[Piece | None]
    _hypotheses: dict[tuple[int, str], Piece | None] = field(default_factory=dict)

    def hypothesis(self, index: int, name: str) -> Piece | None:
        """Step `index` as the lemma builder writes a hypothesis: `(name : ∀ binders, statement)`
        (`(name : statement)` without binders)."""
        key = (index, name)
        if key not in self._hypotheses:
            binders, statement = self.step_binders[index], self.statements[index]
            body = [_FORALL, binders, _COMMA, statement] if binders is None or binders.first else [statement]
            self._hypotheses[key] = join_pieces([_OPEN, name_piece(name), COLON, *body, _CLOSE])
        return self._hypotheses[key]


def sketch_pieces(code: str) -> SketchPieces | None:
    """The pieces of `code`'s last theorem and its steps (None: no tactic proof to read)."""
    top = _top_level(code)
    if top is None:
        return None
    an, decl, _, _ = top
    found = an.cache.get("pieces")
    if found is None:
        sig, colon = decl.signature_tokens, decl.signature_colon
        if colon is None:
            binders = type_ = None
        else:
            binders, type_ = piece(decl.binders, sig[:colon]), piece(decl.type, sig[colon + 1 :])
        steps = have_steps(code)
        found = an.cache["pieces"] = SketchPieces(
            binders, type_, [piece(s.binders, s.binder_tokens) for s in steps],
            [piece(s.statement, s.statement_tokens) for s in steps],
        )
    assert isinstance(found, SketchPieces)
    return found

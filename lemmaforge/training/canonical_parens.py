"""Redundant parentheses of a canonical statement key (`canonical.py`): the token classes, Lean's
precedence table (Mathlib's binary operators, prefix `-`, `¬`, `↑`, `√`, application) and
`strip_parentheses`, which removes a pair only where that table shows it changes nothing.

Where an operator is not in the table the parentheses stay: a false "different" (a duplicate kept)
is better than a false "same" (a real problem dropped).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from lemmaforge.lean.syntax import is_ident_start

# --------------------------------------------------------------------------------------------
# token classes and the precedence table
# --------------------------------------------------------------------------------------------

OPEN = {"(": ")", "[": "]", "{": "}", "⦃": "⦄", "⟨": "⟩", "⟦": "⟧", "⌊": "⌋", "⌈": "⌉", "‹": "›", "⟮": "⟯"}
CLOSE = frozenset(OPEN.values())

# (precedence, associativity) of infix operators, from Lean core / Mathlib's `infixl:65 " + "` …
_BINARY: dict[str, tuple[int, str]] = {
    "∘": (90, "r"),
    "^": (75, "r"),
    "•": (73, "r"),
    "*": (70, "l"),
    "/": (70, "l"),
    "%": (70, "l"),
    "∩": (70, "l"),
    "\\": (70, "l"),
    "+": (65, "l"),
    "-": (65, "l"),
    "∪": (65, "l"),
    "++": (65, "l"),
    "=": (50, "n"),
    "≠": (50, "n"),
    "<": (50, "n"),
    ">": (50, "n"),
    "≤": (50, "n"),
    "≥": (50, "n"),
    "∣": (50, "n"),
    "∈": (50, "n"),
    "∉": (50, "n"),
    "⊆": (50, "n"),
    "⊂": (50, "n"),
    "∧": (35, "r"),
    "∨": (30, "r"),
    "→": (25, "r"),
    "↔": (20, "n"),
}
# prefix operators: the precedence of their argument (`-x` is `neg` at 75, `¬p` takes p at 40)
_PREFIX: dict[str, int] = {"-": 75, "¬": 40, "↑": 1024, "√": 100}
BINDERS = frozenset({"∀", "∃", "∃!", "fun", "∑", "∏", "⋃", "⋂", "⨆", "⨅", "Π", "Σ"})
# tokens a parenthesised expression may be delimited by on either side: parentheses there are noise
_DELIMITERS = frozenset({"(", "[", "{", "⟨", ",", ":", ":=", "=>", "|", "⊢", ")", "]", "}", "⟩", None})
_ATOM = 1024
_APPLICATION = 1000
RELATIONS = frozenset({"∈", "∉", "⊆", "⊂", "<", ">", "≤", "≥", "≠"})


def is_operand(tok: str) -> bool:
    """An identifier, number, string or char literal (something application can take)."""
    if tok in BINDERS or tok in ("if", "then", "else", "let", "have", "show", "by", "from", "at"):
        return False
    c = tok[0]
    return c.isalnum() or c in "_«'\"`?" or (c == "." and len(tok) > 1) or _is_letter_like(c)


@functools.lru_cache(maxsize=4096)
def _is_letter_like(c: str) -> bool:
    return is_ident_start(c)


def _ends_operand(tok: str | None) -> bool:
    return tok is not None and (is_operand(tok) or tok in CLOSE or tok == "!")


def match_bracket(toks: Sequence[str], i: int) -> int:
    """Index of the bracket closing the one opened at `i` (len(toks) when unclosed)."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] in OPEN:
            depth += 1
        elif toks[j] in CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return len(toks)


def top_level(toks: Sequence[str]) -> list[int]:
    """Indices of the tokens of `toks` at bracket depth 0."""
    out, depth = [], 0
    for i, t in enumerate(toks):
        if t in CLOSE:
            depth -= 1
        if depth == 0:
            out.append(i)
        if t in OPEN:
            depth += 1
    return out


# --------------------------------------------------------------------------------------------
# redundant parentheses
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Shape:
    kind: str  # atom | application | operator | prefix | binder | other
    prec: int = 0
    assoc: str = "n"


def _shape(content: Sequence[str]) -> _Shape:
    """How a parenthesised expression binds: its weakest top-level operator."""
    if not content:
        return _Shape("other")
    if content[0] in BINDERS:
        return _Shape("binder")
    if len(content) == 1 or (content[0] in OPEN and match_bracket(content, 0) == len(content) - 1):
        return _Shape("atom", _ATOM)
    precs: list[tuple[int, str]] = []
    prev: str | None = None
    for i in top_level(content):
        t = content[i]
        if t in OPEN:
            prev = OPEN[t]
            continue
        if t in _BINARY and _ends_operand(prev):
            precs.append(_BINARY[t])
        elif t in _PREFIX and not _ends_operand(prev):
            precs.append((_PREFIX[t], "prefix"))
        elif t == "." and prev is not None and i + 1 < len(content) and is_operand(content[i + 1]):
            pass  # projection `x.1`
        elif t != "!" and not is_operand(t) and t not in CLOSE:
            return _Shape("other")  # `,` `:` `|` `=>` … or an operator not in the table: keep
        prev = t
    if not precs:
        return _Shape("application", _APPLICATION)
    low = min(p for p, _ in precs)
    kinds = {a for p, a in precs if p == low}
    if "prefix" in kinds:
        return _Shape("prefix", low, "prefix")
    return _Shape("operator", low, kinds.pop() if len(kinds) == 1 else "n")


def _redundant(toks: Sequence[str], i: int, j: int) -> bool:
    """Whether the parentheses at `i` … `j` can go without changing how Lean parses."""
    shape = _shape(toks[i + 1 : j])
    if shape.kind == "other":
        return False
    left = toks[i - 1] if i > 0 else None
    right = toks[j + 1] if j + 1 < len(toks) else None
    if shape.kind == "binder":  # `∀ x, …` extends as far as it can: only a whole slot
        return left in _DELIMITERS and right in _DELIMITERS
    if shape.kind == "atom":
        return left not in (".", "@") and right != "."
    # left neighbour: the content is its right operand
    if left in _DELIMITERS or left == "|":
        pass
    elif left in _BINARY and _ends_operand(toks[i - 2] if i > 1 else None):
        p, a = _BINARY[left]
        if not (shape.prec > p or (shape.prec == p and a == "r" and shape.assoc == "r")):
            return False
    elif left in _PREFIX:
        if shape.prec < _PREFIX[left] or shape.kind == "prefix":
            return False
    else:
        return False  # application `f (g x)` or anything unknown
    # right neighbour: the content is its left operand
    if right in _DELIMITERS:
        return True
    if right in _BINARY:
        p, a = _BINARY[right]
        if shape.kind == "prefix":
            return shape.prec > p
        return shape.prec > p or (shape.prec == p and a == "l" and shape.assoc == "l")
    if (right is not None and is_operand(right)) or right in OPEN:
        return shape.kind == "application"  # `(f x) y` is `f x y`
    return False


def strip_parentheses(toks: Sequence[str]) -> tuple[str, ...]:
    """`toks` without the parentheses that Lean's precedences make redundant (repeated until
    none is left: `((a))` → `a`)."""
    out = list(toks)
    changed = True
    while changed:
        changed = False
        for i, t in enumerate(out):
            if t != "(":
                continue
            j = match_bracket(out, i)
            if j < len(out) and _redundant(out, i, j):
                del out[j]
                del out[i]
                changed = True
                break
    return tuple(out)

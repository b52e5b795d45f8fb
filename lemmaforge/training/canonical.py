"""Canonical statement keys: the hold-out and dedup key of training data.

Two theorem statements get the same key when they state the same problem up to disguises that do
not change the proposition:

* layout: whitespace, line breaks, comments (`194%11 = 7` ≡ `194 % 11 = 7`): the key is built
  from the Lean token stream, never from text;
* names: the theorem's name, its variables (renamed `v0, v1, …` in declaration order), its
  hypotheses (anonymous: a hypothesis name is never part of the proposition) and variables
  bound inside the statement (`∀ x`, `∃ y`, `fun z`, `∑ i in s`, `{x | …}`: renamed `b0, b1, …`
  per expression, in order of binding);
* binders: `(s t : ℝ)` ≡ `(s : ℝ) (t : ℝ)`; explicit, implicit and strict-implicit brackets
  are one kind (the proposition is the same; instance brackets stay distinct); leading
  `∀ x y,` and top-level `P → Q` of the goal are binders and hypotheses like the signature's
  (`theorem t (h : P) : Q` ≡ `theorem t : P → Q`); `∀ x > 0,` / `∃ x ∈ s,` binder predicates;
* hypothesis order: hypotheses (binders no later binder type and no goal mentions by name) are
  sorted by their canonical text after the variables, so swapping them does not hide a problem;
* spelling: ASCII forms (`<=`, `>=`, `->`, `<->`, `forall`, `exists`, `λ`, `↦`, `in` of big
  operators),
  `Nat`/`Int`/`Rat`/`Real`/`Complex` as the blackboard letters;
* redundant parentheses: `((x))`, `(x)`, `(194 % 11) = 7`, `(a * b) + c` — removed only where
  Lean's precedence table (Mathlib's binary operators, prefix `-`, `¬`, `↑`, `√`, application)
  shows they change nothing. Where an operator is not in the table they stay: a false "different"
  (a duplicate kept) is better than a false "same" (a real problem dropped), except for the
  hold-out, where every rule here errs on neither side: each one is a Lean equivalence.

A changed constant, `<` for `≤` or another operator stays a different key.

The token source is `_token_texts`, ONE function: the syntax layer's lexer (`lean.syntax`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.training.canonical_parens import (
    BINDERS,
    CLOSE,
    OPEN,
    RELATIONS,
    is_operand,
    match_bracket,
    strip_parentheses,
    top_level,
)

# --------------------------------------------------------------------------------------------
# tokens
# --------------------------------------------------------------------------------------------


def _token_texts(text: str) -> tuple[str, ...]:
    """The Lean tokens of `text` (comments and docstrings dropped), as texts: the one place the
    token source (`lean.syntax`, Lean's own lexing rules) is named."""
    return tuple(t.text for t in lean_syntax.tokens(text))


# Two tokens that Lean reads as one notation, and ASCII / long forms with a one-token synonym.
# (`!=` is not here: in Lean 4 it is `bne`, a Bool, not `≠`.)
_PAIRS = {("<", "="): "≤", (">", "="): "≥", ("<-", ">"): "↔", ("∃", "!"): "∃!"}
_SYNONYMS = {
    "<=": "≤",  # one token for Lean's lexer (longest match), two for older tokenizers: both handled
    ">=": "≥",
    "->": "→",
    "<->": "↔",
    "λ": "fun",
    "forall": "∀",
    "exists": "∃",
    "↦": "=>",
    "Nat": "ℕ",
    "Int": "ℤ",
    "Rat": "ℚ",
    "Real": "ℝ",
    "Complex": "ℂ",
}


def expression_tokens(text: str) -> tuple[str, ...]:
    """Whitespace- and comment-free tokens of `text` with one spelling per notation (see the
    module docstring): what step statements and expressions are compared on (`x*y` ≡ `x * y`)."""
    raw = _token_texts(text)
    out: list[str] = []
    i = 0
    while i < len(raw):
        pair = _PAIRS.get((raw[i], raw[i + 1])) if i + 1 < len(raw) else None
        if pair is not None:
            out.append(pair)
            i += 2
            continue
        out.append(_SYNONYMS.get(raw[i], raw[i]))
        i += 1
    # `∑ x in s, f` is the old spelling of `∑ x ∈ s, f`: `in` only occurs there in a statement
    return tuple("∈" if t == "in" else t for t in out)


# --------------------------------------------------------------------------------------------
# bound variables
# --------------------------------------------------------------------------------------------


def _binder_region_end(toks: Sequence[str], start: int, keyword: str) -> int:
    """Index of the `,` (or `=>` for `fun`) that ends the binders starting at `start`."""
    stops = ("=>",) if keyword == "fun" else (",",)
    depth = 0
    for j in range(start, len(toks)):
        t = toks[j]
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            if depth == 0:
                return j
            depth -= 1
        elif depth == 0 and t in stops:
            return j
    return len(toks)


def _binder_names(region: Sequence[str]) -> list[str]:
    """Names a binder region binds: `x y`, `x y : T`, `(x : T) (y : U)`, `x ∈ s`, `⟨a, b⟩`."""
    names: list[str] = []
    depth = 0
    stopped = [False]  # per depth: past the `:` / relation of that group
    for t in region:
        if t in OPEN:
            depth += 1
            stopped.append(False)
            continue
        if t in CLOSE:
            depth -= 1
            stopped.pop()
            if not stopped:
                stopped.append(False)
            continue
        if t == ":" or t in RELATIONS or t == "|":
            stopped[-1] = True
            continue
        if t == "," and depth > 0:
            continue
        if not stopped[-1] and is_operand(t) and not t[0].isdigit() and t not in ("_",) and "." not in t:
            names.append(t)
    return names


def rename_bound(toks: Sequence[str], free: dict[str, str] | None = None) -> tuple[str, ...]:
    """`toks` with the variables bound inside it renamed `b0, b1, …` in binding order (scoped:
    a binder's names are renamed up to the end of the bracket it appears in), and the names in
    `free` (the theorem's own variables) renamed as given."""
    free = dict(free or {})
    scopes: list[tuple[str, str, int]] = []  # (name, canonical, depth of the binder)
    counter = 0
    depth = 0
    out: list[str] = []

    def lookup(name: str) -> str | None:
        for n, canon, _ in reversed(scopes):
            if n == name:
                return canon
        return free.get(name)

    def rename(tok: str) -> str:
        head, dot, rest = tok.partition(".")
        canon = lookup(head)
        return tok if canon is None else canon + dot + rest

    for i, t in enumerate(toks):
        if t in CLOSE:
            depth -= 1
            while scopes and scopes[-1][2] > depth:
                scopes.pop()
        bind_at: int | None = None
        if t in BINDERS and t not in ("Π", "Σ"):
            end = _binder_region_end(toks, i + 1, t)
            bind_at = depth
            names = _binder_names(toks[i + 1 : end])
        elif t == "{" and i + 2 < len(toks) and is_operand(toks[i + 1]) and toks[i + 2] in ("|", ":"):
            names, bind_at = [toks[i + 1]], depth + 1  # set-builder `{x | p x}`
        else:
            names = []
        for name in names:
            scopes.append((name, f"b{counter}", bind_at if bind_at is not None else depth))
            counter += 1
        out.append(rename(t) if is_operand(t) else t)
        if t in OPEN:
            depth += 1
    return tuple(out)


def _scope_end(toks: Sequence[str], start: int) -> int:
    """Index of the first closing bracket from `start` that closes a bracket opened before it."""
    depth = 0
    for j in range(start, len(toks)):
        if toks[j] in OPEN:
            depth += 1
        elif toks[j] in CLOSE:
            if depth == 0:
                return j
            depth -= 1
    return len(toks)


def desugar_binders(toks: Sequence[str]) -> tuple[str, ...]:
    """`∀`/`∃` binders one name at a time, binder predicates expanded, as Lean's macros do:
    `∀ x y : ℝ, P` → `∀ x : ℝ, ∀ y : ℝ, P`; `∀ x > 0, P` → `∀ x, x > 0 → (P)`;
    `∃ x ∈ s, P` → `∃ x, x ∈ s ∧ (P)` (parentheses `strip_parentheses` drops where redundant)."""
    out: list[str] = []
    i, n = 0, len(toks)
    while i < n:
        t = toks[i]
        if t in ("∀", "∃"):
            end = _binder_region_end(toks, i + 1, t)
            if end >= n or toks[end] != ",":
                out.extend(toks[i:])
                break
            region = toks[i + 1 : end]
            scope = _scope_end(toks, end + 1)
            body = desugar_binders(toks[end + 1 : scope])
            rel = next((k for k in top_level(region) if region[k] in RELATIONS), None)
            parts: list[tuple[str, tuple[str, ...] | None, tuple[str, ...] | None]] = []
            if rel is not None and region[:1] and region[0] not in OPEN:
                bound = desugar_binders(region[rel:])
                parts = [(name, None, (name, *bound)) for name in region[:rel] if name != ","]
            else:
                for b in _split_groups(region):
                    if b.name is None or b.instance:
                        parts = []
                        break
                    parts.append((b.name, None if b.type is None else desugar_binders(b.type), None))
            if not parts:  # a pattern or an instance binder: left as written
                out += [t, *region, ",", *body]
            else:
                joiner = "→" if t == "∀" else "∧"
                closing = 0
                for name, typ, pred in parts:
                    out += [t, name, *((":", *typ) if typ else ()), ","]
                    if pred is not None:
                        out += [*pred, joiner, "("]
                        closing += 1
                out += [*body, *([")"] * closing)]
            i = scope
            continue
        if t in OPEN:
            j = match_bracket(toks, i)
            out += [t, *desugar_binders(toks[i + 1 : j]), *toks[j : j + 1]]
            i = j + 1
            continue
        out.append(t)
        i += 1
    return tuple(out)


# --------------------------------------------------------------------------------------------
# theorem binders and the goal
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Binder:
    instance: bool
    name: str | None
    type: tuple[str, ...] | None


def _split_groups(toks: Sequence[str]) -> list[Binder]:
    """Binders of a signature or a `∀`: bracket groups `(a b : T)`, `{a : T}`, `[Inst α]`,
    `⦃x : T⦄`, and bare names (`∀ x y : T` / `theorem t x y : …`)."""
    out: list[Binder] = []
    i = 0
    bare: list[str] = []
    while i < len(toks):
        t = toks[i]
        if t in ("(", "{", "[", "⦃", "⟨"):
            j = match_bracket(toks, i)
            inner = list(toks[i + 1 : j])
            if t == "{" and inner[:1] == ["{"]:  # `{{x : T}}` strict implicit
                inner = inner[1:-1]
            colon = next((k for k in top_level(inner) if inner[k] == ":"), None)
            if t == "[":
                if colon is None:
                    out.append(Binder(True, None, tuple(inner)))
                else:
                    out.append(Binder(True, "".join(inner[:colon]), tuple(inner[colon + 1 :])))
            else:
                names = inner if colon is None else inner[:colon]
                typ = None if colon is None else tuple(inner[colon + 1 :])
                out.extend(Binder(False, n, typ) for n in names if n != ",")
            i = j + 1
            continue
        if t == ":":  # bare names with one type: `∀ x y : ℝ`
            out.extend(Binder(False, n, tuple(toks[i + 1 :])) for n in bare)
            return out
        bare.append(t)
        i += 1
    out.extend(Binder(False, n, None) for n in bare)
    return out


def _peel_goal(goal: tuple[str, ...]) -> tuple[list[Binder], tuple[str, ...]]:
    """Leading `∀ binders,` and top-level `P →` of the goal as binders (a theorem's binders and
    its goal's are the same Π-type)."""
    binders: list[Binder] = []
    while goal:
        goal = _unwrap(goal)
        if goal[0] == "∀":
            end = _binder_region_end(goal, 1, "∀")
            if end >= len(goal):
                break
            region = goal[1:end]
            rel = next((k for k in top_level(region) if region[k] in RELATIONS), None)
            if rel is not None and region[0] not in OPEN:  # `∀ x > 0,` ≡ `∀ x, x > 0 →`
                names = [t for t in region[:rel] if t != ","]
                binders.extend(Binder(False, n, None) for n in names)
                binders.extend(Binder(False, None, (n, *region[rel:])) for n in names)
            else:
                binders.extend(_split_groups(region))
            goal = goal[end + 1 :]
            continue
        top = top_level(goal)
        if any(goal[k] in BINDERS or goal[k] == "↔" for k in top):
            arrow = None  # `∃ x, p → q` / `p → q ↔ r`: the arrow is not the goal's own
            first_binder = next((k for k in top if goal[k] in BINDERS or goal[k] == "↔"), len(goal))
            arrow = next((k for k in top if goal[k] == "→" and k < first_binder), None)
            if arrow is not None and any(goal[k] == "↔" for k in top):
                arrow = None
        else:
            arrow = next((k for k in top if goal[k] == "→"), None)
        if arrow is None or arrow == 0:
            break
        binders.append(Binder(False, None, goal[:arrow]))
        goal = goal[arrow + 1 :]
    return binders, goal


def _unwrap(toks: tuple[str, ...]) -> tuple[str, ...]:
    while len(toks) > 2 and toks[0] == "(" and match_bracket(toks, 0) == len(toks) - 1:
        toks = toks[1:-1]
    return toks


def _signature(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(binder tokens, goal tokens) of the last theorem of `text`; for text without a
    declaration, the text is the goal (anything after a top-level `:=` dropped)."""
    decl = lean_syntax.last_theorem(text)
    if decl is not None:
        return expression_tokens(decl.binders), expression_tokens(decl.type)
    toks = expression_tokens(text)
    top = top_level(toks)
    assign = next((k for k in top if toks[k] == ":="), len(toks))
    toks = toks[:assign]
    if toks[:1] and toks[0] in ("theorem", "lemma", "example"):
        start = 1 if toks[0] == "example" else 2
        colon = next((k for k in top_level(toks) if toks[k] == ":" and k >= start), None)
        if colon is not None:
            return toks[start:colon], toks[colon + 1 :]
    return (), toks


def _free_names(toks: Sequence[str] | None) -> frozenset[str]:
    """Identifiers (dotted ones by their head: `h.1`, `x.succ`) occurring free in `toks`: a
    binder named `h` is a variable only if a later type or the goal mentions `h` outside the
    scope of an inner `∀ h` / `fun h`."""
    if not toks:
        return frozenset()
    bound = rename_bound(desugar_binders(tuple(toks)))
    original = desugar_binders(tuple(toks))
    return frozenset(o.partition(".")[0] for o, r in zip(original, bound, strict=True) if o == r and is_operand(o))


@functools.lru_cache(maxsize=8192)
def canonical_tokens(text: str) -> tuple[str, ...]:
    """The canonical token stream of the last theorem of `text` (or of `text` as a bare
    proposition): variables `(v0 : T)` in order, then the hypotheses `(_ : P)` sorted, then
    `⊢` and the goal. See the module docstring for what is canonicalised."""
    binder_toks, goal = _signature(text)
    binders = _split_groups(binder_toks)
    peeled, goal = _peel_goal(desugar_binders(goal))
    binders += peeled

    free = [_free_names(b.type) for b in binders] + [_free_names(goal)]

    def mentioned_after(k: int, name: str) -> bool:
        for j in range(k + 1, len(binders) + 1):
            if name in free[j]:
                return True
            if j < len(binders) and binders[j].name == name:
                return False  # a later binder of the same name shadows this one
        return False

    variables: dict[str, str] = {}
    kept: list[tuple[Binder, bool]] = []  # (binder, is a variable)
    for k, b in enumerate(binders):
        is_var = b.name is not None and (b.type is None or mentioned_after(k, b.name))
        kept.append((b, is_var))

    def canon(toks: Sequence[str] | None) -> tuple[str, ...]:
        if toks is None:
            return ("_",)
        return rename_bound(strip_parentheses(desugar_binders(_unwrap(tuple(toks)))), variables)

    out: list[str] = []
    hyps: list[tuple[str, ...]] = []
    counter = itertools.count()
    for b, is_var in kept:
        typ = canon(b.type)  # before the binder's own name is in scope
        if is_var:
            assert b.name is not None
            variables[b.name] = f"v{next(counter)}"
            out += ["(", variables[b.name], ":", *typ, ")"]
        else:
            hyps.append(("[" if b.instance else "(", "_", ":", *typ, "]" if b.instance else ")"))
    for h in sorted(hyps):
        out += h
    out += ["⊢", *canon(goal)]
    return tuple(out)


def statement_key(text: str) -> str:
    """The hold-out / dedup key of a theorem or lemma (its canonical token stream as one string)."""
    return " ".join(canonical_tokens(text))


def same_tokens(a: str, b: str) -> bool:
    """Whether `a` and `b` are the same Lean text up to whitespace, comments and spelling
    (`x*y` ≡ `x * y`); no renaming."""
    return expression_tokens(a) == expression_tokens(b)


__all__ = [
    "Binder",
    "canonical_tokens",
    "desugar_binders",
    "expression_tokens",
    "rename_bound",
    "same_tokens",
    "statement_key",
]

"""Statement normalisation and comparison: ONE normaliser (`normalize_statement`) for every place
that asks "is this the same Lean text?" (audit, subgoal cache, hold-out key, step keys), and the
preamble checks built on it (`same_statement`, `preamble_diff`, answer slots).

`statement_tokens(text)` is the token stream Lean would see: comments and doc comments dropped,
whitespace ignored (`x*y` ≡ `x * y`, `194%11` ≡ `194 % 11`, `(x:ℕ)` ≡ `(x : ℕ)`), string
literals verbatim. The only whitespace kept is where Lean's grammar reads it (`checkNoWsBefore`):
a `[`, `.`, `.x` or field index glued to the token before it (`a[i]` indexes, `a [i]` applies
`a` to a list; `x.1` and `(f x).g` project, `x .1` and `(f x) .g` apply), marked by a leading `GLUE` character on that token.
`normalize_statement(text)` is the same stream as one string: tokens joined by one space, glued
tokens attached to the previous one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lemmaforge.lean.syntax.commands import Declaration, declarations_of, last_theorem, raw_commands
from lemmaforge.lean.syntax.layout import CLOSE_BRACKETS, OPEN_BRACKETS, analyze
from lemmaforge.lean.syntax.lexer import Token, format_name, name_components, tokens

__all__ = [
    "GLUE",
    "answer_slots",
    "filled_answers",
    "normalize_code",
    "normalize_statement",
    "preamble_changed",
    "preamble_diff",
    "same_statement",
    "statement_tokens",
    "theorem_key",
]

GLUE = "\u2040"  # ⁀ marks a token that touches the previous one where Lean cares (`a[i]`, `x.1`)
_GLUE_SENSITIVE = frozenset({"[", ".", "@[", ".."})

# Options that only change resources or printing: allowed to differ in `set_option … in`
# prefixes and to be added before a theorem.
_HARMLESS_OPTIONS = re.compile(
    r"^set_option (?:maxHeartbeats|maxRecDepth|synthInstance\.maxHeartbeats|synthInstance\.maxSize|"
    r"linter\.\S+|pp\.\S+|tactic\.hygienic) "
)


def statement_tokens(text: str) -> tuple[str, ...]:
    """The token texts of `text` as Lean reads them (see the module docstring)."""
    return canonical_tokens(tokens(text))


def canonical_tokens(toks: Sequence[Token]) -> tuple[str, ...]:
    """`statement_tokens` of already lexed tokens (comments already dropped)."""
    out: list[str] = []
    prev: Token | None = None
    for t in toks:
        glued = (
            prev is not None
            and t.start == prev.end
            and (
                (t.kind == "symbol" and t.text in _GLUE_SENSITIVE)
                or t.kind == "dotident"  # `(f x).foo` projects, `(f x) .foo` applies
                or (t.kind == "number" and prev.text == ".")  # `x.1`: a field index
            )
        )
        out.append(GLUE + t.text if glued else t.text)
        prev = t
    return tuple(out)


def normalize_statement(text: str) -> str:
    """`statement_tokens` as one canonical string: `x*y`, `x  *\n y` and `x /- c -/ * y` all give
    `x * y`; `(x:ℕ)` gives `(x : ℕ)`."""
    return join_canonical(statement_tokens(text))


def join_canonical(toks: Sequence[str]) -> str:
    """Canonical tokens as text: one space between tokens, none after an opening bracket, before a
    closing bracket or `,`, and none before a glued token. A function of the tokens only."""
    parts: list[str] = []
    prev = ""
    for tok in toks:
        if tok.startswith(GLUE):
            parts.append(tok[len(GLUE) :])
            prev = tok[len(GLUE) :]
            continue
        if parts and prev not in OPEN_BRACKETS and tok not in CLOSE_BRACKETS and tok != ",":
            parts.append(" ")
        parts.append(tok)
        prev = tok
    return "".join(parts)


# The name other modules used before there was one normaliser.
normalize_code = normalize_statement


def _statement_key(decl: Declaration) -> tuple[str, ...]:
    kind = "theorem" if decl.kind == "lemma" else decl.kind  # Mathlib's `lemma` is `theorem`
    prefixes = tuple(
        normalize_code(p)
        for p in decl.prefix_commands
        if not _HARMLESS_OPTIONS.match(normalize_code(p) + " ")
    )
    # The name as Lean reads it: `theorem «t»` declares `t`, but `«t.x»` is one component, not `t.x`.
    name = format_name(name_components(decl.name)) or decl.name
    return (kind, name, decl.universe_params, normalize_code(decl.signature), *prefixes)


def same_statement(original: str, candidate: str) -> bool:
    """Whether the last theorem/lemma of `candidate` states the last theorem/lemma of `original`.

    Compared: the name, universe parameters, binders and type (after `normalize_code`: comments
    and the amount/kind of whitespace do not matter, its presence does), and the `open … in` /
    `set_option … in` prefixes (except resource/printing options such as `maxHeartbeats`).
    Ignored: `theorem` vs `lemma`, the docstring, attributes and modifiers, and the proof after
    `:=`. What precedes the theorem is NOT compared here: see `preamble_diff`."""
    a, b = last_theorem(original), last_theorem(candidate)
    if a is None or b is None:
        return False
    return _statement_key(a) == _statement_key(b)


@dataclass(frozen=True, slots=True)
class _PreambleCommand:
    keyword: str
    text: str  # normalize_code of the command
    decl: Declaration | None


def _preamble(code: str) -> list[_PreambleCommand]:
    an = analyze(code)
    theorem_start = None
    decls = declarations_of(an)
    theorems = [d for d in decls if d.kind in ("theorem", "lemma")]
    if theorems:
        theorem_start = theorems[-1].start
    by_keyword = {d.keyword_start: d for d in decls}
    out = []
    for cmd in raw_commands(an):
        first = an.toks[cmd.first]
        if theorem_start is not None and first.start >= theorem_start:
            break
        kw = an.toks[cmd.keyword]
        text = normalize_code(code[first.start : an.toks[cmd.last].end])
        out.append(_PreambleCommand(kw.text, text, by_keyword.get(kw.start)))
    return out


def _is_answer_slot(decl: Declaration | None) -> bool:
    return (
        decl is not None and decl.kind in ("def", "abbrev", "opaque") and normalize_code(decl.body) == "sorry"
    )


def answer_slots(code: str) -> list[Declaration]:
    """Definitions before the last theorem whose whole body is `sorry`: the answer a solver must
    supply (PutnamBench's `abbrev putnam_…_solution : T := sorry`)."""
    return [c.decl for c in _preamble(code) if c.decl is not None and _is_answer_slot(c.decl)]


def _slot_key(decl: Declaration) -> tuple[str, str, str]:
    return (decl.kind, decl.name, normalize_code(decl.signature))


def preamble_diff(
    original: str, candidate: str, *, allow_answer_slots: bool = True, allow_added_lemmas: bool = True
) -> list[str]:
    """How the candidate changed what comes before its theorem, as readable lines (empty: nothing).

    Every command of the original before its last theorem (header lines included) must appear in
    the candidate, in order and unchanged up to `normalize_code`, except that an answer slot
    (`def`/`abbrev … := sorry`, see `answer_slots`) may receive any body when
    `allow_answer_slots` (same kind, name and signature). The candidate may add `theorem`/`lemma`
    declarations (lemma-style assembly) when `allow_added_lemmas`, and resource/printing
    `set_option`s; any other addition (def, instance, notation, open, import, axiom…) is a change,
    because it can alter what the unchanged statement text means."""
    orig = _preamble(original)
    cand = _preamble(candidate)
    problems: list[str] = []
    j = 0
    for o in orig:
        k = j
        while k < len(cand):
            c = cand[k]
            if c.text == o.text:
                break
            if (
                allow_answer_slots
                and _is_answer_slot(o.decl)
                and c.decl is not None
                and o.decl is not None
                and _slot_key(c.decl) == _slot_key(o.decl)
            ):
                break
            k += 1
        if k == len(cand):
            problems.append(f"missing or changed: {o.text[:100]}")
            continue
        problems.extend(_disallowed_additions(cand[j:k], allow_added_lemmas))
        j = k + 1
    problems.extend(_disallowed_additions(cand[j:], allow_added_lemmas))
    return problems


def _disallowed_additions(added: Sequence[_PreambleCommand], allow_added_lemmas: bool) -> list[str]:
    out = []
    for c in added:
        if allow_added_lemmas and c.decl is not None and c.decl.kind in ("theorem", "lemma"):
            continue
        if c.keyword == "set_option" and _HARMLESS_OPTIONS.match(c.text + " "):
            continue
        out.append(f"added: {c.text[:100]}")
    return out


def preamble_changed(original: str, candidate: str, **options: bool) -> bool:
    """True when `preamble_diff` reports anything (same options)."""
    return bool(preamble_diff(original, candidate, **options))


def filled_answers(original: str, candidate: str) -> dict[str, str]:
    """Name → candidate body (normalized) of each answer slot of `original` that `candidate`
    filled with something other than `sorry`."""
    slots = {_slot_key(d): d.name for d in answer_slots(original)}
    out: dict[str, str] = {}
    for c in _preamble(candidate):
        if c.decl is not None and _slot_key(c.decl) in slots:
            body = normalize_code(c.decl.body)
            if body != "sorry":
                out[c.decl.name] = body
    return out


def theorem_key(text: str) -> str:
    """What the last theorem of `text` states, as one normalised string without its name, its
    proof or anything before it: the non-harmless `… in` prefixes, universe parameters, binders
    and type. Two lemmas that differ only in name, comments, whitespace or proof share it (the
    subgoal cache key, the hold-out key of `gen-data`). Text without a theorem: the normalised
    text before its first top-level `:=` with a leading `theorem`/`lemma name` dropped."""
    decl = last_theorem(text)
    if decl is None:
        toks = statement_tokens(text)
        if len(toks) >= 2 and toks[0] in ("theorem", "lemma"):
            toks = toks[2:]
        if ":=" in toks:
            toks = toks[: toks.index(":=")]
        return join_canonical(toks)
    _, _, universe_params, signature, *prefixes = _statement_key(decl)
    head = " ".join(prefixes)
    return f"{head} ⊢ {universe_params} {signature}".strip() if head or universe_params else signature

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

from lemmaforge.lean.syntax._commands import Declaration, declarations_of, last_theorem, raw_commands
from lemmaforge.lean.syntax._layout import CLOSE_BRACKETS, OPEN_BRACKETS, analyze
from lemmaforge.lean.syntax._lexer import format_name, name_components, tokens
from lemmaforge.lean.syntax._scanner import Token

__all__ = [
    "GLUE",
    "answer_slots",
    "compared_tokens",
    "filled_answers",
    "normalize_code",
    "normalize_statement",
    "HeaderCommand",
    "IMPORT_ROOTS",
    "header_command",
    "preamble_changed",
    "preamble_diff",
    "SAME_SPELLING",
    "StatementMatch",
    "same_statement",
    "statement_match",
    "statement_tokens",
    "target_declaration",
    "theorem_key",
]

GLUE = "\u2040"  # ⁀ marks a token that touches the previous one where Lean cares (`a[i]`, `x.1`)
_GLUE_SENSITIVE = frozenset({"[", ".", "@[", ".."})

# Options that only change resources, hygiene or printing: allowed to differ in `set_option … in`
# prefixes and before a theorem. A limit (heartbeats, recursion depth, instance-search size or depth)
# only makes elaboration fail or not (Lean throws when one is reached); `tactic.hygienic` only
# decides whether names a tactic introduces are inaccessible; `pp.*` and `linter.*` only change
# what Lean prints or warns about (the audit's type probe sets every `pp` option that decides which
# constant a printed name denotes, lean/audit/_judge.py). The gate (lean/gate/_whitelist.py
# `ALLOWED_OPTIONS`) refuses every other option outright.
_HARMLESS_OPTIONS = re.compile(
    r"^set_option (?:maxHeartbeats|maxRecDepth|maxSynthPendingDepth|synthInstance\.maxHeartbeats|"
    r"synthInstance\.maxSize|linter\.\S+|pp\.\S+|tactic\.hygienic) "
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
    # The name as Lean reads it: `theorem «t»` declares `t`, but `«t.x»` is one component, not `t.x`.
    name = format_name(name_components(decl.name)) or decl.name
    return (kind, name, decl.universe_params, _signature_key(decl), *_prefixes_key(decl))


def _prefixes_key(decl: Declaration) -> tuple[str, ...]:
    """The declaration's `… in` prefix commands as compared: normalised, harmless options left out."""
    return tuple(
        normalize_code(p)
        for p in decl.prefix_commands
        if not _HARMLESS_OPTIONS.match(normalize_code(p) + " ")
    )


def _signature_key(decl: Declaration) -> str:
    """`normalize_code(decl.signature)` from the tokens the declaration was read with: the same
    tokens (the signature is a run of whole tokens of the text), without lexing it again."""
    if decl.signature_tokens:
        return join_canonical(canonical_tokens(decl.signature_tokens))
    return normalize_code(decl.signature)


def same_statement(original: str, candidate: str) -> bool:
    """Whether `candidate` states the theorem of `original` (see `statement_match`)."""
    return statement_match(original, candidate).same


# Spellings Lean reads as one token, or as two notations that expand to the same term: each
# alternative → the spelling compared. From Lean's own source (leanprover/lean4):
# * src/Lean/Parser/Term.lean @ 0dbbe18d70d1b4418d0d1adb25be96a4fdb463d0: `unicodeSymbol " → " " -> "`
#   (arrow, depArrow), `unicodeSymbol "∀" "forall"`, `unicodeSymbol "λ" "fun"`,
#   `unicodeSymbol " ↦" " =>"` (basicFun), and `unicodeSymbol "← " "<- "` (the left arrow);
# * src/Init/Notation.lean @ 00298d032ca27919e182e96d0da81602bfee9120: `infix " <= "`/`" ≤ "` =>
#   LE.le and `" >= "`/`" ≥ "` => GE.ge (both re-expanded by the same `binrel%` macro_rules),
#   `infixr " /\\ "`/`" ∧ "` => And, `infixr " \\/ "`/`" ∨ "` => Or;
# * src/Init/Core.lean @ f4a05a01b54c99a2b2fa8f44a557a69c98b1ec20: `infix " <-> "`/`" ↔ "` => Iff.
# Not here on purpose: `!=` (`bne`, a Bool) is not `≠` (`Ne`, a Prop); `ℕ`/`Nat` is Mathlib
# notation that a local notation could shadow; `exists`/`∃` are two macros.
SAME_SPELLING = {
    "->": "→", "forall": "∀", "λ": "fun", "↦": "=>", "<-": "←",
    "<=": "≤", ">=": "≥", "/\\": "∧", "\\/": "∨", "<->": "↔",
}
# The ASCII `/\` and `\/` as two touching tokens (a lexer that does not know them as one).
_SPLIT_SPELLINGS = {("/", "\\"): "∧", ("\\", "/"): "∨"}


def _spelled(toks: Sequence[Token]) -> list[Token]:
    """`toks` with every alternative spelling replaced by the one compared (`SAME_SPELLING`)."""
    out: list[Token] = []
    for t in toks:
        if out and t.kind == "symbol" and out[-1].kind == "symbol" and out[-1].end == t.start:
            merged = _SPLIT_SPELLINGS.get((out[-1].text, t.text))
            if merged is not None:
                out[-1] = out[-1]._replace(text=merged, end=t.end)
                continue
        if t.kind in ("symbol", "ident") and t.text in SAME_SPELLING:
            t = t._replace(text=SAME_SPELLING[t.text])
        out.append(t)
    return out


def compared_tokens(text: str) -> list[str]:
    """`text`'s tokens as statements are compared: comments and whitespace dropped, one spelling per
    token Lean reads alike (`SAME_SPELLING`), glued tokens marked (`GLUE`); `join_canonical` makes
    them one string (benchmarks/answers.py compares answers so)."""
    return list(canonical_tokens(_spelled(tokens(text))))


@dataclass(frozen=True, slots=True)
class StatementMatch:
    """Whether a candidate states an original's theorem; `detail` says what differs when not."""

    same: bool
    detail: str = ""
    target: Declaration | None = None  # the candidate's declaration with the original's name


def _decl_key(decl: Declaration) -> str:
    """A declaration's full name as Lean reads it (`«t»` is `t`; `«t.x»` is one component)."""
    return format_name(name_components(decl.full_name or decl.name)) or decl.full_name or decl.name


def target_declaration(candidate: str, name: str) -> list[Declaration]:
    """The theorems/lemmas of `candidate` whose full name is `name` (by name, never by position:
    a helper lemma after the theorem is not the target)."""
    key = format_name(name_components(name)) or name
    return [d for d in declarations_of(analyze(candidate)) if d.kind in ("theorem", "lemma") and _decl_key(d) == key]


_SORRY_TAILS = ((":=", "sorry"), (":=", "by", "sorry"))


def _signature_tokens(code: str, decl: Declaration, *, exact: bool) -> tuple[tuple[str, ...], str | None] | None:
    """(canonical signature tokens, the token that must follow them) of `decl` in `code`.

    `exact`: the original's signature is everything between its name and the final `:=` of a file
    ending in `:= sorry` / `:= by sorry` (comments aside): known exactly, nothing guessed. Without
    an exact end (an original that does not end so), the syntax layer's signature span is used and
    the token after it (`:=`, `|`, `where`) must follow in the candidate too."""
    toks = tokens(code)
    k = next((i for i, t in enumerate(toks) if t.start >= decl.signature_start), len(toks))
    prev = toks[k - 1 : k] if k > 0 else []
    if exact:
        stop = len(toks)
        while stop - k >= 2 and toks[stop - 2].text == "end" and toks[stop - 1].kind == "ident":
            stop -= 2  # `end Foo` closing the namespace/section the theorem sits in
        while stop - k >= 1 and toks[stop - 1].text == "end":
            stop -= 1
        tail = [t.text for t in toks[k:stop]]
        for end in _SORRY_TAILS:
            if tuple(tail[-len(end) :]) == end:
                sig = toks[k : stop - len(end)]
                return canonical_tokens(_spelled([*prev, *sig]))[len(prev) :], ":="
        return None
    sig_end = decl.signature_start + len(code[decl.signature_start :]) - len(code[decl.signature_start :].lstrip())
    sig_end += len(decl.signature)
    j = next((i for i in range(k, len(toks)) if toks[i].start >= sig_end), len(toks))
    after = toks[j].text if j < len(toks) else None
    return canonical_tokens(_spelled([*prev, *toks[k:j]]))[len(prev) :], after


def statement_match(original: str, candidate: str) -> StatementMatch:
    """Whether `candidate` states the last theorem/lemma of `original`.

    The target is the candidate's theorem with the original's full name (found by name; exactly
    one). Its signature must be the original's token sequence exactly, then `:=`: when the
    original ends in `:= sorry` / `:= by sorry` (every benchmark statement does) that sequence is
    known exactly, with no guess at where a signature ends (a type line starting with `|x|` or
    holding `match` alternatives is compared whole). Tolerated: the spellings Lean reads as the
    same (`SAME_SPELLING`), comments and the amount of whitespace (not its presence where Lean
    reads it, see `canonical_tokens`), `theorem` vs `lemma`, docstrings, attributes, modifiers,
    and resource/printing options in `set_option … in` prefixes. Compared too: universe
    parameters and the other `open … in` / `set_option … in` prefixes. What precedes the theorem
    is NOT compared here: see `preamble_diff`."""
    a = last_theorem(original)
    if a is None:
        return StatementMatch(False, "the original has no theorem or lemma")
    found = target_declaration(candidate, a.full_name or a.name)
    if not found:
        return StatementMatch(False, f"no theorem named '{a.full_name or a.name}'")
    if len(found) > 1:
        return StatementMatch(False, f"'{a.full_name or a.name}' is declared {len(found)} times")
    b = found[0]
    wanted = _signature_tokens(original, a, exact=True) or _signature_tokens(original, a, exact=False)
    assert wanted is not None  # the inexact form always answers
    sig, follow = wanted
    cand_toks = tokens(candidate)
    k = next((i for i, t in enumerate(cand_toks) if t.start >= b.signature_start), len(cand_toks))
    prev = cand_toks[k - 1 : k] if k > 0 else []
    # One more token than the signature: the spelling merge may join two into one.
    window = canonical_tokens(_spelled([*prev, *cand_toks[k : k + 2 * len(sig) + 2]]))[len(prev) :]
    if window[: len(sig)] != sig or (follow is not None and window[len(sig) : len(sig) + 1] != (follow,)):
        return StatementMatch(False, "the signature differs from the original's", b)
    if _prefix_key(a) != _prefix_key(b):
        return StatementMatch(False, "the kind, universe parameters or `… in` prefixes differ", b)
    return StatementMatch(True, "", b)


def _prefix_key(decl: Declaration) -> tuple[str, ...]:
    """`_statement_key` without the name and the signature (compared on their own, and not put
    together here: a sketch's signature is most of its statement)."""
    kind = "theorem" if decl.kind == "lemma" else decl.kind
    return (kind, normalize_code(decl.universe_params), *_prefixes_key(decl))


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
    original: str, candidate: str, *, allow_answer_slots: bool = True, allow_added_lemmas: bool = True,
    allow_header_changes: bool = False,
) -> list[str]:
    """How the candidate changed what comes before its theorem, as readable lines (empty: nothing).

    Every command of the original before its last theorem (header lines included) must appear in
    the candidate, in order and unchanged up to `normalize_code`, except that an answer slot
    (`def`/`abbrev … := sorry`, see `answer_slots`) may receive any body when
    `allow_answer_slots` (same kind, name and signature). The candidate may add `theorem`/`lemma`
    declarations (lemma-style assembly) when `allow_added_lemmas`, and resource/printing
    `set_option`s; any other addition (def, instance, notation, open, import, axiom…) is a change,
    because it can alter what the unchanged statement text means.

    `allow_header_changes` (the final audit, where Lean's print of the theorem's elaborated type is
    compared with the original's): the header is not the statement. Header commands (`header_command`:
    imports, `open`s of namespaces, resource/printing options) may then be added, left out and
    reordered; only the original's other commands (its context: definitions, lemmas proved by
    `sorry`, answer slots, `variable`s, sections…) must be there unchanged and in order, each under
    exactly the imports and `open`s it had in the original (`_in_force`): Lean's type print vouches
    for the theorem, not for a definition's body. An `open … renaming` or an import outside
    `IMPORT_ROOTS` (and the original's own imports) stays a change."""
    if allow_header_changes:
        return _context_diff(_preamble(original), _preamble(candidate), allow_answer_slots, allow_added_lemmas)
    orig = _preamble(original)
    cand = _preamble(candidate)
    problems: list[str] = []
    j = 0
    for o in orig:
        if o.keyword == "set_option" and _HARMLESS_OPTIONS.match(o.text + " ") and not any(
            c.text == o.text for c in cand[j:]
        ):
            continue  # a resource/printing option (`maxHeartbeats 400000` → `0`): Lean elaborates the same
        k = _find(o, cand, j, allow_answer_slots)
        if k == len(cand):
            problems.append(f"missing or changed: {o.text[:100]}")
            continue
        problems.extend(_disallowed_additions(cand[j:k], allow_added_lemmas))
        j = k + 1
    problems.extend(_disallowed_additions(cand[j:], allow_added_lemmas))
    return problems


def _find(o: _PreambleCommand, cand: Sequence[_PreambleCommand], j: int, allow_answer_slots: bool) -> int:
    """The index of the first command of `cand[j:]` that is `o` (its text, or its answer slot
    filled), len(cand) when none is."""
    for k in range(j, len(cand)):
        c = cand[k]
        if c.text == o.text:
            return k
        if (
            allow_answer_slots
            and _is_answer_slot(o.decl)
            and c.decl is not None
            and o.decl is not None
            and _slot_key(c.decl) == _slot_key(o.decl)
        ):
            return k
    return len(cand)


def _disallowed_additions(added: Sequence[_PreambleCommand], allow_added_lemmas: bool) -> list[str]:
    out = []
    for c in added:
        if allow_added_lemmas and c.decl is not None and c.decl.kind in ("theorem", "lemma"):
            continue
        if c.keyword == "set_option" and _HARMLESS_OPTIONS.match(c.text + " "):
            continue
        out.append(f"added: {c.text[:100]}")
    return out


# --- the header is not the statement -----------------------------------------------------------

# Module roots a candidate may import beyond the original's own imports: the libraries published
# provers import (Mathlib, Aesop) and those Mathlib is built on that a proof may name (Batteries,
# and Std: Std4 before Batteries' rename, Lean core's `Std` after). A module the pinned project
# lacks is Lean's own error. Left out on purpose: `Lake` (its DSL keywords `package`, `require`,
# `script`… are commands only after `import Lake`, and the gate's command list relies on no
# candidate adding it, lean/gate/_whitelist.py) and `Lean` (the metaprogramming framework: no proof
# needs it, and the gate keeps its commands out anyway).
IMPORT_ROOTS = frozenset({"Mathlib", "Aesop", "Batteries", "Std"})


@dataclass(frozen=True, slots=True)
class HeaderCommand:
    """A header command as the audit compares it: `kind` is "import", "open" or "option"; `items`
    what it brings in force, one per module or namespace (`import Mathlib`, `open Real`,
    `open scoped Nat`, `open Finset hiding sum`, `open Nat (succ)`), so that `open A B` and
    `open A` then `open B` are the same; `refusal`, when set, is why a candidate may not add it."""

    kind: str
    items: tuple[str, ...]
    refusal: str = ""


def header_command(text: str) -> HeaderCommand | None:
    """`text` (one command) as a header command, or None when it is something else (a `… in`
    prefix makes it part of the command it prefixes).

    * `import M`: refused when M's root is outside `IMPORT_ROOTS` (the caller also accepts the
      original's own imports);
    * `open A B`, `open scoped A B`, `open A hiding x y`, `open A (x y)`: the namespaces (or the
      names of one) come into scope; a scoped notation or instance they bring changes what the
      theorem means only through Lean's elaboration of it, which the audit's type print compares;
    * `open A renaming x → y`: refused; it makes the statement's text name another constant than it
      reads (`y` is `A.x`), and the audit does not leave that to the print alone;
    * `set_option` of a resource/printing option (`_HARMLESS_OPTIONS`)."""
    toks = list(statement_tokens(text))
    if not toks or "in" in toks[1:]:
        return None
    if toks[0] == "import" and len(toks) == 2:
        root = name_components(toks[1])[0] if name_components(toks[1]) else toks[1]
        refusal = "" if root in IMPORT_ROOTS else (
            f"module root `{root}` is not one of {', '.join(sorted(IMPORT_ROOTS))}")
        return HeaderCommand("import", (f"import {toks[1]}",), refusal)
    if toks[0] == "set_option":
        return HeaderCommand("option", (join_canonical(toks),)) if _HARMLESS_OPTIONS.match(
            join_canonical(toks) + " ") else None
    if toks[0] != "open" or len(toks) < 2:
        return None
    rest = toks[1:]
    if "renaming" in rest:
        return HeaderCommand("open", (join_canonical(toks),), "`open … renaming` gives a constant another name")
    if rest[0] == "scoped":
        return HeaderCommand("open", tuple(f"open scoped {n}" for n in rest[1:]))
    if "hiding" in rest or "(" in rest:
        return HeaderCommand("open", (join_canonical(toks),))
    if not all(_is_name(t) for t in rest):
        return None
    return HeaderCommand("open", tuple(f"open {n}" for n in rest))


def _is_name(tok: str) -> bool:
    return bool(name_components(tok)) and not tok.startswith(GLUE)


def _header_of(c: _PreambleCommand) -> HeaderCommand | None:
    """`c` as a header command the candidate may change (None: a context command)."""
    if c.keyword not in ("import", "open", "set_option"):
        return None
    return header_command(c.text)


def _context_diff(
    orig: Sequence[_PreambleCommand], cand: Sequence[_PreambleCommand], allow_answer_slots: bool,
    allow_added_lemmas: bool,
) -> list[str]:
    """`preamble_diff` with `allow_header_changes` (see there)."""
    own_imports = {item for o in orig if (h := _header_of(o)) is not None and h.kind == "import" for item in h.items}
    problems: list[str] = []
    matched: dict[int, int] = {}  # candidate index → original index
    j = 0
    for i, o in enumerate(orig):
        h = _header_of(o)
        if h is not None and not h.refusal:
            continue  # a header command: the candidate may leave it out or move it
        k = _find(o, cand, j, allow_answer_slots)
        if k == len(cand):
            problems.append(f"missing or changed: {o.text[:100]}")
            continue
        matched[k] = i
        j = k + 1
    for k, c in enumerate(cand):
        if k in matched:
            continue
        h = _header_of(c)
        if h is not None and (not h.refusal or set(h.items) <= own_imports):
            continue
        if h is not None:
            problems.append(f"added: {c.text[:100]} ({h.refusal})")
        elif not (allow_added_lemmas and c.decl is not None and c.decl.kind in ("theorem", "lemma")):
            problems.append(f"added: {c.text[:100]}")
    if problems:
        return problems
    # The candidate as the original's context sees it: its added lemmas left out (they are proved and
    # probed, and cannot change what an unchanged definition means), a filled answer slot read as
    # the original's slot.
    seen = [orig[matched[k]] if k in matched else c for k, c in enumerate(cand)
            if k in matched or _header_of(c) is not None]
    at = {k: n for n, k in enumerate(k for k, c in enumerate(cand) if k in matched or _header_of(c) is not None)}
    for k, i in matched.items():
        want, got = _in_force(orig, i), _in_force(seen, at[k])
        if want != got:
            missing = [x for x in want if x not in got]
            added = [x for x in got if x not in want]
            what = "; ".join(part for part in (
                f"added {', '.join(added)}" if added else "", f"left out {', '.join(missing)}" if missing else "",
            ) if part) or "their order differs"
            problems.append(f"changed: the imports and opens in force at `{orig[i].text[:60]}` are not the "
                            f"original's ({what})")
            break  # one is enough: every later context command sees the same difference
    return problems


def _in_force(cmds: Sequence[_PreambleCommand], upto: int) -> tuple[str, ...]:
    """What decides the meaning of the command at `cmds[upto]`, from the commands before it: the
    items of every import and open (`HeaderCommand.items`) and, in order among them, every context
    command (a `section`'s `end` closes its opens)."""
    out: list[str] = []
    for c in cmds[:upto]:
        h = _header_of(c)
        if h is not None and not h.refusal:
            if h.kind != "option":
                out.extend(h.items)
            continue
        out.append(f"{c.keyword}: {c.text}")
    return tuple(out)


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

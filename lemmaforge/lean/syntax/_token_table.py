"""The character classes and token table of Lean 4's tokenizer, as the lexer (`_lexer.py`) reads
them: what starts and continues an identifier (`isLetterLike`, `isSubScriptAlnum`), the
multi-character symbols whose longest match decides where a token ends, the prelude keywords that
decide whether a string is interpolated, and the one regex of the scanner's common path.
Ported from leanprover/lean4 `src/Lean/Parser/Basic.lean` (the commit and the account are in
`_lexer.py`'s docstring and docs/lexer.md).
"""

from __future__ import annotations

import re

# Lean 4 `isLetterLike` (Init/Meta): Greek without λ (3bb), Π (3a0), Σ (3a3); Coptic; polytonic
# Greek; the letter-like block (ℕ ℤ ℚ ℝ ℂ …); mathematical script/double-struck/fraktur letters.
_LETTER_LIKE = (
    "\u03b1-\u03ba\u03bc-\u03c9"
    "\u0391-\u039f\u03a1\u03a2\u03a4-\u03a9"
    "\u03ca-\u03fb\u1f00-\u1ffe\u2100-\u214f\U0001d49c-\U0001d59f"
)
# `isSubScriptAlnum`: ₀-₉, ₐ-ₜ, ᵢ-ᵪ, and ⱼ.
_SUBSCRIPT = "\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a\u2c7c"
_ID_FIRST = f"A-Za-z_{_LETTER_LIKE}"
_ID_REST = f"A-Za-z0-9_'!?{_LETTER_LIKE}{_SUBSCRIPT}"
_ID_PART = f"(?:«[^»]*»|[{_ID_FIRST}][{_ID_REST}]*)"
_IDENT = f"{_ID_PART}(?:\\.{_ID_PART})*"
_IDENT_RE = re.compile(_IDENT)
_ID_PART_RE = re.compile(_ID_PART)
_PLAIN_PART_RE = re.compile(f"[{_ID_FIRST}][{_ID_REST}]*")


# Lean's token table is a trie and `tokenFn` takes the LONGEST token: `n != 5` is `bne`, not the
# factorial `n ! = 5`. Listed: the multi-character symbols of Lean core (`Init/Core.lean`,
# `Init/Notation.lean`, `Lean/Parser/Term.lean`, `Do.lean`) and Mathlib that decide where a token
# ends. The ones that matter most for soundness are those that swallow a character which would
# otherwise open a comment, a char literal or a string: `\/` (so `\/-` is `\/` then `-`, never a
# comment), `×'`, `Σ'`, `∑'`, `∏'`, `⁻¹'`, `''`. Symbols not listed are read one character at a
# time; where that could matter (see `_SAFE_BEFORE_OPENER`) the lexer refuses instead.
_MULTI_CHAR_SYMBOLS = (
    ":=", "::", "=>", "==", "<;>", "<||>", "<|>", "<->", "<$>", "<*>", "<<<", "<=", "<-", "<|", "<*",
    "|>.", "|||", "||", "|>", "->", ">>=", ">>>", ">>", ">=", "!=", "![", "#[", "&&&", "&&", "++", "^^^",
    "*>", "...", "..", "//", "@[", "`(", "``(", "`[", "⁻¹", "\\/", "/\\", "×'", "Σ'", "∑'", "∏'", "⁻¹'",
    "''", "%[", ".(", "=?=", "$>", "<$", ">=>", "<=<", "=<<", "@&", "]'", "⊕'",
)
# Primed tokens of Lean core (always in the table): `×'` PProd, `Σ'` PSigma, `⊕'` PSum, `]'`
# (`xs[i]'h`). The other primed ones (`''`, `⁻¹'`, `∑'`, `∏'`) exist only with Mathlib imported.
_CORE_PRIMED = frozenset({"×'", "Σ'", "⊕'", "]'"})
_TOKENS_BY_FIRST: dict[str, tuple[str, ...]] = {}
for _sym in sorted(_MULTI_CHAR_SYMBOLS, key=len, reverse=True):
    _TOKENS_BY_FIRST[_sym[0]] = (*_TOKENS_BY_FIRST.get(_sym[0], ()), _sym)

# Symbols after which a `--`, `/-` or `'` written right against them is certainly read as a
# comment or char opener. NONE: a `'` or `-` right after a symbol could belong to a longer token of
# a table we do not hold in full (Mathlib's notation, an import's), and even a bracket can begin
# one (core's `xs[i]'h` is the token `]'`, found by the differential test on Batteries). After any
# symbol the lexer refuses rather than guess; no honest proof of the corpora writes one there.
_SAFE_BEFORE_OPENER: frozenset[str] = frozenset()
# Symbols after which a `'` is certainly a char literal: no token of the pinned token table starts
# with the symbol and `'`, so Lean's longest match ends at the symbol and `tokenFnAux` reads `'…'`
# as a char literal (`charLitFnAux`). `(`: no token starting `('` in Lean core (`Init/Prelude.lean`,
# `Init/Notation.lean`, `Lean/Parser/Term.lean`: `(`, `(·`… none with a quote) nor in Mathlib and
# its dependencies (searched: every `syntax`, `notation`, `macro`, `infix`… whose atom starts
# `"('"` in the index of public Lean sources: none; the only hits are Coq notations). So
# `('1', '2')`, `(' ', c)`, `('\n', 0)` are read, where before any char but a letter was refused.
_CHAR_SAFE_AFTER: frozenset[str] = frozenset({"("})
# Except where both readings give the same boundaries: `'x'` with `x` a letter and no identifier
# character after it (`('a', 'b')`). Read as a char literal, or as a longer token ending in `'`
# followed by the identifier `x'`, the text ends at the same place and no string or comment
# starts inside, so every defence sees the same code either way.
_SAME_EITHER_WAY = re.compile(f"'[{_ID_FIRST}]'(?![{_ID_REST}.«])")

_SPACES = re.compile(r"[ \n]+")
_INTERPOLATED_AFTER = frozenset({"s!", "f!", "dbg_trace", "println!"})
"""Keywords of Lean's prelude (always in the token table) whose grammar is `kw interpolatedStr(term)`
(`Init/Data/ToString/Macro.lean` `s!`, `Init/Data/Format/Macro.lean` `f!`, `Lean/Parser/Term.lean`
`dbg_trace`, `Init/System/IO.lean` `println!`): the string right after them is interpolated, with
or without a space (`s! "{x}"` too: `s!` is a token, and whitespace after a token is skipped)."""
_PLAIN_AFTER = frozenset({"panic!", "assert!"})
"""Prelude keywords followed by a term (`Lean/Parser/Term.lean`: `"panic! " term`): a string there
is a plain `str` literal, so `panic!"{"` is the keyword `panic!` and the string `"{"`. Everywhere
else (`m!` and `throwError` are keywords only with `import Lean`; any macro may take an
`interpolatedStr`) a string holding `{` is refused: whether its braces hold code depends on the
grammar in force."""
_MAX_NESTING = 32  # interpolated strings inside interpolations; deeper text is refused


def _is_id_first(c: str) -> bool:
    return _ID_FIRST_RE.match(c) is not None


_ID_FIRST_RE = re.compile(f"[{_ID_FIRST}«]")
_COMPOSITE = {"#": "hashcmd", "?": "mvar", ".": "dotident"}
# One identifier as `identFnAux` reads it: parts joined by `.` when a part follows (`isIdCont`).
# No nested quantifiers over the same characters: linear, no backtracking blow-up.
_IDENT_SCAN = re.compile(f"(?:«[^»]*»|[{_ID_FIRST}][{_ID_REST}]*)(?:\\.(?:«[^»]*»|[{_ID_FIRST}][{_ID_REST}]*))*")
_DIGITS_RE = {
    "d": re.compile(r"[0-9_]*"),
    "b": re.compile(r"[01_]*"),
    "o": re.compile(r"[0-7_]*"),
    "x": re.compile(r"[0-9a-fA-F_]*"),
}
_DIGIT_CLASS = {"d": "0123456789", "b": "01", "o": "01234567", "x": "0123456789abcdefABCDEF"}
_HEX = frozenset("0123456789abcdefABCDEF")


# The common path of `_Scanner.run`: spaces, then an identifier (not a raw string's `r"`), a
# symbol of the table (longest first), a plain decimal, or any other single character.
_FAST = re.compile(
    "[ \n]*+(?:"
    f"(?P<ident>(?!r#*\")(?:[{_ID_FIRST}][{_ID_REST}]*|«[^»]*»)(?:\\.(?:«[^»]*»|[{_ID_FIRST}][{_ID_REST}]*))*)"
    f"|(?P<digits>[0-9]+)"
    f"|(?P<symbol>{'|'.join(re.escape(t) for t in sorted(_MULTI_CHAR_SYMBOLS, key=len, reverse=True))})"
    # a one-character symbol that needs no second look: not a literal, comment or composite
    # opener, not a brace (interpolations count them), and no `-`, `/` or `'` right after it
    "|(?P<plain>[^\\s\"'`/\\-«#?.{}r0-9\\\\])(?![-/'])"
    "|(?P<other>.))",
    re.DOTALL,
)
_G_IDENT, _G_DIGITS, _G_SYMBOL, _G_PLAIN = (_FAST.groupindex[g] for g in ("ident", "digits", "symbol", "plain"))
# `mkIdResult` lets a token at least as long as the identifier win; no token of our table starts
# like an identifier, so an identifier read by `_FAST` is never a longer table token.
assert not any(_ID_FIRST_RE.match(t) for t in _MULTI_CHAR_SYMBOLS)

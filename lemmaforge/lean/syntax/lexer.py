r"""Lean 4 tokens, read the way Lean's own parser reads them, and a refusal where that is unsure.

Ported rule by rule from leanprover/lean4 `src/Lean/Parser/Basic.lean` (read at commit
00c1b82722b50e9b1ae4999ccc97f932b2788b51) and `src/Lean/Parser/StrInterpolation.lean` (01f6cece…);
the Lean function is named where it matters. docs/lexer.md has the full account and the tests.

* whitespace (`whitespace`): spaces and newlines; CR LF is a newline (Lean reads files after
  `crlfToLf`); a tab or an isolated CR is Lean's error. `-- …` runs to the newline. `/-` opens a
  block comment unless the next character is `-` or `!` (`/--`, `/-!` are doc-comment TOKENS);
  that next character is skipped unread and `finishCommentBlock 1` scans on: `/-` nests, `-/`
  closes (`/-/- x -/` is ONE comment). Whitespace runs only BETWEEN tokens, so a token that
  swallows a `/` or `-` decides: `\/-` is the core token `\/` then `-`, never a comment.
* tokens (`tokenFnAux`), tried in this order at each token start: `"` a string (`strLitFnAux`:
  escapes `\\ \" \' \r \n \t \xHH \uHHHH`, a gap `\`+newline+spaces); `'` not followed by `'`
  a char literal (`charLitFnAux`: ANY one character, a raw newline or CR too, or one escape, then
  `'`); a digit a number (`numberFnAux`: `0x 0b 0o`, `_` separators, scientific `2.5e-3`, and
  `2.` keeps its dot); `` ` `` + identifier a name literal; `r#*"` a raw string (`rawStrLitFnAux`);
  else the LONGER of the token table's longest match and an identifier (`identFnAux`, `«…»`
  parts, `mkIdResult`: a token at least as long wins). After a `.` with no space, digits are a
  field index (`h.1.2`: `fieldIdxFn`).
* interpolated strings (`interpolatedStrFn`): only after a prelude keyword whose grammar takes
  `interpolatedStr` (`s!`, `f!`, `dbg_trace`, `println!`), with or without a space; `{…}` holds
  code (lexed here as tokens), `\{` is an escape. `panic!"{"` is `panic!` and a plain string.

Refusals (`refusal(code)`, never a guess): "lean_error" where Lean's own lexer rejects the text
(tab, isolated CR, unterminated comment/string/char/«», bad escape or numeral), and "unsure"
where Lean's reading depends on what the lexer does not hold for certain: the token table of the
imports (a `--`, `/-` or `'` written right against a symbol; Mathlib's primed tokens before a
char), the grammar (a string holding `{` anywhere but after the keywords above), a comment in a
doc comment opener's trailing whitespace. The gate refuses every such text.

Kinds: "ident", "number", "string", "char", "namelit", "mvar", "dotident", "hashcmd", "symbol",
"comment" (`--`, `/- -/`) and "doc" (`/-- -/` and `/-! -/`). Keywords are "ident" tokens. `?x`,
`.x` and `#cmd` are single composite tokens (Lean's `?`/`.`/`#` and the identifier, no space):
the layers above read them as one, so none is mistaken for the keyword inside.

Offsets are 0-based indices into the Python `str` (code points); lines are 1-based and columns
0-based code points, exactly like the Lean REPL's `pos`.

Speed: linear in the text. One regex call per common token (spaces, identifier, table symbol,
plain decimal, one-character symbol); everything else takes the rule-by-rule path. Results are
memoised within a byte budget, because every tool of the layer starts by lexing the same file.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from lemmaforge.lean.memo import ByteBoundedMemo

__all__ = [
    "Lexed",
    "Lines",
    "Refusal",
    "Token",
    "TokenMatch",
    "find_tokens",
    "format_name",
    "is_ident",
    "lex",
    "name_components",
    "normalize_whitespace",
    "refusal",
    "strip_comments",
    "tokens",
]

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


class Token(NamedTuple):
    """One lexical token. `kind` "comment" covers `--` and `/- -/`; "doc" covers `/-- -/` and
    `/-! -/`. A NamedTuple rather than a dataclass: a proof file has thousands of tokens and
    construction cost matters."""

    kind: str
    text: str
    start: int
    end: int


# `tuple.__new__` skips the generated NamedTuple constructor: a third of the lexer's time.
_new_token = tuple.__new__

_COMMENT_DELIMITER = re.compile(r"/-|-/")

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


class Refusal(NamedTuple):
    """Why the lexer will not vouch for a text. `reason` is "lean_error" (Lean's own parser
    rejects it: tab, isolated carriage return, unterminated comment/string/char, bad escape or
    numeral) or "unsure" (Lean's reading depends on something the lexer does not know for certain:
    the token table of the imports, which strings the grammar interpolates)."""

    reason: str
    detail: str
    offset: int


class Lexed(NamedTuple):
    tokens: tuple[Token, ...]
    refusal: Refusal | None


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


def _block_comment_end(code: str, start: int) -> int:
    """End offset of the block comment whose body starts at `start` (`finishCommentBlock 1`:
    `/-` nests, `-/` closes, both consume two characters), or -1 when unterminated."""
    depth = 1
    for m in _COMMENT_DELIMITER.finditer(code, start):
        if m.group() == "/-":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.end()
    return -1


def lex(code: str) -> tuple[Token, ...]:
    """All tokens of `code`, comments and doc comments included. Memoised within a byte budget
    (`lean.memo`): the search lexes a goal's lemma once, not once per candidate filled into it,
    and a budget in bytes keeps short statements from being evicted by a few whole files.
    Text the lexer refuses (`refusal`) still gets a best-effort reading here."""
    return _lex_memo(code).tokens


def refusal(code: str) -> Refusal | None:
    """Why the lexer cannot vouch for `code` agreeing with Lean's reading of it, or None."""
    return _lex_memo(code).refusal


def _tokens_size(code: str, lexed: Lexed) -> int:
    return 2 * len(code) + 120 * len(lexed.tokens)  # a Token is a small slotted object plus its text slice


class _Scanner:
    """One pass over a text, rule by rule as `Lean.Parser.tokenFn` and `whitespace` read it."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.n = len(code)
        self.out: list[Token] = []
        self.refusal: Refusal | None = None

    def refuse(self, reason: str, detail: str, offset: int) -> None:
        if self.refusal is None:
            self.refusal = Refusal(reason, detail, offset)

    def emit(self, kind: str, start: int, end: int) -> None:
        self.out.append(_new_token(Token, (kind, self.code[start:end], start, end)))

    # -- whitespace and comments (`whitespace`) ------------------------------------------------
    def whitespace(self, pos: int) -> int:
        code, n = self.code, self.n
        while pos < n:
            c = code[pos]
            if c == " " or c == "\n":
                pos = _SPACES.match(code, pos).end()  # type: ignore[union-attr]
            elif c == "\r":
                if pos + 1 < n and code[pos + 1] == "\n":
                    pos += 2  # Lean reads the file after `crlfToLf`: CR LF is one newline
                else:
                    self.refuse("lean_error", "isolated carriage return", pos)
                    pos += 1
            elif c == "\t":
                self.refuse("lean_error", "tab character (Lean: tabs are not allowed)", pos)
                pos += 1
            elif c == "-" and code.startswith("--", pos):
                self.glued_comment(pos)
                end = code.find("\n", pos)
                end = n if end < 0 else end
                if end > pos and code[end - 1] == "\r":
                    end -= 1
                self.emit("comment", pos, end)
                pos = end
            elif c == "/" and code.startswith("/-", pos) and (pos + 2 >= n or code[pos + 2] not in "-!"):
                # `/-` and ONE more character unread, then `finishCommentBlock 1` (`/-/- x -/` is
                # a single comment: its `/` right after the opener is skipped).
                self.glued_comment(pos)
                end = _block_comment_end(code, pos + 3)
                if end < 0:
                    self.refuse("lean_error", "unterminated comment", pos)
                    end = n
                self.emit("comment", pos, end)
                pos = end
            else:
                break
        return pos

    def glued_comment(self, pos: int) -> None:
        """A comment opener right against an identifier (`foo--`): Lean reads a comment only if no
        token of its table starts with the identifier and goes on with `-`/`/`, which a table we do
        not hold in full could have (Mathlib's `Type*` is such a token). No honest proof of the
        corpora writes one there; refuse rather than guess. (After a symbol: `symbol`.)"""
        out = self.out
        if out and out[-1].end == pos and out[-1].kind == "ident":
            self.refuse("unsure", f"a comment right after `{out[-1].text}`: Lean's token table decides", pos)

    # -- the token loop ----------------------------------------------------------------------
    def run(self, pos: int, depth: int = 0, in_braces: bool = False) -> int:
        """Tokens from `pos` to the end, or (in an interpolation) to the `}` that closes it, whose
        offset is returned. One regex call reads spaces and the common tokens (identifiers, table
        symbols, plain decimals); everything else takes the rule-by-rule path below."""
        code, n, out = self.code, self.n, self.out
        fast = _FAST.match
        emit = self.emit
        # The two commonest tokens are appended here rather than through `emit`: a method call per
        # token was a fifth of the lexer's time on a goal's lemma (same Token, same list).
        append, new_token = out.append, _new_token
        braces = 0
        while True:
            m = fast(code, pos)
            if m is None:  # nothing but spaces and newlines left
                if in_braces:
                    self.refuse("lean_error", "unterminated string interpolation", n)
                return n
            group = m.lastindex or 0
            start, end = m.span(group)
            glued = start == pos and bool(out) and out[-1].end == pos  # no whitespace since the last token
            if group == _G_IDENT:
                append(new_token(Token, ("ident", code[start:end], start, end)))
                pos = end
                continue
            if group == _G_DIGITS:
                if glued and out[-1].text == "." and code[start] != "0":
                    emit("number", start, end)  # `h.1.2`: Lean's projection reads `fieldIdx`, digits only
                    pos = end
                elif end < n and code[end] in "_.eEbBoOxX":  # `_`, scientific, `0x…`
                    pos = self.number(start)
                else:
                    emit("number", start, end)
                    pos = end
                continue
            if group == _G_PLAIN:
                append(new_token(Token, ("symbol", code[start:end], start, end)))
                pos = end
                continue
            if group == _G_SYMBOL:
                pos = self.symbol(start, end)
                continue
            c = code[start]
            if c in "-/\r\t":
                after = self.whitespace(start)
                if after != start:
                    pos = after
                    continue
            if c == '"':
                pos = self.string(start, depth)
            elif c == "'" and not code.startswith("''", start):
                if glued and out[-1].kind == "symbol" and out[-1].text not in _SAFE_BEFORE_OPENER \
                        and not _SAME_EITHER_WAY.match(code, start):
                    self.refuse("unsure", f"`'` right after `{out[-1].text}`: Lean's token table decides", start)
                pos = self.char(start)
            elif c == "`" and start + 1 < n and _is_id_first(code[start + 1]):
                pos = self.ident(start + 1, start, "namelit")
            elif c == "r" and self.raw_string_start(start):
                pos = self.raw_string(start)
            elif c == "/" and code.startswith(("/--", "/-!"), start):
                pos = self.doc_comment(start)
            elif c == "«":
                pos = self.ident(start, start, "ident")
            elif "0" <= c <= "9":
                pos = self.number(start)
            elif in_braces and c == "}" and braces == 0:
                return start
            else:
                if c == "{":
                    braces += 1
                elif c == "}":
                    braces -= 1
                pos = self.symbol(start, start + 1)

    def symbol(self, pos: int, end: int) -> int:
        """The symbol `code[pos:end]` (the longest of our table, or one character)."""
        code = self.code
        text = code[pos:end]
        if end < self.n and code[end] in "-/'":
            nxt = code[end : end + 2]
            if text[-1] == "'" and text not in _CORE_PRIMED and self.char_at(end - 1):
                # `∑'x'`: our table has `∑'`, but Lean without Mathlib reads `∑` and a char literal.
                self.refuse("unsure", f"`{text}` or a char literal: depends on the imports", pos)
            if text not in _SAFE_BEFORE_OPENER and (nxt == "--" or nxt == "/-"):
                self.refuse("unsure", f"`{nxt}` right after `{text}`: Lean's token table decides", end)
        elif text[-1] == "'" and text not in _CORE_PRIMED and self.char_at(end - 1):
            self.refuse("unsure", f"`{text}` or a char literal: depends on the imports", pos)
        # Composite tokens the layers above read as one (`#eval`, `?x`, `.x`): Lean's `#`/`?`/`.`
        # token immediately followed by an identifier.
        if end == pos + 1 and text in "#?." and end < self.n and _is_id_first(code[end]):
            return self.ident(end, pos, _COMPOSITE[text])
        self.emit("symbol", pos, end)
        return end

    def ident(self, pos: int, start: int, kind: str) -> int:
        """`identFnAux`: parts (`«…»` or `isIdFirst isIdRest*`) joined by `.` when a part follows."""
        code = self.code
        m = _IDENT_SCAN.match(code, pos)
        if m is None or code.startswith(".«", m.end()):
            # `«` never closed: the regex stopped before it. Lean: "unterminated identifier escape".
            self.refuse("lean_error", "unterminated identifier escape «", pos)
            self.emit(kind, start, self.n)
            return self.n
        end = m.end()
        self.emit(kind, start, end)
        return end

    def number(self, pos: int) -> int:
        """`numberFnAux`: `0b…`, `0o…`, `0x…`, decimals with `_`, scientific `1.5`, `2.`, `1e-3`."""
        code, n = self.code, self.n
        base = "d"
        i = pos + 1
        if code[pos] == "0" and i < n and code[i] in "bBoOxX":
            base = code[i].lower()
            i += 1
            i = self.digits(i, base, need=True)
        else:
            i = self.digits(i, "d", need=False)
            if i < n and code[i] in ".eE":
                if code[i] == ".":
                    i += 1  # `parseOptDot` consumes the dot even with no digit after it: `2.`
                    if i < n and code[i] in _DIGIT_CLASS["d"]:
                        i = self.digits(i, "d", need=False)
                if i < n and code[i] in "eE":
                    i += 1
                    if i < n and code[i] in "+-":
                        i += 1
                    if i < n and code[i] in _DIGIT_CLASS["d"]:
                        i = self.digits(i, "d", need=False)
                    else:
                        self.refuse("lean_error", "missing exponent digits in scientific literal", pos)
        self.emit("number", pos, i)
        return i

    def digits(self, i: int, base: str, *, need: bool) -> int:
        """`takeDigitsFn`: digits and `_`; a `_` must be followed by a digit, as must `0x`."""
        code = self.code
        end = _DIGITS_RE[base].match(code, i).end()  # type: ignore[union-attr]
        run = code[i:end]
        if (need and not run) or run.endswith("_"):
            self.refuse("lean_error", "numeral ends without a digit", i)
        return end

    def char_at(self, pos: int) -> bool:
        """Whether a valid char literal starts at `pos` (a `'` not followed by `'`)."""
        code, n = self.code, self.n
        if pos + 1 >= n or code[pos] != "'" or code[pos + 1] == "'":
            return False
        i = self._char_body(pos + 1)
        return i is not None and i < n and code[i] == "'"

    def _char_body(self, i: int) -> int | None:
        """End of the one (possibly escaped) character at `i` (`charLitFnAux`), None if invalid."""
        code, n = self.code, self.n
        if i >= n:
            return None
        c = code[i]
        if c == "\\":
            return self._escape(i + 1, string=False, interpolated=False)
        if c == "\r" and i + 1 < n and code[i + 1] == "\n":
            return i + 2  # `crlfToLf`: a raw CR LF inside `'…'` is Lean's raw newline
        return i + 1  # ANY character, a raw newline or CR included

    def _escape(self, i: int, *, string: bool, interpolated: bool) -> int | None:
        """`quotedCharCoreFn`: `\\\\ \\" \\' \\r \\n \\t`, `\\xHH`, `\\uHHHH`; in strings a gap
        (`\\` newline whitespace); in interpolated strings also `\\{`."""
        code, n = self.code, self.n
        if i >= n:
            return None
        c = code[i]
        if c in "\\\"'rnt" or (interpolated and c == "{"):
            return i + 1
        if c == "x":
            return i + 3 if all(j < n and code[j] in _HEX for j in (i + 1, i + 2)) else None
        if c == "u":
            return i + 5 if all(j < n and code[j] in _HEX for j in range(i + 1, i + 5)) else None
        if string and (c == "\n" or code.startswith("\r\n", i)):
            # `stringGapFn`: exactly one newline, then whitespace up to a non-whitespace char.
            j = i + (2 if c == "\r" else 1)
            while j < n and code[j] in " \t\r\n":
                if code[j] == "\n":
                    return None  # "unexpected additional newline in string gap"
                j += 1
            return j
        return None

    def char(self, pos: int) -> int:
        end = self._char_body(pos + 1)
        if end is None or end >= self.n or self.code[end] != "'":
            self.refuse("lean_error", "not a character literal (missing end `'` or bad escape)", pos)
            self.emit("symbol", pos, pos + 1)
            return pos + 1
        self.emit("char", pos, end + 1)
        return end + 1

    def string(self, pos: int, depth: int) -> int:
        """`strLitFnAux`, or `interpolatedStrFn` where the grammar puts an interpolated string."""
        prev = self.last_code_token()
        if prev is not None and prev.text in _INTERPOLATED_AFTER:
            return self.interpolated(pos, depth)
        end = self.plain_string_end(pos, interpolated=False)
        if end is None:
            self.refuse("lean_error", "unterminated string literal or bad escape", pos)
            self.emit("string", pos, self.n)
            return self.n
        if "{" in self.code[pos:end] and (prev is None or prev.text not in _PLAIN_AFTER):
            # Whether Lean reads this as `interpolatedStr` depends on the syntax it follows (a
            # macro's, Mathlib's): `{…}` would be code there and text here. Refuse, never guess.
            after = f" after `{prev.text}`" if prev is not None else ""
            self.refuse("unsure", f"string with `{{`{after}: interpolated or not depends on the grammar", pos)
        self.emit("string", pos, end)
        return end

    def last_code_token(self) -> Token | None:
        for t in reversed(self.out):
            if t.kind not in ("comment", "doc"):
                return t
        return None

    def plain_string_end(self, pos: int, *, interpolated: bool) -> int | None:
        code, n = self.code, self.n
        i = pos + 1
        q = -2  # the next `"` at or after `i` (kept while escapes are skipped: linear, not quadratic)
        while True:
            if q < i:
                q = code.find('"', i)
            b = code.find("\\", i, q if q >= 0 else n)
            if b >= 0:
                j = self._escape(b + 1, string=True, interpolated=interpolated)
                if j is None:
                    return None
                i = j
                continue
            return None if q < 0 else q + 1

    def interpolated(self, pos: int, depth: int) -> int:
        if depth >= _MAX_NESTING:
            self.refuse("unsure", "interpolated strings nested too deep", pos)
        code, n = self.code, self.n
        piece = pos
        i = pos + 1
        while i < n:
            c = code[i]
            if c == "\\":
                j = self._escape(i + 1, string=True, interpolated=True)
                if j is None:
                    self.refuse("lean_error", "bad escape in interpolated string", i)
                    j = i + 2
                i = j
            elif c == '"':
                self.emit("string", piece, i + 1)
                return i + 1
            elif c == "{":
                self.emit("string", piece, i + 1)
                if depth >= _MAX_NESTING:
                    return n
                close = self.run(i + 1, depth + 1, in_braces=True)
                if close >= n:
                    return n
                piece = close
                i = close + 1
            else:
                i += 1
        self.refuse("lean_error", "unterminated interpolated string", pos)
        self.emit("string", piece, n)
        return n

    def raw_string_start(self, pos: int) -> bool:
        i = pos + 1
        while i < self.n and self.code[i] == "#":
            i += 1
        return i < self.n and self.code[i] == '"'

    def raw_string(self, pos: int) -> int:
        """`rawStrLitFnAux`: `r"…"`, `r#"…"#`: no escapes; ends at `"` and as many `#` as opened."""
        code = self.code
        i = pos + 1
        while code[i] == "#":
            i += 1
        closing = '"' + "#" * (i - pos - 1)
        stop = code.find(closing, i + 1)
        if stop < 0:
            self.refuse("lean_error", "unterminated raw string literal", pos)
            end = self.n
        else:
            end = stop + len(closing)
        self.emit("string", pos, end)
        return end

    def doc_comment(self, pos: int) -> int:
        """`/--` and `/-!` are tokens (`docComment`, `moduleDoc`): the token, then Lean's
        `whitespace` (a token's trailing whitespace), then `commentBody` = `finishCommentBlock 1`.
        A comment inside that whitespace would be skipped before the body is scanned; the lexer
        does not rely on that reading and refuses it."""
        code, n = self.code, self.n
        start = pos + 3
        while start < n and (code[start] in " \n" or code.startswith("\r\n", start)):
            start += 2 if code[start] == "\r" else 1
        if start < n and code[start] in "\t\r":
            self.refuse("lean_error", "tab or isolated carriage return after a doc comment's opener", start)
        if code.startswith(("--", "/-"), start):
            self.refuse("unsure", "a comment right after a doc comment's opener", start)
        end = _block_comment_end(code, start)
        if end < 0:
            self.refuse("lean_error", "unterminated doc comment", pos)
            end = n
        self.emit("doc", pos, end)
        return end


def _lex_uncached(code: str) -> Lexed:
    if "\n" in code and _CROSSES_LINES.search(code) is None:
        return _lex_by_lines(code)
    return _lex_whole(code)


def _lex_whole(code: str) -> Lexed:
    scanner = _Scanner(code)
    scanner.run(0)
    return Lexed(tuple(scanner.out), scanner.refusal)


# What lets a token, or the lexer's judgement of one, reach across a line break or depend on what
# came before the line: strings and interpolations, char literals and primed symbols, name
# literals, `«»` escapes, comments, tabs and carriage returns. In a text with none of them every
# token lies within one line and reads the same whatever came before that line (at a line start
# nothing is glued to the previous token; each line is scanned with its own `\n`, so every
# lookahead sees what it sees in the whole text), so the text's tokens are its lines' tokens,
# shifted. A goal's lemma repeats the lines of the goal above it (its hypotheses grow with depth),
# so its lines are read once for the whole tree instead of once per lemma. Same tokens, same
# refusal (the first of the lines'); tests/lean/syntax/test_lexer_by_lines.py compares the two.
_CROSSES_LINES = re.compile(r"[\"'`«»\t\r]|--|/-|-/")


def _lex_by_lines(code: str) -> Lexed:
    out: list[Token] = []
    refusal: Refusal | None = None
    n = len(code)
    pos = 0
    while pos < n:
        newline = code.find("\n", pos)
        end = n if newline < 0 else newline + 1
        line = _line_memo(code[pos:end])
        if pos == 0:
            out.extend(line.tokens)
        else:
            out.extend([_new_token(Token, (t.kind, t.text, t.start + pos, t.end + pos)) for t in line.tokens])
        if refusal is None and line.refusal is not None:
            refusal = line.refusal._replace(offset=line.refusal.offset + pos)
        pos = end
    return Lexed(tuple(out), refusal)


def tokens(code: str, *, comments: bool = False) -> list[Token]:
    """The tokens of `code`, without comments and doc comments unless `comments`."""
    toks = lex(code)
    return list(toks) if comments else [t for t in toks if t.kind not in ("comment", "doc")]


class Lines:
    """Offset ↔ (line, column) for one text (lines 1-based, columns 0-based)."""

    def __init__(self, code: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", code)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def column(self, offset: int) -> int:
        return offset - self.starts[self.line(offset) - 1]

    def line_start(self, offset: int) -> int:
        return self.starts[self.line(offset) - 1]


def strip_comments(code: str, *, strings: bool = False) -> str:
    """`code` with every comment and doc comment replaced by spaces (newlines kept), so offsets,
    lines and columns are unchanged. String literals are left alone, unless `strings`: then they
    are blanked too, so that no text search can mistake their contents for code."""
    kinds = ("comment", "doc", "string") if strings else ("comment", "doc")
    return _blank(code, (t for t in lex(code) if t.kind in kinds))


def _blank(code: str, spans: Iterable[Token]) -> str:
    parts: list[str] = []
    last = 0
    for t in spans:
        parts.append(code[last : t.start])
        parts.append(re.sub(r"[^\n]", " ", code[t.start : t.end]))
        last = t.end
    parts.append(code[last:])
    return "".join(parts)


def normalize_whitespace(s: str) -> str:
    """Every run of whitespace (newlines included) becomes one space; ends stripped. Plain text:
    comments are not removed (for Lean code use `compare.normalize_statement`)."""
    return " ".join(s.split())


@dataclass(frozen=True, slots=True)
class TokenMatch:
    text: str
    offset: int
    line: int
    column: int


def find_tokens(code: str, names: Iterable[str]) -> list[TokenMatch]:
    """Occurrences of the identifiers/keywords `names` as real tokens of `code`: never inside
    comments, doc comments or strings, never as part of a longer identifier (`sorryAx` is not
    `sorry`, `h_admit` is not `admit`), never as `x.sorry`, `?sorry`, `.sorry` or `` `sorry ``.
    A dotted name matches its trailing components too (`_root_.sorryAx` matches `sorryAx`), and a
    name starting with `#` matches the command token (`#eval`)."""
    wanted = set(names)
    lines = Lines(code)
    found: list[TokenMatch] = []
    for t in tokens(code):
        if t.kind in ("ident", "hashcmd"):
            # Lean reads `«sorryAx»` as `sorryAx`: compare names with their escapes removed.
            name = t.text.replace("«", "").replace("»", "") if "«" in t.text else t.text
            hit = name in wanted or any(name.endswith("." + w) for w in wanted)
        elif t.kind == "symbol":
            hit = t.text in wanted
        else:
            hit = False
        if hit:
            found.append(TokenMatch(t.text, t.start, lines.line(t.start), lines.column(t.start)))
    return found


# --------------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------------


def is_ident(text: str) -> bool:
    """Whether `text` is exactly one (possibly dotted, possibly «escaped») Lean identifier."""
    return _IDENT_RE.fullmatch(text) is not None


def name_components(text: str) -> tuple[str, ...]:
    """The components of a Lean name as written (`Foo.«bar baz».c'` → `("Foo", "bar baz", "c'")`):
    `«»` escapes removed, dots inside them kept. Text that is not one identifier gives ()."""
    if not is_ident(text):
        return ()
    parts: list[str] = []
    pos = 0
    while pos < len(text):
        m = _ID_PART_RE.match(text, pos)
        assert m is not None  # guaranteed by the fullmatch above
        part = m.group()
        parts.append(part[1:-1] if part.startswith("«") else part)
        pos = m.end() + 1  # skip the dot
    return tuple(parts)


def format_name(components: Iterable[str]) -> str:
    """A name as Lean prints it (`Name.toString`): components joined by dots, a component
    escaped with `«»` only when it is not a plain identifier part (`«foo bar»`, `«1x»`)."""
    return ".".join(c if _PLAIN_PART_RE.fullmatch(c) else f"«{c}»" for c in components)


_lex_memo = ByteBoundedMemo(_lex_uncached, 8 << 20, _tokens_size)
_line_memo = ByteBoundedMemo(_lex_whole, 4 << 20, _tokens_size)

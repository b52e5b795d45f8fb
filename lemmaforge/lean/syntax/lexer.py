"""Lean 4 tokens, read the way Lean's own parser reads them (`Lean/Parser/Basic.lean`).

Followed rule by rule (the Lean function is named where it matters):

* whitespace (`whitespace`): `-- …` runs to the end of the line; `/-` opens a block comment.
  After `/-` Lean looks at ONE more character: `-` or `!` makes a doc comment (`/--`, `/-!`,
  actual tokens, so `/--/` OPENS a doc comment, it is not an empty comment); any other character
  is skipped unread, and `finishCommentBlock` scans from the fourth character on: `/-` nests, `-/`
  closes (so `/-/- x -/` is ONE comment: the `/` right after the opener is skipped). Doc comments
  are scanned the same way from after `/--`/`/-!`. Unterminated comments run to the end.
* strings (`strLitFnAux`): `"…"` with `\\` escapes (`\\n \\t \\x41 \\u1234 \\"`, and `\\` + newline
  gaps); interpolated strings `s!"… {e} …"` (`m!`, `f!`, `throwError "…{e}…"`, …) lex the code
  inside `{…}` as ordinary tokens; raw strings (`rawStrLitFnAux`) `r"…"`, `r#"…"#`, `r##"…"##`.
* char literals (`charLitFnAux`): a `'` NOT followed by `'` starts one: `'a'`, `'\\n'`, `'\\x41'`.
* numbers (`numberFnAux`): `0x1F`, `0b101`, `0o17`, decimals with `_` separators, scientific
  `1.5`, `2e10`, `2.5E-3`; digits right after a `.` are a field index (`h.1.2` is `h . 1 . 2`,
  Lean reads them with `fieldIdx`, never as `1.2`).
* identifiers (`identFnAux`, `isIdFirst`, `isIdRest`): ASCII letters, `_`, Greek except `λ Π Σ`,
  Coptic, polytonic Greek, the letter-like block (`ℕ ℝ ℤ`), mathematical script/double-struck
  letters; then also digits, `'`, `!`, `?` and subscripts (`x₁`, `f'`, `h!`, `foo?`);
  `«quoted parts»`; dotted (`Nat.succ`, `x.sorry`, `Foo.«bar baz».c`).
* `` `name `` / ``` ``name ``` literals (`nameLitAux`), `?x` metavariables, `.x` leading-dot
  identifiers and `#cmd` tokens (`#eval`, `#print`) are single tokens, so none of them is ever
  mistaken for the keyword inside.

Kinds: "ident", "number", "string", "char", "namelit", "mvar", "dotident", "hashcmd", "symbol",
"comment" (`--`, `/- -/`) and "doc" (`/-- -/` and `/-! -/`: syntax for Lean, never code we reason
about). Keywords (`theorem`, `by`, `sorry`) are "ident" tokens: which identifiers are reserved is
the business of the layer above (`commands`).

Offsets are 0-based indices into the Python `str` (code points); lines are 1-based and columns
0-based code points, exactly like the Lean REPL's `pos`.

Speed: one compiled regex drives the scan (one `finditer` step per token); the few tokens whose
end a regex cannot know (nested comments, interpolated and raw strings) are finished by hand.
Texts over 512 characters are memoised, because every tool of the layer starts by lexing the
same file.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from lemmaforge.lean.memo import ByteBoundedMemo

__all__ = [
    "Lines",
    "Token",
    "TokenMatch",
    "find_tokens",
    "format_name",
    "is_ident",
    "lex",
    "name_components",
    "normalize_whitespace",
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

_DIGITS = r"\d[\d_]*"
# Lean's token table is a trie and `tokenFn` takes the LONGEST token: `n != 5` is `bne`, not the
# factorial `n ! = 5`. The multi-character symbols of Lean core and Mathlib that matter here,
# longest first among those sharing a prefix (single characters fall through to `.`).
_MULTI_CHAR_SYMBOLS = [
    ":=",
    "::",
    "=>",
    "==",
    "<;>",
    "<||>",
    "<|>",
    "<->",
    "<$>",
    "<*>",
    "<<<",
    "<=",
    "<-",
    "<|",
    "<*",
    "|>.",
    "|||",
    "||",
    "|>",
    "->",
    ">>=",
    ">>>",
    ">>",
    ">=",
    "!=",
    "![",
    "#[",
    "&&&",
    "&&",
    "++",
    "^^^",
    "*>",
    "...",
    "..",
    "//",
    "@[",
    "`(",
    "⁻¹",
]

_SYMBOLS = "|".join(re.escape(sym) for sym in _MULTI_CHAR_SYMBOLS)
_TOKEN_RE = re.compile(
    r"\s*(?:"  # leading whitespace is skipped inside the match: one regex call per token
    + "|".join(
        # The regex engine tries alternatives in order, rejecting each on its first character:
        # identifiers, the most common token, come right after the one alternative that starts
        # like them (`r"…"`). The rest start with distinct characters, except where marked.
        [
            r'(?P<raw_string>r(?P<hashes>#*)")',
            rf"(?P<ident>{_IDENT})",
            r"(?P<line_comment>--[^\n]*)",  # before the symbol `-`
            r"(?P<block_open>/-)",  # before the symbol `/`
            r'(?P<string>"(?:[^"\\]|\\.)*(?:"|\Z))',
            r"(?P<char>'(?:\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)|[^\\'\n])')",  # before the symbol `'`
            rf"(?P<namelit>``?{_IDENT})",
            rf"(?P<mvar>\?{_IDENT})",
            rf"(?P<dotident>\.{_IDENT})",  # before the symbol `.`
            rf"(?P<hashcmd>#{_IDENT})",  # before the symbols `#`, `#[`
            r"(?P<fieldidx>(?<=\.)\d+)",  # `h.1.2`: Lean's `fieldIdx`, digits only; before numbers
            r"(?P<number>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+"
            rf"|{_DIGITS}(?:\.{_DIGITS})?(?:[eE][+-]?{_DIGITS})?)",
            rf"(?P<symbol>{_SYMBOLS}|.)",
            r"(?P<end>\Z)",  # only whitespace was left
        ]
    )
    + ")",
    re.DOTALL,
)


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
# Identifiers after which a string literal is an interpolated string (its `{…}` hold code).
_INTERPOLATING = frozenset({"throwError", "throwErrorAt", "dbg_trace"})


def _block_comment_end(code: str, start: int) -> int:
    """End offset of the block/doc comment opened at `start` (`/-`, `/--` or `/-!`), end of code
    if unterminated. Lean's `whitespace` consumes `/-` plus one more character unread (or the
    `/--`/`/-!` token), then `finishCommentBlock 1` scans: `/-` nests, `-/` closes."""
    depth = 1
    for m in _COMMENT_DELIMITER.finditer(code, start + 3):
        if m.group() == "/-":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.end()
    return len(code)


def lex(code: str) -> tuple[Token, ...]:
    """All tokens of `code`, comments and doc comments included. Memoised within a byte budget
    (`lean.memo`): the search lexes a goal's lemma once, not once per candidate filled into it,
    and a budget in bytes keeps short statements from being evicted by a few whole files."""
    return _lex_memo(code)


def _tokens_size(code: str, toks: tuple[Token, ...]) -> int:
    return 2 * len(code) + 120 * len(toks)  # a Token is a small slotted object plus its text slice


_SIMPLE_KINDS = frozenset({"ident", "number", "symbol", "char", "namelit", "mvar", "dotident", "hashcmd"})


# Kind of each numbered group of `_TOKEN_RE` (`m.lastindex` is the token's group, or the inner
# `hashes` group of a raw string): an index into lists is cheaper than `m.lastgroup` plus a set.
_KIND_OF_GROUP = [""] * (_TOKEN_RE.groups + 1)
for _name, _index in _TOKEN_RE.groupindex.items():
    _KIND_OF_GROUP[_index] = _name
_KIND_OF_GROUP[_TOKEN_RE.groupindex["fieldidx"]] = "number"  # Lean's `fieldIdx` is a number token
_IS_SIMPLE_GROUP = [kind in _SIMPLE_KINDS for kind in _KIND_OF_GROUP]
_END_GROUP = _TOKEN_RE.groupindex["end"]


def _lex_uncached(code: str) -> tuple[Token, ...]:
    out: list[Token] = []
    append = out.append
    kind_of, is_simple = _KIND_OF_GROUP, _IS_SIMPLE_GROUP
    pos: int | None = 0
    while pos is not None:
        restart: int | None = None
        # finditer runs the fast path; tokens whose end the regex cannot know (nested comments,
        # interpolated and raw strings) are finished by hand and the scan restarts after them.
        for m in _TOKEN_RE.finditer(code, pos):
            group = m.lastindex
            assert group is not None  # every alternative is a group
            if is_simple[group]:
                start, end = m.span(group)
                append(_new_token(Token, (kind_of[group], code[start:end], start, end)))
                continue
            if group == _END_GROUP:
                break
            kind = kind_of[group]
            if kind == "hashes":  # inner group of raw_string, reported when it is the last one
                kind = "raw_string"
            start, end = m.start(kind), m.end()
            if kind == "line_comment":
                append(Token("comment", code[start:end], start, end))
                continue
            if kind == "string":
                if out and out[-1].kind == "ident" and _interpolates(out[-1], start):
                    restart = _lex_interpolated(code, start, out)  # `s!"… {e} …"`: braces hold code
                    break
                append(Token("string", code[start:end], start, end))
                continue
            if kind == "block_open":
                end = _block_comment_end(code, start)
                is_doc = code.startswith(("/--", "/-!"), start)
                append(Token("doc" if is_doc else "comment", code[start:end], start, end))
            else:  # raw string
                closing = '"' + (m.group("hashes") or "")
                stop = code.find(closing, end)
                end = len(code) if stop < 0 else stop + len(closing)
                append(Token("string", code[start:end], start, end))
            restart = end
            break
        pos = restart
    return tuple(out)


def _interpolates(prev: Token, string_start: int) -> bool:
    """Whether the string starting at `string_start` after identifier `prev` is interpolated:
    `s!"…"`/`m!"…"`/`f!"…"` (no space), or the message of `throwError "…"` and friends."""
    if prev.end == string_start and prev.text.endswith("!"):
        return True
    return prev.text in _INTERPOLATING


def _lex_interpolated(code: str, pos: int, out: list[Token]) -> int:
    """Lex the interpolated string starting with the `"` at `pos`; append its literal pieces as
    string tokens and the code inside `{…}` as ordinary tokens. Returns the end offset."""
    n = len(code)
    piece_start = pos
    i = pos + 1
    while i < n:
        c = code[i]
        if c == "\\":
            i += 2
        elif c == '"':
            out.append(Token("string", code[piece_start : i + 1], piece_start, i + 1))
            return i + 1
        elif c == "{":
            out.append(Token("string", code[piece_start : i + 1], piece_start, i + 1))
            close = _interpolation_end(code, i + 1)
            shift = i + 1
            out.extend(Token(t.kind, t.text, t.start + shift, t.end + shift) for t in lex(code[shift:close]))
            piece_start = close
            i = close + 1
        else:
            i += 1
    out.append(Token("string", code[piece_start:n], piece_start, n))
    return n


def _interpolation_end(code: str, start: int) -> int:
    """Offset of the `}` closing an interpolation that starts at `start` (nested braces and
    strings inside are skipped); end of code if unterminated."""
    depth = 0
    pos = start
    while True:
        m = _TOKEN_RE.match(code, pos)
        assert m is not None  # every position matches (`.` or `\Z`)
        kind = m.lastgroup or "symbol"
        if kind == "end":
            return len(code)
        text_start = m.start(kind if kind != "hashes" else "raw_string")
        if kind == "block_open":
            pos = _block_comment_end(code, text_start)
            continue
        if kind == "raw_string" or kind == "hashes":
            closing = '"' + (m.group("hashes") or "")
            stop = code.find(closing, m.end())
            pos = len(code) if stop < 0 else stop + len(closing)
            continue
        text = code[text_start : m.end()]
        if text == "{":
            depth += 1
        elif text == "}":
            if depth == 0:
                return text_start
            depth -= 1
        pos = m.end()


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

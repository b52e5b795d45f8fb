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

The pass itself is `_scanner.py` (`_Scanner`, and the Token / Refusal / Lexed it produces); the
character classes and the token table it reads are `_token_table.py`. This module holds the
memoised entry points and the tools built on tokens; the package's face (`lean/syntax/__init__.py`)
re-exports its public names, and the syntax tests read its private ones here (`_lex_memo`,
`_lex_whole`, `_lex_by_lines`, …).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass

from lemmaforge.lean.memo import ByteBoundedMemo
from lemmaforge.lean.syntax._scanner import Lexed, Refusal, Token, _new_token, _Scanner
from lemmaforge.lean.syntax._token_table import _ID_FIRST, _ID_PART_RE, _IDENT_RE, _PLAIN_PART_RE

__all__ = [
    "Lines",
    "TokenMatch",
    "find_tokens",
    "format_name",
    "is_ident",
    "is_ident_start",
    "lex",
    "name_components",
    "normalize_whitespace",
    "refusal",
    "strip_comments",
    "tokens",
]


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


_ID_FIRST_CHAR = re.compile(f"[{_ID_FIRST}]")


def is_ident_start(char: str) -> bool:
    """Whether the one character `char` may begin an (unescaped) identifier: a letter, `_`, or one
    of the letter-like symbols Lean's `isLetterLike` admits (Greek, `ℕ`-style letterlike, …)."""
    return _ID_FIRST_CHAR.fullmatch(char) is not None


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

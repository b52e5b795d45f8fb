"""Lean 4 source as text: header split, comment/string-aware `sorry` finding, declarations, the
top-level `have` steps of a proof, sketches and hole filling, statement comparison.

Nothing here runs Lean. Everything rests on one small lexer (`tokens`) that follows Lean 4's
lexical rules closely enough for competition proofs:

* comments: `-- …` to end of line; `/- … -/` block comments NEST, and so do docstrings `/-- … -/`
  and module docs `/-! … -/`;
* strings `"…"` with backslash escapes, raw strings `r"…"` / `r#"…"#`, char literals `'a'`;
* identifiers: Lean's `isIdFirst`/`isIdRest` (ASCII letters, `_`, Greek except `λ Π Σ`, the
  letter-like block with `ℕ ℝ ℤ`, subscripts `₀…₉ ₐ…`, and `'` `!` `?` after the first char),
  dotted (`Nat.succ`, `x.sorry`), and `«quoted»`;
* `?x` (named metavariable), `.x` (leading-dot identifier), `` `x `` (name literal) and `#cmd`
  are single tokens, so none of them is ever mistaken for the keyword inside.

On top of the tokens, a light *block tracker* follows tactic blocks the way Lean's layout rules
do: `by`, `·`, tactic `=>` (`case … =>`, `next =>`, `| alt =>` of `induction`/`cases`/`match`),
`try`/`all_goals`/… and tactic parentheses open a block at the column of the next token; a later
line whose first token is at that column starts a new tactic of that block; a line to the left of
it (at the same bracket depth) or a closing bracket ends it. That is what decides whether a
`sorry` is a tactic or a term, which tactics are the top-level steps of a proof, and how far
each step reaches.

Positions: offsets are 0-based indices into the Python `str` (code points), lines are 1-based and
columns 0-based code points, exactly like the Lean REPL's `pos`.
"""

from __future__ import annotations

import bisect
import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from lemmaforge.lean.memo import ByteBoundedMemo

__all__ = [
    "Declaration",
    "HaveStep",
    "Hole",
    "TermProof",
    "Token",
    "TokenMatch",
    "answer_slots",
    "declarations",
    "fill",
    "filled_answers",
    "find_tokens",
    "have_steps",
    "holes",
    "last_theorem",
    "normalize_code",
    "normalize_whitespace",
    "preamble_changed",
    "preamble_diff",
    "same_statement",
    "skeleton",
    "split_header",
    "strip_comments",
    "structure_consistency",
    "tokens",
    "top_level_tactics",
]

# --------------------------------------------------------------------------------------------
# Lexer
# --------------------------------------------------------------------------------------------

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

_TOKEN_RE = re.compile(
    r"\s*(?:"  # leading whitespace is skipped inside the match: one regex call per token
    + "|".join(
        [
            r"(?P<end>\Z)",
            r"(?P<line_comment>--[^\n]*)",
            r"(?P<block_open>/-)",
            r'(?P<string>"(?:[^"\\]|\\.)*(?:"|\Z))',
            r'(?P<raw_string>r(?P<hashes>#*)")',
            r"(?P<char>'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])')",
            rf"(?P<namelit>``?{_IDENT})",
            rf"(?P<mvar>\?{_IDENT})",
            rf"(?P<dotident>\.{_IDENT})",
            rf"(?P<hashcmd>#{_IDENT})",
            rf"(?P<ident>{_IDENT})",
            r"(?P<number>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)",
            r"(?P<symbol>:=|<;>|=>|<\|>|::|\.\.\.|\.\.|<-|->|.)",
        ]
    )
    + ")",
    re.DOTALL,
)

TokenKind = Literal[
    "ident", "number", "string", "char", "namelit", "mvar", "dotident", "hashcmd", "symbol", "comment", "doc"
]


class Token(NamedTuple):
    """One lexical token. `kind` "comment" covers `--` and `/- -/`; "doc" covers `/-- -/` and
    `/-! -/` (they are syntax in Lean but never code we reason about). A NamedTuple rather than a
    dataclass: a proof file has thousands of tokens and construction cost matters."""

    kind: str
    text: str
    start: int
    end: int


# `tuple.__new__` skips the generated NamedTuple constructor: a third of the lexer's time.
_new_token = tuple.__new__

_COMMENT_DELIMITER = re.compile(r"/-|-/")


def _block_comment_end(code: str, start: int) -> int:
    """End offset of the (nesting) block comment opened at `start`; end of code if unterminated.
    Scans left to right like Lean's `finishCommentBlock`: `/-` nests, `-/` closes."""
    depth = 0
    for m in _COMMENT_DELIMITER.finditer(code, start):
        if m.group() == "/-":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.end()
    return len(code)


def _lex(code: str) -> tuple[Token, ...]:
    """All tokens of `code`, comments included; memoized within a byte budget (memo.py: a goal's
    lemma is asked about for every candidate, whole files by every public function)."""
    return _lex_memo(code)


def _tokens_size(code: str, toks: tuple[Token, ...]) -> int:
    return 2 * len(code) + 120 * len(toks)  # a Token is a small slotted object plus its text slice


_SIMPLE_KINDS = frozenset({"ident", "number", "symbol", "char", "namelit", "mvar", "dotident", "hashcmd"})


def _lex_uncached(code: str) -> tuple[Token, ...]:
    out: list[Token] = []
    append = out.append
    pos: int | None = 0
    while pos is not None:
        restart: int | None = None
        # finditer runs the fast path; tokens whose end the regex cannot know (nested comments,
        # interpolated and raw strings) are finished by hand and the scan restarts after them.
        for m in _TOKEN_RE.finditer(code, pos):
            kind = m.lastgroup or "symbol"
            if kind in _SIMPLE_KINDS:
                start = m.start(kind)
                append(_new_token(Token, (kind, code[start : m.end()], start, m.end())))
                continue
            if kind == "end":
                break
            if kind == "hashes":  # inner group of raw_string, reported when it is the last one
                kind = "raw_string"
            start, end = m.start(kind), m.end()
            if kind == "line_comment":
                append(Token("comment", code[start:end], start, end))
                continue
            if kind == "string":
                if out and out[-1].kind == "ident" and out[-1].text.endswith("!") and out[-1].end == start:
                    restart = _lex_interpolated(code, start, out)  # `s!"… {e} …"`: braces hold code
                    break
                append(Token("string", code[start:end], start, end))
                continue
            if kind == "block_open":
                end = _block_comment_end(code, start)
                is_doc = code.startswith(("/--", "/-!"), start) and not code.startswith("/--/", start)
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
            out.extend(Token(t.kind, t.text, t.start + shift, t.end + shift) for t in _lex(code[shift:close]))
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
    for t in _lex_until_brace(code, start):
        if t.text == "{":
            depth += 1
        elif t.text == "}":
            if depth == 0:
                return t.start
            depth -= 1
    return len(code)


def _lex_until_brace(code: str, start: int) -> Iterable[Token]:
    pos = start
    while True:
        m = _TOKEN_RE.match(code, pos)
        assert m is not None
        kind = m.lastgroup
        if kind == "end":
            return
        text_start = m.start(kind if kind != "hashes" else "raw_string")
        yield Token("symbol", code[text_start : m.end()], text_start, m.end())
        pos = m.end()


def tokens(code: str, *, comments: bool = False) -> list[Token]:
    """The tokens of `code`, without comments and docstrings unless `comments`."""
    toks = _lex(code)
    return list(toks) if comments else [t for t in toks if t.kind not in ("comment", "doc")]


class _Lines:
    """Offset ↔ (line, column) for one text."""

    def __init__(self, code: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", code)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def column(self, offset: int) -> int:
        return offset - self.starts[self.line(offset) - 1]

    def line_start(self, offset: int) -> int:
        return self.starts[self.line(offset) - 1]


def strip_comments(code: str, *, strings: bool = False) -> str:
    """`code` with every comment and docstring replaced by spaces (newlines kept), so offsets,
    lines and columns are unchanged. String literals are left alone, unless `strings`: then they
    are blanked too, so that no text search can mistake their contents for code."""
    return (_strip_strings_memo if strings else _strip_memo)(code)  # memoized: asked often of one text


def _strip_uncached(code: str, kinds: tuple[str, ...]) -> str:
    return _blank(code, (t for t in _lex(code) if t.kind in kinds))


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
    comments are not removed (use `normalize_code` for Lean code)."""
    return " ".join(s.split())


def normalize_code(code: str) -> str:
    """Canonical text of Lean code for comparisons: comments and docstrings dropped, every gap
    between tokens that contains whitespace (or a comment) becomes one space, tokens that touch
    stay touching, string literals are kept verbatim. So `(x : ℕ)` and `(x :\n   ℕ)` compare
    equal but `(x:ℕ)` does not: Lean's grammar is whitespace-sensitive in places (`a[i]` indexes,
    `a [i]` applies `a` to a list), and a false "same" is worse than a false "different"."""
    out: list[str] = []
    prev_end: int | None = None
    for t in tokens(code):
        if prev_end is not None:
            out.append(" " if t.start > prev_end else "")
        out.append(t.text)
        prev_end = t.end
    return "".join(out)


@dataclass(frozen=True, slots=True)
class TokenMatch:
    text: str
    offset: int
    line: int
    column: int


def find_tokens(code: str, names: Iterable[str]) -> list[TokenMatch]:
    """Occurrences of the identifiers/keywords `names` as real tokens of `code`: never inside
    comments, docstrings or strings, never as part of a longer identifier (`sorryAx` is not
    `sorry`, `h_admit` is not `admit`), never as `x.sorry`, `?sorry`, `.sorry` or `` `sorry ``.
    A dotted name matches its trailing components too (`_root_.sorryAx` matches `sorryAx`), and a
    name starting with `#` matches the command token (`#eval`)."""
    wanted = set(names)
    lines = _Lines(code)
    found: list[TokenMatch] = []
    for t in tokens(code):
        if t.kind in ("ident", "hashcmd"):
            hit = t.text in wanted or any(t.text.endswith("." + w) for w in wanted)
        elif t.kind == "symbol":
            hit = t.text in wanted
        else:
            hit = False
        if hit:
            found.append(TokenMatch(t.text, t.start, lines.line(t.start), lines.column(t.start)))
    return found


# --------------------------------------------------------------------------------------------
# Block tracker
# --------------------------------------------------------------------------------------------

_OPEN_BRACKETS = frozenset("([{⦃⟨⟦⟮‹⌊⌈")
_CLOSE_BRACKETS = frozenset(")]}⦄⟩⟧⟯›⌋⌉")
# Tactics whose argument is a tactic sequence: the next token opens a block.
_SEQ_TAKING_TACTICS = frozenset({"try", "all_goals", "any_goals", "focus", "repeat", "repeat'", "iterate"})
# Tactics whose `=>` introduces tactic blocks (not term alternatives).
_TACTIC_ARROW_STARTERS = frozenset(
    {
        "case", "case'", "next", "induction", "induction'", "cases", "cases'", "match",
        "conv", "conv_lhs", "conv_rhs", "on_goal", "|", "fun_induction",
    }
)
# A line starting with one of these continues the previous tactic (`t\n  <;> t'`, the `else` of
# a tactic `if`), it does not start a new one even at the block's column.
_CONTINUATION_TOKENS = frozenset({"<;>", "<|>", "else"})


@dataclass(eq=False, slots=True)
class _Block:
    column: int
    depth: int
    opener: int  # index of the token that opened it (`by`, `·`, …), -1 for none


@dataclass(slots=True)
class _Analysis:
    code: str
    toks: list[Token]
    lines: _Lines
    line_start_tok: list[bool]  # first token on its line
    tactic_pos: list[bool]  # token begins a tactic
    item_of: list[_Block | None]  # block in which the token starts a new tactic of the sequence
    stack: list[tuple[_Block, ...]]  # blocks open at the token, before it opens its own
    depth: list[int]  # bracket depth before the token
    cols: list[int]  # column of each token
    declarations: list[Declaration] | None = None  # filled lazily by _declarations
    # Filled lazily by _top_level (a 1-tuple, so that "no tactic proof" can be cached as (None,)).
    top_level: tuple[tuple[Declaration, list[_Item], int] | None] | None = None
    steps: list[HaveStep] | None = None  # filled lazily by have_steps

    def col(self, i: int) -> int:
        return self.cols[i]


def _analyze(code: str) -> _Analysis:
    """Tokens and block structure of `code` (memoized; callers must not mutate the result)."""
    return _analyze_memo(code)


def _analyze_uncached(code: str) -> _Analysis:
    toks = tokens(code)
    lines = _Lines(code)
    cols, line_start = _columns_and_line_starts(toks, lines)
    tracker = _BlockTracker(toks, cols, line_start)
    for i in range(len(toks)):
        tracker.visit(i)
    return _Analysis(
        code, toks, lines, line_start, tracker.tactic_pos, tracker.item_of, tracker.stacks, tracker.depths, cols
    )


def _columns_and_line_starts(toks: Sequence[Token], lines: _Lines) -> tuple[list[int], list[bool]]:
    """Column of each token and whether it is the first token of its line, in one merged walk
    over tokens and line starts (both sorted) rather than a bisect per token."""
    cols = [0] * len(toks)
    line_start = [False] * len(toks)
    starts = lines.starts
    ln = 0  # index into starts of the line holding the current token
    last_line = -1  # line index (0-based) on which the previous token ended
    for i, t in enumerate(toks):
        while ln + 1 < len(starts) and starts[ln + 1] <= t.start:
            ln += 1
        cols[i] = t.start - starts[ln]
        line_start[i] = ln != last_line
        last_line = lines.line(t.end - 1) - 1 if "\n" in t.text else ln
    return cols, line_start


class _BlockTracker:
    """Lean's layout rules for tactic blocks, one token at a time (see the module docstring)."""

    def __init__(self, toks: Sequence[Token], cols: list[int], line_start: list[bool]) -> None:
        n = len(toks)
        self.toks, self.cols, self.line_start = toks, cols, line_start
        self.tactic_pos = [False] * n
        self.item_of: list[_Block | None] = [None] * n
        self.stacks: list[tuple[_Block, ...]] = [()] * n
        self.depths = [0] * n
        self.blocks: list[_Block] = []
        self.depth = 0
        self.open_request: int | None = None  # index of an opener whose block starts at the next token
        self.item_first: dict[int, str] = {}  # id(block) -> first token of its current tactic
        self.pending_fun: Counter[int] = Counter()  # `fun`s at a depth still waiting for their `=>`
        self.after_iterate = False

    def visit(self, i: int) -> None:
        if self.line_start[i]:
            self._close_blocks_right_of(self.cols[i])
        self.stacks[i] = tuple(self.blocks)
        self.depths[i] = self.depth
        self._classify(i)
        self._maybe_request_block(i)
        self._track_brackets(i)

    def _close_blocks_right_of(self, col: int) -> None:
        """A line starting left of a block's column (at the block's bracket depth) ends it."""
        while self.blocks and self.blocks[-1].depth == self.depth and col < self.blocks[-1].column:
            self.blocks.pop()

    def _in_tactic(self) -> _Block | None:
        """The innermost block, if the current token is directly in it (not inside brackets)."""
        top = self.blocks[-1] if self.blocks else None
        return top if top is not None and top.depth == self.depth else None

    def _classify(self, i: int) -> None:
        t = self.toks[i]
        top = self._in_tactic()
        prev = self.toks[i - 1].text if i > 0 else None
        if self.after_iterate and t.kind == "number":
            pass  # `iterate 3 tac`: the count is not the block's first tactic
        elif self.open_request is not None and not (self.line_start[i] and t.text in _CONTINUATION_TOKENS):
            block = _Block(self.cols[i], self.depth, self.open_request)
            self.blocks.append(block)
            self.open_request = None
            self._start_item(i, block)
        elif top is not None and self.line_start[i] and self.cols[i] == top.column:
            if t.text not in _CONTINUATION_TOKENS:
                self._start_item(i, top)
        elif top is not None and prev == ";":
            self._start_item(i, top)
        elif prev in ("<;>", "<|>"):
            self.tactic_pos[i] = True  # one tactic, not a new item of the sequence
        self.after_iterate = False

    def _start_item(self, i: int, block: _Block) -> None:
        self.tactic_pos[i] = True
        self.item_of[i] = block
        self.item_first[id(block)] = self.toks[i].text

    def _maybe_request_block(self, i: int) -> None:
        """Does this token make the next one start a tactic block?"""
        t = self.toks[i]
        text = t.text
        top = self._in_tactic()
        current_first = self.item_first.get(id(top)) if top is not None else None
        if t.kind == "ident" and text in ("fun", "λ"):
            self.pending_fun[self.depth] += 1
        if text == "by" and t.kind == "ident":
            self.open_request = i
        elif self.tactic_pos[i] and (text in ("·", ".", "(") or text in _SEQ_TAKING_TACTICS):
            # bullets, `(tac; tac)`, `try tac`, `all_goals tac`, `iterate n tac`…
            self.open_request = i
            self.after_iterate = text == "iterate"
        elif text == "=>":
            if self.pending_fun[self.depth] > 0:
                self.pending_fun[self.depth] -= 1  # `fun x => …`: a term
            elif current_first in _TACTIC_ARROW_STARTERS:
                self.open_request = i
        elif (text == "then" and current_first == "if") or (text == "|" and current_first == "first"):
            self.open_request = i
        elif text == "else":
            self._open_else_branch(i)

    def _open_else_branch(self, i: int) -> None:
        """A tactic `if … then tac else tac`: the `then` branch may still be open on this line;
        the `else` belongs to the `if` tactic below it."""
        for k in range(len(self.blocks) - 1, -1, -1):
            if self.blocks[k].depth != self.depth:
                return
            if self.item_first.get(id(self.blocks[k])) == "if":
                del self.blocks[k + 1 :]
                self.open_request = i
                return

    def _track_brackets(self, i: int) -> None:
        t = self.toks[i]
        if t.kind != "symbol":
            return
        if t.text in _OPEN_BRACKETS:
            self.depth += 1
        elif t.text in _CLOSE_BRACKETS:
            self.pending_fun[self.depth] = 0
            self.depth = max(0, self.depth - 1)
            while self.blocks and self.blocks[-1].depth > self.depth:
                self.blocks.pop()  # a closing bracket ends the blocks opened inside it
            if self.open_request is not None and self.toks[self.open_request].text == "(":
                self.open_request = None  # `()`: nothing was opened


# --------------------------------------------------------------------------------------------
# Header
# --------------------------------------------------------------------------------------------

_HEADER_COMMANDS = frozenset({"import", "set_option", "open", "universe"})


def split_header(code: str) -> tuple[str, str]:
    """Split `code` into its header and the rest, `header + rest == code`.

    The header is the leading run of `import` / `set_option` / `open` / `universe` commands at
    column 0 (a command may continue on indented lines), with the blank lines and non-doc comments
    between them, plus the blank lines right after the last one. A `set_option … in` or
    `open … in` is a prefix of the next declaration, not header. Docstrings (`/-- -/`) belong to
    the declaration after them, so they end the header; so does a comment after the last header
    command (it usually describes what follows)."""
    toks = _lex(code)
    lines = _Lines(code)
    header_end = 0
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        if t.kind == "comment":
            i += 1
            continue
        if not (t.kind == "ident" and t.text in _HEADER_COMMANDS and lines.column(t.start) == 0):
            break
        j = i + 1  # the command runs until the next token at column 0 that starts a line
        while j < n and not (
            lines.column(toks[j].start) == 0 or (toks[j].kind == "comment" and _starts_line(code, toks[j].start))
        ):
            j += 1
        last = j - 1
        while last > i and toks[last].kind == "comment":
            last -= 1
        if toks[last].text == "in" and toks[last].kind == "ident":
            break
        header_end = toks[last].end
        i = j
    if header_end == 0:
        return "", code
    # Comments that start on the last header line belong to it; then take the rest of that line
    # and the blank lines after it.
    for t in toks:
        if t.kind in ("comment", "doc") and t.start >= header_end and "\n" not in code[header_end : t.start]:
            header_end = t.end
    nl = code.find("\n", header_end)
    if nl < 0:
        return code, ""
    end = nl + 1
    while True:
        nxt = code.find("\n", end)
        if nxt < 0:
            if code[end:].strip() == "":
                end = len(code)
            break
        if code[end:nxt].strip():
            break
        end = nxt + 1
    return code[:end], code[end:]


def _starts_line(code: str, offset: int) -> bool:
    line_start = code.rfind("\n", 0, offset) + 1
    return code[line_start:offset].strip() == ""


# --------------------------------------------------------------------------------------------
# Holes
# --------------------------------------------------------------------------------------------

HolePosition = Literal["tactic", "term"]


@dataclass(frozen=True, slots=True)
class Hole:
    """A `sorry` token. `position` is "tactic" when the `sorry` is itself a tactic (first
    tactic of a block opened by `by`, `·`, `case … =>` …; a new line at a tactic block's column;
    after `;`, `<;>`, `<|>`), "term" otherwise (`:= sorry`, `(sorry)`, `exact sorry`,
    `⟨sorry, h⟩`, `foo sorry`, `fun x => sorry`)."""

    offset: int
    line: int
    column: int
    position: HolePosition

    @property
    def end(self) -> int:
        return self.offset + len("sorry")


@dataclass(frozen=True, slots=True)
class _HoleContext:
    hole: Hole
    prev: Token | None
    prev2: Token | None
    enclosing_column: int | None  # column of the tactic block the hole's tactic/term lives in
    rest_of_line_empty: bool  # nothing but whitespace/comments after the sorry on its line
    rest_only_closers: bool  # …or only closing brackets (`(by sorry)`)
    line_start: bool  # the sorry is the first token on its line


def _is_sorry(t: Token) -> bool:
    return t.kind == "ident" and t.text == "sorry"


def _hole_contexts(code: str) -> tuple[_HoleContext, ...]:
    """Memoized (memo.py): `fill` asks for the same goal's holes once per candidate."""
    return _hole_contexts_memo(code)


def _hole_contexts_uncached(code: str) -> tuple[_HoleContext, ...]:
    an = _analyze(code)
    stripped = strip_comments(code)
    out: list[_HoleContext] = []
    for i, t in enumerate(an.toks):
        if not _is_sorry(t):
            continue
        line = an.lines.line(t.start)
        column = an.lines.column(t.start)
        position: HolePosition = "tactic" if an.tactic_pos[i] else "term"
        stack = an.stack[i]
        enclosing = stack[-1].column if stack else None
        eol = stripped.find("\n", t.end)
        rest = stripped[t.end : len(stripped) if eol < 0 else eol]
        out.append(
            _HoleContext(
                hole=Hole(t.start, line, column, position),
                prev=an.toks[i - 1] if i > 0 else None,
                prev2=an.toks[i - 2] if i > 1 else None,
                enclosing_column=enclosing,
                rest_of_line_empty=rest.strip() == "",
                rest_only_closers=all(c in _CLOSE_BRACKETS or c.isspace() for c in rest),
                line_start=an.line_start_tok[i],
            )
        )
    return tuple(out)


def holes(code: str) -> list[Hole]:
    """Every real `sorry` token of `code`, in source order (see `Hole` for tactic vs term)."""
    return [c.hole for c in _hole_contexts(code)]


# --------------------------------------------------------------------------------------------
# Declarations
# --------------------------------------------------------------------------------------------

_DECL_KINDS = frozenset(
    {
        "theorem", "lemma", "def", "abbrev", "axiom", "instance", "example", "structure", "inductive",
        "class", "opaque", "irreducible_def",
    }
)
_MODIFIERS = frozenset({"private", "protected", "noncomputable", "partial", "unsafe", "nonrec", "local", "scoped"})
_COMMAND_KEYWORDS = (
    _DECL_KINDS
    | _MODIFIERS
    | {
        "import", "open", "namespace", "section", "end", "variable", "universe", "set_option", "attribute",
        "notation", "infix", "infixl", "infixr", "prefix", "postfix", "macro", "macro_rules", "syntax", "elab",
        "elab_rules", "mutual", "deriving", "initialize", "export", "alias", "declare_syntax_cat",
        "run_cmd", "omit", "include", "add_decl_doc",
    }
)
# Options that only change resources or printing: allowed to differ in `set_option … in`
# prefixes and to be added before a theorem.
_HARMLESS_OPTIONS = re.compile(
    r"^set_option (?:maxHeartbeats|maxRecDepth|synthInstance\.maxHeartbeats|synthInstance\.maxSize|"
    r"linter\.\S+|pp\.\S+) "
)


# Term-level local definitions whose `:=` can appear at depth 0 inside a type or statement.
_LOCAL_DEFINERS = frozenset({"let", "letI", "have", "haveI"})


@dataclass(frozen=True, slots=True)
class Declaration:
    """One top-level declaration.

    `start` is where its syntax begins (docstring, then any `set_option … in` / `open … in`
    prefixes, attributes and modifiers); `end` is the end of its last token (trailing comments
    and blank lines excluded). `signature` is the text from the end of the name to `:=` (binders
    and `: type`), split at the top-level colon (the first `:` at bracket depth 0) into `binders`
    and `type`. `body_start` is the offset right after `:=` (None when there is none: axioms,
    structures, `where`/`|` definitions). `universe_params` holds an explicit `.{u, v}`."""

    kind: str
    name: str
    start: int
    end: int
    keyword_start: int
    signature_start: int
    signature: str
    binders: str
    type: str
    body_start: int | None
    text: str
    universe_params: str = ""
    modifiers: tuple[str, ...] = ()
    prefix_commands: tuple[str, ...] = ()
    docstring: str | None = None

    @property
    def body(self) -> str:
        """The text after `:=` (the proof of a theorem), "" when there is none."""
        if self.body_start is None:
            return ""
        return self.text[self.body_start - self.start :]

    @property
    def statement(self) -> str:
        """`kind name signature` without the body, e.g. `theorem foo (x : ℕ) : x = x`."""
        name = f" {self.name}{self.universe_params}" if self.name or self.universe_params else ""
        return f"{self.kind}{name} {self.signature}".rstrip()


@dataclass(slots=True)
class _Command:
    first: int  # token index of the first token (modifier, attribute, prefix command, keyword)
    last: int  # token index of the last token (inclusive)
    keyword: int  # token index of the command keyword (after modifiers)
    doc: Token | None = None
    prefixes: list[tuple[int, int]] = field(default_factory=list)  # token ranges of `… in` prefixes


def _command_starts(an: _Analysis) -> list[int]:
    """Token indices that start a command: a command keyword, an attribute `@[` or a `#cmd` at
    column 0 and bracket depth 0 (proof bodies are indented; the rare column-0 `sorry` of a
    PutnamBench statement is not a command keyword)."""
    starts = []
    for i, t in enumerate(an.toks):
        if not an.line_start_tok[i] or an.depth[i] != 0 or an.col(i) != 0:
            continue
        if (t.kind == "ident" and t.text in _COMMAND_KEYWORDS) or t.kind == "hashcmd":
            starts.append(i)
        elif t.text == "@" and i + 1 < len(an.toks) and an.toks[i + 1].text == "[":
            starts.append(i)
    return starts


def _commands(an: _Analysis) -> list[_Command]:
    starts = _command_starts(an)
    raw: list[tuple[int, int]] = []
    for k, s in enumerate(starts):
        e = (starts[k + 1] if k + 1 < len(starts) else len(an.toks)) - 1
        raw.append((s, e))
    commands: list[_Command] = []
    pending_prefixes: list[tuple[int, int]] = []
    for s, e in raw:
        if an.toks[e].kind == "ident" and an.toks[e].text == "in" and an.toks[s].text in ("set_option", "open"):
            pending_prefixes.append((s, e))
            continue
        keyword = s
        while keyword <= e:
            t = an.toks[keyword]
            if t.text == "@" and keyword + 1 <= e and an.toks[keyword + 1].text == "[":
                keyword = _matching_bracket(an, keyword + 1) + 1
            elif t.kind == "ident" and t.text in _MODIFIERS:
                keyword += 1
            else:
                break
        first = pending_prefixes[0][0] if pending_prefixes else s
        commands.append(_Command(first, e, min(keyword, e), prefixes=pending_prefixes))
        pending_prefixes = []
    return commands


def _matching_bracket(an: _Analysis, i: int) -> int:
    """Index of the token closing the bracket opened at token `i` (last token if unbalanced)."""
    depth = 0
    for j in range(i, len(an.toks)):
        t = an.toks[j]
        if t.kind == "symbol" and t.text in _OPEN_BRACKETS:
            depth += 1
        elif t.kind == "symbol" and t.text in _CLOSE_BRACKETS:
            depth -= 1
            if depth == 0:
                return j
    return len(an.toks) - 1


def _docstring_before(code: str, all_toks: list[Token], offset: int) -> Token | None:
    """The docstring immediately before `offset` (only whitespace between), if any."""
    k = bisect.bisect_left([t.start for t in all_toks], offset) - 1
    if k >= 0 and all_toks[k].kind == "doc" and all_toks[k].text.startswith("/--"):
        if code[all_toks[k].end : offset].strip() == "":
            return all_toks[k]
    return None


def declarations(code: str) -> list[Declaration]:
    """Every top-level declaration of `code` (theorem, lemma, def, abbrev, axiom, instance,
    example, structure, inductive, class, opaque), in order."""
    return _declarations(_analyze(code))


def _declarations(an: _Analysis) -> list[Declaration]:
    if an.declarations is None:  # computed once per (cached) analysis
        all_toks = _lex(an.code)
        an.declarations = [
            _declaration(an, all_toks, cmd)
            for cmd in _commands(an)
            if an.toks[cmd.keyword].kind == "ident" and an.toks[cmd.keyword].text in _DECL_KINDS
        ]
    return list(an.declarations)


def _declaration(an: _Analysis, all_toks: list[Token], cmd: _Command) -> Declaration:
    code, toks = an.code, an.toks
    kw = toks[cmd.keyword]
    i = cmd.keyword + 1
    last = cmd.last
    # `instance (priority := low) foo : …`
    if kw.text == "instance" and i <= last and toks[i].text == "(" and i + 1 <= last and toks[i + 1].text == "priority":
        i = _matching_bracket(an, i) + 1
    name = ""
    name_end = kw.end
    if i <= last and toks[i].kind == "ident" and kw.text != "example" and toks[i].text not in ("where", "extends"):
        name = toks[i].text
        name_end = toks[i].end
        i += 1
    universe_params = ""
    if i + 1 <= last and toks[i].text == "." and toks[i].start == name_end and toks[i + 1].text == "{":
        close = _matching_bracket(an, i + 1)
        universe_params = code[toks[i].start : toks[close].end]
        name_end = toks[close].end
        i = close + 1
    # The signature runs to `:=` at depth 0 (or `where` / `|` / the end of the command).
    base_depth = an.depth[cmd.keyword]
    colon: int | None = None
    assign: int | None = None
    stop = last + 1
    local_definitions = 0  # `let x := v; …` inside the type: that `:=` is not the body's
    for j in range(i, last + 1):
        t = toks[j]
        if an.depth[j] != base_depth:
            continue
        if t.text in _LOCAL_DEFINERS and t.kind == "ident":
            local_definitions += 1
        elif t.text == ":" and colon is None:
            colon = j
        elif t.text == ":=" and local_definitions:
            local_definitions -= 1
        elif t.text == ":=":
            assign = j
            stop = j
            break
        elif (t.text == "where" and t.kind == "ident") or (t.text == "|" and _starts_alternative(an, j, last)):
            stop = j
            break
    sig_end = toks[stop].start if stop <= last else toks[last].end
    signature = code[name_end:sig_end].strip()
    if colon is not None:
        binders = code[name_end : toks[colon].start].strip()
        type_ = code[toks[colon].end : sig_end].strip()
    else:
        binders, type_ = signature, ""
    start_tok = toks[cmd.first]
    doc = _docstring_before(code, all_toks, start_tok.start)
    start = doc.start if doc else start_tok.start
    end = toks[last].end
    modifiers = tuple(_modifier_texts(an, cmd))
    prefixes = tuple(code[toks[s].start : toks[e].end] for s, e in cmd.prefixes)
    return Declaration(
        kind=kw.text,
        name=name,
        start=start,
        end=end,
        keyword_start=kw.start,
        signature_start=name_end,
        signature=signature,
        binders=binders,
        type=type_,
        body_start=toks[assign].end if assign is not None else None,
        text=code[start:end],
        universe_params=universe_params,
        modifiers=modifiers,
        prefix_commands=prefixes,
        docstring=doc.text if doc else None,
    )


def _starts_alternative(an: _Analysis, j: int, last: int) -> bool:
    """Whether the `|` at token `j` starts a pattern-matching alternative (`| 0 => 1`) rather than
    an absolute value (`|m| < 2 := by`): it starts a line and a `=>` follows at the same depth
    before any `:=`."""
    if not an.line_start_tok[j]:
        return False
    for k in range(j + 1, last + 1):
        if an.depth[k] != an.depth[j]:
            continue
        if an.toks[k].text == "=>":
            return True
        if an.toks[k].text == ":=":
            return False
    return False


def _modifier_texts(an: _Analysis, cmd: _Command) -> list[str]:
    out = []
    j = cmd.prefixes[-1][1] + 1 if cmd.prefixes else cmd.first
    while j < cmd.keyword:
        t = an.toks[j]
        if t.text == "@":
            close = _matching_bracket(an, j + 1)
            out.append(normalize_code(an.code[t.start : an.toks[close].end]))
            j = close + 1
        else:
            out.append(t.text)
            j += 1
    return out


def last_theorem(code: str) -> Declaration | None:
    """The last `theorem` or `lemma` of `code` (the problem statement of a benchmark file)."""
    decls = [d for d in declarations(code) if d.kind in ("theorem", "lemma")]
    return decls[-1] if decls else None


# --------------------------------------------------------------------------------------------
# Statement comparison
# --------------------------------------------------------------------------------------------


def _statement_key(decl: Declaration) -> tuple[str, ...]:
    kind = "theorem" if decl.kind == "lemma" else decl.kind  # Mathlib's `lemma` is `theorem`
    prefixes = tuple(
        normalize_code(p) for p in decl.prefix_commands if not _HARMLESS_OPTIONS.match(normalize_code(p) + " ")
    )
    return (kind, decl.name, decl.universe_params, normalize_code(decl.signature), *prefixes)


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
    an = _analyze(code)
    theorem_start = None
    decls = _declarations(an)
    theorems = [d for d in decls if d.kind in ("theorem", "lemma")]
    if theorems:
        theorem_start = theorems[-1].start
    by_keyword = {d.keyword_start: d for d in decls}
    out = []
    for cmd in _commands(an):
        first = an.toks[cmd.first]
        if theorem_start is not None and first.start >= theorem_start:
            break
        kw = an.toks[cmd.keyword]
        text = normalize_code(code[first.start : an.toks[cmd.last].end])
        out.append(_PreambleCommand(kw.text, text, by_keyword.get(kw.start)))
    return out


def _is_answer_slot(decl: Declaration | None) -> bool:
    return decl is not None and decl.kind in ("def", "abbrev", "opaque") and normalize_code(decl.body) == "sorry"


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


# --------------------------------------------------------------------------------------------
# Proof structure: `have` steps
# --------------------------------------------------------------------------------------------

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


def _block_items(an: _Analysis, block: _Block, lo: int, hi: int) -> list[_Item]:
    """The tactics of `block` among tokens [lo, hi)."""
    starts = [i for i in range(lo, hi) if an.item_of[i] is block]
    return [_item_at(an, s, starts[k + 1] if k + 1 < len(starts) else hi) for k, s in enumerate(starts)]


def _item_at(an: _Analysis, first: int, limit: int) -> _Item:
    """The tactic starting at token `first` (an item of its block): it runs until the next item
    of the same block (`limit`) or until the block closes."""
    block = an.item_of[first]
    last = first
    for j in range(first + 1, limit):
        if block not in an.stack[j]:
            break
        last = j
    return _Item(first, last)


def _theorem_proof_block(an: _Analysis, decl: Declaration) -> tuple[int, _Block] | None:
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


def _decl_token_range(an: _Analysis, decl: Declaration) -> tuple[int, int]:
    starts = [t.start for t in an.toks]
    return bisect.bisect_left(starts, decl.start), bisect.bisect_left(starts, decl.end)


def _step_bounds(an: _Analysis, item: _Item) -> tuple[int, int] | None:
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
        if colon is not None and t.text in _LOCAL_DEFINERS and t.kind == "ident":
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


def _step_binders_first(an: _Analysis, item: _Item, colon: int) -> int:
    """Token index where a step's own binders start (== colon when it has none)."""
    head = item.first + 1
    if head < colon and an.toks[item.first].text == "have":
        if an.toks[head].kind == "ident":
            return head + 1
        if an.toks[head].text in _OPEN_BRACKETS and an.toks[head].text != "⟨":
            return head
    return colon


def _joined(an: _Analysis, lo: int, hi: int) -> str:
    """`normalize_code` of the text of tokens [lo, hi), from the tokens already lexed."""
    out: list[str] = []
    prev_end: int | None = None
    for t in an.toks[lo:hi]:
        if prev_end is not None and t.start > prev_end:
            out.append(" ")
        out.append(t.text)
        prev_end = t.end
    return "".join(out)


def _step_key(an: _Analysis, item: _Item) -> str | None:
    """`normalize_code(step.full_statement)` without re-lexing (structure_consistency runs on
    every GRPO sample)."""
    bounds = _step_bounds(an, item)
    if bounds is None:
        return None
    colon, assign = bounds
    statement = _joined(an, colon + 1, assign)
    first = _step_binders_first(an, item, colon)
    return f"∀ {_joined(an, first, colon)}, {statement}" if first < colon else statement


def _parse_step(an: _Analysis, item: _Item) -> HaveStep | None:
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
    )


def _proof_last(an: _Analysis, item: _Item, proof_first: int) -> int:
    """Last token of the proof of a step: the step's tokens up to a continuation line that starts
    at (or left of) the step's own column, e.g. `  <;> linarith` under `  have … := by …`."""
    step_col = an.col(item.first)
    last = proof_first
    for j in range(proof_first + 1, item.last + 1):
        if an.line_start_tok[j] and an.depth[j] == an.depth[item.first] and an.col(j) <= step_col:
            break
        last = j
    return last


def _top_level(code: str) -> tuple[_Analysis, Declaration, list[_Item], int] | None:
    """The analysis, the last theorem, its top-level tactics and the `by` token index."""
    an = _analyze(code)
    if an.top_level is None:  # computed once per (cached) analysis
        an.top_level = (_compute_top_level(an),)
    top = an.top_level[0]
    return None if top is None else (an, *top)


def _compute_top_level(an: _Analysis) -> tuple[Declaration, list[_Item], int] | None:
    theorems = [d for d in _declarations(an) if d.kind in ("theorem", "lemma")]
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
    if an.steps is None:
        an.steps = [s for s in (_parse_step(an, it) for it in items) if s is not None]
    return list(an.steps)


def _all_step_items(an: _Analysis, decl: Declaration) -> list[_Item]:
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
    an = _analyze(code)
    theorems = [d for d in _declarations(an) if d.kind in ("theorem", "lemma")]
    if not theorems:
        return []
    return [s for s in (_parse_step(an, it) for it in _all_step_items(an, theorems[-1])) if s is not None]


def _step_keys(code: str, *, nested: bool) -> list[str]:
    """Normalized full statements of the last theorem's steps (top level, or at any depth)."""
    an = _analyze(code)
    theorems = [d for d in _declarations(an) if d.kind in ("theorem", "lemma")]
    if not theorems:
        return []
    if nested:
        items = _all_step_items(an, theorems[-1])
    else:
        top = _top_level(code)
        items = top[2] if top is not None else []
    return [k for k in (_step_key(an, it) for it in items) if k is not None]


# --------------------------------------------------------------------------------------------
# Proof text shaping
# --------------------------------------------------------------------------------------------


class TermProof(str):
    """A proof written as a term (what followed `:=` without `by`). `fill` inserts it as a term
    instead of as tactics; everywhere else it is an ordinary `str`. `as_tactic()` gives the
    equivalent tactic text (`exact …`)."""

    __slots__ = ()

    def as_tactic(self) -> str:
        lines = str(self).split("\n")
        return "\n".join(["exact " + lines[0], *("  " + ln if ln.strip() else ln for ln in lines[1:])])


def _rebase(code: str, start: int, end: int, lines: _Lines) -> str:
    """code[start:end] as a block at column 0 keeping relative indentation. The first line is
    placed as if it began at the smaller of its real column and the indentation of the other
    lines: in valid Lean, continuation lines left of the first token are trailing combinators or
    bracket continuations, where the column does not matter, while lines right of it (arguments,
    nested blocks) keep their offset."""
    text = code[start:end]
    parts = text.split("\n")
    first_col = lines.column(start)
    rest_indents = [len(p) - len(p.lstrip(" \t")) for p in parts[1:] if p.strip()]
    base = min([first_col, *rest_indents])
    out = [parts[0]]  # the first line sits at `base` itself
    out.extend(p[base:] if p.strip() else "" for p in parts[1:])
    return "\n".join(ln.rstrip() for ln in out)


def _dedent(text: str) -> str:
    """Prover output as a block at column 0: tabs expanded, common indentation removed, blank
    lines at both ends and trailing spaces dropped."""
    text = textwrap.dedent(text.expandtabs(2))
    lines = [ln.rstrip() for ln in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return textwrap.dedent("\n".join(lines))


def _strip_leading_by(block: str) -> str:
    """`by tac…` (a term) → `tac…` (tactics), re-based; other text unchanged."""
    toks = tokens(block)
    if not toks or toks[0].text != "by" or toks[0].kind != "ident":
        return block
    if len(toks) == 1:
        return ""
    rest = toks[1]
    return _rebase(block, rest.start, len(block), _Lines(block)).strip("\n")


def _indent(lines: Sequence[str], column: int) -> list[str]:
    pad = " " * column
    return [pad + ln if ln else "" for ln in lines]


def _place(lines: Sequence[str], column: int) -> str:
    """First line in place (the caller put it at `column`), the others indented to `column`."""
    return "\n".join([lines[0], *_indent(lines[1:], column)])


def _fill_one(code: str, ctx: _HoleContext, proof: str) -> tuple[int, int, str]:
    """(start, end, replacement) that puts `proof` into the hole described by `ctx` (the rules
    are listed in `fill`)."""
    hole = ctx.hole
    start, end = hole.offset, hole.end
    block_column = (ctx.enclosing_column if ctx.enclosing_column is not None else 0) + 2
    if isinstance(proof, TermProof):
        return _fill_term_proof(ctx, proof, block_column)
    lines = _strip_leading_by(_dedent(proof)).split("\n")
    single = len(lines) == 1
    prev = ctx.prev.text if ctx.prev is not None else None

    if hole.position == "tactic":
        if single:
            return start, end, lines[0]
        if prev == "by" and ctx.prev is not None and not ctx.line_start and ctx.rest_only_closers:
            # `:= by sorry`, `(by sorry)`: the block goes on the next lines.
            return ctx.prev.end, end, "\n" + "\n".join(_indent(lines, block_column))
        if prev in (";", "<;>", "<|>") or not ctx.rest_of_line_empty:
            return start, end, "(" + _place(lines, hole.column + 1) + ")"  # these take ONE tactic
        return start, end, _place(lines, hole.column)

    if prev == ":=" and ctx.prev is not None and ctx.rest_of_line_empty and code[ctx.prev.end : start].strip() == "":
        # The whole right-hand side of `:=`: no parentheses needed.
        if single:
            return ctx.prev.end, end, " by " + lines[0]
        return ctx.prev.end, end, " by\n" + "\n".join(_indent(lines, block_column))
    if single:
        return start, end, f"(by {lines[0]})"
    return start, end, "(by\n" + "\n".join(_indent(lines, block_column)) + ")"


def _fill_term_proof(ctx: _HoleContext, proof: TermProof, block_column: int) -> tuple[int, int, str]:
    hole = ctx.hole
    lines = _dedent(proof).split("\n")
    term = _place(lines, block_column)
    prev = ctx.prev.text if ctx.prev is not None else None
    if ctx.hole.position == "tactic":
        if prev == "by" and ctx.prev is not None and ctx.prev2 is not None and ctx.prev2.text == ":=":
            return ctx.prev.start, hole.end, term
        return hole.offset, hole.end, _place(TermProof("\n".join(lines)).as_tactic().split("\n"), hole.column)
    if prev == ":=" and ctx.rest_of_line_empty:
        return hole.offset, hole.end, term
    return hole.offset, hole.end, "(" + term + ")"


def fill(code: str, proofs: Sequence[str | None] | Mapping[int, str]) -> str:
    """Put proofs into the holes of `code`.

    `proofs` is a list aligned with `holes(code)` (None leaves that hole), or a dict
    hole index → proof. A proof is tactic text as a prover returns it (one or many lines; their
    common indentation is removed), or a `by …` term (the `by` is dropped, so it never becomes
    `by by`), or a `TermProof` (a term, e.g. a PutnamBench answer). Proof `sorry` leaves the hole
    as it is; an empty proof is an error. Where the lines go:

    * tactic hole, one line: it replaces the `sorry` (`:= by sorry` → `:= by simp`).
    * tactic hole right after `by` with nothing but closing brackets after it (`:= by sorry`,
      `(by sorry)`), several lines: they go on the next lines, two columns deeper than the tactic
      block that contains the `by` (a `have` at column 2: column 4; a theorem: column 2).
    * other tactic hole, several lines: aligned at the `sorry`'s column (a new tactic line, or a
      block after `·`, `=>`, `case … =>`), or wrapped as `(l1\n l2)` when the hole follows `<;>`,
      `;` or `<|>`, or has code after it on its line (those positions take ONE tactic).
    * term hole that is the whole right-hand side of `:=` (`have h : P := sorry`, PutnamBench's
      `:=\nsorry`): `:= by tac`, or `:= by` + lines indented as above.
    * any other term hole (`exact sorry`, `foo (sorry)`): `(by tac)`, or `(by` + lines + `)`.
    * `TermProof`: `:= by sorry` → `:= term`; a term hole → `term` (whole right-hand side of
      `:=`) or `(term)`; another tactic hole → `exact term`. Continuation lines keep their
      relative indentation, two columns deeper than the enclosing block.
    """
    if isinstance(proofs, str):
        raise TypeError("proofs must be a list or a dict of proofs, not one string")
    contexts = _hole_contexts(code)
    if isinstance(proofs, Mapping):
        chosen = dict(proofs)
        bad = [k for k in chosen if not 0 <= k < len(contexts)]
        if bad:
            raise ValueError(f"hole indices {bad} out of range: the code has {len(contexts)} holes")
    else:
        if len(proofs) != len(contexts):
            raise ValueError(f"{len(proofs)} proofs for {len(contexts)} holes")
        chosen = {k: p for k, p in enumerate(proofs) if p is not None}
    edits = []
    for k, ctx in enumerate(contexts):
        proof = chosen.get(k)
        if proof is None or (not isinstance(proof, TermProof) and proof.strip() == "sorry"):
            continue
        if not _strip_leading_by(_dedent(proof)).strip():
            raise ValueError(f"empty proof for hole {k}")
        edits.append(_fill_one(code, ctx, proof))
    out = code
    for start, end, replacement in sorted(edits, reverse=True):
        out = out[:start] + replacement + out[end:]
    return out


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
    an = _analyze(code)
    theorems = [d for d in _declarations(an) if d.kind in ("theorem", "lemma")]
    if not theorems:
        raise ValueError("no theorem or lemma in the code")
    decl = theorems[-1]
    if decl.body_start is None:
        raise ValueError(f"theorem {decl.name} has no `:=`")
    edits: list[tuple[int, int, str, str]] = []  # (start, end, replacement, piece)
    found = _theorem_proof_block(an, decl)
    if found is None:
        first = next((t for t in _lex(code[decl.body_start : decl.end])), None)
        if first is not None:
            piece = TermProof(_rebase(code, decl.body_start + first.start, decl.end, an.lines))
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
            edits.append((cstart, cend, "sorry", _rebase(code, cstart, cend, an.lines)))
    sketch, our_holes = _apply_edits(code, edits)
    pieces: list[str] = []
    ours = dict(our_holes)
    for h in holes(sketch):
        pieces.append(ours.get(h.offset, "sorry"))
    return sketch, pieces


def _step_edit(an: _Analysis, step: HaveStep) -> tuple[int, int, str, str]:
    code = an.code
    if step.by_proof:
        # Comments count: one between `by` and the first tactic belongs to the piece.
        toks = _lex(code[step.proof_start : step.proof_end])
        by_end = step.proof_start + toks[0].end
        if len(toks) == 1:
            return by_end, step.proof_end, " sorry", "skip"
        first = step.proof_start + toks[1].start
        return by_end, step.proof_end, " sorry", _rebase(code, first, step.proof_end, an.lines)
    piece = TermProof(_rebase(code, step.proof_start, step.proof_end, an.lines))
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


# Byte-bounded memos (lean/memo.py) of the two passes every function starts with.
_lex_memo = ByteBoundedMemo(_lex_uncached, 8 << 20, _tokens_size)
_analyze_memo = ByteBoundedMemo(_analyze_uncached, 8 << 20, lambda code, an: 2 * len(code) + 400 * len(an.toks))
_hole_contexts_memo = ByteBoundedMemo(_hole_contexts_uncached, 4 << 20, lambda code, ctx: 2 * len(code) + 300 * len(ctx))
_strip_memo = ByteBoundedMemo(lambda code: _strip_uncached(code, ("comment", "doc")), 8 << 20)
_strip_strings_memo = ByteBoundedMemo(lambda code: _strip_uncached(code, ("comment", "doc", "string")), 4 << 20)

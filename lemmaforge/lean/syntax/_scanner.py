"""One pass of Lean 4's tokenizer over a text (`_Scanner`, rule by rule as `Lean.Parser.tokenFn`
and `whitespace` read it) and what it produces: tokens and the first refusal. `_lexer.py` holds the
account of the rules (its docstring), the memoised entry points and the tools built on tokens.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lemmaforge.lean.syntax._token_table import (
    _CHAR_SAFE_AFTER,
    _COMPOSITE,
    _CORE_PRIMED,
    _DIGIT_CLASS,
    _DIGITS_RE,
    _FAST,
    _G_DIGITS,
    _G_IDENT,
    _G_PLAIN,
    _G_SYMBOL,
    _HEX,
    _IDENT_SCAN,
    _INTERPOLATED_AFTER,
    _MAX_NESTING,
    _PLAIN_AFTER,
    _SAFE_BEFORE_OPENER,
    _SAME_EITHER_WAY,
    _SPACES,
    _is_id_first,
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
                        and out[-1].text not in _CHAR_SAFE_AFTER and not _SAME_EITHER_WAY.match(code, start):
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

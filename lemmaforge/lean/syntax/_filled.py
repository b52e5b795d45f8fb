"""Where the proof of a filled sketch lies, without reading the filled text.

Assembly fills a sketch's holes with its children's proofs and takes the proof of the result (the
tactic block after `:= by`, `search/assemble.proof_body`) up to the parent. The filled text holds
the whole subtree's proof, so reading it (a layout analysis) costs the subtree's size at every
level: O(depth) per goal node of a big tree. But the filled proof starts where the sketch's did and
ends where the sketch's ended, moved by the edits: `fill_with_body_span` gives that span from the
sketch's own reading and the edits.

Only where certain (else the span is None and the caller reads the filled text): every edit lies
inside the sketch's proof; no replacement holds anything that could start a command (a command
keyword as a word, `@[`, `#`) or reach past its own end (strings, chars and primes, `«»`,
comments, tab, CR: the lexer's `_CROSSES_LINES`); a replacement neither starts nor ends with
whitespace, `-` or `/` where it touches the sketch's text (no token of the sketch can run into it);
an edit at the first tactic starts with its own token. tests/lean/syntax/test_filled.py compares
the span with `proof_body` of the filled text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from lemmaforge.lean.memo import ByteBoundedMemo
from lemmaforge.lean.syntax._commands import theorems_of
from lemmaforge.lean.syntax._holes import apply_edits, fill_edits
from lemmaforge.lean.syntax._layout import COMMAND_KEYWORDS, SCOPE_MODIFIERS, analyze
from lemmaforge.lean.syntax._lexer import _CROSSES_LINES, tokens

__all__ = ["fill_with_body_span", "proof_span"]

# A command keyword as a word of its own: not inside a longer identifier (letters or `_` before it,
# identifier characters after it). Anything else that looks like one is refused. The pattern has no
# lookbehind, so that the regex engine skips every position whose character starts no keyword (a
# leading lookbehind made it try all keywords at every character: 3x slower on a subtree's proof);
# the character before a match is looked at in `_has_command_word`.
_COMMAND_WORD = re.compile(
    r"(?:" + "|".join(sorted(map(re.escape, COMMAND_KEYWORDS | SCOPE_MODIFIERS), key=len, reverse=True))
    + r")(?![A-Za-z0-9_'!?])"
)
_WORD_BEFORE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_SAFE_BEFORE = frozenset(" \n([{⟨,;")  # a sketch character a replacement may touch on its left
_SAFE_AFTER = frozenset(" \n)]}⟩,;")  # … and on its right


def _has_command_word(text: str) -> bool:
    # A match preceded by a letter is inside a longer word; every position inside it is preceded by
    # one of the keyword's own letters, so resuming after it (finditer) skips no other start.
    return any(m.start() == 0 or text[m.start() - 1] not in _WORD_BEFORE for m in _COMMAND_WORD.finditer(text))


def _proof_span_uncached(code: str) -> tuple[int, int] | None:
    theorems = theorems_of(analyze(code))
    if not theorems or theorems[-1].body_start is None:
        return None
    decl = theorems[-1]
    assert decl.body_start is not None
    toks = tokens(code[decl.body_start : decl.end])
    if len(toks) < 2 or toks[0].kind != "ident" or toks[0].text != "by":
        return None
    return decl.body_start + toks[1].start, decl.end


_spans = ByteBoundedMemo(_proof_span_uncached, 8 << 20, lambda code, _: 2 * len(code) + 64)


def proof_span(code: str) -> tuple[int, int] | None:
    """(first tactic, end) of the tactic proof of `code`'s last theorem, as `proof_body` reads it;
    None for a term proof or no theorem (memoised: a sketch's is asked again at its assembly)."""
    return _spans(code)


def _touches_safely(code: str, start: int, end: int, replacement: str) -> bool:
    if not replacement or replacement[-1].isspace() or replacement[-1] in "-/" or replacement[0] in "-/":
        return False
    if not (replacement[0].isspace() or start == 0 or code[start - 1] in _SAFE_BEFORE):
        return False
    if not (end == len(code) or code[end] in _SAFE_AFTER):
        return False
    return (
        _CROSSES_LINES.search(replacement) is None
        and "#" not in replacement
        and "@[" not in replacement
        and not _has_command_word(replacement)
    )


def fill_with_body_span(
    code: str, proofs: Sequence[str | None] | Mapping[int, str]
) -> tuple[str, tuple[int, int] | None]:
    """`fill(code, proofs)`, and where the filled text's proof lies (its first tactic and end, as
    `proof_span` of the filled text would say), or None where unsure."""
    edits = fill_edits(code, proofs)
    filled = apply_edits(code, edits)
    span = proof_span(code)
    if span is None:
        return filled, None
    first, last = span
    shift = 0
    for start, end, replacement in edits:
        if start < first or end > last or not _touches_safely(code, start, end, replacement):
            return filled, None
        if start == first and replacement[0].isspace():
            return filled, None
        shift += len(replacement) - (end - start)
    # The last token ends where it did, moved by the edits; or, edited, where its replacement ends
    # (which ends with a token: no comment, no trailing space), which is the same offset.
    return filled, (first, last + shift)

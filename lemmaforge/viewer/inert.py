"""Stored and model text made inert for a terminal: every character a terminal would act on is
shown as a visible escape instead.

Why: dataset names, stop reasons, Lean messages, proofs and their comments come from files and
models. Printed raw, `ESC ] 8 ;; URL` makes a link, `ESC ] 52 ; c ; …` writes the clipboard,
`ESC [ 2 J` clears the screen (then a fake "proved" can follow), `ESC ] 0 ; …` sets the window
title, and U+202E reverses what follows (a Trojan-Source line). The HTML pages escape by HTML;
this is the same for the terminal.

Shown escaped, as `\\xNN` (below U+0100) or `\\uNNNN`:
- C0 controls U+0000–U+001F, except `\\n` and `\\t` where the layout keeps them (`keep`), ESC and
  BEL included, so no escape sequence can start;
- DEL U+007F and the C1 controls U+0080–U+009F (CSI U+009B, OSC U+009D… in their one-character
  form, which some terminals honour);
- the bidirectional overrides and isolates U+202A–U+202E, U+2066–U+2069, and the marks U+200E,
  U+200F, U+061C, which reorder how the rest of a line is displayed.

A backslash in the text is left as it is: the escapes are for reading, not a reversible encoding
(`--json` and the store keep the exact text).

Rich markup: text passed through `markup()` is also escaped for rich (`[red]` stays literal).

Two layers: the views call `inert`/`markup` on each stored field before layout (so widths and
wrapping are computed on what is shown), and the CLI's consoles carry `InertHook`, which makes the
text of every rendered segment inert as a net under anything printed without the first layer.
The net leaves rich's own control segments (a live display's cursor moves) and styles alone: those
are rich's, not the text's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderHook, RenderResult
from rich.markup import escape
from rich.segment import Segment

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# Everything shown escaped, \n and \t included; `inert` lets those two through when asked to.
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{_BIDI}]")


def _visible(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: object, *, keep: str = "\n\t") -> str:
    """`text` (str() of it) with every character a terminal acts on shown as a visible escape;
    the characters in `keep` (newline and tab by default; "" for a one-line field) stay."""
    value = text if isinstance(text, str) else str(text)

    def replace(match: re.Match[str]) -> str:
        char = match.group()
        return char if char in keep else _visible(char)

    return _UNSAFE.sub(replace, value)


def markup(text: object, *, keep: str = "\n\t") -> str:
    """`inert(text)` escaped for rich markup: safe inside an f-string that rich renders."""
    return escape(inert(text, keep=keep))


def json_inert(dumped: str) -> str:
    """JSON text with the unsafe characters JSON leaves raw (DEL, C1, bidi: json escapes only C0
    in strings) written as `\\uNNNN` escapes: the same JSON value, nothing a terminal acts on.
    Outside strings JSON has no such characters, so every match is inside a string."""
    return re.sub(f"[\x7f-\x9f{_BIDI}]", lambda m: f"\\u{ord(m.group()):04x}", dumped)


class Inert:
    """A renderable shown with the text of every segment inert (rich's control segments kept)."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            if segment.control or is_inert(segment.text):
                yield segment
            else:
                yield Segment(inert(segment.text), segment.style, segment.control)


class InertHook(RenderHook):
    """Wraps everything a console prints in `Inert` (install with `console.push_render_hook`)."""

    def process_renderables(self, renderables: Sequence[Any] | Iterable[Any]) -> list[Any]:
        return [Inert(r) for r in renderables]


def is_inert(text: str, *, keep: str = "\n\t") -> bool:
    return all(ch in keep for ch in _UNSAFE.findall(text))


__all__ = ["Inert", "InertHook", "inert", "is_inert", "json_inert", "markup"]

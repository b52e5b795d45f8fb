"""Where a piece of text is, as Lean reports positions (line 1-based, column 0-based)."""

from __future__ import annotations

from lemmaforge.lean.verifier import Position


def where(code: str, needle: str, occurrence: int = 0) -> Position:
    """Line (1-based) and column (0-based) of the `occurrence`-th `needle` in `code`."""
    offset = -1
    for _ in range(occurrence + 1):
        offset = code.index(needle, offset + 1)
    line = code.count("\n", 0, offset) + 1
    return Position(line, offset - (code.rfind("\n", 0, offset) + 1))

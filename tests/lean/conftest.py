"""What the Lean backend tests share: the miniF2F statements, and where a piece of text is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lemmaforge.lean.verifier import Position


@pytest.fixture(scope="session")
def minif2f(shared_data: Path) -> dict[str, dict[str, str]]:
    """miniF2F rows by problem name."""
    rows = (
        json.loads(line) for line in (shared_data / "benchmarks" / "minif2f.jsonl").open(encoding="utf-8")
    )
    return {row["name"]: row for row in rows}


def where(code: str, needle: str, occurrence: int = 0) -> Position:
    """Line (1-based) and column (0-based) of the `occurrence`-th `needle` in `code`."""
    offset = -1
    for _ in range(occurrence + 1):
        offset = code.index(needle, offset + 1)
    line = code.count("\n", 0, offset) + 1
    return Position(line, offset - (code.rfind("\n", 0, offset) + 1))

"""What the Lean backend tests share: the miniF2F statements (where a piece of text is: positions.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def minif2f(shared_data: Path) -> dict[str, dict[str, str]]:
    """miniF2F rows by problem name."""
    rows = (
        json.loads(line) for line in (shared_data / "benchmarks" / "minif2f.jsonl").open(encoding="utf-8")
    )
    return {row["name"]: row for row in rows}

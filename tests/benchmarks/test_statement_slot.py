"""A raw dataset statement ending in `:= by` / `:=` gets its proof slot, read from Lean's tokens."""

from __future__ import annotations

import pytest

from lemmaforge.benchmarks.dataset_rows import _complete_statement
from lemmaforge.lean.syntax import holes


@pytest.mark.parametrize(
    "statement",
    [
        "theorem t : True := by",
        "theorem t : True := by -- the proof goes here",
        "theorem t : True :=",
        "theorem t : True := /- todo -/",
    ],
)
def test_open_slot_gets_a_sorry(statement: str) -> None:
    completed, changed = _complete_statement(statement)
    assert changed and len(holes(completed)) == 1 and holes(completed)[0].position == "tactic"


def test_complete_statement_unchanged() -> None:
    text = "theorem t : True := by\n  sorry"
    assert _complete_statement(text) == (text, False)

"""PutnamBench's answer task as text (`benchmarks.answers`), on the real PutnamBench rows
(trishullab/PutnamBench @ 3c9b9268ebd132d482938b8e9d242dd71fc1ebc0, lean4/src; see SOURCES.md)."""

from __future__ import annotations

import json

import pytest

from lemmaforge.benchmarks import answers as A
from lemmaforge.benchmarks.registry import data_dir


def _rows() -> dict[str, dict]:
    rows = [json.loads(line) for line in (data_dir() / "putnambench.jsonl").read_text().splitlines() if line.strip()]
    return {r["name"]: r for r in rows}


ROWS = _rows()


def _code(name: str) -> str:
    r = ROWS[name]
    return r["header"] + r["formal_statement"]


def test_every_reference_answer_is_read_and_placed_back_as_an_answer_that_matches_itself() -> None:
    with_slot = [r for r in ROWS.values() if r["has_solution_abbrev"]]
    assert len(with_slot) == 346
    for r in with_slot:
        ref = A.reference_answers(r["formal_statement"])
        assert len(ref) == 1, r["name"]
        filled = A.with_answers(r["formal_statement"], ref)
        got = A.read_answers(_code(r["name"]), r["header"] + filled)
        assert got.ok, (r["name"], got.refused)
        assert got.values == {k: v for k, v in ref.items()}
        assert A.answers_match(got.values, ref) == A.MATCH


def test_the_reference_is_the_comment_after_the_slot() -> None:
    assert A.reference_answers(ROWS["putnam_1963_b1"]["formal_statement"]) == {"putnam_1963_b1_solution": "2"}
    assert A.reference_answers(ROWS["putnam_1962_a5"]["formal_statement"]) == {
        "putnam_1962_a5_solution": "fun n : ℕ => n * (n + 1) * 2^(n - 2)"}


def test_refusals() -> None:
    code = _code("putnam_1963_b1")
    header = ROWS["putnam_1963_b1"]["header"]
    theorem = "theorem putnam_1963_b1 : True := by\n  trivial\n"
    assert A.read_answers(code, header + theorem).refused.startswith("no answer: the model's file does not define")
    left = A.read_answers(code, header + "abbrev putnam_1963_b1_solution : ℤ := sorry\n" + theorem)
    assert left.refused == "no answer: `putnam_1963_b1_solution` is left `sorry`"
    typed = A.read_answers(code, header + "abbrev putnam_1963_b1_solution : ℕ := 2\n" + theorem)
    assert "changed answer declaration" in typed.refused and ": ℕ" in typed.refused
    as_def = A.read_answers(code, header + "def putnam_1963_b1_solution : ℤ := 2\n" + theorem)
    assert "changed answer declaration" in as_def.refused
    holed = A.read_answers(code, header + "abbrev putnam_1963_b1_solution : ℤ := by exact sorry\n" + theorem)
    assert holed.refused == "the answer `putnam_1963_b1_solution` holds `sorry`"
    runs = A.read_answers(code, header + "abbrev putnam_1963_b1_solution : ℤ := by run_tac pure ()\n" + theorem)
    assert runs.refused is not None and "gate" in runs.refused
    fine = A.read_answers(code, header + "abbrev putnam_1963_b1_solution : ℤ := 3 - 1\n" + theorem)
    assert fine.ok and fine.values == {"putnam_1963_b1_solution": "3 - 1"}


@pytest.mark.parametrize(("filled", "reference", "verdict"), [
    ("2", "2", A.MATCH),
    ("(2)", "2", A.MATCH),
    ("fun n : ℕ ↦ n*(n+1)", "fun n : ℕ => n * (n + 1)", A.MATCH),
    ("λ n => n  -- a comment\n", "fun n => n", A.MATCH),
    ("{x | x ≤ 3}", "{x | x <= 3}", A.MATCH),
    ("(a) + (b)", "a + b", A.NEEDS_REVIEW),  # not one pair around the whole answer
    ("1/2", "2/4", A.NEEDS_REVIEW),  # equal, textually different: a person decides
    ("3", "2", A.NEEDS_REVIEW),
])
def test_answer_match_is_textual_on_lean_tokens(filled: str, reference: str, verdict: str) -> None:
    assert A.answers_match({"s": filled}, {"s": reference}) == verdict


def test_no_reference_needs_review() -> None:
    assert A.answers_match({"s": "2"}, {}) == A.NEEDS_REVIEW

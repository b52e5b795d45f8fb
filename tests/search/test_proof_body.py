"""assemble.proof_body: the proof of a solved lemma, as tactics for the parent's hole, read with
lean.syntax (comments and strings as Lean reads them)."""

from __future__ import annotations

from lemmaforge.search.assemble import proof_body


def test_tactic_block_rebased() -> None:
    code = "theorem t (x : ℕ) : x = x := by -- why\n    cases x\n    · rfl\n    · rfl"
    assert proof_body(code) == "cases x\n· rfl\n· rfl"


def test_by_on_one_line() -> None:
    assert proof_body("theorem t : 1 = 1 := by norm_num") == "norm_num"


def test_term_proof_becomes_exact() -> None:
    assert proof_body("theorem t : 1 = 1 :=\n  rfl") == "exact rfl"
    assert proof_body("theorem t (h : P) : P := h -- done") == "exact h"


def test_last_theorem_wins_and_trailing_commands_are_not_proof() -> None:
    code = "lemma aux : True := trivial\n  theorem t : 2 = 2 := by\n    rfl\n#eval 1"
    assert proof_body(code) == "rfl"


def test_no_proof() -> None:
    assert proof_body("theorem t : True := by") is None
    assert proof_body("def x := 1") is None

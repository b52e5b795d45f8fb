"""One statement normaliser: Lean's token stream, whitespace-insensitive where Lean is."""

from __future__ import annotations

import pytest

from lemmaforge.lean.syntax import normalize_statement, statement_tokens, theorem_key


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("x*y", "x * y"),
        ("194%11", "194 % 11"),
        ("(x:ℕ)", "( x : ℕ )"),
        ("f x -- c\n  y", "f x /- c -/ y"),
        ("a\n\n   = b", "a = b"),
    ],
)
def test_same(a: str, b: str) -> None:
    assert statement_tokens(a) == statement_tokens(b)
    assert normalize_statement(a) == normalize_statement(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("a[i]", "a [i]"),  # index vs application to a list
        ("x.1", "x .1"),
        ('"a  b"', '"a b"'),  # strings verbatim
        ("n!", "n !"),  # identifier `n!` vs factorial
        ("x ≤ y", "x < y"),
    ],
)
def test_different(a: str, b: str) -> None:
    assert statement_tokens(a) != statement_tokens(b)
    assert normalize_statement(a) != normalize_statement(b)


def test_canonical_text_is_readable() -> None:
    assert normalize_statement('f  (x -- c\n   : ℕ) /- d -/ "a  b"') == 'f (x : ℕ) "a  b"'
    assert normalize_statement("a[i]+ x.1") == "a[i] + x.1"


class TestTheoremKey:
    """The key of the subgoal cache and of the gen-data hold-out: what a theorem states."""

    def test_name_proof_comments_and_spacing_do_not_matter(self) -> None:
        a = "lemma sub_3 (x : ℝ) (h : 0 < x) : 0 < x*x := by\n  positivity"
        b = "theorem other (x:ℝ) (h : 0 < x) : -- why\n  0 < x * x := by nlinarith"
        assert theorem_key(a) == theorem_key(b) == "(x : ℝ) (h : 0 < x) : 0 < x * x"

    def test_statement_changes_matter(self) -> None:
        base = "theorem t (x : ℝ) : 0 ≤ x ^ 2 := by positivity"
        assert theorem_key(base) != theorem_key(base.replace("≤", "<"))
        assert theorem_key(base) != theorem_key(base.replace("(x : ℝ)", "(x : ℚ)"))

    def test_open_in_prefix_is_part_of_the_key(self) -> None:
        base = "theorem t (x : ℕ) : x ! ≥ 1 := by positivity"
        assert theorem_key(base) != theorem_key("open Nat in\n" + base)
        assert theorem_key(base) == theorem_key("set_option maxHeartbeats 400000 in\n" + base)

    def test_text_without_declaration(self) -> None:
        assert theorem_key("theorem t (x : ℕ) : x = x") == theorem_key("lemma u (x : ℕ) : x = x := rfl")
        assert theorem_key("(x : ℕ) : x = x") == "(x : ℕ) : x = x"


def test_cache_and_holdout_keys_use_the_normaliser() -> None:
    from lemmaforge.search.cache import header_key, normalize_statement
    from lemmaforge.training.holdout import statement_key

    a = "lemma a (x : ℝ) : x*x ≥ 0 := by nlinarith [sq_nonneg x]"
    b = "theorem b (x : ℝ) :\n    x * x ≥ 0 := by positivity"
    assert normalize_statement(a) == normalize_statement(b) == theorem_key(a)
    assert statement_key(a) == statement_key(b)
    assert header_key("import Mathlib\n-- c\nopen Real") == header_key("import Mathlib open  Real")
    assert header_key("import Mathlib\nopen Real") != header_key("import Mathlib\nopen Nat")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("n != 5", "n ! = 5"),  # `bne` vs factorial: Lean's longest-token rule
        ("a <= b", "a < = b"),
        ("{x // 0 < x}", "{x / / 0 < x}"),
        ("l ++ m", "l + + m"),
    ],
)
def test_multi_character_tokens_are_lean_tokens(a: str, b: str) -> None:
    assert statement_tokens(a) != statement_tokens(b)

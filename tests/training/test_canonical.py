"""The hold-out / dedup key (`training.canonical`, `training.holdout.statement_key`): disguised copies
of held-out miniF2F test problems are caught, near-misses are not.

Each disguise is written by hand from a real miniF2F test statement (../shared/data/benchmarks),
under a name that is NOT held out, so only the statement key can catch it."""

from __future__ import annotations

import pytest

from lemmaforge.benchmarks.datasets import load_dataset
from lemmaforge.training.canonical import canonical_tokens, expression_tokens, statement_key
from lemmaforge.training.canonical_parens import strip_parentheses
from lemmaforge.training.holdout import Holdout


@pytest.fixture(scope="module")
def held(shared_data) -> Holdout:
    return Holdout.of(load_dataset("minif2f", split="test"), source="minif2f:test")


@pytest.fixture(scope="module")
def originals(shared_data) -> dict[str, str]:
    return {p.name: p.statement for p in load_dataset("minif2f", split="test")}


# (held-out problem, disguised statement)
DISGUISES: list[tuple[str, str]] = [
    # spacing between touching tokens
    ("mathd_numbertheory_66", "theorem t1 : 194%11 = 7 := by\n  sorry"),
    ("mathd_numbertheory_66", "theorem t2 : 194 %11=7 := by sorry"),
    # redundant parentheses, doubled parentheses
    ("mathd_numbertheory_66", "theorem t3 : (194 % 11) = 7 := by sorry"),
    ("mathd_numbertheory_66", "theorem t4 : ((194 % (11))) = (7) := by sorry"),
    ("mathd_numbertheory_299", "theorem t5 : ((1 * 3) * 5 * 7 * 9 * 11 * 13) % 10 = 5 := by sorry"),
    # comments and line breaks
    ("mathd_numbertheory_66", "theorem t6 :\n  -- the remainder\n  194 % /- mod -/ 11\n    = 7 := by\n  sorry"),
    ("mathd_algebra_141", "/-- doc -/\ntheorem t7 (a b : ℝ)\n  (h₁ : a * b = 180)\n  (h₂ : 2 * (a + b) = 54) :\n  a ^ 2 + b ^ 2 = 369 := by sorry"),
    # renamed hypotheses, renamed variables, renamed theorem
    ("mathd_algebra_141", "theorem t8 (a b : ℝ) (hab : a * b = 180) (hsum : 2 * (a + b) = 54) : a ^ 2 + b ^ 2 = 369 := by sorry"),
    ("mathd_algebra_141", "theorem t9 (x y : ℝ) (h₁ : x * y = 180) (h₂ : 2 * (x + y) = 54) : x ^ 2 + y ^ 2 = 369 := by sorry"),
    ("mathd_algebra_33", "theorem t10 (p q r : ℝ) (H0 : p ≠ 0) (H1 : 2 * p = 5 * q) (H2 : 7 * q = 10 * r) : r / p = 7 / 25 := by sorry"),
    # split binder groups, joined binder groups
    ("mathd_algebra_141", "theorem t11 (a : ℝ) (b : ℝ) (h₁ : a * b = 180) (h₂ : 2 * (a + b) = 54) : a ^ 2 + b ^ 2 = 369 := by sorry"),
    ("mathd_algebra_478", "theorem t12 (b : ℝ) (h : ℝ) (v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) (h₁ : v = 1 / 3 * (b * h)) (h₂ : b = 30) (h₃ : h = 13 / 2) : v = 65 := by sorry"),
    ("imo_1969_p2", "theorem t13 (m : ℝ) (n : ℝ) (k : ℕ) (a : ℕ → ℝ) (y : ℝ → ℝ) (h₀ : 0 < k) (h₁ : ∀ x, y x = ∑ i in Finset.range k, Real.cos (a i + x) / 2 ^ i) (h₂ : y m = 0) (h₃ : y n = 0) : ∃ t : ℤ, m - n = t * Real.pi := by sorry"),
    # swapped hypothesis order
    ("mathd_algebra_141", "theorem t14 (a b : ℝ) (h₂ : 2 * (a + b) = 54) (h₁ : a * b = 180) : a ^ 2 + b ^ 2 = 369 := by sorry"),
    ("mathd_algebra_478", "theorem t15 (b h v : ℝ) (h₃ : h = 13 / 2) (h₂ : b = 30) (h₁ : v = 1 / 3 * (b * h)) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) : v = 65 := by sorry"),
    # hypotheses interleaved with the variables they mention
    ("mathd_numbertheory_1124", "theorem t16 (n : ℕ) (h₁ : 18 ∣ 374 * 10 + n) (h₀ : n ≤ 9) : n = 4 := by sorry"),
    # hypotheses moved into the goal as implications, binders as a leading ∀
    ("mathd_algebra_141", "theorem t17 (a b : ℝ) : a * b = 180 → 2 * (a + b) = 54 → a ^ 2 + b ^ 2 = 369 := by sorry"),
    ("mathd_algebra_141", "theorem t18 : ∀ a b : ℝ, a * b = 180 → 2 * (a + b) = 54 → a ^ 2 + b ^ 2 = 369 := by sorry"),
    ("imo_1977_p6", "theorem t19 (f : ℕ → ℕ) (h₀ : ∀ n, 0 < f n) (h₁ : ∀ n, 0 < n → f (f n) < f (n + 1)) (n) (hn : 0 < n) : f n = n := by sorry"),
    # renamed bound variables inside hypotheses and the goal
    ("imo_1977_p6", "theorem t20 (g : ℕ → ℕ) (hpos : ∀ m, 0 < g m) (hmono : ∀ k, 0 < k → g (g k) < g (k + 1)) : ∀ j, 0 < j → g j = j := by sorry"),
    ("mathd_numbertheory_427", "theorem t21 (a : ℕ) (h₀ : a = ∑ d in Nat.divisors 500, d) : (∑ p in Finset.filter (fun z => Nat.Prime z) (Nat.divisors a), p) = 25 := by sorry"),
    # ASCII spellings, `λ`, `Real` for `ℝ`, `∈` for `in`
    ("mathd_algebra_141", "theorem t22 (a b : Real) (h₁ : a*b = 180) (h₂ : 2*(a+b) = 54) : a^2 + b^2 = 369 := by sorry"),
    ("mathd_numbertheory_1124", "theorem t23 (n : ℕ) (h₀ : n <= 9) (h₁ : 18 ∣ 374 * 10 + n) : n = 4 := by sorry"),
    ("mathd_numbertheory_427", "theorem t24 (a : ℕ) (h₀ : a = ∑ k ∈ Nat.divisors 500, k) : (∑ k ∈ Finset.filter (λ x => Nat.Prime x) (Nat.divisors a), k) = 25 := by sorry"),
    # parentheses the precedences make redundant, and the goal's own parentheses dropped
    ("amc12a_2020_p10", "theorem t25 (n : ℕ) (h₀ : 0 < n) (h₁ : Real.logb 2 (Real.logb 16 n) = Real.logb 4 (Real.logb 4 n)) : List.sum (Nat.digits 10 n) = 13 := by sorry"),
    ("imo_1983_p6", "theorem t26 (a b c : ℝ) (h₀ : (0 < a) ∧ (0 < b) ∧ (0 < c)) (h₁ : c < a + b) (h₂ : b < a + c) (h₃ : a < b + c) : 0 ≤ ((a ^ 2) * b) * (a - b) + (b ^ 2 * c * (b - c)) + c ^ 2 * a * (c - a) := by sorry"),
    ("mathd_algebra_419", "theorem t27 (a b : ℝ) (h₀ : a = -1) (h₁ : b = 5) : (-a) - (b ^ 2) + 3 * (a * b) = -39 := by sorry"),
    # everything at once
    ("amc12b_2002_p7", "lemma t28 (x y z : ℕ) (hz : z = y+1) (hy : y = x+1)\n (hxyz : x*y*z = 8*(x+y+z)) (hpos : (0<x) ∧ 0<y ∧ 0<z) :\n x^2 + (y^2 + z^2) = 77 := by\n  sorry"),
]

# (held-out problem, a statement that differs from it and must NOT be caught)
NEAR_MISSES: list[tuple[str, str]] = [
    ("mathd_numbertheory_66", "theorem n1 : 194 % 11 = 8 := by sorry"),  # a changed constant
    ("mathd_numbertheory_66", "theorem n2 : 194 % 13 = 7 := by sorry"),
    ("mathd_numbertheory_66", "theorem n3 : 194 / 11 = 7 := by sorry"),  # a different operator
    ("mathd_numbertheory_1124", "theorem n4 (n : ℕ) (h₀ : n < 9) (h₁ : 18 ∣ 374 * 10 + n) : n = 4 := by sorry"),  # < vs ≤
    ("mathd_algebra_141", "theorem n5 (a b : ℝ) (h₁ : a * b = 180) (h₂ : 2 * (a + b) = 54) : a ^ 2 + b ^ 2 = 368 := by sorry"),
    ("mathd_algebra_141", "theorem n6 (a b : ℝ) (h₁ : a * b = 180) (h₂ : 2 * a + b = 54) : a ^ 2 + b ^ 2 = 369 := by sorry"),  # needed parentheses removed
    ("mathd_algebra_141", "theorem n7 (a b : ℕ) (h₁ : a * b = 180) (h₂ : 2 * (a + b) = 54) : a ^ 2 + b ^ 2 = 369 := by sorry"),  # another type
    ("mathd_algebra_141", "theorem n8 (a b : ℝ) (h₁ : a * b = 180) : a ^ 2 + b ^ 2 = 369 := by sorry"),  # a hypothesis dropped
    ("mathd_algebra_141", "theorem n9 (a b : ℝ) (h₁ : a * b = 180) (h₂ : 2 * (a + b) = 54) : b ^ 2 + a ^ 2 = 369 := by sorry"),  # variables swapped in the goal
    ("mathd_algebra_33", "theorem n10 (x y z : ℝ) (h₀ : x ≠ 0) (h₁ : 2 * x = 5 * y) (h₂ : 7 * y = 10 * z) : x / z = 7 / 25 := by sorry"),
    ("imo_1977_p6", "theorem n11 (f : ℕ → ℕ) (h₀ : ∀ n, 0 < f n) (h₁ : ∀ n, 0 < n → f (f n) ≤ f (n + 1)) : ∀ n, 0 < n → f n = n := by sorry"),
    ("mathd_algebra_419", "theorem n12 (a b : ℝ) (h₀ : a = -1) (h₁ : b = 5) : -(a - b ^ 2) + 3 * (a * b) = -39 := by sorry"),  # parentheses that matter
    ("mathd_numbertheory_299", "theorem n13 : 1 * 3 * 5 * 7 * 9 * 11 * (13 % 10) = 5 := by sorry"),
]


@pytest.mark.parametrize(("problem", "disguise"), DISGUISES, ids=[d[1].split()[1] for d in DISGUISES])
def test_disguised_held_out_problem_is_caught(held, originals, problem, disguise):
    assert statement_key(disguise) == statement_key(originals[problem])
    assert held.reason(["not_a_held_out_name"], [disguise]) == "statement"


@pytest.mark.parametrize(("problem", "near"), NEAR_MISSES, ids=[d[1].split()[1] for d in NEAR_MISSES])
def test_near_miss_is_not_caught(held, originals, problem, near):
    assert statement_key(near) != statement_key(originals[problem])
    assert held.reason(["not_a_held_out_name"], [near]) is None


def test_enough_disguises_of_distinct_kinds():
    assert len(DISGUISES) >= 20 and len({p for p, _ in DISGUISES}) >= 10


def test_every_held_out_problem_has_its_own_key(held):
    # the key merges disguises, never two different miniF2F test problems
    assert len(held.statements) == held.problems


def test_tokens_ignore_layout_but_not_operators():
    assert expression_tokens("x*y") == expression_tokens("x * y") == ("x", "*", "y")
    assert expression_tokens("a <= b") == expression_tokens("a ≤ b")
    assert expression_tokens("a < b") != expression_tokens("a ≤ b")


@pytest.mark.parametrize(
    ("text", "stripped"),
    [
        ("( a + b ) = c", "a + b = c"),
        ("a * ( b + c )", "a * ( b + c )"),
        ("a - ( b - c )", "a - ( b - c )"),
        ("( a - b ) - c", "a - b - c"),
        ("a ^ ( b ^ c )", "a ^ b ^ c"),
        ("( a ^ b ) ^ c", "( a ^ b ) ^ c"),
        ("f ( g x )", "f ( g x )"),
        ("f ( x )", "f x"),
        ("( f x ) + 1", "f x + 1"),
        ("( - a ) ^ 2", "( - a ) ^ 2"),
        ("¬ ( a = b )", "¬ a = b"),
        ("¬ ( a ∧ b )", "¬ ( a ∧ b )"),
        ("( x : ℝ ) = 1", "( x : ℝ ) = 1"),
        ("( ∑ i ∈ s , f i ) = 1", "( ∑ i ∈ s , f i ) = 1"),
        ("( a , b ) = c", "( a , b ) = c"),
        ("( a ≤ b ) ∧ c", "a ≤ b ∧ c"),
        ("( a ∨ b ) ∧ c", "( a ∨ b ) ∧ c"),
    ],
)
def test_only_redundant_parentheses_go(text, stripped):
    assert " ".join(strip_parentheses(text.split())) == stripped


def test_hypotheses_mentioned_by_later_binders_are_variables():
    # a binder whose name a later type mentions keeps its place (it is a variable, not a hypothesis)
    toks = canonical_tokens("theorem t (n : ℕ) (h : 0 < n) (x : Fin n) : x = x := sorry")
    assert toks[:10] == ("(", "v0", ":", "ℕ", ")", "(", "v1", ":", "Fin", "v0")


def test_a_hypothesis_name_rebound_inside_the_goal_is_still_a_hypothesis():
    a = "theorem a (f : ℕ → ℕ) (h : f 0 = 0) : ∀ h, f h = h := by sorry"
    b = "theorem b (f : ℕ → ℕ) (hf : f 0 = 0) : ∀ n, f n = n := by sorry"
    assert statement_key(a) == statement_key(b)


def test_bne_is_not_ne():
    assert statement_key("theorem a (x : ℕ) : x != 1 := by sorry") != statement_key("theorem a (x : ℕ) : x ≠ 1 := by sorry")
    assert statement_key("theorem a : forall x : ℕ, x = x := by sorry") == statement_key("theorem a : ∀ y : ℕ, y = y := by sorry")

"""Statements by name, against the original's exact signature (issue 37, point 3; categories 2, 4).

Every benchmark original ends in `:= sorry` / `:= by sorry`, so the token sequence of its
signature is known exactly: the candidate's theorem with the original's NAME must carry that
sequence and then `:=`. Spellings Lean reads as one token (or as two notations that expand to the
same term) are tolerated; the list is Lean's own (see `SAME_SPELLING` for the source lines).
"""

from __future__ import annotations

import pytest

from lemmaforge.lean import syntax as C
from lemmaforge.lean.syntax import statement_match
from lemmaforge.lean.syntax._compare import SAME_SPELLING

HEADER = "import Mathlib\n\nset_option maxHeartbeats 400000\n\nopen Real\n\n"


def problem(signature: str) -> str:
    return HEADER + f"theorem t {signature} := by\n  sorry\n"


def proof(signature: str, tail: str = "") -> str:
    return HEADER + f"theorem t {signature} := by\n  simp\n" + tail


# --- category 2: the statement's span is never guessed ------------------------------------------

ABS = "(x : ℝ) (h : 0 ≤ x) :\n  |x| = 1 → x = 1"
MATCH = "(f : ℕ → ℕ) (hf : f = fun n => match n with\n  | 0 => 1\n  | _ => 2) :\n  f 0 = 1"


@pytest.mark.parametrize(
    ("original", "changed"),
    [
        (ABS, ABS.replace("|x| = 1", "|x| = 0")),  # a type line starting `|x|`
        (ABS, ABS.replace("→ x = 1", "→ x = 1 ∨ True")),
        (MATCH, MATCH.replace("| 0 => 1", "| 0 => 3")),  # match alternatives, then `=>`
        (MATCH, MATCH.replace("f 0 = 1", "f 1 = 2")),  # the line after the alternatives
        ("(a : ℕ) : (fun k => k + 1) a = a + 1", "(a : ℕ) : (fun k => k + 2) a = a + 2"),
        # `|` starts a line and a `=>` follows at its depth: the old span guess stopped at the `|`
        ("(x : ℤ) :\n  |x| = 1 → ∀ f : ℤ → ℤ, f = fun y => y", "(x : ℤ) :\n  |x| = 0 → ∀ f : ℤ → ℤ, f = fun y => y"),
    ],
)
def test_every_token_of_the_signature_is_compared(original: str, changed: str) -> None:
    assert statement_match(problem(original), proof(original)).same
    verdict = statement_match(problem(original), proof(changed))
    assert not verdict.same and "signature" in verdict.detail


def test_a_signature_that_runs_on_past_the_original_is_refused() -> None:
    # The original's sequence followed by more type: the next token is not `:=`.
    assert not statement_match(problem(ABS), HEADER + f"theorem t {ABS} ∧ True := by\n  simp\n").same


# --- category 4: the target by name; spellings Lean reads the same --------------------------------


def test_target_is_found_by_name_not_position() -> None:
    original = problem("(n : ℕ) : n + 0 = n")
    after = proof("(n : ℕ) : n + 0 = n", "\ntheorem unused (n : ℕ) : n = n + 1 := by\n  sorry\n")
    assert statement_match(original, after).same
    verdict = statement_match(original, after)
    assert verdict.target is not None and verdict.target.name == "t"
    # Only a theorem named like the original counts: an unrelated last lemma is never the target.
    renamed = HEADER + "theorem t' (n : ℕ) : n + 0 = n := by\n  simp\n"
    assert "no theorem named 't'" in statement_match(original, renamed).detail
    twice = proof("(n : ℕ) : n + 0 = n") + "\ntheorem t (n : ℕ) : n + 0 = n := by\n  simp\n"
    assert not statement_match(original, twice).same


def test_namespaced_target_is_found_by_full_name() -> None:
    original = HEADER + "namespace Foo\n\ntheorem t (n : ℕ) : n + 0 = n := by\n  sorry\n\nend Foo\n"
    same = HEADER + "namespace Foo\n\ntheorem t (n : ℕ) : n + 0 = n := by\n  simp\n\nend Foo\n"
    other = HEADER + "namespace Bar\n\ntheorem t (n : ℕ) : n + 0 = n := by\n  simp\n\nend Bar\n"
    assert statement_match(original, same).same
    assert not statement_match(original, other).same


@pytest.mark.parametrize(
    ("ascii", "unicode"),
    [
        ("(x : ℝ) (h : 0 <= x) : x >= 0", "(x : ℝ) (h : 0 ≤ x) : x ≥ 0"),
        ("(p q : Prop) (hp : p) (hq : q) : p /\\ q", "(p q : Prop) (hp : p) (hq : q) : p ∧ q"),
        ("(p q : Prop) (hp : p) : p \\/ q", "(p q : Prop) (hp : p) : p ∨ q"),
        ("(p : Prop) : p <-> p", "(p : Prop) : p ↔ p"),
        ("(f : ℕ -> ℕ) : forall n, f n = f n", "(f : ℕ → ℕ) : ∀ n, f n = f n"),
        ("(a : ℕ) : (fun k => k) a = a", "(a : ℕ) : (λ k ↦ k) a = a"),
    ],
)
def test_spellings_lean_reads_as_the_same_token(ascii: str, unicode: str) -> None:
    assert statement_match(problem(ascii), proof(unicode)).same
    assert statement_match(problem(unicode), proof(ascii)).same


def test_spellings_that_are_different_functions_are_not_tolerated() -> None:
    # `!=` is `bne` (Bool), `≠` is `Ne` (Prop): Lean elaborates them differently.
    assert "!=" not in SAME_SPELLING and "≠" not in SAME_SPELLING.values()
    assert not statement_match(problem("(a b : ℕ) : a ≠ b"), proof("(a b : ℕ) : a != b")).same
    assert not statement_match(problem("(a b : ℕ) : a ≤ b"), proof("(a b : ℕ) : a < b")).same


def test_harmless_header_options_may_differ() -> None:
    original = problem("(n : ℕ) : n + 0 = n")
    changed = proof("(n : ℕ) : n + 0 = n").replace("maxHeartbeats 400000", "maxHeartbeats 0")
    dropped = proof("(n : ℕ) : n + 0 = n").replace("set_option maxHeartbeats 400000\n", "")
    for candidate in (changed, dropped):
        assert statement_match(original, candidate).same
        assert C.preamble_diff(original, candidate) == []
    # An option that changes what the statement means is not harmless.
    auto = proof("(n : ℕ) : n + 0 = n").replace("maxHeartbeats 400000", "autoImplicit true")
    assert C.preamble_diff(original, auto) != []


def test_the_exact_signature_is_read_inside_a_namespace_too() -> None:
    # The original's file ends with `end Foo` after its `:= by sorry`: still known exactly. A
    # guessed span would stop at the line-starting `|` (a `=>` follows at the same depth).
    original = HEADER + ("namespace Foo\n\ntheorem t (x : ℤ) :\n  |x| = 1 → ∀ f : ℤ → ℤ, f = fun y => y := by\n"
                         "  sorry\n\nend Foo\n")
    changed = original.replace("|x| = 1", "|x| = 0").replace("  sorry", "  simp")
    assert statement_match(original, original.replace("  sorry", "  simp")).same
    assert not statement_match(original, changed).same

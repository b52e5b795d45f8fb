"""The header commands the final audit lets a candidate change (`syntax.header_command`) and the
context rules around them (`preamble_diff(…, allow_header_changes=True)`)."""

from __future__ import annotations

import pytest

from lemmaforge.lean import syntax
from lemmaforge.lean.syntax import header_command
from lemmaforge.lean.syntax._compare import IMPORT_ROOTS

MINIF2F = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"
THEOREM = "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by\n  sorry\n"
PROOF = "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by\n  positivity\n"


def diff(original: str, candidate: str) -> list[str]:
    return syntax.preamble_diff(original, candidate, allow_header_changes=True)


@pytest.mark.parametrize(
    ("text", "kind", "items"),
    [
        ("import Mathlib", "import", ("import Mathlib",)),
        ("import Mathlib.Tactic.Ring", "import", ("import Mathlib.Tactic.Ring",)),
        ("open BigOperators Real  Nat", "open", ("open BigOperators", "open Real", "open Nat")),
        ("open scoped Nat Classical", "open", ("open scoped Nat", "open scoped Classical")),
        ("open Finset hiding sum card", "open", ("open Finset hiding sum card",)),
        ("open Nat (succ factorial)", "open", ("open Nat (succ factorial)",)),
        ("set_option maxRecDepth 100000", "option", ("set_option maxRecDepth 100000",)),
        ("set_option synthInstance.maxSize 256", "option", ("set_option synthInstance.maxSize 256",)),
        ("set_option tactic.hygienic false", "option", ("set_option tactic.hygienic false",)),
        ("set_option pp.numericTypes true", "option", ("set_option pp.numericTypes true",)),
    ],
)
def test_header_commands_are_read_item_by_item(text: str, kind: str, items: tuple[str, ...]) -> None:
    h = header_command(text)
    assert h is not None and (h.kind, h.items, h.refusal) == (kind, items, "")


@pytest.mark.parametrize(
    "text", ["set_option autoImplicit true", "open Nat in theorem x : 1 = 1 := rfl", "def f := 1", "namespace Foo",
             "set_option maxHeartbeats 0 in theorem x : 1 = 1 := rfl"],
)
def test_other_commands_are_not_header_commands(text: str) -> None:
    assert header_command(text) is None


def test_renaming_and_unlisted_roots_are_refused_with_their_reason() -> None:
    renaming = header_command("open Real renaming sqrt → root")
    assert renaming is not None and "renaming" in renaming.refusal
    for root in ("Lake", "Lean", "ProofWidgets"):
        h = header_command(f"import {root}.Foo")
        assert h is not None and root in h.refusal
    assert {"Mathlib", "Aesop", "Batteries", "Std"} == IMPORT_ROOTS


def test_header_may_be_reordered_added_to_and_left_out_without_context() -> None:
    for header in (
        "import Aesop\nimport Mathlib\nset_option maxHeartbeats 0\nopen BigOperators Nat Rat Real Topology\n",
        "import Mathlib\nopen Real Set\n",
        "import Mathlib\n",
        "import Mathlib\nimport Aesop\nopen BigOperators Real Nat Topology Rat\nset_option maxHeartbeats 0\n"
        "set_option maxRecDepth 100000\nset_option tactic.hygienic false\n",
        "import Mathlib\nimport Mathlib.Tactic\nopen Real\nlemma h : True := trivial\nopen Nat in\nlemma g : True := trivial\n",
    ):
        assert diff(MINIF2F + THEOREM, header + PROOF) == [], header
        # the strict reading (answer tasks) still sees every import or open that moved
        if "tactic.hygienic" not in header:  # (that one differs in options only: harmless to both)
            assert syntax.preamble_diff(MINIF2F + THEOREM, header + PROOF) != []


def test_anything_else_added_is_named() -> None:
    for added in ("noncomputable section", "def g := 1", "open Real renaming sqrt → root", "import Lake",
                  "variable (x : ℕ)", "universe u"):
        problems = diff(MINIF2F + THEOREM, MINIF2F + added + "\n" + PROOF)
        assert problems and any(added in p for p in problems), (added, problems)


CONTEXT = MINIF2F + "def f (x : ℝ) : ℝ := sqrt x\n\nabbrev answer : ℕ := sorry\n\n" + THEOREM


def test_context_commands_keep_the_header_they_had() -> None:
    same = CONTEXT.replace("abbrev answer : ℕ := sorry", "abbrev answer : ℕ := 3").replace("sorry\n", "positivity\n")
    assert diff(CONTEXT, same) == []
    # after the last context command, anything in the header may change: only the theorem sees it
    later = same.replace(THEOREM.replace("sorry", "positivity"), "open Finset\nset_option maxRecDepth 9999\n"
                         + PROOF)
    assert diff(CONTEXT, later) == []
    # a header command that moves across a context command changes what that command reads
    for changed in (
        same.replace("open BigOperators Real Nat Topology Rat", "open BigOperators Nat Topology Rat"),
        same.replace("open BigOperators Real Nat Topology Rat", "open BigOperators Real Nat Topology Rat Classical"),
        same.replace("import Mathlib\nimport Aesop", "import Aesop\nimport Mathlib"),
        same.replace("def f", "open NNReal\n\ndef f"),
        same.replace("\nabbrev answer", "\nopen Complex\nabbrev answer"),
    ):
        problems = diff(CONTEXT, changed)
        assert len(problems) == 1 and "in force at" in problems[0], problems
    # but options never matter
    options = same.replace("set_option maxHeartbeats 400000", "set_option maxHeartbeats 0\nset_option maxRecDepth 5000")
    assert diff(CONTEXT, options) == []


def test_context_commands_stay_unchanged_and_in_order() -> None:
    proof = CONTEXT.replace("abbrev answer : ℕ := sorry", "abbrev answer : ℕ := 3").replace("sorry\n", "positivity\n")
    assert any("missing or changed: def f" in p for p in diff(CONTEXT, proof.replace("sqrt x", "x")))
    swapped = proof.replace("def f (x : ℝ) : ℝ := sqrt x\n\nabbrev answer : ℕ := 3",
                            "abbrev answer : ℕ := 3\n\ndef f (x : ℝ) : ℝ := sqrt x")
    assert diff(CONTEXT, swapped)
    retyped = proof.replace("abbrev answer : ℕ := 3", "abbrev answer : ℤ := 3")
    assert any("abbrev answer" in p for p in diff(CONTEXT, retyped))


def test_sections_close_the_opens_made_inside_them() -> None:
    original = "import Mathlib\nsection\nopen Real\nend\ndef f (x : ℝ) : ℝ := sqrt x\n" + THEOREM
    moved = "import Mathlib\nopen Real\nsection\nend\ndef f (x : ℝ) : ℝ := sqrt x\n" + PROOF
    assert diff(original, original.replace("sorry", "positivity")) == []
    assert diff(original, moved)

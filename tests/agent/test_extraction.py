"""Code and proof extraction on realistic model outputs built from the 438 real DeepSeek-Prover-V2
miniF2F proofs: each proof is wrapped the ways models answer (CoT with a plan, a `have` skeleton
and `### Complete Lean 4 Proof`; non-CoT; header restated; an earlier draft block; a `<think>`
preamble; a block cut off by max_tokens) and must come back exactly.

The text tools of lemmaforge.agent.prover read Lean with lemmaforge.lean.code (lexer, declarations,
statement comparison)."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from lemmaforge.agent.output import code_blocks, extract_lean_code, strip_header_lines
from lemmaforge.agent.prompts import MINIF2F_HEADER
from lemmaforge.agent.prover import (
    build_candidate,
    decl_name,
    extract_proof_body,
    mask_comments,
    open_statement,
    statement_with_sorry,
)
from lemmaforge.lean.syntax import same_statement
from tests.conftest import reference_proof_files

FILES = reference_proof_files()


@dataclass(frozen=True)
class Ref:
    path: Path
    text: str  # the whole file
    code: str  # without the header
    statement: str  # docstring + theorem up to `:= by`, then `\n  sorry`
    proof: str  # the tactic proof, dedented

    @property
    def name(self) -> str:
        return self.path.stem


def load(path: Path) -> Ref:
    text = path.read_text(encoding="utf-8")
    assert text.startswith(MINIF2F_HEADER)
    code = text[len(MINIF2F_HEADER) :]
    head, _, proof = code.partition(":= by\n")
    dedented = "\n".join(ln if ln.strip() else "" for ln in textwrap.dedent(proof).split("\n"))
    return Ref(path, text, code.strip("\n").rstrip(), head + ":= by\n  sorry", dedented.strip("\n").rstrip())


REFS = [load(p) for p in FILES]


def test_all_reference_proofs_are_here():
    assert len(REFS) == 438
    assert len({r.name for r in REFS}) == 438


def have_skeleton(ref: Ref) -> str:
    """What DeepSeek-Prover-V2's CoT writes under "Lean 4 Proof with `have` Statements": the
    top-level `have` lines with `sorry` proofs, then `sorry`."""
    decl = ref.code[: ref.code.index(":= by\n") + len(":= by")]
    haves = [ln for ln in ref.code.split("\n") if re.match(r"  have \S.*:= by$", ln)]
    steps = "".join(f"{ln} sorry\n" for ln in haves)
    return f"{decl}\n{steps}  sorry"


def cot_output(ref: Ref) -> str:
    return (
        "### Detailed Proof and Analysis\n\n"
        f"We prove `{ref.name}` step by step. First we note that the hypotheses give us the key bound, "
        "and we use `nlinarith` with suitable squares. Note: in Lean, `x ^ 2` is `x * x`.\n\n"
        "### Step-by-Step Abstract Plan\n\n1. Establish the intermediate facts.\n2. Combine them.\n\n"
        "### Lean 4 Proof with `have` Statements\n\n"
        f"```lean4\n{have_skeleton(ref)}\n```\n\n"
        "### Complete Lean 4 Proof\n\n"
        f"```lean4\n{ref.text}```\n\n"
        "This completes the proof.\n"
    )


def non_cot_output(ref: Ref) -> str:
    return f"```lean4\n{ref.code}\n```"


def header_restated_output(ref: Ref) -> str:
    return f"Here is the complete proof:\n\n```lean\n{ref.text}\n```\n"


def unterminated_output(ref: Ref) -> str:
    return f"### Complete Lean 4 Proof\n\n```lean4\n{ref.text}"


def earlier_draft_output(ref: Ref) -> str:
    decl = ref.code[: ref.code.index(":= by\n") + len(":= by")]
    return (
        "A first attempt:\n\n"
        f"```lean4\n{decl}\n  nlinarith [sq_nonneg (1 : ℝ)]\n```\n\n"
        "This may not work because `nlinarith` lacks the right hints. A refined version:\n\n"
        f"```lean4\n{ref.text}```"
    )


def think_output(ref: Ref) -> str:
    decl = ref.code[: ref.code.index(":= by\n") + len(":= by")]
    return (
        "<think>\nLet me try something first:\n```lean4\n"
        f"{decl}\n  sorry\n```\nNo, I should use the hypotheses properly.\n</think>\n\n"
        f"The final proof:\n\n```lean4\n{ref.code}\n```"
    )


WRAPPERS = {
    "cot": cot_output,
    "non_cot": non_cot_output,
    "header_restated": header_restated_output,
    "unterminated": unterminated_output,
    "earlier_draft": earlier_draft_output,
    "think": think_output,
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(WRAPPERS))
def test_exact_recovery_of_every_reference_proof(kind):
    wrap = WRAPPERS[kind]
    for ref in REFS:
        output = wrap(ref)
        code = extract_lean_code(output, header=MINIF2F_HEADER)
        assert code == ref.code, f"{kind}: code of {ref.path}"
        body = extract_proof_body(code, ref.statement)
        assert body == ref.proof, f"{kind}: proof of {ref.path}"


def _lines(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.split("\n") if ln.strip()]


@pytest.mark.slow
def test_candidates_restate_the_original_statement():
    for ref in REFS:
        code = extract_lean_code(cot_output(ref), header=MINIF2F_HEADER)
        cand = build_candidate(ref.statement, code, raw="raw")
        assert cand is not None and cand.body == ref.proof
        assert not cand.statement_changed and cand.aux == ""
        # the reference file minus its header (modulo blank lines and trailing spaces, which
        # lean.code.fill normalizes when it is there)
        assert cand.code.startswith(open_statement(ref.statement))
        assert _lines(cand.code) == _lines(ref.code)


@pytest.mark.slow
def test_statement_helpers_on_reference_statements():
    for ref in REFS:
        assert decl_name(ref.statement) == ref.name
        opened = open_statement(ref.statement)
        assert opened.endswith(":= by") and ref.code.startswith(opened)
        assert statement_with_sorry(ref.statement) == ref.statement
        assert same_statement(ref.statement, ref.code)


def test_mask_keeps_offsets_and_hides_comments_and_strings():
    code = 'theorem t : True := by\n  -- a comment with theorem\n  /- block /- nested -/ -/ trivial\n  have := "str -- x"\n'
    masked = mask_comments(code)
    assert len(masked) == len(code) and masked.count("\n") == code.count("\n")
    assert "comment" not in masked and "nested" not in masked and "str" not in masked
    assert "trivial" in masked and masked.startswith("theorem t")


# ---------------------------------------------------------------------------------------------
# edge cases
# ---------------------------------------------------------------------------------------------

STATEMENT = "theorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n  sorry"


def test_no_code_block_gives_none():
    assert extract_lean_code("I cannot prove this theorem.") is None
    assert extract_lean_code("") is None


def test_non_lean_blocks_are_ignored():
    out = "```lean4\ntheorem foo : True := by\n  trivial\n```\n\n```python\nprint('hi')\n```\n"
    assert extract_lean_code(out) == "theorem foo : True := by\n  trivial"


def test_bare_fence_that_looks_like_lean():
    out = "Proof:\n```\ntheorem foo : True := by\n  trivial\n```\nAnd a note:\n```\njust text\n```"
    assert extract_lean_code(out) == "theorem foo : True := by\n  trivial"


def test_unclosed_think_gives_none():
    assert extract_lean_code("<think>\n```lean4\ntheorem foo : True := by\n  trivial\n```\nhmm") is None


def test_complete_proof_heading_without_block_gives_none():
    out = "### Lean 4 Proof with `have` Statements\n```lean4\ntheorem foo : True := by\n  sorry\n```\n\n### Complete Lean 4 Proof\n\nThe proof is"
    assert extract_lean_code(out) is None


def test_closing_fence_glued_to_the_last_line():
    out = "```lean4\ntheorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n  linarith```"
    code = extract_lean_code(out)
    assert code == "theorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n  linarith"
    assert extract_proof_body(code, STATEMENT) == "linarith"


def test_header_lines_only_dropped_when_the_header_has_them():
    code = "import Mathlib\nset_option maxHeartbeats 400000\nopen Real\nopen Nat in\ntheorem foo : True := trivial"
    assert strip_header_lines(code, "import Mathlib\nopen Real\n") == (
        "set_option maxHeartbeats 400000\nopen Nat in\ntheorem foo : True := trivial"
    )
    assert (
        strip_header_lines(code)
        == "set_option maxHeartbeats 400000\nopen Real\nopen Nat in\ntheorem foo : True := trivial"
    )


def test_proof_on_the_by_line_and_term_proofs():
    assert (
        extract_proof_body("theorem foo (a b : ℝ) (h : a < b) : a ≤ b := by linarith", STATEMENT)
        == "linarith"
    )
    assert extract_proof_body("theorem foo (a b : ℝ) (h : a < b) : a ≤ b := le_of_lt h", STATEMENT) == (
        "exact le_of_lt h"
    )
    two = "theorem foo (a b : ℝ) (h : a < b) : a ≤ b := by nlinarith [h,\n    sq_nonneg (a - b)]\n"
    assert extract_proof_body(two, STATEMENT) == "nlinarith [h,\nsq_nonneg (a - b)]"
    assert extract_proof_body("theorem foo : True := by\n", "theorem foo : True := by sorry") is None


def test_body_stops_before_the_next_declaration_and_its_docstring():
    code = (
        "theorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n  linarith\n  -- done\n\n"
        "/-- another -/\ntheorem bar : True := by\n  trivial\n"
    )
    assert extract_proof_body(code, STATEMENT) == "linarith"
    assert extract_proof_body(code, "theorem bar : True := by sorry") == "trivial"


def test_helper_lemmas_are_kept_as_aux():
    code = (
        "lemma helper (x : ℝ) : 0 ≤ x ^ 2 := by\n  positivity\n\n"
        "/-- the main theorem -/\ntheorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n  have := helper a\n  linarith"
    )
    cand = build_candidate(STATEMENT, code, raw=code)
    assert cand is not None
    assert cand.aux == "lemma helper (x : ℝ) : 0 ≤ x ^ 2 := by\n  positivity"
    assert cand.body == "have := helper a\nlinarith"
    assert (
        cand.code
        == f"{cand.aux}\n\ntheorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n  have := helper a\n  linarith"
    )


def test_changed_statement_is_flagged_and_replaced():
    code = "theorem foo (a b : ℝ) (h : a ≤ b) : a ≤ b := by\n  exact h"
    cand = build_candidate(STATEMENT, code, raw=code)
    assert cand is not None and cand.statement_changed
    assert cand.code == "theorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n  exact h"


def test_bare_tactic_block_is_a_proof():
    cand = build_candidate(STATEMENT, "  nlinarith [sq_nonneg (a - b)]\n  <;> linarith", raw="")
    assert cand is not None and cand.body == "nlinarith [sq_nonneg (a - b)]\n<;> linarith"
    assert build_candidate(STATEMENT, "import Mathlib", raw="") is None


def test_what_follows_a_proof_at_column_0_is_not_part_of_it():
    head = "theorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n"
    assert extract_proof_body(head + "  linarith -- done\n", STATEMENT) == "linarith -- done"
    assert extract_proof_body(head + "  linarith\nThis proof works.\n", STATEMENT) == "linarith"
    assert extract_proof_body(head + "  exact aux\nwhere aux : True := trivial\n", STATEMENT) == "exact aux"
    assert extract_proof_body(head + "linarith\n", STATEMENT) is None  # a tactic block must be indented


def test_a_block_indented_as_a_whole_is_dedented():
    out = "1. The proof:\n   ```lean4\n   theorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n     linarith\n   ```\n"
    code = extract_lean_code(out)
    assert code == "theorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n  linarith"
    cand = build_candidate(STATEMENT, code, raw=out)
    assert cand is not None and cand.body == "linarith" and not cand.statement_changed


def test_code_blocks_reports_unterminated_blocks():
    blocks = code_blocks("a\n```lean4\nx\n```\nb\n```lean\ny\nz")
    assert [(b.lang, b.body, b.closed) for b in blocks] == [("lean4", "x\n", True), ("lean", "y\nz", False)]

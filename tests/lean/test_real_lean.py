"""Integration tests against a real Lean + Mathlib project.

They run only when LEMMAFORGE_LEAN_PROJECT points to a Lean project with Mathlib built (for
example the directory `lemmaforge setup` prints) and skip with that reason otherwise. They are the
ground truth that the fakes under tests/fakes/ imitate.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lemmaforge.config import AuditConfig, VerifierConfig
from lemmaforge.lean.audit import AuditStatus, Reason, audit
from lemmaforge.lean.verifier import CheckStatus
from tests.conftest import LEAN_PROJECT, REPO_ROOT, requires_lean

pytestmark = [requires_lean, pytest.mark.lean]

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"


@pytest.fixture(params=["repl", "lake"])
async def verifier(request):
    cfg = VerifierConfig(backend=request.param, project=Path(LEAN_PROJECT or "."), workers=1, timeout=300)
    from lemmaforge.lean.backends import make_verifier

    v = make_verifier(cfg)
    yield v
    await v.close()


async def test_reference_proof_is_proved(verifier):
    proof = (REPO_ROOT / "examples" / "mathd_algebra_478.lean").read_text(encoding="utf-8")
    original = (REPO_ROOT / "examples" / "mathd_algebra_478.statement.lean").read_text(encoding="utf-8")
    report = await audit(proof, verifier, original=original, config=AuditConfig(), timeout=300)
    assert report.status is AuditStatus.PROVED, report.reasons
    assert set(report.axioms or []) <= {"propext", "Classical.choice", "Quot.sound"}


async def test_sketch_has_holes_with_goals(verifier):
    code = HEADER + "theorem t (a b : ℝ) (h : 0 < a ∧ 0 < b) : 0 < a * b := by\n  have h1 : 0 < a := by sorry\n  sorry\n"
    result = await verifier.check(code, timeout=300)
    assert result.status is CheckStatus.INCOMPLETE
    if verifier.supports_proof_states:
        assert len(result.holes) == 2
        assert "⊢ 0 < a" in result.holes[0].goal
        assert result.holes[0].pos is not None and result.holes[0].pos.line == 9


async def test_new_axiom_is_rejected(verifier):
    code = HEADER + "axiom cheat : False\n\ntheorem t : (1 : ℕ) = 2 := cheat.elim\n"
    original = HEADER + "theorem t : (1 : ℕ) = 2 := by\n  sorry\n"
    report = await audit(code, verifier, original=original, timeout=300)
    assert report.status is AuditStatus.REJECTED
    # The gate refuses the new axiom before Lean is asked (intended): no Lean-side reason.
    assert Reason.BANNED_COMMAND in {r.reason for r in report.reasons}
    assert report.check is None


async def test_native_decide_needs_permission(verifier):
    code = HEADER + "theorem t : 2 ^ 10 = 1024 := by native_decide\n"
    denied = await audit(code, verifier, timeout=300)
    assert denied.status is AuditStatus.REJECTED
    allowed = await audit(code, verifier, config=AuditConfig(allow_native_decide=True), timeout=300)
    assert allowed.status is AuditStatus.PROVED


async def test_declaration_listing_answers_on_real_lean(verifier):
    """The probe's `run_cmd` listing (lean/judge.py) elaborates on the installed Lean and reports
    what the file declared: a constant by kind with its axioms, instance entries, options."""
    from lemmaforge.lean import judge

    code = (HEADER + "axiom cheat : False\n\ninstance : LT ℝ := ⟨fun x y => y < x⟩\n\n"
            "set_option linter.unusedVariables false\n\ntheorem t : (1 : ℕ) = 2 := cheat.elim\n")
    nonce = judge.nonce_for(code)
    probe = judge.Probe.build("t", type_of=False, nonce=nonce)
    inner = getattr(verifier, "inner", verifier)  # past the gate: this text is the test's, not a model's
    _, answers = await judge.run_probed(inner, code, probe, timeout=300)
    assert answers is not None
    listing = judge.parse_listing(answers.get(("decls", "")), nonce)
    assert listing is not None, answers
    kinds = {c.name: c.kind for c in listing.constants}
    assert kinds.get("cheat") == "axiom" and kinds.get("t") == "theorem", kinds
    assert "cheat" in next(c.axioms for c in listing.constants if c.name == "t")
    assert listing.extensions["instance"] >= 1
    assert ("linter.unusedVariables", "false") in listing.options

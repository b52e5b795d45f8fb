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
    """The probe's `run_cmd` listing (lean/audit/_judge.py) elaborates on the installed Lean and reports
    what the file declared: a constant by kind with its axioms, instance entries, options."""
    from lemmaforge.lean.audit import _judge as judge

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
    closure = {c.name for c in listing.constants if c.in_closure}
    assert {"t", "cheat"} <= closure, closure  # the theorem and the axiom it uses


async def test_the_listing_walks_the_closure_on_real_lean(verifier):
    """What the judge relies on (issue 46): the closure holds what the target uses and nothing
    else; below 4.22 the old code generator's `_cstage` helpers are unsafe and outside it; a
    private lemma is listed under `_private…`; `partial`, `@[implemented_by]` are reported."""
    from lemmaforge.lean.audit import _judge as judge
    from lemmaforge.lean.audit._listing import looks_like_old_codegen_name

    code = (HEADER + "def f (n : ℕ) : ℕ := n + 1\n\ndef g (n : ℕ) : ℕ := n + 2\n\n"
            "partial def spin (n : ℕ) : ℕ := spin n\n\n@[implemented_by g] def h (n : ℕ) : ℕ := n + 2\n\n"
            "private lemma aux (n : ℕ) : f n = n + 1 := rfl\n\n"
            "theorem t (n : ℕ) : f n = n + 1 := by\n  match n with\n  | 0 => rfl\n  | k + 1 => exact aux _\n")
    nonce = judge.nonce_for(code)
    probe = judge.Probe.build("t", others=("aux",), type_of=False, nonce=nonce)
    inner = getattr(verifier, "inner", verifier)  # past the gate: this text is the test's, not a model's
    _, answers = await judge.run_probed(inner, code, probe, timeout=300)
    listing = judge.parse_listing((answers or {}).get(("decls", "")), nonce)
    assert listing is not None, answers
    by_key = {c.key: c for c in listing.constants}
    assert by_key["t"].in_closure and by_key["f"].in_closure and by_key["aux"].in_closure
    assert by_key["aux"].private and not by_key["t"].private
    assert not by_key["g"].in_closure and not by_key["spin"].in_closure
    assert by_key["spin"].partial and by_key["h"].implemented_by
    assert any(k.startswith("t.match_") and c.in_closure for k, c in by_key.items())
    artefacts = [c for c in listing.constants if looks_like_old_codegen_name(c.name)]
    assert all(c.unsafe and not c.in_closure for c in artefacts)
    assert judge.parse_probe((answers or {}).get(("axioms", "aux")), "aux", private_ok=True) is not None


async def test_axiom_names_are_printed_in_full_under_open_classical(verifier):
    from lemmaforge.lean.audit import _judge as judge

    code = (HEADER.replace("open BigOperators", "open Classical BigOperators")
            + "theorem t (α : Type) (h : Nonempty α) : ∃ x : α, x = x := ⟨Classical.choice h, rfl⟩\n")
    probe = judge.Probe.build("t", type_of=False)
    inner = getattr(verifier, "inner", verifier)
    _, answers = await judge.run_probed(inner, code, probe, timeout=300)
    assert judge.parse_probe((answers or {}).get(("axioms", "t")), "t") == ["Classical.choice"]


@pytest.mark.parametrize("name", ["match-in-proof", "simp-imported-def", "context-def", "open-classical-choice",
                                  "private-helper", "where-helper", "helper-lemmas-first", "char-literal-after-paren"])
async def test_honest_constructs_are_proved_on_real_lean(verifier, name):
    """The constructs tests/lean/test_audit_versions.py proves on every release's fakes, on the
    installed Lean: the ground truth the fakes imitate."""
    from tests.lean.test_audit_versions import HONEST

    original, candidate, _ = HONEST[name]
    report = await audit(candidate, verifier, original=original, config=AuditConfig(), timeout=300)
    assert report.status is AuditStatus.PROVED, (name, report.reasons)


async def test_selftest_on_real_lean(verifier):
    """`lemmaforge doctor --selftest`'s calibration (lemmaforge/lean/audit/selftest/calibration.toml)
    through the whole audit on the installed Lean: every honest construct proved, every cheat
    refused for its reason. A failure names what Lean answered that the judge does not expect."""
    from lemmaforge.lean.audit.selftest import load_cases, run_cases

    result = await run_cases(verifier, load_cases(), timeout=300)
    assert result.ok, [(p.headline, p.detail, ids) for p, ids in result.problems]

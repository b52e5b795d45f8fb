"""Verdicts Lean vouches for: the REPL probe as its own command, and the Lean-side statement check
(SafeVerify) wired for the lake / REPL backends, against fakes of their protocol; the same checks
against real Lean when LEMMAFORGE_LEAN_PROJECT is set."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.config import AuditConfig, VerifierConfig
from lemmaforge.lean.audit import AuditStatus, Reason, audit
from lemmaforge.lean.audit._audit import parse_probe
from lemmaforge.lean.backends import make_verifier
from lemmaforge.lean.gate import Context, GatedVerifier
from lemmaforge.lean.safeverify import SafeVerifyChecker, default_location, parse_safe_verify
from lemmaforge.lean.verifier import Message, Position, Severity, VerifierError
from tests.conftest import LEAN_PROJECT, requires_lean
from tests.lean.test_repl import pool  # noqa: F401 (fixture: ReplVerifier over the fake REPL process)

FAKES = Path(__file__).resolve().parents[1] / "fakes"
FAKE_LAKE = str(FAKES / "lake")
FAKE_SV = FAKES / "fake_safe_verify.py"
HEADER = "import Mathlib\n\n"
ORIGINAL = HEADER + "theorem t (n : ℕ) : n + 0 = n := by\n  sorry\n"
PROOF = HEADER + "theorem t (n : ℕ) : n + 0 = n := by\n  simp\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "LeanProject"
    root.mkdir()
    (root / "lakefile.toml").write_text('name = "LeanProject"\n')
    return root


def lake_cfg(project: Path, **kw) -> VerifierConfig:
    # Unsandboxed: the fakes take their script from FAKE_* variables, which the sandbox does not
    # pass in (sandboxed runs: tests/lean/test_sandbox.py).
    kw = {"sandbox": False, **kw}
    return VerifierConfig(backend="lake", lake_path=FAKE_LAKE, project=project, safe_verify=FAKE_SV, timeout=30, **kw)


# --- the probe's own messages --------------------------------------------------------------------


def info(data: str) -> Message:
    return Message(Severity.INFO, data, Position(1, 0))


def test_probe_parsing_reads_names_exactly() -> None:
    assert parse_probe([info("'foo'' depends on axioms: [propext, «my, ax»]")], "foo'") == ["propext", "«my, ax»"]
    assert parse_probe([info("'«a b».c' does not depend on any axioms")], "«a b».c") == []
    assert parse_probe([info("'Bar.Foo.t' depends on axioms: [propext]")], "Foo.t") is None  # not `.t`-suffix
    assert parse_probe([info("'Foo.t' depends on axioms: [propext]")], "t") is None  # full name only
    assert parse_probe([info("'t' depends on axioms: [α.β']")], "t") == ["α.β'"]
    two = [info("'t' depends on axioms: [propext]"), info("'t' depends on axioms: [sorryAx]")]
    assert parse_probe(two, "t") is None  # two answers to one probe: trust neither
    assert parse_probe(None, "t") is None


@pytest.mark.slow
async def test_repl_runs_the_probe_as_a_separate_command(pool) -> None:  # noqa: F811
    inner, fake = pool()
    verifier = GatedVerifier(inner)
    spoof = "theorem t (n : ℕ) : n + 0 = n := by\n  trace \"'t' depends on axioms: [propext]\"\n  native_decide\n"
    report = await audit(HEADER + spoof, verifier, original=ORIGINAL)
    assert report.status is AuditStatus.REJECTED, report.reasons
    assert "Lean.ofReduceBool" in (report.axioms or [])
    probes = [e for e in fake.requests() if "#print axioms" in e["head"]]
    assert probes, "the probe was sent"
    # Its own command, in the proof's environment: the proof's text is not part of it.
    assert all(e["head"].startswith("set_option pp.fullNames true in\n#print axioms t") for e in probes)
    assert not any("#print axioms" in e["head"] and "theorem" in e["head"] for e in fake.requests())
    honest = await audit(PROOF, verifier, original=ORIGINAL)
    assert honest.ok, honest.reasons


# --- SafeVerify protocol -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "out", "err", "same", "skipped"),
    [
        (0, "Replaying a\nFinished.\n", "", True, False),
        (0, "Finished.\n", "Found a problem in s.olean with declaration t\n", False, False),
        (1, "", "uncaught exception: t used disallowed axioms. #[sorryAx]\n", False, False),
        (1, "", "uncaught exception: t used disallowed axioms. #[Lean.ofReduceBool]\n", None, True),
        (1, "", "uncaught exception: unsafe constant evil detected\n", False, False),
        (1, "", "uncaught exception: object file 'x.olean' does not exist\n", None, False),
        (None, "", "timed out after 5s", None, False),
    ],
)
def test_safe_verify_output_is_parsed(code, out, err, same, skipped) -> None:
    verdict = parse_safe_verify(code, out, err, {"Lean.ofReduceBool"})
    assert (verdict.same, verdict.skipped) == (same, skipped), verdict


@pytest.mark.slow
async def test_lake_backend_asks_lean_for_statement_identity(project: Path) -> None:
    verifier = make_verifier(lake_cfg(project))
    try:
        assert isinstance(verifier.statement_checker, SafeVerifyChecker)
        report = await audit(PROOF, verifier, original=ORIGINAL)
        assert report.ok, report.reasons
        assert report.statement_check == {"same": True, "detail": report.statement_check["detail"], "skipped": False}
    finally:
        await verifier.close()


async def test_lean_side_difference_rejects_what_the_text_accepted(project: Path, monkeypatch) -> None:
    monkeypatch.setenv("FAKE_SV_DIFFER", "t")
    verifier = make_verifier(lake_cfg(project))
    try:
        report = await audit(PROOF, verifier, original=ORIGINAL)
    finally:
        await verifier.close()
    assert report.status is AuditStatus.REJECTED
    assert any(r.reason is Reason.STATEMENT_CHANGED and "SafeVerify" in r.detail for r in report.reasons)


async def test_answer_slot_filled_passes_safe_verify(project: Path) -> None:
    original = HEADER + "abbrev answer : ℕ := sorry\n\ntheorem t : answer = 3 := by\n  sorry\n"
    proof = HEADER + "abbrev answer : ℕ := 3\n\ntheorem t : answer = 3 := by\n  rfl\n"
    verifier = make_verifier(lake_cfg(project))
    try:
        report = await audit(proof, verifier, original=original)
    finally:
        await verifier.close()
    assert report.ok, report.reasons


async def test_allowed_native_decide_falls_back_to_the_text_check(project: Path) -> None:
    proof = HEADER + "theorem t (n : ℕ) : n + 0 = n := by\n  native_decide\n"
    verifier = make_verifier(lake_cfg(project))
    try:
        report = await audit(proof, verifier, original=ORIGINAL, config=AuditConfig(allow_native_decide=True))
    finally:
        await verifier.close()
    assert report.ok, report.reasons
    assert report.statement_check is not None and report.statement_check["skipped"] is True


async def test_safe_verify_failure_is_a_verifier_failure_not_proved(project: Path, monkeypatch) -> None:
    monkeypatch.setenv("FAKE_LAKE_LEAN", json.dumps({"rules": [{"kind": "message", "pattern": "sorry",
                                                                "data": "boom", "severity": "error"}]}))
    verifier = make_verifier(lake_cfg(project))
    try:
        # The original (with its `sorry`) does not compile in this scripted Lean: Lean cannot decide.
        report = await audit(PROOF, verifier, original=ORIGINAL)
    finally:
        await verifier.close()
    assert not report.ok and report.status is AuditStatus.ERROR
    assert Reason.VERIFIER_FAILURE in {r.reason for r in report.reasons}


def test_safe_verify_needs_local_lean(project: Path) -> None:
    with pytest.raises(VerifierError, match="repl or lake"):
        make_verifier(VerifierConfig(backend="kimina", safe_verify=FAKE_SV))
    with pytest.raises(VerifierError, match="not found"):
        make_verifier(VerifierConfig(backend="lake", lake_path=FAKE_LAKE, project=project, safe_verify=project / "x"))


@pytest.mark.slow
def test_check_json_shows_lean_statement_check(project: Path, tmp_path: Path) -> None:
    proof, statement = tmp_path / "p.lean", tmp_path / "s.lean"
    proof.write_text(PROOF, encoding="utf-8")
    statement.write_text(ORIGINAL, encoding="utf-8")
    env = {"LEMMAFORGE_VERIFIER__SAFE_VERIFY": str(FAKE_SV), "LEMMAFORGE_VERIFIER__LAKE_PATH": FAKE_LAKE}
    r = CliRunner().invoke(app, ["check", str(proof), "--against", str(statement), "--verifier", "lake",
                                 "--project", str(project), "--json"], env=env)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["ok"] is True and out["statement_check"]["same"] is True


# --- real Lean ------------------------------------------------------------------------------------

SAFE_VERIFY = os.environ.get("LEMMAFORGE_SAFE_VERIFY") or (
    str(default_location(Path(LEAN_PROJECT))) if LEAN_PROJECT else None
)


@requires_lean
@pytest.mark.lean
@pytest.mark.parametrize("backend", ["repl", "lake"])
async def test_real_lean_probe_and_statement_check(backend: str) -> None:
    assert LEAN_PROJECT
    have_sv = bool(SAFE_VERIFY) and Path(SAFE_VERIFY).is_file()
    cfg = VerifierConfig(backend=backend, project=Path(LEAN_PROJECT), workers=1, timeout=600,
                         safe_verify=Path(SAFE_VERIFY) if have_sv else None)
    verifier = make_verifier(cfg)
    try:
        honest = await audit(PROOF, verifier, original=ORIGINAL, timeout=600)
        assert honest.ok, honest.reasons
        if have_sv:
            assert honest.statement_check and honest.statement_check["same"] is True
        spoof = HEADER + ("theorem t (n : ℕ) : n + 0 = n := by\n  trace \"'t' depends on axioms: [propext]\"\n"
                          "  exact sorryAx _ false\n")
        report = await audit(spoof, verifier, original=ORIGINAL, timeout=600)
        assert not report.ok and "sorryAx" in (report.axioms or [])
    finally:
        await verifier.close()


def test_fake_safe_verify_is_runnable() -> None:
    assert os.access(FAKE_SV, os.X_OK) and sys.executable


@pytest.mark.slow
async def test_repl_tactics_are_gated(pool) -> None:  # noqa: F811
    inner, fake = pool()
    verifier = GatedVerifier(inner)
    sketch = HEADER + "theorem t (n : ℕ) : n + 0 = n := by\n  sorry\n"
    verifier.trust(Context.of(sketch))
    result = await verifier.check(sketch)
    assert result.holes and result.holes[0].proof_state is not None
    refused = await verifier.run_tactic(result.holes[0], "run_tac Lean.Elab.Tactic.evalTactic (← `(tactic| simp))")
    assert not refused.closed and "runs_code" in refused.messages[0].data
    assert not [e for e in fake.requests() if "run_tac" in e["head"]]
    allowed = await verifier.run_tactic(result.holes[0], "simp")
    assert allowed.error is None or "run_tac" not in (allowed.error or "")
    assert [e for e in fake.requests() if "simp" in e["head"]]

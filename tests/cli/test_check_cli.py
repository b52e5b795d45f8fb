"""`lemmaforge check` end to end against a Kimina-protocol server (the fake one)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.conftest import REPO_ROOT
from tests.fakes.fake_kimina import FakeKimina

runner = CliRunner()
PROOF = REPO_ROOT / "examples" / "mathd_algebra_478.lean"
STATEMENT = REPO_ROOT / "examples" / "mathd_algebra_478.statement.lean"


@pytest.fixture()
def kimina():
    with FakeKimina() as server:
        yield server


def check(kimina, *args: str):
    return runner.invoke(app, ["check", *args, "--verifier", "kimina", "--kimina-url", kimina.url, "--json"])


def test_reference_proof_is_proved_exit_0(kimina):
    r = check(kimina, str(PROOF), "--against", str(STATEMENT))
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["ok"] is True and out["status"] == "proved"
    assert out["errors"] == [] and out["holes"] == 0 and out["reasons"] == []
    assert out["axioms"] == ["propext", "Classical.choice", "Quot.sound"]
    # the whole file went to the server, header included, with the probe appended (axioms, the
    # pp.all type, Lean's declaration listing); then the statement alone with the type probe (its
    # type in a clean environment)
    sent, original = (r.body["snippets"][0]["code"] for r in kimina.check_requests[-2:])
    assert sent.startswith("import Mathlib") and "#print axioms mathd_algebra_478" in sent
    assert "\n#check @mathd_algebra_478\nrun_cmd do\n  let lfTag" in sent
    assert original.endswith("#check @mathd_algebra_478\n")
    assert "#print axioms" not in original and original.startswith(STATEMENT.read_text().rstrip())
    assert out["lean_type"].startswith("@mathd_algebra_478 : ")


def test_statement_file_itself_is_incomplete_exit_1(kimina):
    r = check(kimina, str(STATEMENT))
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["status"] == "incomplete" and out["holes"] == 1
    assert any(x["reason"] == "sorry" for x in out["reasons"])


def test_changed_statement_is_rejected_exit_1(kimina, tmp_path):
    cheat = tmp_path / "cheat.lean"
    cheat.write_text(PROOF.read_text(encoding="utf-8").replace("v = 65 := by", "v = v := by", 1), encoding="utf-8")
    r = check(kimina, str(cheat), "--against", str(STATEMENT))
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["status"] == "rejected"
    assert [x["reason"] for x in out["reasons"]] == ["statement_changed"]


def test_new_axiom_rejected_with_text_output(kimina, tmp_path):
    cheat = tmp_path / "axiom.lean"
    text = PROOF.read_text(encoding="utf-8")
    head, _, _ = text.partition("/--")
    cheat.write_text(
        head + "axiom magic : ∀ v : ℝ, v = 65\n\ntheorem mathd_algebra_478 (b h v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) "
        "(h₁ : v = 1 / 3 * (b * h))\n    (h₂ : b = 30) (h₃ : h = 13 / 2) : v = 65 := by\n  exact magic v\n",
        encoding="utf-8",
    )
    r = runner.invoke(app, ["check", str(cheat), "--against", str(STATEMENT), "--verifier", "kimina",
                            "--kimina-url", kimina.url])
    assert r.exit_code == 1
    assert "rejected" in r.stdout
    # The gate refuses the new axiom before Lean (it is never sent, so no Lean-side forbidden_axiom).
    assert "banned_command" in r.stdout and "magic" in r.stdout
    assert kimina.check_requests == []

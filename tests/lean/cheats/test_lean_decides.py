"""Lean decides (issue 37, point 1; categories 1, 2 and 4), through `check` and `prove` on the fake
backends (Kimina, lake, REPL).

Category 1 is "wherever our lexer and Lean's disagree, every text defence fails at once". These
tests make the text defences fail on purpose (the gate and the preamble check see nothing), the way
a lexer divergence would, and show the verdict still comes out right: the product's probe asks
Lean for the theorem's elaborated type (`pp.all`) and compares it with the original's, elaborated in
a clean environment. The fakes answer the probe with the type their model of Lean elaborates
(tests/fakes/fake_common.py `type_message`), taking the cheater-favourable reading where Lean
versions differ (a `variable` the proof mentions is added to the theorem, as Lean < 4.10 does).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.config import VerifierConfig
from lemmaforge.lean import gate
from lemmaforge.lean.audit import AuditStatus, Reason, audit
from lemmaforge.lean.audit import _audit as audit_module
from lemmaforge.lean.backends import make_verifier
from lemmaforge.lean.gate import GatedVerifier
from lemmaforge.lean.safeverify import default_location
from tests.conftest import LEAN_RELEASES
from tests.fakes.fake_kimina import FakeKimina, ScriptedLean
from tests.lean.test_repl import pool  # noqa: F401 (fixture: ReplVerifier over the fake REPL process)

FAKES = Path(__file__).resolve().parents[2] / "fakes"
FAKE_LAKE = str(FAKES / "lake")
HEADER = "import Mathlib\n\nset_option maxHeartbeats 400000\n\nopen Real\n\n"
THEOREM = "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n"
ORIGINAL = HEADER + THEOREM + "  sorry\n"
HONEST = HEADER + THEOREM + "  exact mul_pos h₀ h₁\n"

# Commands that change what the unchanged statement text means; each written from Lean's own
# documentation of the command (Lean 4 manual: "Notations", "Instances", "Section variables").
MEANING_CHANGES = {
    "instance": ("instance : LT ℝ := ⟨fun x y => y < x⟩\n\n", "  exact mul_pos h₀ h₁\n"),
    "local-notation": ('local notation:70 x " * " y => x + y\n\n', "  exact add_pos h₀ h₁\n"),
    "infix": ('infixl:70 " * " => HAdd.hAdd\n\n', "  exact add_pos h₀ h₁\n"),
    "variable": ("variable (hF : False)\n\n", "  exact hF.elim\n"),
}


def cheat(kind: str) -> str:
    added, proof = MEANING_CHANGES[kind]
    return HEADER + added + THEOREM + proof


@pytest.fixture
def blind_text_layer(monkeypatch):
    """The text defences see nothing (what a lexer that disagrees with Lean's would do): the gate
    passes everything and the preamble check finds no addition. Only Lean's answers remain."""
    monkeypatch.setattr(gate, "check_candidate", lambda text, context=None: [])  # what the audit reads
    monkeypatch.setattr("lemmaforge.lean.gate._verifier.check_candidate", lambda text, context=None: [])
    monkeypatch.setattr(audit_module, "context_changes", lambda original, candidate: [])


def check_cli(proof: Path, statement: Path, *verifier: str) -> dict:
    r = CliRunner().invoke(app, ["check", str(proof), "--against", str(statement), *verifier, "--json"])
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)


def files(tmp_path: Path, candidate: str, original: str = ORIGINAL) -> tuple[Path, Path]:
    proof, statement = tmp_path / "proof.lean", tmp_path / "statement.lean"
    proof.write_text(candidate, encoding="utf-8")
    statement.write_text(original, encoding="utf-8")
    return proof, statement


@pytest.fixture(scope="module", params=LEAN_RELEASES)
def kimina(request):
    """The fake Kimina answering as each Lean release the product supports (issue 46, point 8)."""
    with FakeKimina(responder=ScriptedLean(lean_version=request.param)) as server:
        yield server


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "LeanProject"
    root.mkdir()
    (root / "lakefile.toml").write_text('name = "LeanProject"\n')
    return root


# --- category 1: the verdict does not hang on the lexer -----------------------------------------


@pytest.mark.parametrize("kind", sorted(MEANING_CHANGES))
def test_check_on_kimina_rejects_a_changed_meaning_the_text_layer_missed(kind, kimina, tmp_path, blind_text_layer):
    out = check_cli(*files(tmp_path, cheat(kind)), "--verifier", "kimina", "--kimina-url", kimina.url)
    assert out["status"] == "rejected", out
    # Lean's declaration listing names what was added (a constant and an instance/parser entry);
    # a `variable` adds none, and the elaborated type shows the change.
    reasons = [r["reason"] for r in out["reasons"]]
    if kind == "variable":
        assert reasons == ["statement_changed"]
        assert "Lean elaborates 't' differently" in out["reasons"][0]["detail"]
    else:
        assert set(reasons) == {"lean_declared"}, reasons
        # a `local` notation leaves no parser entry at the end, but its syntax constant stays
        said = {"instance": "new instance entr", "infix": "new parser entr", "local-notation": "Lean lists def"}[kind]
        assert any(said in r["detail"] for r in out["reasons"]), out["reasons"]
    honest = check_cli(*files(tmp_path, HONEST), "--verifier", "kimina", "--kimina-url", kimina.url)
    assert honest["ok"] is True and honest["lean_type"] and "⟦" not in honest["lean_type"]


@pytest.mark.parametrize("kind", ["instance", "variable"])
def test_check_on_lake_rejects_a_changed_meaning_the_text_layer_missed(kind, project, tmp_path, blind_text_layer):
    args = ("--verifier", "lake", "--project", str(project))
    env = {"LEMMAFORGE_VERIFIER__LAKE_PATH": FAKE_LAKE}
    proof, statement = files(tmp_path, cheat(kind))
    r = CliRunner().invoke(app, ["check", str(proof), "--against", str(statement), *args, "--json"], env=env)
    out = json.loads(r.stdout)
    assert r.exit_code == 1 and out["status"] == "rejected", r.output
    assert ("statement_changed" if kind == "variable" else "lean_declared") in [x["reason"] for x in out["reasons"]]


@pytest.mark.slow
async def test_repl_probe_in_the_proofs_environment_sees_the_variable(pool, blind_text_layer) -> None:  # noqa: F811
    inner, fake = pool()
    verifier = GatedVerifier(inner)
    report = await audit(cheat("variable"), verifier, original=ORIGINAL)
    assert report.status is AuditStatus.REJECTED, report.reasons
    assert [r.reason for r in report.reasons] == [Reason.STATEMENT_CHANGED]
    # The type probe was its own command, in the candidate's environment, never model text.
    probes = [e["text"] for e in fake.requests() if "#check @t" in e["text"]]
    assert probes and probes[0].startswith("set_option pp.fullNames true in\n#print axioms t\nset_option pp.all true in")
    assert not any(THEOREM.strip() in p for p in probes)
    honest = await audit(HONEST, verifier, original=ORIGINAL)
    assert honest.ok, honest.reasons


async def test_the_originals_type_is_elaborated_once_per_problem(kimina) -> None:
    verifier = make_verifier(VerifierConfig(backend="kimina", kimina_url=kimina.url))
    try:
        before = len(kimina.check_requests)
        for _ in range(3):
            report = await audit(HONEST, verifier, original=ORIGINAL)
            assert report.ok, report.reasons
        codes = [s["code"] for r in kimina.check_requests[before:] for s in r.body["snippets"]]
    finally:
        await verifier.close()
    originals = [c for c in codes if c.startswith(ORIGINAL.rstrip()) and "#print axioms" not in c]
    assert len(originals) == 1 and originals[0].endswith("#check @t\n")


async def test_a_type_lean_did_not_print_is_never_proved(kimina, monkeypatch) -> None:
    # A candidate that swallowed the probe's answer (or a Lean that printed nothing): not proved.
    from lemmaforge.lean.audit import _judge as judge

    monkeypatch.setattr(judge, "type_print", lambda answers, name: None)
    verifier = make_verifier(VerifierConfig(backend="kimina", kimina_url=kimina.url))
    try:
        report = await audit(HONEST, verifier, original=ORIGINAL)
    finally:
        await verifier.close()
    assert report.status is AuditStatus.REJECTED
    assert [r.reason for r in report.reasons] == [Reason.STATEMENT_UNKNOWN]


# --- categories 2 and 4 through `check` -----------------------------------------------------------

ABS_ORIGINAL = HEADER + "theorem t (x : ℝ) (h : 0 ≤ x) :\n  |x| = 1 → x = 1 := by\n  sorry\n"


@pytest.mark.parametrize(
    ("candidate", "ok"),
    [
        # category 2: a type line starting `|x|` is compared whole
        (ABS_ORIGINAL.replace("|x| = 1", "|x| = 0").replace("  sorry", "  intro h; simp_all"), False),
        (ABS_ORIGINAL.replace("  sorry", "  intro h; simp_all"), True),
        # category 4: ASCII spellings Lean reads as the same token, a changed maxHeartbeats,
        # and an unused lemma after the theorem (the target is found by name)
        (ABS_ORIGINAL.replace("0 ≤ x", "0 <= x").replace("→", "->").replace("  sorry", "  intro h; simp_all"), True),
        (ABS_ORIGINAL.replace("400000", "0").replace("  sorry", "  intro h; simp_all"), True),
        (ABS_ORIGINAL.replace("  sorry", "  intro h; simp_all") + "\ntheorem extra : (1 : ℕ) = 1 := rfl\n", True),
    ],
)
def test_statement_by_name_and_exact_signature_through_check(candidate, ok, kimina, tmp_path) -> None:
    out = check_cli(*files(tmp_path, candidate, ABS_ORIGINAL), "--verifier", "kimina", "--kimina-url", kimina.url)
    assert out["ok"] is ok, out
    if not ok:
        assert out["status"] == "rejected" and "statement_changed" in [r["reason"] for r in out["reasons"]]


def test_unused_lemma_after_the_theorem_is_probed_too(kimina, tmp_path) -> None:
    # The lemma after the theorem is not the target, but Lean is asked what it depends on.
    candidate = HONEST + "\ntheorem extra : (2 : ℕ) ^ 10 = 1024 := by\n  native_decide\n"
    out = check_cli(*files(tmp_path, candidate), "--verifier", "kimina", "--kimina-url", kimina.url)
    assert out["status"] == "rejected" and out["theorem"] == "t"
    assert any(r["reason"] == "forbidden_axiom" and "'extra'" in r["detail"] for r in out["reasons"])


def test_an_example_is_refused_before_lean(kimina, tmp_path) -> None:
    before = len(kimina.check_requests)
    candidate = HEADER + "example : (2 : ℕ) ^ 10 = 1024 := by\n  native_decide\n\n" + THEOREM + "  positivity\n"
    out = check_cli(*files(tmp_path, candidate), "--verifier", "kimina", "--kimina-url", kimina.url)
    assert out["status"] == "rejected" and [r["reason"] for r in out["reasons"]] == ["example_refused"]
    assert len(kimina.check_requests) == before


# --- SafeVerify by default where Lean is local ------------------------------------------------------


async def test_safe_verify_not_installed_is_reported(project) -> None:
    verifier = make_verifier(VerifierConfig(backend="lake", lake_path=FAKE_LAKE, project=project, timeout=30))
    try:
        report = await audit(HONEST, verifier, original=ORIGINAL)
    finally:
        await verifier.close()
    assert report.ok, report.reasons
    assert report.statement_check is not None and report.statement_check["skipped"] is True
    assert "not installed" in report.statement_check["detail"]


async def test_safe_verify_runs_by_default_once_built(project) -> None:
    exe = default_location(project)
    exe.parent.mkdir(parents=True)
    shutil.copy(FAKES / "fake_safe_verify.py", exe)
    os.chmod(exe, 0o755)
    verifier = make_verifier(VerifierConfig(backend="lake", lake_path=FAKE_LAKE, project=project, timeout=30))
    try:
        report = await audit(HONEST, verifier, original=ORIGINAL)
    finally:
        await verifier.close()
    assert report.ok, report.reasons
    assert report.statement_check is not None and report.statement_check["same"] is True


# --- through `prove` ---------------------------------------------------------------------------------


def _prove(tmp_path: Path, monkeypatch) -> tuple[object, list[str]]:
    from tests.fakes.fake_openai import FakeOpenAIServer
    from tests.fakes.prove_runs import ENV, auto_tac, fake_lean, prove_args
    from tests.search.scenarios import DEFS, add_prover, lean_block, prover_rule
    from tests.search.scenarios import HEADER as SEARCH_HEADER
    from tests.search.scenarios import THEOREM as SEARCH_THEOREM

    auto_tac(monkeypatch)
    problem = tmp_path / "t.lean"
    problem.write_text(SEARCH_HEADER + DEFS + SEARCH_THEOREM, encoding="utf-8")
    kimina, llm = FakeKimina(responder=fake_lean()), FakeOpenAIServer(default=lean_block("bad_default"))
    with kimina, llm:
        add_prover(llm, *prover_rule("D x", "exact rfl"))
        r = CliRunner().invoke(app, prove_args(problem, kimina, llm, f"sqlite:///{tmp_path / 'r.db'}"), env=ENV)
        codes = [s["code"] for req in kimina.check_requests for s in req.body["snippets"]]
    return r, codes


def test_prove_asks_lean_for_the_type_once_and_proves(tmp_path, monkeypatch) -> None:
    r, codes = _prove(tmp_path, monkeypatch)
    assert r.exit_code == 0, r.output
    final = [c for c in codes if "#print axioms t\n" in c]
    # the type probe, then Lean's declaration listing (its nonce is this process's for the text)
    assert final and "\n#check @t\nrun_cmd do\n  let lfTag" in final[-1]
    originals = [c for c in codes if c.endswith("#check @t\n") and "#print axioms" not in c]
    assert len(originals) == 1  # the statement's type, elaborated once for the run


def test_prove_refuses_a_proof_whose_lean_type_differs(tmp_path, monkeypatch) -> None:
    # The assembled proof's text states the original, but Lean's print of it (faked here as what a
    # meaning change the text layer missed would give) is not the original's: not proved.
    from lemmaforge.lean.audit import _judge as judge

    real = judge.type_print
    monkeypatch.setattr(judge, "type_print",
                        lambda answers, name: (lambda t: t and t + " ⟦under instance⟧")(real(answers, name))
                        if answers and ("axioms", name) in answers else real(answers, name))
    r, _ = _prove(tmp_path, monkeypatch)
    assert r.exit_code == 1, r.output
    assert "audit rejected" in r.stderr and "proved\n" not in r.stderr


# --- real Lean (LEMMAFORGE_LEAN_PROJECT) ----------------------------------------------------------

from tests.conftest import LEAN_PROJECT, requires_lean  # noqa: E402 (the real-Lean switch)


@requires_lean
@pytest.mark.lean
@pytest.mark.parametrize("backend", ["repl", "lake"])
@pytest.mark.parametrize("kind", ["instance", "variable"])
async def test_real_lean_type_probe_sees_what_the_text_layer_missed(backend, kind, blind_text_layer) -> None:
    """On real Lean: the probe's options all exist, `#check @t` answers at its own line, the
    honest proof's print equals the original's, and a meaning change the text layer missed is
    never proved: Lean either fails the proof under the new meaning or prints another type."""
    assert LEAN_PROJECT
    verifier = make_verifier(VerifierConfig(backend=backend, project=Path(LEAN_PROJECT), workers=1, timeout=600))
    try:
        honest = await audit(HONEST, verifier, original=ORIGINAL, timeout=600)
        assert honest.ok, honest.reasons
        assert honest.lean_type and honest.lean_type.startswith("@t : ")
        report = await audit(cheat(kind), verifier, original=ORIGINAL, timeout=600)
        reasons = {r.reason for r in report.reasons}
        assert not report.ok and (Reason.LEAN_ERROR in reasons or Reason.STATEMENT_CHANGED in reasons), reasons
    finally:
        await verifier.close()

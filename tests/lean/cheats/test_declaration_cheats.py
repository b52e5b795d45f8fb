"""Cheats built from Lean's own commands that change what a name or a statement means, or add
something Lean trusts (issue 37, "What to build" 6): attributes on existing constants, local
notation, `open … renaming`, `export`, namespace tricks, `@[implemented_by]`, `@[extern]`,
`unsafe`, `partial`, `private` / `protected` with the target's name, `mutual`, `decreasing_by
sorry`. Each written from the Lean 4 reference (the command's documented form).

Every case runs through `lemmaforge check --json` and `lemmaforge prove` on the fake Kimina server,
which answers as favourably to the cheater as Lean could: everything without `sorry` elaborates,
and Lean's declaration listing reports what the text declares. None may be proved; the honest
proofs beside them (the same constructs used honestly) must be."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.conftest import LEAN_RELEASES
from tests.fakes.fake_kimina import FakeKimina, ScriptedLean

HEADER = "import Mathlib\n\nset_option maxHeartbeats 400000\n\nopen Real\n\n"
STATEMENT = "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b"
ORIGINAL = HEADER + STATEMENT + " := by\n  sorry\n"
PROOF = " := by\n  exact mul_pos h₀ h₁\n"

# id → (text added before the theorem, the theorem's own text): all must be refused.
CHEATS = {
    "attribute-simp-on-existing": ("attribute [simp] mul_comm\n\n", STATEMENT + PROOF),
    "attribute-instance-on-existing": ("attribute [instance] Real.instLE\n\n", STATEMENT + PROOF),
    "attribute-local-instance": ("attribute [local instance] Classical.propDecidable\n\n", STATEMENT + PROOF),
    "local-notation-redefines-lt": ('local notation:50 a " < " b => True\n\n', STATEMENT + " := by\n  trivial\n"),
    "local-infix-redefines-mul": ('local infixl:70 " * " => HAdd.hAdd\n\n', STATEMENT + " := by\n  exact add_pos h₀ h₁\n"),
    "open-renaming": ("open Real renaming pi → mul_pos\n\n", STATEMENT + PROOF),
    "export": ("export Real (pi)\n\n", STATEMENT + PROOF),
    "namespace-makes-another-t": ("namespace Real\n\n", STATEMENT + PROOF + "\nend Real\n"),
    "axiom-under-the-target-namespace": ("axiom t.cheat : False\n\n", STATEMENT + " := by\n  exact t.cheat.elim\n"),
    "implemented-by": ("@[implemented_by id] def cheatFn (b : Bool) : Bool := false\n\n", STATEMENT + PROOF),
    "extern": ('@[extern "lean_cheat"] opaque cheatOp : Bool\n\n', STATEMENT + PROOF),
    "unsafe-def": ("unsafe def loopForever : False := loopForever\n\n", STATEMENT + PROOF),
    "partial-def": ("partial def spin (n : ℕ) : ℕ := spin n\n\n", STATEMENT + PROOF),
    "private-theorem-with-the-target-name": ("private theorem t : False := by\n  sorry\n\n", STATEMENT + PROOF),
    # the statement proved, but under Lean's private name: not the problem's theorem (issue 46,
    # point 3: private names are compared alike everywhere, and the target must be public)
    "private-target": ("", "private " + STATEMENT + PROOF),
    "protected-axiom": ("protected axiom Real.cheat : False\n\n", STATEMENT + " := by\n  exact Real.cheat.elim\n"),
    "mutual-circular": (
        "mutual\ntheorem c1 : False := c2\ntheorem c2 : False := c1\nend\n\n",
        STATEMENT + " := by\n  exact c1.elim\n",
    ),
    "decreasing-by-sorry": (
        "theorem loop (n : ℕ) : False := loop (n + 1)\ntermination_by n\ndecreasing_by sorry\n\n",
        STATEMENT + " := by\n  exact (loop 0).elim\n",
    ),
    "skip-kernel-left-in-force": ("set_option debug.skipKernelTC true\n\n", STATEMENT + PROOF),
}

HONEST = {
    "plain": ("", STATEMENT + PROOF),
    "simp-attribute-on-own-lemma": ("@[simp] lemma my_pos (x : ℝ) (h : 0 < x) : 0 < x := h\n\n", STATEMENT + PROOF),
    "open-in-proof": ("", STATEMENT + " := by\n  open Real in\n  exact mul_pos h₀ h₁\n"),
    "protected-helper": ("protected lemma Real.my_mul_pos (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : 0 < a * b :=\n"
                         "  mul_pos ha hb\n\n", STATEMENT + " := by\n  exact Real.my_mul_pos a b h₀ h₁\n"),
}


def candidate(case: tuple[str, str]) -> str:
    added, theorem = case
    return HEADER + added + theorem


@pytest.fixture(scope="module", params=LEAN_RELEASES)
def kimina(request):
    """The fake Kimina answering as each Lean release the product supports (issue 46, point 8)."""
    with FakeKimina(responder=ScriptedLean(lean_version=request.param)) as server:
        yield server


def check(kimina: FakeKimina, tmp_path: Path, text: str) -> dict:
    proof, statement = tmp_path / "proof.lean", tmp_path / "statement.lean"
    proof.write_text(text, encoding="utf-8")
    statement.write_text(ORIGINAL, encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(proof), "--against", str(statement), "--verifier", "kimina",
                                 "--kimina-url", kimina.url, "--json"])
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_cheat_is_refused_through_check(name: str, kimina: FakeKimina, tmp_path: Path) -> None:
    out = check(kimina, tmp_path, candidate(CHEATS[name]))
    assert out["ok"] is False and out["status"] in ("rejected", "incomplete"), (name, out)
    assert out["reasons"], out


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_use_of_the_same_constructs_is_proved(name: str, kimina: FakeKimina, tmp_path: Path) -> None:
    out = check(kimina, tmp_path, candidate(HONEST[name]))
    assert out["ok"] is True, (name, out["reasons"])


# --- through `prove`: the model answers the cheat as its whole proof -----------------------------

PROVE_CHEATS = ["attribute-instance-on-existing", "local-notation-redefines-lt", "axiom-under-the-target-namespace",
                "skip-kernel-left-in-force", "decreasing-by-sorry", "implemented-by"]


# two cheats and the honest proof in the fast subset; every cheat is refused through `check` above
@pytest.mark.parametrize(("name", "proved"), [
    pytest.param(n, False, marks=[pytest.mark.slow] if i >= 2 else []) for i, n in enumerate(PROVE_CHEATS)
] + [("plain", True)])
def test_prove_counts_no_cheat(name: str, proved: bool, tmp_path: Path, monkeypatch) -> None:
    from tests.fakes.fake_openai import FakeOpenAIServer
    from tests.fakes.prove_runs import ENV, auto_tac, prove_args
    from tests.search.scenarios import lean_block

    auto_tac(monkeypatch)
    problem = tmp_path / "t.lean"
    problem.write_text(ORIGINAL, encoding="utf-8")
    added, theorem = CHEATS.get(name) or HONEST[name]
    kimina, llm = FakeKimina(responder=ScriptedLean()), FakeOpenAIServer(default=lean_block(added + theorem))
    with kimina, llm:
        r = CliRunner().invoke(app, prove_args(problem, kimina, llm, f"sqlite:///{tmp_path / 'r.db'}"), env=ENV)
    assert r.exit_code == (0 if proved else 1), (name, r.output)
    assert ("not proved" in r.output) is not proved, r.output


# --- with the text layer blind: Lean's declaration listing alone refuses them --------------------

# What Lean's listing shows for each (the fakes model it from Lean's documented behaviour: an
# attribute adds an instance entry, a notation/`partial`/`implemented_by` definition adds a
# constant, `unsafe` marks one, an option stays in force).
BLIND = {
    "attribute-instance-on-existing": ("lean_declared", "new instance entry"),
    "local-notation-redefines-lt": ("lean_declared", "Lean lists def"),
    "local-infix-redefines-mul": ("lean_declared", "Lean lists def"),
    "axiom-under-the-target-namespace": ("lean_declared", "axiom 't.cheat'"),
    "implemented-by": ("lean_declared", "def 'cheatFn'"),
    "extern": ("lean_declared", "opaque 'cheatOp'"),
    "unsafe-def": ("banned_modifier", "unsafe def 'loopForever'"),
    "partial-def": ("lean_declared", "opaque 'spin'"),  # Lean makes `partial def` an opaque (+ `_unsafe_rec`)
    "protected-axiom": ("lean_declared", "axiom 'Real.cheat'"),
    "skip-kernel-left-in-force": ("banned_option", "option 'debug.skipKernelTC' is true"),
}


@pytest.mark.parametrize("name", sorted(BLIND))
def test_the_listing_refuses_what_a_blind_text_layer_lets_through(name, kimina, tmp_path, monkeypatch) -> None:
    from lemmaforge.lean import gate
    from lemmaforge.lean.audit import _audit as audit_module

    monkeypatch.setattr(gate, "check_candidate", lambda text, context=None: [])  # what the audit reads
    monkeypatch.setattr("lemmaforge.lean.gate._verifier.check_candidate", lambda text, context=None: [])
    monkeypatch.setattr(audit_module, "context_changes", lambda original, candidate: [])
    out = check(kimina, tmp_path, candidate(CHEATS[name]))
    reason, said = BLIND[name]
    assert out["ok"] is False, out
    assert any(r["reason"] == reason and said in r["detail"] for r in out["reasons"]), out["reasons"]

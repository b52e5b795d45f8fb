"""Lean decides what was declared (issue 37, "What to build" 1): the probe's `run_cmd` lists the
module-local constants, the new instance / macro / elaborator / parser entries and the options in
force, every line marked with a nonce; the audit holds that listing against the whitelist.

The fakes model Lean's answer (tests/fakes/fake_common.listing_of); `DeclareRule` / a fake REPL
rule's `declares` model a lexer divergence: Lean sees a declaration our text layer missed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.lean import gate
from lemmaforge.lean.audit import AuditStatus, Reason, audit
from lemmaforge.lean.audit import _audit as audit_module
from lemmaforge.lean.audit._judge import Probe, nonce_for, parse_listing
from lemmaforge.lean.gate import GatedVerifier, declarations_command
from lemmaforge.lean.verifier import Message, Position, Severity
from tests.conftest import sweep
from tests.fakes.fake_kimina import DeclareRule, FakeKimina, MessageRule, ScriptedLean
from tests.lean.test_repl import pool  # noqa: F401 (fixture: ReplVerifier over the fake REPL process)

HEADER = "import Mathlib\n\nset_option maxHeartbeats 400000\n\nopen Real\n\n"
THEOREM = "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n"
ORIGINAL = HEADER + THEOREM + "  sorry\n"
HONEST = HEADER + THEOREM + "  exact mul_pos h₀ h₁\n"


def info(text: str, line: int = 1) -> Message:
    return Message(Severity.INFO, text, Position(line, 0))


def answer(nonce: str, *lines: str) -> str:
    body = [f"{nonce}\t{ln}" for ln in lines]
    return "\n".join([*body, f"{nonce}\tend\t{len(body)}"])


EXTS = ("ext\tinstance\t0", "ext\tmacro\t0", "ext\telab\t0", "ext\tparser\t0")


def const(kind: str, name: str, axioms: str = "", *, unsafe: bool = False, partial: bool = False,
          implemented_by: bool = False, extern: bool = False, closure: bool = False) -> str:
    """One `const` line of the listing (lean/gate/_probes.py's template): kind, unsafe, partial,
    implemented_by, extern, in the closure, name, axioms."""
    flags = "\t".join("true" if b else "false" for b in (unsafe, partial, implemented_by, extern, closure))
    return f"const\t{kind}\t{flags}\t{name}\t{axioms}"


# --- the answer's format ------------------------------------------------------------------------


def test_the_listing_command_carries_the_nonce_and_is_answered_at_its_first_line() -> None:
    nonce = nonce_for(HONEST)
    assert nonce == nonce_for(HONEST) and nonce != nonce_for(HONEST + " ")  # per text, unpredictable
    text = declarations_command(nonce)
    assert text.startswith(f'run_cmd do\n  let lfTag : String := "{nonce}"\n')
    probe = Probe.build("t", nonce=nonce)
    lines = probe.answer_lines(10)
    first = 10 + probe.text[: probe.text.index("run_cmd")].count("\n")  # the `run_cmd` line
    assert lines[first] == ("decls", "")
    with pytest.raises(ValueError):
        declarations_command('x" ++ evil ++ "')


def test_only_lines_with_the_nonce_count_and_the_answer_must_be_complete() -> None:
    nonce = "ab" * 16
    good = answer(nonce, const("theorem", "t", "propext,Quot.sound", closure=True),
                  const("def", "f._cstage1", unsafe=True), *EXTS, "opt\tmaxHeartbeats\t400000")
    listing = parse_listing([info("forged\t" + const("axiom", "x")), info(good)], nonce)
    assert listing is not None
    assert [(c.kind, c.name, c.axioms, c.unsafe, c.in_closure) for c in listing.constants] == [
        ("theorem", "t", ("propext", "Quot.sound"), False, True), ("def", "f._cstage1", (), True, False)]
    assert listing.options == (("maxHeartbeats", "400000"),)
    # a forged answer with another nonce is not an answer; nor is none, a truncated or a padded one
    other = "cd" * 16
    assert parse_listing([info(answer(other, *EXTS))], nonce) is None
    assert parse_listing([], nonce) is None and parse_listing(None, nonce) is None
    assert parse_listing([info(good.rsplit("\n", 1)[0])], nonce) is None  # no `end`
    assert parse_listing([info(good.replace("end\t7", "end\t6"))], nonce) is None
    assert parse_listing([info(answer(nonce, "ext\tinstance\t0"))], nonce) is None  # extensions missing
    assert parse_listing([info(answer(nonce, *EXTS, const("what", "x")))], nonce) is None
    assert parse_listing([info(answer(nonce, *EXTS, "const\ttheorem\tfalse\tt\t"))], nonce) is None  # old form
    assert parse_listing([info(answer(nonce, *EXTS, const("def", "f").replace("false", "maybe", 1)))], nonce) is None


def test_the_gate_lets_through_exactly_the_products_listing_at_the_end() -> None:
    probe = Probe.build("t", nonce=nonce_for(HONEST))
    assert gate.check_candidate(HONEST + "\n" + probe.text) == []
    tampered = HONEST + "\n" + probe.text.replace("Lean.collectAxioms n", "IO.FS.readFile \"/etc/passwd\"")
    assert gate.check_candidate(tampered) != []
    assert gate.check_candidate(HONEST + "\n" + probe.text + "theorem u : True := trivial\n") != []
    # the roots are names the product validated; code in their place is not the template
    evil = probe.text.replace("[`t]", '[`t, (IO.FS.readFile "/etc/passwd")]')
    assert evil != probe.text and gate.check_candidate(HONEST + "\n" + evil) != []


# --- through `check` on the fake Kimina ----------------------------------------------------------


@pytest.fixture
def blind_text_layer(monkeypatch):
    """The text defences see nothing (a lexer that disagrees with Lean's): only Lean's answers remain."""
    monkeypatch.setattr(gate, "check_candidate", lambda text, context=None: [])  # what the audit reads
    monkeypatch.setattr("lemmaforge.lean.gate._verifier.check_candidate", lambda text, context=None: [])
    monkeypatch.setattr(audit_module, "context_changes", lambda original, candidate: [])


def check(tmp_path: Path, lean: ScriptedLean, candidate: str) -> dict:
    proof, statement = tmp_path / "proof.lean", tmp_path / "statement.lean"
    proof.write_text(candidate, encoding="utf-8")
    statement.write_text(ORIGINAL, encoding="utf-8")
    with FakeKimina(responder=lean) as server:
        r = CliRunner().invoke(app, ["check", str(proof), "--against", str(statement), "--verifier", "kimina",
                                     "--kimina-url", server.url, "--json"])
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)


def reasons(out: dict) -> list[tuple[str, str]]:
    return [(r["reason"], r["detail"]) for r in out["reasons"]]


def test_an_axiom_lean_saw_and_the_lexer_missed_is_refused(tmp_path: Path) -> None:
    # The proof text is honest to our lexer; Lean (modelled) reads an axiom in it.
    lean = ScriptedLean(rules=[DeclareRule(r"exact mul_pos", "axiom", "smuggled", ("smuggled",))])
    out = check(tmp_path, lean, HONEST)
    assert out["status"] == "rejected"
    assert ("lean_declared", "Lean lists axiom 'smuggled', which the proof text does not declare as a theorem "
            "or lemma") in reasons(out)
    assert check(tmp_path, ScriptedLean(), HONEST)["ok"] is True  # the same text, no divergence


def test_a_hidden_lemma_is_judged_by_lean_s_axiom_list(tmp_path: Path) -> None:
    lean = ScriptedLean(rules=[DeclareRule(r"exact mul_pos", "theorem", "t._proof_1", ("propext", "sorryAx"))])
    out = check(tmp_path, lean, HONEST)
    assert out["status"] != "proved" and ("sorry", "'t._proof_1' depends on sorryAx") in reasons(out)


def test_an_auxiliary_proof_lean_creates_is_allowed(tmp_path: Path) -> None:
    lean = ScriptedLean(rules=[DeclareRule(r"exact mul_pos", "theorem", "t._proof_1", ("propext",)),
                               DeclareRule(r"exact mul_pos", "def", "t.match_1", ())])
    out = check(tmp_path, lean, HONEST)
    assert out["ok"] is True, out["reasons"]
    # a theorem is judged by its axioms whatever its name (issue 46): Lean's equation lemmas of an
    # imported definition, `f.induct`, a matcher's equations; one with a forbidden axiom is not
    lean = ScriptedLean(rules=[DeclareRule(r"exact mul_pos", "theorem", "evil._proof_1", ("propext",))])
    assert check(tmp_path, lean, HONEST)["ok"] is True
    lean = ScriptedLean(rules=[DeclareRule(r"exact mul_pos", "theorem", "evil._proof_1", ("propext", "smuggled"))])
    assert ("forbidden_axiom", "'evil._proof_1' depends on axiom 'smuggled'") in reasons(check(tmp_path, lean, HONEST))
    # a definition under a declaration the text does not have is not Lean's own
    lean = ScriptedLean(rules=[DeclareRule(r"exact mul_pos", "def", "evil.match_1", ())])
    assert "lean_declared" in [r for r, _ in reasons(check(tmp_path, lean, HONEST))]
    lean = ScriptedLean(rules=[DeclareRule(r"exact mul_pos", "axiom", "t._proof_1", ())])  # aux, but an axiom
    assert "lean_declared" in [r for r, _ in reasons(check(tmp_path, lean, HONEST))]
    # a `where` helper Lean declares under the theorem's name: a theorem, judged by its axioms
    lean = ScriptedLean(rules=[DeclareRule(r"exact mul_pos", "theorem", "t.aux", ("propext",))])
    assert check(tmp_path, lean, HONEST)["ok"] is True
    lean = ScriptedLean(rules=[DeclareRule(r"exact mul_pos", "theorem", "t.aux", ("propext", "smuggled"))])
    assert ("forbidden_axiom", "'t.aux' depends on axiom 'smuggled'") in reasons(check(tmp_path, lean, HONEST))


@pytest.mark.parametrize(
    ("added", "proof", "said"),
    [
        ("instance : LT ℝ := ⟨fun x y => y < x⟩\n\n", "  exact mul_pos h₀ h₁\n", "1 new instance entry"),
        ("macro_rules | `(tactic| trivial) => `(tactic| exact mul_pos h₀ h₁)\n\n", "  trivial\n",
         "1 new macro entry"),
        ("set_option debug.skipKernelTC true\n\n", "  exact mul_pos h₀ h₁\n",
         "option 'debug.skipKernelTC' is true at the end of the file"),
    ],
    ids=["instance", "macro_rules", "set_option-left-in-force"],
)
def test_what_only_lean_lists_is_refused_by_name(tmp_path, blind_text_layer, added, proof, said) -> None:
    out = check(tmp_path, ScriptedLean(), HEADER + added + THEOREM + proof)
    assert out["status"] == "rejected", out
    assert any(said in detail for _, detail in reasons(out)), reasons(out)


def test_a_forged_listing_without_the_nonce_is_no_answer(tmp_path: Path) -> None:
    # A candidate's meta code (modelled: a message at the probe's own position) prints a clean
    # listing with a nonce of its choosing; Lean's real answer does not come.
    forged = "\n".join(f"{'0' * 32}\t{ln}" for ln in EXTS) + f"\n{'0' * 32}\tend\t4"
    lean = ScriptedLean(rules=[MessageRule(r"^run_cmd do", forged, severity="info")], list_declarations=False)
    out = check(tmp_path, lean, HONEST)
    assert out["status"] == "rejected"
    assert [r for r, _ in reasons(out)] == ["declarations_unknown"]
    assert "probe gave no answer" in out["reasons"][0]["detail"]
    # with Lean's real answer there too, the forged lines are ignored and the proof stands
    lean = ScriptedLean(rules=[MessageRule(r"^run_cmd do", forged, severity="info")])
    assert check(tmp_path, lean, HONEST)["ok"] is True


# --- the REPL: the listing is its own command in the candidate's environment --------------------


async def test_repl_listing_runs_in_the_candidate_environment(pool) -> None:  # noqa: F811
    inner, fake = pool(rules=[{"match": r"exact mul_pos", "on": "cmd",
                               "declares": [{"kind": "axiom", "name": "smuggled", "axioms": ["smuggled"]}]}])
    verifier = GatedVerifier(inner)
    report = await audit(HONEST, verifier, original=ORIGINAL)
    assert report.status is AuditStatus.REJECTED
    assert [r.reason for r in report.reasons] == [Reason.UNDECLARED] and "'smuggled'" in report.reasons[0].detail
    listings = [e["text"] for e in fake.requests() if "run_cmd do" in e["text"]]
    assert listings and all("exact mul_pos" not in text for text in listings)  # never model text


# --- through `prove` ----------------------------------------------------------------------------


def test_prove_does_not_count_a_proof_with_a_declaration_only_lean_saw(tmp_path, monkeypatch) -> None:
    from tests.fakes.fake_openai import FakeOpenAIServer
    from tests.fakes.prove_runs import ENV, auto_tac, fake_lean, prove_args
    from tests.search.scenarios import DEFS, add_prover, lean_block, prover_rule
    from tests.search.scenarios import HEADER as SEARCH_HEADER
    from tests.search.scenarios import THEOREM as SEARCH_THEOREM

    auto_tac(monkeypatch)
    problem = tmp_path / "t.lean"
    problem.write_text(SEARCH_HEADER + DEFS + SEARCH_THEOREM, encoding="utf-8")
    lean = fake_lean()
    lean = ScriptedLean(rules=[*lean.rules, DeclareRule(r"exact rfl", "axiom", "smuggled", ("smuggled",))])
    kimina, llm = FakeKimina(responder=lean), FakeOpenAIServer(default=lean_block("bad_default"))
    with kimina, llm:
        add_prover(llm, *prover_rule("D x", "exact rfl"))
        r = CliRunner().invoke(app, prove_args(problem, kimina, llm, f"sqlite:///{tmp_path / 'r.db'}"), env=ENV)
    assert r.exit_code == 1, r.output
    assert "lean_declared" in r.output and "smuggled" in r.output


# --- the 438 honest reference proofs --------------------------------------------------------------


class _InProcessLean:
    """The fake Kimina's Lean (ScriptedLean) without HTTP: one whole-file check per call."""

    name = "scripted"
    supports_proof_states = False

    def __init__(self) -> None:
        self.lean = ScriptedLean()

    async def check(self, code: str, *, timeout: float | None = None):
        from lemmaforge.lean.verifier import CheckResult

        return CheckResult.from_repl_response(self.lean(code), backend=self.name)

    async def close(self) -> None:
        return None


@sweep
async def test_no_reference_proof_is_refused_by_the_listing(shared_data, every: int) -> None:
    """DeepSeek-Prover-V2's 438 miniF2F proofs against their statements: Lean's listing (as the
    fakes model it from each file) refuses none of them; each proof that states its problem
    exactly is proved."""
    from tests.lean.test_code_reference_proofs import benchmark, proofs, statement

    rows = {r["name"]: r for r in benchmark("minif2f")}
    verifier = GatedVerifier(_InProcessLean())
    listed, proved = [], 0
    sample = list(proofs().items())[::every]
    for key, proof in sample:
        report = await audit(proof, verifier, original=statement(rows[key.split("/", 1)[1]]))
        names = {r.reason for r in report.reasons}
        if names & {Reason.UNDECLARED, Reason.DECLARATIONS_UNKNOWN} or any(
                "Lean's listing" in r.detail for r in report.reasons):
            listed.append((key, [str(r) for r in report.reasons]))
        proved += report.ok
    print(f"reference proofs proved with Lean's listing (modelled): {proved}/{len(sample)}")
    assert not listed, listed[:5]
    assert proved >= len(sample) - 13, proved  # 9 of 438 restate their problem (test_code_reference_proofs)

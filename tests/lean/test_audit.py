"""The soundness audit rejects each cheat with its reason, through a real Kimina-protocol server
(the fake one, with Lean's exact `#print axioms` wording) and the real KiminaVerifier."""

from __future__ import annotations

import json

import pytest

from lemmaforge.config import AuditConfig
from lemmaforge.lean.audit import AuditStatus, Reason, audit, banned_constructs, sorry_tokens
from lemmaforge.lean.audit._audit import context_changes
from lemmaforge.lean.kimina import KiminaVerifier, RetryPolicy
from tests.conftest import BENCHMARKS, REPO_ROOT
from tests.fakes.fake_kimina import AxiomRule, FakeKimina, MessageRule, ScriptedLean, SnippetFailure

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"
STATEMENT = "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  sorry\n"
ORIGINAL = HEADER + STATEMENT
GOOD = HEADER + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  exact mul_pos h₀ h₁\n"


@pytest.fixture()
def server():
    lean = ScriptedLean(
        rules=[
            MessageRule(r"exact bogus", "unknown identifier 'bogus'"),
            AxiomRule(r"apply\?", "sorryAx"),  # Lean 4.9's `apply?` closed goals via sorry silently
        ]
    )
    with FakeKimina(responder=lean, snippet_failures=[SnippetFailure(pattern="slow_tactic", error="timeout")]) as s:
        yield s


@pytest.fixture()
async def kimina(server):
    v = KiminaVerifier(server.url, retry=RetryPolicy(attempts=2, initial_wait=0.01, max_wait=0.02),
                       position_mode="all")
    yield v
    await v.close()


def reasons(report) -> set[Reason]:
    return {r.reason for r in report.reasons}


async def test_genuine_proof_is_proved(kimina):
    report = await audit(GOOD, kimina, original=ORIGINAL)
    assert report.status is AuditStatus.PROVED, report.reasons
    assert report.ok
    assert report.axioms == ["propext", "Classical.choice", "Quot.sound"]
    assert report.theorem == "t"


async def test_reference_proof_against_its_minif2f_statement(kimina):
    proof = (REPO_ROOT / "examples" / "mathd_algebra_478.lean").read_text(encoding="utf-8")
    original = (REPO_ROOT / "examples" / "mathd_algebra_478.statement.lean").read_text(encoding="utf-8")
    report = await audit(proof, kimina, original=original)
    assert report.status is AuditStatus.PROVED, report.reasons


# The gate names each refusal precisely (runs_code, banned_option, …) and refused text never reaches
# Lean, so a refused cheat carries no Lean-side reason (forbidden axiom, sorry) any more.
CHEATS = {
    "new axiom": (
        HEADER + "axiom cheat : ∀ x : ℝ, 0 < x\n\ntheorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  exact cheat _\n",
        {Reason.BANNED_COMMAND},
        AuditStatus.REJECTED,
    ),
    "implemented_by": (
        HEADER + "def f : ℕ := 0\n@[implemented_by f] def g : ℕ := 1\n\n" + GOOD[len(HEADER):],
        {Reason.RUNS_CODE, Reason.CONTEXT_CHANGED},
        AuditStatus.REJECTED,
    ),
    "extern": (
        HEADER + '@[extern "c_fn"] def g : ℕ := 1\n\n' + GOOD[len(HEADER):],
        {Reason.RUNS_CODE},
        AuditStatus.REJECTED,
    ),
    "unsafe": (
        HEADER + "unsafe def g : ℕ := 1\n\n" + GOOD[len(HEADER):],
        {Reason.RUNS_CODE},
        AuditStatus.REJECTED,
    ),
    "skipKernelTC": (
        HEADER + "set_option debug.skipKernelTC true\n\n" + GOOD[len(HEADER):],
        {Reason.BANNED_OPTION},
        AuditStatus.REJECTED,
    ),
    "eval": (HEADER + '#eval IO.println "hi"\n\n' + GOOD[len(HEADER):], {Reason.RUNS_CODE}, AuditStatus.REJECTED),
    "run_cmd": (HEADER + "run_cmd pure ()\n\n" + GOOD[len(HEADER):], {Reason.RUNS_CODE}, AuditStatus.REJECTED),
    "tactic macro": (
        HEADER + 'macro "nlinarith" : tactic => `(tactic| sorry)\n\n'
        + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  nlinarith\n",
        {Reason.RUNS_CODE},
        AuditStatus.REJECTED,
    ),
    "notation": (
        HEADER + 'notation "ℝ" => ℕ\n\n' + GOOD[len(HEADER):], {Reason.BANNED_COMMAND}, AuditStatus.REJECTED,
    ),
    "changed hypothesis": (
        HEADER + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) (h₂ : 0 < a * b) : 0 < a * b := by\n  exact h₂\n",
        {Reason.STATEMENT_CHANGED},
        AuditStatus.REJECTED,
    ),
    "changed goal": (
        HEADER + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 ≤ a * b := by\n  positivity\n",
        {Reason.STATEMENT_CHANGED},
        AuditStatus.REJECTED,
    ),
    "renamed theorem": (
        HEADER + "theorem t' (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  exact mul_pos h₀ h₁\n",
        {Reason.STATEMENT_CHANGED},
        AuditStatus.REJECTED,
    ),
    "instance before the theorem": (
        HEADER + "instance : LT ℝ := ⟨fun _ _ => True⟩\n\n" + GOOD[len(HEADER):],
        {Reason.CONTEXT_CHANGED},
        AuditStatus.REJECTED,
    ),
    "sorry left": (ORIGINAL, {Reason.SORRY}, AuditStatus.INCOMPLETE),
    "admit": (
        HEADER + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  admit\n",
        {Reason.SORRY},
        AuditStatus.INCOMPLETE,
    ),
    "silent sorryAx (apply? bug)": (
        HEADER + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  apply?\n",
        {Reason.SORRY},
        AuditStatus.INCOMPLETE,
    ),
    "native_decide": (
        HEADER + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  native_decide\n",
        {Reason.FORBIDDEN_AXIOM},
        AuditStatus.REJECTED,
    ),
    "lean error": (
        HEADER + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  exact bogus\n",
        {Reason.LEAN_ERROR},
        AuditStatus.ERROR,
    ),
    "timeout": (
        HEADER + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  slow_tactic\n",
        {Reason.TIMEOUT},
        AuditStatus.TIMEOUT,
    ),
}


@pytest.mark.parametrize("name", sorted(CHEATS))
async def test_each_cheat_is_caught_with_its_reason(kimina, name):
    candidate, expected_reasons, expected_status = CHEATS[name]
    report = await audit(candidate, kimina, original=ORIGINAL)
    assert report.status is expected_status, report.reasons
    assert expected_reasons <= reasons(report), report.reasons
    assert not report.ok


async def test_native_decide_allowed_by_config(kimina):
    candidate = CHEATS["native_decide"][0]
    report = await audit(candidate, kimina, original=ORIGINAL, config=AuditConfig(allow_native_decide=True))
    assert report.ok, report.reasons
    assert "Lean.ofReduceBool" in (report.axioms or [])


async def test_lemmas_added_before_the_theorem_are_allowed(kimina):
    lemma = "theorem t_sub_1 (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  exact mul_pos h₀ h₁\n\n"
    candidate = HEADER + lemma + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  apply t_sub_1 <;> assumption\n"
    report = await audit(candidate, kimina, original=ORIGINAL)
    assert report.ok, report.reasons


async def test_a_lemma_with_sorry_taints_the_theorem(kimina):
    lemma = "theorem t_sub_1 (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  sorry\n\n"
    candidate = HEADER + lemma + "theorem t (a b : ℝ) (h₀ : 0 < a) (h₁ : 0 < b) : 0 < a * b := by\n  apply t_sub_1 <;> assumption\n"
    report = await audit(candidate, kimina, original=ORIGINAL)
    assert report.status is AuditStatus.INCOMPLETE
    assert "sorryAx" in (report.axioms or [])


async def test_theorem_in_namespace_is_probed_by_full_name(kimina):
    candidate = HEADER + "namespace Foo\n\n" + GOOD[len(HEADER):] + "\nend Foo\n"
    original = HEADER + "namespace Foo\n\n" + STATEMENT + "\nend Foo\n"
    report = await audit(candidate, kimina, original=original)
    assert report.theorem == "Foo.t"
    assert report.ok, report.reasons


async def test_a_guillemet_escaped_name_is_the_same_theorem(kimina):
    # `theorem «t»` declares `t`: an honest proof written so is not a changed statement, and the
    # probe asks about `t`.
    report = await audit(GOOD.replace("theorem t ", "theorem «t» "), kimina, original=ORIGINAL)
    assert report.ok, report.reasons
    assert report.theorem == "t"


def _putnam_with_abbrev():
    for line in (BENCHMARKS / "putnambench.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["has_solution_abbrev"] and row["formal_statement"].count("sorry") == 2:
            return row
    raise AssertionError("no PutnamBench problem with an answer abbrev")


def test_putnam_answer_slot_may_be_filled_but_not_retyped():
    row = _putnam_with_abbrev()
    original = row["header"] + row["formal_statement"]
    first = original.index("sorry")
    filled = original[:first] + "(0 : ℕ) -- answer" + original[first + len("sorry"):]
    assert context_changes(original, filled) == []
    abbrev_line = next(ln for ln in original.splitlines() if "abbrev" in ln and "solution" in ln)
    retyped = original.replace(abbrev_line, abbrev_line.split(":", 1)[0] + ": Prop := sorry", 1)
    assert retyped != original
    assert context_changes(original, retyped)


def test_banned_constructs_already_in_the_original_are_not_flagged():
    rows = [json.loads(line) for line in (BENCHMARKS / "proverbench.jsonl").read_text(encoding="utf-8").splitlines()]
    with_axiom = [r for r in rows if "axiom " in r["header"]]
    assert with_axiom, "ProverBench has problems whose header declares axioms"
    for row in with_axiom:
        original = row["header"] + row["formal_statement"]
        assert banned_constructs(original, original) == []
        assert banned_constructs(original, None), "the same text without an original is flagged"


def test_sorry_in_comments_and_strings_is_not_a_hole():
    code = GOOD + '\n-- sorry\n/- admit /- nested sorry -/ -/\ndef s : String := "sorry"\n'
    assert sorry_tokens(code) == []
    assert [t for t, _ in sorry_tokens(ORIGINAL)] == ["sorry"]


async def test_the_same_file_audited_twice_through_a_deduplicating_door_is_judged_alike(kimina) -> None:
    """The search's budgeted door hands one result to every check of the same text (the root's
    assembly checks are audits, and two alternatives can assemble the same file): the probe's
    messages are taken out of a copy, so the second audit still finds the axiom list."""
    from lemmaforge.config import BudgetConfig
    from lemmaforge.search.budget import Budget, BudgetedVerifier

    door = BudgetedVerifier(kimina, Budget(BudgetConfig()), timeout=30)
    code = HEADER + "theorem t (x : ℕ) : x + 0 = x := by\n  simp\n"
    first = await audit(code, door, original=HEADER + "theorem t (x : ℕ) : x + 0 = x := by\n  sorry\n")
    second = await audit(code, door, original=HEADER + "theorem t (x : ℕ) : x + 0 = x := by\n  sorry\n")
    assert first.status is AuditStatus.PROVED and second.status is AuditStatus.PROVED
    assert first.axioms == second.axioms and door.budget.stats.dedup_hits == 1


class _Recording:
    """A verifier door that records every text sent through `check`."""

    def __init__(self, inner) -> None:
        self.inner, self.sent = inner, []
        self.name = "recording"
        self.supports_proof_states = False

    async def check(self, code, *, timeout=None):
        self.sent.append(code)
        return await self.inner.check(code, timeout=timeout)


# The audit's type probe for `t`, as the product must send it (lean/audit/_judge.py): `pp.all` and the
# sub-options a candidate could otherwise override, then `#check @t`.
TYPE_PROBE_T = (
    "set_option pp.all true in\nset_option pp.fullNames true in\nset_option pp.explicit true in\n"
    "set_option pp.universes true in\nset_option pp.notation false in\nset_option pp.coercions false in\n"
    "set_option pp.funBinderTypes true in\nset_option pp.proofs true in\n#check @t\n"
)


async def test_the_text_to_check_ahead_is_exactly_what_the_audit_sends(kimina) -> None:
    from lemmaforge.lean.audit import text_to_check

    door = _Recording(kimina)
    expected = text_to_check(GOOD, door, original=ORIGINAL)
    report = await audit(GOOD, door, original=ORIGINAL)
    assert report.status is AuditStatus.PROVED
    # The candidate with the probe (axioms, the pp.all type, then Lean's declaration listing marked
    # with this candidate's nonce), then once the original with the type probe alone: Lean's print
    # of the original statement in a clean environment.
    from lemmaforge.lean.audit._judge import nonce_for
    from lemmaforge.lean.gate import declarations_command

    listing = declarations_command(nonce_for(GOOD), ("t",))
    assert door.sent[0] == expected
    assert expected.endswith(f"\n\nset_option pp.fullNames true in\n#print axioms t\n{TYPE_PROBE_T}{listing}\n")
    assert door.sent[1:] == [ORIGINAL.rstrip() + "\n\n" + TYPE_PROBE_T]


@pytest.mark.parametrize("name", [n for n, (_, reasons, _) in CHEATS.items()])
async def test_nothing_the_audit_refuses_before_lean_is_offered_to_check_ahead(kimina, name) -> None:
    from lemmaforge.lean.audit import text_to_check
    from lemmaforge.lean.audit._audit import _STATIC_REJECTIONS

    candidate, reasons, _ = CHEATS[name]
    door = _Recording(kimina)
    report = await audit(candidate, door, original=ORIGINAL)
    ahead = text_to_check(candidate, door, original=ORIGINAL)
    if {r.reason for r in report.reasons} & _STATIC_REJECTIONS:
        assert door.sent == [] and ahead is None
    else:  # refused by what Lean said: the same text, sent ahead or not
        assert door.sent[:1] == [ahead]


def test_a_verifier_that_probes_its_own_way_gets_nothing_to_check_ahead() -> None:
    from lemmaforge.lean.audit import text_to_check
    from lemmaforge.lean.gate import GatedVerifier
    from tests.fakes.fake_common import CheckOnlyVerifier

    class OwnProbe(CheckOnlyVerifier):  # a `ProbingVerifier` (the REPL's way)
        async def check_with_probe(self, code, probe, *, timeout=None): ...

    assert text_to_check(GOOD, OwnProbe(), original=ORIGINAL) is None
    assert text_to_check(GOOD, GatedVerifier(CheckOnlyVerifier()), original=ORIGINAL) is None  # `check_probed`
    plain = text_to_check(GOOD, CheckOnlyVerifier(), original=ORIGINAL)  # only checks: the audit's own text
    assert plain is not None and plain.startswith(GOOD.rstrip()) and "#print axioms" in plain

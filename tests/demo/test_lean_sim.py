"""The demo's simulated Lean (lemmaforge/demo/lean_sim.py, lean_answers.py): holes and goals as the
REPL reports them, the world's verdicts (deterministic, by level), and answers to the product's own
probe texts, built by the product's public builders (lean/gate/_probes.py, lean/audit/_judge.py `Probe`) and
read back by the product's readers."""

from __future__ import annotations

import pytest

from lemmaforge.demo import lean_sim
from lemmaforge.demo.lean_sim import SimulatedLean, binders_of, goal_key, goal_text, level
from lemmaforge.lean.audit import _judge as judge
from lemmaforge.lean.gate import declarations_command
from lemmaforge.lean.verifier import Message

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"
SIG = "(b h v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) (h₁ : v = 1 / 3 * (b * h))\n    (h₂ : b = 30) (h₃ : h = 13 / 2)"
THEOREM = f"theorem mathd_algebra_478 {SIG} : v = 65 := by\n"
lean = SimulatedLean()


def _errors(response: dict) -> list[str]:
    return [m["data"] for m in response["messages"] if m["severity"] == "error"]


def _messages(response: dict) -> list[Message]:
    return [Message.from_json(m) for m in response["messages"]]


def test_a_sorry_is_a_hole_with_its_goal_and_the_warning_at_the_name():
    code = HEADER + THEOREM + "  sorry\n"
    out = lean.check(code)
    [hole] = out["sorries"]
    assert hole["pos"] == {"line": 10, "column": 2}  # whole-file positions, as a current Kimina server
    assert hole["goal"].splitlines() == ["b h v : ℝ", "h₀ : 0 < b ∧ 0 < h ∧ 0 < v", "h₁ : v = 1 / 3 * (b * h)",
                                         "h₂ : b = 30", "h₃ : h = 13 / 2", "⊢ v = 65"]
    [warning] = out["messages"]
    assert warning["severity"] == "warning" and warning["data"] == "declaration uses 'sorry'"
    assert warning["pos"] == {"line": 8, "column": 8} and not _errors(out)


def test_a_sketch_s_steps_are_holes_whose_goals_include_the_steps_before_them():
    code = HEADER + THEOREM + "  have step_1 : b * h = 195 := by sorry\n  have step_2 : v = 65 := by sorry\n  exact step_2\n"
    out = lean.check(code)
    assert [s["goal"].splitlines()[-1] for s in out["sorries"]] == ["⊢ b * h = 195", "⊢ v = 65"]
    assert "step_1 : b * h = 195" in out["sorries"][1]["goal"]
    assert not _errors(out)  # `exact step_2` closes the goal: a name in the context


def test_unknown_local_names_are_errors_and_declared_theorems_close_goals():
    out = lean.check(HEADER + THEOREM + "  linarith [h₁, h_aux]\n")
    assert _errors(out) == ["unknown identifier 'h_aux'"]
    lemma = "theorem helper (v : ℝ) (h : v = 65) : v = 65 := by\n  exact h\n\n"
    applied = lean.check(HEADER + lemma + THEOREM + "  apply helper <;> assumption\n")
    assert not _errors(applied)


def test_levels_decide_and_the_same_text_always_gets_the_same_answer():
    context, conclusion = binders_of(SIG), "v = 65"
    grade = level(context, conclusion)
    assert grade in (lean_sim.EASY, lean_sim.MEDIUM, lean_sim.HARD)
    assert goal_key(binders_of("(x y z : ℝ)"), "x = y") == "ℝ ; ℝ ; ℝ ⊢ x = y"  # names left out
    assert goal_text(binders_of("(x y : ℝ) (h : x = y)"), "y = x") == "x y : ℝ\nh : x = y\n⊢ y = x"
    code = HEADER + THEOREM + "  nlinarith [h₀, h₁, sq_nonneg (b - 1)]\n"
    assert lean.check(code) == lean.check(code)
    # the hard ones: no tactic closes them, the automation portfolio included
    verdicts = {lean_sim._closes(g, "k", t) for g in (lean_sim.HARD,) for t in ("norm_num", "nlinarith [h₀]")}
    assert verdicts == {False}
    assert lean_sim._closes(lean_sim.EASY, "k", "first\n  | (omega; done)\n  | (norm_num; done)")
    assert not lean_sim._closes(lean_sim.MEDIUM, "k", "norm_num")  # a bare tactic never closes a medium goal


def test_the_world_spreads_goals_over_the_three_levels():
    grades = [level([("x", "ℝ"), ("h", f"x = {i}")], f"x ^ 2 = {i * i}") for i in range(400)]
    shares = {g: grades.count(g) / len(grades) for g in (lean_sim.EASY, lean_sim.MEDIUM, lean_sim.HARD)}
    assert all(0.1 < share < 0.6 for share in shares.values()), shares


def test_axioms_and_type_probes_answer_at_their_command_as_lean_does():
    probe = judge.Probe.build("mathd_algebra_478")  # the product's own probe text
    proved = HEADER + THEOREM + "  exact h₁ ▸ by norm_num [h₂, h₃]\n"
    code = judge.with_probe(proved, probe)
    out = lean.check(code)
    answers = probe.split(_messages(out), proved.rstrip().count("\n") + 3)  # a blank line, then the probe
    [axioms] = answers[("axioms", "mathd_algebra_478")]
    assert axioms.data.startswith("'mathd_algebra_478' depends on axioms: [propext")
    [printed] = answers[("type", "mathd_algebra_478")]
    assert printed.data.startswith("@mathd_algebra_478 : (b h v : ℝ)") and printed.data.endswith(": v = 65")
    # a prefixed `#print axioms` (set_option … in) is answered at its `#print` line too
    prefixed = lean.check(proved + "\nset_option pp.fullNames true in\n#print axioms mathd_algebra_478\n")
    at = [m for m in prefixed["messages"] if m["severity"] == "info"]
    assert at and at[-1]["pos"]["line"] == proved.count("\n") + 3


def test_the_declaration_listing_answers_with_the_nonce_it_was_sent():
    nonce = "0123456789abcdef0123456789abcdef"
    lemma = "theorem helper (x : ℝ) (h : x = 1) : x = 1 := by\n  exact h\n\n"
    code = HEADER + lemma + THEOREM + "  sorry\n\n" + declarations_command(nonce) + "\n"
    out = lean.check(code)
    listing = judge.parse_listing([m for m in _messages(out) if m.severity.value == "info"], nonce)
    assert listing is not None
    consts = {c.name: c for c in listing.constants}
    assert consts["helper"].kind == "theorem" and "sorryAx" not in consts["helper"].axioms
    assert "sorryAx" in consts["mathd_algebra_478"].axioms  # its proof is a hole
    assert listing.options == (("maxHeartbeats", "400000"),)
    assert listing.extensions == {"instance": 0, "macro": 0, "elab": 0, "parser": 0}
    assert judge.parse_listing(_messages(out), "f" * 32) is None  # another nonce: not its answer


def test_the_version_probe_and_the_position_probe():
    [version] = lean.check("#eval Lean.versionString")["messages"]
    assert version["severity"] == "info" and version["data"] == f'"{lean_sim.SIMULATED_LEAN_VERSION}"'
    out = lean.check(HEADER + "example : True := sorry")  # lean/kimina/_replies.py's position probe
    assert out["sorries"][0]["pos"]["line"] == 8 and out["messages"][0]["pos"]["line"] == 8


@pytest.mark.parametrize("text", ["-- sorry in a comment\n", "/- a sorry\n  block -/\n"])
def test_comments_are_not_code(text):
    out = lean.check(HEADER + text + THEOREM + "  exact h₁ ▸ rfl\n")
    assert not out["sorries"]

"""lemmaforge.lean.lemmas: text lemmas (type a / type b) on the real reference proofs, and the
extract_goal path against a scripted verifier defined here."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from lemmaforge.lean import lemmas as L
from lemmaforge.lean import syntax as C
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Goal,
    Message,
    Position,
    ProofStatesUnsupported,
    Severity,
    TacticResult,
)
from tests.conftest import reference_proof_files


@cache
def proofs() -> dict[str, str]:
    return {f"{p.parent.name}/{p.stem}": p.read_text() for p in reference_proof_files()}


def norm(text: str) -> str:
    return C.normalize_code(text)


# --- text lemmas ------------------------------------------------------------------------------


class TestTextLemmas:
    PROOF = "test/aime_1983_p1"

    def test_type_a_and_type_b_on_a_real_proof(self) -> None:
        code = proofs()[self.PROOF]
        theorem = C.last_theorem(code)
        steps = C.have_steps(code)
        assert theorem is not None and len(steps) > 4
        for k in (0, 3, len(steps) - 1):
            a = L.lemma_from_step(code, k, include_previous=False, name=f"sub_{k}")
            b = L.lemma_from_step(code, k, include_previous=True, name=f"sub_{k}")
            for lemma in (a, b):
                decl = C.last_theorem(lemma)
                assert decl is not None and decl.name == f"sub_{k}"
                assert len(C.holes(lemma)) == 1 and lemma.endswith(":= by\n  sorry")
                assert norm(decl.type) == norm(steps[k].statement)
                assert norm(decl.binders).startswith(norm(theorem.binders))
            earlier = [f"({s.name} : {s.statement})" for s in steps[:k]]
            assert all(norm(h) in norm(C.last_theorem(b).binders) for h in earlier)  # type: ignore[union-attr]
            assert norm(C.last_theorem(a).binders) == norm(theorem.binders)  # type: ignore[union-attr]

    def test_closing_lemma(self) -> None:
        code = proofs()[self.PROOF]
        theorem = C.last_theorem(code)
        steps = C.have_steps(code)
        closing = C.last_theorem(L.lemma_from_step(code, len(steps), include_previous=True, name="closing"))
        assert theorem is not None and closing is not None
        assert norm(closing.type) == norm(theorem.type)
        assert norm(closing.binders).endswith(norm(f"({steps[-1].name} : {steps[-1].statement})"))
        with pytest.raises(L.LemmaBuildError):
            L.lemma_from_step(code, len(steps) + 1, include_previous=True, name="x")

    @pytest.mark.slow
    def test_steps_of_every_reference_proof(self) -> None:
        failures = []
        count = 0
        for name, code in proofs().items():
            steps = C.have_steps(code)
            # First, middle and last step and the closing hole (type b lemmas grow with the step
            # index: the last ones are the largest).
            for k in sorted({0, len(steps) // 2, len(steps) - 1, len(steps)} - {-1}):
                count += 1
                lemma = L.lemma_from_step(code, k, include_previous=True, name="lemma_x")
                decl = C.last_theorem(lemma)
                expected = steps[k].statement if k < len(steps) else C.last_theorem(code).type  # type: ignore[union-attr]
                if decl is None or len(C.holes(lemma)) != 1 or norm(decl.type) != norm(expected):
                    failures.append((name, k))
        assert count > 1200 and not failures, failures[:5]

    def test_step_binders_and_patterns(self) -> None:
        code = (
            "theorem t {α : Type*} [Fintype α] (n : ℕ)\n    (h : 0 < n) : n ≠ 0 := by\n"
            "  have h₁ (m : ℕ) : m + n > 0 := by sorry\n"
            "  obtain ⟨k, hk⟩ : ∃ k, n = k + 1 := by sorry\n"
            "  have : n ≥ 1 := by sorry\n"
            "  sorry"
        )
        a = L.lemma_from_step(code, 0, include_previous=False, name="l")
        assert a == (
            "theorem l\n    {α : Type*} [Fintype α] (n : ℕ)\n    (h : 0 < n)\n    (m : ℕ) :\n    m + n > 0 := by\n  sorry"
        )
        closing = L.lemma_from_step(code, 3, include_previous=True, name="l")
        assert "(h₁ : ∀ (m : ℕ), m + n > 0)" in closing
        assert "(h_step_2 : ∃ k, n = k + 1)" in closing and "(this : n ≥ 1)" in closing

    def test_universe_parameters_are_kept(self) -> None:
        code = "theorem t.{u} {α : Sort u} (a : α) : a = a := by\n  have h : a = a := by sorry\n  exact h"
        assert L.lemma_from_step(code, 0, include_previous=False, name="l").startswith("theorem l.{u}\n")


# --- scripted verifier -------------------------------------------------------------------------


class ScriptedVerifier:
    """Answers run_tactic and check from scripts, records every call."""

    name = "scripted"

    def __init__(
        self,
        tactic_results: Sequence[TacticResult | Exception] = (),
        check_results: Sequence[CheckResult] = (),
        *,
        proof_states: bool = True,
    ) -> None:
        self.supports_proof_states = proof_states
        self.tactic_results = list(tactic_results)
        self.check_results = list(check_results)
        self.tactics: list[tuple[Goal, str]] = []
        self.checked: list[str] = []

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult:
        self.checked.append(code)
        return self.check_results.pop(0)

    async def check_many(self, codes: Sequence[str], *, timeout: float | None = None) -> list[CheckResult]:
        return [await self.check(c, timeout=timeout) for c in codes]

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        self.tactics.append((hole, tactic))
        result = self.tactic_results.pop(0)
        if isinstance(result, Exception):
            raise result
        return result

    async def close(self) -> None:
        pass


HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n\nopen BigOperators Real Nat Topology Rat\n\n"
SKETCH = (
    "theorem t (x : ℝ) (h₀ : 0 < x) : x ^ 2 + 1 > 0 := by\n"
    "  intro_nothing\n"
    "  have h₁ : x ^ 2 > 0 := by sorry\n"
    "  have h₂ : x ^ 2 + 1 > 1 := by\n"
    "    nlinarith [sorry]\n"
    "  sorry"
)
# What Mathlib's extract_goal logs (ppSignature output, wrapped like Lean wraps long lines).
EXTRACTED = "theorem t_sub_1 (x : ℝ) (h₀ : (0 : ℝ) < x) :\n  x ^ (2 : ℕ) > (0 : ℝ) := sorry"
HOLE = Goal(goal="x : ℝ\nh₀ : 0 < x\n⊢ x ^ 2 > 0", pos=Position(3, 28), proof_state=7)


def info(data: str) -> TacticResult:
    return TacticResult(
        goals=["x : ℝ\nh₀ : 0 < x\n⊢ x ^ 2 > 0"],
        proof_status="Incomplete: open goals remain",
        proof_state=8,
        messages=[Message(Severity.INFO, data, Position(1, 0))],
    )


def sorry_warning() -> CheckResult:
    resp: dict[str, Any] = {
        "env": 1,
        "messages": [
            {"severity": "warning", "pos": {"line": 9, "column": 8}, "data": "declaration uses 'sorry'"}
        ],
        "sorries": [{"proofState": 0, "pos": {"line": 11, "column": 2}, "goal": "⊢ x ^ 2 > 0"}],
    }
    return CheckResult.from_repl_response(resp, backend="scripted")


def error(data: str) -> CheckResult:
    return CheckResult(status=CheckStatus.ERROR, messages=[Message(Severity.ERROR, data, Position(9, 20))])


class TestExtractGoal:
    async def test_success(self) -> None:
        v = ScriptedVerifier([info(EXTRACTED)], [sorry_warning()])
        got = await L.extract_lemma(v, HOLE, name="t_sub_1", header=HEADER, timeout=5)
        assert got is not None and got.name == "t_sub_1" and got.message == EXTRACTED
        assert got.statement == "theorem t_sub_1 (x : ℝ) (h₀ : (0 : ℝ) < x) :\n  x ^ (2 : ℕ) > (0 : ℝ) := by\n  sorry"
        (hole, tactic), = v.tactics
        assert hole is HOLE and tactic == L.extract_goal_tactic("t_sub_1")
        assert "pp.numericTypes true" in tactic and "pp.coercions.types true" in tactic
        assert tactic.endswith("extract_goal * using t_sub_1")
        assert v.checked == [HEADER + "set_option autoImplicit false in\n" + got.statement]

    @pytest.mark.parametrize(
        ("tactic_result", "checks", "why"),
        [
            (TacticResult(error="Lean error: unknown tactic"), [], "tactic did not run"),
            (TacticResult(messages=[Message(Severity.ERROR, "Extracted goal has metavariables: ?m.5 = 1")]), [],
             "metavariables"),
            (info("def t_sub_1 (n : ℕ) : ℕ := sorry"), [], "goal not a Prop"),
            (info("theorem other_name (x : ℝ) : x = x := sorry"), [], "other name"),
            (info("theorem t_sub_1 (x✝ : ℝ) : x✝ = x✝ := sorry"), [], "inaccessible name"),
            (info(EXTRACTED), [error("unknown identifier 'x'")], "round trip fails"),
            (info(EXTRACTED), [CheckResult(status=CheckStatus.TIMEOUT, error="timeout")], "round trip times out"),
            (ProofStatesUnsupported("kimina"), [], "backend without proof states"),
        ],
    )
    async def test_failures_give_none(self, tactic_result: Any, checks: list[CheckResult], why: str) -> None:
        v = ScriptedVerifier([tactic_result], checks)
        assert await L.extract_lemma(v, HOLE, name="t_sub_1", header=HEADER) is None, why
        assert not v.check_results  # the scripted check, if any, was consumed

    async def test_no_proof_state_means_no_call(self) -> None:
        v = ScriptedVerifier()
        assert await L.extract_lemma(v, Goal(goal="⊢ True"), name="n", header=HEADER) is None
        assert v.tactics == [] and v.checked == []

    def test_parse_extract_goal_with_universes(self) -> None:
        message = "theorem sub.{u_1} {α : Type u_1} [inst : Fintype α] (s : Finset α) :\n  s.card ≤ Fintype.card α := sorry"
        assert L.parse_extract_goal(message, "sub") == message[: -len(" := sorry")] + " := by\n  sorry"


class TestBuildLemma:
    async def test_extract_goal_preferred(self) -> None:
        v = ScriptedVerifier([info(EXTRACTED)], [sorry_warning()])
        built = await L.build_lemma(v, SKETCH, 0, HOLE, name="t_sub_1", header=HEADER)
        assert (built.method, built.name, built.checks, built.fallback_reason) == ("extract_goal", "t_sub_1", 2, None)
        assert built.statement.endswith(":= by\n  sorry") and "(0 : ℝ)" in built.statement

    async def test_falls_back_to_text_b_with_the_reason(self) -> None:
        v = ScriptedVerifier([info(EXTRACTED)], [error("type mismatch")])
        built = await L.build_lemma(v, SKETCH, 0, HOLE, name="t_sub_1", header=HEADER)
        assert built.method == "text_b" and built.checks == 2
        assert built.fallback_reason is not None and "type mismatch" in built.fallback_reason
        assert built.statement == L.lemma_from_step(SKETCH, 0, include_previous=True, name="t_sub_1")

    async def test_text_without_proof_states(self) -> None:
        v = ScriptedVerifier(proof_states=False)
        closing = await L.build_lemma(v, SKETCH, 2, HOLE, name="c", include_previous=False)
        assert closing.method == "text_a" and v.tactics == []
        assert closing.statement == L.lemma_from_step(SKETCH, 2, include_previous=False, name="c")
        also = await L.build_lemma(None, HEADER + SKETCH, 0, None, name="s")
        assert also.method == "text_b" and also.fallback_reason == "the verifier has no proof states"

    async def test_hole_inside_a_step_proof_cannot_be_built_from_text(self) -> None:
        assert [h.position for h in C.holes(SKETCH)] == ["tactic", "term", "tactic"]
        with pytest.raises(L.LemmaBuildError, match="inside the proof of step 'h₂'"):
            await L.build_lemma(None, SKETCH, 1, None, name="x")
        with pytest.raises(L.LemmaBuildError, match="out of range"):
            await L.build_lemma(None, SKETCH, 3, None, name="x")
        two_closers = SKETCH.replace("  sorry", "  norm_num\n  sorry")
        with pytest.raises(L.LemmaBuildError, match="only closing tactic"):
            await L.build_lemma(None, two_closers, 2, None, name="x")

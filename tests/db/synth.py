"""A synthetic two-level run, as the search engine would emit it, and what the store should hold."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from lemmaforge.records import (
    AttemptRecord,
    LLMCallRecord,
    NodeCreated,
    NodeStatusChanged,
    ProblemRecord,
    ProofRecord,
    Record,
    RunFinished,
    RunStarted,
)

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat"


def _lemma(name: str) -> str:
    return f"theorem {name} (x : ℝ) (h : 0 < x) : 0 < x ^ 2 + {len(name)} := by\n  sorry"


@dataclass
class SynthRun:
    run_id: str
    problem_id: str
    records: list[Record] = field(default_factory=list)
    _clock: Any = None
    _ids: Any = None

    def t(self) -> float:
        return next(self._clock)

    def nid(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids)}"

    def of(self, cls: type) -> list[Any]:
        return [r for r in self.records if isinstance(r, cls)]


def synthetic_run(
    run_id: str = "run-a",
    problem_id: str = "minif2f/test/mathd_algebra_1",
    *,
    parent_run_id: str | None = None,
    t0: float = 1_700_000_000.0,
    subgoal_tag: str = "",
) -> SynthRun:
    """root goal → sketch with 3 holes; hole 0 by automation, hole 1 by the prover after a
    correction, hole 2 decomposed again (a first sketch abandoned, a second solved) → proofs."""
    s = SynthRun(
        run_id, problem_id, _clock=(t0 + i * 0.125 for i in itertools.count()), _ids=itertools.count()
    )
    emit = s.records.append

    def call(role: str, completion: str) -> LLMCallRecord:
        c = LLMCallRecord(
            run_id=run_id,
            call_id=f"{run_id}:{s.nid('call')}",
            role=role,
            endpoint="http://localhost:8000/v1",
            model="deepseek-prover-v2-7b" if role == "prover" else "planner-model",
            request={"messages": [{"role": "user", "content": f"{role} prompt"}], "temperature": 0.7, "n": 1},
            completions=[completion],
            finish_reasons=["stop"],
            prompt_tokens=120,
            completion_tokens=64,
            latency=1.5,
            created_at=s.t(),
        )
        emit(c)
        return c

    def node(node_id: str, kind: str, depth: int, parent: str | None = None, hole: int | None = None) -> str:
        emit(
            NodeCreated(
                run_id=run_id,
                node_id=node_id,
                kind=kind,  # type: ignore[arg-type]
                depth=depth,
                text=_lemma(node_id) if kind == "goal" else f"-- sketch {node_id}\nhave h : True := by sorry",
                parent_id=parent,
                hole_index=hole,
                goal_state=f"x : ℝ\n⊢ goal of {node_id}" if kind == "goal" else None,
                created_at=s.t(),
            )
        )
        return node_id

    def attempt(node_id: str, strategy: str, verdict: str, llm: LLMCallRecord | None = None) -> None:
        emit(
            AttemptRecord(
                run_id=run_id,
                attempt_id=s.nid("att"),
                node_id=node_id,
                strategy=strategy,  # type: ignore[arg-type]
                verdict=verdict,  # type: ignore[arg-type]
                code=f"-- {strategy} on {node_id}\nnlinarith [sq_nonneg x]",
                output=llm.completions[0] if llm else None,
                prompt="prove it" if llm else None,
                llm_call_id=llm.call_id if llm else None,
                errors=[] if verdict == "valid" else [f"{verdict}: unsolved goals"],
                generation_seconds=1.5 if llm else 0.0,
                check_seconds=0.25,
                created_at=s.t(),
            )
        )

    def status(
        node_id: str,
        st: str,
        strategy: str | None = None,
        proof: str | None = None,
        reason: str | None = None,
    ) -> None:
        emit(
            NodeStatusChanged(
                run_id=run_id,
                node_id=node_id,
                status=st,  # type: ignore[arg-type]
                strategy=strategy,  # type: ignore[arg-type]
                proof=proof,
                reason=reason,
                at=s.t(),
            )
        )

    def subproof(node_id: str, strategy: str, depth: int, proof: str) -> None:
        emit(
            ProofRecord(
                run_id=run_id,
                proof_id=f"{run_id}:{s.nid('proof')}",
                kind="subgoal",
                header=HEADER,
                statement=_lemma(node_id),
                normalized_statement=f"normalized {node_id}{subgoal_tag}",
                proof=proof,
                problem_id=problem_id,
                node_id=node_id,
                strategy=strategy,  # type: ignore[arg-type]
                depth=depth,
                created_at=s.t(),
            )
        )

    emit(
        ProblemRecord(
            problem_id=problem_id,
            name=problem_id.rsplit("/", 1)[-1],
            header=HEADER,
            statement=_lemma("root"),
            dataset="minif2f",
            split="test",
            informal="Show that x^2 + 4 > 0.",
            extra={"tags": ["algebra"], "source": "synthetic"},
        )
    )
    emit(
        RunStarted(
            run_id=run_id,
            kind="prove",
            config={"search": {"max_depth": 2}, "prover": {"k": 4}},
            versions={"lemmaforge": "0.1.0", "lean": "v4.19.0", "mathlib": "abc123", "prover": "ds-7b"},
            problem_id=problem_id,
            parent_run_id=parent_run_id,
            started_at=s.t(),
        )
    )
    g0 = node("g0", "goal", 0)
    attempt(g0, "automation", "error")
    attempt(g0, "prover", "error", call("prover", "```lean\nlinarith\n```"))
    plan = call("planner", "sketch")
    attempt(g0, "planner", "incomplete", plan)
    s0 = node("s0", "sketch", 0, g0)
    holes = [node(f"h{i}", "goal", 1, s0, i) for i in range(3)]
    # hole 0: automation
    attempt(holes[0], "automation", "valid")
    status(holes[0], "solved", "automation", "positivity")
    subproof(holes[0], "automation", 1, "positivity")
    # hole 1: prover, then correction
    attempt(holes[1], "prover", "error", call("prover", "bad"))
    attempt(holes[1], "prover_correction", "valid", call("prover", "good"))
    status(holes[1], "solved", "prover_correction", "nlinarith [sq_nonneg x]")
    subproof(holes[1], "prover_correction", 1, "nlinarith [sq_nonneg x]")
    # hole 2: decomposed; first sketch abandoned, second solved
    attempt(holes[2], "automation", "timeout")
    attempt(holes[2], "prover", "error", call("prover", "nope"))
    attempt(holes[2], "planner", "incomplete", call("planner", "sketch A"))
    s1a = node("s1a", "sketch", 1, holes[2])
    a0 = node("h2a0", "goal", 2, s1a, 0)
    attempt(a0, "automation", "error")
    status(a0, "failed", reason="all strategies failed")
    status(s1a, "abandoned", reason="hole 0 hopeless")
    attempt(holes[2], "sketch_correction", "incomplete", call("planner", "sketch B"))
    s1 = node("s1", "sketch", 1, holes[2])
    b = [node(f"h2b{i}", "goal", 2, s1, i) for i in range(2)]
    attempt(b[0], "automation", "valid")
    status(b[0], "solved", "automation", "norm_num")
    subproof(b[0], "automation", 2, "norm_num")
    attempt(b[1], "prover", "valid", call("prover", "simp"))
    status(b[1], "solved", "prover", "simp")
    subproof(b[1], "prover", 2, "simp")
    attempt(s1, "assembly", "valid")
    status(s1, "solved", "assembly", "filled sketch B")
    status(holes[2], "solved", "planner", "filled sketch B")
    subproof(holes[2], "planner", 1, "filled sketch B")
    attempt(s0, "assembly", "valid")
    status(s0, "solved", "assembly", "filled sketch 0")
    status(g0, "solved", "planner", "filled sketch 0")
    emit(
        ProofRecord(
            run_id=run_id,
            proof_id=f"{run_id}:whole",
            kind="whole",
            header=HEADER,
            statement=_lemma("root"),
            normalized_statement="normalized root",
            proof=HEADER + "\n\n" + _lemma("root").replace("sorry", "filled sketch 0"),
            problem_id=problem_id,
            node_id=g0,
            strategy="planner",
            depth=0,
            audit={"axioms": ["propext", "Classical.choice", "Quot.sound"], "sorry": False},
            created_at=s.t(),
        )
    )
    emit(
        RunFinished(
            run_id=run_id,
            status="proved",
            summary={"llm_calls": 7, "checks": 14, "depth": 2, "seconds": 12.5},
            finished_at=s.t(),
        )
    )
    return s


def expected_nodes(records: list[Record]) -> dict[str, dict[str, Any]]:
    """node_id → what the store should say about it (creation fields + latest status)."""
    out: dict[str, dict[str, Any]] = {}
    for r in records:
        if isinstance(r, NodeCreated):
            out[r.node_id] = {
                "created": r,
                "status": "open",
                "strategy": None,
                "proof": None,
                "reason": None,
                "status_at": r.created_at,
            }
        elif isinstance(r, NodeStatusChanged):
            out[r.node_id].update(
                status=r.status, strategy=r.strategy, proof=r.proof, reason=r.reason, status_at=r.at
            )
    return out

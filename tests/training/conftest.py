"""Fixtures for the training tests: real problems (miniF2F statements paired with DeepSeek-Prover-V2
reference proofs), scripted verifiers, and the tiny random model."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from lemmaforge.lean import syntax as lean_code
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Goal,
    ProofStatesUnsupported,
    TacticResult,
    VerifierError,
)
from tests.conftest import BENCHMARKS, REFERENCE_PROOFS
from tests.fakes.fake_kimina import MessageRule, ScriptedLean

# The tactic name our "wrong" proofs use; the scripted Lean reports it as an error.
BOGUS_TACTIC = "bogus_tactic"
CRASH_MARK = "CRASH_THE_REPL"
RAISE_MARK = "RAISE_VERIFIER_ERROR"
TIMEOUT_MARK = "SLOW_PROOF_TIMES_OUT"


@dataclass(frozen=True)
class Problem:
    name: str
    header: str
    statement: str  # theorem … := by sorry
    proof: str  # the whole reference file (header + theorem + proof)

    @property
    def row(self) -> dict[str, str]:
        return {"name": self.name, "header": self.header, "statement": self.statement}

    def prompt(self) -> list[dict[str, str]]:
        return [
            {
                "role": "user",
                "content": f"Complete the following Lean 4 code:\n\n```lean4\n{self.header}{self.statement}\n```",
            }
        ]


@pytest.fixture(scope="session")
def problems(shared_data: Path) -> list[Problem]:
    """miniF2F test problems that have a reference proof with at least 3 top-level `have` steps."""
    rows = {}
    for line in (BENCHMARKS / "minif2f.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        rows[row["name"]] = row
    out: list[Problem] = []
    for path in sorted((REFERENCE_PROOFS / "test").glob("*.lean")):
        row = rows.get(path.stem)
        if row is None:
            continue
        proof = path.read_text(encoding="utf-8")
        original = row["header"] + row["formal_statement"]
        if not lean_code.same_statement(original, proof) or len(lean_code.have_steps(proof)) < 3:
            continue
        out.append(Problem(path.stem, row["header"], row["formal_statement"], proof))
        if len(out) >= 12:
            break
    assert len(out) >= 4, "expected reference proofs paired with miniF2F statements"
    return out


@dataclass
class ScriptedVerifier:
    """An in-process Verifier: fake Kimina's scripted Lean semantics (sorries, `#print axioms`,
    `bogus_tactic` is an unknown tactic) plus markers for a timeout, a crash and a raise. Records
    the loop and thread of each check and the peak number of checks in flight."""

    delay: float = 0.01
    name: str = "scripted"
    supports_proof_states: bool = False
    lean: ScriptedLean = field(default_factory=lambda: ScriptedLean(rules=[MessageRule(rf"\b{BOGUS_TACTIC}\b", "unknown tactic")]))
    checked: list[str] = field(default_factory=list)
    loops: list[Any] = field(default_factory=list)
    in_flight: int = 0
    peak: int = 0
    closed: bool = False

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult:
        self.loops.append((asyncio.get_running_loop(), threading.get_ident()))
        self.checked.append(code)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
            if RAISE_MARK in code:
                raise VerifierError("Kimina server unreachable")
            if CRASH_MARK in code:
                return CheckResult(CheckStatus.CRASHED, error="Lean process broken pipe", backend=self.name)
            if TIMEOUT_MARK in code:
                return CheckResult(CheckStatus.TIMEOUT, error="timed out", backend=self.name)
            return CheckResult.from_repl_response(self.lean(code), backend=self.name)
        finally:
            self.in_flight -= 1

    async def check_many(self, codes: Sequence[str], *, timeout: float | None = None) -> list[CheckResult]:
        return list(await asyncio.gather(*(self.check(c, timeout=timeout) for c in codes)))

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        raise ProofStatesUnsupported("scripted verifier has no proof states")

    async def close(self) -> None:
        self.closed = True


def fenced(code: str, lang: str = "lean4") -> str:
    return f"```{lang}\n{code.rstrip()}\n```"


def drop_step(proof: str, index: int) -> str:
    """`proof` without its `index`-th top-level `have` step (the text of the step removed)."""
    step = lean_code.have_steps(proof)[index]
    return proof[: step.start] + proof[step.end :]


def cot_completion(proof: str, final: str | None = None) -> str:
    """A DeepSeek-Prover-V2 CoT-style completion: plan, sketch (the proof's skeleton), final proof."""
    sketch, _ = lean_code.skeleton(proof)
    return (
        "### Detailed Proof and Analysis\n\nWe split the goal into the steps below.\n\n"
        f"### Lean 4 Proof with `have` Statements\n\n{fenced(sketch)}\n\n"
        f"### Complete Lean 4 Proof\n\n{fenced(final if final is not None else proof)}\n"
    )


# --- the tiny model (only for tests that have the train extra) ------------------------------------


@pytest.fixture(scope="session")
def lean_texts(problems: list[Problem]) -> list[str]:
    return [p.proof for p in problems]


@pytest.fixture(scope="session")
def tiny_tokenizer(lean_texts: list[str]) -> Any:
    pytest.importorskip("transformers", reason="needs the train extra: pip install 'lemmaforge[train]'")
    from lemmaforge.training.tiny import build_tokenizer

    return build_tokenizer(lean_texts, vocab_size=400)


@pytest.fixture
def tiny_model(tiny_tokenizer: Any) -> Any:
    from lemmaforge.training.tiny import build_tiny_model

    return build_tiny_model(tiny_tokenizer, seed=0)

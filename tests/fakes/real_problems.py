"""Real problems for the tests that need statements with proofs: miniF2F statements paired with
their DeepSeek-Prover-V2 reference proofs (`problems`, session-scoped: read once), completions in
the shape DeepSeek-Prover-V2's chain of thought gives them, and the tiny random model built on the
proofs' text (only where the train extra is installed). The fixtures are imported by the conftest
of each folder that uses them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from lemmaforge.lean import syntax as lean_code
from tests.conftest import BENCHMARKS, REFERENCE_PROOFS


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

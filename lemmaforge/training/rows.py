"""Training-data rows and their formats (`export.py` fills them from the store): TRL's
conversational prompt–completion shape with one fixed set of metadata columns, for the three
kinds sft, cot (DeepSeek-Prover-V2's CoT section layout) and subgoal.
"""

from __future__ import annotations

from typing import Any

from lemmaforge.agent import prompts
from lemmaforge.agent.prover import statement_with_sorry
from lemmaforge.lean import syntax as lean_syntax

KINDS: tuple[str, ...] = ("sft", "cot", "subgoal")

#: every proof row has exactly these keys (HF datasets want one schema per split)
ROW_KEYS: tuple[str, ...] = (
    "prompt",
    "completion",
    "kind",
    "problem_id",
    "name",
    "header",
    "statement",
    "run_id",
    "proof_id",
    "node_id",
    "depth",
    "strategy",
    "lemma_type",
    "verified",
)

COT_SECTIONS = (
    "### Detailed Proof and Analysis",
    "### Step-by-Step Abstract Plan",
    "### Lean 4 Proof with `have` Statements",
    "### Complete Lean 4 Proof",
)


def lean_fence(code: str) -> str:
    return f"```lean4\n{code.strip()}\n```"


def prompt_messages(
    header: str, statement: str, *, cot: bool = False, informal: str | None = None
) -> list[dict[str, str]]:
    """DeepSeek-Prover-V2's prompt for `statement` under `header`, with the problem's informal
    statement as the theorem's docstring where the dataset has one."""
    return prompts.prover_messages(header, statement_with_sorry(statement), cot=cot, informal=informal)


def _row(kind: str, prompt: list[dict[str, str]], completion: str, **meta: Any) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(ROW_KEYS)
    row.update(
        prompt=prompt,
        completion=[{"role": "assistant", "content": completion}],
        kind=kind,
        verified=True,
    )
    for key, value in meta.items():
        if key not in row:
            raise KeyError(f"unknown row column {key!r}")
        row[key] = value
    return row


def sft_row(
    header: str, statement: str, proof_file: str, *, problem_informal: str | None = None, **meta: Any
) -> dict[str, Any]:
    """Non-CoT row: the problem's prompt (with its informal statement, if any) → its audited proof
    file in a ```lean4 block."""
    return _row(
        "sft",
        prompt_messages(header, statement, informal=problem_informal),
        lean_fence(proof_file),
        header=header,
        statement=statement,
        **meta,
    )


def abstract_plan(sketch: str) -> str:
    """A numbered plan from the sketch's top-level steps (one line each), then the close."""
    steps = lean_syntax.have_steps(sketch)
    lines = []
    for i, step in enumerate(steps, 1):
        stmt = " ".join(step.full_statement.split())
        lines.append(f"{i}. Prove `{step.name} : {stmt}`.")
    lines.append(f"{len(steps) + 1}. Close the goal from the hypotheses and the steps above.")
    return "\n".join(lines)


def cot_completion(informal: str, sketch: str, proof_file: str) -> str:
    """DeepSeek-Prover-V2's CoT answer: analysis, abstract plan, `have` sketch, complete proof."""
    return (
        f"{COT_SECTIONS[0]}\n\n{informal.strip()}\n\n"
        f"{COT_SECTIONS[1]}\n\n{abstract_plan(sketch)}\n\n"
        f"{COT_SECTIONS[2]}\n\n{lean_fence(sketch)}\n\n"
        f"{COT_SECTIONS[3]}\n\n{lean_fence(proof_file)}\n"
    )


def cot_row(
    header: str, statement: str, informal: str, sketch: str, proof_file: str, *,
    problem_informal: str | None = None, **meta: Any,
) -> dict[str, Any]:
    """CoT row: `informal` is the planner's reasoning (the completion's first section);
    `problem_informal` the dataset's informal statement (the prompt's docstring)."""
    return _row(
        "cot",
        prompt_messages(header, statement, cot=True, informal=problem_informal),
        cot_completion(informal, sketch, proof_file),
        header=header,
        statement=statement,
        **meta,
    )


def lemma_with_proof(lemma: str, body: str) -> str:
    """`lemma` with its proof slot filled by the tactic `body` (the engine's own `fill`)."""
    try:
        return lean_syntax.fill(lemma, [body])
    except ValueError:
        from lemmaforge.agent.prover import lemma_code

        return lemma_code(lemma, body)


def subgoal_row(header: str, lemma: str, body: str, **meta: Any) -> dict[str, Any]:
    """Subgoal row: the lemma's prompt → header + lemma with the proof Lean accepted for it."""
    return _row(
        "subgoal",
        prompt_messages(header, lemma),
        lean_fence(prompts.with_header(header, lemma_with_proof(lemma, body))),
        header=header,
        statement=lemma,
        **meta,
    )

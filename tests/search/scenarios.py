"""What the prove e2e tests share: the problem (defs + theorem), the sketches the fake planner
returns, and helpers that script the fake OpenAI server as planner and prover.

The problem's defs are all `x = x`: the fake Leans do not unfold anything, they only see names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lemmaforge.config import BudgetConfig, SearchConfig, Settings
from lemmaforge.db import Store

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"
DEFS = (
    "def A (x : ℕ) : Prop := x = x\ndef Easy (x : ℕ) : Prop := x = x\ndef Hard (x : ℕ) : Prop := x = x\n"
    "def Hard1 (x : ℕ) : Prop := x = x\ndef Hard2 (x : ℕ) : Prop := x = x\ndef Stuck (x : ℕ) : Prop := x = x\n"
    "def D (x : ℕ) : Prop := x = x\n\n"
)
THEOREM = "theorem t (x : ℕ) (h : A x) : D x := by\n  sorry\n"

SKETCH = (
    "theorem t (x : ℕ) (h : A x) : D x := by\n"
    "  have h1 : Easy x := by sorry\n"
    "  have h2 : Hard x := by sorry\n"
    "  sorry\n"
)
SKETCH_STUCK = (
    "theorem t (x : ℕ) (h : A x) : D x := by\n"
    "  have h1 : Stuck x := by sorry\n"
    "  sorry\n"
)
SKETCH_HARD = (  # a sketch for the lemma of h2 (its name is filled in from the prompt)
    "theorem {name} (x : ℕ) (h : A x) (h1 : Easy x) : Hard x := by\n"
    "  have k1 : Hard1 x := by sorry\n"
    "  have k2 : Hard2 x := by sorry\n"
    "  exact combine k1 k2\n"
)
# The prover's answer to the closing hole of SKETCH (its lemma has h1 and h2 as hypotheses).
CLOSING_HOLE = r"\(h2 : Hard x\)\s*:\s*D x := by"


def lean_block(code: str) -> str:
    return f"Here is the proof.\n\n```lean4\n{code}```\n"


def proof_of(statement_head: str, tactic: str) -> str:
    return lean_block(f"{statement_head} := by\n  {tactic}\n")


def lemma_head(prompt: str, conclusion: str) -> str:
    """The `theorem NAME (binders) : conclusion` the prover was asked about, from its prompt."""
    m = re.search(r"theorem (\S+)(.*?):\s+" + re.escape(conclusion) + r" := by", prompt, re.DOTALL)
    assert m, prompt
    return f"theorem {m.group(1)}{m.group(2)}: {conclusion}"


def prover_rule(conclusion: str, tactic: str) -> tuple[str, Callable[[Any], str]]:
    """(pattern, reply) for a prover asked to prove a lemma concluding `conclusion`."""

    def reply(req: Any) -> str:
        return proof_of(lemma_head(req.text, conclusion), tactic)

    return rf":\s+{re.escape(conclusion)} := by", reply


def closing_hole_rule(tactic: str = "exact rfl") -> tuple[str, Callable[[Any], str]]:
    return CLOSING_HOLE, lambda req: proof_of(lemma_head(req.text, "D x"), tactic)


def is_planner(req: Any) -> bool:
    return any(m.get("role") == "system" for m in req.messages)


def add_planner(llm: Any, pattern: str, replies: Any, **kw: Any) -> Any:
    return llm.add_rule(pattern, replies, when=is_planner, **kw)


def add_prover(llm: Any, pattern: str, replies: Any, **kw: Any) -> Any:
    return llm.add_rule(pattern, replies, when=lambda r: not is_planner(r), **kw)


def read_back(store: Store, run_id: str) -> tuple[Any, Any, Any, Any]:
    """(run, tree, attempts, LLM calls) of a run, from the store."""
    return store.get_run(run_id), store.tree(run_id), store.attempts(run_id), store.llm_calls(run_id)


def goal_nodes(tree: Any, depth: int | None = None) -> list[dict[str, Any]]:
    return [d for _, d in tree.nodes(data=True) if d["kind"] == "goal" and (depth is None or d["depth"] == depth)]


def search_settings(*, budget: BudgetConfig | None = None, portfolio: tuple[str, ...] | None = None,
                    **search: Any) -> Settings:
    """The engine's configuration for a test: `budget`, the automation `portfolio` (None: the
    built-in one; (): none) and other `[search]` keys."""
    return Settings(budget=budget or BudgetConfig(),
                    search=SearchConfig(portfolio=list(portfolio) if portfolio is not None else None, **search))

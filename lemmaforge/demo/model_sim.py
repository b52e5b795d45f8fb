"""Simulated models for `lemmaforge demo`: a planner that writes `have … := by sorry` sketches and a
prover that writes tactic proofs, from the statement in the prompt alone (no model, no
mathematics; what Lean makes of their text is the simulated Lean's business, `lean_sim.py`).

* The statement is the first ```lean4 block of the prompt that ends in `sorry` (every prompt of
  `agent/prompts.py` holds one), its last `theorem` / `lemma`.
* The **planner** (a prompt asking for a "Lean 4 Sketch") restates the theorem and writes two or
  three steps: hypotheses it splits or restates, and the goal in another form (`a = b` as
  `a - b = 0`, `a ≤ b` as `0 ≤ b - a`, each side of an `∧`), then a closing tactic citing the
  steps. Each request for the same statement gets the next variant (other steps, another
  closing tactic), as a sampled model would answer differently.
* The **prover** answers each sample with one proof: `exact h` when a hypothesis states the goal,
  else a tactic from a fixed list, chosen by the request's count for that statement and the
  sample's index: arithmetic tactics citing the hypotheses, a bare tactic, and now and then one
  that cites a name that does not exist (Lean says "unknown identifier", which the correction
  round then fixes).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lemmaforge.demo.lean_sim import binders_of

PLANNER_MODEL = "simulated-planner"
PROVER_MODEL = "simulated-prover"
MODELS = (PROVER_MODEL, PLANNER_MODEL)

_BLOCK = re.compile(r"```lean4?\n(.*?)(?:```|\Z)", re.DOTALL)
_THEOREM = re.compile(r"(?:^|\n)(?:theorem|lemma)\s+(«[^»]*»|\S+)(?P<sig>.*?):=\s*(?:by\s*)?(?:\n\s*)?sorry\s*$",
                      re.DOTALL)
# a binder whose type holds one of these states a fact (a hypothesis), else it is a variable
_PROP = re.compile(r"[=<>≤≥≠∣∧∨¬→↔∈∉⊆]")
_OPEN_THEOREM = re.compile(r"(?:^|\n)(?:theorem|lemma)\s+(«[^»]*»|\S+)(?P<sig>.*?):=\s*by\s*$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Statement:
    """A theorem from a prompt: its name, binders and conclusion (as written)."""

    name: str
    binders: str
    conclusion: str

    @property
    def head(self) -> str:
        binders = " ".join(self.binders.split())
        return f"theorem {self.name}{' ' + binders if binders else ''} : {' '.join(self.conclusion.split())}"

    @property
    def hypotheses(self) -> list[tuple[str, str]]:
        """(name, type) of the binders that state something (their type has a relation in it)."""
        return [(n, t) for n, t in binders_of(self.binders) if n and _PROP.search(t)]

    @property
    def variables(self) -> list[str]:
        return [n for n, t in binders_of(self.binders) if n and not _PROP.search(t)]


def _split_signature(signature: str) -> tuple[str, str]:
    """(binders, conclusion) of `signature`: split at its first colon outside brackets."""
    depth = 0
    for i, c in enumerate(signature):
        if c in "([{⦃⟨":
            depth += 1
        elif c in ")]}⦄⟩":
            depth -= 1
        elif c == ":" and depth == 0 and not signature.startswith(":=", i):
            return signature[:i], signature[i + 1 :]
    return "", signature


def find_statement(texts: Sequence[str]) -> Statement | None:
    """The theorem to work on: in the first ```lean4 block (of `texts`, in order) whose text ends
    in `sorry` (or, for a completion prompt, in an open `:= by`)."""
    for text in texts:
        for block in _BLOCK.findall(text):
            body = block.rstrip()
            found = list(_THEOREM.finditer(body)) or list(_OPEN_THEOREM.finditer(body))
            if found:
                m = found[-1]
                binders, conclusion = _split_signature(m.group("sig"))
                return Statement(m.group(1), binders.strip(), conclusion.strip())
    return None


def _conjuncts(text: str) -> list[str]:
    """`a ∧ b ∧ c` as [a, b, c] (top level only)."""
    parts, depth, last = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{⟨":
            depth += 1
        elif c in ")]}⟩":
            depth -= 1
        elif c == "∧" and depth == 0:
            parts.append(text[last:i].strip())
            last = i + 1
    parts.append(text[last:].strip())
    return [p for p in parts if p]


def _reformulations(conclusion: str) -> list[str]:
    """The goal in another form, as a planner's last step would state it."""
    flat = " ".join(conclusion.split())
    parts = _conjuncts(flat)
    if len(parts) > 1:
        return parts
    for op, form in (("≤", "0 ≤ {b} - {a}"), ("<", "0 < {b} - {a}"), ("=", "{a} - {b} = 0")):
        m = re.fullmatch(rf"(.+?)\s{op}\s(.+)", flat)
        if m and "↔" not in flat and "→" not in flat and "0" not in (m.group(1), m.group(2)):
            return [form.format(a=_atom(m.group(1)), b=_atom(m.group(2)))]
    return []


def _atom(term: str) -> str:
    """`term`, parenthesised unless it is one token."""
    return term if re.fullmatch(r"[^\s()]+", term) else f"({term})"


class SimulatedModels:
    """The planner and the prover (module docstring); `reply(model, texts, index)` answers one
    sample. Thread-safe: the server answers requests from several threads."""

    def __init__(self) -> None:
        self._asked: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def request_number(self, role: str, statement: Statement | None) -> int:
        """How many requests for this statement came before this one (the sample's variant)."""
        key = (role, statement.head if statement else "")
        with self._lock:
            n = self._asked.get(key, 0)
            self._asked[key] = n + 1
        return n

    @staticmethod
    def is_planner(texts: Sequence[str]) -> bool:
        return any("Lean 4 Sketch" in t for t in texts)

    def replies(self, texts: Sequence[str], n: int, *, completion: bool = False) -> list[str]:
        """`n` samples for one request whose messages (or prompt) are `texts`."""
        statement = find_statement(texts)
        planner = self.is_planner(texts)
        correction = any("is not correct" in t or "did not compile" in t for t in texts)
        number = self.request_number("planner" if planner else "prover", statement)
        if statement is None:
            return ["(simulated model) I found no Lean statement ending in `sorry` in this prompt."] * n
        if planner:
            return [sketch(statement, number * n + i) for i in range(n)]
        return [proof(statement, number * n + i, correction=correction, completion=completion) for i in range(n)]


def sketch(statement: Statement, variant: int) -> str:
    """The planner's answer: an informal plan and a sketch (module docstring)."""
    facts: list[str] = []
    for _, type_ in statement.hypotheses:
        facts.extend(_conjuncts(" ".join(type_.split())))
    goal_forms = _reformulations(statement.conclusion)
    chosen: list[str] = []
    if facts:
        chosen.append(facts[variant % len(facts)])
        if len(facts) > 2:
            other = facts[(variant + 1 + len(facts) // 2) % len(facts)]
            if other not in chosen:
                chosen.append(other)
    chosen.extend(goal_forms[: 2 if len(goal_forms) > 1 else 1])
    if not chosen:
        chosen.append(" ".join(statement.conclusion.split()))
    taken = [int(m.group(1)) for name, _ in binders_of(statement.binders) if (m := re.fullmatch(r"step_(\d+)", name))]
    first = max(taken, default=0) + 1  # a sub-sketch's steps follow the steps it already has
    steps = [f"step_{first + i}" for i in range(len(chosen))]
    if len(goal_forms) > 1 and variant % 2 == 0:
        closing = "exact ⟨" + ", ".join(steps[-len(goal_forms):]) + "⟩"
    else:
        closing = ("linarith [{}]", "nlinarith [{}]", "simp_all only [{}]")[variant % 3].format(", ".join(steps))
    lines = [f"  have {name} : {claim} := by sorry" for name, claim in zip(steps, chosen, strict=True)]
    plan = "\n".join(f"{i + 1}. {claim}" for i, claim in enumerate(chosen))
    return ("### Informal Proof\n(simulated planner: no mathematics, the steps restate hypotheses and the goal)\n"
            f"{plan}\n\n### Lean 4 Sketch\n```lean4\n{statement.head} := by\n" + "\n".join(lines)
            + f"\n  {closing}\n```\n")


def proof(statement: Statement, variant: int, *, correction: bool = False, completion: bool = False) -> str:
    """The prover's answer for one sample (module docstring)."""
    goal = " ".join(statement.conclusion.split())
    same = next((name for name, type_ in statement.hypotheses if " ".join(type_.split()) == goal), None)
    names = [name for name, _ in statement.hypotheses][:3]
    cited = ", ".join(names)
    var = statement.variables[0] if statement.variables else "0"
    tactics = [
        f"nlinarith [{cited + ', ' if cited else ''}sq_nonneg ({var} - 1)]",
        f"norm_num [{cited}] at *\n  linarith" if cited else "norm_num",
        f"field_simp at *\n  nlinarith [{cited}]" if cited else "field_simp",
        f"simp_all only [{cited}]\n  ring_nf\n  nlinarith" if cited else "simp_all",
        f"linarith [{cited + ', ' if cited else ''}h_aux]",  # a name that does not exist
        "omega",
        f"nlinarith [sq_nonneg ({var} + 1){', ' + cited if cited else ''}]",
        "positivity",
    ]
    if same is not None:
        tactic = f"exact {same}"
    elif correction:
        tactic = [tactics[i] for i in (0, 1, 2, 3, 6)][variant % 5]
    else:
        tactic = tactics[variant % len(tactics)]
    if completion:  # the prompt's open block continues with the proof
        return f"\n  {tactic}\n```\n"
    note = "The error says the proof did not close the goal; a corrected proof:" if correction else "Here is a proof."
    return f"(simulated prover) {note}\n\n```lean4\n{statement.head} := by\n  {tactic}\n```\n"


def message_texts(body: dict[str, Any]) -> list[str]:
    """The texts of a chat request's messages (user and assistant), or a completion's prompt."""
    if isinstance(body.get("messages"), list):
        return [str(m.get("content") or "") for m in body["messages"] if isinstance(m, dict)]
    prompt = body.get("prompt")
    return [prompt] if isinstance(prompt, str) else [str(p) for p in prompt or []]


__all__ = ["MODELS", "PLANNER_MODEL", "PROVER_MODEL", "SimulatedModels", "Statement", "find_statement",
           "message_texts", "proof", "sketch"]

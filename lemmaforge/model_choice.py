"""Which model a role's requests go to: one rule, one function, one sentence.

`doctor`, `prove`, `bench` (their preflight: `doctor.probe_llm` → `services.resolve_endpoints`),
`train expert-iter` and the OpenAI-compatible client itself (`agent/backends/openai_compat.py`,
for library callers that skip the preflight) all call `choose_model`; every help text and page
states the rule with `MODEL_RULE`, word for word.

The rule: the model named for the role (`--prover-model` / `--planner-model`, `[prover] model` /
`[planner] model`) when there is one (and the server, if it lists models, must list it); else the
one model the server lists; a server that lists several models, none named, is refused with exit 2
and the list: taking the first would silently pick one model for published numbers (and the same
model for both roles of a server that serves two).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: the rule in one sentence: help texts, doctor and the documentation say it in these words
MODEL_RULE = (
    "With no model named, a role uses the only model its server lists; a server that lists several "
    "stops the command with exit 2 until one is named."
)


def model_help(role: str) -> str:
    """The help text of `--{role}-model`, the rule included."""
    return f"{role.capitalize()} model to request. {MODEL_RULE}"


@dataclass(frozen=True, slots=True)
class ModelChoice:
    """The model a role will use (`model`), how it was chosen (`how`, in words), or why none can
    be (`problem`, one line, and `fix`)."""

    model: str | None
    how: str = ""
    problem: str | None = None
    fix: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def choose_model(role: str, named: str | None, listed: Sequence[str]) -> ModelChoice:
    """The rule (module docstring) for `role`, given the configured model (`named`, None: none)
    and the ids the server lists under `/models` (in its order)."""
    name_one = f"name one with --{role}-model MODEL (or [{role}] model)"
    if named:
        if listed and named not in listed:
            return ModelChoice(None, problem=f"serves {', '.join(listed)}, not {named}",
                               fix=f"set --{role}-model (or [{role}] model) to one of them")
        return ModelChoice(named, "named")
    if not listed:
        return ModelChoice(None, problem="lists no model under /models", fix=name_one)
    if len(listed) > 1:
        return ModelChoice(None, problem=f"serves {len(listed)} models ({', '.join(listed)}) and none is named for "
                                         f"the {role}", fix=name_one)
    return ModelChoice(listed[0], "the only model the server lists")


__all__ = ["MODEL_RULE", "ModelChoice", "choose_model", "model_help"]

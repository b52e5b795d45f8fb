"""Sketch drafting and sketch correction.

`Planner(llm)` asks a strong general model for an informal plan and a Lean sketch of a theorem: the
theorem with its proof replaced by a chain of `have name : P := by sorry` steps and a closing step.
Every `sorry` becomes a hole for the search engine. A sketch is kept only when the model left the
theorem's statement unchanged (spacing, comments and — when it is the only theorem in the block —
the name aside); its theorem is then re-stated verbatim from the original, so assembly and the final
audit see exactly the original statement.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lemmaforge.agent import prompts
from lemmaforge.agent.llm import LLM, Completion
from lemmaforge.agent.output import extract_lean_code, informal_part
from lemmaforge.agent.prover import decl_name, find_decls, replace_statement, statement_with_sorry
from lemmaforge.lean.syntax import same_statement

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Sketch:
    """A planner output that passed the statement check.

    `code` is the theorem with its sketch proof (header excluded, statement verbatim from the
    original); `informal` the plan the model wrote before the code; `raw` the whole output;
    `call_id` the LLM call it came from."""

    informal: str
    code: str
    raw: str
    call_id: str | None
    finish_reason: str | None = None


def restate(statement: str, code: str) -> str | None:
    """`code` with its theorem re-stated exactly as `statement`, or None when the model changed
    the statement. The theorem is the one with the original's name; when the block has exactly
    one theorem / lemma under another name, that one (the model renamed it)."""
    name = decl_name(statement)
    decls = find_decls(code)
    named = [d for d in decls if d.name == name]
    if named:
        target = named[-1]
    elif len(decls) == 1:
        target = decls[0]
    else:
        return None
    if target.assign is None:
        return None
    decl_text = code[target.kw_start : target.end]
    if name and target.name != name:
        at = target.name_start - target.kw_start
        decl_text = decl_text[:at] + name + decl_text[at + len(target.name) :]
    if not same_statement(statement_with_sorry(statement), decl_text):
        return None
    try:
        return replace_statement(code, target, statement)
    except ValueError:
        return None


class Planner:
    """Drafts and corrects sketches. `sampling` holds default keyword arguments for
    `llm.generate` (temperature, max_tokens, …). Completion-mode endpoints get the same prompts
    as plain text."""

    def __init__(self, llm: LLM, *, reasoning: bool = False, **sampling: Any) -> None:
        self.llm = llm
        # A reasoning model (DeepSeek-R1 style) gets no system prompt: its instructions go first
        # in the user prompt, as its authors recommend.
        self.reasoning = reasoning
        self.sampling = sampling

    def has_room(self) -> bool:
        """Whether the model has room for a request started ahead of need (`LLM.has_room`)."""
        return self.llm.has_room()

    def _input(self, messages: list[dict[str, str]]) -> Any:
        if self.reasoning:
            messages = prompts.without_system(messages)
        if self.llm.mode == "completion":
            return prompts.to_plain(messages)
        return messages

    async def _ask(
        self, messages: list[dict[str, str]], n: int, sampling: dict[str, Any]
    ) -> list[Completion]:
        return await self.llm.generate(self._input(messages), n=n, **{**self.sampling, **sampling})

    def parse(self, header: str, statement: str, out: Completion) -> Sketch | None:
        """The sketch in one output, or None (no code block, or the statement was changed)."""
        code = extract_lean_code(out.text, header=header)
        if code is None:
            log.debug("planner output without a Lean code block (call %s)", out.call_id)
            return None
        fixed = restate(statement, code)
        if fixed is None:
            log.debug("planner sketch changed the theorem statement (call %s); discarded", out.call_id)
            return None
        return Sketch(informal_part(out.text), fixed, out.text, out.call_id, out.finish_reason)

    async def draft(
        self,
        header: str,
        statement: str,
        informal: str | None = None,
        n: int = 1,
        *,
        avoid: Sequence[str] = (),
        **sampling: Any,
    ) -> list[Sketch]:
        """Up to `n` sketches of `statement` (the theorem, ending in `sorry`). `avoid`: earlier
        sketches of the same theorem that failed, to ask for a different decomposition."""
        messages = prompts.planner_draft_messages(header, statement_with_sorry(statement), informal, avoid)
        outs = await self._ask(messages, n, sampling)
        return [s for s in (self.parse(header, statement, o) for o in outs) if s is not None]

    async def correct(
        self,
        header: str,
        statement: str,
        sketch: Sketch | str,
        errors: Sequence[Any],
        n: int = 1,
        *,
        checked_code: str | None = None,
        informal: str | None = None,
        **sampling: Any,
    ) -> list[Sketch]:
        """Up to `n` corrected sketches, given Lean's `errors` on `sketch` (strings, or `Message`s /
        REPL message dicts whose positions refer to `checked_code`, the exact file checked — by
        default `with_header(header, sketch.code)`)."""
        code = sketch.code if isinstance(sketch, Sketch) else sketch
        checked = checked_code if checked_code is not None else prompts.with_header(header, code)
        messages = prompts.planner_correction_messages(
            header, statement_with_sorry(statement), checked, list(errors), informal
        )
        outs = await self._ask(messages, n, sampling)
        return [s for s in (self.parse(header, statement, o) for o in outs) if s is not None]


__all__ = ["Planner", "Sketch", "restate"]

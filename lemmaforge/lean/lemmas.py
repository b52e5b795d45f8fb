"""Hole → standalone lemma: the statement a prover is asked to prove for one `sorry` of a sketch.

Two ways, tried in this order by `build_lemma`:

1. **extract_goal** (needs a backend with proof states): run Mathlib's
   `extract_goal * using <name>` on the hole's proof state with `pp.numericTypes` and
   `pp.coercions.types` on (so `(2 : ℝ)` and `(↑n : ℝ)` keep their types), read the
   `theorem <name> … := sorry` it logs, and keep it only if it re-elaborates in the header's
   environment under `autoImplicit false` (a misprinted variable would otherwise silently become
   an implicit argument). This is exact: the lemma's context is the hole's real context, after
   every `intro`, `obtain`, `cases` that came before the hole.
2. **Text** (DeepSeek-Prover-V2 §2.1, pure text, always available): the theorem's binders plus
   the step's statement (type a), and optionally the earlier top-level steps as hypotheses
   (type b). It does not see what tactics between the steps did (an `intro x` before a step leaves
   `x` unbound in the lemma), nor the names an `obtain ⟨x, hx⟩ : …` pattern binds; such lemmas
   fail to elaborate and the caller learns it from the check it does anyway.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from typing import Literal

from lemmaforge.errors import AttemptFailed
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.memo import ByteBoundedMemo
from lemmaforge.lean.syntax import proof_span
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Goal,
    ProofStatesUnsupported,
    Severity,
    TacticResult,
    Verifier,
)

__all__ = [
    "BuiltLemma",
    "ExtractedLemma",
    "LemmaBuildError",
    "build_lemma",
    "extract_goal_tactic",
    "extract_lemma",
    "lemma_from_step",
    "lemma_key_from_step",
    "parse_extract_goal",
    "read_sketch",
]

log = logging.getLogger(__name__)

LemmaMethod = Literal["extract_goal", "text_a", "text_b"]


class LemmaBuildError(AttemptFailed, ValueError):
    """No lemma can be built for this hole (no usable proof state, and the hole is not the whole
    proof of a top-level step nor the closing tactic of the proof)."""


@dataclass(frozen=True, slots=True)
class ExtractedLemma:
    name: str
    statement: str  # `theorem <name> … := by\n  sorry`
    message: str  # extract_goal's info message, verbatim
    check: CheckResult  # the round-trip check of the statement


@dataclass(frozen=True, slots=True)
class BuiltLemma:
    statement: str  # the full lemma text, ending in `:= by\n  sorry`
    name: str
    method: LemmaMethod
    checks: int = 0  # verifier calls spent building it (tactic runs and checks)
    fallback_reason: str | None = None  # why extract_goal was not used, when it was not
    # `theorem_key(statement)` read from the sketch's tokens (text lemmas; None: not known, so the
    # subgoal cache reads the statement): a deep lemma is long, and its pieces were read already.
    key: str | None = None


# --------------------------------------------------------------------------------------------
# Text lemmas (DeepSeek-Prover-V2 type a / type b)
# --------------------------------------------------------------------------------------------


def _reindent(text: str, column: int) -> str:
    """A piece of a statement on lines of its own: first line stripped, the following lines
    dedented together and indented to `column` (deeper than the `theorem` keyword, which is all
    Lean's layout asks of a signature), relative indentation kept."""
    lines = text.strip().split("\n")
    if len(lines) == 1:
        return lines[0]
    rest = lines[1:]
    indents = [len(ln) - len(ln.lstrip()) for ln in rest if ln.strip()]
    cut = min(indents) if indents else 0
    pad = " " * column
    return "\n".join([lines[0], *(pad + ln[cut:] if ln.strip() else "" for ln in rest)])


def _hypothesis_name(step: lean_syntax.HaveStep, index: int) -> str:
    """The binder name for an earlier step: its own name, `this` for an anonymous `have`, a fresh
    name for a destructuring pattern (whose variables the text lemma cannot bind)."""
    if step.kind == "have" and not step.name.startswith(("⟨", "(")):
        return step.name
    return f"h_step_{index + 1}"


def _format_lemma(name: str, binders: list[str], statement: str) -> str:
    parts = [_reindent(b, 4) for b in binders if b.strip()]
    head = f"theorem {name}" + ("".join(f"\n    {p}" for p in parts))
    return f"{head} :\n    {_reindent(statement, 4)} := by\n  sorry"


@dataclass(frozen=True, slots=True)
class SketchReading:
    """What the lemma builder reads of a sketch, kept small: the last theorem's binders, type and
    universe parameters, its top-level steps (without their tokens), the top-level tactics, the
    holes and the key pieces. A sketch is read when its statement is checked and its lemmas are
    built after Lean's check of it; in a big tree thousands of other texts are read in between,
    and the layout analysis (several times the text in memory) would have to be made again."""

    theorem: tuple[str, str, str] | None  # (binders, type, universe_params); None: no theorem
    steps: tuple[lean_syntax.HaveStep, ...]
    whole_hole: tuple[bool, ...]  # per step: its proof is just `sorry` / `by sorry`
    top_level: tuple[tuple[int, int], ...]
    holes: tuple[lean_syntax.Hole, ...]
    pieces: lean_syntax.SketchPieces | None


def _read_sketch(code: str) -> SketchReading:
    decl = lean_syntax.last_theorem(code)
    steps = lean_syntax.have_steps(code)
    key_pieces = lean_syntax.sketch_pieces(code)  # before the steps lose their tokens
    proof_span(code)  # asked again at the sketch's assembly (lean/syntax/_filled.py)
    return SketchReading(
        None if decl is None else (decl.binders, decl.type, decl.universe_params),
        tuple(replace(s, binder_tokens=(), statement_tokens=()) for s in steps),
        tuple(lean_syntax.normalize_code(s.proof) in ("sorry", "by sorry") for s in steps),
        tuple(lean_syntax.top_level_tactics(code)),
        tuple(lean_syntax.holes(code)),
        key_pieces,
    )


_readings = ByteBoundedMemo(_read_sketch, 16 << 20, lambda code, _: 4 * len(code) + 2000)


def read_sketch(code: str) -> SketchReading:
    """The reading of `code` the lemma builder uses (memoised; see `SketchReading`). Called when
    the sketch's statement is checked, while its analysis is at hand, it spares a second one."""
    return _readings(code)


def lemma_from_step(code: str, step_index: int, *, include_previous: bool, name: str) -> str:
    """The text lemma for top-level step `step_index` of the last theorem of `code`
    (`have_steps(code)[step_index]`), ending in `:= by\\n  sorry`.

    Type a (`include_previous=False`): the theorem's binders + the step's own binders, proving
    the step's statement. Type b (`include_previous=True`): the earlier top-level steps are added
    as hypotheses `(h : statement)` after the theorem's binders. `step_index == len(steps)` is
    the closing hole (the tactics after the last step): it proves the theorem's type, with every
    step as a hypothesis in type b (type a is then the theorem itself, renamed)."""
    read = read_sketch(code)
    if read.theorem is None:
        raise LemmaBuildError("no theorem or lemma in the code")
    theorem_binders, theorem_type, universe_params = read.theorem
    steps = read.steps
    if not 0 <= step_index <= len(steps):
        raise LemmaBuildError(f"step {step_index} out of range: the proof has {len(steps)} steps")
    binders = [theorem_binders]
    if include_previous:
        binders += [
            f"({_hypothesis_name(s, k)} : {s.full_statement})" for k, s in enumerate(steps[:step_index])
        ]
    if step_index == len(steps):
        statement = theorem_type
    else:
        step = steps[step_index]
        binders.append(step.binders)
        statement = step.statement
    return _format_lemma(f"{name}{universe_params}", binders, statement)


def lemma_key_from_step(code: str, step_index: int, *, include_previous: bool, name: str) -> str | None:
    """`theorem_key(lemma_from_step(code, step_index, …))`, put together from the tokens the
    sketch was read with (`lean.syntax.pieces`) instead of reading the lemma; None where that is
    unsure (the caller keys the lemma's text). Mirrors `lemma_from_step` piece for piece."""
    read = read_sketch(code)
    steps, found = read.steps, read.pieces
    if read.theorem is None or found is None or not 0 <= step_index <= len(steps):
        return None
    if lean_syntax.name_piece(name) is None:
        return None
    parts = [found.binders]
    if include_previous:
        parts += [found.hypothesis(k, _hypothesis_name(s, k)) for k, s in enumerate(steps[:step_index])]
    if step_index == len(steps):
        statement = found.type
    else:
        parts.append(found.step_binders[step_index])
        statement = found.statements[step_index]
    return lean_syntax.signature_key([*parts, lean_syntax.COLON, statement], read.theorem[2])


def step_of_hole(code: str, hole_index: int) -> int:
    """Which top-level step (or `len(steps)`: the closing tactics) hole `hole_index` stands for.
    Only a hole that is the step's whole proof (`:= by sorry`, `:= sorry`) or a top-level tactic
    after the last step stands for a statement we know."""
    read = read_sketch(code)
    found = read.holes
    if not 0 <= hole_index < len(found):
        raise LemmaBuildError(f"hole {hole_index} out of range: the code has {len(found)} holes")
    hole = found[hole_index]
    steps = read.steps
    for k, step in enumerate(steps):
        if step.proof_start <= hole.offset < step.proof_end:
            if read.whole_hole[k]:
                return k
            raise LemmaBuildError(f"hole {hole_index} is inside the proof of step '{step.name}', not all of it")
    # The closing hole: the only top-level tactic after the last step.
    last_step_end = steps[-1].end if steps else -1
    closing = [(s, e) for s, e in read.top_level if s > last_step_end]
    if len(closing) == 1 and closing[0][0] == hole.offset and closing[0][1] == hole.end:
        return len(steps)
    raise LemmaBuildError(
        f"hole {hole_index} is neither the whole proof of a top-level step nor the only closing tactic"
    )


# --------------------------------------------------------------------------------------------
# extract_goal
# --------------------------------------------------------------------------------------------


def extract_goal_tactic(name: str) -> str:
    """The tactic that prints the goal as `theorem <name> … := sorry`, keeping the whole context
    and the types of numerals and coercions."""
    return (
        "set_option pp.numericTypes true in set_option pp.coercions.types true in "
        f"extract_goal * using {name}"
    )


_TRAILING_SORRY = re.compile(r":=\s*sorry\s*\Z")


def parse_extract_goal(message: str, name: str) -> str | None:
    """The lemma text (`… := by\\n  sorry`) from extract_goal's message
    `theorem <name>[.{u}] <binders> : <type> := sorry`; None when the message is something else
    (a `def`: the goal is not a proposition)."""
    text = message.strip()
    if not text.startswith("theorem ") or not _TRAILING_SORRY.search(text):
        return None
    decl = lean_syntax.last_theorem(text)
    if decl is None or decl.name.strip("«»") != name.strip("«»"):
        return None
    return _TRAILING_SORRY.sub("", text).rstrip() + " := by\n  sorry"


@dataclass(frozen=True, slots=True)
class _Failure:
    reason: str
    checks: int


def _with_header(header: str, body: str) -> str:
    if header and not header.endswith("\n"):
        header += "\n"
    return header + body


async def _extract(
    verifier: Verifier, hole: Goal, *, name: str, header: str, timeout: float | None
) -> ExtractedLemma | _Failure:
    if hole.proof_state is None:
        return _Failure("the hole has no proof state", 0)
    try:
        result: TacticResult = await verifier.run_tactic(hole, extract_goal_tactic(name), timeout=timeout)
    except ProofStatesUnsupported as exc:
        return _Failure(f"the backend has no proof states: {exc}", 0)
    if result.error is not None:
        return _Failure(f"extract_goal did not run: {result.error}", 1)
    errors = [m.data for m in result.messages if m.severity is Severity.ERROR]
    if errors:
        return _Failure(f"extract_goal failed: {errors[0][:200]}", 1)
    infos = [m.data for m in result.messages if m.severity is Severity.INFO]
    statement = next((s for s in (parse_extract_goal(d, name) for d in infos) if s is not None), None)
    if statement is None:
        shown = infos[0][:120] if infos else "no info message"
        return _Failure(f"extract_goal printed no theorem named {name} ({shown})", 1)
    if "✝" in statement:
        # An inaccessible name survived renaming (inside a binder of the goal): it cannot parse.
        return _Failure("the extracted statement contains an inaccessible name (✝)", 1)
    check = await verifier.check(
        _with_header(header, "set_option autoImplicit false in\n" + statement), timeout=timeout
    )
    if check.status in (CheckStatus.TIMEOUT, CheckStatus.CRASHED) or check.errors:
        why = check.errors[0].format() if check.errors else (check.error or check.status.value)
        return _Failure(f"the extracted statement does not re-elaborate: {why[:200]}", 2)
    return ExtractedLemma(name=name, statement=statement, message=infos[0], check=check)


async def extract_lemma(
    verifier: Verifier, hole: Goal, *, name: str, header: str, timeout: float | None = None
) -> ExtractedLemma | None:
    """The hole's goal as a standalone lemma named `name`, via extract_goal and a round-trip
    check in the header's environment; None (reason logged) when any step fails, so that the
    caller falls back to the text lemma. A `VerifierError` other than `ProofStatesUnsupported`
    propagates: the backend itself is unusable."""
    out = await _extract(verifier, hole, name=name, header=header, timeout=timeout)
    if isinstance(out, _Failure):
        log.info("extract_goal lemma %s not used: %s", name, out.reason)
        return None
    return out


async def build_lemma(
    verifier: Verifier | None,
    code: str,
    hole_index: int,
    hole: Goal | None,
    *,
    name: str,
    header: str | None = None,
    timeout: float | None = None,
    include_previous: bool = True,
) -> BuiltLemma:
    """The lemma for hole `hole_index` of `code` (a sketch: `holes(code)[hole_index]`).

    extract_goal when the verifier supports proof states and `hole` carries one; otherwise, or
    when that fails, the text lemma (type b unless `include_previous=False`). `header` defaults
    to `split_header(code)[0]`. Raises `LemmaBuildError` when neither way applies."""
    if header is None:
        header = lean_syntax.split_header(code)[0]
    checks = 0
    reason: str
    if verifier is None or not verifier.supports_proof_states:
        reason = "the verifier has no proof states"
    elif hole is None or hole.proof_state is None:
        reason = "the hole has no proof state"
    else:
        out = await _extract(verifier, hole, name=name, header=header, timeout=timeout)
        if not isinstance(out, _Failure):
            return BuiltLemma(out.statement, name, "extract_goal", checks=2)
        checks, reason = out.checks, out.reason
        log.info("extract_goal lemma %s not used: %s", name, reason)
    try:
        step_index = step_of_hole(code, hole_index)
    except LemmaBuildError as exc:
        raise LemmaBuildError(f"{exc}; extract_goal not used: {reason}") from exc
    statement = lemma_from_step(code, step_index, include_previous=include_previous, name=name)
    method: LemmaMethod = "text_b" if include_previous else "text_a"
    key = lemma_key_from_step(code, step_index, include_previous=include_previous, name=name)
    return BuiltLemma(statement, name, method, checks=checks, fallback_reason=reason, key=key)

"""Whole-proof generation for one lemma, code extraction from model outputs, self-correction.

`Prover(llm, cot)` asks a prover model (DeepSeek-Prover-V2 / Goedel-Prover-V2 style) for `n`
proofs of a lemma and returns `ProofCandidate`s: the lemma re-stated EXACTLY as given, followed by
the model's tactic proof (`code`, header excluded), the tactic text alone (`body`, dedented, to fill
a hole), the raw output and the id of the LLM call. `correct` continues the conversation with
Lean's errors marked in the code (Goedel-Prover-V2's self-correction).

Extraction of the code from a model's output (fences, `<think>`, CoT headings) is
`agent.output`'s (`extract_lean_code`, imported from there); cutting the proof out of that code
(`find_decls`, `extract_proof_body`) reads Lean with `lemmaforge.lean.syntax` (comments, strings,
commands at any column, declarations, statement comparison, filling a hole), the same layer the
search engine and the audit read the code with.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lemmaforge.agent import prompts
from lemmaforge.agent.llm import LLM, Completion
from lemmaforge.agent.output import (
    dedent_lines,
    drop_restated,
    read_lean_code,
    trim_blank,
)
from lemmaforge.agent.presets import ProverPreset
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.syntax import COMMAND_KEYWORDS, analyze, same_statement, theorems_of

# ---------------------------------------------------------------------------------------------
# Lean text, just enough to cut model outputs (on lean.syntax's lexer and declarations)
# ---------------------------------------------------------------------------------------------


def mask_comments(text: str) -> str:
    """`text` with every character inside a comment (`-- …`, nested `/- … -/`, docstrings) or a
    string literal replaced by a space; newlines are kept, so offsets and lines are unchanged."""
    return lean_syntax.strip_comments(text, strings=True)


@dataclass(frozen=True, slots=True)
class Decl:
    """A `theorem` / `lemma` in a piece of Lean text (offsets into that text)."""

    name: str
    line_start: int  # start of the line of the `theorem` / `lemma` keyword
    kw_start: int  # the `theorem` / `lemma` keyword
    name_start: int  # the name after the keyword
    assign: int | None  # the top-level `:=` ending the statement (None: not found)
    end: int  # end of the declaration (start of the next top-level command, or of the text)


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _cut(text: str, pos: int, column: int) -> int:
    """Where the code that starts at `pos` stops being part of a declaration at `column`, read as
    Lean reads it: at the next command (any column, even mid-line), or at the first line whose
    first token is at or left of `column` outside brackets (a tactic block or a term cannot
    continue there: prose, a `where` clause or a stray command). The start of that line (or of the
    command, when code precedes it on its line); the end of the text when nothing stops it."""
    an = analyze(text)
    starts = set(an.starts)
    first = bisect.bisect_left([t.start for t in an.toks], pos)
    for j in range(first, len(an.toks)):
        t = an.toks[j]
        if j in starts or (an.line_start_tok[j] and an.depth[j] == 0 and an.col(j) <= column):
            line_start = an.lines.line_start(t.start)
            return line_start if not text[line_start : t.start].strip() else t.start
    return len(text)


def find_decls(text: str) -> list[Decl]:
    """The theorems and lemmas of `text`, as `lean.syntax.declarations` finds them (commands at
    any column). A declaration ends where Lean would end it after its `:=` (see `_cut`), or at the
    next theorem, or at the end of the text: model outputs put prose, `where` clauses or stray
    commands after a proof that must not end up in it."""
    theorems = theorems_of(analyze(text))
    decls: list[Decl] = []
    for k, d in enumerate(theorems):
        assign = None if d.body_start is None else d.body_start - len(":=")
        column = min(_column(text, d.start), _column(text, d.keyword_start))
        end = _cut(text, assign + 2 if assign is not None else d.signature_start, column)
        if k + 1 < len(theorems):
            end = min(end, _line_start(text, theorems[k + 1].keyword_start))
        decls.append(
            Decl(
                name=d.name,
                line_start=_line_start(text, d.keyword_start),
                kw_start=d.keyword_start,
                name_start=d.signature_start - len(d.universe_params) - len(d.name),
                assign=assign,
                end=end,
            )
        )
    return decls


def _starts_with_command(text: str) -> bool:
    """Whether `text` opens with a command (`import`, `open`, `def`, `#eval`, `@[…]`…) rather
    than a tactic: such a block is not a bare tactic proof."""
    toks = lean_syntax.tokens(text)
    return bool(toks) and (
        toks[0].kind == "hashcmd"
        or toks[0].text == "@["
        or (toks[0].kind == "ident" and toks[0].text in COMMAND_KEYWORDS)
    )


def _column(text: str, pos: int) -> int:
    return pos - _line_start(text, pos)


def decl_name(statement: str) -> str | None:
    """The name of the (last) theorem / lemma in `statement`; a bare identifier is its own name."""
    decls = find_decls(statement)
    if decls:
        return decls[-1].name
    s = statement.strip()
    return s if lean_syntax.is_ident(s) else None


def _find_target(code: str, name: str | None) -> Decl | None:
    decls = find_decls(code)
    if not decls:
        return None
    if name:
        named = [d for d in decls if d.name == name or d.name.endswith("." + name)]
        if named:
            return named[-1]
    return decls[-1]


def _after_by(masked: str, assign: int) -> int | None:
    """Offset just after `by` when the declaration's value is a tactic block, else None."""
    i = assign + 2
    while i < len(masked) and masked[i].isspace():
        i += 1
    if masked.startswith("by", i) and (
        i + 2 == len(masked) or not (masked[i + 2].isalnum() or masked[i + 2] in "_'!?")
    ):
        return i + 2
    return None


def _block_text(segment: str) -> str:
    """A tactic block as written after `by`: the rest of the `by` line, then the following lines,
    dedented together."""
    first, _, rest = segment.partition("\n")
    lines = dedent_lines(rest.split("\n")) if rest else []
    if first.strip():
        lines = [first.strip()] + lines
    return "\n".join(trim_blank(lines)).rstrip()


def _code_end(text: str, masked: str, start: int, end: int) -> int:
    """`end` pulled back over trailing blank and comment-only lines (a docstring of the next
    declaration must not end up in a proof)."""
    j = end
    while j > start and masked[j - 1].isspace():
        j -= 1
    nl = text.find("\n", j)
    return end if nl < 0 or nl > end else nl


def indent(block: str, spaces: int = 2) -> str:
    pad = " " * spaces
    return "\n".join(pad + ln if ln.strip() else "" for ln in block.split("\n"))


def extract_proof_body(code: str, statement: str) -> str | None:
    """The tactic proof of `statement`'s theorem in `code`: the text after its `:= by`, dedented
    (a term proof `:= t` becomes `exact t`). The theorem is found by the statement's name, else the
    last theorem / lemma in `code`. None when there is none or its proof is empty."""
    masked = mask_comments(code)
    target = _find_target(code, decl_name(statement))
    if target is None or target.assign is None:
        return None
    end = _code_end(code, masked, target.assign, target.end)
    by = _after_by(masked, target.assign)
    if by is not None:
        body = _block_text(code[by:end])
        return body or None
    term = _block_text(code[target.assign + 2 : end])
    if not term:
        return None
    first, _, rest = term.partition("\n")
    return f"exact {first}" + ("\n" + indent(rest, 2) if rest else "")


def open_statement(statement: str) -> str:
    """`statement` cut after its `:= by` (added when missing): the start of the declaration that
    a proof continues. Docstring and formatting are kept."""
    masked = mask_comments(statement)
    decls = find_decls(statement)
    if not decls or decls[-1].assign is None:
        text = statement.rstrip()
        for tail in ("sorry", "by", ":="):
            if text.endswith(tail):
                text = text[: -len(tail)].rstrip()
        return text + " := by"
    assign = decls[-1].assign
    by = _after_by(masked, assign)
    return statement[:by] if by is not None else statement[: assign + 2] + " by"


def statement_with_sorry(statement: str) -> str:
    """The canonical prompt form of a statement: `… := by\\n  sorry`."""
    return open_statement(statement) + "\n  sorry"


def replace_statement(code: str, target: Decl, statement: str) -> str:
    """`code` with `target`'s declaration (keyword up to its `:=`) replaced by `statement`'s, so
    the result states exactly the original. `target.assign` must be set."""
    decls = find_decls(statement)
    if not decls or decls[-1].assign is None or target.assign is None:
        raise ValueError("both the statement and the target need a `:=`")
    original = statement[decls[-1].kw_start : decls[-1].assign]
    return code[: target.kw_start] + original + code[target.assign :]


# ---------------------------------------------------------------------------------------------
# The prover
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProofCandidate:
    """One model proof of a lemma.

    `code` is the lemma as given (statement verbatim) with the model's tactic proof, preceded by
    any helper declarations the model wrote (`aux`); header excluded. `body` is the tactic proof
    alone, dedented, to fill a hole. `statement_changed` says the model's own restatement differed
    from the lemma (its proof is kept under the original statement; Lean judges it)."""

    code: str
    body: str
    raw: str
    call_id: str | None
    statement: str
    round: int = 0  # 0: first attempt; k: after k self-corrections
    history: tuple[Mapping[str, str], ...] = ()  # the chat that produced `raw` (completion mode: the prompt)
    finish_reason: str | None = None
    aux: str = ""
    statement_changed: bool = False

    @property
    def prompt(self) -> str:
        """The last prompt message (for the attempt record)."""
        return str(self.history[-1]["content"]) if self.history else ""

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"


def lemma_code(statement: str, body: str) -> str:
    """`statement` with its proof hole filled by `body`: `lemmaforge.lean.syntax.fill` (the way the
    search engine builds the file it checks, so that Lean's positions match), else (a body `fill`
    cannot place) `… := by` + the body indented by two."""
    try:
        text = statement if lean_syntax.holes(statement) else statement_with_sorry(statement)
        return lean_syntax.fill(text, {len(lean_syntax.holes(text)) - 1: body})
    except ValueError:  # a model's body that fill cannot place: the plain layout, Lean judges it
        return f"{open_statement(statement)}\n{indent(body)}"


def _aux_before(code: str, masked: str, target: Decl) -> str:
    """Declarations before `target` (helper lemmas), without the target's own docstring/comments."""
    j = target.line_start
    while j > 0 and masked[j - 1].isspace():
        j -= 1
    if j == 0:
        return ""
    nl = code.find("\n", j)
    return code[: nl if 0 <= nl < target.line_start else j].strip("\n").rstrip()


def build_candidate(
    statement: str,
    code: str,
    *,
    raw: str,
    completion: Completion | None = None,
    round_: int = 0,
    history: Sequence[Mapping[str, str]] = (),
    context: str | None = None,
) -> ProofCandidate | None:
    """Turn extracted `code` into a candidate for `statement`: find the model's theorem (by name,
    else its last one), take its tactic proof, put it under the ORIGINAL statement. A block with no
    declaration at all is read as a bare tactic proof. None when no proof can be cut out.

    The declarations the model wrote before its theorem are kept as `aux` (its helper lemmas: the
    proof may use them), less those `context` (the header the candidate is checked under, with the
    problem's own definitions) already has."""
    masked = mask_comments(code)
    target = _find_target(code, decl_name(statement))
    aux = ""
    changed = False
    if target is None:
        body = _block_text("\n" + code) if code.strip() else ""
        if not body or _starts_with_command(body):
            return None
    else:
        extracted = extract_proof_body(code[target.line_start : target.end], statement)
        if extracted is None:
            return None
        body = extracted
        aux = drop_restated(_aux_before(code, masked, target), context).strip("\n").rstrip()
        changed = not same_statement(statement, code[target.line_start : target.end])
    lemma = lemma_code(statement, body)
    full = f"{aux}\n\n{lemma}" if aux else lemma
    return ProofCandidate(
        code=full,
        body=body,
        raw=raw,
        call_id=completion.call_id if completion else None,
        statement=statement,
        round=round_,
        history=tuple(dict(m) for m in history),
        finish_reason=completion.finish_reason if completion else None,
        aux=aux,
        statement_changed=changed,
    )


def _continuation_code(text: str) -> str:
    """A completion-mode continuation (the proof after `:= by\n`): up to the closing fence or the
    next top-level command, without trailing comment lines."""
    cut = text.find("```")
    if cut >= 0:
        text = text[:cut]
    masked = mask_comments(text)
    nl = text.find("\n")
    end = _code_end(text, masked, 0, _cut(text, len(text) if nl < 0 else nl + 1, 0))
    return text[:end]


OnCandidate = Callable[["ProofCandidate"], None]


class Prover:
    """Proves one lemma at a time with a prover model.

    - chat endpoints: DeepSeek-Prover-V2's prompt, non-CoT or CoT (`cot=True`); the proof is the
      final Lean block of the answer.
    - completion endpoints (`llm.mode == "completion"`): the V1.5-style open code block, the model
      continues after `:= by` (non-CoT only), stopping at the closing fence.
    `sampling` holds default keyword arguments for `llm.generate` (temperature, max_tokens, …)."""

    def __init__(
        self, llm: LLM, cot: bool = False, *, max_errors: int = prompts.MAX_ERRORS,
        preset: ProverPreset | None = None, **sampling: Any,
    ):
        self.llm = llm
        self.cot = cot
        self.max_errors = max_errors
        self.preset = preset
        self.sampling = sampling
        if preset is not None:
            if llm.mode != preset.endpoint:
                raise ValueError(
                    f"prover preset {preset.name} needs a {preset.endpoint} endpoint; this prover's LLM is in "
                    f"{llm.mode} mode"
                )
        elif cot and self.completion_mode:
            raise ValueError("CoT prompting needs a chat endpoint; this prover's LLM is in completion mode")

    @property
    def corrects(self) -> bool:
        """Whether `correct` asks the model anything: not for a preset whose family was not
        trained to correct from Lean's errors (the search then spends no correction round)."""
        return self.preset is None or self.preset.correction is not None

    @property
    def completion_mode(self) -> bool:
        return self.llm.mode == "completion"

    def has_room(self) -> bool:
        """Whether the model has room for a request started ahead of need (`LLM.has_room`)."""
        return self.llm.has_room()

    async def _generate(
        self, inp: Any, n: int, sampling: dict[str, Any],
        build: Callable[[list[Completion]], list[ProofCandidate]], on_candidate: OnCandidate | None,
    ) -> list[ProofCandidate]:
        """The candidates of one request (`build` makes them from outputs). With `on_candidate`,
        each is told as soon as its sample is complete (where the model streams, while the
        others are still decoding), once, and the result lists those very objects."""
        opts = {**self.sampling, **sampling}
        if self.completion_mode:
            stops = opts.get("stop") or []
            stops = [stops] if isinstance(stops, str) else list(stops)
            opts["stop"] = [*stops, "```"] if "```" not in stops else stops
        if on_candidate is None:
            return build(await self.llm.generate(inp, n=n, **opts))
        built: dict[int, list[ProofCandidate]] = {}  # by id() of the output

        def told(out: Completion) -> None:
            if id(out) in built:
                return
            built[id(out)] = build([out])
            for candidate in built[id(out)]:
                on_candidate(candidate)

        outs = await self.llm.generate(inp, n=n, on_sample=told, **opts)
        for out in outs:  # any the model did not tell (`told` tells each once)
            told(out)
        return [candidate for out in outs for candidate in built[id(out)]]

    async def prove(
        self, header: str, lemma_statement: str, n: int = 1, *, informal: str | None = None,
        on_candidate: OnCandidate | None = None, **sampling: Any,
    ) -> list[ProofCandidate]:
        """Up to `n` candidates (outputs with no usable proof are dropped; the LLM call record keeps
        them). `informal`: the problem's informal statement, the docstring of the theorem in the
        prompt (DeepSeek-Prover-V2's miniF2F layout, and the one training rows are built with) —
        for the theorem itself, not for a subgoal lemma it does not describe. `on_candidate`:
        told each candidate as soon as its sample is complete (see `_generate`)."""
        if self.preset is not None:
            request = self.preset.request(header, open_statement(lemma_statement), informal)
            if isinstance(request, str):  # a raw-completion family: the model continues the statement
                asked = ({"role": "user", "content": request},)
                return await self._generate(
                    request, n, sampling, lambda outs: self._from_continuations(lemma_statement, outs, asked, 0),
                    on_candidate)
            return await self._generate(
                request, n, sampling, lambda outs: self._from_outputs(header, lemma_statement, outs, request, 0),
                on_candidate)
        if self.completion_mode:
            prompt = prompts.prover_completion_prompt(header, open_statement(lemma_statement) + "\n", informal)
            history = ({"role": "user", "content": prompt},)
            return await self._generate(
                prompt, n, sampling, lambda outs: self._from_continuations(lemma_statement, outs, history, 0),
                on_candidate)
        messages = prompts.prover_messages(header, statement_with_sorry(lemma_statement), cot=self.cot,
                                           informal=informal)
        return await self._generate(
            messages, n, sampling, lambda outs: self._from_outputs(header, lemma_statement, outs, messages, 0),
            on_candidate)

    async def correct(
        self,
        header: str,
        candidate: ProofCandidate,
        errors: Sequence[Any],
        n: int = 1,
        *,
        checked_code: str | None = None,
        on_candidate: OnCandidate | None = None,
        **sampling: Any,
    ) -> list[ProofCandidate]:
        """Self-correction: show the model its previous answer and Lean's errors, ask again.

        `errors`: the verifier's `Message`s, REPL message dicts, or strings (`Message.format()`'s
        `line:col: error: …` is read back into a position), with positions relative to
        `checked_code`, the exact file Lean checked — by default what the search engine checks:
        `header + candidate.code` (the model's helper declarations, then the lemma with its
        proof). `on_candidate`: as for `prove`.

        With a preset, the preset's correction turn (Goedel-Prover-V2's or Kimina's), or no request
        at all for a family not trained to correct from Lean's errors."""
        if checked_code is None:
            checked_code = prompts.with_header(header, candidate.code)
        checked = checked_code
        errs = prompts.only_errors(list(errors))
        if self.preset is not None:
            correction = self.preset.correction
            if correction is None or not candidate.history:
                return []
            if correction == "kimina":
                feedback = prompts.kimina_error_message(checked, errs)
            else:
                feedback = prompts.prover_correction_feedback(
                    prompts.format_errors(checked, errs, max_errors=self.max_errors), candidate.round)
            messages = [{"role": str(m["role"]), "content": str(m["content"])} for m in candidate.history]
            messages += [{"role": "assistant", "content": candidate.raw}, {"role": "user", "content": feedback}]
            return await self._generate(
                messages, n, sampling,
                lambda outs: self._from_outputs(header, candidate.statement, outs, messages, candidate.round + 1),
                on_candidate)
        if self.completion_mode:
            annotated = prompts.annotate_errors_inline(checked, errs, max_errors=self.max_errors)
            prefix = prompts.with_header(header, "")
            if prefix and checked.startswith(prefix):
                annotated = "\n".join(annotated.split("\n")[prefix.count("\n") :])
            prompt = prompts.prover_correction_completion_prompt(
                header, open_statement(candidate.statement) + "\n", annotated.strip("\n"), candidate.round
            )
            asked = ({"role": "user", "content": prompt},)
            return await self._generate(
                prompt, n, sampling,
                lambda outs: self._from_continuations(candidate.statement, outs, asked, candidate.round + 1),
                on_candidate)
        history = list(candidate.history) or prompts.prover_messages(
            header, statement_with_sorry(candidate.statement), cot=self.cot
        )
        errors_text = prompts.format_errors(checked, errs, max_errors=self.max_errors)
        messages = prompts.prover_correction_messages(history, candidate.raw, errors_text, candidate.round)
        return await self._generate(
            messages, n, sampling,
            lambda outs: self._from_outputs(header, candidate.statement, outs, messages, candidate.round + 1),
            on_candidate)

    def _from_outputs(
        self,
        header: str,
        statement: str,
        outs: list[Completion],
        history: Sequence[Mapping[str, str]],
        round_: int,
    ) -> list[ProofCandidate]:
        result = []
        reader = self.preset.reader if self.preset is not None else "deepseek"
        for out in outs:
            code = read_lean_code(out.text, header, reader=reader, cut_off=out.finish_reason == "length")
            cand = (
                None
                if code is None
                else build_candidate(
                    statement, code, raw=out.text, completion=out, round_=round_, history=history, context=header
                )
            )
            if cand is not None:
                result.append(cand)
        return result

    def _from_continuations(
        self, statement: str, outs: list[Completion], history: Sequence[Mapping[str, str]], round_: int
    ) -> list[ProofCandidate]:
        result = []
        for out in outs:
            body = _block_text("\n" + _continuation_code(out.text))
            if not body:
                continue
            result.append(
                ProofCandidate(
                    code=lemma_code(statement, body),
                    body=body,
                    raw=out.text,
                    call_id=out.call_id,
                    statement=statement,
                    round=round_,
                    history=tuple(dict(m) for m in history),
                    finish_reason=out.finish_reason,
                )
            )
        return result


__all__ = [
    "Decl",
    "OnCandidate",
    "ProofCandidate",
    "Prover",
    "build_candidate",
    "decl_name",
    "extract_proof_body",
    "find_decls",
    "indent",
    "lemma_code",
    "mask_comments",
    "open_statement",
    "replace_statement",
    "statement_with_sorry",
]

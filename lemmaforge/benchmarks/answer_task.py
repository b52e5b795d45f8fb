"""One attempt of PutnamBench's answer task (`bench --answers fill`): the model fills the answer
`abbrev`s and proves the theorem with its own answers (see `benchmarks.answers` for the rules).

An attempt of a problem with answer slots, in one child run:

1. The answer sample: ONE prover request for the whole file, with the preset's own prompt. The
   problem is shown as the other modes show it (the slot `abbrev … := sorry`, its reference
   comment removed): the file the model writes holds the `abbrev`s with their values and the
   theorem with its proof. The values are read and refused or accepted (`answers.read_answers`):
   a refused answer ends the attempt, not proved, with the reason.
2. The model's file, checked whole: the problem's statement with the model's values in place of
   `sorry` (nothing else of it changed), the model's helper lemmas, and OUR theorem with its proof
   body; audited against the ORIGINAL statement (answer slots `:= sorry`): the audit lets a slot
   receive a value and nothing else change (lean/audit/), refuses `sorry` anywhere, and asks
   Lean for the axioms and the theorem's type.
3. Not proved by its own proof: with budget left (`search` protocol), a search on the problem
   with the model's answer in place, as any other problem (its final proof is audited against
   that statement, which differs from the original only in the slot values, by construction).
   The answer sample counts in the attempt's budget: one model request and one root whole-proof
   sample fewer for the search. Under `--protocol whole-proof` that leaves nothing: exactly one
   sample per attempt, as the papers count.

The child run's summary carries `answer`: the values, the dataset's reference answers and
whether they match (`answers.answers_match`), or why the answer was refused. The report reads it.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from lemmaforge.agent.output import drop_restated, extract_lean_code
from lemmaforge.benchmarks import answers as ans
from lemmaforge.benchmarks.answers import ANSWER_TASK
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.audit import audit
from lemmaforge.lean.gate import DatasetRejected, GatedVerifier
from lemmaforge.records import (
    ForwardingRecorder,
    LLMCallRecord,
    ProblemRecord,
    ProofRecord,
    Record,
    RunFinished,
    RunStarted,
    StoreRecorder,
    new_id,
)
from lemmaforge.search.budget import SearchStats
from lemmaforge.search.cache import normalize_statement
from lemmaforge.search.interfaces import SearchResult
from lemmaforge.search.tree import ProofTree
from lemmaforge.services import Services, agents_for_run, prove_problem

if TYPE_CHECKING:
    from lemmaforge.agent.prover import ProofCandidate
    from lemmaforge.config import Settings

__all__ = ["answer_summary", "is_answer_problem", "prove_with_answers"]

def is_answer_problem(problem: ProblemRecord) -> bool:
    return (problem.extra or {}).get(ANSWER_TASK) == "fill"


def _reference(problem: ProblemRecord) -> dict[str, str]:
    """The dataset's reference answers: the comments the statement had before they were hidden."""
    original = (problem.extra or {}).get("original_statement")
    return ans.reference_answers(original) if isinstance(original, str) else {}


def answer_summary(problem: ProblemRecord, read: ans.ModelAnswers) -> dict[str, Any]:
    reference = _reference(problem)
    out: dict[str, Any] = {"values": dict(read.values), "reference": reference}
    if read.refused is not None:
        out["refused"] = read.refused
    else:
        out["match"] = ans.answers_match(read.values, reference)
    return out


class _AnswerRecorder(ForwardingRecorder):
    """The attempt's recorder for the search on the problem with the model's answer: the stored
    problem stays the dataset's (the engine's record of the filled statement is not stored), and
    the run's end adds the answer step's cost and the answer to its summary."""

    def __init__(self, inner: StoreRecorder, problem: ProblemRecord, run_id: str, extra: dict[str, Any]) -> None:
        super().__init__(inner)
        self.problem = problem
        self.run_id = run_id
        self.extra = extra
        self.calls = 0
        self.checks = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0

    def emit(self, record: Record) -> None:
        if isinstance(record, ProblemRecord) and record.problem_id == self.problem.problem_id:
            record = self.problem
        elif isinstance(record, RunFinished) and record.run_id == self.run_id:
            s = dict(record.summary)
            for key, add in (("calls", self.calls), ("checks", self.checks), ("used_calls", self.calls),
                             ("used_checks", self.checks), ("prompt_tokens", self.prompt_tokens),
                             ("completion_tokens", self.completion_tokens)):
                if isinstance(s.get(key), int):
                    s[key] += add
            record = replace(record, summary={**s, **self.extra})
        self.inner.emit(record)


class _Tokens(ForwardingRecorder):
    """Counts the tokens of the answer request (its call record) on the way to the store."""

    def __init__(self, inner: StoreRecorder, run_id: str) -> None:
        super().__init__(inner)
        self.run_id = run_id
        self.calls = self.prompt_tokens = self.completion_tokens = 0

    def emit(self, record: Record) -> None:
        if isinstance(record, LLMCallRecord) and record.run_id == self.run_id:
            self.calls += 1
            self.prompt_tokens += record.prompt_tokens
            self.completion_tokens += record.completion_tokens
        self.inner.emit(record)


def _split(problem: ProblemRecord) -> tuple[str, str]:
    """(header + everything before the theorem, the theorem): the engine's split."""
    theorem = lean_syntax.last_theorem(problem.statement)
    cut = theorem.start if theorem is not None else 0
    return problem.header + problem.statement[:cut], problem.statement[cut:]


def _without_slots(aux: str, names: set[str]) -> str:
    """The model's helper declarations less its answer `abbrev`s (they are placed in the problem)."""
    cuts = [(d.start, d.end) for d in lean_syntax.declarations(aux) if d.name in names]
    for start, end in reversed(cuts):
        aux = aux[:start] + aux[end:]
    return aux.strip("\n")


def _model_file(candidate: ProofCandidate, header: str, slots: set[str]) -> str:
    """The model's file to read the answers from: its helper declarations (as the preset read its
    output) when they define an answer, else its last Lean block as written (an answer restated
    as `… := sorry` is dropped from the helpers as part of the problem: the block still shows it)."""
    if any(d.name in slots for d in lean_syntax.declarations(candidate.aux)):
        return candidate.aux
    return extract_lean_code(candidate.raw, header) or candidate.aux


async def prove_with_answers(
    services: Services,
    settings: Settings,
    problem: ProblemRecord,
    *,
    run_id: str,
    parent_run_id: str | None,
    run_config: dict[str, Any],
    versions_record: dict[str, Any],
    recorder: StoreRecorder,
) -> SearchResult:
    """The attempt (see the module docstring). Records like `services.prove_problem` does (the
    problem, the run's start and end, its proof), the answer in the run's summary."""
    started = time.monotonic()
    tokens = _Tokens(recorder, run_id)
    _planner, prover = agents_for_run(replace(services, recorder=tokens), settings, run_id)
    if prover is None:
        raise ValueError("the answer task needs a prover")  # the CLI refuses it before (exit 2)
    context, theorem = _split(problem)
    candidates = await prover.prove(context, theorem, n=1, informal=problem.informal)
    code = problem.header + problem.statement
    if not candidates:
        read = ans.ModelAnswers(refused="no answer: the model's output has no usable Lean file")
    else:
        slots = {d.name for d in lean_syntax.answer_slots(code)}
        read = ans.read_answers(code, _model_file(candidates[0], context, slots))
    extra = {"answer": answer_summary(problem, read)}
    stats = SearchStats(llm_calls=tokens.calls, prompt_tokens=tokens.prompt_tokens,
                        completion_tokens=tokens.completion_tokens)

    def finish(status: str, reason: str, proof: str | None = None, report: Any = None) -> SearchResult:
        result = SearchResult(run_id=run_id, proved=status == "proved", proof=proof, depth=0 if proof else None,
                              seconds=time.monotonic() - started, stats=stats, stop_reason=reason, tree=ProofTree(),
                              audit=report)
        recorder.emit(problem)
        recorder.emit(RunStarted(run_id, "prove", run_config, versions_record, problem.problem_id, parent_run_id))
        if proof is not None and report is not None:
            recorder.emit(ProofRecord(
                run_id, new_id(), "whole", context, problem.statement, normalize_statement(problem.statement), proof,
                problem_id=problem.problem_id, strategy="prover", depth=0, audit=report.to_json()))
        summary = {k: v for k, v in result.to_json().items() if k not in ("proof", "audit")}
        recorder.emit(RunFinished(run_id, status, {**summary, **extra}))  # type: ignore[arg-type]
        return result

    if not read.ok:
        return finish("not_proved", f"answer refused: {read.refused}")

    filled = replace(problem, statement=ans.with_answers(problem.statement, read.values))
    filled_context, filled_theorem = _split(filled)
    # Only the slots' values may differ from the original (the final audit of the search below is
    # against the filled statement); the filled problem must pass the dataset gate like any row.
    changed = lean_syntax.preamble_diff(code, problem.header + filled.statement, allow_added_lemmas=False)
    if changed or filled_theorem != theorem:
        extra["answer"]["refused"] = "the answer's text changes the problem beyond the slot's value"
        extra["answer"].pop("match", None)
        return finish("not_proved", "answer refused: it changes the problem beyond the slot's value")
    if isinstance(services.verifier, GatedVerifier):  # the dataset gate, where the verifier is gated
        try:
            services.verifier.admit(problem.header + filled.statement, row=problem.name)
        except DatasetRejected as exc:
            extra["answer"]["refused"] = f"the answer is outside the dataset whitelist: {exc}"[:300]
            extra["answer"].pop("match", None)
            return finish("not_proved", "answer refused: outside the dataset whitelist")
    candidate = candidates[0]
    aux = drop_restated(_without_slots(candidate.aux, set(read.values)), filled_context)
    whole = filled_context + (aux.strip("\n") + "\n\n" if aux.strip() else "") + lean_syntax.fill(
        theorem, [candidate.body])
    # The verifier itself (gated: judge and audit recognise it), not a wrapper: one Lean request
    # when the audit's text checks let the file through (the probe rides with it).
    report = await audit(whole, services.verifier, original=code, config=settings.audit,
                         timeout=settings.verifier.timeout)
    stats.checks = 1 if report.check is not None else 0
    if report.ok:
        return finish("proved", "proved", whole, report)

    rest = _after_answer_sample(settings)
    if rest is None:
        why = "; ".join(str(r) for r in report.reasons[:2]) or report.status.value
        return finish("not_proved", f"the model's file with its answer failed: {why}"[:300])
    # the search on the problem with the model's answer, the answer sample's cost charged to it
    wrapped = _AnswerRecorder(recorder, problem, run_id, extra)
    wrapped.calls, wrapped.checks = stats.llm_calls, stats.checks
    wrapped.prompt_tokens, wrapped.completion_tokens = stats.prompt_tokens, stats.completion_tokens
    result = await prove_problem(services, rest, filled, run_id=run_id, parent_run_id=parent_run_id,
                                 run_config=run_config, versions_record=versions_record, recorder=wrapped)
    result.stats.llm_calls += stats.llm_calls
    result.stats.checks += stats.checks
    result.stats.prompt_tokens += stats.prompt_tokens
    result.stats.completion_tokens += stats.completion_tokens
    return result


def _after_answer_sample(settings: Settings) -> Settings | None:
    """The settings of the search after the answer sample (one model request and one root sample
    spent), or None when that leaves the search nothing to do (the whole-proof protocol)."""
    budget = settings.budget
    roots = budget.root_whole_proof_attempts - 1
    decomposes = bool(settings.planner.url) and budget.max_depth > 0
    if budget.llm_calls <= 1 or (roots <= 0 and not decomposes):
        return None
    out = settings.model_copy(deep=True)
    out.budget.llm_calls = budget.llm_calls - 1
    out.budget.root_whole_proof_attempts = max(0, roots)
    return out

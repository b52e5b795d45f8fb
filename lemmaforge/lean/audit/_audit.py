"""The audit run: the text checks before Lean (steps 1 to 3 of the package's docstring), what is
sent (`text_to_check`, the candidate with the product's probe), and Lean's answers judged (steps 4
to 8: `audit`). The report's types are `_report.py`; Lean's declaration listing against the
whitelist (step 7) is `_listing.py`; reading Lean's answers to the probe is `_judge.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lemmaforge.config import AuditConfig
from lemmaforge.lean import gate
from lemmaforge.lean import syntax as lean_code
from lemmaforge.lean.audit import _judge as judge
from lemmaforge.lean.audit._judge import name_key as _name_key
from lemmaforge.lean.audit._judge import parse_probe
from lemmaforge.lean.audit._listing import DeclWhitelist, _judge_listing
from lemmaforge.lean.audit._report import (
    _STATIC_REJECTIONS,
    AuditReport,
    AuditStatus,
    Reason,
    Rejection,
    _status,
)
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Message,
    ProbingVerifier,
    StatementChecker,
    Verifier,
)

NATIVE_DECIDE_AXIOMS = ("Lean.ofReduceBool", "Lean.trustCompiler")


# --- text checks -------------------------------------------------------------------------------

def banned_constructs(candidate: str, original: str | None = None) -> list[Rejection]:
    """What the whitelist gate refuses in `candidate`, the commands of `original`'s context being
    trusted (ProverBench headers legitimately declare axioms and helper lemmas)."""
    context = gate.Context.of(original) if original is not None else gate.Context()
    return gate_rejections(gate.check_candidate(candidate, context))


def _norm(s: str) -> str:
    return " ".join(s.split())


def sorry_tokens(candidate: str) -> list[tuple[str, int]]:
    """(`sorry`|`admit`|`sorryAx`, line) for each real token outside comments, docstrings and
    strings: anywhere in the file, helper lemmas included, whatever the native_decide policy."""
    return [(t.text, t.line) for t in lean_code.find_tokens(candidate, ("sorry", "admit", "sorryAx"))]


def code_only(code: str) -> str:
    """`code` with comments, docstrings and string/char literals blanked (offsets and newlines
    kept), so text patterns see only what Lean elaborates."""
    chars = list(code)
    for t in lean_code.tokens(code, comments=True):
        if t.kind in ("comment", "doc", "string", "char"):
            for i in range(t.start, t.end):
                if chars[i] != "\n":
                    chars[i] = " "
    return "".join(chars)


# --- context before the theorem ------------------------------------------------------------------


def context_changes(original: str, candidate: str) -> list[str]:
    """What the candidate changed before its theorem. The header is not the statement: imports,
    `open`s of namespaces and resource/printing options may differ from the original's (added, left
    out, in any order), since Lean's print of the theorem's elaborated type, compared with the
    original's after the check (`_lean_statement_type`), sees whatever they change in it. Every
    other original command (a definition, a lemma proved by `sorry`, an answer slot…) must still be
    there, in order, unchanged (an answer slot `… := sorry` may get a value) and under the imports
    and opens it had in the original (Lean's print does not show a definition's body); additions may
    only be proved lemmas and header commands: anything else (an instance, a definition, an `open …
    renaming`, a `Lake` import…) could change what the unchanged statement text MEANS (e.g. a new
    `LT ℝ` instance). See `syntax.preamble_diff`."""
    return lean_code.preamble_diff(original, _without_examples(candidate), allow_answer_slots=True,
                                   allow_added_lemmas=True, allow_header_changes=True)


def _without_examples(code: str) -> str:
    """`code` with its `example`s blanked (newlines kept): an example adds nothing to the
    environment, so it cannot change what the statement means (the gate judged its text)."""
    chars = list(code)
    for cmd in lean_code.split_commands(code):
        if cmd.keyword == "example":
            for i in range(cmd.start, cmd.end):
                if chars[i] != "\n":
                    chars[i] = " "
    return "".join(chars)


# --- axioms ------------------------------------------------------------------------------------

def parse_axioms(result: CheckResult, theorem: str) -> list[str] | None:
    """Compatibility: the axiom list in any info message of `result` naming exactly `theorem`.
    The audit itself reads only the probe's own messages (`parse_probe`)."""
    return parse_probe(list(result.messages), theorem)


def full_theorem_name(candidate: str, name: str, start: int) -> str:
    """The full name (enclosing namespaces, `_root_.` removed, «» where Lean needs them) of the
    declaration `name` that starts at offset `start`, as the syntax layer resolves it."""
    for cmd in lean_code.split_commands(candidate):
        if cmd.start <= start < max(cmd.end, cmd.start + 1) and cmd.name == name and cmd.full_name:
            return cmd.full_name
    for cmd in lean_code.split_commands(candidate):
        if cmd.name == name and cmd.full_name and cmd.start >= start:
            return cmd.full_name
    return name[len("_root_.") :] if name.startswith("_root_.") else name


def with_axiom_probe(candidate: str, full_name: str) -> str:
    return gate.with_probe(candidate, full_name)


# --- the audit ---------------------------------------------------------------------------------

_GATE_REASONS = {
    gate.Reason.COMMAND: "BANNED_COMMAND",
    gate.Reason.CODE: "RUNS_CODE",
    gate.Reason.OPTION: "BANNED_OPTION",
    gate.Reason.ATTRIBUTE: "BANNED_ATTRIBUTE",
    gate.Reason.MODIFIER: "BANNED_MODIFIER",
    gate.Reason.CONTEXT: "CONTEXT_CHANGED",
    gate.Reason.SYNTAX: "UNREADABLE",
}

def statement_diff(original: Any, candidate: Any, max_lines: int = 12) -> str:
    """A short unified diff (original → candidate) of two theorem statements (signatures, no
    proofs), as text to append to a rejection: the user sees WHAT changed, not only that it did."""
    import difflib

    if original is None or candidate is None:
        return ""
    a, b = original.statement.splitlines(), candidate.statement.splitlines()
    lines = list(difflib.unified_diff(a, b, "original", "candidate", n=1, lineterm=""))
    if not lines:  # same text: what differs is outside the signature (e.g. an `open … in` prefix)
        return ""
    if len(lines) > max_lines:
        lines = [*lines[:max_lines], f"… ({len(lines) - max_lines} more diff lines)"]
    return ":\n" + "\n".join("    " + ln for ln in lines)


def gate_rejections(violations: list[gate.Violation]) -> list[Rejection]:
    return [Rejection(Reason[_GATE_REASONS[v.reason]], f"{v.detail}" + (f" at line {v.line}" if v.line else ""))
            for v in violations]


def trusted_context(candidate: str, original: str | None, *, trust_dataset: bool, row: str) -> gate.Context:
    """The problem context the candidate may repeat. With `original`: its context after the dataset
    gate (DatasetRejected unless `trust_dataset`). Without: the candidate's own context commands
    that a dataset row could hold (imports, opens, options, plain definitions)."""
    if original is not None:
        return gate.admit_problem(original, row=row, trust=trust_dataset)
    ctx = gate.Context()
    for cmd in gate.problem_context(candidate):
        text = candidate[cmd.start : cmd.end]
        if not gate.check_dataset_text(text):
            ctx.commands.add(cmd.key)
    return ctx


def static_audit(
    candidate: str, original: str | None = None, *, context: gate.Context | None = None
) -> tuple[str | None, int, list[Rejection]]:
    """Everything that can be decided without Lean: (theorem name, its offset, rejections).

    With `original`, the theorem is the candidate's declaration with the original's name (never
    the last one by position) and its signature must be the original's exact token sequence
    (`syntax.statement_match`)."""
    if context is None:
        context = trusted_context(candidate, original, trust_dataset=True, row="original")
    if original is None:
        theorem = lean_code.last_theorem(candidate)
        if theorem is None:
            return None, 0, [Rejection(Reason.NO_THEOREM, "no theorem or lemma found")]
        return theorem.name, theorem.start, gate_rejections(gate.check_candidate(candidate, context))
    wanted = lean_code.last_theorem(original)
    if wanted is None:
        return None, 0, [Rejection(Reason.NO_THEOREM, "the original has no theorem or lemma")]
    match = lean_code.statement_match(original, candidate)
    theorem = match.target
    reasons = gate_rejections(gate.check_candidate(candidate, context))
    if theorem is None:
        if lean_code.last_theorem(candidate) is None:
            return None, 0, [Rejection(Reason.NO_THEOREM, "no theorem or lemma found"), *reasons]
        return None, 0, [*reasons, Rejection(Reason.STATEMENT_CHANGED, f"{match.detail}: the proof must state the "
                                             f"original theorem '{wanted.full_name or wanted.name}'"
                                             + statement_diff(wanted, lean_code.last_theorem(candidate)))]
    if not match.same:
        reasons.append(
            Rejection(
                Reason.STATEMENT_CHANGED,
                f"theorem '{theorem.name}' does not state the original theorem ({match.detail})"
                + statement_diff(wanted, theorem),
            )
        )
    else:
        reasons.extend(Rejection(Reason.CONTEXT_CHANGED, d) for d in context_changes(original, candidate))
    return theorem.name, theorem.start, reasons


@dataclass(slots=True)
class _Staged:
    """An audit's state once everything that needs no Lean is decided and the text may be sent."""

    report: AuditReport
    full_name: str
    theorem_line: int
    inherited: int
    leftover: list[tuple[str, int]]
    probe: judge.Probe
    helpers: tuple[str, ...] = ()  # the other theorems/lemmas the candidate added, probed too
    whitelist: DeclWhitelist | None = None  # what Lean's declaration listing may contain


def _stage(
    candidate: str, verifier: Verifier, original: str | None, trust_dataset: bool | None, row: str
) -> AuditReport | _Staged:
    """The audit up to Lean: a final report when it is decided without Lean (the text is then never
    sent), else what the Lean part needs. The candidate is read once for all its readings here
    (a whole proof can exceed the syntax memos' budgets), and let go before Lean is waited on."""
    with lean_code.keeping(candidate):
        return _stage_read(candidate, verifier, original, trust_dataset, row)


def _stage_read(
    candidate: str, verifier: Verifier, original: str | None, trust_dataset: bool | None, row: str
) -> AuditReport | _Staged:
    gated = gate.gate_of(verifier)
    if trust_dataset is None:
        trust_dataset = gated.trust_dataset if gated is not None else False
    context = trusted_context(candidate, original, trust_dataset=trust_dataset, row=row)
    name, start, reasons = static_audit(candidate, original, context=context)
    if name is None:
        return AuditReport(AuditStatus.REJECTED, reasons=reasons)
    full_name = full_theorem_name(candidate, name, start)
    report = AuditReport(AuditStatus.PROVED, theorem=full_name, reasons=list(reasons))
    if any(r.reason in _STATIC_REJECTIONS for r in reasons):
        # Refused before Lean: the text is never sent (a cheat may run code on the Lean host).
        report.status = _status(report.reasons)
        return report
    if not gate.valid_probe_name(full_name):
        report.reasons.append(Rejection(Reason.NO_THEOREM, f"cannot probe the name '{full_name}'"))
        report.status = AuditStatus.REJECTED
        return report
    helpers, unprobed = _added_declarations(candidate, original, full_name)
    if unprobed:
        report.reasons.extend(unprobed)
        report.status = _status(report.reasons)
        return report
    theorem_line = candidate.count("\n", 0, start) + 1
    inherited = _inherited_sorries(original)
    leftover = _new_sorries(sorry_tokens(candidate), theorem_line, inherited)
    if gated is not None:
        gated.trust(context)
    probe = judge.Probe.build(full_name, others=helpers, type_of=original is not None,
                              nonce=judge.nonce_for(candidate))
    return _Staged(report, full_name, theorem_line, inherited, leftover, probe, helpers,
                   DeclWhitelist.of(candidate, original, full_name))


def _added_declarations(candidate: str, original: str | None, target: str) -> tuple[tuple[str, ...], list[Rejection]]:
    """(full names of the theorems/lemmas the candidate added besides its target: each is probed
    with `#print axioms`, refusals). An `example` has no name to probe: a final proof may not hold
    one (the gate judged its text, but only Lean could say what it depends on)."""
    ours = lean_code.declarations(original) if original is not None else []
    context = {d.full_name for d in ours if d.full_name}  # ProverBench header lemmas (proved by sorry)
    examples = {lean_code.normalize_statement(d.text) for d in ours if d.kind == "example"}
    names: list[str] = []
    refused: list[Rejection] = []
    for decl in lean_code.declarations(candidate):
        if decl.kind == "example" and lean_code.normalize_statement(decl.text) not in examples:
            line = candidate.count("\n", 0, decl.start) + 1
            refused.append(Rejection(Reason.EXAMPLE, f"`example` at line {line}: it has no name for the axiom "
                                                      "probe; state it as a lemma"))
        elif decl.kind in ("theorem", "lemma") and decl.full_name and decl.full_name not in (target, *context):
            if gate.valid_probe_name(decl.full_name):
                names.append(decl.full_name)
            else:
                refused.append(Rejection(Reason.NO_THEOREM, f"cannot probe the name '{decl.full_name}'"))
    return tuple(dict.fromkeys(names)), refused


def text_to_check(
    candidate: str, verifier: Verifier, *, original: str | None = None, trust_dataset: bool | None = None,
    row: str = "original",
) -> str | None:
    """The exact text `audit(candidate, verifier, …)` would send through `verifier.check`, or None
    when it would send none that way: decided before Lean (refused, or a dataset row not admitted),
    or a verifier that probes its own way (the gated verifier's `check_probed`, a `ProbingVerifier`). For starting that
    check ahead of the audit (schedule/assembly_ahead.py): the audit then takes the check by its
    text, so nothing reaches Lean that the audit itself would not have sent."""
    if isinstance(verifier, gate.GatedVerifier | ProbingVerifier) or judge.probes_apart(verifier):
        return None
    try:
        staged = _stage(candidate, verifier, original, trust_dataset, row)
    except gate.DatasetRejected:
        return None  # the audit itself will raise it
    return None if isinstance(staged, AuditReport) else judge.with_probe(candidate, staged.probe)


async def audit(
    candidate: str,
    verifier: Verifier,
    *,
    original: str | None = None,
    config: AuditConfig | None = None,
    timeout: float | None = None,
    trust_dataset: bool | None = None,
    row: str = "original",
) -> AuditReport:
    """Audit `candidate` (a whole Lean file). With `original`, the theorem must state the same.

    Nothing reaches Lean unless the gate passed it; the verdict on axioms comes only from the
    messages Lean attached to the product's own probe. `trust_dataset` (default: the gated
    verifier's setting, else False) accepts an original outside the dataset whitelist; without it
    such an original raises `gate.DatasetRejected` (an InputError: exit 2)."""
    config = config or AuditConfig()
    staged = _stage(candidate, verifier, original, trust_dataset, row)
    if isinstance(staged, AuditReport):
        return staged
    report, full_name = staged.report, staged.full_name
    theorem_line, inherited, leftover = staged.theorem_line, staged.inherited, staged.leftover
    check, answers = await judge.run_probed(verifier, candidate, staged.probe, timeout=timeout)
    probe = answers.get(("axioms", full_name)) if answers is not None else None
    report.check = check
    gate_said = gate.gate_violations(check)
    if gate_said:  # the verifier's own gate refused what ours passed: never "proved"
        report.reasons.extend(gate_rejections([gate.Violation(gate.Reason(v["reason"]), v["detail"], v["line"])
                                               for v in gate_said]))
        report.status = _status(report.reasons)
        return report

    if check.status is CheckStatus.TIMEOUT:
        report.reasons.append(Rejection(Reason.TIMEOUT, check.error or "the Lean check timed out"))
        report.status = AuditStatus.TIMEOUT
        return report
    if check.status is CheckStatus.CRASHED:
        report.reasons.append(Rejection(Reason.VERIFIER_FAILURE, check.error or "the Lean process failed"))
        report.status = AuditStatus.ERROR
        return report

    for err in check.errors:
        report.reasons.append(Rejection(Reason.LEAN_ERROR, err.format()))
    for token, line in leftover:
        report.reasons.append(Rejection(Reason.SORRY, f"`{token}` at line {line}"))
    holes = _new_holes(check, theorem_line, inherited)
    if holes and not leftover:
        report.reasons.append(Rejection(Reason.SORRY, f"Lean reports {holes} hole(s)"))

    report.axioms = parse_probe(probe, full_name)
    allowed = set(config.axioms) | (set(NATIVE_DECIDE_AXIOMS) if config.allow_native_decide else set())
    allowed |= _axioms_declared_in(original) if original is not None else set()
    if report.axioms is None:
        if not check.errors:
            detail = "; ".join(m.format() for m in (probe or []))[:200]
            report.reasons.append(
                Rejection(Reason.AXIOMS_UNKNOWN, f"Lean gave no axiom list for '{full_name}'" + (f": {detail}" if detail else ""))
            )
    else:
        if "sorryAx" in report.axioms and not leftover and not holes:
            report.reasons.append(Rejection(Reason.SORRY, "the theorem depends on sorryAx"))
        for ax in report.axioms:
            if ax != "sorryAx" and _name_key(ax) not in {_name_key(a) for a in allowed}:
                report.reasons.append(Rejection(Reason.FORBIDDEN_AXIOM, f"depends on axiom '{ax}'"))

    for helper in staged.helpers:
        _judge_helper_axioms(report, helper, answers, allowed, leftover or holes)
    if staged.whitelist is not None and staged.probe.nonce is not None:
        _judge_listing(report, staged.whitelist, answers, staged.probe.nonce, allowed, leftover or holes)
    report.status = _status(report.reasons)
    if report.status is AuditStatus.PROVED and original is not None:
        await _lean_statement_type(report, verifier, original, full_name, answers, timeout)
    checker = verifier.statement_checker if isinstance(verifier, gate.GatedVerifier | gate.BehindGate) else None
    if report.status is AuditStatus.PROVED and original is not None and checker is not None:
        await _lean_statement_check(report, checker, original, candidate, allowed, timeout)
    return report


def _judge_helper_axioms(
    report: AuditReport, helper: str, answers: dict[tuple[str, str], list[Message]] | None,
    allowed: set[str], sorry_seen: object,
) -> None:
    """The axiom verdict on a lemma the candidate added besides its theorem (the same policy)."""
    # a `private lemma` answers as `_private.<Module>.0.<name>` (judge.private_key)
    axioms = parse_probe(answers.get(("axioms", helper)) if answers is not None else None, helper, private_ok=True)
    if axioms is None:
        if report.check is not None and not report.check.errors:
            report.reasons.append(Rejection(Reason.AXIOMS_UNKNOWN, f"Lean gave no axiom list for '{helper}'"))
        return
    if "sorryAx" in axioms and not sorry_seen:
        report.reasons.append(Rejection(Reason.SORRY, f"'{helper}' depends on sorryAx"))
    for ax in axioms:
        if ax != "sorryAx" and _name_key(ax) not in {_name_key(a) for a in allowed}:
            report.reasons.append(Rejection(Reason.FORBIDDEN_AXIOM, f"'{helper}' depends on axiom '{ax}'"))


async def _lean_statement_type(
    report: AuditReport, verifier: Verifier, original: str, name: str,
    answers: dict[tuple[str, str], list[Message]] | None, timeout: float | None,
) -> None:
    """Lean's elaborated type of the candidate's theorem (`pp.all`) against the original's in a
    clean environment: whatever the text looked like, what Lean declared must be the same."""
    printed = judge.type_print(answers, name)
    report.lean_type = printed
    if printed is None:
        report.reasons.append(Rejection(Reason.STATEMENT_UNKNOWN, f"Lean printed no elaborated type for '{name}'"))
        report.status = _status(report.reasons)
        return
    wanted, why = await judge.original_type(verifier, original, name, timeout=timeout)
    if wanted is None:  # Lean could not elaborate the original: not the proof's failure
        report.reasons.append(Rejection(Reason.VERIFIER_FAILURE, f"cannot elaborate the original statement: {why}"))
    elif wanted != printed:
        report.reasons.append(Rejection(
            Reason.STATEMENT_CHANGED,
            f"Lean elaborates '{name}' differently from the original: {_short(printed)} (original: {_short(wanted)})"))
    report.status = _status(report.reasons)


def _short(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


async def _lean_statement_check(
    report: AuditReport, checker: StatementChecker, original: str, candidate: str, allowed: set[str], timeout: float | None
) -> None:
    """Ask Lean (SafeVerify) whether the proof states the original; the text comparison already
    agreed. A verdict Lean could not give is a verifier failure, never "proved"."""
    verdict = await checker.compare(original, candidate, allowed_axioms=allowed, timeout=timeout)
    report.statement_check = verdict.to_json()
    if verdict.same is False:
        report.reasons.append(Rejection(Reason.STATEMENT_CHANGED, verdict.detail))
    elif verdict.same is None and not verdict.skipped:
        report.reasons.append(Rejection(Reason.VERIFIER_FAILURE, verdict.detail))
    report.status = _status(report.reasons)


def _inherited_sorries(original: str | None) -> int:
    """`sorry`s of the original's context (before its theorem): ProverBench headers hold lemmas
    proved by `sorry`. They are the problem's, not the proof's; the axiom check still rejects a
    theorem that USES them (sorryAx)."""
    if original is None:
        return 0
    theorem = lean_code.last_theorem(original)
    line = original.count("\n", 0, theorem.start) + 1 if theorem else 1 << 30
    return sum(1 for _, ln in sorry_tokens(original) if ln < line)


def _new_sorries(tokens: list[tuple[str, int]], theorem_line: int, inherited: int) -> list[tuple[str, int]]:
    before = [t for t in tokens if t[1] < theorem_line]
    after = [t for t in tokens if t[1] >= theorem_line]
    return before[inherited:] + after


def _new_holes(check: CheckResult, theorem_line: int, inherited: int) -> int:
    before = sum(1 for h in check.holes if h.pos is not None and h.pos.line < theorem_line)
    return len(check.holes) - min(before, inherited)


def _axioms_declared_in(original: str) -> set[str]:
    """Axioms that the original problem itself declares (ProverBench preambles do), full names."""
    return {cmd.full_name for cmd in gate.problem_context(original) if cmd.keyword == "axiom" and cmd.full_name}

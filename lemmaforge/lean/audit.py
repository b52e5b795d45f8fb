"""Soundness audit of a finished proof.

A proof counts only when ALL of these hold:

1. no banned construct was added (new `axiom`s, `implemented_by`, `extern`, `unsafe`,
   `set_option debug.skipKernelTC`, `#eval` / `run_cmd`-style side effects, new notation, macros
   or syntax that could redefine what a tactic name means) — checked on the text, before Lean;
2. the theorem states what the original stated (`same_statement`), and nothing before it that the
   statement depends on was changed (answer slots `sorry` of PutnamBench-style `abbrev`s may be
   filled);
3. no `sorry` / `admit` is left (text) and Lean reports no hole;
4. a whole-file check has no error;
5. `#print axioms` of the theorem lists only whitelisted axioms (default `propext`,
   `Classical.choice`, `Quot.sound`; `Lean.ofReduceBool` / `Lean.trustCompiler` from
   `native_decide` only when allowed). Matching "declaration uses sorry" strings is not enough
   (DeepSeek-Prover-V2's `apply?` bug on Lean 4.9 emitted no such warning): the kernel-level
   axiom list is the authority.

Each rejection names its reason; the overall status is one of `proved`, `incomplete`, `error`,
`rejected`, `timeout`.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Any

from lemmaforge.config import AuditConfig
from lemmaforge.lean import code as lean_code
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Severity, Verifier

NATIVE_DECIDE_AXIOMS = ("Lean.ofReduceBool", "Lean.trustCompiler")


class AuditStatus(enum.StrEnum):
    PROVED = "proved"
    INCOMPLETE = "incomplete"
    ERROR = "error"
    REJECTED = "rejected"
    TIMEOUT = "timeout"


class Reason(enum.StrEnum):
    NO_THEOREM = "no_theorem"
    STATEMENT_CHANGED = "statement_changed"
    CONTEXT_CHANGED = "context_changed"
    BANNED_COMMAND = "banned_command"
    SORRY = "sorry"
    LEAN_ERROR = "lean_error"
    TIMEOUT = "timeout"
    VERIFIER_FAILURE = "verifier_failure"
    AXIOMS_UNKNOWN = "axioms_unknown"
    FORBIDDEN_AXIOM = "forbidden_axiom"


@dataclass(frozen=True, slots=True)
class Rejection:
    reason: Reason
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"reason": self.reason.value, "detail": self.detail}

    def __str__(self) -> str:
        return f"{self.reason.value}: {self.detail}"


@dataclass(slots=True)
class AuditReport:
    status: AuditStatus
    theorem: str | None = None
    reasons: list[Rejection] = field(default_factory=list)
    axioms: list[str] | None = None
    check: CheckResult | None = None

    @property
    def ok(self) -> bool:
        return self.status is AuditStatus.PROVED

    def to_json(self) -> dict[str, Any]:
        check = self.check
        return {
            "ok": self.ok,
            "status": self.status.value,
            "theorem": self.theorem,
            "errors": [m.format() for m in check.errors] if check else [],
            "holes": len(check.holes) if check else 0,
            "axioms": self.axioms or [],
            "reasons": [r.to_json() for r in self.reasons],
            "time": check.time if check else 0.0,
            "backend": check.backend if check else None,
        }


# --- text checks -------------------------------------------------------------------------------

# Each pattern runs on comment- and string-free text. A construct is banned only when it is NEW,
# i.e. absent from the original problem (ProverBench headers legitimately declare axioms and
# helper lemmas; the audit must not reject the problem for its own preamble).
_BANNED_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (label, re.compile(rx, re.MULTILINE))
    for label, rx in (
        ("new axiom", r"^[ \t]*(?:@\[[^\]]*\][ \t\n]*)?(?:(?:private|protected|noncomputable|unsafe)[ \t]+)*axiom\b[^\n]*"),
        ("implemented_by attribute", r"\bimplemented_by\b[^\n]*"),
        ("extern attribute", r"@\[[^\]]*\bextern\b[^\]]*\]"),
        ("unsafe declaration", r"^[ \t]*(?:@\[[^\]]*\][ \t\n]*)?(?:(?:private|protected|noncomputable)[ \t]+)*unsafe\b[^\n]*"),
        ("kernel type checking disabled", r"\bset_option[ \t]+debug\.skipKernelTC\b[^\n]*"),
        ("side-effecting command", r"(?:^|[ \t(])#(?:eval|exec|exit|reduce!?)\b[^\n]*"),
        ("meta command", r"^[ \t]*(?:run_cmd|run_elab|run_meta|run_tac)\b[^\n]*"),
        ("tactic run as meta code", r"\brun_tac\b[^\n]*"),
        (
            "new notation, macro or syntax",
            r"^[ \t]*(?:@\[[^\]]*\][ \t\n]*)?(?:(?:local|scoped|private)[ \t]+)*"
            r"(?:macro_rules|macro|syntax|elab_rules|elab|notation|infixl|infixr|infix|prefix|postfix|declare_syntax_cat)\b[^\n]*",
        ),
        ("attribute change of a core tactic", r"^[ \t]*attribute[ \t]+\[[^\]]*\b(?:implemented_by|extern|csimp)\b[^\n]*"),
        ("debug option", r"\bset_option[ \t]+debug\.[A-Za-z.]+[^\n]*"),
    )
)



def banned_constructs(candidate: str, original: str | None = None) -> list[Rejection]:
    """Banned constructs of `candidate` that `original` does not already contain."""
    cand_text = code_only(candidate)
    orig_hits: set[str] = set()
    if original is not None:
        orig_text = code_only(original)
        for _, rx in _BANNED_PATTERNS:
            orig_hits.update(_norm(m.group(0)) for m in rx.finditer(orig_text))
    found: list[Rejection] = []
    seen: set[str] = set()
    for label, rx in _BANNED_PATTERNS:
        for m in rx.finditer(cand_text):
            text = _norm(m.group(0))
            if text in orig_hits or text in seen:
                continue
            seen.add(text)
            line = cand_text.count("\n", 0, m.start()) + 1
            found.append(Rejection(Reason.BANNED_COMMAND, f"{label} at line {line}: {text[:120]}"))
    return found


def _norm(s: str) -> str:
    return " ".join(s.split())


def sorry_tokens(candidate: str) -> list[tuple[str, int]]:
    """(`sorry`|`admit`, line) for each real token outside comments, docstrings and strings."""
    return [(t.text, t.line) for t in lean_code.find_tokens(candidate, ("sorry", "admit"))]


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
    """What the candidate changed before its theorem. Every original command must still be there,
    in order and unchanged (an answer slot `… := sorry` may get a value); additions may only be
    proved lemmas and resource options: anything else (an instance, a definition, an `open`…)
    could change what the unchanged statement text MEANS (e.g. a new `LT ℝ` instance)."""
    return lean_code.preamble_diff(original, candidate, allow_answer_slots=True, allow_added_lemmas=True)


# --- axioms ------------------------------------------------------------------------------------

_AXIOMS_RE = re.compile(r"'(?P<name>[^']+)' depends on axioms: \[(?P<axioms>[^\]]*)\]", re.DOTALL)
_NO_AXIOMS_RE = re.compile(r"'(?P<name>[^']+)' does not depend on any axioms")


def parse_axioms(result: CheckResult, theorem: str) -> list[str] | None:
    """The axiom list Lean printed for `theorem` (`#print axioms`), or None if it printed none."""
    short = theorem.rsplit(".", 1)[-1]
    for message in result.messages:
        if message.severity not in (Severity.INFO, Severity.WARNING):
            continue
        for m in _AXIOMS_RE.finditer(message.data):
            if _same_decl(m.group("name"), theorem, short):
                return [a.strip() for a in m.group("axioms").replace("\n", " ").split(",") if a.strip()]
        for m in _NO_AXIOMS_RE.finditer(message.data):
            if _same_decl(m.group("name"), theorem, short):
                return []
    return None


def _same_decl(printed: str, full: str, short: str) -> bool:
    printed = printed.strip("«»")
    return printed == full or printed == short or printed.endswith("." + short)


def full_theorem_name(candidate: str, name: str, start: int) -> str:
    """Qualify `name` with the namespaces open at offset `start` (so `#print axioms` placed at the
    end of the file, after every `end`, still finds it)."""
    text = code_only(candidate)[:start]
    stack: list[str] = []
    for m in re.finditer(r"^[ \t]*(namespace|section|end)\b[ \t]*([^\s]*)", text, re.MULTILINE):
        kind, ident = m.group(1), m.group(2)
        if kind == "namespace":
            stack.append(ident)
        elif kind == "section":
            stack.append("")  # sections do not qualify names, but their `end` pops
        elif stack:
            stack.pop()
    if name.startswith("_root_."):
        return name[len("_root_.") :]
    prefix = ".".join(p for p in stack if p)
    return f"{prefix}.{name}" if prefix else name


def with_axiom_probe(candidate: str, full_name: str) -> str:
    return candidate.rstrip() + f"\n\n#print axioms {full_name}\n"


# --- the audit ---------------------------------------------------------------------------------


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


def static_audit(candidate: str, original: str | None = None) -> tuple[str | None, int, list[Rejection]]:
    """Everything that can be decided without Lean: (theorem name, its offset, rejections)."""
    theorem = lean_code.last_theorem(candidate)
    if theorem is None:
        return None, 0, [Rejection(Reason.NO_THEOREM, "no theorem or lemma found")]
    reasons = banned_constructs(candidate, original)
    if original is not None:
        if lean_code.last_theorem(original) is None:
            reasons.append(Rejection(Reason.NO_THEOREM, "the original has no theorem or lemma"))
        elif not lean_code.same_statement(original, candidate):
            reasons.append(
                Rejection(
                    Reason.STATEMENT_CHANGED,
                    f"theorem '{theorem.name}' does not state the original theorem"
                    + statement_diff(lean_code.last_theorem(original), theorem),
                )
            )
        else:
            reasons.extend(Rejection(Reason.CONTEXT_CHANGED, d) for d in context_changes(original, candidate))
    return theorem.name, theorem.start, reasons


async def audit(
    candidate: str,
    verifier: Verifier,
    *,
    original: str | None = None,
    config: AuditConfig | None = None,
    timeout: float | None = None,
) -> AuditReport:
    """Audit `candidate` (a whole Lean file). With `original`, the theorem must state the same."""
    config = config or AuditConfig()
    name, start, reasons = static_audit(candidate, original)
    if name is None:
        return AuditReport(AuditStatus.REJECTED, reasons=reasons)
    full_name = full_theorem_name(candidate, name, start)
    theorem_line = candidate.count("\n", 0, start) + 1
    inherited = _inherited_sorries(original)
    leftover = _new_sorries(sorry_tokens(candidate), theorem_line, inherited)
    check = await verifier.check(with_axiom_probe(candidate, full_name), timeout=timeout)
    report = AuditReport(AuditStatus.PROVED, theorem=full_name, reasons=list(reasons), check=check)

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

    report.axioms = parse_axioms(check, full_name)
    allowed = set(config.axioms) | (set(NATIVE_DECIDE_AXIOMS) if config.allow_native_decide else set())
    allowed |= _axioms_declared_in(original) if original is not None else set()
    if report.axioms is None:
        if not check.errors:
            report.reasons.append(
                Rejection(Reason.AXIOMS_UNKNOWN, f"Lean printed no axiom list for '{full_name}'")
            )
    else:
        if "sorryAx" in report.axioms and not leftover and not holes:
            report.reasons.append(Rejection(Reason.SORRY, "the theorem depends on sorryAx"))
        for ax in report.axioms:
            if ax != "sorryAx" and ax not in allowed:
                report.reasons.append(Rejection(Reason.FORBIDDEN_AXIOM, f"depends on axiom '{ax}'"))

    report.status = _status(report.reasons)
    return report


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
    """Axioms that the original problem itself declares (ProverBench preambles do)."""
    text = code_only(original)
    return set(re.findall(r"^[ \t]*(?:(?:private|protected|noncomputable)[ \t]+)*axiom[ \t]+([^\s:({\[]+)", text, re.MULTILINE))


_ORDER = (
    (AuditStatus.REJECTED, {Reason.NO_THEOREM, Reason.STATEMENT_CHANGED, Reason.CONTEXT_CHANGED,
                            Reason.BANNED_COMMAND, Reason.FORBIDDEN_AXIOM, Reason.AXIOMS_UNKNOWN}),
    (AuditStatus.ERROR, {Reason.LEAN_ERROR, Reason.VERIFIER_FAILURE}),
    (AuditStatus.TIMEOUT, {Reason.TIMEOUT}),
    (AuditStatus.INCOMPLETE, {Reason.SORRY}),
)


def _status(reasons: list[Rejection]) -> AuditStatus:
    """Cheating outranks failing: a file with a new axiom AND an error is `rejected`."""
    present = {r.reason for r in reasons}
    for status, kinds in _ORDER:
        if present & kinds:
            return status
    return AuditStatus.PROVED

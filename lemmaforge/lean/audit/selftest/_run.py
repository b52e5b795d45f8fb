"""Run the calibration cases through the whole audit, batched, and read what each outcome says
about Lean's answers.

Each case goes through `lean.audit.audit(candidate, verifier, original=…)`, the function
`lemmaforge check CANDIDATE --against ORIGINAL` calls, behind a gate of its own (as each `check`
has its own), under the default axiom policy (`native_decide` allowed only where the case says
so): the verdicts are the judge's as a user gets them. What changes is only how the texts travel:

- every case's backend is one `SharedBackend`, which sends each distinct text to Lean once (two
  cases with the same candidate, or the same original's type print, share one check);
- where the probe is appended to the checked file (Kimina, lake) the texts every audit will send
  (`audit.text_to_check`, and the original's type print) are sent first, together, through a
  gate: on Kimina one `/api/check` batch, on lake as many `lake env lean` runs at once as
  `workers` allows; the audits then find their checks done;
- on the REPL (the probe is its own command in the checked file's environment) the audits run
  at once, and every case file has the same imports, so every check reuses the environment the
  header made.

Then each outcome is compared with the case's expected verdict; where it differs, `Problem` says
which of Lean's answers is not what the judge expects, reading Lean's own answer to the
declaration listing (`explain_listing`) where the audit could not.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lemmaforge.config import AuditConfig
from lemmaforge.lean.audit import AuditReport, AuditStatus, Reason, audit, static_audit, text_to_check
from lemmaforge.lean.audit import _judge as judge
from lemmaforge.lean.audit._audit import full_theorem_name
from lemmaforge.lean.audit._judge import _KINDS as LISTING_KINDS
from lemmaforge.lean.audit._judge import EXTENSIONS, Constant
from lemmaforge.lean.audit.selftest._cases import Case
from lemmaforge.lean.gate import GatedVerifier
from lemmaforge.lean.verifier import (
    CheckResult,
    Goal,
    Message,
    ProbingVerifier,
    Severity,
    TacticResult,
    Verifier,
    VerifierError,
)

# --- one check per distinct text ----------------------------------------------------------------


class SharedBackend:
    """The backend every case's gate sits on: each distinct text (a checked file; on the REPL a
    file and its probe) goes to Lean once, whichever case asks first; the others await the same
    answer. Keeps every answer, so that the selftest can read what Lean said to the listing."""

    def __init__(self, inner: Verifier) -> None:
        self.inner = inner
        self.checks: dict[str, asyncio.Future[CheckResult]] = {}
        self.probed: dict[tuple[str, str], asyncio.Future[tuple[CheckResult, list[Message] | None]]] = {}

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def supports_proof_states(self) -> bool:
        return self.inner.supports_proof_states

    @property
    def sent(self) -> int:
        """Distinct texts sent to Lean."""
        return len(self.checks) + len(self.probed)

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult:
        return (await self.check_many([code], timeout=timeout))[0]

    async def check_many(self, codes: Sequence[str], *, timeout: float | None = None) -> list[CheckResult]:
        """The new texts among `codes` go to the backend as one `check_many` (Kimina: one batch)."""
        loop = asyncio.get_running_loop()
        new = [c for c in dict.fromkeys(codes) if c not in self.checks]
        for code in new:
            self.checks[code] = loop.create_future()
        if new:
            try:
                results = await self.inner.check_many(new, timeout=timeout)
            except BaseException as exc:
                for code in new:
                    _fail(self.checks[code], exc)
                raise
            for code, result in zip(new, results, strict=True):
                self.checks[code].set_result(result)
        return [await asyncio.shield(self.checks[c]) for c in codes]

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        return await self.inner.run_tactic(hole, tactic, timeout=timeout)

    async def close(self) -> None:
        """Nothing of its own: whoever built the backend closes it."""


class SharedProbingBackend(SharedBackend):
    """`SharedBackend` over a backend that runs the probe as its own command (the REPL)."""

    async def check_with_probe(
        self, code: str, probe: str, *, timeout: float | None = None
    ) -> tuple[CheckResult, list[Message] | None]:
        inner = self.inner
        assert isinstance(inner, ProbingVerifier)
        key = (code, probe)
        if key not in self.probed:
            future = self.probed[key] = asyncio.get_running_loop().create_future()
            try:
                future.set_result(await inner.check_with_probe(code, probe, timeout=timeout))
            except BaseException as exc:
                _fail(future, exc)
                raise
        return await asyncio.shield(self.probed[key])


def _fail(future: asyncio.Future[Any], exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc if isinstance(exc, Exception) else VerifierError("the check was cancelled"))
        future.exception()  # retrieved: a case that never awaits it logs nothing


def shared_backend(inner: Verifier) -> SharedBackend:
    return SharedProbingBackend(inner) if isinstance(inner, ProbingVerifier) else SharedBackend(inner)


# --- Lean's answer to the declaration listing ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class ListingAnswer:
    """What Lean answered to one case's declaration listing (the probe's `run_cmd`)."""

    state: str  # "ok" | "failed" (an error, or no answer) | "malformed" (not what the judge reads)
    detail: str = ""
    constants: tuple[Constant, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "detail": self.detail,
                "constants": [{"name": c.name, "kind": c.kind, "unsafe": c.unsafe, "partial": c.partial,
                               "implemented_by": c.implemented_by, "extern": c.extern, "in_closure": c.in_closure,
                               "axioms": list(c.axioms)} for c in self.constants]}


def explain_listing(messages: Sequence[Message], nonce: str) -> ListingAnswer:
    """Read Lean's messages at the listing's `run_cmd` as `judge.parse_listing` does, and say what
    is wrong where it would give None: Lean's error (the listing did not elaborate), no answer, or
    the first line the judge does not read (an unknown constant kind, a missing field, no `end`)."""
    errors = [m for m in messages if m.severity is Severity.ERROR]
    if errors:
        return ListingAnswer("failed", "Lean's error at its `run_cmd`: " + "; ".join(_short(m.data) for m in errors[:3]))
    listing = judge.parse_listing(list(messages), nonce)
    if listing is not None:
        return ListingAnswer("ok", constants=listing.constants)
    lines = [ln for m in messages if m.severity is Severity.INFO for ln in m.data.split("\n")
             if ln.startswith(nonce + "\t")]
    if not lines:
        said = "; ".join(_short(m.data) for m in messages[:3])
        return ListingAnswer("failed", "Lean gave no answer to it"
                             + (f" (it said: {said})" if said else " (no message at its `run_cmd`)"))
    return ListingAnswer("malformed", _malformed(lines))


def _malformed(lines: list[str]) -> str:
    """The first thing in the listing's lines that `judge.parse_listing` refuses."""
    end = lines[-1].split("\t")
    if end[1:2] != ["end"]:
        return "its last line is not `end` (the answer is cut off)"
    body = lines[:-1]
    if len(end) != 3 or end[2] != str(len(body)):
        return f"its `end` line counts {end[2] if len(end) > 2 else '?'} lines, Lean sent {len(body)}"
    seen: set[str] = set()
    for ln in body:
        f = ln.split("\t")
        what = f[1] if len(f) > 1 else ""
        if what == "end":
            return "it has more than one `end` line"
        if what == "const":
            if len(f) != 10:
                return f"a constant's line has {len(f) - 1} fields, the judge reads 9: {_short(ln)}"
            if f[2] not in LISTING_KINDS:
                return (f"unknown constant kind '{f[2]}' for '{f[8]}' (the judge reads "
                        f"{', '.join(sorted(LISTING_KINDS))})")
            flags = [b for b in f[3:8] if b not in ("true", "false")]
            if flags:
                return f"the flag '{flags[0]}' of '{f[8]}' is not true or false"
            if not f[8]:
                return "a constant's line has no name"
        elif what == "ext":
            if len(f) != 4 or f[2] not in EXTENSIONS or not f[3].isdigit():
                return f"an extension count the judge does not read: {_short(ln)}"
            if f[2] in seen:
                return f"two counts of the {f[2]} entries"
            seen.add(f[2])
        elif what == "opt":
            if len(f) != 4 or not f[2]:
                return f"an option line the judge does not read: {_short(ln)}"
        else:
            return f"a line of unknown kind '{what}': {_short(ln)}"
    missing = [e for e in EXTENSIONS if e not in seen]
    if missing:
        return f"no count of the {', '.join(missing)} entries"
    return "the judge could not read it"


def _short(text: str, limit: int = 240) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _listing_of(shared: SharedBackend, case: Case) -> ListingAnswer | None:
    """Lean's answer to the listing the audit of `case` sent (None: the audit sent none)."""
    nonce = judge.nonce_for(case.candidate)
    marker = f'\nrun_cmd do\n  let lfTag : String := "{nonce}"\n'
    for (code, probe), future in shared.probed.items():
        if code == case.candidate and marker in "\n" + probe and future.done() and not future.exception():
            _, messages = future.result()
            line = ("\n" + probe)[: ("\n" + probe).index(marker)].count("\n") + 1
            return explain_listing([m for m in messages or [] if _at(m, line)], nonce)
    for text, done in shared.checks.items():
        if text.startswith(case.candidate.rstrip()) and marker in text and done.done() and not done.exception():
            line = text[: text.rindex(marker)].count("\n") + 2
            return explain_listing([m for m in done.result().messages if _at(m, line)], nonce)
    return None


def _at(message: Message, line: int) -> bool:
    return message.pos is not None and message.pos.line == line and message.pos.column == 0


# --- outcomes -----------------------------------------------------------------------------------

# What a case that is not as expected says about Lean, in the order they are looked for.
PROBLEMS = {
    "lean_did_not_answer": "Lean did not answer",
    "listing_failed": "the declaration listing did not elaborate on this Lean",
    "listing_malformed": "Lean's declaration listing is not in the form the judge reads",
    "original_does_not_elaborate": "Lean could not elaborate the case's original statement",
    "proof_does_not_compile": "the case's proof does not compile on this Lean and Mathlib",
    "honest_refused": "an honest construct was refused",
    "cheat_accepted": "a cheat was accepted",
    "refused_otherwise": "a cheat was refused, but not for the expected reason",
}


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a case's verdict is not the expected one, as far as Lean's answers say."""

    kind: str  # a key of PROBLEMS
    detail: str

    @property
    def headline(self) -> str:
        return PROBLEMS[self.kind]

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "headline": self.headline, "detail": self.detail}


@dataclass(slots=True)
class CaseOutcome:
    case: Case
    report: AuditReport
    listing: ListingAnswer | None = None  # Lean's answer to the listing, where the audit sent one
    problem: Problem | None = None  # None: as expected

    @property
    def as_expected(self) -> bool:
        return self.problem is None

    @property
    def verdict(self) -> str:
        """"proved", or "refused" with the status the audit gave ("rejected", "incomplete", …)."""
        return "proved" if self.report.ok else f"refused ({self.report.status.value})"

    @property
    def decided_by(self) -> str:
        """"lean" when the text reached Lean, "text" when the text layer refused it before."""
        return "lean" if self.report.check is not None else "text"

    def to_json(self) -> dict[str, Any]:
        report = self.report
        return {
            **self.case.to_json(),
            "status": report.status.value,
            "verdict": "proved" if report.ok else "refused",
            "reasons": [r.to_json() for r in report.reasons],
            "as_expected": self.as_expected,
            "decided_by": self.decided_by,
            "problem": self.problem.to_json() if self.problem else None,
            "axioms": report.axioms,
            "lean_type": report.lean_type,
            "listing": self.listing.to_json() if self.listing else None,
        }


def judge_outcome(case: Case, report: AuditReport, listing: ListingAnswer | None) -> Problem | None:
    """None when `report` is the verdict `case` expects; else what Lean's answers say about it."""
    reasons = {r.reason for r in report.reasons}
    if case.honest and report.ok:
        return None
    if not case.honest and not report.ok and case.reason in reasons:
        return None
    said = "; ".join(str(r) for r in report.reasons) or "no reason given"
    failures = [r.detail for r in report.reasons if r.reason is Reason.VERIFIER_FAILURE]
    original = [d for d in failures if d.startswith("cannot elaborate the original")]
    if report.status is AuditStatus.TIMEOUT or (failures and not original):
        return Problem("lean_did_not_answer", _short(said, 400))
    if Reason.DECLARATIONS_UNKNOWN in reasons and listing is not None and listing.state != "ok":
        return Problem("listing_failed" if listing.state == "failed" else "listing_malformed", listing.detail)
    if Reason.DECLARATIONS_UNKNOWN in reasons:
        return Problem("listing_failed", "Lean gave no answer to it")
    if original:
        return Problem("original_does_not_elaborate", _short(original[0], 400))
    if Reason.LEAN_ERROR in reasons:
        errors = [r.detail for r in report.reasons if r.reason is Reason.LEAN_ERROR]
        return Problem("proof_does_not_compile", _short("; ".join(errors[:2]), 400)
                       + " (the case says nothing about the judge here)")
    if case.honest:
        return Problem("honest_refused", f"{case.construct}: {_short(said, 400)}")
    if report.ok:
        return Problem("cheat_accepted", f"{case.construct} was proved (expected: refused for {case.reason})")
    return Problem("refused_otherwise", f"expected {case.reason}; the audit said {_short(said, 400)}")


@dataclass(slots=True)
class SelftestResult:
    outcomes: list[CaseOutcome]
    seconds: float = 0.0
    sent: int = 0  # distinct texts sent to Lean
    backend: str = ""
    problems: list[tuple[Problem, list[str]]] = field(default_factory=list)  # grouped, with case ids

    @property
    def ok(self) -> bool:
        return all(o.as_expected for o in self.outcomes)

    @property
    def expected(self) -> int:
        return sum(1 for o in self.outcomes if o.as_expected)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "cases": [o.to_json() for o in self.outcomes],
            "as_expected": self.expected,
            "total": len(self.outcomes),
            "problems": [{**p.to_json(), "cases": ids} for p, ids in self.problems],
            "seconds": round(self.seconds, 3),
            "checks_sent": self.sent,
        }


def group_problems(outcomes: Sequence[CaseOutcome]) -> list[tuple[Problem, list[str]]]:
    """The problems of `outcomes`, one entry per distinct (kind, detail) with its cases, in
    `PROBLEMS` order: a listing that does not elaborate is said once, not once per case."""
    groups: dict[tuple[str, str], list[str]] = {}
    for o in outcomes:
        if o.problem is not None:
            groups.setdefault((o.problem.kind, o.problem.detail), []).append(o.case.id)
    order = list(PROBLEMS)
    return [(Problem(kind, detail), ids) for (kind, detail), ids in sorted(groups.items(), key=lambda kv: order.index(kv[0][0]))]


# --- the run ------------------------------------------------------------------------------------


def _row(case: Case) -> str:
    return f"selftest case {case.id}"


def _gate(base: GatedVerifier, shared: SharedBackend) -> GatedVerifier:
    """A gate of the case's own around the shared backend, as `check` has its own: one case's
    context is never trusted for another's text."""
    gated = GatedVerifier(shared, trust_dataset=base.trust_dataset)
    gated.statement_checker = base.statement_checker
    return gated


async def _send_ahead(base: GatedVerifier, shared: SharedBackend, cases: Sequence[Case], timeout: float | None) -> None:
    """Where the probe is appended to the file, send what every audit will check first, as one
    `check_many` through a gate (that admitted every case's problem): the candidate with its probe
    (`audit.text_to_check`: None when the audit refuses before Lean) and the original's type print."""
    ahead = GatedVerifier(shared, trust_dataset=base.trust_dataset)
    texts: list[str] = []
    for case in cases:
        text = text_to_check(case.candidate, shared, original=case.original, trust_dataset=base.trust_dataset,
                             row=_row(case))
        if text is None:
            continue
        ahead.admit(case.original, row=_row(case))
        texts.append(text)
        name, start, _ = static_audit(case.candidate, case.original)
        if name is not None:
            full = full_theorem_name(case.candidate, name, start)
            texts.append(judge.with_probe(case.original, judge.Probe.build(full, axioms=False)))
    if texts:
        await ahead.check_many(list(dict.fromkeys(texts)), timeout=timeout)


async def run_cases(verifier: GatedVerifier, cases: Sequence[Case], *, timeout: float | None = None) -> SelftestResult:
    """Every case through the whole audit on `verifier`'s backend (see the module docstring).
    Raises VerifierError when the verifier cannot be used at all."""
    started = time.monotonic()
    shared = shared_backend(verifier.inner)
    if not isinstance(shared, ProbingVerifier):
        await _send_ahead(verifier, shared, cases, timeout)

    async def one(case: Case) -> AuditReport:
        return await audit(case.candidate, _gate(verifier, shared), original=case.original,
                           config=AuditConfig(allow_native_decide=case.allow_native_decide), timeout=timeout,
                           row=_row(case))

    reports = await asyncio.gather(*(one(c) for c in cases), return_exceptions=True)
    for report in reports:
        if isinstance(report, BaseException):
            raise report
    outcomes = []
    for case, report in zip(cases, reports, strict=True):
        assert isinstance(report, AuditReport)
        listing = _listing_of(shared, case) if report.check is not None else None
        outcomes.append(CaseOutcome(case, report, listing, judge_outcome(case, report, listing)))
    return SelftestResult(outcomes, time.monotonic() - started, shared.sent, verifier.name, group_problems(outcomes))

"""`lemmaforge verify PATH`: re-check claims with the whole audit, on the user's own Lean.

A claim is one proof of one problem. PATH is

* a bundle (`lemmaforge bundle`, `benchmarks.bundle`): its manifest is checked first (a file
  changed, added or missing refuses the whole bundle before anything runs); its proofs are checked
  against the dataset rows it carries, or against `--dataset NAME`'s rows when that is given;
* a directory or a zip of `.lean` files (a released solution set) with `--dataset NAME`: each
  file is matched to a problem by the name of a theorem it declares (else by its file name);
  a file that matches no problem is `unmatched`.

Each claim goes through `lean.audit.audit` with the problem's text as the original, exactly as
`lemmaforge check FILE --against ORIGINAL` runs it (`targets.choose_target` on both texts, the
theorem with the original's name, its statement unchanged, no `sorry`, whitelisted axioms, Lean's
declaration listing). The verdict:

* `confirmed`: the audit proved it;
* `statement_mismatch`: the file's theorem does not state the dataset's statement (the audit's
  `statement_changed`): not a solve, whatever else it proves;
* `refuted`: anything else the audit refused (a Lean error, `sorry`, a forbidden axiom, a banned
  command, a timeout…), with the audit's reasons.

Verdicts are kept in the store as they are decided (`db.claims`): a verify that stopped is run
again and skips what it already decided. A timeout is reported but not kept (it says nothing
final: run again, or give a longer --timeout).
"""

from __future__ import annotations

import asyncio
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lemmaforge.benchmarks.bundle import (
    PROOFS_DIR,
    Bundle,
    BundleError,
    bundle_from_members,
    is_bundle,
    read_members,
)
from lemmaforge.errors import InputError
from lemmaforge.lean import syntax as lean_syntax

VERDICTS = ("confirmed", "refuted", "statement_mismatch")
AUDIT_POLICY_VERSION = "1"  # bump when the audit's meaning changes: earlier stored verdicts no longer apply


class VerifyInputError(InputError, ValueError):
    """What `verify` cannot work with (no such path, no dataset for a folder of files, nothing
    matched): one line, exit 2."""


@dataclass(slots=True)
class Claim:
    problem: str  # the problem's name
    file: str  # where the proof came from, relative to PATH (or the bundle's path inside the archive)
    proof: str  # the whole Lean file
    original: str  # the problem as the dataset states it: header + statement ending in its proof slot
    dataset: str | None = None


@dataclass(slots=True)
class ClaimSet:
    source: str
    kind: str  # bundle | directory | zip
    dataset: str | None
    claims: list[Claim] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)  # files that match no problem


@dataclass(slots=True)
class Outcome:
    problem: str
    file: str
    verdict: str  # confirmed | refuted | statement_mismatch
    reason: str | None = None
    report: dict[str, Any] = field(default_factory=dict)
    final: bool = True  # False: not kept in the store (a timeout)
    resumed: bool = False  # decided by an earlier verify of the same claim

    def to_json(self) -> dict[str, Any]:
        return {"problem": self.problem, "file": self.file, "verdict": self.verdict, "reason": self.reason}


# --------------------------------------------------------------------------------------------------
# reading claims


def _dataset_rows(name: str) -> dict[str, str]:
    """name -> header + statement of every problem of dataset `name` (all splits)."""
    from lemmaforge.benchmarks.datasets import load_dataset
    from lemmaforge.benchmarks.registry import DatasetError

    try:
        problems = load_dataset(name)
    except DatasetError as exc:
        raise VerifyInputError(str(exc)) from None
    rows: dict[str, str] = {}
    for p in problems:
        rows.setdefault(p.name, p.header + p.statement)
    return rows


def _declared_names(code: str) -> list[str]:
    names = []
    for d in lean_syntax.declarations(code):
        if d.kind in ("theorem", "lemma") and d.name:
            names.append(d.name)
            if d.full_name and d.full_name != d.name:
                names.append(d.full_name)
    return names


def match_problem(code: str, file_stem: str, rows: dict[str, str]) -> str | None:
    """The problem a solution file claims: the last theorem it declares that names a problem of
    the dataset, else its file name when that names one (the audit then says whether the file
    states it), else None."""
    for name in reversed(_declared_names(code)):
        if name in rows:
            return name
        short = name.rsplit(".", 1)[-1]
        if short in rows:
            return short
    return file_stem if file_stem in rows else None


def _from_files(files: dict[str, bytes], source: str, kind: str, dataset: str | None) -> ClaimSet:
    lean = {path: body for path, body in files.items() if path.endswith(".lean") and not Path(path).name.startswith(".")}
    if not lean:
        raise VerifyInputError(f"{source}: no .lean files to verify")
    if dataset is None:
        raise VerifyInputError(f"{source} is a {kind} of .lean files: give --dataset NAME (the dataset its "
                               "proofs solve, e.g. minif2f) to match each file to its problem")
    rows = _dataset_rows(dataset)
    out = ClaimSet(source, kind, dataset)
    for path in sorted(lean):
        try:
            code = lean[path].decode("utf-8")
        except UnicodeDecodeError:
            out.unmatched.append(path)
            continue
        problem = match_problem(code, Path(path).stem, rows)
        if problem is None:
            out.unmatched.append(path)
        else:
            out.claims.append(Claim(problem, path, code, rows[problem], dataset))
    if not out.claims:
        raise VerifyInputError(f"{source}: none of its {len(lean)} .lean file(s) declares a theorem named after a "
                               f"problem of {dataset} (is it the right --dataset?)")
    return out


def _from_bundle(bundle: Bundle, dataset: str | None) -> ClaimSet:
    rows = {str(r.get("name")): str(r.get("header") or "") + str(r.get("formal_statement") or "")
            for r in bundle.rows if r.get("name")}
    named = (bundle.bench.get("dataset") or {}).get("name")
    if dataset is not None:
        rows = _dataset_rows(dataset)
    out = ClaimSet(bundle.path, "bundle", dataset or named)
    claimed = set()
    for v in bundle.verdicts:
        path = v.get("proof")
        if not path:
            continue
        claimed.add(path)
        name = str(v.get("name") or "")
        text = bundle.proofs.get(path)
        if text is None:
            raise BundleError(f"{bundle.path}: {path} is named in verdicts.jsonl but not in the bundle")
        if name in rows:
            out.claims.append(Claim(name, path, text, rows[name], out.dataset))
        else:
            out.unmatched.append(path)
    for path in sorted(set(bundle.proofs) - claimed):  # a proof file no verdict names: matched by its theorem
        problem = match_problem(bundle.proofs[path], Path(path).stem, rows)
        if problem is None:
            out.unmatched.append(path)
        else:
            out.claims.append(Claim(problem, path, bundle.proofs[path], rows[problem], out.dataset))
    return out


def load_claims(path: Path, dataset: str | None = None) -> ClaimSet:
    """The claims at `path` (see the module docstring). VerifyInputError / BundleError (exit 2)
    for what cannot be read; a bundle whose files do not match its manifest is refused here,
    before anything is checked."""
    if not path.exists():
        raise VerifyInputError(f"not found: {path}")
    if path.is_dir():
        files: dict[str, bytes] = {}
        for f in sorted(path.rglob("*.lean")):
            if f.is_file():
                try:
                    files[f.relative_to(path).as_posix()] = f.read_bytes()
                except OSError as exc:
                    raise VerifyInputError(f"cannot read {f}: {exc.strerror or exc}") from None
        return _from_files(files, str(path), "directory", dataset)
    if not path.is_file():
        raise VerifyInputError(f"not a file or directory: {path}")
    if path.suffix == ".lean":
        raise VerifyInputError(f"{path} is one Lean file: check it with `lemmaforge check {path} --against "
                               "STATEMENT`, or give verify a directory or zip of solutions, or a bundle")
    try:
        with zipfile.ZipFile(path) as zf:
            members = read_members(zf, str(path))
    except (zipfile.BadZipFile, OSError) as exc:
        raise BundleError(f"{path}: not a readable zip archive or bundle ({exc})") from None
    if is_bundle(members):
        return _from_bundle(bundle_from_members(members, str(path)), dataset)
    if any(name.startswith(PROOFS_DIR) for name in members) and "bench.json" in members:
        raise BundleError(f"{path}: a bundle without a readable manifest.json: refused")
    return _from_files(members, str(path), "zip", dataset)


# --------------------------------------------------------------------------------------------------
# checking


def policy_of(settings: Any) -> str:
    """What, besides the texts, decides a verdict: the audit's version, the Lean backend it ran
    on and the audit's options. Part of each stored claim's key."""
    v = settings.verifier
    where = v.kimina_url if v.backend == "kimina" else str(v.project or "")
    return (f"audit={AUDIT_POLICY_VERSION};backend={v.backend};at={where};"
            f"axioms={','.join(sorted(settings.audit.axioms))};native_decide={bool(settings.audit.allow_native_decide)};"
            f"trust_dataset={bool(v.trust_dataset)}")


def _one_line(text: str, limit: int = 400) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def outcome_of(claim: Claim, report: Any) -> Outcome:
    """The verdict the audit's report gives (see the module docstring)."""
    from lemmaforge.lean.audit import AuditStatus, Reason

    body = report.to_json()
    changed = [r for r in report.reasons if r.reason is Reason.STATEMENT_CHANGED]
    if changed:
        return Outcome(claim.problem, claim.file, "statement_mismatch", _one_line(str(changed[0])), body)
    if report.ok:
        return Outcome(claim.problem, claim.file, "confirmed", None, body)
    reason = "; ".join(str(r) for r in report.reasons) or report.status.value
    return Outcome(claim.problem, claim.file, "refuted", _one_line(reason), body,
                   final=report.status is not AuditStatus.TIMEOUT)


async def audit_claim(claim: Claim, verifier: Any, settings: Any) -> Outcome:
    """One claim through the audit, as `lemmaforge check FILE --against ORIGINAL` runs it."""
    from lemmaforge.lean.audit import AuditStatus, Reason, Rejection, audit
    from lemmaforge.targets import TargetError, choose_target

    try:
        target = choose_target(claim.proof, None, keep_rest=True)
    except TargetError as exc:
        return Outcome(claim.problem, claim.file, "refuted", f"no_theorem: {exc}")
    try:
        original = choose_target(claim.original, None, keep_rest=True).code
    except TargetError as exc:
        raise VerifyInputError(f"problem {claim.problem} of {claim.dataset}: {exc}") from None
    report = await audit(target.code, verifier, original=original, config=settings.audit,
                         timeout=settings.verifier.timeout, row=claim.problem)
    if report.ok and target.incomplete_reason:
        report.status = AuditStatus.INCOMPLETE
        report.reasons.append(Rejection(Reason.SORRY, target.incomplete_reason))
    return outcome_of(claim, report)


async def verify_claims(
    claims: Sequence[Claim],
    verifier: Any,
    settings: Any,
    *,
    store: Any | None = None,
    concurrency: int = 8,
    on_outcome: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Every claim's outcome, in the claims' order. Claims the store already decided (same proof,
    problem and policy) are not checked again; each new final verdict is stored as it is decided.
    A backend failure (VerifierError, StoreError) stops the run and propagates: what was decided
    is kept."""
    from lemmaforge.db.claims import VerifiedClaim, claim_key, record_verdict, recorded_verdicts

    policy = policy_of(settings)
    keys = [claim_key(c.proof, c.original, policy) for c in claims]
    done = recorded_verdicts(store, keys) if store is not None else {}
    results: list[Outcome | None] = [None] * len(claims)
    todo: list[int] = []
    for i, (claim, key) in enumerate(zip(claims, keys, strict=True)):
        stored = done.get(key)
        if stored is not None and stored.verdict in VERDICTS:
            results[i] = Outcome(claim.problem, claim.file, stored.verdict, stored.reason, stored.report, resumed=True)
            if on_outcome is not None:
                on_outcome(results[i])  # type: ignore[arg-type]
        else:
            todo.append(i)
    gate = asyncio.Semaphore(max(1, concurrency))
    writing = asyncio.Lock()  # one write at a time: SQLite has one writer, and nothing waits on its lock

    async def one(i: int) -> None:
        async with gate:
            outcome = await audit_claim(claims[i], verifier, settings)
        if store is not None and outcome.final:
            async with writing:
                await asyncio.to_thread(record_verdict, store, VerifiedClaim(
                    keys[i], outcome.problem, claims[i].dataset, outcome.verdict, outcome.reason, outcome.report))
        results[i] = outcome
        if on_outcome is not None:
            on_outcome(outcome)

    try:
        async with asyncio.TaskGroup() as group:
            for i in todo:
                group.create_task(one(i))
    except BaseExceptionGroup as group_error:  # the first failure, as itself (a backend's, or a bug)
        raise _first_leaf(group_error) from None
    return [r for r in results if r is not None]


def _first_leaf(group: BaseExceptionGroup) -> BaseException:
    first = group.exceptions[0]
    return _first_leaf(first) if isinstance(first, BaseExceptionGroup) else first


def summary(outcomes: Sequence[Outcome], unmatched: Sequence[str]) -> dict[str, Any]:
    """What `verify --json` prints, exactly: claims (how many were checked against a problem),
    confirmed (how many the audit proved), refuted ({problem, reason} each), unmatched (files
    matched to no problem), statement_mismatch (problems whose file states another theorem)."""
    return {
        "claims": len(outcomes),
        "confirmed": sum(o.verdict == "confirmed" for o in outcomes),
        "refuted": [{"problem": o.problem, "reason": o.reason or ""} for o in outcomes if o.verdict == "refuted"],
        "unmatched": list(unmatched),
        "statement_mismatch": [o.problem for o in outcomes if o.verdict == "statement_mismatch"],
    }

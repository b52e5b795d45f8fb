"""Published, author-verified proofs through `lemmaforge check FILE --against STATEMENT --theorem NAME`
on the stand-in Kimina server answering as the Lean version each set was verified with.

The sets (tests/data/published/SOURCES.md: repository, commit, path, licence, Lean version, dataset
version of each) are read as published: zips byte for byte, DeepSeek-Prover-V2's from the shared
data. Each proof is checked against the statement of its problem in the dataset version its
authors used (`ProofSet.statements`: the first file that states the proof's theorem). Where no
published file does (an author's own correction that was never released as a file, or a set with
no shipped dataset), the statement is the one the proof file itself states, on the dataset's
header when there is one: **self-stated**, a last resort, counted apart in every table.

`check_proof` runs the same code the CLI's `check` runs (targets.choose_target on both files, the
audit through `backends.make_verifier`, the CLI's incomplete-target rule), in one process for
speed; tests/lean/published/test_published_proofs.py also runs a sample through the CLI itself.
`fake_lean_for(version)` is the one place that maps a set's Lean version to the fakes' knob.
"""

from __future__ import annotations

import asyncio
import fnmatch
import json
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from lemmaforge.benchmarks.datasets import load_dataset
from lemmaforge.benchmarks.registry import MINIF2F_HEADER
from lemmaforge.config import AuditConfig, VerifierConfig
from lemmaforge.lean import syntax
from lemmaforge.lean.audit import AuditReport, AuditStatus, Reason, Rejection, audit
from lemmaforge.lean.backends import make_verifier
from lemmaforge.lean.gate import DatasetRejected
from lemmaforge.targets import TargetError, choose_target
from tests.conftest import DATA, REFERENCE_PROOFS, REPO_ROOT
from tests.fakes.fake_kimina import FakeKimina, ScriptedLean

PUBLISHED = REPO_ROOT / "tests" / "data" / "published"
GOEDEL_V2_MINIF2F = DATA / "upstream" / "goedel_prover_v2" / "minif2f.jsonl"
SELF_STATED = "self-stated"


# --- the sets ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProofSet:
    """A published solution set: where its proofs are, the Lean version its authors verified them
    with, the statement files tried for each proof (dataset names or JSONL paths, in order), and
    whether the authors' verification accepted `native_decide` (`Lean.ofReduceBool`)."""

    name: str
    prover: str
    lean_version: str
    dataset: str  # the dataset version the authors used, as `lemmaforge datasets` names it (or says)
    statements: tuple[str, ...]
    source: Callable[[], list[tuple[str, str]]] = field(compare=False, repr=False)
    allow_native_decide: bool = False
    header: str | None = None  # the dataset's header, for a self-stated statement (None: the proof's)

    def proofs(self) -> list[tuple[str, str]]:
        """(problem name, proof text) of every proof of the set, sorted by name."""
        return sorted(self.source())


def _zip_members(path: Path, pattern: str) -> Callable[[], list[tuple[str, str]]]:
    def read() -> list[tuple[str, str]]:
        with zipfile.ZipFile(path) as z:
            return [(Path(n).stem, z.read(n).decode("utf-8")) for n in z.namelist()
                    if fnmatch.fnmatch(n, pattern) and "__MACOSX" not in n]
    return read


def _folder(path: Path) -> Callable[[], list[tuple[str, str]]]:
    return lambda: [(p.stem, p.read_text("utf-8")) for p in sorted(path.glob("*/*.lean"))]


SETS: tuple[ProofSet, ...] = (
    ProofSet("deepseek-prover-v2-minif2f", "DeepSeek-Prover-V2 (671B)", "v4.9.0", "minif2f-deepseek-v1.5",
             ("minif2f-deepseek-v1.5",), _folder(REFERENCE_PROOFS), header=MINIF2F_HEADER),
    ProofSet("kimina-prover-preview-minif2f", "Kimina-Prover Preview", "v4.15.0", "minif2f-kimina",
             ("minif2f-deepseek-v1.5", str(GOEDEL_V2_MINIF2F)),
             _zip_members(PUBLISHED / "kimina_prover_preview" / "minif2f_test_solved.zip",
                          "minif2f_test_solved/src/*.lean"),
             allow_native_decide=True, header=MINIF2F_HEADER),
    ProofSet("kimina-prover-72b-minif2f-0710", "Kimina-Prover 72B", "v4.15.0", "minif2f-kimina",
             ("minif2f-deepseek-v1.5", str(GOEDEL_V2_MINIF2F)),
             _zip_members(PUBLISHED / "kimina_prover_72b" / "minif2f_test_solved_filtered_0710.zip",
                          "minif2f_test_solved_filtered/src/*.lean"),
             allow_native_decide=True, header=MINIF2F_HEADER),
    ProofSet("seed-prover-minif2f", "Seed-Prover", "v4.14.0", "minif2f-deepseek-v1.5 (Seed-Prover's corrections unpublished)",
             ("minif2f-deepseek-v1.5",), _zip_members(PUBLISHED / "seed_prover" / "MiniF2F.zip", "MiniF2F/*.lean"),
             header=MINIF2F_HEADER),
    ProofSet("seed-prover-past-imo", "Seed-Prover", "v4.14.0", "none shipped (Seed-Prover's own past-IMO formalisations)",
             (), _zip_members(PUBLISHED / "seed_prover" / "imo.zip", "imo/*.lean")),
)
SET_NAMES = tuple(s.name for s in SETS)


def proof_set(name: str) -> ProofSet:
    return next(s for s in SETS if s.name == name)


@cache
def _statements(spec: str) -> dict[str, str]:
    return {p.name: p.code for p in load_dataset(spec)}


def fake_lean_for(lean_version: str) -> ScriptedLean:
    """The fakes answering as Lean `lean_version` does: the stand-in Kimina's release knob
    (tests/fakes/lean_versions.py) decides how the listing, equation lemmas, compiler artefacts,
    private names and axiom names look, so each set runs on its own release's fakes."""
    return ScriptedLean(lean_version=lean_version.lstrip("v"))


# --- one proof -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Statement:
    text: str
    source: str  # the statement file's spec, or SELF_STATED


# What a proof file holds for its proof, not its problem: the lemmas it proves, examples, the
# tactics it defines (meta code: the gate refuses it in the proof, where it belongs), module docs.
_PROOF_ONLY = frozenset({"theorem", "lemma", "example", "/-!", "elab", "elab_rules", "macro", "macro_rules",
                         "syntax"})


def self_statement(proof: str, name: str, header: str | None) -> str | None:
    """The statement `proof` itself states for theorem `name`: its context before the theorem
    (without what is there for the proof: `_PROOF_ONLY`, `#` commands), the dataset's `header` in
    place of its own imports, opens and options when given, then the theorem with `:= by sorry`."""
    found = syntax.target_declaration(proof, name)
    if len(found) != 1 or found[0].body_start is None:
        return None
    target = found[0]
    kept: list[str] = []
    for cmd in syntax.split_commands(proof[: target.start]):
        if cmd.keyword in _PROOF_ONLY or cmd.keyword.startswith("#"):
            continue
        if header is not None and syntax.header_command(" ".join(cmd.text.split())) is not None:
            continue
        kept.append(proof[cmd.start : cmd.end])
    head = (header or "") + "".join(k.rstrip() + "\n\n" for k in kept)
    return head + proof[target.start : target.body_start].rstrip() + " by\n  sorry\n"


def statement_for(proof_set: ProofSet, name: str, proof: str) -> Statement | None:
    """The statement `proof` is checked against (see the module docstring)."""
    for spec in proof_set.statements:
        text = _statements(spec).get(name)
        if text is not None and syntax.statement_match(text, proof).same:
            return Statement(text, spec)
    text = self_statement(proof, name, proof_set.header)
    return Statement(text, SELF_STATED) if text is not None else None


@dataclass(slots=True)
class Outcome:
    set: str
    name: str
    statement: str  # where the statement came from
    status: str
    reasons: list[Rejection]
    axioms: tuple[str, ...] = ()

    @property
    def accepted(self) -> bool:
        return self.status == AuditStatus.PROVED.value

    def to_json(self) -> dict[str, Any]:
        return {"set": self.set, "name": self.name, "statement": self.statement, "status": self.status,
                "reasons": [r.to_json() for r in self.reasons], "category": category(self), "axioms": list(self.axioms)}

    @property
    def native_decide(self) -> bool:
        """Accepted only because the set's authors allow `native_decide` (`Lean.ofReduceBool`)."""
        return self.accepted and "Lean.ofReduceBool" in self.axioms


async def check_proof(
    proof: str, original: str, theorem: str, verifier: Any, *, allow_native_decide: bool, row: str = "original"
) -> AuditReport:
    """What `lemmaforge check PROOF --against ORIGINAL --theorem THEOREM [--allow-native-decide]`
    decides (cli/prove.py `check`): the target of both files, the audit, and a target left
    incomplete by a `sorry` before it. DatasetRejected (an original outside the dataset whitelist:
    the CLI's exit 2) is a refusal here."""
    try:
        target = choose_target(proof, theorem, keep_rest=False)
        original = choose_target(original, theorem, keep_rest=False).code
    except TargetError as exc:
        return AuditReport(AuditStatus.REJECTED, reasons=[Rejection(Reason.NO_THEOREM, str(exc))])
    try:
        report = await audit(target.code, verifier, original=original,
                             config=AuditConfig(allow_native_decide=allow_native_decide), row=row)
    except DatasetRejected as exc:
        return AuditReport(AuditStatus.REJECTED, reasons=[Rejection(Reason.RUNS_CODE, f"the statement: {exc}")])
    if report.ok and target.incomplete_reason:
        report.status = AuditStatus.INCOMPLETE
        report.reasons.append(Rejection(Reason.SORRY, target.incomplete_reason))
    return report


@contextmanager
def fake_kimina(lean_version: str) -> Iterator[FakeKimina]:
    with FakeKimina(responder=fake_lean_for(lean_version)) as server:
        yield server


async def _run_set(proof_set: ProofSet, url: str, every: int, names: set[str] | None) -> list[Outcome]:
    verifier = make_verifier(VerifierConfig(backend="kimina", kimina_url=url, timeout=120))
    out: list[Outcome] = []
    try:
        for name, proof in proof_set.proofs()[::every]:
            if names is not None and name not in names:
                continue
            stated = statement_for(proof_set, name, proof)
            if stated is None:
                out.append(Outcome(proof_set.name, name, "none", AuditStatus.REJECTED.value,
                                   [Rejection(Reason.NO_THEOREM, f"no theorem named {name}")]))
                continue
            report = await check_proof(proof, stated.text, name, verifier,
                                       allow_native_decide=proof_set.allow_native_decide, row=name)
            out.append(Outcome(proof_set.name, name, stated.source, report.status.value, list(report.reasons),
                               tuple(report.axioms or ())))
    finally:
        await verifier.close()
    return out


def sweep(proof_set: ProofSet, *, every: int = 1, names: Iterable[str] | None = None) -> list[Outcome]:
    """Every `every`-th proof of `proof_set` (or those in `names`) checked on the fakes of its Lean version."""
    with fake_kimina(proof_set.lean_version) as server:
        return asyncio.run(_run_set(proof_set, server.url, every, set(names) if names is not None else None))


# --- what a refusal is ---------------------------------------------------------------------------

# Which part of issue 46 a refusal belongs to: the header and statement rules (point 4), what Lean
# lists and judges (points 1-3 and 5: the other branch), a policy the authors did not share.
_HEADER = {Reason.CONTEXT_CHANGED, Reason.STATEMENT_CHANGED, Reason.STATEMENT_UNKNOWN}
_LEAN_SIDE = {Reason.UNDECLARED, Reason.DECLARATIONS_UNKNOWN, Reason.FORBIDDEN_AXIOM, Reason.AXIOMS_UNKNOWN}
_GATE = {Reason.RUNS_CODE, Reason.BANNED_COMMAND, Reason.BANNED_OPTION, Reason.BANNED_ATTRIBUTE,
         Reason.BANNED_MODIFIER, Reason.UNREADABLE, Reason.EXAMPLE}


def category(outcome: Outcome) -> str:
    if outcome.accepted:
        return "accepted"
    reasons = {r.reason for r in outcome.reasons}
    if any(r.reason is Reason.FORBIDDEN_AXIOM and "Lean.ofReduceBool" in r.detail for r in outcome.reasons):
        return "policy (native_decide)"
    if reasons & _GATE:  # what the gate refuses never reaches Lean: the other reasons follow from it
        return "gate (text whitelist)"
    if reasons & _HEADER:
        return "header (point 4)"
    if reasons & _LEAN_SIDE:
        return "Lean-side (part A)"
    return "other"


CATEGORIES = ("header (point 4)", "Lean-side (part A)", "gate (text whitelist)", "policy (native_decide)", "other")


def table(outcomes: Sequence[Outcome]) -> list[dict[str, Any]]:
    """Per set: proofs, statements from a published file / self-stated, accepted, refusals by category."""
    rows = []
    for s in SETS:
        mine = [o for o in outcomes if o.set == s.name]
        if not mine:
            continue
        cats = Counter(category(o) for o in mine if not o.accepted)
        accepted = sum(o.accepted for o in mine)
        rows.append({
            "set": s.name, "lean": s.lean_version, "dataset": s.dataset, "proofs": len(mine),
            "published_statement": sum(o.statement != SELF_STATED for o in mine),
            "self_stated": sum(o.statement == SELF_STATED for o in mine),
            "accepted": accepted, "rate": accepted / len(mine), "refused": dict(cats),
            "native_decide": sum(o.native_decide for o in mine),
        })
    return rows


def render(outcomes: Sequence[Outcome]) -> str:
    """The per-set table and every refusal with its reasons, as Markdown."""
    lines = ["| set | Lean | dataset version | proofs | published statement | self-stated | accepted "
             "| of which `native_decide` | refused |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in table(outcomes):
        refused = ", ".join(f"{k}: {v}" for k, v in sorted(r["refused"].items())) or "—"
        lines.append(f"| {r['set']} | {r['lean']} | {r['dataset']} | {r['proofs']} | {r['published_statement']} | "
                     f"{r['self_stated']} | {r['accepted']} ({r['rate']:.1%}) | {r['native_decide']} | {refused} |")
    refusals = [o for o in outcomes if not o.accepted]
    if refusals:
        lines += ["", "| set | problem | statement | category | reasons |", "|---|---|---|---|---|"]
        for o in refusals:
            why = "; ".join(f"{r.reason.value}: {' '.join(r.detail.split())[:160]}" for r in o.reasons)
            lines.append(f"| {o.set} | {o.name} | {Path(o.statement).name} | {category(o)} | {why.replace('|', '∣')} |")
    return "\n".join(lines)


def outcomes_json(outcomes: Sequence[Outcome]) -> str:
    return json.dumps({"sets": table(outcomes), "outcomes": [o.to_json() for o in outcomes]}, ensure_ascii=False,
                      indent=1)

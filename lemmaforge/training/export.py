"""Training data from the store: what `lemmaforge gen-data` writes.

Every row is TRL's conversational prompt–completion shape plus metadata columns::

    {"prompt": [{"role": "user", "content": …}], "completion": [{"role": "assistant", "content": …}],
     "kind": "sft" | "cot" | "subgoal", "problem_id", "name", "header", "statement", "run_id",
     "proof_id", "node_id", "depth", "strategy", "lemma_type", "verified"}

`header` + `statement` is the Lean problem the completion proves, so every row is also a valid
GRPO / ES row (`lemmaforge train grpo` verifies against exactly those two columns).

Kinds
-----
* **sft** (non-CoT expert-iteration data): every verified whole proof (`ProofRecord` kind
  "whole", audited by the search). Prompt: DeepSeek-Prover-V2's non-CoT prompt for the problem
  (`agent.prompts.prover_messages(…, cot=False)`, with the problem's informal statement as the
  theorem's docstring where the dataset has one, DeepSeek-Prover-V2's miniF2F layout); completion: the audited file in a ```lean4 block, as the model answers.
* **cot** (cold-start chain of thought): whole proofs whose root goal was solved by the planner
  through a sketch (proof depth >= 1). Prompt: the CoT prompt. Completion, in
  DeepSeek-Prover-V2's section layout (provers.md, App. A.2):

      ### Detailed Proof and Analysis      the planner's informal reasoning (`informal_part` of
                                           the raw output of the draft the winning sketch came
                                           from; a sketch fixed by corrections keeps its draft's
                                           plan, the correction's own prose is about Lean errors)
      ### Step-by-Step Abstract Plan       one line per `have` step of the sketch, then the close
      ### Lean 4 Proof with `have` Statements   the sketch, `have … := by sorry` (as Lean checked it)
      ### Complete Lean 4 Proof            the assembled, audited proof

  The final proof contains every step of the sketch (inline assembly keeps them), so the
  structure-consistency reward of these rows is 1.0.
* **subgoal** (curriculum): every proved subgoal (`ProofRecord` kind "subgoal"): the lemma as the
  search stated it — DeepSeek-Prover-V2's type (b), the theorem's hypotheses plus the earlier
  steps (or its `extract_goal` form, the hole's exact context) — with the tactic proof Lean
  accepted FOR THAT STATEMENT. Type (a) (the theorem's hypotheses + the step alone) is rebuilt
  from the parent sketch with `lemma_from_step(…, include_previous=False)`, but its proof is never
  written: a type-(b) proof may use the earlier steps (by name, or silently through `linarith`,
  `simp_all`, `assumption`), so nothing says it proves type (a). Both types go to
  `statements.jsonl` (rows with `prompt`, `header`, `statement`, `name`, `verified`) as problems
  to prove: feed it to `lemmaforge train expert-iter --statements` and the proofs that come back
  are verified for their own statement. Solved goal nodes without a subgoal `ProofRecord` are the
  lemma-style assemblies (their proof applies lemmas that exist only in the assembled file):
  not standalone, skipped and counted.

Proofs that contain an automation portfolio (`first | (omega; done) | …`, what older runs stored
for a hole automation closed on a backend without proof states) are skipped and counted
(`skipped["portfolio_proof"]`): the engine now stores the single tactic that closed the hole.

Dedup, cap, hold-out
--------------------
* Dedup on (kind, header, statement key, normalized proof): the statement key is
  `training.canonical.statement_key` (Lean tokens without name, comments or layout; variables,
  bound names and hypothesis names alpha-renamed, hypotheses sorted, binder groups split,
  redundant parentheses dropped), the proof key is
  `lean.syntax.normalize_code` of the proof without header and theorem name, so a renamed copy of
  a proof is a duplicate. First seen (oldest run first) wins.
* `max_per_statement`: at most N proofs per (kind, statement), oldest first (STP keeps 16).
* `holdout` (`Holdout.load(["minif2f:test"])`): a row is dropped when its source problem's name or
  theorem name is a held-out name, or when the statement key of its source problem or of the row
  itself (a subgoal equal to a held-out theorem, a renamed or reformatted copy: `194%11 = 7` for
  `194 % 11 = 7`, renamed hypotheses, split binders, swapped hypotheses, extra parentheses) is a
  held-out statement key.
  Exclusions are counted per kind and reason (`ExportResult.counts["excluded"]`).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lemmaforge.agent.output import informal_part
from lemmaforge.lean import lemmas as lean_lemmas
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.records import ProblemRecord, ProofRecord
from lemmaforge.search import automation
from lemmaforge.search.cache import header_key
from lemmaforge.training.holdout import (
    Deduper,
    ExportError,
    Holdout,
    statement_key,
    theorem_name,
)
from lemmaforge.training.rows import (
    KINDS,
    cot_row,
    prompt_messages,
    sft_row,
    subgoal_row,
)

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# reading the store
# --------------------------------------------------------------------------------------------


@dataclass
class ExportResult:
    rows: dict[str, list[dict[str, Any]]]
    statements: list[dict[str, Any]]
    counts: dict[str, Any]
    runs: list[str]
    holdout: Holdout = field(default_factory=Holdout)

    @property
    def total(self) -> int:
        return sum(len(v) for v in self.rows.values())

    def train_rows(self) -> list[dict[str, Any]]:
        return [r for kind in KINDS for r in self.rows.get(kind, [])]

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": {k: len(v) for k, v in self.rows.items()},
            "total": self.total,
            "statements": len(self.statements),
            "runs": len(self.runs),
            "holdout": self.holdout.to_json(),
            **self.counts,
        }


def _resolve(store: Any, ref: str) -> str:
    from lemmaforge.db import RunIdError

    try:
        return str(store.resolve_run(ref).run_id)
    except RunIdError as exc:
        raise ExportError(str(exc)) from None


def select_runs(store: Any, run_ids: Sequence[str] | None = None) -> list[Any]:
    """The runs to read: all of them, or `run_ids` and every run below them (a bench run's
    per-problem runs, an expert-iteration loop's rounds), oldest first."""
    every = store.runs()
    if not run_ids:
        return every
    children: dict[str | None, list[Any]] = defaultdict(list)
    for r in every:
        children[r.parent_run_id].append(r)
    run_ids = [_resolve(store, rid) for rid in run_ids]  # any unique prefix of 4+ characters
    wanted: set[str] = set()
    stack = list(run_ids)
    while stack:
        rid = stack.pop()
        if rid in wanted:
            continue
        wanted.add(rid)
        stack.extend(c.run_id for c in children.get(rid, []))
    return [r for r in every if r.run_id in wanted]


class _StoreView:
    """Cached reads of one store (problems, nodes and attempts per run)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._problems: dict[str, ProblemRecord | None] = {}
        self._nodes: dict[str, dict[str, Any]] = {}
        self._attempts: dict[tuple[str, str], list[Any]] = {}

    def problem(self, problem_id: str | None) -> ProblemRecord | None:
        if problem_id is None:
            return None
        if problem_id not in self._problems:
            self._problems[problem_id] = self.store.problem(problem_id)
        return self._problems[problem_id]

    def nodes(self, run_id: str) -> dict[str, Any]:
        if run_id not in self._nodes:
            self._nodes[run_id] = {n.node_id: n for n in self.store.nodes(run_id)}
        return self._nodes[run_id]

    def attempts(self, run_id: str, node_id: str) -> list[Any]:
        key = (run_id, node_id)
        if key not in self._attempts:
            self._attempts[key] = self.store.attempts(run_id, node_id=node_id)
        return self._attempts[key]


def problem_of(rec: ProofRecord, view: _StoreView) -> tuple[str, str, str | None]:
    """(header, statement, name) of the problem a whole proof proves. The record's header carries
    the problem's preamble (definitions before the theorem) as well: the stored problem is used
    when there is one, else the preamble is cut off the record's header."""
    problem = view.problem(rec.problem_id)
    if problem is not None:
        return problem.header, problem.statement, problem.name
    header, statement = rec.header, rec.statement
    decl = lean_syntax.last_theorem(statement)
    if decl is not None and decl.start and header.endswith(statement[: decl.start]):
        header = header[: len(header) - decl.start]
    return header, statement, theorem_name(statement)


def _proof_meta(rec: ProofRecord, name: str | None) -> dict[str, Any]:
    return {
        "problem_id": rec.problem_id,
        "name": name,
        "run_id": rec.run_id,
        "proof_id": rec.proof_id,
        "node_id": rec.node_id,
        "depth": rec.depth,
        "strategy": rec.strategy,
    }


def _planner_output(view: _StoreView, run_id: str, goal_id: str, sketch_text: str) -> str | None:
    """The informal plan for a sketch of goal `goal_id`: the draft whose (possibly corrected)
    sketch is `sketch_text`."""
    attempts = view.attempts(run_id, goal_id)
    target = sketch_text.strip()
    match = None
    for i, a in enumerate(attempts):
        if a.strategy in ("planner", "sketch_correction") and a.code.rstrip().endswith(target):
            match = i
    if match is None:
        return None
    candidates = []
    for a in reversed(attempts[: match + 1]):
        candidates.append(a)
        if a.strategy == "planner":
            break
    # the draft's plan first (candidates[-1]), then the matching correction's own prose
    for a in [candidates[-1], candidates[0]]:
        text = _output_text(view, a)
        plan = informal_part(text) if text else ""
        if plan:
            return plan
    return None


def _output_text(view: _StoreView, attempt: Any) -> str | None:
    if attempt.output:
        return attempt.output
    if attempt.llm_call_id:
        call = view.store.llm_call(attempt.llm_call_id)
        if call is not None and len(call.completions) == 1:
            return call.completions[0]
    return None


def _decomposition(view: _StoreView, rec: ProofRecord) -> tuple[Any, Any] | None:
    """(root goal node, solved sketch node) when the whole proof came through a sketch."""
    if rec.node_id is None or (rec.depth or 0) < 1:
        return None
    nodes = view.nodes(rec.run_id)
    root = nodes.get(rec.node_id)
    if root is None or (root.strategy or rec.strategy) != "planner":
        return None
    sketches = [
        n for n in nodes.values() if n.parent_id == root.node_id and n.kind == "sketch" and n.status == "solved"
    ]
    return (root, sketches[-1]) if sketches else None


def _unique_name(name: str, taken: set[str], text: str) -> str:
    if name not in taken:
        return name
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
    candidate = f"{name}_{digest}"
    i = 1
    while candidate in taken:
        i += 1
        candidate = f"{name}_{digest}_{i}"
    return candidate


def collect(
    store: Any,
    *,
    runs: Sequence[str] | None = None,
    kinds: Sequence[str] = KINDS,
    holdout: Holdout | None = None,
    max_per_statement: int | None = None,
) -> ExportResult:
    """Build the rows of `kinds` from the proofs of `runs` (default: every run). See the module
    docstring for what each kind holds and how rows are deduplicated, capped and held out."""
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        raise ExportError(f"unknown kind(s) {', '.join(bad) or '(none)'}: choose from {', '.join(KINDS)}")
    holdout = holdout or Holdout()
    selected = select_runs(store, runs)
    run_ids = [r.run_id for r in selected]
    wanted = set(run_ids)
    view = _StoreView(store)
    proofs = [p for p in store.proofs() if p.run_id in wanted]
    dedup = Deduper(max_per_statement)
    rows: dict[str, list[dict[str, Any]]] = {k: [] for k in kinds}
    excluded: dict[str, Counter[str]] = {"name": Counter(), "statement": Counter()}
    excluded_problems: set[str] = set()
    skipped: Counter[str] = Counter()
    statements: list[dict[str, Any]] = []
    statement_seen: set[tuple[str, str]] = set()
    taken_names: set[str] = set()

    def keep(row: dict[str, Any], reason: str | None, problem: str | None) -> None:
        if reason is not None:
            excluded[reason][row["kind"]] += 1
            if problem:
                excluded_problems.add(problem)
            return
        if dedup.add(row):
            rows[row["kind"]].append(row)

    def add_statement(header: str, lemma: str, name: str, lemma_type: str, verified: bool, rec: ProofRecord) -> None:
        key = (header_key(header), statement_key(lemma))
        if key in statement_seen:
            return
        statement_seen.add(key)
        unique = _unique_name(name, taken_names, header + lemma)
        taken_names.add(unique)
        statements.append(
            {
                "prompt": prompt_messages(header, lemma),
                "header": header,
                "statement": lemma,
                "name": unique,
                "split": "train",
                "kind": "subgoal",
                "lemma_type": lemma_type,
                "verified": verified,
                "problem_id": rec.problem_id,
                "run_id": rec.run_id,
            }
        )

    for rec in proofs:
        if automation.is_portfolio(rec.proof):
            # stored by an engine that kept the automation portfolio itself as the proof: a model
            # trained on it learns to emit portfolios (today's engine stores the single tactic)
            skipped["portfolio_proof"] += 1
            continue
        if rec.kind == "whole":
            header, statement, name = problem_of(rec, view)
            source_problem = view.problem(rec.problem_id)
            problem_informal = source_problem.informal if source_problem is not None else None
            names = [name, theorem_name(statement)]
            reason = holdout.reason(names, [statement])
            problem = rec.problem_id or name
            meta = _proof_meta(rec, name)
            if "sft" in rows:
                keep(sft_row(header, statement, rec.proof, problem_informal=problem_informal, **meta), reason, problem)
            if "cot" in rows:
                found = _decomposition(view, rec)
                if found is None:
                    continue
                root, sketch = found
                plan = _planner_output(view, rec.run_id, root.node_id, sketch.text)
                if not plan:
                    skipped["cot_no_plan"] += 1
                    continue
                keep(
                    cot_row(header, statement, plan, sketch.text, rec.proof, problem_informal=problem_informal, **meta),
                    reason,
                    problem,
                )
        elif rec.kind == "subgoal" and "subgoal" in rows:
            source = view.problem(rec.problem_id)
            src_names = [source.name, theorem_name(source.statement)] if source is not None else []
            src_statements = [source.statement] if source is not None else []
            reason = holdout.reason(src_names, [*src_statements, rec.statement])
            problem = rec.problem_id
            name = theorem_name(rec.statement) or "subgoal"
            meta = _proof_meta(rec, name)
            meta["lemma_type"] = "b"
            keep(subgoal_row(rec.header, rec.statement, rec.proof, **meta), reason, problem)
            if reason is not None:
                continue
            add_statement(rec.header, rec.statement, name, "b", True, rec)
            lemma_a = _type_a(view, rec, name)
            if lemma_a is None:
                skipped["type_a_unavailable"] += 1
            elif holdout.reason([], [lemma_a]) is not None:
                excluded["statement"]["statements"] += 1
            else:
                add_statement(rec.header, lemma_a, f"{name}_a", "a", False, rec)

    if "subgoal" in rows:
        subgoal_nodes = {p.node_id for p in proofs if p.kind == "subgoal"}
        for run_id in run_ids:
            for node in view.nodes(run_id).values():
                if (
                    node.kind == "goal"
                    and node.status == "solved"
                    and node.parent_id is not None
                    and node.node_id not in subgoal_nodes
                ):
                    skipped["subgoal_not_standalone"] += 1

    counts = {
        "duplicates": {k: dedup.duplicates[k] for k in kinds},
        "capped": {k: dedup.capped[k] for k in kinds},
        "excluded": {
            "by_name": dict(excluded["name"]),
            "by_statement": dict(excluded["statement"]),
            "total": sum(excluded["name"].values()) + sum(excluded["statement"].values()),
            "problems": sorted(excluded_problems),
        },
        "skipped": dict(skipped),
        "max_per_statement": max_per_statement,
    }
    return ExportResult(rows, statements, counts, run_ids, holdout)


def _type_a(view: _StoreView, rec: ProofRecord, name: str) -> str | None:
    """Type (a) of a subgoal: rebuilt from the parent sketch with `lemma_from_step(…,
    include_previous=False)`. None for the closing hole (its type (a) is the parent goal itself)
    or when the hole is not a whole step."""
    if rec.node_id is None:
        return None
    nodes = view.nodes(rec.run_id)
    node = nodes.get(rec.node_id)
    if node is None or node.parent_id is None or node.hole_index is None:
        return None
    sketch = nodes.get(node.parent_id)
    if sketch is None or sketch.kind != "sketch":
        return None
    try:
        step = lean_lemmas.step_of_hole(sketch.text, node.hole_index)
        if step >= len(lean_syntax.have_steps(sketch.text)):
            return None
        return lean_lemmas.lemma_from_step(sketch.text, step, include_previous=False, name=f"{name}_a")
    except (lean_lemmas.LemmaBuildError, ValueError):
        return None


# --------------------------------------------------------------------------------------------
# writing
# --------------------------------------------------------------------------------------------


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            n += 1
    return n


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def write(result: ExportResult, out_dir: Path, *, hf_dir: Path | None = None) -> dict[str, str]:
    """`OUT/{kind}.jsonl` per kind, `OUT/train.jsonl` (every proof row), `OUT/statements.jsonl`
    (the subgoal curriculum as problems to prove), `OUT/manifest.json` (counts); with `hf_dir`
    an HF `DatasetDict` (one split per non-empty kind, plus `statements`) saved there."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    for kind, rows in result.rows.items():
        files[kind] = str(out_dir / f"{kind}.jsonl")
        write_jsonl(out_dir / f"{kind}.jsonl", rows)
    files["train"] = str(out_dir / "train.jsonl")
    write_jsonl(out_dir / "train.jsonl", result.train_rows())
    if "subgoal" in result.rows:
        files["statements"] = str(out_dir / "statements.jsonl")
        write_jsonl(out_dir / "statements.jsonl", result.statements)
    if hf_dir is not None:
        files["hf"] = str(save_hf(result, hf_dir))
    manifest = {**result.to_json(), "files": files, "runs": result.runs}
    (out_dir / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    files["manifest"] = str(out_dir / "manifest.json")
    return files


def save_hf(result: ExportResult, path: Path) -> Path:
    from datasets import Dataset, DatasetDict

    splits = {kind: Dataset.from_list(rows) for kind, rows in result.rows.items() if rows}
    if result.statements:
        splits["statements"] = Dataset.from_list(result.statements)
    DatasetDict(splits).save_to_disk(str(path))
    return path


def export(
    store: Any,
    out_dir: Path,
    *,
    runs: Sequence[str] | None = None,
    kinds: Sequence[str] = KINDS,
    holdout: Holdout | None = None,
    max_per_statement: int | None = None,
    hf_dir: Path | None = None,
) -> tuple[ExportResult, dict[str, str]]:
    """`collect` then `write`."""
    result = collect(store, runs=runs, kinds=kinds, holdout=holdout, max_per_statement=max_per_statement)
    return result, write(result, out_dir, hf_dir=hf_dir)


__all__ = [
    "ExportResult",
    "collect",
    "export",
    "problem_of",
    "read_jsonl",
    "select_runs",
    "write",
    "write_jsonl",
]

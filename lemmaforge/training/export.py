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

from lemmaforge.agent import prompts
from lemmaforge.agent.planner import informal_part
from lemmaforge.agent.prover import statement_with_sorry
from lemmaforge.errors import InputError
from lemmaforge.lean import lemmas as lean_lemmas
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.records import ProblemRecord, ProofRecord
from lemmaforge.search import automation
from lemmaforge.search.cache import header_key
from lemmaforge.training import canonical

log = logging.getLogger(__name__)

KINDS: tuple[str, ...] = ("sft", "cot", "subgoal")

#: every proof row has exactly these keys (HF datasets want one schema per split)
ROW_KEYS: tuple[str, ...] = (
    "prompt",
    "completion",
    "kind",
    "problem_id",
    "name",
    "header",
    "statement",
    "run_id",
    "proof_id",
    "node_id",
    "depth",
    "strategy",
    "lemma_type",
    "verified",
)

COT_SECTIONS = (
    "### Detailed Proof and Analysis",
    "### Step-by-Step Abstract Plan",
    "### Lean 4 Proof with `have` Statements",
    "### Complete Lean 4 Proof",
)


class ExportError(InputError, ValueError):
    """The export cannot be done as asked (unknown run, bad kind, bad hold-out spec). One line."""


# --------------------------------------------------------------------------------------------
# dataset specs with an optional split: `minif2f:test`, `path/to/file.jsonl`, `hf:id:config:split`
# --------------------------------------------------------------------------------------------


def parse_dataset_spec(spec: str) -> tuple[str, str | None]:
    """(dataset spec for `load_dataset`, split or None) from `NAME_OR_PATH[:SPLIT]`. An existing
    file is never split at a colon; `hf:ID[:CONFIG][:SPLIT]` takes its split third."""
    spec = spec.strip()
    if not spec:
        raise ExportError("empty dataset spec")
    if spec.startswith("hf:"):
        parts = spec.split(":")
        if len(parts) >= 4:
            return ":".join(parts[:3]), parts[3] or None
        return spec, None
    if Path(spec).expanduser().exists() or ":" not in spec:
        return spec, None
    left, _, split = spec.rpartition(":")
    return left, split or None


def load_problems(spec: str) -> list[Any]:
    """`BenchmarkProblem`s of `DATASET[:SPLIT]` (a registered name, a JSONL path, `hf:…`)."""
    from lemmaforge.benchmarks.datasets import DatasetError, load_dataset

    dataset, split = parse_dataset_spec(spec)
    try:
        return load_dataset(dataset, split=split)
    except DatasetError as exc:
        raise ExportError(f"{spec}: {exc}") from None


def statement_key(statement: str) -> str:
    """The hold-out / dedup key of a theorem or lemma: `training.canonical.statement_key` of its
    last theorem (the Lean token stream without name, comments and layout; variables and bound
    names alpha-renamed, hypotheses anonymous and sorted, binder groups split, redundant
    parentheses dropped): a disguised copy of a held-out problem has the held-out key."""
    return canonical.statement_key(statement)


def theorem_name(statement: str) -> str | None:
    decl = lean_syntax.last_theorem(statement)
    return decl.name if decl is not None and decl.name else None


@dataclass(frozen=True)
class Holdout:
    """Problems that must never appear in training data: by name and by normalized statement."""

    names: frozenset[str] = frozenset()
    statements: frozenset[str] = frozenset()
    sources: tuple[str, ...] = ()
    problems: int = 0

    @classmethod
    def load(cls, specs: Iterable[str]) -> Holdout:
        names: set[str] = set()
        stmts: set[str] = set()
        sources: list[str] = []
        count = 0
        for spec in specs:
            for spec_part in (s for s in spec.split(",") if s.strip()):
                problems = load_problems(spec_part)
                sources.append(spec_part.strip())
                for p in problems:
                    count += 1
                    names.add(p.name)
                    name = theorem_name(p.statement)
                    if name:
                        names.add(name)
                    stmts.add(statement_key(p.statement))
        return cls(frozenset(names), frozenset(stmts), tuple(sources), count)

    @classmethod
    def of(cls, problems: Iterable[Any], source: str = "problems") -> Holdout:
        """A hold-out set from problem objects with `name` and `statement`."""
        items = list(problems)
        names = {p.name for p in items if p.name}
        names |= {n for n in (theorem_name(p.statement) for p in items) if n}
        return cls(frozenset(names), frozenset(statement_key(p.statement) for p in items), (source,), len(items))

    def __bool__(self) -> bool:
        return bool(self.names or self.statements)

    def reason(self, names: Iterable[str | None] = (), statements: Iterable[str | None] = ()) -> str | None:
        """"name" or "statement" when any of `names` / `statements` (raw Lean text) is held out."""
        if any(n in self.names for n in names if n):
            return "name"
        if any(statement_key(s) in self.statements for s in statements if s):
            return "statement"
        return None

    def to_json(self) -> dict[str, Any]:
        return {"sources": list(self.sources), "problems": self.problems}


# --------------------------------------------------------------------------------------------
# rows
# --------------------------------------------------------------------------------------------


def lean_fence(code: str) -> str:
    return f"```lean4\n{code.strip()}\n```"


def prompt_messages(
    header: str, statement: str, *, cot: bool = False, informal: str | None = None
) -> list[dict[str, str]]:
    """DeepSeek-Prover-V2's prompt for `statement` under `header`, with the problem's informal
    statement as the theorem's docstring where the dataset has one."""
    return prompts.prover_messages(header, statement_with_sorry(statement), cot=cot, informal=informal)


def _row(kind: str, prompt: list[dict[str, str]], completion: str, **meta: Any) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(ROW_KEYS)
    row.update(
        prompt=prompt,
        completion=[{"role": "assistant", "content": completion}],
        kind=kind,
        verified=True,
    )
    for key, value in meta.items():
        if key not in row:
            raise KeyError(f"unknown row column {key!r}")
        row[key] = value
    return row


def sft_row(
    header: str, statement: str, proof_file: str, *, problem_informal: str | None = None, **meta: Any
) -> dict[str, Any]:
    """Non-CoT row: the problem's prompt (with its informal statement, if any) → its audited proof
    file in a ```lean4 block."""
    return _row(
        "sft",
        prompt_messages(header, statement, informal=problem_informal),
        lean_fence(proof_file),
        header=header,
        statement=statement,
        **meta,
    )


def abstract_plan(sketch: str) -> str:
    """A numbered plan from the sketch's top-level steps (one line each), then the close."""
    steps = lean_syntax.have_steps(sketch)
    lines = []
    for i, step in enumerate(steps, 1):
        stmt = " ".join(step.full_statement.split())
        lines.append(f"{i}. Prove `{step.name} : {stmt}`.")
    lines.append(f"{len(steps) + 1}. Close the goal from the hypotheses and the steps above.")
    return "\n".join(lines)


def cot_completion(informal: str, sketch: str, proof_file: str) -> str:
    """DeepSeek-Prover-V2's CoT answer: analysis, abstract plan, `have` sketch, complete proof."""
    return (
        f"{COT_SECTIONS[0]}\n\n{informal.strip()}\n\n"
        f"{COT_SECTIONS[1]}\n\n{abstract_plan(sketch)}\n\n"
        f"{COT_SECTIONS[2]}\n\n{lean_fence(sketch)}\n\n"
        f"{COT_SECTIONS[3]}\n\n{lean_fence(proof_file)}\n"
    )


def cot_row(
    header: str, statement: str, informal: str, sketch: str, proof_file: str, *,
    problem_informal: str | None = None, **meta: Any,
) -> dict[str, Any]:
    """CoT row: `informal` is the planner's reasoning (the completion's first section);
    `problem_informal` the dataset's informal statement (the prompt's docstring)."""
    return _row(
        "cot",
        prompt_messages(header, statement, cot=True, informal=problem_informal),
        cot_completion(informal, sketch, proof_file),
        header=header,
        statement=statement,
        **meta,
    )


def lemma_with_proof(lemma: str, body: str) -> str:
    """`lemma` with its proof slot filled by the tactic `body` (the engine's own `fill`)."""
    try:
        return lean_syntax.fill(lemma, [body])
    except ValueError:
        from lemmaforge.agent.prover import lemma_code

        return lemma_code(lemma, body)


def subgoal_row(header: str, lemma: str, body: str, **meta: Any) -> dict[str, Any]:
    """Subgoal row: the lemma's prompt → header + lemma with the proof Lean accepted for it."""
    return _row(
        "subgoal",
        prompt_messages(header, lemma),
        lean_fence(prompts.with_header(header, lemma_with_proof(lemma, body))),
        header=header,
        statement=lemma,
        **meta,
    )


def proof_key(proof: str) -> str:
    """Normalized proof text for dedup: header and the theorem's name and signature dropped
    (helper lemmas before the theorem kept), comments and spacing normalized."""
    _, body = lean_syntax.split_header(proof)
    decl = lean_syntax.last_theorem(body)
    if decl is None or decl.body_start is None:
        return lean_syntax.normalize_code(body)
    return lean_syntax.normalize_code(body[: decl.start]) + " ⟦⟧ " + lean_syntax.normalize_code(decl.body)


def row_keys(row: dict[str, Any]) -> tuple[tuple[str, str, str], str]:
    """((kind, header key, statement key), proof key) of a proof row."""
    content = row["completion"][-1]["content"]
    if row["kind"] == "cot":
        content = content.rsplit(COT_SECTIONS[3], 1)[-1]
    code = content.strip()
    if code.startswith("```"):
        code = code.split("\n", 1)[1] if "\n" in code else ""
        code = code.rsplit("```", 1)[0]
    return (row["kind"], header_key(row["header"] or ""), _dedup_statement_key(row["statement"] or "")), proof_key(code)


def _dedup_statement_key(statement: str) -> str:
    """`statement_key` plus the normalized preamble before the theorem (definitions it may use)."""
    decl = lean_syntax.last_theorem(statement)
    pre = lean_syntax.normalize_code(statement[: decl.start]) if decl is not None and decl.start else ""
    return f"{pre} ⟦⟧ {statement_key(statement)}" if pre else statement_key(statement)


class Deduper:
    """Keeps rows with a new (statement, proof) key, at most `max_per_statement` per statement."""

    def __init__(self, max_per_statement: int | None = None) -> None:
        if max_per_statement is not None and max_per_statement < 1:
            raise ExportError("max_per_statement must be at least 1")
        self.max_per_statement = max_per_statement
        self._seen: set[tuple[tuple[str, str, str], str]] = set()
        self._per_statement: Counter[tuple[str, str, str]] = Counter()
        self.duplicates: Counter[str] = Counter()
        self.capped: Counter[str] = Counter()

    def add(self, row: dict[str, Any]) -> bool:
        stmt, proof = row_keys(row)
        if (stmt, proof) in self._seen:
            self.duplicates[row["kind"]] += 1
            return False
        if self.max_per_statement is not None and self._per_statement[stmt] >= self.max_per_statement:
            self.capped[row["kind"]] += 1
            return False
        self._seen.add((stmt, proof))
        self._per_statement[stmt] += 1
        return True


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


def select_runs(store: Any, run_ids: Sequence[str] | None = None) -> list[Any]:
    """The runs to read: all of them, or `run_ids` and every run below them (a bench run's
    per-problem runs, an expert-iteration loop's rounds), oldest first."""
    every = store.runs()
    if not run_ids:
        return every
    children: dict[str | None, list[Any]] = defaultdict(list)
    by_id = {r.run_id: r for r in every}
    for r in every:
        children[r.parent_run_id].append(r)
    unknown = [rid for rid in run_ids if rid not in by_id]
    if unknown:
        raise ExportError(f"unknown run id(s): {', '.join(unknown[:5])}")
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
    "COT_SECTIONS",
    "KINDS",
    "ROW_KEYS",
    "Deduper",
    "ExportError",
    "ExportResult",
    "Holdout",
    "abstract_plan",
    "collect",
    "cot_completion",
    "cot_row",
    "export",
    "lean_fence",
    "lemma_with_proof",
    "load_problems",
    "parse_dataset_spec",
    "problem_of",
    "prompt_messages",
    "proof_key",
    "read_jsonl",
    "select_runs",
    "sft_row",
    "statement_key",
    "subgoal_row",
    "write",
    "write_jsonl",
]

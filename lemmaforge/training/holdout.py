"""Hold-out and dedup of training data: the dataset specs a hold-out is loaded from, the
canonical statement key (`canonical.py`) and the proof key rows are compared by, `Holdout`
(problems that must never appear in training data) and `Deduper` (one row per (statement, proof),
at most N per statement).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lemmaforge.errors import InputError
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.search.cache import header_key
from lemmaforge.training import canonical
from lemmaforge.training.rows import COT_SECTIONS


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
    from lemmaforge.benchmarks.datasets import load_dataset
    from lemmaforge.benchmarks.registry import DatasetError

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

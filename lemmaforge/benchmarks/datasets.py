"""Benchmark datasets: miniF2F (two versions), ProverBench, PutnamBench, any JSONL, or the HF hub.

`load_dataset(spec, ...)` returns a list of `BenchmarkProblem`s. `spec` is one of

* a registered name (see `DATASETS`, or `lemmaforge datasets`): `minif2f-deepseek-v1.5` (alias
  `minif2f`, the default; Lean v4.9.0), `minif2f-yangky11` (Lean v4.24.0), `proverbench` (partial,
  230 of 325; Lean v4.9.0), `putnambench` (Lean v4.27.0) resolve to the JSONL copies shipped in the
  package (`lemmaforge/benchmarks/data/`, with `SOURCES.md`: origin, commit, licence and changes of
  each file), or to `$LEMMAFORGE_DATA` (the folder holding the JSONL files, or its parent `data/`
  folder) when that is set. `minif2f-goedel-v2` is packaged too, and its copy is checked against the
  published file's pinned sha256 whenever it is read (downloaded only where the copy is missing);
  `minif2f-kimina` and `proverbench-full` are downloaded on first use and checked against their
  pinned digest (`download`). A registered name wins over a file of
  the same name in the working directory: write `./minif2f` for the file;
* a path to a JSONL file, one problem per line: `header` + `formal_statement`, optional `name`,
  `split` (default `test`), `informal_statement`, `category` / `tags` / `area`, `lean_version`;
  every other field lands in `extra`. A line without `header` whose `formal_statement` (or
  `code`) holds the whole file is split with `lean.syntax.split_header`. A statement ending in
  `:= by` or `:=` (DeepSeek's and ATF's raw formats) gets its `sorry` appended;
* `hf:<dataset id>[:config]`: the same row format read through the Hugging Face `datasets`
  library (the `train` extra), when it is installed and the hub is reachable.

Filters are applied in this order: `split`, `names`, `shard`, then `limit` (so `limit` takes the
first N problems of the shard, in file order). Shards are stable: problems are ordered by the
SHA-256 of their name and problem j of that order goes to shard j mod n, so the n shards partition
the selection exactly, differ in size by at most one, and do not depend on the file's line order.

Proof slot and answer slots. Every statement ends in its proof slot: the FINAL `sorry`
(`BenchmarkProblem.proof_slot`). PutnamBench statements may start with solution `abbrev`s whose
`sorry`s are *answer* slots (`answer_slots`), not proofs. Holes are always counted in the
statement only: the header may hold `sorry`s of its own (ProverBench `abstract_algebra__p30`).

Term vs tactic mode. PutnamBench statements mostly end in a term-mode `:=\\nsorry`;
`as_tactic_statement()` rewrites the final term `sorry` (only) into `:= by\\n  sorry`, and
`load_dataset(..., tactic=True)` returns problems already rewritten that way, with the original
statement kept in `extra["original_statement"]`. `answers="inlined"` uses PutnamBench's
"answer given" variant (`extra["formal_statement_solution_inlined"]`, abbrevs replaced by the
official answers) as the statement where it exists, again keeping the original in `extra`.

All problems of a registered dataset carry the Lean version its file pins
(`BenchmarkProblem.lean_version`); `lean_version_mismatch` turns a difference with the verifier's
version into a warning line.

The modules behind it: `registry` (registered datasets, the data folder, what a spec names),
`problem` (`BenchmarkProblem`), `dataset_rows` (rows → problems, `read_problems`); this module
selects (split, names, shard, limit) and checks Lean versions.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Sequence

from lemmaforge.benchmarks.dataset_rows import read_problems
from lemmaforge.benchmarks.problem import Answers, BenchmarkProblem
from lemmaforge.benchmarks.registry import (
    DATASETS,
    DEFAULT_DATASET,
    DatasetError,
    registered,
)
from lemmaforge.records import ProblemRecord

__all__ = [
    "lean_version_mismatch",
    "load_dataset",
    "parse_shard",
    "select",
    "version_warnings",
]


# --------------------------------------------------------------------------------------------
# filters


def parse_shard(shard: str | tuple[int, int]) -> tuple[int, int]:
    """`"i/n"` (or `(i, n)`) → `(i, n)` with 0 <= i < n."""
    if isinstance(shard, tuple) and len(shard) == 2 and all(isinstance(x, int) for x in shard):
        i, n = shard
    else:
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", str(shard))
        if not m:
            raise DatasetError(f"bad shard {shard!r}: expected 'i/n' with 0 <= i < n, e.g. '0/4'")
        i, n = int(m.group(1)), int(m.group(2))
    if n < 1:
        raise DatasetError(f"bad shard {shard!r}: the number of shards n must be at least 1 (e.g. '0/4')")
    if not 0 <= i < n:
        # shards count from 0: the n shards of i/n are 0/n … (n-1)/n, so "4/4" is one past the last
        raise DatasetError(
            f"bad shard {shard!r}: shards count from 0, so with n={n} they are 0/{n} … {n - 1}/{n} "
            f"(the last shard is {n - 1}/{n})"
        )
    return i, n


def _shard_key(name: str) -> tuple[str, str]:
    return hashlib.sha256(name.encode()).hexdigest(), name


def _parse_names(names: str | Iterable[str]) -> list[str]:
    items = names.split(",") if isinstance(names, str) else list(names)
    out = [str(n).strip() for n in items]
    return [n for n in out if n]


def _short_list(items: Sequence[str], limit: int = 10) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" (+{len(items) - limit} more)" if len(items) > limit else "")


def select(
    problems: Sequence[BenchmarkProblem],
    *,
    split: str | None = None,
    names: str | Iterable[str] | None = None,
    shard: str | tuple[int, int] | None = None,
    limit: int | None = None,
) -> list[BenchmarkProblem]:
    """Filter in this order: `split`, `names`, `shard` ("i/n"), `limit`; file order is kept."""
    out = list(problems)
    label = out[0].dataset if out else "dataset"
    if split is not None:
        splits = sorted({p.split for p in out})
        if split not in splits:
            raise DatasetError(f"{label} has no split {split!r}; splits: {', '.join(splits) or '(none)'}")
        out = [p for p in out if p.split == split]
    if names is not None:
        wanted = _parse_names(names)
        if not wanted:
            raise DatasetError("names is empty: give problem names as a list or a comma-separated string")
        all_names = {p.name for p in problems}
        unknown = [n for n in dict.fromkeys(wanted) if n not in all_names]
        if unknown:
            lower = {n.lower(): n for n in all_names}
            hints = [f"{n}→{lower[n.lower()]}" for n in unknown if n.lower() in lower]
            hint = f" (case differs: {_short_list(hints)})" if hints else ""
            raise DatasetError(f"unknown problem name(s) in {label}: {_short_list(unknown)}{hint}")
        present = {p.name for p in out}
        outside = [n for n in dict.fromkeys(wanted) if n not in present]
        if outside:
            raise DatasetError(f"problem(s) not in split {split!r} of {label}: {_short_list(outside)}")
        keep = set(wanted)
        out = [p for p in out if p.name in keep]
    if shard is not None:
        i, n = parse_shard(shard)
        order = sorted(range(len(out)), key=lambda j: _shard_key(out[j].name))
        mine = {idx for rank, idx in enumerate(order) if rank % n == i}
        out = [p for j, p in enumerate(out) if j in mine]
    if limit is not None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise DatasetError(f"limit must be a non-negative integer, not {limit!r}")
        out = out[:limit]
    return out


def load_dataset(
    spec: str | os.PathLike[str] = DEFAULT_DATASET,
    *,
    split: str | None = None,
    limit: int | None = None,
    names: str | Iterable[str] | None = None,
    shard: str | tuple[int, int] | None = None,
    answers: Answers = "slots",
    tactic: bool = False,
    lean_version: str | None = None,
) -> list[BenchmarkProblem]:
    """Load a benchmark and select problems from it.

    `spec`: a registered name (`DATASETS`), a JSONL path, or `hf:<id>[:config]`.
    Filters apply in the order `split` → `names` (list or "a,b,c"; unknown names are an error)
    → `shard` ("i/n", stable across runs) → `limit` (first N of what is left).
    `answers="inlined"`: use PutnamBench's answer-given variant where a problem has one.
    `tactic=True`: final term-mode `sorry` → `by\\n  sorry` (see `BenchmarkProblem.as_tactic_statement`).
    `lean_version`: override the pinned version (custom files carry none unless a row has `lean_version`).
    Raises `DatasetError` with a one-line message.
    """
    problems = read_problems(spec, answers=answers, tactic=tactic, lean_version=lean_version)
    return select(problems, split=split, names=names, shard=shard, limit=limit)


# --------------------------------------------------------------------------------------------
# Lean versions


def _version_key(version: str) -> tuple[tuple[int, ...], str]:
    text = version.strip().rsplit(":", 1)[-1].strip().lstrip("vV")
    core, _, suffix = text.partition("-")
    parts: list[int] = []
    for piece in core.split("."):
        if not piece.isdigit():
            return (), text.lower()  # not a plain version: compare the text
        parts.append(int(piece))
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts), suffix.lower()


def _problem_lean_version(problem: BenchmarkProblem | ProblemRecord) -> str | None:
    """The Lean version the problem's dataset pins: a dataset row's field, or where a stored
    problem record keeps it (`extra`)."""
    pinned = problem.lean_version if isinstance(problem, BenchmarkProblem) else None
    return pinned if pinned is not None else (problem.extra or {}).get("lean_version")


def _mismatch(
    subject: str, dataset: str, version: str | None, verifier_lean_version: str | None
) -> str | None:
    if not version or not verifier_lean_version:
        return None
    if _version_key(version) == _version_key(verifier_lean_version):
        return None
    line = (
        f"warning: {subject} is pinned to Lean {version} but the verifier runs Lean "
        f"{verifier_lean_version}; statements may not elaborate there"
    )
    info = registered(dataset or "")
    if info is not None:
        others = [
            o.name
            for o in DATASETS.values()
            if o.family == info.family
            and o.name != info.name
            and _version_key(o.lean_version) == _version_key(verifier_lean_version)
        ]
        if others:
            line += f" (use {others[0]}, pinned to Lean {verifier_lean_version})"
    return line


def lean_version_mismatch(
    problem: BenchmarkProblem | ProblemRecord, verifier_lean_version: str | None
) -> str | None:
    """A warning line when the problem's pinned Lean version differs from the verifier's; None
    when they agree or either is unknown. Accepts "v4.9.0", "4.9", "leanprover/lean4:v4.9.0"."""
    return _mismatch(
        problem.problem_id, problem.dataset, _problem_lean_version(problem), verifier_lean_version
    )


def version_warnings(
    problems: Iterable[BenchmarkProblem | ProblemRecord], verifier_lean_version: str | None
) -> list[str]:
    """One warning line per (dataset, pinned version) that differs from the verifier's version
    (for batch runs, instead of one line per problem)."""
    seen: set[tuple[str, str | None]] = set()
    out: list[str] = []
    for p in problems:
        key = (p.dataset, _problem_lean_version(p))
        if key in seen:
            continue
        seen.add(key)
        line = _mismatch(f"dataset {p.dataset}", p.dataset, key[1], verifier_lean_version)
        if line:
            out.append(line)
    return out


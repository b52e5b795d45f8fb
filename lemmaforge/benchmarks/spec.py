"""The experiment of a bench: what it runs (`BenchSpec`: dataset selection, attempts, answer
handling), its problems (`select_problems`, answer comments hidden), and the errors a bench raises.
See `lemmaforge.benchmarks.runner` for how a bench runs and resumes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lemmaforge.benchmarks.answers import ANSWER_TASK
from lemmaforge.benchmarks.datasets import load_dataset, parse_shard, version_warnings
from lemmaforge.benchmarks.problem import BenchmarkProblem
from lemmaforge.benchmarks.registry import DatasetError, DatasetInfo, resolve_dataset
from lemmaforge.errors import BackendError, InputError
from lemmaforge.lean.syntax import answer_slots
from lemmaforge.records import ProblemRecord

if TYPE_CHECKING:
    from lemmaforge.db import RunInfo

BENCH_KIND = "bench"
CHILD_KIND = "prove"
STATUS_DONE = frozenset({"proved", "not_proved"})

#: bench config keys that define the experiment: refused on resume when a flag changes them
EXPERIMENT_KEYS = ("dataset", "split", "limit", "names", "shard", "attempts", "answers", "tactic", "shared_cache",
                   "protocol")
#: PutnamBench's answer abbrevs: left as slots (hidden answers), inlined (given), or filled by the model
ANSWER_MODES = ("slots", "inlined", "fill")
#: how a bench spends its attempts (`lemmaforge.benchmarks.protocols`)
PROTOCOLS = ("search", "whole-proof")


class BenchError(InputError, ValueError):
    """Input the user must fix (unknown dataset, bad shard, unknown run, a flag that cannot change
    on resume…). One line; the CLI exits 2."""


class FatalBenchError(BackendError):
    """A backend became unusable mid-run (endpoint down or misconfigured, verifier gone, store
    failing): the bench stops; `--resume` continues it once the backend is fixed. `cause` is the
    backend's own error (its message is this one's)."""

    def __init__(self, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.cause = cause


# --------------------------------------------------------------------------------------------------
# the experiment


@dataclass(frozen=True, slots=True)
class BenchSpec:
    """What a bench runs: the dataset selection and the number of attempts per problem."""

    dataset: str
    split: str | None = None
    limit: int | None = None
    names: tuple[str, ...] | None = None
    shard: str | None = None
    attempts: int = 1
    answers: str = "slots"  # "slots" (answer comments hidden) | "inlined" (answers given) | "fill" (model answers)
    tactic: bool = True
    shared_cache: bool = False
    protocol: str = "search"  # a bench stored before protocols existed ran a search

    def to_json(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "split": self.split,
            "limit": self.limit,
            "names": list(self.names) if self.names is not None else None,
            "shard": self.shard,
            "attempts": self.attempts,
            "answers": self.answers,
            "tactic": self.tactic,
            "shared_cache": self.shared_cache,
            "answer_comments": "kept (answers inlined)" if self.answers == "inlined" else "hidden",
            "protocol": self.protocol,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BenchSpec:
        names = data.get("names")
        return cls(
            dataset=str(data["dataset"]),
            split=data.get("split"),
            limit=data.get("limit"),
            names=tuple(names) if names is not None else None,
            shard=data.get("shard"),
            attempts=int(data.get("attempts", 1)),
            answers=str(data.get("answers", "slots")),
            tactic=bool(data.get("tactic", True)),
            shared_cache=bool(data.get("shared_cache", False)),
            protocol=str(data.get("protocol") or "search"),
        )


def canonical_dataset(spec: str) -> str:
    """A registered name as its canonical name; a JSONL file as an absolute path (so that a bench
    resumes from any working directory); `hf:` specs as given. Raises BenchError."""
    try:
        target = resolve_dataset(spec)
    except DatasetError as exc:
        raise BenchError(str(exc)) from None
    if isinstance(target, DatasetInfo):
        return target.name
    if isinstance(target, Path):
        return str(target.resolve())
    return target


def make_spec(
    dataset: str,
    *,
    split: str | None = None,
    limit: int | None = None,
    names: Iterable[str] | None = None,
    shard: str | None = None,
    attempts: int = 1,
    answers: str = "slots",
    tactic: bool = True,
    shared_cache: bool = False,
    protocol: str = "search",
) -> BenchSpec:
    """A validated spec (the dataset resolved, the shard parsed). Raises BenchError."""
    if protocol not in PROTOCOLS:
        raise BenchError(f"unknown protocol '{protocol}' (choose {' or '.join(PROTOCOLS)})")
    if attempts < 1:
        raise BenchError(f"--attempts must be at least 1 (got {attempts})")
    if limit is not None and limit < 1:
        raise BenchError(f"--limit must be at least 1 (got {limit})")
    if answers not in ANSWER_MODES:
        raise BenchError(f"--answers must be 'slots', 'inlined' or 'fill' (got {answers!r})")
    if shard is not None:
        try:
            i, n = parse_shard(shard)
        except DatasetError as exc:
            raise BenchError(str(exc)) from None
        shard = f"{i}/{n}"
    name_list = None
    if names is not None:
        name_list = tuple(dict.fromkeys(n.strip() for item in names for n in item.split(",") if n.strip()))
        if not name_list:
            raise BenchError("--names is empty: give problem names, comma-separated or repeated")
    return BenchSpec(
        dataset=canonical_dataset(dataset), split=split, limit=limit, names=name_list, shard=shard,
        attempts=attempts, answers=answers, tactic=tactic, shared_cache=shared_cache, protocol=protocol,
    )


def hide_answer_comments(problem: BenchmarkProblem) -> BenchmarkProblem:
    """The problem with the `--` comments that follow its answer slots removed.

    PutnamBench writes each solution `abbrev … := sorry` followed by a line `-- <the answer>`;
    left in place, every prompt (which carries the problem's context) would hand the answer to the
    model. Removed: a `--` comment on the slot's own line after the `sorry`, and the run of `--`
    comment lines right below it. Docstrings (`/-- … -/`) and other comments are kept. The number of
    lines removed is kept in `extra["answer_comment_lines_hidden"]`."""
    slots = problem.answer_slots
    if not slots:
        return problem
    start = problem.statement_offset
    text = problem.statement
    lines = text.split("\n")
    line_starts = [0]
    for ln in lines[:-1]:
        line_starts.append(line_starts[-1] + len(ln) + 1)
    cut: dict[int, int] = {}
    drop: set[int] = set()
    for hole in slots:
        offset = hole.offset - start
        idx = text.count("\n", 0, offset)
        end_col = hole.end - start - line_starts[idx]
        tail = lines[idx][end_col:]
        comment = tail.find("--")
        if comment >= 0:
            cut[idx] = end_col + comment
        j = idx + 1
        while j < len(lines) and lines[j].lstrip().startswith("--"):
            drop.add(j)
            j += 1
    if not cut and not drop:
        return problem
    out_lines = []
    for i, ln in enumerate(lines):
        if i in drop:
            continue
        out_lines.append(ln[: cut[i]].rstrip() if i in cut else ln)
    extra = dict(problem.extra)
    extra["answer_comment_lines_hidden"] = len(drop) + len(cut)
    extra.setdefault("original_statement", problem.statement)
    return replace(problem, statement="\n".join(out_lines), extra=extra)


def select_problems(spec: BenchSpec) -> list[BenchmarkProblem]:
    """The spec's problems, answer comments hidden (answers "slots" and "fill"; with "fill" the
    problems with answer slots are marked for the answer task). Raises BenchError."""
    try:
        problems = load_dataset(
            spec.dataset, split=spec.split, limit=spec.limit, names=spec.names, shard=spec.shard,
            answers="inlined" if spec.answers == "inlined" else "slots",
            tactic=spec.tactic,
        )
    except DatasetError as exc:
        raise BenchError(str(exc)) from None
    if not problems:
        raise BenchError(f"no problems selected from {spec.dataset} (check --split / --shard / --limit)")
    if spec.answers in ("slots", "fill"):
        problems = [hide_answer_comments(p) for p in problems]
    if spec.answers == "fill":
        problems = [mark_answer_task(p) for p in problems]
    return problems


def mark_answer_task(problem: BenchmarkProblem) -> BenchmarkProblem:
    """A problem with answer slots, marked so that its attempts run the answer task
    (`benchmarks.answer_task`); one without them is an ordinary problem."""
    if not answer_slots(problem.code):  # `def`/`abbrev … := sorry` only, as the answer task reads them
        return problem
    return replace(problem, extra={**problem.extra, ANSWER_TASK: "fill"})


def with_answer_mode(problem: ProblemRecord, answers: str) -> ProblemRecord:
    """A stored problem marked for the answer task exactly when the bench fills answers and the
    problem has answer slots: problem rows are shared by the benches of a store, and one of
    another answer mode may have replaced the mark (the statement is the same in both)."""
    extra = {k: v for k, v in (problem.extra or {}).items() if k != ANSWER_TASK}
    if answers == "fill" and answer_slots(problem.header + problem.statement):
        extra[ANSWER_TASK] = "fill"
    return problem if extra == (problem.extra or {}) else replace(problem, extra=extra)


def problem_digest(problem: ProblemRecord) -> str:
    return hashlib.sha256((problem.header + "\0" + problem.statement).encode("utf-8")).hexdigest()[:16]


def warnings_for(problems: Sequence[ProblemRecord], verifier_lean_version: str | None) -> list[str]:
    """`datasets.version_warnings` for stored problem records (their pinned version is in `extra`)."""
    return version_warnings(problems, verifier_lean_version)


def child_attempt(run: RunInfo) -> int | None:
    """The attempt index a child run of a bench recorded in its config."""
    bench = (run.config or {}).get("bench")
    if isinstance(bench, dict) and isinstance(bench.get("attempt"), int):
        return bench["attempt"]
    return None

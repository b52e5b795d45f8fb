"""Batch runs over a benchmark: `lemmaforge bench`. The store is the only state.

A bench run is one `RunStarted(kind="bench")` whose config holds the experiment (dataset spec,
filters, attempts, settings, the selected problems with a digest of each statement); every
(problem, attempt) is one child prove run (`parent_run_id` = the bench id, `config["bench"] =
{"run_id", "attempt"}`). Nothing else is kept anywhere: a bench killed at any moment (`kill -9`
included) is continued with `--resume ID` from what the store holds.

Resume semantics
----------------
* A (problem, attempt) is *done* when one of its child runs finished as `proved` / `not_proved`
  (`db.DONE_STATUSES`); done slots are never redone, and their results are kept as they are.
* A child run still `running` when a bench resumes was cut off (the process died before its
  `RunFinished`): it is closed as `cancelled` (`summary.reason` says why) and its slot is redone
  with a new child run. Child runs that ended `failed` (an unexpected error in one search) or
  `cancelled` (Ctrl-C, a fatal error elsewhere) are likewise redone. Only done runs count: an
  attempt is never counted twice, and a cut-off run's partial records stay in the store, ignored.
* Should two finished runs ever exist for one slot (two processes resumed the same bench at
  once, which you should not do), reports count the earliest and list the other as a duplicate.
* Each finished child is flushed to the store before it is counted (progress, summary): what
  the bench has reported is durable.
* The experiment comes from the store: dataset, filters, attempts, budget, models, sampling,
  `--cot`, `--answers`, `--tactic`, `--shared-cache`. Flags that would change any of these are
  refused on resume; endpoints (planner / prover URLs, verifier, Kimina URL), concurrency and the
  executor may change.

Honest numbers
--------------
* Attempts are independent samples (what pass@k assumes): by default a child run sees only its
  own subgoal proofs, not those of the other attempts, of other problems, or of earlier runs in
  the same database (`--shared-cache` turns the store-wide subgoal cache back on, and is recorded).
* PutnamBench answer `abbrev`s carry the official answer in a `--` comment right after their
  `:= sorry`. With `answers="slots"` (the default) those comments are removed from the statement
  (`hide_answer_comments`) so that no prompt leaks the answer; `answers="inlined"` uses the
  answer-given variant (the answers are part of the statement, on purpose). Either way the
  choice is recorded in the bench config.
* `tactic=True` (the default) turns a final term-mode `:= sorry` (PutnamBench) into `:= by sorry`,
  which is what the search fills; miniF2F / ProverBench statements are unchanged by it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lemmaforge.benchmarks.datasets import (
    BenchmarkProblem,
    DatasetError,
    DatasetInfo,
    load_dataset,
    resolve_dataset,
    version_warnings,
)
from lemmaforge.errors import BackendError, InputError, StatementInvalid, is_fatal
from lemmaforge.records import (
    ProblemRecord,
    Record,
    RunFinished,
    RunStarted,
    new_id,
)

log = logging.getLogger("lemmaforge.bench")

BENCH_KIND = "bench"
CHILD_KIND = "prove"
STATUS_DONE = frozenset({"proved", "not_proved"})

#: bench config keys that define the experiment: refused on resume when a flag changes them
EXPERIMENT_KEYS = ("dataset", "split", "limit", "names", "shard", "attempts", "answers", "tactic", "shared_cache")


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


def _fatal_types() -> tuple[type[BaseException], ...]:
    """The exception types that stop a bench: `errors.is_fatal` as an `except` clause, plus a dataset
    row the gate refuses (exit 2 naming the row: --trust-dataset or fix it)."""
    from lemmaforge.lean.gate import DatasetRejected

    return (BackendError, DatasetRejected)


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
    answers: str = "slots"  # "slots" (answer comments hidden) | "inlined" (answers given)
    tactic: bool = True
    shared_cache: bool = False

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
            "answer_comments": "hidden" if self.answers == "slots" else "kept (answers inlined)",
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
) -> BenchSpec:
    """A validated spec (the dataset resolved, the shard parsed). Raises BenchError."""
    from lemmaforge.benchmarks.datasets import parse_shard

    if attempts < 1:
        raise BenchError(f"--attempts must be at least 1 (got {attempts})")
    if limit is not None and limit < 1:
        raise BenchError(f"--limit must be at least 1 (got {limit})")
    if answers not in ("slots", "inlined"):
        raise BenchError(f"--answers must be 'slots' or 'inlined' (got {answers!r})")
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
        attempts=attempts, answers=answers, tactic=tactic, shared_cache=shared_cache,
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
    """The spec's problems, answer comments hidden (answers="slots"). Raises BenchError."""
    try:
        problems = load_dataset(
            spec.dataset, split=spec.split, limit=spec.limit, names=spec.names, shard=spec.shard,
            answers=spec.answers,  # type: ignore[arg-type]
            tactic=spec.tactic,
        )
    except DatasetError as exc:
        raise BenchError(str(exc)) from None
    if not problems:
        raise BenchError(f"no problems selected from {spec.dataset} (check --split / --shard / --limit)")
    if spec.answers == "slots":
        problems = [hide_answer_comments(p) for p in problems]
    return problems


def problem_digest(problem: ProblemRecord) -> str:
    return hashlib.sha256((problem.header + "\0" + problem.statement).encode("utf-8")).hexdigest()[:16]


def warnings_for(problems: Sequence[ProblemRecord], verifier_lean_version: str | None) -> list[str]:
    """`datasets.version_warnings` for stored problem records (their pinned version is in `extra`)."""
    from types import SimpleNamespace

    items = [
        SimpleNamespace(dataset=p.dataset, lean_version=(p.extra or {}).get("lean_version")) for p in problems
    ]
    return version_warnings(items, verifier_lean_version)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------
# a bench in the store


@dataclass(slots=True)
class BenchPlan:
    """A bench about to run: its id, experiment, problems, and the (problem, attempt)s left."""

    run_id: str
    spec: BenchSpec
    settings: Any  # lemmaforge.config.Settings
    cot: bool
    problems: list[ProblemRecord]
    jobs: list[tuple[ProblemRecord, int]]
    resumed: bool = False
    done: int = 0  # attempts already finished before this invocation
    solved_before: set[str] = field(default_factory=set)  # problems already solved
    tried_before: set[str] = field(default_factory=set)  # problems with a finished attempt
    stale: list[str] = field(default_factory=list)  # cut-off child runs closed as cancelled
    versions: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return len(self.problems) * self.spec.attempts


def child_attempt(run: Any) -> int | None:
    """The attempt index a child run of a bench recorded in its config."""
    bench = (getattr(run, "config", None) or {}).get("bench")
    if isinstance(bench, dict) and isinstance(bench.get("attempt"), int):
        return bench["attempt"]
    return None


def bench_config(spec: BenchSpec, settings: Any, problems: Sequence[ProblemRecord], *, cot: bool) -> dict[str, Any]:
    import json

    record = json.loads(json.dumps(settings.to_record(), default=str))
    return {
        "bench": spec.to_json(),
        "cot": cot,
        "settings": record,
        "problems": [{"problem_id": p.problem_id, "digest": problem_digest(p)} for p in problems],
    }


def new_bench(
    store: Any,
    recorder: Any,
    settings: Any,
    spec: BenchSpec,
    *,
    cot: bool = False,
    run_id: str | None = None,
    versions: dict[str, Any] | None = None,
    problems: Sequence[BenchmarkProblem] | None = None,
) -> BenchPlan:
    """Select the problems (unless `problems`: the spec's, already selected), record the bench run
    and its problems (flushed), plan every job."""
    if run_id is not None:
        if not run_id.strip() or len(run_id) > 128:
            raise BenchError("--run-id must be 1 to 128 characters")
        if store.get_run(run_id) is not None:
            raise BenchError(f"run {run_id!r} already exists in {store.url}; continue it with --resume {run_id}")
    records = [p.to_record() for p in (problems if problems is not None else select_problems(spec))]
    _gate_rows(records, trust=bool(getattr(getattr(settings, "verifier", None), "trust_dataset", False)))
    run_id = run_id or new_id()
    config = bench_config(spec, settings, records, cot=cot)
    versions = versions or {}
    for p in records:
        recorder.emit(p)
    recorder.emit(RunStarted(run_id, BENCH_KIND, config, versions))
    _flush(recorder)
    jobs = [(p, a) for a in range(spec.attempts) for p in records]
    return BenchPlan(run_id, spec, settings, cot, records, jobs, versions=versions)


def _gate_rows(records: Sequence[ProblemRecord], *, trust: bool) -> None:
    """The dataset gate on every row before anything runs: one refused row is a one-line error
    naming it (exit 2), not a failure halfway through the bench."""
    from lemmaforge.lean.gate import DatasetRejected, admit_problem

    for p in records:
        try:
            admit_problem(p.header + p.statement, row=p.name, trust=trust)
        except DatasetRejected as exc:
            raise BenchError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class ChildScan:
    done: dict[tuple[str, int], Any]  # (problem_id, attempt) -> the earliest finished RunInfo
    running: list[Any]
    duplicates: list[Any]  # finished runs of an already done slot
    other: list[Any]  # failed / cancelled


def scan_children(store: Any, bench_run_id: str) -> ChildScan:
    done: dict[tuple[str, int], Any] = {}
    running: list[Any] = []
    dups: list[Any] = []
    other: list[Any] = []
    for run in store.runs(parent=bench_run_id):  # oldest first
        attempt = child_attempt(run)
        if run.status == "running":
            running.append(run)
        elif run.status in STATUS_DONE and run.problem_id is not None and attempt is not None:
            key = (run.problem_id, attempt)
            if key in done:
                dups.append(run)
            else:
                done[key] = run
        else:
            other.append(run)
    return ChildScan(done, running, dups, other)


def given_conflicts(stored: BenchSpec, given: dict[str, Any]) -> list[str]:
    """Flags given on resume whose value differs from the stored experiment."""
    out = []
    for key, value in given.items():
        if value is None:
            continue
        old = getattr(stored, key)
        if key == "dataset":
            value = canonical_dataset(value)
        if key == "names":
            value = tuple(dict.fromkeys(n.strip() for item in value for n in item.split(",") if n.strip()))
        if value != old:
            out.append(f"--{key.replace('_', '-')} {_show(value)} (the run has {_show(old)})")
    return out


def _show(value: Any) -> str:
    if isinstance(value, tuple | list):
        return ",".join(map(str, value)) or "''"
    if value is None:
        return "none"
    return str(value)


def load_bench(store: Any, run_id: str) -> Any:
    """The bench `RunInfo`, or BenchError when `run_id` is unknown or not a bench."""
    run = store.get_run(run_id)
    if run is None:
        raise BenchError(f"unknown run {run_id!r} in {store.url}")
    if run.kind != BENCH_KIND:
        raise BenchError(f"run {run_id!r} is a {run.kind!r} run, not a bench run")
    return run


def stored_problems(store: Any, bench: Any) -> list[ProblemRecord]:
    """The bench's problems as they were when it started: from the store, else from the dataset
    (the problem rows are shared between runs and may have been replaced by another variant)."""
    wanted = bench.config.get("problems") or []
    spec = BenchSpec.from_json(bench.config["bench"])
    out: list[ProblemRecord] = []
    reloaded: dict[str, ProblemRecord] | None = None
    for item in wanted:
        pid, digest = item["problem_id"], item["digest"]
        p = store.problem(pid)
        if p is None or problem_digest(p) != digest:
            if reloaded is None:
                try:
                    reloaded = {q.problem_id: q for q in (x.to_record() for x in select_problems(spec))}
                except BenchError as exc:
                    raise BenchError(f"problem {pid} of run {bench.run_id} is not in the store as it was, and "
                                     f"the dataset cannot be reloaded: {exc}") from None
            p = reloaded.get(pid)
            if p is None or problem_digest(p) != digest:
                raise BenchError(
                    f"problem {pid} changed since run {bench.run_id} started (the dataset file was edited?); "
                    "start a new bench"
                )
        out.append(p)
    return out


def resume_bench(
    store: Any,
    recorder: Any,
    run_id: str,
    *,
    settings: Any,
    given: dict[str, Any] | None = None,
    versions: dict[str, Any] | None = None,
) -> BenchPlan:
    """Continue bench `run_id`: refuse experiment changes, close cut-off child runs as cancelled,
    plan the (problem, attempt)s that are not done. `settings`: already built from the stored
    settings plus the endpoint flags (see `resume_settings`)."""
    bench = load_bench(store, run_id)
    spec = BenchSpec.from_json(bench.config["bench"])
    conflicts = given_conflicts(spec, given or {})
    if conflicts:
        raise BenchError(
            f"--resume {run_id}: {'; '.join(conflicts)}; flags that change the experiment cannot change on "
            "resume (start a new bench instead)"
        )
    problems = stored_problems(store, bench)
    scan = scan_children(store, run_id)
    stale = []
    for run in scan.running:
        recorder.emit(
            RunFinished(
                run.run_id, "cancelled",
                {"reason": "cut off: the bench process stopped before this run finished; redone on resume",
                 "stale": True},
            )
        )
        stale.append(run.run_id)
    _flush(recorder)
    jobs = [(p, a) for a in range(spec.attempts) for p in problems if (p.problem_id, a) not in scan.done]
    done_keys = {k for k in scan.done if k[1] < spec.attempts}
    solved = {pid for (pid, _a), r in scan.done.items() if r.status == "proved"}
    return BenchPlan(
        run_id, spec, settings, bool(bench.config.get("cot", False)), problems, jobs, resumed=True,
        done=len(done_keys), solved_before=solved, tried_before={pid for pid, _ in done_keys}, stale=stale,
        versions=versions or dict(bench.versions or {}),
    )


#: settings that define the experiment: on resume they keep their stored value, None included
PINNED_SETTINGS: dict[str, tuple[str, ...]] = {
    "budget": (),  # every field
    "audit": (),
    "planner": ("model", "mode", "temperature", "top_p", "max_tokens", "extra_body"),
    "prover": ("model", "mode", "temperature", "top_p", "max_tokens", "extra_body"),
}


def resume_settings(bench: Any, load: Callable[[dict[str, Any]], Any], overrides: dict[str, Any]) -> Any:
    """Settings of a resumed bench: the stored ones, with the endpoint `overrides` (flags) on top.
    `load(overrides)` is `config.load_config` bound to the config file. The experiment's fields
    (`PINNED_SETTINGS`, and a role's absence: no planner URL) are put back to their stored values
    even where the config file or the environment would fill a stored None."""
    stored = dict(bench.config.get("settings") or {})
    settings = load(_deep_merge(stored, overrides))
    for section, names in PINNED_SETTINGS.items():
        saved = stored.get(section)
        if not isinstance(saved, dict):
            continue
        target = getattr(settings, section)
        for name in names or tuple(saved):
            if name in saved and hasattr(target, name):
                setattr(target, name, saved[name])
    for role in ("planner", "prover"):
        saved = stored.get(role) or {}
        if "url" in saved and saved["url"] is None and not (overrides.get(role) or {}).get("url"):
            getattr(settings, role).url = None
    return settings


def _deep_merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if value is None:
            continue
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        elif isinstance(value, dict):
            sub = _deep_merge({}, value)
            if sub:
                out[key] = sub
        else:
            out[key] = value
    return out


def experiment_setting_conflicts(stored_settings: dict[str, Any], overrides: dict[str, Any]) -> list[str]:
    """Setting flags given on resume that change the experiment: budget keys and model names."""
    out = []
    for key, value in (overrides.get("budget") or {}).items():
        old = (stored_settings.get("budget") or {}).get(key)
        if value is not None and str(value) != str(old) and _num(value) != _num(old):
            out.append(f"--budget {key}={value} (the run has {old})")
    for role in ("planner", "prover"):
        value = (overrides.get(role) or {}).get("model")
        old = (stored_settings.get(role) or {}).get("model")
        if value is not None and value != old:
            out.append(f"--{role}-model {value} (the run has {old})")
        url = (overrides.get(role) or {}).get("url")
        if url and "url" in (stored_settings.get(role) or {}) and not stored_settings[role]["url"]:
            out.append(f"--{role}-url (the run has no {role})")
    return out


def _num(value: Any) -> Any:
    try:
        return float(value)
    except (TypeError, ValueError):
        return value


def _flush(recorder: Any) -> None:
    flush = getattr(recorder, "flush", None)
    if flush is not None:
        flush()


# --------------------------------------------------------------------------------------------------
# running attempts


@dataclass(slots=True)
class AttemptResult:
    problem_id: str
    attempt: int
    run_id: str
    status: str  # proved | not_proved | failed | cancelled | invalid (the statement does not compile)
    calls: int = 0
    checks: int = 0
    depth: int | None = None
    seconds: float = 0.0
    stop_reason: str | None = None
    error: str | None = None

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    @property
    def done(self) -> bool:
        return self.status in STATUS_DONE

    def to_json(self) -> dict[str, Any]:
        return {
            "problem_id": self.problem_id, "attempt": self.attempt, "run_id": self.run_id, "status": self.status,
            "calls": self.calls, "checks": self.checks, "depth": self.depth, "seconds": round(self.seconds, 3),
            "stop_reason": self.stop_reason, "error": self.error,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> AttemptResult:
        from dataclasses import fields

        return cls(**{f.name: d[f.name] for f in fields(cls) if f.name in d})


class _AttemptRecorder:
    """The recorder one child run sees: passes records on, notes whether its `RunStarted` went
    out, and (unless the cache is shared) hides other runs' subgoal proofs from the search."""

    def __init__(self, inner: Any, run_id: str, *, shared_cache: bool) -> None:
        self.inner = inner
        self.run_id = run_id
        self.shared_cache = shared_cache
        self.started = False

    def emit(self, record: Record) -> None:
        if type(record) is RunStarted and record.run_id == self.run_id:
            self.started = True
        self.inner.emit(record)

    def cached_proof(self, header: str, normalized_statement: str) -> str | None:
        if self.shared_cache:
            return self.inner.cached_proof(header, normalized_statement)
        return None  # the engine's own in-run cache still reuses this run's proofs


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def run_attempt(
    services: Any,
    settings: Any,
    problem: ProblemRecord,
    *,
    bench_run_id: str,
    attempt: int,
    versions: dict[str, Any],
    shared_cache: bool = False,
    run_config: dict[str, Any] | None = None,
) -> AttemptResult:
    """One child prove run of a bench, always closed in the store: proved / not_proved by the
    engine; `failed` + re-raised on a backend error (fatal) or a bug (exit 70); `cancelled` +
    re-raised on cancellation. Only proved / not_proved count: a resumed bench redoes the rest.
    Flushed before it returns.

    `app.prove_problem` with the bench's attempt in the child's config and the per-attempt subgoal
    cache (see the module docstring)."""
    import json

    from lemmaforge.services import prove_problem

    run_id = new_id()
    rec = _AttemptRecorder(services.recorder, run_id, shared_cache=shared_cache)
    config = dict(run_config if run_config is not None else json.loads(json.dumps(settings.to_record(), default=str)))
    config["bench"] = {"run_id": bench_run_id, "attempt": attempt}
    started = time.monotonic()

    def close(status: str, summary: dict[str, Any]) -> None:
        if not rec.started:
            if status == "cancelled":
                return  # nothing was recorded: nothing to close
            rec.emit(problem)
            rec.emit(RunStarted(run_id, CHILD_KIND, config, versions, problem.problem_id, bench_run_id))
        rec.emit(RunFinished(run_id, status, {**summary, "seconds": round(time.monotonic() - started, 3)}))  # type: ignore[arg-type]

    try:
        result = await prove_problem(
            services, settings, problem, run_id=run_id, parent_run_id=bench_run_id, run_config=config,
            versions_record=versions, recorder=rec,
        )
    except asyncio.CancelledError:
        close("cancelled", {"reason": "the bench stopped (interrupted, or a fatal error in another attempt)"})
        raise
    except BaseException as exc:
        # Never a finished attempt: a backend error (`errors.is_fatal`) stops the bench, anything
        # else is a bug and stops it too (exit 70). Either way `--resume` redoes this attempt.
        close("failed", {"error": _one_line(exc), "fatal": True} if is_fatal(exc)
              else {"error": _one_line(exc), "bug": True})
        with contextlib.suppress(BackendError):  # the store may be what failed: the original error wins
            await _aflush(services.recorder)
        raise
    await _aflush(services.recorder)
    return AttemptResult(
        problem.problem_id, attempt, run_id, "proved" if result.proved else "not_proved",
        calls=result.stats.llm_calls, checks=result.stats.checks, depth=result.depth, seconds=result.seconds,
        stop_reason=result.stop_reason,
    )


async def _aflush(recorder: Any) -> None:
    aflush = getattr(recorder, "aflush", None)
    if aflush is not None:
        await aflush()


async def run_jobs(
    jobs: Sequence[tuple[ProblemRecord, int]],
    *,
    services: Any,
    settings: Any,
    bench_run_id: str,
    versions: dict[str, Any],
    shared_cache: bool,
    concurrency: int,
    on_result: Callable[[AttemptResult], None] | None = None,
) -> list[AttemptResult]:
    """Run `jobs` with at most `concurrency` searches at once, sharing `services` (one verifier
    pool, one client per endpoint). A fatal backend error cancels the rest (closed as cancelled)
    and raises FatalBenchError."""
    import json

    queue = deque(jobs)
    results: list[AttemptResult] = []
    run_config = json.loads(json.dumps(settings.to_record(), default=str))
    checks: dict[str, asyncio.Task[StatementInvalid | None]] = {}

    async def statement_check(problem: ProblemRecord) -> StatementInvalid | None:
        from lemmaforge.services import check_statement

        try:
            await check_statement(services.verifier, problem, timeout=settings.verifier.header_timeout)
        except StatementInvalid as exc:
            record_invalid(services.recorder, problem, exc, bench_run_id=bench_run_id, versions=versions,
                           run_config=run_config)
            await _aflush(services.recorder)
            return exc
        return None

    async def worker() -> None:
        while queue:
            problem, attempt = queue.popleft()
            # One Lean check of the statement per problem, shared by its attempts, before any budget.
            if problem.problem_id not in checks:
                checks[problem.problem_id] = asyncio.ensure_future(statement_check(problem))
            invalid = await checks[problem.problem_id]
            if invalid is not None:
                res = AttemptResult(problem.problem_id, attempt, "", "invalid", error=str(invalid))
            else:
                res = await run_attempt(
                    services, settings, problem, bench_run_id=bench_run_id, attempt=attempt, versions=versions,
                    shared_cache=shared_cache, run_config=run_config,
                )
            results.append(res)
            if on_result is not None:
                on_result(res)

    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(max(1, min(concurrency, len(jobs)))):
                group.create_task(worker())
    except BaseExceptionGroup as group:
        leaves = _leaves(group)
        fatal = next((e for e in leaves if is_fatal(e)), None)
        if fatal is not None:  # a backend error stops the bench: --resume continues it
            raise FatalBenchError(str(fatal) or type(fatal).__name__, fatal) from None
        raise leaves[0] from None  # a bug: as itself, with its own traceback
    finally:
        for task in checks.values():
            task.cancel()
    return results


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    out: list[BaseException] = []
    for exc in group.exceptions:
        out.extend(_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])
    return out


def record_invalid(
    recorder: Any, problem: ProblemRecord, error: StatementInvalid, *, bench_run_id: str,
    versions: dict[str, Any], run_config: dict[str, Any],
) -> str:
    """A child run that says the problem's statement does not compile: closed `failed` with
    `summary.invalid`, so it is never counted as an attempt; reports list the problem apart."""
    run_id = new_id()
    config = {**run_config, "bench": {"run_id": bench_run_id, "attempt": None}}
    recorder.emit(problem)
    recorder.emit(RunStarted(run_id, CHILD_KIND, config, versions, problem.problem_id, bench_run_id))
    recorder.emit(RunFinished(run_id, "failed", {"invalid": True, "error": error.detail, "seconds": 0.0}))
    return run_id


def finish_bench(recorder: Any, run_id: str, status: str, summary: dict[str, Any]) -> None:
    recorder.emit(RunFinished(run_id, status, summary))  # type: ignore[arg-type]
    _flush(recorder)


def close_running_children(store: Any, recorder: Any, bench_run_id: str, reason: str) -> list[str]:
    """Close child runs still `running` (their process is known to be gone) as cancelled."""
    closed = []
    for run in store.runs(parent=bench_run_id):
        if run.status == "running":
            recorder.emit(RunFinished(run.run_id, "cancelled", {"reason": reason, "stale": True}))
            closed.append(run.run_id)
    if closed:
        _flush(recorder)
    return closed


@dataclass(slots=True)
class Tally:
    """Live counts for the progress bar and the end line (this invocation + what was done before)."""

    total: int
    done: int = 0
    failed: int = 0
    solved: set[str] = field(default_factory=set)
    tried: set[str] = field(default_factory=set)
    problems: int = 0
    invalid: set[str] = field(default_factory=set)  # problems whose statement does not compile

    @classmethod
    def of(cls, plan: BenchPlan) -> Tally:
        return cls(plan.total, plan.done, 0, set(plan.solved_before), set(plan.tried_before), len(plan.problems))

    def add(self, res: AttemptResult) -> None:
        if res.done:
            self.done += 1
            self.tried.add(res.problem_id)
            if res.proved:
                self.solved.add(res.problem_id)
        elif res.status == "invalid":
            self.invalid.add(res.problem_id)
        elif res.status == "failed":
            self.failed += 1

"""A bench in the store: a new bench recorded and planned (`new_bench`), or a stored one
continued (`resume_bench`, `resume_settings`): the resume semantics of `lemmaforge.benchmarks.runner`'s
docstring. The store is the only state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lemmaforge.benchmarks.problem import BenchmarkProblem
from lemmaforge.benchmarks.spec import (
    BENCH_KIND,
    STATUS_DONE,
    BenchError,
    BenchSpec,
    canonical_dataset,
    child_attempt,
    problem_digest,
    select_problems,
    with_answer_mode,
)
from lemmaforge.db.errors import RunIdError
from lemmaforge.lean.gate import DatasetRejected, admit_problem
from lemmaforge.records import ProblemRecord, RunFinished, RunStarted, StoreRecorder, new_id

if TYPE_CHECKING:
    from lemmaforge.config import Settings
    from lemmaforge.db import RunInfo, Store

# --------------------------------------------------------------------------------------------------
# a bench in the store


@dataclass(slots=True)
class BenchPlan:
    """A bench about to run: its id, experiment, problems, and the (problem, attempt)s left."""

    run_id: str
    spec: BenchSpec
    settings: Settings
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





def bench_config(spec: BenchSpec, settings: Settings, problems: Sequence[ProblemRecord], *, cot: bool) -> dict[str, Any]:
    record = json.loads(json.dumps(settings.to_record(), default=str))
    return {
        "bench": spec.to_json(),
        "cot": cot,
        "settings": record,
        "problems": [{"problem_id": p.problem_id, "digest": problem_digest(p)} for p in problems],
    }


def new_bench(
    store: Store,
    recorder: StoreRecorder,
    settings: Settings,
    spec: BenchSpec,
    *,
    cot: bool = False,
    run_id: str | None = None,
    versions: dict[str, Any] | None = None,
    problems: Sequence[BenchmarkProblem] | None = None,
    extra: dict[str, Any] | None = None,
) -> BenchPlan:
    """Select the problems (unless `problems`: the spec's, already selected), record the bench run
    and its problems (flushed), plan every job. `extra`: more keys for the bench's config (the
    recipe it follows, `benchmarks.recipes`)."""
    if run_id is not None:
        if not run_id.strip() or len(run_id) > 128:
            raise BenchError("--run-id must be 1 to 128 characters")
        if store.get_run(run_id) is not None:
            raise BenchError(f"run {run_id!r} already exists in {store.url}; continue it with --resume {run_id}")
    records = [p.to_record() for p in (problems if problems is not None else select_problems(spec))]
    _gate_rows(records, trust=settings.verifier.trust_dataset)
    run_id = run_id or new_id()
    config = {**bench_config(spec, settings, records, cot=cot), **(extra or {})}
    versions = versions or {}
    for p in records:
        recorder.emit(p)
    recorder.emit(RunStarted(run_id, BENCH_KIND, config, versions))
    recorder.flush()
    jobs = [(p, a) for a in range(spec.attempts) for p in records]
    return BenchPlan(run_id, spec, settings, cot, records, jobs, versions=versions)


def _gate_rows(records: Sequence[ProblemRecord], *, trust: bool) -> None:
    """The dataset gate on every row before anything runs: one refused row is a one-line error
    naming it (exit 2), not a failure halfway through the bench."""
    for p in records:
        try:
            admit_problem(p.header + p.statement, row=p.name, trust=trust)
        except DatasetRejected as exc:
            raise BenchError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class ChildScan:
    done: dict[tuple[str, int], RunInfo]  # (problem_id, attempt) -> the earliest finished RunInfo
    running: list[RunInfo]
    duplicates: list[RunInfo]  # finished runs of an already done slot
    other: list[RunInfo]  # failed / cancelled


def scan_children(store: Store, bench_run_id: str) -> ChildScan:
    done: dict[tuple[str, int], RunInfo] = {}
    running: list[RunInfo] = []
    dups: list[RunInfo] = []
    other: list[RunInfo] = []
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


def load_bench(store: Store, run_id: str) -> RunInfo:
    """The bench `RunInfo` that `run_id` (or a unique prefix of 4+ characters) names, or BenchError
    when it names none, several, or a run that is not a bench."""
    try:
        run = store.resolve_run(run_id)
    except RunIdError as exc:
        raise BenchError(str(exc)) from None
    run_id = run.run_id
    if run.kind != BENCH_KIND:
        raise BenchError(f"run {run_id!r} is a {run.kind!r} run, not a bench run")
    return run


def stored_problems(store: Store, bench: RunInfo) -> list[ProblemRecord]:
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
        out.append(with_answer_mode(p, spec.answers))
    return out


def resume_bench(
    store: Store,
    recorder: StoreRecorder,
    run_id: str,
    *,
    settings: Settings,
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
    recorder.flush()
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


def resume_settings(
    bench: RunInfo, load: Callable[[dict[str, Any]], Settings], overrides: dict[str, Any]
) -> Settings:
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


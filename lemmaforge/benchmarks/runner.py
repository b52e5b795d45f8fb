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
  answer-given variant (the answers are part of the statement, on purpose); `answers="fill"`
  hides them too and runs PutnamBench's answer task on the problems with answer slots: the model
  writes the answers and the proof (`benchmarks.answer_task`). The choice is recorded in the
  bench config.
* `tactic=True` (the default) turns a final term-mode `:= sorry` (PutnamBench) into `:= by sorry`,
  which is what the search fills; miniF2F / ProverBench statements are unchanged by it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from lemmaforge import sending, waits
from lemmaforge.benchmarks.answer_task import is_answer_problem, prove_with_answers
from lemmaforge.benchmarks.resume import BenchPlan
from lemmaforge.benchmarks.spec import CHILD_KIND, STATUS_DONE, FatalBenchError
from lemmaforge.errors import BackendError, StatementInvalid, is_fatal
from lemmaforge.records import (
    ForwardingRecorder,
    ProblemRecord,
    Record,
    Recorder,
    RunFinished,
    RunStarted,
    StoreRecorder,
    new_id,
)
from lemmaforge.search.budget import SearchStats
from lemmaforge.services import Services, check_statement, prove_problem

if TYPE_CHECKING:
    from lemmaforge.config import Settings
    from lemmaforge.db import Store

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
        return cls(**{f.name: d[f.name] for f in fields(cls) if f.name in d})


class _AttemptRecorder(ForwardingRecorder):
    """The recorder one child run sees: passes records on, notes whether its `RunStarted` went
    out, and (unless the cache is shared) hides other runs' subgoal proofs from the search."""

    def __init__(self, inner: StoreRecorder, run_id: str, *, shared_cache: bool, statement_checks: int = 0) -> None:
        super().__init__(inner)
        self.run_id = run_id
        self.shared_cache = shared_cache
        self.started = False
        self.statement_checks = statement_checks

    def emit(self, record: Record) -> None:
        if type(record) is RunStarted and record.run_id == self.run_id:
            self.started = True
        if type(record) is RunFinished and record.run_id == self.run_id and self.statement_checks:
            # the bench's statement check this attempt waited for: sent for the bench, reported with
            # this run (the report adds it to the bench's cost), charged to no attempt's budget
            record = replace(record, summary={**record.summary, "statement_checks": self.statement_checks})
        self.inner.emit(record)

    def cached_proof(self, header: str, normalized_statement: str) -> str | None:
        if self.shared_cache:
            return self.inner.cached_proof(header, normalized_statement)
        return None  # the engine's own in-run cache still reuses this run's proofs


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def run_attempt(
    services: Services,
    settings: Settings,
    problem: ProblemRecord,
    *,
    bench_run_id: str,
    attempt: int,
    versions: dict[str, Any],
    shared_cache: bool = False,
    run_config: dict[str, Any] | None = None,
    preflight_checks: int = 0,
    statement_checks: int = 0,
) -> AttemptResult:
    """One child prove run of a bench, always closed in the store: proved / not_proved by the
    engine; `failed` + re-raised on a backend error (fatal) or a bug (exit 70); `cancelled` +
    re-raised on cancellation. Only proved / not_proved count: a resumed bench redoes the rest.
    Flushed before it returns.

    `services.prove_problem` with the bench's attempt in the child's config and the per-attempt subgoal
    cache (see the module docstring). `statement_checks`: the bench's statement check of the problem
    that this attempt waited for, when it was sent (reported with the run, in no budget). A run
    closed cancelled or failed still says what its search had sent by then."""
    run_id = new_id()
    rec = _AttemptRecorder(services.recorder, run_id, shared_cache=shared_cache, statement_checks=statement_checks)
    stats = SearchStats()
    config = dict(run_config if run_config is not None else json.loads(json.dumps(settings.to_record(), default=str)))
    config["bench"] = {"run_id": bench_run_id, "attempt": attempt}
    started = time.monotonic()

    def close(status: str, summary: dict[str, Any]) -> None:
        if not rec.started:
            if status == "cancelled" and not statement_checks:
                return  # nothing was recorded or sent: nothing to close
            rec.emit(problem)
            rec.emit(RunStarted(run_id, CHILD_KIND, config, versions, problem.problem_id, bench_run_id))
        sent = {"calls": stats.llm_calls, "checks": stats.checks}  # what the search had sent by then
        rec.emit(RunFinished(run_id, status, {**summary, **sent,  # type: ignore[arg-type]
                                              "seconds": round(time.monotonic() - started, 3)}))

    try:
        if is_answer_problem(problem):  # PutnamBench's answer task: the model fills the answers too
            result = await prove_with_answers(
                services, settings, problem, run_id=run_id, parent_run_id=bench_run_id, run_config=config,
                versions_record=versions, recorder=rec,
            )
        else:
            result = await prove_problem(
                services, settings, problem, run_id=run_id, parent_run_id=bench_run_id, run_config=config,
                versions_record=versions, recorder=rec, preflight_checks=preflight_checks, stats=stats,
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
            await services.recorder.aflush()
        raise
    await services.recorder.aflush()
    return AttemptResult(
        problem.problem_id, attempt, run_id, "proved" if result.proved else "not_proved",
        calls=result.stats.llm_calls, checks=result.stats.checks, depth=result.depth, seconds=result.seconds,
        stop_reason=result.stop_reason,
    )


async def run_jobs(
    jobs: Sequence[tuple[ProblemRecord, int]],
    *,
    services: Services,
    settings: Settings,
    bench_run_id: str,
    versions: dict[str, Any],
    shared_cache: bool,
    concurrency: int,
    on_result: Callable[[AttemptResult], None] | None = None,
) -> list[AttemptResult]:
    """Run `jobs` with at most `concurrency` searches at once, sharing `services` (one verifier
    pool, one client per endpoint). A fatal backend error cancels the rest (closed as cancelled)
    and raises FatalBenchError."""
    queue = deque(jobs)
    results: list[AttemptResult] = []
    run_config = json.loads(json.dumps(settings.to_record(), default=str))
    checks: dict[str, asyncio.Task[StatementInvalid | None]] = {}
    # problem -> its statement check was sent this session and no attempt has reported it yet
    unreported: set[str] = set()

    async def statement_check(problem: ProblemRecord) -> StatementInvalid | None:
        flag = sending.Sent()
        try:
            with sending.reporting(flag.hear):
                # bounded like the search's requests: a stalled server stops the bench, named
                await waits.within_wall(
                    check_statement(services.verifier, problem, timeout=settings.verifier.header_timeout),
                    settings.budget.wall_seconds)
        except StatementInvalid as exc:
            record_invalid(services.recorder, problem, exc, bench_run_id=bench_run_id, versions=versions,
                           run_config=run_config, checks=int(flag.settle(cancelled=False)))
            await services.recorder.aflush()
            return exc
        except asyncio.CancelledError:
            if flag.settle(cancelled=True):
                unreported.add(problem.problem_id)
            raise
        if flag.settle(cancelled=False):
            unreported.add(problem.problem_id)
        return None

    looked_ahead: dict[str, ProblemRecord] = {}

    def start_statement_check(problem: ProblemRecord) -> None:
        looked_ahead[problem.problem_id] = problem
        if problem.problem_id not in checks:
            task = asyncio.ensure_future(statement_check(problem))
            task.add_done_callback(_retrieve)  # a look-ahead check nobody awaits (the bench stopped)
            checks[problem.problem_id] = task

    async def worker() -> None:
        while queue:
            problem, attempt = queue.popleft()
            # One Lean check of the statement per problem, shared by its attempts, before any budget.
            # The next `concurrency` problems' checks start now too: their header imports and
            # checks overlap with the running searches' LLM calls instead of delaying each start.
            start_statement_check(problem)
            ahead: set[str] = set()
            for upcoming, _ in queue:  # the next `concurrency` other problems (attempts are adjacent)
                if len(ahead) >= concurrency:
                    break
                if upcoming.problem_id == problem.problem_id:
                    continue
                ahead.add(upcoming.problem_id)
                start_statement_check(upcoming)
            invalid = await checks[problem.problem_id]
            if invalid is not None:
                res = AttemptResult(problem.problem_id, attempt, "", "invalid", error=str(invalid))
            else:
                # The statement check is the bench's, shared by the problem's attempts (sent once per
                # problem and session): no attempt's budget pays for it, so attempts stay alike.
                # Reported with the first attempt that waited for it (the bench's cost counts it).
                reported = int(problem.problem_id in unreported)
                unreported.discard(problem.problem_id)
                res = await run_attempt(
                    services, settings, problem, bench_run_id=bench_run_id, attempt=attempt, versions=versions,
                    shared_cache=shared_cache, run_config=run_config, statement_checks=reported,
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
        await asyncio.gather(*checks.values(), return_exceptions=True)
        # statement checks sent ahead for problems no attempt reached (the bench stopped): recorded
        # too, so that the bench's cost says every request it sent
        for problem_id in sorted(unreported):
            record_unattempted(services.recorder, looked_ahead[problem_id], bench_run_id=bench_run_id,
                               versions=versions, run_config=run_config)
        if unreported:
            with contextlib.suppress(BackendError):
                await services.recorder.aflush()
    return results


def _retrieve(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    out: list[BaseException] = []
    for exc in group.exceptions:
        out.extend(_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])
    return out


def record_invalid(
    recorder: Recorder, problem: ProblemRecord, error: StatementInvalid, *, bench_run_id: str,
    versions: dict[str, Any], run_config: dict[str, Any], checks: int = 1,
) -> str:
    """A child run that says the problem's statement does not compile: closed `failed` with
    `summary.invalid`, so it is never counted as an attempt; reports list the problem apart."""
    run_id = new_id()
    config = {**run_config, "bench": {"run_id": bench_run_id, "attempt": None}}
    recorder.emit(problem)
    recorder.emit(RunStarted(run_id, CHILD_KIND, config, versions, problem.problem_id, bench_run_id))
    recorder.emit(RunFinished(run_id, "failed", {"invalid": True, "error": error.detail, "seconds": 0.0,
                                                 "checks": 0, "statement_checks": checks}))
    return run_id


def finish_bench(recorder: StoreRecorder, run_id: str, status: str, summary: dict[str, Any]) -> None:
    recorder.emit(RunFinished(run_id, status, summary))  # type: ignore[arg-type]
    recorder.flush()


def close_running_children(store: Store, recorder: StoreRecorder, bench_run_id: str, reason: str) -> list[str]:
    """Close child runs still `running` (their process is known to be gone) as cancelled."""
    closed = []
    for run in store.runs(parent=bench_run_id):
        if run.status == "running":
            recorder.emit(RunFinished(run.run_id, "cancelled", {"reason": reason, "stale": True}))
            closed.append(run.run_id)
    if closed:
        recorder.flush()
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


def record_unattempted(
    recorder: Recorder, problem: ProblemRecord, *, bench_run_id: str, versions: dict[str, Any],
    run_config: dict[str, Any],
) -> str:
    """A child run closed `cancelled` that says only that the problem's statement check was sent
    (ahead of its attempts, which the stopped bench never started): the report adds it to the
    bench's cost and counts no attempt; a resumed bench runs the problem as usual."""
    run_id = new_id()
    config = {**run_config, "bench": {"run_id": bench_run_id, "attempt": None}}
    recorder.emit(problem)
    recorder.emit(RunStarted(run_id, CHILD_KIND, config, versions, problem.problem_id, bench_run_id))
    recorder.emit(RunFinished(run_id, "cancelled", {
        "reason": "the bench stopped before an attempt of this problem ran", "seconds": 0.0,
        "calls": 0, "checks": 0, "statement_checks": 1}))
    return run_id

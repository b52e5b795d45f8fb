"""`lemmaforge bench --executor ray`: the same bench, its problems fanned out as Ray tasks.

The driver plans the bench (`resume.new_bench` / `resume.resume_bench`) exactly as the local
executor does, then submits one Ray task per problem (all of that problem's pending attempts; they
run concurrently inside the task). Each task opens its own services (verifier pool, LLM clients)
and its own `SqlRecorder` on the same store URL, runs its attempts with `runner.run_attempt`, and
writes everything to the store; the driver only waits, counts and reports. The store stays the
only state, so a killed driver (or cluster) is continued with `--resume` like a local bench.

* Workers on several machines need a database they all reach: a Postgres URL
  (`--db postgresql+psycopg://…`). SQLite works when every worker is on one machine (WAL mode;
  writers wait on each other's locks up to the store's busy timeout).
* Each task opens a verifier pool: with the `repl` backend every task pays for its REPL start
  (`import Mathlib`); a shared Kimina server (`--verifier kimina`) avoids that.
* API keys are read from the environment variables the config names (`api_key_env`), on the
  workers: set them in the cluster's environment (or the job's `runtime_env`).
* Ray retries nothing (`max_retries=0`): a task whose worker died leaves its child runs
  `running`; they are closed as cancelled when the driver ends, and `--resume` redoes them.
* Ray is an extra: `pip install 'lemmaforge[ray]'`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from lemmaforge.benchmarks.runner import AttemptResult, run_jobs
from lemmaforge.benchmarks.spec import BenchError, FatalBenchError
from lemmaforge.errors import InternalError, is_fatal
from lemmaforge.records import ProblemRecord

RAY_MISSING = "--executor ray needs Ray, which is not installed: pip install 'lemmaforge[ray]'"


def require_ray() -> Any:
    """The `ray` module, or BenchError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise BenchError(RAY_MISSING) from None
    return ray


def prove_problem_task(
    settings_record: dict[str, Any],
    db_url: str,
    problem: ProblemRecord,
    attempts: list[int],
    bench_run_id: str,
    versions: dict[str, Any],
    shared_cache: bool,
    cot: bool,
) -> dict[str, Any]:
    """The body of one Ray task: every pending attempt of one problem. Returns
    `{"results": [AttemptResult.to_json()…], "fatal": None | message}`: a backend error
    (`errors.is_fatal`, the same rule as the local executor) comes back as `fatal`, and the driver
    stops the bench with it. A bug is not caught: it reaches the driver as a `RayTaskError`."""
    from lemmaforge.config import Settings
    from lemmaforge.db import SqlRecorder, Store, StoreError
    from lemmaforge.services import open_services

    settings = Settings.model_validate(settings_record)
    results: list[AttemptResult] = []

    async def main() -> None:
        async with open_services(settings, recorder=recorder, cot=cot) as services:
            await run_jobs(
                [(problem, a) for a in attempts], services=services, settings=settings, bench_run_id=bench_run_id,
                versions=versions, shared_cache=shared_cache, concurrency=max(1, len(attempts)),
                on_result=results.append,
            )

    fatal: str | None = None
    try:
        recorder = SqlRecorder(Store(db_url))
    except StoreError as exc:  # the store cannot be opened from this worker (the message hides passwords)
        return {"results": [], "fatal": f"worker cannot open the store: {exc}"}
    try:
        asyncio.run(main())
    except BaseException as exc:
        if not is_fatal(exc):  # a bug, Ctrl-C: not ours to judge
            raise
        fatal = str(exc) or type(exc).__name__
    finally:
        try:
            recorder.close()
        except StoreError as exc:
            fatal = fatal or f"store write failed on a worker: {exc}"
    return {"results": [r.to_json() for r in results], "fatal": fatal}


def run_on_ray(
    jobs: Sequence[tuple[ProblemRecord, int]],
    *,
    settings: Any,
    db_url: str,
    bench_run_id: str,
    versions: dict[str, Any],
    shared_cache: bool,
    cot: bool,
    address: str | None = None,
    max_in_flight: int = 4,
    on_result: Callable[[AttemptResult], None] | None = None,
    init_kwargs: dict[str, Any] | None = None,
) -> list[AttemptResult]:
    """Fan `jobs` out as one Ray task per problem, at most `max_in_flight` tasks at once; returns
    every attempt's result. Raises FatalBenchError (after cancelling the other tasks) when a task
    reports a backend failure. Connects to `address` (None: a local cluster, or the one this
    process already joined) and shuts down only a cluster it started."""
    import json

    ray = require_ray()
    started_here = not ray.is_initialized()
    if started_here:
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        kwargs.update(init_kwargs or {})
        try:
            ray.init(address=address, **kwargs)
        except Exception as exc:
            raise BenchError(f"cannot start or join the Ray cluster {address or '(local)'}: {exc}") from None
    remote = ray.remote(num_cpus=1, max_retries=0)(prove_problem_task)
    settings_record = json.loads(json.dumps(settings.to_record(), default=str))

    by_problem: dict[str, tuple[ProblemRecord, list[int]]] = {}
    for problem, attempt in jobs:
        by_problem.setdefault(problem.problem_id, (problem, []))[1].append(attempt)
    queue = deque(by_problem.values())
    pending: dict[Any, tuple[ProblemRecord, list[int]]] = {}
    results: list[AttemptResult] = []

    def report(res: AttemptResult) -> None:
        results.append(res)
        if on_result is not None:
            on_result(res)

    try:
        while queue or pending:
            while queue and len(pending) < max(1, max_in_flight):
                problem, attempts = queue.popleft()
                ref = remote.remote(
                    settings_record, db_url, problem, attempts, bench_run_id, versions, shared_cache, cot
                )
                pending[ref] = (problem, attempts)
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                problem, attempts = pending.pop(ref)
                try:
                    out = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:  # the task raised: a bug (backend errors come back as `fatal`)
                    raise InternalError(f"a Ray task of problem {problem.problem_id} failed: {exc.cause!r}") from exc
                except ray.exceptions.RayError as exc:  # its worker or node died: infrastructure, redone on resume
                    message = " ".join(str(exc).split())[:300]
                    for a in attempts:
                        report(AttemptResult(problem.problem_id, a, "", "failed", error=f"Ray task failed: {message}"))
                    continue
                for item in out["results"]:
                    report(AttemptResult.from_json(item))
                if out.get("fatal"):
                    raise FatalBenchError(out["fatal"])
    except BaseException:
        for ref in pending:
            with contextlib.suppress(ray.exceptions.RayError, ValueError, TypeError):  # already finished
                ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()
    return results

"""`lemmaforge bench` and `lemmaforge report`: whole-benchmark runs and their reports.

Plain typer-annotated functions; `lemmaforge.cli` registers them as top-level commands. Exit codes
follow the CLI's: 0 done (every attempt of the bench finished / report written), 1 a bench that
ended incomplete (some attempts failed: `--resume` retries them), 2 bad input or an unusable
backend (one line on stderr; a bench stopped that way says how to resume it), 70 a bug (its
traceback, then one line; the bench is resumable), 130 interrupted.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer

import lemmaforge.cli.common as common
from lemmaforge.cli.common import ConfigOpt, DbOpt, JsonOpt, KiminaOpt, ProjectOpt, SandboxOpt, VerifierOpt
from lemmaforge.cli.presets import PresetOpt, check_preset_name
from lemmaforge.errors import BackendError, ExitCode


def _check_db_exists(url: str) -> None:
    """A SQLite file URL that names no file: say so instead of creating an empty database."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        u = make_url(url)
    except ArgumentError:
        return  # Store() reports it
    if u.get_backend_name() == "sqlite":
        db = u.database or ""
        if db and db != ":memory:" and not db.startswith("file:") and "mode=memory" not in db:
            if not Path(db).expanduser().is_file():
                common.fail(f"no database at {Path(db).expanduser()} (give the store with --db URL)")


def _open_store(url: str, *, read_only: bool = False) -> Any:
    from lemmaforge.db import Store, StoreError

    try:
        return Store(url, read_only=read_only)
    except StoreError as exc:
        common.fail(str(exc))


def bench_command(
    dataset: Annotated[
        str | None,
        typer.Argument(help="A dataset `lemmaforge datasets` lists (minif2f, minif2f-goedel-v2, minif2f-kimina, "
                            "proverbench, putnambench, …), a .jsonl file or hf:<id>. Omit with --resume."),
    ] = None,
    split: Annotated[str | None, typer.Option("--split", help="Only this split (valid, test).")] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="The first N problems (after the other filters).")] = None,
    names: Annotated[
        list[str] | None, typer.Option("--names", help="Only these problems (comma-separated or repeated).")
    ] = None,
    shard: Annotated[str | None, typer.Option("--shard", help="i/n: this process's stable share of the problems.")] = None,
    attempts: Annotated[
        int | None, typer.Option("--attempts", help="Independent attempts per problem (pass@k for k up to this). \\[default: 1]")
    ] = None,
    protocol: Annotated[
        str | None,
        typer.Option("--protocol", help="search: a lemmaforge search per attempt; whole-proof: the papers' pass@k, "
                                        "one prover sample per attempt, no planner, no search, no correction. "
                                        "\\[default: search]"),
    ] = None,
    concurrency: Annotated[
        int, typer.Option("--concurrency", min=1, help="Searches at once (Ray: tasks at once).")
    ] = 4,
    run_id: Annotated[str | None, typer.Option("--run-id", help="Id for the new bench run (default: random).")] = None,
    resume: Annotated[
        str | None, typer.Option("--resume", help="Continue this bench run: its finished attempts are kept.")
    ] = None,
    db: DbOpt = None,
    executor: Annotated[str, typer.Option("--executor", help="local (asyncio) or ray.")] = "local",
    ray_address: Annotated[
        str | None, typer.Option("--ray-address", help="Ray cluster to join (default: start a local one).")
    ] = None,
    answers: Annotated[
        str | None,
        typer.Option("--answers", help="PutnamBench answer abbrevs: 'slots' (answers hidden, never filled: a lower "
                                       "bound), 'inlined' (answers given) or 'fill' (the model writes the answers and "
                                       "the proof; the report matches them with the reference). \\[default: slots]"),
    ] = None,
    tactic: Annotated[
        bool | None, typer.Option("--tactic/--no-tactic", help="Final term-mode `:= sorry` → `:= by sorry`. \\[default: tactic]")
    ] = None,
    shared_cache: Annotated[
        bool | None,
        typer.Option("--shared-cache/--no-shared-cache",
                     help="Let attempts reuse subgoal proofs of other runs (not independent samples). \\[default: no]"),
    ] = None,
    planner_url: common.PlannerUrlOpt = None,
    planner_model: common.PlannerModelOpt = None,
    prover_url: common.ProverUrlOpt = None,
    prover_model: common.ProverModelOpt = None,
    cot: Annotated[bool | None, typer.Option("--cot/--no-cot", help="Chain-of-thought prover prompt. \\[default: no]")] = None,
    prover_preset: PresetOpt = None,
    verifier: VerifierOpt = None,
    kimina_url: KiminaOpt = None,
    project: ProjectOpt = None,
    sandbox: SandboxOpt = None,
    trust_dataset: Annotated[
        bool | None,
        typer.Option("--trust-dataset", help="Accept rows outside the dataset whitelist (instances, axioms…); recorded."),
    ] = None,
    budget: Annotated[
        list[str] | None,
        typer.Option("--budget", help="Per problem attempt, KEY=VALUE, repeatable: llm_calls, max_depth, wall_seconds, …"),
    ] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr (TTY only).")] = True,
    recipe: Annotated[
        str | None,
        typer.Option("--recipe", help="Run a published setup (`lemmaforge recipes`): model, preset, dataset, split, "
                                      "protocol, attempts and sampling from the recipe, endpoints from flags or "
                                      "config; a flag that changes any of it labels the run \"modified: …\"."),
    ] = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run a whole benchmark: every problem, --attempts times, several at once; resumable.

    Every (problem, attempt) is one prove run recorded under the bench run. Killed at any moment,
    `--resume ID` continues it from the store: finished attempts are kept, cut-off ones redone.
    Exit 0 all attempts done, 1 some failed (resume to retry), 2 bad input or unusable backend."""
    from lemmaforge.benchmarks import resume as rs
    from lemmaforge.benchmarks import spec as sp
    from lemmaforge.benchmarks.protocols import apply_protocol

    if executor not in ("local", "ray"):
        common.fail(f"unknown executor '{executor}' (choose local or ray)")
    chosen = None
    if recipe is not None:  # the recipe's setup, where no flag says otherwise (benchmarks/recipes.py)
        from lemmaforge.benchmarks.recipes import get_recipe

        if resume is not None:
            common.fail("--recipe starts a new bench; a resumed bench keeps the recipe it was started with")
        try:
            chosen = get_recipe(recipe)
        except sp.BenchError as exc:
            common.fail(str(exc))
        dataset = dataset or chosen.dataset
        split = split if split is not None else chosen.split
        attempts = attempts if attempts is not None else chosen.attempts
        protocol = protocol or chosen.protocol
        answers = answers or chosen.answers
        prover_preset = prover_preset or chosen.preset
        prover_model = prover_model or chosen.model
        cot = cot if cot is not None else chosen.cot
    check_preset_name(prover_preset)
    if verifier is not None and verifier not in ("repl", "kimina", "lake"):
        common.fail(f"unknown verifier '{verifier}' (choose repl, kimina or lake)")
    if resume is not None and run_id is not None:
        common.fail("give --run-id (a new bench) or --resume (an existing one), not both")
    if protocol is not None and protocol not in sp.PROTOCOLS:
        common.fail(f"unknown protocol '{protocol}' (choose {' or '.join(sp.PROTOCOLS)})")
    if resume is None and dataset is None:
        common.fail("give a DATASET (minif2f, proverbench, putnambench, a .jsonl file…) or --resume RUN_ID")
    if executor == "ray":
        from lemmaforge.benchmarks.ray_executor import require_ray

        try:
            require_ray()
        except sp.BenchError as exc:
            common.fail(str(exc))
    try:
        budget_overrides = common.parse_budget(budget)
    except common.BadInput as exc:
        common.fail(str(exc))
    overrides: dict[str, Any] = {
        "verifier": {"backend": verifier, "kimina_url": kimina_url, "project": project, "trust_dataset": trust_dataset,
                     "sandbox": sandbox},
        "planner": {"url": planner_url, "model": planner_model},
        "prover": {"url": prover_url, "model": prover_model, "preset": prover_preset},
        "budget": budget_overrides,
        "db_url": db,
    }
    if chosen is not None:
        overrides["prover"].update(chosen.sampling())
    base = common.settings_or_fail(config, overrides)
    spec = selected = None
    recipe_config: dict[str, Any] | None = None
    if resume is None:  # validate the input before anything is written
        try:
            spec = sp.make_spec(
                dataset or "", split=split, limit=limit, names=names, shard=shard, attempts=1 if attempts is None else attempts,
                answers=answers or "slots", tactic=True if tactic is None else tactic,
                shared_cache=bool(shared_cache), protocol=protocol or "search",
            )
            _require_endpoint(base)
            if spec.answers == "fill" and not base.prover.url:
                raise sp.BenchError("--answers fill needs a prover (it writes the answers): set --prover-url")
            base = apply_protocol(spec.protocol, base, budget_flags=budget_overrides, planner_flag=bool(planner_url))
            selected = sp.select_problems(spec)
            if chosen is not None:
                recipe_config = _recipe_config(chosen, spec, base, bool(cot))
        except sp.BenchError as exc:
            common.fail(str(exc))
        base = _preflight(base, cot=bool(cot))  # before the store: a failed start writes nothing
    else:
        _check_db_exists(base.db_url)
    store = _open_store(base.db_url)
    from lemmaforge.config import ConfigError, load_config
    from lemmaforge.db import SqlRecorder, StoreError
    from lemmaforge.db.lease import BenchLease, LeaseHeld
    from lemmaforge.services import versions as run_versions

    recorder = SqlRecorder(store)
    exit_code: int | None = None
    lease: BenchLease | None = None
    try:
        try:
            if spec is not None:
                settings = base
                vers = _with_verifier_lean(settings, run_versions(settings))
                plan = rs.new_bench(store, recorder, settings, spec, cot=bool(cot), run_id=run_id, versions=vers,
                                    problems=selected, extra={"recipe": recipe_config} if recipe_config else None)
                lease = BenchLease.acquire(store, plan.run_id)  # a `--resume` of it meanwhile is refused
            else:
                assert resume is not None  # no spec is made only with --resume (above)
                bench = rs.load_bench(store, resume)
                resume = bench.run_id  # a prefix names it; the rest of the resume uses the full id
                # one writer per bench: before anything of the run is touched (resume closes the
                # attempts it finds running as cut off; a live holder's are not)
                lease = BenchLease.acquire(store, resume)
                stored_settings = bench.config.get("settings") or {}
                conflicts = rs.experiment_setting_conflicts(stored_settings, overrides)
                if cot is not None and cot != bool(bench.config.get("cot", False)):
                    conflicts.append(f"--{'cot' if cot else 'no-cot'} (the run has {'--cot' if bench.config.get('cot') else '--no-cot'})")
                if conflicts:
                    raise sp.BenchError(
                        f"--resume {resume}: {'; '.join(conflicts)}; flags that change the experiment cannot change "
                        "on resume (start a new bench instead)"
                    )
                try:
                    settings = rs.resume_settings(bench, lambda o: load_config(config, o), {**overrides, "db_url": base.db_url})
                except ConfigError as exc:
                    raise sp.BenchError(f"stored settings of run {resume} are not valid here: {exc}") from None
                _require_endpoint(settings)
                stored_protocol = sp.BenchSpec.from_json(bench.config.get("bench") or {"dataset": ""}).protocol
                settings = apply_protocol(stored_protocol, settings, planner_flag=bool(planner_url))
                given = {"dataset": dataset, "split": split, "limit": limit, "names": names, "shard": shard,
                         "attempts": attempts, "answers": answers, "tactic": tactic, "shared_cache": shared_cache,
                         "protocol": protocol}
                plan = rs.resume_bench(store, recorder, resume, settings=settings, given=given,
                                       versions=_with_verifier_lean(settings, run_versions(settings)))
        except sp.BenchError as exc:
            common.fail(str(exc))
        except LeaseHeld as exc:
            common.fail(str(exc))
        except StoreError as exc:  # the store failed before any attempt ran
            again = f"continue it with --resume {resume}" if resume else "run the same command again"
            common.fail(f"{exc} (the bench did not start; {again} once the database is fixed)")
        assert lease is not None  # taken on both paths above, or the command exited
        with lease.kept():
            exit_code = _execute(plan, store, recorder, executor=executor, concurrency=concurrency,
                                 ray_address=ray_address, progress=progress, as_json=as_json,
                                 resolved=spec is not None)
    finally:
        if lease is not None:
            lease.release()
        try:
            recorder.close()
        except StoreError as exc:
            if exit_code is not None:  # otherwise the error that stopped the bench was reported
                common.err.print(f"warning: store: {exc}", highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(exit_code)


def _recipe_config(recipe: Any, spec: Any, settings: Any, cot: bool) -> dict[str, Any]:
    """The recipe a bench follows, as its config records it: the name and the run's differences
    from it (`recipes.differences`), said on stderr now and in every report."""
    from lemmaforge.benchmarks.recipes import differences

    prover = settings.prover
    run = {"dataset": spec.dataset, "split": spec.split, "limit": spec.limit, "names": spec.names,
           "shard": spec.shard, "attempts": spec.attempts, "protocol": spec.protocol, "answers": spec.answers,
           "preset": prover.preset, "model": prover.model, "cot": cot, "temperature": prover.temperature,
           "top_p": prover.top_p, "max_tokens": prover.max_tokens}
    modified = differences(recipe, run)
    said = ("modified: " + "; ".join(modified)) if modified else "as published"
    common.err.print(f"recipe {recipe.name}: {said}; reported {recipe.reported.words()} ({recipe.reported.source})",
                     highlight=False, markup=False, soft_wrap=True)
    return {"name": recipe.name, "modified": modified, "reported": recipe.reported.to_json()}


def _say(line: str) -> None:
    common.err.print(line, highlight=False, markup=False, soft_wrap=True)


def _preflight(settings: Any, *, cot: bool) -> Any:
    """Before any budget, and for a new bench before its store is created: the verifier answers
    a short health request (`doctor.require_verifier`), every endpoint answers and serves its
    model, each role's model is named and the prover's preset settled (`resolve_endpoints`, said
    on stderr; the bench and each attempt record them). A failure: one line, exit 2."""
    from lemmaforge.doctor import require_verifier
    from lemmaforge.errors import LemmaforgeError
    from lemmaforge.services import resolve_endpoints

    try:
        require_verifier(settings.verifier)
        return resolve_endpoints(settings, cot=cot, say=_say)
    except LemmaforgeError as exc:
        common.fail(str(exc), exc.exit_code)


def _with_verifier_lean(settings: Any, versions: dict[str, Any]) -> dict[str, Any]:
    """The run's versions with the Lean version a Kimina server runs (asked once, as the REPL path
    knows its own): the dataset's pin is checked against it and the report states it. The server's
    answer wins over a local project's toolchain (that is not what checks the proofs); when the
    server cannot say, what was known stays."""
    if settings.verifier.backend != "kimina":
        return versions
    import os

    from lemmaforge.lean.kimina import KIMINA_CLIENT_KEY_ENV, server_lean_version

    cfg = settings.verifier
    key = os.environ.get(cfg.kimina_api_key_env) or os.environ.get(KIMINA_CLIENT_KEY_ENV) or None
    # within the start-up's bound too (issue 47): never longer than an attempt's wall budget
    learnt = server_lean_version(cfg.kimina_url, api_key=key,
                                 timeout=min(cfg.timeout, 60.0, settings.budget.wall_seconds))
    return {**versions, "lean": learnt, "lean_from": "verifier"} if learnt else versions


def _require_endpoint(settings: Any) -> None:
    if not settings.planner.url and not settings.prover.url:
        from lemmaforge.benchmarks.spec import BenchError

        raise BenchError(
            "no model endpoint: set --prover-url (and --planner-url for decomposition), or [prover].url / "
            "[planner].url in the config"
        )


def _execute(
    plan: Any, store: Any, recorder: Any, *, executor: str, concurrency: int, ray_address: str | None,
    progress: bool, as_json: bool, resolved: bool = False,
) -> int:
    from lemmaforge.benchmarks import report as rp
    from lemmaforge.benchmarks import runner as rn
    from lemmaforge.benchmarks import spec as sp
    from lemmaforge.benchmarks.verdict import bench_verdict

    warnings = sp.warnings_for(plan.problems, (plan.versions or {}).get("lean"))
    for line in warnings:
        common.err.print(line, highlight=False, markup=False, soft_wrap=True)
    from lemmaforge.cli.prove import selftest_notice

    cfg = plan.settings.verifier  # the Kimina server's Lean as the bench recorded it (`_with_verifier_lean`)
    selftest_notice(cfg, kimina_lean=(plan.versions or {}).get("lean") if cfg.backend == "kimina" else None)
    if plan.stale:
        common.err.print(f"resuming {plan.run_id}: {len(plan.stale)} cut-off attempt(s) closed as cancelled and redone",
                      highlight=False, markup=False, soft_wrap=True)

    tally = rn.Tally.of(plan)
    bar = _progress_bar(plan, tally) if progress and common.err.is_terminal and plan.jobs else None

    def on_result(res: Any) -> None:
        tally.add(res)
        if bar is not None:
            bar.update(res)

    fatal: str | None = None
    bug: BaseException | None = None
    interrupted = False
    try:
        if bar is not None:
            bar.start()
        if plan.jobs:
            # --json: stdout carries only the JSON printed at the end (Ray's and libraries' lines
            # go to stderr, file descriptor 1 included).
            with common.stdout_to_stderr(as_json):
                _run(plan, store, recorder, executor=executor, concurrency=concurrency, ray_address=ray_address,
                     on_result=on_result, resolved=resolved)
    except BackendError as exc:  # errors.is_fatal (FatalBenchError included): fix the backend, then --resume
        fatal = str(exc)
    except sp.BenchError as exc:
        fatal = str(exc)
    except KeyboardInterrupt:
        interrupted = True
    except Exception as exc:  # a bug: the bench is closed as failed (resumable), reported, exit 70
        bug = exc
    finally:
        if bar is not None:
            bar.stop()

    from lemmaforge.db import StoreError

    try:
        data = rp.load_run(store, plan.run_id)
        rep = rp.summarize(store, data, with_strategies=False)
    except StoreError as exc:  # the store failed (mid-run, or now): what finished is stored
        common.fail(f"{fatal or exc} (bench {plan.run_id} stopped; continue it with --resume {plan.run_id})")
    failed = tally.failed
    summary = {k: rep[k] for k in ("problems", "tried", "solved", "rate", "attempts", "attempts_done",
                                   "attempts_planned", "complete", "pass_at_k", "invalid")}
    summary["failed_attempts"] = failed
    if bug is not None:
        status = "failed"
        summary["error"] = f"bug: {type(bug).__name__}: {bug}"[:500]
    elif fatal is not None:
        status = "failed"
        summary["error"] = fatal
    elif interrupted:
        status = "cancelled"
    else:  # from counts that include invalid statements: nothing valid to solve is never success
        verdict = bench_verdict(rep)
        status = verdict.status
        if verdict.error:
            summary["error"] = verdict.error
    nothing = status == "failed" and fatal is None and bug is None and summary.get("error")
    try:
        rn.finish_bench(recorder, plan.run_id, status, summary)
    except StoreError as exc:  # the bench stays open in the store: --resume closes it
        common.fail(f"{fatal or exc} (bench {plan.run_id} stopped; continue it with --resume {plan.run_id})")
    rep["status"] = status

    resume = f"bench {plan.run_id} stopped; continue it with --resume {plan.run_id}"
    if bug is not None:
        common.internal_error(bug, resume)
    if fatal is not None:
        common.fail(f"{fatal} ({resume})")
    if nothing:
        common.fail(f"{summary['error']} (bench {plan.run_id} recorded as failed)")
    if interrupted:
        common.err.print(f"interrupted: {resume}", highlight=False, markup=False, soft_wrap=True)
        return ExitCode.INTERRUPTED
    if as_json:
        common.print_json({**rep, "bench_run_id": plan.run_id, "resumed": plan.resumed, "failed_attempts": failed,
                        "cut_off_closed": len(plan.stale), "warnings": warnings})
    else:
        common.out.print(rp.one_line(rep) + (f"; {failed} attempt(s) failed" if failed else ""),
                      highlight=False, markup=False, soft_wrap=True)
    return ExitCode.OK if rep["complete"] else ExitCode.NOT_PROVED


def _run(
    plan: Any, store: Any, recorder: Any, *, executor: str, concurrency: int, ray_address: str | None,
    on_result: Any, resolved: bool = False,
) -> None:
    """Preflight (a resumed bench's; a new one's ran before its store was made: `resolved`),
    then every pending attempt on the chosen executor. Raises what stops the bench."""
    from lemmaforge.benchmarks import runner as rn
    from lemmaforge.doctor import require_verifier
    from lemmaforge.services import resolve_endpoints

    # Before any budget: the verifier answers, every endpoint answers and serves its model
    # (doctor's probes), each role's model is named and the prover's preset settled (said on
    # stderr; each attempt records them). Each statement is checked by the runner, once per problem.
    if not resolved:
        require_verifier(plan.settings.verifier)
        plan.settings = resolve_endpoints(plan.settings, cot=plan.cot, say=_say)
    if executor == "ray":
        from lemmaforge.benchmarks.ray_executor import run_on_ray

        try:
            run_on_ray(
                plan.jobs, settings=plan.settings, db_url=plan.settings.db_url, bench_run_id=plan.run_id,
                versions=plan.versions, shared_cache=plan.spec.shared_cache, cot=plan.cot, address=ray_address,
                max_in_flight=concurrency, on_result=on_result,
            )
        finally:
            rn.close_running_children(store, recorder, plan.run_id,
                                      "its Ray task did not finish (worker died or was cancelled)")
    else:
        asyncio.run(_run_local(plan, recorder, concurrency, on_result))


async def _run_local(plan: Any, recorder: Any, concurrency: int, on_result: Any) -> None:
    from lemmaforge.benchmarks import runner as rn
    from lemmaforge.benchmarks import spec as sp
    from lemmaforge.services import open_services

    try:
        async with open_services(plan.settings, recorder=recorder, cot=plan.cot) as services:
            await rn.run_jobs(
                plan.jobs, services=services, settings=plan.settings, bench_run_id=plan.run_id,
                versions=plan.versions, shared_cache=plan.spec.shared_cache, concurrency=concurrency,
                on_result=on_result,
            )
    except BackendError as exc:  # raised while opening or closing the services (errors.is_fatal)
        if isinstance(exc, sp.FatalBenchError):
            raise
        raise sp.FatalBenchError(str(exc), exc) from None


class _Bar:
    """The rich progress bar: attempts done / total, problems solved / tried, rate, ETA."""

    def __init__(self, plan: Any, tally: Any) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.tally = tally
        self.progress = Progress(
            TextColumn("[bold]bench[/] {task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("solved {task.fields[solved]}/{task.fields[tried]} ({task.fields[rate]})"),
            TextColumn("{task.fields[failed]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=common.err,
            transient=False,
        )
        self.task = self.progress.add_task(plan.run_id[:12], total=tally.total, completed=tally.done,
                                           **self._fields())

    def _fields(self) -> dict[str, Any]:  # rich's task fields (all text here)
        t = self.tally
        rate = f"{100 * len(t.solved) / len(t.tried):.1f}%" if t.tried else "-"
        return {"solved": str(len(t.solved)), "tried": str(len(t.tried)), "rate": rate,
                "failed": f"{t.failed} failed" if t.failed else ""}

    def start(self) -> None:
        self.progress.start()

    def stop(self) -> None:
        self.progress.stop()

    def update(self, res: Any) -> None:
        self.progress.update(self.task, completed=self.tally.done + self.tally.failed, **self._fields())


def _progress_bar(plan: Any, tally: Any) -> _Bar:
    return _Bar(plan, tally)


def report_command(
    run_id: Annotated[str, typer.Argument(help="A bench run id (or a single prove run id).")],
    db: DbOpt = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write a PNG: pass@k and solved-vs-LLM-calls curves (needs matplotlib).")
    ] = None,
    compare: Annotated[
        str | None, typer.Option("--compare", help="A second run: side by side, and what one solved and not the other.")
    ] = None,
    export: Annotated[
        Path | None, typer.Option("--export", help="Write the solved proofs here: one .lean file each + proofs.jsonl.")
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Write a self-contained HTML report (pass@k curve, categories, each problem's tree)."),
    ] = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Report on a bench run: solved per split and category, pass@k, cost, time, depth, strategies.

    Exit 0, or 2 for an unknown run id / missing matplotlib (with --plot)."""
    from lemmaforge.benchmarks import report as rp
    from lemmaforge.benchmarks.spec import BENCH_KIND, BenchError
    from lemmaforge.db import StoreError

    settings = common.settings_or_fail(config, {"db_url": db})
    for option, target in (("--plot", plot), ("--html", html)):
        if target is not None and not target.parent.is_dir():
            common.fail(f"{option} {target}: folder {target.parent} does not exist")
    try:
        if plot is not None:
            rp.require_matplotlib()
        _check_db_exists(settings.db_url)
        store = _open_store(settings.db_url, read_only=True)  # a report never writes
        run_id = _resolve_run(store, run_id)  # any unique prefix of 4+ characters
        if compare is not None:
            compare = _resolve_run(store, compare)
        _report_training_run(store, run_id, as_json)  # exits when it is one
        data = rp.load_run(store, run_id)
        rep = rp.summarize(store, data)
        datas, reps = [data], [rep]
        if compare is not None:
            data_b = rp.load_run(store, compare)
            rep_b = rp.summarize(store, data_b)
            datas.append(data_b)
            reps.append(rep_b)
    except (BenchError, StoreError) as exc:
        common.fail(str(exc))
    extra: dict[str, Any] = {}
    if export is not None:
        try:
            extra["export"] = rp.export(store, data, export)
        except OSError as exc:
            common.fail(f"cannot export to {export}: {exc.strerror or exc}")
    if plot is not None:
        try:
            extra["plot"] = str(rp.plot(reps, datas, plot))
        except OSError as exc:
            common.fail(f"cannot write the plot {plot}: {exc.strerror or exc}")
    if html is not None:
        try:
            extra["html"] = rp.write_html(store, rep, data, html)
        except OSError as exc:
            common.fail(f"cannot write the HTML report {html}: {exc.strerror or exc}")
    if as_json:
        body = rp.compare(reps[0], reps[1]) if compare is not None else rep
        common.print_json({**body, **extra})
    else:
        if compare is not None:
            rp.render_compare(rp.compare(reps[0], reps[1]), common.out)
        else:
            rp.render(rep, common.out)
            if data.kind != BENCH_KIND:
                common.err.print(f"{run_id} is a single {data.kind} run: `lemmaforge show {run_id}` shows its proof tree",
                              highlight=False, markup=False, soft_wrap=True)
        if "export" in extra:
            common.out.print(f"exported {extra['export']['files']} proof(s) to {extra['export']['dir']} "
                          f"(+ {Path(extra['export']['jsonl']).name})", highlight=False, markup=False, soft_wrap=True)
        if "plot" in extra:
            common.out.print(f"plot written to {extra['plot']}", highlight=False, markup=False, soft_wrap=True)
        if "html" in extra:
            common.out.print(f"HTML report written to {extra['html']['html']} ({extra['html']['runs']} run page(s) in "
                          f"{extra['html']['runs_dir']})", highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(ExitCode.OK)


def _resolve_run(store: Any, ref: str) -> str:
    """The full id of the run `ref` names (Store.resolve_run: the id or a unique 4+ prefix)."""
    from lemmaforge.db import RunIdError

    try:
        return str(store.resolve_run(ref).run_id)
    except RunIdError as exc:
        common.fail(str(exc))


def _report_training_run(store: Any, run_id: str, as_json: bool) -> None:
    """A `train sft|grpo|es` / expert-iteration run: its config, data hash, metrics and output
    (`lemmaforge.training.runs`); returns for any other run."""
    from lemmaforge.training.runs import LISTED_KINDS, one_line, run_summary

    run = store.get_run(run_id)
    if run is None or run.kind not in LISTED_KINDS:
        return
    info = run_summary(run)
    if as_json:
        common.print_json(info)
    else:
        common.out.print(one_line(info), highlight=False, markup=False, soft_wrap=True)
        for key in ("settings", "metrics"):
            value = {k: v for k, v in (info.get(key) or {}).items() if k not in ("log_history", "iterations")}
            if value:
                common.out.print(f"  {key}: {json.dumps(value, ensure_ascii=False)[:2000]}", highlight=False,
                              markup=False, soft_wrap=True)
    raise typer.Exit(ExitCode.OK)

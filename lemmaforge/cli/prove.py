"""`lemmaforge prove` and `lemmaforge check`: prove one theorem, check one proof.

Plain typer-annotated functions; `lemmaforge.cli` registers them. Exit codes as everywhere
(`lemmaforge.errors.ExitCode`): 0 proved, 1 not (or incomplete), 2 bad input or an unusable
backend (one line on stderr), 70 a bug, 130 interrupted.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from lemmaforge.cli.common import (
    BadInput,
    ConfigOpt,
    DbOpt,
    JsonOpt,
    KiminaOpt,
    PlannerModelOpt,
    PlannerUrlOpt,
    ProjectOpt,
    ProverModelOpt,
    ProverUrlOpt,
    SandboxOpt,
    VerifierOpt,
    err,
    fail,
    internal_error,
    out,
    parse_budget,
    print_json,
    read_lean_file,
    settings_or_fail,
    stdout_to_stderr,
)
from lemmaforge.cli.presets import PresetOpt, check_preset_name
from lemmaforge.config import Settings
from lemmaforge.errors import ExitCode


def check(
    file: Annotated[Path, typer.Argument(help="Lean file to check: header + theorem with its proof.")],
    against: Annotated[
        Path | None, typer.Option("--against", help="Original statement file; the theorem must state the same.")
    ] = None,
    theorem: Annotated[
        str | None, typer.Option("--theorem", help="Audit this theorem, lemma or `example` (default: the last one).")
    ] = None,
    verifier: VerifierOpt = None,
    kimina_url: KiminaOpt = None,
    project: ProjectOpt = None,
    sandbox: SandboxOpt = None,
    timeout: Annotated[float | None, typer.Option("--timeout", help="Seconds for the Lean check.")] = None,
    allow_native_decide: Annotated[
        bool | None, typer.Option("--allow-native-decide", help="Accept Lean.ofReduceBool (native_decide).")
    ] = None,
    trust_dataset: Annotated[
        bool | None,
        typer.Option("--trust-dataset", help="Accept an --against file outside the dataset whitelist (instances, axioms…)."),
    ] = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check one Lean file and audit it for soundness.

    Whole-file check, no sorry, whitelisted axioms, statement unchanged (with --against), no banned
    commands. Exit 0 proved, 1 not, 2 bad input or unusable verifier."""
    from lemmaforge.lean.audit import audit
    from lemmaforge.lean.backends import make_verifier
    from lemmaforge.lean.gate import DatasetRejected
    from lemmaforge.lean.verifier import VerifierError

    if verifier is not None and verifier not in ("repl", "kimina", "lake"):
        fail(f"unknown verifier '{verifier}' (choose repl, kimina or lake)")
    from lemmaforge.targets import TargetError, choose_target

    try:
        candidate = read_lean_file(file)
        original = read_lean_file(against, "original") if against is not None else None
    except BadInput as exc:
        fail(str(exc))
    # The audited theorem is the file's last one unless --theorem names another; an `example`
    # gets a name (the axiom check needs one). With --theorem, what follows it is not audited.
    try:
        target = choose_target(candidate, theorem, keep_rest=theorem is None)
    except TargetError as exc:
        fail(f"{exc} in {file}")
    candidate = target.code
    if original is not None:
        try:
            original = choose_target(original, theorem, keep_rest=theorem is None).code
        except TargetError as exc:
            fail(f"{exc} in {against}")

    settings = settings_or_fail(
        config,
        {
            "verifier": {"backend": verifier, "kimina_url": kimina_url, "project": project, "timeout": timeout,
                         "trust_dataset": trust_dataset, "sandbox": sandbox},
            "audit": {"allow_native_decide": allow_native_decide},
        },
    )

    async def run() -> Any:
        backend = make_verifier(settings.verifier)
        try:
            return await audit(
                candidate, backend, original=original, config=settings.audit, timeout=settings.verifier.timeout,
                row=str(against) if against is not None else str(file),
            )
        finally:
            await backend.close()

    try:
        report = asyncio.run(run())
    except VerifierError as exc:
        fail(f"verifier '{settings.verifier.backend}' unusable: {exc}")
    except DatasetRejected as exc:
        fail(str(exc))
    if report.ok and target.incomplete_reason:
        # as `prove` says of the same file: another theorem's `sorry` leaves the file incomplete
        # (the audit alone accepts `sorry`s the original also has: benchmark preambles)
        from lemmaforge.lean.audit import AuditStatus, Reason, Rejection

        report.status = AuditStatus.INCOMPLETE
        report.reasons.append(Rejection(Reason.SORRY, target.incomplete_reason))

    if as_json:
        print_json({"file": str(file), **report.to_json()})
    else:
        _print_report(file, report)
    raise typer.Exit(ExitCode.OK if report.ok else ExitCode.NOT_PROVED)


def _print_report(file: Path, report: Any) -> None:
    colour = {"proved": "green", "incomplete": "yellow", "timeout": "yellow"}.get(report.status.value, "red")
    from lemmaforge.viewer.inert import markup

    # the path, the theorem's name and Lean's axiom names are text from files and Lean (a «…» name
    # holds any character): inert and never rich markup
    named = f" ({markup(report.theorem, keep='')})" if report.theorem else ""
    out.print(f"[bold {colour}]{report.status.value}[/] {markup(file, keep='')}" + named)
    if report.axioms is not None:
        axioms = markup(", ".join(report.axioms), keep="") if report.axioms else "(none)"
        out.print(f"  axioms: {axioms}", highlight=False)
    for r in report.reasons:
        out.print(f"  - {r}", highlight=False, markup=False)


def prove(
    file: Annotated[Path | None, typer.Argument(help="Lean file: header + the theorem to prove, ending in sorry.")] = None,
    statement: Annotated[str | None, typer.Option("--statement", help="The theorem as text instead of a file.")] = None,
    theorem: Annotated[
        str | None,
        typer.Option("--theorem", help="Prove this theorem, lemma or `example` of the file (default: the last one)."),
    ] = None,
    header: Annotated[
        str | None, typer.Option("--header", help="Header for --statement (default: the miniF2F header).")
    ] = None,
    informal: Annotated[str | None, typer.Option("--informal", help="Informal statement (or proof) for the planner, and the theorem's docstring in the prover's whole-proof prompts.")] = None,
    planner_url: PlannerUrlOpt = None,
    planner_model: PlannerModelOpt = None,
    prover_url: ProverUrlOpt = None,
    prover_model: ProverModelOpt = None,
    cot: Annotated[bool, typer.Option("--cot/--no-cot", help="Chain-of-thought prover prompt.")] = False,
    prover_preset: PresetOpt = None,
    verifier: VerifierOpt = None,
    kimina_url: KiminaOpt = None,
    project: ProjectOpt = None,
    sandbox: SandboxOpt = None,
    budget: Annotated[
        list[str] | None, typer.Option("--budget", help="KEY=VALUE, repeatable: llm_calls, max_depth, wall_seconds, …")
    ] = None,
    trust_dataset: Annotated[
        bool | None,
        typer.Option("--trust-dataset", help="Accept a problem outside the dataset whitelist (instances, axioms…); recorded."),
    ] = None,
    db: DbOpt = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the proof here.")] = None,
    live: Annotated[
        bool, typer.Option("--live/--no-live", help="Show progress and the proof tree on stderr while it runs (TTY).")
    ] = True,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Prove one theorem by recursive decomposition.

    Before any budget is spent, the endpoints must serve their models, the verifier must answer
    and the statement must compile ("statement does not compile: …", exit 2). The proof goes to
    stdout exactly as written with -o; everything else goes to stderr. Exit 0 proved, 1 not proved
    or incomplete (another theorem of the file keeps its sorry), 2 bad input or unusable backend, 70
    a bug, 130 interrupted (the run id is printed; `lemmaforge show RUN` shows it)."""
    from lemmaforge.db import StoreError
    from lemmaforge.errors import LemmaforgeError
    from lemmaforge.records import new_id
    from lemmaforge.services import MINIF2F_HEADER, ProblemError, open_recorder, problem_from_code
    from lemmaforge.targets import TargetError, choose_target
    from lemmaforge.viewer.live import RunWatch, stop_message

    if (file is None) == (statement is None):
        fail("give exactly one of FILE or --statement")
    check_preset_name(prover_preset)
    if verifier is not None and verifier not in ("repl", "kimina", "lake"):
        fail(f"unknown verifier '{verifier}' (choose repl, kimina or lake)")
    if output is not None and not output.parent.is_dir():
        fail(f"cannot write {output}: folder {output.parent} does not exist")
    try:
        code = read_lean_file(file) if file is not None else (header or MINIF2F_HEADER) + (statement or "")
        target = choose_target(code, theorem)
        problem = problem_from_code(target.code)
        budget_overrides = parse_budget(budget)
    except (BadInput, ProblemError, TargetError) as exc:
        fail(str(exc))
    _announce_target(target, as_json)
    if informal:
        from dataclasses import replace

        problem = replace(problem, informal=informal)
    settings = settings_or_fail(
        config,
        {
            "verifier": {"backend": verifier, "kimina_url": kimina_url, "project": project,
                         "trust_dataset": trust_dataset, "sandbox": sandbox},
            "planner": {"url": planner_url, "model": planner_model},
            "prover": {"url": prover_url, "model": prover_model, "preset": prover_preset},
            "budget": budget_overrides,
            "db_url": db,
        },
    )
    try:  # opened once the preflight passed (services.DeferredStore): a failed start writes nothing
        recorder, close_recorder = open_recorder(settings.db_url, deferred=True)
    except StoreError as exc:
        fail(str(exc))

    run_id = new_id()
    watch = RunWatch(recorder, settings.budget)
    show_live = live and err.is_terminal
    store_error: StoreError | None = None
    try:
        try:
            with stdout_to_stderr(as_json):
                result = asyncio.run(_prove(settings, problem, watch, cot=cot, show_live=show_live, run_id=run_id,
                                                   stats=watch.stats))
        finally:
            try:
                close_recorder()
            except StoreError as exc:  # reported below, unless another error is already on its way out
                store_error = exc
    except LemmaforgeError as exc:  # a backend to fix (fatal), or a statement that does not compile
        where = f" (run {run_id} recorded as failed" + (f"; last Lean error: {watch.last_error}" if watch.last_error else "") + ")"
        fail(f"{exc}" + (where if watch.run_id else ""), exc.exit_code)
    except KeyboardInterrupt:
        if watch.run_id is None:
            err.print("interrupted before the run started", highlight=False)
        else:
            err.print(f"[yellow]interrupted[/]: run {run_id} stopped after {watch.elapsed():.1f} s and is recorded as "
                      f"cancelled (see it with `lemmaforge show {run_id}`)", highlight=False, soft_wrap=True)
            err.print(f"  spent: {watch.status_line()}", highlight=False, markup=False, soft_wrap=True)
            if watch.last_error:
                err.print(f"  last Lean error: {watch.last_error}", highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    except typer.Exit:
        raise
    except Exception as exc:  # a bug: exit INTERNAL (70), never 1, which means "not proved"
        internal_error(exc, f"run {run_id} recorded as failed" if watch.run_id else "")
    if store_error is not None:
        fail(f"{store_error} (run {run_id} is not fully recorded)")

    incomplete = target.incomplete_reason if result.proved else None
    status = "incomplete" if incomplete else ("proved" if result.proved else "not_proved")
    if output is not None and result.proof:
        output.write_text(result.proof, encoding="utf-8")
    if as_json:
        print_json({
            **result.to_json(), "proved": status == "proved", "status": status, "theorem": target.name,
            "incomplete_reason": incomplete, "last_lean_error": watch.last_error,
        })
        raise typer.Exit(ExitCode.OK if status == "proved" else ExitCode.NOT_PROVED)
    from lemmaforge.viewer.tree_view import render_tree

    err.print(render_tree(result.tree))
    if result.proved and result.proof:
        _write_stdout(result.proof)
    from lemmaforge.viewer.counts import cost_words

    s = result.stats  # the figures --json, `runs`, `show` and the bench report give (viewer/counts.py)
    spent = (cost_words(s.llm_calls, s.checks, used_calls=s.used_calls, used_checks=s.used_checks,
                        prompt_tokens=s.prompt_tokens, completion_tokens=s.completion_tokens)
             + f", depth {result.depth if result.depth is not None else '-'}, run {result.run_id}")
    if status == "proved":
        err.print(f"[green]proved[/] {escape(target.name)} in {result.seconds:.1f}s: {spent}", highlight=False,
                  soft_wrap=True)
    elif status == "incomplete":
        err.print(f"[yellow]incomplete[/]: {escape(target.name)} is proved but {escape(incomplete or '')}; "
                  f"{spent}", highlight=False, soft_wrap=True)
    else:
        for line in stop_message(result, watch, settings.budget):
            err.print(line, highlight=False, soft_wrap=True)
        err.print(f"  run {result.run_id} (see it with `lemmaforge show {result.run_id}`)", highlight=False,
                  soft_wrap=True)
    raise typer.Exit(ExitCode.OK if status == "proved" else ExitCode.NOT_PROVED)


def selftest_notice(cfg: Any, *, kimina_lean: str | None = None) -> None:
    """One line on stderr (never stdout) when the toolchain in use has no passing `doctor
    --selftest` on record (lean/audit/selftest/_record.py; reading the record creates nothing)."""
    from lemmaforge.lean.audit.selftest import start_notice

    line = start_notice(cfg, kimina_lean=kimina_lean)
    if line:
        _say(line)


def _announce_target(target: Any, as_json: bool) -> None:
    """Say on stderr which theorem is the target when the file leaves room for doubt."""
    if as_json:
        return
    if len(target.candidates) > 1:
        err.print(f"target: {target.kind} {target.name} ({len(target.candidates)} in the file: "
                  f"{', '.join(target.candidates)}; choose with --theorem)", highlight=False, markup=False, soft_wrap=True)
    if target.dropped:
        err.print(f"note: left out after the target: {', '.join(target.dropped)}", highlight=False, markup=False,
                  soft_wrap=True)
    if target.incomplete_reason:
        err.print(f"note: {target.incomplete_reason}: the result will be incomplete", highlight=False, markup=False,
                  soft_wrap=True)


def _say(line: str) -> None:
    err.print(line, highlight=False, markup=False, soft_wrap=True)


def _write_stdout(text: str) -> None:
    """`text` on stdout byte for byte (UTF-8, no wrapping, no styling): `prove > f.lean` must give
    the same file as `prove -o f.lean`, whatever the terminal width or locale.

    Except on a terminal: the proof is model text, and a control character in it (an escape
    sequence in a comment) would act on the terminal. There it is shown inert (visible escapes,
    viewer/inert.py) with a note on stderr saying how to get the exact bytes (-o, or a pipe)."""
    from lemmaforge.viewer.inert import inert

    if sys.stdout.isatty():
        shown = inert(text)
        if shown != text:
            err.print("note: the proof holds control characters, shown escaped here; write it with -o FILE "
                      "or through a pipe for the exact text", highlight=False, markup=False, soft_wrap=True)
            text = shown
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        buffer.write(text.encode("utf-8"))
        buffer.flush()
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


async def _prove(
    settings: Settings, problem: Any, recorder: Any, *, cot: bool, show_live: bool, run_id: str | None = None,
    stats: Any = None,
) -> Any:
    from lemmaforge.services import open_services, open_store_after_preflight, preflight, prove_problem

    async with open_services(settings, recorder=recorder, cot=cot) as services:
        # Preflight, the library's too: the dataset gate, the verifier answers, the endpoints serve
        # their models (each role's model named, the prover's preset settled and said on stderr)
        # and the statement compiles. Its statement check is charged to the run's Lean budget.
        settings, sent = await preflight(services, settings, problem, cot=cot, say=_say)
        await open_store_after_preflight(recorder)  # only now: a failed start creates no store
        # once the run is sure to start: no passing `doctor --selftest` on record for its toolchain?
        # (a file read; on Kimina maybe one small request: off the event loop, before the live view)
        await asyncio.to_thread(selftest_notice, settings.verifier)
        if not show_live:
            return await prove_problem(services, settings, problem, run_id=run_id, preflight_checks=sent, stats=stats)
        from rich.live import Live

        from lemmaforge.viewer.live import LiveView

        view = LiveView(recorder)
        with Live(view, console=err, refresh_per_second=4, transient=True):
            return await prove_problem(services, settings, problem, run_id=run_id, on_update=view.update,
                                       preflight_checks=sent, stats=stats)

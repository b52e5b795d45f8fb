"""The `lemmaforge` command line.

Exit codes, for every command: 0 success (proved / healthy), 1 a clean negative answer (not proved,
something missing), 2 bad input or an unusable backend, always with a one-line error on stderr.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from lemmaforge import __version__
from lemmaforge.cli_common import (
    EXIT_BAD_INPUT,  # noqa: F401 - the exit codes stay importable from here, as before
    EXIT_NO,
    EXIT_OK,
    BadInput,
    ConfigOpt,
    JsonOpt,
    err,
    fail,
    out,
    read_text_file,
)
from lemmaforge.config import ConfigError, Settings, load_config

app = typer.Typer(
    name="lemmaforge",
    help="Prove Lean 4 theorems by recursive decomposition; verify, benchmark and train provers.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def settings_or_fail(config: Path | None, overrides: dict[str, Any]) -> Settings:
    try:
        return load_config(config, overrides)
    except ConfigError as exc:
        fail(str(exc))


def read_lean_file(path: Path, what: str = "file") -> str:
    """The text of a Lean file, or BadInput naming what is wrong with it."""
    text = read_text_file(path, what)
    if not text.strip():
        raise BadInput(f"{what} is empty: {path}")
    return text


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


@app.callback(invoke_without_command=True)
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
) -> None:
    if version:
        out.print(f"lemmaforge {__version__}")
        raise typer.Exit(0)


@app.command()
def check(
    file: Annotated[Path, typer.Argument(help="Lean file to check: header + theorem with its proof.")],
    against: Annotated[
        Path | None, typer.Option("--against", help="Original statement file; the theorem must state the same.")
    ] = None,
    verifier: Annotated[str | None, typer.Option("--verifier", help="Backend: repl, kimina or lake.")] = None,
    kimina_url: Annotated[str | None, typer.Option("--kimina-url", help="Kimina Lean Server URL.")] = None,
    project: Annotated[Path | None, typer.Option("--project", help="Lean project with Mathlib (repl, lake).")] = None,
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
    from lemmaforge.lean import syntax as lean_syntax
    from lemmaforge.lean.audit import audit
    from lemmaforge.lean.backends import make_verifier
    from lemmaforge.lean.gate import DatasetRejected
    from lemmaforge.lean.verifier import VerifierError

    if verifier is not None and verifier not in ("repl", "kimina", "lake"):
        fail(f"unknown verifier '{verifier}' (choose repl, kimina or lake)")
    try:
        candidate = read_lean_file(file)
        original = read_lean_file(against, "original") if against is not None else None
    except BadInput as exc:
        fail(str(exc))
    if lean_syntax.last_theorem(candidate) is None:
        fail(f"no theorem or lemma found in {file}")
    if original is not None and lean_syntax.last_theorem(original) is None:
        fail(f"no theorem or lemma found in {against}")

    settings = settings_or_fail(
        config,
        {
            "verifier": {"backend": verifier, "kimina_url": kimina_url, "project": project, "timeout": timeout,
                         "trust_dataset": trust_dataset},
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

    if as_json:
        print_json({"file": str(file), **report.to_json()})
    else:
        _print_report(file, report)
    raise typer.Exit(EXIT_OK if report.ok else EXIT_NO)


def _print_report(file: Path, report: Any) -> None:
    colour = {"proved": "green", "incomplete": "yellow", "timeout": "yellow"}.get(report.status.value, "red")
    out.print(f"[bold {colour}]{report.status.value}[/] {file}" + (f" ({report.theorem})" if report.theorem else ""))
    if report.axioms is not None:
        out.print(f"  axioms: {', '.join(report.axioms) if report.axioms else '(none)'}", highlight=False)
    for r in report.reasons:
        out.print(f"  - {r}", highlight=False, markup=False)


@app.command()
def doctor(
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Say what is present and reachable, and what to do about what is missing.

    Lean, Mathlib, REPL, Kimina, LLM endpoints, GPU, database. Exit 0 when the configured verifier
    is usable, else 1."""
    from lemmaforge.doctor import diagnose, render

    settings = settings_or_fail(config, {})
    report = diagnose(settings)
    if as_json:
        print_json(report.to_json())
    else:
        render(report, out)
    raise typer.Exit(EXIT_OK if report.verifier_ready else EXIT_NO)


@app.command()
def setup(
    lean_version: Annotated[
        str | None, typer.Option("--lean-version", help="Lean / Mathlib version tag, e.g. v4.19.0.")
    ] = None,
    project: Annotated[
        Path | None, typer.Option("--project", help="Use this existing Lean project instead of a temporary Mathlib one.")
    ] = None,
    install_lean: Annotated[
        bool, typer.Option("--install-lean/--no-install-lean", help="Install elan + Lean when missing.")
    ] = True,
    safeverify: Annotated[
        bool,
        typer.Option("--safeverify/--no-safeverify",
                     help="Also build SafeVerify: the final audit then asks Lean whether a proof states the original."),
    ] = False,
    config: ConfigOpt = None,
) -> None:
    """Prepare Lean, Mathlib and the REPL through lean-interact.

    Needs the internet; the first run takes a while (Mathlib's cache is several GB)."""
    from lemmaforge.lean.install import SetupError, prepare

    settings = settings_or_fail(config, {"verifier": {"lean_version": lean_version, "project": project}})
    try:
        result = prepare(settings.verifier, install_lean=install_lean, log=lambda m: err.print(m, highlight=False))
    except SetupError as exc:
        fail(str(exc))
    out.print(f"[green]ready[/]: Lean {result.lean_version}, project {result.project_dir}", highlight=False)
    out.print(f"use it with: export LEMMAFORGE_LEAN_PROJECT={result.project_dir}", highlight=False)
    if safeverify:
        from lemmaforge.lean.install import find_lake
        from lemmaforge.lean.safeverify import build_safe_verify
        from lemmaforge.lean.verifier import VerifierError

        try:
            exe = build_safe_verify(Path(result.project_dir), lake=find_lake(settings.verifier.lake_path) or "lake",
                                    log=lambda m: err.print(m, highlight=False))
        except VerifierError as exc:
            fail(str(exc))
        out.print(f"SafeVerify: export LEMMAFORGE_VERIFIER__SAFE_VERIFY={exe}", highlight=False)


def _parse_budget(items: list[str] | None) -> dict[str, Any]:
    from lemmaforge.config import BudgetConfig

    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in BudgetConfig.model_fields:
            known = ", ".join(BudgetConfig.model_fields)
            raise BadInput(f"--budget takes KEY=VALUE with KEY one of: {known} (got '{item}')")
        out[key] = value.strip()
    return out


@app.command()
def prove(
    file: Annotated[Path | None, typer.Argument(help="Lean file: header + one theorem ending in sorry.")] = None,
    statement: Annotated[str | None, typer.Option("--statement", help="The theorem as text instead of a file.")] = None,
    header: Annotated[
        str | None, typer.Option("--header", help="Header for --statement (default: the miniF2F header).")
    ] = None,
    informal: Annotated[str | None, typer.Option("--informal", help="Informal statement / proof for the planner.")] = None,
    planner_url: Annotated[str | None, typer.Option("--planner-url", help="Planner endpoint (OpenAI-compatible).")] = None,
    planner_model: Annotated[str | None, typer.Option("--planner-model")] = None,
    prover_url: Annotated[str | None, typer.Option("--prover-url", help="Prover endpoint (OpenAI-compatible).")] = None,
    prover_model: Annotated[str | None, typer.Option("--prover-model")] = None,
    cot: Annotated[bool, typer.Option("--cot/--no-cot", help="Chain-of-thought prover prompt.")] = False,
    verifier: Annotated[str | None, typer.Option("--verifier", help="Backend: repl, kimina or lake.")] = None,
    kimina_url: Annotated[str | None, typer.Option("--kimina-url")] = None,
    project: Annotated[Path | None, typer.Option("--project", help="Lean project with Mathlib.")] = None,
    budget: Annotated[
        list[str] | None, typer.Option("--budget", help="KEY=VALUE, repeatable: llm_calls, max_depth, wall_seconds, …")
    ] = None,
    trust_dataset: Annotated[
        bool | None,
        typer.Option("--trust-dataset", help="Accept a problem outside the dataset whitelist (instances, axioms…); recorded."),
    ] = None,
    db: Annotated[str | None, typer.Option("--db", help="SQLAlchemy URL of the store.")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the proof here.")] = None,
    live: Annotated[bool, typer.Option("--live/--no-live", help="Show the proof tree while it runs.")] = True,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Prove one theorem by recursive decomposition.

    Exit 0 proved, 1 not proved, 2 bad input or unusable backend."""
    from lemmaforge.agent.llm import LLMUnavailableError
    from lemmaforge.app import MINIF2F_HEADER, ProblemError, open_recorder, problem_from_code
    from lemmaforge.db import StoreError
    from lemmaforge.lean.gate import DatasetRejected
    from lemmaforge.lean.verifier import VerifierError

    if (file is None) == (statement is None):
        fail("give exactly one of FILE or --statement")
    if verifier is not None and verifier not in ("repl", "kimina", "lake"):
        fail(f"unknown verifier '{verifier}' (choose repl, kimina or lake)")
    try:
        code = read_lean_file(file) if file is not None else (header or MINIF2F_HEADER) + (statement or "")
        problem = problem_from_code(code)
        budget_overrides = _parse_budget(budget)
    except (BadInput, ProblemError) as exc:
        fail(str(exc))
    if informal:
        from dataclasses import replace

        problem = replace(problem, informal=informal)
    settings = settings_or_fail(
        config,
        {
            "verifier": {"backend": verifier, "kimina_url": kimina_url, "project": project,
                         "trust_dataset": trust_dataset},
            "planner": {"url": planner_url, "model": planner_model},
            "prover": {"url": prover_url, "model": prover_model},
            "budget": budget_overrides,
            "db_url": db,
        },
    )
    try:
        recorder, close_recorder = open_recorder(settings.db_url)
    except StoreError as exc:
        fail(str(exc))

    show_live = live and not as_json and out.is_terminal
    try:
        result = asyncio.run(_prove(settings, problem, recorder, cot=cot, show_live=show_live))
    except (VerifierError, LLMUnavailableError, DatasetRejected) as exc:
        fail(str(exc))
    finally:
        close_recorder()

    if output is not None and result.proof:
        output.write_text(result.proof, encoding="utf-8")
    if as_json:
        print_json(result.to_json())
    else:
        out.print(result.tree.render())
        if result.proved:
            out.print(result.proof, markup=False, highlight=False)
        verdict = "[green]proved[/]" if result.proved else f"[red]not proved[/] ({escape(result.stop_reason)})"
        out.print(
            f"{verdict} in {result.seconds:.1f}s: {result.stats.llm_calls} LLM calls, {result.stats.checks} Lean "
            f"checks, depth {result.depth if result.depth is not None else '-'}, run {result.run_id}"
        )
    raise typer.Exit(EXIT_OK if result.proved else EXIT_NO)


async def _prove(settings: Settings, problem: Any, recorder: Any, *, cot: bool, show_live: bool) -> Any:
    from lemmaforge.app import open_services, prove_problem

    async with open_services(settings, recorder=recorder, cot=cot) as services:
        if not show_live:
            return await prove_problem(services, settings, problem)
        from rich.live import Live

        with Live(console=out, refresh_per_second=4, transient=True) as view:
            last = 0.0

            def show(tree: Any) -> None:
                # Rendering walks the whole tree: at most a few times a second, not per event.
                nonlocal last
                now = time.monotonic()
                if now - last >= 0.25:
                    last = now
                    view.update(tree.render())

            return await prove_problem(services, settings, problem, on_update=show)


def _add_subcommands() -> None:
    # Imported here, not at the top: `lemmaforge check` must not pay for the training stack's
    # imports, and cli_train imports torch / trl only inside its commands.
    from lemmaforge.cli_bench import bench_command, report_command
    from lemmaforge.cli_data import gen_data_command
    from lemmaforge.cli_train import app as train_app

    app.command("bench")(bench_command)
    app.command("report")(report_command)
    app.command("gen-data")(gen_data_command)
    app.add_typer(
        train_app, name="train", help="Train provers: SFT, GRPO, ES, expert iteration (needs the train extra)."
    )


_add_subcommands()


def main() -> None:
    app()


if __name__ == "__main__":
    main()

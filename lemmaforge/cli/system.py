"""`lemmaforge doctor` and `lemmaforge setup`: what is installed and reachable, and installing Lean.

Plain typer-annotated functions; `lemmaforge.cli` registers them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lemmaforge.cli.common import (
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
    out,
    print_json,
    run_overrides,
    settings_or_fail,
)
from lemmaforge.errors import ExitCode


def doctor(
    planner_url: PlannerUrlOpt = None,
    planner_model: PlannerModelOpt = None,
    prover_url: ProverUrlOpt = None,
    prover_model: ProverModelOpt = None,
    verifier: VerifierOpt = None,
    kimina_url: KiminaOpt = None,
    project: ProjectOpt = None,
    sandbox: SandboxOpt = None,
    db: DbOpt = None,
    config: ConfigOpt = None,
    selftest: Annotated[
        bool,
        typer.Option("--selftest", help="Instead: run the shipped calibration cases (honest constructs, cheats) through "
                                        "the whole audit on this verifier's Lean and say where Lean's answers are not "
                                        "what the judge expects; a pass is recorded for the toolchain. Exit 0 every "
                                        "case as expected, 1 not, 2 unusable verifier."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Say what is present and reachable, and what to do about what is missing.

    Takes the endpoint and verifier options `prove` and `bench` take, so it checks what they will
    run: Lean and its version (the Kimina server's too), Mathlib, REPL, LLM endpoints and the model
    each role will use, RAM against workers × per-worker memory, GPU, database. Exit 0 when the
    verifier is usable, else 1. With --selftest, the judge calibrated on this Lean instead (run it
    once per toolchain: docs/soundness.md, "doctor --selftest")."""
    from lemmaforge.doctor import diagnose, render

    overrides = run_overrides(
        verifier=verifier, kimina_url=kimina_url, project=project, planner_url=planner_url,
        planner_model=planner_model, prover_url=prover_url, prover_model=prover_model, db=db)
    overrides["verifier"]["sandbox"] = sandbox
    settings = settings_or_fail(config, overrides)
    if selftest:
        _selftest(settings, as_json)
    report = diagnose(settings)
    if as_json:
        print_json(report.to_json())
    else:
        render(report, out)
    raise typer.Exit(ExitCode.OK if report.verifier_ready else ExitCode.NOT_PROVED)


def _selftest(settings: Any, as_json: bool) -> None:
    """`doctor --selftest` (lemmaforge/doctor.py `selftest`): exits 0, 1 or 2."""
    from lemmaforge.doctor import render_selftest, selftest
    from lemmaforge.errors import InputError
    from lemmaforge.lean.verifier import VerifierError

    try:
        report = selftest(settings)
    except VerifierError as exc:
        fail(f"verifier '{settings.verifier.backend}' unusable: {exc}")
    except InputError as exc:  # the calibration file (a packaging bug, or an edited file)
        fail(str(exc))
    if as_json:
        print_json(report.to_json())
    else:
        render_selftest(report, out)
    raise typer.Exit(ExitCode.OK if report.ok else ExitCode.NOT_PROVED)


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
    from lemmaforge.lean.lake import SetupError, prepare

    settings = settings_or_fail(config, {"verifier": {"lean_version": lean_version, "project": project}})
    try:
        result = prepare(settings.verifier, install_lean=install_lean, log=lambda m: err.print(m, highlight=False))
    except SetupError as exc:
        fail(str(exc))
    from lemmaforge.lean.lake import path_hint

    out.print(f"[green]ready[/]: Lean {result.lean_version}, project {result.project_dir}", highlight=False)
    out.print(f"use it with: export LEMMAFORGE_LEAN_PROJECT={result.project_dir}", highlight=False, soft_wrap=True)
    hint = path_hint()
    if hint:
        out.print(hint, highlight=False, markup=False, soft_wrap=True)
    if safeverify:
        from lemmaforge.lean.lake import find_lake
        from lemmaforge.lean.safeverify import build_safe_verify
        from lemmaforge.lean.verifier import VerifierError

        try:
            exe = build_safe_verify(Path(result.project_dir), lake=find_lake(settings.verifier.lake_path) or "lake",
                                    log=lambda m: err.print(m, highlight=False))
        except VerifierError as exc:
            fail(str(exc))
        out.print(f"SafeVerify: export LEMMAFORGE_VERIFIER__SAFE_VERIFY={exe}", highlight=False)

"""`lemmaforge bundle` and `lemmaforge verify`: claims anyone can re-check.

`bundle BENCH_ID -o PATH` writes a bench's result bundle (`benchmarks.bundle`); `verify PATH`
re-checks a bundle, or a directory / zip of released `.lean` solutions with `--dataset NAME`, with
the whole audit on the user's own Lean (`benchmarks.verify`).

Exit codes (`lemmaforge.errors.ExitCode`): `verify` 0 every claim confirmed, 1 any refuted or
statement mismatch, 2 bad input (unreadable archive, manifest hash mismatch, unknown dataset,
nothing to verify) or an unusable verifier / store (what was decided is kept: run it again);
`bundle` 0 written, 2 bad input.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

import typer

import lemmaforge.cli.common as common
from lemmaforge.cli.common import ConfigOpt, DbOpt, JsonOpt, KiminaOpt, ProjectOpt, SandboxOpt, VerifierOpt
from lemmaforge.errors import ExitCode


def bundle_command(
    bench_id: Annotated[str, typer.Argument(help="A bench run id (or a unique prefix of 4+ characters).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the bundle (a .zip file).")],
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a bench's result bundle: one zip with the dataset rows used (and the dataset file's
    sha256), every claimed proof as a full .lean file, per-problem verdicts and attempts, Lean /
    Mathlib / lemmaforge versions, preset, sampling, budgets, protocol and costs, and a manifest of
    every file's sha256. `lemmaforge verify PATH` re-checks it.

    Exit 0 written, 2 bad input (unknown run, not a bench, no such folder)."""
    from lemmaforge.benchmarks.bundle import write_bundle
    from lemmaforge.benchmarks.spec import BenchError
    from lemmaforge.cli.bench import _check_db_exists, _open_store
    from lemmaforge.db import StoreError

    if not output.parent.is_dir():
        common.fail(f"cannot write {output}: folder {output.parent} does not exist")
    if output.is_dir():
        common.fail(f"cannot write {output}: it is a directory (give a file name, e.g. bundle.zip)")
    settings = common.settings_or_fail(config, {"db_url": db})
    _check_db_exists(settings.db_url)
    store = _open_store(settings.db_url, read_only=True)
    try:
        info = write_bundle(store, bench_id, output)
    except (BenchError, StoreError) as exc:
        common.fail(str(exc))
    except OSError as exc:
        common.fail(f"cannot write {output}: {exc.strerror or exc}")
    if as_json:
        common.print_json(info)
    else:
        common.out.print(f"bundle written to {info['path']}: {info['proofs']} proof(s), {info['files']} files "
                         f"(sha256 {info['sha256']})", highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(ExitCode.OK)


def verify_command(
    path: Annotated[Path, typer.Argument(help="A bundle (`lemmaforge bundle`), or a directory or zip of .lean solutions.")],
    dataset: Annotated[
        str | None,
        typer.Option("--dataset", help="The dataset the solutions solve (`lemmaforge datasets`): files are matched "
                                       "to its problems by theorem name. Needed for a directory or zip; with a "
                                       "bundle, checks against this dataset's statements instead of the bundle's."),
    ] = None,
    verifier: VerifierOpt = None,
    kimina_url: KiminaOpt = None,
    project: ProjectOpt = None,
    sandbox: SandboxOpt = None,
    timeout: Annotated[float | None, typer.Option("--timeout", help="Seconds for each Lean check.")] = None,
    allow_native_decide: Annotated[
        bool | None, typer.Option("--allow-native-decide", help="Accept Lean.ofReduceBool (native_decide).")
    ] = None,
    trust_dataset: Annotated[
        bool | None,
        typer.Option("--trust-dataset", help="Accept dataset rows outside the dataset whitelist (instances, axioms…)."),
    ] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Claims checked at once.")] = 8,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="Progress bar on stderr (TTY only).")] = True,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Re-check claims with the whole audit (as `check --against`): a bundle, or a released solution
    set (a directory or zip of .lean files) with --dataset NAME.

    A proof whose theorem does not state the dataset's statement is a statement mismatch, not a
    solve. What was verified is kept in the store: run it again to resume. Exit 0 every claim
    confirmed, 1 any refuted or mismatched, 2 bad input (unreadable archive, manifest hash
    mismatch, unknown dataset) or an unusable verifier."""
    from lemmaforge.benchmarks import verify as vf
    from lemmaforge.benchmarks.bundle import BundleError
    from lemmaforge.db import StoreError
    from lemmaforge.lean.gate import DatasetRejected
    from lemmaforge.lean.verifier import VerifierError

    if verifier is not None and verifier not in ("repl", "kimina", "lake"):
        common.fail(f"unknown verifier '{verifier}' (choose repl, kimina or lake)")
    settings = common.settings_or_fail(
        config,
        {
            "verifier": {"backend": verifier, "kimina_url": kimina_url, "project": project, "timeout": timeout,
                         "trust_dataset": trust_dataset, "sandbox": sandbox},
            "audit": {"allow_native_decide": allow_native_decide},
            "db_url": db,
        },
    )
    try:  # everything read and checked before anything runs: a tampered bundle is refused here
        claims = vf.load_claims(path, dataset)
    except (vf.VerifyInputError, BundleError) as exc:
        common.fail(str(exc))
    store = _open_store(settings.db_url)
    bar = _Bar(len(claims.claims)) if progress and common.err.is_terminal and claims.claims else None

    def told(outcome: Any) -> None:
        if bar is not None:
            bar.advance(outcome)

    async def run() -> list[Any]:
        from lemmaforge.lean.backends import make_verifier

        backend = make_verifier(settings.verifier)
        try:
            return await vf.verify_claims(claims.claims, backend, settings, store=store, concurrency=concurrency,
                                          on_outcome=told)
        finally:
            await backend.close()

    try:
        if bar is not None:
            bar.start()
        with common.stdout_to_stderr(as_json):
            outcomes = asyncio.run(run())
    except (VerifierError, StoreError) as exc:
        common.fail(f"{exc} (what was verified is kept: run the same command again to resume)")
    except (DatasetRejected, vf.VerifyInputError) as exc:
        common.fail(str(exc))
    except KeyboardInterrupt:
        common.err.print("interrupted: what was verified is kept; run the same command again to resume",
                         highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    finally:
        if bar is not None:
            bar.stop()
    result = vf.summary(outcomes, claims.unmatched)
    resumed = sum(o.resumed for o in outcomes)
    if as_json:
        common.print_json(result)
    else:
        _print_text(claims, outcomes, result, resumed)
    bad = result["refuted"] or result["statement_mismatch"]
    raise typer.Exit(ExitCode.NOT_PROVED if bad else ExitCode.OK)


def _open_store(url: str) -> Any:
    from lemmaforge.db import Store, StoreError

    try:
        return Store(url)
    except StoreError as exc:
        common.fail(str(exc))


def _print_text(claims: Any, outcomes: list[Any], result: dict[str, Any], resumed: int) -> None:
    def line(text: str) -> None:
        common.out.print(text, highlight=False, markup=False, soft_wrap=True)

    for o in outcomes:
        if o.verdict == "refuted":
            line(f"refuted {o.problem} ({o.file}): {o.reason}")
        elif o.verdict == "statement_mismatch":
            line(f"statement mismatch {o.problem} ({o.file}): {o.reason}")
    for f in claims.unmatched:
        line(f"unmatched {f}: no problem of {claims.dataset or 'the dataset'} by its theorem's or file's name")
    again = f" ({resumed} decided by an earlier verify)" if resumed else ""
    line(f"{claims.source}: {result['claims']} claim(s) checked{again}: {result['confirmed']} confirmed, "
         f"{len(result['refuted'])} refuted, {len(result['statement_mismatch'])} statement mismatch(es); "
         f"{len(result['unmatched'])} file(s) unmatched")


class _Bar:
    """Claims decided / total on stderr, with the refuted and mismatched so far."""

    def __init__(self, total: int) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bad = 0
        self.progress = Progress(TextColumn("[bold]verify[/]"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[bad]}"), TimeElapsedColumn(), console=common.err)
        self.task = self.progress.add_task("verify", total=total, bad="")

    def start(self) -> None:
        self.progress.start()

    def stop(self) -> None:
        self.progress.stop()

    def advance(self, outcome: Any) -> None:
        self.bad += outcome.verdict != "confirmed"
        self.progress.update(self.task, advance=1, bad=f"{self.bad} not confirmed" if self.bad else "")

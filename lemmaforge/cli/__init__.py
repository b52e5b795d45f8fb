"""The `lemmaforge` command line: the typer app, its global options, and its command groups.

One module per command group registers nothing itself; this package wires them:
`demo` (demo), `prove` (prove, check), `system` (doctor, setup), `bench` (bench, report), `claims`
(bundle, verify), `recipes` (recipes), `runs` (runs, show),
`data` (gen-data), `train` (the `train` sub-app). What they share is in `cli.common`.

Exit codes, for every command (`lemmaforge.errors.ExitCode`): 0 success (proved / healthy), 1 a
clean negative answer (not proved, something missing), 2 bad input or an unusable backend, always
with a one-line error on stderr, 70 a bug (its traceback, then one line), 130 interrupted.

Start-up: the command modules import only typer/rich/pydantic-level modules at their top; the
heavy stacks (torch, trl, the Lean backends, SQLAlchemy's store) are imported inside the commands,
so `lemmaforge --help` and `lemmaforge check` do not pay for training. Measured (2026-11, this
package): `import lemmaforge.cli` 0.46 s; with app, db, lean.audit, lean.backends, viewer.live,
training.runs and benchmarks imported at the top as well, 1.16 s: those stay inside the commands.
"""

from __future__ import annotations

import os
import shutil
from typing import Annotated

import typer
import typer.rich_utils

# the command modules themselves, not their functions: `lemmaforge.cli.prove` must stay the module
# (tests patch its console), not be shadowed by the `prove` command function
from lemmaforge.cli import bench, claims, common, data, demo, presets, prove, recipes, runs, system, train
from lemmaforge.cli import datasets as datasets_cli
from lemmaforge.process import tune_garbage_collector
from lemmaforge.versions import __version__


def _wide_help(min_width: int = 110) -> None:
    """Help is rendered at least `min_width` columns wide: at 80 (a pipe, a small terminal) rich's
    option table cut long option names (`--problems-per-iteration` → `--problems-per-…`), and a
    name that cannot be read cannot be typed. TERMINAL_WIDTH still wins when set."""
    if not os.environ.get("TERMINAL_WIDTH"):
        typer.rich_utils.MAX_WIDTH = max(shutil.get_terminal_size((80, 24)).columns, min_width)


_wide_help()

app = typer.Typer(
    name="lemmaforge",
    help="Prove Lean 4 theorems by recursive decomposition; verify, benchmark and train provers.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback(invoke_without_command=True)
def _root(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.")] = False,
    verbose: Annotated[
        int, typer.Option("--verbose", "-v", count=True, help="More log on stderr: -v info, -vv debug.")
    ] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Log errors only on stderr.")] = False,
) -> None:
    if version:
        common.out.print(f"lemmaforge {__version__}")
        raise typer.Exit(0)
    common.configure_logging(verbose, quiet)


app.command("demo")(demo.demo_command)
app.command("check")(prove.check)
app.command("doctor")(system.doctor)
app.command("setup")(system.setup)
app.command("prove")(prove.prove)
app.command("bench")(bench.bench_command)
app.command("report")(bench.report_command)
app.command("gen-data")(data.gen_data_command)
app.command("runs")(runs.runs_command)
app.command("show")(runs.show_command)
app.add_typer(datasets_cli.app, name="datasets")
app.command("presets")(presets.presets_command)
app.command("recipes")(recipes.recipes_command)
app.command("bundle")(claims.bundle_command)
app.command("verify")(claims.verify_command)
app.add_typer(train.app, name="train", help="Train provers: SFT, GRPO, ES, expert iteration (needs the train extra).")

def main() -> None:
    from lemmaforge.cli import signals

    tune_garbage_collector()  # a search's heap makes the default thresholds costly (lemmaforge/process.py)
    signals.install()  # SIGTERM / SIGHUP stop a command as Ctrl-C does (exit 143 / 129)
    try:
        app()
    except SystemExit as exc:
        raise SystemExit(signals.exit_code(exc.code)) from None
    finally:
        signals.settled()


__all__ = ["app", "main"]

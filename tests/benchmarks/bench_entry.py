"""`python -m tests.benchmarks.bench_entry bench|report …`: the bench and report commands on a
typer app of their own, so tests can run them in a subprocess (and kill it) whether or not the
main CLI registers them yet."""

from __future__ import annotations

import typer

from lemmaforge.cli.bench import bench_command, report_command

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False, no_args_is_help=True)
app.command("bench")(bench_command)
app.command("report")(report_command)

if __name__ == "__main__":
    app()

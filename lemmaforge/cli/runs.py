"""`lemmaforge runs` and `lemmaforge show RUN`: what the recorded runs did, read from the store.

Plain typer-annotated functions; `lemmaforge.cli` registers them. Exit 0, or 2 for bad input (an
unknown run, a database that is not there, a file that cannot be written).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lemmaforge.cli.bench import _check_db_exists, _open_store
from lemmaforge.cli.common import ConfigOpt, DbOpt, JsonOpt, err, fail, out, print_json, settings_or_fail


def _open(config: Path | None, db: str | None) -> Any:
    settings = settings_or_fail(config, {"db_url": db})
    _check_db_exists(settings.db_url)
    return _open_store(settings.db_url)


def runs_command(
    db: DbOpt = None,
    problem: Annotated[str | None, typer.Option("--problem", help="Only runs of this problem (id, or part of its id or name).")] = None,
    status: Annotated[
        str | None, typer.Option("--status", help="Only runs with this status: proved, not_proved, failed, cancelled, running.")
    ] = None,
    kind: Annotated[str | None, typer.Option("--kind", help="Only runs of this kind: prove, bench, …")] = None,
    limit: Annotated[int, typer.Option("--limit", help="At most N runs, newest first (0: all).")] = 20,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List recorded runs, newest first: status, problem, time, LLM calls, Lean checks, why it stopped."""
    from lemmaforge.db import StoreError
    from lemmaforge.viewer import model, text

    if limit < 0:
        fail(f"--limit must be 0 (all) or more, not {limit}")
    statuses = ("proved", "not_proved", "failed", "cancelled", "running")
    if status is not None and status not in statuses:
        fail(f"unknown status '{status}' (choose {', '.join(statuses)})")
    store = _open(config, db)
    try:
        rows = model.runs_table(store, problem=problem, status=status, kind=kind, limit=limit or None)
    except StoreError as exc:  # a damaged store: one line, exit 2 (never a traceback)
        fail(str(exc))
    if as_json:
        print_json({"db": str(store.url), "runs": rows})
    elif not rows:
        err.print("no runs match", highlight=False)
    else:
        out.print(text.runs_table(rows))
    raise typer.Exit(0)


def show_command(
    run_id: Annotated[str, typer.Argument(help="A run id (or a unique prefix of one), as `lemmaforge runs` lists them.")],
    db: DbOpt = None,
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write the run as one self-contained interactive HTML page.")
    ] = None,
    all_attempts: Annotated[bool, typer.Option("--all-attempts", help="List valid attempts too, not only failed ones.")] = False,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show one run: its proof tree, how each goal closed, failed attempts with Lean's first error,
    budgets spent against their limits, timings; `--json` for the whole tree, `--html` for a page."""
    from lemmaforge.db import StoreError
    from lemmaforge.viewer import model, text

    if html is not None and not html.parent.is_dir():
        fail(f"cannot write {html}: folder {html.parent} does not exist")
    store = _open(config, db)
    try:
        view = model.run_view(store, run_id)
    except (model.RunNotFound, StoreError) as exc:
        fail(str(exc))
    if html is not None:
        from lemmaforge.viewer.html import render_run_page

        try:
            html.write_text(render_run_page(view), encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {html}: {exc.strerror or exc}")
    if as_json:
        print_json(view)
    else:
        text.render_run(view, out, all_attempts=all_attempts)
        if html is not None:
            err.print(f"page written to {html}", highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(0)

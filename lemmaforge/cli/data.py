"""`lemmaforge gen-data`: training data from the proofs in the store.

The lead registers it on the main app: `app.command("gen-data")(gen_data_command)`. Exit codes as
everywhere: 0 rows written, 1 nothing to write (the files are still written, empty, with the
manifest saying why), 2 bad input (unknown run or kind, unusable hold-out spec, database that
cannot be opened), with one line on stderr.

What the files hold: see `lemmaforge.training.export`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lemmaforge.cli.common import ConfigOpt, DbOpt, JsonOpt, err, fail, out, print_json
from lemmaforge.errors import ExitCode


def _split_list(values: list[str] | None) -> list[str]:
    return [v.strip() for item in values or [] for v in item.split(",") if v.strip()]


def _missing_sqlite_file(url: str) -> str | None:
    """The path of a SQLite database file that does not exist (reading must not create one)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if not parsed.drivername.startswith("sqlite") or parsed.database in (None, "", ":memory:"):
        return None
    return None if Path(parsed.database).exists() else parsed.database


def gen_data_command(
    out_dir: Annotated[Path, typer.Option("--out", help="Output directory for the JSONL files and manifest.")],
    db: DbOpt = None,
    runs: Annotated[
        list[str] | None,
        typer.Option("--runs", help="Run ids (comma-separated or repeated); a bench or expert-iter run includes its children. Default: every run."),
    ] = None,
    kinds: Annotated[
        str, typer.Option("--kinds", help="Comma-separated: sft (non-CoT), cot (cold-start CoT), subgoal (curriculum).")
    ] = "sft,cot,subgoal",
    holdout: Annotated[
        list[str] | None,
        typer.Option("--holdout", help="DATASET[:SPLIT] never to train on, e.g. minif2f:test (repeatable)."),
    ] = None,
    max_per_statement: Annotated[
        int | None, typer.Option("--max-per-statement", min=1, help="At most N proofs per statement and kind.")
    ] = None,
    hf_dir: Annotated[
        Path | None, typer.Option("--hf-dir", help="Also save an HF DatasetDict (one split per kind) here.")
    ] = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Write SFT data from the store: non-CoT proofs, CoT cold-start rows, subgoal curriculum.

    Rows are TRL conversational prompt–completion rows with metadata (kind, problem_id, name,
    header, statement, run_id, …). Held-out problems are excluded by name and by normalized
    statement. Exit 0 rows written, 1 none, 2 bad input."""
    from lemmaforge.config import ConfigError, load_config
    from lemmaforge.db import Store, StoreError
    from lemmaforge.training.export import KINDS, ExportError, Holdout, collect, write

    kind_list = [k.strip() for k in kinds.split(",") if k.strip()]
    bad = [k for k in kind_list if k not in KINDS]
    if bad or not kind_list:
        fail(f"unknown kind(s) '{','.join(bad) or kinds}': choose from {', '.join(KINDS)}")
    if hf_dir is not None:
        try:
            import datasets  # noqa: F401
        except ImportError:
            fail("--hf-dir needs the `datasets` package: pip install 'lemmaforge[train]'")
    try:
        settings = load_config(config, {"db_url": db})
    except ConfigError as exc:
        fail(str(exc))
    missing = _missing_sqlite_file(settings.db_url)
    if missing is not None:
        fail(f"no database at {missing} (give --db URL of the store that `prove` / `bench` wrote)")
    try:
        held = Holdout.load(_split_list(holdout))
    except ExportError as exc:
        fail(f"--holdout {exc}")
    try:
        store = Store(settings.db_url)
    except StoreError as exc:
        fail(str(exc))
    try:
        result = collect(
            store, runs=_split_list(runs) or None, kinds=kind_list, holdout=held, max_per_statement=max_per_statement
        )
        files = write(result, out_dir, hf_dir=hf_dir)
    except ExportError as exc:
        fail(str(exc))
    except StoreError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write {out_dir}: {exc.strerror or exc}")
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP (lemmaforge.cli.signals): gen-data records no run
        fail(f"interrupted: gen-data stopped; the files in {out_dir} may be incomplete (run it again)",
             ExitCode.INTERRUPTED)
    finally:
        store.close()
    summary: dict[str, Any] = {**result.to_json(), "files": files}
    if as_json:
        print_json(summary)
    else:
        rows = ", ".join(f"{k} {len(v)}" for k, v in result.rows.items())
        out.print(f"[green]wrote[/] {result.total} rows ({rows}), {len(result.statements)} statements to {out_dir}")
        ex = result.counts["excluded"]
        if held:
            out.print(
                f"  held out ({', '.join(held.sources)}): {ex['total']} rows excluded "
                f"(by name {sum(ex['by_name'].values())}, by statement {sum(ex['by_statement'].values())})",
                highlight=False,
            )
        dup = sum(result.counts["duplicates"].values())
        cap = sum(result.counts["capped"].values())
        if dup or cap:
            out.print(f"  dropped {dup} duplicates, {cap} over --max-per-statement", highlight=False)
        for reason, n in sorted(result.counts["skipped"].items()):
            out.print(f"  skipped {n}: {reason}", highlight=False)
    if result.total == 0:
        err.print("no training rows: no verified proof in the selected runs (after hold-out)", highlight=False)
        raise typer.Exit(ExitCode.NOT_PROVED)


__all__ = ["gen_data_command"]

"""`lemmaforge datasets` and `lemmaforge datasets show NAME`: which benchmark versions exist, where
each comes from, which published results were measured on it, and its rows.

Exit 0, or 2 with one line on stderr (an unknown dataset or split, a download that failed).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from lemmaforge.cli.common import JsonOpt, fail, out, print_json

app = typer.Typer(
    help="Benchmark datasets: published versions side by side, with provenance.",
    invoke_without_command=True,
    no_args_is_help=False,
)


def _aliases(name: str) -> list[str]:
    from lemmaforge.benchmarks.registry import aliases_of

    return aliases_of(name)


def _counts(info: Any) -> tuple[dict[str, int], str]:
    """(split → count, where the counts come from): the file's own when it is here, else the
    counts recorded from the published file."""
    from lemmaforge.benchmarks import download
    from lemmaforge.benchmarks.dataset_rows import read_problems

    if info.remote is not None and not info.packaged and not download.is_cached(info):
        return dict(info.expected), "published (not downloaded yet)"
    counts: dict[str, int] = {}
    for p in read_problems(info.name):
        counts[p.split] = counts.get(p.split, 0) + 1
    return counts, "downloaded" if info.remote is not None and not info.packaged else "packaged"


def describe(info: Any) -> dict[str, Any]:
    """One dataset's entry, as `datasets --json` prints it."""
    counts, where = _counts(info)
    remote = info.remote
    source, _, path = info.source.partition(":") if "@" in info.source else (info.source, "", "")
    repo, _, commit = source.partition("@")
    entry: dict[str, Any] = {
        "name": info.name,
        "aliases": _aliases(info.name),
        "description": info.description,
        "splits": counts,
        "problems": sum(counts.values()),
        "full_benchmark": info.total,
        "counts_from": where,
        "lean_version": info.lean_version,
        "source": {"repository": repo, "commit": remote.commit if remote else commit, "path": path,
                   "date": info.date},
        "papers": info.papers,
        "download": None if remote is None else {"url": remote.url, "sha256": remote.sha256,
                                                 "format": remote.format, "local_file": _local(info)},
        "known_issues": [{"name": k.name, "kind": k.kind, "reason": k.reason} for k in info.known_issues],
    }
    return entry


def _local(info: Any) -> str | None:
    from lemmaforge.benchmarks import download

    if info.packaged:
        from lemmaforge.benchmarks.registry import data_dir

        path = data_dir() / info.filename
        if path.is_file():
            return str(path)
    return str(download.cached_path(info)) if download.is_cached(info) else None


@app.callback()
def datasets_command(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """List the registered datasets: splits and counts, Lean version, source and commit, which
    papers report on each, and the statements known to be wrong (listed, never edited)."""
    if ctx.invoked_subcommand is not None:
        return
    from lemmaforge.benchmarks.registry import DATASETS, DatasetError

    try:
        entries = [describe(info) for info in DATASETS.values()]
    except DatasetError as exc:
        fail(str(exc))
    if as_json:
        print_json({"datasets": entries})
        raise typer.Exit(0)
    for e in entries:
        splits = ", ".join(f"{s} {n}" for s, n in e["splits"].items())
        partial = f" of {e['full_benchmark']}" if e["full_benchmark"] else ""
        alias = f"  (also: {', '.join(e['aliases'])})" if e["aliases"] else ""
        src = e["source"]
        _line(f"{e['name']}{alias}")
        _line(f"  {e['description']}")
        _line(f"  problems: {e['problems']}{partial} ({splits}; {e['counts_from']}); Lean {e['lean_version']}")
        _line(f"  source: {src['repository']} @ {src['commit']} {src['path']} ({src['date']})")
        if e["download"]:
            pin = e["download"]["sha256"] or "none recorded: checked by nobody, said at download"
            _line(f"  download: {e['download']['url']} (sha256 {pin})")
        _line(f"  reported on by: {e['papers']}")
        if e["known_issues"]:
            kinds: dict[str, int] = {}
            for k in e["known_issues"]:
                kinds[k["kind"]] = kinds.get(k["kind"], 0) + 1
            listed = ", ".join(f"{n} {kind}" for kind, n in kinds.items())
            _line(f"  known issues: {listed} (`lemmaforge datasets show {e['name']}` lists them)")
        _line("")
    raise typer.Exit(0)


@app.command("show")
def show_command(
    name: Annotated[str, typer.Argument(help="A registered dataset (see `lemmaforge datasets`), a .jsonl file or hf:<id>.")],
    split: Annotated[str | None, typer.Option("--split", help="Only this split (valid, test).")] = None,
    names: Annotated[str | None, typer.Option("--names", help="Only these problems (comma-separated).")] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=0, help="The first N rows (after the other filters).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Print a dataset's rows: name, split, header, formal_statement, informal_statement."""
    from lemmaforge.benchmarks.datasets import load_dataset
    from lemmaforge.benchmarks.registry import DatasetError, registered

    try:
        problems = load_dataset(name, split=split, names=names, limit=limit)
    except DatasetError as exc:
        fail(str(exc))
    info = registered(name)
    rows = [
        {
            "name": p.name,
            "split": p.split,
            "header": p.header,
            "formal_statement": p.statement,
            # the dataset's informal statement, also where the header already states it (ProverBench)
            "informal_statement": p.informal if p.informal is not None else p.extra.get("informal_statement"),
        }
        for p in problems
    ]
    issues = [{"name": k.name, "kind": k.kind, "reason": k.reason} for k in (info.known_issues if info else ())]
    if as_json:
        print_json({"dataset": info.name if info else (problems[0].dataset if problems else name),
                    "rows": rows, "known_issues": issues})
        raise typer.Exit(0)
    for row in rows:
        _line(f"== {row['name']} ({row['split']})")
        if row["informal_statement"]:
            _line(f"informal: {row['informal_statement']}")
        _line((row["header"] or "").rstrip("\n"))
        _line((row["formal_statement"] or "").rstrip("\n"))
        _line("")
    if issues:
        _line(f"known issues of {info.name if info else name} (listed, not edited):")
        for k in issues:
            _line(f"  {k['name']} [{k['kind']}]: {k['reason']}")
    raise typer.Exit(0)


def _line(text: str) -> None:
    out.print(text, highlight=False, markup=False, soft_wrap=True)

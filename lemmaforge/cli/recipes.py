"""`lemmaforge recipes`: published setups to reproduce, each with the number its authors reported
and where it was read (`benchmarks.recipes`). `lemmaforge bench DATASET --recipe NAME` runs one.

Exit 0.
"""

from __future__ import annotations

import typer

from lemmaforge.cli.common import JsonOpt, out, print_json
from lemmaforge.errors import ExitCode


def recipes_command(as_json: JsonOpt = False) -> None:
    """List published setups: model, prover preset, dataset and version, protocol, attempts
    (pass@k), sampling and max tokens, Lean version, and the reported number with its source
    (paper table or README, with the commit or arXiv version). Run one with
    `lemmaforge bench DATASET --recipe NAME`."""
    from lemmaforge.benchmarks.recipes import RECIPES

    if as_json:
        print_json({"recipes": [r.to_json() for r in RECIPES.values()]})
        raise typer.Exit(ExitCode.OK)

    def line(text: str) -> None:
        out.print(text, highlight=False, markup=False, soft_wrap=True)

    for r in RECIPES.values():
        j = r.to_json()
        line(f"{r.name}  ({r.title})")
        line(f"  model {r.model}, preset {r.preset}{' (CoT)' if r.cot else ''}; dataset {r.dataset}"
             f"{' ' + r.split if r.split else ''} ({j['dataset']['version'] or '?'}); protocol {r.protocol}, "
             f"pass@{r.attempts}" + (f", answers {r.answers}" if r.answers != "slots" else ""))
        line(f"  sampling: temperature {r.temperature if r.temperature is not None else 'server default'}, top_p "
             f"{r.top_p if r.top_p is not None else 'server default'}, max_tokens {r.max_tokens} ({r.sampling_source})")
        line(f"  Lean {r.lean_version or '?'} ({r.lean_source})")
        line(f"  reported: {r.reported.words()}: {r.reported.source}")
        if r.dataset_version:
            line(f"  authors' dataset: {r.dataset_version}")
        if r.notes:
            line(f"  note: {r.notes}")
        line("")
    raise typer.Exit(ExitCode.OK)

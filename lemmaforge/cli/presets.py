"""`lemmaforge presets`: the prover presets (one per model family) and where each was taken from.

A plain typer-annotated function; `lemmaforge.cli` registers it. `--prover-preset NAME` on `prove`
and `bench` (or `[prover] preset = "NAME"`) chooses one; `PresetOpt` and `check_preset_name` are
shared by those commands.
"""

from __future__ import annotations

from typing import Annotated

import typer

from lemmaforge.cli.common import JsonOpt, fail, out, print_json
from lemmaforge.errors import ExitCode

PresetOpt = Annotated[
    str | None,
    typer.Option("--prover-preset",
                 help="Prover model family: its published prompt, sampling, correction and reader "
                      "(`lemmaforge presets` lists them). Default: inferred from the served model."),
]


def check_preset_name(name: str | None) -> None:
    """An unknown `--prover-preset` is bad input: one line, exit 2, before anything runs."""
    if name is None:
        return
    from lemmaforge.agent.presets import UnknownPreset, get_preset

    try:
        get_preset(name)
    except UnknownPreset as exc:
        fail(str(exc))


def _value(v: object) -> str:
    return "server default" if v is None else str(v)


def presets_command(as_json: JsonOpt = False) -> None:
    """List the prover presets: name, endpoint kind, temperature, top_p, max_tokens, and the
    published source each template was taken from (repository@commit:file)."""
    from lemmaforge.agent.presets import PRESETS

    if as_json:
        print_json({"presets": [p.to_json() for p in PRESETS.values()]})
        raise typer.Exit(ExitCode.OK)
    for p in PRESETS.values():
        out.print(f"{p.name}  ({p.family})", highlight=False, markup=False, soft_wrap=True)
        out.print(f"  endpoint {p.endpoint}, temperature {_value(p.temperature)}, top_p {_value(p.top_p)}, "
                  f"max_tokens {p.max_tokens}, correction {p.correction or 'none'}, reader {p.reader}",
                  highlight=False, markup=False, soft_wrap=True)
        for source in p.sources:
            out.print(f"  source: {source}", highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(ExitCode.OK)

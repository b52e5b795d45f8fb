"""What `lemmaforge` and `lemmaforge train` share: the one-line error on stderr, the BadInput
exception, reading a user's text file, and the options every command spells the same way.

A module of its own because `lemmaforge.cli` imports `lemmaforge.cli_train` (to register `train`)
while `cli_train` can be imported on its own (its tests do): neither may import the other at the top.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

out = Console()
err = Console(stderr=True)

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT = 0, 1, 2

ConfigOpt = Annotated[Path | None, typer.Option("--config", help="TOML config file (default: ./lemmaforge.toml).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]


class BadInput(Exception):
    """Input the user must fix; reported as one line with exit code 2."""


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def read_text_file(path: Path, what: str) -> str:
    """The UTF-8 text of a regular file, or BadInput naming `what` it is and what is wrong with it."""
    if not path.exists():
        raise BadInput(f"{what} not found: {path}")
    if not path.is_file():
        raise BadInput(f"{what} is not a regular file: {path}")
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{what} is not valid UTF-8: {path} (byte {exc.start})") from None

"""What `lemmaforge` and `lemmaforge train` share: the one-line error on stderr, the BadInput
exception, reading a user's text file, and the options every command spells the same way.

A module of its own because `lemmaforge.cli` imports `lemmaforge.cli_train` (to register `train`)
while `cli_train` can be imported on its own (its tests do): neither may import the other at the top.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from lemmaforge.errors import ExitCode, InputError, one_line

out = Console()
err = Console(stderr=True)

EXIT_OK, EXIT_NO, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, int(ExitCode.INTERNAL)

ConfigOpt = Annotated[Path | None, typer.Option("--config", help="TOML config file (default: ./lemmaforge.toml).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]


class BadInput(InputError):
    """Input the user must fix; reported as one line with exit code 2."""


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def internal_error(exc: BaseException, what: str = "") -> NoReturn:
    """A bug reached the top of a command: its traceback (for the bug report), then one line, exit
    70 (`ExitCode.INTERNAL`): never read as "not proved"."""
    traceback.print_exception(exc, file=sys.stderr)
    detail = one_line(f"{type(exc).__name__}: {exc}")
    suffix = f"; {what}" if what else ""
    fail(f"internal error (a bug in lemmaforge, please report it with the traceback above): {detail}{suffix}",
         ExitCode.INTERNAL)


@contextmanager
def stdout_to_stderr(active: bool = True) -> Iterator[None]:
    """While active, everything written to stdout goes to stderr instead: Python's `print`s and
    whatever libraries or child processes (Ray's workers, raylet) write to file descriptor 1. A
    `--json` command runs its work inside this and prints its JSON after it, so stdout carries
    only that JSON."""
    if not active:
        yield
        return
    saved_fd: int | None = None
    try:
        if sys.stdout.fileno() == 1 and sys.stderr.fileno() == 2:
            sys.stdout.flush()
            saved_fd = os.dup(1)
            os.dup2(2, 1)
    except (AttributeError, OSError, ValueError):  # stdout is not a real file (tests capture it)
        saved_fd = None
    try:
        with redirect_stdout(sys.stderr):
            yield
    finally:
        if saved_fd is not None:
            sys.stdout.flush()
            os.dup2(saved_fd, 1)
            os.close(saved_fd)


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

"""What every command module of `lemmaforge.cli` shares, defined once: the consoles, the one-line
error on stderr (`fail`, exit `ExitCode.BAD_INPUT`), the BadInput exception, JSON out (`print_json`)
and in (`read_jsonl`), reading a user's text file, loading the config, and the options every command
spells the same way (`--config`, `--json`, `--db`, `--verifier`, `--kimina-url`, …).

Command modules import this one, never `lemmaforge.cli` itself (the package imports them).
"""

from __future__ import annotations

import json
import logging
import math
import os
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.logging import RichHandler
from rich.markup import escape

from lemmaforge.config import BudgetConfig, ConfigError, Settings, load_config
from lemmaforge.errors import ExitCode, InputError, one_line
from lemmaforge.model_choice import model_help
from lemmaforge.viewer.inert import InertHook, inert, json_inert

out = Console()
err = Console(stderr=True)
# Whatever the commands print, stored and model text included, reaches the terminal inert: control
# characters and escape sequences as visible escapes (viewer/inert.py). The views also make their
# fields inert before layout; this is the net under every print.
out.push_render_hook(InertHook())
err.push_render_hook(InertHook())

ConfigOpt = Annotated[Path | None, typer.Option("--config", help='TOML config file (default: ./lemmaforge.toml); [search] speculation = "full" is experimental.')]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of text.")]
DbOpt = Annotated[str | None, typer.Option("--db", help="SQLAlchemy URL of the store (default: the config's db_url).")]
VerifierOpt = Annotated[str | None, typer.Option("--verifier", help="Lean backend: repl, kimina or lake.")]
KiminaOpt = Annotated[str | None, typer.Option("--kimina-url", help="Kimina Lean Server URL.")]
ProjectOpt = Annotated[Path | None, typer.Option("--project", help="Lean project with Mathlib (repl, lake).")]
SandboxOpt = Annotated[
    bool | None,
    typer.Option("--sandbox/--no-sandbox",
                 help="Run Lean (repl, lake) under bubblewrap: no network, no home, read-only files; recorded. "
                      "\\[default: sandbox]"),
]
# the model endpoints, spelt once: `prove` and `doctor` (which checks what `prove` will use) share them
PlannerUrlOpt = Annotated[str | None, typer.Option("--planner-url", help="Planner endpoint (OpenAI-compatible).")]
PlannerModelOpt = Annotated[str | None, typer.Option("--planner-model", help=model_help("planner"))]
ProverUrlOpt = Annotated[str | None, typer.Option("--prover-url", help="Prover endpoint (OpenAI-compatible).")]
ProverModelOpt = Annotated[str | None, typer.Option("--prover-model", help=model_help("prover"))]


def run_overrides(
    *, verifier: str | None = None, kimina_url: str | None = None, project: Path | None = None,
    planner_url: str | None = None, planner_model: str | None = None, prover_url: str | None = None,
    prover_model: str | None = None, db: str | None = None,
) -> dict[str, Any]:
    """The config overrides the shared endpoint and verifier options make (None: not given), so
    that `prove` and `doctor` read the same flags the same way."""
    if verifier is not None and verifier not in ("repl", "kimina", "lake"):
        fail(f"unknown verifier '{verifier}' (choose repl, kimina or lake)")
    return {
        "verifier": {"backend": verifier, "kimina_url": kimina_url, "project": project},
        "planner": {"url": planner_url, "model": planner_model},
        "prover": {"url": prover_url, "model": prover_model},
        "db_url": db,
    }


class BadInput(InputError):
    """Input the user must fix; reported as one line with exit code 2."""


def fail(message: str, code: int = ExitCode.BAD_INPUT) -> NoReturn:
    """One line on stderr (whitespace collapsed), then exit `code`."""
    err.print(f"[bold red]error:[/] {escape(inert(one_line(message)))}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def settings_or_fail(config: Path | None, overrides: dict[str, Any]) -> Settings:
    try:
        return load_config(config, overrides)
    except ConfigError as exc:
        fail(str(exc))


def parse_budget(items: list[str] | None) -> dict[str, Any]:
    """`--budget KEY=VALUE` items as config overrides; BadInput naming the known keys."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in BudgetConfig.model_fields:
            known = ", ".join(BudgetConfig.model_fields)
            raise BadInput(f"--budget takes KEY=VALUE with KEY one of: {known} (got '{item}')")
        out[key] = value.strip()
    return out


def _json_safe(obj: Any) -> Any:
    # NaN / inf are not JSON: null; anything json cannot write (a Path, an enum) as its text
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): _json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_json_safe(v) for v in obj]
    if isinstance(obj, str | int | bool) or obj is None:
        return obj
    return str(obj)


def print_json(obj: Any) -> None:
    """The one JSON object a `--json` command prints on stdout."""
    # json escapes C0 controls itself; DEL, C1 and bidi controls are written as \u escapes too
    # (the same JSON value), so no stored text acts on a terminal that shows it.
    sys.stdout.write(json_inert(json.dumps(_json_safe(obj), ensure_ascii=False, indent=2)) + "\n")


def internal_error(exc: BaseException, what: str = "") -> NoReturn:
    """A bug reached the top of a command: its traceback (for the bug report), then one line, exit
    70 (`ExitCode.INTERNAL`): never read as "not proved"."""
    sys.stderr.write(inert("".join(traceback.format_exception(exc))))  # its message may quote stored text
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


def read_lean_file(path: Path, what: str = "file") -> str:
    """The text of a Lean file, or BadInput naming what is wrong with it."""
    text = read_text_file(path, what)
    if not text.strip():
        raise BadInput(f"{what} is empty: {path}")
    return text


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Rows of a JSONL file; BadInput naming the file and line on any problem."""
    text = read_text_file(path, "data file")
    rows: list[dict[str, Any]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BadInput(f"{path}:{n}: not valid JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise BadInput(f"{path}:{n}: expected a JSON object, got {type(row).__name__}")
        rows.append(row)
    if not rows:
        raise BadInput(f"data file has no rows: {path}")
    return rows


def configure_logging(verbose: int = 0, quiet: bool = False) -> int:
    """Log records (lemmaforge's and its libraries', Python warnings included) go to stderr through
    rich's handler: WARNING by default, -v INFO, -vv DEBUG, -q ERROR. Returns the level.

    Called once per command line; a handler installed by an earlier call in the same process (tests
    run many) is replaced, never stacked, and other handlers (pytest's) are left alone."""
    level = logging.ERROR if quiet else {0: logging.WARNING, 1: logging.INFO}.get(verbose, logging.DEBUG)
    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, _OURS, False)]:
        root.removeHandler(handler)
    handler = RichHandler(console=err, show_path=level <= logging.DEBUG, rich_tracebacks=False, markup=False)
    setattr(handler, _OURS, True)
    handler.setLevel(level)
    root.addHandler(handler)
    # the root level gates every handler: lowered for -v/-vv, never raised above what is set already
    root.setLevel(min(root.level or logging.WARNING, level))
    logging.captureWarnings(True)
    return level


_OURS = "_lemmaforge_cli"

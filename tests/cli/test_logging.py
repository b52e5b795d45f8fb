"""Global -v / -q: log records (and Python warnings) reach stderr through rich's handler at
WARNING by default, INFO with -v, DEBUG with -vv, ERROR with -q; stdout is never touched."""

from __future__ import annotations

import logging
import warnings

import pytest
from rich.logging import RichHandler
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.cli.common import configure_logging


@pytest.fixture(autouse=True)
def _restore_logging():
    root = logging.getLogger()
    before_level, before_handlers = root.level, list(root.handlers)
    yield
    for handler in [h for h in root.handlers if h not in before_handlers]:
        root.removeHandler(handler)
    root.setLevel(before_level)
    logging.captureWarnings(False)


def _ours() -> list[RichHandler]:
    return [h for h in logging.getLogger().handlers if isinstance(h, RichHandler)]


@pytest.mark.parametrize(
    ("flags", "level"),
    [([], logging.WARNING), (["-v"], logging.INFO), (["--verbose"], logging.INFO), (["-vv"], logging.DEBUG),
     (["-v", "-v", "-v"], logging.DEBUG), (["-q"], logging.ERROR), (["--quiet"], logging.ERROR)],
)
def test_global_flags_set_the_level_of_one_rich_handler(tmp_path, flags, level):
    # a command that ends at once (bad input, exit 2): the callback has run before it
    r = CliRunner().invoke(app, [*flags, "check", str(tmp_path / "missing.lean")])
    assert r.exit_code == 2, r.output
    handlers = _ours()
    assert len(handlers) == 1 and handlers[0].level == level
    assert logging.getLogger().getEffectiveLevel() <= level
    # a second command line in the same process replaces the handler, never stacks it
    CliRunner().invoke(app, [*flags, "check", str(tmp_path / "missing.lean")])
    assert len(_ours()) == 1


def test_records_and_warnings_reach_stderr_by_level(capsys):
    log = logging.getLogger("lemmaforge.test_logging")

    configure_logging(0, False)
    log.info("info-hidden-by-default")
    log.warning("warning-shown-by-default")
    warnings.warn("library-warning-captured", UserWarning, stacklevel=1)
    got = capsys.readouterr()
    assert "info-hidden-by-default" not in got.err
    assert "warning-shown-by-default" in got.err and "library-warning-captured" in got.err
    assert got.out == ""  # logs never go to stdout (--json)

    configure_logging(1, False)
    log.info("info-shown-with-v")
    log.debug("debug-hidden-with-v")
    got = capsys.readouterr()
    assert "info-shown-with-v" in got.err and "debug-hidden-with-v" not in got.err

    configure_logging(2, False)
    log.debug("debug-shown-with-vv")
    assert "debug-shown-with-vv" in capsys.readouterr().err

    configure_logging(0, True)
    log.warning("warning-hidden-with-q")
    log.error("error-shown-with-q")
    got = capsys.readouterr()
    assert "warning-hidden-with-q" not in got.err and "error-shown-with-q" in got.err


def test_help_lists_the_global_flags():
    r = CliRunner().invoke(app, ["--help"], env={"TERMINAL_WIDTH": "200"})
    assert r.exit_code == 0
    for flag in ("--verbose", "-v", "--quiet", "-q"):
        assert flag in r.output

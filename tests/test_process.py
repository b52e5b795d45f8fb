"""Process-wide settings the CLI applies at start (lemmaforge/process.py)."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from lemmaforge.process import GC_THRESHOLDS, tune_garbage_collector


@pytest.fixture
def restore_gc():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_collections_become_rarer_never_more_frequent(restore_gc) -> None:
    gc.set_threshold(700, 10, 10)
    tune_garbage_collector()
    assert gc.get_threshold() == GC_THRESHOLDS
    gc.set_threshold(10 * GC_THRESHOLDS[0], 100, 100)  # a process that already chose rarer ones
    tune_garbage_collector()
    assert gc.get_threshold() == (10 * GC_THRESHOLDS[0], 100, 100)
    gc.set_threshold(0)  # collection off: left off
    tune_garbage_collector()
    assert gc.get_threshold()[0] == 0


def test_the_command_line_applies_it_at_start() -> None:
    code = ("import gc, sys; from lemmaforge import cli; sys.argv = ['lemmaforge', '--version']\n"
            "try:\n    cli.main()\nexcept SystemExit:\n    pass\nprint(gc.get_threshold())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == str(GC_THRESHOLDS)

"""`--json` stdout carries only JSON: while a command works, whatever Python code, libraries and
child processes (Ray's workers and raylet inherit file descriptor 1) write to stdout goes to
stderr (`cli.common.stdout_to_stderr`)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

SCRIPT = r"""
import json, os, subprocess, sys
from lemmaforge.cli.common import stdout_to_stderr
with stdout_to_stderr(True):
    print("a library's print")
    os.write(1, b"a raw write to fd 1\n")
    subprocess.run([sys.executable, "-c", "print('(raylet) a dead worker said this')"], check=True)
with stdout_to_stderr(False):
    pass
sys.stdout.write(json.dumps({"ok": True}) + "\n")
"""


@pytest.mark.slow
def test_everything_but_the_json_goes_to_stderr():
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"ok": True}
    for line in ("a library's print", "a raw write to fd 1", "(raylet) a dead worker said this"):
        assert line in r.stderr

"""tests/processes.py: the child's SIGINT is what the test asks for, whatever pytest inherited."""

from __future__ import annotations

import subprocess

import pytest

from tests.conftest import REPO_ROOT
from tests.processes import python_child

SHOW = "import signal; print('ignored' if signal.getsignal(signal.SIGINT) == signal.SIG_IGN else 'default')"


@pytest.mark.parametrize("outer", ["default", "ignored"])
def test_the_child_gets_the_sigint_disposition_asked_for_whatever_its_parent_has(outer):
    # the parent itself is started both ways: as from a terminal and as a script's background job
    inner = ("from tests.processes import python_child; "
             f"[python_child(['-c', {SHOW!r}], sigint=s).wait() for s in ('default', 'ignored', 'default')]")
    proc = python_child(["-c", f"{SHOW}; {inner}"], sigint=outer, stdout=subprocess.PIPE, text=True, cwd=REPO_ROOT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert out.split() == [outer, "default", "ignored", "default"]

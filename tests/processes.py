"""Starting a Python child whose SIGINT disposition the test states, not the shell that ran pytest.

A process inherits an ignored SIGINT from its parent (POSIX: a non-interactive shell starts each
`command &` with SIGINT and SIGQUIT ignored, so pytest run in the background of a script or CI job
ignores them, and so does every child it starts), and Python then leaves SIGINT ignored: asyncio
installs no Ctrl-C handler and a SIGINT the test sends does nothing. `pytest` in a terminal's
foreground has SIGINT at its default. A test of Ctrl-C behaviour therefore says which of the two
worlds it runs in: `sigint="default"` is a foreground job (Ctrl-C reaches it), `sigint="ignored"` a
script's background job. The child is started through `python -c` that sets the disposition and
`exec`s the real command in the same process (same pid, so signals sent to `proc.pid` reach it):
no `preexec_fn`, which is unsafe in a test process that runs server threads.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any, Literal

_TRAMPOLINE = (
    "import os, signal, sys; signal.signal(signal.SIGINT, getattr(signal, sys.argv[1])); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[2:]])"
)


def python_child(args: list[str], *, sigint: Literal["default", "ignored"], **popen: Any) -> subprocess.Popen:
    """`subprocess.Popen([sys.executable, *args], **popen)` with SIGINT at its default (`"default"`)
    or ignored (`"ignored"`) in the child, whatever the test process has."""
    disposition = {"default": "SIG_DFL", "ignored": "SIG_IGN"}[sigint]
    return subprocess.Popen([sys.executable, "-c", _TRAMPOLINE, disposition, *args], **popen)


"""SIGTERM and SIGHUP stop a command as Ctrl-C does, and exit 128 + the signal's number.

`timeout`, Slurm and Kubernetes stop a job with SIGTERM; a closed terminal sends SIGHUP. Left to
Python's defaults both kill the process at once: the run stays `running` in the store forever and
the LLM calls the server answered have no rows. Here each is handed to whatever handles SIGINT at
that moment (asyncio's runner cancels the main task; outside it Python raises KeyboardInterrupt),
so every command's own Ctrl-C path runs: it stops, records the run as cancelled with what was
answered, prints the run id. `main` then turns the interrupted exit (130) into 143 (SIGTERM) or
129 (SIGHUP), as a shell reports a process killed by that signal.
"""

from __future__ import annotations

import signal
from types import FrameType

from lemmaforge.errors import ExitCode

HANDLED = (signal.SIGTERM, signal.SIGHUP)
_received: list[int] = []  # the first signal that stopped the command


def install() -> None:
    """Route SIGTERM and SIGHUP to the SIGINT path (main thread only, where signals arrive)."""
    for sig in HANDLED:
        signal.signal(sig, _as_interrupt)


def settled() -> None:
    """The command is over: a signal that comes while the process exits changes nothing. Python
    resets the handlers it installed to the default while it finalizes, so a SIGTERM then would
    kill a process that has finished and printed its result (exit -15 instead of its own code);
    an ignored signal stays ignored."""
    for sig in HANDLED:
        signal.signal(sig, signal.SIG_IGN)


def _as_interrupt(signum: int, frame: FrameType | None) -> None:
    if not _received:
        _received.append(signum)
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler) and handler is not signal.default_int_handler:
        handler(signal.SIGINT, frame)  # e.g. asyncio.run's: cancels the main task, then KeyboardInterrupt
        return
    raise KeyboardInterrupt


def received() -> int | None:
    return _received[0] if _received else None


def exit_code(code: object) -> object:
    """The process exit code for a command that ended with `code`: an interrupted one that a
    signal stopped exits 128 + that signal."""
    sig = received()
    if sig is not None and code == ExitCode.INTERRUPTED:
        return 128 + sig
    return code

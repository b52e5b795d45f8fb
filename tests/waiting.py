"""Waiting for an event in a test without betting on how fast the machine is.

A test that sleeps "long enough" and then asserts fails on a busy machine; one that polls for the
condition it needs passes as soon as the condition holds. The limits here are only a does-not-hang
bound (a minute unless told), never a measurement: on an idle machine the conditions hold in
milliseconds. These two polls are the suite's sanctioned way to wait for something that happens
in another thread or process (`tests/test_layout.py` counts every other wall-clock sleep).
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Callable

HANG_LIMIT = 60.0  # seconds; far above any wait a correct program makes in these tests


def _gone(proc: subprocess.Popen | None, what: str) -> str | None:
    if proc is None or proc.poll() is None:
        return None
    out, err = proc.communicate()
    return f"the process exited ({proc.returncode}) before {what}: {out!r} {err!r}"


async def until(condition: Callable[[], object], *, what: str = "", limit: float = HANG_LIMIT,
                proc: subprocess.Popen | None = None) -> None:
    """Yield to the event loop until `condition()` is true (AssertionError after `limit` s of the
    loop's clock: virtual time in a looptime test, the wall clock otherwise; at once if `proc`, a
    process the condition depends on, has exited)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not condition():
        assert (gone := _gone(proc, what or str(condition))) is None, gone
        assert loop.time() < deadline, f"still waiting after {limit:g} s: {what or condition}"
        await asyncio.sleep(0.005)


def until_sync(condition: Callable[[], object], *, what: str = "", limit: float = HANG_LIMIT,
               proc: subprocess.Popen | None = None) -> None:
    """`until` for code outside an event loop (threads, subprocesses)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert (gone := _gone(proc, what or str(condition))) is None, gone
        assert time.monotonic() < deadline, f"still waiting after {limit:g} s: {what or condition}"
        time.sleep(0.01)

"""Waiting for an event in a test without betting on how fast the machine is.

A test that sleeps "long enough" and then asserts fails on a busy machine; one that polls for the
condition it needs passes as soon as the condition holds. The limits here are only a does-not-hang
bound (a minute), never a measurement: on an idle machine the conditions hold in milliseconds.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

HANG_LIMIT = 60.0  # seconds; far above any wait a correct program makes in these tests


async def until(condition: Callable[[], object], *, what: str = "", limit: float = HANG_LIMIT) -> None:
    """Yield to the event loop until `condition()` is true (AssertionError after `limit` s of the
    loop's clock: virtual time in a looptime test, the wall clock otherwise)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not condition():
        assert loop.time() < deadline, f"still waiting after {limit:g} s: {what or condition}"
        await asyncio.sleep(0.005)


def until_sync(condition: Callable[[], object], *, what: str = "", limit: float = HANG_LIMIT) -> None:
    """`until` for code outside an event loop (threads, subprocesses)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, f"still waiting after {limit:g} s: {what or condition}"
        time.sleep(0.01)

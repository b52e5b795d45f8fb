"""The requests to backends now in flight, process-wide, and which of them have stalled.

Every request has a total deadline (`lemmaforge.agent.backends.openai_compat`,
`lemmaforge.lean.kimina`); passing it is the backend's failure. A wall-time budget shorter than
that deadline may run out first, while the search waits on a server that sent its headers and
then trickles the body. That is not the model's failure either: the search asks `stalled_at` what
it was waiting on, and a stalled backend stops the run as unavailable (a resumed bench redoes it).

A request is *stalled* when its server has answered the headers and then not delivered the rest
in time: a plain JSON body is sent at network speed once generation is done (`vllm serve` sends
headers and body together), so a body still incomplete `BODY_STALL_S` after its headers is a
stall; a streamed response is stalled when no event came for `STREAM_STALL_S`. A server that has
not answered the headers yet may be generating: only the deadline can tell.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from lemmaforge.errors import BackendUnavailable

BODY_STALL_S = 1.0
STREAM_STALL_S = 30.0
STALL_POLL_S = 0.25  # how often a wall-bounded wait looks for a stall once its budget has run out

T = TypeVar("T")


class StalledBackend(BackendUnavailable):
    """The wall-time budget ran out while a backend trickled an answer: the backend's failure."""


@dataclass(eq=False, slots=True)
class Wait:
    backend: str  # e.g. "LLM endpoint http://host/v1 (model m)" / "Kimina server at http://…"
    streamed: bool
    started: float
    headers_at: float | None = None
    last_progress: float | None = None

    def headers(self) -> None:
        self.headers_at = self.last_progress = time.monotonic()

    def progress(self) -> None:
        self.last_progress = time.monotonic()

    def stalled_for(self, now: float) -> float | None:
        """Seconds this request has been stalled at `now`, or None."""
        if self.headers_at is None:
            return None
        if self.streamed:
            gap = now - (self.last_progress or self.headers_at)
            return gap if gap >= STREAM_STALL_S else None
        gap = now - self.headers_at
        return gap if gap >= BODY_STALL_S else None


@dataclass(frozen=True, slots=True)
class Stall:
    backend: str
    seconds: float  # stalled for
    at: float  # monotonic time it was seen

    def error(self, budget: float) -> StalledBackend:
        return StalledBackend(
            f"answered the headers, then no complete answer for {self.seconds:.0f} s; the wall time budget "
            f"({budget:g} s) ran out waiting on it", backend=self.backend,
            fix="fix or restart the server, then run again (a bench: --resume redoes the attempt)",
        )


_lock = threading.Lock()
_open: set[Wait] = set()
_cut: deque[Stall] = deque(maxlen=256)  # stalled requests cancelled (by a wall budget running out)


@contextmanager
def waiting(backend: str, *, streamed: bool = False) -> Iterator[Wait]:
    """Register one request for as long as it is in flight."""
    wait = Wait(backend, streamed, time.monotonic())
    with _lock:
        _open.add(wait)
    try:
        yield wait
    except asyncio.CancelledError:
        now = time.monotonic()
        gap = wait.stalled_for(now)
        if gap is not None:
            with _lock:
                _cut.append(Stall(wait.backend, gap, now))
        raise
    finally:
        with _lock:
            _open.discard(wait)


def stalled_at(since: float) -> Stall | None:
    """The longest stall among requests still in flight, or cancelled at or after `since`
    (monotonic): what a wall budget that ran out at `since` was waiting on."""
    now = time.monotonic()
    with _lock:
        found = [s for s in _cut if s.at >= since]
        for wait in _open:
            gap = wait.stalled_for(now)
            if gap is not None:
                found.append(Stall(wait.backend, gap, now))
    return max(found, key=lambda s: s.seconds, default=None)


async def within_wall(aw: Awaitable[T], wall_seconds: float) -> T:
    """`aw`'s result, bounded like the search's requests: once `wall_seconds` have passed, a
    request in flight that has stalled (`stalled_at`: a server that sent its headers and trickles
    its body) ends the wait: `aw` is cancelled and the stall's `StalledBackend` raised, naming the
    endpoint. A request that has not stalled is waited for (its own deadline bounds it), as the
    search's budget does not blame a server for being slow to answer.

    For the work before any search: a bench's statement checks, `prove`'s preflight."""
    task = asyncio.ensure_future(aw)
    started = time.monotonic()
    try:
        done, _ = await asyncio.wait({task}, timeout=wall_seconds)
        while not done:
            stall = stalled_at(started)
            if stall is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
                raise stall.error(wall_seconds)
            done, _ = await asyncio.wait({task}, timeout=STALL_POLL_S)
    except asyncio.CancelledError:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        raise
    return task.result()

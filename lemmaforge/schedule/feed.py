"""A model request's candidates as each sample completes, before the request answers.

Why: a prover request carries n samples (one request, `n = 8`), and their lengths vary a lot
(DeepSeek-Prover-V2's outputs: hundreds to thousands of tokens). Waiting for the request to
answer is waiting for its longest sample; a streaming backend hands each sample over as it
finishes (`LLM.generate(on_sample=…)`, `Prover.prove(on_candidate=…)`), and the search checks it
at once — on a run's tail, where each search is one dependent chain, the first sample that proves
a goal moves the chain on while its siblings are still decoding (and the race, once won, aborts
them: the GPU is freed too). A prover that does not stream tells every candidate when its request
answers; the search treats both alike.

`CandidateFeed` keeps what arrived (a listener that comes later — the race taking a request that
was started ahead of need — is told those first) and how long after the request started each
came. `FedRequest` is the request's maker (`ahead.MakeRequest`) with its feed: the same feed
whichever of the started-ahead request or the one made when needed is the one that runs.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable, Sequence

from lemmaforge.search.interfaces import CandidateLike

Listener = Callable[[CandidateLike, float], None]  # (candidate, seconds since the request started)


class CandidateFeed:
    """The candidates of one model request in their order of arrival."""

    __slots__ = ("arrived", "started", "_listeners")

    def __init__(self) -> None:
        self.arrived: list[tuple[CandidateLike, float]] = []
        self.started: float | None = None
        self._listeners: list[tuple[Listener, contextvars.Context]] = []

    def push(self, candidate: CandidateLike) -> None:
        seconds = asyncio.get_running_loop().time() - self.started if self.started is not None else 0.0
        self.arrived.append((candidate, seconds))
        for listener, context in list(self._listeners):
            context.run(listener, candidate, seconds)

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Tell `listener` every candidate that arrived and will arrive; returns how to stop.

        The listener runs in the context it listened from, not in the request's task: the checks
        it starts are ordered by the listening search's and goal's context variables
        (schedule/order.py)."""
        for candidate, seconds in list(self.arrived):
            listener(candidate, seconds)
        entry = (listener, contextvars.copy_context())
        self._listeners.append(entry)

        def stop() -> None:
            if entry in self._listeners:
                self._listeners.remove(entry)

        return stop


class FedRequest:
    """Makes a request's coroutine (`make(on_candidate)`) whose candidates arrive on `feed`."""

    __slots__ = ("feed", "_make")

    def __init__(self, make: Callable[[Callable[[CandidateLike], None]], Awaitable[Sequence[object]]]) -> None:
        self.feed = CandidateFeed()
        self._make = make

    def __call__(self) -> Awaitable[Sequence[object]]:
        self.feed.started = asyncio.get_running_loop().time()
        return self._make(self.feed.push)

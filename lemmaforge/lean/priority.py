"""The place a Lean check waits in, as lean/ sees it: an opaque order key handed in with each check.

Why an order at all: a bench runs many searches at once and, when Lean is the busier resource,
their checks queue (lean/check_queue.py: the Kimina batcher's and the REPL pool's one queue). Which
check goes first is the scheduler's policy (lemmaforge/schedule/order.py: the searches that went
deepest first, a race's later candidates and a sketch's later holes held behind earlier ones);
lean/ only needs to compare two keys and to hear when held work may go. So a caller that knows a
check's place passes an `OrderKey` with it (`check(code, order=…)`: the search's budgeted door,
search/budget.py, asks its schedule for one as each check is about to go), and a check without one
is `UNORDERED` — a fresh search's place, held by nothing (a statement check, a training reward, the
plain schedule's checks).

lean/ imports nothing of the scheduler: this Protocol is the whole of what crosses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

SortKey = tuple[int, ...]  # compared as tuples: smaller is served first

# The order is a preference, not a licence to starve: a check that has waited this long is served
# next whatever its key (a search kept waiting forever would run out its wall-time budget and be
# counted "not proved" for the scheduler's sake). Generous, so that it only bounds the worst case:
# a Mathlib check takes seconds.
MAX_WAIT_SECONDS = 300.0


class OrderKey(Protocol):
    """A check's place in a check queue, given by whoever submits the check."""

    @property
    def key(self) -> SortKey:
        """Its place among the checks that may go now (fixed while it waits)."""

    def held(self) -> SortKey | None:
        """None: it may go now. Otherwise it is held (speculative work behind earlier work that is
        still open) and goes only when Lean has room, in this order among the held; the answer
        changes only after `watch`'s listener is told."""

    def watch(self, moved: Callable[[], None]) -> Callable[[], None]:
        """Tell `moved` each time `held()` may have changed (while it is held); returns how to stop."""


def _never_moves() -> None:
    return None


@dataclass(frozen=True, slots=True)
class Unordered:
    """The order of a check given none: a fresh search's key, never held."""

    key: SortKey = (0, 0, 0, 0)

    def held(self) -> SortKey | None:
        return None

    def watch(self, moved: Callable[[], None]) -> Callable[[], None]:
        return _never_moves


UNORDERED = Unordered()


class LeanIdle:
    """"A check queue has a free place and nothing left to send": an event of one queue
    (`CheckQueue.idle`), heard by work that waits for Lean to have room (schedule/order.py
    `until_next_in_line`). A verifier without a queue hands out one that is never fired."""

    __slots__ = ("_listeners",)

    def __init__(self) -> None:
        self._listeners: set[Callable[[], None]] = set()

    def __bool__(self) -> bool:  # whether anyone listens
        return bool(self._listeners)

    def listen(self, listener: Callable[[], None]) -> None:
        self._listeners.add(listener)

    def forget(self, listener: Callable[[], None]) -> None:
        self._listeners.discard(listener)

    def fire(self) -> None:
        for listener in list(self._listeners):
            listener()


__all__ = ["MAX_WAIT_SECONDS", "UNORDERED", "LeanIdle", "OrderKey", "SortKey", "Unordered"]

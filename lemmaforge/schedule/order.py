"""Which waiting Lean check goes first when the verifier is the bottleneck: the schedule's order.

Why: a bench runs many searches at once and, when Lean is the busier resource, their checks queue.
Served first-come-first-served, every search is slowed alike, so the hard searches — the ones that
went deep and still have a long chain of dependent steps ahead (sketch → lemma → prover → assembly
at each level, then the whole-file audit) — finish last, in a near-empty system that leaves Lean
workers idle. Serving the checks of the searches that went deepest first keeps those chains moving
at unqueued speed while the shallow searches, which have slack, absorb the waiting: the same work,
a shorter run (the longest-remaining-chain-first rule of makespan scheduling, with depth reached
as the observable proxy for the chain ahead).

Speculative work is held, not just ordered (`Siblings`). Two kinds of siblings make work that can
be lost: a race's candidates (only one is needed: a candidate checked while an earlier one is still
unanswered is wasted when another wins) and a sketch's holes (the sketch needs them all: the work on
a hole is wasted when a sibling fails). A check that was sent runs to the end even when nobody wants
it any more (aborting one costs Kimina the REPL), so that waste is Lean time. So the k-th sibling's
checks wait while `window` earlier siblings are still open — a candidate until the earlier
candidates have failed, a hole until the earlier holes are solved — along the whole path from the
root (a hole's subtree is held with it). Held work is released ahead of that only when Lean has
room: when no check that is not held is waiting (a queue with nothing certain to run speculates
rather than idle; the tail of a run, where few searches are left, is where that shortens the
wall): work held only by a sketch's holes before work a race holds back (`held_order`), then the
least held first. The window trades Lean time lost to speculation against the length of a search
(held work runs one sibling at a time); the measured choices are in docs/performance.md,
"Check queue".

Among the checks that are not held: less speculative first (a sketch's later hole counts as
speculation, summed along the path from the root), then deepest search, deepest goal, oldest search.

The key and the sibling path are set by the speculative schedule (schedule/layers.py) in context
variables (`search_scope` around each search, `at_depth` on each goal's task, `join` on each
candidate's and each hole's task) and read ONCE per check, as the search's door is about to send
it (`Speculative.order` → `order_now`), into a `CheckOrder` that travels with the request to the
check queue (lean/check_queue.py) as its opaque `lean.priority.OrderKey`. Checks made outside a
search (a statement check, a training reward) and the plain schedule's carry none: the queue gives
them a fresh search's key (`lean.priority.UNORDERED`), held by nothing.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from lemmaforge.lean.priority import LeanIdle, SortKey

Priority = tuple[int, int, int, int]  # smaller is served first

_run_order = itertools.count()


@dataclass(slots=True)
class SearchProgress:
    """One search's position in the queue order: how deep it has gone, when it started."""

    order: int
    deepest: int = 0


_search: ContextVar[SearchProgress | None] = ContextVar("lemmaforge_search_progress", default=None)
_depth: ContextVar[int] = ContextVar("lemmaforge_goal_depth", default=0)
SiblingPath = tuple[tuple["Siblings", int], ...]  # (group, rank) from the root down
_siblings: ContextVar[SiblingPath] = ContextVar("lemmaforge_siblings", default=())
_holes: ContextVar[int] = ContextVar("lemmaforge_hole_path", default=0)  # hole indices from the root


@contextmanager
def search_scope() -> Iterator[SearchProgress]:
    """Within: the current task (and the tasks it creates) work for one new search."""
    progress = SearchProgress(next(_run_order))
    tokens = _search.set(progress), _depth.set(0), _siblings.set(()), _holes.set(0)
    try:
        yield progress
    finally:
        _search.reset(tokens[0])
        _depth.reset(tokens[1])
        _siblings.reset(tokens[2])
        _holes.reset(tokens[3])


def at_depth(depth: int, hole_index: int = 0) -> None:
    """The current task (a goal's own, created by its parent's) works on a goal at `depth`, the
    `hole_index`-th hole of its sketch; the search has now gone at least that deep."""
    _depth.set(depth)
    _holes.set(_holes.get() + hole_index)
    progress = _search.get()
    if progress is not None and depth > progress.deepest:
        progress.deepest = depth


class Siblings:
    """Ranked siblings — a race's candidates by arrival, a sketch's holes by position. Rank k is
    held while `window` or more earlier ranks are still open (1: while any is); `listen` tells a
    queue when that may have changed, so that it can release what it holds."""

    __slots__ = ("_listeners", "_open", "kind", "window")

    def __init__(self, window: int = 1, *, kind: str = "") -> None:
        if window < 1:
            raise ValueError("a sibling window must be >= 1")
        self.window = window
        # What the group is ("race": a goal's candidates, "holes": a sketch's holes), for whoever
        # measures the work: e.g. the benchmark's accounting of a race's candidates.
        self.kind = kind
        self._open: set[int] = set()
        self._listeners: set[Callable[[Siblings], None]] = set()

    def enter(self, rank: int) -> None:
        """Rank `rank` exists and is open (call before its task starts, so that a later rank whose
        task runs first still finds it open)."""
        self._open.add(rank)

    def leave(self, rank: int) -> None:
        """Rank `rank` no longer holds later ones (a candidate answered, a hole was solved)."""
        self._open.discard(rank)
        self._changed()

    def end(self) -> None:
        """The group is over (a race won or all answered, a sketch solved or abandoned): nothing is
        held by it any more (a task cancelled before it ran never left)."""
        self._open.clear()
        self._changed()

    def holds(self, rank: int) -> bool:
        if len(self._open) < self.window:
            return False  # fewer open than the window: nothing can be held (no count needed)
        return self.open_before(rank) >= self.window

    def open_before(self, rank: int) -> int:
        """How many earlier ranks are still open."""
        return sum(1 for r in self._open if r < rank)

    def listen(self, listener: Callable[[Siblings], None]) -> None:
        self._listeners.add(listener)

    def forget(self, listener: Callable[[Siblings], None]) -> None:
        self._listeners.discard(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener(self)


def join(group: Siblings, rank: int) -> None:
    """The current task (and the tasks it creates) works for the `rank`-th sibling of `group`: its
    checks are held while an earlier sibling is open, unless Lean has room."""
    _siblings.set((*_siblings.get(), (group, rank)))


def current_siblings() -> SiblingPath:
    """The (group, rank) pairs of a check submitted now, from the root down (empty outside)."""
    return _siblings.get()


def held(path: SiblingPath) -> bool:
    """Whether a check on `path` is held now (an earlier sibling somewhere on it is open)."""
    return any(group.holds(rank) for group, rank in path)


def next_in_line(path: SiblingPath) -> bool:
    """Whether work on `path` is due or one sibling away from it: on every group, at most its
    window of earlier ranks open (held at most by the sibling running now)."""
    return all(group.open_before(rank) <= group.window for group, rank in path)


async def until_next_in_line(path: SiblingPath, *, or_when: Callable[[], bool] | None = None,
                             idle: LeanIdle | None = None) -> None:
    """Wait until `next_in_line(path)`: the moment to start what this work will need first (a
    model request takes about as long as the sibling ahead of it), without starting it for every
    later sibling of a sketch that is often abandoned before their turn. With `or_when` and `idle`
    (the verifier's own "Lean has room" event, `QueuedVerifier.idle`), also stop waiting when that
    event fires and `or_when()` holds: at the end of a run, when the few searches left cannot keep
    Lean busy, their later siblings' requests are what the idle workers will check next."""
    if next_in_line(path):
        return
    moved = asyncio.Event()
    idled = False

    def wake(_group: Siblings) -> None:
        moved.set()

    def wake_idle() -> None:
        nonlocal idled
        idled = True
        moved.set()

    groups = {group for group, _ in path}
    for group in groups:
        group.listen(wake)
    event = idle if or_when is not None else None
    if event is not None:
        event.listen(wake_idle)
    try:
        while not next_in_line(path):
            if idled and or_when is not None and or_when():
                return
            idled = False
            moved.clear()
            await moved.wait()
    finally:
        for group in groups:
            group.forget(wake)
        if event is not None:
            event.forget(wake_idle)


def held_rank(path: SiblingPath) -> int:
    """How speculative held work on `path` is: its ranks summed."""
    return sum(rank for _, rank in path)


def held_order(path: SiblingPath, key: Priority) -> SortKey:
    """Which held check goes first when Lean has room: one held by a sketch's holes alone before one
    a race holds back, then the least speculative (`held_rank`), then by key.

    Why the kind first: a race needs ONE candidate, a sketch needs ALL its holes. Held work of a
    later hole is lost only if an earlier hole fails (rare: a sketch's holes are mostly provable),
    while a later candidate checked beside an earlier one is lost whenever an earlier one wins
    (measured: docs/performance.md, "Check queue")."""
    races = sum(1 for group, rank in path if group.kind == "race" and group.holds(rank))
    return (races, held_rank(path), *key)


def current_search() -> SearchProgress | None:
    """The search the current task works for (None outside one): e.g. to tell one search's checks
    and model requests from another's when measuring where its time went."""
    return _search.get()


def current() -> Priority:
    """The key of a check submitted now: least speculative first (a sketch's later hole, summed
    along the path from the root), then deepest search, deepest goal, oldest search. (Whether a
    check is held is apart: `held`.)"""
    progress = _search.get()
    speculation = _holes.get()
    if progress is None:
        return (speculation, 0, 0, 0)
    return (speculation, -progress.deepest, -_depth.get(), progress.order)


@dataclass(frozen=True, slots=True)
class CheckOrder:
    """A check's place in a queue, carried with the request (a `lean.priority.OrderKey`): its key
    (`current`) and the sibling groups that may hold it (`current_siblings`)."""

    key: Priority = (0, 0, 0, 0)
    path: SiblingPath = ()

    def held(self) -> SortKey | None:
        """None when no group on its path holds it; else its `held_order`."""
        path = self.path
        if not path or not held(path):
            return None
        return held_order(path, self.key)

    def watch(self, moved: Callable[[], None]) -> Callable[[], None]:
        """Listen on the groups that hold it now (a group holds work less over time, never more:
        enough to listen to these); `moved` is told each time one of them lets it go."""
        return _Watch(self.path, moved).stop


class _Watch:
    """One held check's listener on the groups holding it."""

    __slots__ = ("groups", "moved")

    def __init__(self, path: SiblingPath, moved: Callable[[], None]) -> None:
        self.moved = moved
        self.groups: dict[Siblings, int] = {}
        for group, rank in path:
            if group.holds(rank):
                self.groups[group] = rank
                group.listen(self._changed)

    def _changed(self, group: Siblings) -> None:
        rank = self.groups.get(group)
        if rank is None or group.holds(rank):
            return  # (an answer that frees nobody earlier than this check)
        del self.groups[group]
        group.forget(self._changed)
        self.moved()

    def stop(self) -> None:
        for group in self.groups:
            group.forget(self._changed)
        self.groups.clear()


def order_now() -> CheckOrder:
    """The order of a check submitted now, read from the context once (the one place a queue's
    order comes from within a speculative search)."""
    return CheckOrder(current(), _siblings.get())


__all__ = [
    "CheckOrder", "Priority", "SearchProgress", "SiblingPath", "Siblings", "at_depth", "current",
    "current_search", "current_siblings", "held", "held_order", "held_rank", "join", "next_in_line",
    "order_now", "search_scope", "until_next_in_line",
]

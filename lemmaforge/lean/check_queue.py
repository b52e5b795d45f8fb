"""The one queue of Lean checks waiting for a place: the Kimina batcher's and the REPL pool's.

Policy: each check comes with an opaque `lean.priority.OrderKey` (its submitter's: the search's
schedule, schedule/order.py; `UNORDERED` when none). A waiting check goes in `key` order, then
arrival; one that is `held()` (speculative work behind earlier work still open) waits apart and
goes only when the owner says Lean has room, in its held order; one that has waited
`priority.MAX_WAIT_SECONDS` (on the event loop's clock) goes first whatever its key. A check is
released from the held set the moment its key says it moved (the queue `watch`es each held key),
so a release costs the held work it frees only.

Lanes: checks that cannot share a place are queued apart — the REPL pool's by file header (a
worker serves one header), the batcher's by timeout (one request has one). The owner picks the
lane; the order inside a lane is this module's.

Every operation is O(log n) in the checks of its lane: two indexed heaps per lane (certain work,
held work) that support removing and re-keying an entry in place, so no stale entry is ever left
behind, and an arrival-ordered dict per lane for the anti-starvation rule.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Any, Generic, TypeVar

from lemmaforge.lean import priority
from lemmaforge.lean.priority import UNORDERED, LeanIdle, OrderKey

T = TypeVar("T")


def _now() -> float:
    """The event loop's clock (time.monotonic() outside one): what a check's wait is measured on."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


def _stay() -> None:
    return None


class Ticket(Generic[T]):
    """A check's place in a `CheckQueue` while it waits: `value` is the owner's (a batcher item, a
    pool waiter)."""

    __slots__ = ("_heap", "_pos", "_sort", "_unwatch", "arrival", "held", "lane", "order", "queued_at",
                 "speculated", "value", "waiting")

    def __init__(self, value: T, lane: Hashable, order: OrderKey, arrival: int, queued_at: float) -> None:
        self.value = value
        self.lane = lane
        self.order = order
        self.arrival = arrival
        self.queued_at = queued_at  # the event loop's time
        self.held = False  # waits with the held work (its order says so)
        self.speculated = False  # taken while held (Lean had room)
        self.waiting = True  # still in the queue
        self._unwatch: Callable[[], None] = _stay  # stops listening to its order while held
        self._heap: _Heap | None = None
        self._pos = -1
        self._sort: tuple[Any, ...] = ()


class _Heap:
    """A binary min-heap of tickets by `Ticket._sort` that knows each ticket's position, so that
    a ticket can leave (cancelled, released) or move (re-keyed) in O(log n) without leaving a
    stale entry."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[Ticket[Any]] = []

    def __len__(self) -> int:
        return len(self.items)

    def first(self) -> Ticket[Any] | None:
        return self.items[0] if self.items else None

    def push(self, ticket: Ticket[Any], sort: tuple[Any, ...]) -> None:
        ticket._sort, ticket._heap, ticket._pos = sort, self, len(self.items)
        self.items.append(ticket)
        self._up(ticket._pos)

    def remove(self, ticket: Ticket[Any]) -> None:
        index, last = ticket._pos, self.items.pop()
        ticket._heap, ticket._pos = None, -1
        if last is not ticket:
            self.items[index], last._pos = last, index
            self._down(index)
            self._up(last._pos)

    def resort(self, ticket: Ticket[Any], sort: tuple[Any, ...]) -> None:
        ticket._sort = sort
        self._down(ticket._pos)
        self._up(ticket._pos)

    def _up(self, index: int) -> None:
        items, ticket = self.items, self.items[index]
        while index > 0:
            parent = (index - 1) >> 1
            if not ticket._sort < items[parent]._sort:
                break
            items[index] = items[parent]
            items[index]._pos = index
            index = parent
        items[index], ticket._pos = ticket, index

    def _down(self, index: int) -> None:
        items, size, ticket = self.items, len(self.items), self.items[index]
        while True:
            child = 2 * index + 1
            if child >= size:
                break
            if child + 1 < size and items[child + 1]._sort < items[child]._sort:
                child += 1
            if not items[child]._sort < ticket._sort:
                break
            items[index] = items[child]
            items[index]._pos = index
            index = child
        items[index], ticket._pos = ticket, index


class _Lane:
    __slots__ = ("arrived", "certain", "held")

    def __init__(self) -> None:
        self.certain = _Heap()  # by (key, arrival)
        self.held = _Heap()  # by (its order's held(), arrival)
        self.arrived: OrderedDict[Ticket[Any], None] = OrderedDict()  # the oldest first

    def __len__(self) -> int:
        return len(self.arrived)


class CheckQueue(Generic[T]):
    """Waiting checks in lanes, in the order of their keys, with held speculative work apart.

    `on_release` is called when held work joins the certain work (an earlier sibling settled), so
    that an owner with free places can send it. `idle` is this queue's "Lean has room" event:
    the owner calls `report_idle` when it has a free place and nothing left to send."""

    def __init__(self, *, on_release: Callable[[], None] | None = None) -> None:
        self._lanes: dict[Hashable, _Lane] = {}
        self._arrivals = itertools.count()
        self._certain = 0
        self._held = 0
        self._on_release = on_release
        self.idle = LeanIdle()

    # --- counts -----------------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._certain + self._held

    @property
    def counts(self) -> tuple[int, int]:
        """(certain checks waiting, held checks waiting)."""
        return self._certain, self._held

    def lane_size(self, lane: Hashable) -> int:
        found = self._lanes.get(lane)
        return len(found) if found is not None else 0

    def lane_sizes(self) -> Iterator[tuple[Hashable, int]]:
        return ((lane, len(found)) for lane, found in self._lanes.items())

    # --- in and out -------------------------------------------------------------------------------

    def put(self, value: T, order: OrderKey | None = None, *, lane: Hashable = None) -> Ticket[T]:
        """`value` waits in `lane` in `order` (None: `UNORDERED`)."""
        if order is None:
            order = UNORDERED
        ticket = Ticket(value, lane, order, next(self._arrivals), _now())
        found = self._lanes.get(lane)
        if found is None:
            found = self._lanes[lane] = _Lane()
        found.arrived[ticket] = None
        held = order.held()
        if held is not None:
            self._hold(ticket, found, held)
        else:
            found.certain.push(ticket, (order.key, ticket.arrival))
            self._certain += 1
        return ticket

    def discard(self, ticket: Ticket[T]) -> None:
        """`ticket` leaves without being served (its caller went away); nothing if it already left."""
        if ticket.waiting:
            self._leave(ticket)

    def first(self, lane: Hashable, *, held_too: bool = True) -> Ticket[T] | None:
        """The ticket `lane` serves next: the oldest if it waited past `priority.MAX_WAIT_SECONDS`,
        else the first certain one, else (`held_too`: Lean has room for it) the first held one."""
        found = self._lanes.get(lane)
        if found is None:
            return None
        oldest = next(iter(found.arrived))
        if oldest.queued_at <= _now() - priority.MAX_WAIT_SECONDS:
            return oldest
        first = found.certain.first()
        if first is None and held_too:
            first = found.held.first()
        return first

    def pop(self, lane: Hashable, *, held_too: bool = True) -> Ticket[T] | None:
        """`first(lane)`, taken out of the queue (`speculated` when it was still held)."""
        ticket = self.first(lane, held_too=held_too)
        if ticket is not None:
            ticket.speculated = ticket.held
            self._leave(ticket)
        return ticket

    def best_lane(self) -> Hashable | None:
        """The lane of the ticket to serve next over all lanes (the batcher's single line): an
        overdue one, oldest first; else the first certain one; else, when no certain work waits,
        the first held one. None when nothing waits."""
        if not self._lanes:
            return None
        overdue_before = _now() - priority.MAX_WAIT_SECONDS
        oldest = min((next(iter(found.arrived)) for found in self._lanes.values()), key=lambda t: t.arrival)
        if oldest.queued_at <= overdue_before:
            return oldest.lane
        heaps = [found.certain for found in self._lanes.values()] if self._certain else \
            [found.held for found in self._lanes.values()]
        firsts = [ticket for heap in heaps if (ticket := heap.first()) is not None]
        return min(firsts, key=lambda t: t._sort).lane

    def clear(self) -> list[T]:
        """Empty the queue; the values that were waiting, for the owner to cancel."""
        values = [ticket.value for found in self._lanes.values() for ticket in found.arrived]
        for found in self._lanes.values():
            for ticket in found.arrived:
                ticket._unwatch()
                ticket.waiting, ticket._heap, ticket._unwatch = False, None, _stay
        self._lanes.clear()
        self._certain = self._held = 0
        return values

    def report_idle(self) -> None:
        """The owner has a free place and nothing left to send, held work included: Lean is about
        to idle. Wakes this queue's listeners (work waiting on this verifier's `idle`) and no one
        else's."""
        self.idle.fire()

    # --- held work --------------------------------------------------------------------------------

    def _hold(self, ticket: Ticket[T], lane: _Lane, held: priority.SortKey) -> None:
        ticket.held = True
        lane.held.push(ticket, (held, ticket.arrival))
        self._held += 1
        ticket._unwatch = ticket.order.watch(lambda: self._moved(ticket))

    def _moved(self, ticket: Ticket[T]) -> None:
        """What holds `ticket` moved: it joins the certain work if nothing holds it any more, else
        it may move among the held."""
        if not (ticket.held and ticket.waiting):
            return
        lane = self._lanes[ticket.lane]
        held = ticket.order.held()
        if held is not None:  # still held by other work, which will tell when it moves
            lane.held.resort(ticket, (held, ticket.arrival))
            return
        ticket._unwatch()
        ticket._unwatch = _stay
        lane.held.remove(ticket)
        ticket.held = False
        self._held -= 1
        lane.certain.push(ticket, (ticket.order.key, ticket.arrival))
        self._certain += 1
        if self._on_release is not None:
            self._on_release()

    def _leave(self, ticket: Ticket[T]) -> None:
        lane = self._lanes[ticket.lane]
        del lane.arrived[ticket]
        assert ticket._heap is not None
        ticket._heap.remove(ticket)
        if ticket.held:
            self._held -= 1
            ticket._unwatch()
            ticket._unwatch = _stay
        else:
            self._certain -= 1
        ticket.waiting = False
        if not lane.arrived:
            del self._lanes[ticket.lane]


__all__ = ["CheckQueue", "Ticket"]

"""Waiting Lean checks leave in `lean.priority` order: the searches that went deepest first, then
the deeper goal, then the older search; checks made outside any search rank as a fresh search's."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

import pytest

from lemmaforge.lean import priority
from lemmaforge.lean.kimina_batcher import CheckBatcher
from lemmaforge.lean.verifier import CheckResult, CheckStatus


def test_outside_a_search_the_key_is_a_fresh_searchs() -> None:
    assert priority.current() == (0, 0, 0, 0)


def test_the_scope_sets_and_restores_the_key() -> None:
    with priority.search_scope() as progress:
        assert priority.current() == (0, 0, 0, progress.order)
        priority.at_depth(2)
        assert priority.current() == (0, -2, -2, progress.order)
        priority.at_depth(1)  # a shallower goal of a search that has been deeper
        assert priority.current() == (0, -2, -1, progress.order)
        priority.speculative(3)
        assert priority.current() == (3, -2, -1, progress.order)
    assert priority.current() == (0, 0, 0, 0)


def test_later_searches_rank_after_earlier_ones_at_the_same_depth() -> None:
    with priority.search_scope():
        first = priority.current()
    with priority.search_scope():
        second = priority.current()
    assert first < second


async def test_child_tasks_inherit_their_search_and_keep_their_own_depth() -> None:
    seen: dict[str, priority.Priority] = {}

    async def goal(name: str, depth: int) -> None:
        priority.at_depth(depth)
        await asyncio.sleep(0)
        seen[name] = priority.current()

    with priority.search_scope() as progress:
        await asyncio.gather(goal("a", 1), goal("b", 3))
        seen["root"] = priority.current()
    assert seen["a"] == (0, -3, -1, progress.order) and seen["b"] == (0, -3, -3, progress.order)
    assert seen["root"] == (0, -3, 0, progress.order)  # the root's own depth; the search went to 3


async def test_a_sketchs_later_holes_count_as_speculation_along_the_path() -> None:
    async def goal(depth: int, hole: int) -> tuple[priority.Priority, priority.Priority]:
        priority.at_depth(depth, hole)
        own = priority.current()
        child = await asyncio.create_task(grandchild())
        return own, child

    async def grandchild() -> priority.Priority:
        priority.at_depth(2, hole_index=1)
        return priority.current()

    with priority.search_scope():
        priority.at_depth(0)
        (first, first_child), (third, third_child) = await asyncio.gather(goal(1, 0), goal(1, 2))
    assert first[0] == 0 and third[0] == 2  # the sketch's third hole: speculation 2
    assert first_child[0] == 1 and third_child[0] == 3  # summed along the path from the root
    assert first < third


async def test_a_later_candidate_of_a_deep_search_waits_behind_any_first_candidate() -> None:
    async def candidate(rank: int, depth: int) -> priority.Priority:
        with priority.search_scope():
            priority.at_depth(depth)
            priority.speculative(rank)
            return priority.current()

    second_deep = await asyncio.create_task(candidate(1, 4))
    first_shallow = await asyncio.create_task(candidate(0, 0))
    assert first_shallow < second_deep


class HeldServer:
    """A Kimina stand-in for the batcher: records what was sent, answers once `gate` is set."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gate = asyncio.Event()

    async def send(self, codes: Sequence[str], timeout: float) -> list[CheckResult]:
        self.sent.extend(codes)
        await self.gate.wait()
        return [CheckResult(status=CheckStatus.VALID) for _ in codes]


async def test_the_batcher_sends_waiting_checks_deepest_search_first() -> None:
    server = HeldServer()
    sent, gate = server.sent, server.gate
    batcher = CheckBatcher(server.send, batch_size=1, window=0.0, max_in_flight=1)

    async def check_at(label: str, depth: int | None) -> None:
        if depth is None:
            await batcher.check(label, 10.0)
            return
        with priority.search_scope():
            priority.at_depth(depth)
            await batcher.check(label, 10.0)

    blocker = asyncio.create_task(batcher.check("first", 10.0))  # holds the only slot
    await asyncio.sleep(0.01)
    waiting = [asyncio.create_task(check_at(label, depth))
               for label, depth in [("shallow", 0), ("outside", None), ("deep", 3), ("middle", 1)]]
    await asyncio.sleep(0.01)
    gate.set()
    await asyncio.gather(blocker, *waiting)
    await batcher.close()
    # deepest search first; a check outside any search before the newer depth-0 search
    assert sent == ["first", "deep", "middle", "outside", "shallow"]


async def test_a_cancelled_waiting_check_is_skipped_in_priority_order() -> None:
    server = HeldServer()
    sent, gate = server.sent, server.gate
    batcher = CheckBatcher(server.send, batch_size=4, window=0.0, max_in_flight=1)
    blocker = asyncio.create_task(batcher.check("first", 10.0))
    await asyncio.sleep(0.01)

    async def deep(label: str) -> None:
        with priority.search_scope():
            priority.at_depth(5)
            await batcher.check(label, 10.0)

    gone = asyncio.create_task(deep("cancelled"))
    kept = asyncio.create_task(batcher.check("kept", 10.0))
    await asyncio.sleep(0.01)
    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone
    gate.set()
    await asyncio.gather(blocker, kept)
    await batcher.close()
    assert sent == ["first", "kept"] and batcher.stats.dropped_unsent == 1


async def test_the_repl_pool_hands_a_freed_worker_to_the_first_waiter_in_priority_order() -> None:
    from lemmaforge.lean.repl import ReplVerifier, Worker, _Waiter

    pool = ReplVerifier.__new__(ReplVerifier)  # only the queue logic: no processes
    pool._waiters = __import__("collections").deque()
    pool._workers = [Worker(slot=0, header="H")]
    loop = asyncio.get_running_loop()

    def waiting(rank: int, depth: int) -> _Waiter:
        with priority.search_scope():
            priority.at_depth(depth)
            priority.speculative(rank)
            waiter = _Waiter("H", None, loop.create_future(), (priority.current(), len(pool._waiters)),
                             time.monotonic())
        pool._waiters.append(waiter)
        return waiter

    older_shallow = waiting(0, 0)
    speculative_deep = waiting(2, 3)
    certain_deep = waiting(0, 2)
    assert pool._next_waiter_for(pool._workers[0]) is certain_deep
    pool._waiters.remove(certain_deep)
    assert pool._next_waiter_for(pool._workers[0]) is older_shallow
    pool._waiters.remove(older_shallow)
    assert pool._next_waiter_for(pool._workers[0]) is speculative_deep


async def test_a_check_kept_waiting_too_long_is_sent_next_whatever_its_priority(monkeypatch) -> None:
    server = HeldServer()
    batcher = CheckBatcher(server.send, batch_size=1, window=0.0, max_in_flight=1)
    blocker = asyncio.create_task(batcher.check("first", 10.0))
    await asyncio.sleep(0.01)

    async def at(label: str, rank: int) -> None:
        with priority.search_scope():
            priority.speculative(rank)
            await batcher.check(label, 10.0)

    starved = asyncio.create_task(at("speculative", 5))
    await asyncio.sleep(0.01)
    preferred = asyncio.create_task(at("certain", 0))
    await asyncio.sleep(0.01)
    monkeypatch.setattr(priority, "MAX_WAIT_SECONDS", 0.005)  # the speculative one is now overdue
    server.gate.set()
    await asyncio.gather(blocker, starved, preferred)
    await batcher.close()
    assert server.sent == ["first", "speculative", "certain"]


def test_the_repl_pool_serves_an_overdue_waiter_first() -> None:
    from lemmaforge.lean import repl

    loop = asyncio.new_event_loop()
    try:
        now = time.monotonic()

        def pair(old_waited: float) -> tuple[repl._Waiter, repl._Waiter]:
            old = repl._Waiter("H", None, loop.create_future(), ((5, 0, 0, 0), 0), now - old_waited)
            new = repl._Waiter("H", None, loop.create_future(), ((0, 0, 0, 0), 1), now)
            return old, new

        old, new = pair(1.0)
        assert repl._first_served([old, new]) is new  # not overdue: priority order
        old, new = pair(priority.MAX_WAIT_SECONDS + 1.0)
        assert repl._first_served([old, new]) is old  # overdue: served first
    finally:
        loop.close()

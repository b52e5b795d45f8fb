"""lean/check_queue.py: the one queue of waiting checks, against a plain reference that recomputes
every answer by scanning all waiting checks (what the REPL pool did before: a linear minimum)."""

from __future__ import annotations

import random

import pytest

from lemmaforge.lean import priority
from lemmaforge.lean.check_queue import CheckQueue, Ticket
from lemmaforge.schedule import order
from lemmaforge.schedule.order import CheckOrder


def _reference_first(waiting: list[Ticket[int]], lane: object, *, held_too: bool) -> Ticket[int] | None:
    """The policy written out: in `lane`, certain work by (key, arrival), then held work by
    (held_order, arrival)."""
    mine = [t for t in waiting if t.lane == lane]
    certain = [t for t in mine if not order.held(t.order.path)]
    if certain:
        return min(certain, key=lambda t: (t.order.key, t.arrival))
    held = [t for t in mine if order.held(t.order.path)]
    if held and held_too:
        return min(held, key=lambda t: (order.held_order(t.order.path, t.order.key), t.arrival))
    return None


@pytest.mark.parametrize("seed", range(20))
def test_the_queue_serves_what_a_linear_scan_of_the_policy_would(seed: int) -> None:
    rng = random.Random(seed)
    released: list[int] = []
    queue: CheckQueue[int] = CheckQueue(on_release=lambda: released.append(1))
    groups = [order.Siblings(kind=rng.choice(["race", "holes"])) for _ in range(4)]
    for group in groups:
        for rank in range(5):
            group.enter(rank)
    waiting: list[Ticket[int]] = []
    for step in range(400):
        action = rng.random()
        if action < 0.5:
            path = tuple((g, rng.randrange(5)) for g in rng.sample(groups, rng.randrange(3)))
            key = (rng.randrange(3), -rng.randrange(4), -rng.randrange(4), rng.randrange(10))
            waiting.append(queue.put(step, CheckOrder(key, path), lane=rng.choice("ab")))
        elif action < 0.6 and waiting:
            gone = waiting.pop(rng.randrange(len(waiting)))
            queue.discard(gone)
            queue.discard(gone)  # twice: nothing
        elif action < 0.7:
            group = rng.choice(groups)
            group.leave(rng.randrange(5))
        else:
            lane, held_too = rng.choice("ab"), rng.random() < 0.5
            expected = _reference_first(waiting, lane, held_too=held_too)
            got = queue.pop(lane, held_too=held_too)
            assert got is expected
            if got is not None:
                assert got.speculated == order.held(got.order.path) and not got.waiting
                waiting.remove(got)
        certain = sum(1 for t in waiting if not order.held(t.order.path))
        assert queue.counts == (certain, len(waiting) - certain) and len(queue) == len(waiting)
        assert queue.lane_size("a") == sum(1 for t in waiting if t.lane == "a")
    for group in groups:
        group.end()
    assert queue.counts == (len(waiting), 0)
    assert sorted(queue.clear()) == sorted(t.value for t in waiting) and len(queue) == 0


def test_best_lane_is_the_certain_work_anywhere_before_held_work() -> None:
    queue: CheckQueue[str] = CheckQueue()
    race = order.Siblings(kind="race")
    race.enter(0)
    race.enter(1)
    assert queue.best_lane() is None
    queue.put("held, deep", CheckOrder((0, -9, 0, 0), ((race, 1),)), lane=10.0)
    queue.put("certain, shallow", CheckOrder((0, 0, 0, 5)), lane=30.0)
    assert queue.best_lane() == 30.0  # certain work first, whatever the lane
    ticket = queue.pop(30.0)
    assert ticket is not None and ticket.value == "certain, shallow" and not ticket.speculated
    assert queue.best_lane() == 10.0  # only held work is left: it is what room lets go
    assert queue.pop(10.0, held_too=False) is None
    ticket = queue.pop(10.0)
    assert ticket is not None and ticket.speculated


def test_an_overdue_check_is_served_first_oldest_first(monkeypatch) -> None:
    queue: CheckQueue[str] = CheckQueue()
    queue.put("old, speculative", CheckOrder((5, 0, 0, 0)), lane="H")
    queue.put("new, certain", CheckOrder((0, 0, 0, 0)), lane="H")
    first = queue.first("H")
    assert first is not None and first.value == "new, certain"
    monkeypatch.setattr(priority, "MAX_WAIT_SECONDS", -1.0)  # everything is overdue now
    first = queue.first("H")
    assert first is not None and first.value == "old, speculative"
    assert queue.best_lane() == "H"


def test_the_queue_releases_held_work_when_its_group_moves_and_stops_listening() -> None:
    released: list[tuple[int, int]] = []
    queue: CheckQueue[str] = CheckQueue(on_release=lambda: released.append(queue.counts))
    holes = order.Siblings(kind="holes")
    for rank in range(3):
        holes.enter(rank)
    queue.put("hole 1", CheckOrder(path=((holes, 1),)))
    queue.put("hole 2", CheckOrder(path=((holes, 2),)))
    assert queue.counts == (0, 2)
    holes.leave(0)
    assert released == [(1, 1)]  # hole 1 joined the certain work; hole 2 is still held
    holes.leave(1)
    assert released == [(1, 1), (2, 0)]
    assert [queue.pop(None).value, queue.pop(None).value] == ["hole 1", "hole 2"]  # type: ignore[union-attr]
    holes.end()  # the queue no longer listens: nothing is released twice
    assert released == [(1, 1), (2, 0)]


@pytest.mark.looptime  # virtual time: the sleeps let the waiter run, no wall-clock time passes
async def test_until_next_in_line_hears_the_idle_event_it_is_given_and_no_other() -> None:
    import asyncio

    holes = order.Siblings()
    for rank in range(3):
        holes.enter(rank)
    mine, other = CheckQueue[str](), CheckQueue[str]()
    waiter = asyncio.create_task(order.until_next_in_line(((holes, 2),), or_when=lambda: True, idle=mine.idle))
    await asyncio.sleep(0.01)
    other.idle.fire()  # another verifier's queue
    await asyncio.sleep(0.01)
    assert not waiter.done()
    mine.report_idle()
    await asyncio.wait_for(waiter, timeout=1)
    assert not mine.idle  # the waiter stopped listening

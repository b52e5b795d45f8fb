"""schedule/order.py: the order the speculative schedule hands lean/ with each check — a search's
key (least speculative, deepest search, deepest goal, oldest search) and the sibling groups that
hold a race's later candidates and a sketch's later holes — and the wait of work held behind them
(`until_next_in_line`). Virtual time (looptime): no test here waits on the wall clock."""

from __future__ import annotations

import asyncio

import pytest

from lemmaforge.lean.priority import LeanIdle
from lemmaforge.schedule import order

pytestmark = pytest.mark.looptime


def test_outside_a_search_the_key_is_a_fresh_searchs() -> None:
    assert order.current() == (0, 0, 0, 0)


def test_the_scope_sets_and_restores_the_key() -> None:
    with order.search_scope() as progress:
        assert order.current() == (0, 0, 0, progress.order)
        order.at_depth(2)
        assert order.current() == (0, -2, -2, progress.order)
        order.at_depth(1)  # a shallower goal of a search that has been deeper
        assert order.current() == (0, -2, -1, progress.order)
        race = order.Siblings()
        order.join(race, 3)
        # a race's rank is not part of the key: later candidates are held, not ranked
        assert order.current() == (0, -2, -1, progress.order)
        assert order.current_siblings() == ((race, 3),)
        holes = order.Siblings()
        order.join(holes, 1)  # nested: a hole of a sketch below
        assert order.current_siblings() == ((race, 3), (holes, 1))
    assert order.current() == (0, 0, 0, 0) and order.current_siblings() == ()


def test_a_race_holds_a_candidate_while_an_earlier_one_is_unanswered() -> None:
    race = order.Siblings()
    moved: list[order.Siblings] = []
    race.listen(moved.append)
    for rank in range(3):
        race.enter(rank)
    assert not race.holds(0) and race.holds(1) and race.holds(2)
    race.leave(1)  # a later rank answering first frees nobody earlier...
    assert race.holds(2) and moved == [race]  # ...but listeners hear of every answer
    race.leave(0)
    assert not race.holds(2) and not race.holds(1)
    race.forget(moved.append)
    race.leave(2)
    assert moved == [race, race]


def test_later_searches_rank_after_earlier_ones_at_the_same_depth() -> None:
    with order.search_scope():
        first = order.current()
    with order.search_scope():
        second = order.current()
    assert first < second


async def test_child_tasks_inherit_their_search_and_keep_their_own_depth() -> None:
    seen: dict[str, order.Priority] = {}

    async def goal(name: str, depth: int) -> None:
        order.at_depth(depth)
        await asyncio.sleep(0)
        seen[name] = order.current()

    with order.search_scope() as progress:
        await asyncio.gather(goal("a", 1), goal("b", 3))
        seen["root"] = order.current()
    assert seen["a"] == (0, -3, -1, progress.order) and seen["b"] == (0, -3, -3, progress.order)
    assert seen["root"] == (0, -3, 0, progress.order)  # the root's own depth; the search went to 3


async def test_a_sketchs_later_holes_count_as_speculation_along_the_path() -> None:
    async def goal(depth: int, hole: int) -> tuple[order.Priority, order.Priority]:
        order.at_depth(depth, hole)
        own = order.current()
        child = await asyncio.create_task(grandchild())
        return own, child

    async def grandchild() -> order.Priority:
        order.at_depth(2, hole_index=1)
        return order.current()

    with order.search_scope():
        order.at_depth(0)
        (first, first_child), (third, third_child) = await asyncio.gather(goal(1, 0), goal(1, 2))
    assert first[0] == 0 and third[0] == 2  # the sketch's third hole: speculation 2
    assert first_child[0] == 1 and third_child[0] == 3  # summed along the path from the root
    assert first < third


def _race_and_holes() -> tuple[order.Siblings, order.Siblings]:
    """A race whose first candidate is unanswered (ranks 0-1 open) and a sketch whose first two holes
    are unsolved (ranks 0-2 open), as the schedule makes them."""
    race, holes = order.Siblings(kind="race"), order.Siblings(kind="holes")
    for rank in range(2):
        race.enter(rank)
    for rank in range(3):
        holes.enter(rank)
    return race, holes


def test_held_work_of_a_sketchs_holes_goes_before_a_held_race_candidate_whatever_the_ranks() -> None:
    race, holes = _race_and_holes()
    deep_key, shallow_key = (0, -5, -5, 0), (0, 0, 0, 9)
    third_hole = order.held_order(((holes, 2),), shallow_key)  # two earlier holes unsolved
    second_candidate = order.held_order(((race, 1),), deep_key)  # one earlier candidate out
    both = order.held_order(((holes, 1), (race, 1)), deep_key)  # a candidate in a later hole
    # a sketch needs all its holes, a race one candidate: the hole's work is likelier to be needed
    assert third_hole < second_candidate < both
    race.leave(0)  # the earlier candidate failed: the race holds it no longer, the holes still do
    assert order.held_order(((holes, 1), (race, 1)), deep_key) < second_candidate
    # among work held the same way, the least speculative first, then the key
    assert order.held_order(((holes, 1),), shallow_key) < third_hole
    assert order.held_order(((holes, 2),), deep_key) < third_hole


async def test_lean_idle_wakes_only_waiters_whose_condition_holds() -> None:
    holes = order.Siblings()
    for rank in range(3):
        holes.enter(rank)
    path = ((holes, 2),)  # two siblings from its turn: not next in line
    room = {"lean": False}
    idle = LeanIdle()  # a verifier's "Lean has room" event
    without = asyncio.create_task(order.until_next_in_line(path, idle=idle))
    with_room = asyncio.create_task(order.until_next_in_line(path, or_when=lambda: room["lean"], idle=idle))
    await asyncio.sleep(0.01)
    idle.fire()  # no room: nobody goes
    await asyncio.sleep(0.01)
    assert not without.done() and not with_room.done()
    room["lean"] = True
    idle.fire()
    await asyncio.sleep(0.01)
    assert with_room.done() and not without.done()  # only the one that asked to hear of it
    holes.leave(0)  # next in line now
    await asyncio.wait_for(without, timeout=1)
    assert not idle  # nobody listens any more


def test_a_race_window_lets_a_candidate_go_while_fewer_earlier_ones_are_open() -> None:
    race = order.Siblings(window=2)
    for rank in range(4):
        race.enter(rank)
    # rank 1 has one earlier open rank (< 2): not held; ranks 2 and 3 have two or more
    assert [race.holds(rank) for rank in range(4)] == [False, False, True, True]
    race.leave(0)
    assert [race.holds(rank) for rank in range(4)] == [False, False, False, True]
    race.leave(2)  # a later-arriving answer counts too: only rank 1 is open before rank 3
    assert not race.holds(3)
    with pytest.raises(ValueError):
        order.Siblings(window=0)


def test_a_check_order_says_whether_it_is_held_and_tells_its_queue_when_it_moves() -> None:
    """The `lean.priority.OrderKey` lean/ receives: its key, `held()` (None once nothing holds it,
    else its held order), and `watch`, told only when a group holding it lets it go."""
    race, holes = order.Siblings(kind="race"), order.Siblings(kind="holes")
    for rank in range(2):
        race.enter(rank)
        holes.enter(rank)
    key = (0, -2, -1, 4)
    check = order.CheckOrder(key, ((holes, 1), (race, 1)))
    assert check.held() == order.held_order(check.path, key) == (1, 2, *key)
    moved: list[int] = []
    stop = check.watch(lambda: moved.append(1))
    race.leave(1)  # a later rank answering frees nobody earlier: not told
    assert moved == []
    race.leave(0)
    assert moved == [1] and check.held() == (0, 2, *key)
    holes.leave(0)
    assert moved == [1, 1] and check.held() is None
    stop()
    holes.leave(1)
    assert moved == [1, 1]
    assert order.CheckOrder(key).held() is None  # no path: never held

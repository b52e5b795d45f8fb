"""Waiting Lean checks leave in the order their keys say (lean/check_queue.py, the Kimina batcher's
and the REPL pool's one queue), with the keys the speculative schedule hands in with each check
(schedule/order.py `order_now`): the searches that went deepest first, then the deeper goal, then
the older search; checks given no order rank as a fresh search's (`lean.priority.UNORDERED`).

The batcher's tests run on looptime's virtual clock (`asyncio.sleep` here lets every task run
until it waits, then moves the loop's clock; no wall-clock time passes). The REPL pool's run the
fake REPL as a real subprocess whose checks take `CHECK_S` wall-clock seconds: they keep the wall
clock (`looptime(False)`), and wait for the fake by polling what it received."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from lemmaforge.lean import priority
from lemmaforge.lean.kimina._batcher import CheckBatcher
from lemmaforge.lean.verifier import CheckResult, CheckStatus
from lemmaforge.schedule import order
from tests.waiting import until

pytestmark = pytest.mark.looptime  # the batcher's tests: virtual time (the pool's opt out, below)


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
            await batcher.check(label, 10.0)  # no order: a fresh search's place
            return
        with order.search_scope():
            order.at_depth(depth)
            await batcher.check(label, 10.0, order=order.order_now())

    with order.search_scope():  # an earlier search: the ones below are newer than a fresh search's key
        pass
    blocker = asyncio.create_task(batcher.check("first", 10.0, order=order.order_now()))  # holds the only slot
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
    blocker = asyncio.create_task(batcher.check("first", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)

    async def deep(label: str) -> None:
        with order.search_scope():
            order.at_depth(5)
            await batcher.check(label, 10.0, order=order.order_now())

    gone = asyncio.create_task(deep("cancelled"))
    kept = asyncio.create_task(batcher.check("kept", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)
    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone
    gate.set()
    await asyncio.gather(blocker, kept)
    await batcher.close()
    assert sent == ["first", "kept"] and batcher.stats.dropped_unsent == 1


def _with_race(open_ranks: int, max_in_flight: int) -> tuple[HeldServer, CheckBatcher, order.Siblings]:
    """A held server, a batcher of single-check requests, a race whose first ranks are open."""
    server = HeldServer()
    batcher = CheckBatcher(server.send, batch_size=1, window=0.0, max_in_flight=max_in_flight)
    race = order.Siblings()
    for rank in range(open_ranks):
        race.enter(rank)
    return server, batcher, race


async def _candidate(batcher: CheckBatcher, race: order.Siblings, rank: int, depth: int = 3) -> None:
    """A race's `rank`-th candidate checked by a search that went `depth` deep."""
    with order.search_scope():
        order.at_depth(depth)
        order.join(race, rank)
        await batcher.check(f"rank {rank}", 10.0, order=order.order_now())


async def _certain(batcher: CheckBatcher, label: str, hole: int = 0) -> None:
    """Work of a shallow search, not held (its key is worse than the deep search's)."""
    with order.search_scope():
        order.at_depth(1, hole_index=hole)
        await batcher.check(label, 10.0, order=order.order_now())


async def test_a_later_candidate_waits_behind_certain_work_while_an_earlier_one_runs() -> None:
    server, batcher, race = _with_race(open_ranks=2, max_in_flight=2)
    first = asyncio.create_task(_candidate(batcher, race, 0))
    blocker = asyncio.create_task(batcher.check("blocker", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)  # both slots taken: rank 0 and the blocker run
    second = asyncio.create_task(_candidate(batcher, race, 1))
    await asyncio.sleep(0.01)
    # even a sketch's third hole (speculation 2) goes first: it is not held by anything
    certain = asyncio.create_task(_certain(batcher, "certain", hole=2))
    await asyncio.sleep(0.01)
    server.gate.set()
    await asyncio.gather(first, blocker, certain)
    race.leave(0)
    await second
    await batcher.close()
    # the deeper search's second candidate went after the shallow search's certain check
    assert server.sent == ["rank 0", "blocker", "certain", "rank 1"]


async def test_a_held_candidate_goes_at_once_when_lean_has_room() -> None:
    server, batcher, race = _with_race(open_ranks=2, max_in_flight=2)
    first = asyncio.create_task(_candidate(batcher, race, 0))
    await asyncio.sleep(0.01)
    second = asyncio.create_task(_candidate(batcher, race, 1))
    await asyncio.sleep(0.01)
    # nothing else waits and a slot is free: speculating beats idling
    assert server.sent == ["rank 0", "rank 1"] and race.holds(1)
    server.gate.set()
    await asyncio.gather(first, second)
    await batcher.close()
    assert batcher.stats.speculated == 1  # rank 1 went while still held; rank 0 was certain work


async def test_an_orphaned_speculative_check_is_counted_apart_from_certain_orphans() -> None:
    gate = asyncio.Event()

    async def send(codes: Sequence[str], timeout: float) -> list[CheckResult]:
        await gate.wait()
        return [CheckResult(status=CheckStatus.ERROR, time=2.0 if code == "rank 1" else 3.0) for code in codes]

    batcher = CheckBatcher(send, batch_size=1, window=0.0, max_in_flight=2)
    race = order.Siblings()
    race.enter(0)
    race.enter(1)
    first = asyncio.create_task(_candidate(batcher, race, 0))
    await asyncio.sleep(0.01)
    second = asyncio.create_task(_candidate(batcher, race, 1))
    await asyncio.sleep(0.01)
    first.cancel()  # both callers leave after their requests went: both checks are orphaned
    second.cancel()
    await asyncio.gather(first, second, return_exceptions=True)
    gate.set()
    await asyncio.sleep(0.01)
    await batcher.close()
    assert batcher.stats.orphaned == 2 and batcher.stats.orphaned_seconds == 5.0
    assert batcher.stats.speculated == 1 and batcher.stats.orphaned_speculated_seconds == 2.0


async def test_an_answered_earlier_candidate_releases_the_next_into_priority_order() -> None:
    server, batcher, race = _with_race(open_ranks=3, max_in_flight=1)
    blocker = asyncio.create_task(batcher.check("blocker", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)
    later = [asyncio.create_task(_candidate(batcher, race, rank, depth=4)) for rank in (1, 2)]
    certain = asyncio.create_task(_certain(batcher, "certain"))
    await asyncio.sleep(0.01)
    race.leave(0)  # rank 0 failed elsewhere: rank 1 is certain work now, of the deepest search
    await asyncio.sleep(0.01)
    server.gate.set()
    await asyncio.gather(blocker, certain, later[0])
    race.leave(1)
    await later[1]
    await batcher.close()
    assert server.sent == ["blocker", "rank 1", "certain", "rank 2"]


async def test_a_held_candidate_of_a_won_race_is_dropped_unsent() -> None:
    server, batcher, race = _with_race(open_ranks=2, max_in_flight=1)
    first = asyncio.create_task(_candidate(batcher, race, 0))
    await asyncio.sleep(0.01)
    second = asyncio.create_task(_candidate(batcher, race, 1))
    other = asyncio.create_task(_certain(batcher, "other"))
    await asyncio.sleep(0.01)
    second.cancel()  # rank 0 won: the engine cancels the rest of the race
    with pytest.raises(asyncio.CancelledError):
        await second
    race.leave(1)
    server.gate.set()
    await asyncio.gather(first, other)
    race.leave(0)
    await batcher.close()
    assert server.sent == ["rank 0", "other"]
    assert batcher.stats.dropped_unsent == 1 and batcher.stats.orphaned == 0


async def _blocked_batcher() -> tuple[HeldServer, CheckBatcher, asyncio.Task[CheckResult]]:
    """A batcher with room for one check in flight, taken by "blocker" until the server's gate opens."""
    server = HeldServer()
    batcher = CheckBatcher(server.send, batch_size=1, window=0.0, max_in_flight=1)
    blocker = asyncio.create_task(batcher.check("blocker", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)
    return server, batcher, blocker


async def _one_slot_taken(
    race_ranks: int,
) -> tuple[HeldServer, CheckBatcher, asyncio.Task[CheckResult], order.Siblings, order.Siblings]:
    """A batcher whose one slot a blocker holds; a sketch's holes 0 and 1 (both open) and a race of
    `race_ranks` open candidates."""
    holes, race = order.Siblings(), order.Siblings()
    for rank in range(2):
        holes.enter(rank)
    for rank in range(race_ranks):
        race.enter(rank)
    server, batcher, blocker = await _blocked_batcher()
    return server, batcher, blocker, holes, race


async def _in_hole(
    batcher: CheckBatcher, label: str, depth: int, holes: order.Siblings, race: order.Siblings, *, rank: int
) -> None:
    """A check of the race's `rank`-th candidate in the sketch's second hole, `depth` deep."""
    with order.search_scope():
        order.at_depth(depth, hole_index=1)
        order.join(holes, 1)
        order.join(race, rank)
        await batcher.check(label, 10.0, order=order.order_now())


async def test_a_later_holes_subtree_is_held_until_every_group_above_releases_it() -> None:
    """A check deep in a sketch's second hole (its race's second candidate) is held by two groups:
    the sketch's holes (hole 0 unsolved) and its race (candidate 0 unanswered); it joins the queue
    only when neither holds it."""
    server, batcher, blocker, holes, race = await _one_slot_taken(race_ranks=2)
    held = asyncio.create_task(_in_hole(batcher, "hole 1, candidate 1", 2, holes, race, rank=1))
    await asyncio.sleep(0.01)
    holes.leave(0)  # hole 0 solved: the race still holds it
    await asyncio.sleep(0.01)
    certain = asyncio.create_task(_certain(batcher, "certain", hole=3))
    await asyncio.sleep(0.01)
    server.gate.set()
    await asyncio.gather(blocker, certain, held)
    await batcher.close()
    # still held when the slot freed: the certain check went first, then room let the held one go
    assert server.sent == ["blocker", "certain", "hole 1, candidate 1"]


async def test_released_work_joins_the_queue_ahead_of_shallower_searches() -> None:
    server, batcher, blocker, holes, race = await _one_slot_taken(race_ranks=1)
    held = asyncio.create_task(_in_hole(batcher, "deep hole 1", 3, holes, race, rank=0))
    certain = asyncio.create_task(_certain(batcher, "shallow", hole=1))  # as speculative, shallower
    await asyncio.sleep(0.01)
    holes.leave(0)  # hole 0 solved, and nothing else holds it: the deeper search goes first
    server.gate.set()
    await asyncio.gather(blocker, held, certain)
    await batcher.close()
    assert server.sent == ["blocker", "deep hole 1", "shallow"]
    assert batcher.waiting == (0, 0)


def _race_and_holes() -> tuple[order.Siblings, order.Siblings]:
    """A race whose first candidate is unanswered (ranks 0-1 open) and a sketch whose first two holes
    are unsolved (ranks 0-2 open), as the engine makes them."""
    race, holes = order.Siblings(kind="race"), order.Siblings(kind="holes")
    for rank in range(2):
        race.enter(rank)
    for rank in range(3):
        holes.enter(rank)
    return race, holes


async def _check_held(batcher: CheckBatcher, label: str, path: list[tuple[order.Siblings, int]],
                      depth: int = 0) -> None:
    """`label` checked by a search at `depth` working for the (group, rank) pairs of `path`."""
    with order.search_scope():
        order.at_depth(depth)
        for group, rank in path:
            order.join(group, rank)
        await batcher.check(label, 10.0, order=order.order_now())


async def test_with_room_for_one_the_batcher_sends_a_held_hole_before_a_held_race_candidate() -> None:
    server, batcher, blocker = await _blocked_batcher()
    race, holes = _race_and_holes()
    # the deeper search's candidate, the shallower search's hole
    candidate = asyncio.create_task(_check_held(batcher, "candidate 1", [(race, 1)], depth=4))
    hole = asyncio.create_task(_check_held(batcher, "hole 2", [(holes, 2)], depth=1))
    await asyncio.sleep(0.01)
    server.gate.set()  # the slot frees and nothing certain waits: held work goes, one at a time
    await asyncio.gather(blocker, candidate, hole)
    await batcher.close()
    assert server.sent == ["blocker", "hole 2", "candidate 1"]
    assert batcher.stats.speculated == 2


async def test_a_candidate_a_race_lets_go_moves_ahead_among_held_work_while_a_hole_still_holds_it() -> None:
    server, batcher, blocker = await _blocked_batcher()
    race, holes = _race_and_holes()
    in_later_hole = asyncio.create_task(_check_held(batcher, "candidate 1 in hole 1", [(holes, 1), (race, 1)]))
    third_hole = asyncio.create_task(_check_held(batcher, "hole 2", [(holes, 2)]))
    await asyncio.sleep(0.01)
    race.leave(0)  # the race holds the candidate no longer; hole 0, still open, does
    server.gate.set()
    await asyncio.gather(blocker, in_later_hole, third_hole)
    await batcher.close()
    # now held by one earlier hole, it goes before the work two holes hold back
    assert server.sent == ["blocker", "candidate 1 in hole 1", "hole 2"]
    assert batcher.stats.speculated == 2


async def test_a_check_kept_waiting_too_long_is_sent_next_whatever_its_priority() -> None:
    server = HeldServer()
    batcher = CheckBatcher(server.send, batch_size=1, window=0.0, max_in_flight=1)
    blocker = asyncio.create_task(batcher.check("first", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)

    async def at(label: str, hole: int) -> None:
        with order.search_scope():
            order.at_depth(1, hole_index=hole)
            await batcher.check(label, 10.0, order=order.order_now())

    starved = asyncio.create_task(at("speculative", 5))
    await asyncio.sleep(0.01)
    preferred = asyncio.create_task(at("certain", 0))
    await asyncio.sleep(priority.MAX_WAIT_SECONDS)  # (virtual time) both are overdue now: the oldest first
    server.gate.set()
    await asyncio.gather(blocker, starved, preferred)
    await batcher.close()
    assert server.sent == ["first", "speculative", "certain"]


async def test_released_items_leave_the_held_work_at_once() -> None:
    """A long run releases held items by the thousand: each leaves the held work as it joins the
    certain work (no entry of it is left behind with its code)."""
    server = HeldServer()
    batcher = CheckBatcher(server.send, batch_size=8, window=0.0, max_in_flight=1)
    group = order.Siblings()
    group.enter(0)
    blocker = asyncio.create_task(batcher.check("blocker", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)

    async def later(i: int) -> None:
        order.join(group, 1)
        await batcher.check(f"later {i}", 10.0, order=order.order_now())

    waiting = [asyncio.create_task(later(i)) for i in range(300)]
    await asyncio.sleep(0.01)
    assert batcher.waiting == (0, 300)  # all held behind rank 0
    group.leave(0)  # all released into the queue
    queued, held = batcher.waiting
    assert (queued, held) == (300, 0)
    server.gate.set()
    await asyncio.gather(blocker, *waiting)
    await batcher.close()
    assert len(server.sent) == 301


async def test_with_a_window_of_two_the_second_candidate_is_certain_work_and_the_third_is_held() -> None:
    server = HeldServer()
    batcher = CheckBatcher(server.send, batch_size=1, window=0.0, max_in_flight=1)
    race = order.Siblings(window=2)
    for rank in range(3):
        race.enter(rank)
    blocker = asyncio.create_task(batcher.check("blocker", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)
    third = asyncio.create_task(_candidate(batcher, race, 2))
    second = asyncio.create_task(_candidate(batcher, race, 1))
    certain = asyncio.create_task(_certain(batcher, "certain"))  # a shallower search's
    await asyncio.sleep(0.01)
    assert batcher.waiting == (2, 1)  # the second candidate queues as certain work; the third is held
    server.gate.set()
    await asyncio.gather(blocker, second, certain, third)
    await batcher.close()
    assert server.sent == ["blocker", "rank 1", "certain", "rank 2"]


async def test_the_batcher_has_room_only_below_its_limit_with_nothing_unheld_waiting() -> None:
    """`has_room` (what the search asks before starting model requests ahead of need): room while
    the in-flight limit is not reached and no check that is not held waits; held work does not
    take the room away (it is what room lets go)."""
    server = HeldServer()
    batcher = CheckBatcher(server.send, batch_size=1, window=0.0, max_in_flight=1)
    assert batcher.has_room()
    first = asyncio.create_task(batcher.check("first", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)
    assert server.sent == ["first"] and not batcher.has_room()  # at the limit
    waiting = asyncio.create_task(batcher.check("second", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)
    assert not batcher.has_room()
    server.gate.set()
    await asyncio.gather(first, waiting)
    assert batcher.has_room()
    await batcher.close()


async def test_the_batcher_reports_lean_idle_only_with_room_and_nothing_to_send() -> None:
    """The batcher's `idle` event (what wakes held holes' model requests at a run's end) fires when
    the batcher has a free place and nothing left to send — not while it is at its limit, and
    not while held work is left (that goes first)."""
    idle: list[tuple[int, int]] = []
    server = HeldServer()
    batcher = CheckBatcher(server.send, batch_size=1, window=0.0, max_in_flight=1)
    batcher.idle.listen(lambda: idle.append((batcher.in_flight, sum(batcher.waiting))))
    first = asyncio.create_task(batcher.check("first", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)
    race = order.Siblings()
    race.enter(0)
    race.enter(1)

    async def held_candidate() -> CheckResult:
        order.join(race, 1)
        return await batcher.check("held", 10.0, order=order.order_now())

    held = asyncio.create_task(held_candidate())
    await asyncio.sleep(0.01)
    assert idle == []  # at its limit: nothing is reported, whatever waits
    server.gate.set()
    await asyncio.gather(first, held)  # the held candidate went when the place freed...
    await asyncio.sleep(0.01)
    assert server.sent == ["first", "held"]
    assert idle and all(entry == (0, 0) for entry in idle)  # ...and only then, all done, Lean idles
    await batcher.close()


async def test_closing_lets_sent_requests_finish_within_a_grace_and_cancels_the_unsent() -> None:
    """Aborting a sent request costs Kimina its REPL: `close` lets what was sent finish (within a
    grace), cancels what was never sent, and aborts only what outlives the grace."""
    server = HeldServer()
    batcher = CheckBatcher(server.send, batch_size=1, window=0.0, max_in_flight=1)
    sent = asyncio.create_task(batcher.check("sent", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)
    unsent = asyncio.create_task(batcher.check("unsent", 10.0, order=order.order_now()))
    await asyncio.sleep(0.01)
    asyncio.get_running_loop().call_later(0.05, server.gate.set)
    await batcher.close(grace=2.0)
    assert (await sent).status is CheckStatus.VALID  # finished, not aborted
    with pytest.raises(asyncio.CancelledError):
        await unsent
    assert server.sent == ["sent"]
    server2 = HeldServer()  # never answers: aborted once the grace is over
    batcher2 = CheckBatcher(server2.send, batch_size=1, window=0.0, max_in_flight=1)
    stuck = asyncio.create_task(batcher2.check("stuck", 10.0))
    await asyncio.sleep(0.01)
    await asyncio.wait_for(batcher2.close(grace=0.05), timeout=1.0)
    with pytest.raises(asyncio.CancelledError):
        await stuck


# --- the REPL pool: the same queue, observed through the fake REPL process ----------------------------

POOL_HEADER = "import Mathlib\n\n"


@pytest.fixture
async def one_worker_pool(tmp_path):
    """A REPL pool of ONE worker on the fake REPL, each check taking `CHECK_S` seconds: while the
    first check runs the others wait in the pool's queue, and the order in which the fake receives
    them is the order the queue served them in."""
    from lemmaforge.lean.repl import ReplVerifier
    from tests.fakes.fake_repl import make_fake_repl_config

    fake = make_fake_repl_config(tmp_path / "fake", latency={"cmd_s": CHECK_S}, transcripts=False)
    pool = ReplVerifier(fake.config, workers=1, timeout=30.0, header_timeout=30.0, max_checks_per_worker=1000)
    yield pool, fake
    await pool.close()


CHECK_S = 0.3


def _queued(pool) -> int:
    """Checks waiting in the pool's queue (certain and held) for its one worker."""
    return sum(pool._queue.counts)


def _served(fake) -> list[str]:
    """The labels of the checks the fake received, in order."""
    return [e["head"].split("\n")[0][3:] for e in fake.requests() if e["head"].startswith("-- ")]


async def _pool_check(pool, label: str, *, depth: int = 0, hole: int = 0,
                      path: tuple[tuple[order.Siblings, int], ...] = ()) -> None:
    with order.search_scope():
        order.at_depth(depth, hole)
        for group, rank in path:
            order.join(group, rank)
        await pool.check(f"{POOL_HEADER}-- {label}\ntheorem t : True := trivial\n", order=order.order_now())


async def _blocked_pool(pool, fake) -> asyncio.Task[None]:
    """The pool's one worker busy with "blocker" (the fake has received it)."""
    blocker = asyncio.create_task(_pool_check(pool, "blocker"))
    await until(lambda: "blocker" in _served(fake), what="the blocker at the fake")  # a real subprocess
    return blocker


# the release of held work when the earlier candidate answers: on the batcher, in virtual time
# (test_an_answered_earlier_candidate_releases_the_next_into_priority_order); on the pool, in the full suite
@pytest.mark.parametrize("earlier_answers", [False, pytest.param(True, marks=pytest.mark.slow)])
@pytest.mark.looptime(False)  # a real subprocess answers in wall-clock time
async def test_the_repl_pool_serves_waiting_checks_in_priority_order_held_work_last(one_worker_pool,
                                                                                  earlier_answers) -> None:
    """A freed worker goes to the deepest search's certain check, then the older shallow one, and
    only then to a race candidate held by an earlier one still being checked — unless that earlier
    candidate answers while they wait: then the candidate is certain work of the deepest search."""
    pool, fake = one_worker_pool
    race = order.Siblings(kind="race")
    race.enter(0)  # its first candidate is still being checked
    race.enter(2)
    blocker = await _blocked_pool(pool, fake)
    waiting = [asyncio.create_task(_pool_check(pool, "older shallow", depth=0)),
               asyncio.create_task(_pool_check(pool, "held deep", depth=3, path=((race, 2),))),
               asyncio.create_task(_pool_check(pool, "certain deep", depth=2))]
    await until(lambda: _queued(pool) == 3, what="three checks queued behind the blocker")
    if earlier_answers:
        race.leave(0)
    await asyncio.gather(blocker, *waiting)
    expected = (["held deep", "certain deep", "older shallow"] if earlier_answers
                else ["certain deep", "older shallow", "held deep"])
    assert _served(fake) == ["blocker", *expected]


@pytest.mark.slow
@pytest.mark.looptime(False)  # a real subprocess answers in wall-clock time
async def test_the_repl_pool_gives_a_free_worker_a_held_hole_before_a_held_race_candidate(one_worker_pool) -> None:
    pool, fake = one_worker_pool
    race, holes = _race_and_holes()
    blocker = await _blocked_pool(pool, fake)
    waiting = [asyncio.create_task(_pool_check(pool, "candidate 1", depth=4, path=((race, 1),))),
               asyncio.create_task(_pool_check(pool, "hole 2", depth=1, path=((holes, 2),)))]
    await asyncio.gather(blocker, *waiting)
    # a sketch needs all its holes, a race one candidate: the hole's held work goes first
    assert _served(fake) == ["blocker", "hole 2", "candidate 1"]


@pytest.mark.slow
@pytest.mark.looptime(False)  # a real subprocess answers in wall-clock time
async def test_the_repl_pool_serves_an_overdue_check_first(one_worker_pool, monkeypatch) -> None:
    pool, fake = one_worker_pool
    blocker = await _blocked_pool(pool, fake)
    starved = asyncio.create_task(_pool_check(pool, "speculative", depth=1, hole=5))
    await until(lambda: _queued(pool) == 1, what="the speculative check queued")  # arrival order
    preferred = asyncio.create_task(_pool_check(pool, "certain", depth=1))
    await until(lambda: _queued(pool) == 2, what="the certain check queued")
    monkeypatch.setattr(priority, "MAX_WAIT_SECONDS", 0.005)  # both overdue now: the oldest first
    await asyncio.gather(blocker, starved, preferred)
    assert _served(fake) == ["blocker", "speculative", "certain"]


@pytest.mark.slow
@pytest.mark.looptime(False)  # a real subprocess answers in wall-clock time
async def test_the_repl_pool_reports_lean_idle_only_when_a_freed_worker_has_nothing_to_take(one_worker_pool) -> None:
    pool, fake = one_worker_pool
    idle: list[int] = []
    pool.idle.listen(lambda: idle.append(len(_served(fake))))
    blocker = await _blocked_pool(pool, fake)
    second = asyncio.create_task(_pool_check(pool, "second"))
    await asyncio.gather(blocker, second)
    # the blocker's worker was handed to the second check (Lean not idle); freed after it: reported
    assert idle == [2] and pool.has_room()


@pytest.mark.parametrize("gated", [pytest.param(False, marks=pytest.mark.slow), True])  # the gate passes it through
@pytest.mark.looptime(False)  # a real subprocess answers in wall-clock time
async def test_an_order_given_with_the_request_is_the_one_the_pool_uses(one_worker_pool, gated) -> None:
    """The order travels with the request: a check whose caller names it is queued by it, not
    by whatever search context the submitting task happens to run in — also through the gate
    that product code holds every backend behind."""
    from lemmaforge.lean.gate import GatedVerifier
    from lemmaforge.lean.verifier import QueuedVerifier

    backend, fake = one_worker_pool
    pool = GatedVerifier(backend) if gated else backend
    assert isinstance(backend, QueuedVerifier) and pool.idle is backend.idle
    blocker = await _blocked_pool(backend, fake)

    async def named(label: str, key: order.Priority) -> None:
        with order.search_scope():  # a fresh, shallow context: the named order wins
            await pool.check(f"{POOL_HEADER}-- {label}\ntheorem t : True := trivial\n",
                             order=order.CheckOrder(key))

    waiting = [asyncio.create_task(named("shallow", (0, 0, 0, 1))), asyncio.create_task(named("deep", (0, -9, -9, 2)))]
    await asyncio.gather(blocker, *waiting)
    assert _served(fake) == ["blocker", "deep", "shallow"]


async def test_an_order_given_with_the_request_is_the_one_the_batcher_uses() -> None:
    server, batcher, blocker = await _blocked_batcher()

    async def named(label: str, named_order: order.CheckOrder) -> None:
        with order.search_scope():  # a fresh, shallow context: the named order is the one used
            await batcher.check(label, 10.0, order=named_order)

    race = order.Siblings()
    race.enter(0)
    race.enter(1)
    waiting = [asyncio.create_task(named("shallow", order.CheckOrder((0, 0, 0, 1)))),
               asyncio.create_task(named("held", order.CheckOrder((0, -9, -9, 0), ((race, 1),)))),
               asyncio.create_task(named("deep", order.CheckOrder((0, -9, -9, 2))))]
    await asyncio.sleep(0.01)
    assert batcher.waiting == (2, 1)  # the named path holds "held"
    server.gate.set()
    await asyncio.gather(blocker, *waiting)
    await batcher.close()
    assert server.sent == ["blocker", "deep", "shallow", "held"]

"""A goal's alternative sketches beside each other (`[search] speculation = "full"`).

One at a time, the next sketch is drafted when the current one failed. Here, while Lean and the
planner both have room, the next one is drafted and tried beside it, its Lean work held behind
the earlier alternatives' (schedule/order.py: sent only when nothing else waits). The first
alternative that closes the goal wins; the others are cancelled. What an alternative is — its
draft, asked to differ from the earlier ones, its attempt, the goal settled by it — is the engine's
(`SketchTries`, search/engine.py): this module decides only when each runs.

One started beside an earlier one is charged for what it sends, like all work, and keeps a
ledger of it (schedule/ledgers.py `Provisional`): used when its turn comes (every earlier one
failed), reported as speculative, unused, when an earlier one closes the goal. One cancelled
before its turn is tried again from the same draft when its turn comes. One that fails before
its turn is tried again on it, from its draft: beside an earlier one it tried every hole itself,
where on its turn a one-at-a-time search takes the holes proved meanwhile from the cache and
tries the failed one afresh.
"""

from __future__ import annotations

import asyncio

from lemmaforge.schedule import order as lean_order
from lemmaforge.schedule.ledgers import Ledgers, Provisional
from lemmaforge.search.assemble import Solution
from lemmaforge.search.budget import BudgetExhausted, first_leaf
from lemmaforge.search.interfaces import Generated, PlannerLike, SearchRun, SketchTries

# How often a goal with alternative sketches left looks for room to start the next one beside the
# running one (a Mathlib check takes seconds: this is well within one).
ROOM_POLL_SECONDS = 0.5


class Alternatives:
    """The alternatives of one goal: drafted, started (on their turn, or beside an earlier one
    when there is room), settled."""

    def __init__(self, search: SearchRun, ledgers: Ledgers, tries: SketchTries) -> None:
        self.search = search
        self.book = ledgers
        self.tries = tries
        self.order = lean_order.Siblings()
        self.running: dict[asyncio.Task[Solution | None], int] = {}  # each alternative's task: its rank
        self.ledgers: dict[int, Provisional | None] = {}  # provisional spends (None: on its turn)
        self.drafts: dict[int, Generated] = {}
        self.ended: set[int] = set()  # failed (or stopped by the budget), on their turn or before it
        self.preempted: set[int] = set()  # cancelled before their turn: tried again on it
        self.retried: set[int] = set()  # failed before their turn: tried again on it, from its draft

    async def run(self) -> Solution | None:
        run, tries, book = self.search, self.tries, self.book
        planner = run.planner
        assert planner is not None
        alternatives = tries.count
        drafted = 0
        no_room_beside = False  # a draft beside did not fit the budget: wait for something to settle
        # A budget that runs out while an alternative still runs stops only what it would pay for:
        # no new alternative starts, the running ones finish, and it is raised if none succeeds.
        exhausted: BaseException | None = None
        try:
            while True:
                turn = min((r for r in range(drafted) if r not in self.ended), default=drafted)
                for rank in range(turn + 1):  # the failed ones before it, and the one on its turn
                    book.charge(self.ledgers.get(rank))
                if turn in self.retried or turn in self.preempted:  # its turn came: its draft, alone
                    again_after_failure = turn in self.retried
                    self.retried.discard(turn)
                    self.preempted.discard(turn)
                    if again_after_failure and exhausted is not None:  # nothing left to try it with
                        self.ended.add(turn)
                        continue
                    self.ledgers[turn] = None  # on its turn: what it fails now is final
                    self._start(turn, beside=False, ledger=None)
                    continue
                more = drafted < alternatives and exhausted is None
                on_turn = turn == drafted
                if more and (on_turn or (not no_room_beside and self._room_beside(planner))):
                    rank, drafted = drafted, drafted + 1
                    ledger = None if on_turn else book.provisional()
                    try:
                        with Ledgers.within(ledger):  # (the next one's request is made known in it)
                            sketches = await tries.draft()
                    except BudgetExhausted as error:
                        if ledger is not None:  # no room beside: this one waits for its turn
                            book.refund(ledger)
                            drafted -= 1
                            no_room_beside = True
                            continue
                        if not self.running:
                            raise
                        exhausted = error
                        self.ended.add(rank)
                        continue
                    self.ledgers[rank] = ledger
                    if not sketches:
                        self.ended.add(rank)
                        continue
                    self.drafts[rank] = sketches
                    if ledger is not None and ledger.state == "refunded":  # its units were needed meanwhile
                        self.preempted.add(rank)
                        continue
                    # Started beside a running one, its work is speculation, held behind the earlier
                    # ranks; started alone, it is what a one-at-a-time search does now.
                    self._start(rank, beside=ledger is not None, ledger=ledger)
                    continue
                if not self.running:
                    if exhausted is not None:
                        raise exhausted
                    return None
                # Wait for an alternative to settle; while more could start beside it, look for room
                # now and then.
                done, _ = await asyncio.wait(self.running, timeout=ROOM_POLL_SECONDS if more else None,
                                             return_when=asyncio.FIRST_COMPLETED)
                if done:
                    no_room_beside = False
                # errors first, then the earlier alternative (what a one-at-a-time search finds)
                for task in sorted(done, key=lambda t: (t.cancelled() or t.exception() is None, self.running[t])):
                    rank = self.running.pop(task)
                    if task.cancelled():  # before its turn, its units went to work on its turn
                        self.preempted.add(rank)
                        continue
                    failure = task.exception()
                    if (failure is not None and (self.running or self.preempted)
                            and isinstance(first_leaf(failure), BudgetExhausted)):
                        exhausted = exhausted or failure
                        self.ended.add(rank)
                        continue
                    solution = task.result()  # an endpoint, verifier or budget error propagates
                    if solution is not None:
                        book.charge(self.ledgers.get(rank))  # it closed the goal: its work counts
                        return tries.won(solution)
                    ledger = self.ledgers.get(rank)
                    if ledger is not None and ledger.state == "open" and exhausted is None:
                        self.retried.add(rank)  # failed before its turn came
                    else:
                        self.ended.add(rank)
        finally:
            for task in self.running:
                task.cancel()
            if self.running:
                await asyncio.gather(*self.running, return_exceptions=True)
            for ledger in self.ledgers.values():
                book.refund(ledger)  # those not charged: never their turn
            self.order.end()

    def _start(self, rank: int, *, beside: bool, ledger: Provisional | None) -> None:
        self.order.enter(rank)
        task = asyncio.ensure_future(self._try(rank, beside, ledger))
        if ledger is not None:
            ledger.cancel = task.cancel
        self.running[task] = rank

    async def _try(self, rank: int, beside: bool, ledger: Provisional | None) -> Solution | None:
        """One alternative, in its own task; started `beside` earlier ones, its Lean work waits
        while one of them is still open, unless Lean has room, and it spends into `ledger`."""
        Ledgers.enter(ledger)
        if beside:
            lean_order.join(self.order, rank)
        try:
            return await self.tries.attempt(self.drafts[rank])
        finally:
            self.order.leave(rank)

    def _room_beside(self, planner: PlannerLike) -> bool:
        """Whether the next alternative may start beside a running one: Lean and the planner idle
        enough that its work takes nothing from work that is needed."""
        return self.search.lean.has_room() and planner.has_room()

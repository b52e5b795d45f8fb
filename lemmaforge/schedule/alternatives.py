"""A goal's alternative sketches beside each other (`[search] speculation = "full"`).

One at a time, the next sketch is drafted when the current one failed. Here, while Lean and the
planner both have room, the next one is drafted and tried beside it, its Lean work held behind
the earlier alternatives' (lean/priority.py: sent only when nothing else waits). The first
alternative that closes the goal wins; the others are cancelled.

One started beside an earlier one is charged for what it sends, like all work, and keeps a
ledger of it (search/budget.py `Provisional`): used when its turn comes (every earlier one
failed), reported as speculative, unused, when an earlier one closes the goal. One cancelled
before its turn is tried again from the same draft when its turn comes. One that fails before
its turn is tried again on it, from its draft: beside an earlier one it tried every hole itself,
where on its turn a one-at-a-time search takes the holes proved meanwhile from the cache and
tries the failed one afresh.
"""

from __future__ import annotations

import asyncio

from lemmaforge.lean import priority as lean_priority
from lemmaforge.schedule.ahead import Ahead, RequestsAhead
from lemmaforge.search.assemble import Solution
from lemmaforge.search.budget import Budget, BudgetExhausted, Provisional, first_leaf
from lemmaforge.search.interfaces import Generated, PlannerLike, SearchRun
from lemmaforge.search.tree import Node

# How often a goal with alternative sketches left looks for room to start the next one beside the
# running one (a Mathlib check takes seconds: this is well within one).
ROOM_POLL_SECONDS = 0.5


class Alternatives:
    """The alternatives of one goal: drafted, started (on their turn, or beside an earlier one
    when there is room), settled."""

    def __init__(self, search: SearchRun, ahead: RequestsAhead, node: Node, first_draft: Ahead | None) -> None:
        """`first_draft`: the goal's first sketch request, started ahead (None: made when needed)."""
        self.search = search
        self.ahead = ahead
        self.node = node
        self.first_draft = first_draft
        self.order = lean_priority.Siblings()
        self.running: dict[asyncio.Task[Solution | None], int] = {}  # each alternative's task: its rank
        self.ledgers: dict[int, Provisional | None] = {}  # provisional spends (None: on its turn)
        self.drafts: dict[int, Generated] = {}
        self.ended: set[int] = set()  # failed (or stopped by the budget), on their turn or before it
        self.preempted: set[int] = set()  # cancelled before their turn: tried again on it
        self.retried: set[int] = set()  # failed before their turn: tried again on it, from its draft

    async def run(self) -> Solution | None:
        run, node = self.search, self.node
        planner = run.planner
        assert planner is not None
        budget = run.budget
        ahead = self.first_draft
        failed: list[str] = []  # earlier sketches: the planner is asked for a different one
        alternatives = run.limits.sketch_alternatives
        drafted = 0
        no_room_beside = False  # a draft beside did not fit the budget: wait for something to settle
        # A budget that runs out while an alternative still runs stops only what it would pay for:
        # no new alternative starts, the running ones finish, and it is raised if none succeeds.
        exhausted: BaseException | None = None
        try:
            while True:
                turn = min((r for r in range(drafted) if r not in self.ended), default=drafted)
                for rank in range(turn + 1):  # the failed ones before it, and the one on its turn
                    budget.charge(self.ledgers.get(rank))
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
                    ledger = None if on_turn else budget.provisional()
                    try:
                        with Budget.within(ledger):
                            sketches = await self.ahead.take(ahead, run.draft_call(node, tuple(failed)))
                    except BudgetExhausted as error:
                        ahead = None
                        if ledger is not None:  # no room beside: this one waits for its turn
                            budget.refund(ledger)
                            drafted -= 1
                            no_room_beside = True
                            continue
                        if not self.running:
                            raise
                        exhausted = error
                        self.ended.add(rank)
                        continue
                    ahead = None
                    self.ledgers[rank] = ledger
                    if not sketches:
                        self.ended.add(rank)
                        continue
                    self.drafts[rank] = sketches
                    failed.append(sketches[0].code)
                    if drafted < alternatives:  # the next alternative's draft, while this one is tried
                        ahead = self.ahead.start(planner, run.draft_call(node, tuple(failed)))
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
                        budget.charge(self.ledgers.get(rank))  # it closed the goal: its work counts
                        return run.solved(node, "planner", solution)
                    ledger = self.ledgers.get(rank)
                    if ledger is not None and ledger.state == "open" and exhausted is None:
                        self.retried.add(rank)  # failed before its turn came
                    else:
                        self.ended.add(rank)
        finally:
            self.ahead.drop(ahead)
            for task in self.running:
                task.cancel()
            if self.running:
                await asyncio.gather(*self.running, return_exceptions=True)
            for ledger in self.ledgers.values():
                budget.refund(ledger)  # those not charged: never their turn
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
        Budget.enter(ledger)
        if beside:
            lean_priority.join(self.order, rank)
        try:
            return await self.search.try_sketch(self.node, self.drafts[rank])
        finally:
            self.order.leave(rank)

    def _room_beside(self, planner: PlannerLike) -> bool:
        """Whether the next alternative may start beside a running one: Lean and the planner idle
        enough that its work takes nothing from work that is needed."""
        return self.search.lean.has_room() and planner.has_room()

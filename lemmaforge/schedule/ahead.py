"""Model requests, and checks of their answers, started before the search needs them.

Why: at the end of a bench only the running searches' dependent chains are left — a check, then a
model call, then a check… — and every model call on such a chain is time the Lean workers idle. A
goal's next request is known before its turn comes (the prover's while the goal's automation is
checked, the planner's first sketch while the prover's candidates are, the next alternative's while
a sketch is tried), so it can start early: but only when that costs nothing — the model endpoint
has room and the budget has room beside what is already ahead. A hole waiting its turn behind
earlier siblings while Lean is busy (schedule/order.py holds its checks) starts its request when it
is next in line — one sibling away from its turn, about a model request's time before it — not at
once: its sketch is often abandoned before then. (Measured on scripts/bench_e2e.py: starting every
held hole's request at once shortened the run's tail but made 2.8 x as many requests nobody took.)
It also starts when the check queue of the run's verifier reports Lean idle (its `idle` event:
nothing left to send, held checks included) and Lean still has room: at the end of a run, the few searches left
cannot keep the workers busy one sibling at a time.

Budgets: a request started ahead spends its unit of `llm_calls` when it is sent (a budget caps what
leaves the process, search/budget.py); none is started without a unit left. One the search never
takes (its goal closed first) is aborted — an aborted request frees its slot on vLLM — and told to
the budget as unused (`Budget.unused_ahead`: `SearchStats.prefetched_unused`, charged, not used).

`ChecksAhead` does the same for Lean checks started while Lean has room (an answer's candidates,
a sketch, an assembly): the search's door takes one by its text (`BudgetedVerifier.check` asks the
schedule, `DoorSchedule.started`), and one never taken is dropped and told unused.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Sequence

from lemmaforge.errors import AttemptFailed
from lemmaforge.lean.verifier import CheckResult
from lemmaforge.schedule import order as lean_order
from lemmaforge.search.budget import Budget, BudgetedVerifier, Unit
from lemmaforge.search.interfaces import Generated, PlannerLike, ProverLike

MakeRequest = Callable[[], Awaitable[Sequence[object]]]  # makes the request's coroutine when called
Ahead = asyncio.Task["Generated | None"]  # a request started ahead; None: it was never sent


class RequestsAhead:
    """One search's requests started ahead of need, and the rules for starting and taking them."""

    def __init__(
        self,
        budget: Budget,
        lean: BudgetedVerifier,
        generate: Callable[[Awaitable[Sequence[object]]], Awaitable[Generated]],
        *,
        enabled: bool,
    ) -> None:
        self.budget = budget
        self.lean = lean
        self.enabled = enabled
        self._generate = generate  # the search's own budgeted request, for what was not started ahead
        self.pending: set[Ahead] = set()  # started, not yet taken or dropped
        self.held: set[asyncio.Task[Generated | None]] = set()  # of those, the ones holding a unit (handed to the client)
        self.sent: set[asyncio.Task[Generated | None]] = set()  # of those, the ones whose request went out

    def start(self, agent: PlannerLike | ProverLike | None, make: MakeRequest) -> Ahead | None:
        """Start `make()` now if it costs nothing (see the module's doc), or when the current goal
        is next in line; charged when it is sent. None: the request will be made when it is needed."""
        if not self.enabled:
            return None
        if agent is None or not agent.has_room():
            return None
        if not self.budget.has_calls(speculative=True):
            return None
        path = lean_order.current_siblings()
        task: Ahead
        if lean_order.next_in_line(path) or self.lean.has_room():  # (work not held is next in line)
            task = asyncio.ensure_future(self._send(make))
        else:
            task = asyncio.ensure_future(self._when_next_in_line(path, agent.has_room, make))
        self.pending.add(task)
        return task

    async def _when_next_in_line(self, path: lean_order.SiblingPath, room: Callable[[], bool],
                                 make: MakeRequest) -> Generated | None:
        await lean_order.until_next_in_line(path, or_when=self.lean.has_room, idle=self.lean.idle)
        if not room():
            return None  # not sent: the request is made when needed
        return await self._send(make)

    async def _send(self, make: MakeRequest) -> Generated | None:
        """Hand the request to the client, in its own task as that task runs, holding a unit that
        is charged when the request leaves: one dropped before it ran, or while it waited for the
        client's slot, was never sent and is not charged. None: no unit left, not sent."""
        if not self.budget.has_calls(speculative=True):
            return None  # the request is made when needed, through the budget
        task = asyncio.current_task()
        assert task is not None
        unit = self.budget.hold_call(ahead=True, on_sent=lambda delta: self._sent(task, delta))
        self.held.add(task)
        return await self.budget.send(unit, _request(make))

    def _sent(self, task: asyncio.Task[Generated | None], delta: int = 1) -> None:
        """The request is out of the process (+1), or, after all, still queued in the client (-1)
        (the budget counts it: `prefetched_calls`)."""
        if delta > 0:
            self.sent.add(task)
        else:
            self.sent.discard(task)

    async def take(self, ahead: Ahead | None, make: MakeRequest) -> Generated:
        """The request's answer: the one started ahead (charged when sent), else one made now
        through the budget."""
        if ahead is None or ahead not in self.pending:
            return await self._generate(make())
        self.pending.discard(ahead)
        if ahead not in self.held:  # still waiting for its turn, or it came without room: never sent
            ahead.cancel()
            return await self._generate(make())
        self.held.discard(ahead)
        self.sent.discard(ahead)
        out = await ahead  # (cancelled: its unit is given back, or counted cancelled if it had left)
        assert out is not None  # a sent request's answer
        self.budget.took_ahead(out.seconds)
        return out

    def drop(self, ahead: Ahead | None) -> None:
        """A request started ahead that the search will not take: aborted; charged if it was sent,
        reported unused."""
        if ahead is None or ahead not in self.pending:
            return
        self.pending.discard(ahead)
        self.held.discard(ahead)
        if ahead in self.sent:
            self.sent.discard(ahead)
            self.budget.unused_ahead("calls")
        if not ahead.done():
            ahead.cancel()
        elif not ahead.cancelled():
            ahead.exception()  # retrieved: an endpoint error here is met again by the request made instead


async def _request(make: MakeRequest) -> Generated:
    """One model request outside the budget. The coroutine is made inside the task, so that a task
    cancelled before it ran leaves no coroutine unawaited."""
    started = asyncio.get_running_loop().time()
    try:
        out = Generated(await make())
    except AttemptFailed:
        out = Generated()  # the server refused this request (a 4xx): a failed attempt, as in the search
    out.seconds = asyncio.get_running_loop().time() - started
    return out


class ChecksAhead:
    """One search's Lean checks started ahead of need: by text, until the search takes or drops them."""

    def __init__(self, lean: BudgetedVerifier, budget: Budget) -> None:
        self.lean = lean
        self.budget = budget
        self._ahead: dict[str, asyncio.Task[CheckResult]] = {}  # started ahead, not yet taken
        self._requests: dict[str, Awaitable[CheckResult]] = {}  # their requests, to see if one ran
        self._units: dict[str, Unit] = {}  # their units of budget

    def has_room(self) -> bool:
        return self.lean.has_room()

    def start(self, code: str) -> bool:
        """Start checking `code` before the search needs it, if Lean has room (the check starts at
        once, on a worker that would idle) and the budget has a unit left: charged now, as it is
        sent. The search takes it by checking the same code (nothing more is charged then: `take`);
        `drop` if it never does (reported unused)."""
        if code in self._ahead or self.lean.known(code):
            return False
        if not self.budget.has_checks(speculative=True) or not self.lean.has_room():
            return False
        # the unit held now (a check taken later must not find it gone), charged as the check leaves
        unit = self.budget.hold_check(ahead=True)
        request = self.lean.sent_ahead(unit, code)
        self._requests[code] = request
        self._units[code] = unit
        self._ahead[code] = asyncio.ensure_future(request)
        return True

    def take(self, code: str) -> Awaitable[CheckResult] | None:
        """The check of `code` started ahead, now the search's (None: none)."""
        task = self._ahead.pop(code, None)
        if task is not None:
            self._requests.pop(code, None)
            self._units.pop(code, None)
        return task

    def drop(self, code: str) -> None:
        """A check started ahead that the search will not take: charged (it was sent), reported
        unused (cancelled if still running: the verifier lets a sent check finish,
        lean/kimina/_batcher.py)."""
        task = self._ahead.pop(code, None)
        request = self._requests.pop(code, None)
        unit = self._units.pop(code, None)
        if task is None:
            return
        if unit is not None and unit.state == "sent":
            self.budget.unused_ahead("checks")
        elif inspect.iscoroutine(request) and inspect.getcoroutinestate(request) == inspect.CORO_CREATED and unit is not None:
            # its task never ran: the request never left, and its unit is given back now
            self.budget.give_back(unit)
        # (still waiting inside the client: cancelled below, it gives its unit back itself)
        if not task.done():
            task.cancel()
        elif not task.cancelled():
            task.exception()  # retrieved: an infrastructure error here is met again if checked for real

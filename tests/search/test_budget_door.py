"""The run's Lean door (budget → gate → backend) hands a check's order and the backend's "Lean has
room" event through explicitly: what a backend with a check queue receives, and what one without
gets instead (the documented fallbacks of lean/verifier.py's capability Protocols). A check given
no order gets the one the run's schedule names as it is about to go (`DoorSchedule.order`)."""

from __future__ import annotations

from lemmaforge.config import BudgetConfig
from lemmaforge.lean import priority
from lemmaforge.lean.gate import GatedVerifier
from lemmaforge.lean.verifier import CheckResult, CheckStatus, QueuedVerifier
from lemmaforge.schedule.ahead import ChecksAhead
from lemmaforge.schedule.order import CheckOrder
from lemmaforge.search.budget import Budget, BudgetedVerifier, Unscheduled
from tests.fakes.fake_common import CheckOnlyVerifier
from tests.fakes.scripted import CountingVerifier

ORDER = CheckOrder((0, -3, -2, 7))
NAMED = CheckOrder((1, -1, -1, 3))


class _Ordering(Unscheduled):
    """A schedule whose every check goes in `NAMED` order."""

    def order(self) -> priority.OrderKey | None:
        return NAMED


class _Queued(CheckOnlyVerifier):
    """A backend whose checks queue: it records the order each check came with."""

    def __init__(self) -> None:
        self.idle = priority.LeanIdle()
        self.orders: list[priority.OrderKey | None] = []

    async def check(self, code: str, *, timeout=None, order=None) -> CheckResult:
        self.orders.append(order)
        return CheckResult(CheckStatus.VALID)


async def test_a_checks_order_and_the_idle_event_reach_a_queued_backend_through_budget_and_gate() -> None:
    backend = _Queued()
    assert isinstance(backend, QueuedVerifier)
    budget = Budget(BudgetConfig(lean_checks=10))
    lean = BudgetedVerifier(GatedVerifier(backend), budget, timeout=5)
    await lean.check("theorem a : True := trivial", order=ORDER)
    await lean.check_many(["theorem b : True := trivial", "theorem c : True := trivial"], order=ORDER)
    await lean.check("theorem d : True := trivial")  # no order given, no schedule: none
    lean.schedule = _Ordering()
    await lean.check("theorem e : True := trivial")  # no order given: the schedule's
    await lean.check("theorem f : True := trivial", order=ORDER)  # a named order wins
    assert backend.orders == [ORDER, ORDER, ORDER, None, NAMED, ORDER]
    assert budget.stats.checks == 6
    heard: list[int] = []
    lean.idle.listen(lambda: heard.append(1))
    backend.idle.fire()
    assert heard == [1]  # the door's idle is the backend's own event


async def test_a_backend_without_a_queue_ignores_the_order_never_idles_and_has_no_room() -> None:
    backend = CountingVerifier(proves=lambda code: True)  # as `lake`: no queue, `check` takes no order
    budget = Budget(BudgetConfig(lean_checks=10))
    lean = BudgetedVerifier(GatedVerifier(backend), budget, timeout=5)
    result = await lean.check("theorem a : True := trivial", order=ORDER)
    assert result.status is CheckStatus.VALID and backend.checked == ["theorem a : True := trivial"]
    heard: list[int] = []
    lean.idle.listen(lambda: heard.append(1))
    await lean.check("theorem b : True := trivial")
    assert heard == [] and lean.has_room() is False  # nothing is started ahead on it
    assert ChecksAhead(lean, budget).start("theorem c : True := trivial") is False and budget.stats.checks == 2

"""schedule/ledgers.py: what work tried before its turn sends is charged as it is sent, recorded
in its ledger, used when its turn comes and reported unused (to the budget, which counts) when it
never does."""

from __future__ import annotations

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.schedule.ledgers import Ledgers, Provisional
from lemmaforge.search.budget import Budget, BudgetExhausted, Unscheduled


class _Accounts(Unscheduled):
    """The run's schedule as the budget asks it: the current task's provisional work."""

    def account(self) -> Provisional | None:
        return Ledgers.current()


def _booked(cfg: BudgetConfig) -> tuple[Budget, Ledgers]:
    budget = Budget(cfg)
    budget.schedule = _Accounts()
    return budget, Ledgers(budget)


def test_provisional_spends_are_charged_as_sent_and_reported_unused_when_their_turn_never_comes():
    budget, book = _booked(BudgetConfig(llm_calls=3, lean_checks=10))
    first, second = book.provisional(), book.provisional()
    with Ledgers.within(first):
        budget.spend_call()
        budget.spend_check()
    with Ledgers.within(second):
        budget.spend_call()
        inner = book.provisional()  # work before its turn inside work before its turn
        with Ledgers.within(inner):
            budget.spend_check()
    assert (budget.stats.llm_calls, budget.stats.checks) == (2, 2)  # charged as they were sent
    book.charge(inner)  # its turn within `second`: still provisional, as part of it
    assert second.checks == 1 and inner.state == "charged"
    budget.spend_call()  # on its turn: 3 of 3
    with pytest.raises(BudgetExhausted):
        budget.spend_call()  # nothing is lent or taken back: the cap holds
    book.refund(second)  # its turn never comes: what it sent stays charged, reported unused
    with Ledgers.within(second), pytest.raises(BudgetExhausted):
        budget.spend_check()  # work being cancelled sends nothing more
    book.charge(first)  # its turn came
    stats = budget.stats
    assert (stats.llm_calls, stats.checks, stats.speculative_calls, stats.speculative_checks) == (3, 2, 1, 1)
    assert (stats.used_calls, stats.used_checks) == (2, 1)


def test_the_lean_time_of_refunded_work_is_reported_apart():
    budget, book = _booked(BudgetConfig())
    kept, lost = book.provisional(), book.provisional()
    budget.checked(1.0)  # on its turn
    with Ledgers.within(kept):
        budget.checked(2.0)
    with Ledgers.within(lost):
        budget.checked(4.0)
    book.charge(kept)
    book.refund(lost)
    assert budget.stats.check_seconds == 7.0 and budget.stats.speculative_check_seconds == 4.0


def test_a_unit_sent_after_its_work_lost_its_turn_is_reported_unused_at_once():
    """A unit held while the work was open and sent after it was refunded: charged (it left) and
    counted speculative by the budget as it leaves, not added to the refunded ledger."""
    budget, book = _booked(BudgetConfig(llm_calls=5))
    work = book.provisional()
    with Ledgers.within(work):
        unit = budget.hold_call()
    book.refund(work)
    assert budget.stats.speculative_calls == 0
    budget._report(unit, "sent")
    assert (budget.stats.llm_calls, budget.stats.speculative_calls, work.calls) == (1, 1, 0)

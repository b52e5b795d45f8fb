"""What work tried before its turn sends, kept apart (`[search] speculation = "full"`).

An alternative sketch started beside an earlier one of the same goal spends real units (a budget
caps what leaves the process, search/budget.py): what it sends before its turn is provisional.
Each such piece of work has a ledger (`Provisional`); the tasks doing it spend into it (`enter` /
`within`: a context variable, inherited by the tasks they create), and the run's budget, asking
the schedule whose account the current task spends for (`Ledgers.current`, the budget's
`DoorSchedule.account`), records each unit there besides charging it. When its turn comes
(`charge`) its spends are used — part of the enclosing provisional work, if that is itself before
its turn; when it never comes (`refund`) they are reported to the budget as speculative, unused
(`Budget.lost`), and its further spends are refused. The ledgers never write the run's counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Literal

from lemmaforge.search.budget import Budget, Kind


def _nothing() -> None:
    return None


@dataclass(eq=False, slots=True)
class Provisional:
    """What one piece of work tried before its turn sent (a `search.budget.Account`)."""

    parent: Provisional | None
    cancel: Callable[[], object] = _nothing
    calls: int = 0
    checks: int = 0
    check_seconds: float = 0.0  # Lean time its checks took (refunded work's is reported apart)
    state: Literal["open", "charged", "refunded"] = "open"
    children: list[Provisional] = field(default_factory=list)

    @property
    def lost(self) -> bool:
        return self.state == "refunded"

    def spent(self, kind: Kind, delta: int) -> bool:
        """A unit held in this work moved (+1 sent, -1 back to held): recorded where this work's
        spends go now (itself, or the enclosing work once it was charged). True when that work
        lost its turn: the budget reports the unit unused."""
        ledger: Provisional | None = self
        while ledger is not None and ledger.state == "charged":
            ledger = ledger.parent
        if ledger is None:
            return False
        if ledger.state == "refunded":
            return True
        if kind == "calls":
            ledger.calls += delta
        else:
            ledger.checks += delta
        return False

    def checked(self, seconds: float) -> None:
        self.check_seconds += seconds


_provisional: ContextVar[Provisional | None] = ContextVar("lemmaforge_provisional", default=None)


class Ledgers:
    """The provisional work of one search, and its settling against the run's budget."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget

    @staticmethod
    def current() -> Provisional | None:
        """The open provisional work the current task spends for (None: work on its turn)."""
        ledger = _provisional.get()
        while ledger is not None and ledger.state == "charged":
            ledger = ledger.parent
        return ledger

    def provisional(self) -> Provisional:
        """A ledger for work about to start before its turn, inside the current provisional work if
        any. Its spends are recorded in it where `within(ledger)` is in force (or `enter(ledger)`
        was called in the task doing the work)."""
        ledger = Provisional(parent=self.current())
        if ledger.parent is not None:
            ledger.parent.children.append(ledger)
        return ledger

    @staticmethod
    def enter(ledger: Provisional | None) -> None:
        """The current task (and the tasks it creates) spends into `ledger` (None: no change)."""
        if ledger is not None:
            _provisional.set(ledger)

    @staticmethod
    @contextmanager
    def within(ledger: Provisional | None) -> Iterator[None]:
        """Spends inside the block are recorded in `ledger` (None: no change)."""
        if ledger is None:
            yield
            return
        token = _provisional.set(ledger)
        try:
            yield
        finally:
            _provisional.reset(token)

    def charge(self, ledger: Provisional | None) -> None:
        """The work's turn has come: what it sent is used (part of the enclosing provisional work,
        if that is itself before its turn). None: work on its turn all along."""
        if ledger is None or ledger.state != "open":
            return
        parent = ledger.parent
        while parent is not None and parent.state == "charged":
            parent = parent.parent
        if parent is not None and parent.state == "refunded":
            self.refund(ledger)
            return
        ledger.state = "charged"
        if parent is not None:  # still provisional, now as part of the enclosing work
            parent.calls += ledger.calls
            parent.checks += ledger.checks
            parent.check_seconds += ledger.check_seconds

    def refund(self, ledger: Provisional | None) -> None:
        """The work will never have its turn: what it sent stays charged (it left the process) and
        is reported as speculative, unused. Its further spends are refused."""
        if ledger is None or ledger.state != "open":
            return
        ledger.state = "refunded"
        self.budget.lost(calls=ledger.calls, checks=ledger.checks, check_seconds=ledger.check_seconds)
        for child in ledger.children:
            self.refund(child)


__all__ = ["Ledgers", "Provisional"]

"""The moment a request leaves the process, told by the client that sends it.

Why: a run's budget caps what it SENDS (search/budget.py). A request handed to a client may still
wait inside it — for the LLM client's concurrency slot, in the Kimina batcher's queue, for a free
REPL worker — and a request cancelled while it waits never reaches a server. So the budget holds a
unit for a request when it hands it on and charges it only when the client says it left; a
request cancelled before that gives its unit back.

The clients say so through the calls below, made in the task of the request (the budget binds the
request's unit to that task's context with `reporting`): `queued()` when the request enters their
queue or waits for their slot, `sent()` when it leaves, `not_sent()` when they answer it without
sending anything. A client that sends from another task (the Kimina batcher's dispatcher) takes
`current()` in the request's task and calls it when the request goes. A client that says nothing
(an in-process model, a test stand-in) is taken to have sent the request when it was handed on, as
it has no queue of its own; so is one that answered or failed after `queued()` alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal

# What a client says of the current request (see the module's doc). After "sent" or "not_sent"
# nothing more counts.
Word = Literal["queued", "sent", "not_sent"]
Report = Callable[[Word], None]

_report: ContextVar[Report | None] = ContextVar("lemmaforge_sending", default=None)


def _say(word: Word) -> None:
    report = _report.get()
    if report is not None:
        report(word)


def queued() -> None:
    """The current request waits inside the client (a queue, a concurrency slot): not sent yet."""
    _say("queued")


def sent() -> None:
    """The current request leaves the process now (its queue or slot is behind it)."""
    _say("sent")


def not_sent() -> None:
    """The current request is answered inside the process: nothing leaves for it."""
    _say("not_sent")


def current() -> Callable[[], None]:
    """`sent` for the current request, to call from another task when the request goes."""
    report = _report.get()
    if report is None:
        return lambda: None
    return lambda: report("sent")


@contextmanager
def reporting(report: Report) -> Iterator[None]:
    """Requests made inside the block (and in the tasks they create) report to `report`."""
    token = _report.set(report)
    try:
        yield
    finally:
        _report.reset(token)


class Sent:
    """Whether one request made outside any run's budget left the process (a bench's statement
    check: the bench reports it as its own), by the same words a budget hears: a request handed to
    a client that says nothing left; "queued" means not yet; "sent" settles it; "not_sent" means it
    never will. Listen with `reporting(flag.hear)`; `settle` once the request is over."""

    __slots__ = ("_word", "left")

    def __init__(self) -> None:
        self.left = True
        self._word: Word | None = None

    def hear(self, word: Word) -> None:
        if self._word in ("sent", "not_sent"):
            return
        self._word = word
        self.left = word == "sent"

    def settle(self, *, cancelled: bool) -> bool:
        """Whether it left: one answered or failed after "queued" alone was sent (the client had no
        more to say); one cancelled while queued never left."""
        if self._word == "queued" and not cancelled:
            self.left = True
        return self.left

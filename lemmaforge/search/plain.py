"""The plain schedule: each step of the search when the one before it is done.

`[search] speculation = "off"`: nothing is started ahead, nothing is held, nothing streams; a
goal's requests are made when its step needs them, a race's candidates are checked when their
request answers, a goal's alternative sketches are tried one after another. The hooks are the
engine's doors to the schedule (search/interfaces.py `Schedule`); lemmaforge/schedule/ implements
them with speculation, and none of its code runs with this one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext

from lemmaforge.lean.priority import OrderKey
from lemmaforge.lean.verifier import CheckResult
from lemmaforge.search.assemble import Solution
from lemmaforge.search.budget import Account
from lemmaforge.search.interfaces import (
    Feed,
    Generated,
    GroupKind,
    MakeRequest,
    RequestKind,
    SearchRun,
    SketchTries,
    Step,
    T,
    Work,
)
from lemmaforge.search.tree import Node

Generate = Callable[[Awaitable[Sequence[object]]], Awaitable[Generated]]


async def one_at_a_time(tries: SketchTries) -> Solution | None:
    """A goal's alternative sketches one after another: the first that closes the goal wins."""
    for _ in range(tries.count):
        sketches = await tries.draft()
        if not sketches:
            continue
        solution = await tries.attempt(sketches)
        if solution is not None:
            return tries.won(solution)
    return None


class _Made:
    """A request made when its answer is asked for (through the run's budget)."""

    __slots__ = ("_generate", "_request")

    feed: Feed | None = None

    def __init__(self, generate: Generate, request: MakeRequest) -> None:
        self._generate = generate
        self._request = request

    def answer(self) -> Awaitable[Generated]:
        return self._generate(self._request(None))


class PlainGoal:
    """A goal's requests, each made when its step needs it."""

    __slots__ = ("_generate",)

    def __init__(self, generate: Generate) -> None:
        self._generate = generate

    def known(self, kind: RequestKind, request: MakeRequest) -> _Made:
        return _Made(self._generate, request)

    def needed(self, request: MakeRequest) -> _Made:
        return _Made(self._generate, request)

    def beside(self, attempt: Awaitable[Solution | None], step: Step) -> Awaitable[Solution | None]:
        return attempt

    def work(self, work: Callable[[], Awaitable[Solution | None]],
             elsewhere: Callable[[str], Solution]) -> Awaitable[Solution | None]:
        return work()

    def sketches(self, tries: SketchTries) -> Awaitable[Solution | None]:
        return one_at_a_time(tries)

    def close(self) -> None:
        pass


class Unranked:
    """A group whose members run as they come (nothing held behind an earlier one)."""

    __slots__ = ()

    def add(self, rank: int, work: Work[T]) -> Work[T]:
        return work

    def end(self) -> None:
        pass


class _NoSketch:
    __slots__ = ()

    def solved(self, hole: Node, solution: Solution) -> None:
        pass

    def close(self) -> None:
        pass


_UNRANKED = Unranked()
_NO_SKETCH = _NoSketch()


class PlainSchedule:
    """One search, one step after another."""

    __slots__ = ("_generate",)

    def __init__(self, run: SearchRun) -> None:
        self._generate: Generate = run.generate

    def scope(self) -> nullcontext[None]:
        return nullcontext()

    def goal(self, node: Node) -> PlainGoal:
        return PlainGoal(self._generate)

    def ranked(self, kind: GroupKind, window: int = 1) -> Unranked:
        return _UNRANKED

    def sketch(self, sketch: Node, goal: Node, holes: Sequence[Node]) -> _NoSketch:
        return _NO_SKETCH

    @contextmanager
    def checking(self, goal: Node, would_be: Callable[[], Solution | None]) -> Iterator[None]:
        yield

    def order(self) -> OrderKey | None:
        return None  # the check queue's own order: first come, first served

    def started(self, code: str) -> Awaitable[CheckResult] | None:
        return None

    def account(self) -> Account | None:
        return None

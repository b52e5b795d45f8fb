"""The plain schedule: each step of the search when the one before it is done.

`[search] speculation = "off"`: nothing is started ahead, nothing is held, nothing streams; a
goal's requests are made when its step needs them, a race's candidates are checked when their
request answers. The hooks are the engine's doors to the schedule (search/interfaces.py
`Schedule`); lemmaforge/schedule/ implements them with speculation, and none of its code runs
with this one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any, TypeVar

from lemmaforge.search.assemble import Solution
from lemmaforge.search.interfaces import Feed, Generated, MakeRequest, Step
from lemmaforge.search.tree import Node

T = TypeVar("T")
Generate = Callable[[Awaitable[Any]], Awaitable[Generated]]


class PlainGoal:
    """A goal's requests, each made when its step needs it (through the run's budget)."""

    __slots__ = ("_generate",)

    def __init__(self, generate: Generate) -> None:
        self._generate = generate

    def start_provers(self, requests: Sequence[MakeRequest]) -> None:
        pass

    def start_draft(self, request: Callable[[], Awaitable[Any]]) -> None:
        pass

    async def beside(self, attempt: Awaitable[Solution | None], step: Step) -> Solution | None:
        return await attempt

    def prover(self, index: int, request: MakeRequest) -> tuple[Awaitable[Generated], Feed | None]:
        return self._generate(request(None)), None

    def request(self, request: MakeRequest) -> tuple[Awaitable[Generated], Feed | None]:
        return self._generate(request(None)), None

    def draft(self, request: Callable[[], Awaitable[Any]]) -> Awaitable[Generated]:
        return self._generate(request())

    def close(self) -> None:
        pass


class Unranked:
    """A group whose members run as they come (nothing held behind an earlier one)."""

    __slots__ = ()

    def add(self, rank: int, work: Coroutine[Any, Any, T]) -> Coroutine[Any, Any, T]:
        return work

    def end(self) -> None:
        pass


class PlainSchedule:
    """One search, one step after another."""

    def __init__(self, generate: Generate) -> None:
        self._generate = generate

    def scope(self) -> nullcontext[None]:
        return nullcontext()

    def goal(self, node: Node) -> PlainGoal:
        return PlainGoal(self._generate)

    async def solve_goal(self, node: Node, work: Callable[[], Awaitable[Solution | None]]) -> Solution | None:
        return await work()

    async def sketches(
        self, node: Node, steps: Any, one_at_a_time: Callable[[], Awaitable[Solution | None]]
    ) -> Solution | None:
        return await one_at_a_time()

    def race(self, window: int) -> Unranked:
        return Unranked()

    def holes(self) -> Unranked:
        return Unranked()

    def sketch_opened(self, sketch: Node, goal: Node, holes: Sequence[Node]) -> None:
        pass

    def hole_solved(self, hole: Node, solution: Solution) -> None:
        pass

    def sketch_closed(self, sketch: Node) -> None:
        pass

    @contextmanager
    def checking(self, goal: Node, would_be: Callable[[], Solution | None]) -> Iterator[None]:
        yield

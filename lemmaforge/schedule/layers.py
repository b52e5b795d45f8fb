"""The speculative schedule: the engine's hooks (search/interfaces.py `Schedule`) with work
started ahead of need and ordered by the search's progress (see the package's doc)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

from lemmaforge.lean import priority as lean_priority
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.audit import text_to_check
from lemmaforge.schedule.ahead import Ahead, RequestsAhead
from lemmaforge.schedule.alternatives import Alternatives
from lemmaforge.schedule.assembly_ahead import AssemblyAhead
from lemmaforge.schedule.feed import CandidateFeed, FedRequest
from lemmaforge.search.assemble import Solution
from lemmaforge.search.interfaces import CandidateLike, Feed, Generated, MakeRequest, SearchRun, Step
from lemmaforge.search.tree import Node

T = TypeVar("T")


class Speculative:
    """One search's speculation: "prefetch", or "full" (`parallel`: alternative sketches beside
    each other, and a goal settled as soon as the same statement is proved elsewhere)."""

    def __init__(self, run: SearchRun, *, parallel: bool) -> None:
        self.run = run
        self.parallel = parallel
        self.ahead = RequestsAhead(run.budget, run.lean, run.generate, enabled=True)
        self.assemblies = AssemblyAhead(
            run.lean, run.header, theorem=run.theorem,
            audit_text=lambda code: text_to_check(code, run.lean, original=run.original),
        )

    def scope(self) -> AbstractContextManager[object]:
        return lean_priority.search_scope()  # this search's checks queue by its progress

    def goal(self, node: Node) -> SpeculativeGoal:
        lean_priority.at_depth(node.depth, node.hole_index or 0)
        return SpeculativeGoal(self, node)

    async def solve_goal(self, node: Node, work: Callable[[], Awaitable[Solution | None]]) -> Solution | None:
        # Watched only where alternatives run beside each other: there the same hole is open in
        # two sketches at once as a rule (one at a time, the watch measured worse: see
        # docs/performance.md).
        if node.parent_id is None or not self.parallel:
            return await work()
        return await self._unless_proved_elsewhere(node, work)

    async def _unless_proved_elsewhere(
        self, node: Node, work: Callable[[], Awaitable[Solution | None]]
    ) -> Solution | None:
        """The goal's own work, in its own task, settled at once when another goal of the run
        proves the same statement meanwhile (the subgoal cache tells it: `SubgoalCache.watch`):
        a goal that looked in the cache only between its steps went on paying for a deep subtree
        after its statement had been proved."""
        run = self.run
        proved = run.cache.watch(run.header, node.text)
        task = asyncio.ensure_future(work())
        settled_elsewhere = False

        def told(answer: asyncio.Future[str]) -> None:
            nonlocal settled_elsewhere
            # Its own proof also tells its watcher: only a goal still open is cancelled.
            if not answer.cancelled() and not task.done() and node.status == "open":
                settled_elsewhere = True
                task.cancel()

        proved.add_done_callback(told)
        try:
            return await task  # (cancelling this goal cancels its work, and waits for it)
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if not settled_elsewhere or (current is not None and current.cancelling()):
                raise
            run.budget.stats.cache_hits += 1
            return run.solved(node, "cache", Solution(proved.result()))
        finally:
            run.cache.unwatch(run.header, node.text, proved)

    async def sketches(
        self, node: Node, steps: Any, one_at_a_time: Callable[[], Awaitable[Solution | None]]
    ) -> Solution | None:
        if not self.parallel:
            return await one_at_a_time()
        return await Alternatives(self.run, self.ahead, node, steps.take_draft()).run()

    def race(self, window: int) -> _Ranked:
        # The candidates' order of arrival: a later one's check waits for the earlier ones'
        # verdicts (all but `window - 1` of them) unless Lean has room (lean/priority.py).
        return _Ranked(lean_priority.Siblings(window=window, kind="race"), leave_on_error=True)

    def holes(self) -> _Ranked:
        # A later hole's work waits while an earlier hole is unsolved, unless Lean has room: when
        # a hole fails, the work on its siblings is lost.
        return _Ranked(lean_priority.Siblings(kind="holes"), leave_on_error=False)

    def sketch_opened(self, sketch: Node, goal: Node, holes: Sequence[Node]) -> None:
        self.assemblies.open(sketch, goal, list(holes))

    def hole_solved(self, hole: Node, solution: Solution) -> None:
        self.assemblies.solved(hole, solution)

    def sketch_closed(self, sketch: Node) -> None:
        self.assemblies.close(sketch)  # after its assembly: what it never took is dropped

    @contextmanager
    def checking(self, goal: Node, would_be: Callable[[], Solution | None]) -> Iterator[None]:
        if self.assemblies.tracks(goal):
            with self.assemblies.pending(goal, would_be()):
                yield
        else:
            yield


class _Ranked:
    """A lean/priority `Siblings` group: each member's checks held behind earlier members'."""

    __slots__ = ("group", "leave_on_error")

    def __init__(self, group: lean_priority.Siblings, *, leave_on_error: bool) -> None:
        self.group = group
        self.leave_on_error = leave_on_error

    def add(self, rank: int, work: Coroutine[Any, Any, T]) -> Coroutine[Any, Any, T]:
        self.group.enter(rank)
        return self._run(rank, work)

    async def _run(self, rank: int, work: Coroutine[Any, Any, T]) -> T:
        lean_priority.join(self.group, rank)  # in the member's own task: its checks only
        if self.leave_on_error:
            try:
                return await work
            finally:
                self.group.leave(rank)  # answered (or cancelled): the next need not wait for it
        out = await work
        self.group.leave(rank)
        return out

    def end(self) -> None:
        self.group.end()


class SpeculativeGoal:
    """One goal's requests started ahead of need, and the checks of their answers started ahead
    while Lean has room; each is taken where the goal's steps would have made it, or dropped
    when the goal closes first."""

    def __init__(self, schedule: Speculative, node: Node) -> None:
        self.schedule = schedule
        self.run = schedule.run
        self.node = node
        self.provers: list[Ahead | None] = []
        self.feeds: list[CandidateFeed] = []
        self.fed: list[FedRequest] = []
        self.sketch: Ahead | None = None
        self.checks_ahead: list[str] = []

    def start_provers(self, requests: Sequence[MakeRequest]) -> None:
        self.fed = [FedRequest(request) for request in requests]
        prover = self.run.prover
        self.provers = [self.schedule.ahead.start(prover, fed) for fed in self.fed]

    def start_draft(self, request: Callable[[], Awaitable[Any]]) -> None:
        self.schedule.ahead.drop(self.sketch)
        self.sketch = self.schedule.ahead.start(self.run.planner, request)

    async def beside(self, attempt: Awaitable[Solution | None], step: Step) -> Solution | None:
        """`attempt`; meanwhile, as each request started ahead answers, its candidates' checks
        (after automation: the prover's; after the prover: the first sketch's) start ahead when
        Lean has room — each candidate as it arrives where the request streams. On a run's tail,
        where each goal's steps are one dependent chain, a step's check and the next step's then
        take the time of one."""
        answered: Callable[[Generated], None]
        if step == "automation":
            requests, answered, feeds = self.provers, self._check_candidates_ahead, [f.feed for f in self.fed]
        else:
            requests, answered, feeds = [self.sketch], self._check_sketch_ahead, []
        waiting = [t for t in requests if t is not None]
        if not waiting:
            return await attempt
        told: set[int] = set()  # id() of the candidates a feed already gave `answered`

        def arrived(candidate: CandidateLike, _seconds: float) -> None:
            told.add(id(candidate))
            _answer(answered, Generated([candidate]))

        stops = [feed.listen(arrived) for feed in feeds]
        # The watch answers only what no feed gave (a prover that does not stream).
        watch = asyncio.ensure_future(self._watch_answers(
            waiting, lambda out: answered(Generated(c for c in out if id(c) not in told))))
        try:
            return await attempt
        finally:
            watch.cancel()
            for stop in stops:
                stop()

    async def _watch_answers(self, requests: list[Ahead], answered: Callable[[Generated], None]) -> None:
        pending = set(requests)
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for request in done:
                if not request.cancelled() and request.exception() is None and request in self.schedule.ahead.sent:
                    _answer(answered, request.result() or Generated())

    def _check_candidates_ahead(self, candidates: Generated) -> None:
        for candidate in candidates:
            if candidate.body:
                code = self.run.candidate_code(self.node, candidate)
                if self.run.lean.check_ahead(code):
                    self.checks_ahead.append(code)

    def _check_sketch_ahead(self, sketches: Generated) -> None:
        if sketches and lean_syntax.same_statement(self.node.text, sketches[0].code):
            code = self.run.header + sketches[0].code
            if self.run.lean.check_ahead(code):
                self.checks_ahead.append(code)

    def prover(self, index: int, request: MakeRequest) -> tuple[Awaitable[Generated], Feed | None]:
        fed = self.fed[index] if index < len(self.fed) else FedRequest(request)
        ahead = self.provers[index] if index < len(self.provers) else None
        return self.schedule.ahead.take(ahead, fed), fed.feed

    def request(self, request: MakeRequest) -> tuple[Awaitable[Generated], Feed | None]:
        fed = FedRequest(request)
        return self.run.generate(fed()), fed.feed

    def draft(self, request: Callable[[], Awaitable[Any]]) -> Awaitable[Generated]:
        ahead, self.sketch = self.sketch, None
        return self.schedule.ahead.take(ahead, request)

    def take_draft(self) -> Ahead | None:
        """The sketch request started ahead, now owned by the caller (alternatives.py)."""
        ahead, self.sketch = self.sketch, None
        return ahead

    def close(self) -> None:
        for task in (*self.provers, self.sketch):
            self.schedule.ahead.drop(task)
        for code in self.checks_ahead:
            self.run.lean.drop_ahead(code)


def _answer(answered: Callable[[Generated], None], candidates: Generated) -> None:
    try:
        answered(candidates)
    except ValueError:
        pass  # a candidate `fill` refuses: the prover's turn meets it and records it

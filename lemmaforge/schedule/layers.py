"""The speculative schedule: the engine's hooks (search/interfaces.py `Schedule`) with work
started ahead of need and ordered by the search's progress (see the package's doc). It decides
when work runs and hands the results back; the engine marks nodes and the budget counts."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager

from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.audit import text_to_check
from lemmaforge.lean.verifier import CheckResult
from lemmaforge.schedule import order as lean_order
from lemmaforge.schedule.ahead import Ahead, ChecksAhead, RequestsAhead
from lemmaforge.schedule.alternatives import Alternatives
from lemmaforge.schedule.assembly_ahead import AssemblyAhead, OpenSketch
from lemmaforge.schedule.feed import FedRequest
from lemmaforge.schedule.ledgers import Ledgers, Provisional
from lemmaforge.search.assemble import Solution
from lemmaforge.search.interfaces import (
    CandidateLike,
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
from lemmaforge.search.plain import one_at_a_time
from lemmaforge.search.tree import Node


class Speculative:
    """One search's speculation: "prefetch", or "full" (`parallel`: alternative sketches beside
    each other, and a goal settled as soon as the same statement is proved elsewhere)."""

    def __init__(self, run: SearchRun, *, parallel: bool) -> None:
        self.run = run
        self.parallel = parallel
        self.ahead = RequestsAhead(run.budget, run.lean, run.generate, enabled=True)
        self.checks = ChecksAhead(run.lean, run.budget)
        self.ledgers = Ledgers(run.budget)
        self.assemblies = AssemblyAhead(
            self.checks, run.header, theorem=run.theorem,
            audit_text=lambda code: text_to_check(code, run.lean, original=run.original),
        )

    def scope(self) -> AbstractContextManager[object]:
        return lean_order.search_scope()  # this search's checks queue by its progress

    def goal(self, node: Node) -> SpeculativeGoal:
        lean_order.at_depth(node.depth, node.hole_index or 0)
        return SpeculativeGoal(self, node)

    # -- what the run's doors ask (search/budget.py `DoorSchedule`) ------------------------------

    def order(self) -> lean_order.CheckOrder:
        return lean_order.order_now()

    def started(self, code: str) -> Awaitable[CheckResult] | None:
        return self.checks.take(code)

    def account(self) -> Provisional | None:
        return Ledgers.current()

    # -- a goal's own work -------------------------------------------------------------------

    async def work(self, node: Node, work: Callable[[], Awaitable[Solution | None]],
                   elsewhere: Callable[[str], Solution]) -> Solution | None:
        # Watched only where alternatives run beside each other: there the same hole is open in
        # two sketches at once as a rule (one at a time, the watch measured worse: see
        # docs/performance.md).
        if node.parent_id is None or not self.parallel:
            return await work()
        return await self._unless_proved_elsewhere(node, work, elsewhere)

    async def _unless_proved_elsewhere(
        self, node: Node, work: Callable[[], Awaitable[Solution | None]], elsewhere: Callable[[str], Solution]
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
            return elsewhere(proved.result())  # the engine records it
        finally:
            run.cache.unwatch(run.header, node.text, proved)

    def ranked(self, kind: GroupKind, window: int = 1) -> _Ranked:
        # A race: the candidates' order of arrival, a later one's check waits for the earlier ones'
        # verdicts (all but `window - 1` of them) unless Lean has room. A sketch's holes: a later
        # hole's work waits while an earlier hole is unsolved, unless Lean has room (when a hole
        # fails, the work on its siblings is lost). schedule/order.py holds them.
        return _Ranked(lean_order.Siblings(window=window, kind=kind), leave_on_error=kind == "race")

    def sketch(self, sketch: Node, goal: Node, holes: Sequence[Node]) -> OpenSketch:
        return self.assemblies.open(sketch, goal, list(holes))

    @contextmanager
    def checking(self, goal: Node, would_be: Callable[[], Solution | None]) -> Iterator[None]:
        if self.assemblies.tracks(goal):
            with self.assemblies.pending(goal, would_be()):
                yield
        else:
            yield


class _Ranked:
    """A schedule/order.py `Siblings` group: each member's checks held behind earlier members'."""

    __slots__ = ("group", "leave_on_error")

    def __init__(self, group: lean_order.Siblings, *, leave_on_error: bool) -> None:
        self.group = group
        self.leave_on_error = leave_on_error

    def add(self, rank: int, work: Work[T]) -> Work[T]:
        self.group.enter(rank)
        return self._run(rank, work)

    async def _run(self, rank: int, work: Work[T]) -> T:
        lean_order.join(self.group, rank)  # in the member's own task: its checks only
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


class _Ahead:
    """A request of one goal made known to the speculative schedule: started ahead if that costs
    nothing (schedule/ahead.py), taken when the engine asks for its answer; one needed now (no
    kind) is made then, through the run's budget."""

    __slots__ = ("fed", "goal", "kind", "task")

    def __init__(self, goal: SpeculativeGoal, kind: RequestKind | None, fed: FedRequest,
                 task: Ahead | None) -> None:
        self.goal, self.kind, self.fed, self.task = goal, kind, fed, task

    @property
    def feed(self) -> Feed | None:
        return self.fed.feed if self.kind != "draft" else None

    def answer(self) -> Awaitable[Generated]:
        goal = self.goal
        if goal.sketch is self:
            goal.sketch = None
        task, self.task = self.task, None
        return goal.schedule.ahead.take(task, self.fed)


class SpeculativeGoal:
    """One goal's requests started ahead of need, and the checks of their answers started ahead
    while Lean has room; each is taken where the goal's steps would have made it, or dropped
    when the goal closes first."""

    def __init__(self, schedule: Speculative, node: Node) -> None:
        self.schedule = schedule
        self.run = schedule.run
        self.node = node
        self.provers: list[_Ahead] = []
        self.sketch: _Ahead | None = None  # the latest sketch request made known, not yet taken
        self.checks_ahead: list[str] = []

    def known(self, kind: RequestKind, request: MakeRequest) -> _Ahead:
        fed = FedRequest(request)
        ahead = self.schedule.ahead
        if kind == "prover":
            known = _Ahead(self, kind, fed, ahead.start(self.run.prover, fed))
            self.provers.append(known)
            return known
        if self.sketch is not None:
            ahead.drop(self.sketch.task)
        self.sketch = _Ahead(self, kind, fed, ahead.start(self.run.planner, fed))
        return self.sketch

    def needed(self, request: MakeRequest) -> _Ahead:
        return _Ahead(self, None, FedRequest(request), None)

    def work(self, work: Callable[[], Awaitable[Solution | None]],
             elsewhere: Callable[[str], Solution]) -> Awaitable[Solution | None]:
        return self.schedule.work(self.node, work, elsewhere)

    async def sketches(self, tries: SketchTries) -> Solution | None:
        if not self.schedule.parallel:
            return await one_at_a_time(tries)
        return await Alternatives(self.run, self.schedule.ledgers, tries).run()

    async def beside(self, attempt: Awaitable[Solution | None], step: Step) -> Solution | None:
        """`attempt`; meanwhile, as each request started ahead answers, its candidates' checks
        (after automation: the prover's; after the prover: the first sketch's) start ahead when
        Lean has room — each candidate as it arrives where the request streams. On a run's tail,
        where each goal's steps are one dependent chain, a step's check and the next step's then
        take the time of one."""
        answered: Callable[[Generated], None]
        if step == "automation":
            known, answered = self.provers, self._check_candidates_ahead
            feeds = [k.fed.feed for k in known]
        else:
            known, answered, feeds = ([self.sketch] if self.sketch is not None else []), self._check_sketch_ahead, []
        waiting = [k.task for k in known if k.task is not None]
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
                if self.schedule.checks.start(code):
                    self.checks_ahead.append(code)

    def _check_sketch_ahead(self, sketches: Generated) -> None:
        if sketches and lean_syntax.same_statement(self.node.text, sketches[0].code):
            code = self.run.header + sketches[0].code
            if self.schedule.checks.start(code):
                self.checks_ahead.append(code)

    def close(self) -> None:
        ahead = self.schedule.ahead
        for known in self.provers:
            ahead.drop(known.task)
        if self.sketch is not None:
            ahead.drop(self.sketch.task)
        for code in self.checks_ahead:
            self.schedule.checks.drop(code)


def _answer(answered: Callable[[Generated], None], candidates: Generated) -> None:
    try:
        answered(candidates)
    except ValueError:
        pass  # a candidate `fill` refuses: the prover's turn meets it and records it

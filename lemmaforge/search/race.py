"""The prover's race: a goal's candidates verified as they arrive, the first that checks wins.

Each candidate is checked as soon as its sample is complete where the request streams (its feed:
schedule/feed.py), else when its request answers; `race` (the schedule's) says whether a later
candidate's check waits for the earlier ones' verdicts. Kept apart from the engine: it is the
concurrency of one step, not the search's order of steps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

from lemmaforge.lean.verifier import CheckResult
from lemmaforge.search.assemble import Solution
from lemmaforge.search.budget import BudgetExhausted
from lemmaforge.search.interfaces import CandidateLike, Feed, Generated, Ranked


def request_sizes(samples: int, per_call: int) -> list[int]:
    """The sizes (`n`) of the requests for a goal's `samples` prover samples, `per_call` at most
    in each (0: all in one request, one prompt prefill)."""
    if samples <= 0:
        return []
    per_call = per_call or samples
    return [min(per_call, samples - i) for i in range(0, samples, per_call)]


# Verifies one candidate (arrived `seconds` after its request started): its solution, or the
# candidate with its failed check.
Verify = Callable[[CandidateLike, float], Coroutine[Any, Any, "Solution | tuple[CandidateLike, CheckResult]"]]


async def race_candidates(
    generations: Sequence[tuple[Awaitable[Generated], Feed | None]],
    verify_one: Verify,
    race: Ranked,
    failures: list[tuple[CandidateLike, CheckResult]],
) -> Solution | None:
    """Verify candidates as they arrive — each as soon as its sample is complete where the
    request streams (its feed), else when the request answers; the first that checks wins and
    every other generation / check still in flight is cancelled.

    A budget that runs out stops only what it would pay for: the requests already started
    (and paid) are awaited and their candidates verified, and BudgetExhausted is raised once
    nothing is left in flight. Raising at once would cancel paid requests, so the run would
    report calls it never sent."""
    pending: set[asyncio.Future[Any]] = {asyncio.ensure_future(g) for g, _ in generations}
    exhausted: BudgetExhausted | None = None
    rank = 0
    verifying: set[int] = set()  # id() of the candidates whose check has started
    loop = asyncio.get_running_loop()
    woken: asyncio.Future[None] = loop.create_future()  # a candidate arrived on a feed

    def verify(candidate: CandidateLike, seconds: float) -> None:
        nonlocal rank
        if id(candidate) in verifying:
            return
        verifying.add(id(candidate))
        ranked = rank

        async def checked() -> Any:  # the check's coroutine is made only if its task starts
            return await race.add(ranked, verify_one(candidate, seconds))

        pending.add(asyncio.ensure_future(checked()))
        rank += 1
        if not woken.done():
            woken.set_result(None)

    stops = [feed.listen(verify) for _, feed in generations if feed is not None]
    try:
        while pending:
            await asyncio.wait(pending | {woken}, return_when=asyncio.FIRST_COMPLETED)
            if woken.done():
                woken = loop.create_future()
            done = {t for t in pending if t.done()}
            pending -= done
            # Retrieve every finished task's exception (so none is left "never retrieved"),
            # then let the first real failure propagate: endpoint down, verifier down, a bug.
            errors = [e for t in done if not t.cancelled() and (e := t.exception()) is not None]
            for error in errors:
                if not isinstance(error, BudgetExhausted):
                    raise error
                exhausted = exhausted or error
            for task in done:
                if task.cancelled() or task.exception() is not None:
                    continue
                value = task.result()
                if isinstance(value, Solution):
                    return value
                if isinstance(value, tuple):  # (candidate, failed check)
                    failures.append(value)
                    continue
                for candidate in value:  # a finished generation: verify each not verified yet
                    verify(candidate, value.seconds)
        if exhausted is not None:
            raise exhausted
        return None
    finally:
        for stop in stops:
            stop()
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        race.end()

"""The search checks a streaming prover's candidates as each sample completes (schedule/feed.py):
before the request answers, once each, and a race won early aborts the samples still decoding."""

from __future__ import annotations

import asyncio

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.records import AttemptRecord, MemoryRecorder
from lemmaforge.schedule.feed import CandidateFeed
from lemmaforge.search.engine import SearchEngine
from tests.fakes.agents import AgentStandIn
from tests.fakes.scripted import (
    PROBLEM,
    AutomationVerifier,
    Candidate,
    CountingVerifier,
    SketchOnce,
    wired_engine,
)
from tests.search.scenarios import search_settings

# Virtual time (looptime): the stand-ins' delays and the tests' waits move the loop's clock, not
# the wall clock's; the order of events is what the delays say, however busy the machine.
pytestmark = pytest.mark.looptime


class StreamingProver(AgentStandIn):
    """One request's samples complete at the scheduled seconds; each is told to `on_candidate`
    as it does, and the request answers with all of them after the last."""

    def __init__(self, schedule: list[tuple[float, str]], *, room: bool = False) -> None:
        self.schedule = sorted(schedule)
        self.room = room
        self.calls = self.cancelled = self.answered = 0
        self.told: list[tuple[str, float]] = []  # (body, loop time)

    def has_room(self) -> bool:
        return self.room

    async def prove(self, header, lemma_statement, n=1, *, informal=None, on_candidate=None):
        self.calls += 1
        loop = asyncio.get_running_loop()
        start, out = loop.time(), []
        try:
            for at, body in self.schedule:
                await asyncio.sleep(max(0.0, start + at - loop.time()))
                candidate = Candidate("", body)
                out.append(candidate)
                self.told.append((body, loop.time()))
                if on_candidate is not None:
                    on_candidate(candidate)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        self.answered += 1
        return out

    async def correct(self, header, candidate, errors, n=1, *, on_candidate=None, checked_code=None):
        return []


def _root_only(prover, verifier, samples: int, recorder=None) -> SearchEngine:
    budget = BudgetConfig(root_whole_proof_attempts=samples, self_corrections=0)
    options = search_settings(budget=budget, prover_samples_per_call=0)  # one request, n = samples
    return wired_engine(verifier, None, prover, recorder=recorder or MemoryRecorder(), settings=options)


def _candidate_checks(verifier: CountingVerifier) -> list[str]:
    return [c for c in verifier.checked if "#print axioms" not in c and "#check @" not in c and "sorry" not in c]


async def test_a_sample_that_proves_wins_before_the_slowest_sample_and_aborts_it():
    verifier = CountingVerifier()
    prover = StreamingProver([(0.0, "bad"), (0.05, "ok"), (5.0, "late")])
    recorder = MemoryRecorder()
    loop = asyncio.get_running_loop()
    started = loop.time()
    result = await asyncio.wait_for(_root_only(prover, verifier, 3, recorder).prove(PROBLEM), timeout=3)
    assert result.proved
    assert loop.time() - started < 2.0  # not the 5 s of the slowest sample
    assert (prover.cancelled, prover.answered) == (1, 0)  # the request was aborted, never answered
    checked = _candidate_checks(verifier)
    assert len(checked) == 2 and "  ok" in checked[1] and "late" not in "".join(checked)
    # the winner's attempt records how long after the request started its own sample came
    winner = next(a for a in recorder.of_type(AttemptRecord) if a.verdict == "valid" and a.strategy == "prover")
    assert 0.04 <= winner.generation_seconds < 1.0
    assert result.stats.llm_calls == 1


async def test_candidates_told_early_and_returned_at_the_end_are_checked_once_each():
    verifier = CountingVerifier()
    prover = StreamingProver([(0.0, "bad_a"), (0.02, "bad_b"), (0.04, "bad_c")])
    recorder = MemoryRecorder()
    result = await asyncio.wait_for(_root_only(prover, verifier, 3, recorder).prove(PROBLEM), timeout=3)
    assert not result.proved
    assert prover.answered == 1
    checked = _candidate_checks(verifier)
    assert sorted(b for b in ("bad_a", "bad_b", "bad_c") for c in checked if b in c) == ["bad_a", "bad_b", "bad_c"]
    assert len(checked) == 3
    assert sum(a.strategy == "prover" for a in recorder.of_type(AttemptRecord)) == 3


async def test_with_lean_room_a_streamed_candidate_is_checked_ahead_while_automation_runs():
    """A hole's prover request started ahead streams: its first candidate is checked ahead (Lean
    has room) while automation is still being checked and the request's last sample decodes."""
    log: list[tuple[str, float]] = []
    verifier = AutomationVerifier(log, closes=False, room=True)
    checks_at: list[tuple[str, float]] = []
    check = verifier.check

    async def logged(code, *, timeout=None):
        checks_at.append((code, asyncio.get_running_loop().time()))
        return await check(code, timeout=timeout)

    verifier.check = logged  # type: ignore[method-assign]
    # the last sample would decode after 60 s: the run ends long before it
    prover = StreamingProver([(0.0, "ok"), (60.0, "bad")], room=True)
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=2, self_corrections=0,
                          sketch_alternatives=1)
    options = search_settings(budget=budget, portfolio=("auto_ok",), speculation="prefetch", prover_samples_per_call=0)
    engine = wired_engine(verifier, SketchOnce(2), prover, recorder=MemoryRecorder(), settings=options)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved
    first_automation = min(t for kind, t in log if kind == "automation")
    first_told = min(t for body, t in prover.told if body == "ok")
    ok_checks = [t for code, t in checks_at if code.rstrip().endswith("  ok") and "have h1" not in code]
    assert ok_checks and min(ok_checks) < first_automation  # checked ahead, not after automation
    assert min(ok_checks) - first_told < 5  # at its arrival, not after the 60 s sample
    assert prover.cancelled == 2 and prover.answered == 0  # each hole's request aborted once won
    assert result.stats.checks_ahead >= 2


def test_a_feed_replays_what_arrived_to_a_later_listener_and_stops_when_told():
    feed = CandidateFeed()
    seen: list[str] = []
    feed.push(Candidate("", "a"))
    stop = feed.listen(lambda c, _s: seen.append(c.body))
    feed.push(Candidate("", "b"))
    stop()
    feed.push(Candidate("", "c"))
    assert seen == ["a", "b"]
    assert [c.body for c, _ in feed.arrived] == ["a", "b", "c"]


async def test_a_listener_runs_in_the_context_it_listened_from_not_the_requests():
    """The race's checks are ordered by its own search's and goal's context variables
    (schedule/order.py), whichever task — a request started ahead, in another goal step — pushes."""
    import contextvars

    where: contextvars.ContextVar[str] = contextvars.ContextVar("where", default="none")
    feed = CandidateFeed()
    seen: list[str] = []
    where.set("listener")
    feed.listen(lambda c, _s: seen.append(where.get()))

    async def request() -> None:
        where.set("request")
        feed.push(Candidate("", "a"))

    await asyncio.create_task(request())
    assert seen == ["listener"]

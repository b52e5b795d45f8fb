"""schedule/ahead.py: model requests started ahead of need (`RequestsAhead`: only with the endpoint's
and the budget's room, a held hole's when it is next in line or Lean idles), the checks of their
answers started while Lean has room (`ChecksAhead`), each taken where the search would have made
it or dropped, charged when sent and reported unused when never taken — alone and in the engine
with `[search] speculation = "prefetch"`."""

from __future__ import annotations

import asyncio

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.lean.verifier import CheckStatus
from lemmaforge.records import MemoryRecorder, RunFinished
from lemmaforge.schedule import order
from tests.fakes.scripted import (
    HEADER,
    PROBLEM,
    Answer,
    AutomationVerifier,
    CountingVerifier,
    RoomyProver,
    ScriptedProver,
    SketchOnce,
    prefetch_engine,
    wired_engine,
)
from tests.search.scenarios import search_settings

# Virtual time (looptime): the stand-ins' delays and the tests' waits move the loop's clock, not
# the wall clock's; the order of events is what the delays say, however busy the machine.
pytestmark = pytest.mark.looptime


@pytest.mark.parametrize("lean_room", [None, True])
async def test_the_provers_request_starts_while_automation_is_checked_and_is_charged_when_taken(lean_room):
    """With room at the model, a hole's prover request goes out with its automation check, not
    after it; the budget is charged once per request taken. Later holes are held behind the first
    (lean/order.py): while Lean has no room (a verifier that cannot say has none), the second,
    next in line, starts its request at once, the third not (here its automation answers before
    the first hole is solved: its request is made then); with room, all go ahead."""
    # The prover answers 0.5 s after it is asked, so the first two holes are solved long after the
    # third hole's automation (0.2 s) answers, even when a busy machine starts that check late.
    engine, prover, log = prefetch_engine(prover_room=True, lean_room=lean_room, closes=False, holes=3,
                                           prover_delay=0.5)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved
    automation_done = sorted(t for kind, t in log if kind == "automation")
    proves = sorted(t for kind, t in log if kind == "prove")
    assert len(automation_done) == len(proves) == 3
    ahead = 3 if lean_room else 2
    assert sum(p < automation_done[0] for p in proves) == ahead
    stats = result.stats
    assert (stats.prefetched_calls, stats.prefetched_unused) == (ahead, 0)
    assert stats.llm_calls == 4 == prover.calls + 1  # the sketch and three prover requests, each once


def _requests_ahead(engine):
    """A search's requests ahead (schedule/ahead.py) on the engine's verifier and budget."""
    from lemmaforge.schedule.ahead import RequestsAhead
    from lemmaforge.search.budget import Budget, BudgetedVerifier

    budget = Budget(engine.settings.budget)
    lean = BudgetedVerifier(engine.verifier, budget, timeout=5)

    async def generate(call):
        from lemmaforge.search.interfaces import Generated

        return Generated(await budget.call(call))

    return RequestsAhead(budget, lean, generate, enabled=True)


def _ahead_behind_two_holes():
    """A search's RequestsAhead (Lean without room), and a sketch's hole group with holes 0 and 1
    open: work for hole 2 is held, two siblings from its turn."""
    engine, _, _ = prefetch_engine(prover_room=True, lean_room=None, closes=False)
    ahead = _requests_ahead(engine)
    holes = order.Siblings()
    for rank in range(3):
        holes.enter(rank)
    return ahead, holes


@pytest.mark.parametrize("event", ["sibling solved", "its verifier idles with room", "its verifier idles without room",
                                   "another verifier idles with room"])
async def test_a_held_holes_request_waits_until_it_is_next_in_line_or_its_verifier_idles_with_room(event):
    """Hole 2's request waits while two earlier holes are open. It goes out when one of them is
    solved (one sibling from its turn), or when the check queue of the verifier the run uses reports
    Lean idle (`CheckQueue.report_idle`: nothing left to send) and Lean has room when it looks — at
    a run's end the few searches left cannot keep Lean busy one sibling at a time. Another
    verifier's queue idling wakes nothing here. The run's door is the product's chain (budget →
    gate → backend): both wrappers hand on the backend's own `idle`. Taken, the request is charged
    once and counted as ahead when it went out ahead."""
    from lemmaforge.lean.check_queue import CheckQueue
    from lemmaforge.lean.gate import GatedVerifier
    from lemmaforge.schedule.ahead import RequestsAhead
    from lemmaforge.search.budget import Budget, BudgetedVerifier
    from lemmaforge.search.interfaces import Generated

    prover = RoomyProver(True, [])
    engine, _, _ = prefetch_engine(prover_room=True, lean_room=None, closes=False)
    backend = engine.verifier
    room = {"lean": False}
    backend.has_room = lambda: room["lean"]
    mine, other = CheckQueue[str](), CheckQueue[str]()
    backend.idle = mine.idle  # the backend's checks wait in `mine` (a `QueuedVerifier` now)
    budget = Budget(engine.settings.budget)
    lean = BudgetedVerifier(GatedVerifier(backend), budget, timeout=5)
    assert lean.idle is mine.idle

    async def generate(call):
        return Generated(await budget.call(call))

    ahead = RequestsAhead(budget, lean, generate, enabled=True)
    holes = order.Siblings()
    for rank in range(3):
        holes.enter(rank)
    make = lambda: prover.prove(HEADER, "theorem a : True := by\n  sorry", n=1)  # noqa: E731
    sent = event in ("sibling solved", "its verifier idles with room")

    async def hole_two():
        order.join(holes, 2)
        task = ahead.start(prover, make)
        assert task is not None
        await asyncio.sleep(0.02)
        assert prover.calls == 0 and budget.stats.prefetched_calls == 0  # two siblings away
        if event == "sibling solved":
            holes.leave(0)
        else:
            room["lean"] = "without room" not in event
            (mine if event.startswith("its") else other).report_idle()
        await asyncio.sleep(0.02)
        assert prover.calls == budget.stats.prefetched_calls == (1 if sent else 0)
        return await ahead.take(task, make)

    out = await asyncio.wait_for(asyncio.ensure_future(hole_two()), timeout=3)
    assert out and budget.stats.llm_calls == 1 and prover.calls == 1
    assert not ahead.pending and not ahead.sent
    assert not mine.idle and not other.idle  # the waiter stopped listening


@pytest.mark.parametrize("ending", ["take", "drop"])
async def test_a_held_holes_request_not_yet_sent_is_made_when_needed_or_never(ending):
    """Taken before its hole was next in line (Lean found room for its checks first), the waiting
    request is made then, as a plain request; dropped, it was never sent: neither counts as ahead."""
    prover = RoomyProver(True, [])
    ahead, holes = _ahead_behind_two_holes()
    make = lambda: prover.prove(HEADER, "theorem a : True := by\n  sorry", n=1)  # noqa: E731

    async def hole_two():
        order.join(holes, 2)
        task = ahead.start(prover, make)
        await asyncio.sleep(0.01)
        if ending == "take":
            return await ahead.take(task, make)
        ahead.drop(task)
        return None

    out = await asyncio.wait_for(asyncio.ensure_future(hole_two()), timeout=3)
    holes.end()  # a waiter left behind would wake here and send
    await asyncio.sleep(0.01)
    stats = ahead.budget.stats
    assert (stats.prefetched_calls, stats.prefetched_unused) == (0, 0)
    assert prover.calls == stats.llm_calls == (1 if ending == "take" else 0)
    assert (out is not None) == (ending == "take")
    assert not ahead.pending and not ahead.sent


@pytest.mark.parametrize("lean_room", [None, True])
async def test_with_lean_room_the_candidates_are_checked_while_automation_is(lean_room):
    """The prover's request started ahead answers while automation is checked: with room at Lean,
    its candidates' checks start then (ahead of need, uncharged) and the prover's turn takes their
    verdicts, charged once each; without room they wait for automation to fail."""
    engine, prover, log = prefetch_engine(prover_room=True, lean_room=lean_room, closes=False)
    verifier = engine.verifier
    started: list[tuple[str, float]] = []
    check = verifier.check

    async def logged(code, *, timeout=None):
        if "  ok" in code and "have h1" not in code:  # a hole's candidate, not the assembled file
            started.append(("candidate", asyncio.get_running_loop().time()))
        return await check(code, timeout=timeout)

    verifier.check = logged
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved
    first_automation = min(t for kind, t in log if kind == "automation")
    candidates = [t for _, t in started]
    assert len(candidates) == 2  # one per hole: each checked once, ahead or not
    assert all((t < first_automation) == bool(lean_room) for t in candidates)
    stats = result.stats
    assert (stats.checks_ahead, stats.checks_ahead_unused) == ((2, 0) if lean_room else (0, 0))
    # the sketch, two automation checks, two candidates, the assembled file, the original's type
    # (lean/audit/_judge.py: once per problem): the same either way
    assert stats.checks == len(verifier.checked) == 7


@pytest.mark.parametrize("lean_room", [None, True])
async def test_with_lean_room_the_first_sketch_is_checked_while_the_provers_candidates_are(lean_room):
    """At the root the prover's candidate fails (slowly); the first sketch, drafted ahead
    meanwhile, is checked meanwhile too when Lean has room, and charged once when its turn
    comes; without room its check waits for the prover's turn to end."""
    log: list[tuple[str, float]] = []
    verifier = AutomationVerifier(log, closes=True, room=lean_room)
    verifier.delay = 0.2  # the candidates' checks (the sketch's check is immediate)
    sketch_checks: list[float] = []
    check = verifier.check

    async def logged(code, *, timeout=None):
        if "sorry" in code and "#print" not in code and "#check" not in code:
            sketch_checks.append(asyncio.get_running_loop().time())
        return await check(code, timeout=timeout)

    verifier.check = logged

    prover = RoomyProver(True, log)
    prover.bodies = ["bad"]
    budget = BudgetConfig(root_whole_proof_attempts=1, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1, max_depth=1)
    options = search_settings(budget=budget, portfolio=("auto_ok",))
    engine = wired_engine(verifier, SketchOnce(room=True), prover, recorder=MemoryRecorder(), settings=options)
    loop = asyncio.get_running_loop()
    began = loop.time()
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved  # automation closes the holes
    assert len(sketch_checks) == 1  # checked once, ahead or not
    # the candidate's check ends ~0.25 s in (its request, then 0.2 s): the sketch's started before
    assert (sketch_checks[0] - began < 0.2) == bool(lean_room)
    stats = result.stats
    # with room: the sketch's check, and each hole's candidate (automation closed the holes
    # first: never taken, charged all the same: they were sent)
    assert (stats.checks_ahead, stats.checks_ahead_unused) == ((3, 2) if lean_room else (0, 0))
    assert stats.checks == len(verifier.checked)
    assert stats.used_checks == stats.checks - stats.checks_ahead_unused


async def test_candidates_checked_ahead_but_not_needed_are_charged_and_reported_unused():
    """Automation closes both holes (slowly): the candidates checked ahead meanwhile are dropped:
    charged (they were sent) and reported unused."""
    engine, _, _ = prefetch_engine(prover_room=True, lean_room=True, closes=True)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved
    stats = result.stats
    assert stats.checks_ahead == stats.checks_ahead_unused == 2
    assert stats.checks == len(engine.verifier.checked)  # all Lean saw
    assert result.to_json()["checks_ahead_unused"] == 2
    assert result.to_json()["used_checks"] == stats.checks - 2  # less the two never taken


async def test_a_check_ahead_needs_lean_room_and_a_unit_left_and_is_charged_once_as_it_is_sent():
    from lemmaforge.schedule.ahead import ChecksAhead
    from lemmaforge.search.budget import Budget, BudgetedVerifier, BudgetExhausted, Unscheduled

    inner = CountingVerifier(delay=0.01)
    lean = BudgetedVerifier(inner, Budget(BudgetConfig(lean_checks=4)), timeout=5)
    ahead = ChecksAhead(lean, lean.budget)

    class TakesAhead(Unscheduled):  # the door takes a check started ahead by its text
        def started(self, code):
            return ahead.take(code)

    lean.schedule = TakesAhead()
    stats = lean.budget.stats
    assert not ahead.start("a  ok")  # a verifier that cannot say has no room
    inner.has_room = lambda: True
    assert ahead.start("a  ok") and ahead.start("b")
    assert not ahead.start("a  ok")  # already ahead
    assert (stats.checks, stats.checks_ahead) == (0, 0)  # units held, not yet sent: their tasks have not run
    assert not lean.budget.has_checks(speculative=True) or lean.budget.held_checks == 2
    await asyncio.sleep(0)
    assert (stats.checks, stats.checks_ahead) == (2, 2)  # charged as they are sent
    assert (await lean.check("a  ok")).status is CheckStatus.VALID
    assert stats.checks == 2  # taken: not charged again
    ahead.drop("b")
    assert ahead.start("c")
    ahead.drop("c")  # dropped before its request ran: never sent, its unit not spent
    await asyncio.sleep(0.02)
    assert (stats.checks, stats.checks_ahead, stats.checks_ahead_unused) == (2, 2, 1)
    assert sorted(inner.checked) == ["a  ok", "b"]  # each sent once: the taken check was not sent again
    assert (await lean.check("a  ok")).status is CheckStatus.VALID and stats.dedup_hits == 1
    await lean.check("e")
    assert not ahead.start("d")  # the budget's last unit is left to work on its turn
    await lean.check("d")
    with pytest.raises(BudgetExhausted):
        await lean.check("g")  # none left: not sent
    assert stats.checks == 4 == len(inner.checked) and stats.used_checks == 3


async def test_a_prefetched_request_not_needed_is_aborted_charged_and_reported_unused():
    """Automation closes both holes: the prover requests started ahead are cancelled; they were
    sent, so they are charged, and the run reports them unused."""
    engine, prover, _ = prefetch_engine(prover_room=True, lean_room=True, closes=True, prover_delay=5.0)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=3)  # not waiting for them
    assert result.proved
    assert result.stats.prefetched_calls == result.stats.prefetched_unused == 2
    assert prover.cancelled == 2
    assert result.stats.llm_calls == 3  # the sketch and the two sent ahead
    assert result.stats.used_calls == 1  # the sketch only
    assert result.to_json()["prefetched_unused"] == 2


@pytest.mark.parametrize(("prover_room", "prefetch"), [(False, True), (True, False)])
async def test_without_room_or_with_prefetch_off_requests_follow_automation(prover_room, prefetch):
    engine, _, log = prefetch_engine(prover_room=prover_room, lean_room=True, closes=False, prefetch=prefetch)
    result = await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert result.proved and result.stats.prefetched_calls == 0
    first_automation = min(t for kind, t in log if kind == "automation")
    assert all(t >= first_automation for kind, t in log if kind == "prove")


async def test_prefetch_sends_only_what_the_budget_has_left():
    """A request ahead is charged when its task sends it, and only while it leaves a unit of the
    budget to work on its turn: a search never has more requests out than its budget allows. One
    dropped before it was sent costs nothing."""
    engine, prover, _ = prefetch_engine(prover_room=True, lean_room=True, closes=False)
    engine.settings.budget = BudgetConfig(llm_calls=3)
    ahead = _requests_ahead(engine)
    make = lambda: prover.prove(HEADER, "theorem a : True := by\n  sorry", n=1)  # noqa: E731
    first, second, third = ahead.start(prover, make), ahead.start(prover, make), ahead.start(prover, make)
    assert first is not None and second is not None and third is not None
    ahead.drop(third)  # before its task ran: never sent
    await asyncio.sleep(0)
    stats = ahead.budget.stats
    assert (stats.llm_calls, stats.prefetched_calls, stats.prefetched_unused) == (2, 2, 0)
    assert ahead.start(prover, make) is None  # one unit left: speculation leaves it to work on its turn
    taken = await ahead.take(first, make)
    assert taken and stats.llm_calls == 2  # taken: not charged again
    ahead.drop(second)
    await asyncio.sleep(0)
    assert stats.prefetched_unused == 1 and stats.used_calls == 1
    assert ahead.start(prover, make) is None  # a dropped request was sent: its unit stays spent


async def test_an_endpoint_error_in_a_request_started_ahead_surfaces_when_taken():
    """A prefetched request that failed (endpoint down) raises where the search takes it — the run
    fails with that error, as it would without prefetch — and is never counted as a failed
    attempt of the model."""
    from lemmaforge.agent.errors import LLMUnavailableError

    log: list[tuple[str, float]] = []
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=1, self_corrections=0,
                          sketch_alternatives=1)
    recorder = MemoryRecorder()
    engine = wired_engine(AutomationVerifier(log, closes=False, room=True), SketchOnce(),
                          ScriptedProver(room=True, rules={"": Answer(raises=LLMUnavailableError(
                              "connection refused", backend="LLM endpoint http://x (model m)"))}),
                          recorder=recorder, settings=search_settings(budget=budget, portfolio=("auto_ok",)))
    with pytest.raises(LLMUnavailableError):
        await asyncio.wait_for(engine.prove(PROBLEM), timeout=5)
    assert [f.status for f in recorder.of_type(RunFinished)] == ["failed"]

"""A request is charged when it LEAVES the process, not when it is handed to a client (#38 point 1).

Races against stand-ins that count what they receive, through the real clients: the OpenAI client
with one concurrency slot (the other requests wait for it inside the process), and the Kimina
client with one request in flight and batches of one (the other checks wait in its queue). The
race is won by the first answer and the rest are cancelled: those still waiting inside the client
never reach the server and must not be counted; those already out must be, cancelled or not.
"""

from __future__ import annotations

import asyncio
import threading

from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM
from lemmaforge.config import BudgetConfig
from lemmaforge.lean.kimina import KiminaVerifier, RetryPolicy
from lemmaforge.search.budget import Budget, BudgetedVerifier, BudgetExhausted
from tests.fakes.fake_kimina import FakeKimina, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.waiting import until

PROBE = "lf-position-probe"


def whole_requests(server: FakeOpenAIServer) -> int:
    """Generation requests the server received (one cancelled between its headers and its body
    arrives cut short: received all the same)."""
    return len(server.requests_to("chat"))


async def _race(requests: list[asyncio.Task[object]]) -> None:
    """The first to answer wins; the others are cancelled wherever they are."""
    done, pending = await asyncio.wait(requests, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    assert done


async def test_llm_requests_cancelled_while_waiting_for_a_slot_are_not_charged() -> None:
    with FakeOpenAIServer(default="answer") as server:
        server.gate = threading.Event()  # what reaches the server is held there until the test says
        llm = OpenAICompatibleLLM(server.url, "fake-model", concurrency=1, retries=0, api_key="k")
        budget = Budget(BudgetConfig(llm_calls=10))
        try:
            tasks = [asyncio.ensure_future(budget.call(llm.generate(f"prompt {i}", n=2))) for i in range(5)]
            await until(lambda: whole_requests(server) == 1, what="the first request at the server")
            # one request is out, four wait for the slot: held against the cap, not charged
            assert (budget.stats.llm_calls, budget.held_calls) == (1, 4)
            assert not budget.has_calls(speculative=True) or budget.stats.llm_calls + budget.held_calls == 5
            server.gate.set()
            await _race(tasks)
            # a request whose headers left as the race ended is charged: the server reads it
            await until(lambda: whole_requests(server) >= budget.stats.llm_calls, what="every charged request")
        finally:
            await llm.close()
        received = whole_requests(server)
    assert received == budget.stats.llm_calls, (received, budget.stats)
    assert received < 5  # the race left some requests in the queue: never sent
    assert budget.held_calls == 0  # every unit held for them was given back


async def test_llm_requests_cancelled_after_sending_are_charged_and_counted_cancelled() -> None:
    with FakeOpenAIServer(default="answer") as server:
        server.gate = threading.Event()  # never answered: cancelled while out
        llm = OpenAICompatibleLLM(server.url, "fake-model", concurrency=4, retries=0, api_key="k")
        budget = Budget(BudgetConfig(llm_calls=10))
        try:
            tasks = [asyncio.ensure_future(budget.call(llm.generate(f"prompt {i}"))) for i in range(3)]
            await until(lambda: whole_requests(server) == 3, what="all three at the server")
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            server.gate.set()
            await llm.close()
        received = whole_requests(server)
    assert received == budget.stats.llm_calls == budget.stats.cancelled_calls == 3, budget.stats


async def test_the_cap_counts_requests_waiting_in_the_client() -> None:
    """Units held by queued requests count against the cap: the budget is never overdrawn by what
    waits, and a queued request given back frees its unit."""
    with FakeOpenAIServer(default="answer") as server:
        server.gate = threading.Event()  # the first request stays out until the test says: the others queue
        llm = OpenAICompatibleLLM(server.url, "fake-model", concurrency=1, retries=0, api_key="k")
        budget = Budget(BudgetConfig(llm_calls=3))
        try:
            tasks = [asyncio.ensure_future(budget.call(llm.generate(f"prompt {i}"))) for i in range(3)]
            await until(lambda: whole_requests(server) == 1, what="the first request at the server")
            extra = budget.call(llm.generate("one too many"))
            try:
                await extra
            except BudgetExhausted:
                pass
            else:  # pragma: no cover - the assertion below says why
                raise AssertionError("a fourth request was sent with three units out or held")
            tasks[2].cancel()  # still queued: its unit comes back
            await asyncio.gather(tasks[2], return_exceptions=True)
            assert budget.has_calls()
            server.gate.set()
            await asyncio.gather(*tasks[:2])
        finally:
            server.gate.set()
            await llm.close()
        received = whole_requests(server)
    assert received == budget.stats.llm_calls == 2, budget.stats


async def test_lean_checks_cancelled_in_the_kimina_queue_are_not_charged() -> None:
    with FakeKimina(responder=ScriptedLean(rules=[])) as kimina:
        inner = KiminaVerifier(kimina.url, position_mode="all", retry=RetryPolicy(attempts=1), timeout=30,
                               batch_size=1, concurrency=1)
        budget = Budget(BudgetConfig(lean_checks=20))
        lean = BudgetedVerifier(inner, budget, timeout=30)

        def received() -> int:
            return sum(1 for r in kimina.check_requests for s in r.body["snippets"] if not s["id"].startswith(PROBE))

        try:
            await lean.check("theorem warm : True := trivial")  # the client's first request (shift plan) first
            before, sent_before = budget.stats.checks, received()
            kimina.gate = threading.Event()  # the next check is held at the server: the others queue
            tasks = [asyncio.ensure_future(lean.check(f"theorem t{i} : True := trivial")) for i in range(5)]
            await until(lambda: received() == sent_before + 1, what="one check at the server")
            kimina.gate.set()
            await _race(tasks)
            await until(lambda: received() >= budget.stats.checks, what="every charged check")
        finally:
            await inner.close()
    assert received() == budget.stats.checks, (received(), budget.stats)
    assert budget.stats.checks - before < 5  # queued checks cancelled: never sent, never charged
    assert budget.held_checks == 0

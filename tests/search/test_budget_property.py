"""Budgets cap what leaves the process, and the counts a run reports are the requests it sent
(property-style).

Over seeded random budgets and scripted worlds (which holes the prover can prove, whether
automation closes the easy one, whether the planner's sketch is solvable, how many samples per
goal, requests ahead of need and alternatives beside each other on or off), a whole `prove` runs
through the shared preflight (`services.preflight`: its statement check is charged too) and
`services.prove_problem` against real clients: the fake OpenAI server over HTTP, and Lean as the
fake Kimina server (KiminaVerifier, batched HTTP) or the fake REPL processes (ReplVerifier through
lean-interact, with proof states: extract_goal and, in one half of the worlds, automation as tactic
steps). The stand-ins count what they received; for every run:

  received = reported ≤ budget        (LLM requests and Lean requests alike: a request is charged
                                       when it leaves the process, speculative or not, used or
                                       not; one cancelled while it still waited inside a client
                                       never left and is not charged)

and the run's record says the same numbers as its result.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lemmaforge.config import load_config
from lemmaforge.lean.kimina import KiminaVerifier, RetryPolicy
from lemmaforge.lean.repl import ReplVerifier
from lemmaforge.records import RunFinished
from lemmaforge.services import open_recorder, open_services, preflight, problem_from_code, prove_problem
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.fakes.fake_repl import make_fake_repl_config
from tests.search.scenarios import (
    DEFS,
    HEADER,
    SKETCH,
    SKETCH_STUCK,
    THEOREM,
    add_planner,
    add_prover,
    closing_hole_rule,
    lean_block,
    prover_rule,
)
from tests.waiting import until

PROBE = "lf-position-probe"


def seeds(all_seeds: range, *, fast: int) -> list[Any]:
    """The first `fast` seeds in the fast subset (`pytest -m "not slow"`), the rest marked slow."""
    return [seed if i < fast else pytest.param(seed, marks=pytest.mark.slow) for i, seed in enumerate(all_seeds)]


def world(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    return {
        "budget": {
            "llm_calls": rng.randint(1, 10),
            "lean_checks": rng.randint(1, 25),
            "root_whole_proof_attempts": rng.randint(0, 3),
            "prover_samples_per_goal": rng.randint(1, 3),
            "self_corrections": rng.randint(0, 1),
            "sketch_alternatives": rng.randint(1, 2),
            "sketch_corrections": rng.randint(0, 1),
        },
        "search": {
            "prover_samples_per_call": rng.choice([0, 1]),
            "automation": rng.choice(["lemma", "proof_state"]),
            "speculation": rng.choice(["off", "prefetch", "full"]),
        },
        "hard_provable": rng.random() < 0.6,
        "closing_provable": rng.random() < 0.7,
        "stuck_sketch": rng.random() < 0.25,
    } | _time_key(rng)


def _time_key(rng: random.Random) -> dict[str, Any]:
    """The budget's time key, drawn last (the other draws, and so the earlier worlds, stay as they
    were): a wall-time budget that often ends the run mid-flight, cancelling what is out."""
    return {"wall_seconds": rng.choice([3600.0, 3600.0, 0.3, 0.6])}


def script(llm: FakeOpenAIServer, w: dict[str, Any]) -> None:
    add_planner(llm, r"theorem t ", lean_block(SKETCH_STUCK if w["stuck_sketch"] else SKETCH))
    add_prover(llm, *prover_rule("Hard x", "exact hard_fact" if w["hard_provable"] else "bad_hard"))
    add_prover(llm, *closing_hole_rule("exact rfl" if w["closing_provable"] else "bad_close"))


def settings_for(llm: FakeOpenAIServer, w: dict[str, Any], verifier: dict[str, Any]) -> Any:
    overrides = {
        "verifier": {"timeout": 30, **verifier},
        "planner": {"url": llm.url, "model": "fake-model", "retries": 0},
        "prover": {"url": llm.url, "model": "fake-model", "retries": 0},
        "budget": {**w["budget"], "wall_seconds": w["wall_seconds"]},
        "search": w["search"],
    }
    return load_config(None, overrides, environ={})


async def run_world(settings: Any, verifier: Any) -> tuple[Any, Any]:
    recorder, close = open_recorder(None)
    problem = problem_from_code(HEADER + DEFS + THEOREM)
    try:
        async with open_services(settings, recorder=recorder, verifier=verifier) as services:
            settings, sent = await preflight(services, settings, problem)
            result = await prove_problem(services, settings, problem, preflight_checks=sent)
    finally:
        close()
    finished = [r for r in recorder.records if isinstance(r, RunFinished)]
    return result, finished


async def read_by_the_stand_ins(received: Callable[[], bool]) -> None:
    """A request cancelled just after its headers left is the server's to read: wait until the
    stand-ins (which log a request once its body is read) hold what the run reported, however busy
    the machine. After the hang bound the assertions that follow say what differs."""
    with contextlib.suppress(AssertionError):
        await until(received, what="the stand-ins to read every request the run reported")


def served_tokens(llm: FakeOpenAIServer) -> tuple[int, int]:
    """(prompt, completion) tokens the server answered generation requests with."""
    answered = [r.usage for r in llm.requests if r.endpoint in ("chat", "completions") and r.usage]
    return sum(u["prompt_tokens"] for u in answered), sum(u["completion_tokens"] for u in answered)


def generation_requests(llm: FakeOpenAIServer) -> int:
    """The model requests the server received (the preflight's `GET /models` probes are not
    requests for generation: no budget unit buys them). One cancelled between its headers and its
    body arrives cut short: received all the same."""
    return sum(1 for r in llm.requests if r.endpoint in ("chat", "completions"))


def assert_budget_holds(result: Any, finished: list[Any], budget: dict[str, int], *, llm_sent: int,
                        lean_sent: int, tokens: tuple[int, int], unread: bool = False) -> None:
    """`unread`: the fake REPL logs a request when it reads it, and the pool's close kills its
    processes; a check the run had cancelled after its request was written (sent: it left the
    process, and is counted in `cancelled_checks`) may still sit unread in the pipe of a process
    killed at close. (A check handed a worker as the pool closes but never written is not counted:
    tests/lean/test_repl_sent_count.py.)"""
    stats = result.stats
    # Unused work (started ahead and never taken, tried beside an earlier alternative that won) is
    # inside the counts, not beside them: what was sent is what was charged.
    # A request is charged when it leaves the process (lemmaforge/sending.py): one cancelled while
    # it still waited inside a client (a concurrency slot, the batcher's or the pool's queue) is
    # not, one cancelled after it left is. So what the stand-ins received is what was reported.
    assert llm_sent == stats.llm_calls <= budget["llm_calls"], (llm_sent, stats)
    assert stats.checks <= budget["lean_checks"], stats
    if unread:
        assert lean_sent <= stats.checks <= lean_sent + stats.cancelled_checks, (
            f"received {lean_sent}, reported {stats.checks}, cancelled {stats.cancelled_checks}")
    else:
        assert lean_sent == stats.checks, f"received {lean_sent}, reported {stats.checks}"
    assert stats.preflight_checks == 1
    # tokens: those of the answers the run read, as the server reported them; an answer the run
    # stopped waiting for (cancelled) is the only one it may not have read
    reported = (stats.prompt_tokens, stats.completion_tokens)
    if stats.cancelled_calls:
        assert reported[0] <= tokens[0] and reported[1] <= tokens[1], (tokens, stats)
    else:
        assert reported == tokens, (tokens, stats)
    # what the search used is what was sent less what it never took
    assert 0 <= stats.used_calls <= stats.llm_calls and 0 <= stats.used_checks <= stats.checks, stats
    assert stats.prefetched_unused <= stats.prefetched_calls, stats
    assert stats.checks_ahead_unused <= stats.checks_ahead, stats
    assert len(finished) == 1
    summary = finished[0].summary
    assert (summary["calls"], summary["checks"]) == (stats.llm_calls, stats.checks)
    assert (summary["used_calls"], summary["used_checks"]) == (stats.used_calls, stats.used_checks)
    assert summary["prefetched_unused"] == stats.prefetched_unused
    assert summary["checks_ahead_unused"] == stats.checks_ahead_unused
    assert not any(n.status == "open" for n in result.tree.nodes())
    # a budget that ran out says which, whatever TaskGroups it crossed
    assert result.stop_reason in ("proved", "exhausted", "llm_calls budget exhausted", "lean_checks budget exhausted",
                                  "wall time budget exhausted"), result.stop_reason


@pytest.mark.parametrize("seed", seeds(range(20), fast=2))
async def test_budgets_hold_on_kimina(seed: int) -> None:
    w = world(seed)
    lean = ScriptedLean(rules=[
        MessageRule(r"\bbad_\w+", "tactic failed"),
        # the portfolio (as one lemma check) closes only the lemma about Easy
        MessageRule(r"(?s)\A(?!.*Easy x :=).*?\(omega; done\)", "omega failed"),
    ])
    with FakeKimina(responder=lean) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        script(llm, w)
        settings = settings_for(llm, w, {"backend": "kimina", "kimina_url": kimina.url})
        verifier = KiminaVerifier(kimina.url, position_mode="all", retry=RetryPolicy(attempts=1), timeout=30)
        try:
            result, finished = await run_world(settings, verifier)
        finally:
            await verifier.close()

        def lean_received() -> int:
            return sum(1 for r in kimina.check_requests for s in r.body["snippets"] if not s["id"].startswith(PROBE))

        await read_by_the_stand_ins(lambda: generation_requests(llm) >= result.stats.llm_calls
                                    and lean_received() >= result.stats.checks)
        lean_sent = lean_received()
        llm_sent, tokens = generation_requests(llm), served_tokens(llm)
    assert_budget_holds(result, finished, w["budget"], llm_sent=llm_sent, lean_sent=lean_sent, tokens=tokens)


# The product's own probes (the audit's `#print axioms` and declaration listing, the original's
# `#check`), which the REPL runs as their own command in the environment of the check they probe.
PROBE_COMMANDS = ("#print axioms", "set_option pp.")


def repl_requests(fake: Any) -> int:
    """The Lean requests of a run as the fake REPL received them. Header imports are the pool's own
    business (one per process); a probe rides with the check it probes (one unit, as on Kimina,
    where it is appended to the checked file); every other command and every tactic step
    (extract_goal, automation on a proof state) is a request of the run."""
    commands = [r["text"] for r in fake.requests("cmd")]
    return sum(1 for c in commands if not c.lstrip().startswith(PROBE_COMMANDS)) + len(fake.requests("tactic"))


REPL_RULES = (
    {"match": r"\bbad_\w+", "on": "cmd", "messages": [{"data": "tactic failed"}]},
    {"match": r"^omega$", "on": "tactic", "goal_match": r"⊢ Easy x$", "closes": True},
    {"match": r"(?s)\A(?!.*Easy x :=).*?\(omega; done\)", "on": "cmd", "messages": [{"data": "omega failed"}]},
)


@pytest.mark.parametrize("seed", seeds(range(100, 112), fast=1))
async def test_budgets_hold_on_the_repl(seed: int, tmp_path: Path) -> None:
    w = world(seed)
    fake = make_fake_repl_config(tmp_path / "repl", rules=REPL_RULES, transcripts=False)
    with FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        script(llm, w)
        settings = settings_for(llm, w, {"backend": "repl"})
        verifier = ReplVerifier(fake.config, workers=2, timeout=30, header_timeout=30, max_checks_per_worker=1000)
        try:
            result, finished = await run_world(settings, verifier)
        finally:
            await verifier.close()
        await read_by_the_stand_ins(lambda: generation_requests(llm) >= result.stats.llm_calls)
        llm_sent, tokens = generation_requests(llm), served_tokens(llm)
    lean_sent = repl_requests(fake)
    assert_budget_holds(result, finished, w["budget"], llm_sent=llm_sent, lean_sent=lean_sent, tokens=tokens,
                        unread=True)

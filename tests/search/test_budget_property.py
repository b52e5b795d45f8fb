"""Budgets hold, and the counts a run reports are the requests it sent (property-style).

Over seeded random budgets and scripted worlds (which holes the prover can prove, whether
automation closes the easy one, whether the planner's sketch is solvable, how many samples per
goal), a whole `prove` runs through `app.prove_problem` against real clients: the fake OpenAI
server over HTTP, and Lean as the fake Kimina server (KiminaVerifier, batched HTTP) or the fake
REPL processes (ReplVerifier through lean-interact, with proof states: extract_goal and, in one
half of the worlds, automation as tactic steps). The servers count what they received; for every
run:

  received ≤ reported ≤ budget                  (for Lean requests; for LLM calls, received ≤
                                                 reported + prefetched_unused: a request started
                                                 ahead of need (`[search] prefetch`) and never
                                                 taken is aborted and reported apart, uncharged)
  reported − received ≤ cancelled               (a request is counted when it starts; one the
                                                 run cancelled may not have left the client)

and the run's record says the same numbers as its result.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from lemmaforge.config import load_config
from lemmaforge.lean.kimina import KiminaVerifier, RetryPolicy
from lemmaforge.lean.repl import ReplVerifier
from lemmaforge.records import RunFinished
from lemmaforge.services import open_recorder, open_services, problem_from_code, prove_problem
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

PROBE = "lf-position-probe"


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
            "parallel_alternatives": rng.random() < 0.5,
        },
        "hard_provable": rng.random() < 0.6,
        "closing_provable": rng.random() < 0.7,
        "stuck_sketch": rng.random() < 0.25,
    }


def script(llm: FakeOpenAIServer, w: dict[str, Any]) -> None:
    add_planner(llm, r"theorem t ", lean_block(SKETCH_STUCK if w["stuck_sketch"] else SKETCH))
    add_prover(llm, *prover_rule("Hard x", "exact hard_fact" if w["hard_provable"] else "bad_hard"))
    add_prover(llm, *closing_hole_rule("exact rfl" if w["closing_provable"] else "bad_close"))


def settings_for(llm: FakeOpenAIServer, w: dict[str, Any], verifier: dict[str, Any]) -> Any:
    overrides = {
        "verifier": {"timeout": 30, **verifier},
        "planner": {"url": llm.url, "model": "fake-model", "retries": 0},
        "prover": {"url": llm.url, "model": "fake-model", "retries": 0},
        "budget": w["budget"],
        "search": w["search"],
    }
    return load_config(None, overrides, environ={})


async def run_world(settings: Any, verifier: Any) -> tuple[Any, Any]:
    recorder, close = open_recorder(None)
    try:
        async with open_services(settings, recorder=recorder, verifier=verifier) as services:
            result = await prove_problem(services, settings, problem_from_code(HEADER + DEFS + THEOREM))
    finally:
        close()
    finished = [r for r in recorder.records if isinstance(r, RunFinished)]
    return result, finished


def assert_budget_holds(result: Any, finished: list[Any], budget: dict[str, int], *, llm_sent: int,
                        lean_sent: int) -> None:
    stats = result.stats
    # requests started ahead and never taken, and work refunded because an alternative tried
    # beside an earlier one never had its turn, are reported apart from the budget's units
    assert llm_sent <= stats.llm_calls + stats.prefetched_unused + stats.speculative_calls, (llm_sent, stats)
    assert stats.llm_calls <= budget["llm_calls"], stats
    assert stats.prefetched_unused <= stats.prefetched_calls, stats
    assert stats.llm_calls - llm_sent <= stats.cancelled_calls, (llm_sent, stats)
    # checks started ahead (while Lean had room) are charged when taken; those never taken are
    # reported apart, like the model requests
    assert lean_sent <= stats.checks + stats.checks_ahead_unused + stats.speculative_checks, (lean_sent, stats)
    assert stats.checks <= budget["lean_checks"], stats
    assert stats.checks_ahead_unused <= stats.checks_ahead, stats
    assert stats.checks - lean_sent <= stats.cancelled_checks, (lean_sent, stats)
    assert len(finished) == 1
    assert (finished[0].summary["calls"], finished[0].summary["checks"]) == (stats.llm_calls, stats.checks)
    assert finished[0].summary["prefetched_unused"] == stats.prefetched_unused
    assert finished[0].summary["checks_ahead_unused"] == stats.checks_ahead_unused
    assert not any(n.status == "open" for n in result.tree.nodes())


@pytest.mark.parametrize("seed", range(10))
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
        lean_sent = sum(1 for r in kimina.check_requests for s in r.body["snippets"] if not s["id"].startswith(PROBE))
        llm_sent = len(llm.requests)
    assert_budget_holds(result, finished, w["budget"], llm_sent=llm_sent, lean_sent=lean_sent)


REPL_RULES = (
    {"match": r"\bbad_\w+", "on": "cmd", "messages": [{"data": "tactic failed"}]},
    {"match": r"^omega$", "on": "tactic", "goal_match": r"⊢ Easy x$", "closes": True},
    {"match": r"(?s)\A(?!.*Easy x :=).*?\(omega; done\)", "on": "cmd", "messages": [{"data": "omega failed"}]},
)


@pytest.mark.parametrize("seed", range(100, 106))
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
        llm_sent = len(llm.requests)
    # Header imports are the pool's own business (one per process); every other command and every
    # tactic step (extract_goal, automation on a proof state) is a request of the run.
    lean_sent = len(fake.requests("cmd")) + len(fake.requests("tactic"))
    assert_budget_holds(result, finished, w["budget"], llm_sent=llm_sent, lean_sent=lean_sent)

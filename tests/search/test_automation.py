"""Minimal proofs from the automation portfolio: on a backend without proof states the portfolio
runs as one `first | …` check, and when it closes a hole the single cheapest tactic that closes it
alone is what is stored and assembled — never the portfolio."""

from __future__ import annotations

import asyncio
import json

import pytest

from lemmaforge.search.automation import first_combinator, is_portfolio, single_closer
from lemmaforge.search.budget import BudgetExhausted
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.search.scenarios import SKETCH, add_planner, add_prover, closing_hole_rule, lean_block, prover_rule
from tests.search.test_prove_e2e import prove

PORTFOLIO = ("cheap_tac", "auto_tac", "dear_tac")


@pytest.mark.looptime  # the tactics' delays are the loop's virtual seconds
async def test_single_closer_keeps_the_cheapest_that_closes_and_cancels_the_rest():
    started: list[str] = []
    cancelled: list[str] = []
    delays = {"a": 0.02, "b": 0.0, "c": 0.01, "d": 10.0}

    async def closes(t: str) -> bool:
        started.append(t)
        try:
            await asyncio.sleep(delays[t])
        except asyncio.CancelledError:
            cancelled.append(t)
            raise
        return t in ("b", "c", "d")

    tactic, checks = await single_closer(closes, ["a", "b", "c", "d"])
    assert tactic == "b" and checks == 4  # every check started at once, each counted
    assert started == ["a", "b", "c", "d"] and cancelled == ["d"]  # `d` was still running


async def test_single_closer_none_when_no_tactic_closes_alone():
    async def closes(t: str) -> bool:
        return False

    assert await single_closer(closes, ["a", "b"]) == (None, 2)


async def test_single_closer_budget_error_only_when_nothing_closed():
    async def closes(t: str) -> bool:
        if t == "b":
            raise BudgetExhausted("lean_checks")
        return t == "c"

    assert (await single_closer(closes, ["a", "b", "c"]))[0] == "c"

    async def never(t: str) -> bool:
        if t == "b":
            raise BudgetExhausted("lean_checks")
        return False

    with pytest.raises(BudgetExhausted):
        await single_closer(never, ["a", "b"])


def test_is_portfolio():
    assert is_portfolio(first_combinator(PORTFOLIO))
    assert is_portfolio("by\n  have h : P := by\n    first\n    | (omega; done)\n    | (simp; done)\n  exact h")
    assert not is_portfolio("by\n  first | simp | ring")  # a model's own `first` is not ours
    assert not is_portfolio("by\n  omega")


def fake_lean() -> ScriptedLean:
    return ScriptedLean(
        rules=[
            MessageRule(r"\bbad_\w+", "tactic failed"),
            # `cheap_tac` alone closes nothing; `auto_tac` closes only the `Easy` lemma; `dear_tac`
            # (not in the fake's rules) closes anything: the minimal proof is `auto_tac`
            MessageRule(r"(?s):= by\s*cheap_tac\s*\Z", "cheap_tac failed"),
            MessageRule(r"(?s)\A(?!.*Easy x :=).*?\bauto_tac\b", "auto_tac failed"),
        ]
    )


def test_kimina_run_stores_and_assembles_the_single_tactic(tmp_path, monkeypatch):
    # the portfolio set the way a user sets it: the config file's [search] section
    config = tmp_path / "lemmaforge.toml"
    config.write_text(f"[search]\nportfolio = {json.dumps(list(PORTFOLIO))}\n", encoding="utf-8")
    monkeypatch.setenv("LEMMAFORGE_CONFIG", str(config))
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        add_prover(llm, *prover_rule("Hard x", "exact hard_fact"))
        add_prover(llm, *closing_hole_rule())
        add_planner(llm, r"theorem t ", lean_block(SKETCH))
        r, store = prove(tmp_path, kimina, llm)
        sent = [s["code"] for req in kimina.check_requests for s in req.body["snippets"]]
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["proved"]
    assert "have h1 : Easy x := by auto_tac\n" in out["proof"] and not is_portfolio(out["proof"])
    # the portfolio ran as one check per hole, then each tactic alone on the hole it closed
    assert sum(is_portfolio(c) for c in sent) == 3
    assert any(c.rstrip().endswith("cheap_tac") for c in sent) and any(c.rstrip().endswith("dear_tac") for c in sent)
    proofs = store.proofs(out["run_id"])
    assert proofs and not any(is_portfolio(p.proof) for p in proofs)
    easy = [p for p in proofs if p.kind == "subgoal" and p.strategy == "automation"]
    assert [p.proof for p in easy] == ["auto_tac"]
    assert not any(is_portfolio(a.code) and a.verdict == "valid" for a in store.attempts(out["run_id"]))
    assert out["checks"] >= 3 + len(PORTFOLIO)  # the single-tactic checks are counted

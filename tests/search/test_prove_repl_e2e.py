"""Prove end to end on the REPL backend: `ReplVerifier` runs the fake REPL process (tests/fakes/
fake_repl.py) through lean-interact's real code path, the fake OpenAI server plays planner and
prover, the store is a real SQLite file. Unlike Kimina, the REPL has proof states, so the engine
(1) runs the automation portfolio as tactic steps on each hole's proof state and (2) builds each
hole's lemma with Mathlib's `extract_goal` on that state, re-elaborated before it is used.

Lean semantics of the fake (FakeLean + rules below): code without `sorry` and without a `bad_*`
tactic checks; a hole's goal is read off the sketch (its `have` statement, the theorem's binders and
the earlier `have`s as hypotheses); `extract_goal` prints that goal as a theorem; of the default
automation portfolio only `simp` closes anything, and only a goal `⊢ Easy x`.

The engine is built by `app.open_services` with the verifier injected (`ReplVerifier.from_config`
needs a real lake), then `app.prove_problem`, as `lemmaforge prove --verifier repl` would.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from lemmaforge.config import Settings, load_config
from lemmaforge.db import Store
from lemmaforge.lean import lemmas as lean_lemmas
from lemmaforge.lean.repl import ReplVerifier
from lemmaforge.search.automation import DEFAULT_PORTFOLIO
from lemmaforge.search.interfaces import SearchResult
from lemmaforge.services import open_recorder, open_services, problem_from_code, prove_problem
from tests.fakes.fake_lean import extract_goal_message
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.fakes.fake_repl import FakeRepl, make_fake_repl_config
from tests.search.scenarios import (
    DEFS,
    HEADER,
    SKETCH,
    THEOREM,
    add_planner,
    add_prover,
    closing_hole_rule,
    goal_nodes,
    lean_block,
    prover_rule,
    read_back,
)

BAD_TACTIC = {"match": r"\bbad_\w+", "on": "cmd", "messages": [{"data": "tactic failed"}]}
SIMP_CLOSES_EASY = {"match": r"^simp$", "on": "tactic", "goal_match": r"⊢ Easy x$", "closes": True}
# The portfolio as one check of a lemma (`first | … | (simp; done) | …`): it closes only the one about Easy.
SIMP_CLOSES_EASY_IN_FILES = {"match": r"(?s)\A(?!.*Easy x :=).*?\(simp; done\)", "on": "cmd",
                             "messages": [{"data": "simp failed"}]}
# The portfolio's tactics one at a time on that lemma (how the engine finds the single tactic to
# keep once the portfolio closed it): those cheaper than `simp` fail there.
CHEAP_TACTICS_FAIL_EASY_IN_FILES = {"match": r"(?s)Easy x := by\s*(omega|norm_num|linarith|positivity)\s*\Z",
                                    "on": "cmd", "messages": [{"data": "linarith failed"}]}
EXTRACT_GOAL = lean_lemmas.extract_goal_tactic("NAME").removesuffix("NAME")


@pytest.fixture()
def llm() -> Any:
    with FakeOpenAIServer(default=lean_block("bad_default")) as server:
        yield server


def settings_for(tmp_path: Path, llm: FakeOpenAIServer, automation: str = "proof_state", **budget: int) -> Settings:
    overrides = {
        "search": {"automation": automation},
        "verifier": {"backend": "repl", "timeout": 30},
        "planner": {"url": llm.url, "model": "fake-model", "retries": 2, "backoff": 0.01},
        "prover": {"url": llm.url, "model": "fake-model", "retries": 2, "backoff": 0.01},
        "budget": {"root_whole_proof_attempts": 2, "prover_samples_per_goal": 2, **budget},
        "db_url": f"sqlite:///{tmp_path / 'runs.db'}",
    }
    return load_config(None, overrides, environ={})  # no lemmaforge.toml, no LEMMAFORGE_* from the caller


async def prove(
    tmp_path: Path, llm: FakeOpenAIServer, *, rules: Sequence[dict[str, Any]] = (BAD_TACTIC, SIMP_CLOSES_EASY),
    workers: int = 2, max_checks_per_worker: int = 1000, automation: str = "proof_state", **budget: int,
) -> tuple[SearchResult, Store, FakeRepl]:
    """One `prove` of THEOREM on a fresh fake REPL install with these rules; the result, the store
    it was recorded in and the fake (its request log). Automation on proof states unless told
    otherwise (those paths are what most of these tests are about)."""
    settings = settings_for(tmp_path, llm, automation, **budget)
    fake = make_fake_repl_config(tmp_path / "repl", rules=rules, transcripts=False)
    verifier = ReplVerifier(
        fake.config, workers=workers, timeout=30, header_timeout=30,
        max_checks_per_worker=max_checks_per_worker,
    )
    recorder, close_recorder = open_recorder(settings.db_url)
    try:
        async with open_services(settings, recorder=recorder, verifier=verifier) as services:
            result = await prove_problem(services, settings, problem_from_code(HEADER + DEFS + THEOREM))
    finally:
        close_recorder()
        await verifier.close()
    return result, Store(settings.db_url), fake


def script_sketch_scenario(llm: FakeOpenAIServer) -> None:
    """The planner decomposes the theorem into h1 (Easy), h2 (Hard) and the closing hole; the
    prover proves Hard and the closing hole, never the theorem itself (the default reply fails)."""
    add_planner(llm, r"theorem t ", lean_block(SKETCH))
    add_prover(llm, *prover_rule("Hard x", "exact hard_fact"))
    add_prover(llm, *closing_hole_rule())


def extracted_lemma(node: dict[str, Any]) -> str:
    """The lemma `build_lemma` makes of extract_goal's message for this node's goal and name."""
    name = node["text"].split()[1]
    statement = lean_lemmas.parse_extract_goal(extract_goal_message(node["goal_state"], name), name)
    assert statement is not None
    return statement


# --- scenarios ---------------------------------------------------------------------------------------


@pytest.mark.slow
async def test_sketch_holes_use_proof_states_for_automation_and_extract_goal(tmp_path, llm) -> None:
    script_sketch_scenario(llm)
    result, store, fake = await prove(tmp_path, llm)
    assert result.proved, result.stop_reason
    assert result.depth == 1 and result.audit is not None and result.audit.ok
    proof = result.proof
    assert proof is not None and proof.startswith(HEADER + DEFS)
    assert "have h1 : Easy x := by simp\n" in proof and "exact hard_fact" in proof and "exact rfl" in proof
    assert result.audit.axioms == ["propext", "Classical.choice", "Quot.sound"]  # `#print axioms` via the fake

    run, tree, attempts, calls = read_back(store, result.run_id)
    assert run.status == "proved"
    holes = sorted(goal_nodes(tree, depth=1), key=lambda d: d["hole_index"])
    assert [d["strategy"] for d in holes] == ["automation", "prover", "prover"]
    # Every hole's lemma is extract_goal's theorem for that hole's proof state, not a text lemma.
    assert [d["goal_state"] for d in holes] == [
        "x : ℕ\nh : A x\n⊢ Easy x",
        "x : ℕ\nh : A x\nh1 : Easy x\n⊢ Hard x",
        "x : ℕ\nh : A x\nh1 : Easy x\nh2 : Hard x\n⊢ D x",
    ]
    for d in holes:
        assert d["text"] == extracted_lemma(d)
    assert holes[1]["text"] == "theorem t_sub_2 (x : ℕ) (h : A x) (h1 : Easy x) : Hard x := by\n  sorry"

    # Automation ran on the proof states: its attempts' code is the tactics, not a Lean file.
    auto = [[a for a in attempts if a.node_id == d["node_id"] and a.strategy == "automation"] for d in holes]
    assert [(a.verdict, a.code) for a in auto[0]] == [("valid", "simp")]
    for failed in auto[1:]:
        assert [(a.verdict, a.code) for a in failed] == [("error", "\n".join(DEFAULT_PORTFOLIO))]
        assert "fake Lean has no rule" in failed[0].errors[0]
    # What the fake REPL was asked: extract_goal once per hole, the portfolio up to `simp` on h1
    # and in full on the other two, and never a check of the automation as a Lean file.
    tactics = [e["text"] for e in fake.requests("tactic")]
    assert sum(t.startswith(EXTRACT_GOAL) for t in tactics) == 3
    portfolio_steps = [t for t in tactics if not t.startswith(EXTRACT_GOAL)]
    assert sorted(portfolio_steps) == sorted(
        [*DEFAULT_PORTFOLIO[: DEFAULT_PORTFOLIO.index("simp") + 1], *DEFAULT_PORTFOLIO, *DEFAULT_PORTFOLIO]
    )
    assert not any("first\n" in e["text"] for e in fake.requests("cmd"))
    # Each extracted lemma was re-elaborated under autoImplicit false before it was used.
    assert len([e for e in fake.requests("cmd") if "set_option autoImplicit false in\ntheorem t_sub_" in e["text"]]) == 3
    assert fake.header_elaborations() <= 2  # one per worker, at most
    # One subgoal proof per hole, though both prover samples of h2 and of the closing hole passed.
    assert sorted(p.node_id for p in store.proofs(result.run_id, kind="subgoal")) == sorted(d["node_id"] for d in holes)
    assert [p.node_id for p in store.proofs(result.run_id, kind="whole")] == [goal_nodes(tree, depth=0)[0]["node_id"]]
    assert calls and {c.role for c in calls} == {"planner", "prover"}


@pytest.mark.slow
async def test_extract_goal_failure_falls_back_to_the_text_lemma(tmp_path, llm) -> None:
    """extract_goal errors on the Hard hole (as it does on a goal with metavariables): that hole's
    lemma is the text lemma (type b) and the search goes on."""
    script_sketch_scenario(llm)
    metavariables = {"match": "extract_goal", "on": "tactic", "goal_match": r"⊢ Hard x$",
                     "error": "Lean error:\nExtracted goal has metavariables: ?m.5"}
    result, store, _ = await prove(tmp_path, llm, rules=(BAD_TACTIC, SIMP_CLOSES_EASY, metavariables))
    assert result.proved, result.stop_reason
    _, tree, _, _ = read_back(store, result.run_id)
    holes = sorted(goal_nodes(tree, depth=1), key=lambda d: d["hole_index"])
    assert holes[0]["text"] == extracted_lemma(holes[0]) and holes[2]["text"] == extracted_lemma(holes[2])
    assert holes[1]["text"] == lean_lemmas.lemma_from_step(SKETCH, 1, include_previous=True, name="t_sub_2")
    assert holes[1]["text"].startswith("theorem t_sub_2\n    (x : ℕ) (h : A x)\n    (h1 : Easy x) :")
    assert [d["strategy"] for d in holes] == ["automation", "prover", "prover"]


@pytest.mark.slow
async def test_proof_states_lost_to_a_recycled_worker(tmp_path, llm) -> None:
    """The only worker is recycled before every check: a sketch's proof states die with the
    process that made them. Lemmas built before that come from extract_goal, any after from the
    text; automation runs on the standalone lemma (one check of the `first | …` combinator, then
    each tactic alone to keep the one that closes it) instead of the lost state, and the proof
    still goes through, with `simp` (not the portfolio) in it."""
    script_sketch_scenario(llm)
    result, store, fake = await prove(
        tmp_path, llm, rules=(BAD_TACTIC, SIMP_CLOSES_EASY, SIMP_CLOSES_EASY_IN_FILES, CHEAP_TACTICS_FAIL_EASY_IN_FILES),
        workers=1, max_checks_per_worker=1,
    )
    assert result.proved, result.stop_reason
    assert "have h1 : Easy x := by simp\n" in (result.proof or "") and "first" not in (result.proof or "")
    _, tree, attempts, _ = read_back(store, result.run_id)
    holes = sorted(goal_nodes(tree, depth=1), key=lambda d: d["hole_index"])
    assert [d["strategy"] for d in holes] == ["automation", "prover", "prover"]
    # Lemmas are built for all holes at once: those whose extract_goal ran before the first
    # round-trip check recycled the process come from extract_goal, the others are text lemmas.
    def text_lemma(d):
        return lean_lemmas.lemma_from_step(SKETCH, d["hole_index"], include_previous=True, name=d["text"].split()[1])

    kinds = ["extract_goal" if d["text"] == extracted_lemma(d) else "text" if d["text"] == text_lemma(d) else "?"
             for d in holes]
    assert "?" not in kinds, kinds
    easy = [a for a in attempts if a.node_id == holes[0]["node_id"] and a.strategy == "automation"]
    assert [a.verdict for a in easy] == ["error", "valid"]
    assert easy[0].code == DEFAULT_PORTFOLIO[0] and "proof state lost" in easy[0].errors[0]
    assert easy[1].code.startswith(HEADER + DEFS) and easy[1].code.rstrip().endswith("simp")
    assert "first" not in easy[1].code
    assert any("(simp; done)" in e["text"] for e in fake.requests("cmd"))  # the portfolio ran once
    assert fake.process_starts() > 3


@pytest.mark.slow
async def test_a_tactic_that_kills_the_process_loses_the_state_and_automation_checks_the_lemma(tmp_path, llm) -> None:
    """`omega` (the first tactic of the portfolio) crashes Lean on the Easy hole: the tactic step
    reports the state lost with the process, the portfolio stops there and runs as one check of
    the standalone lemma instead, which closes it."""
    script_sketch_scenario(llm)
    crash = {"match": r"^omega$", "on": "tactic", "goal_match": r"⊢ Easy x$", "crash": True}
    result, store, fake = await prove(
        tmp_path, llm, rules=(BAD_TACTIC, SIMP_CLOSES_EASY, crash, SIMP_CLOSES_EASY_IN_FILES, CHEAP_TACTICS_FAIL_EASY_IN_FILES)
    )
    assert result.proved, result.stop_reason
    _, tree, attempts, _ = read_back(store, result.run_id)
    holes = sorted(goal_nodes(tree, depth=1), key=lambda d: d["hole_index"])
    assert [d["strategy"] for d in holes] == ["automation", "prover", "prover"]
    easy = [a for a in attempts if a.node_id == holes[0]["node_id"] and a.strategy == "automation"]
    assert [(a.verdict, a.code) for a in easy][0] == ("error", "omega")
    assert "the Lean process died" in easy[0].errors[0] and "proof state lost" in easy[0].errors[0]
    assert easy[1].verdict == "valid" and easy[1].code.rstrip().endswith("simp") and "first" not in easy[1].code
    # Nothing was sent for a proof state of the dead process: the crash was the last tactic step.
    assert [e["text"] for e in fake.requests("tactic")][-1] == "omega"


@pytest.mark.slow
async def test_default_automation_is_one_lemma_check_on_any_worker(tmp_path, llm) -> None:
    """The default (`search.automation = "lemma"`): the portfolio runs as ONE check of each hole's
    standalone lemma, which any worker can take; no tactic step of the portfolio is pinned to the
    worker holding the hole's proof state (only extract_goal runs there, once per hole)."""
    script_sketch_scenario(llm)
    result, store, fake = await prove(
        tmp_path, llm, rules=(BAD_TACTIC, SIMP_CLOSES_EASY, SIMP_CLOSES_EASY_IN_FILES), automation="lemma",
    )
    assert result.proved, result.stop_reason
    _, tree, attempts, _ = read_back(store, result.run_id)
    holes = sorted(goal_nodes(tree, depth=1), key=lambda d: d["hole_index"])
    assert [d["strategy"] for d in holes] == ["automation", "prover", "prover"]
    tactics = [e["text"] for e in fake.requests("tactic")]
    assert tactics and all(t.startswith(EXTRACT_GOAL) for t in tactics)  # no portfolio step pinned
    # one per hole (the assembled files that contain the winning combinator are not counted)
    portfolio_checks = [e for e in fake.requests("cmd") if "first\n" in e["text"] and "theorem t (" not in e["text"]]
    assert len(portfolio_checks) == 3
    auto = [a for a in attempts if a.strategy == "automation"]
    assert sorted(a.verdict for a in auto) == ["error", "error", "valid"]
    # Every Lean request the run made was counted against its budget (tactic steps included).
    # (the single-tactic search after the portfolio closes a hole cancels the slower checks once
    # the cheapest closer answers: those counted but possibly never sent are `cancelled_checks`)
    sent = len(fake.requests("cmd")) + len(tactics)  # header imports are not checks
    assert sent <= result.stats.checks <= sent + result.stats.cancelled_checks

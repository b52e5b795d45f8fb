"""`lemmaforge prove` end to end: the fake OpenAI-compatible server plays planner and prover, the
fake Kimina server plays Lean, the store is a real SQLite file. Every scenario is then read back
from the database to show the run is reconstructible.

Lean semantics of the fake (ScriptedLean + rules below): code without `sorry` and without a
failing tactic checks; `bad_*` tactics fail with an error; the automation portfolio (one tactic,
`auto_tac`) closes only goals whose lemma mentions `Easy`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db import Store
from lemmaforge.records import AttemptRecord, LLMCallRecord
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.search.scenarios import (
    DEFS,
    HEADER,
    SKETCH,
    SKETCH_HARD,
    SKETCH_STUCK,
    THEOREM,
    add_planner,
    add_prover,
    closing_hole_rule,
    goal_nodes,
    is_planner,
    lean_block,
    lemma_head,
    proof_of,
    prover_rule,
    read_back,
)

runner = CliRunner()


def fake_lean() -> ScriptedLean:
    return ScriptedLean(
        rules=[
            MessageRule(r"\bbad_\w+", "tactic failed"),
            # automation closes a goal only when its lemma is about `Easy`
            MessageRule(r"(?s)\A(?!.*Easy x :=).*?\bauto_tac\b", "auto_tac failed"),
        ]
    )


@pytest.fixture()
def servers():
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        yield kimina, llm


def write_problem(tmp_path: Path) -> Path:
    f = tmp_path / "t.lean"
    f.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
    return f


def prove(tmp_path: Path, kimina, llm, *extra: str):
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    args = [
        "prove", str(write_problem(tmp_path)), "--verifier", "kimina", "--kimina-url", kimina.url,
        "--planner-url", llm.url, "--planner-model", "fake-model",
        "--prover-url", llm.url, "--prover-model", "fake-model",
        "--db", db, "--json", "--no-live",
        "--budget", "root_whole_proof_attempts=2", "--budget", "prover_samples_per_goal=2",
        *extra,
    ]
    env = {"LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01", "LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all",
           "LEMMAFORGE_PROVER__BACKOFF": "0.01", "LEMMAFORGE_PLANNER__BACKOFF": "0.01",
           "LEMMAFORGE_PROVER__RETRIES": "2", "LEMMAFORGE_PLANNER__RETRIES": "2"}
    result = runner.invoke(app, args, env=env)
    return result, Store(db)


def use_auto_tac(monkeypatch, tmp_path: Path | None = None):
    """The automation portfolio is the one tactic `auto_tac`, set the way a user sets it: the
    config file's [search] section."""
    import tempfile

    folder = Path(tempfile.mkdtemp()) if tmp_path is None else tmp_path
    config = folder / "lemmaforge.toml"
    config.write_text('[search]\nportfolio = ["auto_tac"]\n', encoding="utf-8")
    monkeypatch.setenv("LEMMAFORGE_CONFIG", str(config))


# --- scenarios ---------------------------------------------------------------------------------------


def test_prover_proves_the_theorem_directly(tmp_path, servers, monkeypatch):
    use_auto_tac(monkeypatch, tmp_path)
    kimina, llm = servers
    add_prover(llm, *prover_rule("D x", "exact rfl"))
    r, store = prove(tmp_path, kimina, llm)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["proved"] is True and out["depth"] == 0
    assert out["proof"].startswith(HEADER + DEFS) and "exact rfl" in out["proof"]
    assert out["calls"] >= 1 and out["checks"] >= 2  # a candidate check + the audited whole-file check
    run, tree, attempts, calls = read_back(store, out["run_id"])
    assert run.status == "proved"
    assert [p.kind for p in store.proofs(out["run_id"])] == ["whole"]
    assert all(isinstance(a, AttemptRecord) for a in attempts) and any(a.verdict == "valid" for a in attempts)
    assert calls and all(isinstance(c, LLMCallRecord) for c in calls)
    # The search used the prover's answers only; the planner's first sketch may have been drafted
    # ahead (`[search] prefetch`, while the candidates were checked): sent, so charged, unused.
    assert len(calls) == out["calls"]
    assert sum(c.role == "prover" for c in calls) == out["used_calls"]
    assert sum(c.role == "planner" for c in calls) <= out["prefetched_unused"] <= 1


def test_sketch_with_holes_closed_by_automation_and_prover(tmp_path, servers, monkeypatch):
    use_auto_tac(monkeypatch, tmp_path)
    kimina, llm = servers
    # no rule for `: D x` alone: the root's whole-proof attempts get the default (failing) reply
    add_prover(llm, *prover_rule("Hard x", "exact hard_fact"))
    add_prover(llm, *closing_hole_rule())
    add_planner(llm, r"theorem t ", lean_block(SKETCH))
    r, store = prove(tmp_path, kimina, llm)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["proved"] and out["depth"] == 1
    proof = out["proof"]
    assert "have h1 : Easy x := by" in proof and "auto_tac" in proof and "exact hard_fact" in proof
    run, tree, attempts, _ = read_back(store, out["run_id"])
    goals = goal_nodes(tree)
    sketches = [d for _, d in tree.nodes(data=True) if d["kind"] == "sketch"]
    assert len(sketches) == 1 and len(goals) == 4  # root + h1 + h2 + closing hole
    strategies = sorted(d["strategy"] for d in goals if d["depth"] == 1)
    assert strategies == ["automation", "prover", "prover"]
    assert {p.kind for p in store.proofs(out["run_id"])} == {"whole", "subgoal"}


def test_a_hole_needs_a_second_level_of_decomposition(tmp_path, servers, monkeypatch):
    use_auto_tac(monkeypatch, tmp_path)
    kimina, llm = servers
    add_prover(llm, *prover_rule("Hard1 x", "exact h1_fact"))
    add_prover(llm, *prover_rule("Hard2 x", "exact h2_fact"))
    add_prover(llm, *closing_hole_rule())

    def hard_sketch(req):
        name = re.search(r"theorem (\S+)\s+\(x : ℕ\) \(h : A x\)\s+\(h1 : Easy x\)\s*:\s*Hard x", req.text).group(1)
        return lean_block(SKETCH_HARD.format(name=name))

    add_planner(llm, r":\s+Hard x := by", hard_sketch)
    add_planner(llm, r"theorem t ", lean_block(SKETCH))
    r, store = prove(tmp_path, kimina, llm)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["proved"] and out["depth"] == 2
    assert "exact h1_fact" in out["proof"] and "exact combine k1 k2" in out["proof"]
    _, tree, _, _ = read_back(store, out["run_id"])
    assert max(d["depth"] for _, d in tree.nodes(data=True)) == 2


def test_first_sketch_abandoned_for_an_alternative(tmp_path, servers, monkeypatch):
    use_auto_tac(monkeypatch, tmp_path)
    kimina, llm = servers
    add_prover(llm, *prover_rule("Hard x", "exact hard_fact"))
    add_prover(llm, *closing_hole_rule())
    add_prover(llm, r"\(h1 : Stuck x\)\s*:\s*D x := by", lambda req: proof_of(lemma_head(req.text, "D x"), "exact rfl"))
    add_planner(llm, r"theorem t ", [lean_block(SKETCH_STUCK), lean_block(SKETCH)], consume=True)
    r, store = prove(tmp_path, kimina, llm, "--budget", "max_depth=1")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["proved"] and out["depth"] == 1
    _, tree, _, _ = read_back(store, out["run_id"])
    sketch_status = sorted(d["status"] for _, d in tree.nodes(data=True) if d["kind"] == "sketch")
    assert sketch_status == ["abandoned", "solved"]
    # the second request to the planner carried the failed sketch, asking for a different one
    planner_requests = [q for q in llm.requests if q.endpoint == "chat" and is_planner(q)]
    assert "Stuck x" in planner_requests[-1].text


def test_never_solved_within_budget_stops_cleanly_with_everything_recorded(tmp_path, servers, monkeypatch):
    use_auto_tac(monkeypatch, tmp_path)
    kimina, llm = servers
    add_planner(llm, r"theorem t ", lean_block(SKETCH_STUCK))
    r, store = prove(tmp_path, kimina, llm, "--budget", "llm_calls=6", "--budget", "max_depth=1")
    assert r.exit_code == 1, r.output
    out = json.loads(r.stdout)
    assert out["proved"] is False and out["proof"] is None and out["depth"] is None
    assert out["calls"] <= 6
    run, tree, attempts, calls = read_back(store, out["run_id"])
    assert run.status == "not_proved" and run.summary["stop_reason"] == out["stop_reason"]
    # every request is recorded: those the search used, and those started ahead and never needed
    assert out["calls"] <= len(calls) <= out["calls"] + out["prefetched_unused"]
    assert attempts and not any(a.verdict == "valid" for a in attempts if a.strategy == "prover")
    assert all(d["status"] != "open" for _, d in tree.nodes(data=True))
    assert store.proofs(out["run_id"], kind="whole") == []


def test_transient_endpoint_failures_are_retried(tmp_path, servers, monkeypatch):
    use_auto_tac(monkeypatch, tmp_path)
    kimina, llm = servers
    add_prover(llm, *prover_rule("D x", "exact rfl"))
    llm.fail_next(2, status=503)
    kimina.fail_next(1, status=503)
    r, _ = prove(tmp_path, kimina, llm)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["proved"]


def test_permanently_failing_endpoint_is_exit_2_naming_it(tmp_path, servers, monkeypatch):
    use_auto_tac(monkeypatch, tmp_path)
    kimina, llm = servers
    llm.fail_always(500)
    r, store = prove(tmp_path, kimina, llm)
    assert r.exit_code == 2, r.output
    assert llm.url in r.output and "error:" in r.output
    # the run is closed in the store, not left "running", and what it did is kept
    [run] = store.runs(kind="prove")
    assert run.status == "failed" and "LLMUnavailableError" in run.summary["error"]
    assert store.llm_calls(run.run_id) and all(c.error for c in store.llm_calls(run.run_id))
    assert all(d["status"] != "open" for _, d in store.tree(run.run_id).nodes(data=True))


def test_bad_input_exit_2(tmp_path):
    no_sorry = tmp_path / "done.lean"
    no_sorry.write_text(HEADER + "theorem u : 1 = 1 := rfl\n", encoding="utf-8")
    r = runner.invoke(app, ["prove", str(no_sorry), "--prover-url", "http://127.0.0.1:9/v1", "--json"])
    assert r.exit_code == 2 and "no `sorry`" in r.output
    r = runner.invoke(app, ["prove", str(no_sorry), "--statement", "theorem x : True := by sorry"])
    assert r.exit_code == 2 and "exactly one" in r.output
    r = runner.invoke(app, ["prove", "--statement", "theorem x : True := by sorry", "--budget", "depth=3"])
    assert r.exit_code == 2 and "--budget" in r.output


def test_lemma_style_assembly_when_inline_fails(tmp_path, monkeypatch):
    """A hole proof that checks as a standalone lemma but not inlined in the sketch (here: the
    fake rejects `standalone_only` below the top level of a proof) is assembled lemma style:
    the proved lemma goes before the theorem and the hole applies it."""
    use_auto_tac(monkeypatch, tmp_path)
    lean = fake_lean()
    lean.rules = [*lean.rules, MessageRule(r"(?m)(?::= by |^ {4,})standalone_only", "only works at top level")]
    with FakeKimina(responder=lean) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        add_prover(llm, *prover_rule("Hard x", "standalone_only"))
        add_prover(llm, r"\(h2 : Hard x\)\s*:\s*D x := by", lambda req: proof_of(lemma_head(req.text, "D x"), "exact rfl"))
        add_planner(llm, r"theorem t ", lean_block(SKETCH))
        r, store = prove(tmp_path, kimina, llm)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    proof = out["proof"]
    lemma_name = re.search(r"theorem (t_sub_\d+)\s+\(x : ℕ\) \(h : A x\)\s+\(h1 : Easy x\)\s*:\s*Hard x", proof)
    assert lemma_name, proof
    assert proof.index(lemma_name.group(0)) < proof.index("theorem t (x : ℕ)")
    assert f"apply {lemma_name.group(1)} <;> assumption" in proof
    assert out["audit"]["status"] == "proved"
    attempts = [a for a in store.attempts(out["run_id"]) if a.strategy == "assembly"]
    assert [a.verdict for a in attempts][-3:] == ["error", "valid", "valid"]  # inline, lemma style, final audit


def test_a_bug_inside_a_sketch_exits_internal_not_not_proved(tmp_path, servers, monkeypatch):
    """An exception raised while the holes of a sketch are solved (inside the sketch's TaskGroup)
    is a bug: exit code 70 with one line naming the error, never 1 ("not proved") with a stop
    reason "unhandled errors in a TaskGroup"; the run is closed as failed in the store."""
    from lemmaforge.search import engine

    use_auto_tac(monkeypatch, tmp_path)
    kimina, llm = servers
    add_planner(llm, r"theorem t ", lean_block(SKETCH))

    async def broken(self, node, hole):
        raise ZeroDivisionError("a bug in automation")

    monkeypatch.setattr(engine._Run, "_try_automation", broken)
    r, store = prove(tmp_path, kimina, llm)
    assert r.exit_code == 70, r.output
    assert "ZeroDivisionError: a bug in automation" in r.stderr
    assert "TaskGroup" not in r.stderr
    runs = store.runs(kind="prove")
    assert len(runs) == 1 and runs[0].status == "failed"

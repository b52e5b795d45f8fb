"""The "done when" of honest numbers, on the stand-in servers and a SQLite store: for each fault,
`bench` either finishes with a report equal to the fault-free run's, or stops with exit 2 and one
error line naming the endpoint, and `bench --resume` after the fault is removed gives a report
equal to the fault-free run's. A bug stops it with exit 70 instead (same resume guarantee).

The fake OpenAI server plays the prover (it proves the SOLVABLE problems), the fake Kimina server
plays Lean (tests/benchmarks/bench_helpers.py). kill -9 at a random moment is
tests/benchmarks/test_runner.py::test_kill_9_mid_run_then_resume_matches_an_uninterrupted_run.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from typer.testing import CliRunner

from lemmaforge.db import Store
from tests.benchmarks.bench_entry import app
from tests.benchmarks.bench_helpers import ENV, SOLVABLE, bench_args, fake_servers, outcome
from tests.conftest import error_lines
from tests.fakes.fake_openai import Rule

LIMIT, ATTEMPTS = 3, 2
REPORT_KEYS = ("problems", "solved", "tried", "attempts_done", "attempts_planned", "pass_at_k", "complete",
               "by_split", "by_category", "depth", "invalid")
runner = CliRunner()


def invoke(args: list[str], env: dict[str, str] | None = None):
    return runner.invoke(app, args, env={**ENV, **(env or {})})


def bench(kimina, llm, db: str, run_id: str, env: dict[str, str] | None = None):
    return invoke(bench_args(kimina, llm, db, "--limit", str(LIMIT), "--attempts", str(ATTEMPTS), "--concurrency",
                             "2", "--run-id", run_id, "--json"), env)


def resume(db: str, run_id: str, env: dict[str, str] | None = None):
    return invoke(["bench", "--resume", run_id, "--db", db, "--json", "--no-progress"], env)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[dict[str, Any], dict]:
    db = f"sqlite:///{tmp_path_factory.mktemp('ref') / 'ref.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        r = bench(kimina, llm, db, "REF")
        assert r.exit_code == 0, r.output
    return json.loads(r.stdout), outcome(Store(db), "REF")


def finished(store: Store, bench_id: str) -> dict[tuple[str, int], tuple]:
    """`outcome` of the slots that have a finished run (a stopped bench has unfinished ones)."""
    from tests.benchmarks.bench_helpers import slots

    done = {key for key, runs in slots(store, bench_id).items() if any(r.status in ("proved", "not_proved") for r in runs)}
    whole = {}
    for key in done:
        runs = [r for r in slots(store, bench_id)[key] if r.status in ("proved", "not_proved")]
        r = runs[0]
        proofs = [p.proof for p in store.proofs(run_id=r.run_id, kind="whole")]
        whole[key] = (r.status, r.summary["calls"], r.summary["checks"], r.summary["depth"], proofs)
    return whole


def after_requests(llm, n: int, action: Callable[[], None]) -> None:
    """Run `action` when the fake LLM has received its n-th generation request (a mid-run fault)."""
    seen: list[int] = []

    def when(req) -> bool:
        seen.append(1)
        if len(seen) == n:  # called under the fake's lock: act from another thread once it is free
            threading.Thread(target=action, daemon=True).start()
        return False  # never answers: only counts

    llm.rules.insert(0, Rule(None, "", when=when))


@dataclass
class Fault:
    name: str
    inject: Callable[[Any, Any, dict[str, str]], None]
    remove: Callable[[Any, Any, dict[str, str]], None]
    stops: bool = True  # False: retried within the budget; the bench finishes as if nothing happened
    says: tuple[str, ...] = ()  # words of the one error line
    env: dict[str, str] = field(default_factory=dict)
    exit_code: int = 2
    # found by the preflight (issue 49): the bench stops before its store is made, nothing to
    # resume; the same command runs again once the fault is gone
    preflight: bool = False


def _set(obj: Any, **values: Any) -> Callable[[Any, Any, dict[str, str]], None]:
    def apply(kimina, llm, env):
        target = kimina if obj == "kimina" else llm
        for key, value in values.items():
            setattr(target, key, value)
    return apply


FAULTS = [
    Fault("llm 401 wrong key", lambda k, s, e: (setattr(s, "api_key", "right"), e.update(OPENAI_API_KEY="wrong")),
          lambda k, s, e: e.update(OPENAI_API_KEY="right"), says=("HTTP 401", "$OPENAI_API_KEY"), preflight=True),
    Fault("llm 404 unknown model", _set("llm", models=["other-model"], strict_models=True),
          _set("llm", models=["fake-model"]), says=("serves other-model, not fake-model", "model"), preflight=True),
    Fault("llm garbage json", lambda k, s, e: s.fault_always("garbage"), lambda k, s, e: s.fault_always(None),
          says=("not an OpenAI-compatible response", "[prover].url")),
    Fault("llm wrong-shape json", lambda k, s, e: s.fault_always("wrong_shape"),
          lambda k, s, e: s.fault_always(None), says=("without a `choices` list",)),
    Fault("llm empty choices", lambda k, s, e: s.fault_always("empty_choices"),
          lambda k, s, e: s.fault_always(None), says=("empty `choices`",)),
    Fault("llm garbage json mid-run", lambda k, s, e: after_requests(s, 4, lambda: s.fault_always("garbage")),
          lambda k, s, e: s.fault_always(None), says=("not an OpenAI-compatible response",)),
    Fault("llm 5xx burst (retried)", lambda k, s, e: s.fail_next(1, status=503), lambda k, s, e: None, stops=False),
    Fault("llm 5xx down", lambda k, s, e: s.fail_always(500), lambda k, s, e: s.fail_always(None),
          says=("unavailable after 2 attempt",)),
    Fault("llm 429 down mid-run", lambda k, s, e: after_requests(s, 3, lambda: s.fail_always(429)),
          lambda k, s, e: s.fail_always(None), says=("429",)),
    Fault("llm timeouts", _set("llm", delay=1.5), _set("llm", delay=0.0), says=("Timeout",),
          env={"LEMMAFORGE_PROVER__TIMEOUT": "0.4"}),
    # issue 39: a server that sends its headers, then trickles the body (per-read timeouts never fire)
    Fault("llm trickle past its deadline", lambda k, s, e: s.fault_always("trickle"),
          lambda k, s, e: s.fault_always(None), says=("deadline", "unavailable after 2 attempt"),
          env={"LEMMAFORGE_PROVER__TIMEOUT": "0.5"}),
    Fault("llm trickle under a wall budget", lambda k, s, e: s.fault_always("trickle"),
          lambda k, s, e: s.fault_always(None), says=("wall time budget", "answered the headers"),
          env={"LEMMAFORGE_BUDGET__WALL_SECONDS": "4"}),
    Fault("verifier down", lambda k, s, e: k.fail_always(503), lambda k, s, e: k.fail_always(None),
          says=("Kimina server at", "3 health requests", "start the Kimina"), preflight=True),
    Fault("verifier down mid-run", lambda k, s, e: after_requests(s, 3, lambda: k.fail_always(503)),
          lambda k, s, e: k.fail_always(None), says=("Kimina server at",)),
    Fault("verifier blip (retried)", lambda k, s, e: k.fail_next(2, 503), lambda k, s, e: None, stops=False),
    Fault("verifier garbage", lambda k, s, e: k.fault_always("garbage"), lambda k, s, e: k.fault_always(None),
          says=("not Kimina's JSON", "verifier.kimina_url")),
]


@pytest.mark.slow
@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_each_fault_stops_with_one_line_or_changes_nothing_and_resume_restores_the_report(
        tmp_path, reference, fault: Fault):
    ref_report, ref_outcome = reference
    db = f"sqlite:///{tmp_path / 'fault.db'}"
    env = dict(fault.env)
    with fake_servers(SOLVABLE) as (kimina, llm):
        fault.inject(kimina, llm, env)
        r = bench(kimina, llm, db, "F", env)
        if fault.stops:
            assert r.exit_code == fault.exit_code, r.output
            assert r.stdout == ""  # --json: no JSON for a stopped bench, nothing else either
            # the lines said at start (which prover preset, no planner) come before the one error line
            lines = error_lines(r.stderr)
            assert len(lines) == 1, r.stderr
            assert lines[0].startswith("error: ") and ("--resume" not in lines[0] if fault.preflight
                                                       else "--resume F" in lines[0])
            for word in fault.says:
                assert word in lines[0], lines[0]
            if fault.preflight:  # nothing stored: once the fault is gone, the same command
                assert not (tmp_path / "fault.db").exists()
                fault.remove(kimina, llm, env)
                r = bench(kimina, llm, db, "F", env)
                assert r.exit_code == 0, r.output
                report = json.loads(r.stdout)
                assert {k: report[k] for k in REPORT_KEYS} == {k: ref_report[k] for k in REPORT_KEYS}
                assert outcome(Store(db), "F") == ref_outcome
                return
            store = Store(db)
            assert store.get_run("F").status == "failed"
            # nothing the fault hit was stored as finished: what is finished is what the reference found
            done = finished(store, "F")
            assert all(ref_outcome[key] == value for key, value in done.items())
            assert len(done) < LIMIT * ATTEMPTS
            fault.remove(kimina, llm, env)
            r = resume(db, "F", env)
        assert r.exit_code == 0, r.output
        report = json.loads(r.stdout)
    assert {k: report[k] for k in REPORT_KEYS} == {k: ref_report[k] for k in REPORT_KEYS}
    assert outcome(Store(db), "F") == ref_outcome


@pytest.mark.slow
def test_a_bug_in_a_backend_stops_with_exit_70_and_resume_restores_the_report(tmp_path, reference, monkeypatch):
    """An AttributeError inside the LLM backend is not a failed sample: the bench stops (exit 70,
    the traceback, one line), nothing it hit is finished, and resume gives the reference report."""
    from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM

    ref_report, ref_outcome = reference
    db = f"sqlite:///{tmp_path / 'bug.db'}"
    real = OpenAICompatibleLLM._parse

    def broken(self, resp, *, chat, n):
        raise AttributeError("'Choice' object has no attribute 'messages'")

    with fake_servers(SOLVABLE) as (kimina, llm):
        monkeypatch.setattr(OpenAICompatibleLLM, "_parse", broken)
        r = bench(kimina, llm, db, "BUG")
        assert r.exit_code == 70, r.output
        assert r.stdout == ""
        last = r.stderr.strip().splitlines()[-1]
        assert last.startswith("error: internal error") and "AttributeError" in last and "--resume BUG" in last
        assert finished(Store(db), "BUG") == {}  # no attempt counted with zero candidates
        monkeypatch.setattr(OpenAICompatibleLLM, "_parse", real)
        r = resume(db, "BUG")
        assert r.exit_code == 0, r.output
        report = json.loads(r.stdout)
    assert {k: report[k] for k in REPORT_KEYS} == {k: ref_report[k] for k in REPORT_KEYS}
    assert outcome(Store(db), "BUG") == ref_outcome


def test_a_statement_that_does_not_compile_is_reported_invalid_not_unsolved(tmp_path):
    """One Lean check per problem before any budget: a statement with an error is listed under
    `invalid` with Lean's message, costs no LLM call, and counts as unsolved: rates are over all
    the selected problems, as the papers divide by all the problems of a benchmark."""
    from lemmaforge.benchmarks.datasets import load_dataset
    from tests.benchmarks.bench_helpers import lean_block, script_prover
    from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
    from tests.fakes.fake_openai import FakeOpenAIServer

    rows = load_dataset("minif2f", split="valid", limit=3)
    data = tmp_path / "mixed.jsonl"
    lines = []
    for i, p in enumerate(rows):
        statement = p.statement.replace(":=", "∧ no_such_constant :=", 1) if i == 1 else p.statement
        lines.append(json.dumps({"name": p.name, "header": p.header, "formal_statement": statement}))
    data.write_text("\n".join(lines) + "\n")
    lean = ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed"),
                               MessageRule(r"\bno_such_constant\b", "unknown identifier 'no_such_constant'")])
    db = f"sqlite:///{tmp_path / 'inv.db'}"
    default = lean_block("theorem wrong : True := by\n  bad_tactic\n")
    with FakeKimina(responder=lean) as kimina, FakeOpenAIServer(default=default) as llm:
        script_prover(llm, SOLVABLE)
        args = bench_args(kimina, llm, db, "--run-id", "INV", "--attempts", "2", "--json")
        args[1:4] = [str(data)]
        r = invoke(args)
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        prompts = [q.all_text for q in llm.requests if q.endpoint == "chat"]
        # a resumed bench keeps it apart too
        r = invoke(["bench", "--resume", "INV", "--db", db, "--json", "--no-progress"])
        assert r.exit_code == 0, r.output
        again = json.loads(r.stdout)
    bad = rows[1].name
    assert [p["name"] for p in out["invalid"]] == [bad]
    assert "statement does not compile" not in out["invalid"][0]["error"]  # the detail alone, Lean's words
    assert "unknown identifier 'no_such_constant'" in out["invalid"][0]["error"]
    # all three selected problems count; the two valid ones are proved
    assert out["problems"] == 3 and out["complete"] and out["attempts_planned"] == 4
    assert out["solved"] == 2 and out["rate"] == round(2 / 3, 4) and out["pass_at_k"]["1"] == round(2 / 3, 4)
    assert "all 3 selected problems" in out["protocol"]["divided_by"]
    # both valid problems solved, but one of three is invalid: not a success (issue 39, point 4)
    assert out["status"] == "not_proved" and again["status"] == "not_proved"
    assert bad not in [p["name"] for p in out["results"]]
    assert not any(f"theorem {bad}" in text for text in prompts)  # no budget spent on it
    r = invoke(["report", "INV", "--db", db])
    assert r.exit_code == 0 and f"invalid: {bad}: " in r.stdout and "1 invalid statement(s) counted unsolved" in r.stdout
    assert [p["name"] for p in again["invalid"]] == [bad] and again["pass_at_k"] == out["pass_at_k"]

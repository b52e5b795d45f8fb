"""Bytes are data (issue 39, point 2), through the CLI on the stand-in servers.

A lone surrogate in a completion (``"\\ud800"`` in the server's JSON) used to crash `prove` and
`bench` with exit 70 when that text went into the next request; a 200 body that is not UTF-8 was
exit 70 with a traceback instead of "backend misconfigured" (exit 2, one line)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from lemmaforge.db import Store
from tests.benchmarks.bench_entry import app as bench_app
from tests.benchmarks.bench_helpers import ENV as BENCH_ENV
from tests.benchmarks.bench_helpers import NAMES, bench_args, lean_block
from tests.errors.test_prove_faults import one_error_line, prove
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer

LONE = "\ud800"
ODD = "```lean4\ntheorem t (x : ℕ) : x = x := by\n  bad_tactic -- " + LONE + "\n```"


def _lean() -> ScriptedLean:
    return ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed")])


def test_a_lone_surrogate_in_a_completion_is_stored_exactly_and_never_crashes_the_next_request(tmp_path):
    with FakeKimina(responder=_lean()) as kimina, FakeOpenAIServer(default=ODD) as llm:
        r, db = prove(tmp_path, kimina, llm, env={"LEMMAFORGE_PROVER__RETRIES": "0"})
        sent = [q for q in llm.requests if q.endpoint == "chat"]
        checked = [s["code"] for q in kimina.check_requests for s in q.body["snippets"]]
    assert r.exit_code == 1, r.output  # not proved: the model's failure, not a crash (was 70)
    assert json.loads(r.stdout)["proved"] is False
    store = Store(db)
    (run,) = store.runs()
    calls = store.llm_calls(run.run_id)
    assert calls and all(c.error is None for c in calls)
    # the record reads back exactly what the server sent, lone surrogate included
    assert any(LONE in text for c in calls for text in c.completions)
    assert any("lone surrogate(s) in the completions" in n for c in calls for n in c.request.get("notes", []))
    # what went out (Lean checks, any later prompt) carries U+FFFD, never the surrogate
    assert any("\ufffd" in code for code in checked)
    assert not any(LONE in code for code in checked)
    assert not any(LONE in q.all_text for q in sent)


def test_a_lone_surrogate_in_every_completion_lets_a_bench_finish_and_resume(tmp_path):
    db = f"sqlite:///{tmp_path / 'odd.db'}"
    with FakeKimina(responder=_lean()) as kimina, FakeOpenAIServer(default=ODD) as llm:
        args = bench_args(kimina, llm, db, "--limit", "2", "--run-id", "ODD", "--json")
        r = CliRunner().invoke(bench_app, args, env=BENCH_ENV)
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        again = CliRunner().invoke(bench_app, ["bench", "--resume", "ODD", "--db", db, "--json", "--no-progress"],
                                   env=BENCH_ENV)
    assert out["status"] == "not_proved" and out["complete"] and out["solved"] == 0
    assert [p["name"] for p in out["results"]] == NAMES[:2]
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["attempts_done"] == out["attempts_done"]


def test_a_body_that_is_not_utf8_is_a_misconfigured_backend(tmp_path):
    with FakeKimina(responder=_lean()) as kimina, FakeOpenAIServer(default=lean_block("x")) as llm:
        llm.fault_always("bad_utf8")
        r, db = prove(tmp_path, kimina, llm)
        url = llm.url
    assert r.exit_code == 2, r.output
    line = one_error_line(r)
    assert "not UTF-8 JSON" in line and url in line and "Traceback" not in r.output
    assert all(run.status not in ("proved", "not_proved") for run in Store(db).runs())

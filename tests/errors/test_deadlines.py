"""Deadlines, not just read timeouts (issue 39, point 1), through `prove` on stand-in servers that
send their headers and then trickle the body a byte at a time, so a per-read timeout never fires.

Passing a request's total deadline is the backend's failure (retried, then exit 2 naming the
endpoint); a wall-time budget that runs out while waiting on such a server is the server's
failure too, never "not proved". The bench side (resume redoes the attempt, the report equals a
fault-free run's) is in test_bench_faults.py ("llm trickle …")."""

from __future__ import annotations

import time

import pytest

from lemmaforge import doctor, services
from lemmaforge.db import Store
from lemmaforge.lean.kimina import _verifier as kimina_module
from tests.errors.test_prove_faults import one_error_line, prove
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer

PROOF = "```lean4\ntheorem t (x : ℕ) : x = x := by\n  rfl\n```"


@pytest.fixture()
def servers():
    lean = ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed")])
    with FakeKimina(responder=lean) as kimina, FakeOpenAIServer(default=PROOF) as llm:
        yield kimina, llm


def _no_finished_run(db: str) -> None:
    assert all(run.status not in ("proved", "not_proved") for run in Store(db).runs())


def test_a_trickling_llm_endpoint_passes_its_deadline_and_is_unavailable(tmp_path, servers):
    kimina, llm = servers
    llm.fault_always("trickle")
    url = llm.url
    started = time.monotonic()
    r, db = prove(tmp_path, kimina, llm, env={"LEMMAFORGE_PROVER__TIMEOUT": "0.5"})
    assert r.exit_code == 2, r.output
    line = one_error_line(r)
    assert url in line and "deadline" in line and "unavailable after 2 attempt" in line
    assert llm.count("chat") == 2  # retried once (PROVER__RETRIES=1), then given up
    assert time.monotonic() - started < 60  # not the hour a per-read timeout allowed
    _no_finished_run(db)


@pytest.mark.slow
def test_a_wall_budget_spent_on_a_trickling_endpoint_is_the_endpoint_s_failure(tmp_path, servers):
    kimina, llm = servers
    llm.fault_always("trickle")
    url = llm.url
    r, db = prove(tmp_path, kimina, llm, env={"LEMMAFORGE_BUDGET__WALL_SECONDS": "3"})
    assert r.exit_code == 2, r.output  # was exit 1 "wall time budget exhausted": the model's failure
    line = one_error_line(r)
    assert url in line and "wall time budget (3 s) ran out waiting on it" in line
    _no_finished_run(db)


@pytest.mark.slow
def test_a_wall_budget_spent_by_a_slow_but_answering_endpoint_stays_the_model_s(tmp_path, servers):
    """The control: a server that takes its time but answers at once when it answers is not
    stalled; the budget is the search's, and the run is "not proved" as before."""
    kimina, llm = servers
    llm.delay = 4.0
    r, db = prove(tmp_path, kimina, llm, env={"LEMMAFORGE_BUDGET__WALL_SECONDS": "2"})
    assert r.exit_code == 1, r.output
    (run,) = Store(db).runs()
    assert run.status == "not_proved" and run.summary["stop_reason"] == "wall time budget exhausted"


@pytest.mark.slow
def test_a_trickling_kimina_server_fails_the_preflight_s_health_deadline(tmp_path, servers, monkeypatch):
    """Issue 49: the health request before the first check has a deadline of its own (seconds)."""
    kimina, llm = servers
    monkeypatch.setattr(doctor, "VERIFIER_HEALTH_DEADLINE", 1.0)
    kimina.fault_always("trickle")
    r, db = prove(tmp_path, kimina, llm)
    assert r.exit_code == 2, r.output
    line = one_error_line(r)
    assert kimina.url in line and "did not answer GET /health within 1 s" in line and "3 health requests" in line
    assert llm.count("chat") == 0 and not [q for q in kimina.requests if q.method == "POST"]
    _no_finished_run(db)


@pytest.mark.slow
def test_a_trickling_kimina_server_passes_its_deadline_and_is_unavailable(tmp_path, servers, monkeypatch):
    kimina, llm = servers
    # a server whose health request passed (the preflight's, skipped here) and whose checks trickle
    monkeypatch.setattr(services, "require_verifier", lambda cfg: None)
    # the deadline is sized from the check's time limit plus the server's queueing allowance; made
    # small here so that the test does not wait a minute and a half per try
    monkeypatch.setattr(kimina_module, "SERVER_MAX_WAIT_S", 0.0)
    monkeypatch.setattr(kimina_module, "HTTP_SLACK_S", 0.0)
    kimina.fault_always("trickle")
    url = kimina.url
    r, db = prove(tmp_path, kimina, llm, env={"LEMMAFORGE_VERIFIER__KIMINA_RETRIES": "2",
                                             "LEMMAFORGE_VERIFIER__TIMEOUT": "1",
                                             "LEMMAFORGE_VERIFIER__HEADER_TIMEOUT": "1"})
    assert r.exit_code == 2, r.output
    line = one_error_line(r)
    assert url in line and "deadline" in line and "after 2 attempts" in line
    assert llm.count("chat") == 0
    _no_finished_run(db)

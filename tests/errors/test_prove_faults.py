"""`lemmaforge prove` against the stand-in servers with each fault: exit 2 with one error line that
names the endpoint and the fix (never "not proved"), a preflight that spends no budget on a
statement that does not compile, and exit 70 for a bug. The fault-free run proves the theorem."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db import Store
from lemmaforge.errors import StatementInvalid
from tests.conftest import error_lines
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()
HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\n"
THEOREM = "theorem t (x : ℕ) : x = x := by\n  sorry\n"
PROOF = "```lean4\ntheorem t (x : ℕ) : x = x := by\n  rfl\n```"
ENV = {"LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01", "LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all",
       "LEMMAFORGE_PROVER__BACKOFF": "0.01", "LEMMAFORGE_PROVER__RETRIES": "1", "OPENAI_API_KEY": "right"}


@pytest.fixture()
def servers():
    lean = ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed"),
                               MessageRule(r"\bno_such_thing\b", "unknown identifier 'no_such_thing'")])
    with FakeKimina(responder=lean) as kimina, FakeOpenAIServer(default=PROOF) as llm:
        yield kimina, llm


def prove(tmp_path, kimina, llm, theorem: str = THEOREM, env: dict[str, str] | None = None):
    path = tmp_path / "t.lean"
    path.write_text(HEADER + theorem, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    args = ["prove", str(path), "--verifier", "kimina", "--kimina-url", kimina.url, "--prover-url", llm.url,
            "--prover-model", "fake-model", "--db", db, "--json", "--no-live",
            "--budget", "root_whole_proof_attempts=1", "--budget", "max_depth=0"]
    return runner.invoke(app, args, env={**ENV, **(env or {})}), db


def one_error_line(r) -> str:
    assert r.stdout == "", r.stdout  # --json: no JSON and nothing else on stdout
    # the lines said at start (which prover preset, no planner) come before the one error line
    lines = error_lines(r.stderr)
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_fault_free_run_proves(tmp_path, servers):
    r, _ = prove(tmp_path, *servers)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["proved"] is True


@pytest.mark.parametrize(
    ("fault", "words"),
    [
        ("401", ("HTTP 401", "$OPENAI_API_KEY")),
        ("unknown model", ("serves other-model, not fake-model", "model")),
        ("garbage", ("not an OpenAI-compatible response",)),
        ("wrong_shape", ("`choices`",)),
        ("empty_choices", ("empty `choices`",)),
        ("5xx", ("unavailable after 2 attempt",)),
        ("verifier down", ("Kimina server at", "start the Kimina")),
        ("verifier garbage", ("not Kimina's JSON",)),
    ],
)
def test_each_fault_is_exit_2_with_one_line_naming_the_endpoint(tmp_path, servers, fault, words):
    kimina, llm = servers
    env: dict[str, str] = {}
    if fault == "401":
        llm.api_key, env["OPENAI_API_KEY"] = "right", "wrong"
    elif fault == "unknown model":
        llm.models, llm.strict_models = ["other-model"], True
    elif fault in ("garbage", "wrong_shape", "empty_choices"):
        llm.fault_always(fault)
    elif fault == "5xx":
        llm.fail_always(503)
    elif fault == "verifier down":
        kimina.fail_always(503)
    else:
        kimina.fault_always("garbage")
    r, db = prove(tmp_path, kimina, llm, env=env)
    assert r.exit_code == 2, r.output
    line = one_error_line(r)
    assert (kimina.url if fault.startswith("verifier") else llm.url) in line
    for word in words:
        assert word in line, line
    # never recorded as a finished run: a misconfiguration is not "not proved"
    assert all(run.status not in ("proved", "not_proved") for run in Store(db).runs())


def test_a_statement_that_does_not_compile_spends_no_budget(tmp_path, servers):
    kimina, llm = servers
    r, db = prove(tmp_path, kimina, llm, theorem="theorem t (x : ℕ) : x = no_such_thing := by\n  sorry\n")
    assert r.exit_code == 2, r.output
    line = one_error_line(r)
    assert "statement does not compile" in line and "unknown identifier 'no_such_thing'" in line
    assert llm.count("chat") == 0  # preflight: no LLM call
    checks = [s["code"] for q in kimina.check_requests for s in q.body["snippets"] if "theorem t" in s["code"]]
    assert len(checks) == 1  # one Lean check of the statement
    assert Store(db).runs() == []


async def test_an_error_on_an_import_line_is_the_verifier_s_fault_not_the_statement_s():
    """Every statement of a dataset would "not compile" on a verifier without Mathlib: that is a
    misconfigured verifier (fatal, with the fix), not a pile of invalid statements."""
    from lemmaforge.lean.verifier import (
        CheckResult,
        CheckStatus,
        Message,
        Position,
        Severity,
        VerifierMisconfigured,
    )
    from lemmaforge.services import check_statement, problem_from_code

    class NoMathlib:
        name = "repl"

        def __init__(self, line: int) -> None:
            self.line = line

        async def check(self, code, *, timeout=None):
            error = Message(Severity.ERROR, "unknown module prefix 'Mathlib'", Position(self.line, 0))
            return CheckResult(status=CheckStatus.ERROR, messages=[error])

    problem = problem_from_code(HEADER + THEOREM)
    with pytest.raises(VerifierMisconfigured, match="cannot import what t needs.*lemmaforge setup"):
        await check_statement(NoMathlib(1), problem, timeout=10)
    with pytest.raises(StatementInvalid, match="statement does not compile"):  # an error below the imports
        await check_statement(NoMathlib(HEADER.count("\n") + 1), problem, timeout=10)


def test_a_bug_in_a_backend_is_exit_70_not_not_proved(tmp_path, servers, monkeypatch):
    from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM

    def broken(self, resp, *, chat, n):
        raise AttributeError("'Choice' object has no attribute 'messages'")

    monkeypatch.setattr(OpenAICompatibleLLM, "_parse", broken)
    r, db = prove(tmp_path, *servers)
    assert r.exit_code == 70, r.output
    assert "Traceback" in r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("error: internal error") and "AttributeError" in last
    [run] = Store(db).runs(kind="prove")
    assert run.status == "failed" and "AttributeError" in run.summary["error"]

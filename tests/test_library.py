"""The library's public face: `from lemmaforge import prove, Settings, ProofResult` runs what the
CLI's `prove` runs (the shared preflight, the search, the audit) against real clients — the fake
OpenAI server over HTTP and the fake Kimina server as Lean — and its names are guarded."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import lemmaforge
from lemmaforge.db import Store
from lemmaforge.errors import StatementInvalid
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.search.scenarios import DEFS, HEADER, THEOREM, add_prover, lean_block, prover_rule

PUBLIC = ["ProofResult", "Settings", "__version__", "load_config", "prove", "prove_async"]


def test_the_public_names_are_exactly_these_and_resolve() -> None:
    assert sorted(lemmaforge.__all__) == sorted(PUBLIC)
    for name in PUBLIC:
        assert getattr(lemmaforge, name) is not None, name
    assert list(inspect.signature(lemmaforge.prove).parameters) == ["code", "settings", "theorem", "informal"]
    assert lemmaforge.__version__ == lemmaforge.versions.__version__
    with pytest.raises(AttributeError):
        lemmaforge.no_such_name  # noqa: B018


@pytest.mark.slow
def test_importing_a_module_of_the_package_does_not_load_the_whole_stack() -> None:
    """`import lemmaforge.<x>` runs the package's `__init__` (every CLI command does): the face
    loads services, store and clients only when one of its names is used."""
    code = ("import sys, lemmaforge.versions; print('lemmaforge.services' in sys.modules); "
            "from lemmaforge import prove; print('lemmaforge.services' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def _settings(llm: FakeOpenAIServer, kimina: FakeKimina, db: Path) -> lemmaforge.Settings:
    return lemmaforge.load_config(None, {
        "db_url": f"sqlite:///{db}",  # never the user's default store
        "verifier": {"backend": "kimina", "kimina_url": kimina.url, "timeout": 30, "kimina_position_mode": "all",
                     "kimina_retry_wait": 0.01},
        "planner": {"url": llm.url, "model": "fake-model", "retries": 0},
        "prover": {"url": llm.url, "model": "fake-model", "retries": 0},
        "budget": {"root_whole_proof_attempts": 1, "prover_samples_per_goal": 1, "llm_calls": 5, "lean_checks": 10},
    }, environ={})


def _lean() -> ScriptedLean:
    return ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed"),
                               MessageRule(r"\bnot_a_def\b", "unknown identifier 'not_a_def'")])


def test_prove_proves_through_the_clis_path_and_reports_what_was_sent(tmp_path: Path) -> None:
    with FakeKimina(responder=_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        add_prover(llm, *prover_rule("D x", "exact rfl"))
        result = lemmaforge.prove(HEADER + DEFS + THEOREM, _settings(llm, kimina, tmp_path / "runs.db"))
        generation = sum(1 for r in llm.requests if r.endpoint in ("chat", "completions"))
        snippets = sum(1 for r in kimina.check_requests for s in r.body["snippets"]
                       if not s["id"].startswith("lf-position-probe"))
    assert isinstance(result, lemmaforge.ProofResult)
    assert result.proved and result.audit is not None and result.audit.ok
    assert result.proof is not None and result.proof.startswith(HEADER + DEFS) and "exact rfl" in result.proof
    # the statement check of the preflight is charged to the run, like every request the search sent
    assert result.stats.preflight_checks == 1
    assert (result.stats.llm_calls, result.stats.checks) == (generation, snippets)
    [run] = Store(f"sqlite:///{tmp_path / 'runs.db'}").runs(kind="prove")  # recorded like a CLI run
    assert run.run_id == result.run_id and run.status == "proved" and run.summary["calls"] == generation


def test_prove_runs_the_clis_preflight_a_statement_that_does_not_compile_costs_no_model_request(
        tmp_path: Path) -> None:
    broken = THEOREM.replace("D x := by", "D not_a_def := by")
    with FakeKimina(responder=_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        with pytest.raises(StatementInvalid, match="not_a_def"):
            lemmaforge.prove(HEADER + DEFS + broken, _settings(llm, kimina, tmp_path / "runs.db"))
        assert not [r for r in llm.requests if r.endpoint in ("chat", "completions")]

"""`lemmaforge doctor` checks what you will run (issue 40, point 4): it takes the endpoint and
verifier options of `prove` (the same definitions), reports the verifier's Lean version (a Kimina
server's too, asked of its Lean), which model each role will use, and RAM against workers ×
per-worker memory; the default number of workers fits the machine's RAM."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click
import pytest
from typer.main import get_command
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.config import REPL_RAM_MB, default_workers, load_config, total_ram_mb
from tests.cli.test_doctor import FAKE_LAKE, lean_project, manifest
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()
SHARED = ("--planner-url", "--planner-model", "--prover-url", "--prover-model", "--verifier", "--kimina-url",
          "--project", "--db", "--config", "--json")


@pytest.fixture(autouse=True)
def clean_user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in list(os.environ):
        if var.startswith("LEMMAFORGE_") or var in ("KIMINA_API_KEY", "LEAN_SERVER_API_KEY", "OPENAI_API_KEY"):
            monkeypatch.delenv(var)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEMMAFORGE_VERIFIER__LAKE_PATH", str(tmp_path / "no-lean" / "lake"))
    monkeypatch.setenv("LEMMAFORGE_DB_URL", f"sqlite:///{tmp_path / 'runs.db'}")


def doctor(*args: str) -> tuple[int, dict[str, Any]]:
    result = runner.invoke(app, ["doctor", *args, "--json"])
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.stdout)
    report["by_name"] = {f["name"]: f for f in report["findings"]}
    return result.exit_code, report


def _options(command: str) -> dict[str, click.Parameter]:
    group = get_command(app)
    cmd = group.commands[command]  # type: ignore[attr-defined]
    return {opt: p for p in cmd.params for opt in getattr(p, "opts", [])}


def test_doctor_takes_prove_s_options_with_the_same_definitions():
    prove, bench, doc = _options("prove"), _options("bench"), _options("doctor")
    for option in SHARED:
        assert option in doc, option
        assert doc[option].help == prove[option].help == bench[option].help, option  # one definition, not copies


def test_flags_name_the_endpoints_and_the_model_each_role_uses():
    with FakeOpenAIServer(models=("served-a", "served-b")) as llm:
        code, report = doctor("--prover-url", llm.url, "--planner-url", llm.url, "--planner-model", "served-b")
        assert [r.endpoint for r in llm.requests] == ["models", "models"]  # the flags were probed
    # the rule `prove` applies (lemmaforge/model_choice.py): two models listed, none named for the prover
    assert report["models"] == {"planner": "served-b", "prover": None}
    assert report["by_name"]["prover model"]["status"] == "error"
    assert "serves 2 models (served-a, served-b) and none is named" in report["by_name"]["prover model"]["detail"]
    assert "--prover-model" in report["by_name"]["prover model"]["fix"]
    assert "named" in report["by_name"]["planner model"]["detail"]


def test_a_bad_verifier_flag_is_one_line_exit_2():
    result = runner.invoke(app, ["doctor", "--verifier", "coq"])
    assert result.exit_code == 2 and "unknown verifier 'coq'" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_kimina_flags_and_the_server_s_lean_version():
    lean = ScriptedLean(rules=[MessageRule(r"#eval Lean\.versionString", '"4.9.0"', severity="info")])
    with FakeKimina(responder=lean) as kimina:
        code, report = doctor("--verifier", "kimina", "--kimina-url", kimina.url)
        sent = [r.body for r in kimina.requests if r.path != "/health"]
        url = kimina.url
    assert code == 0 and report["backend"] == "kimina"
    assert report["lean_version"] == "4.9.0"
    assert "Lean 4.9.0" in report["by_name"]["lean version"]["detail"] and url in report["by_name"]["lean version"]["detail"]
    assert any("Lean.versionString" in json.dumps(body) for body in sent)


def test_a_kimina_that_does_not_say_its_version_is_reported_not_guessed():
    with FakeKimina(responder=ScriptedLean(lean_version=None)) as kimina:  # answers the probe with no message
        code, report = doctor("--verifier", "kimina", "--kimina-url", kimina.url)
    assert code == 0  # the server is usable; what it runs is unknown, and said so
    assert report["lean_version"] is None and report["by_name"]["lean version"]["status"] == "error"


def test_lake_project_flag_reports_the_project_s_lean_version(tmp_path, monkeypatch):
    project = lean_project(tmp_path / "proofs", manifest=manifest("batteries", "mathlib"))
    monkeypatch.setenv("LEMMAFORGE_VERIFIER__LAKE_PATH", str(FAKE_LAKE))
    code, report = doctor("--verifier", "lake", "--project", str(project))
    assert code == 0 and report["lean_version"] == "4.19.0"
    assert str(project) in report["by_name"]["lean version"]["detail"]


def test_memory_against_workers_times_per_worker(monkeypatch):
    code, report = doctor()
    mem = report["memory"]
    assert mem["total_mb"] == total_ram_mb() and mem["per_worker_mb"] == REPL_RAM_MB
    assert mem["workers"] == default_workers() and mem["needed_mb"] == mem["workers"] * REPL_RAM_MB
    if mem["total_mb"] >= REPL_RAM_MB:  # a machine with room for one worker at least
        assert report["by_name"]["memory"]["status"] == "ok"  # the default fits
    monkeypatch.setenv("LEMMAFORGE_VERIFIER__WORKERS", str(total_ram_mb() // REPL_RAM_MB + 4))
    _, report = doctor()
    memory = report["by_name"]["memory"]
    assert memory["status"] == "error" and "workers =" in memory["fix"]


@pytest.mark.parametrize(("cpus", "ram_gb", "workers"), [(16, 64, 7), (16, 256, 15), (64, 16, 1), (4, 512, 3), (1, 1, 1)])
def test_default_workers_fit_cores_and_ram(cpus, ram_gb, workers):
    assert default_workers(cpus, ram_gb * 1024) == workers


def test_the_config_default_is_the_fitting_one():
    settings = load_config(environ={})
    assert settings.verifier.workers == default_workers()
    assert settings.verifier.workers * REPL_RAM_MB <= max(total_ram_mb(), REPL_RAM_MB)

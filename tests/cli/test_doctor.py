"""`lemmaforge doctor` as a user runs it: configured through the environment, read as JSON (and as
text once), against the fake Kimina server, the fake OpenAI server, the fake `lake` and Lean
projects laid out in tmp. Exit 0 when the configured verifier is usable, else 1."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.conftest import closed_port
from tests.fakes.fake_kimina import FakeKimina
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()
FAKE_LAKE = Path(__file__).resolve().parents[1] / "fakes" / "lake"
MATHLIB_REV = "0f1e2d3c4b5a69788796a5b4c3d2e1f001234567"

Doctor = Callable[..., tuple[int, dict[str, Any]]]


@pytest.fixture()
def doctor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Doctor:
    """doctor(VAR=value, …) → (exit code, the JSON report by finding name). A clean user: HOME in
    tmp (no ~/.elan), no config file, no LEMMAFORGE_* or API keys from the caller, no lake unless
    a test gives one, a writable database."""
    for var in list(os.environ):
        if var.startswith("LEMMAFORGE_") or var in ("KIMINA_API_KEY", "LEAN_SERVER_API_KEY", "OPENAI_API_KEY"):
            monkeypatch.delenv(var)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEMMAFORGE_VERIFIER__LAKE_PATH", str(tmp_path / "no-lean" / "lake"))
    monkeypatch.setenv("LEMMAFORGE_DB_URL", f"sqlite:///{tmp_path / 'db' / 'runs.db'}")

    def run(**env: str) -> tuple[int, dict[str, Any]]:
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        result = runner.invoke(app, ["doctor", "--json"])
        assert result.exit_code in (0, 1), result.output
        report = json.loads(result.stdout)
        by_name = {f["name"]: f for f in report["findings"]}
        assert len(by_name) == len(report["findings"])  # one finding per check
        by_name["_report"] = report
        return result.exit_code, by_name

    return run


def lean_project(root: Path, *, manifest: dict[str, Any] | None, lakefile: bool = True) -> Path:
    root.mkdir(parents=True)
    (root / "lean-toolchain").write_text("leanprover/lean4:v4.19.0\n", encoding="utf-8")
    if lakefile:
        (root / "lakefile.lean").write_text("import Lake\nopen Lake DSL\n\nrequire mathlib from git\n", encoding="utf-8")
    if manifest is not None:
        (root / "lake-manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return root


def manifest(*names: str) -> dict[str, Any]:
    packages = [{"name": n, "type": "git", "rev": MATHLIB_REV if n == "mathlib" else "1" * 40,
                 "inputRev": "v4.19.0" if n == "mathlib" else "main", "scope": "leanprover-community"}
                for n in names]
    return {"version": "1.1.0", "packagesDir": ".lake/packages", "packages": packages, "name": "proofs"}


# --- Lean --------------------------------------------------------------------------------------------


def test_no_lean_is_missing_with_the_setup_fix_exit_1(doctor) -> None:
    code, found = doctor()
    assert code == 1
    assert found["_report"]["backend"] == "repl" and found["_report"]["verifier_ready"] is False
    assert found["lean"]["status"] == "missing" and "not found" in found["lean"]["detail"]
    assert "lemmaforge setup" in found["lean"]["fix"]
    assert found["lemmaforge"]["status"] == "ok"


def test_text_output_names_the_fix_and_the_verdict(doctor, tmp_path) -> None:
    doctor()  # the environment of a clean user
    result = runner.invoke(app, ["doctor"])
    assert result.exit_code == 1
    text = " ".join(result.stdout.split())
    assert "lemmaforge setup" in text and "verifier 'repl': not ready" in text


def test_fake_lake_and_a_mathlib_project_make_the_lake_backend_ready(doctor, tmp_path) -> None:
    project = lean_project(tmp_path / "proofs", manifest=manifest("batteries", "mathlib"))
    code, found = doctor(LEMMAFORGE_VERIFIER__BACKEND="lake", LEMMAFORGE_VERIFIER__LAKE_PATH=str(FAKE_LAKE),
                         LEMMAFORGE_LEAN_PROJECT=str(project))
    assert code == 0 and found["_report"]["verifier_ready"] is True
    assert found["lean"]["status"] == "ok" and "Lake version 5.0.0-fake" in found["lean"]["detail"]
    detail = found["lean project"]["detail"]
    assert found["lean project"]["status"] == "ok"
    assert "leanprover/lean4:v4.19.0" in detail and f"Mathlib v4.19.0 ({MATHLIB_REV[:12]})" in detail


@pytest.mark.parametrize(
    ("layout", "why", "fix"),
    [
        ({"manifest": manifest("batteries")}, "does not list mathlib", "require mathlib"),
        ({"manifest": None}, "no lake-manifest.json", "lake update"),
        ({"manifest": manifest("mathlib"), "lakefile": False}, "not a Lake project", "project's root"),
    ],
    ids=["no-mathlib", "no-manifest", "no-lakefile"],
)
def test_a_project_without_mathlib_is_an_error_exit_1(doctor, tmp_path, layout, why, fix) -> None:
    project = lean_project(tmp_path / "proofs", **layout)
    code, found = doctor(LEMMAFORGE_VERIFIER__BACKEND="lake", LEMMAFORGE_VERIFIER__LAKE_PATH=str(FAKE_LAKE),
                         LEMMAFORGE_LEAN_PROJECT=str(project))
    assert code == 1
    assert found["lean project"]["status"] == "error"
    assert why in found["lean project"]["detail"] and fix in found["lean project"]["fix"]


def test_the_lake_backend_needs_a_project(doctor) -> None:
    code, found = doctor(LEMMAFORGE_VERIFIER__BACKEND="lake", LEMMAFORGE_VERIFIER__LAKE_PATH=str(FAKE_LAKE))
    assert code == 1
    assert found["lean"]["status"] == "ok" and found["lean project"]["status"] == "missing"


def test_a_failing_lake_is_an_error(doctor, tmp_path) -> None:
    broken = tmp_path / "lake"
    broken.write_text("#!/bin/sh\necho 'lake: cannot find toolchain' >&2\nexit 3\n", encoding="utf-8")
    broken.chmod(0o755)
    code, found = doctor(LEMMAFORGE_VERIFIER__LAKE_PATH=str(broken))
    assert code == 1
    assert found["lean"]["status"] == "error" and "cannot find toolchain" in found["lean"]["detail"]


# --- Kimina ------------------------------------------------------------------------------------------


def test_kimina_backend_with_a_healthy_server_is_ready_exit_0(doctor) -> None:
    with FakeKimina() as kimina:
        code, found = doctor(LEMMAFORGE_VERIFIER__BACKEND="kimina", LEMMAFORGE_VERIFIER__KIMINA_URL=kimina.url)
        assert kimina.requests[0].path == "/health"  # then the Lean-version probe (test_doctor_flags)
        assert found["kimina"]["status"] == "ok" and kimina.url in found["kimina"]["detail"]
    assert code == 0 and found["_report"]["verifier_ready"] is True
    # No local Lean is needed to check on a Kimina server: worth knowing, not a failure.
    assert found["lean"]["status"] == "info" and "not needed by the kimina backend" in found["lean"]["detail"]


def test_kimina_unreachable_is_an_error_exit_1(doctor) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    code, found = doctor(LEMMAFORGE_VERIFIER__BACKEND="kimina", LEMMAFORGE_VERIFIER__KIMINA_URL=url)
    assert code == 1
    assert found["kimina"]["status"] == "error" and "unreachable" in found["kimina"]["detail"]
    assert "kimina_url" in found["kimina"]["fix"]


def test_kimina_api_key_is_sent_and_a_rejected_key_says_which_variable(doctor) -> None:
    with FakeKimina(api_key="s3cret") as kimina:
        code, found = doctor(LEMMAFORGE_VERIFIER__BACKEND="kimina", LEMMAFORGE_VERIFIER__KIMINA_URL=kimina.url)
        assert code == 1 and found["kimina"]["status"] == "error"
        assert "API key" in found["kimina"]["detail"] and "$KIMINA_API_KEY" in found["kimina"]["fix"]
        code, found = doctor(KIMINA_API_KEY="s3cret")
        assert code == 0 and found["kimina"]["status"] == "ok"


# --- planner and prover endpoints --------------------------------------------------------------------


def test_llm_endpoints_ok_wrong_model_and_unreachable(doctor) -> None:
    dead = f"http://127.0.0.1:{closed_port()}/v1"
    with FakeOpenAIServer(models=("fake-model", "other")) as llm:
        code, found = doctor(
            LEMMAFORGE_PLANNER__URL=llm.url, LEMMAFORGE_PLANNER__MODEL="fake-model",
            LEMMAFORGE_PROVER__URL=llm.url, LEMMAFORGE_PROVER__MODEL="no-such-model",
        )
        assert found["planner LLM"]["status"] == "ok"
        assert "fake-model, other" in found["planner LLM"]["detail"] and "using fake-model" in found["planner LLM"]["detail"]
        assert found["prover LLM"]["status"] == "error"
        assert "not no-such-model" in found["prover LLM"]["detail"] and "--prover-model" in found["prover LLM"]["fix"]
        assert [r.endpoint for r in llm.requests] == ["models", "models"]
    code, found = doctor(LEMMAFORGE_PROVER__URL=dead)
    assert found["prover LLM"]["status"] == "error" and "unreachable" in found["prover LLM"]["detail"]
    assert code == 1  # the exit code is the verifier's (no Lean here), not the models'


def test_llm_without_a_model_uses_the_only_one_listed_or_needs_one(doctor) -> None:
    with FakeOpenAIServer(models=("served-model",)) as llm:
        _, found = doctor(LEMMAFORGE_PROVER__URL=llm.url)
    assert found["prover LLM"]["status"] == "ok"
    assert "using served-model, the only model the server lists" in found["prover LLM"]["detail"]
    assert found["planner LLM"]["status"] == "info" and "planner.url" in found["planner LLM"]["fix"]
    with FakeOpenAIServer(models=()) as llm:
        _, found = doctor(LEMMAFORGE_PROVER__URL=llm.url)
    assert found["prover LLM"]["status"] == "error" and "lists no model" in found["prover LLM"]["detail"]


def test_llm_with_a_bad_scheme_is_an_error(doctor) -> None:
    _, found = doctor(LEMMAFORGE_PROVER__URL="localhost:8000/v1")
    assert found["prover LLM"]["status"] == "error" and "not an http(s) URL" in found["prover LLM"]["detail"]


# --- database ----------------------------------------------------------------------------------------


def test_database_writable_in_memory_and_unwritable(doctor, tmp_path) -> None:
    _, found = doctor()
    assert found["database"]["status"] == "ok" and "created on first run" in found["database"]["detail"]
    _, found = doctor(LEMMAFORGE_DB_URL="sqlite:///:memory:")
    assert found["database"]["status"] == "info"
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    _, found = doctor(LEMMAFORGE_DB_URL=f"sqlite:///{blocker / 'sub' / 'runs.db'}")
    assert found["database"]["status"] == "error" and "not a directory" in found["database"]["detail"]
    assert "--db" in found["database"]["fix"]
    _, found = doctor(LEMMAFORGE_DB_URL=f"sqlite:///{tmp_path}")  # a folder where the file should be
    assert found["database"]["status"] == "error" and "not a regular file" in found["database"]["detail"]


def test_database_credentials_are_never_printed(doctor) -> None:
    _, found = doctor(LEMMAFORGE_DB_URL="postgresql://lemma:hunter2@db.example:5432/runs")
    assert found["database"]["status"] == "info" and "hunter2" not in json.dumps(found["_report"])

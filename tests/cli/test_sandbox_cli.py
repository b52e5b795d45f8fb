"""The sandbox through the command line: a missing bwrap is one line and exit 2 naming both fixes,
`--no-sandbox` runs without it and is recorded with the run's config, `doctor` names the sandbox."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.config import Settings, load_config
from lemmaforge.lean.sandbox import bwrap_works, find_bwrap

FAKE_LAKE = str(Path(__file__).resolve().parents[1] / "fakes" / "lake")
PROOF = "import Mathlib\n\ntheorem t (n : ℕ) : n + 0 = n := by\n  simp\n"
runner = CliRunner()


@pytest.fixture
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """No LEMMAFORGE_* from the caller; a PATH holding python3 (the fake lake's interpreter) and
    nothing else, so no bwrap; a Lake project for the fake lake."""
    for var in list(os.environ):
        if var.startswith("LEMMAFORGE_"):
            monkeypatch.delenv(var)
    monkeypatch.chdir(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    project = tmp_path / "project"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
    (tmp_path / "p.lean").write_text(PROOF, encoding="utf-8")
    return {"PATH": str(bin_dir), "LEMMAFORGE_VERIFIER__LAKE_PATH": FAKE_LAKE,
            "LEMMAFORGE_DB_URL": f"sqlite:///{tmp_path / 'runs.db'}"}


def check_args(tmp_path: Path, *extra: str) -> list[str]:
    return ["check", str(tmp_path / "p.lean"), "--verifier", "lake", "--project", str(tmp_path / "project"), *extra]


def test_check_without_bwrap_fails_in_one_line_naming_the_fixes(tmp_path: Path, clean_env: dict[str, str]) -> None:
    result = runner.invoke(app, check_args(tmp_path), env=clean_env)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "bubblewrap" in lines[0] and "apt-get install bubblewrap" in lines[0] and "--no-sandbox" in lines[0]
    assert result.stdout == ""


def test_check_with_no_sandbox_runs_lean_without_bwrap(tmp_path: Path, clean_env: dict[str, str]) -> None:
    result = runner.invoke(app, check_args(tmp_path, "--no-sandbox", "--json"), env=clean_env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ok"] is True


def test_config_file_can_turn_the_sandbox_off(tmp_path: Path, clean_env: dict[str, str]) -> None:
    (tmp_path / "lemmaforge.toml").write_text("[verifier]\nsandbox = false\n", encoding="utf-8")
    result = runner.invoke(app, check_args(tmp_path, "--json"), env=clean_env)
    assert result.exit_code == 0, result.output


def test_the_sandbox_setting_is_part_of_the_recorded_run_config() -> None:
    assert Settings().to_record()["verifier"]["sandbox"] is True
    off = load_config(None, {"verifier": {"sandbox": False}}, environ={})
    assert off.to_record()["verifier"]["sandbox"] is False


@pytest.mark.skipif(find_bwrap() is None or bwrap_works(find_bwrap() or "") is not None,
                    reason="bwrap missing or unable to create a sandbox here")
def test_sandboxed_lake_check_passes_a_normal_proof(tmp_path: Path, clean_env: dict[str, str]) -> None:
    env = {**clean_env, "PATH": f"{clean_env['PATH']}:{os.path.dirname(find_bwrap() or '')}"}
    result = runner.invoke(app, check_args(tmp_path, "--json"), env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ok"] is True


def _doctor(env: dict[str, str]) -> dict[str, dict[str, str]]:
    result = runner.invoke(app, ["doctor", "--json"], env=env)
    assert result.exit_code in (0, 1), result.output
    return {f["name"]: f for f in json.loads(result.stdout)["findings"]}


def test_doctor_names_a_missing_sandbox_and_the_fix(clean_env: dict[str, str]) -> None:
    found = _doctor({**clean_env, "LEMMAFORGE_VERIFIER__BACKEND": "lake"})
    assert found["sandbox"]["status"] == "missing"
    assert "bwrap not found" in found["sandbox"]["detail"]
    assert "apt-get install bubblewrap" in found["sandbox"]["fix"]
    off = _doctor({**clean_env, "LEMMAFORGE_VERIFIER__BACKEND": "lake", "LEMMAFORGE_VERIFIER__SANDBOX": "false"})
    assert off["sandbox"]["status"] == "info" and off["sandbox"]["detail"].startswith("off")


@pytest.mark.skipif(find_bwrap() is None or bwrap_works(find_bwrap() or "") is not None,
                    reason="bwrap missing or unable to create a sandbox here")
def test_doctor_names_the_sandbox_and_its_version(clean_env: dict[str, str]) -> None:
    env = {**clean_env, "PATH": f"{clean_env['PATH']}:{os.path.dirname(find_bwrap() or '')}"}
    found = _doctor(env)
    assert found["sandbox"]["status"] == "ok"
    assert "bubblewrap" in found["sandbox"]["detail"] and find_bwrap() in found["sandbox"]["detail"]


def test_run_versions_name_the_sandbox_that_ran_lean(monkeypatch: pytest.MonkeyPatch) -> None:
    from lemmaforge.services import versions

    monkeypatch.setenv("PATH", "/nowhere")
    assert versions(load_config(None, {"verifier": {"backend": "lake"}}, environ={}))["sandbox"] == "bwrap"
    assert "sandbox" not in versions(load_config(None, {"verifier": {"backend": "lake", "sandbox": False}}, environ={}))
    assert "sandbox" not in versions(load_config(None, {"verifier": {"backend": "kimina"}}, environ={}))


@pytest.mark.slow
def test_prove_records_no_sandbox_with_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`prove --no-sandbox` (here on the fake Kimina server and fake models) is in the run's
    recorded config; without the flag the default (sandboxed) is."""
    from sqlalchemy import create_engine, select
    from sqlalchemy.orm import Session

    from lemmaforge.db.models import RunRow
    from tests.fakes.fake_kimina import FakeKimina
    from tests.fakes.fake_openai import FakeOpenAIServer
    from tests.search.scenarios import DEFS, HEADER, THEOREM, lean_block
    from tests.viewer.conftest import ENV, fake_lean, prove_args

    for var in list(os.environ):
        if var.startswith("LEMMAFORGE_"):
            monkeypatch.delenv(var)
    problem = tmp_path / "t.lean"
    problem.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    ids = {}
    for flag in ("--no-sandbox", None):
        with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
            extra = [flag] if flag else []
            r = runner.invoke(app, [*prove_args(problem, kimina, llm, db, "--budget", "llm_calls=1"), *extra, "--json"],
                              env=ENV)
            assert r.exit_code == 1, r.output
            ids[flag] = json.loads(r.stdout)["run_id"]
    engine = create_engine(db)
    with Session(engine) as session:
        recorded = {flag: session.scalars(select(RunRow).where(RunRow.id == run_id)).one().config
                    for flag, run_id in ids.items()}
    engine.dispose()
    assert recorded["--no-sandbox"]["verifier"]["sandbox"] is False
    assert recorded[None]["verifier"]["sandbox"] is True

"""`lemmaforge setup`: the paths that need no network — missing Lean, a folder that is not a Lean
project — fail with one actionable line and exit 2; a working lake reaches lean-interact."""

from __future__ import annotations

import os
import stat

from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.config import VerifierConfig
from lemmaforge.lean import install

runner = CliRunner()


def test_without_lean_and_no_install_says_how_to_get_it(tmp_path):
    env = {"HOME": str(tmp_path), "LEMMAFORGE_VERIFIER__LAKE_PATH": str(tmp_path / "no-lake")}
    r = runner.invoke(app, ["setup", "--no-install-lean"], env=env)
    assert r.exit_code == 2
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "lake not found" in lines[0] and "--install-lean" in lines[0]


def _fake_lake(tmp_path):
    lake = tmp_path / "bin" / "lake"
    lake.parent.mkdir()
    lake.write_text("#!/bin/sh\necho 'Lake version 5.0.0 (Lean version 4.19.0)'\n", encoding="utf-8")
    lake.chmod(lake.stat().st_mode | stat.S_IEXEC)
    return lake


def test_project_that_is_not_a_lean_project(tmp_path):
    lake = _fake_lake(tmp_path)
    not_project = tmp_path / "plain"
    not_project.mkdir()
    env = {"HOME": str(tmp_path), "LEMMAFORGE_VERIFIER__LAKE_PATH": str(lake)}
    r = runner.invoke(app, ["setup", "--project", str(not_project), "--no-install-lean"], env=env)
    assert r.exit_code == 2
    assert "not a Lean project" in r.output


def test_failure_inside_lean_interact_is_one_line(tmp_path, monkeypatch):
    """A Lean project whose build fails (here: the fake lake cannot build anything) surfaces as
    one line naming the step, not a traceback."""
    lake = _fake_lake(tmp_path)
    project = tmp_path / "proj"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "proj"\n', encoding="utf-8")
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.19.0\n", encoding="utf-8")

    import lean_interact

    def boom(*args, **kwargs):
        raise RuntimeError("lake build failed\nlong log line 1\nline 2")

    monkeypatch.setattr(lean_interact, "LocalProject", boom)
    cfg = VerifierConfig(project=project, lake_path=str(lake))
    try:
        install.prepare(cfg, install_lean=False, log=lambda m: None)
    except install.SetupError as exc:
        assert str(exc) == "preparing the Lean project failed: lake build failed"
    else:  # pragma: no cover - the assertion above is the test
        raise AssertionError("SetupError expected")


def test_find_lake_prefers_path_then_elan(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PATH", "/nonexistent")
    assert install.find_lake("lake") is None
    elan = tmp_path / ".elan" / "bin"
    elan.mkdir(parents=True)
    (elan / "lake").write_text("#!/bin/sh\n", encoding="utf-8")
    os.chmod(elan / "lake", 0o755)
    assert install.find_lake("lake") == str(elan / "lake")

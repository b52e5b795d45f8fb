"""`lemmaforge setup`: the paths that need no network — missing Lean, a folder that is not a Lean
project — fail with one actionable line and exit 2; a working lake reaches lean-interact."""

from __future__ import annotations

import os
import stat
import subprocess

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.config import VerifierConfig
from lemmaforge.lean.lake import _setup as install

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


# --- installing elan: failure is failure, shell profiles are never touched ---------------------------

PROFILES = (".bashrc", ".profile", ".zshrc", ".bash_profile")


def _home_with_profiles(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    for name in PROFILES:
        (home / name).write_text(f"# my {name}\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    return home


def _profiles(home):
    return {name: (home / name).read_bytes() for name in PROFILES}


def test_offline_install_fails_as_a_failure_and_leaves_profiles_alone(tmp_path, monkeypatch):
    import httpx

    home = _home_with_profiles(tmp_path, monkeypatch)
    before = _profiles(home)

    def offline(url, dest):
        raise httpx.ConnectError("[Errno -3] Temporary failure in name resolution")

    monkeypatch.setattr(install, "_download", offline)
    env = {"HOME": str(home), "LEMMAFORGE_VERIFIER__LAKE_PATH": str(tmp_path / "no-lake")}
    r = runner.invoke(app, ["setup"], env=env)
    assert r.exit_code == 2, r.output
    assert "downloading the elan installer failed" in r.output and "github.com" in r.output
    assert "success" not in r.output.lower() and "ready" not in r.output
    assert _profiles(home) == before


def test_install_checks_the_result_and_is_idempotent_about_profiles(tmp_path, monkeypatch):
    home = _home_with_profiles(tmp_path, monkeypatch)
    before = _profiles(home)
    calls = []

    def download(url, dest):
        dest.write_text("#!/bin/sh\necho elan-init\n", encoding="utf-8")

    def fake_installer(args):
        calls.append(args)
        bin_dir = home / ".elan" / "bin"
        bin_dir.mkdir(parents=True, exist_ok=True)
        (bin_dir / "lake").write_text("#!/bin/sh\n", encoding="utf-8")
        os.chmod(bin_dir / "lake", 0o755)
        return subprocess.CompletedProcess(args, 0, "", "")

    logs: list[str] = []
    for _ in range(2):
        lake = install.install_elan(log=logs.append, download=download, run=fake_installer)
        assert lake == str(home / ".elan" / "bin" / "lake")
    assert all("--no-modify-path" in c for c in calls)  # the installer itself must not edit profiles
    assert _profiles(home) == before  # twice run, profiles untouched
    assert install.path_hint() is not None and install.PATH_LINE in install.path_hint()
    monkeypatch.setenv("PATH", f"{home / '.elan' / 'bin'}:/usr/bin")
    assert install.path_hint() is None


def test_installer_that_fails_or_leaves_no_lake_is_a_failure(tmp_path, monkeypatch):
    _home_with_profiles(tmp_path, monkeypatch)

    def download(url, dest):
        dest.write_text("#!/bin/sh\n", encoding="utf-8")

    def broken(args):
        return subprocess.CompletedProcess(args, 1, "", "error: could not download toolchain\n")

    def silent(args):
        return subprocess.CompletedProcess(args, 0, "", "")

    with pytest.raises(install.SetupError, match=r"the elan installer failed \(exit 1\): error: could not download"):
        install.install_elan(log=lambda m: None, download=download, run=broken)
    with pytest.raises(install.SetupError, match="lake does not exist"):
        install.install_elan(log=lambda m: None, download=download, run=silent)

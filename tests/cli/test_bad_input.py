"""`lemmaforge check` input validation: one-line errors and exit code 2, before any Lean work."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.conftest import REPO_ROOT, closed_port

runner = CliRunner()
EXAMPLE = REPO_ROOT / "examples" / "mathd_algebra_478.lean"


def run(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, list(args), env=env)


def one_line_error(result) -> str:
    lines = [ln for ln in result.output.strip().splitlines() if ln.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error:")
    return lines[0]


def test_missing_file(tmp_path):
    r = run("check", str(tmp_path / "nope.lean"))
    assert r.exit_code == 2
    assert "not found" in one_line_error(r)


def test_empty_file(tmp_path):
    f = tmp_path / "empty.lean"
    f.write_text("  \n\n", encoding="utf-8")
    r = run("check", str(f))
    assert r.exit_code == 2
    assert "empty" in one_line_error(r)


def test_non_utf8_file(tmp_path):
    f = tmp_path / "latin1.lean"
    f.write_bytes("theorem t : 1 = 1 := by rfl -- caf\xe9".encode("latin-1"))
    r = run("check", str(f))
    assert r.exit_code == 2
    assert "UTF-8" in one_line_error(r)


def test_directory_instead_of_file(tmp_path):
    r = run("check", str(tmp_path))
    assert r.exit_code == 2
    assert "not a regular file" in one_line_error(r)


def test_no_theorem(tmp_path):
    f = tmp_path / "defs.lean"
    f.write_text("import Mathlib\n\ndef f (n : ℕ) : ℕ := n + 1\n-- theorem in a comment : True := trivial\n", encoding="utf-8")
    r = run("check", str(f))
    assert r.exit_code == 2
    assert "no theorem" in one_line_error(r)


def test_original_without_theorem(tmp_path):
    orig = tmp_path / "orig.lean"
    orig.write_text("import Mathlib\n", encoding="utf-8")
    r = run("check", str(EXAMPLE), "--against", str(orig))
    assert r.exit_code == 2
    assert "no theorem" in one_line_error(r)


def test_unknown_verifier():
    r = run("check", str(EXAMPLE), "--verifier", "coq")
    assert r.exit_code == 2
    assert "unknown verifier" in one_line_error(r)


def test_invalid_config_file(tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[verifier]\ntimeout = 'soon'\n", encoding="utf-8")
    r = run("check", str(EXAMPLE), "--config", str(cfg))
    assert r.exit_code == 2
    assert "verifier.timeout" in one_line_error(r)


def test_unreachable_kimina_is_exit_2_naming_the_url():
    url = f"http://127.0.0.1:{closed_port()}"
    r = run("check", str(EXAMPLE), "--verifier", "kimina", "--kimina-url", url, "--timeout", "5",
            env={"LEMMAFORGE_VERIFIER__KIMINA_RETRIES": "2", "LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01"})
    assert r.exit_code == 2
    line = one_line_error(r)
    assert url in line


def test_repl_without_lean_says_how_to_get_it(tmp_path):
    """The README's main job on a machine without Lean: exit 2 and a pointer to `lemmaforge setup`."""
    env = {"LEMMAFORGE_VERIFIER__LAKE_PATH": str(tmp_path / "no-lake"), "HOME": str(tmp_path)}
    r = run("check", str(EXAMPLE), "--verifier", "repl", env=env)
    assert r.exit_code == 2
    line = one_line_error(r)
    assert "lemmaforge setup" in line


@pytest.mark.slow
def test_console_script_json_is_parseable_on_bad_input(tmp_path):
    """Through the installed entry point, as a user runs it."""
    proc = subprocess.run(
        [sys.executable, "-m", "lemmaforge.cli", "check", str(tmp_path / "missing.lean"), "--json"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "not found" in proc.stderr
    with pytest.raises(json.JSONDecodeError):
        json.loads(proc.stderr)

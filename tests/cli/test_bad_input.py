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


def bad_input_error(*args: str, env: dict[str, str] | None = None) -> str:
    """Run the command; it must exit 2 with exactly one `error:` line, which is returned."""
    result = runner.invoke(app, list(args), env=env)
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.output.strip().splitlines() if ln.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error:")
    return lines[0]


def test_missing_file(tmp_path):
    assert "not found" in bad_input_error("check", str(tmp_path / "nope.lean"))


def test_empty_file(tmp_path):
    f = tmp_path / "empty.lean"
    f.write_text("  \n\n", encoding="utf-8")
    assert "empty" in bad_input_error("check", str(f))


def test_non_utf8_file(tmp_path):
    f = tmp_path / "latin1.lean"
    f.write_bytes("theorem t : 1 = 1 := by rfl -- caf\xe9".encode("latin-1"))
    assert "UTF-8" in bad_input_error("check", str(f))


def test_directory_instead_of_file(tmp_path):
    assert "not a regular file" in bad_input_error("check", str(tmp_path))


def test_no_theorem(tmp_path):
    f = tmp_path / "defs.lean"
    f.write_text("import Mathlib\n\ndef f (n : ℕ) : ℕ := n + 1\n-- theorem in a comment : True := trivial\n", encoding="utf-8")
    assert "no theorem" in bad_input_error("check", str(f))


def test_original_without_theorem(tmp_path):
    orig = tmp_path / "orig.lean"
    orig.write_text("import Mathlib\n", encoding="utf-8")
    assert "no theorem" in bad_input_error("check", str(EXAMPLE), "--against", str(orig))


def test_unknown_verifier():
    assert "unknown verifier" in bad_input_error("check", str(EXAMPLE), "--verifier", "coq")


def test_invalid_config_file(tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[verifier]\ntimeout = 'soon'\n", encoding="utf-8")
    assert "verifier.timeout" in bad_input_error("check", str(EXAMPLE), "--config", str(cfg))


@pytest.mark.slow
def test_unreachable_kimina_is_exit_2_naming_the_url():
    url = f"http://127.0.0.1:{closed_port()}"
    env = {"LEMMAFORGE_VERIFIER__KIMINA_RETRIES": "2", "LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01"}
    line = bad_input_error("check", str(EXAMPLE), "--verifier", "kimina", "--kimina-url", url, "--timeout", "5", env=env)
    assert url in line


def test_repl_without_lean_says_how_to_get_it(tmp_path):
    """The README's main job on a machine without Lean: exit 2 and a pointer to `lemmaforge setup`."""
    env = {"LEMMAFORGE_VERIFIER__LAKE_PATH": str(tmp_path / "no-lake"), "HOME": str(tmp_path)}
    line = bad_input_error("check", str(EXAMPLE), "--verifier", "repl", env=env)
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

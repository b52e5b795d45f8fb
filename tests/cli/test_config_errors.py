"""Configuration errors a person can act on (issue 49): the file or environment variable, the key,
and the nearest valid key or section; through the CLI, one line, exit 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app

runner = CliRunner()


@pytest.fixture
def in_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    return lines[0]


@pytest.mark.parametrize("command", [["prove", "--statement", "theorem t : True := by sorry"], ["doctor"],
                                     ["bench", "minif2f"]])
def test_a_misspelt_key_in_lemmaforge_toml_names_the_file_and_the_key_it_meant(in_folder, command):
    (in_folder / "lemmaforge.toml").write_text("[prover]\ntemprature = 0.7\n", encoding="utf-8")
    line = _one_line(runner.invoke(app, command))
    assert "unknown key 'prover.temprature'" in line and "lemmaforge.toml" in line
    assert "did you mean 'prover.temperature'?" in line
    assert "Extra inputs" not in line and "invalid config value" not in line  # not called a value


def test_an_unknown_section_is_named_with_the_nearest_one(in_folder):
    config = in_folder / "mine.toml"
    config.write_text('[provr]\nurl = "http://localhost:8000/v1"\n', encoding="utf-8")
    line = _one_line(runner.invoke(app, ["doctor", "--config", str(config)]))
    assert f"unknown section [provr] in config file {config}" in line and "did you mean [prover]?" in line


def test_an_environment_variable_is_named_with_the_one_it_meant(in_folder):
    line = _one_line(runner.invoke(app, ["doctor"], env={"LEMMAFORGE_PROVER__TEMPRATURE": "0.7"}))
    assert "environment variable LEMMAFORGE_PROVER__TEMPRATURE" in line
    assert "LEMMAFORGE_PROVER__TEMPERATURE" in line.split("environment variable LEMMAFORGE_PROVER__TEMPRATURE")[1]
    line = _one_line(runner.invoke(app, ["doctor"], env={"LEMMAFORGE_PROVR__URL": "http://x/v1"}))
    assert "unknown section [provr]" in line and "LEMMAFORGE_PROVER__URL" in line


def test_a_bad_value_names_where_it_was_set(in_folder):
    (in_folder / "lemmaforge.toml").write_text("[verifier]\nbackend = \"coq\"\n", encoding="utf-8")
    line = _one_line(runner.invoke(app, ["doctor"]))
    assert "invalid config value for 'verifier.backend' in config file lemmaforge.toml" in line
    assert "'repl', 'kimina' or 'lake'" in line
    (in_folder / "lemmaforge.toml").unlink()
    line = _one_line(runner.invoke(app, ["doctor"], env={"LEMMAFORGE_VERIFIER__WORKERS": "many"}))
    assert "'verifier.workers' in environment variable LEMMAFORGE_VERIFIER__WORKERS" in line


def test_a_key_far_from_any_lists_what_the_section_has(in_folder):
    (in_folder / "lemmaforge.toml").write_text("[budget]\nzzz = 1\n", encoding="utf-8")
    line = _one_line(runner.invoke(app, ["doctor"]))
    assert "unknown key 'budget.zzz'" in line and "[budget] keys: llm_calls" in line


def test_a_list_setting_from_the_environment_is_json_and_says_so_when_it_is_not(in_folder):
    line = _one_line(runner.invoke(app, ["doctor"], env={"LEMMAFORGE_VERIFIER__SANDBOX_PATHS": "/opt/lean"}))
    assert "'verifier.sandbox_paths' in environment variable LEMMAFORGE_VERIFIER__SANDBOX_PATHS" in line
    assert "not valid JSON" in line and "'[\"/opt/lean\"]'" in line
    result = runner.invoke(app, ["doctor", "--json"], env={"LEMMAFORGE_VERIFIER__SANDBOX_PATHS": '["/opt/lean"]'})
    assert result.exit_code in (0, 1) and "error:" not in result.stderr, result.output


def test_a_variable_meant_as_a_section_of_a_plain_key_is_refused(in_folder):
    line = _one_line(runner.invoke(app, ["doctor"], env={"LEMMAFORGE_DB_URL__PATH": "x.db"}))
    assert "LEMMAFORGE_DB_URL__PATH: 'db_url' is a key, not a section (set LEMMAFORGE_DB_URL)" in line

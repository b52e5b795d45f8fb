"""`lemmaforge train grpo|es|expert-iter` check their backends before the first training step: a
verifier that does not answer is one line and exit 2, not a run whose every reward is "left out"."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lemmaforge.cli.train import app
from tests.fakes.fake_kimina import FakeKimina

runner = CliRunner()
ENV = {"LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01", "LEMMAFORGE_VERIFIER__KIMINA_RETRIES": "2"}
ROW = {"prompt": "Prove it.", "header": "import Mathlib\n", "statement": "theorem x : True := by\n  sorry\n"}


def one_error_line(r) -> str:
    lines = [ln for ln in r.output.strip().splitlines() if ln.strip()]
    assert len(lines) == 1, r.output
    assert lines[0].startswith("error: ")
    return lines[0]


# grpo loads a model; es takes 4 to 7 s here: both slow. The fast subset keeps expert-iter's preflight, below
@pytest.mark.parametrize("command", [pytest.param("grpo", marks=pytest.mark.slow), pytest.param("es", marks=pytest.mark.slow)])
def test_a_dead_verifier_stops_training_before_the_first_step(tmp_path, monkeypatch, command):
    pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    with FakeKimina() as kimina:
        url = kimina.url
        kimina.fail_always(503)
        r = runner.invoke(app, [command, "--data", str(data), "--output", str(tmp_path / "o"), "--tiny",
                                "--verifier", "kimina", "--kimina-url", kimina.url], env=ENV)
    assert r.exit_code == 2, r.output
    line = one_error_line(r)
    assert url in line and "503" in line
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())  # nothing trained


def test_expert_iteration_checks_the_verifier_before_the_first_round(tmp_path, monkeypatch):
    pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")
    monkeypatch.chdir(tmp_path)
    statements = tmp_path / "s.jsonl"
    statements.write_text(json.dumps({"name": "x", "header": "", "formal_statement": ROW["statement"]}) + "\n")
    with FakeKimina() as kimina:
        url = kimina.url
        kimina.fail_always(503)
        r = runner.invoke(app, ["expert-iter", "--statements", str(statements), "--out", str(tmp_path / "o"),
                                "--tiny", "--verifier", "kimina", "--kimina-url", url,
                                "--db", f"sqlite:///{tmp_path / 'r.db'}", "--json"], env=ENV)
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    line = one_error_line(r)
    assert url in line and "503" in line

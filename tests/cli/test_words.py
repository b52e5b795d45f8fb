"""What a newcomer reads (issue 40, point 7): user-facing words for internal names, one
vocabulary for stop reasons in `runs`, `show` and `prove`, and default ports that do not collide
with the ones README serves the models on. Through the CLI, on a store written by the recorder."""

from __future__ import annotations

import json
import re
from urllib.parse import urlparse

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.config import load_config
from lemmaforge.db import SqlRecorder, Store
from lemmaforge.records import AttemptRecord, NodeCreated, NodeStatusChanged, RunFinished, RunStarted
from tests.conftest import REPO_ROOT

runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('words') / 'w.db'}"
    with SqlRecorder(Store(url)) as rec:
        # closed by a prover correction after a failed prover sample
        rec.emit(RunStarted("corrected0001", "prove", {}, {}, started_at=100.0))
        rec.emit(NodeCreated("corrected0001", "root", "goal", 0, "theorem t : 1 = 1 := by sorry", created_at=100.0))
        rec.emit(AttemptRecord("corrected0001", "a1", "root", "prover", "invalid", "bad", errors=["1:1: error: nope"]))
        rec.emit(AttemptRecord("corrected0001", "a2", "root", "prover_correction", "valid", "rfl"))
        rec.emit(NodeStatusChanged("corrected0001", "root", "solved", "prover_correction", "rfl", at=101.0))
        rec.emit(RunFinished("corrected0001", "proved", {"stop_reason": "proved", "calls": 2, "checks": 2, "depth": 0},
                             finished_at=102.0))
        # every strategy failed, no budget ran out; and one stopped by its wall time
        for run_id, reason, t in (("searched0001", "exhausted", 200.0), ("walltime0001", "wall time budget exhausted", 300.0)):
            rec.emit(RunStarted(run_id, "prove", {}, {}, started_at=t))
            rec.emit(NodeCreated(run_id, "root", "goal", 0, "theorem u : 2 = 2 := by sorry", created_at=t))
            rec.emit(NodeStatusChanged(run_id, "root", "failed", reason="no strategy closed the goal", at=t + 1))
            rec.emit(RunFinished(run_id, "not_proved", {"stop_reason": reason, "calls": 1, "checks": 1}, finished_at=t + 2))
        # a finished bench that solved 2 of its 3 problems: done, not "not proved"
        rec.emit(RunStarted("benchdone001", "bench", {"bench": {"dataset": "toy", "attempts": 1}}, {}, started_at=400.0))
        rec.emit(RunFinished("benchdone001", "not_proved", {"problems": 3, "solved": 2, "complete": True},
                             finished_at=401.0))
    return url


def cli(*args: str) -> str:
    r = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    return " ".join(r.stdout.split())


def test_show_says_prover_correction_in_words(db):
    text = cli("show", "corrected0001", "--all-attempts", "--db", db)
    assert "prover correction" in text and "prover_correction" not in text
    assert "prover sample" in text


def test_runs_and_show_say_not_proved_in_words(db):
    table = cli("runs", "--db", db)
    assert "not proved" in table and "not_proved" not in table
    assert "not proved" in cli("show", "searched0001", "--db", db)


def test_a_finished_bench_is_done_not_not_proved(db):
    table = cli("runs", "--kind", "bench", "--db", db)
    assert "done" in table and "2/3 problems solved" in table and "not proved" not in table
    show = cli("show", "benchdone001", "--db", db)
    assert "bench done" in show and "not proved" not in show


def test_one_stop_vocabulary_in_runs_and_show(db):
    table = cli("runs", "--db", db)
    show = cli("show", "searched0001", "--db", db)
    assert "search exhausted (no budget ran out)" in table
    assert "stop: search exhausted (no budget ran out)" in show
    assert re.search(r"\bexhausted\b", table.replace("search exhausted", "").replace("budget exhausted", "")) is None
    wall = cli("show", "walltime0001", "--db", db)
    assert "wall_seconds budget exhausted" in wall and "wall_seconds budget exhausted" in table
    assert "wall time" not in wall and "wall time" not in table


def test_json_keeps_the_stored_values_scripts_match_on(db):
    r = runner.invoke(app, ["runs", "--db", db, "--json"])
    statuses = {row["run_id"]: (row["status"], row["stop_reason"]) for row in json.loads(r.stdout)["runs"]}
    assert statuses["searched0001"] == ("not_proved", "exhausted")


def test_default_ports_are_distinct_from_the_model_ports_readme_serves():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    model_ports = {int(p) for p in re.findall(r"--(?:prover|planner)-url http://localhost:(\d+)/v1", readme)}
    assert model_ports == {8000, 8001}
    kimina = urlparse(load_config(environ={}).verifier.kimina_url)
    assert kimina.port not in model_ports
    assert f"Kimina {kimina.port}" in readme or f":{kimina.port}" in readme  # README names the port it uses

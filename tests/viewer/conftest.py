"""Runs recorded for real: `lemmaforge prove` against the fake Kimina server and the fake OpenAI
server (scripted as planner and prover), into a SQLite store the viewer tests read back."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.fakes.fake_kimina import FakeKimina
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.fakes.prove_runs import ENV, INJECTION, auto_tac, fake_lean, prove_args, script_sketch
from tests.search.scenarios import DEFS, HEADER, THEOREM, lean_block


@dataclass
class RecordedRuns:
    db: str  # SQLAlchemy URL
    proved: str  # run id: a sketch whose holes closed by automation and the prover
    failed: str  # run id: stopped by the LLM-call budget
    proof: str  # the proved run's proof as `prove --json` gave it
    problem_file: Path


@pytest.fixture(scope="session")
def recorded_once(tmp_path_factory: pytest.TempPathFactory) -> RecordedRuns:
    """The two runs, recorded once per session (two `prove` runs each test used to repeat); each
    test gets its own copy of the store from `recorded`."""
    tmp_path = tmp_path_factory.mktemp("recorded")
    with pytest.MonkeyPatch.context() as monkeypatch:
        auto_tac(monkeypatch)
        runner = CliRunner()
        problem = tmp_path / "t.lean"
        problem.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
        db = f"sqlite:///{tmp_path / 'runs.db'}"
        with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
            script_sketch(llm)
            ok = runner.invoke(app, [*prove_args(problem, kimina, llm, db), "--json"], env=ENV)
            assert ok.exit_code == 0, ok.output
        # the failing run's model answers with markup: every page must show it as text, never run it
        with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=INJECTION + lean_block("bad_default")) as llm:
            bad = runner.invoke(app, [*prove_args(problem, kimina, llm, db, "--budget", "llm_calls=3"), "--json"], env=ENV)
            assert bad.exit_code == 1, bad.output
        good, failed = json.loads(ok.stdout), json.loads(bad.stdout)
        return RecordedRuns(db, good["run_id"], failed["run_id"], good["proof"], problem)


@pytest.fixture()
def recorded(recorded_once: RecordedRuns, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RecordedRuns:
    """The recorded runs in a store of this test's own (a test may change it, see `hostile`)."""
    auto_tac(monkeypatch)  # as when the runs were recorded: a test that proves again sees the same portfolio
    source = sqlite3.connect(recorded_once.db.removeprefix("sqlite:///"))
    copy = sqlite3.connect(tmp_path / "runs.db")
    try:
        source.backup(copy)  # SQLite's own copy: consistent, whatever is still in the source's WAL
    finally:
        source.close()
        copy.close()
    return dataclasses.replace(recorded_once, db=f"sqlite:///{tmp_path / 'runs.db'}")

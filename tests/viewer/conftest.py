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
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.search.scenarios import (
    DEFS,
    HEADER,
    SKETCH,
    THEOREM,
    add_planner,
    add_prover,
    closing_hole_rule,
    lean_block,
    prover_rule,
)

ENV = {
    "LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01", "LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all",
    "LEMMAFORGE_PROVER__BACKOFF": "0.01", "LEMMAFORGE_PLANNER__BACKOFF": "0.01",
    "LEMMAFORGE_PROVER__RETRIES": "1", "LEMMAFORGE_PLANNER__RETRIES": "1",
}


INJECTION = "<script>window.pwned = 1</script><b>bold?</b> "


@dataclass
class RecordedRuns:
    db: str  # SQLAlchemy URL
    proved: str  # run id: a sketch whose holes closed by automation and the prover
    failed: str  # run id: stopped by the LLM-call budget
    proof: str  # the proved run's proof as `prove --json` gave it
    problem_file: Path


def _auto_tac(monkeypatch: pytest.MonkeyPatch) -> None:
    """The automation portfolio is the one tactic `auto_tac`, set the way a user sets it: the
    config file's [search] section (also seen by `prove` run as a subprocess)."""
    import tempfile

    config = Path(tempfile.mkdtemp()) / "lemmaforge.toml"
    config.write_text('[search]\nportfolio = ["auto_tac"]\n', encoding="utf-8")
    monkeypatch.setenv("LEMMAFORGE_CONFIG", str(config))


def prove_args(problem: Path, kimina: FakeKimina, llm: FakeOpenAIServer, db: str, *extra: str) -> list[str]:
    return [
        "prove", str(problem), "--verifier", "kimina", "--kimina-url", kimina.url,
        "--planner-url", llm.url, "--planner-model", "fake-model",
        "--prover-url", llm.url, "--prover-model", "fake-model",
        "--db", db, "--no-live",
        "--budget", "root_whole_proof_attempts=2", "--budget", "prover_samples_per_goal=2", *extra,
    ]


def fake_lean() -> ScriptedLean:
    return ScriptedLean(rules=[
        MessageRule(r"\bbad_\w+", "tactic failed"),
        MessageRule(r"(?s)\A(?!.*Easy x :=).*?\bauto_tac\b", "auto_tac failed"),
    ])


def script_sketch(llm: FakeOpenAIServer) -> None:
    """Root: whole-proof samples fail (`bad_default`), the planner's sketch has holes h1 (closed by
    automation), h2 (the prover) and the closing hole (the prover)."""
    add_prover(llm, *prover_rule("Hard x", "exact hard_fact"))
    add_prover(llm, *closing_hole_rule())
    add_planner(llm, r"theorem t ", lean_block(SKETCH))


@pytest.fixture(scope="session")
def recorded_once(tmp_path_factory: pytest.TempPathFactory) -> RecordedRuns:
    """The two runs, recorded once per session (two `prove` runs each test used to repeat); each
    test gets its own copy of the store from `recorded`."""
    tmp_path = tmp_path_factory.mktemp("recorded")
    with pytest.MonkeyPatch.context() as monkeypatch:
        _auto_tac(monkeypatch)
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
    _auto_tac(monkeypatch)  # as when the runs were recorded: a test that proves again sees the same portfolio
    source = sqlite3.connect(recorded_once.db.removeprefix("sqlite:///"))
    copy = sqlite3.connect(tmp_path / "runs.db")
    try:
        source.backup(copy)  # SQLite's own copy: consistent, whatever is still in the source's WAL
    finally:
        source.close()
        copy.close()
    return dataclasses.replace(recorded_once, db=f"sqlite:///{tmp_path / 'runs.db'}")

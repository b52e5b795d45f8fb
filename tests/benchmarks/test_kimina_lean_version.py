"""A bench on a Kimina server learns the server's Lean version (`#eval Lean.versionString`, which
the fake answers as Lean does: an info message holding the quoted string), records it with the
run, and warns when the dataset pins another one, as the REPL path does."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db import Store
from lemmaforge.lean.kimina import server_lean_version
from lemmaforge.lean.kimina._verifier import LEAN_VERSION_COMMAND
from tests.benchmarks.bench_helpers import ENV, bench_args, script_prover
from tests.conftest import closed_port
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()


def _lean(version: str) -> ScriptedLean:
    return ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed")], lean_version=version)


def _bench(tmp_path, version: str) -> tuple[object, FakeKimina, str]:
    db = f"sqlite:///{tmp_path / f'{version}.db'}"
    with FakeKimina(responder=_lean(version)) as kimina, FakeOpenAIServer(default="no proof") as llm:
        script_prover(llm, [])
        r = runner.invoke(app, bench_args(kimina, llm, db, "--limit", "1", "--json", "--run-id", f"B{version}"),
                          env=ENV)
    return r, kimina, db


def test_server_lean_version_is_asked_with_one_eval_snippet() -> None:
    with FakeKimina(responder=_lean("4.15.0")) as kimina:
        assert server_lean_version(kimina.url) == "v4.15.0"
        sent = [s["code"] for req in kimina.check_requests for s in req.body["snippets"]]
    assert sent == [LEAN_VERSION_COMMAND]
    assert server_lean_version(f"http://127.0.0.1:{closed_port()}") is None  # unknown, not a guess


def test_mismatch_with_the_dataset_pin_is_a_warning_and_recorded(tmp_path) -> None:
    r, _, db = _bench(tmp_path, "4.19.0")
    assert r.exit_code == 0, r.output
    line = "warning: dataset minif2f-deepseek-v1.5 is pinned to Lean v4.9.0 but the verifier runs Lean v4.19.0"
    assert line in r.stderr
    assert line in json.loads(r.stdout)["warnings"][0]
    bench = Store(db).get_run("B4.19.0")
    assert bench.versions["lean"] == "v4.19.0"


def test_matching_server_says_nothing(tmp_path) -> None:
    r, _, db = _bench(tmp_path, "4.9.0")
    assert r.exit_code == 0, r.output
    assert "pinned to Lean" not in r.stderr and json.loads(r.stdout)["warnings"] == []
    assert Store(db).get_run("B4.9.0").versions["lean"] == "v4.9.0"

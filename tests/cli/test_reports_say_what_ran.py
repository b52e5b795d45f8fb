"""Reports that say what ran (issue 49), through the CLI: the sampling values the requests carried
(never None where the run used a default), the model the server served (never "first served"), the
verifier's Lean as verified or "unverified" with a warning, one vocabulary for how a goal closed in
`prove`'s tree, `show` and the HTML page, and attempt counts that match what is listed."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.demo.run import write_problem
from lemmaforge.demo.servers import SimulatedKimina, SimulatedOpenAI
from tests.benchmarks.bench_helpers import ENV, NAMES, SOLVABLE, fake_servers

runner = CliRunner()


def _bench(tmp_path, lean_version, *extra, env=None):
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    with fake_servers(SOLVABLE, lean_version=lean_version) as (kimina, llm):
        args = ["bench", "minif2f", "--names", ",".join(NAMES[:2]), "--verifier", "kimina", "--kimina-url",
                kimina.url, "--prover-url", llm.url, "--db", db, "--no-progress", "--run-id", "R1",
                "--budget", "root_whole_proof_attempts=1", *extra]
        result = runner.invoke(app, args, env={**ENV, **(env or {})})
    assert result.exit_code in (0, 1), result.output
    html = tmp_path / "report.html"
    text = runner.invoke(app, ["report", "R1", "--db", db, "--html", str(html)])
    data = json.loads(runner.invoke(app, ["report", "R1", "--db", db, "--json"]).stdout)
    return text.stdout, data, html.read_text(encoding="utf-8")


def test_the_report_gives_the_sampling_the_requests_carried_and_the_model_served(tmp_path):
    text, data, html = _bench(tmp_path, "4.9.0")  # no --prover-model: the server's only model
    prover = data["protocol"]["prover"]
    assert prover["model"] == "fake-model" and prover["sampling_from"] == "requests"
    assert (prover["temperature"], prover["top_p"], prover["max_tokens"]) == (1.0, 0.95, 8192)
    assert "prover: fake-model, temperature 1.0, top_p 0.95, max_tokens 8192" in text
    assert "None" not in text
    about = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html))
    assert about["models"] == "prover fake-model" and "first served" not in html
    # the verifier said its Lean: verified, in the title too; no warning
    assert data["protocol"]["verifier"]["lean_verified"] is True
    assert "verifier: kimina, Lean v4.9.0 (verified" in text and "checked by Lean v4.9.0" in html
    assert "lean-warning" not in html and "unverified" not in text


def test_configured_sampling_is_what_the_report_says(tmp_path):
    _, data, _ = _bench(tmp_path, "4.9.0", env={"LEMMAFORGE_PROVER__TEMPERATURE": "0.7"})
    assert data["protocol"]["prover"]["temperature"] == 0.7 and data["protocol"]["prover"]["top_p"] == 0.95


def test_an_unknown_lean_version_is_unverified_with_a_warning(tmp_path):
    text, data, html = _bench(tmp_path, None)  # the server does not say its Lean
    assert data["protocol"]["verifier"] == {"backend": "kimina", "lean_version": None, "lean_verified": False,
                                            "lean_from": "unknown"}
    assert "verifier: kimina, Lean unverified" in text and "warning: the Lean version" in text
    assert 'id="lean-warning"' in html and "Lean unverified" in html.split("</h1>")[0]
    assert "Lean v4.9.0 ·" not in html.split("</h1>")[0]  # the dataset's pin is not the verifier's Lean
    assert "written for Lean v4.9.0" in html


@pytest.fixture(scope="module")
def decomposed(tmp_path_factory):
    """A prove run that took sketches, on the demo's simulated servers: its CLI output and store."""
    folder = tmp_path_factory.mktemp("vocabulary")
    db = f"sqlite:///{folder / 'runs.db'}"
    with SimulatedKimina() as lean, SimulatedOpenAI() as models:
        result = runner.invoke(app, [
            "prove", str(write_problem(folder)), "--verifier", "kimina", "--kimina-url", lean.url, "--prover-url",
            models.url, "--prover-model", "simulated-prover", "--planner-url", models.url, "--planner-model",
            "simulated-planner", "--db", db, "--no-live"], env=ENV)
    assert result.exit_code == 0, result.output
    run = re.search(r"run ([0-9a-f]{32})", result.stderr).group(1)
    return result, run, db, folder


def test_one_vocabulary_for_how_a_goal_closed(decomposed):
    result, run, db, folder = decomposed
    page = folder / "run.html"
    show = runner.invoke(app, ["show", run, "--db", db, "--html", str(page)])
    html = page.read_text(encoding="utf-8")
    for shown in (result.stderr, show.stdout):  # prove's tree, `show`'s tree
        assert "solved by sketch" in " ".join(shown.split()) or "by sketch" in shown
        assert not re.search(r"by (planner|prover_correction|sketch_correction)\b", shown)
    assert '<span class="how">by sketch</span>' in html
    assert not re.search(r"by (planner|prover_correction|sketch_correction)\b", html)


def test_attempt_counts_are_what_is_listed(decomposed):
    _, run, db, _ = decomposed
    view = json.loads(runner.invoke(app, ["show", run, "--db", db, "--json"]).stdout)
    root = view["tree"]
    total, failed = len(root["attempts"]), sum(a["verdict"] != "valid" for a in root["attempts"])
    assert 0 < failed < total
    default = " ".join(runner.invoke(app, ["show", run, "--db", db]).stdout.split())
    assert f"showing {failed} of {total} attempt(s) (the failed ones)" in default
    assert "--all-attempts" in default
    every = " ".join(runner.invoke(app, ["show", run, "--db", db, "--all-attempts"]).stdout.split())
    assert f"{total} attempt(s)" in every and "showing" not in every

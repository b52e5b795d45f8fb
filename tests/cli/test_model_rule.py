"""One rule for choosing a model (issue 49): `doctor`, `prove`, `bench` and `train expert-iter` apply
`model_choice.choose_model`, and every help text and page says it in `MODEL_RULE`'s words. Through the
CLI against a server that lists two models."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.main import get_command
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.model_choice import MODEL_RULE, choose_model, model_help
from tests.benchmarks.bench_helpers import ENV, fake_lean, lean_block
from tests.conftest import REPO_ROOT
from tests.fakes.fake_kimina import FakeKimina
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()
TWO = ("m-a", "m-b")
REFUSED = "serves 2 models (m-a, m-b) and none is named for the prover"
PROBLEM = "import Mathlib\n\ntheorem t (x : ℕ) (h : x = 1) : x = 1 := by\n  sorry\n"
PAGES = ("README.md", "docs/index.md", "docs/getting-started.md", "docs/presets.md", "docs/configuration.md")


def _doctor(*args: str) -> dict:
    result = runner.invoke(app, ["doctor", *args, "--json"], env=ENV)
    report = json.loads(result.stdout)
    report["by_name"] = {f["name"]: f for f in report["findings"]}
    return report


def test_the_rule():
    assert choose_model("prover", None, ["m-a"]).model == "m-a"
    assert choose_model("prover", "m-b", ["m-a", "m-b"]).model == "m-b"
    refused = choose_model("prover", None, list(TWO))
    assert refused.model is None and refused.problem == REFUSED and "--prover-model" in (refused.fix or "")
    assert choose_model("prover", "m-c", ["m-a"]).problem == "serves m-a, not m-c"
    assert choose_model("planner", None, []).problem == "lists no model under /models"


def test_doctor_prove_and_bench_agree_on_a_server_with_two_models(tmp_path):
    problem = tmp_path / "t.lean"
    problem.write_text(PROBLEM, encoding="utf-8")
    db = tmp_path / "runs.db"
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(models=TWO, default=lean_block("x")) as llm:
        verifier = ["--verifier", "kimina", "--kimina-url", kimina.url]
        report = _doctor("--prover-url", llm.url, *verifier)
        row = report["by_name"]["prover model"]
        assert row["status"] == "error" and REFUSED in row["detail"] and "exit 2" in row["detail"]
        assert MODEL_RULE in row["fix"] and report["models"]["prover"] is None
        assert report["by_name"]["prover LLM"]["status"] == "error"

        prove = runner.invoke(app, ["prove", str(problem), "--prover-url", llm.url, *verifier,
                                    "--db", f"sqlite:///{db}"], env=ENV)
        assert prove.exit_code == 2 and REFUSED in prove.stderr and "--prover-model" in prove.stderr
        bench = runner.invoke(app, ["bench", "minif2f", "--limit", "1", "--prover-url", llm.url, *verifier,
                                    "--db", f"sqlite:///{db}", "--no-progress"], env=ENV)
        assert bench.exit_code == 2 and REFUSED in bench.stderr
        assert not db.exists()  # refused in the preflight: nothing was written
        assert not [q for q in llm.requests if q.endpoint == "chat"]

        # named: every command uses it, and says so
        report = _doctor("--prover-url", llm.url, "--prover-model", "m-b", *verifier)
        assert report["models"]["prover"] == "m-b" and report["by_name"]["prover model"]["detail"] == "m-b (named)"
        prove = runner.invoke(app, ["prove", str(problem), "--prover-url", llm.url, "--prover-model", "m-b", *verifier,
                                    "--db", f"sqlite:///{db}", "--json"], env=ENV)
        assert prove.exit_code in (0, 1), prove.output
        assert {q.body["model"] for q in llm.requests if q.endpoint == "chat"} == {"m-b"}


def test_a_server_with_one_model_is_used_by_every_command(tmp_path):
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(models=("only",), default=lean_block("x")) as llm:
        report = _doctor("--prover-url", llm.url, "--verifier", "kimina", "--kimina-url", kimina.url)
        assert report["by_name"]["prover model"]["detail"] == "only (the only model the server lists)"
        problem = tmp_path / "t.lean"
        problem.write_text(PROBLEM, encoding="utf-8")
        prove = runner.invoke(app, ["prove", str(problem), "--prover-url", llm.url, "--verifier", "kimina",
                                    "--kimina-url", kimina.url, "--db", f"sqlite:///{tmp_path / 'r.db'}", "--json"],
                              env=ENV)
        assert prove.exit_code in (0, 1), prove.output
        assert {q.body["model"] for q in llm.requests if q.endpoint == "chat"} == {"only"}


def _model_options() -> list[tuple[str, str, str]]:
    """(command, option, help) of every --prover-model / --planner-model the CLI has."""
    root = get_command(app)
    out = []

    def walk(group, path):
        for name, cmd in group.commands.items():
            if hasattr(cmd, "commands"):
                walk(cmd, f"{path}{name} ")
                continue
            for param in cmd.params:
                for opt in getattr(param, "opts", []):
                    if opt in ("--prover-model", "--planner-model"):
                        out.append((f"{path}{name}", opt, param.help))

    walk(root, "")
    return out


def test_every_help_text_and_page_states_the_rule_in_the_same_words():
    options = _model_options()
    assert {c for c, _, _ in options} >= {"prove", "bench", "doctor", "train expert-iter"}
    for command, option, text in options:
        role = option[2:].split("-")[0]
        assert text == model_help(role) and MODEL_RULE in text, (command, option)
    for page in PAGES:
        flat = " ".join((REPO_ROOT / page).read_text(encoding="utf-8").split())
        assert MODEL_RULE in flat, page
    # and nothing says the old rule any more
    # ("first come, first served" is a queue's order, not a model rule)
    old = re.compile(r"(?<!come, )first (model )?(the server lists|listed|served)", re.IGNORECASE)
    texts = [p for p in (REPO_ROOT / "docs").glob("*.md")] + [REPO_ROOT / "README.md"]
    texts += [p for p in (REPO_ROOT / "lemmaforge").rglob("*.py")]
    offenders = [str(p.relative_to(REPO_ROOT)) for p in texts if old.search(Path(p).read_text(encoding="utf-8"))]
    assert offenders == []

"""Recipes (issue 47, point 1): `lemmaforge recipes [--json]` lists published setups, each with the
number its authors reported and where it was read; `bench DATASET --recipe NAME` runs the setup,
labels what a flag changed ("modified: …"), and every report (JSON, text, HTML) sets the user's
rate beside the reported one with a 95 % Wilson interval."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lemmaforge.agent.presets import PRESETS
from lemmaforge.benchmarks.datasets import load_dataset
from lemmaforge.benchmarks.recipes import RECIPES, differences, get_recipe
from lemmaforge.benchmarks.registry import registered
from lemmaforge.benchmarks.report._recipe import wilson_interval
from lemmaforge.benchmarks.spec import BenchError, canonical_dataset
from lemmaforge.cli import app
from tests.benchmarks.bench_helpers import ENV, fake_lean, lean_block, script_prover
from tests.fakes.fake_kimina import FakeKimina
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()


def listed() -> dict[str, dict]:
    r = runner.invoke(app, ["recipes", "--json"])
    assert r.exit_code == 0, r.output
    return {x["name"]: x for x in json.loads(r.stdout)["recipes"]}


def test_recipes_cover_the_issue_s_models_and_cite_a_source_for_every_number():
    recipes = listed()
    models = {(x["model"], x["cot"], x["dataset"]["name"]) for x in recipes.values()}
    for needed in [("deepseek-ai/DeepSeek-Prover-V2-7B", False, "minif2f-kimina"),
                   ("deepseek-ai/DeepSeek-Prover-V2-7B", True, "minif2f-kimina"),
                   ("Goedel-LM/Goedel-Prover-V2-8B", False, "minif2f-goedel-v2"),
                   ("Goedel-LM/Goedel-Prover-V2-32B", False, "minif2f-goedel-v2"),
                   ("AI-MO/Kimina-Prover-Preview-Distill-7B", False, "minif2f-kimina"),
                   ("AI-MO/Kimina-Prover-72B", False, "minif2f-kimina"),
                   ("deepseek-ai/DeepSeek-Prover-V1.5-RL", True, "minif2f-deepseek-v1.5")]:
        assert needed in models, needed
    assert any(x["dataset"]["name"] == "putnambench" for x in recipes.values())
    for x in recipes.values():
        for reported in [x["reported"], *x["also_reported"]]:
            src = reported["source"]
            assert src["document"] and src["location"] and src["version"], x["name"]
            # a repository's commit or an arXiv id, or a dated post where no commit exists
            assert any(m in src["version"] for m in ("commit", "arXiv", "post of")), src
        assert x["preset"] in PRESETS and registered(x["dataset"]["name"]) is not None
        assert x["protocol"] == "whole-proof" and x["attempts"] == x["pass_at"] == x["reported"]["pass_at"]
        assert x["sampling"]["max_tokens"] > 0 and x["sampling"]["source"]
        assert x["lean_version"] and x["lean_version_source"]


def test_the_numbers_are_the_sources():
    """What was read from each source (a drift guard: change one only with its source)."""
    got = {name: (r.reported.value, r.reported.k) for name, r in RECIPES.items()}
    assert got["deepseek-prover-v2-7b-minif2f"] == (68.0, 32)  # DeepSeek_Prover_V2.pdf Table 1
    assert got["deepseek-prover-v2-7b-cot-minif2f"] == (75.6, 32)
    assert got["goedel-prover-v2-8b-minif2f"] == (84.6, 32)  # README @2e9036e (83.0 before it)
    assert got["goedel-prover-v2-32b-minif2f"] == (88.0, 32)
    assert got["kimina-prover-preview-distill-7b-minif2f"] == (63.1, 32)  # Kimina_Prover_Preview.pdf Table 1
    assert got["kimina-prover-72b-minif2f"] == (84.0, 32)
    assert got["deepseek-prover-v1.5-rl-minif2f"] == (50.0, 32)  # paper.pdf Table 1
    assert got["goedel-prover-v2-32b-putnambench"] == (43, 32)
    assert got["kimina-prover-preview-distill-7b-putnambench"] == (10, 192)
    # sampling from the authors' code where published
    v15 = RECIPES["deepseek-prover-v1.5-rl-minif2f"]
    assert v15.sampling() == {"temperature": 1.0, "top_p": 0.95, "max_tokens": 2048}
    assert "configs/sampling.py" in v15.sampling_source


def test_recipes_text_lists_each_with_its_source():
    r = runner.invoke(app, ["recipes"])
    assert r.exit_code == 0, r.output
    assert "goedel-prover-v2-8b-minif2f" in r.stdout and "reported: 84.6% pass@32" in r.stdout
    assert "README.md" in r.stdout and "2e9036e" in r.stdout


def test_wilson_interval():
    low, high = wilson_interval(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson_interval(244, 244)
    assert high == 1.0 and 0.98 < low < 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_differences_name_every_change_and_none_for_the_recipe_itself():
    r = get_recipe("goedel-prover-v2-8b-minif2f")
    same = {"dataset": canonical_dataset(r.dataset), "split": r.split, "attempts": r.attempts, "protocol": r.protocol,
            "answers": r.answers, "preset": r.preset, "model": r.model, "cot": r.cot, **r.sampling()}
    assert differences(r, same) == []
    assert differences(r, {**same, "dataset": canonical_dataset("minif2f-goedel")}) == []  # an alias is the same
    assert differences(r, {**same, "dataset": canonical_dataset("minif2f")}) == [
        "dataset minif2f-deepseek-v1.5 (recipe: minif2f-goedel-v2)"]
    changed = differences(r, {**same, "attempts": 4, "limit": 2, "temperature": 0.7, "model": "local/goedel"})
    assert "attempts 4 (recipe: 32)" in changed and "limit 2 (recipe: every problem)" in changed
    assert "temperature 0.7 (recipe: 1.0)" in changed and "prover model local/goedel (recipe: Goedel-LM/Goedel-Prover-V2-8B)" in changed
    with pytest.raises(BenchError, match="unknown recipe 'nope'"):
        get_recipe("nope")


def test_bench_with_a_recipe_runs_its_setup_and_reports_beside_the_published_number(tmp_path):
    recipe = get_recipe("goedel-prover-v2-8b-minif2f")
    names = [p.name for p in load_dataset(recipe.dataset, split="test", limit=2)]
    db = f"sqlite:///{tmp_path / 'r.db'}"
    with FakeKimina(responder=fake_lean()) as kimina, \
            FakeOpenAIServer(default=lean_block("theorem wrong : True := by\n  bad_tactic\n"),
                             models=[recipe.model]) as llm:
        script_prover(llm, names[:1])
        r = runner.invoke(app, ["bench", "--recipe", recipe.name, "--limit", "2", "--attempts", "2",
                                "--verifier", "kimina", "--kimina-url", kimina.url, "--prover-url", llm.url,
                                "--db", db, "--no-progress", "--run-id", "R", "--json"], env=ENV)
        assert r.exit_code == 0, r.output
        chats = llm.requests_to("chat")
    # the recipe's setup: its model, dataset, protocol (one sample per attempt) and sampling
    assert len(chats) == 4 and {q.body["model"] for q in chats} == {recipe.model}
    assert {(q.body.get("temperature"), q.body.get("top_p"), q.body.get("max_tokens")) for q in chats} == {
        (1.0, 0.95, 32768)}
    assert "recipe goedel-prover-v2-8b-minif2f: modified: limit 2 (recipe: every problem); attempts 2 (recipe: 32)" \
        in r.stderr
    rep = json.loads(runner.invoke(app, ["report", "R", "--db", db, "--json"]).stdout)
    assert rep["dataset"] == "minif2f-goedel-v2" and rep["config"]["split"] == "test"
    section = rep["recipe"]
    assert section["name"] == recipe.name
    assert section["modified"] == ["limit 2 (recipe: every problem)", "attempts 2 (recipe: 32)"]
    assert section["label"].startswith("modified: limit 2")
    assert section["reported"]["value"] == 84.6 and "README.md" in section["reported"]["source"]["document"]
    yours = section["yours"]
    assert (yours["solved"], yours["problems"], yours["rate"]) == (1, 2, 0.5)
    assert yours["interval_95"] == [round(x, 4) for x in wilson_interval(1, 2)]
    assert section["reported_within_interval"] is True
    text = runner.invoke(app, ["report", "R", "--db", db]).stdout
    assert "recipe goedel-prover-v2-8b-minif2f: reported 84.6% pass@32" in text
    assert "yours: 1/2 = 50.0% pass@2 (95% Wilson interval" in text and "modified: limit 2" in text
    html = tmp_path / "r.html"
    r = runner.invoke(app, ["report", "R", "--db", db, "--html", str(html)])
    assert r.exit_code == 0, r.output
    page = html.read_text(encoding="utf-8")
    assert 'id="recipe"' in page and "modified: limit 2" in page and "84.6%" in page


def test_bench_recipe_bad_input(tmp_path):
    r = runner.invoke(app, ["bench", "--recipe", "nope", "--prover-url", "http://127.0.0.1:9/v1",
                            "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert r.exit_code == 2 and "unknown recipe 'nope'" in r.stderr
    r = runner.invoke(app, ["bench", "--resume", "R", "--recipe", "goedel-prover-v2-8b-minif2f",
                            "--db", f"sqlite:///{tmp_path / 'x.db'}"])
    assert r.exit_code == 2 and "--recipe starts a new bench" in r.stderr

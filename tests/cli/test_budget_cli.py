"""Budgets through the command line (issue #38, "Done when"): `lemmaforge prove --budget KEY=N …
--json` and `lemmaforge bench`, as a user runs them, against stand-ins that count what they
receive — the fake OpenAI server (planner and prover over HTTP) and Lean as the fake Kimina server
or the fake REPL processes (through lean-interact, with proof states).

For every seeded random budget (all its keys drawn, speculation drawn too):

  received by the stand-ins = what `--json` reports = what `runs` and `show` report ≤ the budget

for LLM requests and Lean requests alike (the preflight's statement check included: it is a Lean
request of the run). Every number compared is read from the stand-ins' logs or from the command's
output, never computed by the test.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lemmaforge import cli
from tests.fakes.fake_kimina import FakeKimina
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.fakes.fake_repl import make_fake_repl_config
from tests.fakes.prove_runs import ENV, fake_lean, script_sketch
from tests.search.scenarios import DEFS, HEADER, THEOREM, lean_block
from tests.search.test_budget_property import PROBE, REPL_RULES, generation_requests, repl_requests

BUDGET_KEYS = {  # key: (low, high) of the draw
    "llm_calls": (1, 10),
    "lean_checks": (1, 25),
    "root_whole_proof_attempts": (0, 3),
    "prover_samples_per_goal": (1, 3),
    "self_corrections": (0, 1),
    "sketch_alternatives": (1, 2),
    "sketch_corrections": (0, 1),
}


def draw(seed: int) -> tuple[dict[str, int], str]:
    rng = random.Random(seed)
    budget = {key: rng.randint(low, high) for key, (low, high) in BUDGET_KEYS.items()}
    return budget, rng.choice(["off", "prefetch", "full"])


def seeds(all_seeds: range, *, fast: int) -> list[Any]:
    return [s if i < fast else pytest.param(s, marks=pytest.mark.slow) for i, s in enumerate(all_seeds)]


def budget_args(budget: dict[str, int]) -> list[str]:
    return [arg for key, value in budget.items() for arg in ("--budget", f"{key}={value}")]


def model_args(llm: FakeOpenAIServer) -> list[str]:
    return ["--planner-url", llm.url, "--planner-model", "fake-model", "--prover-url", llm.url,
            "--prover-model", "fake-model"]


def problem(tmp_path: Path) -> Path:
    path = tmp_path / "t.lean"
    path.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
    return path


def stored_counts(db: str, run_id: str) -> dict[str, tuple[int, int]]:
    """(LLM calls, Lean checks) of the run as `runs --json` and `show --json` report them."""
    runner = CliRunner()
    listed = runner.invoke(cli.app, ["runs", "--db", db, "--json", "--limit", "0"], env=ENV)
    assert listed.exit_code == 0, listed.output
    row = next(r for r in json.loads(listed.stdout)["runs"] if r["run_id"] == run_id)
    shown = runner.invoke(cli.app, ["show", run_id, "--db", db, "--json"], env=ENV)
    assert shown.exit_code == 0, shown.output
    budget = json.loads(shown.stdout)["budget"]
    return {"runs": (row["llm_calls"], row["lean_checks"]),
            "show": (budget["llm_calls"]["spent"], budget["lean_checks"]["spent"])}


def assert_counts(data: dict[str, Any], budget: dict[str, int], db: str, *, llm_sent: int, lean_sent: int,
                  unread: bool = False) -> None:
    """`unread`: the fake REPL's one allowance (tests/search/test_budget_property.py
    `assert_budget_holds`): a check cancelled after its request was written may sit unread in the
    pipe of a process the pool's close killed — sent, counted in `cancelled_checks`, never logged."""
    assert llm_sent == data["calls"] <= budget["llm_calls"], (llm_sent, data)
    assert data["checks"] <= budget["lean_checks"], data
    if unread:
        assert lean_sent <= data["checks"] <= lean_sent + data["cancelled_checks"], (lean_sent, data)
    else:
        assert lean_sent == data["checks"], (lean_sent, data)
    assert data["preflight_checks"] == 1, data
    assert 0 <= data["used_calls"] <= data["calls"] and 0 <= data["used_checks"] <= data["checks"], data
    stored = stored_counts(db, data["run_id"])
    assert set(stored.values()) == {(data["calls"], data["checks"])}, stored


def run_prove(args: list[str], env: dict[str, str]) -> dict[str, Any]:
    result = CliRunner().invoke(cli.app, [*args, "--no-live", "--json"], env={**ENV, **env})
    # proved (0) or not proved (1); a bug inside the search would exit 70, bad input 2
    assert result.exit_code in (0, 1), result.output
    data: dict[str, Any] = json.loads(result.stdout)
    assert data["stop_reason"] in ("proved", "exhausted", "llm_calls budget exhausted",
                                   "lean_checks budget exhausted"), data["stop_reason"]
    return data


@pytest.mark.parametrize("seed", seeds(range(10), fast=2))
def test_prove_on_kimina_sends_what_it_reports_and_no_more_than_its_budget(seed: int, tmp_path: Path) -> None:
    budget, speculation = draw(seed)
    db = f"sqlite:///{tmp_path / 'r.db'}"
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        script_sketch(llm)
        data = run_prove(
            ["prove", str(problem(tmp_path)), "--verifier", "kimina", "--kimina-url", kimina.url, *model_args(llm),
             "--db", db, *budget_args(budget)],
            {"LEMMAFORGE_SEARCH__SPECULATION": speculation},
        )
        lean_sent = sum(1 for r in kimina.check_requests for s in r.body["snippets"] if not s["id"].startswith(PROBE))
        llm_sent = generation_requests(llm)
    assert_counts(data, budget, db, llm_sent=llm_sent, lean_sent=lean_sent)


def repl_env(tmp_path: Path) -> tuple[Any, dict[str, str]]:
    """The fake REPL as a user would point `prove --verifier repl` at a built REPL and a project."""
    fake = make_fake_repl_config(tmp_path / "repl", rules=REPL_RULES, transcripts=False)
    project = tmp_path / "project"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.19.0\n", encoding="utf-8")
    return fake, {
        "LEMMAFORGE_VERIFIER__REPL_PATH": str(tmp_path / "repl" / "repl"),
        "LEMMAFORGE_VERIFIER__LAKE_PATH": str(tmp_path / "repl" / "bin" / "lake"),
        "LEMMAFORGE_VERIFIER__PROJECT": str(project),
        "LEMMAFORGE_VERIFIER__WORKERS": "2",
    }


@pytest.mark.parametrize("seed", seeds(range(100, 110), fast=1))
def test_prove_on_the_repl_sends_what_it_reports_and_no_more_than_its_budget(seed: int, tmp_path: Path) -> None:
    budget, speculation = draw(seed)
    db = f"sqlite:///{tmp_path / 'r.db'}"
    fake, env = repl_env(tmp_path)
    with FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        script_sketch(llm)
        data = run_prove(
            ["prove", str(problem(tmp_path)), "--verifier", "repl", "--no-sandbox", *model_args(llm), "--db", db,
             *budget_args(budget)],
            {**env, "LEMMAFORGE_SEARCH__SPECULATION": speculation},
        )
        llm_sent = generation_requests(llm)
    lean_sent = repl_requests(fake)
    assert_counts(data, budget, db, llm_sent=llm_sent, lean_sent=lean_sent, unread=True)


def test_a_bench_sends_what_its_report_sums_and_each_problem_keeps_its_budget(tmp_path: Path) -> None:
    from tests.benchmarks.bench_helpers import ENV as BENCH_ENV
    from tests.benchmarks.bench_helpers import SOLVABLE, bench_args, fake_servers

    db = f"sqlite:///{tmp_path / 'b.db'}"
    runner = CliRunner()
    budget = {"llm_calls": 3, "lean_checks": 4}
    with fake_servers(SOLVABLE[:1]) as (kimina, llm):
        r = runner.invoke(cli.app, bench_args(kimina, llm, db, "--limit", "3", "--run-id", "B1", "--json",
                                              *budget_args(budget)), env=BENCH_ENV)
        assert r.exit_code in (0, 1), r.output
        lean_sent = sum(1 for q in kimina.check_requests for s in q.body["snippets"] if not s["id"].startswith(PROBE))
        llm_sent = generation_requests(llm)
        versions = sum(1 for q in kimina.check_requests for s in q.body["snippets"] if s["id"] == "lf-lean-version")
    rows = json.loads(runner.invoke(cli.app, ["runs", "--db", db, "--json", "--limit", "0"], env=ENV).stdout)["runs"]
    children = [row for row in rows if row["parent_run_id"] == "B1" and row["status"] in ("proved", "not_proved")]
    assert len(children) == 3
    for row in children:
        assert row["llm_calls"] <= budget["llm_calls"] and row["lean_checks"] <= budget["lean_checks"], row
    report = json.loads(runner.invoke(cli.app, ["report", "B1", "--db", db, "--json"], env=ENV).stdout)
    cost = report["cost"]
    assert cost["llm_calls"] == sum(row["llm_calls"] for row in children) == llm_sent, (cost, llm_sent)
    # what Kimina received for the problems: each attempt's checks and one statement check per
    # problem (the bench's, in no attempt's budget); the bench's one `#eval Lean.versionString`
    # (its versions record, before any problem) is the only request the report leaves out
    assert lean_sent == versions + cost["lean_checks"] and versions == 1, (cost, lean_sent, versions)
    assert cost["statement_checks"] == 3, cost
    assert cost["lean_checks"] == sum(row["lean_checks"] for row in children) + 3, cost
    text = runner.invoke(cli.app, ["report", "B1", "--db", db], env=ENV)
    assert text.exit_code == 0, text.output
    assert "3 statement checks" in " ".join(text.stdout.split()), text.stdout

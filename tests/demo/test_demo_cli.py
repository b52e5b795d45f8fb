"""`lemmaforge demo` through the CLI (issue 49): the real commands against the shipped simulators,
every line and page marked simulated, nothing written outside the demo folder, no extra needed.
Also the product's own audit (`lemmaforge check`) and `prove` against the simulated servers: the
simulated Lean answers the audit's probe as Lean does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.demo.run import BANNER_ID, BENCH_PROBLEMS, PREFIX
from lemmaforge.demo.servers import SimulatedKimina, SimulatedOpenAI
from tests.conftest import REPO_ROOT

runner = CliRunner()
HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"
ORIGINAL = HEADER + "theorem t (x : ℝ) (h₀ : x = 2) : x = 2 := by\n  sorry\n"
ENV = {"LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "auto"}


@pytest.fixture(scope="module")
def servers():
    with SimulatedKimina() as lean, SimulatedOpenAI() as models:
        yield lean, models


@pytest.mark.parametrize(
    ("body", "code", "word"),
    [
        ("  exact h₀\n", 0, "proved"),  # an honest proof: the probe's answers pass the audit
        ("  sorry\n", 1, "incomplete"),
        ("  linarith [h_missing]\n", 1, "error"),
    ],
)
def test_check_audits_a_file_against_the_simulated_lean(servers, tmp_path, body, code, word):
    lean, _ = servers
    original = tmp_path / "t.lean"
    original.write_text(ORIGINAL, encoding="utf-8")
    candidate = tmp_path / "proof.lean"
    candidate.write_text(ORIGINAL.replace("  sorry\n", body), encoding="utf-8")
    result = runner.invoke(app, ["check", str(candidate), "--against", str(original), "--verifier", "kimina",
                                 "--kimina-url", lean.url, "--json"], env=ENV)
    assert result.exit_code == code, result.output
    report = json.loads(result.stdout)
    assert report["status"] == word, report
    if word == "proved":
        assert report["axioms"] == ["propext", "Classical.choice", "Quot.sound"]


def test_the_audit_refuses_a_changed_statement_on_the_simulated_lean(servers, tmp_path):
    lean, _ = servers
    original = tmp_path / "t.lean"
    original.write_text(ORIGINAL, encoding="utf-8")
    changed = tmp_path / "proof.lean"
    changed.write_text(ORIGINAL.replace("x = 2 := by\n  sorry", "x = x := by\n  exact rfl"), encoding="utf-8")
    result = runner.invoke(app, ["check", str(changed), "--against", str(original), "--verifier", "kimina",
                                 "--kimina-url", lean.url, "--json"], env=ENV)
    assert result.exit_code == 1 and json.loads(result.stdout)["status"] == "rejected"


def test_prove_runs_on_the_simulated_servers(servers, tmp_path):
    lean, models = servers
    problem = tmp_path / "m.lean"
    from lemmaforge.demo.run import write_problem

    problem = write_problem(tmp_path)
    result = runner.invoke(app, [
        "prove", str(problem), "--verifier", "kimina", "--kimina-url", lean.url, "--prover-url", models.url,
        "--prover-model", "simulated-prover", "--planner-url", models.url, "--planner-model", "simulated-planner",
        "--db", f"sqlite:///{tmp_path / 'runs.db'}", "--json", "--no-live"], env=ENV)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["proved"] and out["depth"] >= 1  # the simulated world makes this one take a sketch


def test_a_demo_folder_that_is_a_file_is_one_line_exit_2(tmp_path):
    target = tmp_path / "a-file"
    target.write_text("x", encoding="utf-8")
    result = runner.invoke(app, ["demo", "--dir", str(target)])
    assert result.exit_code == 2 and "is not a folder" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_demo_needs_no_extra():
    """The demo's modules import nothing beyond the core dependencies (a fresh install has no
    aiohttp, fastapi or uvicorn)."""
    code = ("import sys, lemmaforge.cli.demo, lemmaforge.demo, lemmaforge.demo.run; "
            "print(sorted(m for m in ('aiohttp', 'fastapi', 'uvicorn', 'starlette') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(REPO_ROOT)}).stdout
    assert out.strip() == "[]"


def _run_demo(folder: Path, home: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEMMAFORGE_")}
    env.update(HOME=str(home), PYTHONPATH=str(REPO_ROOT))
    return subprocess.run([sys.executable, "-m", "lemmaforge.cli", "demo", "--dir", str(folder), *extra],
                          cwd=home, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_the_demo_runs_prove_and_a_bench_and_says_everything_is_simulated(tmp_path):
    home, folder = tmp_path / "home", tmp_path / "demo"
    home.mkdir()
    proc = _run_demo(folder, home, "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert out["simulated"] is True and out["folder"] == str(folder)
    # every line the demo printed says it is simulated
    lines = proc.stderr.splitlines()
    assert lines and all(line.startswith(PREFIX.rstrip()) for line in lines)
    # the real commands, as a person types them, each with its exit code
    commands = [step["command"] for step in out["steps"]]
    assert [c.split()[1] for c in commands] == ["doctor", "prove", "show", "bench", "report"]
    assert all(f"{PREFIX}$ {c}" in proc.stderr for c in commands)
    assert [step["exit_code"] for step in out["steps"]] == [0, 0, 0, out["steps"][3]["exit_code"], 0]
    assert out["prove_status"] == "proved" and out["prove_run"]
    assert out["bench"].endswith(f"/{len(BENCH_PROBLEMS)} solved")
    # the pages, each with the banner; the report's tree pages too
    pages = [Path(out["pages"]["run"]), Path(out["pages"]["report"]),
             *sorted((folder / "bench-report_runs").glob("*.html"))]
    assert len(pages) == 2 + len(BENCH_PROBLEMS)
    for page in pages:
        assert page.is_file() and BANNER_ID in page.read_text(encoding="utf-8"), page
    assert Path(out["pages"]["proof"]).read_text(encoding="utf-8").startswith("import Mathlib")
    # the store is the demo folder's; nothing went to the home directory
    assert (folder / "demo.db").is_file() and not (home / ".lemmaforge").exists()
    runs = subprocess.run([sys.executable, "-m", "lemmaforge.cli", "runs", "--db", out["db"], "--json"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    kinds = sorted(r["kind"] for r in json.loads(runs.stdout)["runs"])
    assert kinds == sorted(["prove", "bench", *["prove"] * len(BENCH_PROBLEMS)])


@pytest.mark.slow
def test_the_demo_s_text_says_where_the_pages_are(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    proc = _run_demo(tmp_path / "demo", home)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert all(line.startswith(PREFIX.rstrip()) for line in lines)
    text = proc.stdout
    assert "no Lean and no model ran" in text and str(tmp_path / "demo" / "prove-run.html") in text
    assert str(tmp_path / "demo" / "bench-report.html") in text

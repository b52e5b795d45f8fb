"""Done-when of issue 10, as a new user meets it: a copy of the repository with nothing beside it
(no ../shared, no LEMMAFORGE_DATA), run as a separate process: `bench minif2f --limit 3` against
the stand-in servers, `runs`, `show RUN`, and `show RUN --html` opened in headless Chromium (the
screenshot is saved; that part skips with the reason where no browser is installed)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.benchmarks.bench_helpers import ENV, NAMES, SOLVABLE, fake_servers
from tests.conftest import REPO_ROOT
from tests.viewer.browser import headless_chromium, screenshot_path


def _copy_repo(dest: Path) -> Path:
    """The repository's files as a clone has them (tracked + new, not ignored), nothing else."""
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=REPO_ROOT, check=True,
        capture_output=True,
    ).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = REPO_ROOT / rel
        if src.is_file() and not rel.startswith("tests/"):
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest / rel)
    return dest


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    root = tmp_path_factory.mktemp("fresh")
    repo = _copy_repo(root / "lemmaforge-clone")
    work = root / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("LEMMAFORGE_DATA", "LEMMAFORGE_SHARED")}
    env.update(ENV, HOME=str(root / "home"), PYTHONPATH=str(repo), COLUMNS="100")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "lemmaforge.cli", *args], cwd=work, env=env, text=True,
                              capture_output=True, timeout=240)

    db = f"sqlite:///{work / 'runs.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        bench = run("bench", "minif2f", "--split", "valid", "--limit", "3", "--verifier", "kimina", "--kimina-url",
                    kimina.url, "--prover-url", llm.url, "--prover-model", "fake-model", "--db", db, "--no-progress",
                    "--budget", "root_whole_proof_attempts=1", "--json")
    return {"repo": repo, "work": work, "run": run, "db": db, "bench": bench}


@pytest.mark.slow
def test_the_clone_reads_its_own_packaged_data(clone):
    probe = subprocess.run(
        [sys.executable, "-c", "from lemmaforge.benchmarks.registry import data_dir; print(data_dir())"],
        cwd=clone["work"], env={"PYTHONPATH": str(clone["repo"]), "PATH": os.environ["PATH"]}, text=True,
        capture_output=True, check=True,
    )
    assert Path(probe.stdout.strip()) == clone["repo"] / "lemmaforge" / "benchmarks" / "data"
    readme = (clone["repo"] / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme and "ARCHITECTURE.md" not in readme  # self-contained


@pytest.mark.slow
def test_bench_runs_and_show_from_a_fresh_clone(clone):
    bench = clone["bench"]
    assert bench.returncode == 0, bench.stderr
    out = json.loads(bench.stdout)
    expected = sum(name in SOLVABLE for name in NAMES[:3])
    assert out["problems"] == 3 and out["solved"] == expected and out["complete"]

    runs = clone["run"]("runs", "--db", clone["db"], "--json")
    assert runs.returncode == 0, runs.stderr
    rows = json.loads(runs.stdout)["runs"]
    assert sorted(r["kind"] for r in rows) == ["bench", "prove", "prove", "prove"]
    child = next(r for r in rows if r["kind"] == "prove" and r["status"] == "proved")
    table = clone["run"]("runs", "--db", clone["db"])
    assert table.returncode == 0 and child["run_id"][:12] in table.stdout

    show = clone["run"]("show", child["run_id"], "--db", clone["db"])
    assert show.returncode == 0, show.stderr
    assert "stop: proved" in show.stdout and "norm_num" in show.stdout


@pytest.mark.slow
def test_show_html_from_a_fresh_clone_in_headless_chromium(clone, tmp_path):
    rows = json.loads(clone["run"]("runs", "--db", clone["db"], "--kind", "prove", "--json").stdout)["runs"]
    failed = next(r for r in rows if r["status"] == "not_proved")
    page = tmp_path / "tree.html"
    r = clone["run"]("show", failed["run_id"], "--db", clone["db"], "--html", str(page))
    assert r.returncode == 0, r.stderr
    with headless_chromium() as browser:
        from selenium.webdriver.common.by import By

        browser.get(page.resolve().as_uri())
        root = browser.find_element(By.CSS_SELECTOR, "details.node.goal")
        attempt = root.find_element(By.CSS_SELECTOR, "details.attempt")
        assert "bad_tactic" not in attempt.text  # collapsed
        attempt.find_element(By.TAG_NAME, "summary").click()
        assert "bad_tactic" in attempt.text and "tactic failed" in attempt.text
        shot = screenshot_path(tmp_path, "fresh-clone-show.png")
        browser.save_screenshot(str(shot))
        assert shot.stat().st_size > 1000


@pytest.mark.slow
def test_show_of_a_bench_run_lists_its_problem_runs(clone):
    rows = json.loads(clone["run"]("runs", "--db", clone["db"], "--kind", "bench", "--json").stdout)["runs"]
    [bench] = rows
    assert bench["problem"] == "minif2f-deepseek-v1.5" and "problems solved" in bench["stop_reason"]
    view = json.loads(clone["run"]("show", bench["run_id"], "--db", clone["db"], "--json").stdout)
    assert view["tree"] is None and len(view["children"]) == 3
    text = clone["run"]("show", bench["run_id"], "--db", clone["db"])
    assert text.returncode == 0 and "3 per-problem run(s)" in text.stdout and f"lemmaforge report {bench['run_id']}" in text.stdout


@pytest.mark.slow
def test_ids_as_runs_prints_them_name_runs_everywhere(clone):
    """Issue 40: the 12 characters `runs` prints are an id `report`, `show` and `bench --resume` take."""
    rows = json.loads(clone["run"]("runs", "--db", clone["db"], "--kind", "bench", "--json").stdout)["runs"]
    short = rows[0]["run_id"][:12]
    assert short in clone["run"]("runs", "--db", clone["db"]).stdout
    report = clone["run"]("report", short, "--db", clone["db"], "--json")
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)["run_id"] == rows[0]["run_id"]
    show = clone["run"]("show", short, "--db", clone["db"])
    assert show.returncode == 0 and "bench done" in " ".join(show.stdout.split())
    too_short = clone["run"]("report", short[:3], "--db", clone["db"])
    assert too_short.returncode == 2 and "too short" in too_short.stderr

"""Pages that explain (issue 40, point 6), written through the CLI and read in headless Chromium at
1400 px and 800 px wide (skipped with the reason where no browser is installed):

- `show --html` opens on a compact outline of the proof tree (goal, how it closed, depth, cost);
  a goal's attempts and prompts are one click away; "expand tree" opens goals, not every prompt;
  long text wraps (nothing scrolls sideways); the timeline has a legend.
- `report --html` is titled with dataset, models, protocol, budgets and date, wears a neutral
  badge for a finished bench ("done · 2/3 solved"), and has the text report's depth and strategy
  sections."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db import SqlRecorder, Store
from lemmaforge.records import AttemptRecord, NodeCreated, NodeStatusChanged, RunFinished, RunStarted
from tests.benchmarks.bench_helpers import ENV, SOLVABLE, bench_args, fake_servers
from tests.viewer.browser import headless_chromium, screenshot_path

runner = CliRunner()
WIDTHS = (1400, 800)
LONG_NAME = "h_" + "very_long_hypothesis_name_" * 40  # one unbreakable 1,000-character token
LONG_STATEMENT = f"theorem long_one ({LONG_NAME} : 1 = 1) : " + " + ".join(f"x{i}" for i in range(300)) + " = 0 := by sorry"


def _write(args: list[str], env: dict[str, str] | None = None) -> None:
    r = runner.invoke(app, args, env=env or {})
    assert r.exit_code == 0, r.output


@pytest.fixture(scope="module")
def long_run(tmp_path_factory) -> tuple[str, str]:
    """A run whose statement, prompt and Lean message are far wider than any screen."""
    db = f"sqlite:///{tmp_path_factory.mktemp('long') / 'l.db'}"
    with SqlRecorder(Store(db)) as rec:
        rec.emit(RunStarted("longrun00001", "prove", {}, {}, started_at=10.0))
        rec.emit(NodeCreated("longrun00001", "root", "goal", 0, LONG_STATEMENT, created_at=10.0))
        rec.emit(AttemptRecord("longrun00001", "a1", "root", "prover", "invalid", LONG_STATEMENT.replace("sorry", "simp"),
                               output="```lean4\n" + LONG_STATEMENT + "\n```", prompt="Prove " + LONG_STATEMENT,
                               errors=[f"1:9: error: unknown identifier '{LONG_NAME}'"], check_seconds=1.0, created_at=11.0))
        rec.emit(NodeStatusChanged("longrun00001", "root", "failed", reason="no strategy closed the goal", at=12.0))
        rec.emit(RunFinished("longrun00001", "not_proved", {"stop_reason": "exhausted"}, finished_at=12.0))
    return db, "longrun00001"


@pytest.fixture(scope="module")
def bench_db(tmp_path_factory) -> str:
    """A real bench through the CLI (3 miniF2F problems, 2 of them solvable), with a budget set."""
    db = f"sqlite:///{tmp_path_factory.mktemp('bench') / 'b.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        r = runner.invoke(app, bench_args(kimina, llm, db, "--limit", "3", "--run-id", "pagesbench01", "--budget",
                                          "llm_calls=17", "--json"), env=ENV)
    assert r.exit_code == 0, r.output
    return db


def _no_sideways_scroll(browser) -> None:
    overflow = browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"


# --- show --html ------------------------------------------------------------------------------------


def test_show_page_opens_on_an_outline_of_the_tree(recorded, tmp_path):
    page = tmp_path / "tree.html"
    _write(["show", recorded.proved, "--db", recorded.db, "--html", str(page)])
    html = page.read_text(encoding="utf-8")
    view = json.loads(runner.invoke(app, ["show", recorded.proved, "--db", recorded.db, "--json"]).stdout)
    nodes = []
    stack = [view["tree"]]
    while stack:
        n = stack.pop()
        nodes.append(n)
        stack.extend(n["children"])
    assert html.index('id="outline"') < html.index('class="node goal"')  # the outline comes first
    with headless_chromium() as browser:
        from selenium.webdriver.common.by import By

        for width in WIDTHS:
            browser.set_window_size(width, 1000)
            browser.get(page.resolve().as_uri())
            rows = browser.find_elements(By.CSS_SELECTOR, "#outline tr.goal, #outline tr.sketch")
            assert len(rows) == len(nodes)  # one row per goal and sketch
            text = browser.find_element(By.ID, "outline").text
            for n in nodes:
                if n.get("closed_by"):
                    assert n["closed_by"] in text
            assert "automation: auto_tac" in text and "prover sample 1" in text
            assert browser.find_element(By.ID, "outline").location["y"] < 1000  # on the first screen
            _no_sideways_scroll(browser)
            browser.save_screenshot(str(screenshot_path(tmp_path, f"show-outline-{width}.png")))


@pytest.mark.slow
def test_attempts_and_prompts_are_one_click_from_the_outline(recorded, tmp_path):
    page = tmp_path / "tree.html"
    _write(["show", recorded.proved, "--db", recorded.db, "--html", str(page)])
    with headless_chromium() as browser:
        from selenium.webdriver.common.by import By

        browser.set_window_size(1400, 1000)
        browser.get(page.resolve().as_uri())
        row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#outline tr.goal") if "Hard x" in r.text)
        link = row.find_element(By.TAG_NAME, "a")
        target = link.get_attribute("href").rsplit("#", 1)[1]
        node = browser.find_element(By.ID, target)
        assert node.get_attribute("open") is None  # a hole starts closed
        link.click()  # one click: the goal's details open, its attempts listed
        assert node.get_attribute("open") is not None and "exact hard_fact" in node.text
        attempt = next(a for a in node.find_elements(By.CSS_SELECTOR, "details.attempt") if "prover sample" in a.text)
        attempt.find_element(By.TAG_NAME, "summary").click()  # and its prompt is the next click
        assert "prompt" in attempt.text.lower() and "Complete the following Lean 4 code" in attempt.text


@pytest.mark.slow
def test_expand_tree_opens_goals_not_every_prompt(recorded, tmp_path):
    page = tmp_path / "tree.html"
    _write(["show", recorded.failed, "--db", recorded.db, "--html", str(page)])
    with headless_chromium() as browser:
        from selenium.webdriver.common.by import By

        browser.set_window_size(1400, 1000)
        browser.get(page.resolve().as_uri())
        browser.find_element(By.ID, "expand-tree").click()
        assert all(d.get_attribute("open") is not None for d in browser.find_elements(By.CSS_SELECTOR, "details.node"))
        assert all(d.get_attribute("open") is None for d in browser.find_elements(By.CSS_SELECTOR, "details.attempt"))
        tree_height = browser.execute_script("return document.body.scrollHeight")
        browser.execute_script("setAll(true)")
        assert browser.execute_script("return document.body.scrollHeight") > tree_height


@pytest.mark.slow
def test_long_text_wraps_at_both_widths(long_run, tmp_path):
    db, run_id = long_run
    page = tmp_path / "long.html"
    _write(["show", run_id[:6], "--db", db, "--html", str(page)])
    with headless_chromium() as browser:
        from selenium.webdriver.common.by import By

        for width in WIDTHS:
            browser.set_window_size(width, 1000)
            browser.get(page.resolve().as_uri())
            browser.execute_script("setAll(true)")  # every statement, prompt, completion and message shown
            assert LONG_NAME[:200] in browser.find_element(By.TAG_NAME, "body").text.replace("\n", "")
            _no_sideways_scroll(browser)
            browser.save_screenshot(str(screenshot_path(tmp_path, f"show-long-{width}.png")))


@pytest.mark.slow
def test_the_timeline_has_a_legend_matching_its_bars(recorded, tmp_path):
    page = tmp_path / "tree.html"
    _write(["show", recorded.failed, "--db", recorded.db, "--html", str(page)])
    with headless_chromium() as browser:
        from selenium.webdriver.common.by import By

        for width in WIDTHS:
            browser.set_window_size(width, 1000)
            browser.get(page.resolve().as_uri())
            legend = browser.find_element(By.ID, "timeline-legend")
            assert legend.is_displayed() and "LLM call" in legend.text and "Lean check" in legend.text
            swatches = {s.value_of_css_property("background-color")
                        for s in legend.find_elements(By.CSS_SELECTOR, ".swatch")}
            fills = browser.execute_script(
                "return [...document.querySelectorAll('svg.timeline rect')].map(r => r.getAttribute('fill'))")
            hexes = {f.lower() for f in fills}
            as_rgb = {"rgba({}, {}, {}, 1)".format(*(int(h[i:i + 2], 16) for i in (1, 3, 5))) for h in hexes}
            assert as_rgb <= {s.replace("rgb(", "rgba(").replace(")", ", 1)") if s.startswith("rgb(") else s
                              for s in swatches}  # every bar's colour is explained
            svg = browser.find_element(By.CSS_SELECTOR, "svg.timeline")
            assert svg.size["width"] <= width  # the chart fits the window
            _no_sideways_scroll(browser)


# --- report --html ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_report_page_title_badge_and_sections(bench_db, tmp_path):
    out = tmp_path / "report.html"
    _write(["report", "pagesbench01", "--db", bench_db, "--html", str(out)])
    rep = json.loads(runner.invoke(app, ["report", "pagesbench01", "--db", bench_db, "--json"]).stdout)
    text = runner.invoke(app, ["report", "pagesbench01", "--db", bench_db]).stdout
    assert rep["complete"] and rep["solved"] == 2 and rep["problems"] == 3
    today = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
    with headless_chromium() as browser:
        from selenium.webdriver.common.by import By

        for width in WIDTHS:
            browser.set_window_size(width, 1000)
            browser.get(out.resolve().as_uri())
            h1 = browser.find_element(By.TAG_NAME, "h1").text
            assert "minif2f" in h1 and "valid" in h1 and today in h1 and today in browser.title
            about = browser.find_element(By.ID, "about").text
            assert "prover fake-model" in about and "llm_calls 17" in about and "pass@1" in about
            assert "Lean v4.9.0" in about or "Lean 4.9.0" in about  # the dataset's pinned Lean
            badge = browser.find_element(By.ID, "badge")
            assert badge.text == "done · 2/3 solved" and "not_proved" not in badge.get_attribute("class")
            assert badge.value_of_css_property("color") != "rgba(207, 34, 46, 1)"  # not the failure red
            depth = browser.find_element(By.ID, "depth").text
            for d, n in rep["depth"].items():
                assert f"{d} {n}" in depth
            assert "depth of solved trees" in text
            strategies = browser.find_element(By.ID, "strategies").text
            for name, n in rep["strategies"]["in_proofs"].items():
                assert name in strategies and str(n) in strategies
            _no_sideways_scroll(browser)
            browser.save_screenshot(str(screenshot_path(tmp_path, f"report-{width}.png")))


def test_an_unfinished_bench_says_so_on_its_badge(tmp_path):
    from tests.benchmarks.test_report import BENCH_D, emit_bench, emit_problems

    db = f"sqlite:///{tmp_path / 'd.db'}"
    with SqlRecorder(Store(db)) as rec:
        emit_problems(rec)
        emit_bench(rec, "D", BENCH_D, 4)
    out = tmp_path / "d.html"
    _write(["report", "D", "--db", db, "--html", str(out)])
    page = out.read_text(encoding="utf-8")
    assert 'class="badge incomplete" id="badge">incomplete · ' in page

"""`report BENCH --html`: a self-contained page with the pass@k curve (inline SVG, integer k
ticks), the per-category table and a link to each attempt's tree page; opened in headless
Chromium, where following a link shows that run's tree."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from tests.benchmarks.bench_entry import app
from tests.benchmarks.test_report import db  # noqa: F401 - the fixture bench store (B: 3 problems x 4 attempts)
from tests.viewer.browser import headless_chromium, screenshot_path

runner = CliRunner()


def test_report_html_page_and_its_tree_pages(db, tmp_path):  # noqa: F811
    out = tmp_path / "report.html"
    r = runner.invoke(app, ["report", "B", "--db", db, "--html", str(out)])
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert "<svg" in page and not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page)
    ticks = re.findall(r'class="k-tick"[^>]*>([^<]+)<', page)
    assert ticks == ["1", "2", "3", "4"]  # 4 attempts: integer ticks only
    cat = page[page.index('id="by-category"'):]
    assert re.search(r"<td>algebra</td><td class=\"num\">2</td><td class=\"num\">2</td>", cat)
    assert re.search(r"<td>number_theory</td><td class=\"num\">0</td><td class=\"num\">1</td>", cat)
    links = re.findall(r'href="(report_runs/[0-9a-f]+\.html)"', page)
    assert len(links) == 12  # every counted attempt of the 3 problems
    assert all((tmp_path / link).is_file() for link in links)
    assert "run page(s)" in r.stdout

    r = runner.invoke(app, ["report", "B", "--db", db, "--html", str(tmp_path / "missing" / "r.html")])
    assert r.exit_code == 2 and "does not exist" in r.output and r.output.count("\n") == 1


@pytest.mark.slow
def test_report_html_in_headless_chromium(db, tmp_path):  # noqa: F811
    out = tmp_path / "report.html"
    assert runner.invoke(app, ["report", "B", "--db", db, "--html", str(out)]).exit_code == 0
    with headless_chromium() as browser:
        from selenium.webdriver.common.by import By

        browser.get(out.resolve().as_uri())
        assert "2/3 solved" in browser.find_element(By.ID, "headline").text
        assert browser.find_element(By.CSS_SELECTOR, "svg.passk circle") is not None
        browser.save_screenshot(str(screenshot_path(tmp_path, "report.png")))
        row = next(tr for tr in browser.find_elements(By.CSS_SELECTOR, "#problems tr") if "p3" in tr.text)
        row.find_element(By.TAG_NAME, "a").click()
        assert "lemmaforge run" in browser.title
        assert "p3" in browser.find_element(By.TAG_NAME, "h1").text
        tree = browser.find_element(By.CSS_SELECTOR, "details.node.goal")
        assert tree.get_attribute("open") is not None and "solved" in tree.text

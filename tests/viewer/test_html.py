"""`show RUN --html`: one self-contained page, model text escaped, opened in a real headless
Chromium where a collapsed goal is expanded and its text checked (skipped with the reason when no
browser is installed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.fakes.prove_runs import INJECTION
from tests.viewer.browser import headless_chromium, screenshot_path

runner = CliRunner()


def write_page(recorded, run_id: str, tmp_path: Path) -> Path:
    out = tmp_path / f"{run_id[:8]}.html"
    r = runner.invoke(app, ["show", run_id, "--db", recorded.db, "--html", str(out), "--json"])
    assert r.exit_code == 0, r.output
    assert out.is_file()
    return out


@pytest.mark.slow
def test_page_is_self_contained_and_escapes_model_text(recorded, tmp_path):
    page = write_page(recorded, recorded.failed, tmp_path).read_text(encoding="utf-8")
    # nothing is fetched at view time: no external src/href, no @import, no url() outside data:
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page)
    assert "@import" not in page and not re.search(r"url\((?!data:)", page)
    # the model's `<script>` is shown as text, never as markup
    assert INJECTION not in page
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;&lt;b&gt;bold?&lt;/b&gt;" in page
    assert page.count("<script>") == 1  # ours only
    assert "llm_calls budget exhausted" in page and "17:2: error: tactic failed" in page


@pytest.mark.slow
def test_page_opens_in_headless_chromium_and_a_goal_expands(recorded, tmp_path):
    with headless_chromium() as browser:
        from selenium.webdriver.common.by import By

        proved = write_page(recorded, recorded.proved, tmp_path)
        browser.get(proved.resolve().as_uri())
        assert "lemmaforge run" in browser.title
        root = browser.find_element(By.CSS_SELECTOR, "details.node.goal")
        assert root.get_attribute("open") is not None  # the root starts open
        sketch = root.find_element(By.CSS_SELECTOR, "details.node.sketch")
        assert sketch.get_attribute("open") is None
        hole_proof = "exact hard_fact"
        holes = sketch.find_elements(By.CSS_SELECTOR, ":scope > .body > details.node.goal")
        assert len(holes) == 3
        assert hole_proof not in holes[1].text  # collapsed: its body is not rendered
        sketch.find_element(By.TAG_NAME, "summary").click()
        holes[1].find_element(By.TAG_NAME, "summary").click()
        assert holes[1].get_attribute("open") is not None
        assert hole_proof in holes[1].text and "Hard x" in holes[1].text
        # an attempt: its prompt, completion and Lean messages
        attempt = holes[1].find_element(By.CSS_SELECTOR, "details.attempt")
        attempt.find_element(By.TAG_NAME, "summary").click()
        assert "auto_tac failed" in attempt.text
        assert "Lean" in browser.find_element(By.CSS_SELECTOR, "svg.timeline").get_attribute("outerHTML")
        assert recorded.proof.strip().splitlines()[-1].strip() in browser.find_element(By.ID, "proof").text
        shot = screenshot_path(tmp_path, "show-run.png")
        browser.save_screenshot(str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        failed = write_page(recorded, recorded.failed, tmp_path)
        browser.get(failed.resolve().as_uri())
        browser.execute_script("setAll(true)")  # the page's own expand-all
        assert browser.execute_script("return typeof window.pwned") == "undefined"
        assert "<script>window.pwned = 1</script>" in browser.find_element(By.TAG_NAME, "body").text
        browser.save_screenshot(str(screenshot_path(tmp_path, "show-failed-run.png")))

"""A headless Chromium for the page tests, through Selenium and the distribution's chromedriver
(Debian: `apt-get install chromium chromium-driver`, which `.ci/run` does). Nothing is downloaded:
the driver is given by path, so Selenium Manager is never asked to fetch one."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
    "--window-size=1280,1500",
)


def _find(*names: str) -> str | None:
    for n in names:
        found = shutil.which(n)
        if found:
            return found
    return None


def browser_or_skip() -> tuple[str, str]:
    """(chromium, chromedriver) paths, or skip the test saying what is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        pytest.skip("no browser test: the selenium package is not installed (pip install -e '.[dev]')")
    chromium = os.environ.get("LEMMAFORGE_CHROMIUM") or _find("chromium", "chromium-browser", "google-chrome")
    driver = os.environ.get("LEMMAFORGE_CHROMEDRIVER") or _find("chromedriver")
    if chromium is None or driver is None:
        pytest.skip("no browser test: Chromium and chromedriver not found (apt-get install chromium chromium-driver)")
    return chromium, driver


@contextmanager
def headless_chromium() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = browser_or_skip()
    profile = tempfile.mkdtemp(prefix="lemmaforge-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    browser = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


def screenshot_path(tmp_path: Path, name: str) -> Path:
    """Where a test saves its screenshot: $LEMMAFORGE_SCREENSHOTS (to keep them) or the test's tmp."""
    folder = Path(os.environ.get("LEMMAFORGE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name

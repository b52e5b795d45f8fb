"""README.md is the front door (issue 40): it fits on a screen, its two set-up commands are true as
written (the test command is the one CI runs, from the default index only), its links resolve, and
the documentation site it points to builds with warnings as errors."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

README = (REPO_ROOT / "README.md").read_text(encoding="utf-8")


def _bash_blocks(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)```", text, re.DOTALL)


def _github_slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_readme_fits_a_screen_and_has_a_table_of_contents():
    lines = README.splitlines()
    assert len(lines) <= 350
    sections = [line[3:] for line in lines if line.startswith("## ") and line != "## Contents"]
    toc = README[README.index("## Contents"):]
    toc = toc[: toc.index("\n## ", 1)]
    anchors = re.findall(r"\]\(#([^)]+)\)", toc)
    assert anchors == [_github_slug(s) for s in sections]
    for needed in ("Set-up", "Hardware", "Quick start", "Commands", "Troubleshooting", "Links"):
        assert any(needed in s for s in sections), needed


def test_readme_test_command_is_the_one_ci_runs_from_the_default_index():
    """Each step of README's test command is a line of .ci/run, in the same order, and none asks
    for another package index (a PyPI-only machine must run it as written)."""
    [main_job, test_command] = [b.strip() for b in _bash_blocks(README)[:2]]
    assert main_job.startswith("python3 -m pip install -e . && lemmaforge prove ")
    steps = [s.strip() for s in test_command.split("&&")]
    assert steps[-1].startswith("python3 -m pytest")
    assert not any("--index-url" in s or "--extra-index-url" in s for s in steps)
    ci_lines = [line.strip() for line in (REPO_ROOT / ".ci" / "run").read_text().splitlines()]
    where = [ci_lines.index(step) for step in steps]  # ValueError names a step CI does not run
    assert where == sorted(where)


@pytest.mark.slow
def test_readme_main_job_without_lean_says_how_to_get_it(tmp_path):
    """README's first command, as written (after the install), on a machine without Lean."""
    [main_job] = _bash_blocks(README)[:1]
    prove = shlex.split(main_job.split("&&", 1)[1])
    assert prove[0] == "lemmaforge"
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(REPO_ROOT),
           "LEMMAFORGE_VERIFIER__LAKE_PATH": str(tmp_path / "no-lake")}
    proc = subprocess.run([sys.executable, "-m", "lemmaforge.cli", *prove[1:]], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "lemmaforge setup" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_readme_links_resolve_and_name_every_command():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if "://" not in target:
            assert (REPO_ROOT / target).exists(), target
    from typer.main import get_command

    from lemmaforge.cli import app

    for name in get_command(app).commands:  # type: ignore[attr-defined]
        assert f"`lemmaforge {name}" in README, f"README's command table misses `{name}`"


def test_license_is_the_apache_2_text():
    text = (REPO_ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text and len(text) > 10_000


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None,
                    reason="mkdocs / mkdocs-material not installed (the `docs` extra)")
def test_docs_site_builds_strict_with_every_nav_page(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    nav = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = re.findall(r":\s*([\w-]+)\.md\s*$", nav, re.MULTILINE)
    for page in ("index", "getting-started", "usage", "configuration", "benchmarks", "training", "database",
                 "errors", "performance", "architecture", "presets", "datasets", "soundness", "lexer",
                 "sandbox", "reliability"):
        assert page in pages, page
        assert (tmp_path / "site" / ("" if page == "index" else page) / "index.html").is_file()
    built = Path(tmp_path / "site" / "performance" / "index.html").read_text(encoding="utf-8")
    assert "bench_e2e.py" in built  # the measurements moved, not dropped

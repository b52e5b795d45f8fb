"""The import layers of docs/architecture.md hold: `lint-imports` (import-linter, its contracts in
pyproject.toml's `[tool.importlinter]`) passes on the package, and it does catch a breach: the same
contracts, run on a copy of the package whose search imports the schedule, fail and name the
contract. CI runs `lint-imports` too (.ci/run); this keeps a breach out of the fast subset."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT

LINT_IMPORTS = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"]


def _lint(package_parent: Path, config: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(package_parent)}
    return subprocess.run([*LINT_IMPORTS, "--no-cache", "--no-logo", str(config)], cwd=package_parent,
                          env=env, capture_output=True, text=True, timeout=120)


def test_the_package_keeps_its_import_layers() -> None:
    run = _lint(REPO_ROOT, REPO_ROOT / "pyproject.toml")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_a_search_module_importing_the_schedule_breaks_the_contracts(tmp_path: Path) -> None:
    shutil.copytree(REPO_ROOT / "lemmaforge", tmp_path / "lemmaforge",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(REPO_ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    tree = tmp_path / "lemmaforge" / "search" / "tree.py"
    tree.write_text(tree.read_text(encoding="utf-8") + "\nfrom lemmaforge.schedule import order  # noqa\n",
                    encoding="utf-8")
    run = _lint(tmp_path, tmp_path / "pyproject.toml")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "the search imports neither the schedule nor the viewer" in run.stdout
    assert "lemmaforge.search.tree -> lemmaforge.schedule.order" in run.stdout

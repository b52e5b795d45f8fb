"""Issue 49's "done when": on a fresh install — a new virtualenv, `pip install` of this checkout with
no extras, from the package index only — README's first command does what it says and `lemmaforge
demo` runs the whole cycle on its simulated servers, writing nothing to the home directory.

Slow (a virtualenv and the core dependencies from the index: about a minute where PyPI is near);
skipped with the reason where the package index cannot be reached."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.demo.test_demo_cli import BANNER_ID


def _checkout_copy(dest: Path) -> Path:
    """The repository's files as a clone has them (tracked + new, not ignored)."""
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=REPO_ROOT,
                           check=True, capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = REPO_ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest / rel)
    return dest


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    root = tmp_path_factory.mktemp("fresh-install")
    checkout = _checkout_copy(root / "lemmaforge")
    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME") and not k.startswith("LEMMAFORGE_")}
    probe = subprocess.run([str(python), "-m", "pip", "download", "--no-deps", "-q", "-d", str(root / "probe"),
                            "typer"], env=clean, capture_output=True, text=True, timeout=300)
    if probe.returncode != 0:
        pytest.skip(f"the package index cannot be reached: {probe.stderr.strip().splitlines()[-1:]}")
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", str(checkout)], env=clean,
                             capture_output=True, text=True, timeout=900)
    assert install.returncode == 0, install.stderr[-3000:]
    home = root / "home"
    home.mkdir()
    return {"root": root, "checkout": checkout, "bin": env_dir / "bin", "python": python,
            "env": {**clean, "HOME": str(home)}, "home": home}


@pytest.mark.slow
def test_the_install_has_no_extra_and_imports_lemmaforge_from_the_virtualenv(fresh):
    code = ("import importlib.util, lemmaforge; print(lemmaforge.__file__); "
            "print([m for m in ('aiohttp', 'fastapi', 'uvicorn', 'torch') if importlib.util.find_spec(m)])")
    out = subprocess.run([str(fresh["python"]), "-c", code], cwd=fresh["root"], env=fresh["env"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith(str(fresh["root"] / "venv")) and out[1] == "[]"


@pytest.mark.slow
def test_the_demo_runs_on_a_fresh_install(fresh):
    folder = fresh["root"] / "demo"
    proc = subprocess.run([str(fresh["bin"] / "lemmaforge"), "demo", "--dir", str(folder), "--json"],
                          cwd=fresh["root"], env=fresh["env"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert out["simulated"] and out["prove_status"] == "proved" and out["bench_run"]
    assert BANNER_ID in Path(out["pages"]["report"]).read_text(encoding="utf-8")
    assert not (fresh["home"] / ".lemmaforge").exists()


@pytest.mark.slow
def test_readme_s_first_command_on_a_fresh_install(fresh):
    """README's main job as written (after the install), on this machine without Lean: one line
    saying how to get Lean, exit 2, and no store in the home directory."""
    from tests.cli.test_readme import README, _bash_blocks

    [main_job] = _bash_blocks(README)[:1]
    prove = main_job.split("&&", 1)[1].split()
    env = {**fresh["env"], "LEMMAFORGE_VERIFIER__LAKE_PATH": str(fresh["root"] / "no-lake")}
    proc = subprocess.run([str(fresh["bin"] / "lemmaforge"), *prove[1:]], cwd=fresh["checkout"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "lemmaforge setup" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (fresh["home"] / ".lemmaforge").exists()
    version = subprocess.run([str(fresh["bin"] / "lemmaforge"), "--version"], env=fresh["env"], capture_output=True,
                             text=True, check=True)
    assert version.stdout.startswith("lemmaforge ")


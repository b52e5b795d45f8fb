"""`lemmaforge setup`: get Lean, Mathlib and the REPL ready through lean-interact.

lean-interact does the real work (elan install, `lake new` + `require mathlib`, `lake exe cache
get`, building its REPL fork); this module only orders the steps and turns their failures into one
actionable line. Everything here needs the internet on first use.

Installing elan is done here, not by lean-interact's `install_lean`: that one pipes `curl | sh`
(a failed download still "succeeds"), logs "completed successfully" regardless, and appends a PATH
line to every shell profile on every run. Here the installer script is downloaded first (a failure
is a failure), run with `--no-modify-path`, the result is checked (`lake` must exist), and shell
profiles are left alone: the line to add is printed instead.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lemmaforge.config import VerifierConfig
from lemmaforge.errors import BackendError


class SetupError(BackendError):
    """Setup could not finish; the message says what failed and what to try."""


@dataclass(frozen=True, slots=True)
class SetupResult:
    lean_version: str
    project_dir: str
    repl_dir: str


def find_lake(lake_path: str = "lake") -> str | None:
    """`lake` on PATH, or where elan installs it (a fresh elan install is not on PATH yet)."""
    found = shutil.which(lake_path)
    if found:
        return found
    elan_lake = Path.home() / ".elan" / "bin" / "lake"
    return str(elan_lake) if elan_lake.is_file() else None


ELAN_INIT_URL = "https://raw.githubusercontent.com/leanprover/elan/master/elan-init.sh"
PATH_LINE = 'export PATH="$HOME/.elan/bin:$PATH"'


def _download(url: str, dest: Path) -> None:
    import httpx

    with httpx.Client(follow_redirects=True, timeout=60) as client:
        response = client.get(url)
        response.raise_for_status()
    dest.write_bytes(response.content)


def _run_script(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False)


def elan_bin() -> Path:
    return Path.home() / ".elan" / "bin"


def path_hint() -> str | None:
    """The line to add to a shell profile when elan's bin folder is not on PATH (None when it is)."""
    on_path = [Path(p).expanduser() for p in os.environ.get("PATH", "").split(os.pathsep) if p]
    if elan_bin() in on_path:
        return None
    return f"add elan to PATH (this shell and your profile, e.g. ~/.bashrc): {PATH_LINE}"


def install_elan(
    *,
    log: Callable[[str], None] = print,
    download: Callable[[str, Path], None] | None = None,
    run: Callable[[list[str]], subprocess.CompletedProcess[str]] | None = None,
    toolchain: str = "stable",
) -> str:
    """Install elan and a Lean toolchain into ~/.elan without touching any shell profile; returns
    the path of `lake`. Raises SetupError naming the step that failed."""
    download = download or _download
    run = run or _run_script
    if platform.system() not in ("Linux", "Darwin"):
        raise SetupError(
            f"installing elan on {platform.system()} is not automated: follow "
            "https://leanprover-community.github.io/get_started.html, then run `lemmaforge setup` again"
        )
    with tempfile.TemporaryDirectory(prefix="lemmaforge-elan-") as tmp:
        script = Path(tmp) / "elan-init.sh"
        try:
            download(ELAN_INIT_URL, script)
        except Exception as exc:  # httpx errors, OSError
            raise SetupError(
                f"downloading the elan installer failed ({_first_line(exc)}); is github.com reachable? "
                "Or install elan by hand: https://leanprover-community.github.io/get_started.html"
            ) from None
        if not script.is_file() or script.stat().st_size == 0:
            raise SetupError("downloading the elan installer failed (empty file); is github.com reachable?")
        done = run(["sh", str(script), "-y", "--no-modify-path", "--default-toolchain", toolchain])
    if done.returncode != 0:
        detail = (done.stderr or done.stdout or "").strip().splitlines()
        raise SetupError(f"the elan installer failed (exit {done.returncode}): {detail[-1] if detail else 'no output'}")
    lake = find_lake("lake")
    if lake is None:
        raise SetupError(f"the elan installer finished but {elan_bin() / 'lake'} does not exist; run it by hand to see why")
    log(f"elan installed in {elan_bin().parent} (shell profiles were not changed)")
    return lake


def prepare(
    cfg: VerifierConfig,
    *,
    install_lean: bool = True,
    log: Callable[[str], None] = print,
) -> SetupResult:
    lake = find_lake(cfg.lake_path)
    if lake is None:
        if not install_lean:
            raise SetupError(
                "lake not found: install Lean with `lemmaforge setup --install-lean` or elan "
                "(https://leanprover-community.github.io/get_started.html)"
            )
        log("lake not found: installing elan and Lean (downloads from github.com)…")
        lake = install_elan(log=log)

    import lean_interact

    if cfg.project is not None and not any((cfg.project / f).exists() for f in ("lakefile.lean", "lakefile.toml")):
        raise SetupError(f"{cfg.project} is not a Lean project (no lakefile.lean or lakefile.toml)")
    try:
        # Projects build (and download) when constructed, so they are made inside the try too, and
        # with OUR lake: lean-interact's default is a bare "lake" looked up on PATH.
        project: lean_interact.project.BaseProject
        if cfg.project is not None:
            log(f"building Lean project {cfg.project} and the REPL…")
            project = lean_interact.LocalProject(directory=str(cfg.project), lake_path=lake)
        else:
            log(f"preparing a Mathlib project for Lean {cfg.lean_version} (several GB on first run)…")
            project = lean_interact.TempRequireProject(lean_version=cfg.lean_version, require="mathlib", lake_path=lake)
        repl_config = lean_interact.LeanREPLConfig(
            project=project,
            lake_path=lake,
            memory_hard_limit_mb=cfg.memory_limit_mb,
            verbose=True,
        )
    except Exception as exc:  # git, lake and network failures surface as many exception types
        raise SetupError(f"preparing the Lean project failed: {_first_line(exc)}") from None
    return SetupResult(
        lean_version=str(repl_config.lean_version),
        project_dir=repl_config.working_dir,
        repl_dir=repl_config.cache_repl_dir,
    )


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0][:300]

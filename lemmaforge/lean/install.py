"""`lemmaforge setup`: get Lean, Mathlib and the REPL ready through lean-interact.

lean-interact does the real work (elan install, `lake new` + `require mathlib`, `lake exe cache
get`, building its REPL fork); this module only orders the steps and turns their failures into one
actionable line. Everything here needs the internet on first use.
"""

from __future__ import annotations

import shutil
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
        from lean_interact.utils import install_lean as lean_interact_install

        try:
            lean_interact_install()
        except Exception as exc:  # lean-interact raises CalledProcessError / RuntimeError
            raise SetupError(f"installing Lean failed ({_first_line(exc)}); is github.com reachable?") from None
        lake = find_lake(cfg.lake_path)
        if lake is None:
            raise SetupError("elan installed but lake is still missing: open a new shell or add ~/.elan/bin to PATH")

    import lean_interact

    if cfg.project is not None and not any((cfg.project / f).exists() for f in ("lakefile.lean", "lakefile.toml")):
        raise SetupError(f"{cfg.project} is not a Lean project (no lakefile.lean or lakefile.toml)")
    try:
        # Projects build (and download) when constructed, so they are made inside the try too, and
        # with OUR lake: lean-interact's default is a bare "lake" looked up on PATH.
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

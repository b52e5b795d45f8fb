"""Version strings of what a result depends on: installed packages, the Mathlib a Lean project
pins, and the training stack. One small module that `app` (a run's `versions` record), `doctor`
(its report) and `cli.train` (a training run's record) all read, instead of `app` importing
`doctor` for them.
"""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

# lemmaforge's own version (pyproject.toml's), here rather than in the package's `__init__` so that
# no module imports the package root: the root is the library's public face (it imports services).
__version__ = "0.1.0"

TRAINING_PACKAGES = ("torch", "transformers", "trl", "vllm")


def package_version(name: str) -> str | None:
    """The installed version of distribution `name`, None when it is not installed."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def mathlib_version(project: Path) -> str | None:
    """Mathlib's version as `lake-manifest.json` pins it: `inputRev (rev)`; None without one."""
    manifest = project / "lake-manifest.json"
    if not manifest.is_file():
        return None
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    packages = data.get("packages", []) if isinstance(data, dict) else []
    for package in packages:
        if isinstance(package, dict) and package.get("name") == "mathlib":
            rev = str(package.get("rev", ""))[:12]
            return f"{package.get('inputRev') or 'rev'} ({rev})"
    return None


def training_versions() -> dict[str, str | None]:
    """lemmaforge and the training stack (None for a package not installed): a training run's record."""
    return {"lemmaforge": __version__, **{p: package_version(p) for p in TRAINING_PACKAGES}}

"""Passing selftests on record, per toolchain, and the line `prove` and `bench` say when the
toolchain they run on has none.

Where the record lives: a small JSON file in the user's lemmaforge directory
(`$LEMMAFORGE_HOME/selftest.json`, default `~/.lemmaforge/selftest.json`), not the store. A
selftest is about the machine's Lean, not about a database: the same toolchain serves every store
(`--db`), so a pass recorded in one store would be missing from the next. And reading "no record"
must never create anything (`prove` and `bench` read it before their preflight, and make no store
before it passes): reading a file that is not there creates nothing, where opening a store would
create and migrate it.

A toolchain is (backend, Lean version, Mathlib revision) as the run's own records give them
(`services.versions`): on Kimina the Lean the server runs (`#eval Lean.versionString`, what
`bench` records; the server does not say its Mathlib); on the REPL and lake backends the
project's `lean-toolchain` (what `lake` and the REPL run there) and the Mathlib revision its
`lake-manifest.json` pins; on the REPL without a project, the `verifier.lean_version` lean-interact's
own Mathlib project is made for.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lemmaforge.config import VerifierConfig
from lemmaforge.versions import mathlib_version

RECORD_FILE = "selftest.json"
RECORD_FORMAT = 1
# How long `prove` waits for a Kimina server to say its Lean version, when it must ask (only when
# a Kimina toolchain is on record at all): the answer only decides whether one line is printed.
ASK_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class Toolchain:
    backend: str
    lean: str | None  # "4.19.0"; None: the verifier did not say
    mathlib: str | None  # "v4.19.0 (1a2b3c4d5e6f)"; None: not known here (a Kimina server does not say)
    project: str | None = None  # the Lean project of a local backend (said, not part of the key)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.backend, self.lean or "", self.mathlib or "")

    def words(self) -> str:
        lean = f"Lean {self.lean}" if self.lean else "Lean version not known here"
        if self.mathlib:
            mathlib = f"Mathlib {self.mathlib}"
        elif self.backend == "kimina":
            mathlib = "Mathlib not reported by the server"
        elif self.project:
            mathlib = "Mathlib not pinned in the project's lake-manifest.json"
        else:
            mathlib = "the Mathlib of lean-interact's own project"
        return f"{self.backend}, {lean}, {mathlib}" + (f" (project {self.project})" if self.project else "")

    def to_json(self) -> dict[str, str | None]:
        return {"backend": self.backend, "lean": self.lean, "mathlib": self.mathlib, "project": self.project}


def normalize_lean(version: str | None) -> str | None:
    """`leanprover/lean4:v4.19.0`, `v4.19.0`, `4.19.0` → `4.19.0`; None or blank → None."""
    if version is None or not version.strip():
        return None
    return version.strip().rsplit(":", 1)[-1].lstrip("v")


def toolchain_of(cfg: VerifierConfig, *, kimina_lean: str | None = None) -> Toolchain:
    """The toolchain `cfg` runs on. `kimina_lean`: what the Kimina server said its Lean is (the
    caller asks: `kimina.server_lean_version`); unused for the local backends."""
    if cfg.backend == "kimina":
        return Toolchain("kimina", normalize_lean(kimina_lean), None)
    project = Path(cfg.project) if cfg.project is not None else None
    if project is None:
        return Toolchain(cfg.backend, normalize_lean(cfg.lean_version), None)
    toolchain = project / "lean-toolchain"
    try:
        lean = toolchain.read_text(encoding="utf-8").strip() if toolchain.is_file() else None
    except (OSError, UnicodeDecodeError):
        lean = None
    return Toolchain(cfg.backend, normalize_lean(lean), mathlib_version(project), str(project))


def home() -> Path:
    """The user's lemmaforge directory, read at call time: `$LEMMAFORGE_HOME`, else ~/.lemmaforge."""
    env = os.environ.get("LEMMAFORGE_HOME")
    return Path(env).expanduser() if env else Path.home() / ".lemmaforge"


def record_path() -> Path:
    return home() / RECORD_FILE


def read_records() -> list[dict[str, Any]]:
    """The passing selftests on record (empty when there is no record, or it cannot be read).
    Reads only: creates no file and no folder."""
    path = record_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return []
    passed = data.get("passed") if isinstance(data, dict) else None
    return [r for r in passed if isinstance(r, dict)] if isinstance(passed, list) else []


def _key(record: dict[str, Any]) -> tuple[str, str, str]:
    return (str(record.get("backend") or ""), str(record.get("lean") or ""), str(record.get("mathlib") or ""))


def passed_record(toolchain: Toolchain) -> dict[str, Any] | None:
    """The passing selftest on record for `toolchain`, if any."""
    return next((r for r in read_records() if _key(r) == toolchain.key), None)


def record_selftest(toolchain: Toolchain, *, passed: bool, details: dict[str, Any]) -> Path:
    """Record a selftest's outcome for `toolchain`: a pass replaces the one on record, a failure
    removes it (the latest word on a toolchain counts). Written whole to a temporary file, then
    renamed: a reader never sees half a record. Raises OSError when the folder is not writable."""
    path = record_path()
    records = [r for r in read_records() if _key(r) != toolchain.key]
    if passed:
        records.append({**toolchain.to_json(), **details, "when": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".selftest-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"format": RECORD_FORMAT, "passed": records}, f, indent=2, ensure_ascii=False)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def notice(toolchain: Toolchain) -> str:
    return (f"note: no passing `lemmaforge doctor --selftest` on record for this toolchain ({toolchain.words()}): "
            "run it once to check that the audit reads this Lean's answers as it expects")


def start_notice(cfg: VerifierConfig, *, kimina_lean: str | None = None) -> str | None:
    """The one line `prove` and `bench` say at start when the toolchain in use has no passing
    selftest on record (None: it has one). Reads the record only; on Kimina asks the server its
    Lean version (one small request, bounded) only when `kimina_lean` is not given and a Kimina
    toolchain is on record at all: with none on record the answer is "none" whatever it says."""
    records = read_records()
    if cfg.backend == "kimina" and kimina_lean is None and any(r.get("backend") == "kimina" for r in records):
        from lemmaforge.lean.kimina import KIMINA_CLIENT_KEY_ENV, server_lean_version

        key = os.environ.get(cfg.kimina_api_key_env) or os.environ.get(KIMINA_CLIENT_KEY_ENV) or None
        kimina_lean = server_lean_version(cfg.kimina_url, api_key=key, timeout=min(cfg.timeout, ASK_TIMEOUT_S))
    toolchain = toolchain_of(cfg, kimina_lean=kimina_lean)
    if any(_key(r) == toolchain.key for r in records):
        return None
    return notice(toolchain)

"""`lemmaforge doctor`: what is present and reachable, and what to do about what is missing.

Every probe is bounded in time and never raises: a broken piece is reported, not crashed on.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

from lemmaforge import __version__
from lemmaforge.config import LLMEndpoint, Settings, VerifierConfig
from lemmaforge.lean.install import find_lake

PROBE_TIMEOUT = 10.0


@dataclass(slots=True)
class Finding:
    name: str
    status: str  # "ok", "missing", "error", "info"
    detail: str
    fix: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "detail": self.detail, "fix": self.fix}


@dataclass(slots=True)
class DoctorReport:
    findings: list[Finding] = field(default_factory=list)
    backend: str = "repl"
    verifier_ready: bool = False

    def add(self, *args: Any, **kwargs: Any) -> Finding:
        finding = Finding(*args, **kwargs)
        self.findings.append(finding)
        return finding

    def to_json(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "verifier_ready": self.verifier_ready,
            "findings": [f.to_json() for f in self.findings],
        }


def _run(cmd: list[str], cwd: Path | None = None) -> tuple[int, str]:
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=PROBE_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, str(exc)
    return proc.returncode, (proc.stdout or proc.stderr).strip()


def _package_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


GET_LEAN = "run `lemmaforge setup` (installs elan, Lean and Mathlib through lean-interact; needs the internet)"


def check_lean(report: DoctorReport, cfg: VerifierConfig) -> bool:
    lake = find_lake(cfg.lake_path)
    if lake is None:
        report.add("lean", "missing", "lake / Lean not found on PATH or in ~/.elan/bin", fix=GET_LEAN)
        return False
    code, text = _run([lake, "--version"])
    if code != 0:
        report.add("lean", "error", f"`{lake} --version` failed: {text[:200]}", fix=GET_LEAN)
        return False
    report.add("lean", "ok", f"{lake}: {text.splitlines()[0] if text else 'lake'}")
    return True


def check_project(report: DoctorReport, cfg: VerifierConfig) -> bool:
    if cfg.project is None:
        report.add(
            "lean project",
            "info",
            f"none configured; the repl backend uses lean-interact's temporary Mathlib project for {cfg.lean_version}",
            fix="set LEMMAFORGE_LEAN_PROJECT or verifier.project to a Lean project with Mathlib built",
        )
        return cfg.backend == "repl"
    project = cfg.project
    if not project.is_dir():
        report.add("lean project", "missing", f"{project} does not exist", fix=GET_LEAN)
        return False
    toolchain = project / "lean-toolchain"
    version = toolchain.read_text(encoding="utf-8").strip() if toolchain.is_file() else "unknown"
    report.add("lean project", "ok", f"{project} (toolchain {version})")
    mathlib = mathlib_version(project)
    if mathlib is None:
        report.add("mathlib", "missing", f"no mathlib in {project}/lake-manifest.json",
                   fix="add `require mathlib` to the lakefile and run `lake update && lake exe cache get`")
        return False
    report.add("mathlib", "ok", mathlib)
    return True


def mathlib_version(project: Path) -> str | None:
    manifest = project / "lake-manifest.json"
    if not manifest.is_file():
        return None
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    for package in data.get("packages", []):
        if package.get("name") == "mathlib":
            rev = str(package.get("rev", ""))[:12]
            return f"{package.get('inputRev') or 'rev'} ({rev})"
    return None


def check_repl(report: DoctorReport, cfg: VerifierConfig) -> None:
    version = _package_version("lean-interact")
    if version is None:
        report.add("lean-interact", "missing", "not installed", fix="pip install lean-interact")
        return
    report.add("lean-interact", "ok", version)
    if cfg.repl_path is not None:
        binary = cfg.repl_path / ".lake" / "build" / "bin" / "repl"
        status = "ok" if binary.is_file() else "missing"
        report.add("repl", status, str(binary), fix=None if status == "ok" else "run `lake build` in the REPL checkout")


def check_kimina(report: DoctorReport, cfg: VerifierConfig) -> bool:
    url = cfg.kimina_url.rstrip("/")
    try:
        resp = httpx.get(f"{url}/health", timeout=PROBE_TIMEOUT)
    except httpx.HTTPError as exc:
        report.add("kimina", "error", f"{url} unreachable: {type(exc).__name__}",
                   fix="start a Kimina Lean Server or set verifier.kimina_url")
        return False
    if resp.status_code != 200:
        report.add("kimina", "error", f"{url}/health answered HTTP {resp.status_code}")
        return False
    report.add("kimina", "ok", f"{url} healthy")
    return True


def check_llm(report: DoctorReport, role: str, endpoint: LLMEndpoint) -> None:
    if not endpoint.url:
        report.add(f"{role} LLM", "info", "no endpoint configured",
                   fix=f"set {role}.url (an OpenAI-compatible server, e.g. `vllm serve MODEL`) and {role}.model")
        return
    headers = {}
    key = os.environ.get(endpoint.api_key_env)
    if key:
        headers["Authorization"] = f"Bearer {key}"
    url = endpoint.url.rstrip("/")
    try:
        resp = httpx.get(f"{url}/models", headers=headers, timeout=PROBE_TIMEOUT)
    except httpx.HTTPError as exc:
        report.add(f"{role} LLM", "error", f"{url} unreachable: {type(exc).__name__}",
                   fix="start the server or fix the URL")
        return
    if resp.status_code != 200:
        report.add(f"{role} LLM", "error", f"{url}/models answered HTTP {resp.status_code}",
                   fix=f"check the API key in ${endpoint.api_key_env}" if resp.status_code in (401, 403) else None)
        return
    try:
        models = [m.get("id") for m in resp.json().get("data", [])]
    except (ValueError, AttributeError):
        models = []
    if endpoint.model and models and endpoint.model not in models:
        report.add(f"{role} LLM", "error", f"{url} serves {models}, not {endpoint.model}", fix=f"set {role}.model")
        return
    report.add(f"{role} LLM", "ok", f"{url} ({', '.join(str(m) for m in models) or 'models unknown'})")


def check_gpu(report: DoctorReport) -> None:
    smi = shutil.which("nvidia-smi")
    if smi:
        code, text = _run([smi, "--query-gpu=name,memory.total", "--format=csv,noheader"])
        if code == 0 and text:
            report.add("gpu", "ok", "; ".join(text.splitlines()))
            return
    report.add("gpu", "info", "no NVIDIA GPU found (needed only for vLLM serving and training real models)")


def check_database(report: DoctorReport, db_url: str) -> None:
    if db_url.startswith("sqlite:///"):
        path = Path(db_url[len("sqlite:///") :]).expanduser()
        folder = path.parent
        existing = next((p for p in [folder, *folder.parents] if p.exists()), None)
        if existing is None or not os.access(existing, os.W_OK):
            report.add("database", "error", f"cannot write {path}", fix="use --db with a writable location")
            return
        report.add("database", "ok", f"{db_url}{'' if path.exists() else ' (created on first run)'}")
        return
    report.add("database", "info", db_url.split("@")[-1])


def diagnose(settings: Settings) -> DoctorReport:
    cfg = settings.verifier
    report = DoctorReport(backend=cfg.backend)
    report.add("lemmaforge", "ok", f"{__version__} on Python {platform.python_version()}")
    lean_ok = check_lean(report, cfg)
    project_ok = check_project(report, cfg)
    check_repl(report, cfg)
    if cfg.backend == "kimina":
        report.verifier_ready = check_kimina(report, cfg)
    else:
        report.verifier_ready = lean_ok and project_ok
    for role in ("planner", "prover"):
        check_llm(report, role, getattr(settings, role))
    check_gpu(report)
    check_database(report, settings.db_url)
    return report


_STYLE = {"ok": "green", "missing": "red", "error": "red", "info": "cyan"}


def render(report: DoctorReport, console: Console) -> None:
    table = Table(title="lemmaforge doctor", show_lines=False)
    table.add_column("check")
    table.add_column("status")
    table.add_column("detail", overflow="fold")
    table.add_column("what to do", overflow="fold")
    for f in report.findings:
        table.add_row(f.name, f"[{_STYLE[f.status]}]{f.status}[/]", f.detail, f.fix or "")
    console.print(table)
    verdict = "[green]ready[/]" if report.verifier_ready else "[red]not ready[/]"
    console.print(f"verifier '{report.backend}': {verdict}")

"""`lemmaforge doctor`: what is present and reachable, and what to do about what is missing.

Every probe is bounded in time and never raises: a broken piece is reported, not crashed on.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import platform
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from lemmaforge.config import RAM_RESERVE_MB, REPL_RAM_MB, LLMEndpoint, Settings, VerifierConfig, total_ram_mb
from lemmaforge.model_choice import MODEL_RULE, choose_model
from lemmaforge.versions import __version__, mathlib_version, package_version

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
    lean_version: str | None = None  # what the verifier itself says (Kimina's Lean too)
    models: dict[str, str | None] = field(default_factory=dict)  # the model each role will use
    memory: dict[str, Any] = field(default_factory=dict)  # RAM against workers × per-worker memory
    sandbox: dict[str, Any] | None = None  # the sandbox's effective settings (check_sandbox_settings)

    def add(self, *args: Any, **kwargs: Any) -> Finding:
        finding = Finding(*args, **kwargs)
        self.findings.append(finding)
        return finding

    def to_json(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "verifier_ready": self.verifier_ready,
            "lean_version": self.lean_version,
            "models": self.models,
            "memory": self.memory,
            "sandbox": self.sandbox,
            "findings": [f.to_json() for f in self.findings],
        }


def _run(cmd: list[str], cwd: Path | None = None) -> tuple[int, str]:
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=PROBE_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, str(exc)
    return proc.returncode, (proc.stdout or proc.stderr).strip()


GET_LEAN = "run `lemmaforge setup` (installs elan, Lean and Mathlib through lean-interact; needs the internet)"


def check_lean(report: DoctorReport, cfg: VerifierConfig) -> bool:
    # The kimina backend checks on the server: a local Lean is then only worth knowing about.
    from lemmaforge.lean.lake import find_lake

    absent = "info" if cfg.backend == "kimina" else "missing"
    lake = find_lake(cfg.lake_path)
    if lake is None:
        where = f"at {cfg.lake_path}" if "/" in cfg.lake_path else "on PATH or in ~/.elan/bin"
        needed = " (not needed by the kimina backend)" if cfg.backend == "kimina" else ""
        report.add("lean", absent, f"lake / Lean not found {where}{needed}", fix=GET_LEAN)
        return False
    code, text = _run([lake, "--version"])
    if code != 0:
        report.add("lean", "error", f"`{lake} --version` failed: {text[:200]}", fix=GET_LEAN)
        return False
    report.add("lean", "ok", f"{lake}: {text.splitlines()[0] if text else 'lake'}")
    return True


def check_project(report: DoctorReport, cfg: VerifierConfig) -> bool:
    """The Lean project the repl / lake backends check in: a Lake project (lakefile), its
    toolchain, and Mathlib in its `lake-manifest.json` (what `lake update` resolved)."""
    if cfg.project is None:
        if cfg.backend == "lake":
            report.add("lean project", "missing", "the lake backend needs a Lean project with Mathlib built",
                       fix="set LEMMAFORGE_LEAN_PROJECT or verifier.project (`lemmaforge setup` makes one)")
            return False
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
    if not any((project / name).is_file() for name in LAKEFILES):
        report.add("lean project", "error", f"{project} is not a Lake project (no lakefile.lean or lakefile.toml)",
                   fix="point verifier.project at the project's root directory")
        return False
    toolchain = project / "lean-toolchain"
    version = toolchain.read_text(encoding="utf-8").strip() if toolchain.is_file() else "unknown"
    mathlib = mathlib_version(project)
    if mathlib is None:
        if not (project / "lake-manifest.json").is_file():
            why, fix = "no lake-manifest.json: its dependencies were never resolved", "run `lake update` in the project"
        else:
            why = "lake-manifest.json does not list mathlib"
            fix = "add `require mathlib` to the lakefile and run `lake update && lake exe cache get`"
        report.add("lean project", "error", f"{project} (toolchain {version}): {why}", fix=fix)
        return False
    report.add("lean project", "ok", f"{project} (toolchain {version}, Mathlib {mathlib})")
    return True


LAKEFILES = ("lakefile.lean", "lakefile.toml")


def check_repl(report: DoctorReport, cfg: VerifierConfig) -> None:
    version = package_version("lean-interact")
    if version is None:
        report.add("lean-interact", "missing", "not installed", fix="pip install lean-interact")
        return
    report.add("lean-interact", "ok", version)
    if cfg.repl_path is not None:
        binary = cfg.repl_path / ".lake" / "build" / "bin" / "repl"
        status = "ok" if binary.is_file() else "missing"
        report.add("repl", status, str(binary), fix=None if status == "ok" else "run `lake build` in the REPL checkout")


def check_sandbox(report: DoctorReport, cfg: VerifierConfig) -> bool:
    """bubblewrap, which the repl / lake backends run Lean under (lean/sandbox.py)."""
    from lemmaforge.lean.sandbox import INSTALL_HINT, sandbox_status

    status = sandbox_status()
    found = f"{status.version or 'bwrap'} at {status.path}" if status.path else "bwrap not found"
    if cfg.backend == "kimina":
        report.add("sandbox", "info", f"{found}; not used by the kimina backend (Lean runs on the server)")
        return True
    if not cfg.sandbox:
        report.add("sandbox", "info", f"off (verifier.sandbox = false): Lean runs as you, with your files and "
                   f"network ({found})", fix="set [verifier] sandbox = true")
        return True
    if status.usable:
        report.add("sandbox", "ok", f"{found}: Lean runs with read-only files, no home, no network")
        check_sandbox_settings(report, cfg, status.path or "bwrap")
        return True
    detail = found if status.path is None else f"{found} cannot create a sandbox here: {status.problem}"
    report.add("sandbox", "missing" if status.path is None else "error", detail, fix=INSTALL_HINT)
    return False


def check_sandbox_settings(report: DoctorReport, cfg: VerifierConfig, bwrap: str) -> None:
    """What the sandbox really gives Lean here, read from inside it (lean/sandbox.py
    `effective_settings`): uid, capabilities, seccomp, the /tmp, process and memory limits, and
    the protections this bwrap lacks. A weaker sandbox is reported, never assumed away."""
    from lemmaforge.lean.sandbox import PROTECTIONS, Sandbox, effective_settings

    sandbox = Sandbox(bwrap, (), tmp_mb=cfg.sandbox_tmp_mb, max_processes=cfg.sandbox_max_processes,
                      memory_mb=cfg.memory_limit_mb)
    settings = effective_settings(sandbox)
    report.sandbox = settings
    caps = ("dropped" if settings["capabilities_dropped"]
            else f"NOT dropped (CapEff {settings['capabilities_inside']})")
    memory = f"{settings['memory_mb']} MiB (RLIMIT_AS)" if settings["memory_mb"] else "unlimited"
    detail = (f"uid {settings['uid_inside']} inside; capabilities {caps}; seccomp "
              f"{'on' if settings['seccomp'] else 'OFF'}; /tmp: {settings['tmp_limit']}; processes: "
              f"{settings['process_limit']}; memory: {memory}")
    weak = [f"{flag} ({PROTECTIONS[flag]})" for flag in settings["missing"]]
    if not settings["seccomp"]:
        weak.append(f"seccomp: {settings['seccomp_detail']}")
    if not settings["capabilities_dropped"]:
        weak.append("capabilities")
    if settings["process_limit"].startswith("none"):
        weak.append("no process limit")
    if weak:
        report.add("sandbox settings", "info", f"{detail}; weaker here: {'; '.join(weak)}",
                   fix="bubblewrap 0.8 or newer has every protection; see docs/sandbox.md")
    else:
        report.add("sandbox settings", "ok", detail + "; this bwrap has every protection lemmaforge uses")


def check_kimina(report: DoctorReport, cfg: VerifierConfig) -> bool:
    """One `GET /health` with the API key the verifier would send (`KiminaVerifier.ping`)."""
    from lemmaforge.lean.kimina import KiminaVerifier
    from lemmaforge.lean.verifier import VerifierError

    async def ping() -> str:
        verifier = KiminaVerifier.from_config(cfg)
        try:
            return await verifier.ping()
        finally:
            await verifier.close()

    try:
        detail = asyncio.run(ping())
    except VerifierError as exc:
        message = str(exc)
        fix = (f"set ${cfg.kimina_api_key_env} to the server's API key" if "API key" in message
               else "start a Kimina Lean Server or set verifier.kimina_url")
        report.add("kimina", "error", message, fix=fix)
        return False
    report.add("kimina", "ok", detail)
    return True


_VERSION = re.compile(r"(?:version\s+|\")v?(\d+\.\d+\.\d+(?:-[\w.]+)?)")


def lean_version_local(report: DoctorReport, cfg: VerifierConfig) -> None:
    """The Lean the repl / lake backends will run: `lake env lean --version` in the project (the
    toolchain elan picks there), else the version lean-interact's own project is made for."""
    from lemmaforge.lean.lake import find_lake

    lake = find_lake(cfg.lake_path)
    if cfg.project is None or lake is None or not cfg.project.is_dir():
        if cfg.backend == "repl" and cfg.project is None:
            report.lean_version = cfg.lean_version.lstrip("v")
            report.add("lean version", "info", f"{cfg.lean_version} (lean-interact's Mathlib project; verifier.lean_version)")
        return
    code, text = _run([lake, "env", "lean", "--version"], cwd=cfg.project)
    found = _VERSION.search(text) if code == 0 else None
    if found is None:
        report.add("lean version", "error", f"`lake env lean --version` in {cfg.project} failed: {text[:200]}",
                   fix="run `lake build` in the project, or `lemmaforge setup --project DIR`")
        return
    report.lean_version = found.group(1)
    report.add("lean version", "ok", f"Lean {found.group(1)} in {cfg.project}")


def lean_version_kimina(report: DoctorReport, cfg: VerifierConfig) -> None:
    """Ask the Kimina server's Lean for its version: the one check that says which Lean the
    server runs (its /health does not). The same probe `bench` sends (`kimina.server_lean_version`:
    fixed product text, never a model's); bounded; never raises."""
    from lemmaforge.lean.kimina import server_lean_version

    version = server_lean_version(cfg.kimina_url, api_key=os.environ.get(cfg.kimina_api_key_env) or None)
    if version is None:
        report.add("lean version", "error", f"the Kimina server at {cfg.kimina_url} did not say its Lean version",
                   fix="check the server's logs (its first check imports Mathlib)")
        return
    report.lean_version = version.lstrip("v")
    report.add("lean version", "ok", f"Lean {report.lean_version} on the Kimina server at {cfg.kimina_url}")


def check_memory(report: DoctorReport, cfg: VerifierConfig) -> None:
    """RAM against workers × per-worker memory: only the repl backend runs Lean workers here."""
    total = total_ram_mb()
    per = min(REPL_RAM_MB, cfg.memory_limit_mb or REPL_RAM_MB)
    need = cfg.workers * per
    report.memory = {"total_mb": total, "workers": cfg.workers, "per_worker_mb": per, "needed_mb": need,
                     "memory_limit_mb": cfg.memory_limit_mb}
    if cfg.backend != "repl":
        report.add("memory", "info", f"{total / 1024:.0f} GB RAM; the {cfg.backend} backend runs no REPL workers here")
        return
    detail = (f"{cfg.workers} worker(s) × {per / 1024:.0f} GB = {need / 1024:.0f} GB of {total / 1024:.0f} GB RAM"
              f" (address-space limit {cfg.memory_limit_mb} MB each)")
    if total and need > total:
        fitting = max(1, (total - RAM_RESERVE_MB) // per)
        report.add("memory", "error", detail + ": workers will be killed for memory",
                   fix=f"set [verifier] workers = {fitting} (or LEMMAFORGE_VERIFIER__WORKERS={fitting})")
    else:
        report.add("memory", "ok", detail)


def note_models(report: DoctorReport, settings: Settings, probes: dict[str, LLMProbe]) -> None:
    """Which model each role will send its requests to (`model_choice.choose_model`, the rule
    `prove` and `bench` apply), or that none can be chosen."""
    for role, probe in probes.items():
        endpoint: LLMEndpoint = getattr(settings, role)
        report.models[role] = probe.model
        if not endpoint.url:
            continue
        if probe.model:
            report.add(f"{role} model", "ok", f"{probe.model} ({probe.how})")
        elif probe.unchosen:
            report.add(f"{role} model", "error", f"none: {probe.detail}; prove and bench stop with exit 2",
                       fix=f"{probe.fix}. {MODEL_RULE}")
        else:
            report.add(f"{role} model", "info", "? (unknown until the server answers)")


@dataclass(frozen=True, slots=True)
class LLMProbe:
    """What one `GET {url}/models` says about an endpoint: the probe `doctor` shows and `prove`,
    `bench` and `train` run before spending budget (`require_llm`).

    `status`: "ok"; "misconfigured" (wrong URL, key or model: retrying cannot help);
    "unavailable" (unreachable, 5xx, 429: may come back); "missing" (an in-process backend whose
    package is not installed); "info" (no endpoint configured)."""

    status: str
    detail: str
    fix: str | None = None
    models: tuple[str, ...] = ()
    model: str | None = None  # the model the role will use (`model_choice.choose_model`)
    how: str = ""  # how that model was chosen, in words
    unchosen: bool = False  # the server answered, but the rule chooses no model (misconfigured)


def probe_llm(role: str, endpoint: LLMEndpoint, *, timeout: float = PROBE_TIMEOUT) -> LLMProbe:
    """Does the endpoint answer, accept our key and serve the configured model? One request."""
    if not endpoint.url:
        return LLMProbe("info", "no endpoint configured",
                        f"set {role}.url (an OpenAI-compatible server, e.g. `vllm serve MODEL`) and {role}.model")
    from lemmaforge.agent.backends.hf_local import TRANSFORMERS_MISSING
    from lemmaforge.agent.backends.vllm_offline import VLLM_MISSING
    from lemmaforge.agent.llm import backend_of

    try:
        kind = backend_of(endpoint.url, endpoint.backend)
    except ValueError as exc:
        return LLMProbe("misconfigured", str(exc), f"fix {role}.backend")
    if kind != "openai":  # an in-process engine: nothing to reach, only a package to import
        package, missing = ("vllm", VLLM_MISSING) if kind == "vllm" else ("transformers", TRANSFORMERS_MISSING)
        if importlib.util.find_spec(package) is None:
            return LLMProbe("missing", missing)
        scheme = f"{kind if kind == 'vllm' else 'hf'}://"
        from_url = endpoint.url[len(scheme):] if endpoint.url.startswith(scheme) else None
        return LLMProbe("ok", f"{endpoint.url} ({package} {package_version(package)}; loaded when a run starts)",
                        model=endpoint.model or from_url, how="named" if endpoint.model else "the model the URL names")
    url = endpoint.url.rstrip("/")
    if not url.startswith(("http://", "https://")):
        return LLMProbe("misconfigured", f"{url!r} is not an http(s) URL, vllm://MODEL or hf://MODEL", f"fix {role}.url")
    headers = {}
    key = os.environ.get(endpoint.api_key_env)
    if key:
        headers["Authorization"] = f"Bearer {key}"
    try:
        resp = httpx.get(f"{url}/models", headers=headers, timeout=timeout)
    except httpx.HTTPError as exc:
        return LLMProbe("unavailable", f"{url} unreachable: {type(exc).__name__}", "start the server or fix the URL")
    if resp.status_code != 200:
        if resp.status_code in (401, 403):
            fix = f"check the API key in ${endpoint.api_key_env}"
        elif resp.status_code == 404:
            fix = f"check {role}.url: an OpenAI-compatible base URL ends in /v1"
        else:
            fix = "start the server, or wait until it is healthy"
        status = "unavailable" if resp.status_code in (408, 429) or resp.status_code >= 500 else "misconfigured"
        return LLMProbe(status, f"{url}/models answered HTTP {resp.status_code}", fix)
    try:
        body = resp.json()
        models = tuple(str(m["id"]) for m in body["data"])
    except (ValueError, KeyError, TypeError):  # not JSON, or not {"data": [{"id": …}]}
        return LLMProbe("misconfigured", f"{url}/models did not answer an OpenAI model list",
                        f"check {role}.url points at an OpenAI-compatible server")
    choice = choose_model(role, endpoint.model, models)
    if not choice.ok:
        return LLMProbe("misconfigured", f"{url} {choice.problem}", choice.fix, models, unchosen=True)
    served = ", ".join(models) or "models not listed"
    return LLMProbe("ok", f"{url} (serves {served}; using {choice.model}, {choice.how})", None, models,
                    choice.model, choice.how)


def require_llm(role: str, endpoint: LLMEndpoint, *, attempts: int = 3) -> LLMProbe:
    """`probe_llm`, raised: LLMMisconfiguredError at once, LLMUnavailableError once `attempts`
    probes `endpoint.backoff` seconds apart (doubling) all found the endpoint unavailable. Returns
    the probe that passed (its `models`: what the server lists)."""
    import time

    from lemmaforge.agent.llm import LLMMisconfiguredError, LLMUnavailableError

    where = f"[{role}] LLM endpoint" + (f" (model {endpoint.model})" if endpoint.model else "")
    for attempt in range(max(1, attempts)):
        probe = probe_llm(role, endpoint)
        if probe.status in ("ok", "info"):
            return probe
        if probe.status in ("misconfigured", "missing"):
            raise LLMMisconfiguredError(probe.detail, backend=where, fix=probe.fix or "")
        if attempt + 1 < attempts:
            time.sleep(min(endpoint.backoff * 2**attempt, endpoint.backoff_max))
    raise LLMUnavailableError(f"{probe.detail} ({attempts} probes)", backend=where, fix=probe.fix or "")


#: seconds one health request to the verifier may take before the first check (the preflight)
VERIFIER_HEALTH_DEADLINE = 5.0
KIMINA_FIX = "start the Kimina Lean Server, or give its URL with --kimina-url (verifier.kimina_url)"


def require_verifier(cfg: VerifierConfig, *, attempts: int = 3) -> str | None:
    """Before the first check: a remote verifier answers. For the kimina backend, `GET /health`
    (`KiminaVerifier.ping`), at most `attempts` tries of `VERIFIER_HEALTH_DEADLINE` seconds each,
    `kimina_retry_wait` seconds apart (doubling): a wrong URL fails in seconds, as an LLM
    endpoint's probe does (`require_llm`), not after a check's minute of retries. Raises
    VerifierMisconfigured at once (wrong URL or key), VerifierUnavailable when every try found the
    server down; the fix says what to do, and the command adds what fits it (`bench`: how to
    resume). The local backends (repl, lake) have nothing to reach: None. Blocking: call it
    before the event loop, or through a thread."""
    if cfg.backend != "kimina":
        return None
    import time

    from lemmaforge.lean.kimina import KiminaVerifier
    from lemmaforge.lean.verifier import VerifierError, VerifierMisconfigured, VerifierUnavailable

    async def ping() -> str:
        verifier = KiminaVerifier.from_config(cfg)
        try:
            return await verifier.ping(deadline=VERIFIER_HEALTH_DEADLINE)
        finally:
            await verifier.close()

    last: VerifierError | None = None
    for attempt in range(max(1, attempts)):
        try:
            return asyncio.run(ping())
        except VerifierMisconfigured as exc:
            fix = (f"set ${cfg.kimina_api_key_env} to the server's API key" if "API key" in str(exc) else KIMINA_FIX)
            raise VerifierMisconfigured(str(exc), fix=fix) from None
        except VerifierError as exc:
            last = exc
        if attempt + 1 < attempts:
            time.sleep(min(cfg.kimina_retry_wait * 2**attempt, 5.0))
    raise VerifierUnavailable(f"{last} ({attempts} health requests)", fix=KIMINA_FIX)


def check_llm(report: DoctorReport, role: str, endpoint: LLMEndpoint) -> LLMProbe:
    probe = probe_llm(role, endpoint)
    status = {"misconfigured": "error", "unavailable": "error"}.get(probe.status, probe.status)
    report.add(f"{role} LLM", status, probe.detail, fix=probe.fix)
    return probe


def check_gpu(report: DoctorReport) -> None:
    smi = shutil.which("nvidia-smi")
    if smi:
        code, text = _run([smi, "--query-gpu=name,memory.total", "--format=csv,noheader"])
        if code == 0 and text:
            report.add("gpu", "ok", "; ".join(text.splitlines()))
            return
    report.add("gpu", "info", "no NVIDIA GPU found (needed only for vLLM serving and training real models)")


def check_database(report: DoctorReport, db_url: str) -> None:
    if not db_url.startswith("sqlite:///"):
        report.add("database", "info", db_url.split("@")[-1])  # never print credentials
        return
    raw = db_url[len("sqlite:///") :].split("?", 1)[0]
    if raw in ("", ":memory:"):
        report.add("database", "info", "in memory: nothing is kept after the run")
        return
    path = Path(raw).expanduser()
    problem = _unwritable(path)
    if problem is not None:
        report.add("database", "error", f"cannot write {path}: {problem}", fix="use --db with a writable location")
        return
    report.add("database", "ok", f"{db_url}{'' if path.exists() else ' (created on first run)'}")


def _unwritable(path: Path) -> str | None:
    """Why the SQLite file `path` cannot be written (None: it can). Probes by writing a temporary
    file in the nearest existing folder: permission bits say nothing for root or read-only mounts."""
    if path.exists():
        if not path.is_file():
            return "not a regular file"
        return None if os.access(path, os.W_OK) else "the file is read-only"
    existing = next((p for p in path.parents if p.exists()), None)
    if existing is None or not existing.is_dir():
        return f"{existing} is not a directory"
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


def diagnose(settings: Settings) -> DoctorReport:
    cfg = settings.verifier
    report = DoctorReport(backend=cfg.backend)
    report.add("lemmaforge", "ok", f"{__version__} on Python {platform.python_version()}")
    lean_ok = check_lean(report, cfg)
    project_ok = check_project(report, cfg)
    check_repl(report, cfg)
    sandbox_ok = check_sandbox(report, cfg)
    if cfg.backend == "kimina":
        report.verifier_ready = check_kimina(report, cfg)
        if report.verifier_ready:
            lean_version_kimina(report, cfg)
    else:
        report.verifier_ready = lean_ok and project_ok and sandbox_ok
        if lean_ok:
            lean_version_local(report, cfg)
    check_memory(report, cfg)
    probes = {role: check_llm(report, role, getattr(settings, role)) for role in ("planner", "prover")}
    note_models(report, settings, probes)
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
        table.add_row(f.name, f"[{_STYLE[f.status]}]{f.status}[/]", escape(f.detail), escape(f.fix or ""))
    console.print(table)
    verdict = "[green]ready[/]" if report.verifier_ready else "[red]not ready[/]"
    console.print(f"verifier '{report.backend}': {verdict}")


# --- `doctor --selftest`: the judge calibrated on this Lean (lean/audit/selftest/) ----------------------


@dataclass(slots=True)
class SelftestReport:
    """A selftest on the configured verifier: the toolchain, each case's verdict, and the record."""

    toolchain: Any  # lean.audit.selftest.Toolchain
    result: Any  # lean.audit.selftest.SelftestResult
    recorded: str | None = None  # the record file written
    record_error: str | None = None  # why it could not be written (the verdicts stand)
    removed: bool = False  # a failure removed the pass on record for this toolchain

    @property
    def ok(self) -> bool:
        return bool(self.result.ok)

    def to_json(self) -> dict[str, Any]:
        return {"selftest": True, "toolchain": self.toolchain.to_json(), **self.result.to_json(),
                "recorded": self.recorded, "record_error": self.record_error, "removed_pass": self.removed}


def selftest(settings: Settings) -> SelftestReport:
    """Run the shipped calibration cases through the whole audit on the configured verifier
    (lean/audit/selftest/_run.py), and record the outcome for its toolchain. Raises VerifierError when the
    verifier cannot be used at all (then nothing is recorded)."""
    from lemmaforge.lean.audit.selftest import (
        calibration_digest,
        load_cases,
        passed_record,
        record_selftest,
        run_cases,
        toolchain_of,
    )
    from lemmaforge.lean.backends import make_verifier
    from lemmaforge.lean.kimina import KIMINA_CLIENT_KEY_ENV, server_lean_version

    cases = load_cases()
    cfg = settings.verifier
    kimina_lean = None
    if cfg.backend == "kimina":
        key = os.environ.get(cfg.kimina_api_key_env) or os.environ.get(KIMINA_CLIENT_KEY_ENV) or None
        kimina_lean = server_lean_version(cfg.kimina_url, api_key=key, timeout=min(cfg.timeout, 60.0))
        # every text of the calibration in one /api/check request (transport only: the verdicts
        # are the same in any batching)
        cfg = cfg.model_copy(update={"kimina_batch_size": max(cfg.kimina_batch_size, 2 * len(cases)),
                                     "kimina_spread_requests": 1})
    toolchain = toolchain_of(cfg, kimina_lean=kimina_lean)

    async def run() -> Any:
        verifier = make_verifier(cfg)
        try:
            return await run_cases(verifier, cases, timeout=cfg.timeout)
        finally:
            await verifier.close()

    result = asyncio.run(run())
    report = SelftestReport(toolchain, result, removed=not result.ok and passed_record(toolchain) is not None)
    try:
        report.recorded = str(record_selftest(toolchain, passed=result.ok, details={
            "lemmaforge": __version__, "calibration": calibration_digest(), "cases": len(cases),
            "seconds": round(result.seconds, 2)}))
    except OSError as exc:
        report.record_error = f"{exc.strerror or type(exc).__name__}: {exc.filename or ''}".strip()
    return report


def render_selftest(report: SelftestReport, console: Console) -> None:
    """Each verdict, then what Lean answered that the judge does not expect, then the summary.
    Case texts, Lean's messages and paths are printed inert (no rich markup)."""

    def say(text: str = "") -> None:
        console.print(text, highlight=False, markup=False, soft_wrap=True)

    result = report.result
    say(f"lemmaforge doctor --selftest: {report.toolchain.words()}")
    width = max(len(o.case.id) for o in result.outcomes)
    for o in result.outcomes:
        mark = "ok      " if o.as_expected else "MISMATCH"
        where = "" if o.decided_by == "lean" else " (text layer, before Lean)"
        say(f"  {mark} {o.case.id:<{width}}  {o.verdict}{where}; expected {o.case.expected()}")
        say(f"           {o.case.construct}; calibrates: {o.case.lean}")
        if not o.as_expected:
            for r in o.report.reasons[:6]:
                say(f"           - {r}")
    if result.problems:
        say("")
        say("Where Lean's answers are not what the judge expects:")
        for problem, ids in result.problems:
            say(f"  - {problem.headline} ({', '.join(ids)}): {problem.detail}")
    say("")
    verdict = "every case as expected" if result.ok else f"{len(result.outcomes) - result.expected} case(s) NOT as expected"
    say(f"{result.expected} of {len(result.outcomes)} cases as expected ({verdict}) in {result.seconds:.1f} s, "
        f"{result.sent} check(s) sent to Lean")
    if report.recorded and result.ok:
        say(f"recorded as passing for this toolchain in {report.recorded}")
    elif report.recorded:
        say("not recorded as passing" + (f"; the pass on record for this toolchain was removed from {report.recorded}"
                                         if report.removed else ""))
    elif report.record_error:
        say(f"warning: could not write the record ({report.record_error})")

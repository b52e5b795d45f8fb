"""`lake env lean --json FILE` backend: one fresh Lean process per whole file.

The slowest backend (every check re-imports Mathlib, seconds each) and the simplest: no REPL, no
server, only the Lean project the user already has. It cannot report holes with goals or proof
states; a `sorry` shows as Lean's "declaration uses 'sorry'" warning, so the result is INCOMPLETE
with no holes.

`lean --json` prints one JSON object per message, one per line (`Lean.Language.reportMessages`:
`IO.println (← msg.toJson).compress`, silent messages skipped). The object is Lean's
`SerialMessage`: `{"fileName", "pos": {"line", "column"}, "endPos"?, "keepFullRange", "severity":
"information"|"warning"|"error", "isSilent", "caption", "data", "kind"}`; older Lean versions lack
some of these. `lean` exits 1 when there was an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import signal
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lemmaforge import sending
from lemmaforge.config import VerifierConfig
from lemmaforge.lean.lake._setup import find_lake
from lemmaforge.lean.sandbox import (
    DATA_DIR,
    DEFAULT_MAX_PROCESSES,
    DEFAULT_TMP_MB,
    Launch,
    Sandbox,
    make_sandbox,
)
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Goal,
    ProofStatesUnsupported,
    TacticResult,
    VerifierMisconfigured,
)

LAKEFILES = ("lakefile.lean", "lakefile.toml")
# `lean --json` severities are MessageSeverity's constructor names; the REPL (and Severity) say "info".
SEVERITIES = {"information": "info", "info": "info", "warning": "warning", "error": "error", "trace": "trace"}
PING_TIMEOUT_S = 60.0
SANDBOX_CHECK_FILE = f"{DATA_DIR}/Check.lean"  # where the checked file is, inside the sandbox
STDERR_TAIL_CHARS = 500


class LakeVerifier:
    """Checks whole files with `lake env lean --json` inside a Lean project; no proof states."""

    name = "lake"
    supports_proof_states = False

    def __init__(
        self,
        project: Path | str | None,
        *,
        lake_path: str = "lake",
        workers: int = 1,
        timeout: float = 120.0,
        memory_limit_mb: int | None = None,
        sandbox: bool = False,
        sandbox_paths: Sequence[Path] = (),
        sandbox_tmp_mb: int = DEFAULT_TMP_MB,
        sandbox_max_processes: int = DEFAULT_MAX_PROCESSES,
    ) -> None:
        self.project = _lake_project(project)
        self.lake = _find_lake(lake_path)
        # Lean under bwrap (lean/sandbox.py): the project and toolchain read-only, the checked file
        # passed in from memory, a size-limited /tmp of its own, no network, no capability. Raises
        # SandboxUnavailable when it cannot run.
        self.sandbox: Sandbox | None = (
            make_sandbox([self.project, *sandbox_paths], lake=self.lake, tmp_mb=sandbox_tmp_mb,
                         max_processes=sandbox_max_processes, memory_mb=memory_limit_mb) if sandbox else None
        )
        self.timeout = timeout
        self.memory_limit_mb = memory_limit_mb
        self._slots = asyncio.Semaphore(max(1, workers))
        self._running: set[asyncio.subprocess.Process] = set()

    @classmethod
    def from_config(cls, cfg: VerifierConfig) -> LakeVerifier:
        return cls(
            cfg.project,
            lake_path=cfg.lake_path,
            workers=cfg.workers,
            timeout=cfg.timeout,
            memory_limit_mb=cfg.memory_limit_mb,
            sandbox=cfg.sandbox,
            sandbox_paths=cfg.sandbox_paths,
            sandbox_tmp_mb=cfg.sandbox_tmp_mb,
            sandbox_max_processes=cfg.sandbox_max_processes,
        )

    # --- Verifier protocol -----------------------------------------------------------------

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult:
        limit = self.timeout if timeout is None else timeout
        sending.queued()
        async with self._slots:
            sending.sent()  # past the worker slot: Lean runs it now (a run's budget charges it here)
            if self.sandbox is not None:  # the file is copied in from memory: no host directory
                return await self._run_lean(Path(SANDBOX_CHECK_FILE), limit, files={SANDBOX_CHECK_FILE: code})
            with tempfile.TemporaryDirectory(prefix="lemmaforge-lake-") as tmp:
                # Outside the project: `lake env` puts the project's build on LEAN_PATH, so imports
                # resolve from anywhere, and the user's source tree stays untouched.
                path = Path(tmp) / "Check.lean"
                path.write_text(code, encoding="utf-8")
                return await self._run_lean(path, limit)

    async def check_many(self, codes: Sequence[str], *, timeout: float | None = None) -> list[CheckResult]:
        # `check` takes a worker slot itself, so plain gather is bounded by `workers`.
        return list(await asyncio.gather(*(self.check(code, timeout=timeout) for code in codes)))

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        raise ProofStatesUnsupported(
            "the lake backend checks whole files only; use the repl backend for tactics"
        )

    async def close(self) -> None:
        for process in list(self._running):
            _kill_group(process)

    async def ping(self) -> str:
        """`lake --version` run in the project; raises VerifierError when lake cannot run there."""
        process = await self._spawn([self.lake, "--version"])
        try:
            out, err = await asyncio.wait_for(process.communicate(), PING_TIMEOUT_S)
        except TimeoutError:
            await _kill_and_reap(process)
            raise VerifierMisconfigured(
                f"'{self.lake} --version' did not answer within {PING_TIMEOUT_S:.0f}s"
            ) from None
        if process.returncode != 0:
            raise VerifierMisconfigured(f"'{self.lake} --version' failed in {self.project}: {_tail(err or out)}")
        return _tail(out.splitlines()[0] if out.strip() else out)

    # --- one run ------------------------------------------------------------------------------

    async def _run_lean(self, path: Path, limit: float, files: dict[str, str] | None = None) -> CheckResult:
        started = time.monotonic()
        process = await self._spawn([self.lake, "env", "lean", "--json", str(path)], files=files)
        self._running.add(process)
        try:
            out, err = await asyncio.wait_for(process.communicate(), limit)
        except TimeoutError:
            await _kill_and_reap(process)
            return CheckResult(
                status=CheckStatus.TIMEOUT,
                time=time.monotonic() - started,
                backend=self.name,
                error=f"lean ran past the time limit of {limit:g}s and was killed",
            )
        except asyncio.CancelledError:
            await _kill_and_reap(process)
            raise
        finally:
            self._running.discard(process)
        return self._result(out, err, process.returncode, time.monotonic() - started)

    async def _spawn(self, argv: list[str], files: dict[str, str] | None = None) -> asyncio.subprocess.Process:
        """Start `argv` in the project; sandboxed, with `files` (path inside → text) visible
        read-only, and the sandbox's launch cleaned up once the process is reaped."""
        launch: Launch | None = None
        try:
            if self.sandbox is not None:
                launch = self.sandbox.prepare(
                    argv, cwd=self.project, files={k: v.encode("utf-8") for k, v in (files or {}).items()})
                process = await launch.start(
                    stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            else:
                process = await asyncio.create_subprocess_exec(
                    *argv,
                    cwd=self.project,
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                    # Own process group: a timeout kills lake *and* the lean it started.
                    start_new_session=True,
                    preexec_fn=_memory_limiter(self.memory_limit_mb),
                )
        except OSError as exc:
            raise VerifierMisconfigured(f"cannot run '{argv[0]}' in {self.project}: {exc.strerror or exc}") from None
        if launch is not None:
            _finish_when_done(process, launch)
        return process

    def _result(self, out: bytes, err: bytes, returncode: int | None, elapsed: float) -> CheckResult:
        messages, stray = parse_lean_json(out.decode("utf-8", errors="replace"))
        result = CheckResult.from_repl_response({"messages": messages}, time=elapsed, backend=self.name)
        result.raw = {
            "returncode": returncode,
            "messages": messages,
            "stderr": _tail(err.decode(errors="replace")),
        }
        if returncode != 0 and not result.errors:
            # Lean died (signal, out of memory, panic) or lake itself failed (no toolchain, bad
            # lakefile): nothing Lean said explains the failure.
            why = (
                _tail(err.decode(errors="replace")) or _tail("\n".join(stray)) or f"exit status {returncode}"
            )
            result.status = CheckStatus.CRASHED
            result.error = f"lake env lean exited with {returncode}: {why}"
        return result


# --- parsing ---------------------------------------------------------------------------------------


def parse_lean_json(stdout: str) -> tuple[list[dict[str, Any]], list[str]]:
    """`lean --json` output → (REPL-style messages, lines that were not messages)."""
    messages: list[dict[str, Any]] = []
    stray: list[str] = []
    for line in stdout.splitlines():
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            stray.append(line)
            continue
        if isinstance(obj, dict) and "severity" in obj and "data" in obj:
            messages.append(_repl_message(obj))
        else:
            stray.append(line)
    return messages, stray


def _repl_message(obj: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {
        "severity": SEVERITIES.get(str(obj["severity"]), "error"),
        "data": str(obj["data"]),
    }
    for key in ("pos", "endPos"):
        if isinstance(obj.get(key), dict):  # `endPos` may be absent or null
            message[key] = obj[key]
    return message


# --- set-up checks -----------------------------------------------------------------------------------


def _lake_project(project: Path | str | None) -> Path:
    if project is None:
        raise VerifierMisconfigured(
            "the lake backend needs a Lean project: set verifier.project (or LEMMAFORGE_LEAN_PROJECT) "
            "to a Lake project with Mathlib built"
        )
    path = Path(project).expanduser().resolve()
    if not path.is_dir():
        raise VerifierMisconfigured(
            f"Lean project not found: {path} (set verifier.project to an existing Lake project)"
        )
    if not any((path / name).is_file() for name in LAKEFILES):
        raise VerifierMisconfigured(f"{path} is not a Lake project: it has no {' or '.join(LAKEFILES)}")
    return path


def _find_lake(lake_path: str) -> str:
    found = find_lake(lake_path)
    if found is None:
        raise VerifierMisconfigured(
            f"'{lake_path}' not found: install Lean with `lemmaforge setup --install-lean` or elan "
            "(https://leanprover-community.github.io/get_started.html), or set verifier.lake_path"
        )
    return os.path.abspath(found)  # lake runs with cwd = the project: a relative path would break


def _memory_limiter(limit_mb: int | None) -> Callable[[], None] | None:
    if not limit_mb:
        return None
    limit = limit_mb * 1024 * 1024

    def set_limit() -> None:  # runs in the child between fork and exec
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return set_limit


# --- processes ------------------------------------------------------------------------------------


def _finish_when_done(process: asyncio.subprocess.Process, launch: Launch) -> None:
    async def finish() -> None:
        with contextlib.suppress(Exception):
            await process.wait()
        try:  # its cgroup may take a moment to let go of the exited tasks: not on the loop's thread
            await asyncio.to_thread(launch.finished)
        except RuntimeError:  # the loop's executor is shut down: right here, then
            launch.finished()
        except asyncio.CancelledError:
            launch.finished()
            raise

    task = asyncio.get_running_loop().create_task(finish())
    _cleanups.add(task)  # a task nothing references may be collected before it runs
    task.add_done_callback(_cleanups.discard)


_cleanups: set[asyncio.Task[None]] = set()


def _kill_group(process: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)  # the group id is the pid (start_new_session)


async def _kill_and_reap(process: asyncio.subprocess.Process) -> None:
    _kill_group(process)
    with contextlib.suppress(ProcessLookupError):
        await process.wait()


def _tail(text: str | bytes) -> str:
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    flat = " ".join(text.split())
    return flat if len(flat) <= STDERR_TAIL_CHARS else "…" + flat[-STDERR_TAIL_CHARS:]

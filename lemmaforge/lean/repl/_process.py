"""One worker of the REPL pool (`_verifier.py`): its state, what one blocking round-trip with its Lean
process produced, the pool's thread-safe counters and the stats built from them, and locating lake and the Lean project that
every process starts in.

The pool schedules workers; this module holds what belongs to a single worker process, so that
the scheduling code reads without it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import platform
import shutil
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lean_interact import LeanREPLConfig, LocalProject, TempRequireProject
from lean_interact.project import BaseProject
from lean_interact.server import LeanServer

from lemmaforge.config import VerifierConfig
from lemmaforge.lean.sandbox import Launch, Sandbox, make_sandbox
from lemmaforge.lean.verifier import CheckStatus, VerifierError, VerifierMisconfigured

log = logging.getLogger("lemmaforge.lean.repl")  # the pool's logger: its messages are the pool's

# What a request gets when the pool was closed under it.
CLOSED = "the REPL verifier was closed"
ABANDONED = "the check was given up before it reached Lean"


@dataclass(slots=True)
class Worker:
    slot: int
    header: str  # the header this worker serves (may differ from loaded_header until prepared)
    server: LeanServer | None = None
    loaded_header: str | None = None  # the header elaborated in the current process
    header_env: int | None = None
    generation: int = 0  # processes started in this slot; proof states are valid within one
    requests: int = 0  # commands and tactic steps sent to the current process
    needs_recycle: bool = False
    busy: bool = False
    last_released: float = 0.0
    busy_seconds: float = 0.0
    inflight: asyncio.Future[Any] | None = None


class Counters:
    """Pool counters. Worker threads bump them concurrently, and `x += 1` on an attribute is not
    atomic across threads, hence the lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.values: dict[str, int] = dict.fromkeys(
            (
                "header_elaborations",
                "checks",
                "tactic_steps",
                "timeouts",
                "crashes",
                "crash_retries",
                "restarts",
                "recycles",
                "header_switches",
            ),
            0,
        )

    def bump(self, name: str) -> None:
        with self._lock:
            self.values[name] += 1


@dataclass(frozen=True, slots=True)
class ReplPoolStats:
    """Counters since the verifier was built. `busy_seconds[i]`: time worker slot i spent in Lean
    requests (header elaborations included)."""

    workers: int
    started_workers: int
    header_elaborations: int
    checks: int
    tactic_steps: int
    timeouts: int
    crashes: int
    crash_retries: int
    restarts: int  # processes started to replace one (after timeout, crash, recycle, header switch)
    recycles: int
    header_switches: int
    busy_seconds: tuple[float, ...]
    wall_seconds: float
    header_seconds: float = 0.0  # of busy time, spent elaborating headers (not useful work)

    @property
    def useful_utilization(self) -> float:
        """Busy time outside header elaboration / (workers × wall − header time): how much of the
        capacity that could check proofs did."""
        capacity = self.workers * self.wall_seconds - self.header_seconds
        return (self.busy_total - self.header_seconds) / capacity if capacity > 0 else 0.0

    @property
    def busy_total(self) -> float:
        return sum(self.busy_seconds)

    @property
    def utilization(self) -> float:
        """Busy time / (workers × wall time): 1.0 means every worker was always in a request."""
        return self.busy_total / (self.workers * self.wall_seconds) if self.wall_seconds > 0 else 0.0


@dataclass(slots=True)
class Outcome:
    """What one blocking round-trip produced (never an exception: those are classified here)."""

    response: dict[str, Any] | None = None
    failure: CheckStatus | None = None  # TIMEOUT or CRASHED
    error: str | None = None
    header_failed: bool = False  # `response` is the header's answer, with Lean errors
    seconds: float = 0.0
    probe_response: dict[str, Any] | None = None  # the axiom probe's own answer (check_with_probe)


class Handoff:
    """Whether one check (or tactic step) that has its worker reaches Lean, decided once between
    the worker's thread and the event loop.

    Why: a run's budget charges a request when it leaves the process (lemmaforge/sending.py). A
    check handed a worker may still never reach Lean: the pool closed before its thread wrote to
    the process, or its caller was cancelled before that. Only the thread knows when it writes
    (`start`, just before each request of the check: the first one calls `on_start`, which tells
    the loop); only the loop knows when the caller gives up (`abandon`: the thread then writes
    nothing more for it). The lock makes the two agree, so the count is what was written."""

    __slots__ = ("_abandoned", "_lock", "_on_start", "_started")

    def __init__(self, on_start: Callable[[], object]) -> None:
        self._lock = threading.Lock()
        self._on_start = on_start
        self._started = False
        self._abandoned = False

    def start(self) -> bool:
        """(worker thread) About to write a request of this check to Lean: False if its caller
        gave it up first (then nothing is written)."""
        with self._lock:
            if self._abandoned:
                return False
            first, self._started = not self._started, True
        if first:
            self._on_start()
        return True

    def abandon(self) -> bool:
        """(event loop) The caller was cancelled: True if a request of this check already reached
        Lean; else the thread writes none."""
        with self._lock:
            if not self._started:
                self._abandoned = True
            return self._started

    @property
    def went(self) -> bool:
        """Whether a request of this check reached Lean (read once the thread has answered)."""
        with self._lock:
            return self._started


class SandboxedLeanServer(LeanServer):
    """lean-interact's LeanServer with its process started under `sandbox` (lean/sandbox.py).

    `LeanServer.start` builds the command (`lake env <repl>/.lake/build/bin/repl`, cwd = the
    project or the REPL checkout) inside one Popen call: this is that call with bwrap in front,
    started through the sandbox's `Launch` (the environment by name, RLIMIT_AS and the process
    limit between fork and exec, a start from the long-lived thread so that `--die-with-parent`
    ties the process to lemmaforge, not to the pool thread). Its writable /tmp is a tmpfs inside
    the sandbox: nothing of it is on the host. Everything else (the protocol, the process-tree
    kill) is lean-interact's."""

    def __init__(self, config: LeanREPLConfig, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.launch: Launch | None = None
        super().__init__(config)  # calls start()

    def start(self) -> None:
        self._finish_launch()
        argv = [
            str(self.config.lake_path),
            "env",
            os.path.join(self.config._cache_repl_dir, ".lake", "build", "bin", "repl"),
        ]
        limit = self.config.memory_hard_limit_mb if platform.system() == "Linux" else None
        self.launch = self.sandbox.prepare(argv, cwd=self.config.working_dir, memory_mb=limit)
        self._proc = self.launch.popen(
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            encoding="utf-8",
            text=True,
            bufsize=1,
        )
        if not self.is_alive():
            stdout, stderr = self.get_stdout_stderr()
            raise ChildProcessError(f"The Lean server could not be started:\nstdout: {stdout}\nstderr: {stderr}")

    def kill(self) -> None:
        try:
            super().kill()
        finally:
            self._finish_launch()

    def _finish_launch(self) -> None:
        if self.launch is not None:
            self.launch.finished()
            self.launch = None


def find_lake(lake_path: str) -> str:
    """Absolute path of lake, or VerifierError saying how to get it."""
    candidate = Path(lake_path).expanduser()
    if candidate.is_absolute() or "/" in lake_path:
        if candidate.is_file():
            return str(candidate)
        raise VerifierMisconfigured(f"lake not found at {lake_path}: fix verifier.lake_path or install Lean with `lemmaforge setup`")
    found = shutil.which(lake_path) or shutil.which(str(Path.home() / ".elan" / "bin" / lake_path))
    if found is None:
        raise VerifierMisconfigured(
            f"{lake_path} not found on PATH: install Lean with `lemmaforge setup` (or elan: "
            "https://github.com/leanprover/elan) and make sure ~/.elan/bin is on PATH"
        )
    return found


def local_project(directory: Path, lake: str) -> LocalProject:
    if not (directory / "lean-toolchain").is_file():
        raise VerifierMisconfigured(f"{directory} is not a Lean project (no lean-toolchain file): fix verifier.project")
    # auto_build=False: the project is expected to be built (`lemmaforge setup` / `lake build`);
    # building here would run `lake exe cache get` (network) on every start.
    return LocalProject(directory=str(directory), lake_path=lake, auto_build=False)


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def crash_detail(text: str, label: str) -> str:
    """The first non-empty line after `label` in lean-interact's crash message (its stderr)."""
    at = text.find(label)
    if at < 0:
        return ""
    for line in text[at + len(label) :].splitlines():
        line = line.strip()
        if line.startswith("-" * 10):
            return ""
        if line:
            return line
    return ""


def repl_config_for(cfg: VerifierConfig) -> LeanREPLConfig:
    """The lean-interact config for `cfg`: a local project, or lean-interact's temporary Mathlib
    project for `cfg.lean_version`. Raises VerifierError with one actionable line when Lean / lake
    / the project is missing."""
    lake = find_lake(cfg.lake_path)
    if cfg.sandbox:
        make_sandbox((), lake=lake, tmp_mb=cfg.sandbox_tmp_mb, max_processes=cfg.sandbox_max_processes,
                     memory_mb=cfg.memory_limit_mb)  # no bwrap: say so before lean-interact prepares anything
    try:
        project: BaseProject
        if cfg.project is not None:
            project = local_project(cfg.project, lake)
        else:
            # Builds (or reuses) ~/.../lean_interact/cache/tmp_projects/<version>/...: network
            # and a long build the first time, which `lemmaforge setup` is meant to do.
            project = TempRequireProject(lean_version=cfg.lean_version, require="mathlib", lake_path=lake, verbose=False)
        return LeanREPLConfig(
            project=project,
            local_repl_path=cfg.repl_path,
            build_repl=cfg.repl_path is None,  # a given repl_path is a prebuilt checkout
            lake_path=lake,
            memory_hard_limit_mb=cfg.memory_limit_mb,
        )
    except VerifierError:
        raise
    except Exception as exc:  # lean-interact raises RuntimeError, ValueError, CalledProcessError, git errors
        raise VerifierMisconfigured(f"cannot prepare the Lean REPL: {first_line(exc)}") from exc


def repl_sandbox(cfg: VerifierConfig, repl_config: LeanREPLConfig) -> Sandbox:
    """The sandbox a REPL process of `repl_config` runs in: the project, the REPL checkout and
    lean-interact's cache (where its temporary Mathlib project and REPL builds live) read-only,
    plus `verifier.sandbox_paths` and the toolchain. Raises SandboxUnavailable (one line)."""
    paths = [Path(repl_config.working_dir), Path(repl_config.cache_dir), *cfg.sandbox_paths]
    # lean-interact's own (private) attribute, not one of ours: where it built the REPL. It is set
    # only on some of its setup paths and has no public reader, hence read with a default.
    repl_dir = getattr(repl_config, "_cache_repl_dir", None)
    if repl_dir is not None:
        paths.append(Path(repl_dir))
    if cfg.project is not None:
        paths.append(Path(cfg.project).expanduser().resolve())
    return make_sandbox(paths, lake=str(repl_config.lake_path), tmp_mb=cfg.sandbox_tmp_mb,
                        max_processes=cfg.sandbox_max_processes, memory_mb=cfg.memory_limit_mb)


def describe_crash(exc: BaseException, memory_limit_mb: int | None) -> str:
    """One line for a dead REPL process: what it said on stderr, and the memory cap when it ran out."""
    text = str(exc)
    detail = crash_detail(text, "stderr:") or first_line(exc)
    oom = isinstance(exc, MemoryError) or "out of memory" in text.lower()
    hint = f" (out of memory: memory_limit_mb={memory_limit_mb})" if oom else ""
    return f"the Lean process died ({type(exc).__name__}: {detail}){hint}; it will be restarted"


def retrieve_quietly(future: asyncio.Future[Any]) -> None:
    """Done-callback for a worker call whose caller may have left: its exception is retrieved
    (logged at debug) instead of warned about as never retrieved."""
    if not future.cancelled() and future.exception() is not None:
        log.debug("REPL worker call failed: %r", future.exception())


def ewma(average: float | None, sample: float, weight: float = 0.2) -> float:
    """The running average of Lean's answer times that header switching is weighed with."""
    return sample if average is None else (1 - weight) * average + weight * sample

"""Serving one checkpoint at a time for expert iteration: `ModelServer` runs the user's `serve_cmd`
(e.g. `vllm serve {model} --port {port}`) in its own process group, waits until
`GET {prover_url}/models` answers 200 (polled with httpx, paced and bounded by tenacity), and
stops it (SIGTERM to the group, SIGKILL after 30 s) so that sampling and SFT can share one GPU."""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import signal
import subprocess
import time
from pathlib import Path
from typing import Protocol
from urllib.parse import urlparse

import httpx
from tenacity import Retrying, retry_if_result, stop_after_delay, wait_fixed

from lemmaforge.errors import BackendUnavailable

log = logging.getLogger(__name__)

POLL_INTERVAL = 0.2  # seconds between two readiness probes
PROBE_TIMEOUT = 2.0  # seconds one probe may take


class ServeConfig(Protocol):
    """The fields of the loop's recipe that say how a checkpoint is served."""

    prover_url: str
    serve_cmd: str | None
    serve_timeout: float


class ServeError(BackendUnavailable):
    """The serve command did not come up. One line, with the tail of its log."""


class ModelServer:
    """Runs `serve_cmd` for one checkpoint at a time (no-op without a command)."""

    def __init__(self, cfg: ServeConfig, log_dir: Path) -> None:
        self.cfg = cfg
        self.log_dir = log_dir
        self.current: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._log_path: Path | None = None
        self._starts = 0

    def command(self, model_path: str) -> str:
        url = urlparse(self.cfg.prover_url)
        assert self.cfg.serve_cmd is not None
        return self.cfg.serve_cmd.format(
            model=shlex.quote(model_path), port=url.port or (443 if url.scheme == "https" else 80),
            host=url.hostname or "127.0.0.1",
        )

    def ensure(self, model_path: str) -> None:
        if not self.cfg.serve_cmd:
            return
        if self.current == model_path and self._proc is not None and self._proc.poll() is None:
            return
        self.stop()
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._starts += 1
        self._log_path = self.log_dir / f"serve-{self._starts}.log"
        cmd = self.command(model_path)
        log.info("serving %s: %s", model_path, cmd)
        with self._log_path.open("ab") as out:
            self._proc = subprocess.Popen(  # noqa: S602 - the user's own command template
                cmd, shell=True, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.current = model_path
        self._wait_ready()

    def _wait_ready(self) -> None:
        proc = self._proc
        assert proc is not None
        url = self.cfg.prover_url.rstrip("/") + "/models"

        def ready(client: httpx.Client) -> bool | None:
            """True: serving; False: not yet; None: the command's process has ended."""
            if proc.poll() is not None:
                return None
            try:
                return client.get(url).status_code == 200
            except (httpx.HTTPError, OSError):  # not listening yet
                return False

        polling = Retrying(
            stop=stop_after_delay(self.cfg.serve_timeout),
            wait=wait_fixed(POLL_INTERVAL),
            retry=retry_if_result(lambda state: state is False),
            retry_error_callback=lambda _state: False,  # out of time: answer "not yet"
        )
        with httpx.Client(timeout=PROBE_TIMEOUT) as client:
            state = polling(ready, client)
        if state:
            return
        tail = self._tail()
        self.stop()
        if state is None:
            raise ServeError(f"--serve-cmd exited with status {proc.returncode} before serving: {tail}")
        raise ServeError(f"--serve-cmd did not serve {url} within {self.cfg.serve_timeout:.0f}s: {tail}")

    def _tail(self) -> str:
        if self._log_path is None or not self._log_path.is_file():
            return "(no output)"
        lines = self._log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        return " | ".join(lines[-3:])[-400:] or "(no output)"

    def stop(self) -> None:
        """Stop the whole process group and return only once every member has exited.

        Waiting for the shell that ran `serve_cmd` is not enough: the server it started (and a vLLM
        server's worker processes) may still hold the port and the GPU memory a moment later, and
        the SFT step that follows needs both."""
        proc, self._proc = self._proc, None
        self.current = None
        if proc is None:
            return
        pgid = proc.pid  # start_new_session=True: the leader's pid is the group id
        if proc.poll() is None or _group_alive(pgid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGTERM)
        if not _wait_group_gone(proc, pgid, STOP_GRACE):
            log.warning("serve command ignored SIGTERM for %.0fs; killing its process group", STOP_GRACE)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
            _wait_group_gone(proc, pgid, KILL_GRACE)


STOP_GRACE = 30.0  # seconds a served model gets to exit after SIGTERM
KILL_GRACE = 10.0  # seconds to wait for the kernel to tear down the group after SIGKILL


def _group_alive(pgid: int) -> bool:
    """Whether any process of group `pgid` still runs. Zombies do not count: an orphaned zombie
    waits on whoever reaps orphans here and holds no port or memory."""
    proc_dir = Path("/proc")
    if not proc_dir.is_dir():  # not Linux: signal 0 is the portable (zombie-blind) probe
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True
    for entry in proc_dir.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # the process ended while we looked
            continue
        # `pid (comm) state ppid pgrp ...`: comm may hold spaces and parentheses, so split after
        # the last ')'
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] != "Z":
            return True
    return False


def _wait_group_gone(proc: subprocess.Popen[bytes], pgid: int, timeout: float) -> bool:
    """Reap the leader and wait until no member of the group runs; False when `timeout` passed."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0)
        if proc.poll() is not None and not _group_alive(pgid):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(GROUP_POLL)


GROUP_POLL = 0.05  # seconds between two looks at the stopping process group


__all__ = ["ModelServer", "ServeConfig", "ServeError"]

"""The Lean host sandbox: the REPL and lake backends run Lean under bubblewrap (`bwrap`).

Why: elaborating a file runs code (`#eval`, `include_str`, macros, `native_decide`, tactic configs),
and the files come from a model: GRPO and expert iteration send millions of them. The text gate
(`lean/gate.py`) refuses what it can name; the sandbox bounds what it cannot:

- the file system is an allow-list, all read-only: the system directories (`/usr`, `/bin`, `/lib*`,
  a few files of `/etc` the dynamic loader needs), the Lean toolchain (elan's home and the
  directory lake lives in), the Lean project, lean-interact's cache (the REPL build) and any
  `verifier.sandbox_paths`. Everything else is absent, the user's home included (only the paths
  above that lie in it are bound). The one writable place is the process's own temporary
  directory (`TMPDIR`), created for it and removed after it;
- no network: a fresh network namespace (`--unshare-net`) holds only a loopback with nothing on it,
  so even the host's 127.0.0.1 services are out of reach; also fresh pid, IPC, UTS and cgroup
  namespaces (`--unshare-all`);
- the environment is rebuilt from a short list (PATH, HOME, locale, elan/Lean/Lake variables): an
  API key in the caller's environment is not readable by `#eval IO.getEnv`;
- memory stays bounded by RLIMIT_AS, set by the caller between fork and exec: bwrap and Lean
  inherit it.

Not done on purpose: `--new-session` (the process group must stay the one the caller kills on a
timeout; the process has no controlling terminal anyway, Popen's `start_new_session` detached it)
and `--die-with-parent` (Linux delivers it when the *thread* that started bwrap exits, and the REPL
pool starts processes from worker threads).

`--no-sandbox` / `[verifier] sandbox = false` turns it off; the setting is recorded with the run's
config like every other.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lemmaforge.lean.verifier import VerifierMisconfigured

BWRAP = "bwrap"
INSTALL_HINT = "install it (`apt-get install bubblewrap`) or run without the sandbox (`--no-sandbox` or [verifier] sandbox = false)"
# Read-only system directories; a symlink (Debian's merged /usr: /bin -> usr/bin) is recreated as one.
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What the dynamic loader, libc's user and time look-ups and elan read in /etc; nothing else of it.
ETC_FILES = (
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/nsswitch.conf",
    "/etc/passwd", "/etc/group", "/etc/alternatives",
)
# Environment variables passed in: by name, or by prefix (elan's, Lean's, Lake's own).
ENV_NAMES = ("PATH", "HOME", "LANG", "LANGUAGE", "TZ", "USER", "LOGNAME")
ENV_PREFIXES = ("LC_", "ELAN", "LEAN", "LAKE")
PROBE_TIMEOUT_S = 20.0


class SandboxUnavailable(VerifierMisconfigured):
    """The sandbox was asked for and cannot run here (no bwrap, or no user namespaces)."""


@dataclass(frozen=True, slots=True)
class Sandbox:
    """How to run one Lean command under bwrap: `wrap` turns an argv into bwrap's."""

    bwrap: str
    read_only: tuple[Path, ...]  # host paths visible (read-only) at the same place inside
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))

    def wrap(self, argv: Sequence[str], *, cwd: Path | str, writable: Path | str) -> list[str]:
        """bwrap's argv for `argv` run in `cwd`, with `writable` the only writable directory."""
        args = [self.bwrap, "--unshare-all", "--unshare-net", "--proc", "/proc", "--dev", "/dev"]
        for path in SYSTEM_DIRS:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            else:
                args += ["--ro-bind-try", path, path]
        for path in ETC_FILES:
            args += ["--ro-bind-try", path, path]
        for bound in _dedupe(self.read_only):
            real = os.path.realpath(bound)
            args += ["--ro-bind-try", real, str(bound)]
            if real != str(bound):  # a symlinked home or toolchain: reachable by both names
                args += ["--ro-bind-try", real, real]
        args += ["--bind", str(writable), str(writable), "--chdir", str(cwd)]
        for name, value in sorted(self.environment(writable).items()):
            args += ["--setenv", name, value]
        # The root is bwrap's own tmpfs holding the mount points: read-only as well.
        args += ["--remount-ro", "/", "--", *argv]
        return args

    def environment(self, writable: Path | str) -> dict[str, str]:
        """The variables the sandboxed process gets (the caller's are cleared: bwrap's --clearenv
        is newer than some distributions' bwrap, so Popen gets `env=` this too)."""
        env = {k: v for k, v in self.environ.items() if k in ENV_NAMES or k.startswith(ENV_PREFIXES)}
        env["TMPDIR"] = str(writable)
        return env

    def private_dir(self, prefix: str = "lemmaforge-sandbox-") -> str:
        """A fresh temporary directory for one process (the caller removes it)."""
        return tempfile.mkdtemp(prefix=prefix)


def _dedupe(paths: Iterable[Path]) -> list[Path]:
    # A path inside another one already bound adds nothing; parents first so that order holds.
    unique = sorted({Path(os.path.abspath(p)) for p in paths}, key=lambda p: len(p.parts))
    kept: list[Path] = []
    for path in unique:
        if not any(path == k or k in path.parents for k in kept):
            kept.append(path)
    return kept


def toolchain_paths(lake: str, environ: Mapping[str, str] | None = None) -> list[Path]:
    """Where Lean's toolchain lives: elan's home, and the directory of `lake` (its parent when that
    directory is a `bin`, so a toolchain's `lib/` comes too)."""
    env = os.environ if environ is None else environ
    home = env.get("HOME") or str(Path.home())
    paths = [Path(env.get("ELAN_HOME") or Path(home) / ".elan")]
    for where in {Path(lake).absolute(), Path(os.path.realpath(lake))}:
        folder = where.parent
        paths.append(folder.parent if folder.name == "bin" else folder)
    return paths


def find_bwrap() -> str | None:
    return shutil.which(BWRAP)


@lru_cache(maxsize=8)
def bwrap_version(path: str) -> str | None:
    """`bwrap --version`'s answer ("bubblewrap 0.8.0"), None when it does not run."""
    try:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


@lru_cache(maxsize=8)
def bwrap_works(path: str) -> str | None:
    """None when bwrap can build this sandbox here, else why not (its stderr's first line): a
    container without user namespaces refuses `--unshare-all`."""
    probe = Sandbox(path, ()).wrap(["true"], cwd="/", writable=tempfile.gettempdir())
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, check=False,
                              env=Sandbox(path, ()).environment(tempfile.gettempdir()))
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    if done.returncode == 0:
        return None
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return lines[0] if lines else f"exit status {done.returncode}"


def make_sandbox(read_only: Iterable[Path | str], *, lake: str) -> Sandbox:
    """The sandbox for a backend that runs `lake` with the given paths visible. Raises
    SandboxUnavailable (one line naming the fix) when bwrap is missing or cannot run here."""
    path = find_bwrap()
    if path is None:
        raise SandboxUnavailable(f"bubblewrap (bwrap) not found: Lean runs sandboxed by default; {INSTALL_HINT}")
    why = bwrap_works(path)
    if why is not None:
        raise SandboxUnavailable(f"bubblewrap ({path}) cannot create a sandbox here ({why}); {INSTALL_HINT}")
    return Sandbox(path, tuple(Path(p) for p in [*read_only, *toolchain_paths(lake)]))


@dataclass(frozen=True, slots=True)
class SandboxStatus:
    """What `doctor` says about the sandbox."""

    path: str | None
    version: str | None
    problem: str | None  # None: usable

    @property
    def usable(self) -> bool:
        return self.path is not None and self.problem is None


def sandbox_status() -> SandboxStatus:
    path = find_bwrap()
    if path is None:
        return SandboxStatus(None, None, "bwrap not found")
    return SandboxStatus(path, bwrap_version(path), bwrap_works(path))


__all__ = [
    "Sandbox",
    "SandboxStatus",
    "SandboxUnavailable",
    "bwrap_version",
    "bwrap_works",
    "find_bwrap",
    "make_sandbox",
    "sandbox_status",
    "toolchain_paths",
]

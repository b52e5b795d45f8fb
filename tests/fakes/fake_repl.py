"""A fake Lean REPL *process*: the exact stdin/stdout framing of `REPL/Main.lean`, answers from
`FakeLean` (tests/fakes/fake_lean.py).

    python fake_repl.py --config fake_lean.json

Framing, as the real REPL does it:
- read lines until one that is blank after trimming (or EOF); right-trim each non-blank line and
  concatenate them with no separator; an empty query (EOF) ends the process;
- a query starting with `#` or `--` is skipped (no answer);
- anything else is parsed as JSON; a parse failure or an unknown request shape is an uncaught
  exception in the real REPL: the process prints it to stderr and exits 1;
- each answer is Lean's `Json.pretty` (width 80, keys in reverse order) + "\\n\\n", flushed.

Test hooks (from the JSON config written by `make_fake_repl_config` below):
- `rules` (see fake_lean.Rule) and `latency` per request kind; `crash` / `hang` / `garbage` /
  `oom` / `alloc_mb` / `wait_unlocked` rules act here, in the process;
- `transcripts_dir` (+ `transcript_names`): the recorded answers to replay;
- host effects: `#eval IO.FS.readFile "PATH"` really reads PATH, and `#eval IO.Process.output { cmd
  := "curl", args := #["http://HOST:PORT/…"] }` really connects to HOST:PORT (the fake does it
  itself, standing for the curl Lean would spawn), each answered with an info message (what was
  read or received) or an error message (Lean's `uncaught exception: …`), so the sandbox tests
  (tests/lean/test_sandbox.py) see what a candidate file could reach from this process;
- a log of every process start and request (one JSON line: pid, event, kind, time, the request's
  text and its first 80 characters as `head`) appended to `log_path` (or `$FAKE_REPL_LOG`), so tests
  count header elaborations and see which process served what, across processes.

`make_fake_repl_config(tmp_path, …)` lays out a fake REPL install (`bin/lake`, `repl/lean-toolchain`,
`repl/.lake/build/bin/repl`) and returns the `LeanREPLConfig` that makes lean-interact run this
process through its real code path: `lake env <repl>/.lake/build/bin/repl`, cwd = the REPL dir.

The process part imports only the standard library and the sibling fake_lean.py: it runs once per
worker start, so it has to start fast, and it must work without the test package on sys.path.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import re
import shlex
import signal
import socket
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fake_lean import FakeLean, FakeProtocolError, Reply, lean_json, load_fake_lean  # noqa: E402


def read_query(stdin: IO[str]) -> str:
    """REPL `getLines`: non-blank lines right-trimmed and joined with nothing, followed by the blank
    line that ended them ("" at EOF). So "" means EOF, and a lone extra blank line is the query
    "\n", which the real REPL fails to parse and dies on (lean-interact never sends one)."""
    parts: list[str] = []
    while True:
        line = stdin.readline()
        if line.strip() == "":
            return "".join(parts) + line
        parts.append(line.rstrip())


class RequestLog:
    """Appends one JSON line per event. Lines are written with a single O_APPEND write, so several
    fake processes can share one log file."""

    def __init__(self, path: str | None) -> None:
        self.path = path

    def write(self, **event: Any) -> None:
        if not self.path:
            return
        line = json.dumps({"pid": os.getpid(), "time": time.time(), **event}, ensure_ascii=False) + "\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)


def _text(request: dict[str, Any]) -> str:
    return str(request.get("cmd") or request.get("tactic") or request.get("path") or "")


def _die_out_of_memory(stdout: IO[str]) -> None:
    # What a Lean process killed by RLIMIT_AS leaves behind.
    stdout.flush()
    sys.stderr.write("INTERNAL PANIC: out of memory\n")
    sys.stderr.flush()
    os._exit(1)


def _hang_forever() -> None:
    """A REPL that never answers: blocks until it is killed (what the test waits on is the client's
    deadline, not this process)."""
    threading.Event().wait()


def _latency(seconds: float) -> None:
    """The fake REPL's simulated time (a rule's `delay_s`, the configured start-up)."""
    if seconds > 0:
        time.sleep(seconds)  # real subprocess timing: the pool's deadlines and scheduling are what is tested


_retained: list[bytes] = []  # memory a rule asked to keep (RSS grows like a REPL that never frees)


HELD_LIMIT_S = 120


def _wait_unlocked(path: str) -> None:
    """Block until no one holds `path`'s exclusive lock (a rule's `wait_unlocked`: the test holds
    it). SIGALRM's default action ends a process still held after HELD_LIMIT_S, so a test whose
    client never lets go fails instead of hanging."""
    with open(path, "a") as fh:
        signal.alarm(HELD_LIMIT_S)
        fcntl.flock(fh, fcntl.LOCK_SH)
        signal.alarm(0)


def perform(reply: Reply, stdout: IO[str]) -> None:
    for path in reply.wait_unlocked:
        _wait_unlocked(path)
    _latency(reply.delay_s)
    if reply.alloc_mb:
        try:
            _retained.append(b"\x01" * (reply.alloc_mb * 1024 * 1024))  # touched pages: real RSS
        except MemoryError:
            _die_out_of_memory(stdout)
    if reply.oom:
        _die_out_of_memory(stdout)
    if reply.crash:
        os._exit(134)  # like a Lean abort: no answer, the pipe closes
    if reply.hang:
        _hang_forever()
    if reply.garbage:
        stdout.write('{"env": 0, "messages": [garbage\n\n')
    else:
        assert reply.response is not None
        stdout.write(lean_json(reply.response) + "\n\n")
    stdout.flush()


_READ = re.compile(r'#eval\s+IO\.FS\.readFile\s+"([^"]*)"')
_CURL = re.compile(r'#eval\s+IO\.Process\.output\s*\{\s*cmd\s*:=\s*"curl"\s*,\s*args\s*:=\s*#\["http://([^:/"]+):(\d+)')


def host_effects(cmd: str, source: str | None = None) -> list[dict[str, Any]]:
    """Do what `#eval` of a file read or a curl would do on this host; one message each. A
    `-- lemmaforge-hostile {plan}` line runs tests/fakes/hostile.py's attacks (`source`: the file
    being elaborated, where there is one)."""
    found: list[tuple[int, str, str]] = []
    for m in _READ.finditer(cmd):
        try:
            found.append((m.start(), "info", json.dumps(Path(m.group(1)).read_text(encoding="utf-8"))))
        except OSError as exc:
            found.append((m.start(), "error", f"uncaught exception: {exc.strerror} (error code: {exc.errno})\n  file: {m.group(1)}"))
    for m in _CURL.finditer(cmd):
        try:
            with socket.create_connection((m.group(1), int(m.group(2))), timeout=5) as conn:
                conn.sendall(b"GET / HTTP/1.0\r\n\r\n")
                found.append((m.start(), "info", conn.recv(4096).decode("utf-8", "replace")))
        except OSError as exc:
            found.append((m.start(), "error", f"uncaught exception: curl: could not connect: {exc}"))
    messages = []
    for start, severity, data in sorted(found):
        pos = {"line": cmd.count("\n", 0, start) + 1, "column": start - (cmd.rfind("\n", 0, start) + 1)}
        messages.append({"severity": severity, "pos": pos, "endPos": pos, "data": data})
    if "-- lemmaforge-hostile " in cmd:  # the hostile payload (tests/fakes/hostile.py), run as Lean would
        import hostile

        messages.extend(hostile.messages(cmd, source))
    return messages


def serve(engine: FakeLean, log: RequestLog, stdin: IO[str], stdout: IO[str]) -> int:
    while True:
        query = read_query(stdin)
        if query == "":
            return 0
        if query.startswith("#") or query.startswith("--"):
            continue
        try:
            request = json.loads(query)
            if not isinstance(request, dict):
                raise FakeProtocolError("Could not parse as a valid JSON command")
            reply = engine.handle(request)
        except (json.JSONDecodeError, FakeProtocolError) as exc:
            sys.stderr.write(f"uncaught exception: {json.dumps({'message': str(exc)})}\n")
            return 1
        text = _text(request)
        if reply.response is not None and "cmd" in request:
            effects = host_effects(str(request["cmd"]))
            if effects:
                reply.response.setdefault("messages", []).extend(effects)
        log.write(event="request", kind=reply.kind, source=reply.source, head=text[:80], text=text)
        perform(reply, stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, help="JSON config (rules, latency, transcripts, log)")
    args = parser.parse_args(argv)
    config: dict[str, Any] = json.loads(args.config.read_text(encoding="utf-8")) if args.config else {}
    config.setdefault("cwd", os.getcwd())
    log = RequestLog(config.get("log_path") or os.environ.get("FAKE_REPL_LOG"))
    log.write(event="start", kind="start")
    engine = load_fake_lean(config)
    _latency(float(config.get("latency", {}).get("startup_s", 0.0)))
    # Lean writes UTF-8 whatever the locale; so must we (goals are full of ⊢, ℝ, →).
    stdin = open(sys.stdin.fileno(), encoding="utf-8", closefd=False)
    stdout = open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False)
    return serve(engine, log, stdin, stdout)


if __name__ == "__main__":
    sys.exit(main())


# --------------------------------------------------------------------------------------------------
# Wiring the fake into lean-interact (used by tests and the pool benchmark; imports lean_interact
# lazily so the REPL process above stays standard-library only)
# --------------------------------------------------------------------------------------------------

_FAKE_LAKE = """#!/bin/sh
# Fake `lake` for tests. lean-interact with a prebuilt local REPL only runs `lake env <repl>`
# (and `lake --version` if asked to build); anything else is an error, so a test notices.
# (the log is skipped where the folder is read-only: the sandbox tests run it under bwrap)
{{ echo "$*" >> {calls}; }} 2>/dev/null || true
case "$1" in
  --version) echo "Lake version 5.0.0-fake (Lean version {lean})"; exit 0 ;;
  env) shift; exec "$@" ;;
  *) echo "fake lake: unsupported command: $*" >&2; exit 1 ;;
esac
"""

_FAKE_REPL_BINARY = """#!/bin/sh
# Stands for <repl>/.lake/build/bin/repl: the fake REPL process with this directory's config.
exec {python} -S {script} --config {config}
"""


def default_transcripts_dir() -> Path:
    from fake_lean import DEFAULT_TRANSCRIPT_FOLDER

    repo = Path(__file__).resolve().parents[2]
    shared = Path(os.environ.get("LEMMAFORGE_SHARED", repo.parent / "shared"))
    return shared / "data" / "repl_transcripts" / DEFAULT_TRANSCRIPT_FOLDER


class FakeRepl:
    """A fake REPL installation in a directory, and the LeanREPLConfig that runs it through the
    real lean-interact code path (`lake env <repl>/.lake/build/bin/repl`, cwd = the REPL dir)."""

    def __init__(self, root: Path, config: Any, config_path: Path, log_path: Path, lake_path: Path) -> None:
        self.root = root
        self.config = config  # lean_interact.LeanREPLConfig
        self.config_path = config_path
        self.log_path = log_path
        self.lake_path = lake_path

    def set_behaviour(self, **changes: Any) -> None:
        """Change rules / latency for processes started from now on (running ones keep theirs)."""
        data = json.loads(self.config_path.read_text(encoding="utf-8"))
        data.update(changes)
        self.config_path.write_text(json.dumps(data), encoding="utf-8")

    def events(self) -> list[dict[str, Any]]:
        if not self.log_path.exists():
            return []
        lines = self.log_path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def requests(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [e for e in self.events() if e["event"] == "request" and (kind is None or e["kind"] == kind)]

    def header_elaborations(self) -> int:
        """Commands starting with `import` sent to any fake process of this installation."""
        return len(self.requests("header"))

    def process_starts(self) -> int:
        return sum(1 for e in self.events() if e["event"] == "start")

    def lake_calls(self) -> list[str]:
        calls = self.root / "lake_calls.log"
        return calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []


def make_fake_repl_config(
    root: Path,
    *,
    rules: Sequence[Mapping[str, Any]] = (),
    latency: Mapping[str, float] | None = None,
    transcripts: bool | Path = True,
    transcript_names: Sequence[str] | None = None,
    memory_limit_mb: int | None = None,
    lean_version: str = "v4.19.0",
) -> FakeRepl:
    """Create `root/{bin/lake, repl/…, fake_lean.json}` and return the LeanREPLConfig for it.

    `transcripts`: True = the default recorded folder, a Path = that folder, False = scripted only.
    `lean_version` (a tag or a knob value of tests/fakes/lean_versions.py, "4.9" … "4.27"): the
    toolchain the install claims and the release whose answers the fake gives to the audit's probe.
    lean-interact does no git, network or build here: `local_repl_path` with `build_repl=False`
    and no project only reads `repl/lean-toolchain`.
    """
    from lean_interact import LeanREPLConfig
    from lean_versions import tag

    lean_version = tag(lean_version)  # a knob value ("4.27") as the toolchain's tag
    root = Path(root).resolve()
    repl_dir = root / "repl"
    binary = repl_dir / ".lake" / "build" / "bin" / "repl"
    binary.parent.mkdir(parents=True, exist_ok=True)
    (root / "bin").mkdir(exist_ok=True)
    (repl_dir / "lean-toolchain").write_text(f"leanprover/lean4:{lean_version}\n", encoding="utf-8")
    log_path = root / "requests.jsonl"
    config_path = root / "fake_lean.json"
    folder = default_transcripts_dir() if transcripts is True else transcripts or None
    config = {
        "rules": [dict(r) for r in rules],
        "latency": dict(latency or {}),
        "transcripts_dir": str(folder) if folder else None,
        "transcript_names": list(transcript_names) if transcript_names is not None else None,
        "log_path": str(log_path),
        "lean_version": lean_version,  # how the fake answers the audit's probe (lean_versions.py)
    }
    config_path.write_text(json.dumps(config), encoding="utf-8")
    lake = root / "bin" / "lake"
    lake.write_text(
        _FAKE_LAKE.format(calls=shlex.quote(str(root / "lake_calls.log")), lean=lean_version.lstrip("v")),
        encoding="utf-8",
    )
    binary.write_text(
        _FAKE_REPL_BINARY.format(
            python=shlex.quote(sys.executable),
            script=shlex.quote(str(Path(__file__).resolve())),
            config=shlex.quote(str(config_path)),
        ),
        encoding="utf-8",
    )
    for exe in (lake, binary):
        exe.chmod(0o755)
    repl_config = LeanREPLConfig(
        local_repl_path=repl_dir,
        build_repl=False,
        lake_path=lake,
        memory_hard_limit_mb=memory_limit_mb,
    )
    return FakeRepl(root, repl_config, config_path, log_path, lake)

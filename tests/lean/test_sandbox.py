"""The Lean host sandbox (lemmaforge/lean/sandbox.py) under the real bubblewrap.

The fake REPL (tests/fakes/fake_repl.py) really performs the host effects a candidate file asks
for (`#eval IO.FS.readFile`, a curl to a listener on 127.0.0.1), so the same candidate shows what
a Lean process could reach: through `ReplVerifier.from_config` sandboxed it reads no host file and
reaches no socket while a normal check still passes; with `sandbox = false` it does both, which
proves the test can fail. Skipped, with the reason, where bwrap is missing or cannot build a
sandbox (no user namespaces).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from lemmaforge.config import VerifierConfig
from lemmaforge.lean.lake import LakeVerifier
from lemmaforge.lean.repl import ReplVerifier
from lemmaforge.lean.sandbox import (
    Sandbox,
    SandboxUnavailable,
    bwrap_works,
    find_bwrap,
    make_sandbox,
    read_memfd,
)
from lemmaforge.lean.verifier import CheckStatus
from tests.fakes.fake_repl import make_fake_repl_config

FAKES = Path(__file__).resolve().parents[1] / "fakes"
HEADER = "import Mathlib\n\n"
PROOF = "theorem t : (1 : ℕ) + 1 = 2 := by\n  norm_num\n"
SECRET = "s3cret-token-in-the-home"
GREETING = "hello-from-the-host"


def interpreter_paths() -> list[Path]:
    """Where the fakes' Python lives, to bind read-only: the running interpreter's prefix (a
    virtualenv's too: the fake REPL execs `sys.executable`, the venv's own `bin/python3`) and the
    installation it comes from."""
    return [Path(sys.prefix), Path(sys.executable).parent, Path(sys.base_prefix),
            Path(os.path.realpath(sys.executable)).parents[1]]


def _bwrap_problem() -> str | None:
    path = find_bwrap()
    if path is None:
        return "bwrap is not installed (apt-get install bubblewrap)"
    why = bwrap_works(path)
    return f"bwrap cannot create a sandbox here: {why}" if why else None


needs_bwrap = pytest.mark.skipif(_bwrap_problem() is not None, reason=str(_bwrap_problem()))


class Listener:
    """A TCP server on 127.0.0.1 that answers every connection with GREETING and counts them."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            with conn:
                conn.recv(4096)
                conn.sendall(f"HTTP/1.0 200 OK\r\n\r\n{GREETING}".encode())

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    server = Listener()
    yield server
    server.close()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's home holding a secret, as $HOME (outside every path the sandbox binds)."""
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / ".secret").write_text(SECRET, encoding="utf-8")
    monkeypatch.setenv("HOME", str(folder))
    return folder


def repl_config(tmp_path: Path, *, sandbox: bool) -> VerifierConfig:
    fake = make_fake_repl_config(tmp_path / "fake", transcripts=False)
    fake.set_behaviour(log_path=None)  # its folder is read-only inside the sandbox
    project = tmp_path / "project"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.19.0\n", encoding="utf-8")
    # The fake's own interpreter and scripts stand where a real install has its toolchain.
    return VerifierConfig(
        project=project, repl_path=fake.root / "repl", lake_path=str(fake.lake_path), workers=1, timeout=30,
        header_timeout=30, sandbox=sandbox, sandbox_paths=[fake.root, FAKES, *interpreter_paths()],
    )


def candidate(secret: Path, port: int) -> str:
    return (
        HEADER
        + f'#eval IO.FS.readFile "{secret}"\n'
        + f'#eval IO.Process.output {{ cmd := "curl", args := #["http://127.0.0.1:{port}/"] }}\n\n'
        + PROOF
    )


async def _run(cfg: VerifierConfig, code: str) -> tuple[list[str], list[str], CheckStatus]:
    verifier = ReplVerifier.from_config(cfg)
    try:
        result = await verifier.check(code)
    finally:
        await verifier.close()
    infos = [m.data for m in result.messages if m.severity == "info"]
    errors = [m.data for m in result.messages if m.severity == "error"]
    return infos, errors, result.status


@pytest.mark.slow
@needs_bwrap
async def test_sandboxed_repl_reads_no_host_file_and_reaches_no_socket(
    tmp_path: Path, home: Path, listener: Listener
) -> None:
    cfg = repl_config(tmp_path, sandbox=True)
    verifier = ReplVerifier.from_config(cfg)
    try:
        assert verifier.sandbox is not None
        assert (await verifier.check(HEADER + PROOF)).status is CheckStatus.VALID  # a normal check passes
    finally:
        await verifier.close()

    infos, errors, _ = await _run(cfg, candidate(home / ".secret", listener.port))
    assert not any(SECRET in text for text in infos + errors)
    assert not any(GREETING in text for text in infos + errors)
    assert listener.connections == 0
    assert any("No such file or directory" in e and str(home / ".secret") in e for e in errors)
    assert any("could not connect" in e for e in errors)


@pytest.mark.slow
@needs_bwrap
async def test_the_same_candidate_unsandboxed_reads_the_file_and_the_socket(
    tmp_path: Path, home: Path, listener: Listener
) -> None:
    infos, _, _ = await _run(repl_config(tmp_path, sandbox=False), candidate(home / ".secret", listener.port))
    assert any(SECRET in text for text in infos)
    assert any(GREETING in text for text in infos)
    assert listener.connections == 1


@needs_bwrap
async def test_sandboxed_repl_writes_only_its_own_tmpfs_and_leaves_nothing_on_the_host(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one writable place is /tmp inside, a size-limited tmpfs of the sandbox's own: no host
    directory is bound writable, none is created for the process, none is left after it."""
    host_tmp = tmp_path / "host-tmp"
    host_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(host_tmp))
    cfg = repl_config(tmp_path, sandbox=True)
    verifier = ReplVerifier.from_config(cfg.model_copy(update={"sandbox_tmp_mb": 32}))
    try:
        assert (await verifier.check(HEADER + PROOF)).status is CheckStatus.VALID
        assert list(host_tmp.iterdir()) == []
        launch = verifier._workers[0].server.launch  # type: ignore[union-attr]
        argv = launch.argv
        assert "--bind" not in argv and "--dev-bind" not in argv  # nothing writable from the host
        assert argv[argv.index("--tmpfs") - 2:argv.index("--tmpfs") + 2] == ["--size", str(32 * 1024 * 1024),
                                                                            "--tmpfs", "/tmp"]
        assert "--unshare-net" in argv
        assert argv[argv.index("--remount-ro") + 1] == "/dev"
    finally:
        await verifier.close()
    assert list(host_tmp.iterdir()) == []


def test_environment_is_a_named_list() -> None:
    """By name, not prefix: the toolchain's variables pass, a LEAN_/LAKE_-prefixed secret does not."""
    sandbox = Sandbox("bwrap", (), environ={"PATH": "/usr/bin", "HOME": "/h", "OPENAI_API_KEY": "sk-x",
                                            "ELAN_HOME": "/e", "LC_ALL": "C.UTF-8", "AWS_SECRET": "y",
                                            "LEAN_PATH": "/p", "LAKE_HOME": "/l", "LEAN_API_TOKEN": "t",
                                            "LAKE_PASSWORD": "pw", "ELANX": "z"})
    assert sandbox.environment() == {"PATH": "/usr/bin", "HOME": "/h", "ELAN_HOME": "/e", "LC_ALL": "C.UTF-8",
                                     "LEAN_PATH": "/p", "LAKE_HOME": "/l", "TMPDIR": "/tmp"}


@needs_bwrap
def test_environment_values_stay_off_bwraps_command_line() -> None:
    """The values go to bwrap in a memory file (`--args FD`: --clearenv, --setenv …), not on its
    argv, which any local user reads in /proc/PID/cmdline."""
    sandbox = Sandbox(find_bwrap() or "bwrap", (), environ={"LEAN_PATH": "/value/only/in/the/fd", "PATH": "/usr/bin"})
    launch = sandbox.prepare(["true"], cwd="/")
    try:
        assert not any("/value/only/in/the/fd" in a for a in launch.argv)
        fd = int(launch.argv[launch.argv.index("--args") + 1])
        options = read_memfd(fd).split(b"\0")
        assert options[0] == b"--clearenv"
        assert b"/value/only/in/the/fd" in options and b"LEAN_PATH" in options
    finally:
        launch.finished()


def test_missing_bwrap_is_one_line_naming_both_fixes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on it
    with pytest.raises(SandboxUnavailable) as caught:
        make_sandbox((), lake="/usr/bin/lake")
    message = str(caught.value)
    assert "\n" not in message
    assert "apt-get install bubblewrap" in message and "--no-sandbox" in message


def test_lake_backend_without_bwrap_refuses_unless_unsandboxed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
    lake = str(FAKES / "lake")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SandboxUnavailable, match="bubblewrap"):
        LakeVerifier.from_config(VerifierConfig(backend="lake", project=project, lake_path=lake))
    assert LakeVerifier.from_config(VerifierConfig(backend="lake", project=project, lake_path=lake, sandbox=False)).sandbox is None


def lake_verifier(tmp_path: Path, *, sandbox: bool) -> LakeVerifier:
    project = tmp_path / "project"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
    return LakeVerifier(project, lake_path=str(FAKES / "lake"), timeout=30, sandbox=sandbox,
                        sandbox_paths=interpreter_paths())  # the fake lake's interpreter


@needs_bwrap
async def test_sandboxed_lake_reads_no_host_file_and_reaches_no_socket(
    tmp_path: Path, home: Path, listener: Listener
) -> None:
    verifier = lake_verifier(tmp_path, sandbox=True)
    assert (await verifier.check(HEADER + PROOF)).status is CheckStatus.VALID
    result = await verifier.check(candidate(home / ".secret", listener.port))
    texts = [m.data for m in result.messages]
    assert not any(SECRET in t or GREETING in t for t in texts)
    assert listener.connections == 0
    assert any("No such file or directory" in t for t in texts) and any("could not connect" in t for t in texts)


@needs_bwrap
async def test_unsandboxed_lake_reads_the_file_and_the_socket(tmp_path: Path, home: Path, listener: Listener) -> None:
    result = await lake_verifier(tmp_path, sandbox=False).check(candidate(home / ".secret", listener.port))
    texts = [m.data for m in result.messages]
    assert any(SECRET in t for t in texts) and any(GREETING in t for t in texts)
    assert listener.connections == 1


@pytest.mark.slow
@needs_bwrap
async def test_a_sandboxed_repl_that_hangs_is_killed_whole(tmp_path: Path, home: Path) -> None:
    """The timeout kill reaches through bwrap's pid namespace: no process of the fake is left."""
    import psutil

    cfg = repl_config(tmp_path, sandbox=True)
    config_path = str(tmp_path / "fake" / "fake_lean.json")
    data = json.loads(Path(config_path).read_text(encoding="utf-8"))
    data["rules"] = [{"match": "HANG_HERE", "hang": True}]
    Path(config_path).write_text(json.dumps(data), encoding="utf-8")
    verifier = ReplVerifier.from_config(cfg.model_copy(update={"timeout": 2.0}))
    try:
        assert (await verifier.check(HEADER + PROOF)).status is CheckStatus.VALID
        result = await verifier.check(HEADER + "-- HANG_HERE\n" + PROOF)
        assert result.status is CheckStatus.TIMEOUT
    finally:
        await verifier.close()
    left = [p for p in psutil.process_iter(["cmdline"]) if config_path in " ".join(p.info["cmdline"] or [])]
    assert left == []


@needs_bwrap
async def test_safe_verify_compiles_the_candidate_inside_the_sandbox(tmp_path: Path, home: Path) -> None:
    """SafeVerify's `lake env lean -o` elaborates the candidate (runs its code): it goes through
    the same sandbox, with the comparison's temporary folder the only writable place."""
    from lemmaforge.lean.backends import make_verifier

    project = tmp_path / "project"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
    cfg = VerifierConfig(backend="lake", project=project, lake_path=str(FAKES / "lake"),
                         safe_verify=FAKES / "fake_safe_verify.py", sandbox_paths=interpreter_paths())
    verifier = make_verifier(cfg)
    try:
        checker = verifier.statement_checker
        assert checker is not None and checker.sandbox is not None  # type: ignore[attr-defined]
        verdict = await checker.compare(HEADER + "theorem t : (1 : ℕ) + 1 = 2 := by\n  sorry\n",  # type: ignore[attr-defined]
                                        HEADER + PROOF, allowed_axioms=set())
        assert verdict.same is True, verdict
    finally:
        await verifier.close()

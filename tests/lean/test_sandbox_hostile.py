"""The sandbox against a hostile stand-in for Lean (tests/fakes/hostile.py), as root and as an
ordinary user.

The payload reads its capabilities, remounts every bound path read-write and writes into it, looks
for the parent's secrets in its environment and in /proc, fork-bombs (bounded), fills /tmp, makes
the system calls Lean never makes, and leaves a detached process behind. Through the product's own
argument builder (`Sandbox.prepare`), the REPL and lake backends and SafeVerify, every attempt must
fail and the host must be unchanged; the same payload in the sandbox as it was before (a user
namespace-less, capability-keeping, filter-less bwrap) wins, which shows each assertion can fail.
Skipped, with the reason, where bwrap cannot build a sandbox.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lemmaforge.config import VerifierConfig
from lemmaforge.lean.lake import LakeVerifier
from lemmaforge.lean.repl import ReplVerifier
from lemmaforge.lean.sandbox import CGROUPS, Sandbox, make_sandbox, seccomp_program
from tests.fakes.fake_repl import make_fake_repl_config
from tests.fakes.hostile import MARKER, Victims, kill_marked, processes_with, report_of
from tests.lean.test_sandbox import FAKES, HEADER, PROOF, interpreter_paths, needs_bwrap
from tests.waiting import until_sync

HOSTILE = FAKES / "hostile.py"
WORKTREE = Path(__file__).resolve().parents[2]
TMP_MB = 16
MAX_PROCESSES = 48
SECRET = "sk-hostile-test-3f9a7c51"
ZEROS = "0" * 16


@pytest.fixture
def secrets_in_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent's secrets: an API key, and one whose name starts like the toolchain's."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("LEAN_API_TOKEN", SECRET)


@pytest.fixture
def marker() -> Iterator[str]:
    name = f"hostile-orphan-{uuid.uuid4().hex}"
    yield name
    kill_marked(name)  # only an unsandboxed control run can leave one


def plan(victims: Victims, marker: str, *, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"paths": [*victims.paths, *extra], "secret": SECRET, "parents": [os.getpid(), os.getppid()],
            "fork": 4 * MAX_PROCESSES, "fill_mb": 4 * TMP_MB, "orphan": marker}


def assert_held(report: dict[str, dict[str, Any]], *, seccomp: bool = True) -> None:
    won = {name: r["detail"] for name, r in report.items() if r["won"]}
    assert won == {}, won
    caps = report["capabilities"]["caps"]
    assert (caps["CapEff"], caps["CapPrm"], caps["CapBnd"]) == (ZEROS, ZEROS, ZEROS)
    assert report["capabilities"]["uid"] == 65534 and report["capabilities"]["gid"] == 65534
    assert set(report["remount"]["refused"].values()) == {"EPERM"}
    assert set(report["writes"]["refused"].values()) == {"EROFS"}
    assert report["fork"]["error"] == "EAGAIN" and 0 < report["fork"]["started"] <= MAX_PROCESSES
    assert report["fill_tmp"]["error"] in ("ENOSPC", "EFBIG") and report["fill_tmp"]["written_mb"] <= TMP_MB
    assert report["fill_tmp"]["elsewhere"] == []
    assert "OPENAI_API_KEY" not in report["secrets"]["environment"]
    assert "LEAN_API_TOKEN" not in report["secrets"]["environment"]
    if seccomp:
        assert set(report["seccomp"]["errno"].values()) == {"EPERM"}, report["seccomp"]["errno"]
    assert report["seccomp"]["normal_calls_work"]


def run_hostile(sandbox: Sandbox, payload: dict[str, Any], cwd: Path, *, strip: tuple[str, ...] = ()) -> dict[str, Any]:
    """Run hostile.py under `sandbox` through its own Launch (the product's path); `strip`: bwrap
    options (with their values) taken out, to show what each holds."""
    launch = sandbox.prepare([sys.executable, "-S", str(HOSTILE)], cwd=cwd)
    launch.argv = _without(launch.argv, strip)
    try:
        process = launch.popen(stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = process.communicate(json.dumps(payload), timeout=120)
    finally:
        launch.finished()
    assert out.strip(), err
    return json.loads(out)


ARITY = {"--unshare-user": 0, "--disable-userns": 0, "--uid": 1, "--gid": 1, "--cap-drop": 1, "--seccomp": 1}


def _without(argv: list[str], strip: tuple[str, ...]) -> list[str]:
    out, skip = [], 0
    end = argv.index("--")
    for i, arg in enumerate(argv):
        if skip:
            skip -= 1
        elif i < end and arg in strip:
            skip = ARITY[arg]
        else:
            out.append(arg)
    return out


def sandbox_for(victims: Victims) -> Sandbox:
    return make_sandbox([*victims.roots, FAKES, *interpreter_paths()], lake=str(victims.lake), tmp_mb=TMP_MB,
                        max_processes=MAX_PROCESSES)


# --- through the argument builder -------------------------------------------------------------------


@needs_bwrap
def test_the_payload_gains_nothing_through_the_argument_builder(tmp_path: Path, secrets_in_env: None,
                                                                 marker: str) -> None:
    victims = Victims(tmp_path / "victims")
    before = victims.snapshot()
    report = run_hostile(sandbox_for(victims), plan(victims, marker, extra=(str(FAKES), "/usr", "/etc/passwd")),
                         tmp_path)
    assert_held(report, seccomp=seccomp_program()[0] is not None)
    assert victims.snapshot() == before
    until_sync(lambda: not processes_with(marker), what="the payload's detached process to die with the sandbox")


@needs_bwrap
@pytest.mark.skipif(os.geteuid() != 0, reason="the capabilities bwrap keeps are a root caller's")
def test_the_sandbox_as_it_was_loses_to_the_same_payload(tmp_path: Path, secrets_in_env: None, marker: str) -> None:
    """Without the user namespace, --cap-drop and the seccomp filter (the sandbox before issue 50),
    root inside keeps every capability: the payload remounts the read-only project writable and
    leaves a file on the host, and the refused calls go through."""
    victims = Victims(tmp_path / "victims")
    before = victims.snapshot()
    report = run_hostile(sandbox_for(victims), plan(victims, marker), tmp_path, strip=tuple(ARITY))
    assert report["capabilities"]["won"] and report["capabilities"]["caps"]["CapEff"] != ZEROS
    assert report["remount"]["won"]
    assert report["seccomp"]["won"]
    assert victims.snapshot() != before


@needs_bwrap
def test_each_refused_call_fails_with_eperm_and_lean_s_own_calls_work(tmp_path: Path) -> None:
    if seccomp_program()[0] is None:
        pytest.skip(seccomp_program()[1])
    victims = Victims(tmp_path / "victims")
    report = run_hostile(sandbox_for(victims), {}, tmp_path)
    assert report["seccomp"]["errno"] == dict.fromkeys(
        ("ioctl TIOCSTI", "keyctl", "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "unshare"), "EPERM")
    assert report["seccomp"]["normal_calls_work"]
    bare = run_hostile(sandbox_for(victims), {}, tmp_path, strip=("--seccomp",))  # the filter is what refuses
    assert bare["seccomp"]["errno"]["io_uring_setup"] != "EPERM" and bare["seccomp"]["errno"]["keyctl"] != "EPERM"


# --- as an ordinary user -----------------------------------------------------------------------------

NOBODY = 65534
_DRIVER = """
import json, subprocess, sys
from pathlib import Path
from lemmaforge.lean.sandbox import make_sandbox, process_limit
cfg = json.loads(Path(sys.argv[1]).read_text())
sandbox = make_sandbox([Path(p) for p in cfg["bind"]], lake=cfg["lake"], tmp_mb=cfg["tmp_mb"],
                       max_processes=cfg["max_processes"])
launch = sandbox.prepare([sys.executable, "-S", cfg["hostile"]], cwd=cfg["cwd"])
process = launch.popen(stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
out, err = process.communicate(json.dumps(cfg["plan"]), timeout=120)
launch.finished()
print(json.dumps({"report": json.loads(out) if out.strip() else None, "stderr": err,
                  "process_limit": process_limit(sandbox)}))
"""


def _as_nobody(argv: list[str], env: dict[str, str]) -> list[str]:
    if os.geteuid() != 0:
        return argv  # the tests already run as an ordinary user
    for tool in (["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--"],
                 ["runuser", "-u", "nobody", "--"]):
        if shutil.which(tool[0]):
            return [*tool, "env", "-i", *(f"{k}={v}" for k, v in env.items()), *argv]
    pytest.skip("neither setpriv nor runuser to run as an ordinary user")


def _nobody_python(base: Path, env: dict[str, str]) -> str:
    """An interpreter uid 65534 can run that imports lemmaforge.lean.sandbox (stdlib only, plus
    pyseccomp: copied next to the driver where that interpreter lacks it)."""
    import pyseccomp

    shutil.copy(pyseccomp.__file__, base / "pylib" / "pyseccomp.py")
    for python in (sys.executable, "/usr/bin/python3"):
        probe = subprocess.run(_as_nobody([python, "-c", "import lemmaforge.lean.sandbox, pyseccomp"], env),
                               capture_output=True, text=True, check=False)
        if probe.returncode == 0:
            return python
    pytest.skip(f"no interpreter that uid {NOBODY} can run imports lemmaforge.lean.sandbox "
                f"({sys.executable}: {probe.stderr.strip()[-200:]})")


@needs_bwrap
def test_the_payload_gains_nothing_as_an_ordinary_user(marker: str) -> None:
    """The same sandbox started by an unprivileged user (uid 65534 here): no user namespace
    privilege to abuse, and, without a pids cgroup of its own, RLIMIT_NPROC bounds the processes."""
    base = Path(tempfile.mkdtemp(prefix="sandbox-test-user-"))
    try:
        base.chmod(0o755)
        (base / "pylib").mkdir()
        victims = Victims(base / "victims")
        for path in [base / "victims", *(base / "victims").rglob("*")]:
            os.chown(path, NOBODY, NOBODY) if os.geteuid() == 0 else None  # writable for that user on the host
        before = victims.snapshot()
        env = {"PATH": "/usr/bin:/bin", "HOME": "/", "OPENAI_API_KEY": SECRET, "LEAN_API_TOKEN": SECRET,
               "PYTHONPATH": f"{WORKTREE}:{base / 'pylib'}"}
        python = _nobody_python(base, env)
        prefixes = {Path(python).parent, Path(os.path.realpath(python)).parents[1]}
        config = {"bind": [*map(str, victims.roots), str(FAKES), str(base / "pylib"), *map(str, prefixes)],
                  "lake": str(victims.lake), "tmp_mb": TMP_MB, "max_processes": MAX_PROCESSES,
                  "hostile": str(HOSTILE), "cwd": str(base), "plan": plan(victims, marker, extra=("/usr",))}
        (base / "driver.py").write_text(_DRIVER, encoding="utf-8")
        (base / "config.json").write_text(json.dumps(config), encoding="utf-8")
        done = subprocess.run(_as_nobody([python, str(base / "driver.py"), str(base / "config.json")], env),
                              capture_output=True, text=True, check=False, timeout=300)
        assert done.returncode == 0, done.stderr
        answer = json.loads(done.stdout)
        assert answer["report"] is not None, answer["stderr"]
        assert_held(answer["report"])
        assert victims.snapshot() == before
        until_sync(lambda: not processes_with(marker), what="the payload's detached process to die with the sandbox")
    finally:
        shutil.rmtree(base, ignore_errors=True)


# --- through the backends ------------------------------------------------------------------------------


def hostile_text(victims: Victims, marker: str, **extra: Any) -> str:
    return HEADER + MARKER + json.dumps({**plan(victims, marker, extra=(str(FAKES), "/usr")), **extra}) + "\n\n" + PROOF


@pytest.mark.slow
@needs_bwrap
async def test_a_hostile_file_gains_nothing_through_the_repl_backend(tmp_path: Path, secrets_in_env: None,
                                                                      marker: str) -> None:
    victims = Victims(tmp_path / "victims")
    fake = make_fake_repl_config(tmp_path / "fake", transcripts=False)
    fake.set_behaviour(log_path=None)
    cfg = VerifierConfig(project=victims.project, repl_path=fake.root / "repl", lake_path=str(fake.lake_path),
                         workers=1, timeout=120, header_timeout=60, sandbox_tmp_mb=TMP_MB,
                         sandbox_max_processes=MAX_PROCESSES,
                         sandbox_paths=[fake.root, FAKES, victims.toolchain, victims.repl, *interpreter_paths()])
    before = victims.snapshot()
    verifier = ReplVerifier.from_config(cfg)
    try:
        result = await verifier.check(hostile_text(victims, marker))
    finally:
        await verifier.close()
    texts = [m.data for m in result.messages]
    assert [t for t in texts if t.startswith("hostile:")] == []
    report = report_of(texts)
    assert report is not None, texts
    assert_held(report, seccomp=seccomp_program()[0] is not None)
    assert victims.snapshot() == before
    until_sync(lambda: not processes_with(marker), what="the payload's detached process to die with the sandbox")


@needs_bwrap
async def test_a_hostile_file_gains_nothing_through_the_lake_backend(tmp_path: Path, secrets_in_env: None,
                                                                      marker: str) -> None:
    victims = Victims(tmp_path / "victims")
    before = victims.snapshot()
    verifier = LakeVerifier(victims.project, lake_path=str(FAKES / "lake"), timeout=120, sandbox=True,
                            sandbox_paths=[victims.toolchain, victims.repl, *interpreter_paths()],
                            sandbox_tmp_mb=TMP_MB, sandbox_max_processes=MAX_PROCESSES)
    result = await verifier.check(hostile_text(victims, marker))
    texts = [m.data for m in result.messages]
    assert [t for t in texts if t.startswith("hostile:")] == []
    report = report_of(texts)
    assert report is not None, (texts, result.error)
    assert_held(report, seccomp=seccomp_program()[0] is not None)
    assert victims.snapshot() == before
    until_sync(lambda: not processes_with(marker), what="the payload's detached process to die with the sandbox")


# --- SafeVerify --------------------------------------------------------------------------------------

ORIGINAL = HEADER + "theorem t : (1 : ℕ) + 1 = 2 := by\n  sorry\n"
OTHER = "theorem t : (2 : ℕ) + 2 = 4 := by\n  norm_num\n"  # a different statement


def forging_candidate(victims: Victims, marker: str) -> str:
    """A candidate that proves another statement and, while it compiles, overwrites every
    `Target.olean` it can find with a forged one stating what it proved (the fake olean is JSON)."""
    forged = json.dumps({"source": HEADER + OTHER.replace("norm_num", "sorry")})
    oleans = [f"{tempfile.gettempdir()}/lemmaforge-safeverify-*/*.olean", "/tmp/*.olean", "/lemmaforge/*.olean"]
    payload = {**plan(victims, marker), "fork": 0, "fill_mb": 0, "oleans": oleans, "forge": forged}
    return HEADER + MARKER + json.dumps(payload) + "\n\n" + OTHER


def safe_verify_config(victims: Victims, *, sandbox: bool) -> VerifierConfig:
    exe = victims.project / ".lemmaforge" / "SafeVerify" / ".lake" / "build" / "bin" / "safe_verify"
    exe.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(FAKES / "fake_safe_verify.py", exe)  # where `lemmaforge setup --safeverify` builds it
    return VerifierConfig(backend="lake", project=victims.project, lake_path=str(FAKES / "lake"), sandbox=sandbox,
                          memory_limit_mb=4096, sandbox_paths=interpreter_paths())


@needs_bwrap
async def test_the_default_safe_verify_is_sandboxed_and_its_target_is_out_of_the_candidate_s_reach(
    tmp_path: Path, marker: str
) -> None:
    from lemmaforge.lean.backends import make_verifier
    from lemmaforge.lean.safeverify import SafeVerifyChecker

    victims = Victims(tmp_path / "victims")
    verifier = make_verifier(safe_verify_config(victims, sandbox=True))
    try:
        checker = verifier.statement_checker
        assert isinstance(checker, SafeVerifyChecker)  # no verifier.safe_verify: the default one
        assert checker.sandbox is not None and checker.sandbox.memory_mb == 4096
        honest = await checker.compare(ORIGINAL, HEADER + "theorem t : (1 : ℕ) + 1 = 2 := by\n  norm_num\n",
                                       allowed_axioms=set())
        assert honest.same is True, honest
        forged = await checker.compare(ORIGINAL, forging_candidate(victims, marker), allowed_axioms=set())
        assert forged.same is False, forged  # the forgery never reached the target: Lean sees the other statement
        assert "declaration(s) differ" in forged.detail
    finally:
        await verifier.close()


@needs_bwrap
async def test_unsandboxed_the_forgery_reaches_the_target_and_the_hash_check_catches_it(
    tmp_path: Path, marker: str
) -> None:
    from lemmaforge.lean.backends import make_verifier
    from lemmaforge.lean.safeverify import TARGET_CHANGED

    victims = Victims(tmp_path / "victims")
    verifier = make_verifier(safe_verify_config(victims, sandbox=False))
    try:
        verdict = await verifier.statement_checker.compare(  # type: ignore[union-attr]
            ORIGINAL, forging_candidate(victims, marker), allowed_axioms=set())
    finally:
        await verifier.close()
    assert verdict.same is None and verdict.detail == TARGET_CHANGED


# --- what is left behind ----------------------------------------------------------------------------


@needs_bwrap
def test_a_dead_lemmaforge_s_cgroup_and_its_processes_go_at_the_next_start(tmp_path: Path) -> None:
    """A lemmaforge killed before it removed a sandbox's pids cgroup: the next sandbox start kills
    what is still in it (an orphan) and removes it."""
    victims = Victims(tmp_path / "victims")
    sandbox = sandbox_for(victims)
    launch = sandbox.prepare(["true"], cwd=tmp_path)
    launch.finished()
    if CGROUPS.base is None:
        pytest.skip(f"no pids cgroup here: {CGROUPS.why}")
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = CGROUPS.base / f"{dead.pid}-0"
    stale.mkdir()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        (stale / "cgroup.procs").write_text(str(sleeper.pid), encoding="utf-8")
        sandbox.prepare(["true"], cwd=tmp_path).finished()
        assert sleeper.wait(timeout=60) == -9
        until_sync(lambda: not stale.exists(), what="the stale cgroup to be removed")
    finally:
        sleeper.kill()
        if stale.exists():
            stale.rmdir()

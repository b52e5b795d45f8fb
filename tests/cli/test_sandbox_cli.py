"""The sandbox through the command line: a missing bwrap is one line and exit 2 naming both fixes,
`--no-sandbox` runs without it and is recorded with the run's config, `doctor` names the sandbox and
its effective settings (and what an older bwrap lacks); `lemmaforge check` of a file whose
elaboration attacks the host (tests/fakes/hostile.py in the fake REPL) gains nothing, and a
lemmaforge killed with SIGKILL mid-check leaves no process and no directory behind."""

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
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.config import Settings, load_config
from lemmaforge.lean.sandbox import bwrap_works, find_bwrap

FAKE_LAKE = str(Path(__file__).resolve().parents[1] / "fakes" / "lake")
PROOF = "import Mathlib\n\ntheorem t (n : ℕ) : n + 0 = n := by\n  simp\n"
runner = CliRunner()


@pytest.fixture
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """No LEMMAFORGE_* from the caller; a PATH holding python3 (the fake lake's interpreter) and
    nothing else, so no bwrap; a Lake project for the fake lake."""
    for var in list(os.environ):
        if var.startswith("LEMMAFORGE_"):
            monkeypatch.delenv(var)
    monkeypatch.chdir(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    project = tmp_path / "project"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
    (tmp_path / "p.lean").write_text(PROOF, encoding="utf-8")
    return {"PATH": str(bin_dir), "LEMMAFORGE_VERIFIER__LAKE_PATH": FAKE_LAKE,
            "LEMMAFORGE_DB_URL": f"sqlite:///{tmp_path / 'runs.db'}"}


def check_args(tmp_path: Path, *extra: str) -> list[str]:
    return ["check", str(tmp_path / "p.lean"), "--verifier", "lake", "--project", str(tmp_path / "project"), *extra]


def test_check_without_bwrap_fails_in_one_line_naming_the_fixes(tmp_path: Path, clean_env: dict[str, str]) -> None:
    result = runner.invoke(app, check_args(tmp_path), env=clean_env)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1
    assert "bubblewrap" in lines[0] and "apt-get install bubblewrap" in lines[0] and "--no-sandbox" in lines[0]
    assert result.stdout == ""


def test_check_with_no_sandbox_runs_lean_without_bwrap(tmp_path: Path, clean_env: dict[str, str]) -> None:
    result = runner.invoke(app, check_args(tmp_path, "--no-sandbox", "--json"), env=clean_env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ok"] is True


def test_config_file_can_turn_the_sandbox_off(tmp_path: Path, clean_env: dict[str, str]) -> None:
    (tmp_path / "lemmaforge.toml").write_text("[verifier]\nsandbox = false\n", encoding="utf-8")
    result = runner.invoke(app, check_args(tmp_path, "--json"), env=clean_env)
    assert result.exit_code == 0, result.output


def test_the_sandbox_setting_is_part_of_the_recorded_run_config() -> None:
    assert Settings().to_record()["verifier"]["sandbox"] is True
    off = load_config(None, {"verifier": {"sandbox": False}}, environ={})
    assert off.to_record()["verifier"]["sandbox"] is False


@pytest.mark.skipif(find_bwrap() is None or bwrap_works(find_bwrap() or "") is not None,
                    reason="bwrap missing or unable to create a sandbox here")
def test_sandboxed_lake_check_passes_a_normal_proof(tmp_path: Path, clean_env: dict[str, str]) -> None:
    env = {**clean_env, "PATH": f"{clean_env['PATH']}:{os.path.dirname(find_bwrap() or '')}"}
    result = runner.invoke(app, check_args(tmp_path, "--json"), env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["ok"] is True


def _doctor(env: dict[str, str]) -> dict[str, dict[str, str]]:
    result = runner.invoke(app, ["doctor", "--json"], env=env)
    assert result.exit_code in (0, 1), result.output
    return {f["name"]: f for f in json.loads(result.stdout)["findings"]}


def test_doctor_names_a_missing_sandbox_and_the_fix(clean_env: dict[str, str]) -> None:
    found = _doctor({**clean_env, "LEMMAFORGE_VERIFIER__BACKEND": "lake"})
    assert found["sandbox"]["status"] == "missing"
    assert "bwrap not found" in found["sandbox"]["detail"]
    assert "apt-get install bubblewrap" in found["sandbox"]["fix"]
    off = _doctor({**clean_env, "LEMMAFORGE_VERIFIER__BACKEND": "lake", "LEMMAFORGE_VERIFIER__SANDBOX": "false"})
    assert off["sandbox"]["status"] == "info" and off["sandbox"]["detail"].startswith("off")


@pytest.mark.skipif(find_bwrap() is None or bwrap_works(find_bwrap() or "") is not None,
                    reason="bwrap missing or unable to create a sandbox here")
def test_doctor_names_the_sandbox_and_its_version(clean_env: dict[str, str]) -> None:
    env = {**clean_env, "PATH": f"{clean_env['PATH']}:{os.path.dirname(find_bwrap() or '')}"}
    found = _doctor(env)
    assert found["sandbox"]["status"] == "ok"
    assert "bubblewrap" in found["sandbox"]["detail"] and find_bwrap() in found["sandbox"]["detail"]


@pytest.mark.skipif(find_bwrap() is None or bwrap_works(find_bwrap() or "") is not None,
                    reason="bwrap missing or unable to create a sandbox here")
def test_doctor_reports_the_sandbox_s_effective_settings(clean_env: dict[str, str]) -> None:
    """Read from inside a sandbox, in text and --json: uid, capabilities, seccomp, the limits."""
    env = {**clean_env, "PATH": f"{clean_env['PATH']}:{os.path.dirname(find_bwrap() or '')}",
           "LEMMAFORGE_VERIFIER__SANDBOX_TMP_MB": "48", "LEMMAFORGE_VERIFIER__MEMORY_LIMIT_MB": "2048"}
    result = runner.invoke(app, ["doctor", "--json"], env=env)
    data = json.loads(result.stdout)
    settings = data["sandbox"]
    assert settings["works"] and settings["uid_inside"] == 65534
    assert settings["capabilities_dropped"] and settings["capabilities_inside"] == "0" * 16
    assert settings["no_new_privileges"] and settings["tmp_mb"] == 48 and settings["memory_mb"] == 2048
    from lemmaforge.lean.sandbox import seccomp_program

    assert settings["seccomp"] is (seccomp_program()[0] is not None)
    assert settings["missing"] == []
    finding = {f["name"]: f for f in data["findings"]}["sandbox settings"]
    assert "uid 65534 inside" in finding["detail"] and "capabilities dropped" in finding["detail"]
    text = runner.invoke(app, ["doctor"], env={**env, "COLUMNS": "400"}).stdout
    assert "sandbox settings" in text and "capabilities dropped" in text


OLD_BWRAP = """#!/bin/sh
# bubblewrap as an older release: no --disable-userns, --seccomp or --size
if [ "$1" = "--help" ]; then {bwrap} --help | grep -v -e '--disable-userns' -e '--seccomp' -e '--size'; exit 0; fi
for a in "$@"; do
  case "$a" in --disable-userns|--seccomp|--size) echo "bwrap: Unknown option $a" >&2; exit 1;; --) break;; esac
done
exec {bwrap} "$@"
"""


@pytest.mark.skipif(find_bwrap() is None or bwrap_works(find_bwrap() or "") is not None,
                    reason="bwrap missing or unable to create a sandbox here")
def test_an_older_bwrap_s_missing_protections_are_reported_not_assumed(tmp_path: Path,
                                                                       clean_env: dict[str, str]) -> None:
    old = tmp_path / "old-bwrap" / "bwrap"
    old.parent.mkdir()
    old.write_text(OLD_BWRAP.format(bwrap=find_bwrap()), encoding="utf-8")
    old.chmod(0o755)
    env = {**clean_env, "PATH": f"{old.parent}:{clean_env['PATH']}:{os.path.dirname(find_bwrap() or '')}"}
    result = runner.invoke(app, ["doctor", "--json"], env=env)
    data = json.loads(result.stdout)
    assert data["sandbox"]["missing"] == ["--disable-userns", "--seccomp", "--size"]
    assert data["sandbox"]["works"] and data["sandbox"]["capabilities_dropped"]  # what it has still holds
    assert data["sandbox"]["seccomp"] is False and "RLIMIT_FSIZE" in data["sandbox"]["tmp_limit"]
    finding = {f["name"]: f for f in data["findings"]}["sandbox settings"]
    assert finding["status"] == "info" and "weaker here" in finding["detail"]
    assert "--seccomp" in finding["detail"] and "--size" in finding["detail"]
    # and the sandbox leaves them out rather than fail: a check still runs under it
    result = runner.invoke(app, check_args(tmp_path, "--json"), env=env)
    assert result.exit_code == 0, result.output


# --- a hostile file through `lemmaforge check` ---------------------------------------------------------


def _hostile_setup(tmp_path: Path, plan: dict[str, Any]) -> tuple[Path, Path, Any]:
    """A Lean project (the victims), the fake REPL, a config naming them, and the file to check."""
    from tests.fakes.fake_repl import make_fake_repl_config
    from tests.fakes.hostile import MARKER, Victims
    from tests.lean.test_sandbox import FAKES, HEADER, interpreter_paths
    from tests.lean.test_sandbox import PROOF as GOOD_PROOF

    victims = Victims(tmp_path / "victims")
    fake = make_fake_repl_config(tmp_path / "fake", transcripts=False)
    fake.set_behaviour(log_path=None)
    paths = [fake.root, FAKES, victims.toolchain, victims.repl, *interpreter_paths()]
    config = tmp_path / "lemmaforge.toml"
    config.write_text(
        "[verifier]\nbackend = \"repl\"\n"
        f"project = {json.dumps(str(victims.project))}\nrepl_path = {json.dumps(str(fake.root / 'repl'))}\n"
        f"lake_path = {json.dumps(str(fake.lake_path))}\nworkers = 1\ntimeout = 120\nheader_timeout = 120\n"
        f"sandbox_tmp_mb = 16\nsandbox_max_processes = 48\nsandbox_paths = {json.dumps([str(p) for p in paths])}\n",
        encoding="utf-8")
    file = tmp_path / "hostile.lean"
    file.write_text(HEADER + MARKER + json.dumps(plan) + "\n\n" + GOOD_PROOF, encoding="utf-8")
    return config, file, victims


def _cli_env(tmp_path: Path) -> dict[str, str]:
    host_tmp = tmp_path / "host-tmp"
    host_tmp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEMMAFORGE_")}
    return {**env, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "TMPDIR": str(host_tmp),
            "OPENAI_API_KEY": SECRET, "LEAN_API_TOKEN": SECRET, "LEMMAFORGE_DB_URL": f"sqlite:///{tmp_path / 'r.db'}"}


SECRET = "sk-cli-hostile-secret-81d2"


@pytest.fixture
def marker() -> Iterator[str]:
    from tests.fakes.hostile import kill_marked

    name = f"hostile-orphan-{uuid.uuid4().hex}"
    yield name
    kill_marked(name)


def _plan(victims_root: Path, marker: str) -> dict[str, Any]:
    from tests.fakes.hostile import Victims

    paths = Victims(victims_root).paths  # (re-made identically by _hostile_setup)
    return {"paths": [*paths, "/usr"], "secret": SECRET, "parents": [os.getpid()], "fork": 200, "fill_mb": 64,
            "orphan": marker}


@pytest.mark.slow
@pytest.mark.skipif(find_bwrap() is None or bwrap_works(find_bwrap() or "") is not None,
                    reason="bwrap missing or unable to create a sandbox here")
def test_check_of_a_hostile_file_gains_nothing_and_the_same_file_unsandboxed_does(tmp_path: Path,
                                                                                   marker: str) -> None:
    from tests.fakes.hostile import processes_with, report_of
    from tests.lean.test_sandbox_hostile import assert_held
    from tests.waiting import until_sync

    config, file, victims = _hostile_setup(tmp_path, _plan(tmp_path / "victims", marker))
    before = victims.snapshot()
    env = _cli_env(tmp_path)
    argv = [sys.executable, "-m", "lemmaforge.cli", "check", str(file), "--config", str(config), "--json"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr  # proved: no attack won (each would be an error)
    assert json.loads(done.stdout)["errors"] == []
    assert victims.snapshot() == before
    until_sync(lambda: not processes_with(marker), what="the payload's detached process to die with the sandbox")
    assert list((tmp_path / "host-tmp").iterdir()) == []
    # the report itself, through the same backend and sandbox settings the CLI used
    from lemmaforge.config import load_config
    from lemmaforge.lean.repl import ReplVerifier

    cfg = load_config(config, {}, environ={}).verifier

    async def one() -> list[str]:
        verifier = ReplVerifier.from_config(cfg)
        try:
            return [m.data for m in (await verifier.check(file.read_text(encoding="utf-8"))).messages]
        finally:
            await verifier.close()

    import asyncio

    report = report_of(asyncio.run(one()))
    assert report is not None
    assert_held(report, seccomp=False)  # (seccomp asserted in tests/lean/test_sandbox_hostile.py)

    unsandboxed = subprocess.run([*argv, "--no-sandbox"], env=env, capture_output=True, text=True, timeout=600,
                                 check=False)
    assert unsandboxed.returncode == 1, unsandboxed.stdout + unsandboxed.stderr
    errors = json.loads(unsandboxed.stdout)["errors"]
    assert any("hostile: secrets won" in e for e in errors) and any("hostile: writes won" in e for e in errors)
    if os.geteuid() == 0:
        assert any("hostile: capabilities won" in e for e in errors)
    assert victims.snapshot() != before


@pytest.mark.skipif(find_bwrap() is None or bwrap_works(find_bwrap() or "") is not None,
                    reason="bwrap missing or unable to create a sandbox here")
def test_sigkill_of_lemmaforge_mid_check_leaves_no_sandboxed_process_and_no_directory(tmp_path: Path,
                                                                                       marker: str) -> None:
    """The payload starts a detached process and hangs; lemmaforge is SIGKILLed while it waits.
    bwrap dies with it (--die-with-parent), and with bwrap its pid namespace: the REPL, the
    detached process, everything. The sandbox's /tmp was a tmpfs inside it: nothing is left on the
    host. The dead process's pids cgroup goes at the next sandbox start."""
    import psutil

    from lemmaforge.lean.sandbox import CGROUPS, Sandbox
    from tests.fakes.hostile import processes_with
    from tests.waiting import until_sync

    config, file, _ = _hostile_setup(tmp_path, {"orphan": marker, "hang": True})
    fake_root = str(tmp_path / "fake")
    parent = subprocess.Popen([sys.executable, "-m", "lemmaforge.cli", "check", str(file), "--config", str(config),
                               "--json"], env=_cli_env(tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        until_sync(lambda: processes_with(marker) or parent.poll() is not None,
                   what="the payload's detached process to start", limit=120)
        assert parent.poll() is None, "lemmaforge ended before the payload hung"
        sandboxed = [p for p in psutil.Process(parent.pid).children(recursive=True)]
        assert sandboxed, "no sandboxed process under lemmaforge"
    finally:
        parent.kill()  # SIGKILL: nothing of lemmaforge runs after it
        parent.wait()

    def left() -> list[int]:
        alive = [p.pid for p in sandboxed if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        return alive + processes_with(marker) + processes_with(fake_root)

    until_sync(lambda: not left(), what="every sandboxed process to die with lemmaforge")
    assert list((tmp_path / "host-tmp").iterdir()) == []
    if CGROUPS.base is not None:
        Sandbox(find_bwrap() or "bwrap", ()).prepare(["true"], cwd="/").finished()  # the next start
        assert not any(p.name.startswith(f"{parent.pid}-") for p in CGROUPS.base.iterdir())


@pytest.mark.skipif(os.geteuid() != 0, reason="the tests run as an ordinary user already: every test here is one")
@pytest.mark.skipif(find_bwrap() is None or bwrap_works(find_bwrap() or "") is not None,
                    reason="bwrap missing or unable to create a sandbox here")
def test_check_of_a_hostile_file_as_an_ordinary_user(tmp_path: Path, marker: str) -> None:
    """`lemmaforge check` run by uid 65534: needs an interpreter with lemmaforge's dependencies that
    this user can run (tests/lean/test_sandbox_hostile.py runs the argument builder as that user
    with the system Python where the project's is out of its reach)."""
    probe = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", sys.executable,
                            "-c", "import lemmaforge.cli"], capture_output=True, text=True, check=False,
                           env={"PYTHONPATH": str(Path(__file__).resolve().parents[2]), "PATH": "/usr/bin:/bin"})
    if probe.returncode != 0:
        pytest.skip(f"uid 65534 cannot run this interpreter with lemmaforge's dependencies ({sys.executable}: "
                    f"{(probe.stderr.strip().splitlines() or ['?'])[-1][:160]})")
    from tests.lean.test_sandbox import interpreter_paths

    hidden = [str(p) for p in interpreter_paths()
              if subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", "ls", str(p)],
                                capture_output=True, check=False).returncode != 0]
    if hidden:  # bwrap, run by that user, could not bind them for the fake REPL's interpreter
        pytest.skip(f"uid 65534 cannot read the interpreter's installation: {', '.join(dict.fromkeys(hidden))}")
    base = Path(tempfile.mkdtemp(prefix="sandbox-test-cli-user-"))
    try:
        base.chmod(0o755)
        config, file, victims = _hostile_setup(base, _plan(base / "victims", marker))
        for path in [base, *base.rglob("*")]:
            os.chown(path, 65534, 65534)
        before = victims.snapshot()
        env = {**_cli_env(base), "HOME": str(base)}
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", sys.executable, "-m",
                "lemmaforge.cli", "check", str(file), "--config", str(config), "--json"]
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        assert json.loads(done.stdout)["errors"] == []
        assert victims.snapshot() == before
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_run_versions_name_the_sandbox_that_ran_lean(monkeypatch: pytest.MonkeyPatch) -> None:
    from lemmaforge.services import versions

    monkeypatch.setenv("PATH", "/nowhere")
    assert versions(load_config(None, {"verifier": {"backend": "lake"}}, environ={}))["sandbox"] == "bwrap"
    assert "sandbox" not in versions(load_config(None, {"verifier": {"backend": "lake", "sandbox": False}}, environ={}))
    assert "sandbox" not in versions(load_config(None, {"verifier": {"backend": "kimina"}}, environ={}))


@pytest.mark.slow
def test_prove_records_no_sandbox_with_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`prove --no-sandbox` (here on the fake Kimina server and fake models) is in the run's
    recorded config; without the flag the default (sandboxed) is."""
    from sqlalchemy import create_engine, select
    from sqlalchemy.orm import Session

    from lemmaforge.db.models import RunRow
    from tests.fakes.fake_kimina import FakeKimina
    from tests.fakes.fake_openai import FakeOpenAIServer
    from tests.fakes.prove_runs import ENV, fake_lean, prove_args
    from tests.search.scenarios import DEFS, HEADER, THEOREM, lean_block

    for var in list(os.environ):
        if var.startswith("LEMMAFORGE_"):
            monkeypatch.delenv(var)
    problem = tmp_path / "t.lean"
    problem.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    ids = {}
    for flag in ("--no-sandbox", None):
        with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
            extra = [flag] if flag else []
            r = runner.invoke(app, [*prove_args(problem, kimina, llm, db, "--budget", "llm_calls=1"), *extra, "--json"],
                              env=ENV)
            assert r.exit_code == 1, r.output
            ids[flag] = json.loads(r.stdout)["run_id"]
    engine = create_engine(db)
    with Session(engine) as session:
        recorded = {flag: session.scalars(select(RunRow).where(RunRow.id == run_id)).one().config
                    for flag, run_id in ids.items()}
    engine.dispose()
    assert recorded["--no-sandbox"]["verifier"]["sandbox"] is False
    assert recorded[None]["verifier"]["sandbox"] is True

"""LakeVerifier against a fake `lake` executable that prints `lean --json` messages."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from lemmaforge.config import VerifierConfig
from lemmaforge.lean.lake import LakeVerifier, parse_lean_json
from lemmaforge.lean.verifier import (
    CheckStatus,
    Goal,
    Position,
    ProofStatesUnsupported,
    Severity,
    Verifier,
    VerifierError,
)
from tests.fakes.fake_kimina import MessageRule, ScriptedLean
from tests.lean.positions import where
from tests.waiting import until_sync

FAKE_LAKE = str(Path(__file__).resolve().parents[1] / "fakes" / "lake")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "LeanProject"
    root.mkdir()
    (root / "lakefile.toml").write_text('name = "LeanProject"\n')
    return root


@pytest.fixture
def verifier(project: Path) -> LakeVerifier:
    return LakeVerifier(project, lake_path=FAKE_LAKE, workers=2, timeout=30)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A killed child of a dead parent is reaped by init; until then it is a zombie, i.e. dead.
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split(") ")[1].startswith("Z"))


def test_is_a_verifier_without_proof_states(verifier: LakeVerifier) -> None:
    assert isinstance(verifier, Verifier)
    assert verifier.name == "lake" and verifier.supports_proof_states is False


async def test_run_tactic_is_unsupported(verifier: LakeVerifier) -> None:
    with pytest.raises(ProofStatesUnsupported):
        await verifier.run_tactic(Goal("⊢ True"), "trivial")


async def test_valid_proof_of_a_real_statement(verifier: LakeVerifier, minif2f: dict) -> None:
    row = minif2f["mathd_algebra_182"]

    result = await verifier.check(row["header"] + row["formal_statement"].replace("sorry", "ring"))

    assert result.status is CheckStatus.VALID and result.ok
    assert result.backend == "lake" and result.error is None and result.time > 0
    assert result.raw is not None and result.raw["returncode"] == 0


async def test_sorry_is_incomplete_without_holes(verifier: LakeVerifier, minif2f: dict) -> None:
    row = minif2f["amc12a_2015_p10"]
    code = row["header"] + row["formal_statement"]

    result = await verifier.check(code)

    assert result.status is CheckStatus.INCOMPLETE and result.uses_sorry and not result.ok
    assert result.holes == []  # lean --json has no goals for sorries
    [warning] = result.messages
    assert warning.severity is Severity.WARNING and warning.pos == where(code, "amc12a_2015_p10")


async def test_errors_keep_their_positions(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lean = ScriptedLean(rules=[MessageRule(r"linarith", "linarith failed to find a contradiction")])
    monkeypatch.setenv("FAKE_LAKE_LEAN", lean.to_json())
    code = "import Mathlib\n\ntheorem t (x : ℝ) (h : 0 < x) : 0 < x := by\n  linarith\n"

    result = await LakeVerifier(project, lake_path=FAKE_LAKE).check(code)

    assert result.status is CheckStatus.ERROR
    [error] = result.errors
    assert (error.pos, error.end_pos) == (Position(4, 2), Position(4, 10))
    assert error.data == "linarith failed to find a contradiction"
    assert result.raw is not None and result.raw["returncode"] == 1


async def test_information_severity_becomes_info(verifier: LakeVerifier) -> None:
    code = "import Mathlib\ntheorem t : 2 + 2 = 4 := by native_decide\n#print axioms t\n"

    result = await verifier.check(code)

    [info] = result.messages
    assert info.severity is Severity.INFO and info.pos == Position(3, 0)
    assert info.data == "'t' depends on axioms: [propext, Classical.choice, Lean.ofReduceBool, Quot.sound]"


async def test_timeout_kills_lake_and_its_children(
    verifier: LakeVerifier, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "child.pid"
    monkeypatch.setenv("FAKE_LAKE_HANG", "1")
    monkeypatch.setenv("FAKE_LAKE_PIDFILE", str(pidfile))

    started = time.monotonic()
    result = await verifier.check("theorem t : True := trivial", timeout=1.0)

    assert result.status is CheckStatus.TIMEOUT and "time limit of 1s" in (result.error or "")
    assert time.monotonic() - started < 10
    child = int(pidfile.read_text())
    until_sync(lambda: not alive(child), what="lake's child killed")


async def test_a_dying_lean_is_a_crash(verifier: LakeVerifier, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_LAKE_CRASH", "1")

    result = await verifier.check("theorem t : True := trivial")

    assert result.status is CheckStatus.CRASHED
    assert result.error == "lake env lean exited with 134: INTERNAL PANIC: out of memory"


@pytest.mark.slow
async def test_check_many_keeps_order_and_bounds_workers(
    verifier: LakeVerifier, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log_dir = tmp_path / "runs"
    log_dir.mkdir()
    monkeypatch.setenv("FAKE_LAKE_LOG", str(log_dir))
    monkeypatch.setenv("FAKE_LAKE_SLEEP", "0.3")
    codes = [f"theorem t{i} : {i} = {i} := {'by sorry' if i % 2 else 'rfl'}" for i in range(6)]

    results = await verifier.check_many(codes)

    assert [r.status for r in results] == [CheckStatus.VALID, CheckStatus.INCOMPLETE] * 3
    runs = [tuple(map(float, f.read_text().split())) for f in log_dir.iterdir()]
    assert len(runs) == 6
    most_at_once = max(sum(1 for s, e in runs if s <= start < e) for start, _ in runs)
    assert most_at_once <= 2  # workers=2


async def test_memory_limit_leaves_room_to_work(project: Path) -> None:
    verifier = LakeVerifier(project, lake_path=FAKE_LAKE, memory_limit_mb=4096)
    assert (await verifier.check("theorem t : 1 = 1 := rfl")).ok


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is enforced on Linux only")
async def test_memory_limit_applies_to_the_child(project: Path) -> None:
    tiny = LakeVerifier(project, lake_path=FAKE_LAKE, memory_limit_mb=1)  # too little to even load libc
    result = await tiny.check("theorem t : 1 = 1 := rfl")
    assert result.status is CheckStatus.CRASHED and "exited with" in (result.error or "")


def test_relative_lake_path_is_made_absolute(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(Path(FAKE_LAKE).parent)
    assert LakeVerifier(project, lake_path="./lake").lake == FAKE_LAKE


async def test_ping_reports_the_lake_version(verifier: LakeVerifier) -> None:
    assert await verifier.ping() == "Lake version 5.0.0-fake (Lean version 4.19.0)"


# --- set-up errors ------------------------------------------------------------------------------------


def test_missing_lake_binary(project: Path) -> None:
    with pytest.raises(VerifierError, match="'no-such-lake' not found: install Lean with"):
        LakeVerifier(project, lake_path="no-such-lake")


def test_missing_project(tmp_path: Path) -> None:
    with pytest.raises(VerifierError, match="Lean project not found"):
        LakeVerifier(tmp_path / "nowhere", lake_path=FAKE_LAKE)


def test_no_project_configured() -> None:
    with pytest.raises(VerifierError, match="needs a Lean project"):
        LakeVerifier.from_config(VerifierConfig(backend="lake", lake_path=FAKE_LAKE))


def test_directory_without_lakefile(tmp_path: Path) -> None:
    with pytest.raises(VerifierError, match="not a Lake project"):
        LakeVerifier(tmp_path, lake_path=FAKE_LAKE)


def test_from_config(project: Path) -> None:
    cfg = VerifierConfig(backend="lake", project=project, lake_path=FAKE_LAKE, workers=3, timeout=50)
    verifier = LakeVerifier.from_config(cfg)
    assert (verifier.project, verifier.lake, verifier.timeout) == (project.resolve(), FAKE_LAKE, 50)


# --- parsing real `lean --json` lines -----------------------------------------------------------------


def test_parse_lean_json_shapes() -> None:
    out = "\n".join(
        [
            # Lean ≥ 4.9 SerialMessage, compact, endPos null, information severity
            '{"fileName":"/tmp/x/Check.lean","pos":{"line":3,"column":0},"endPos":null,"keepFullRange":false,'
            '"severity":"information","isSilent":false,"caption":"","data":"Nat : Type","kind":"[anonymous]"}',
            # older Lean: fewer fields, no endPos
            '{"severity":"error","pos":{"line":1,"column":7},"fileName":"Check.lean","data":"unknown identifier \'x\'",'
            '"caption":""}',
            "something that is not JSON",
        ]
    )
    messages, stray = parse_lean_json(out)
    assert messages == [
        {"severity": "info", "data": "Nat : Type", "pos": {"line": 3, "column": 0}},
        {"severity": "error", "data": "unknown identifier 'x'", "pos": {"line": 1, "column": 7}},
    ]
    assert stray == ["something that is not JSON"]


async def test_behind_the_gate_a_backend_without_a_check_queue_never_reports_idle_and_ignores_an_order(
    verifier: LakeVerifier,
) -> None:
    """`lake` runs one process per check (no queue, `QueuedVerifier` is not its contract): behind
    the gate its "Lean has room" event is one that never fires, it reports no room for work started
    ahead, and an order given with a check is not forced on it."""
    from lemmaforge.lean.gate import GatedVerifier
    from lemmaforge.lean.verifier import QueuedVerifier
    from lemmaforge.schedule.order import CheckOrder

    gated = GatedVerifier(verifier)
    assert not isinstance(verifier, QueuedVerifier)
    heard: list[int] = []
    gated.idle.listen(lambda: heard.append(1))
    result = await gated.check("theorem t : True := trivial", order=CheckOrder((0, -1, -1, 0)))
    assert result.status is CheckStatus.VALID
    assert heard == [] and gated.has_room() is False

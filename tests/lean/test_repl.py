"""ReplVerifier: the lean-interact REPL pool, driven through the real lean-interact code path
(`LeanServer` → `lake env …/repl`) against the fake REPL process of tests/fakes."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pickle
import signal
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import psutil
import pytest

from lemmaforge.config import VerifierConfig
from lemmaforge.lean.repl import ReplVerifier, WorkerHandle, split_header
from lemmaforge.lean.verifier import CheckStatus, Goal, Verifier, VerifierError
from tests.fakes.fake_lean import FakeLean
from tests.fakes.fake_repl import FakeRepl, make_fake_repl_config
from tests.waiting import until

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"
OTHER_HEADER = "import Mathlib\n\n"
SKETCH = """theorem t (a b : ℝ) (h : 0 < a ∧ 0 < b) : 0 < a * b ∧ 0 < a + b := by
  have h1 : 0 < a * b := by sorry
  have h2 : 0 < a + b := by sorry
  exact ⟨h1, h2⟩
"""
TACTICS_CLOSE = [{"match": r"^n?linarith$", "on": "tactic", "closes": True}]

Factory = Callable[..., tuple[ReplVerifier, FakeRepl]]


@pytest.fixture
async def pool(tmp_path: Path) -> AsyncIterator[Factory]:
    """make(workers=…, rules=…, latency=…, …) → (ReplVerifier on a fresh fake install, the fake)."""
    made: list[ReplVerifier] = []

    def make(
        *,
        workers: int = 1,
        rules: Sequence[dict[str, Any]] = (),
        latency: dict[str, float] | None = None,
        timeout: float = 10.0,
        header_timeout: float = 10.0,
        max_checks_per_worker: int = 1000,
        memory_limit_mb: int | None = None,
        transcripts: bool = False,
        **kwargs: Any,
    ) -> tuple[ReplVerifier, FakeRepl]:
        fake = make_fake_repl_config(
            tmp_path / f"fake{len(made)}",
            rules=rules,
            latency=latency,
            transcripts=transcripts,
            memory_limit_mb=memory_limit_mb,
        )
        verifier = ReplVerifier(
            fake.config,
            workers=workers,
            timeout=timeout,
            header_timeout=header_timeout,
            max_checks_per_worker=max_checks_per_worker,
            **kwargs,
        )
        made.append(verifier)
        return verifier, fake

    yield make
    for verifier in made:
        await verifier.close()


def _requests_with(fake: FakeRepl, marker: str) -> list[dict[str, Any]]:
    return [e for e in fake.requests() if marker in e["head"]]


async def _wait_for_request(fake: FakeRepl, marker: str) -> dict[str, Any]:
    await until(lambda: _requests_with(fake, marker), what=f"a request containing {marker!r} at the fake")
    return _requests_with(fake, marker)[-1]


def _repl_threads() -> list[str]:
    """The REPL pools' worker threads still alive (`ReplVerifier`'s executor names them)."""
    return [t.name for t in threading.enumerate() if t.name.startswith("lemmaforge-repl")]


# --------------------------------------------------------------------------------------------------
# Header split
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "header", "body_starts"),
    [
        (HEADER + SKETCH, HEADER.strip(), "theorem t (a b"),
        ("theorem t : 1 = 1 := rfl", "", "theorem t"),
        (
            "/- Copyright\n  text -/\nimport Mathlib\n-- note\nopen Real\ntheorem t : True := trivial",
            "/- Copyright\n  text -/\nimport Mathlib\n-- note\nopen Real",
            "theorem t",
        ),
        ("import Mathlib\nopen Real in\ntheorem t : True := trivial", "import Mathlib", "open Real in"),
        ("import Mathlib\nset_option maxHeartbeats 0 in\ntheorem t : True := trivial", "import Mathlib", "set_option"),
        ("import Mathlib\nopen Real\n  Nat\ntheorem t : True := trivial", "import Mathlib\nopen Real\n  Nat", "theorem"),
        ("import Mathlib\n/-- doc -/\ntheorem t : True := trivial", "import Mathlib", "/-- doc -/"),
        ("import Mathlib\nuniverse u\nnamespace Foo", "import Mathlib\nuniverse u", "namespace Foo"),
    ],
)
def test_split_header(code: str, header: str, body_starts: str) -> None:
    got_header, body, offset = split_header(code)
    assert got_header.strip() == header
    assert "\n".join(code.split("\n")[offset:]) == body  # the body starts at file line offset + 1
    assert body.lstrip().startswith(body_starts)


# --------------------------------------------------------------------------------------------------
# Header reuse and scheduling
# --------------------------------------------------------------------------------------------------


async def test_verifier_satisfies_the_protocol(pool: Factory) -> None:
    verifier, _ = pool()
    assert isinstance(verifier, Verifier)
    assert verifier.name == "repl" and verifier.supports_proof_states


@pytest.mark.slow
async def test_header_is_elaborated_once_per_worker(pool: Factory) -> None:
    verifier, fake = pool(workers=3, latency={"cmd_s": 0.02}, transcripts=True)
    # Thirty files with the same header, all declaring the same theorem name: every check branches
    # from the header env, so none sees another's `t`.
    results = await verifier.check_many([HEADER + SKETCH] * 30)
    assert all(r.status is CheckStatus.INCOMPLETE and len(r.holes) == 2 for r in results)
    assert not any(r.errors for r in results)
    assert fake.header_elaborations() == 3
    assert fake.process_starts() == 3
    stats = verifier.stats()
    assert (stats.header_elaborations, stats.checks, stats.restarts) == (3, 30, 0)


@pytest.mark.slow
async def test_positions_are_relative_to_the_whole_file(pool: Factory) -> None:
    verifier, _ = pool()
    code = HEADER + SKETCH + "\n#print axioms t\n"
    result = await verifier.check(code)
    # What Lean says about the whole file sent in one piece: the header adds no messages, so the
    # split-and-shift answer must be identical.
    whole = FakeLean().respond({"cmd": code})
    assert whole is not None
    assert [h.to_json() | {"proofState": None} for h in result.holes] == [
        {"goal": s["goal"], "pos": s["pos"], "endPos": s["endPos"], "proofState": None} for s in whole["sorries"]
    ]
    assert [m.to_json() for m in result.messages] == whole["messages"]
    assert result.holes[0].pos is not None and result.holes[0].pos.line == 9
    assert result.messages[0].pos is not None and result.messages[0].pos.line == 8
    assert "sorryAx" in result.messages[-1].data


@pytest.mark.slow
async def test_two_headers_share_the_pool(pool: Factory) -> None:
    verifier, fake = pool(workers=2)
    for code in [HEADER, OTHER_HEADER, HEADER, OTHER_HEADER, HEADER]:
        assert (await verifier.check(code + SKETCH)).status is CheckStatus.INCOMPLETE
    assert fake.header_elaborations() == 2
    assert verifier.stats().header_switches == 0


@pytest.mark.slow
async def test_one_worker_switches_header_when_needed(pool: Factory) -> None:
    verifier, fake = pool(workers=1)
    for code in [HEADER, OTHER_HEADER, HEADER]:
        assert (await verifier.check(code + SKETCH)).status is CheckStatus.INCOMPLETE
    assert fake.header_elaborations() == 3
    assert verifier.stats().header_switches == 2


@pytest.mark.slow
async def test_interleaved_headers_under_load_do_not_thrash(pool: Factory) -> None:
    verifier, fake = pool(workers=2, latency={"cmd_s": 0.01, "header_s": 0.1})
    codes = [(HEADER if i % 2 else OTHER_HEADER) + SKETCH for i in range(40)]
    results = await verifier.check_many(codes)
    assert all(r.status is CheckStatus.INCOMPLETE for r in results)
    # Each worker keeps serving its header while that header has queued checks; at most the tail
    # of one queue moves a worker over.
    assert 2 <= fake.header_elaborations() <= 4


async def test_workers_run_in_parallel_without_blocking_the_event_loop(pool: Factory, tmp_path: Path) -> None:
    """Every worker has a check in Lean at once, and the event loop runs while they all wait.

    No clock: the fake answers a check only once the test lets go of a lock, and the test lets go
    from a coroutine on the same event loop once it sees one check in flight per worker. A pool
    that ran checks one after another never has them all in flight; one that blocked the loop on
    a REPL's answer never lets that coroutine run; either way the wait below fails (the fake ends
    a check held too long), instead of comparing a lag with a bound a busy machine may cross."""
    checks, workers = 12, 4
    gate = tmp_path / "gate.lock"
    rules = [{"match": r"^theorem t\b", "on": "cmd", "wait_unlocked": str(gate)}]
    verifier, fake = pool(workers=workers, rules=rules)
    with gate.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        running = asyncio.create_task(verifier.check_many([HEADER + SKETCH] * checks))
        try:
            await until(lambda: len({e["pid"] for e in _requests_with(fake, "theorem t")}) == workers,
                        what="one check in flight per worker")
            assert not running.done()
            in_flight = _requests_with(fake, "theorem t")
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
        results = await running
    assert len(in_flight) == workers  # held at the gate together, each on its own process
    assert all(r.status is CheckStatus.INCOMPLETE for r in results)
    assert len({e["pid"] for e in _requests_with(fake, "theorem t")}) == workers


@pytest.mark.slow
async def test_check_many_keeps_input_order(pool: Factory) -> None:
    verifier, _ = pool(workers=3, rules=[{"match": "FIRST", "delay_s": 0.1}])
    codes = [HEADER + f"-- FIRST\ntheorem a{i} : 1 = 1 := by sorry" if i == 0 else HEADER + f"theorem a{i} : 1 = 1 := rfl" for i in range(5)]
    results = await verifier.check_many(codes)
    assert [r.status for r in results] == [CheckStatus.INCOMPLETE] + [CheckStatus.VALID] * 4


@pytest.mark.slow
async def test_code_without_header_uses_a_fresh_environment(pool: Factory) -> None:
    verifier, fake = pool()
    for _ in range(2):
        result = await verifier.check("theorem t : 1 = 1 := rfl\n#print axioms t")
        assert result.status is CheckStatus.VALID, result.messages
        assert result.messages[0].data == "'t' does not depend on any axioms"
    assert fake.header_elaborations() == 0
    assert [e["kind"] for e in fake.requests()] == ["cmd", "cmd"]


@pytest.mark.slow
async def test_header_errors_are_reported_once_and_cached(pool: Factory) -> None:
    rules = [{"match": "import Nonexistent", "on": "cmd", "messages": [{"data": "unknown module prefix 'Nonexistent'"}]}]
    verifier, fake = pool(rules=rules)
    code = "import Nonexistent\n\ntheorem t : 1 = 1 := rfl"
    first = await verifier.check(code)
    assert first.status is CheckStatus.ERROR
    assert first.error is not None and first.error.startswith("the header failed to elaborate: 1:0: error: unknown module")
    assert first.errors[0].pos is not None and first.errors[0].pos.line == 1
    second = await verifier.check(code)
    assert second.status is CheckStatus.ERROR and second.error == first.error
    assert fake.header_elaborations() == 1
    assert (await verifier.check(HEADER + SKETCH)).status is CheckStatus.INCOMPLETE


# --------------------------------------------------------------------------------------------------
# Holes, proof states and tactics
# --------------------------------------------------------------------------------------------------


@pytest.mark.slow
async def test_holes_carry_goals_and_proof_states(pool: Factory) -> None:
    verifier, _ = pool()
    result = await verifier.check(HEADER + SKETCH)
    assert [h.goal for h in result.holes] == [
        "a b : ℝ\nh : 0 < a ∧ 0 < b\n⊢ 0 < a * b",
        "a b : ℝ\nh : 0 < a ∧ 0 < b\nh1 : 0 < a * b\n⊢ 0 < a + b",
    ]
    assert [h.proof_state for h in result.holes] == [0, 1]
    assert all(isinstance(h.worker, WorkerHandle) and h.generation == 1 for h in result.holes)
    restored = pickle.loads(pickle.dumps(result.holes[0]))  # e.g. sent to another process
    assert restored.worker == result.holes[0].worker


@pytest.mark.slow
async def test_tactics_go_to_the_worker_that_produced_the_hole(pool: Factory) -> None:
    verifier, fake = pool(workers=2, rules=[*TACTICS_CLOSE, {"match": "SLOW", "delay_s": 0.2}])
    first, second = await asyncio.gather(
        verifier.check(HEADER + "-- SLOW first\n" + SKETCH), verifier.check(HEADER + "-- SLOW second\n" + SKETCH)
    )
    assert first.holes[0].worker != second.holes[0].worker  # both workers were busy at once
    assert first.holes[0].proof_state == second.holes[0].proof_state == 0  # ids are per process
    step_a, step_b = await asyncio.gather(
        verifier.run_tactic(first.holes[0], "linarith"), verifier.run_tactic(second.holes[0], "nlinarith")
    )
    assert step_a.closed and step_b.closed
    pid_of = {e["head"]: e["pid"] for e in fake.requests()}
    assert pid_of["linarith"] == _requests_with(fake, "first")[0]["pid"]
    assert pid_of["nlinarith"] == _requests_with(fake, "second")[0]["pid"]


@pytest.mark.slow
async def test_failing_and_unroutable_tactics_say_why(pool: Factory) -> None:
    verifier, _ = pool(rules=TACTICS_CLOSE)
    other, _ = pool()
    hole = (await verifier.check(HEADER + SKETCH)).holes[0]
    failed = await verifier.run_tactic(hole, "simp")
    assert not failed.closed and failed.error is not None and failed.error.startswith("Lean error:")
    sorry = await verifier.run_tactic(hole, "sorry")
    assert not sorry.closed and sorry.proof_status == "Incomplete: contains sorry" and len(sorry.holes) == 1
    assert (await verifier.run_tactic(sorry.holes[0], "linarith")).closed  # a hole from a tactic step
    assert (await verifier.run_tactic(Goal(goal="⊢ x"), "rfl")).error == (
        "this hole has no proof state (Lean reported none for it)"
    )
    assert (await other.run_tactic(hole, "linarith")).error == "this hole was not produced by this verifier"


@pytest.mark.slow
async def test_proof_states_are_refused_after_their_worker_restarted(pool: Factory) -> None:
    verifier, fake = pool(rules=[*TACTICS_CLOSE, {"match": "HANG", "hang": True}], timeout=0.3)
    hole = (await verifier.check(HEADER + SKETCH)).holes[0]
    assert (await verifier.check(HEADER + "-- HANG")).status is CheckStatus.TIMEOUT
    lost = await verifier.run_tactic(hole, "linarith")
    assert lost.error == "proof state lost: worker restarted"
    await verifier.check(HEADER + SKETCH)  # the worker is back, with new (reused) ids
    assert (await verifier.run_tactic(hole, "linarith")).error == "proof state lost: worker restarted"
    assert not fake.requests("tactic")  # a stale id was never sent


# --------------------------------------------------------------------------------------------------
# Timeouts, crashes, memory, recycling
# --------------------------------------------------------------------------------------------------


@pytest.mark.slow
async def test_timeout_is_reported_and_the_worker_restarts_with_its_header(pool: Factory) -> None:
    verifier, fake = pool(rules=[{"match": "HANG", "hang": True}], timeout=5.0)
    assert (await verifier.check(HEADER + SKETCH)).status is CheckStatus.INCOMPLETE
    hung = await verifier.check(HEADER + "-- HANG", timeout=0.3)
    assert hung.status is CheckStatus.TIMEOUT
    assert hung.error == "no answer from Lean within 0.3 s; the process was killed and will be restarted"
    assert hung.time >= 0.3
    assert (await verifier.check(HEADER + SKETCH)).status is CheckStatus.INCOMPLETE
    assert len(_requests_with(fake, "HANG")) == 1  # a timeout is never retried
    assert fake.header_elaborations() == 2 and fake.process_starts() == 2
    stats = verifier.stats()
    assert (stats.timeouts, stats.restarts, stats.crash_retries) == (1, 1, 0)


@pytest.mark.slow
async def test_header_timeout_is_reported(pool: Factory) -> None:
    verifier, _ = pool(latency={"header_s": 1.0}, header_timeout=0.2)
    result = await verifier.check(HEADER + SKETCH)
    assert result.status is CheckStatus.TIMEOUT
    assert result.error is not None and result.error.startswith("while elaborating the header: no answer")


@pytest.mark.slow
async def test_crash_is_retried_once_then_reported(pool: Factory) -> None:
    verifier, fake = pool(rules=[{"match": "BOOM", "crash": True}])
    result = await verifier.check(HEADER + "-- BOOM")
    assert result.status is CheckStatus.CRASHED
    assert result.error is not None and "the Lean process died (ConnectionAbortedError" in result.error
    assert len(_requests_with(fake, "BOOM")) == 2
    assert (await verifier.check(HEADER + SKETCH)).status is CheckStatus.INCOMPLETE
    stats = verifier.stats()
    assert (stats.crashes, stats.crash_retries, stats.restarts) == (2, 1, 2)


@pytest.mark.slow
async def test_crash_without_retry(pool: Factory) -> None:
    verifier, fake = pool(rules=[{"match": "BOOM", "garbage": True}], crash_retries=0)
    result = await verifier.check(HEADER + "-- BOOM")
    assert result.status is CheckStatus.CRASHED
    assert result.error is not None and "JSONDecodeError" in result.error
    assert len(_requests_with(fake, "BOOM")) == 1


@pytest.mark.slow
@pytest.mark.parametrize("crash_retries", [0, 1])
async def test_worker_killed_mid_request(pool: Factory, crash_retries: int) -> None:
    verifier, fake = pool(rules=[{"match": "SLOW", "delay_s": 0.4}], crash_retries=crash_retries)
    task = asyncio.create_task(verifier.check(HEADER + "-- SLOW\n" + SKETCH))
    victim = await _wait_for_request(fake, "SLOW")
    os.kill(victim["pid"], signal.SIGKILL)
    result = await task
    if crash_retries:
        assert result.status is CheckStatus.INCOMPLETE  # the retry ran on a fresh process
        assert len({e["pid"] for e in _requests_with(fake, "SLOW")}) == 2
    else:
        assert result.status is CheckStatus.CRASHED
        assert result.error is not None and "died" in result.error
    assert verifier.stats().crashes == 1
    assert (await verifier.check(HEADER + SKETCH)).status is CheckStatus.INCOMPLETE


@pytest.mark.slow
async def test_out_of_memory_is_reported_with_the_limit(pool: Factory) -> None:
    verifier, _ = pool(rules=[{"match": "BIG", "alloc_mb": 1500}], memory_limit_mb=1024, crash_retries=0)
    result = await verifier.check(HEADER + "-- BIG")
    assert result.status is CheckStatus.CRASHED
    assert result.error is not None
    assert "INTERNAL PANIC: out of memory" in result.error and "memory_limit_mb=1024" in result.error


@pytest.mark.slow
async def test_worker_near_its_memory_cap_is_recycled_between_checks(pool: Factory) -> None:
    # Cap 4096 MB, recycle above 4% of it (~164 MB resident); the BIG check keeps 250 MB.
    verifier, fake = pool(rules=[{"match": "BIG", "alloc_mb": 250}], memory_limit_mb=4096, memory_recycle_fraction=0.04)
    assert (await verifier.check(HEADER + "-- BIG")).status is CheckStatus.VALID
    assert (await verifier.check(HEADER + SKETCH)).status is CheckStatus.INCOMPLETE
    assert verifier.stats().recycles == 1
    assert fake.process_starts() == 2 and fake.header_elaborations() == 2


@pytest.mark.slow
async def test_workers_are_recycled_after_max_checks(pool: Factory) -> None:
    verifier, fake = pool(max_checks_per_worker=3)
    for _ in range(7):
        assert (await verifier.check(HEADER + SKETCH)).status is CheckStatus.INCOMPLETE
    assert fake.process_starts() == 3 and fake.header_elaborations() == 3
    stats = verifier.stats()
    assert (stats.recycles, stats.restarts) == (2, 2)


@pytest.mark.slow
async def test_holes_of_the_last_check_before_recycling_stay_usable(pool: Factory) -> None:
    verifier, _ = pool(rules=TACTICS_CLOSE, max_checks_per_worker=1)
    hole = (await verifier.check(HEADER + SKETCH)).holes[0]
    assert (await verifier.run_tactic(hole, "linarith")).closed  # recycling waits for the next check


# --------------------------------------------------------------------------------------------------
# Cancellation and shutdown
# --------------------------------------------------------------------------------------------------


@pytest.mark.slow
async def test_cancelled_check_frees_its_worker_when_lean_answers(pool: Factory) -> None:
    verifier, fake = pool(rules=[{"match": "SLOW", "delay_s": 0.3}])
    task = asyncio.create_task(verifier.check(HEADER + "-- SLOW"))
    await _wait_for_request(fake, "SLOW")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (await verifier.check(HEADER + SKETCH)).status is CheckStatus.INCOMPLETE
    assert fake.process_starts() == 1 and verifier.stats().restarts == 0


@pytest.mark.slow
async def test_close_stops_the_processes_and_refuses_new_work(pool: Factory) -> None:
    verifier, _ = pool(workers=2)
    await verifier.check_many([HEADER + SKETCH, OTHER_HEADER + SKETCH])
    pids = [p for p in verifier.worker_pids() if p is not None]
    assert len(pids) == 2
    await verifier.close()
    assert not any(psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE for p in pids)
    with pytest.raises(VerifierError, match="closed"):
        await verifier.check(HEADER + SKETCH)


# --------------------------------------------------------------------------------------------------
# Construction from the typed config
# --------------------------------------------------------------------------------------------------


def test_from_config_without_lake_says_how_to_install(tmp_path: Path) -> None:
    with pytest.raises(VerifierError, match=r"not found on PATH: install Lean with `lemmaforge setup`"):
        ReplVerifier.from_config(VerifierConfig(lake_path="lake-that-does-not-exist", project=tmp_path))
    with pytest.raises(VerifierError, match="lake not found at /nowhere/lake"):
        ReplVerifier.from_config(VerifierConfig(lake_path="/nowhere/lake", project=tmp_path))


def test_from_config_rejects_a_directory_that_is_not_a_lean_project(tmp_path: Path) -> None:
    fake = make_fake_repl_config(tmp_path / "fake", transcripts=False)
    with pytest.raises(VerifierError, match="is not a Lean project"):
        ReplVerifier.from_config(VerifierConfig(lake_path=str(fake.lake_path), project=tmp_path))


@pytest.mark.slow
async def test_from_config_runs_a_local_project_through_lean_interact(tmp_path: Path) -> None:
    fake = make_fake_repl_config(tmp_path / "fake", transcripts=False)
    project = tmp_path / "project"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.19.0\n", encoding="utf-8")
    # Unsandboxed: the fake logs its lake calls into its own folder, which the sandbox keeps
    # read-only (the sandboxed launch: tests/lean/test_sandbox.py).
    cfg = VerifierConfig(project=project, repl_path=fake.root / "repl", lake_path=str(fake.lake_path), workers=2,
                         sandbox=False)
    verifier = ReplVerifier.from_config(cfg)
    try:
        assert verifier._repl_config.working_dir == str(project)  # Lean runs in the project
        assert verifier._repl_config.memory_hard_limit_mb == cfg.memory_limit_mb
        assert (await verifier.check(HEADER + SKETCH)).status is CheckStatus.INCOMPLETE
    finally:
        await verifier.close()
    # Nothing was built, fetched or updated: lean-interact only ran the REPL.
    assert [c.split()[0] for c in fake.lake_calls()] == ["env"]


@pytest.mark.slow
async def test_close_during_checks_leaves_no_stray_exception(pool: Factory) -> None:
    """close() while checks are between their header and their body (one awaited, one whose
    caller was cancelled): the awaited one gets an answer, not an AssertionError, and no future is
    left with an exception nobody retrieves ("Future exception was never retrieved")."""
    import gc

    loop = asyncio.get_running_loop()
    unhandled: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: unhandled.append(context))
    try:
        verifier, fake = pool(workers=2, latency={"header_s": 0.3, "cmd_s": 0.3})
        awaited = asyncio.ensure_future(verifier.check(HEADER + SKETCH))
        abandoned = asyncio.ensure_future(verifier.check(OTHER_HEADER + SKETCH))
        # both real workers have sent their header (elaborated for 0.3 s before the body goes)
        await until(lambda: len(fake.requests("header")) >= 2, what="both headers at the fake")
        abandoned.cancel()
        await verifier.close()
        try:
            result = await awaited
        except VerifierError as exc:
            assert "closed" in str(exc)
        else:
            assert result.status is CheckStatus.CRASHED and "closed" in (result.error or "")
        with pytest.raises(asyncio.CancelledError):
            await abandoned
        await until(lambda: not _repl_threads(), what="the pool's worker threads to finish")
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(previous)
    assert unhandled == []


@pytest.mark.slow
async def test_has_room_while_a_worker_is_free_or_may_start(pool: Factory) -> None:
    """`has_room` (the search starts model requests ahead of need only then): a check submitted
    now would find a worker at once."""
    verifier, _ = pool(workers=1, latency={"cmd_s": 0.4, "header_s": 0.05})
    assert verifier.has_room()  # no worker yet, one may start
    running = asyncio.create_task(verifier.check(HEADER + SKETCH))
    await until(lambda: not verifier.has_room(), what="the only worker busy")
    waiting = asyncio.create_task(verifier.check(HEADER + SKETCH + "\n"))
    await until(lambda: len(verifier._queue) == 1, what="the second check waiting")
    assert not verifier.has_room()
    await asyncio.gather(running, waiting)
    assert verifier.has_room()

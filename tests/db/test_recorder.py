"""SqlRecorder: non-blocking emit, batching, flush/close, errors, threads, asyncio, crashes."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from lemmaforge.db import SqlRecorder, Store, StoreError
from lemmaforge.records import (
    AttemptRecord,
    LLMCallRecord,
    NodeCreated,
    NodeStatusChanged,
    ProofRecord,
    Recorder,
    RunFinished,
    RunStarted,
)
from tests.waiting import HANG_LIMIT, until, until_sync

from .synth import HEADER, expected_nodes, synthetic_run

REPO = Path(__file__).resolve().parents[2]


def test_is_a_recorder(store: Store) -> None:
    with SqlRecorder(store) as rec:
        assert isinstance(rec, Recorder)


def test_two_level_run_reconstructed_from_a_fresh_store(db_url: str) -> None:
    run = synthetic_run()
    with SqlRecorder(Store(db_url), batch_size=7) as rec:  # several batches
        for r in run.records:
            rec.emit(r)

    fresh = Store(db_url)
    info = fresh.get_run(run.run_id)
    assert info is not None and info.status == "proved" and info.summary["depth"] == 2  # type: ignore[index]
    assert fresh.problem(run.problem_id) == run.records[0]

    g = fresh.tree(run.run_id)
    shape = {(u, v, d["relation"], d.get("hole_index")) for u, v, d in g.edges(data=True)}
    assert shape == {
        ("g0", "s0", "decomposition", None),
        ("s0", "h0", "hole", 0),
        ("s0", "h1", "hole", 1),
        ("s0", "h2", "hole", 2),
        ("h2", "s1a", "decomposition", None),
        ("s1a", "h2a0", "hole", 0),
        ("h2", "s1", "decomposition", None),
        ("s1", "h2b0", "hole", 0),
        ("s1", "h2b1", "hole", 1),
    }
    expected = expected_nodes(run.records)
    assert {n: (d["status"], d["strategy"], d["kind"], d["depth"]) for n, d in g.nodes(data=True)} == {
        n: (e["status"], e["strategy"], e["created"].kind, e["created"].depth) for n, e in expected.items()
    }
    assert [n.created() for n in fresh.nodes(run.run_id)] == run.of(NodeCreated)
    assert fresh.attempts(run.run_id) == run.of(AttemptRecord)
    assert fresh.llm_calls(run.run_id) == run.of(LLMCallRecord)
    assert fresh.proofs(run.run_id) == run.of(ProofRecord)
    assert fresh.status_changes(run.run_id) == run.of(NodeStatusChanged)
    # every attempt's LLM call is stored
    calls = {c.call_id for c in fresh.llm_calls(run.run_id)}
    assert {a.llm_call_id for a in fresh.attempts(run.run_id) if a.llm_call_id} <= calls


def test_emitting_the_same_records_twice(store: Store) -> None:
    run = synthetic_run()
    with SqlRecorder(store) as rec:
        for r in run.records:
            rec.emit(r)
        rec.flush()
        for r in run.records:
            rec.emit(r)
    assert len(store.nodes(run.run_id)) == len(run.of(NodeCreated))
    assert store.attempts(run.run_id) == run.of(AttemptRecord)
    assert store.proofs() == run.of(ProofRecord)
    assert store.status_changes(run.run_id) == run.of(NodeStatusChanged)
    assert len(store.runs()) == 1


def test_cached_proof_while_queued_and_across_runs(db_url: str) -> None:
    store = Store(db_url)
    rec = SqlRecorder(store, batch_size=10_000, flush_interval=3600)  # writes only when flushed
    run = synthetic_run("run-a")
    for r in run.records:
        rec.emit(r)
    assert rec.cached_proof(HEADER, "normalized h1") == "nlinarith [sq_nonneg x]"  # still queued
    assert Store(db_url).cached_proof(HEADER, "normalized h1") is None  # not on disk yet
    assert rec.cached_proof(HEADER, "normalized root") is None  # whole proofs are not cached
    rec.close()
    assert not rec._pending_proofs  # written proofs leave the in-memory queue index

    rec2 = SqlRecorder(Store(db_url))  # a later run, another recorder
    assert rec2.cached_proof(HEADER, "normalized h2b1") == "simp"
    assert rec2.cached_proof(HEADER, "normalized nothing") is None
    rec2.close()


def test_batch_size_triggers_a_write_before_the_interval(store: Store) -> None:
    rec = SqlRecorder(store, batch_size=10, flush_interval=3600)
    run = synthetic_run()
    for r in run.records[:12]:
        rec.emit(r)
    until_sync(lambda: rec.written >= 10, what="a write of the first batch")  # the interval is an hour
    rec.close()
    assert rec.written == 12


def test_flush_interval_writes_without_flush(store: Store) -> None:
    rec = SqlRecorder(store, flush_interval=0.02)
    rec.emit(RunStarted(run_id="r", kind="prove", config={}, versions={}))
    until_sync(lambda: store.get_run("r") is not None, what="the interval's write")
    rec.close()


def test_writes_from_several_threads(store: Store) -> None:
    rec = SqlRecorder(store, batch_size=64)
    n_threads, n_nodes = 8, 150

    def worker(t: int) -> None:
        run_id = f"t{t}"
        rec.emit(RunStarted(run_id=run_id, kind="prove", config={}, versions={}))
        for i in range(n_nodes):
            rec.emit(NodeCreated(run_id=run_id, node_id=f"n{i}", kind="goal", depth=0, text=f"{t}/{i}"))
            rec.emit(
                NodeStatusChanged(run_id=run_id, node_id=f"n{i}", status="solved", strategy="automation")
            )
            if i % 50 == 0:
                assert rec.cached_proof("h", "nothing") is None  # reads while the writer writes
        rec.flush()  # each thread's flush covers its own records
        assert len(store.nodes(run_id)) == n_nodes

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rec.close()
    for t in range(n_threads):
        nodes = store.nodes(f"t{t}")
        assert [n.node_id for n in nodes] == [f"n{i}" for i in range(n_nodes)]  # emission order kept
        assert {n.status for n in nodes} == {"solved"}
    assert rec.written == n_threads * (1 + 2 * n_nodes) and not rec.failed


async def test_from_a_running_event_loop(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop never waits for the database: the database is held busy (its writer stuck in a
    write the test has not let through) while concurrent tasks emit ~1000 records, and all of
    them are emitted before it is let go."""
    rec = SqlRecorder(store, batch_size=50, flush_interval=0.01)
    db_open, db_busy = threading.Event(), threading.Event()
    real_write = store.write

    def held_write(batch):  # the writer thread's one way into the database
        db_busy.set()
        assert db_open.wait(HANG_LIMIT), "the test never let the database go"
        return real_write(batch)

    monkeypatch.setattr(store, "write", held_write)
    run = synthetic_run("async-run")

    async def search_branch(i: int) -> None:  # concurrent tasks emitting, as the engine does
        for r in run.records:
            if isinstance(r, NodeCreated) and i == 0:
                rec.emit(r)
            await asyncio.sleep(0)
        for j in range(200):
            rec.emit(
                LLMCallRecord(
                    run_id=run.run_id,
                    call_id=f"extra-{i}-{j}",
                    role="prover",
                    endpoint="e",
                    model="m",
                    request={"i": i},
                    completions=["x" * 2000],
                    finish_reasons=["stop"],
                )
            )
            if j % 20 == 0:
                await asyncio.sleep(0)

    rec.emit(run.records[0])
    rec.emit(run.records[1])
    await until(db_busy.is_set, what="the writer's first write")
    await asyncio.gather(*(search_branch(i) for i in range(5)))
    assert rec.queued >= 1000  # every emit returned while the database was busy
    db_open.set()
    await rec.aflush()
    await rec.aclose()
    assert len(store.llm_calls(run.run_id)) == 1000
    assert len(store.nodes(run.run_id)) == len(run.of(NodeCreated))


@pytest.mark.slow
def test_emit_is_cheap(store: Store) -> None:
    # against what it saves the caller: the same records written by the store itself, timed in this
    # process, so that a busy machine slows both alike (a ratio, not a µs budget); the best of three
    # of each, so that a pause of the whole process in one of them does not decide it
    emitting = writing = float("inf")
    for attempt in range(3):
        rec = SqlRecorder(store, batch_size=1000, flush_interval=0.05)
        emitted_run = f"r{attempt}"
        rec.emit(RunStarted(run_id=emitted_run, kind="prove", config={}, versions={}))
        records = [
            NodeCreated(run_id=emitted_run, node_id=f"n{i}", kind="goal", depth=0, text="t") for i in range(20_000)
        ]
        t0 = time.perf_counter()
        for r in records:
            rec.emit(r)
        emitting = min(emitting, time.perf_counter() - t0)
        rec.close()
        assert len(store.nodes(emitted_run)) == 20_000
        written_run = f"w{attempt}"
        store.write([RunStarted(run_id=written_run, kind="prove", config={}, versions={})])
        again = [NodeCreated(run_id=written_run, node_id=f"n{i}", kind="goal", depth=0, text="t") for i in range(20_000)]
        t0 = time.perf_counter()
        store.write(again)
        writing = min(writing, time.perf_counter() - t0)
    assert emitting * 3 < writing, f"emit {emitting:.3f} s against the store's own write {writing:.3f} s"


def test_writer_errors_are_raised_from_flush_and_good_records_kept(store: Store) -> None:
    rec = SqlRecorder(store)
    good = synthetic_run()
    for r in good.records[:10]:
        rec.emit(r)
    bad = NodeCreated(run_id="no-such-run", node_id="n", kind="goal", depth=0, text="t")
    rec.emit(bad)
    rec.emit(RunFinished(run_id="ghost", status="proved", summary={}))
    for r in good.records[10:]:
        rec.emit(r)
    with pytest.raises(StoreError, match="2 write error") as info:
        rec.flush()
    assert "\n" not in str(info.value)
    assert [type(r) for r, _ in rec.failed] == [NodeCreated, RunFinished] and rec.failed[0][0] is bad
    assert store.attempts(good.run_id) == good.of(AttemptRecord)  # the rest of the batch is stored
    rec.flush()  # errors are reported once
    rec.emit(bad)
    with pytest.raises(StoreError):
        rec.close()
    rec.close()  # idempotent


def test_transient_errors_are_retried(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from lemmaforge.db import StoreUnavailable

    real_write = store.write
    calls = {"n": 0}

    def flaky(records):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] <= 2:
            raise StoreUnavailable("database is locked")
        real_write(records)

    monkeypatch.setattr(store, "write", flaky)
    rec = SqlRecorder(store, retry_backoff=0.001)
    rec.emit(RunStarted(run_id="r", kind="prove", config={}, versions={}))
    rec.close()
    assert store.get_run("r") is not None and calls["n"] == 3 and not rec.failed


def test_close_is_idempotent_and_late_emits_are_not_lost(store: Store) -> None:
    rec = SqlRecorder(store)
    rec.emit(RunStarted(run_id="r", kind="prove", config={}, versions={}))
    rec.close()
    rec.close()
    assert not rec._thread.is_alive()
    rec.emit(NodeCreated(run_id="r", node_id="late", kind="goal", depth=0, text="t"))  # written synchronously
    rec.flush()
    assert [n.node_id for n in store.nodes("r")] == ["late"]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="POSIX signals")
def test_close_from_a_signal_handler_during_flush(store: Store) -> None:
    rec = SqlRecorder(store, batch_size=100)
    rec.emit(RunStarted(run_id="r", kind="prove", config={}, versions={}))
    for i in range(5000):
        rec.emit(NodeCreated(run_id="r", node_id=f"n{i}", kind="goal", depth=0, text="x" * 500))
    handled = threading.Event()

    def handler(*_: object) -> None:
        rec.close()
        handled.set()

    old = signal.signal(signal.SIGUSR1, handler)
    try:
        threading.Timer(0.005, os.kill, (os.getpid(), signal.SIGUSR1)).start()
        rec.flush()  # the signal comes during the flush, or (on a busy machine) after it
        until_sync(handled.is_set, what="the SIGUSR1 handler")  # never restore the default before it ran
    finally:
        signal.signal(signal.SIGUSR1, old)
    rec.close()
    assert len(store.nodes("r")) == 5000 and not rec._thread.is_alive()


def _run_child(code: str, db_url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), db_url],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


CHILD = """
    import os, sys
    from lemmaforge.db import SqlRecorder, Store
    from tests.db.synth import synthetic_run
    rec = SqlRecorder(Store(sys.argv[1]), batch_size=5, flush_interval=3600)
    run = synthetic_run("child")
    for r in run.records:
        rec.emit(r)
    {ending}
"""


@pytest.mark.slow
def test_killed_right_after_flush_loses_nothing(db_url: str) -> None:
    proc = _run_child(CHILD.format(ending="rec.flush(); os._exit(9)"), db_url)
    assert proc.returncode == 9, proc.stderr
    s = Store(db_url)
    run = synthetic_run("child")
    assert len(s.nodes("child")) == len(run.of(NodeCreated))
    assert s.attempts("child") == run.of(AttemptRecord)
    assert s.get_run("child").status == "proved"  # type: ignore[union-attr]


@pytest.mark.slow
def test_normal_exit_without_close_loses_nothing(db_url: str) -> None:
    proc = _run_child(CHILD.format(ending="sys.exit(0)  # atexit closes the recorder"), db_url)
    assert proc.returncode == 0, proc.stderr
    assert Store(db_url).proofs("child") == synthetic_run("child").of(ProofRecord)


@pytest.mark.slow
def test_two_processes_write_the_same_file(db_url: str) -> None:
    """Batch workers: several processes, one SQLite file (WAL + busy timeout), a shared problem."""
    Store(db_url)  # create the schema first, as the batch runner does
    code = """
        import sys
        from lemmaforge.db import SqlRecorder, Store
        from tests.db.synth import synthetic_run
        rec = SqlRecorder(Store(sys.argv[1]), batch_size=16)
        for k in range(4):
            for r in synthetic_run(f"{sys.argv[2]}-{k}", problem_id="shared/p", parent_run_id=None).records:
                rec.emit(r)
        rec.close()
    """
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(code), db_url, f"w{i}"],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    for p in procs:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
    s = Store(db_url)
    assert len(s.runs(problem_id="shared/p")) == 8 and len(s.problems()) == 1
    for i in range(2):
        for k in range(4):
            assert len(s.attempts(f"w{i}-{k}")) == len(synthetic_run().of(AttemptRecord))

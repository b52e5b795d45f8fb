"""The live view of `prove` on stderr: elapsed time, LLM calls and Lean checks against their
budgets, depth, the goal being worked on; and `RunWatch` passing every record on unchanged."""

from __future__ import annotations

import asyncio
import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from lemmaforge import cli
from lemmaforge.config import BudgetConfig
from lemmaforge.records import (
    AttemptRecord,
    LLMCallRecord,
    MemoryRecorder,
    NodeCreated,
    ProofRecord,
    RunStarted,
)
from lemmaforge.viewer.live import RunWatch
from tests.fakes.fake_kimina import FakeKimina
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.fakes.prove_runs import ENV, auto_tac, fake_lean, prove_args, script_sketch
from tests.search.scenarios import DEFS, HEADER, THEOREM, lean_block

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_run_watch_counts_and_passes_records_on():
    inner = MemoryRecorder()
    watch = RunWatch(inner, BudgetConfig(llm_calls=10, lean_checks=20, max_depth=2))
    records = [
        RunStarted("r1", "prove", {}, {}),
        NodeCreated("r1", "g0", "goal", 0, "theorem t (x : ℕ) : D x := by\n  sorry"),
        LLMCallRecord("r1", "c1", "prover", "http://x", "m", {}, ["a"], ["stop"]),
        AttemptRecord("r1", "a1", "g0", "prover", "error", "code", errors=["1:2: error: nope"]),
        NodeCreated("r1", "g1", "goal", 1, "theorem t_sub_1 (x : ℕ) : Hard x := by\n  sorry", parent_id="s"),
        AttemptRecord("r1", "a2", "g1", "automation", "valid", "code2"),
    ]
    for r in records:
        watch.emit(r)
    assert inner.records == records
    # the counts are the run budget's (what was sent), never the records': the run counts into
    # `watch.stats` (prove_problem(stats=watch.stats))
    assert (watch.run_id, watch.llm_calls, watch.lean_checks, watch.depth) == ("r1", 0, 0, 1)
    watch.stats.llm_calls, watch.stats.checks = 3, 5
    assert watch.current_goal == "Hard x" and watch.last_error == "1:2: error: nope"
    line = watch.status_line()
    assert "LLM calls 3/10" in line and "Lean checks 5/20" in line and "depth 1/2" in line and "goal: Hard x" in line


def test_run_watch_reads_and_flushes_the_store_behind_it(tmp_path):
    """`prove` hands its search the watch in place of the store's recorder: the proofs of earlier
    runs the subgoal cache reads through it and the flushes it waits on are the store's."""
    from lemmaforge.db import SqlRecorder, Store

    store = Store(f"sqlite:///{tmp_path / 'runs.db'}")
    inner = SqlRecorder(store)
    try:
        watch = RunWatch(inner, BudgetConfig())
        watch.emit(RunStarted("r1", "prove", {}, {}))
        watch.emit(ProofRecord("r1", "pf1", "subgoal", "import Mathlib\n", "theorem h : 1 + 1 = 2 := by\n  sorry",
                               "1 + 1 = 2", "norm_num"))
        assert watch.cached_proof("import Mathlib\n", "1 + 1 = 2") == "norm_num"  # queued, not yet written
        watch.flush()  # returns once both are written: another connection to the file sees them
        fresh = Store(store.url)
        try:
            assert fresh.get_run("r1") is not None
            assert fresh.cached_proof("import Mathlib\n", "1 + 1 = 2") == "norm_num"
        finally:
            fresh.close()
        watch.emit(RunStarted("r2", "prove", {}, {}))
        asyncio.run(watch.aflush())
        assert store.get_run("r2") is not None
        assert watch.cached_proof("import Mathlib\n", "2 + 2 = 4") is None
    finally:
        inner.close()
        store.close()


@pytest.mark.slow
def test_prove_shows_progress_against_budgets_on_stderr(tmp_path, monkeypatch):
    auto_tac(monkeypatch)
    screen = io.StringIO()
    monkeypatch.setattr(cli.prove, "err", Console(file=screen, force_terminal=True, width=160))
    problem = tmp_path / "t.lean"
    problem.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default"), delay=0.3) as llm:
        script_sketch(llm)
        r = CliRunner().invoke(cli.app, [*prove_args(problem, kimina, llm, f"sqlite:///{tmp_path / 'r.db'}"), "--live"],
                               env=ENV)
    assert r.exit_code == 0, r.output
    shown = ANSI.sub("", screen.getvalue())
    assert "proving:" in shown
    assert re.search(r"\d+\.\d s/3600 s · LLM calls \d+/256 · Lean checks \d+/2000 · depth \d/3", shown)
    assert "goal: D x" in shown  # the root goal was being worked on
    assert "proved t in" in shown  # the final verdict, on stderr
    assert r.stdout.startswith("import Mathlib") and "proving:" not in r.stdout  # stdout: the proof only

"""The end-to-end benchmark runs and reports consistent numbers (a tiny, fast configuration):
stand-in servers in subprocesses, the real clients, a real SQLite store."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

import pytest

pytest.importorskip("aiohttp")

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


async def test_bench_e2e_tiny_run_is_consistent(tmp_path: Path) -> None:
    sys.path.insert(0, str(SCRIPTS))
    try:
        import bench_e2e
    finally:
        sys.path.remove(str(SCRIPTS))
    args = argparse.Namespace(
        repls=4, llm_slots=16, problems=3, concurrent_problems=3, scale=0.01, seed=3, steps=2, depth=1,
        samples=2, p_solve=1.0, tokens_per_s=400.0, cot=False, batch_size=4, kimina_concurrency=8,
        profile_bins=5, db=str(tmp_path / "kept.db"), race_window=2,
    )
    row = await bench_e2e.e2e(args)
    assert row["proved"] == 3  # p_solve=1: every hole's lemma is proved, every sketch assembles
    assert row["goal_nodes"] == 3 * (1 + 3)  # the root and 2 steps + the closing hole per problem
    assert row["repl_kills"] == 0 and row["unsent_dropped"] >= 0
    assert row["wall_over_ideal"] is not None and row["wall_over_ideal"] >= 1.0
    for kind, count in row["records_stored"].items():
        assert row["records_emitted"][kind] == count, kind
    assert row["kimina_checks_per_s"] > 0 and row["llm_requests"] >= 3 * 3  # root, planner, holes
    assert len(row["profile"]) == 1 + 5  # a header line and one per slice
    assert "orphan" in row["profile"][0]
    ends = [p["end_s"] for p in row["last_problems"]]
    assert len(ends) == 3 and ends == sorted(ends) and {p["status"] for p in row["last_problems"]} == {"proved"}
    with sqlite3.connect(tmp_path / "kept.db") as kept:  # --db keeps the store
        assert kept.execute("select count(*) from runs where kind = 'prove'").fetchone()[0] == 3

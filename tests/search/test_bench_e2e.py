"""The end-to-end benchmark runs and reports consistent numbers (a tiny, fast configuration):
stand-in servers in subprocesses, the real clients, a real SQLite store."""

from __future__ import annotations

import argparse
import importlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("aiohttp")

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _script(name: str) -> ModuleType:
    """A benchmark script imported as a module (scripts/ is not a package)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(SCRIPTS))


@pytest.mark.slow
async def test_bench_e2e_tiny_run_is_consistent(tmp_path: Path) -> None:
    bench_e2e = _script("bench_e2e")
    args = argparse.Namespace(
        repls=4, llm_slots=16, problems=3, concurrent_problems=3, scale=0.01, seed=3, steps=2, depth=1,
        samples=2, p_solve=1.0, tokens_per_s=400.0, cot=False, batch_size=4, kimina_concurrency=8, spread_requests=4,
        profile_bins=5, db=str(tmp_path / "kept.db"), race_window=2, speculation="prefetch",
        world=2, no_stream=False, stream_interval=16,
    )
    row = await bench_e2e.e2e(args)
    assert (row["seed"], row["world"], row["stream_samples"]) == (3, 2, True)  # 2 samples a request, streamed
    assert row["llm_stream_events"] > 2 * row["llm_requests"]  # pieces of 16 tokens, not one event a sample
    assert row["proved"] == 3  # p_solve=1: every hole's lemma is proved, every sketch assembles
    assert row["goal_nodes"] == 3 * (1 + 3)  # the root and 2 steps + the closing hole per problem
    assert row["repl_kills"] == 0 and row["unsent_dropped"] >= 0
    assert 0.0 <= row["orphaned_speculated_share"] <= row["orphaned_share"] <= 1.0
    assert row["useful_utilisation"] <= row["useful_utilisation_lenient"] and 0.0 <= row["race_co_arrival_share"] <= 1.0
    assert row["speculated_checks"] >= 0 and row["orphan_hits"] >= 0
    assert row["wall_over_ideal"] is not None and row["wall_over_ideal"] >= 1.0
    for kind, count in row["records_stored"].items():
        assert row["records_emitted"][kind] == count, kind
    assert row["kimina_checks_per_s"] > 0 and row["llm_requests"] >= 3 * 3  # root, planner, holes
    admitting, draining = row["phases"]["admitting"], row["phases"]["draining"]
    assert admitting["seconds"] + draining["seconds"] == pytest.approx(row["wall_s"], abs=0.05)
    assert all(0.0 <= p["useful_utilisation"] <= 1.0 for p in (admitting, draining) if p["useful_utilisation"] is not None)
    assert len(row["profile"]) == 1 + 5  # a header line and one per slice
    assert "orphan" in row["profile"][0]
    ends = [p["end_s"] for p in row["last_problems"]]
    assert len(ends) == 3 and ends == sorted(ends) and {p["status"] for p in row["last_problems"]} == {"proved"}
    chains = row["last_chains"]  # every search of the run here: 3, all ending last
    assert len(chains) == 3 and all(c["checks"] >= 1 and c["model_requests"] >= 1 for c in chains)
    for chain in chains:
        states = sum(chain[f"{state}_s"] for state in bench_e2e.CHAIN_STATES)
        assert states == pytest.approx(chain["seconds"], abs=0.05)
        assert chain["checking_s"] > 0 and chain["end_s"] <= row["wall_s"]
    with sqlite3.connect(tmp_path / "kept.db") as kept:  # --db keeps the store
        assert kept.execute("select count(*) from runs where kind = 'prove'").fetchone()[0] == 3
        # --world names the problems apart (another world of trees): w2_i, not p_i
        assert sorted(n for (n,) in kept.execute("select name from problems")) == ["w2_0", "w2_1", "w2_2"]


def test_repeated_runs_are_summarised_by_min_mean_and_max() -> None:
    bench_e2e = _script("bench_e2e")
    runs = [{"useful_utilisation": 0.94, "wall_over_ideal": 1.03, "proved": 239, "repl_kills": 0},
            {"useful_utilisation": 0.93, "wall_over_ideal": 1.05, "proved": 240, "repl_kills": 0},
            {"useful_utilisation": 0.95, "wall_over_ideal": None, "proved": 238, "repl_kills": 0}]
    summary = bench_e2e.summarise_runs(runs)
    assert summary["useful_utilisation"] == {"min": 0.93, "mean": 0.94, "max": 0.95, "values": [0.94, 0.93, 0.95]}
    assert summary["wall_over_ideal"] == {"min": 1.03, "mean": 1.04, "max": 1.05, "values": [1.03, 1.05]}  # None left out
    assert summary["proved"]["mean"] == 239 and summary["repl_kills"]["max"] == 0
    assert "throughput_over_capacity" not in summary  # a figure no run reported


def test_a_search_chain_counts_each_moment_once_in_the_first_state_that_holds() -> None:
    bench_e2e = _script("bench_e2e")
    events = [
        ("model", 0.0, 2.0),
        ("check", 2.0, 5.0, 1.0, False),  # due: waits 2-4, its own Lean second 4-5
        ("check", 2.0, 9.0, 1.0, True),  # held behind a sibling: 2-8, its own second 8-9
        ("model", 5.0, 6.0),  # beside the held check: the request counts, not the hold
        ("check", 10.0, 12.0, 2.0, False),  # after a second of the engine's own work (9-10)
        ("check", 10.5, 11.0, None, True),  # cancelled while held: inside a check's run, adds nothing
        ("check", 12.0, 12.0, 3.0, False),  # an orphan's kept verdict: no Lean time now
    ]
    row = bench_e2e.chain_breakdown(events)
    assert row == {"start_s": 0.0, "end_s": 12.0, "seconds": 12.0, "checks": 5, "model_requests": 2,
                   "checking_s": 4.0, "model_s": 3.0, "verdict_wait_s": 2.0, "held_s": 2.0, "other_s": 1.0}


def test_race_candidates_answered_with_or_after_the_winner_did_not_inform_the_race() -> None:
    bench_e2e = _script("bench_e2e")
    race, lost_race, tie = object(), object(), object()
    log = [
        (race, 10.0, 3.0, False),  # failed before the win: it informed the race
        (race, 12.0, 2.0, True),  # the winner
        (race, 12.001, 1.5, False),  # in the winner's response
        (race, 12.002, 4.0, True),  # also accepted, same response: redundant
        (race, 15.0, 0.5, False),  # after the win
        (lost_race, 11.0, 7.0, False),  # no candidate accepted: every check informed it
        (tie, 20.0, 1.0, True), (tie, 20.0, 2.0, True),  # two together: the first resumed won
    ]
    assert bench_e2e.race_co_arrivals(log) == [(12.001, 1.5), (12.002, 4.0), (15.0, 0.5), (20.0, 2.0)]
    assert bench_e2e.race_co_arrivals([]) == []


def test_last_chains_are_the_searches_ending_last_and_the_longest() -> None:
    bench_e2e = _script("bench_e2e")
    chains = {search: [("check", float(search), 10.0 + search, 1.0, False)] for search in range(1, 8)}
    chains[0] = [("model", 0.0, 5.0)]  # short, ends first: left out
    chains[9] = [("model", -100.0, 12.0)]  # the longest, though not among the last to end
    rows = bench_e2e.last_chains(chains, count=3)
    assert [r["search"] for r in rows] == [9, 5, 6, 7]
    assert rows[0]["seconds"] == 112.0 and rows[-1]["end_s"] == 17.0


def test_useful_utilisation_counts_checks_less_orphans_over_capacity_without_headers() -> None:
    bench_e2e = _script("bench_e2e")
    # two REPLs for 10 s: one checks throughout, the other imports its header for 4 s, then checks;
    # a check whose caller had left came back at 10 s after 2 s of Lean time
    intervals = [(0.0, 10.0, "check"), (0.0, 4.0, "header"), (4.0, 10.0, "check"), (1.0, 2.0, "queued")]
    orphans = [(10.0, 2.0)]
    assert bench_e2e.useful_utilisation(intervals, orphans, 2, 0.0, 10.0) == pytest.approx((16 - 2) / (20 - 4))
    assert bench_e2e.useful_utilisation(intervals, orphans, 2, 5.0, 10.0) == pytest.approx((10 - 2) / 10)
    assert bench_e2e.useful_utilisation(intervals, orphans, 2, 0.0, 4.0) == pytest.approx(4 / 4)
    assert bench_e2e.useful_utilisation([(0.0, 4.0, "header")], [], 1, 0.0, 4.0) is None  # all header: no capacity


@pytest.mark.parametrize("bad", [["--profile-bins", "0"], ["--race-window", "0"], ["--spread-requests", "0"],
                                 ["--db", "README.md"], ["--runs", "0"], ["--runs", "2", "--db", "new_store.db"],
                                 ["--db", "no/such/folder/run.db"], ["--stream-interval", "0"]])
@pytest.mark.slow
def test_bad_options_stop_with_one_line_and_exit_code_2(bad: list[str]) -> None:
    """Refused before anything starts (no stand-in server, no store): an existing --db is never
    overwritten."""
    root = SCRIPTS.parent
    before = (root / "README.md").read_bytes()
    done = subprocess.run([sys.executable, str(SCRIPTS / "bench_e2e.py"), *bad, "--no-e2e"], cwd=root,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines()[-1].startswith("bench_e2e.py: error: ")
    assert (root / "README.md").read_bytes() == before


async def test_engine_benchmark_searches_prove_what_they_can() -> None:
    """scripts/bench_search.py (the `--overhead` rows) measures searches that succeed: its simulated
    Lean answers the audit's axiom probe where Lean does (at the probe's own position), so a run
    whose every lemma is proved proves every problem (a probe answered elsewhere is rejected by the
    audit, and every search would end "not proved" after building the same tree)."""
    bench_search = _script("bench_search")
    scenario = bench_search.Scenario("tiny", problems=3, workers=2, llm_concurrency=4, check_latency=0.0,
                                     llm_latency=0.0, steps=2, p_solve=1.0, samples=2)
    row = await bench_search.run(scenario)
    assert row["proved"] == 3
    assert row["goal_nodes"] == 3 * (1 + 3)  # the root, 2 steps and the closing hole


@pytest.mark.parametrize(("hilbert", "given", "expected"), [
    (False, {}, {"problems": 244, "concurrent_problems": 128, "p_solve": 0.15, "depth": 3}),
    (True, {}, {"problems": 8, "concurrent_problems": 8, "p_solve": 0.05, "depth": 5}),
    (True, {"problems": 16, "depth": 4}, {"problems": 16, "concurrent_problems": 8, "p_solve": 0.05, "depth": 4}),
])
def test_workload_presets_fill_only_what_was_not_given(hilbert: bool, given: dict[str, object],
                                                       expected: dict[str, object]) -> None:
    bench_e2e = _script("bench_e2e")
    args = argparse.Namespace(hilbert=hilbert, repls=64, spread_requests=32, **{k: given.get(k) for k in expected})
    bench_e2e.fill_workload(args)
    assert vars(args) == {"hilbert": hilbert, "repls": 64, "spread_requests": 32, **expected}


@pytest.mark.parametrize(("repls", "given", "expected"), [(64, None, 64), (16, None, 16), (64, 32, 32)])
def test_checks_spread_over_as_many_requests_as_repls_unless_told(repls: int, given: int | None,
                                                                  expected: int) -> None:
    bench_e2e = _script("bench_e2e")
    args = argparse.Namespace(hilbert=False, repls=repls, spread_requests=given,
                              **dict.fromkeys(bench_e2e.DEFAULT_TREES))
    bench_e2e.fill_workload(args)
    assert args.spread_requests == expected


@pytest.mark.slow
def test_runs_option_repeats_the_benchmark_and_summarises_what_each_run_reported() -> None:
    """`--runs 2 --json`: both runs' rows, and a summary computed from exactly those rows."""
    root = SCRIPTS.parent
    tiny = ["--problems", "3", "--concurrent-problems", "3", "--scale", "0.01", "--repls", "4", "--llm-slots", "16",
            "--depth", "1", "--steps", "2", "--samples", "2", "--p-solve", "1.0", "--kimina-concurrency", "8",
            "--spread-requests", "4", "--profile-bins", "2"]
    done = subprocess.run([sys.executable, str(SCRIPTS / "bench_e2e.py"), "--runs", "2", "--json", *tiny], cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert "e2e" not in out and len(out["e2e_runs"]) == 2
    assert [run["proved"] for run in out["e2e_runs"]] == [3, 3]
    useful = [run["useful_utilisation"] for run in out["e2e_runs"]]
    assert out["e2e_summary"]["useful_utilisation"]["values"] == useful
    assert out["e2e_summary"]["useful_utilisation"]["min"] == min(useful)
    assert out["e2e_summary"]["repl_kills"]["max"] == 0

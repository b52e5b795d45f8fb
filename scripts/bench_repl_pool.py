#!/usr/bin/env python
"""Benchmark the REPL pool (ReplVerifier) on the fake Lean REPL with simulated latencies.

    python scripts/bench_repl_pool.py                      # 1,000 checks, 4 workers, 3 headers
    python scripts/bench_repl_pool.py --workers 8 --headers 2 --json
    python scripts/bench_repl_pool.py --header-latency 2 --check-latency 0.05

Every check goes through the real lean-interact path (`LeanServer` → fake `lake env` → fake REPL
process), so what is measured is the pool: header reuse (elaborations per 1,000 checks; the goal is
one per worker), utilization under load (busy time / (workers × wall)), and throughput against the
ideal `workers / check_latency`. Checks arrive closed-loop: `--concurrency` callers (default twice
the workers), each sending its next check when the last is answered, headers round-robin (0: all
at once, which flatters the pool: its queue is never empty).

Utilisation is reported two ways: busy time / (workers × wall), and *useful* utilisation, which
leaves header elaboration out of both sides (importing Mathlib keeps a worker busy but checks
nothing).

`--mode sketch-proof-state` / `--mode sketch-lemma` measure the tactic-mode question (which way to
run the automation portfolio on a sketch's holes) on a sketch-heavy workload: each goal checks a
sketch (two holes with proof states), runs `extract_goal` on each hole (pinned to the worker that
holds the state), then the 8-tactic portfolio either as 8 tactic steps on the hole's proof state
(pinned to that same worker), as ONE tactic step `first | (t1; done) | …` on the proof state
(`sketch-combined`: pinned, one request), or as ONE check of the hole's lemma with that combinator
(`sketch-lemma`: any worker; simulated as costing the 8 tactics plus one check).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lemmaforge.lean.repl import ReplVerifier  # noqa: E402
from lemmaforge.lean.verifier import CheckResult, CheckStatus  # noqa: E402
from tests.fakes.fake_repl import make_fake_repl_config  # noqa: E402

HEADERS = [
    "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n",
    "import Mathlib\n\nopen Real\n",
    "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n",
    "import Mathlib\n\nopen Nat Finset\n",
    "import Mathlib\n",
]
SKETCH = """theorem t{i} (a b : ℝ) (h : 0 < a ∧ 0 < b) : 0 < a * b ∧ 0 < a + b := by
  have h1 : 0 < a * b := by sorry
  have h2 : 0 < a + b := by sorry
  exact ⟨h1, h2⟩
"""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--checks", type=int, default=1000)
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--headers", type=int, default=3, help=f"distinct file headers (1-{len(HEADERS)})")
    p.add_argument("--check-latency", type=float, default=0.02, help="simulated seconds per check")
    p.add_argument("--header-latency", type=float, default=0.5, help="simulated seconds per `import …`")
    p.add_argument("--concurrency", type=int, default=-1,
                   help="callers in flight, closed loop (default: 2 x workers; 0: everything at once)")
    p.add_argument("--mode", choices=["checks", "sketch-proof-state", "sketch-combined", "sketch-lemma"],
                   default="checks")
    p.add_argument("--tactic-latency", type=float, default=0.01, help="simulated seconds per tactic step")
    p.add_argument("--goals", type=int, default=200, help="sketch modes: goals (each a sketch and 2 holes)")
    p.add_argument("--max-checks-per-worker", type=int, default=2000)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = p.parse_args(argv)
    if not 1 <= args.headers <= len(HEADERS):
        p.error(f"--headers must be between 1 and {len(HEADERS)}")
    if args.concurrency < 0:
        args.concurrency = 2 * args.workers
    return args


PORTFOLIO = ("omega", "norm_num", "linarith", "positivity", "simp", "nlinarith", "aesop", "norm_num [*]; nlinarith")
LEMMA = "theorem t{i}_h{k} (a b : ℝ) (h : 0 < a ∧ 0 < b) : 0 < a * b := by\n  first\n{alternatives}\n"


async def run_sketch_goals(verifier: ReplVerifier, args: argparse.Namespace) -> tuple[int, list[float]]:
    """Closed loop over sketch-heavy goals; returns (Lean requests answered, per-goal latencies)."""
    from lemmaforge.lean.lemmas import extract_goal_tactic

    gate = asyncio.Semaphore(args.concurrency or args.goals)
    latencies: list[float] = []
    requests = 0

    async def hole(i: int, k: int, h: Any) -> None:
        nonlocal requests
        await verifier.run_tactic(h, extract_goal_tactic(f"t{i}_h{k}"))
        requests += 1
        if args.mode == "sketch-proof-state":
            for tactic in PORTFOLIO:  # pinned: the worker holding the state runs them one by one
                await verifier.run_tactic(h, tactic)
                requests += 1
        elif args.mode == "sketch-combined":  # pinned, but one step: `first | (t1; done) | …`
            await verifier.run_tactic(h, "first\n" + "\n".join(f"  | ({t}; done)" for t in PORTFOLIO))
            requests += 1
        else:
            alternatives = "\n".join(f"  | ({t}; done)" for t in PORTFOLIO)
            await verifier.check(HEADERS[i % args.headers] + LEMMA.format(i=i, k=k, alternatives=alternatives))
            requests += 1

    async def goal(i: int) -> None:
        nonlocal requests
        async with gate:
            started = time.monotonic()
            sketch = await verifier.check(HEADERS[i % args.headers] + SKETCH.format(i=i))
            requests += 1
            await asyncio.gather(*(hole(i, k, h) for k, h in enumerate(sketch.holes)))
            latencies.append(time.monotonic() - started)

    await asyncio.gather(*(goal(i) for i in range(args.goals)))
    return requests, latencies


async def run_checks(verifier: ReplVerifier, codes: list[str], concurrency: int) -> tuple[list[CheckResult], list[float]]:
    """All results, and each check's latency as its caller saw it (queueing included)."""
    gate = asyncio.Semaphore(concurrency or len(codes))
    latencies: list[float] = []

    async def one(code: str) -> CheckResult:
        async with gate:
            started = time.monotonic()
            result = await verifier.check(code)
            latencies.append(time.monotonic() - started)
            return result

    return list(await asyncio.gather(*(one(c) for c in codes))), latencies


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench_repl_pool_") as tmp:
        # The portfolio as one check costs what its tactics cost on the proof state, plus the check.
        combined = {"match": r"^ *first$", "on": "any", "delay_s": len(PORTFOLIO) * args.tactic_latency}
        fake = make_fake_repl_config(
            Path(tmp),
            latency={"header_s": args.header_latency, "cmd_s": args.check_latency, "tactic_s": args.tactic_latency},
            rules=[combined],
            transcripts=False,  # scripted answers only: nothing here is in the recordings
        )
        verifier = ReplVerifier(
            fake.config,
            workers=args.workers,
            timeout=60.0,
            header_timeout=60.0,
            max_checks_per_worker=args.max_checks_per_worker,
        )
        codes = [HEADERS[i % args.headers] + SKETCH.format(i=i) for i in range(args.checks)]
        before = verifier.stats()
        started = time.monotonic()
        try:
            if args.mode == "checks":
                results, latencies = await run_checks(verifier, codes, args.concurrency)
            else:
                answered, latencies = await run_sketch_goals(verifier, args)
                results = []
        finally:
            wall = time.monotonic() - started
            after = verifier.stats()
            await verifier.close()
        fake_headers = fake.header_elaborations()
    busy = after.busy_total - before.busy_total
    if args.mode != "checks":
        return {
            "mode": args.mode, "goals": args.goals, "workers": args.workers, "concurrency": args.concurrency,
            "lean_requests": answered, "tactic_steps": after.tactic_steps, "checks": after.checks,
            "wall_s": round(wall, 3), "goals_per_s": round(args.goals / wall, 2),
            "utilization": round(busy / (args.workers * wall), 3),
            "useful_utilization": round(after.useful_utilization, 3),
            "header_elaborations": after.header_elaborations,
            "goal_latency_p50_s": round(statistics.median(latencies), 3),
        }
    ok = sum(r.status is CheckStatus.INCOMPLETE and len(r.holes) == 2 for r in results)
    ideal_throughput = args.workers / args.check_latency if args.check_latency > 0 else float("inf")
    return {
        "checks": args.checks,
        "workers": args.workers,
        "headers": args.headers,
        "check_latency_s": args.check_latency,
        "header_latency_s": args.header_latency,
        "concurrency": args.concurrency or args.checks,
        "wall_s": round(wall, 3),
        "answered_as_expected": ok,
        "header_elaborations": after.header_elaborations,
        "header_elaborations_seen_by_fake": fake_headers,
        "header_elaborations_per_1000_checks": round(1000 * after.header_elaborations / args.checks, 2),
        "header_switches": after.header_switches,
        "restarts": after.restarts,
        "utilization": round(busy / (args.workers * wall), 3),
        "useful_utilization": round(after.useful_utilization, 3),
        # Busy time not explained by simulated Lean time: process starts, framing, lean-interact,
        # pydantic, threads. What the pool itself costs per check.
        "overhead_ms_per_check": round(
            1000 * (busy - args.checks * args.check_latency - after.header_elaborations * args.header_latency) / args.checks,
            2,
        ),
        "throughput_checks_per_s": round(args.checks / wall, 1),
        "ideal_throughput_checks_per_s": round(ideal_throughput, 1),
        "latency_p50_s": round(statistics.median(latencies), 3),
        "latency_p95_s": round(statistics.quantiles(latencies, n=20)[18], 3) if len(latencies) >= 20 else None,
    }


def print_table(report: dict[str, Any]) -> None:
    width = max(len(k) for k in report)
    for key, value in report.items():
        print(f"{key:<{width}}  {value}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = asyncio.run(bench(args))
    if args.json:
        print(json.dumps(report))
    else:
        print_table(report)
    return 0 if report.get("answered_as_expected", args.checks) == args.checks else 1


if __name__ == "__main__":
    sys.exit(main())

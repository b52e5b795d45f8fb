#!/usr/bin/env python
"""Benchmark the store: what `SqlRecorder.emit` costs the search, and how fast records reach disk.

    python scripts/bench_store.py                  # temp SQLite file, table
    python scripts/bench_store.py --runs 500 --json
    python scripts/bench_store.py --url postgresql+psycopg://user@host/db

Synthetic runs look like real ones: per run a problem, a root goal, a sketch with `--holes` holes,
and per hole `--tries` LLM calls (≈1.5 kB prompt, ≈2 kB completion) with their attempts, a status
change and a subgoal proof.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lemmaforge.db import SqlRecorder, Store  # noqa: E402
from lemmaforge.records import (  # noqa: E402
    AttemptRecord,
    LLMCallRecord,
    NodeCreated,
    NodeStatusChanged,
    ProblemRecord,
    ProofRecord,
    Record,
    RunFinished,
    RunStarted,
    new_id,
)

HEADER = (
    "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology"
)
PROMPT = (
    "Complete the following Lean 4 code:\n\n```lean4\n" + "theorem t (x : ℝ) : 0 ≤ x ^ 2 := by\n" * 40 + "```"
)
COMPLETION = "```lean4\n" + "  nlinarith [sq_nonneg (x - 1), sq_nonneg (x + 1)]\n" * 40 + "```"


def synthetic_run(tag: str, i: int, holes: int, tries: int) -> list[Record]:
    run_id, pid = f"{tag}-run{i}", f"bench/{tag}/p{i}"
    out: list[Record] = [
        ProblemRecord(problem_id=pid, name=f"p{i}", header=HEADER, statement="theorem t : True := by sorry"),
        RunStarted(
            run_id=run_id, kind="prove", config={"k": tries}, versions={"lemmaforge": "bench"}, problem_id=pid
        ),
        NodeCreated(run_id=run_id, node_id="g0", kind="goal", depth=0, text="theorem t : True := by sorry"),
        NodeCreated(
            run_id=run_id,
            node_id="s0",
            kind="sketch",
            depth=0,
            text="have h : True := by sorry",
            parent_id="g0",
        ),
    ]
    for h in range(holes):
        nid = f"h{h}"
        out.append(
            NodeCreated(
                run_id=run_id,
                node_id=nid,
                kind="goal",
                depth=1,
                text=PROMPT[:400],
                parent_id="s0",
                hole_index=h,
            )
        )
        for k in range(tries):
            call = LLMCallRecord(
                run_id=run_id,
                call_id=new_id(),
                role="prover",
                endpoint="http://localhost:8000/v1",
                model="deepseek-prover-v2-7b",
                request={
                    "messages": [{"role": "user", "content": PROMPT}],
                    "temperature": 1.0,
                    "max_tokens": 8192,
                },
                completions=[COMPLETION],
                finish_reasons=["stop"],
                prompt_tokens=400,
                completion_tokens=600,
                latency=3.2,
            )
            out.append(call)
            out.append(
                AttemptRecord(
                    run_id=run_id,
                    attempt_id=f"{nid}-a{k}",
                    node_id=nid,
                    strategy="prover",
                    verdict="valid" if k == tries - 1 else "error",
                    code=COMPLETION,
                    output=COMPLETION,
                    prompt=PROMPT,
                    llm_call_id=call.call_id,
                    errors=[] if k == tries - 1 else ["error: unsolved goals\nx : ℝ\n⊢ 0 ≤ x ^ 2"],
                    generation_seconds=3.2,
                    check_seconds=0.8,
                )
            )
        out.append(
            NodeStatusChanged(
                run_id=run_id, node_id=nid, status="solved", strategy="prover", proof="nlinarith"
            )
        )
        out.append(
            ProofRecord(
                run_id=run_id,
                proof_id=new_id(),
                kind="subgoal",
                header=HEADER,
                statement=f"theorem {tag}_{i}_{h} : True := by sorry",
                normalized_statement=f"{tag} {i} {h}",
                proof="nlinarith",
                problem_id=pid,
                node_id=nid,
                strategy="prover",
                depth=1,
            )
        )
    out.append(NodeStatusChanged(run_id=run_id, node_id="s0", status="solved", strategy="assembly"))
    out.append(NodeStatusChanged(run_id=run_id, node_id="g0", status="solved", strategy="planner"))
    out.append(RunFinished(run_id=run_id, status="proved", summary={"holes": holes}))
    return out


def make_records(tag: str, runs: int, holes: int, tries: int) -> list[Record]:
    return [r for i in range(runs) for r in synthetic_run(tag, i, holes, tries)]


def bench_recorder(url: str, records: list[Record], batch_size: int, flush_interval: float) -> dict[str, Any]:
    store = Store(url)
    rec = SqlRecorder(store, batch_size=batch_size, flush_interval=flush_interval)
    costs = []
    clock = time.perf_counter_ns
    t0 = time.perf_counter()
    cpu_thread0, cpu_process0 = time.thread_time(), time.process_time()
    for r in records:
        a = clock()
        rec.emit(r)
        costs.append(clock() - a)
    emitted = time.perf_counter() - t0
    rec.flush()
    total = time.perf_counter() - t0
    # What the records cost in CPU: the emitting thread's own time, and the rest of the process
    # (the writer thread), which holds the GIL while it builds rows and so takes it from the loop.
    emit_cpu = time.thread_time() - cpu_thread0
    writer_cpu = time.process_time() - cpu_process0 - emit_cpu
    rec.close()
    stored = _stored_rows(store)
    store.close()
    costs.sort()
    us = [c / 1000 for c in costs]
    return {
        "records": len(records),
        "emit_mean_us": statistics.fmean(us),
        "emit_p50_us": us[len(us) // 2],
        "emit_p99_us": us[int(len(us) * 0.99)],
        "emit_max_us": us[-1],
        "emit_all_s": emitted,
        "emit_to_durable_s": total,
        "sustained_records_per_s": len(records) / total,
        "emit_cpu_us_per_record": 1e6 * emit_cpu / len(records),
        "writer_cpu_us_per_record": 1e6 * writer_cpu / len(records),
        "records_emitted": len(records),
        "rows_stored": stored,  # node status changes update rows: fewer rows than records
    }


def _stored_rows(store: Store) -> int | None:
    """Rows in the record tables (SQLite only; None elsewhere)."""
    if not store.url.startswith("sqlite"):
        return None
    from sqlalchemy import text

    with store.engine.connect() as conn:
        tables = ("problems", "runs", "nodes", "attempts", "llm_calls", "proofs")
        names = {r[0] for r in conn.execute(text("select name from sqlite_master where type='table'"))}
        return sum(conn.execute(text(f"select count(*) from {t}")).scalar_one() for t in tables if t in names)


def bench_write(url: str, records: list[Record], batch_size: int) -> dict[str, Any]:
    store = Store(url)
    t0 = time.perf_counter()
    for i in range(0, len(records), batch_size):
        store.write(records[i : i + batch_size])
    dt = time.perf_counter() - t0
    store.close()
    return {
        "batch_size": batch_size,
        "records": len(records),
        "seconds": dt,
        "records_per_s": len(records) / dt,
    }


def bench_cache(url: str, tag: str, n: int = 2000) -> dict[str, Any]:
    store = Store(url)
    hits, misses = [], []
    for j in range(n):
        a = time.perf_counter_ns()
        found = store.cached_proof(HEADER, f"{tag} {j % 50} {j % 8}")
        hits.append(time.perf_counter_ns() - a)
        assert found is not None, "cached proof not found"
        a = time.perf_counter_ns()
        store.cached_proof(HEADER, f"absent {j}")
        misses.append(time.perf_counter_ns() - a)
    store.close()
    return {
        "cached_proof_hit_us": statistics.median(hits) / 1000,
        "cached_proof_miss_us": statistics.median(misses) / 1000,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="database URL (default: a fresh SQLite file per measurement in a temp dir)")
    ap.add_argument("--runs", type=int, default=200, help="synthetic runs (default 200)")
    ap.add_argument("--holes", type=int, default=8)
    ap.add_argument("--tries", type=int, default=4)
    ap.add_argument("--batch-size", type=int, default=500)
    ap.add_argument("--flush-interval", type=float, default=0.25)
    ap.add_argument("--write-batches", default="1,50,500", help="batch sizes for direct Store.write")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:

        def url_for(name: str) -> str:
            return args.url or f"sqlite:///{Path(tmp) / name}.db"

        tag = new_id()[:8]
        records = make_records(tag, args.runs, args.holes, args.tries)
        size = sum(len(getattr(r, "code", "") or "") + len(getattr(r, "prompt", "") or "") for r in records)
        result: dict[str, Any] = {
            "url": Store(url_for("recorder")).url if args.url else "sqlite (temp file, WAL)",
            "records": len(records),
            "approx_text_mb": round(size / 1e6, 1),
            "recorder": bench_recorder(url_for("recorder"), records, args.batch_size, args.flush_interval),
        }
        result["cache"] = bench_cache(url_for("recorder"), tag)
        result["store_write"] = []
        for b in (int(x) for x in args.write_batches.split(",")):
            recs = make_records(
                new_id()[:8], max(1, args.runs // (10 if b == 1 else 1)), args.holes, args.tries
            )
            result["store_write"].append(bench_write(url_for(f"write{b}"), recs, b))

    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    r = result["recorder"]
    print(
        f"store benchmark: {result['url']}; {result['records']} records (~{result['approx_text_mb']} MB of text)"
    )
    print()
    print(f"{'measure':44} {'value':>14}")
    print("-" * 59)
    rows = [
        ("SqlRecorder.emit mean (µs/record)", f"{r['emit_mean_us']:.2f}"),
        ("SqlRecorder.emit p50 (µs)", f"{r['emit_p50_us']:.2f}"),
        ("SqlRecorder.emit p99 (µs)", f"{r['emit_p99_us']:.2f}"),
        ("SqlRecorder.emit max (µs)", f"{r['emit_max_us']:.1f}"),
        ("emit CPU, emitting thread (µs/record)", f"{r['emit_cpu_us_per_record']:.2f}"),
        ("writer thread CPU (µs/record; holds the GIL)", f"{r['writer_cpu_us_per_record']:.1f}"),
        ("records emitted / rows stored", f"{r['records_emitted']} / {r['rows_stored']}"),
        (
            f"sustained: emit → durable (records/s, batch {args.batch_size})",
            f"{r['sustained_records_per_s']:,.0f}",
        ),
        ("cached_proof hit (µs, median)", f"{result['cache']['cached_proof_hit_us']:.0f}"),
        ("cached_proof miss (µs, median)", f"{result['cache']['cached_proof_miss_us']:.0f}"),
    ]
    rows += [
        (f"Store.write batch {w['batch_size']} (records/s)", f"{w['records_per_s']:,.0f}")
        for w in result["store_write"]
    ]
    for name, value in rows:
        print(f"{name:44} {value:>14}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

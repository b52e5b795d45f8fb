"""End-to-end benchmark: the real search, real clients, stand-in servers with realistic latencies.

What runs: `lemmaforge bench`'s own scheduler (`benchmarks.runner.run_jobs`: a statement check per
problem, with look-ahead, then its search through `services.prove_problem`, many at once),
with the real `openai`-based LLM client and the real Kimina client (batched, tests/fakes/
standin_servers.py in subprocesses: seeded lognormal Lean checks of mean 3.5 s, header imports of
10-16 s per REPL, prover outputs of mean 443 tokens or 4,489 with --cot), a real SQLite store
through the SqlRecorder. `--scale` shrinks every latency so that hours of simulated work take
minutes; all reported seconds are real (scaled) seconds.

Reported (each counts only time actually spent: a request aborted half-way counts its half):
- wall / ideal: ideal = max(LLM sequence-seconds / LLM slots, Lean REPL-seconds (headers
  included) / REPLs), the time the busier resource needs at full use. Goal <= 1.10.
- useful utilisation: REPL-seconds on answered checks that informed the search (not the orphans
  of a race already won, nor a race's candidates answered together with or after its winner,
  nor checks started ahead of need that the search never took, nor the checks of an
  alternative tried beside an earlier one that closed the goal first) / (REPLs x wall - header
  seconds). `useful_utilisation_lenient` is the figure before 2026-12-02, which counted a race's
  candidates useful when they came back in the winner's request (`race_co_arrivals`).
  Also by phase: while problems are still being started (the steady state of a long bench) and
  the drain after the last one started (what is left is the running searches' dependent chains).
- Kimina throughput vs the stand-in's capacity (REPLs / mean check time).
- client CPU per HTTP request and per Lean check (the whole client process: engine, clients,
  recorder thread); event-loop lag p50/p99 (a 10 ms ticker's lateness).
- cancellations (engine: calls/checks cancelled; batcher: unsent dropped / sent orphaned; server:
  REPL kills, aborted LLM requests); records emitted vs stored.
- `last_chains`: where the time of the searches that set the run's end went (own checks on a REPL,
  model requests, waiting for verdicts, held behind siblings, the rest: `chain_breakdown`).
- `--overhead`: the engine's own CPU per goal node (zero latencies, in-process simulated Lean and
  models, scripts/bench_search.py's world) at 100 / 1k / 10k goal nodes. Goal <= 1 ms, flat.
- `--client-cpu`: Kimina client CPU per check at 8 / 64 / 256 checks in flight. Goal <= 1 ms, flat.

    python scripts/bench_e2e.py                          # the figures of docs/performance.md (~8 min): 244 problems,
                                                         # 64 REPLs, trees of ~50 goal nodes
    python scripts/bench_e2e.py --repls 128 --problems 300 --scale 0.05 --json
    python scripts/bench_e2e.py --overhead --client-cpu --no-e2e
    python scripts/bench_e2e.py --profile-bins 20                # where the run's end goes idle
    python scripts/bench_e2e.py --hilbert                        # 8 searches of Hilbert's size (~6 min)
    python scripts/bench_e2e.py --runs 3 --json                  # three runs and their min / mean / max
    python scripts/bench_e2e.py --world 2                        # other trees (--seed: other latencies)
    python scripts/bench_e2e.py --no-stream                      # candidates checked when the request ends
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM  # noqa: E402
from lemmaforge.benchmarks.runner import AttemptResult, run_jobs  # noqa: E402
from lemmaforge.config import load_config  # noqa: E402
from lemmaforge.db import SqlRecorder, Store  # noqa: E402
from lemmaforge.lean.kimina import KiminaVerifier, RetryPolicy  # noqa: E402
from lemmaforge.process import tune_garbage_collector  # noqa: E402
from lemmaforge.records import ForwardingRecorder, NodeCreated, Record, RunFinished, new_id  # noqa: E402
from lemmaforge.schedule import order as lean_priority  # noqa: E402
from lemmaforge.schedule.ahead import ChecksAhead  # noqa: E402
from lemmaforge.schedule.ledgers import Ledgers  # noqa: E402
from lemmaforge.services import open_services, problem_from_code  # noqa: E402

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"


# --- stand-in servers ----------------------------------------------------------------------------


@contextmanager
def standin(kind: str, *args: str):
    """A stand-in server in its own process; yields its base URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.fakes.standin_servers", kind, *args],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"stand-in {kind} did not start: {line!r}")
        yield f"http://127.0.0.1:{int(line.split()[1])}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def server_stats(url: str) -> dict[str, Any]:
    return httpx.get(url + "/stats", timeout=30).json()


# --- client-side probes ----------------------------------------------------------------------------


class LoopLag:
    """A ticker that sleeps `interval` and records how late it wakes: the event loop's lag. It also
    samples `probe()` (the client's own queue of checks not yet sent) for the profile."""

    def __init__(self, interval: float = 0.01, probe: Callable[[], int] | None = None) -> None:
        self.interval = interval
        self.probe = probe
        self.samples: list[float] = []
        self.queue_samples: list[tuple[float, int]] = []  # (time.monotonic(), probe())
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            await asyncio.sleep(self.interval)
            self.samples.append(max(0.0, loop.time() - started - self.interval))
            if self.probe is not None:
                self.queue_samples.append((time.monotonic(), self.probe()))

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._tick())

    async def stop(self) -> dict[str, float | None]:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if not self.samples:
            return {"p50_ms": None, "p99_ms": None}
        ordered = sorted(self.samples)
        return {"p50_ms": round(1000 * ordered[len(ordered) // 2], 2),
                "p99_ms": round(1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2)}


class CountingRecorder(ForwardingRecorder):
    """The SqlRecorder, counting what the search emitted (to compare with what was stored)."""

    def __init__(self, inner: SqlRecorder) -> None:
        super().__init__(inner)
        self.emitted: Counter[str] = Counter()
        self.goal_nodes = 0
        self.summaries: list[dict[str, Any]] = []  # what each search reported when it finished

    def emit(self, record: Record) -> None:
        self.emitted[type(record).__name__] += 1
        if isinstance(record, NodeCreated) and record.kind == "goal":
            self.goal_nodes += 1
        elif isinstance(record, RunFinished):
            self.summaries.append(dict(record.summary or {}))
        self.inner.emit(record)

    def summed(self, key: str) -> int:
        return sum(int(s.get(key) or 0) for s in self.summaries)


def stored_counts(db: Path) -> dict[str, int]:
    tables = {"RunStarted": "runs", "NodeCreated": "nodes", "AttemptRecord": "attempts",
              "LLMCallRecord": "llm_calls", "ProofRecord": "proofs"}
    with sqlite3.connect(db) as conn:
        names = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
        return {k: conn.execute(f"select count(*) from {t}").fetchone()[0] for k, t in tables.items() if t in names}


@contextmanager
def _wasted_lean_time(cls: Any, method: str, seconds_of: Callable[[Any, Any], float | None]) -> Any:
    """While in force, `cls.method(self, arg)` logs (time.monotonic(), seconds) whenever
    `seconds_of(self, arg)` names Lean seconds that turned out not to be useful work."""
    log: list[tuple[float, float]] = []
    original = getattr(cls, method)

    def watched(self: Any, arg: Any) -> None:
        seconds = seconds_of(self, arg)
        if seconds is not None:
            log.append((time.monotonic(), seconds))
        original(self, arg)

    setattr(cls, method, watched)
    try:
        yield log
    finally:
        setattr(cls, method, original)


def _answered_ahead(checks: ChecksAhead, code: str) -> float | None:
    """A check started ahead of need that answered, dropped: the search never took it."""
    task = checks._ahead.get(code)
    if task is None or not task.done() or task.cancelled() or task.exception() is not None:
        return None
    return float(task.result().time)


def _refunded(_ledgers: Ledgers, ledger: Any) -> float | None:
    """An alternative tried before its turn that never had it: its checks' Lean time."""
    return float(ledger.check_seconds) if ledger is not None and ledger.state == "open" else None


def watch_unused_ahead() -> Any:
    return _wasted_lean_time(ChecksAhead, "drop", _answered_ahead)


def watch_refunded() -> Any:
    return _wasted_lean_time(Ledgers, "refund", _refunded)


def watch_orphans(verifier: KiminaVerifier) -> list[tuple[float, float]]:
    """(time.monotonic(), Lean seconds) of each orphaned check as its verdict comes back."""
    log: list[tuple[float, float]] = []
    kept = verifier.batcher.orphans

    class Watched:
        def put(self, code: str, result: Any) -> None:
            log.append((time.monotonic(), result.time))
            kept.put(code, result)

        def pop(self, code: str) -> Any:
            return kept.pop(code)

    verifier.batcher.orphans = Watched()  # type: ignore[assignment]
    return log


# --- where the last searches' time went ---------------------------------------------------------

# One search's work, seconds into the run: ("check", start, end, Lean seconds or None, held when
# submitted) from a `check` call to its verdict (None: cancelled, or no verdict), ("model", start,
# end) for one model request.
ChainEvent = tuple[Any, ...]
CHAIN_STATES = ("checking", "model", "verdict_wait", "held", "other")


@contextmanager
def watch_chains(verifier: KiminaVerifier, started: float) -> Iterator[dict[int, list[ChainEvent]]]:
    """While in force, log every Lean check and model request by the search that made it
    (schedule/order.py's search scope, inherited by every task of the search), keyed by search."""
    chains: dict[int, list[ChainEvent]] = {}
    batcher = verifier.batcher
    check, request = batcher.check, OpenAICompatibleLLM._request

    async def logged_check(code: str, timeout: float, **kwargs: Any) -> Any:
        search = lean_priority.current_search()
        if search is None:  # a statement check, outside any search
            return await check(code, timeout, **kwargs)
        held = lean_priority.held(lean_priority.current_siblings())
        at, seconds = time.monotonic() - started, None
        try:
            result = await check(code, timeout, **kwargs)
            seconds = result.time
            return result
        finally:
            chains.setdefault(search.order, []).append(("check", at, time.monotonic() - started, seconds, held))

    async def logged_request(self: OpenAICompatibleLLM, *args: Any, **kwargs: Any) -> Any:
        search = lean_priority.current_search()
        at = time.monotonic() - started
        try:
            return await request(self, *args, **kwargs)
        finally:
            if search is not None:
                chains.setdefault(search.order, []).append(("model", at, time.monotonic() - started))

    batcher.check = logged_check  # type: ignore[method-assign]
    OpenAICompatibleLLM._request = logged_request  # type: ignore[method-assign]
    try:
        yield chains
    finally:
        del batcher.check
        OpenAICompatibleLLM._request = request  # type: ignore[method-assign]


def _union_length(intervals: Sequence[tuple[float, float]]) -> float:
    total, reach = 0.0, float("-inf")
    for a, b in sorted(intervals):
        if b > reach:
            total += b - max(a, reach)
            reach = b
    return total


def chain_breakdown(events: Sequence[ChainEvent]) -> dict[str, float]:
    """Where one search's time went, from its first request to its last verdict: each moment
    counted once, in the first of these states that holds — `checking` (a check of its own on a
    REPL: its Lean seconds, placed at the end of its wait), `model` (a model request out),
    `verdict_wait` (a check submitted due and not yet answered, beyond its own Lean time: the
    client's queue, the server's, the other checks of its batch), `held` (only checks submitted
    held behind an earlier sibling waiting: their turn, then the queue), `other` (none of those:
    the engine's own work)."""
    by_state: dict[str, list[tuple[float, float]]] = {state: [] for state in CHAIN_STATES[:-1]}
    for event in events:
        if event[0] == "model":
            by_state["model"].append((event[1], event[2]))
            continue
        _, at, end, seconds, held = event
        ran_from = max(at, end - seconds) if seconds is not None else end
        if seconds is not None:
            by_state["checking"].append((ran_from, end))
        by_state["held" if held else "verdict_wait"].append((at, ran_from))
    start = min(event[1] for event in events)
    end = max(event[2] for event in events)
    out = {"start_s": round(start, 2), "end_s": round(end, 2), "seconds": round(end - start, 2),
           "checks": sum(1 for e in events if e[0] == "check"), "model_requests": sum(1 for e in events if e[0] == "model")}
    covered: list[tuple[float, float]] = []
    before = 0.0
    for state in CHAIN_STATES[:-1]:  # a state's time: what it adds to the union of those ranked above it
        covered += by_state[state]
        now = _union_length(covered)
        out[f"{state}_s"] = round(now - before, 2)
        before = now
    out["other_s"] = round(end - start - before, 2)
    return out


def last_chains(chains: dict[int, list[ChainEvent]], count: int = 5) -> list[dict[str, float]]:
    """The breakdown of the `count` searches whose last verdict came last, and of the longest one
    if it is not among them (the run's end is set by one or the other)."""
    rows = {search: chain_breakdown(events) for search, events in chains.items() if events}
    chosen = sorted(rows, key=lambda s: rows[s]["end_s"])[-count:]
    longest = max(rows, key=lambda s: rows[s]["seconds"], default=None)
    if longest is not None and longest not in chosen:
        chosen.insert(0, longest)
    return [{"search": search, **rows[search]} for search in chosen]


# --- a race's candidates answered with or after its winner ---------------------------------------

# One answered check of a race's candidate: (the race's sibling group, verdict time as
# time.monotonic(), Lean seconds, accepted). The group object itself, not its id: an id is
# reused once a finished race is garbage.
RaceCheck = tuple[Any, float, float, bool]
# The verdicts of one response resume their callers one after another, within microseconds.
SAME_RESPONSE_SECONDS = 0.005


@contextmanager
def watch_races(verifier: KiminaVerifier) -> Iterator[list[RaceCheck]]:
    """While in force, log every answered check made for a race's candidate (the innermost
    sibling group on the check's path is of kind "race": schedule/order.py, set by the schedule).
    A check whose caller was cancelled raises here and is not logged: the batcher counts it as an
    orphan already."""
    log: list[RaceCheck] = []
    batcher = verifier.batcher
    had_own = "check" in vars(batcher)  # another watch's wrapper is in force
    check = batcher.check

    async def logged_check(code: str, timeout: float, **kwargs: Any) -> Any:
        path = lean_priority.current_siblings()
        group = path[-1][0] if path else None
        result = await check(code, timeout, **kwargs)
        if group is not None and group.kind == "race":
            log.append((group, time.monotonic(), result.time, result.ok))
        return result

    batcher.check = logged_check  # type: ignore[method-assign]
    try:
        yield log
    finally:
        if had_own:
            batcher.check = check  # type: ignore[method-assign]
        else:
            del batcher.check


def race_co_arrivals(log: Sequence[RaceCheck]) -> list[tuple[float, float]]:
    """(verdict time, Lean seconds) of each race candidate whose verdict came back together with
    its race's winner (the first accepted verdict; of several at once, the first resumed) or
    after it: none of them informed the race, so none is useful work. A rule that asks only
    whether the caller was still waiting when the verdict came would count them useful when they
    travel in the winner's request and orphaned when sent alone: it favours batching. (A
    candidate sent alone that answers after the win has a cancelled caller: it is an orphan in
    the batcher's count and never reaches this log.)"""
    by_race: dict[int, list[tuple[float, float, bool]]] = {}
    for group, at, seconds, accepted in log:
        by_race.setdefault(id(group), []).append((at, seconds, accepted))
    wasted: list[tuple[float, float]] = []
    for checks in by_race.values():
        wins = [k for k, (_, _, accepted) in enumerate(checks) if accepted]
        if not wins:
            continue
        winner = min(wins, key=lambda k: checks[k][0])
        won_at = checks[winner][0]
        wasted += [(at, seconds) for k, (at, seconds, _) in enumerate(checks)
                   if k != winner and at >= won_at - SAME_RESPONSE_SECONDS]
    return wasted


def useful_utilisation(intervals: Sequence[tuple[float, float, str]], orphans: Sequence[tuple[float, float]],
                       repls: int, start: float, end: float) -> float | None:
    """Useful utilisation within [start, end) (seconds into the run): REPL-seconds checking, less
    the orphaned checks' (each taken as the `seconds` before its batch came back at `at`: a check
    that ended earlier in a slower batch is placed a little late), over REPL-seconds not spent
    importing headers. Over [0, wall] it is the headline figure, which takes the same quantities
    from the server's and the batcher's totals."""

    def overlap(a: float, b: float) -> float:
        return max(0.0, min(b, end) - max(a, start))

    checking = sum(overlap(a, b) for a, b, kind in intervals if kind == "check")
    headers = sum(overlap(a, b) for a, b, kind in intervals if kind == "header")
    orphaned = sum(overlap(at - seconds, at) for at, seconds in orphans)
    capacity = repls * (end - start) - headers
    return round((checking - orphaned) / capacity, 3) if capacity > 0 else None


def phases(lean: dict[str, Any], started: float, wall: float, last_start: float,
           orphans: Sequence[tuple[float, float]]) -> dict[str, dict[str, float | None]]:
    """The run in two phases: while the scheduler still had problems to start (a long bench is
    mostly this: the steady state), and the drain after the last one started, when only the work
    of the searches already running is left and their dependent chains (a hole's failure, a new
    sketch, its holes, each level's assembly, the audit) set the end."""
    intervals = [(a - started, b - started, kind) for a, b, kind in lean.get("intervals", [])]
    return {name: {"seconds": round(b - a, 2),
                   "useful_utilisation": useful_utilisation(intervals, orphans, lean["repls"], a, b)}
            for name, (a, b) in (("admitting", (0.0, last_start)), ("draining", (last_start, wall)))}


def profile(lean: dict[str, Any], llm: dict[str, Any], started: float, wall: float,
            client_queue: list[tuple[float, int]], bins: int = 10,
            orphans: Sequence[tuple[float, float]] = ()) -> list[str]:
    """Where the wall time went, in `bins` equal slices of the run: mean REPLs checking / importing
    headers / checks waiting for a REPL, and mean LLM sequences decoding, each as a share of capacity
    (queued: waiting checks per REPL at the server; client: per REPL in the client, queued or held as
    speculative, not yet sent). Idle head and tail slices are the gap between wall and ideal."""
    width = wall / bins
    sums = [Counter() for _ in range(bins)]
    for source in (lean, llm):
        for a, b, kind in source.get("intervals", []):
            a, b = max(a - started, 0.0), min(b - started, wall)
            first, last = int(a // width), min(bins - 1, int(b // width))
            for i in range(first, last + 1):
                overlap = min(b, (i + 1) * width) - max(a, i * width)
                if overlap > 0:
                    sums[i][kind] += overlap
    repls, slots = lean["repls"], llm["slots"]
    client = [[0, 0] for _ in range(bins)]
    for at, waiting in client_queue:
        i = min(bins - 1, max(0, int((at - started) // width)))
        client[i][0] += waiting
        client[i][1] += 1
    orphaned = [0.0] * bins  # Lean seconds of orphaned checks, by the slice their verdict came back in
    for at, seconds in orphans:
        orphaned[min(bins - 1, max(0, int(at // width)))] += seconds
    rows = ["slice    check  orphan  header  wasted  queued/REPL  client/REPL  LLM decode"]
    for i, c in enumerate(sums):
        in_client = client[i][0] / client[i][1] / repls if client[i][1] else 0.0
        rows.append(f"{i * 100 // bins:>3}-{(i + 1) * 100 // bins:<3}%  {c['check'] / (repls * width):5.2f}  "
                    f"{orphaned[i] / (repls * width):6.2f}  "
                    f"{c['header'] / (repls * width):6.2f}  {c['wasted'] / (repls * width):6.2f}  "
                    f"{c['queued'] / (repls * width):11.2f}  {in_client:11.2f}  {c['decode'] / (slots * width):10.2f}")
    return rows


# --- the end-to-end run ------------------------------------------------------------------------------


async def e2e(args: argparse.Namespace) -> dict[str, Any]:
    scale = str(args.scale)
    kimina_args = ["--repls", str(args.repls), "--scale", scale, "--seed", str(args.seed)]
    llm_args = ["--slots", str(args.llm_slots), "--scale", scale, "--seed", str(args.seed + 1), "--steps",
                str(args.steps), "--p-solve", str(args.p_solve), "--tokens-per-s", str(args.tokens_per_s),
                "--stream-interval", str(args.stream_interval)]
    if args.cot:
        llm_args.append("--cot")
    with standin("kimina", *kimina_args) as kimina_url, standin("openai", *llm_args) as llm_url, \
            tempfile.TemporaryDirectory() as tmp:
        db = Path(args.db) if args.db else Path(tmp) / "bench.db"
        endpoint = {"url": llm_url + "/v1", "model": "standin", "retries": 2, "backoff": 0.1,
                    "concurrency": args.llm_slots, "timeout": 3600, "stream_samples": not args.no_stream}
        settings = load_config(None, {
            "verifier": {"backend": "kimina", "kimina_url": kimina_url, "timeout": 3600, "header_timeout": 3600,
                         "kimina_concurrency": args.kimina_concurrency, "kimina_batch_size": args.batch_size,
                         "kimina_spread_requests": args.spread_requests, "kimina_position_mode": "all"},
            "planner": endpoint, "prover": endpoint,
            "budget": {"llm_calls": 100_000, "lean_checks": 1_000_000, "prover_samples_per_goal": args.samples,
                       "root_whole_proof_attempts": args.samples, "max_depth": args.depth,
                       "sketch_alternatives": 2, "sketch_corrections": 0, "self_corrections": 0,
                       "wall_seconds": 36_000},
            "search": {"prover_samples_per_call": 0, "race_window": args.race_window,
                       "speculation": args.speculation},
            "db_url": f"sqlite:///{db}",
        }, environ={})
        verifier = KiminaVerifier.from_config(settings.verifier, retry=RetryPolicy(attempts=3, initial_wait=0.1))
        recorder = CountingRecorder(SqlRecorder(Store(settings.db_url)))
        # The trees are a function of the problems' names (the stand-in prover hashes each lemma's
        # text, its name included), so `--world` names them apart: another world of trees.
        stem = "p" if args.world == 0 else f"w{args.world}"
        problems = [
            (problem_from_code(HEADER + f"theorem {stem}_{i} (x : ℕ) (h : 0 < x) : x = x := by\n  sorry\n",
                               name=f"{stem}_{i}"), 1)
            for i in range(args.problems)
        ]
        lag = LoopLag(probe=lambda: sum(verifier.batcher.waiting))  # queued and held
        results: list[AttemptResult] = []

        def done(result: AttemptResult) -> None:
            results.append(result)
            spans.append((time.monotonic() - started - result.seconds, time.monotonic() - started))

        spans: list[tuple[float, float]] = []  # each search's (start, end), seconds into the run
        orphan_log = watch_orphans(verifier)
        cpu0, started = time.process_time(), time.monotonic()
        lag.start()
        with watch_unused_ahead() as unused_ahead, watch_refunded() as refunded, \
                watch_chains(verifier, started) as chains, watch_races(verifier) as races:
            async with open_services(settings, recorder=recorder, verifier=verifier) as services:  # type: ignore[arg-type]
                # The bench's own scheduler (`lemmaforge bench`): a statement check per problem (with
                # look-ahead), then its search, `concurrent_problems` at once.
                await run_jobs(problems, services=services, settings=settings, bench_run_id=new_id(),
                               versions={}, shared_cache=False, concurrency=args.concurrent_problems, on_result=done)
                solved_at = time.monotonic() - started
        wall = time.monotonic() - started
        cpu = time.process_time() - cpu0
        loop_lag = await lag.stop()
        batcher = verifier.batcher.stats
        http_kimina = verifier.stats.requests
        await verifier.close()
        await asyncio.to_thread(recorder.inner.close)
        stored = stored_counts(db)
        lean, llm = server_stats(kimina_url), server_stats(llm_url)

    lean_busy = lean["header_seconds"] + lean["check_seconds"] + lean["wasted_seconds"]
    ideal_lean, ideal_llm = lean_busy / lean["repls"], llm["sequence_seconds"] / llm["slots"]
    ideal = max(ideal_lean, ideal_llm)
    goal_nodes = recorder.goal_nodes
    capacity = lean["capacity_checks_per_s"] or 0.0
    useful_capacity = lean["repls"] * wall - lean["header_seconds"]
    # Checks whose callers had left (a sibling candidate won, the sketch was abandoned) ran to the
    # end on the server (aborting would destroy the REPL) but were not useful work: not counted.
    # Checks started ahead that answered but were never taken, and the answered checks of
    # alternatives tried before their turn that never had it: not useful either.
    unused_ahead_seconds = sum(seconds for _, seconds in unused_ahead)
    refunded_seconds = sum(seconds for _, seconds in refunded)
    useful_seconds = lean["check_seconds"] - batcher.orphaned_seconds - unused_ahead_seconds - refunded_seconds
    co_arrival_log = race_co_arrivals(races)
    co_arrivals = sum(seconds for _, seconds in co_arrival_log)
    orphans = [(at - started, seconds) for at, seconds in [*orphan_log, *unused_ahead, *refunded, *co_arrival_log]]
    last_start = max(a for a, _ in spans)
    return {
        "repls": lean["repls"], "llm_slots": llm["slots"], "scale": args.scale, "problems": args.problems,
        "seed": args.seed, "world": args.world, "stream_samples": not args.no_stream,
        "proved": sum(r.proved for r in results), "statuses": dict(Counter(r.status for r in results)),
        "goal_nodes": goal_nodes,
        "goal_nodes_per_problem": round(goal_nodes / max(1, len(results)), 1),
        "llm_calls_per_problem": round(sum(r.calls for r in results) / max(1, len(results)), 1),
        "wall_s": round(wall, 2), "ideal_s": round(ideal, 2), "bound": "lean" if ideal_lean >= ideal_llm else "llm",
        "wall_over_ideal": round(wall / ideal, 3) if ideal else None,
        "useful_utilisation": round((useful_seconds - co_arrivals) / useful_capacity, 3)
        if useful_capacity > 0 else None,
        # Before 2026-12-02 the headline: a race's candidates answered together with or after its
        # winner counted useful when they came back in the winner's request (their caller still
        # waited), orphaned when sent alone. Kept to compare with earlier figures.
        "useful_utilisation_lenient": round(useful_seconds / useful_capacity, 3) if useful_capacity > 0 else None,
        "race_co_arrival_share": round(co_arrivals / max(1e-9, lean["check_seconds"]), 3),
        "orphaned_share": round(batcher.orphaned_seconds / max(1e-9, lean["check_seconds"]), 3),
        # of which: checks sent while still held, because Lean had room (the rest: certain work
        # whose caller left, e.g. a race's candidate within the window, a search that ended)
        "orphaned_speculated_share": round(batcher.orphaned_speculated_seconds / max(1e-9, lean["check_seconds"]), 3),
        "speculated_checks": batcher.speculated,
        "orphan_hits": batcher.orphan_hits,  # checks answered from an orphan's kept verdict
        "kimina_checks_per_s": round(lean["checks_done"] / wall, 1),
        "kimina_capacity_per_s": round(capacity, 1),
        "throughput_over_capacity": round(lean["checks_done"] / wall / capacity, 3) if capacity else None,
        "kimina_requests": http_kimina, "checks_per_request": round(lean["snippets"] / max(1, lean["requests"]), 2),
        "server_max_in_flight": lean["max_in_flight"],
        "llm_requests": llm["requests"],
        "llm_stream_events": llm["stream_events"],  # server-sent events the client read (streamed requests)
        "client_cpu_ms_per_request": round(1000 * cpu / max(1, http_kimina + llm["requests"]), 3),
        "client_cpu_ms_per_check": round(1000 * cpu / max(1, lean["snippets"]), 3),
        "client_cpu_ms_per_goal_node": round(1000 * cpu / max(1, goal_nodes), 3),
        "loop_lag_p50_ms": loop_lag["p50_ms"], "loop_lag_p99_ms": loop_lag["p99_ms"],
        "cancelled_calls": recorder.summed("cancelled_calls"),
        "cancelled_checks": recorder.summed("cancelled_checks"),
        "prefetched_calls": recorder.summed("prefetched_calls"),
        "prefetched_unused": recorder.summed("prefetched_unused"),
        "checks_ahead": recorder.summed("checks_ahead"),
        "checks_ahead_unused": recorder.summed("checks_ahead_unused"),
        "unused_ahead_share": round(unused_ahead_seconds / max(1e-9, lean["check_seconds"]), 3),
        "speculative_calls": recorder.summed("speculative_calls"),
        "speculative_checks": recorder.summed("speculative_checks"),
        "speculative_share": round(refunded_seconds / max(1e-9, lean["check_seconds"]), 3),
        "unsent_dropped": batcher.dropped_unsent, "sent_orphaned": batcher.orphaned,
        "repl_kills": lean["repl_kills"], "llm_aborted": llm["aborted"],
        "header_imports": lean["header_imports"],
        "records_emitted": dict(recorder.emitted), "records_stored": stored,
        "phases": phases(lean, started, wall, last_start, orphans),
        "profile": profile(lean, llm, started, wall, lag.queue_samples, bins=args.profile_bins, orphans=orphans),
        "last_problems": [{"start_s": round(a, 1), "end_s": round(b, 1), "status": r.status, "calls": r.calls,
                           "checks": r.checks} for (a, b), r in sorted(zip(spans, results, strict=True), key=lambda x: x[0][1])[-5:]],
        # where the time of the searches that set the run's end went (chain_breakdown)
        "last_chains": last_chains(chains),
        "last_problem_done_s": round(solved_at, 2),
        "problem_seconds_p50_max": [round(sorted(b - a for a, b in spans)[len(spans) // 2], 2),
                                    round(max(b - a for a, b in spans), 2)],
        "last_problem_started_s": round(last_start, 2),
    }


# --- engine overhead and client CPU ----------------------------------------------------------------


_next_problem = 10_000_000  # every run below proves problems no earlier run saw (no memo hits)


async def _engine_cpu(problems: int) -> tuple[float, int]:
    import bench_search as sim

    global _next_problem
    s = sim.Scenario("overhead", problems=problems, workers=8, llm_concurrency=32, check_latency=0.0,
                     llm_latency=0.0, first=_next_problem)
    _next_problem += problems
    cpu0, standin0 = time.thread_time(), sim.StandinCpu.seconds
    row = await sim.run(s)
    # The simulated Lean's and models' own answers are not the engine's work (another process's
    # in a real run): measured around each answer and left out.
    return time.thread_time() - cpu0 - (sim.StandinCpu.seconds - standin0), row["goal_nodes"]


async def overhead(goal_nodes: int, repeats: int = 5) -> dict[str, Any]:
    """The engine's CPU per goal node with zero latencies (bench_search's simulated world).

    Each run proves problems no earlier run in the process saw, so memoized text does not
    flatter it. The first search of a process pays one-off costs (lazy imports, regex compilation)
    that are not per node: a small search measures them apart (`cold_start_cpu_ms`). Runs below
    1,000 nodes are short enough for one garbage collection to swing them: `repeats` runs; larger
    ones 3 (a shared machine's speed drifts by a third within minutes); the median and the worst
    reported. The simulated servers' own CPU is measured and left out (`bench_search.StandinCpu`)."""
    out: dict[str, Any] = {}
    if _next_problem == 10_000_000:
        cpu, _ = await _engine_cpu(3)
        out["cold_start_cpu_ms"] = round(1000 * cpu, 1)
    problems = max(1, round(goal_nodes / 5.6))  # that world makes ~5.6 goal nodes per problem
    runs = [await _engine_cpu(problems) for _ in range(repeats if goal_nodes < 1_000 else 3)]
    per_node = sorted(1000 * cpu / max(1, nodes) for cpu, nodes in runs)
    return {"goal_nodes": runs[0][1], "engine_cpu_ms_per_goal_node": round(per_node[len(per_node) // 2], 3),
            "worst_of_runs": round(per_node[-1], 3), "runs": len(runs), **out}


async def client_cpu(in_flight: int, checks: int, scale: float) -> dict[str, Any]:
    """Kimina client CPU per check with `in_flight` checks outstanding (one check() task each)."""
    with standin("kimina", "--repls", str(in_flight), "--scale", str(scale)) as url:
        verifier = KiminaVerifier(url, concurrency=in_flight, position_mode="all", timeout=3600)
        code = HEADER + "theorem q (x : ℕ) : x = x := by\n  sim_ok\n"
        await verifier.check(code + "-- warm")  # header import, connection
        queue = iter(range(checks))

        async def worker() -> None:
            for i in queue:
                await verifier.check(code + f"-- {i}")

        cpu0, started = time.thread_time(), time.monotonic()
        await asyncio.gather(*(worker() for _ in range(in_flight)))
        cpu, wall = time.thread_time() - cpu0, time.monotonic() - started
        requests = verifier.stats.requests
        await verifier.close()
    return {"in_flight": in_flight, "checks": checks, "requests": requests,
            "client_cpu_ms_per_check": round(1000 * cpu / checks, 3), "checks_per_s": round(checks / wall, 1)}


# The workload's shape. The default: miniF2F-test's 244 problems, 128 at once, small trees (~45
# goal nodes, ~32 LLM calls per problem). `--hilbert`: a few searches with trees of the size Hilbert
# reports (1,840 LLM calls per PutnamBench problem on average): every one must keep many Lean workers
# busy on its own, by speculating on held siblings.
DEFAULT_TREES: dict[str, Any] = {"problems": 244, "concurrent_problems": 128, "p_solve": 0.15, "depth": 3}
HILBERT: dict[str, Any] = {"problems": 8, "concurrent_problems": 8, "p_solve": 0.05, "depth": 5}


# What `--runs` summarises: the goals' ratios and what a reader compares between runs.
SUMMARISED = ("wall_over_ideal", "useful_utilisation", "useful_utilisation_lenient", "throughput_over_capacity",
              "orphaned_share", "repl_kills", "proved", "wall_s")


def summarise_runs(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Min, mean and max of each summarised figure over repeated runs of the same settings. One run
    of this benchmark varies by about +-0.01 in useful utilisation (timing decides which race
    candidate answers first, so even the trees differ a little): a change smaller than that needs
    several runs on each side, made in the same hour."""
    summary: dict[str, dict[str, Any]] = {}
    for key in SUMMARISED:
        values = [row[key] for row in rows if row.get(key) is not None]
        if values:
            summary[key] = {"min": min(values), "mean": round(sum(values) / len(values), 3), "max": max(values),
                            "values": values}
    return summary


def fill_workload(args: argparse.Namespace) -> None:
    """The workload options not given on the command line, from the preset chosen (`--hilbert`)."""
    for name, value in (HILBERT if args.hilbert else DEFAULT_TREES).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.spread_requests is None:  # as many requests as REPLs before two checks share one
        args.spread_requests = args.repls


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repls", type=int, default=64)
    p.add_argument("--llm-slots", type=int, default=512)
    p.add_argument("--problems", type=int, help="244: miniF2F-test's size (--hilbert: 8)")
    p.add_argument("--concurrent-problems", type=int, help="128 (--hilbert: 8)")
    p.add_argument("--hilbert", action="store_true",
                   help="trees of Hilbert's size: a few searches of ~2,400 goal nodes and ~1,400 LLM calls each "
                        "(defaults --problems 8 --concurrent-problems 8 --p-solve 0.05 --depth 5)")
    p.add_argument("--scale", type=float, default=0.3, help="latency multiplier (0.1: 3.5 s checks take 0.35 s)")
    p.add_argument("--seed", type=int, default=1, help="draws the latencies (check times, header imports, output lengths)")
    p.add_argument("--world", type=int, default=0,
                   help="which trees: the problems are named p_i (0) or wN_i, and the stand-in prover's success "
                        "on a lemma is a hash of its text, so each world has other big searches")
    p.add_argument("--steps", type=int, default=5, help="have-steps per sketch (holes = steps + 1)")
    p.add_argument("--depth", type=int, help="3 (--hilbert: 5)")
    p.add_argument("--samples", type=int, default=8, help="prover samples per goal (one request, n = samples)")
    p.add_argument("--p-solve", type=float, help="a prover sample's chance to prove a sub-lemma: 0.15 (--hilbert: 0.05)")
    p.add_argument("--tokens-per-s", type=float, default=200.0)
    p.add_argument("--cot", action="store_true")
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--spread-requests", type=int,
                   help="[verifier] kimina_spread_requests: checks spread over this many requests before two share "
                        "one (default: --repls, so that no check waits for a batch-mate while a REPL could take it)")
    p.add_argument("--race-window", type=int, default=1, help="[search] race_window (schedule/order.py)")
    p.add_argument("--stream-interval", type=int, default=256,
                   help="tokens per server-sent event of a streamed request (vLLM's --stream-interval; its default is 1)")
    p.add_argument("--no-stream", action="store_true",
                   help="[prover] stream_samples = false: a request's candidates are checked when its last sample is done")
    p.add_argument("--speculation", choices=("off", "prefetch", "full"), default="prefetch",
                   help="[search] speculation (lemmaforge/schedule/): off = one step after another")
    p.add_argument("--kimina-concurrency", type=int, default=128)
    p.add_argument("--profile-bins", type=int, default=10, help="slices of the wall-time profile (40: the tail in detail)")
    p.add_argument("--overhead", action="store_true", help="also measure engine CPU per goal node (100/1k/10k)")
    p.add_argument("--client-cpu", action="store_true", help="also measure Kimina client CPU at 8/64/256 in flight")
    p.add_argument("--no-e2e", action="store_true")
    p.add_argument("--db", help="keep the run's SQLite store at this new path, e.g. to read the last searches' attempts")
    p.add_argument("--runs", type=int, default=1,
                   help="run the end-to-end benchmark this many times (same settings, fresh servers) and report "
                        "each and their min / mean / max")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    fill_workload(args)
    if args.profile_bins < 1:
        p.error("--profile-bins must be at least 1")
    if args.world < 0:
        p.error("--world must be 0 or more")
    if args.race_window < 1:
        p.error("--race-window must be at least 1")
    if args.spread_requests < 1:
        p.error("--spread-requests must be at least 1")
    if args.runs < 1:
        p.error("--runs must be at least 1")
    if args.stream_interval < 1:
        p.error("--stream-interval must be at least 1")
    if args.db and args.runs > 1:
        p.error("--db keeps one run's store: use it with --runs 1")
    if args.db and (Path(args.db).exists() or not Path(args.db).parent.is_dir()):
        p.error(f"--db {args.db}: give a new file in an existing folder (a run never overwrites a store)")
    tune_garbage_collector()  # as the `lemmaforge` command does at start (lemmaforge/process.py)
    out: dict[str, Any] = {}
    if not args.no_e2e:
        runs = [asyncio.run(e2e(args)) for _ in range(args.runs)]
        if len(runs) == 1:
            out["e2e"] = runs[0]
        else:
            out["e2e_runs"], out["e2e_summary"] = runs, summarise_runs(runs)
    if args.overhead:
        out["overhead"] = [asyncio.run(overhead(n)) for n in (100, 1_000, 10_000)]
    if args.client_cpu:
        out["client_cpu"] = [asyncio.run(client_cpu(k, max(600, 4 * k), 0.002)) for k in (8, 64, 256)]
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for section, value in out.items():
        print(f"== {section}")
        for row in value if isinstance(value, list) else [value]:
            for k, v in row.items():
                if isinstance(v, dict) and {"min", "mean", "max"} <= set(v):  # --runs: a figure's spread
                    print(f"  {k:>28}: mean {v['mean']} (min {v['min']}, max {v['max']}; runs: {v['values']})")
                    continue
                if isinstance(v, list) and v and isinstance(v[0], (str, dict)):  # a table: one line each
                    print(f"  {k:>28}:")
                    for line in v:
                        print(f"  {'':>28}  {line}")
                    continue
                print(f"  {k:>28}: {v}")
            print()
    if "e2e" in out or "e2e_runs" in out:
        print("goals: wall/ideal <= 1.10, useful utilisation >= 0.95, throughput >= 0.8 x capacity, "
              "0 REPL kills from client cancellation")


if __name__ == "__main__":
    main()

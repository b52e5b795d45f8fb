"""Benchmark of the search engine with simulated LLM and Lean latencies (a script, not a test).

It answers two questions about the engine's scheduling, independent of any real model or Lean:

(a) Does generation overlap verification and keep both resources busy? Reported as
        ratio = wall time / max(total generation time / LLM concurrency, total check time / Lean workers)
    i.e. wall time over the time the busier resource needs at full use. Goal: <= 1.1.
(b) What does the engine itself cost per goal node (tree bookkeeping, text tools, lemma building,
    records)? Measured with zero latencies: wall time / goal nodes. Goal: <= 1 ms.

The simulated world: every problem is `theorem p_i (x : ℕ) (h : 0 < x) : x = x`; the prover's
whole-proof attempts at the root fail, the planner sketches `steps` `have` steps plus a closing
hole, and each hole's lemma is proved by the prover with a probability (deterministic per lemma
and sample); a proof is the tactic `sim_ok` (checks) or `sim_bad` (a Lean error). Lean checks and
LLM calls sleep their latency while holding a slot of their resource (workers / concurrency), as
a pool of REPLs and a vLLM server with a concurrency limit would.

    python scripts/bench_search.py                 # default scenarios
    python scripts/bench_search.py --json
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import hashlib
import json
import math
import random
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lemmaforge.config import BudgetConfig, SearchConfig, Settings  # noqa: E402
from lemmaforge.lean.verifier import CheckResult, Goal, TacticResult  # noqa: E402
from lemmaforge.process import tune_garbage_collector  # noqa: E402
from lemmaforge.records import ProblemRecord, Record  # noqa: E402
from lemmaforge.schedule import for_speculation  # noqa: E402
from lemmaforge.search.engine import SearchEngine  # noqa: E402

HEADER = "import Mathlib\n\nopen Real Nat\n\n"


class StandinCpu:
    """CPU the simulated Lean and models spend on their own answers (`judge`, the prover's and
    the planner's texts): in a real run that is another process's work, so the engine's CPU is
    the loop thread's CPU less this. Measured around each answer, not estimated."""

    seconds = 0.0

    def __enter__(self) -> None:
        self._started = time.thread_time()

    def __exit__(self, *exc: object) -> None:
        StandinCpu.seconds += time.thread_time() - self._started


@dataclass
class Resource:
    """A pool of `slots` identical servers. `busy` is the time actually spent serving: a request
    cancelled half-way counts its half (cancelled work is not useful work, and planned time that
    was never spent is no work at all)."""

    slots: int
    busy: float = 0.0
    calls: int = 0
    cancelled: int = 0
    sigma: float = 0.0  # > 0: lognormal latencies with this shape (mean kept), seeded
    _sem: asyncio.Semaphore | None = None
    _rng: random.Random = field(default_factory=lambda: random.Random(7))

    async def use(self, seconds: float) -> None:
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.slots)
        if self.sigma > 0 and seconds > 0:
            seconds = self._rng.lognormvariate(math.log(seconds) - self.sigma**2 / 2, self.sigma)
        async with self._sem:
            self.calls += 1
            started = time.perf_counter()
            try:
                if seconds > 0:
                    await asyncio.sleep(seconds)
            except asyncio.CancelledError:
                self.cancelled += 1
                raise
            finally:
                self.busy += time.perf_counter() - started


@dataclass
class SimVerifier:
    lean: Resource
    latency: float
    name: str = "sim"
    supports_proof_states: bool = False

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult:
        await self.lean.use(self.latency)
        with StandinCpu():
            return judge(code)

    async def check_many(self, codes: Sequence[str], *, timeout: float | None = None) -> list[CheckResult]:
        return list(await asyncio.gather(*(self.check(c, timeout=timeout) for c in codes)))

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        raise NotImplementedError

    async def close(self) -> None:
        return None


_SORRY = re.compile(r"\bsorry\b")


def judge(code: str) -> CheckResult:
    """The simulated Lean: regexes on code the simulation wrote itself (no comments or strings
    to worry about), so that the benchmark measures the engine, not the simulator."""
    messages: list[dict[str, Any]] = []
    sorries: list[dict[str, Any]] = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", code)]

    def pos(offset: int) -> dict[str, int]:
        line = bisect.bisect_right(line_starts, offset)
        return {"line": line, "column": offset - line_starts[line - 1]}

    for m in re.finditer(r"\bsim_bad\b", code):
        messages.append({"severity": "error", "pos": pos(m.start()), "data": "sim: failed"})
    for m in _SORRY.finditer(code):
        sorries.append({"pos": pos(m.start()), "goal": "⊢ sim"})
    for m in re.finditer(r"^#print axioms (\S+)", code, re.MULTILINE):
        deps = "propext, sorryAx" if sorries else "propext"
        # at the probe's own position: the audit reads only the messages Lean attaches to it
        messages.append({"severity": "info", "pos": pos(m.start()), "data": f"'{m.group(1)}' depends on axioms: [{deps}]"})
    for m in re.finditer(r"^#check @(\S+)", code, re.MULTILINE):
        # the audit's type probe (lean/audit/_judge.py): the simulation never changes a statement's meaning,
        # so the original and its proof print the same type
        messages.append({"severity": "info", "pos": pos(m.start()), "data": f"@{m.group(1)} : sim"})
    for m in re.finditer(r'^run_cmd do\n  let lfTag : String := "([0-9a-f]+)"', code, re.MULTILINE):
        # the audit's declaration listing (lean/gate/_probes.py's template): the theorems written before
        # it (kind, unsafe, partial, implemented_by, extern, in the theorem's closure, name, axioms)
        deps = "propext,sorryAx" if sorries else "propext"
        tag = m.group(1)
        lines = [f"{tag}\tconst\ttheorem\tfalse\tfalse\tfalse\tfalse\ttrue\t{d.group(1)}\t{deps}"
                 for d in re.finditer(r"^(?:theorem|lemma) (\S+)", code[: m.start()], re.MULTILINE)]
        lines += [f"{tag}\text\t{kind}\t0" for kind in ("instance", "macro", "elab", "parser")]
        lines.append(f"{tag}\tend\t{len(lines)}")
        messages.append({"severity": "info", "pos": pos(m.start()), "data": "\n".join(lines)})
    if sorries:
        messages.append({"severity": "warning", "data": "declaration uses 'sorry'"})
    return CheckResult.from_repl_response({"env": 0, "messages": messages, "sorries": sorries}, backend="sim")


def chance(key: str) -> float:
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


@dataclass
class SimCandidate:
    code: str
    body: str | None
    raw: str = ""
    call_id: str | None = None
    aux: str = ""


@dataclass
class SimSketch:
    code: str
    informal: str | None = None
    raw: str = ""
    call_id: str | None = None


@dataclass
class SimProver:
    llm: Resource
    latency: float
    p_solve: float
    counter: dict[str, int] = field(default_factory=dict)
    corrects = True

    def has_room(self) -> bool:  # no requests ahead of need in this simulation
        return False

    async def prove(self, header: str, lemma_statement: str, n: int = 1, *, informal: str | None = None,
                    on_candidate: Any = None) -> list[SimCandidate]:
        await self.llm.use(self.latency)
        with StandinCpu():
            is_root = "_sub_" not in lemma_statement.split(":=")[0]
            out = []
            for _ in range(n):
                k = self.counter.get(lemma_statement, 0)
                self.counter[lemma_statement] = k + 1
                ok = not is_root and chance(f"{lemma_statement}#{k}") < self.p_solve
                body = "sim_ok" if ok else "sim_bad"
                out.append(SimCandidate("", body))  # the engine fills `body` into its own lemma
            return out

    async def correct(self, header: str, candidate: Any, errors: list[str], n: int = 1, *,
                      on_candidate: Any = None, checked_code: str | None = None) -> list[SimCandidate]:
        return []


@dataclass
class SimPlanner:
    llm: Resource
    latency: float
    steps: int

    def has_room(self) -> bool:
        return False

    async def draft(self, header: str, statement: str, informal: str | None = None, n: int = 1, *,
                    avoid: Sequence[str] = ()) -> list[SimSketch]:
        await self.llm.use(self.latency)
        with StandinCpu():
            head = statement.split(":= by")[0].rstrip()
            steps = "".join(f"  have s{i} : x + {i} = x + {i} := by sorry\n" for i in range(self.steps))
            return [SimSketch(f"{head} := by\n{steps}  sorry\n")]

    async def correct(self, header: str, statement: str, sketch: Any, errors: list[str], n: int = 1, *,
                      checked_code: str | None = None) -> list[SimSketch]:
        return []


class SinkRecorder:
    """Counts records and keeps none, like the SQL recorder (which writes and drops them): a
    recorder that keeps every record makes the heap, and so the garbage collector's full passes,
    grow with the run, which is the benchmark's cost, not the engine's."""

    def __init__(self) -> None:
        self.emitted = 0

    def emit(self, record: Record) -> None:
        self.emitted += 1


@dataclass
class Scenario:
    name: str
    problems: int
    workers: int
    llm_concurrency: int
    check_latency: float
    llm_latency: float
    steps: int = 3
    p_solve: float = 0.6
    samples: int = 4
    sigma: float = 0.0  # lognormal latency shape (0: constant latencies)
    concurrent: int = 64  # problems in flight at once (`bench --concurrency`); the rest wait
    first: int = 0  # index of the first problem: distinct runs in one process share no memoized text


async def run(s: Scenario) -> dict[str, Any]:
    lean, llm = Resource(s.workers, sigma=s.sigma), Resource(s.llm_concurrency, sigma=s.sigma)
    verifier = SimVerifier(lean, s.check_latency)
    budget = BudgetConfig(llm_calls=10_000, lean_checks=100_000, prover_samples_per_goal=s.samples,
                          root_whole_proof_attempts=2, max_depth=2, sketch_alternatives=2, self_corrections=0)
    recorder = SinkRecorder()
    results: list[tuple[bool, int, int]] = []  # (proved, nodes, goal nodes): trees are not kept

    queue = iter(range(s.problems))

    async def worker() -> None:
        # A fixed pool of workers pulling problems, not one task per problem behind a semaphore:
        # asyncio.Semaphore.locked() scans its waiters, so thousands of them cost O(n²).
        for i in queue:
            await solve(i)

    async def solve(i: int) -> None:
        settings = Settings(budget=budget, search=SearchConfig(portfolio=[]))
        engine = SearchEngine(verifier, SimPlanner(llm, s.llm_latency, s.steps),
                              SimProver(llm, s.llm_latency, s.p_solve), recorder=recorder,
                              settings=settings, schedule=for_speculation(settings.search.speculation))
        i += s.first
        statement = f"theorem p_{i} (x : ℕ) (h : 0 < x) : x = x := by\n  sorry\n"
        problem = ProblemRecord(f"sim/p_{i}", f"p_{i}", HEADER, statement)
        r = await engine.prove(problem)
        results.append((r.proved, len(r.tree), sum(1 for n in r.tree.nodes() if n.kind == "goal")))

    started, cpu_started, standin_started = time.perf_counter(), time.thread_time(), StandinCpu.seconds
    await asyncio.gather(*(worker() for _ in range(min(s.concurrent, s.problems))))
    wall, cpu = time.perf_counter() - started, time.thread_time() - cpu_started
    standin_cpu = StandinCpu.seconds - standin_started
    goal_nodes = sum(g for _, _, g in results)
    bound = max(llm.busy / s.llm_concurrency, lean.busy / s.workers)
    return {
        "scenario": s.name,
        "problems": s.problems,
        "proved": sum(p for p, _, _ in results),
        "goal_nodes": goal_nodes,
        "nodes": sum(n for _, n, _ in results),
        "llm_calls": llm.calls,
        "lean_checks": lean.calls,
        "cancelled": llm.cancelled + lean.cancelled,
        "wall_s": round(wall, 3),
        "ideal_s": round(bound, 3),
        "ratio": round(wall / bound, 3) if bound > 0 else None,
        # CPU of the loop thread, not wall time: on a shared machine wall time measures the
        # neighbours. The engine's share excludes the simulated servers' own answers.
        "cpu_ms_per_goal_node": round(1000 * (cpu - standin_cpu) / max(goal_nodes, 1), 3),
        "standin_cpu_ms_per_goal_node": round(1000 * standin_cpu / max(goal_nodes, 1), 3),
    }


SCENARIOS = [
    # (a) overlap: both resources loaded, Lean the bottleneck (the usual case: checks are expensive)
    Scenario("lean-bound", problems=40, workers=8, llm_concurrency=32, check_latency=0.05, llm_latency=0.08),
    # the same with lognormal latencies (tails, so races are decided late and losers cancelled)
    Scenario("lean-bound-lognormal", problems=40, workers=8, llm_concurrency=32, check_latency=0.05,
             llm_latency=0.08, sigma=0.6),
    # LLM the bottleneck (a slow planner / long CoT outputs)
    Scenario("llm-bound", problems=40, workers=16, llm_concurrency=8, check_latency=0.02, llm_latency=0.1),
    # (b) the engine's own cost: zero latencies
    Scenario("overhead-100", problems=18, workers=8, llm_concurrency=32, check_latency=0.0, llm_latency=0.0),
    Scenario("overhead-1k", problems=180, workers=8, llm_concurrency=32, check_latency=0.0, llm_latency=0.0),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    tune_garbage_collector()  # as the `lemmaforge` command does at start (lemmaforge/process.py)
    rows = [asyncio.run(run(s)) for s in SCENARIOS]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    cols = ["scenario", "problems", "proved", "goal_nodes", "llm_calls", "lean_checks", "cancelled", "wall_s",
            "ideal_s", "ratio", "cpu_ms_per_goal_node", "standin_cpu_ms_per_goal_node"]
    print("  ".join(f"{c:>12}" for c in cols))
    for r in rows:
        print("  ".join(f"{r[c]!s:>12}" for c in cols))
    print("\nratio (goal <= 1.1): wall / max(generation / LLM concurrency, checks / Lean workers)")
    print("   (busy time counts only time actually spent; cancelled requests count what they ran)")
    print("overhead (goal <= 1 ms): the 'overhead' rows, zero latencies, loop-thread CPU less the simulated")
    print("   servers' own answers (standin column), per goal node")


if __name__ == "__main__":
    main()

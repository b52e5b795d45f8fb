"""The search engine's own CPU per goal node on big trees (a script, not a test).

Two shapes of ~the same number of goal nodes, on instant stand-ins (no latency, no sleeping):

- `tree`: ONE problem's tree, the size of a Hilbert search. The planner sketches `--holes` holes
  for every goal (`--holes - 1` `have` steps and a closing `sorry`), the prover fails every goal
  above `--depth` and proves every goal at it, so the search builds the full tree
  1 + h + h² + … + h^depth (h = 10: 111 · 1,111 · 11,111 goal nodes at depth 2 · 3 · 4) and proves
  the root. A hole's lemma carries the haves before it as hypotheses, so texts grow with depth:
  work per node that reads a whole text is O(depth) (fine); work that reads a text once per
  ancestor, or walks the tree from the root per node, is what this measures.
- `many`: many small problems (one level of the same sketch each: h + 1 goal nodes per problem),
  `--concurrency` at once, as a benchmark run over a dataset does.

What is measured: process CPU (`time.process_time`) of the whole search less the stand-ins' own CPU
(the simulated Lean's `judge`, the models' texts: measured around each answer, as
`bench_search.StandinCpu` does; in a real run that is another process's work), per goal node.
A small tree is searched again (a new problem each time) until the searches add up to
`--min-cpu` seconds of CPU, and its figure is over all of them: one search of 111 goal nodes is
0.1 s of CPU, which a shared machine's hiccups move by half, against 10 s for 11,111 nodes.

    python scripts/bench_engine_cpu.py                       # tree at depth 2, 3, 4 (111 … 11,111)
    python scripts/bench_engine_cpu.py --depths 2 3          # quicker
    python scripts/bench_engine_cpu.py --shape many --nodes 10000
    python scripts/bench_engine_cpu.py --depths 4 --profile  # cProfile, top 20 by own time
    python scripts/bench_engine_cpu.py --json
    python scripts/bench_engine_cpu.py --min-cpu 0                # one search per depth
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import importlib
import io
import json
import pstats
import re
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench_search as sim  # noqa: E402  (the simulated Lean and the records sink)

import lemmaforge.lean.syntax._layout as syntax_layout  # noqa: E402
import lemmaforge.lean.syntax._lexer as syntax_lexer  # noqa: E402
from lemmaforge.config import BudgetConfig, SearchConfig, Settings  # noqa: E402
from lemmaforge.lean import lemmas as lean_lemmas  # noqa: E402
from lemmaforge.process import tune_garbage_collector  # noqa: E402
from lemmaforge.records import ProblemRecord  # noqa: E402
from lemmaforge.schedule import for_speculation  # noqa: E402
from lemmaforge.search import cache as search_cache  # noqa: E402
from lemmaforge.search.engine import SearchEngine  # noqa: E402

# The module, not the `holes` function the package re-exports under the same name.
syntax_holes = importlib.import_module("lemmaforge.lean.syntax._holes")

# A sketch's steps carry the level they were drafted at, in the step's name and its conclusion, so
# that the stand-ins read a goal's depth from its own text (they see nothing else): a hole's lemma
# at level d has level-d hypotheses (the steps before it) or a level-d conclusion (its own step).
_LEVEL = re.compile(r"\bl(\d+)_s\d+\b|\+ (\d+) \* ")


def level(text: str) -> int:
    """The deepest sketch level named in `text` (0: the problem's own theorem)."""
    return max((int(a or b) for a, b in _LEVEL.findall(text)), default=0)


@dataclass
class TreePlanner:
    """Sketches `holes` holes for any goal: `holes - 1` have steps and the closing `sorry`."""

    holes: int
    drafts: int = 0

    def has_room(self) -> bool:  # nothing is started ahead of need: the engine's own CPU is measured
        return False

    async def draft(self, header: str, statement: str, informal: str | None = None, n: int = 1, *,
                    avoid: Sequence[str] = ()) -> list[sim.SimSketch]:
        with sim.StandinCpu():
            self.drafts += 1
            d = level(statement) + 1
            head = statement.split(":= by")[0].rstrip()
            steps = "".join(f"  have l{d}_s{i} : x + {d} * {i} = x + {d} * {i} := by sorry\n"
                            for i in range(self.holes - 1))
            return [sim.SimSketch(f"{head} := by\n{steps}  sorry\n")]

    async def correct(self, header: str, statement: str, sketch: Any, errors: list[str], n: int = 1, *,
                      checked_code: str | None = None) -> list[sim.SimSketch]:
        return []


@dataclass
class TreeProver:
    """Fails every goal above `depth`, proves every goal at it: the full tree, then the root."""

    depth: int
    calls: int = 0
    corrects = True

    def has_room(self) -> bool:
        return False

    async def prove(self, header: str, lemma_statement: str, n: int = 1, *, informal: str | None = None,
                    on_candidate: Any = None) -> list[sim.SimCandidate]:
        with sim.StandinCpu():
            self.calls += 1
            body = "sim_ok" if level(lemma_statement) >= self.depth else "sim_bad"
            return [sim.SimCandidate("", body) for _ in range(n)]

    async def correct(self, header: str, candidate: Any, errors: list[str], n: int = 1, *,
                      on_candidate: Any = None, checked_code: str | None = None) -> list[sim.SimCandidate]:
        return []


@dataclass
class Work:
    """The syntax layer's work during a measurement, counted rather than timed (a busy machine
    does not change it): texts laid out (layout analyses) and characters scanned by the lexer."""

    layouts: int = 0
    laid_out_chars: int = 0
    lexed_chars: int = 0


@contextmanager
def counting_work() -> Iterator[Work]:
    """Count the work of the syntax layer from a clean start: its memos emptied first, so that a
    measurement does not depend on what an earlier one left in them."""
    for memo in (syntax_lexer._lex_memo, syntax_lexer._line_memo, syntax_layout._analyze_memo,
                 syntax_holes._hole_contexts_memo, search_cache._normalize_memo, lean_lemmas._readings):
        memo.cache_clear()
    work = Work()
    analyze, scanner = syntax_layout._analyze_memo.fn, syntax_lexer._Scanner

    def counted_analyze(code: str) -> Any:
        work.layouts += 1
        work.laid_out_chars += len(code)
        return analyze(code)

    class CountedScanner(scanner):  # type: ignore[misc,valid-type]
        def __init__(self, code: str) -> None:
            work.lexed_chars += len(code)
            super().__init__(code)

    syntax_layout._analyze_memo.fn, syntax_lexer._Scanner = counted_analyze, CountedScanner
    try:
        yield work
    finally:
        syntax_layout._analyze_memo.fn, syntax_lexer._Scanner = analyze, scanner


@dataclass
class Measured:
    shape: str
    problems: int
    goal_nodes: int
    proved: int
    cpu_s: float
    standin_cpu_s: float
    wall_s: float
    profile: str = ""
    stop_reasons: list[str] = field(default_factory=list)
    work: Work = field(default_factory=Work)

    def __add__(self, other: Measured) -> Measured:
        """Two measurements of the same shape as one (their searches, CPU and work summed)."""
        work = Work(self.work.layouts + other.work.layouts, self.work.laid_out_chars + other.work.laid_out_chars,
                    self.work.lexed_chars + other.work.lexed_chars)
        return Measured(self.shape, self.problems + other.problems, self.goal_nodes + other.goal_nodes,
                        self.proved + other.proved, self.cpu_s + other.cpu_s, self.standin_cpu_s + other.standin_cpu_s,
                        self.wall_s + other.wall_s, self.profile + other.profile,
                        self.stop_reasons + other.stop_reasons, work)

    def per_node(self, count: int) -> float:
        return count / max(1, self.goal_nodes)

    @property
    def engine_ms_per_goal_node(self) -> float:
        return 1000 * (self.cpu_s - self.standin_cpu_s) / max(1, self.goal_nodes)

    def row(self) -> dict[str, Any]:
        return {"shape": self.shape, "problems": self.problems, "goal_nodes": self.goal_nodes,
                "proved": self.proved, "engine_cpu_ms_per_goal_node": round(self.engine_ms_per_goal_node, 3),
                "standin_cpu_ms_per_goal_node": round(1000 * self.standin_cpu_s / max(1, self.goal_nodes), 3),
                "cpu_s": round(self.cpu_s, 3), "wall_s": round(self.wall_s, 3),
                "layouts_per_goal_node": round(self.per_node(self.work.layouts), 3),
                "laid_out_chars_per_goal_node": round(self.per_node(self.work.laid_out_chars), 1),
                "lexed_chars_per_goal_node": round(self.per_node(self.work.lexed_chars), 1),
                "stop_reasons": sorted(set(self.stop_reasons))}


def _engine(depth: int, holes: int, max_depth: int) -> SearchEngine:
    # Budgets far above what the tree needs: the tree's shape, not a budget, ends the search.
    budget = BudgetConfig(llm_calls=10**8, lean_checks=10**9, prover_samples_per_goal=1, root_whole_proof_attempts=1,
                          max_depth=max_depth, sketch_alternatives=1, self_corrections=0, wall_seconds=10**6)
    verifier = sim.SimVerifier(sim.Resource(8), 0.0)
    settings = Settings(budget=budget, search=SearchConfig(portfolio=[]))
    return SearchEngine(verifier, TreePlanner(holes), TreeProver(depth), recorder=sim.SinkRecorder(),
                        settings=settings, schedule=for_speculation(settings.search.speculation))


_next_problem = 0  # every search proves a problem no earlier one in the process saw (no memo hits)


def _problem() -> ProblemRecord:
    global _next_problem
    _next_problem += 1
    name = f"p_{_next_problem}"
    return ProblemRecord(f"sim/{name}", name, sim.HEADER, f"theorem {name} (x : ℕ) (h : 0 < x) : x = x := by\n  sorry\n")


async def _searches(problems: int, depth: int, holes: int, concurrency: int) -> tuple[int, int, list[str]]:
    queue = iter(range(problems))
    goal_nodes = proved = 0
    reasons: list[str] = []

    async def worker() -> None:
        nonlocal goal_nodes, proved
        for _ in queue:
            result = await _engine(depth, holes, max_depth=depth).prove(_problem())
            goal_nodes += sum(1 for n in result.tree.nodes() if n.kind == "goal")
            proved += result.proved
            reasons.append(result.stop_reason)

    await asyncio.gather(*(worker() for _ in range(min(concurrency, problems))))
    return goal_nodes, proved, reasons


def measure(shape: str, *, depth: int, holes: int = 10, problems: int = 1, concurrency: int = 64,
            profile: bool = False) -> Measured:
    """One measurement: `problems` searches of trees `depth` deep with `holes` holes per sketch."""
    profiler = cProfile.Profile() if profile else None
    standin0, cpu0, wall0 = sim.StandinCpu.seconds, time.process_time(), time.perf_counter()
    with counting_work() as work:
        if profiler is not None:
            profiler.enable()
        goal_nodes, proved, reasons = asyncio.run(_searches(problems, depth, holes, concurrency))
        if profiler is not None:
            profiler.disable()
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    out = Measured(shape, problems, goal_nodes, proved, cpu, sim.StandinCpu.seconds - standin0, wall,
                   stop_reasons=reasons, work=work)
    if profiler is not None:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(20)
        out.profile = text.getvalue()
    return out


def measure_for(min_cpu: float, shape: str, **kwargs: Any) -> Measured:
    """`measure(shape, …)` repeated until the searches took `min_cpu` seconds of CPU in all."""
    total = measure(shape, **kwargs)
    while total.cpu_s < min_cpu:
        total = total + measure(shape, **kwargs)
    return total


def warm_up() -> None:
    """The first search of a process pays one-off costs (imports, regex compilation): not per node."""
    measure("warm-up", depth=1, holes=3)


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shape", choices=("tree", "many"), default="tree")
    p.add_argument("--depths", type=int, nargs="+", default=[2, 3, 4],
                   help="tree: one search per depth (10 holes: 111 · 1,111 · 11,111 goal nodes at 2 · 3 · 4)")
    p.add_argument("--holes", type=int, default=10, help="holes per sketch")
    p.add_argument("--nodes", type=int, default=10_000, help="many: about this many goal nodes in all")
    p.add_argument("--concurrency", type=int, default=64, help="many: problems in flight at once")
    p.add_argument("--min-cpu", type=float, default=3.0,
                   help="search a shape again (new problems) until its searches took this many CPU seconds")
    p.add_argument("--profile", action="store_true", help="cProfile each measurement: top 20 by own time")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    tune_garbage_collector()  # as the `lemmaforge` command does at start (lemmaforge/process.py)
    warm_up()
    if args.shape == "tree":
        runs = [measure_for(args.min_cpu, "tree", depth=d, holes=args.holes, profile=args.profile)
                for d in args.depths]
    else:
        problems = max(1, round(args.nodes / (args.holes + 1)))
        runs = [measure_for(args.min_cpu, "many", depth=1, holes=args.holes, problems=problems,
                            concurrency=args.concurrency, profile=args.profile)]
    if args.json:
        print(json.dumps([r.row() for r in runs], indent=2))
    else:
        cols = ["shape", "problems", "goal_nodes", "proved", "engine_cpu_ms_per_goal_node",
                "standin_cpu_ms_per_goal_node", "cpu_s", "wall_s", "layouts_per_goal_node",
                "laid_out_chars_per_goal_node", "lexed_chars_per_goal_node"]
        print("  ".join(f"{c:>14}" for c in cols))
        for r in runs:
            row = r.row()
            print("  ".join(f"{row[c]!s:>14}" for c in cols))
    for r in runs:
        if r.profile:
            print(f"\n--- profile: {r.shape}, {r.goal_nodes} goal nodes ---", file=sys.stderr)
            print(r.profile, file=sys.stderr)


if __name__ == "__main__":
    main()

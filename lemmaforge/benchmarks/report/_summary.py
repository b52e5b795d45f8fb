"""Reports on a bench run (or a single prove run), read from the store: `lemmaforge report`.

What counts
-----------
* A bench's problems are the ones its config selected, solved or not, tried or not: rates are
  over all of them (an unfinished bench does not look better than it is; `tried` says how far
  it got).
* An attempt counts when its child run finished `proved` / `not_proved`. Cut-off, failed and
  cancelled child runs are listed under `ignored`, never counted (see `runner`); a second
  finished run for the same (problem, attempt) is a `duplicate` and not counted either.
* A problem whose statement does not compile (the preflight check; its child run says
  `invalid`) costs no LLM call and is listed under `invalid` with Lean's error; it counts as
  unsolved in `problems` and every rate, as the papers divide by all the problems of a benchmark
  (a number over the statements that happen to compile here would look better than it is).
* pass@k is the unbiased estimator (`passk.pass_at_k`) averaged over the problems with at least
  k counted attempts plus the invalid ones (0 for every k; `pass_at_k_problems[k]` says how many;
  all of them once the bench is done), for k = 1 … attempts.
* `protocol` states how the numbers were made: the protocol (search, or the papers' whole-proof
  pass@k), prover and planner models (and presets where configured), prover samples and tokens
  per problem, the budget, the dataset's version and pinned Lean, the verifier's Lean. A
  PutnamBench run whose answers stay hidden (`--answers slots`) says that its problems with
  answer slots make the rate a lower bound.
* Cost per solved problem is the total over ALL counted attempts (failed ones included) divided
  by the number of solved problems; `per_proved_attempt` is the mean over proving attempts only.
* Strategies: how each goal of the final proofs was closed (`in_proofs`: walking down from the
  root through the solved sketch of each decomposed goal), and how every solved goal of every
  counted run was closed (`all_solved_goals`, abandoned sketches included). `prover` includes
  self-corrections, `decomposition` is a planner sketch.
"""

from __future__ import annotations

import hashlib
import json
import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lemmaforge.benchmarks.passk import mean_pass_at_k, solved_by_group
from lemmaforge.benchmarks.report._answers import answer_task_section
from lemmaforge.benchmarks.report._recipe import recipe_section
from lemmaforge.benchmarks.spec import BENCH_KIND, STATUS_DONE, BenchError, child_attempt

PLOT_MISSING = "--plot needs matplotlib, which is not installed: pip install 'lemmaforge[plot]'"

STRATEGY_GROUP = {
    "automation": "automation",
    "prover": "prover",
    "prover_correction": "prover",
    "planner": "decomposition",
    "sketch_correction": "decomposition",
    "cache": "cache",
}


@dataclass(slots=True)
class Attempt:
    run_id: str
    attempt: int
    status: str
    calls: int
    checks: int
    depth: int | None
    seconds: float
    stop_reason: str | None
    started_at: float
    # `calls` / `checks` are the requests sent (search/budget.py); of those, what the search used
    used_calls: int | None = None
    used_checks: int | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id, "attempt": self.attempt, "status": self.status, "calls": self.calls,
            "checks": self.checks, "used_calls": self.used_calls, "used_checks": self.used_checks,
            "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
            "depth": self.depth, "seconds": round(self.seconds, 3), "stop_reason": self.stop_reason,
        }


@dataclass(slots=True)
class ProblemResult:
    problem_id: str
    name: str
    dataset: str
    split: str | None
    category: list[str]
    attempts: list[Attempt] = field(default_factory=list)  # counted, by attempt index
    identity: str = ""  # `problem_identity`: what `compare` matches on
    answer_slots: bool = False  # PutnamBench: solution abbrevs to fill besides the proof

    @property
    def n(self) -> int:
        return len(self.attempts)

    @property
    def c(self) -> int:
        return sum(a.proved for a in self.attempts)

    @property
    def solved(self) -> bool:
        return self.c > 0

    def first_proof(self) -> Attempt | None:
        return next((a for a in self.attempts if a.proved), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "problem_id": self.problem_id, "identity": self.identity or self.problem_id, "name": self.name,
            "split": self.split, "category": self.category, "attempts": self.n, "proved_attempts": self.c, "solved": self.solved,
            "runs": [a.to_json() for a in self.attempts],
        }


@dataclass(slots=True)
class RunData:
    run_id: str
    kind: str
    status: str
    config: dict[str, Any]
    attempts_planned: int
    problems: list[ProblemResult]
    ignored: dict[str, list[str]]  # reason -> child run ids
    started_at: float
    finished_at: float | None
    summary: dict[str, Any] | None = None
    invalid: list[tuple[ProblemResult, str]] = field(default_factory=list)  # statement does not compile
    versions: dict[str, Any] = field(default_factory=dict)  # the run's versions record (Lean, models…)
    # Requests sent by the bench that no counted attempt reports: its statement checks, and what
    # attempts that do not count (cancelled, failed, duplicates) had sent ("calls", "checks", "statement_checks")
    outside: dict[str, int] = field(default_factory=lambda: {"calls": 0, "checks": 0, "statement_checks": 0})

    @property
    def dataset(self) -> str | None:
        bench = self.config.get("bench") or {}
        if bench.get("dataset"):
            return str(bench["dataset"])
        return self.problems[0].dataset if self.problems else None


def _attempt_of(run: Any, attempt: int) -> Attempt:
    s = run.summary or {}
    return Attempt(
        run.run_id, attempt, run.status, int(s.get("calls") or 0), int(s.get("checks") or 0), s.get("depth"),
        float(s.get("seconds") or 0.0), s.get("stop_reason"), run.started_at,
        s.get("used_calls"), s.get("used_checks"), int(s.get("prompt_tokens") or 0),
        int(s.get("completion_tokens") or 0),
    )


def problem_identity(name: str, header: str, statement: str) -> str:
    """Which problem a result is about, whatever file or run it came from: its name and a digest
    of its header + statement (whitespace runs count as one space). Not the dataset's name: the same
    problems in two JSONL files, under an alias (minif2f / minif2f-deepseek-v1.5) or in a re-run are
    the same problems; a revised statement (another miniF2F version) is another problem."""
    text = " ".join(header.split()) + "\n" + " ".join(statement.split())
    return f"{name}#{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}"


def _problem_result(store: Any, problem_id: str) -> ProblemResult:
    p = store.problem(problem_id)
    if p is None:
        name = problem_id.rsplit("/", 1)[-1]
        return ProblemResult(problem_id, name, problem_id.split("/", 1)[0], None, [])
    category = list((p.extra or {}).get("category") or [])
    return ProblemResult(problem_id, p.name, p.dataset, p.split, category,
                         identity=problem_identity(p.name, p.header, p.statement),
                         answer_slots=bool((p.extra or {}).get("has_solution_abbrev")))


def load_run(store: Any, run_id: str) -> RunData:
    """The run's problems and counted attempts. A bench run: its children; a prove run: itself
    (one problem, one attempt). BenchError for an unknown, ambiguous or too short run id (any
    unique prefix of 4+ characters names a run: `Store.resolve_run`)."""
    from lemmaforge.db import RunIdError

    try:
        run = store.resolve_run(run_id)
    except RunIdError as exc:
        raise BenchError(str(exc)) from None
    run_id = run.run_id
    ignored: dict[str, list[str]] = {}
    if run.kind != BENCH_KIND:
        if run.problem_id is None:
            raise BenchError(f"run {run_id!r} is a {run.kind!r} run without a problem: nothing to report")
        pr = _problem_result(store, run.problem_id)
        if run.status in STATUS_DONE:
            pr.attempts.append(_attempt_of(run, 0))
        else:
            ignored.setdefault(run.status, []).append(run.run_id)
        return RunData(run.run_id, run.kind, run.status, run.config, 1, [pr], ignored, run.started_at,
                       run.finished_at, run.summary, versions=dict(run.versions or {}))

    bench = run.config.get("bench") or {}
    planned = int(bench.get("attempts") or 1)
    order = [item["problem_id"] for item in run.config.get("problems") or []]
    results = {pid: _problem_result(store, pid) for pid in order}
    seen: set[tuple[str, int]] = set()
    invalid: dict[str, str] = {}
    outside = {"calls": 0, "checks": 0, "statement_checks": 0}
    for child in store.runs(parent=run_id):  # oldest first: the earliest finished run of a slot counts
        attempt = child_attempt(child)
        said = child.summary or {}
        outside["statement_checks"] += int(said.get("statement_checks") or 0)
        counted = (child.status in STATUS_DONE and not said.get("invalid") and child.problem_id in results
                   and attempt is not None and attempt < planned and (child.problem_id, attempt) not in seen)
        if not counted:  # its requests were sent all the same
            outside["calls"] += int(said.get("calls") or 0)
            outside["checks"] += int(said.get("checks") or 0)
        if (child.summary or {}).get("invalid") and child.problem_id in results:
            invalid.setdefault(child.problem_id, str((child.summary or {}).get("error") or ""))
            continue
        if child.status not in STATUS_DONE:
            reason = "cut_off" if (child.summary or {}).get("stale") else child.status
            ignored.setdefault(reason, []).append(child.run_id)
            continue
        if child.problem_id not in results or attempt is None or attempt >= planned:
            ignored.setdefault("foreign", []).append(child.run_id)
            continue
        key = (child.problem_id, attempt)
        if key in seen:
            ignored.setdefault("duplicate", []).append(child.run_id)
            continue
        seen.add(key)
        results[child.problem_id].attempts.append(_attempt_of(child, attempt))
    for pr in results.values():
        pr.attempts.sort(key=lambda a: a.attempt)
    # a problem with counted attempts is not invalid (its statement compiled then)
    bad = [(results.pop(pid), error) for pid, error in invalid.items() if not results[pid].attempts]
    return RunData(run.run_id, run.kind, run.status, run.config, planned, list(results.values()), ignored,
                   run.started_at, run.finished_at, run.summary, bad, versions=dict(run.versions or {}),
                   outside=outside)


# --------------------------------------------------------------------------------------------------
# the numbers


def pass_at_ks(
    problems: Sequence[ProblemResult], max_k: int, unsolvable: Sequence[ProblemResult] = ()
) -> tuple[dict[int, float], dict[int, int]]:
    """k -> mean pass@k over problems with >= k counted attempts and the `unsolvable` ones (a
    statement that does not compile: 0 for every k), and k -> that number of problems."""
    values: dict[int, float] = {}
    counts: dict[int, int] = {}
    for k in range(1, max_k + 1):
        eligible = {p.problem_id: (p.n, p.c) for p in problems if p.n >= k}
        if eligible:
            eligible.update({p.problem_id: (k, 0) for p in unsolvable})
        if not eligible:
            break
        values[k] = mean_pass_at_k(eligible, k)
        counts[k] = len(eligible)
    return values, counts


def _goal_strategies(nodes: Sequence[Any], *, in_proof: bool) -> Counter[str]:
    out: Counter[str] = Counter()
    if not in_proof:
        for n in nodes:
            if n.kind == "goal" and n.status == "solved" and n.strategy:
                out[STRATEGY_GROUP.get(n.strategy, n.strategy)] += 1
        return out
    children: dict[str | None, list[Any]] = {}
    for n in nodes:
        children.setdefault(n.parent_id, []).append(n)

    def walk(goal: Any) -> None:
        if goal.status != "solved" or not goal.strategy:
            return
        group = STRATEGY_GROUP.get(goal.strategy, goal.strategy)
        out[group] += 1
        if goal.strategy == "planner":
            sketches = [s for s in children.get(goal.node_id, []) if s.kind == "sketch" and s.status == "solved"]
            if sketches:
                for hole in sorted(children.get(sketches[-1].node_id, []), key=lambda h: h.hole_index or 0):
                    walk(hole)

    for root in children.get(None, []):
        if root.kind == "goal":
            walk(root)
    return out


def _stats(values: Sequence[float]) -> dict[str, float | None]:
    if not values:
        return {"mean": None, "median": None, "max": None}
    return {
        "mean": round(statistics.fmean(values), 3),
        "median": round(statistics.median(values), 3),
        "max": round(max(values), 3),
    }


def _groups(problems: Sequence[ProblemResult], key: str) -> dict[str, dict[str, Any]]:
    results = {p.problem_id: (p.n, p.c) for p in problems}  # an invalid one: (0, 0), unsolved
    groups = {p.problem_id: (p.split if key == "split" else p.category) for p in problems}
    stats = solved_by_group(results, groups)
    out = {}
    for name, g in stats.items():
        out[name] = {"problems": g.problems, "solved": g.solved, "rate": round(g.rate, 4)}
    return out


def summarize(store: Any, data: RunData, *, with_strategies: bool = True, with_results: bool = True) -> dict[str, Any]:
    """The report as one JSON-safe dict (see the module docstring)."""
    problems = data.problems
    invalid = [p for p, _ in data.invalid]
    total = len(problems) + len(invalid)  # every selected problem: an invalid statement is unsolved
    solved = [p for p in problems if p.solved]
    counted = [a for p in problems for a in p.attempts]
    proved = [a for a in counted if a.proved]
    pk, pk_n = pass_at_ks(problems, data.attempts_planned, invalid)
    # sent: by the counted attempts, and by the bench besides (statement checks, attempts not counted)
    calls = sum(a.calls for a in counted) + data.outside["calls"]
    checks = sum(a.checks for a in counted) + data.outside["checks"] + data.outside["statement_checks"]
    tried = [p for p in problems if p.n]
    out: dict[str, Any] = {
        "run_id": data.run_id,
        "kind": data.kind,
        "status": data.status,
        "dataset": data.dataset,
        "problems": total,
        "tried": len(tried),
        "solved": len(solved),
        "rate": round(len(solved) / total, 4) if total else 0.0,
        "attempts": data.attempts_planned,
        "attempts_done": len(counted),
        "attempts_planned": len(problems) * data.attempts_planned,
        "complete": all(p.n >= data.attempts_planned for p in problems),
        "ignored": {k: len(v) for k, v in sorted(data.ignored.items())},
        "invalid": [{"problem_id": p.problem_id, "name": p.name, "error": error} for p, error in data.invalid],
        "pass_at_k": {str(k): round(v, 4) for k, v in pk.items()},
        "pass_at_k_problems": {str(k): v for k, v in pk_n.items()},
        "by_split": _groups([*problems, *invalid], "split"),
        "by_category": _groups([*problems, *invalid], "category"),
        "cost": {
            "llm_calls": calls,
            "lean_checks": checks,
            # sent; of those, used by the searches (an older run's summary may not say: counted as sent)
            "used_llm_calls": sum(a.calls if a.used_calls is None else a.used_calls for a in counted),
            "used_lean_checks": sum(a.checks if a.used_checks is None else a.used_checks for a in counted),
            # of the sent: the bench's statement checks (one per problem and session, in no attempt's
            # budget) and what attempts that do not count (cancelled, failed, duplicate) had sent
            "statement_checks": data.outside["statement_checks"],
            "uncounted_llm_calls": data.outside["calls"],
            "uncounted_lean_checks": data.outside["checks"],
            "prompt_tokens": sum(a.prompt_tokens for a in counted),
            "completion_tokens": sum(a.completion_tokens for a in counted),
            "llm_calls_per_solved": round(calls / len(solved), 2) if solved else None,
            "lean_checks_per_solved": round(checks / len(solved), 2) if solved else None,
            "per_proved_attempt": {
                "llm_calls": _stats([a.calls for a in proved])["mean"],
                "lean_checks": _stats([a.checks for a in proved])["mean"],
            },
        },
        "time": {
            "search_seconds": round(sum(a.seconds for a in counted), 3),
            "per_problem": _stats([sum(a.seconds for a in p.attempts) for p in tried]),
            "per_attempt": _stats([a.seconds for a in counted]),
            "wall_seconds": round(data.finished_at - data.started_at, 3) if data.finished_at else None,
        },
        "depth": {str(d): n for d, n in sorted(Counter(a.depth for a in proved if a.depth is not None).items())},
    }
    if data.kind == BENCH_KIND:
        bench = data.config.get("bench") or {}
        out["config"] = {k: bench.get(k) for k in ("dataset", "split", "limit", "names", "shard", "attempts",
                                                   "answers", "tactic", "shared_cache", "protocol")}
        out["protocol"] = protocol_section(store, data, total)
        out["answer_task"] = answer_task_section(store, data)  # PutnamBench answer slots (_answers.py)
        out["recipe"] = recipe_section(data.config, out)  # beside the recipe's reported number (_recipe.py)
    if with_strategies:
        in_proofs: Counter[str] = Counter()
        everywhere: Counter[str] = Counter()
        for a in counted:
            nodes = store.nodes(a.run_id)
            everywhere += _goal_strategies(nodes, in_proof=False)
            if a.proved:
                in_proofs += _goal_strategies(nodes, in_proof=True)
        out["strategies"] = {"in_proofs": dict(sorted(in_proofs.items())),
                             "all_solved_goals": dict(sorted(everywhere.items()))}
    if with_results:
        out["results"] = [p.to_json() for p in problems]
    return out


def protocol_section(store: Any, data: RunData, selected: int) -> dict[str, Any]:
    """How a bench's numbers were made (see the module docstring): what a reader needs to set
    them beside a paper's."""
    from lemmaforge.benchmarks.protocols import DESCRIPTIONS
    from lemmaforge.benchmarks.registry import registered

    bench = data.config.get("bench") or {}
    settings = data.config.get("settings") or {}
    protocol = str(bench.get("protocol") or "search")
    counted = [a for p in data.problems for a in p.attempts]
    samples = prompt_tokens = completion_tokens = 0
    sent: dict[str, dict[str, list[Any]]] = {}  # role -> what its requests asked for, distinct values in order
    for a in counted:
        for call in store.llm_calls(a.run_id):
            if call.role == "prover":
                samples += len(call.completions)
            seen = sent.setdefault(call.role, {key: [] for key in ("model", *SAMPLING_KEYS)})
            request = call.request or {}
            for key, value in (("model", call.model), *((k, request.get(k)) for k in SAMPLING_KEYS)):
                if value not in seen[key]:
                    seen[key].append(value)
        # the run's stored figures, as `cost`, `show` and `runs` give them (viewer/counts.py)
        prompt_tokens += a.prompt_tokens
        completion_tokens += a.completion_tokens
    tried = len({p.problem_id for p in data.problems if p.attempts}) or None

    def per_problem(x: int) -> float | None:
        return round(x / tried, 1) if tried else None

    def role(name: str) -> dict[str, Any] | None:
        cfg = settings.get(name) or {}
        if not cfg.get("url"):
            return None
        return role_section(name, cfg, sent.get(name), data.versions or {})

    info = registered(str(bench.get("dataset") or ""))
    names = {p.name for p in data.problems} | {p.name for p, _ in data.invalid}
    answer_slots = sum(1 for p in [*data.problems, *(p for p, _ in data.invalid)] if p.answer_slots)
    out: dict[str, Any] = {
        "name": protocol,
        "description": DESCRIPTIONS.get(protocol, protocol),
        "attempts_per_problem": data.attempts_planned,
        "prover": role("prover"),
        "planner": role("planner"),
        "prover_samples_per_problem": per_problem(samples),
        "tokens_per_problem": {"prompt": per_problem(prompt_tokens), "completion": per_problem(completion_tokens)},
        "budget_per_attempt": settings.get("budget"),
        "dataset": {"name": bench.get("dataset"), "source": info.source if info else None,
                    "lean_version": info.lean_version if info else None},
        "verifier": verifier_section(settings, data.versions or {}),
        "divided_by": f"all {selected} selected problems (statements that do not compile count unsolved)",
        "lower_bound": None,
        # the version's statements known to be wrong, among the selected ones: counted as any other
        "known_issues": [{"name": k.name, "kind": k.kind} for k in (info.known_issues if info else ())
                         if k.name in names and k.kind != "excluded"],
    }
    if answer_slots and bench.get("answers", "slots") == "slots":
        out["lower_bound"] = (f"{answer_slots} problem(s) have answer slots (`abbrev … := sorry`) that nothing "
                              "fills under --answers slots: the rate is a lower bound")
    return out


#: the sampling values a model request records (agent/backends/base.py `Sampling.to_json`)
SAMPLING_KEYS = ("temperature", "top_p", "max_tokens")


def _one_or_all(values: Sequence[Any]) -> Any:
    return values[0] if len(values) == 1 else list(values)


def role_section(name: str, cfg: dict[str, Any], sent: dict[str, list[Any]] | None,
                 versions: dict[str, Any]) -> dict[str, Any]:
    """A model role as it ran: the model its requests named (the server's, as the preflight chose
    it) and the sampling values they carried (None: not sent, the server's default), read from the
    attempts' recorded requests (`sampling_from`: "requests"); a bench with no request yet says
    what its settings make (`services.prover_sampling` / `planner_sampling`: "settings"). A value
    that differed between requests is the list of its values."""
    if sent and sent.get("model"):
        sampling = {k: _one_or_all(sent[k]) for k in SAMPLING_KEYS}
        return {"model": _one_or_all(sent["model"]), "preset": cfg.get("preset"), **sampling,
                "sampling_from": "requests"}
    from lemmaforge.agent.presets import get_preset
    from lemmaforge.config import ConfigError, LLMEndpoint
    from lemmaforge.services import planner_sampling, prover_sampling

    model = cfg.get("model") or versions.get(f"{name}_model")
    try:
        endpoint = LLMEndpoint.model_validate(cfg)
        if name == "prover":
            effective = prover_sampling(endpoint, get_preset(endpoint.preset) if endpoint.preset else None)
        else:
            effective = planner_sampling(endpoint)
    except (ValueError, ConfigError):  # settings of another version: what they say, as stored
        effective = {k: cfg.get(k) for k in SAMPLING_KEYS}
    return {"model": model, "preset": cfg.get("preset"), **{k: effective.get(k) for k in SAMPLING_KEYS},
            "sampling_from": "settings"}


def verifier_section(settings: dict[str, Any], versions: dict[str, Any]) -> dict[str, Any]:
    """The verifier and its Lean version: `lean_verified` when the verifier's own Lean said it
    (`cli/bench.py` asks a Kimina server; `versions["lean_from"]` says where a version came from);
    otherwise the version is what a file or setting claims, or unknown, and the report warns."""
    lean = versions.get("lean")
    source = versions.get("lean_from") or ("unknown" if lean is None else "the run record")
    return {"backend": (settings.get("verifier") or {}).get("backend"), "lean_version": lean,
            "lean_verified": bool(lean) and source == "verifier", "lean_from": source}


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two reports side by side: problems solved by one run and not the other. Problems are
    matched by `problem_identity` (name + statement), so runs over different files holding the same
    problems, or re-runs, line up; the lists show each side's own problem ids."""

    def by_identity(rep: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {r.get("identity") or r["problem_id"]: r for r in rep.get("results", [])}

    ra, rb = by_identity(a), by_identity(b)
    solved_a = {k for k, r in ra.items() if r["solved"]}
    solved_b = {k for k, r in rb.items() if r["solved"]}
    return {
        "runs": [a, b],
        "matched_by": "problem name + header and statement (whitespace-normalised)",
        "only_a": sorted(ra[k]["problem_id"] for k in solved_a - solved_b),
        "only_b": sorted(rb[k]["problem_id"] for k in solved_b - solved_a),
        "both": sorted(ra[k]["problem_id"] for k in solved_a & solved_b),
        "common_problems": len(ra.keys() & rb.keys()),
        "problems_only_in_a": len(ra.keys() - rb.keys()),
        "problems_only_in_b": len(rb.keys() - ra.keys()),
    }


# --------------------------------------------------------------------------------------------------
# export and plot

_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]+")


def export(store: Any, data: RunData, directory: Path) -> dict[str, Any]:
    """One `.lean` file per solved problem (its first proving attempt's audited whole file) and
    `proofs.jsonl` (one line each). Returns {"dir", "files", "jsonl"}."""
    directory.mkdir(parents=True, exist_ok=True)
    lines = []
    used: set[str] = set()
    files = 0
    for pr in data.problems:
        attempt = pr.first_proof()
        if attempt is None:
            continue
        proofs = store.proofs(run_id=attempt.run_id, kind="whole")
        if not proofs:
            continue
        proof = proofs[0]
        stem = _UNSAFE.sub("_", pr.name).strip("._") or "problem"
        name, i = stem, 1
        while name.lower() in used:
            i += 1
            name = f"{stem}_{i}"
        used.add(name.lower())
        (directory / f"{name}.lean").write_text(proof.proof if proof.proof.endswith("\n") else proof.proof + "\n",
                                                encoding="utf-8")
        files += 1
        lines.append({
            "problem_id": pr.problem_id, "name": pr.name, "dataset": pr.dataset, "split": pr.split,
            "file": f"{name}.lean", "run_id": attempt.run_id, "attempt": attempt.attempt,
            "depth": attempt.depth, "calls": attempt.calls, "checks": attempt.checks,
            "strategy": proof.strategy, "header": proof.header, "statement": proof.statement, "proof": proof.proof,
        })
    jsonl = directory / "proofs.jsonl"
    jsonl.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    return {"dir": str(directory), "files": files, "jsonl": str(jsonl)}


def require_matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise BenchError(PLOT_MISSING) from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def plot(reports: Sequence[dict[str, Any]], datas: Sequence[RunData], out: Path) -> Path:
    """A PNG: pass@k per run, and problems solved vs LLM calls (the cheapest proving attempt of
    each solved problem: how many problems a per-problem call budget would have solved)."""
    plt = require_matplotlib()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for rep, data in zip(reports, datas, strict=True):
        label = f"{rep['run_id'][:12]} ({rep['dataset']})"
        ks = [int(k) for k in rep["pass_at_k"]]
        ax1.plot(ks, [rep["pass_at_k"][str(k)] for k in ks], marker="o", label=label)
        cheapest = sorted(min(a.calls for a in p.attempts if a.proved) for p in data.problems if p.solved)
        xs = [0, *cheapest]
        ys = list(range(len(xs)))
        ax2.step(xs, ys, where="post", label=label)
    ax1.set_xlabel("k (attempts)")
    ax1.set_ylabel("pass@k")
    ax1.set_ylim(0, 1.02)
    ax1.set_title("pass@k")
    ax1.grid(alpha=0.3)
    ax2.set_xlabel("LLM calls (cheapest proving attempt)")
    ax2.set_ylabel("problems solved")
    ax2.set_title("solved vs budget")
    ax2.grid(alpha=0.3)
    ax1.legend(fontsize=8)
    # k and problem counts are integers: no 1.5 attempts, no 2.5 problems on the axes
    from matplotlib.ticker import MaxNLocator

    ax1.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.yaxis.set_major_locator(MaxNLocator(integer=True))
    fig.tight_layout()
    fig.savefig(out, format="png", dpi=110)
    plt.close(fig)
    return out

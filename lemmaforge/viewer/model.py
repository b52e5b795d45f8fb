"""One run, read back from the store, as one JSON-safe dict: `lemmaforge show RUN --json`.

The terminal view (`viewer.text`) and the HTML page (`viewer.html`) both render this dict, so what
a user sees in either is exactly what `--json` gives a script. Everything comes from the `Store`'s
read API; nothing here writes.

Shape (the keys a reader can rely on):

* ``run``: id, kind, status, problem, parent run, start / end / seconds, ``stop_reason`` (the
  engine's, which names the budget that ran out) and ``error`` for a run that died.
* ``budget``: for ``llm_calls``, ``lean_checks``, ``depth`` and ``wall_seconds``: ``spent`` and
  ``limit`` (``limit`` None when the run's config did not record one).
* ``tree``: the root goal; every node has ``closed_by`` (for a solved goal: ``cache``,
  ``automation: TACTIC``, ``prover sample K``, ``prover correction K``, ``sketch``), its
  ``attempts`` (strategy, verdict, ``sample`` number within its strategy, ``first_error``, the
  prompt, completion and Lean messages) and ``children`` (goal → sketches, sketch → holes).
* ``proof``: the assembled, audited whole file of a proved run (else None).
* ``last_error``: Lean's first error of the most recent failed attempt, if any.
* ``timeline``: LLM calls and Lean checks as ``{kind, start, end, label, ok, node_id}``, times in
  seconds from the run's start.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from lemmaforge.db.errors import RunIdError
from lemmaforge.viewer.words import STRATEGY_WORDS, strategy_words

#: how a solved goal's strategy reads to a person (one table for every page: viewer/words.py)
_STRATEGY_WORDS = STRATEGY_WORDS

_ERROR_VERDICTS = frozenset({"error", "incomplete", "timeout", "crashed", "rejected", "skipped"})


#: no run with this id, several with this prefix, or a prefix too short (one line): the store's own
RunNotFound = RunIdError


def resolve_run_id(store: Any, run_id: str) -> str:
    """The full id of `run_id`, which may be any unique prefix of 4+ characters (as `lemmaforge
    runs` shows ids): the store's one resolver, which every command uses."""
    return str(store.resolve_run(run_id).run_id)


def first_error(errors: list[str] | None) -> str | None:
    """Lean's first error message, on one line (what a table or a stop line has room for)."""
    for e in errors or []:
        text = " ".join(str(e).split())
        if text:
            return text
    return None


def budget_limits(config: dict[str, Any] | None) -> dict[str, Any]:
    """The budget a run was started with, from its recorded config (prove and bench child runs
    record the settings dump; a bench run keeps it under `settings`)."""
    config = config or {}
    budget = config.get("budget")
    if not isinstance(budget, dict):
        budget = (config.get("settings") or {}).get("budget") if isinstance(config.get("settings"), dict) else None
    return budget if isinstance(budget, dict) else {}


def _prompt_text(request: dict[str, Any] | None) -> str | None:
    """The prompt an LLM call sent, as text: chat messages joined with their roles, or the prompt."""
    if not request:
        return None
    messages = request.get("messages")
    if isinstance(messages, list) and messages:
        parts = []
        for m in messages:
            if isinstance(m, dict):
                parts.append(f"[{m.get('role', '?')}]\n{m.get('content', '')}")
        return "\n\n".join(parts)
    prompt = request.get("prompt")
    return prompt if isinstance(prompt, str) else None


def _completion_index(call: Any, output: str | None) -> int | None:
    if call is None or output is None:
        return None
    try:
        return call.completions.index(output)
    except ValueError:
        return None


def _attempt_json(a: Any, sample: int, call: Any) -> dict[str, Any]:
    return {
        "attempt_id": a.attempt_id,
        "strategy": a.strategy,
        "verdict": a.verdict,
        "sample": sample,
        "first_error": first_error(a.errors) if a.verdict in _ERROR_VERDICTS else None,
        "errors": list(a.errors),
        "code": a.code,
        "completion": a.output,
        "prompt": a.prompt if a.prompt is not None else _prompt_text(call.request if call else None),
        "llm_call_id": a.llm_call_id,
        "model": call.model if call else None,
        "generation_seconds": round(call.latency if call else a.generation_seconds, 3),
        "check_seconds": round(a.check_seconds, 3),
        "created_at": a.created_at,
    }


def _closed_by(node: Any, attempts: list[dict[str, Any]], children: list[dict[str, Any]]) -> str | None:
    if node.status != "solved":
        return None
    if node.kind == "sketch":
        return f"all {len(children)} holes closed" if len(children) != 1 else "its hole closed"
    strategy = node.strategy or ""
    if strategy == "automation":
        tactic = " ".join((node.proof or "").split())
        return f"automation: {tactic}" if tactic else "automation"
    if strategy in ("prover", "prover_correction"):
        winner = next((a for a in attempts if a["strategy"] == strategy and a["verdict"] == "valid"), None)
        word = _STRATEGY_WORDS[strategy]
        return f"{word} {winner['sample']}" if winner else word
    return _STRATEGY_WORDS.get(strategy, strategy or None)


def _statement_line(text: str) -> str:
    """A goal's conclusion on one line (the part after the last top-level ` : `)."""
    flat = " ".join(text.split())
    head = flat.split(":=")[0]
    return head.rsplit(" : ", 1)[-1] if " : " in head else head


def run_view(store: Any, run_id: str) -> dict[str, Any]:
    """The whole run as a JSON-safe dict (see the module docstring). Raises RunNotFound."""
    run_id = resolve_run_id(store, run_id)
    run = store.get_run(run_id)
    assert run is not None
    nodes = store.nodes(run_id)
    attempts = store.attempts(run_id)
    calls = store.llm_calls(run_id)
    calls_by_id = {c.call_id: c for c in calls}
    problem = store.problem(run.problem_id) if run.problem_id else None
    whole = store.proofs(run_id=run_id, kind="whole")
    summary = run.summary or {}
    t0 = run.started_at

    by_node: dict[str, list[dict[str, Any]]] = defaultdict(list)
    counters: dict[tuple[str, str], int] = defaultdict(int)
    for a in attempts:
        counters[(a.node_id, a.strategy)] += 1
        by_node[a.node_id].append(_attempt_json(a, counters[(a.node_id, a.strategy)], calls_by_id.get(a.llm_call_id or "")))

    kids: dict[str | None, list[Any]] = defaultdict(list)
    for n in nodes:
        kids[n.parent_id].append(n)

    def build(n: Any) -> dict[str, Any]:
        children = sorted(kids.get(n.node_id, []), key=lambda c: (c.hole_index if c.hole_index is not None else -1))
        child_json = [build(c) for c in children]
        node_attempts = by_node.get(n.node_id, [])
        return {
            "id": n.node_id,
            "kind": n.kind,
            "depth": n.depth,
            "status": n.status,
            "strategy": n.strategy,
            "closed_by": _closed_by(n, node_attempts, child_json),
            "summary": _statement_line(n.text) if n.kind == "goal" else f"{len(children)} hole(s)",
            "text": n.text,
            "goal_state": n.goal_state,
            "hole_index": n.hole_index,
            "proof": n.proof,
            "reason": n.reason,
            "seconds": round(max(0.0, n.status_at - n.created_at), 3),
            "started": round(n.created_at - t0, 3),
            "attempts": node_attempts,
            "children": child_json,
        }

    roots = [n for n in nodes if n.parent_id is None]
    tree = build(roots[0]) if roots else None

    max_depth = max((n.depth for n in nodes), default=0)
    limits = budget_limits(run.config)
    seconds = summary.get("seconds")
    if seconds is None and run.finished_at is not None:
        seconds = round(run.finished_at - run.started_at, 3)
    budget = {
        # spent: the requests sent, each charged to its budget (search/budget.py), speculative or
        # not; ahead_unused: of those, the ones the search never took (requests and checks started
        # ahead of need, alternatives tried beside one that closed the goal first); used: the rest.
        "llm_calls": {"spent": summary.get("calls", len(calls)), "limit": limits.get("llm_calls"),
                      "ahead_unused": summary.get("prefetched_unused", 0) + summary.get("speculative_calls", 0),
                      "used": summary.get("used_calls")},
        "lean_checks": {"spent": summary.get("checks", sum(1 for a in attempts if a.code)), "limit": limits.get("lean_checks"),
                        "ahead_unused": summary.get("checks_ahead_unused", 0) + summary.get("speculative_checks", 0),
                        "used": summary.get("used_checks")},
        "tokens": {"prompt": summary.get("prompt_tokens"), "completion": summary.get("completion_tokens")},
        "depth": {"spent": max_depth, "limit": limits.get("max_depth")},
        "wall_seconds": {"spent": seconds, "limit": limits.get("wall_seconds")},
    }

    failed = [a for a in attempts if a.verdict in _ERROR_VERDICTS and first_error(a.errors)]
    timeline: list[dict[str, Any]] = []
    for c in calls:
        end = c.created_at - t0
        timeline.append({
            "kind": "llm", "start": round(max(0.0, end - c.latency), 3), "end": round(end, 3),
            "label": f"{c.role} {c.model}" + (f" (error: {c.error})" if c.error else ""), "ok": c.error is None,
            "node_id": None,
        })
    for a in attempts:
        if not a.code:
            continue
        end = a.created_at - t0
        timeline.append({
            "kind": "lean", "start": round(max(0.0, end - a.check_seconds), 3), "end": round(end, 3),
            "label": f"{strategy_words(a.strategy)}: {a.verdict}", "ok": a.verdict == "valid", "node_id": a.node_id,
        })
    timeline.sort(key=lambda e: (e["start"], e["end"]))

    children = []
    if run.kind == "bench":  # a bench has no tree of its own: its per-problem runs are the content
        children = [row for row in runs_table(store, limit=None) if row["parent_run_id"] == run.run_id]
    return {
        "children": children,
        "run": {
            "run_id": run.run_id,
            "kind": run.kind,
            "status": run.status,
            "problem_id": run.problem_id,
            "problem": problem.name if problem else None,
            "dataset": problem.dataset if problem else None,
            "parent_run_id": run.parent_run_id,
            "started_at": run.started_at,
            "finished_at": run.finished_at,
            "seconds": seconds,
            "stop_reason": summary.get("stop_reason"),
            "error": summary.get("error") or summary.get("reason"),
            "nodes": len(nodes),
            "cache_hits": summary.get("cache_hits"),
            "models": sorted({f"{c.role}: {c.model}" for c in calls}),
        },
        "budget": budget,
        "statement": (problem.header + problem.statement) if problem else None,
        "proof": whole[0].proof if whole else None,
        "last_error": first_error(failed[-1].errors) if failed else None,
        "tree": tree,
        "timeline": timeline,
    }


def runs_table(
    store: Any, *, problem: str | None = None, status: str | None = None, kind: str | None = None,
    limit: int | None = 20,
) -> list[dict[str, Any]]:
    """Runs, newest first, as rows for `lemmaforge runs`: filtered by problem (id, or a substring
    of its id / name), status and kind, at most `limit` (None: all)."""
    rows = []
    names: dict[str, str] = {}
    for r in reversed(store.runs(kind=kind)):
        if status is not None and r.status != status:
            continue
        pid = r.problem_id or ""
        if pid and pid not in names:
            p = store.problem(pid)
            names[pid] = p.name if p else pid
        if problem is not None and problem != pid and problem not in pid and problem not in names.get(pid, ""):
            continue
        what = names.get(pid) if pid else None
        if r.kind == "bench":
            what = str(((r.config or {}).get("bench") or {}).get("dataset") or "") or None
        s = r.summary or {}
        stop = s.get("stop_reason") or s.get("error") or s.get("reason")
        if r.kind == "bench" and "solved" in s:
            stop = f"{s.get('solved')}/{s.get('problems')} problems solved" + (f"; {stop}" if stop else "")
        rows.append({
            "run_id": r.run_id,
            "kind": r.kind,
            "status": r.status,
            "problem_id": r.problem_id,
            "problem": what,
            "parent_run_id": r.parent_run_id,
            "started_at": r.started_at,
            "seconds": s.get("seconds") if s.get("seconds") is not None else (
                round(r.finished_at - r.started_at, 3) if r.finished_at else None),
            "llm_calls": s.get("calls"),  # sent (search/budget.py); used_*: of those, what the search took
            "lean_checks": s.get("checks"),
            "used_llm_calls": s.get("used_calls"),
            "used_lean_checks": s.get("used_checks"),
            "prompt_tokens": s.get("prompt_tokens"),
            "completion_tokens": s.get("completion_tokens"),
            "depth": s.get("depth"),
            "stop_reason": stop,
        })
        if limit is not None and len(rows) >= limit:
            break
    return rows

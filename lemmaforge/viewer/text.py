"""The terminal views: `lemmaforge runs` (a table) and `lemmaforge show RUN` (the proof tree).

Both render the dicts of `viewer.model`; stored text (statements, completions, Lean errors, dataset
names, stop reasons) always goes through `viewer.inert.markup`: control characters and escape
sequences are shown as visible escapes, and it is never read as rich markup.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from rich.table import Table
from rich.tree import Tree

from lemmaforge.viewer.counts import run_cost_words
from lemmaforge.viewer.inert import inert, markup
from lemmaforge.viewer.words import SEARCH_EXHAUSTED, status_class, status_words, stop_words, strategy_words


def escape(text: object) -> str:
    """A stored one-line field (id, name, status, reason) for rich markup: inert, newlines and
    tabs included (a newline in a name must not start a line that looks like output)."""
    return markup(text, keep="")


_STATUS_COLOUR = {
    "proved": "green", "solved": "green", "not_proved": "red", "failed": "red", "abandoned": "magenta",
    "cancelled": "dim", "running": "yellow", "open": "yellow", "done": "blue",
}


def _when(ts: float | None) -> str:
    if ts is None:
        return "-"
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


def _num(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.1f}" if x < 100 else f"{x:.0f}"
    return escape(x)  # a stored value: whatever it holds is shown, not acted on


def _clip(text: str | None, width: int) -> str:
    flat = " ".join((text or "").split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def runs_table(rows: list[dict[str, Any]]) -> Table:

    t = Table(box=None, pad_edge=False, padding=(0, 1), header_style="bold underline")
    # ids, statuses, times and numbers never wrap (a cut id cannot be pasted into `show`);
    # the problem and the stop reason take what width is left
    for name, justify in (("run", "left"), ("status", "left"), ("problem", "left"), ("started", "left"),
                          ("s", "right"), ("LLM/Lean", "right"), ("depth", "right"), ("stop", "left")):
        flexible = name in ("problem", "stop")
        t.add_column(name, justify=justify, overflow="fold", no_wrap=not flexible,  # type: ignore[arg-type]
                     ratio=1 if flexible else None)
    for r in rows:
        colour = _STATUS_COLOUR.get(status_class(r["status"], r["kind"]), "white")
        what = r.get("problem") or r["problem_id"] or "-"
        if r["kind"] not in ("prove",):
            what = f"{r['kind']}: {what}"
        cost = f"{_num(r['llm_calls'])}/{_num(r['lean_checks'])}"
        started = dt.datetime.fromtimestamp(r["started_at"], dt.UTC).strftime("%m-%d %H:%M") if r["started_at"] else "-"
        t.add_row(
            escape(r["run_id"][:12]), f"[{colour}]{escape(status_words(r['status'], r['kind']))}[/]", escape(what), started,
            _num(r["seconds"]), cost, _num(r["depth"]), escape(_clip(stop_words(r["stop_reason"]), 60)),
        )
    return t


def stop_line(reason: str | None) -> str:
    """The engine's stop reason, said so that a person knows what ran out."""
    if reason == "exhausted":
        return f"{SEARCH_EXHAUSTED}: no strategy closed the root goal within the depth and sample limits"
    return stop_words(reason)


def budget_line(budget: dict[str, Any]) -> str:
    names = (("llm_calls", "LLM calls"), ("lean_checks", "Lean checks"), ("depth", "depth"), ("wall_seconds", "wall s"))
    parts = []
    for key, label in names:
        b = budget.get(key) or {}
        spent, limit = b.get("spent"), b.get("limit")
        ahead = f" ({b['ahead_unused']} of them sent ahead, not used)" if b.get("ahead_unused") else ""
        parts.append(inert(f"{label} {_num(spent)}/{_num(limit)}{ahead}"))
    return " · ".join(parts)


def _shown_attempts(n: dict[str, Any], all_attempts: bool) -> list[dict[str, Any]]:
    """The attempts listed under a node: every one with --all-attempts, else the failed ones."""
    return n["attempts"] if all_attempts else [a for a in n["attempts"] if a["verdict"] != "valid"]


def _node_label(n: dict[str, Any], all_attempts: bool = True) -> str:
    colour = _STATUS_COLOUR.get(n["status"], "yellow")
    where = f"hole {n['hole_index']} " if n.get("hole_index") is not None and n["kind"] == "goal" else ""
    how = f"{' by' if n['kind'] == 'goal' else ':'} {escape(n['closed_by'])}" if n.get("closed_by") else ""
    why = f" ({escape(_clip(n['reason'], 60))})" if n.get("reason") and n["status"] != "solved" else ""
    tries, shown = len(n["attempts"]), len(_shown_attempts(n, all_attempts))
    # the count says what is listed below it: all of them, or which part (show --all-attempts lists all)
    if shown == tries:
        counted = f"{tries} attempt(s)"
    elif shown == 0:
        counted = f"{tries} attempt(s), valid (not listed)"
    else:
        counted = f"showing {shown} of {tries} attempt(s) (the failed ones)"
    stats = f" [dim]{counted}, {n['seconds']:.2f} s[/]"
    return (f"{escape(where)}[{colour}]{escape(n['kind'])} {escape(n['status'])}[/]{how}{why} "
            f"{escape(_clip(n['summary'], 70))}{stats}")


def _add_attempts(branch: Tree, n: dict[str, Any], *, all_attempts: bool) -> None:
    shown = _shown_attempts(n, all_attempts)
    for a in shown:
        err = f": {escape(_clip(a['first_error'], 90))}" if a.get("first_error") else ""
        colour = "green" if a["verdict"] == "valid" else "red"
        timing = f"gen {a['generation_seconds']:.2f} s, " if a.get("llm_call_id") else ""
        branch.add(f"[dim]{escape(strategy_words(a['strategy']))} #{escape(a['sample'])}[/] [{colour}]{escape(a['verdict'])}[/]{err} "
                   f"[dim]({timing}Lean {a['check_seconds']:.2f} s)[/]")


def _hidden_valid(n: dict[str, Any]) -> bool:
    return any(a["verdict"] == "valid" for a in n["attempts"]) or any(_hidden_valid(c) for c in n["children"])


def tree(view: dict[str, Any], *, all_attempts: bool = False) -> Tree | None:
    root = view.get("tree")
    if root is None:
        return None

    def build(parent: Tree | None, n: dict[str, Any]) -> Tree:
        label = _node_label(n, all_attempts)
        branch = Tree(label) if parent is None else parent.add(label)
        if n["kind"] == "sketch":
            branch.add(f"[dim]{escape(_clip(n['text'], 110))}[/]")
        _add_attempts(branch, n, all_attempts=all_attempts)
        for c in n["children"]:
            build(branch, c)
        return branch

    return build(None, root)


def render_run(view: dict[str, Any], console: Any, *, all_attempts: bool = False) -> None:
    run = view["run"]
    colour = _STATUS_COLOUR.get(status_class(run["status"], run["kind"]), "yellow")
    problem = f"{run['problem']} ({run['dataset']})" if run["problem"] else (run["problem_id"] or "-")
    console.print(f"run {escape(run['run_id'])}: {escape(run['kind'])} [{colour}]{escape(status_words(run['status'], run['kind']))}[/] "
                  f"problem {escape(problem)}; started {_when(run['started_at'])} UTC, {_num(run['seconds'])} s",
                  soft_wrap=True)
    if run.get("parent_run_id"):
        console.print(f"part of bench run {escape(run['parent_run_id'])}", soft_wrap=True)
    # the run's stored figures, in the words every view uses (viewer/counts.py)
    console.print(f"cost: {run_cost_words(view['budget'])}", highlight=False, markup=False, soft_wrap=True)
    console.print(f"budgets (spent/limit): {budget_line(view['budget'])}", highlight=False, markup=False,
                  soft_wrap=True)
    console.print(f"stop: {escape(stop_line(run['stop_reason']))}", highlight=False, soft_wrap=True)
    if run.get("error"):
        console.print(f"error: {markup(run['error'])}", highlight=False, soft_wrap=True)
    if view.get("last_error") and run["status"] != "proved":
        console.print(f"last Lean error: {markup(view['last_error'])}", highlight=False, soft_wrap=True)
    if view.get("children"):
        console.print(f"{len(view['children'])} per-problem run(s) (`lemmaforge show RUN` for one, "
                      f"`lemmaforge report {escape(run['run_id'])}` for the results):", highlight=False, soft_wrap=True)
        console.print(runs_table(view["children"]))
    t = tree(view, all_attempts=all_attempts)
    if t is not None:
        console.print(t)
        if not all_attempts and _hidden_valid(view["tree"]):
            console.print("(valid attempts are not listed: `--all-attempts` lists every attempt)", highlight=False,
                          markup=False, soft_wrap=True)
    if view.get("proof"):
        console.print("proof:", highlight=False)
        console.print(inert(view["proof"]), markup=False, highlight=False, soft_wrap=True)

"""A bench report as one self-contained HTML page (`lemmaforge report --html`): titled with what was
run (dataset and its Lean version, models and presets, protocol, budgets, date), a neutral badge
for a finished bench ("done · 2/3 solved": a bench is not a proof that failed), the pass@k curve as
inline SVG, the group tables, the depth and strategy sections of the text report, and one tree page
per counted attempt beside it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lemmaforge.benchmarks.report._answers import answer_lines
from lemmaforge.benchmarks.report._recipe import recipe_lines
from lemmaforge.benchmarks.report._text import (
    fmt_pct,
    fmt_value,
    headline_ks,
    lean_warning,
    lean_words,
    one_line,
    protocol_lines,
)
from lemmaforge.viewer.counts import bench_cost_words
from lemmaforge.viewer.html import esc, page, render_run_page
from lemmaforge.viewer.model import run_view

if TYPE_CHECKING:
    from lemmaforge.benchmarks.report._summary import RunData
    from lemmaforge.db import Store


def _int_ticks(hi: int, most: int = 10) -> list[int]:
    """Integer ticks from 1 to `hi` (k is a count of attempts: no fractional ticks)."""
    step = max(1, -(-hi // most))
    ticks = list(range(1, hi + 1, step))
    if ticks[-1] != hi:
        ticks.append(hi)
    return ticks


def pass_at_k_svg(reports: Sequence[dict[str, Any]], *, width: int = 560, height: int = 300) -> str:
    """pass@k against k as an inline SVG line chart (one line per report), integer k ticks."""
    colours = ("#0969da", "#cf222e", "#1a7f37", "#8250df")
    left, right, top, bottom = 48, 16, 14, 40
    ks_max = max((int(k) for r in reports for k in r["pass_at_k"]), default=1)
    pw, ph = width - left - right, height - top - bottom

    def x(k: int) -> float:
        return left + (pw / 2 if ks_max == 1 else (k - 1) * pw / (ks_max - 1))

    def y(v: float) -> float:
        return top + ph * (1 - v)

    out = [f'<svg class="passk" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="pass@k">']
    for v in (0, 0.25, 0.5, 0.75, 1.0):
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{width - right}" y2="{y(v):.1f}" stroke="#eaeef2"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:g}</text>')
    for k in _int_ticks(ks_max):
        out.append(f'<line x1="{x(k):.1f}" y1="{top + ph}" x2="{x(k):.1f}" y2="{top + ph + 4}" stroke="#6e7781"/>')
        out.append(f'<text class="k-tick" x="{x(k):.1f}" y="{top + ph + 16}" text-anchor="middle">{k}</text>')
    out.append(f'<text x="{left + pw / 2:.1f}" y="{height - 6}" text-anchor="middle">k (attempts)</text>')
    for i, rep in enumerate(reports):
        colour = colours[i % len(colours)]
        pts = [(int(k), float(v)) for k, v in sorted(rep["pass_at_k"].items(), key=lambda kv: int(kv[0]))]
        if len(pts) > 1:
            path = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in pts)
            out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}"/>')
        for k, v in pts:
            out.append(f'<circle cx="{x(k):.1f}" cy="{y(v):.1f}" r="3.5" fill="{colour}">'
                       f'<title>{esc(rep["run_id"])}: pass@{k} = {v:.4f}</title></circle>')
    out.append("</svg>")
    return "".join(out)


def _group_table(title: str, groups: dict[str, dict[str, Any]], table_id: str) -> str:
    if not groups:
        return ""
    rows = "".join(
        f'<tr><td>{esc(name)}</td><td class="num">{g["solved"]}</td><td class="num">{g["problems"]}</td>'
        f'<td class="num">{esc(fmt_pct(g["rate"]))}</td></tr>'
        for name, g in groups.items()
    )
    return (f'<h2>{esc(title)}</h2><table id="{table_id}"><tr><th>group</th><th>solved</th><th>problems</th>'
            f'<th>rate</th></tr>{rows}</table>')


def bench_badge(rep: dict[str, Any]) -> tuple[str, str]:
    """(css class, text) of the report's badge: what state the bench is in and what it solved,
    never a proof verdict ("not_proved") for a bench that finished."""
    solved = f'{rep["solved"]}/{rep["problems"]} solved'
    if rep["status"] == "running":
        return "running", f"running · {solved}"
    if not rep["complete"]:
        return "incomplete", f"incomplete · {solved}"
    return "done", f"done · {solved}"


def _about(rep: dict[str, Any], data: RunData, lean: Sequence[str] = ()) -> list[tuple[str, str]]:
    """What was run, from the run's recorded config: the rows under the report's title."""
    config = data.config or {}
    bench = config.get("bench") or {}
    # a bench records its settings under "settings"; a single prove run's config is its settings
    settings = config.get("settings") or (config if "verifier" in config else {})
    dataset = " ".join(str(x) for x in (rep.get("dataset") or data.dataset or "-", bench.get("split") or "") if x)
    version = bench.get("dataset_version") or bench.get("version") or bench.get("digest")
    if version:
        dataset += f", version {version}"
    pinned = bench.get("lean_version") or (", ".join(lean) if lean else None)
    if pinned:  # the dataset's pin, not the Lean that checked the proofs (the "verifier" row)
        dataset += f" (written for Lean {pinned})"
    models = []
    ran = rep.get("protocol") or {}
    for role in ("prover", "planner"):
        endpoint = settings.get(role) or {}
        if not endpoint.get("url") and not endpoint.get("model"):
            continue
        # the model the requests named (the server's, as the preflight chose it: report.role_section)
        name = (ran.get(role) or {}).get("model") or endpoint.get("model") or data.versions.get(f"{role}_model")
        name = " / ".join(name) if isinstance(name, list) else name
        preset = endpoint.get("preset")
        models.append(f'{role} {name or "unknown"}' + (f" (preset {preset})" if preset else "")
                      + (" (CoT)" if role == "prover" and config.get("cot") else ""))
    named = bench.get("protocol")  # "search" / "whole-proof" (benchmarks/protocols.py); older benches: none
    parts = [named] if isinstance(named, str) else []
    parts.append(f'pass@{bench.get("attempts", rep["attempts"])}')
    if bench.get("limit"):
        parts.append(f'first {bench["limit"]} problems')
    if bench.get("shard"):
        parts.append(f'shard {bench["shard"]}')
    parts.append("shared subgoal cache" if bench.get("shared_cache") else "independent attempts")
    if bench.get("answers"):
        parts.append(f'answers {bench["answers"]}')
    verifier = (settings.get("verifier") or {}).get("backend")
    if verifier:
        parts.append(f"verifier {verifier}")
    protocol = ", ".join(parts)
    budget = settings.get("budget") or {}
    budgets = ", ".join(f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}" for k, v in budget.items())
    when = dt.datetime.fromtimestamp(data.started_at, dt.UTC).strftime("%Y-%m-%d %H:%M UTC") if data.started_at else "-"
    checked = f"{verifier or '-'}, {lean_words(_verifier(rep, data))}"
    return [("dataset", dataset), ("models", "; ".join(models) or "-"), ("protocol", protocol),
            ("verifier", checked), ("budgets", budgets or "-"), ("date", when), ("run", rep["run_id"])]


def _verifier(rep: dict[str, Any], data: RunData) -> dict[str, Any]:
    """The report's verifier section (`report.verifier_section`; a single prove run's, made here)."""
    from lemmaforge.benchmarks.report._summary import verifier_section

    section = (rep.get("protocol") or {}).get("verifier")
    return section if section else verifier_section((data.config or {}).get("settings") or data.config or {},
                                                    data.versions or {})


def _depth_and_strategies(rep: dict[str, Any]) -> str:
    """The text report's depth and strategy lines, as tables."""
    out = []
    if rep.get("depth"):
        rows = "".join(f'<tr><td class="num">{esc(d)}</td><td class="num">{n}</td></tr>' for d, n in rep["depth"].items())
        out.append('<h2>Depth of solved trees</h2><p class="dim">levels of sketches a proof uses (0: the prover '
                   f'proved the theorem directly)</p><table id="depth"><tr><th>depth</th><th>proofs</th></tr>{rows}</table>')
    s = rep.get("strategies")
    if s:
        names = sorted(set(s["in_proofs"]) | set(s["all_solved_goals"]))
        rows = "".join(f'<tr><td>{esc(n)}</td><td class="num">{s["in_proofs"].get(n, 0)}</td>'
                       f'<td class="num">{s["all_solved_goals"].get(n, 0)}</td></tr>' for n in names)
        out.append('<h2>Strategies</h2><p class="dim">which strategy closed each goal</p><table id="strategies">'
                   f'<tr><th>strategy</th><th>goals in proofs</th><th>all solved goals</th></tr>{rows}</table>')
    return "\n".join(out)


def write_html(store: Store, rep: dict[str, Any], data: RunData, out: Path) -> dict[str, Any]:
    """The report as one self-contained page at `out`, plus one tree page per counted attempt in
    the folder `<out stem>_runs/` beside it (the report links to them). Returns {"html", "runs"}."""
    runs_dir = out.parent / f"{out.stem}_runs"
    runs_dir.mkdir(exist_ok=True)
    written = 0
    rows = []
    for pr in data.problems:
        links = []
        for a in pr.attempts:
            (runs_dir / f"{a.run_id}.html").write_text(render_run_page(run_view(store, a.run_id)), encoding="utf-8")
            written += 1
            mark = "proved" if a.proved else "not_proved"
            links.append(f'<a class="{mark}" href="{esc(runs_dir.name)}/{esc(a.run_id)}.html" '
                         f'title="{esc(a.stop_reason or a.status)}">#{a.attempt} {"✓" if a.proved else "✗"}</a>')
        rows.append(
            f'<tr><td>{esc(pr.name)}</td><td>{esc(pr.split or "-")}</td><td>{esc(", ".join(pr.category) or "-")}</td>'
            f'<td class="num">{pr.c}/{pr.n}</td><td>{" ".join(links) or "<span class=dim>not tried</span>"}</td></tr>'
        )
    ks = [k for k in headline_ks(rep["attempts"]) if str(k) in rep["pass_at_k"]]
    pk_rows = "".join(f'<tr><td class="num">{k}</td><td class="num">{rep["pass_at_k"][str(k)]:.4f}</td>'
                      f'<td class="num">{rep["pass_at_k_problems"][str(k)]}</td></tr>' for k in ks)
    cost, tm = rep["cost"], rep["time"]
    records = (store.problem(pr.problem_id) for pr in data.problems[:50])
    lean = sorted({str((r.extra or {}).get("lean_version")) for r in records if r is not None} - {"None"})
    about = _about(rep, data, lean)
    badge_class, badge_text = bench_badge(rep)
    verifier = _verifier(rep, data)
    checked_with = f"checked by Lean {verifier['lean_version']}" if verifier.get("lean_verified") else "Lean unverified"
    title = " · ".join(x for x in (dict(about)["dataset"], checked_with, dict(about)["date"]) if x and x != "-")
    warning = lean_warning(verifier)
    body = "\n".join([
        f'<h1>{esc(title)} <span class="badge {esc(badge_class)}" id="badge">{esc(badge_text)}</span></h1>',
        '<dl class="about" id="about">' + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in about) + "</dl>",
        f'<p class="warning" id="lean-warning">{esc(warning)}</p>' if warning else "",
        f'<p id="headline">{esc(one_line(rep))}</p>',
        # how the numbers were made (protocol, models, samples and tokens, budget, dataset, Lean)
        '<ul id="protocol">' + "".join(f"<li>{esc(line)}</li>" for line in protocol_lines(rep) if line != warning)
        + "</ul>",
        ('<ul id="recipe">' + "".join(f"<li>{esc(line)}</li>" for line in recipe_lines(rep)) + "</ul>")
        if recipe_lines(rep) else "",
        ('<ul id="answer-task">' + "".join(f"<li>{esc(line)}</li>" for line in answer_lines(rep)) + "</ul>")
        if answer_lines(rep) else "",
        "<h2>pass@k</h2>",
        pass_at_k_svg([rep]),
        f'<table id="passk"><tr><th>k</th><th>pass@k</th><th>problems</th></tr>{pk_rows}</table>',
        _group_table("By category", rep["by_category"], "by-category"),
        _group_table("By split", rep["by_split"], "by-split"),
        "<h2>Cost and time</h2>",
        f'<p>{esc(bench_cost_words(cost))}; per solved problem '
        f'{esc(fmt_value(cost["llm_calls_per_solved"]))} calls, {esc(fmt_value(cost["lean_checks_per_solved"]))} checks. '
        f'{esc(fmt_value(tm["search_seconds"]))} s of search; per problem mean {esc(fmt_value(tm["per_problem"]["mean"]))} s.</p>',
        _depth_and_strategies(rep),
        "<h2>Problems</h2>",
        '<table id="problems"><tr><th>problem</th><th>split</th><th>category</th><th>proved</th>'
        f'<th>attempts (tree of each)</th></tr>{"".join(rows)}</table>',
    ])
    out.write_text(page(f"lemmaforge report: {title}", body), encoding="utf-8")
    return {"html": str(out), "runs": written, "runs_dir": str(runs_dir)}

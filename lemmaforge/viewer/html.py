"""Self-contained HTML pages: one run's interactive proof tree (`show RUN --html`) and the helpers
the bench report page (`report BENCH --html`) shares with it.

One file, nothing fetched at view time: CSS and the few lines of JavaScript are inline, charts are
inline SVG, the tree is nested `<details>` elements (collapsible without any script). Every piece
of model or Lean text goes through `html.escape` (`esc`), so a completion holding `<script>` is
shown as text, never run.

A run's page opens on a compact outline of its proof tree (one row per goal and sketch: how it
closed, depth, cost), each row one click from that node's statement, attempts, prompts and Lean
messages further down; long text wraps (nothing scrolls sideways at 800 px), and the timeline has a
legend. Internal names are shown in words (`viewer/words.py`).
"""

from __future__ import annotations

import datetime as dt
import html as _html
from collections.abc import Sequence
from typing import Any

from lemmaforge.viewer.counts import run_cost_words
from lemmaforge.viewer.text import budget_line, stop_line
from lemmaforge.viewer.words import status_class, status_words, strategy_words

CSS = """
:root { --ok:#1a7f37; --bad:#cf222e; --warn:#9a6700; --dim:#6e7781; --bg:#f6f8fa; --line:#d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 1.2em 2em;
       max-width: 1200px; color: #1f2328; }
h1 { font-size: 1.35em; margin: .2em 0 .4em; } h2 { font-size: 1.1em; margin: 1.4em 0 .5em;
       border-bottom: 1px solid var(--line); padding-bottom: .2em; }
pre { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: .6em .8em;
      white-space: pre-wrap; overflow-wrap: anywhere; font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace;
      margin: .3em 0; }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
summary, td, p, h1 { overflow-wrap: anywhere; }
details { margin: .15em 0 .15em 0; } details details { margin-left: 1.4em; }
summary { cursor: pointer; padding: .15em .3em; border-radius: 4px; }
summary:hover { background: var(--bg); }
.node > summary { font-weight: 500; }
.badge { display: inline-block; padding: 0 .45em; border-radius: 1em; font-size: .85em; font-weight: 600;
         border: 1px solid currentColor; margin-right: .3em; }
.solved, .proved, .valid { color: var(--ok); } .failed, .not_proved, .error, .rejected, .crashed { color: var(--bad); }
.abandoned, .timeout, .incomplete, .skipped { color: var(--warn); } .cancelled, .open, .running { color: var(--dim); }
.dim { color: var(--dim); } .how { color: #0969da; } .warning { color: var(--warn); font-weight: 600; }
.body { margin-left: 1.4em; border-left: 2px solid var(--line); padding-left: .8em; }
.label { font-size: .8em; text-transform: uppercase; letter-spacing: .04em; color: var(--dim); margin-top: .5em; }
table { border-collapse: collapse; margin: .4em 0; max-width: 100%; } th, td { border: 1px solid var(--line); padding: .25em .6em; text-align: left; }
th { background: var(--bg); } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.toolbar button { font: inherit; margin-right: .4em; padding: .15em .7em; border: 1px solid var(--line);
                  border-radius: 6px; background: #fff; cursor: pointer; }
svg text { font: 11px system-ui, sans-serif; fill: #1f2328; }
svg.timeline { width: 100%; height: auto; display: block; }
#outline { width: 100%; } #outline td { vertical-align: top; } #outline td.goal { width: 55%; }
#outline a { color: inherit; text-decoration: none; } #outline a:hover { text-decoration: underline; }
#outline tr.sketch td.goal { color: var(--dim); font-style: italic; }
.legend { display: flex; flex-wrap: wrap; gap: .3em 1.2em; margin: .3em 0 .6em; font-size: .9em; }
.swatch { display: inline-block; width: 1.4em; height: .8em; border-radius: 2px; vertical-align: middle;
          margin-right: .35em; opacity: .75; }
dl.about { display: grid; grid-template-columns: max-content 1fr; gap: .15em 1em; margin: .4em 0 1em; }
dl.about dt { color: var(--dim); } dl.about dd { margin: 0; overflow-wrap: anywhere; }
.badge.done { color: #0969da; }
.badge, td.num { white-space: nowrap; overflow-wrap: normal; }
svg.passk { max-width: 100%; height: auto; }
"""

JS = """
function setAll(open) { document.querySelectorAll('details').forEach(d => { d.open = open; }); }
// the tree's goals and sketches only: attempts (prompts, completions) stay closed
function setTree(open) { document.querySelectorAll('details.node').forEach(d => { d.open = open; }); }
function reveal() {
  const id = decodeURIComponent(location.hash.slice(1));
  const el = id && document.getElementById(id);
  if (el) { for (let d = el; d; d = d.parentElement) { if (d.tagName === 'DETAILS') d.open = true; } el.scrollIntoView(); }
}
document.addEventListener('DOMContentLoaded', reveal);
window.addEventListener('hashchange', reveal);
"""


def esc(text: Any) -> str:
    """Text (model output, Lean messages, names) made safe for HTML element content and attributes."""
    return _html.escape("" if text is None else str(text), quote=True)


def page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        # nothing may be fetched: no remote fonts, scripts or images, and a CSP that says so
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
        "script-src 'unsafe-inline'; img-src data:\">"
        f"<title>{esc(title)}</title><style>{CSS}</style><script>{JS}</script></head>\n"
        f"<body>\n{body}\n</body></html>\n"
    )


def _when(ts: float | None) -> str:
    if ts is None:
        return "-"
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _pre(label: str, text: str | None, cls: str = "") -> str:
    if text is None or text == "":
        return ""
    return f'<div class="label">{esc(label)}</div><pre class="{cls}">{esc(text)}</pre>'


def _attempt_html(a: dict[str, Any]) -> str:
    err = f': <span class="dim">{esc(_one_line(a["first_error"], 140))}</span>' if a.get("first_error") else ""
    timing = (f'gen {a["generation_seconds"]:.2f} s, ' if a.get("llm_call_id") else "") + f'Lean {a["check_seconds"]:.2f} s'
    summary = (f'<span class="badge {esc(a["verdict"])}">{esc(a["verdict"])}</span>'
               f'{esc(strategy_words(a["strategy"]))} #{a["sample"]}{err} <span class="dim">({timing})</span>')
    messages = "\n".join(a.get("errors") or []) or None
    body = "".join((
        _pre("prompt" + (f' ({a["model"]})' if a.get("model") else ""), a.get("prompt")),
        _pre("completion", a.get("completion")),
        _pre("Lean messages", messages, "lean-messages"),
        _pre("code checked", a.get("code")),
    )) or '<div class="dim">nothing recorded</div>'
    return (f'<details class="attempt" id="attempt-{esc(a["attempt_id"])}"><summary>{summary}</summary>'
            f'<div class="body">{body}</div></details>')


def _one_line(text: str | None, width: int) -> str:
    flat = " ".join((text or "").split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _node_html(n: dict[str, Any], *, open_: bool) -> str:
    where = f'hole {n["hole_index"]} · ' if n.get("hole_index") is not None and n["kind"] == "goal" else ""
    how = (f' <span class="how">{"by" if n["kind"] == "goal" else "—"} {esc(n["closed_by"])}</span>'
           if n.get("closed_by") else "")
    why = f' <span class="dim">({esc(_one_line(n["reason"], 80))})</span>' if n.get("reason") and n["status"] != "solved" else ""
    summary = (f'<span class="badge {esc(n["status"])}">{esc(status_words(n["status"]))}</span>{where}{esc(n["kind"])}{how}{why} '
               f'<code>{esc(_one_line(n["summary"], 90))}</code> '
               f'<span class="dim">{len(n["attempts"])} attempt(s), {n["seconds"]:.2f} s</span>')
    parts = [
        _pre("statement" if n["kind"] == "goal" else "sketch", n["text"]),
        _pre("goal state", n.get("goal_state")),
        _pre("proof" if n["kind"] == "goal" else "filled sketch", n.get("proof")),
    ]
    if n["attempts"]:
        parts.append(f'<div class="label">attempts ({len(n["attempts"])})</div>')
        parts.extend(_attempt_html(a) for a in n["attempts"])
    if n["children"]:
        parts.append(f'<div class="label">{"sketches" if n["kind"] == "goal" else "holes"} ({len(n["children"])})</div>')
        parts.extend(_node_html(c, open_=False) for c in n["children"])
    return (f'<details class="node {esc(n["kind"])}" id="node-{esc(n["id"])}"{" open" if open_ else ""}>'
            f'<summary>{summary}</summary><div class="body">{"".join(parts)}</div></details>')


def _cost(n: dict[str, Any]) -> str:
    """A node's own cost: its attempts (Lean checks), the model requests they came from, its time."""
    calls = len({a["llm_call_id"] for a in n["attempts"] if a.get("llm_call_id")})
    checks = sum(1 for a in n["attempts"] if a.get("code"))
    return f'{calls} LLM · {checks} Lean · {n["seconds"]:.1f} s'


def _outline_rows(n: dict[str, Any], level: int, rows: list[str]) -> None:
    how = n.get("closed_by") or _one_line(n.get("reason"), 80)
    if n["kind"] == "goal":
        where = f'hole {n["hole_index"]}: ' if n.get("hole_index") is not None else ""
        what = f'{where}{_one_line(n["summary"], 240)}'
    else:
        what = f'sketch: {n["summary"]}'
    rows.append(
        f'<tr class="{esc(n["kind"])}"><td><span class="badge {esc(n["status"])}">{esc(status_words(n["status"]))}</span></td>'
        f'<td class="goal" style="padding-left:{0.6 + 1.1 * level:.1f}em"><a href="#node-{esc(n["id"])}">{esc(what)}</a></td>'
        f'<td>{esc(how)}</td><td class="num">{n["depth"]}</td>'
        f'<td class="num">{esc(_cost(n))}</td></tr>'
    )
    for c in n["children"]:
        _outline_rows(c, level + 1, rows)


def outline_html(tree: dict[str, Any] | None) -> str:
    """The proof tree at a glance: one row per goal and sketch (indented by nesting), how it closed
    (or why not), its depth and its own cost; each row links to the node's details below."""
    if not tree:
        return '<p class="dim">no nodes recorded</p>'
    rows: list[str] = []
    _outline_rows(tree, 0, rows)
    return ('<table id="outline"><tr><th>status</th><th>goal</th><th>how it closed</th><th>depth</th>'
            f'<th>cost</th></tr>{"".join(rows)}</table>'
            '<p class="dim">Click a goal for its statement, attempts, prompts and Lean messages.</p>')


def timeline_svg(events: Sequence[dict[str, Any]], *, width: int = 1100) -> str:
    """LLM calls and Lean checks as bars on two lanes against seconds since the run started;
    each bar's tooltip (`<title>`) says what it was."""
    if not events:
        return '<p class="dim">no LLM calls or Lean checks recorded</p>'
    end = max(e["end"] for e in events) or 1.0
    left, lane_h, top = 60, 26, 8
    scale = (width - left - 20) / end
    lanes = {"llm": 0, "lean": 1}
    height = top + 2 * lane_h + 30
    out = [f'<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'preserveAspectRatio="xMinYMin meet" role="img" aria-label="timeline">']
    for name, i in lanes.items():
        y = top + i * lane_h
        out.append(f'<text x="4" y="{y + 16}">{"LLM" if name == "llm" else "Lean"}</text>')
        out.append(f'<line x1="{left}" y1="{y + lane_h - 2}" x2="{width - 20}" y2="{y + lane_h - 2}" stroke="#d0d7de"/>')
    for e in events:
        y = top + lanes.get(e["kind"], 1) * lane_h + 4
        x = left + e["start"] * scale
        w = max(2.0, (e["end"] - e["start"]) * scale)
        colour = TIMELINE_COLOURS[(e["kind"] if e["kind"] == "llm" else "lean", bool(e["ok"]))]
        out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{lane_h - 10}" fill="{colour}" opacity=".75">'
                   f'<title>{esc(e["label"])}: {e["start"]:.2f}–{e["end"]:.2f} s</title></rect>')
    axis_y = top + 2 * lane_h + 14
    for tick in _ticks(end):
        x = left + tick * scale
        out.append(f'<line x1="{x:.1f}" y1="{axis_y - 10}" x2="{x:.1f}" y2="{axis_y - 6}" stroke="#6e7781"/>')
        out.append(f'<text x="{x:.1f}" y="{axis_y + 4}" text-anchor="middle">{_fmt_tick(tick)} s</text>')
    out.append(f'<text x="{width - 20}" y="{axis_y + 18}" text-anchor="end">seconds since the run started</text>')
    out.append("</svg>")
    return timeline_legend() + "".join(out)


#: the timeline's bar colours, by (lane, ok): the legend and the bars read the same table
TIMELINE_COLOURS = {
    ("llm", True): "#0969da", ("llm", False): "#cf222e",
    ("lean", True): "#1a7f37", ("lean", False): "#bc4c00",
}
_LEGEND = (
    (("llm", True), "LLM call (planner or prover request)"),
    (("llm", False), "LLM call that failed"),
    (("lean", True), "Lean check: valid"),
    (("lean", False), "Lean check: rejected or error"),
)


def timeline_legend() -> str:
    items = "".join(f'<span><span class="swatch" style="background:{TIMELINE_COLOURS[key]}"></span>{esc(text)}</span>'
                    for key, text in _LEGEND)
    return (f'<div class="legend" id="timeline-legend">{items}<span class="dim">one bar per request, from when it '
            'was sent to its answer; hover a bar for what it was</span></div>')


def _ticks(end: float, n: int = 6) -> list[float]:
    """Round tick values from 0 to `end` (1, 2 or 5 times a power of ten apart)."""
    import math

    raw = end / n
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    return [i * step for i in range(int(end / step) + 1)]


def _fmt_tick(x: float) -> str:
    return f"{x:g}" if abs(x - round(x)) > 1e-9 else str(int(round(x)))


def render_run_page(view: dict[str, Any]) -> str:
    """The HTML page of one run (`viewer.model.run_view`'s dict)."""
    run = view["run"]
    title = f"lemmaforge run {run['run_id']}"
    problem = f"{run['problem']} ({run['dataset']})" if run.get("problem") else (run.get("problem_id") or "-")
    rows = []
    for key, label in (("llm_calls", "LLM calls"), ("lean_checks", "Lean checks"), ("depth", "depth"),
                       ("wall_seconds", "wall seconds")):
        b = view["budget"].get(key) or {}
        ahead = f' ({esc(_num(b["ahead_unused"]))} of them sent ahead, not used)' if b.get("ahead_unused") else ""
        rows.append(f'<tr><td>{label}</td><td class="num">{esc(_num(b.get("spent")))}{ahead}</td>'
                    f'<td class="num">{esc(_num(b.get("limit")))}</td></tr>')
    head = [
        f'<h1>{esc(problem)} <span class="badge {esc(status_class(run["status"], run["kind"]))}">'
        f'{esc(status_words(run["status"], run["kind"]))}</span></h1>',
        f'<p>run <code>{esc(run["run_id"])}</code> ({esc(run["kind"])}), started {_when(run["started_at"])}, '
        f'{esc(_num(run.get("seconds")))} s; stop: <b>{esc(stop_line(run.get("stop_reason")))}</b>'
        + (f'; part of bench <code>{esc(run["parent_run_id"])}</code>' if run.get("parent_run_id") else "")
        + (f'; models: {esc(", ".join(run["models"]))}' if run.get("models") else "") + "</p>",
        f'<table class="budget"><tr><th>budget</th><th>spent</th><th>limit</th></tr>{"".join(rows)}</table>',
        f'<p class="cost">cost: {esc(run_cost_words(view["budget"]))}</p>',  # as `show` and `prove` say it
    ]
    if run.get("error"):
        head.append(f'<p class="failed">error: {esc(run["error"])}</p>')
    if view.get("last_error") and run["status"] != "proved":
        head.append(f'<p>last Lean error: <code class="failed">{esc(view["last_error"])}</code></p>')
    tree = view.get("tree")
    if view.get("children"):
        items = "".join(
            f'<tr><td><code>{esc(c["run_id"])}</code></td><td class="{esc(c["status"])}">{esc(status_words(c["status"]))}</td>'
            f'<td>{esc(c.get("problem") or c["problem_id"])}</td><td>{esc(stop_line(c.get("stop_reason")))}</td></tr>'
            for c in view["children"]
        )
        head.append(f'<h2>Per-problem runs</h2><p class="dim">`lemmaforge report {esc(run["run_id"])} --html` links '
                    f'each to its tree.</p><table id="children"><tr><th>run</th><th>status</th><th>problem</th>'
                    f'<th>stop</th></tr>{items}</table>')
    sections = [
        "<h2>Outline</h2>",
        outline_html(tree),
        "<h2>Proof tree</h2>",
        # "expand tree" opens goals and sketches, never every prompt and completion at once
        '<div class="toolbar"><button type="button" id="expand-tree" onclick="setTree(true)">expand tree</button>'
        '<button type="button" onclick="setAll(false)">collapse all</button></div>',
        _node_html(tree, open_=True) if tree else '<p class="dim">no nodes recorded</p>',
        "<h2>Assembled proof</h2>",
        f'<pre id="proof">{esc(view["proof"])}</pre>' if view.get("proof") else '<p class="dim">not proved</p>',
        "<h2>Timeline</h2>",
        timeline_svg(view.get("timeline") or []),
    ]
    if view.get("statement"):
        sections += ["<h2>Statement</h2>", f'<pre id="statement">{esc(view["statement"])}</pre>']
    sections.append(f'<p class="dim">budgets: {esc(budget_line(view["budget"]))}</p>')
    return page(title, "\n".join(head + sections))


def _num(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.2f}" if x < 100 else f"{x:.0f}"
    return str(x)

"""A bench report as text: the end-of-run line (`one_line`) and the rich tables of `lemmaforge
report` (`render`, `render_compare`). The numbers come from `report.summarize` / `report.compare`.

Names in a report (runs, datasets, splits, categories, problems, statement errors) are stored text:
every line and cell goes through `viewer.inert` (visible escapes, never rich markup).
"""

from __future__ import annotations

from typing import Any

from rich.table import Table

from lemmaforge.benchmarks.report._answers import answer_lines
from lemmaforge.benchmarks.report._recipe import recipe_lines
from lemmaforge.viewer.counts import bench_cost_words
from lemmaforge.viewer.inert import inert, markup


def _say(console: Any, text: str) -> None:
    """One line of stored text, inert, printed without markup, highlighting or wrapping."""
    console.print(inert(text, keep=""), highlight=False, markup=False, soft_wrap=True)


def _cell(x: Any) -> str:
    """A table cell (rich reads cells as markup): inert and markup-escaped."""
    return markup(x, keep="")


def fmt_pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def fmt_value(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"
    return str(x)


def headline_ks(attempts: int) -> list[int]:
    ks = [k for k in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024) if k <= attempts]
    if attempts not in ks:
        ks.append(attempts)
    return ks


def one_line(rep: dict[str, Any]) -> str:
    """The end-of-run summary line."""
    ks = [k for k in headline_ks(rep["attempts"]) if str(k) in rep["pass_at_k"]]
    pk = " ".join(f"pass@{k} {rep['pass_at_k'][str(k)]:.3f}" for k in ks)
    ignored = sum(rep["ignored"].values())
    parts = [
        f"{rep['kind']} {rep['run_id']}: {rep['solved']}/{rep['problems']} solved ({fmt_pct(rep['rate'])})",
        pk or "pass@k -",
        f"{rep['attempts_done']}/{rep['attempts_planned']} attempts" + (f", {ignored} ignored" if ignored else ""),
    ]
    if rep.get("invalid"):
        parts.append(f"{len(rep['invalid'])} invalid statement(s) counted unsolved: "
                     + ", ".join(p["name"] for p in rep["invalid"][:5]) + (", …" if len(rep["invalid"]) > 5 else ""))
    if not rep["complete"]:
        parts.append("incomplete: continue with --resume " + rep["run_id"])
    return inert("; ".join(parts), keep="")


def lean_words(verifier: dict[str, Any]) -> str:
    """The verifier's Lean as a report states it: verified (its Lean said so) or unverified."""
    version = verifier.get("lean_version")
    if version and verifier.get("lean_verified"):
        return f"Lean {version} (verified: the verifier's Lean said so)"
    if version:
        return f"Lean unverified ({version} per {verifier.get('lean_from') or 'the run record'})"
    return "Lean unverified (the verifier did not say its version)"


def lean_warning(verifier: dict[str, Any]) -> str | None:
    """The warning a report carries when the verifier's Lean version is not verified."""
    if verifier.get("lean_version") and verifier.get("lean_verified"):
        return None
    return ("warning: the Lean version that checked these proofs is unverified; a dataset written for another "
            "Lean may count differently (`lemmaforge doctor` asks the verifier)")


def protocol_lines(rep: dict[str, Any]) -> list[str]:
    """How the numbers were made, in words (`report.protocol_section`)."""
    p = rep.get("protocol")
    if not p:
        return []

    def value(x: Any) -> str:
        if isinstance(x, list):
            return " / ".join(value(v) for v in x)
        return "server default" if x is None else str(x)

    def model(role: dict[str, Any] | None) -> str:
        if not role:
            return "none"
        preset = f", preset {role['preset']}" if role.get("preset") else ""
        return (f"{value(role.get('model')) if role.get('model') else 'unknown'}{preset}, temperature "
                f"{value(role.get('temperature'))}, top_p {value(role.get('top_p'))}, max_tokens "
                f"{value(role.get('max_tokens'))}")

    tokens = p["tokens_per_problem"]
    ds, ver = p["dataset"], p["verifier"]
    budget = ", ".join(f"{k}={v}" for k, v in (p.get("budget_per_attempt") or {}).items())
    lines = [
        f"protocol: {p['name']} ({p['description']}); {p['attempts_per_problem']} attempt(s) per problem",
        f"prover: {model(p['prover'])}",
        f"planner: {model(p['planner'])}",
        f"per problem: {fmt_value(p['prover_samples_per_problem'])} prover samples, "
        f"{fmt_value(tokens['prompt'])} prompt + {fmt_value(tokens['completion'])} completion tokens",
        f"budget per attempt: {budget or '-'}",
        f"dataset: {ds['name']}" + (f" ({ds['source']}; written for Lean {ds['lean_version']})" if ds.get("source")
                                    else ""),
        f"verifier: {ver.get('backend') or '-'}, {lean_words(ver)}",
        f"rates over {p['divided_by']}",
    ]
    warning = lean_warning(ver)
    if warning:
        lines.append(warning)
    if p.get("lower_bound"):
        lines.append(f"lower bound: {p['lower_bound']}")
    if p.get("known_issues"):
        listed = ", ".join(f"{k['name']} ({k['kind']})" for k in p["known_issues"])
        lines.append(f"known wrong statements among these problems (counted like the others): {listed}")
    return lines


def render(rep: dict[str, Any], console: Any) -> None:
    _say(console, one_line(rep))
    for line in protocol_lines(rep):
        _say(console, line)
    for line in recipe_lines(rep):  # beside the recipe's reported number, "modified: …"
        _say(console, line)
    for line in answer_lines(rep):  # PutnamBench's answer mode, and the answer task's matches
        _say(console, line)
    for bad in rep.get("invalid") or []:
        _say(console, f"invalid: {bad['name']}: {bad['error']}")
    t = Table(title="pass@k", show_edge=False)
    t.add_column("k", justify="right")
    t.add_column("pass@k", justify="right")
    t.add_column("problems", justify="right")
    for k in headline_ks(rep["attempts"]):
        if str(k) in rep["pass_at_k"]:
            t.add_row(_cell(k), f"{rep['pass_at_k'][str(k)]:.4f}", _cell(rep["pass_at_k_problems"][str(k)]))
    console.print(t)
    for title, key in (("by split", "by_split"), ("by category", "by_category")):
        groups = rep[key]
        if not groups:
            continue
        g = Table(title=title, show_edge=False)
        g.add_column("group")
        g.add_column("solved", justify="right")
        g.add_column("problems", justify="right")
        g.add_column("rate", justify="right")
        for name, s in groups.items():
            g.add_row(_cell(name), _cell(s["solved"]), _cell(s["problems"]), fmt_pct(s["rate"]))
        console.print(g)
    cost, tm = rep["cost"], rep["time"]
    _say(
        console,
        f"cost: {bench_cost_words(cost)}; per solved problem "
        f"{fmt_value(cost['llm_calls_per_solved'])} calls, {fmt_value(cost['lean_checks_per_solved'])} checks; per proving "
        f"attempt {fmt_value(cost['per_proved_attempt']['llm_calls'])} calls")
    pp = tm["per_problem"]
    _say(
        console,
        f"time: {fmt_value(tm['search_seconds'])} s of search; per problem mean {fmt_value(pp['mean'])} s, median "
        f"{fmt_value(pp['median'])} s, max {fmt_value(pp['max'])} s"
        + (f"; wall {fmt_value(tm['wall_seconds'])} s" if tm["wall_seconds"] is not None else ""))
    if rep["depth"]:
        _say(console, "depth of solved trees: " + ", ".join(f"{d}: {n}" for d, n in rep["depth"].items()))
    if "strategies" in rep:
        s = rep["strategies"]
        fmt = lambda c: ", ".join(f"{k} {v}" for k, v in c.items()) or "-"  # noqa: E731
        _say(console, f"goals closed in proofs: {fmt(s['in_proofs'])}; all solved goals: {fmt(s['all_solved_goals'])}")
    if rep["ignored"]:
        _say(console, "ignored child runs: " + ", ".join(f"{k} {v}" for k, v in rep["ignored"].items()))


def render_compare(cmp: dict[str, Any], console: Any) -> None:
    a, b = cmp["runs"]
    t = Table(show_edge=False)
    t.add_column("")
    t.add_column(_cell(a["run_id"][:16]), justify="right")
    t.add_column(_cell(b["run_id"][:16]), justify="right")
    rows: list[tuple[str, Any, Any]] = [
        ("dataset", a["dataset"], b["dataset"]),
        # numbers made under different protocols are not the same measurement: say so in the table
        ("protocol", (a.get("protocol") or {}).get("name", "-"), (b.get("protocol") or {}).get("name", "-")),
        ("problems", a["problems"], b["problems"]),
        ("solved", a["solved"], b["solved"]),
        ("rate", fmt_pct(a["rate"]), fmt_pct(b["rate"])),
        ("attempts", a["attempts"], b["attempts"]),
    ]
    for k in sorted({int(k) for k in a["pass_at_k"]} | {int(k) for k in b["pass_at_k"]}):
        if k in headline_ks(max(a["attempts"], b["attempts"])):
            rows.append((f"pass@{k}", fmt_value(a["pass_at_k"].get(str(k))), fmt_value(b["pass_at_k"].get(str(k)))))
    rows += [
        ("LLM calls / solved", fmt_value(a["cost"]["llm_calls_per_solved"]), fmt_value(b["cost"]["llm_calls_per_solved"])),
        ("Lean checks / solved", fmt_value(a["cost"]["lean_checks_per_solved"]), fmt_value(b["cost"]["lean_checks_per_solved"])),
        ("s / problem (mean)", fmt_value(a["time"]["per_problem"]["mean"]), fmt_value(b["time"]["per_problem"]["mean"])),
    ]
    for label, x, y in rows:
        t.add_row(_cell(label), _cell(x), _cell(y))
    console.print(t)
    for label, ids in ((f"solved only by {a['run_id']}", cmp["only_a"]), (f"solved only by {b['run_id']}", cmp["only_b"])):
        _say(console, f"{label} ({len(ids)}): {', '.join(ids) if ids else '-'}")
    if cmp["problems_only_in_a"] or cmp["problems_only_in_b"]:
        _say(
            console,
            f"note: {cmp['common_problems']} problems in common; {cmp['problems_only_in_a']} only in the first run, "
            f"{cmp['problems_only_in_b']} only in the second")

"""Counts that agree (issue #40 point 5, #38 point 1): the live view, `prove`'s final line, its
`--json`, `runs` and `show` read one count per run — the requests the run SENT (search/budget.py) —
and say it with the same words ("LLM calls", "Lean checks").

The runs here make the records and the sent requests differ on purpose: the statement check of the
preflight (a Lean request with no attempt record), automation tactics, checks that fail, prover
requests for several samples (one request, one unit), and the prover's whole-proof attempts.
Every number compared is read from the command's output, never computed by the test.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from lemmaforge import cli
from lemmaforge.records import AttemptRecord, LLMCallRecord
from tests.fakes.fake_kimina import FakeKimina
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.fakes.prove_runs import ENV, auto_tac, fake_lean, prove_args, script_sketch
from tests.search.scenarios import DEFS, HEADER, THEOREM, lean_block

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LIVE = re.compile(r"LLM calls (\d+)/(\d+) · Lean checks (\d+)/(\d+)")
SHOWN = re.compile(r"LLM calls (\d+)/\d+[^·]*· Lean checks (\d+)/")
FINAL = re.compile(r"proved t in [\d.]+s: (\d+) LLM calls(?: \(\d+ used\))?, (\d+) Lean checks(?: \(\d+ used\))?,.*? run (\w+)")


def _problem(tmp_path: Path) -> Path:
    problem = tmp_path / "t.lean"
    problem.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
    return problem


def _live_prove(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> tuple[str, str, int]:
    """`prove --live` with stderr a terminal; (what stderr showed, stdout, the records' counts)."""
    auto_tac(monkeypatch)
    screen = io.StringIO()
    monkeypatch.setattr(cli.prove, "err", Console(file=screen, force_terminal=True, width=200))
    records = {"calls": 0, "checks": 0}
    from lemmaforge.viewer import live

    emit = live.RunWatch.emit

    def counting(self: live.RunWatch, record: object) -> None:  # what the old view counted, to compare
        if isinstance(record, LLMCallRecord):
            records["calls"] += 1
        elif isinstance(record, AttemptRecord) and record.code:
            records["checks"] += 1
        emit(self, record)

    monkeypatch.setattr(live.RunWatch, "emit", counting)
    db = f"sqlite:///{tmp_path / 'r.db'}"
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default"), delay=0.05) as llm:
        script_sketch(llm)
        args = [a for a in prove_args(_problem(tmp_path), kimina, llm, db, *extra) if a != "--no-live"]
        r = CliRunner().invoke(cli.app, [*args, "--live"], env=ENV)
    assert r.exit_code == 0, r.output
    return ANSI.sub("", screen.getvalue()), r.stdout, records["calls"] * 1000 + records["checks"]


def _last_live_frame(shown: str) -> tuple[int, int]:
    frames = LIVE.findall(shown)
    assert frames, shown
    calls, _, checks, _ = frames[-1]
    return int(calls), int(checks)


def _stored(db: Path, run_id: str) -> dict[str, tuple[int, int]]:
    """The run's counts as `runs --json`, `show --json` and `show` (text) give them."""
    runner = CliRunner()
    url = f"sqlite:///{db}"
    listed = runner.invoke(cli.app, ["runs", "--db", url, "--json"], env=ENV)
    assert listed.exit_code == 0, listed.output
    row = next(r for r in json.loads(listed.stdout)["runs"] if r["run_id"] == run_id)
    shown = runner.invoke(cli.app, ["show", run_id, "--db", url, "--json"], env=ENV)
    assert shown.exit_code == 0, shown.output
    budget = json.loads(shown.stdout)["budget"]
    text = runner.invoke(cli.app, ["show", run_id, "--db", url], env=ENV)
    assert text.exit_code == 0, text.output
    m = SHOWN.search(ANSI.sub("", text.stdout))
    assert m is not None, text.stdout
    return {
        "runs": (row["llm_calls"], row["lean_checks"]),
        "show --json": (budget["llm_calls"]["spent"], budget["lean_checks"]["spent"]),
        "show": (int(m.group(1)), int(m.group(2))),
    }


@pytest.mark.slow
def test_the_live_view_ends_on_the_final_lines_counts(tmp_path, monkeypatch):
    """The last frame of the live view says what the final line, `runs` and `show` say."""
    shown, _, records = _live_prove(tmp_path, monkeypatch)
    final = FINAL.search(shown)
    assert final is not None, shown
    calls, checks, run_id = int(final.group(1)), int(final.group(2)), final.group(3)
    assert _last_live_frame(shown) == (calls, checks)
    # the records differ from what was sent (the preflight's statement check has no attempt record)
    assert records != calls * 1000 + checks
    stored = _stored(tmp_path / "r.db", run_id)
    assert set(stored.values()) == {(calls, checks)}, stored


@pytest.mark.slow
def test_the_live_view_ends_on_the_json_counts(tmp_path, monkeypatch):
    """With `--json` the live view still runs on stderr: its last frame is the JSON's calls/checks."""
    shown, stdout, _ = _live_prove(tmp_path, monkeypatch, "--json")
    data = json.loads(stdout)
    assert _last_live_frame(shown) == (data["calls"], data["checks"])
    stored = _stored(tmp_path / "r.db", data["run_id"])
    assert set(stored.values()) == {(data["calls"], data["checks"])}, stored


# -- every view of one run, and of one bench, reads the same stored figures ------------------------

COST = re.compile(r"(\d+) LLM calls(?: \((\d+) used\))?, (\d+) Lean checks(?: \((\d+) used\))?"
                  r"(?:, (\d+) prompt \+ (\d+) completion tokens)?")


def _cost(text: str) -> tuple[int, int, int, int, int, int]:
    """(sent calls, used calls, sent checks, used checks, prompt tokens, completion tokens) as a view
    says them ("… (N used)" only where used differs from sent)."""
    m = COST.search(ANSI.sub("", text))
    assert m is not None, text
    calls, used_calls, checks, used_checks, prompt, completion = m.groups()
    return (int(calls), int(used_calls or calls), int(checks), int(used_checks or checks), int(prompt or -1),
            int(completion or -1))


@pytest.mark.slow
def test_prove_final_line_json_runs_and_show_give_one_count(tmp_path, monkeypatch):
    auto_tac(monkeypatch)
    db = tmp_path / "r.db"
    runner = CliRunner()
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        script_sketch(llm)
        args = prove_args(_problem(tmp_path), kimina, llm, f"sqlite:///{db}", "--budget", "prover_samples_per_goal=3")
        text = runner.invoke(cli.app, args, env=ENV)
        assert text.exit_code == 0, text.output
        as_json = runner.invoke(cli.app, [*args, "--json"], env=ENV)
        assert as_json.exit_code == 0, as_json.output
    final = _cost(text.stderr)
    run_id = FINAL.search(ANSI.sub("", text.stderr)).group(3)  # type: ignore[union-attr]
    data = json.loads(as_json.stdout)
    url = f"sqlite:///{db}"
    rows = {r["run_id"]: r for r in json.loads(runner.invoke(cli.app, ["runs", "--db", url, "--json"], env=ENV).stdout)["runs"]}
    for rid, said in ((run_id, final), (data["run_id"], (data["calls"], data["used_calls"], data["checks"],
                                                         data["used_checks"], data["prompt_tokens"],
                                                         data["completion_tokens"]))):
        row = rows[rid]
        shown = json.loads(runner.invoke(cli.app, ["show", rid, "--db", url, "--json"], env=ENV).stdout)["budget"]
        show_text = runner.invoke(cli.app, ["show", rid, "--db", url], env=ENV).stdout
        page = tmp_path / f"{rid}.html"
        assert runner.invoke(cli.app, ["show", rid, "--db", url, "--html", str(page)], env=ENV).exit_code == 0
        html_cost = re.search(r'<p class="cost">(.*?)</p>', page.read_text(encoding="utf-8"))
        assert html_cost is not None
        views = {
            "said": said,
            "runs --json": (row["llm_calls"], row["used_llm_calls"], row["lean_checks"], row["used_lean_checks"],
                            row["prompt_tokens"], row["completion_tokens"]),
            "show --json": (shown["llm_calls"]["spent"], shown["llm_calls"]["used"], shown["lean_checks"]["spent"],
                            shown["lean_checks"]["used"], shown["tokens"]["prompt"], shown["tokens"]["completion"]),
            "show": _cost(show_text),
            "show --html": _cost(html_cost.group(1)),
        }
        assert len(set(views.values())) == 1, views
        assert said[4] > 0 and said[0] > 0 and said[2] > 0  # tokens and requests were counted at all
        assert "cost: " in show_text and " LLM calls" in show_text and " Lean checks" in show_text


@pytest.mark.slow
def test_a_bench_report_sums_the_same_figures_its_runs_show(tmp_path):
    from tests.benchmarks.bench_helpers import ENV as BENCH_ENV
    from tests.benchmarks.bench_helpers import SOLVABLE, bench_args, fake_servers

    db = f"sqlite:///{tmp_path / 'b.db'}"
    runner = CliRunner()
    with fake_servers(SOLVABLE[:1]) as (kimina, llm):
        r = runner.invoke(cli.app, bench_args(kimina, llm, db, "--limit", "2", "--run-id", "B1", "--json"), env=BENCH_ENV)
        assert r.exit_code in (0, 1), r.output
    rows = json.loads(runner.invoke(cli.app, ["runs", "--db", db, "--json", "--limit", "0"], env=ENV).stdout)["runs"]
    children = [row for row in rows if row["parent_run_id"] == "B1" and row["status"] in ("proved", "not_proved")]
    assert len(children) == 2
    keys = ("llm_calls", "used_llm_calls", "lean_checks", "used_lean_checks", "prompt_tokens", "completion_tokens")
    summed = tuple(sum(row[k] for row in children) for k in keys)
    # each child's `show` says what `runs` says of it
    for row in children:
        show_text = runner.invoke(cli.app, ["show", row["run_id"], "--db", db], env=ENV).stdout
        assert _cost(show_text) == tuple(row[k] for k in keys), (row, show_text)
    report = json.loads(runner.invoke(cli.app, ["report", "B1", "--db", db, "--json"], env=ENV).stdout)
    cost = report["cost"]
    # the bench's statement checks (one per problem, in no attempt's budget) are in what it sent
    assert cost["statement_checks"] == 2, cost
    summed = (summed[0], summed[1], summed[2] + 2, *summed[3:])
    assert tuple(cost[k] for k in keys) == summed, (cost, summed)
    text = runner.invoke(cli.app, ["report", "B1", "--db", db], env=ENV)
    assert text.exit_code == 0, text.output
    line = next(ln for ln in ANSI.sub("", text.stdout).splitlines() if ln.startswith("cost: "))
    assert _cost(line) == summed, line
    page = tmp_path / "r.html"
    html = runner.invoke(cli.app, ["report", "B1", "--db", db, "--html", str(page)], env=ENV)
    assert html.exit_code == 0, html.output
    assert _cost(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")).split("Cost and time", 1)[1]) == summed
    assert report["protocol"]["tokens_per_problem"]["prompt"] == round(summed[4] / 2, 1)

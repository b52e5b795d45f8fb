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
from tests.search.scenarios import DEFS, HEADER, THEOREM, lean_block
from tests.viewer.conftest import ENV, _auto_tac, fake_lean, prove_args, script_sketch

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LIVE = re.compile(r"LLM calls (\d+)/(\d+) · Lean checks (\d+)/(\d+)")
SHOWN = re.compile(r"LLM calls (\d+)/\d+[^·]*· Lean checks (\d+)/")
FINAL = re.compile(r"proved t in [\d.]+s: (\d+) LLM calls, (\d+) Lean checks, depth \d+, run (\w+)")


def _problem(tmp_path: Path) -> Path:
    problem = tmp_path / "t.lean"
    problem.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
    return problem


def _live_prove(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> tuple[str, str, int]:
    """`prove --live` with stderr a terminal; (what stderr showed, stdout, the records' counts)."""
    _auto_tac(monkeypatch)
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

"""One way to name a run everywhere (issue 40, point 3): `show`, `report` (and `--compare`),
`bench --resume` and `gen-data --runs` take the full id or any unique prefix of 4+ characters, and
say plainly, in one line with exit 2, when a prefix is too short or names several runs (listing
them) or none."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db import SqlRecorder, Store
from tests.benchmarks.bench_helpers import ENV, bench_args, fake_servers
from tests.benchmarks.test_report import BENCH_C, N, P, emit_bench, emit_problems

runner = CliRunner()

TWIN_A = "abcd1111" + "0" * 24  # two benches that share the prefix `abcd`
TWIN_B = "abcd2222" + "0" * 24
LONE = "feedbeef" + "0" * 24  # the only run starting with `feed`


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('ids') / 'ids.db'}"
    with SqlRecorder(Store(url)) as rec:
        emit_problems(rec)
        emit_bench(rec, TWIN_A, BENCH_C, 1, t0=1000.0)
        emit_bench(rec, TWIN_B, {"toy/p1": [P], "toy/p2": [N], "toy/p3": [N]}, 1, t0=2000.0)
        emit_bench(rec, LONE, BENCH_C, 1, t0=3000.0)
    return url


def invoke(*args: str):
    return runner.invoke(app, list(args), env=ENV)


def one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.mark.parametrize("command", [["report"], ["show"], ["gen-data", "--out", "OUT", "--runs"],
                                     ["report", LONE, "--compare"]])
def test_ambiguous_and_short_prefixes_are_refused_plainly(db, tmp_path, command):
    command = [str(tmp_path / "out") if c == "OUT" else c for c in command]
    line = one_error_line(invoke(*command, "abcd", "--db", db))
    assert "ambiguous" in line and TWIN_A[:16] in line and TWIN_B[:16] in line
    line = one_error_line(invoke(*command, "abc", "--db", db))
    assert "too short" in line and "4 characters" in line
    line = one_error_line(invoke(*command, "0123456", "--db", db))
    assert "unknown run '0123456'" in line


def test_report_and_compare_take_a_unique_prefix(db):
    full = invoke("report", LONE, "--json", "--db", db)
    short = invoke("report", "feed", "--json", "--db", db)
    assert full.exit_code == short.exit_code == 0, short.output
    assert json.loads(short.stdout) == json.loads(full.stdout)
    compared = invoke("report", "feedbe", "--compare", "abcd2", "--json", "--db", db)
    assert compared.exit_code == 0, compared.output
    assert json.dumps(json.loads(compared.stdout)).count("abcd2222") >= 1


def test_show_takes_a_unique_prefix(db):
    r = invoke("show", "abcd1", "--json", "--db", db)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["run"]["run_id"] == TWIN_A


def test_gen_data_takes_a_unique_prefix(db, tmp_path):
    r = invoke("gen-data", "--runs", "feedb", "--out", str(tmp_path / "d"), "--json", "--db", db)
    assert r.exit_code in (0, 1), r.output  # 1: no verified proof to write is fine; the id resolved
    assert "unknown run" not in r.output and "ambiguous" not in r.output


def test_bench_resume_refuses_short_and_ambiguous_prefixes(db):
    assert "too short" in one_error_line(invoke("bench", "--resume", "ab", "--db", db))
    line = one_error_line(invoke("bench", "--resume", "abcd", "--db", db))
    assert "ambiguous" in line and TWIN_A[:16] in line


def test_bench_resume_by_prefix_continues_the_bench(tmp_path):
    db = f"sqlite:///{tmp_path / 'r.db'}"
    with fake_servers() as (kimina, llm):
        first = invoke(*bench_args(kimina, llm, db, "--limit", "1", "--run-id", "c0ffee42run", "--json"))
        assert first.exit_code == 0, first.output
        again = invoke("bench", "--resume", "c0ffee", "--db", db, "--json", "--no-progress")
    assert again.exit_code == 0, again.output
    out = json.loads(again.stdout)
    assert out["resumed"] is True and out["run_id"] == "c0ffee42run"


def test_runs_lists_ids_that_every_command_takes(db):
    """The ids `runs` prints (12 characters) are prefixes every command resolves."""
    r = invoke("runs", "--kind", "bench", "--db", db)
    assert r.exit_code == 0 and LONE[:12] in r.output
    assert invoke("report", LONE[:12], "--db", db).exit_code == 0

"""`report --compare` matches problems by (name, statement), not by the file they were read from:
the same problems in two JSONL files with different names, and a re-run, line up; a revised
statement under the same name does not."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.benchmarks.datasets import load_dataset
from lemmaforge.cli import app
from tests.benchmarks.bench_helpers import ENV, NAMES, SOLVABLE, fake_servers

runner = CliRunner()


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _rows() -> list[dict]:
    return [{"name": p.name, "header": p.header, "formal_statement": p.statement, "split": "valid"}
            for p in load_dataset("minif2f", split="valid", limit=3)]


def _bench(kimina, llm, db: str, dataset: Path, run_id: str) -> None:
    r = runner.invoke(app, ["bench", str(dataset), "--verifier", "kimina", "--kimina-url", kimina.url,
                            "--prover-url", llm.url, "--prover-model", "fake-model", "--db", db, "--no-progress",
                            "--budget", "root_whole_proof_attempts=1", "--budget", "self_corrections=1",
                            "--run-id", run_id, "--json"], env=ENV)
    assert r.exit_code == 0, r.output


def _compare(db: str, a: str, b: str) -> dict:
    r = runner.invoke(app, ["report", a, "--compare", b, "--db", db, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.mark.slow
def test_same_problems_in_two_files_and_a_rerun_line_up(tmp_path) -> None:
    rows = _rows()
    first = _write(tmp_path / "problems_a.jsonl", rows)
    # the same problems, another file name, another order, the header's blank lines differ
    second = _write(tmp_path / "copy_b.jsonl", [{**r, "header": r["header"].rstrip("\n") + "\n\n\n"}
                                                 for r in reversed(rows)])
    # one statement revised under the same name: a different problem
    revised = [dict(r) for r in rows]
    revised[1]["formal_statement"] = revised[1]["formal_statement"].replace(":= by", "∧ True := by", 1)
    third = _write(tmp_path / "revised.jsonl", revised)
    db = f"sqlite:///{tmp_path / 'c.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        _bench(kimina, llm, db, first, "A")
        _bench(kimina, llm, db, second, "B")
        _bench(kimina, llm, db, first, "A2")  # a re-run of the same file
        _bench(kimina, llm, db, third, "R")
    solved = sorted(f"problems_a/{n}" for n in NAMES[:3] if n in SOLVABLE)
    cmp = _compare(db, "A", "B")
    assert cmp["common_problems"] == 3 and cmp["problems_only_in_a"] == cmp["problems_only_in_b"] == 0
    assert cmp["both"] == solved and cmp["only_a"] == cmp["only_b"] == []
    rerun = _compare(db, "A", "A2")
    assert rerun["common_problems"] == 3 and rerun["both"] == solved
    other = _compare(db, "A", "R")
    assert other["common_problems"] == 2 and other["problems_only_in_a"] == other["problems_only_in_b"] == 1
    text = runner.invoke(app, ["report", "A", "--compare", "B", "--db", db]).stdout
    assert "problems in common" not in text  # all in common: no note
    assert re.search(r"protocol\s*│\s*search\s*│\s*search", text)

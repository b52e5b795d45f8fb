"""The small edges a new user hit, each pinned: `--attempts 0`, `--max-steps -5`, the shard hint
for one past the last shard, `statement_changed` showing what changed, and help that does not cut
option names at 80 columns."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.fakes.fake_kimina import FakeKimina

runner = CliRunner()


def one_line_error(result, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    for n in needles:
        assert n in lines[0], lines[0]


def test_bench_attempts_zero_is_rejected_not_run_once(tmp_path):
    r = runner.invoke(app, ["bench", "minif2f", "--attempts", "0", "--limit", "1", "--prover-url",
                            "http://127.0.0.1:9/v1", "--db", f"sqlite:///{tmp_path / 'b.db'}"])
    one_line_error(r, "--attempts must be at least 1 (got 0)")
    assert not (tmp_path / "b.db").exists()  # nothing was started


@pytest.mark.parametrize("command", ["sft", "grpo", "expert-iter"])
def test_max_steps_below_minus_one_is_rejected(command, tmp_path):
    data = tmp_path / "rows.jsonl"
    data.write_text("{}\n", encoding="utf-8")
    args = {"sft": ["train", "sft", "--data", str(data), "--output", str(tmp_path / "o")],
            "grpo": ["train", "grpo", "--data", str(data), "--output", str(tmp_path / "o")],
            "expert-iter": ["train", "expert-iter", "--out", str(tmp_path / "o")]}[command]
    for bad in ("-5", "0"):
        r = runner.invoke(app, [*args, "--max-steps", bad])
        one_line_error(r, f"--max-steps must be a positive number of steps or -1 (train by epochs), not {bad}")


@pytest.mark.parametrize("shard, hint", [("4/4", "0/4 … 3/4 (the last shard is 3/4)"),
                                         ("2/2", "0/2 … 1/2 (the last shard is 1/2)"),
                                         ("0/0", "must be at least 1")])
def test_shard_hint_names_the_real_last_shard(shard, hint):
    r = runner.invoke(app, ["bench", "minif2f", "--shard", shard, "--prover-url", "http://127.0.0.1:9/v1"])
    one_line_error(r, "bad shard", hint)


def test_statement_changed_shows_a_short_diff(tmp_path):
    original = tmp_path / "o.lean"
    original.write_text("import Mathlib\n\ntheorem foo (x : ℕ) :\n    x + 0 = x := by\n  sorry\n", encoding="utf-8")
    cheat = tmp_path / "c.lean"
    cheat.write_text("import Mathlib\n\ntheorem foo (x : ℕ) :\n    x + 0 = x + 0 := by\n  rfl\n", encoding="utf-8")
    with FakeKimina() as kimina:
        base = ["check", str(cheat), "--against", str(original), "--verifier", "kimina", "--kimina-url", kimina.url]
        text = runner.invoke(app, base, env={"COLUMNS": "200"})
        as_json = runner.invoke(app, [*base, "--json"])
    assert text.exit_code == 1
    assert "statement_changed" in text.stdout
    assert "-    x + 0 = x" in text.stdout and "+    x + 0 = x + 0" in text.stdout
    detail = next(r["detail"] for r in json.loads(as_json.stdout)["reasons"] if r["reason"] == "statement_changed")
    assert "--- original" in detail and "+++ candidate" in detail and "\n" in detail


@pytest.mark.parametrize("command", [["bench"], ["prove"], ["runs"], ["train", "es"], ["train", "grpo"],
                                     ["train", "expert-iter"], ["gen-data"]])
def test_help_does_not_cut_option_names_at_80_columns(command):
    r = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "80", "TERMINAL_WIDTH": ""})
    assert r.exit_code == 0, r.output
    # every option the command declares appears whole in its help
    from typer.main import get_command

    cmd = get_command(app)
    for part in command:
        cmd = cmd.commands[part]  # type: ignore[attr-defined]
    names = {o for p in cmd.params for o in (*p.opts, *p.secondary_opts) if o.startswith("--")}
    shown = set(re.findall(r"--[A-Za-z0-9][A-Za-z0-9-]*(?!…)", r.output))
    missing = sorted(n for n in names if n not in shown)
    assert not missing, f"cut or missing in help: {missing}"
    assert not re.search(r"--[A-Za-z0-9-]+…", r.output)

"""`lemmaforge train sft|grpo|es`: one-line errors with exit 2 on bad input, and tiny smoke runs."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from lemmaforge.cli_train import app
from tests.fakes.fake_kimina import FakeKimina

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def one_line_error(result) -> str:
    lines = [ln for ln in result.output.strip().splitlines() if ln.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("error:"), result.output
    return lines[0]


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def sft_rows(problems, n=2):
    return [
        {"prompt": p.prompt(), "completion": [{"role": "assistant", "content": f"```lean4\n{p.proof[:200]}\n```"}]}
        for p in problems[:n]
    ]


def grpo_rows(problems, n=2):
    return [{"prompt": p.prompt(), "header": p.header, "statement": p.statement} for p in problems[:n]]


@pytest.mark.parametrize("command", ["sft", "grpo", "es"])
def test_missing_data_file(command, tmp_path):
    r = run(command, "--data", str(tmp_path / "nope.jsonl"), "--output", str(tmp_path / "o"), "--tiny")
    assert r.exit_code == 2
    assert "data file not found" in one_line_error(r)


def test_malformed_jsonl(tmp_path):
    f = tmp_path / "d.jsonl"
    f.write_text('{"prompt": "a", "completion": "b"}\n{not json\n', encoding="utf-8")
    r = run("sft", "--data", str(f), "--output", str(tmp_path / "o"), "--tiny")
    assert r.exit_code == 2
    assert f"{f}:2: not valid JSON" in one_line_error(r)


def test_rows_of_the_wrong_shape(tmp_path, problems):
    f = write_jsonl(tmp_path / "d.jsonl", [{"prompt": "a"}])
    r = run("sft", "--data", str(f), "--output", str(tmp_path / "o"), "--tiny")
    assert r.exit_code == 2
    assert "row 0: missing 'completion'" in one_line_error(r)
    # SFT rows are not GRPO rows: no statement to verify against
    f = write_jsonl(tmp_path / "s.jsonl", sft_rows(problems))
    r = run("grpo", "--data", str(f), "--output", str(tmp_path / "o"), "--tiny")
    assert r.exit_code == 2
    assert "missing 'statement'" in one_line_error(r)


def test_model_or_tiny_required(tmp_path, problems):
    pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")
    f = write_jsonl(tmp_path / "d.jsonl", sft_rows(problems))
    r = run("sft", "--data", str(f), "--output", str(tmp_path / "o"))
    assert r.exit_code == 2
    assert "--model" in one_line_error(r)
    r = run("sft", "--data", str(f), "--output", str(tmp_path / "o"), "--model", str(tmp_path / "no-model"))
    assert r.exit_code == 2
    assert "model not found" in one_line_error(r)


def test_missing_train_extra(tmp_path, problems, monkeypatch):
    monkeypatch.setitem(sys.modules, "trl", None)  # `import trl` now raises ImportError
    f = write_jsonl(tmp_path / "d.jsonl", sft_rows(problems))
    r = run("sft", "--data", str(f), "--output", str(tmp_path / "o"), "--tiny")
    assert r.exit_code == 2
    line = one_line_error(r)
    assert "pip install 'lemmaforge[train]'" in line and "trl" in line


def test_grpo_bad_options(tmp_path, problems):
    f = write_jsonl(tmp_path / "d.jsonl", grpo_rows(problems))
    r = run("grpo", "--data", str(f), "--output", str(tmp_path / "o"), "--tiny", "--preset", "tpu")
    assert r.exit_code == 2 and "unknown preset 'tpu'" in one_line_error(r)
    r = run("grpo", "--data", str(f), "--output", str(tmp_path / "o"), "--tiny", "--preset", "server")
    assert r.exit_code == 2 and "--vllm-url" in one_line_error(r)
    r = run("grpo", "--data", str(f), "--output", str(tmp_path / "o"), "--tiny", "--verifier", "coq")
    assert r.exit_code == 2 and "unknown verifier 'coq'" in one_line_error(r)


def test_sft_tiny_smoke(tmp_path, problems):
    pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")
    f = write_jsonl(tmp_path / "d.jsonl", sft_rows(problems))
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    r = run("sft", "--data", str(f), "--output", str(tmp_path / "o"), "--tiny", "--max-steps", "2",
            "--max-length", "512", "--db", db, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["global_step"] == 2 and len(out["losses"]) == 2
    assert (tmp_path / "o" / "config.json").is_file()
    # recorded in the store: config, data hash, metrics, output
    from lemmaforge.db import Store
    from lemmaforge.training.runs import file_sha256

    store = Store(db)
    (row,) = store.runs(kind="train_sft")
    assert row.run_id == out["run_id"] and row.status == "finished"
    train = row.config["train"]
    assert train["data_sha256"] == file_sha256(f) and train["rows"] == 2 and train["settings"]["max_steps"] == 2
    assert train["output"] == str((tmp_path / "o").resolve())
    assert row.summary["metrics"]["global_step"] == 2 and "log_history" not in row.summary["metrics"]
    store.close()


def test_grpo_and_es_tiny_smoke_against_fake_kimina(tmp_path, problems, monkeypatch):
    pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")
    monkeypatch.chdir(tmp_path)  # no ./lemmaforge.toml
    f = write_jsonl(tmp_path / "d.jsonl", grpo_rows(problems))
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    es_flags = ("--population", "2", "--problems-per-iteration", "1", "--samples", "1", "--max-new-tokens", "4")
    with FakeKimina() as kimina:
        lean = ("--verifier", "kimina", "--kimina-url", kimina.url, "--db", db)
        r = run("grpo", "--data", str(f), "--output", str(tmp_path / "g"), "--tiny", "--max-steps", "1",
                "--max-completion-length", "8", *lean, "--json")
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        assert out["global_step"] == 1
        assert out["rewards"]["rewards/lean_reward/mean"] == [0.0]  # a random model proves nothing

        r = run("es", "--data", str(f), "--output", str(tmp_path / "e"), "--tiny", "--iterations", "1", *es_flags,
                *lean, "--json")
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        assert out["global_step"] == 1 and out["replay_exact"] is True and out["device"] == "cpu"
        history = json.loads((tmp_path / "e" / "es_history.json").read_text())
        assert len(history["iterations"]) == 1
        # --iterations is the total: resuming a run of 1 with --iterations 2 adds one, and the
        # settings not given again (problems, samples, max new tokens, data, model) are the run's
        r = run("es", "--output", str(tmp_path / "e"), "--iterations", "2", *lean, "--resume", "--json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["iterations_run"] == 1
        history = json.loads((tmp_path / "e" / "es_history.json").read_text())
        assert len(history["iterations"]) == 2
        assert history["settings"]["samples"] == 1 and history["settings"]["max_new_tokens"] == 4
        assert history["settings"]["problems_per_iteration"] == 1 and history["settings"]["tiny"] is True
        r = run("es", "--output", str(tmp_path / "e"), "--iterations", "2", *lean, "--resume", "--json")
        assert r.exit_code == 0 and json.loads(r.stdout)["iterations_run"] == 0  # already there
        assert len(json.loads((tmp_path / "e" / "es_history.json").read_text())["iterations"]) == 2

        # a flag that changes the experiment is refused on resume, naming each conflict
        r = run("es", "--output", str(tmp_path / "e"), "--resume", "--samples", "3", "--sigma", "0.5", *lean)
        line = one_line_error(r)
        assert r.exit_code == 2 and "--samples 3 (the run has 1)" in line and "--sigma 0.5" in line
        other = write_jsonl(tmp_path / "other.jsonl", grpo_rows(problems, 3))
        r = run("es", "--output", str(tmp_path / "e"), "--resume", "--data", str(other), *lean)
        assert r.exit_code == 2 and "is not the data of the run" in one_line_error(r)
        # the same flags as stored are fine
        r = run("es", "--output", str(tmp_path / "e"), "--resume", "--samples", "1", "--data", str(f), *lean, "--json")
        assert r.exit_code == 0, r.output

    # every command is a run row with its config, data hash, metrics and output
    from lemmaforge.cli import app as main_app
    from lemmaforge.training.runs import file_sha256

    r = runner.invoke(main_app, ["train", "runs", "--db", db, "--json"])
    assert r.exit_code == 0, r.output
    runs = json.loads(r.stdout)["runs"]
    assert [x["kind"] for x in runs] == ["train_grpo"] + ["train_es"] * 4
    assert all(x["status"] == "finished" and x["data_sha256"] == file_sha256(f) for x in runs)
    assert runs[0]["output"] == str((tmp_path / "g").resolve()) and runs[0]["metrics"]["global_step"] == 1
    assert runs[2]["settings"]["samples"] == 1 and runs[2]["metrics"]["global_step"] == 2
    r = runner.invoke(main_app, ["report", runs[1]["run_id"], "--db", db, "--json"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    assert rep["kind"] == "train_es" and rep["metrics"]["replay_exact"] is True


def test_es_resume_without_history(tmp_path, problems):
    f = write_jsonl(tmp_path / "d.jsonl", grpo_rows(problems))
    r = run("es", "--data", str(f), "--output", str(tmp_path / "e"), "--tiny", "--resume")
    assert r.exit_code == 2 and "nothing to resume" in one_line_error(r)

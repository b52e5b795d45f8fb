"""`lemmaforge train sft|grpo|es`: one-line errors with exit 2 on bad input, and tiny smoke runs."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from lemmaforge.cli.train import app
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


@pytest.mark.slow
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


@pytest.mark.slow
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


def test_grpo_data_format_errors_say_what_is_wanted(tmp_path):
    f = write_jsonl(tmp_path / "d.jsonl", [{"theorem": "theorem t : 1 = 1 := by sorry"}])
    r = run("grpo", "--data", str(f), "--output", str(tmp_path / "o"), "--tiny")
    line = one_line_error(r)
    assert r.exit_code == 2
    assert '{"prompt", "header", "statement"}' in line and '{"name", "header", "formal_statement"}' in line


@pytest.mark.slow
def test_grpo_accepts_benchmark_jsonl_with_informal_prompts(tmp_path, problems, monkeypatch):
    pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")
    from tests.conftest import BENCHMARKS

    monkeypatch.chdir(tmp_path)
    names = {p.name for p in problems[:2]}
    bench = [json.loads(line) for line in (BENCHMARKS / "minif2f.jsonl").open(encoding="utf-8")]
    rows = [r for r in bench if r["name"] in names]
    f = write_jsonl(tmp_path / "minif2f_part.jsonl", rows)
    seen: list = []

    from lemmaforge.training import grpo as grpo_module

    real = grpo_module.run_grpo

    def spy(model, tok, rows, *a, **kw):
        seen.extend(rows)
        return real(model, tok, rows, *a, **kw)

    monkeypatch.setattr(grpo_module, "run_grpo", spy)
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    with FakeKimina() as kimina:
        r = run("grpo", "--data", str(f), "--output", str(tmp_path / "g"), "--tiny", "--max-steps", "1",
                "--max-completion-length", "8", "--verifier", "kimina", "--kimina-url", kimina.url, "--db", db, "--json")
    assert r.exit_code == 0, r.output
    assert sorted(row["name"] for row in seen) == sorted(names)
    for row in seen:
        src = next(b for b in rows if b["name"] == row["name"])
        assert row["statement"] == src["formal_statement"] and row["header"] == src["header"]
        # DeepSeek-Prover-V2's layout: the informal statement as docstring inside the code block
        assert (src["header"] + src["informal_prefix"] + src["formal_statement"]).strip() in row["prompt"][0]["content"]


@pytest.mark.slow
def test_grpo_filter_pass_rate_keeps_problems_solved_sometimes(tmp_path, problems, monkeypatch):
    """`--filter-pass-rate 4`: each problem is sampled 4 times with the starting model (here a
    scripted sampler: always the reference proof, half the time, never) and verified; only the
    problem with 0 < rate < 1 is trained on, and the kept set is recorded."""
    pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")
    monkeypatch.chdir(tmp_path)
    always, sometimes, never = problems[:3]
    rows = [{**row, "name": p.name} for row, p in zip(grpo_rows(problems, 3), problems[:3], strict=True)]
    f = write_jsonl(tmp_path / "d.jsonl", rows)
    proof = {p.name: f"```lean4\n{p.proof}\n```" for p in problems[:3]}

    def fake_sampler(model, tok, **kw):
        def generate(prompt, n):
            text = prompt[0]["content"]
            owner = next(p for p in (always, sometimes, never) if p.statement.strip() in text)
            if owner is always:
                return [proof[owner.name]] * n
            if owner is sometimes:
                return [proof[owner.name] if i % 2 == 0 else "no proof" for i in range(n)]
            return ["no proof"] * n

        return generate

    from lemmaforge.training import generation
    from lemmaforge.training import grpo as grpo_module

    monkeypatch.setattr(generation, "hf_sampler", fake_sampler)
    trained: list = []
    real = grpo_module.run_grpo

    def spy(model, tok, rows, *a, **kw):
        trained.extend(rows)
        return real(model, tok, rows, *a, **kw)

    monkeypatch.setattr(grpo_module, "run_grpo", spy)
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    with FakeKimina() as kimina:
        r = run("grpo", "--data", str(f), "--output", str(tmp_path / "g"), "--tiny", "--max-steps", "1",
                "--max-completion-length", "8", "--verifier", "kimina", "--kimina-url", kimina.url, "--db", db,
                "--filter-pass-rate", "4", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert [row["name"] for row in trained] == [sometimes.name]
    assert out["filter"]["kept_names"] == [sometimes.name] and out["filter"]["problems"] == 3
    rates = [json.loads(line) for line in (tmp_path / "g" / "pass_rates.jsonl").open()]
    assert [(x["name"], x["pass_rate"], x["kept"]) for x in rates] == [
        (always.name, 1.0, False), (sometimes.name, 0.5, True), (never.name, 0.0, False)
    ]
    from lemmaforge.db import Store

    store = Store(db)
    (row,) = store.runs(kind="train_grpo")
    assert row.summary["metrics"]["filter"]["kept_names"] == [sometimes.name]
    assert row.config["train"]["settings"]["filter_pass_rate"] == 4
    store.close()


def test_grpo_vllm_presets_without_vllm_point_to_the_gpu_preset(tmp_path, problems, monkeypatch):
    pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")
    from lemmaforge.training import grpo as grpo_module

    monkeypatch.setattr(grpo_module, "vllm_available", lambda: False)
    f = write_jsonl(tmp_path / "d.jsonl", grpo_rows(problems))
    r = run("grpo", "--data", str(f), "--output", str(tmp_path / "o"), "--tiny", "--preset", "colocate",
            "--db", f"sqlite:///{tmp_path / 'r.db'}")
    assert r.exit_code == 2 and "--preset gpu" in one_line_error(r)


def test_gpu_preset_generates_with_transformers(monkeypatch, tmp_path):
    from lemmaforge.training import grpo as grpo_module

    captured: dict = {}
    monkeypatch.setattr(grpo_module, "_grpo_config", lambda **kw: captured.update(kw) or kw)
    grpo_module.PRESETS["gpu"](tmp_path, max_steps=2, num_generations=2)
    assert captured["use_vllm"] is False and captured["bf16"] is True
    assert captured["max_steps"] == 2 and captured["num_generations"] == 2
    assert "vllm_mode" not in captured


def test_es_device_cuda_without_a_gpu(tmp_path, problems, monkeypatch):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    f = write_jsonl(tmp_path / "d.jsonl", grpo_rows(problems))
    r = run("es", "--data", str(f), "--output", str(tmp_path / "e"), "--tiny", "--device", "cuda",
            "--db", f"sqlite:///{tmp_path / 'r.db'}")
    assert r.exit_code == 2 and "--device cuda: no CUDA device" in one_line_error(r)
    r = run("es", "--data", str(f), "--output", str(tmp_path / "e"), "--tiny", "--device", "tpu",
            "--db", f"sqlite:///{tmp_path / 'r.db'}")
    assert r.exit_code == 2 and "choose auto, cpu, cuda or cuda:N" in one_line_error(r)

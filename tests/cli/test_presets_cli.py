"""Prover presets through the CLI: `lemmaforge presets`, `prove --prover-preset NAME`, the preset
inferred from the served model, and the requests each preset sends — endpoint, sampling and body,
byte for byte — recorded by the fake OpenAI server for real miniF2F problems with their informal
statements (DeepSeek-Prover-V1.5's `datasets/minif2f.jsonl`, in shared/data).

The published texts the bodies are compared with are pinned in tests/agent/test_presets.py (with
their repositories, files and commits); here each preset's request is rebuilt from those
templates independently of the product's prompt code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.agent.test_presets import (
    DSP2_PROMPT,
    GOEDEL_COT,
    KIMINA_PREVIEW_SYSTEM,
    KIMINA_SYSTEM,
    V15_COT,
    V15_NON_COT,
)
from tests.fakes.fake_kimina import FakeKimina, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()
ENV = {
    "LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01", "LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all",
    "LEMMAFORGE_PROVER__BACKOFF": "0.01", "LEMMAFORGE_PLANNER__BACKOFF": "0.01",
    "LEMMAFORGE_PROVER__RETRIES": "1", "LEMMAFORGE_PLANNER__RETRIES": "1",
}
NAMES = ("mathd_algebra_478", "amc12a_2019_p21")


@pytest.fixture(scope="module")
def rows(shared_data: Path) -> list[dict]:
    table = {r["name"]: r for r in map(json.loads, (shared_data / "benchmarks" / "minif2f.jsonl").open(encoding="utf-8"))}
    return [table[n] for n in NAMES]


def prove(tmp_path: Path, row: dict, kimina: FakeKimina, llm: FakeOpenAIServer, *extra: str, model: str | None = "m"):
    problem = tmp_path / f"{row['name']}.lean"
    problem.write_text(row["header"] + row["formal_statement"] + "\n", encoding="utf-8")
    args = ["prove", str(problem), "--informal", row["informal_statement"], "--verifier", "kimina",
            "--kimina-url", kimina.url, "--prover-url", llm.url, "--db", f"sqlite:///{tmp_path / 'r.db'}",
            "--json", "--no-live", "--budget", "root_whole_proof_attempts=1", "--budget", "max_depth=0", *extra]
    if model is not None:
        args += ["--prover-model", model]
    return runner.invoke(app, args, env=ENV)


def generation(llm: FakeOpenAIServer):
    [req] = [r for r in llm.requests if r.endpoint in ("chat", "completions")]
    return req


def lean4_code(row: dict) -> str:
    return row["header"] + row["informal_prefix"] + row["formal_statement"]


def expected_request(name: str, row: dict):
    """(endpoint, body without model / n / stop, the messages or prompt) as the authors' code
    builds the request."""
    code = lean4_code(row)
    if name == "deepseek-prover-v2-cot":
        return "chat", [{"role": "user", "content": DSP2_PROMPT.format(code.strip())}]
    if name == "deepseek-prover-v2":
        return "chat", [{"role": "user", "content": DSP2_PROMPT[: DSP2_PROMPT.index("\n\nBefore")].format(code.strip())}]
    if name == "goedel-prover-v2":
        statement = code.split(":= by")[0] + ":= by sorry"
        return "chat", [{"role": "user", "content": GOEDEL_COT.format(formal_statement=statement)}]
    if name == "kimina-prover-preview":
        statement = code.split(":= by")[0] + ":= by"
        prompt = ("Think about and solve the following problem step by step in Lean 4."
                  f"\n# Problem:{row['informal_statement']}" f"\n# Formal statement:\n```lean4\n{statement}\n```\n")
        return "chat", [{"role": "system", "content": KIMINA_PREVIEW_SYSTEM}, {"role": "user", "content": prompt}]
    if name == "kimina-prover":
        prompt = "Think about and solve the following problems step by step in Lean 4.\n\n" + code.split(":= by")[0] + ":= by sorry"
        return "chat", [{"role": "system", "content": KIMINA_SYSTEM}, {"role": "user", "content": prompt}]
    template = V15_COT if name.endswith("-cot") else V15_NON_COT
    statement = row["formal_statement"].split(":= by")[0] + ":= by\n"
    return "completions", template.format(header=row["header"], informal_prefix=row["informal_prefix"],
                                          formal_statement=statement)


PUBLISHED_SAMPLING = {  # (temperature, top_p, max_tokens); None: not sent
    "deepseek-prover-v2": (1.0, 0.95, 8192),
    "deepseek-prover-v2-cot": (1.0, 0.95, 28672),
    "goedel-prover-v2": (1.0, 0.95, 32768),
    "kimina-prover-preview": (0.6, 0.95, 8096),
    "kimina-prover": (0.8, None, 16000),
    "deepseek-prover-v1.5": (1.0, 0.95, 2048),
    "deepseek-prover-v1.5-cot": (1.0, 0.95, 2048),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED_SAMPLING))
def test_each_preset_sends_the_published_request(tmp_path, rows, name):
    for row in rows:
        with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default="", models=("m",)) as llm:
            r = prove(tmp_path, row, kimina, llm, "--prover-preset", name)
            assert r.exit_code == 1, r.output  # nothing usable came back: not proved
            assert f"prover preset: {name} (as configured" in r.stderr
            req = generation(llm)
        endpoint, body = expected_request(name, row)
        assert req.endpoint == endpoint
        if endpoint == "chat":
            assert req.body["messages"] == body
        else:
            assert req.body["prompt"] == body
        temperature, top_p, max_tokens = PUBLISHED_SAMPLING[name]
        for key, value in (("temperature", temperature), ("top_p", top_p), ("max_tokens", max_tokens)):
            if value is None:
                assert key not in req.body, req.body
            else:
                assert req.body[key] == value, (key, req.body)
        assert req.body["n"] == 1 and req.body["model"] == "m"


@pytest.mark.parametrize(
    ("served", "preset"),
    [("Goedel-LM/Goedel-Prover-V2-8B", "goedel-prover-v2"), ("AI-MO/Kimina-Prover-72B", "kimina-prover"),
     ("AI-MO/Kimina-Prover-Preview-Distill-7B", "kimina-prover-preview"),
     ("deepseek-ai/DeepSeek-Prover-V1.5-RL", "deepseek-prover-v1.5")],
)
def test_the_preset_is_inferred_from_the_served_model(tmp_path, rows, served, preset):
    with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default="", models=(served,)) as llm:
        r = prove(tmp_path, rows[0], kimina, llm, model=None)
        req = generation(llm)
    assert r.exit_code == 1, r.output
    said = [ln for ln in r.stderr.splitlines() if ln.startswith("prover preset:")]
    assert len(said) == 1 and said[0].startswith(f"prover preset: {preset} (inferred from the served model {served}")
    assert req.body["model"] == served
    assert (req.endpoint, req.body.get("messages") or req.body.get("prompt")) == expected_request(preset, rows[0])


def test_an_unknown_model_keeps_the_default_and_says_so(tmp_path, rows):
    with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default="", models=("my-finetune",)) as llm:
        r = prove(tmp_path, rows[0], kimina, llm, model=None)
        req = generation(llm)
    assert r.exit_code == 1, r.output
    assert "prover preset: none for model my-finetune (no known family)" in r.stderr
    # today's default: DeepSeek-Prover-V2's non-CoT prompt, 1.0 / 0.95 / 8192
    assert req.body["messages"] == expected_request("deepseek-prover-v2", rows[0])[1]
    assert (req.body["temperature"], req.body["top_p"], req.body["max_tokens"]) == (1.0, 0.95, 8192)


def test_config_values_win_over_the_preset(tmp_path, rows, monkeypatch):
    config = tmp_path / "lemmaforge.toml"
    config.write_text('[prover]\npreset = "kimina-prover"\ntop_p = 0.9\n', encoding="utf-8")
    monkeypatch.setenv("LEMMAFORGE_CONFIG", str(config))
    with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default="", models=("m",)) as llm:
        r = prove(tmp_path, rows[0], kimina, llm)
        req = generation(llm)
    assert r.exit_code == 1, r.output
    assert (req.body["temperature"], req.body["top_p"], req.body["max_tokens"]) == (0.8, 0.9, 16000)


def test_unknown_preset_is_bad_input(tmp_path, rows):
    with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default="", models=("m",)) as llm:
        r = prove(tmp_path, rows[0], kimina, llm, "--prover-preset", "gpt-prover")
        assert not [q for q in llm.requests if q.endpoint in ("chat", "completions")]
    assert r.exit_code == 2
    assert r.stderr.strip().splitlines() == [
        "error: unknown prover preset 'gpt-prover' (choose one of: deepseek-prover-v2, deepseek-prover-v2-cot, "
        "goedel-prover-v2, kimina-prover-preview, kimina-prover, deepseek-prover-v1.5, deepseek-prover-v1.5-cot)"]


def test_unknown_preset_in_the_config_is_bad_input(tmp_path, rows, monkeypatch):
    config = tmp_path / "lemmaforge.toml"
    config.write_text('[prover]\npreset = "gpt-prover"\n', encoding="utf-8")
    monkeypatch.setenv("LEMMAFORGE_CONFIG", str(config))
    with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default="", models=("m",)) as llm:
        r = prove(tmp_path, rows[0], kimina, llm)
    assert r.exit_code == 2 and "unknown prover preset 'gpt-prover'" in r.stderr


def test_a_server_with_several_models_and_none_named_stops(tmp_path, rows):
    with FakeKimina(responder=ScriptedLean()) as kimina, \
            FakeOpenAIServer(default="", models=("deepseek-ai/DeepSeek-R1", "Goedel-LM/Goedel-Prover-V2-8B")) as llm:
        r = prove(tmp_path, rows[0], kimina, llm, "--planner-url", llm.url, model=None)
        assert not [q for q in llm.requests if q.endpoint in ("chat", "completions")]
    assert r.exit_code == 2, r.output
    [line] = [ln for ln in r.stderr.splitlines() if ln.startswith("error:")]
    assert "deepseek-ai/DeepSeek-R1, Goedel-LM/Goedel-Prover-V2-8B" in line and "--planner-model" in line


def test_a_run_without_a_planner_says_it_will_not_decompose(tmp_path, rows):
    with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default="", models=("m",)) as llm:
        r = prove(tmp_path, rows[0], kimina, llm)
    assert r.exit_code == 1
    assert any(ln.startswith("no planner:") and "no decomposition" in ln for ln in r.stderr.splitlines())


def test_a_reasoning_planner_gets_no_system_prompt_and_the_servers_sampling(tmp_path, rows):
    row = rows[0]
    with FakeKimina(responder=ScriptedLean()) as kimina, \
            FakeOpenAIServer(default="", models=("deepseek-ai/DeepSeek-R1", "m")) as llm:
        r = prove(tmp_path, row, kimina, llm, "--planner-url", llm.url, "--planner-model", "deepseek-ai/DeepSeek-R1",
                  "--budget", "max_depth=1", "--budget", "sketch_alternatives=1")
        planner = [q for q in llm.requests if q.body.get("model") == "deepseek-ai/DeepSeek-R1"]
    assert r.exit_code == 1, r.output
    assert planner and all(m["role"] != "system" for q in planner for m in q.body["messages"])
    body = planner[0].body
    assert "temperature" not in body and "top_p" not in body and body["max_tokens"] == 32768
    assert body["messages"][0]["content"].startswith("You are an expert mathematician")


def test_presets_command_lists_every_preset_with_its_source():
    r = runner.invoke(app, ["presets", "--json"])
    assert r.exit_code == 0, r.output
    listed = {p["name"]: p for p in json.loads(r.stdout)["presets"]}
    assert set(listed) == set(PUBLISHED_SAMPLING)
    for name, (temperature, top_p, max_tokens) in PUBLISHED_SAMPLING.items():
        p = listed[name]
        assert (p["temperature"], p["top_p"], p["max_tokens"]) == (temperature, top_p, max_tokens)
        assert p["endpoint"] in ("chat", "completion") and p["sources"]
    assert listed["deepseek-prover-v1.5"]["endpoint"] == "completion"
    text = runner.invoke(app, ["presets"])
    assert text.exit_code == 0 and "goedel-prover-v2" in text.stdout and "source: Goedel-LM/Goedel-Prover-V2@" in text.stdout


def test_bench_takes_the_preset_and_records_it_with_each_attempt(tmp_path, shared_data):
    from lemmaforge.db import Store
    from tests.benchmarks.bench_helpers import bench_args

    table = {r["name"]: r for r in map(json.loads, (shared_data / "benchmarks" / "minif2f.jsonl").open(encoding="utf-8"))}
    db = f"sqlite:///{tmp_path / 'b.db'}"
    with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default="", models=("fake-model",)) as llm:
        r = runner.invoke(app, bench_args(kimina, llm, db, "--limit", "1", "--run-id", "B", "--json",
                                          "--prover-preset", "goedel-prover-v2"), env=ENV)
        [req] = [q for q in llm.requests if q.endpoint == "chat"]  # no correction: nothing compiled
    assert r.exit_code == 0, r.output
    assert "prover preset: goedel-prover-v2 (as configured" in r.stderr
    [child] = Store(db).runs(parent="B")
    assert child.config["prover"]["preset"] == "goedel-prover-v2" and child.config["prover"]["model"] == "fake-model"
    name = child.problem_id.split("/")[1]
    assert req.body["messages"] == expected_request("goedel-prover-v2", table[name])[1]
    assert (req.body["temperature"], req.body["top_p"], req.body["max_tokens"]) == (1.0, 0.95, 32768)


def test_the_client_refuses_to_guess_among_several_models():
    import asyncio

    from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM
    from lemmaforge.agent.llm import LLMMisconfiguredError

    async def ask(url: str) -> None:
        llm = OpenAICompatibleLLM(url, None, role="prover", retries=0)
        try:
            await llm.generate("hi")
        finally:
            await llm.close()

    with FakeOpenAIServer(default="x", models=("a", "b")) as llm:
        with pytest.raises(LLMMisconfiguredError, match=r"serves 2 models \(a, b\) and none is named for the prover"):
            asyncio.run(ask(llm.url))
        assert not [q for q in llm.requests if q.endpoint == "chat"]

"""Expert iteration on CPU: a tiny base model, a fake prover whose skill depends on the checkpoint
it serves, scripted Lean. Rounds are recorded in the store (data, model, metrics), the next round
samples from the new checkpoint, and a stopped loop resumes at the round it was in.

Scenario (3 miniF2F statements A, B, C with reference proofs): the base model proves A; the
round-1 checkpoint proves A and B; the round-2 checkpoint proves all three.
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")

from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM  # noqa: E402
from lemmaforge.cli.train import app  # noqa: E402
from lemmaforge.db import Store  # noqa: E402
from lemmaforge.training.expert._config import ExpertIterConfig, ExpertIterError  # noqa: E402
from lemmaforge.training.expert._loop import PARENT_KIND, ROUND_KIND, ExpertIteration  # noqa: E402
from lemmaforge.training.rows import sft_row  # noqa: E402
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean  # noqa: E402
from tests.fakes.fake_openai import FakeOpenAIServer, Rule  # noqa: E402
from tests.fakes.scripted import ScriptedVerifier  # noqa: E402
from tests.training.fake_prover_server import replier  # noqa: E402

runner = CliRunner()


def kimina() -> FakeKimina:
    return FakeKimina(responder=ScriptedLean(rules=[MessageRule(r"\bbogus_tactic\b", "unknown tactic")]))
FAST = {"max_steps": 2, "max_length": 512, "max_tokens": 64, "concurrency": 4}


@pytest.fixture
def scenario(problems, tmp_path):
    a, b, c = problems[:3]
    statements = tmp_path / "statements.jsonl"
    statements.write_text("".join(json.dumps(p.row) + "\n" for p in (a, b, c)), encoding="utf-8")
    script = {
        "proofs": {p.name: p.proof for p in (a, b, c)},
        "solves": {"/base": [a.name], "/rounds/1/model": [a.name, b.name], "/rounds/2/model": [a.name, b.name, c.name]},
    }
    script_path = tmp_path / "script.json"
    script_path.write_text(json.dumps(script), encoding="utf-8")
    return {"names": [a.name, b.name, c.name], "statements": statements, "script": script, "script_path": script_path}


class Prover:
    """The in-process hand-over: one fake server; the checkpoint path is the requested model name."""

    def __init__(self, script):
        self.server = FakeOpenAIServer([Rule(None, lambda req: replier(script, req.body["model"])(req))])
        self.made: list[tuple[str, str]] = []

    def __call__(self, model: str, role: str):
        self.made.append((model.split("/out/", 1)[1], role))
        return OpenAICompatibleLLM(self.server.url, model, role=role, retries=0)

    def models_asked(self) -> list[str]:
        return [r.body["model"] for r in self.server.requests if r.endpoint == "chat"]


def config(scenario, tmp_path, **kw) -> ExpertIterConfig:
    opts = {"statements": str(scenario["statements"]), "out_dir": str(tmp_path / "out"), "tiny": True,
            "rounds": 2, "samples": 2, "eval_samples": 1, **FAST, **kw}
    return ExpertIterConfig(**opts)


def loop(cfg, store, prover, **kw) -> ExpertIteration:
    return ExpertIteration(cfg, store, lambda: ScriptedVerifier(), llm_factory=prover, **kw)


class Killed(Exception):
    pass


def kill_at(event: str, round_: int, seen: list):
    def hook(name, r, info):
        seen.append((name, r))
        if (name, r) == (event, round_):
            raise Killed(f"killed at {event} of round {r}")

    return hook


@pytest.mark.slow
def test_two_rounds_recorded_and_handed_over(scenario, tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'runs.db'}")
    prover = Prover(scenario["script"])
    with prover.server:
        summary = loop(config(scenario, tmp_path), store, prover).run()
    out = tmp_path / "out"
    a, b, c = scenario["names"]

    parent = store.get_run(summary["run_id"])
    assert parent.kind == PARENT_KIND and parent.status == "proved"
    assert parent.config["expert_iter"]["samples"] == 2
    rounds = store.runs(parent=parent.run_id)
    assert [(r.kind, r.config["round"], r.status) for r in rounds] == [(ROUND_KIND, 1, "proved"), (ROUND_KIND, 2, "proved")]
    r1, r2 = (r.summary for r in rounds)
    # round 1 sampled all 3 from the base, proved A; round 2 sampled only B and C, from M1
    assert r1["sampled_from"] == str(out / "base") and r2["sampled_from"] == str(out / "rounds" / "1" / "model")
    assert (r1["metrics"]["attempted"], r1["metrics"]["newly_solved"], r1["metrics"]["solved_total"]) == (3, 1, 1)
    assert (r2["metrics"]["attempted"], r2["metrics"]["newly_solved"], r2["metrics"]["solved_total"]) == (2, 1, 2)
    assert r2["metrics"]["unsolved"] == 1
    # data: the union of the rounds' proofs (k samples of one proof are one row), SFT from the base
    for r, n in ((r1, 1), (r2, 2)):
        rows = [json.loads(x) for x in Path(r["data_path"]).read_text(encoding="utf-8").splitlines()]
        assert len(rows) == n == r["metrics"]["data_rows"]
        assert all(row["kind"] == "sft" and row["completion"][0]["role"] == "assistant" for row in rows)
        assert Path(r["model_path"], "config.json").is_file() and r["trained"]
        assert r["metrics"]["sft"]["global_step"] == 2
    assert {json.loads(x)["name"] for x in Path(r2["data_path"]).read_text().splitlines()} == {a, b}
    # evaluation of each new checkpoint on the statements
    assert (r1["metrics"]["eval"]["solved"], r1["metrics"]["eval"]["total"]) == (2, 3)
    assert r2["metrics"]["eval"]["pass_rate"] == 1.0
    # hand-over: base sampled, then M1 evaluated and sampled, then M2 evaluated
    assert prover.made == [
        ("base", "prover"), ("rounds/1/model", "eval"), ("rounds/1/model", "prover"), ("rounds/2/model", "eval")
    ]
    # the verified proofs are the round's ProofRecords; eval proofs are not
    proofs = store.proofs(kind="whole")
    assert sorted((p.run_id == rounds[0].run_id, p.problem_id.rsplit("/", 1)[-1]) for p in proofs) == sorted(
        [(True, a), (False, b)]
    )
    assert all(p.audit["ok"] and "sorry" not in p.proof for p in proofs)
    nodes = store.nodes(rounds[1].run_id)
    assert sorted(n.status for n in nodes) == ["failed", "solved"]
    attempts = store.attempts(rounds[1].run_id)
    assert len(attempts) == 4 and all(x.output and x.llm_call_id for x in attempts)
    assert summary["final_model"] == r2["model_path"] and summary["solved"] == 2


@pytest.mark.slow
def test_killed_after_round_1_resumes_at_round_2(scenario, tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'runs.db'}")
    prover = Prover(scenario["script"])
    seen: list = []
    with prover.server:
        first = loop(config(scenario, tmp_path), store, prover, on_event=kill_at("round_start", 2, seen))
        with pytest.raises(Killed):
            first.run()
        run_id = first.run_id
        assert store.get_run(run_id).status == "failed"
        r1, r2 = store.runs(parent=run_id)
        assert r1.status == "proved" and r2.status == "failed" and r2.summary["phase"] == "start"
        marker = Path(r1.summary["model_path"], "lemmaforge_round.json")
        stamp = marker.stat().st_mtime_ns
        calls_r1 = len(store.llm_calls(r1.run_id))
        asked = len(prover.models_asked())

        seen.clear()
        resumed = ExpertIteration.resume(store, run_id, lambda: ScriptedVerifier(), llm_factory=prover,
                                         on_event=kill_at("never", 0, seen))
        summary = resumed.run()
    assert seen[0] == ("round_start", 2) and all(r == 2 for _, r in seen)
    assert store.get_run(run_id).status == "proved"
    rounds = store.runs(parent=run_id)
    assert [r.run_id for r in rounds] == [r1.run_id, r2.run_id]  # round 2's run was continued
    assert rounds[0].summary == r1.summary and len(store.llm_calls(r1.run_id)) == calls_r1
    assert marker.stat().st_mtime_ns == stamp  # round 1's model was not retrained
    assert str(Path(r1.summary["model_path"]).parent.name) == "1"
    assert not any(m.endswith("/base") for m in prover.models_asked()[asked:])  # the base is not sampled again
    assert rounds[1].status == "proved" and rounds[1].summary["metrics"]["solved_total"] == 2
    assert [r["round"] for r in summary["rounds"]] == [1, 2]


@pytest.mark.slow
def test_killed_inside_a_round_keeps_its_samples(scenario, tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'runs.db'}")
    prover = Prover(scenario["script"])
    with prover.server:
        first = loop(config(scenario, tmp_path, rounds=1), store, prover, on_event=kill_at("sampled", 1, []))
        with pytest.raises(Killed):
            first.run()
        (r1,) = store.runs(parent=first.run_id)
        assert r1.status == "failed" and r1.summary["phase"] == "sample"
        sampled = len(prover.models_asked())
        assert sampled == 3
        summary = ExpertIteration.resume(store, first.run_id, lambda: ScriptedVerifier(),
                                         llm_factory=prover).run()
        # no statement sampled again: only the evaluation of the new model asked the server
        assert all("/rounds/1/model" in m for m in prover.models_asked()[sampled:])
    (r1,) = store.runs(parent=first.run_id)
    assert r1.status == "proved" and r1.summary["metrics"]["new_proofs"] == 1
    assert summary["rounds"][0]["trained"]


@pytest.mark.slow
def test_eval_set_held_out_and_seed_data(scenario, problems, tmp_path):
    a, b, c, d = problems[:4]
    eval_file = tmp_path / "eval.jsonl"
    eval_file.write_text(json.dumps(c.row) + "\n", encoding="utf-8")
    seed = tmp_path / "seed.jsonl"
    seed.write_text("".join(json.dumps(sft_row(p.header, p.statement, p.proof, name=p.name)) + "\n" for p in (c, d)),
                    encoding="utf-8")
    store = Store(f"sqlite:///{tmp_path / 'runs.db'}")
    prover = Prover(scenario["script"])
    with prover.server:
        cfg = config(scenario, tmp_path, rounds=1, eval=str(eval_file), seed_data=str(seed))
        summary = loop(cfg, store, prover).run()
    (r1,) = summary["rounds"]
    m = r1["metrics"]
    assert (m["statements"], m["held_out_statements"], m["attempted"]) == (2, 1, 2)  # C is the eval set
    assert (m["eval"]["total"], m["eval"]["set"]) == (1, str(eval_file))
    rows = [json.loads(x) for x in Path(r1["data_path"]).read_text(encoding="utf-8").splitlines()]
    assert sorted(r["name"] for r in rows) == sorted([a.name, d.name])  # C's seed row never trains
    assert m["data"]["seed_rows"] == 1 and m["data"]["proof_rows"] == 1
    with pytest.raises(ExpertIterError, match="seed data"):
        bad = tmp_path / "bad.jsonl"
        bad.write_text('{"prompt": "x"}\n', encoding="utf-8")
        loop(config(scenario, tmp_path, seed_data=str(bad)), store, prover)


def test_config_errors(scenario, tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'runs.db'}")
    with pytest.raises(ExpertIterError, match="never be served"):
        ExpertIteration(config(scenario, tmp_path, prover_url="http://127.0.0.1:1/v1"), store, ScriptedVerifier)
    with pytest.raises(ExpertIterError, match="--base-model PATH\\) or --tiny"):
        ExpertIterConfig(statements="x", out_dir="o").validate()
    with pytest.raises(ExpertIterError, match="no expert-iteration run"):
        ExpertIteration.resume(store, "nope", ScriptedVerifier)


# --- the command line: a real serve command, the HTTP verifier, resume to extend ------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_cli_serve_cmd_and_resume(scenario, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no ./lemmaforge.toml
    monkeypatch.setenv("LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE", "all")  # the fake shifts positions
    port = _free_port()
    served = tmp_path / "served.log"
    serve = (f"{sys.executable} -m tests.training.fake_prover_server --model {{model}} --port {{port}} "
             f"--script {scenario['script_path']} --log {served}")
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    out = tmp_path / "out"
    with kimina() as kimina_server:
        common = ["--db", db, "--verifier", "kimina", "--kimina-url", kimina_server.url, "--json"]
        r = runner.invoke(app, ["expert-iter", "--statements", str(scenario["statements"]), "--tiny",
                                "--out", str(out), "--prover-url", f"http://127.0.0.1:{port}/v1",
                                "--serve-cmd", serve, "--serve-timeout", "60", "--rounds", "1", "--samples", "2", "--max-tokens", "4096",
                                "--max-steps", "2", "--max-length", "512", *common])
        assert r.exit_code == 0, r.output
        first = json.loads(r.stdout)
        assert [x["metrics"]["solved_total"] for x in first["rounds"]] == [1]
        lines = served.read_text().split()
        assert lines == [str(out / "base"), str(out / "rounds" / "1" / "model")]  # sample M0, eval M1

        # resume to extend: round 1 is not redone, round 2 samples from M1
        r = runner.invoke(app, ["expert-iter", "--resume", first["run_id"], "--rounds", "2",
                                "--statements", str(scenario["statements"]), *common])
        assert r.exit_code == 0, r.output
        second = json.loads(r.stdout)
    assert second["run_id"] == first["run_id"]
    assert second["rounds"][0] == first["rounds"][0]
    assert [x["metrics"]["solved_total"] for x in second["rounds"]] == [1, 2]
    assert served.read_text().split()[2:] == [str(out / "rounds" / "1" / "model"), str(out / "rounds" / "2" / "model")]
    store = Store(db)
    assert [r.config["round"] for r in store.runs(parent=first["run_id"])] == [1, 2]

    # a resumed loop keeps its recipe
    r = runner.invoke(app, ["expert-iter", "--resume", first["run_id"], "--samples", "9", "--db", db])
    assert r.exit_code == 2 and "keeps its recipe" in r.output


@pytest.mark.slow
def test_cli_tiny_local_generation(scenario, tmp_path, monkeypatch):
    """`--tiny` samples from the tiny model itself (hf://{model}, transformers in process): it proves
    nothing, so there is nothing to train on and the round keeps the base model."""
    monkeypatch.chdir(tmp_path)
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    with kimina() as kimina_server:
        r = runner.invoke(app, ["expert-iter", "--statements", str(scenario["statements"]), "--tiny",
                                "--out", str(tmp_path / "out"), "--rounds", "1", "--samples", "2",
                                "--max-tokens", "8", "--db", db, "--verifier", "kimina", "--kimina-url", kimina_server.url,
                                "--json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    (r1,) = summary["rounds"]
    assert r1["trained"] is False and r1["model_path"] == str(tmp_path / "out" / "base")
    assert r1["metrics"]["eval"]["pass_rate"] == 0.0 and r1["metrics"]["solved_total"] == 0
    store = Store(db)
    (run,) = store.runs(parent=summary["run_id"])
    calls = store.llm_calls(run.run_id)
    assert {c.role for c in calls} == {"prover", "eval"} and all(c.endpoint.startswith("hf://") for c in calls)
    assert all(len(c.completions) == 2 for c in calls if c.role == "prover")


def test_cli_bad_input(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    for args, message in [
        (["--out", str(tmp_path / "o"), "--tiny"], "give --statements and --out"),
        (["--statements", "minif2f:valid", "--out", str(tmp_path / "o"), "--base-model", "m"], "--prover-url"),
        (["--statements", "nope.jsonl", "--out", str(tmp_path / "o"), "--tiny"], "nope.jsonl"),
        (["--resume", "nope"], "no expert-iteration run"),
    ]:
        r = runner.invoke(app, ["expert-iter", *args, "--db", db])
        assert r.exit_code == 2, (args, r.output)
        lines = [ln for ln in r.output.strip().splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], r.output

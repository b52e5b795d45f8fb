"""No code path sends model or dataset text to a verifier without the gate.

Statically: product code obtains a Lean backend only through `backends.make_verifier`, which
always wraps it in a `GatedVerifier`. Dynamically: for `check`, `prove`, `bench`, the GRPO reward,
the ES reward and expert iteration, a model (or a dataset row) writes code that runs meta code
(`run_tac`, `#eval IO.Process…`), and the Lean server (fake Kimina, which records every request)
never sees it, while the honest parts of the same runs still reach it.
"""

from __future__ import annotations

import ast
import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.config import VerifierConfig
from lemmaforge.lean.backends import make_verifier
from lemmaforge.lean.gate import GatedVerifier
from tests.conftest import REPO_ROOT
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.real_problems import lean_texts, problems, tiny_tokenizer  # noqa: F401 (fixtures)

runner = CliRunner()

MARK = "run_tac"  # meta code a model may write: it must never reach Lean
EVIL_TACTIC = "run_tac Lean.Elab.admitGoal (← Lean.Elab.Tactic.getMainGoal)"
EVIL_HEADER_LINE = '#eval IO.Process.run { cmd := "sh", args := #["-c", "touch /tmp/pwned"] }'
KIMINA_ENV = {"LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01", "LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all",
              "LEMMAFORGE_PROVER__BACKOFF": "0.01", "LEMMAFORGE_PLANNER__BACKOFF": "0.01",
              "LEMMAFORGE_PROVER__RETRIES": "1", "LEMMAFORGE_PLANNER__RETRIES": "1"}


def sent_codes(kimina: FakeKimina) -> list[str]:
    return [s["code"] for r in kimina.check_requests for s in r.body["snippets"]]


def assert_never_sent(kimina: FakeKimina, *marks: str) -> None:
    for code in sent_codes(kimina):
        for mark in marks:
            assert mark not in code, f"`{mark}` reached the Lean server:\n{code}"


# --- statically: one door to a backend ---------------------------------------------------------

_BACKEND_CLASSES = {"ReplVerifier", "KiminaVerifier", "LakeVerifier"}
# Modules allowed to name a backend class: the factory, the backends themselves, and doctor's
# health ping (`KiminaVerifier.ping` sends no Lean text).
_ALLOWED = {"lean/backends.py", "lean/repl/", "lean/kimina/", "lean/lake/", "doctor.py"}  # a folder: all of it


@pytest.mark.slow
def test_product_code_builds_backends_only_through_the_gated_factory() -> None:
    offenders = []
    root = REPO_ROOT / "lemmaforge"
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).as_posix()
        if rel in _ALLOWED or rel.startswith(tuple(a for a in _ALLOWED if a.endswith("/"))):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            if name in _BACKEND_CLASSES:
                offenders.append(f"{rel}:{node.lineno} {name}")
            if isinstance(node, ast.ImportFrom) and any(a.name in _BACKEND_CLASSES for a in node.names):
                offenders.append(f"{rel}:{node.lineno} imports a backend class")
    assert offenders == []
    doctor = (root / "doctor.py").read_text(encoding="utf-8")
    assert ".check(" not in doctor and "check_many(" not in doctor


def test_make_verifier_wraps_every_backend(tmp_path: Path) -> None:
    kimina = make_verifier(VerifierConfig(backend="kimina", kimina_url="http://127.0.0.1:9"))
    assert isinstance(kimina, GatedVerifier) and kimina.name == "kimina"
    assert callable(kimina.inner.ping)  # a backend's extras are read on the backend itself (doctor)…
    for private in ("ping", "_post", "check_with_probe", "_check_once", "_send"):
        with pytest.raises(AttributeError):  # …the gate forwards nothing it does not declare
            getattr(kimina, private)
    trusted = make_verifier(VerifierConfig(backend="kimina", kimina_url="http://127.0.0.1:9", trust_dataset=True))
    assert trusted.trust_dataset is True
    asyncio.run(kimina.close())
    asyncio.run(trusted.close())


async def test_gated_verifier_refuses_before_the_backend() -> None:
    with FakeKimina(responder=ScriptedLean()) as server:
        v = make_verifier(VerifierConfig(backend="kimina", kimina_url=server.url, kimina_position_mode="all"))
        try:
            good = "import Mathlib\n\ntheorem x : 1 = 1 := by\n  rfl\n"
            evil = f"import Mathlib\n\ntheorem x : 1 = 1 := by\n  {EVIL_TACTIC}\n"
            results = await v.check_many([good, evil, good.replace("rfl", "decide")])
            assert [r.status.value for r in results] == ["valid", "error", "valid"]
            assert "runs_code" in results[1].messages[0].data and results[1].raw["gate"][0]["reason"] == "runs_code"
            single = await v.check(evil)
            assert single.status.value == "error"
            assert len([c for c in sent_codes(server) if "theorem x" in c]) == 2
            assert_never_sent(server, MARK)
        finally:
            await v.close()


# --- prove -------------------------------------------------------------------------------------


def test_prove_never_sends_meta_code_written_by_the_models(tmp_path: Path) -> None:
    from tests.fakes.fake_openai import FakeOpenAIServer
    from tests.search.scenarios import DEFS, HEADER, THEOREM, lean_block

    problem = tmp_path / "t.lean"
    problem.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
    evil_proof = lean_block(f"theorem t (x : ℕ) (h : A x) : D x := by\n  {EVIL_TACTIC}\n")
    evil_sketch = lean_block(
        "theorem t (x : ℕ) (h : A x) : D x := by\n  have h1 : D x := by\n    " + EVIL_TACTIC + "\n  exact h1\n"
    )
    with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default=evil_proof, models=("m",)) as llm:
        llm.add_rule(".", evil_sketch, when=lambda r: any(m.get("role") == "system" for m in r.messages))
        args = ["prove", str(problem), "--verifier", "kimina", "--kimina-url", kimina.url,
                "--planner-url", llm.url, "--planner-model", "m", "--prover-url", llm.url, "--prover-model", "m",
                "--json", "--no-live", "--budget", "root_whole_proof_attempts=2", "--budget", "max_depth=1",
                "--budget", "llm_calls=6"]
        r = runner.invoke(app, args, env=KIMINA_ENV)
        assert r.exit_code == 1, r.output
        assert json.loads(r.stdout)["proved"] is False
        assert llm.requests, "the models were asked"
        assert_never_sent(kimina, MARK)


def test_prove_refuses_a_dataset_header_that_runs_code(tmp_path: Path) -> None:
    problem = tmp_path / "t.lean"
    problem.write_text(f"import Mathlib\n\n{EVIL_HEADER_LINE}\n\ntheorem t : 1 = 1 := by\n  sorry\n", encoding="utf-8")
    with FakeKimina(responder=ScriptedLean()) as kimina:
        r = runner.invoke(app, ["prove", str(problem), "--verifier", "kimina", "--kimina-url", kimina.url,
                                "--prover-url", "http://127.0.0.1:9/v1", "--json", "--no-live"], env=KIMINA_ENV)
        assert r.exit_code == 2, r.output
        assert "refused by the gate" in r.stderr and "#eval" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
        assert sent_codes(kimina) == []


# --- check ---------------------------------------------------------------------------------------


def test_check_refuses_an_original_that_runs_code_unless_trusted(tmp_path: Path) -> None:
    original = tmp_path / "statement.lean"
    original.write_text(f"import Mathlib\n\n{EVIL_HEADER_LINE}\n\ntheorem t : 1 = 1 := by\n  sorry\n", encoding="utf-8")
    proof = tmp_path / "proof.lean"
    proof.write_text(f"import Mathlib\n\n{EVIL_HEADER_LINE}\n\ntheorem t : 1 = 1 := by\n  rfl\n", encoding="utf-8")
    with FakeKimina(responder=ScriptedLean()) as kimina:
        args = ["check", str(proof), "--against", str(original), "--verifier", "kimina", "--kimina-url", kimina.url]
        r = runner.invoke(app, [*args, "--json"])
        assert r.exit_code == 2 and str(original) in r.stderr and "#eval" in r.stderr
        # Trusting the dataset accepts its definitions, never code that runs: still refused, not sent.
        r = runner.invoke(app, [*args, "--json", "--trust-dataset"])
        assert r.exit_code == 1
        assert "runs_code" in [x["reason"] for x in json.loads(r.stdout)["reasons"]]
        assert sent_codes(kimina) == []


def test_check_trust_dataset_accepts_a_problem_axiom(tmp_path: Path) -> None:
    original = tmp_path / "statement.lean"
    original.write_text("import Mathlib\n\naxiom given : 2 = 2\n\ntheorem t : 2 = 2 := by\n  sorry\n", encoding="utf-8")
    proof = tmp_path / "proof.lean"
    proof.write_text("import Mathlib\n\naxiom given : 2 = 2\n\ntheorem t : 2 = 2 := by\n  exact given\n",
                     encoding="utf-8")
    with FakeKimina(responder=ScriptedLean()) as kimina:
        args = ["check", str(proof), "--against", str(original), "--verifier", "kimina", "--kimina-url", kimina.url,
                "--json"]
        r = runner.invoke(app, args, env=KIMINA_ENV)
        assert r.exit_code == 2 and "axiom given" in r.stderr and "--trust-dataset" in r.stderr
        assert sent_codes(kimina) == []
        r = runner.invoke(app, [*args, "--trust-dataset"], env=KIMINA_ENV)
        assert r.exit_code == 0, r.output
        assert "given" in json.loads(r.stdout)["axioms"]


# --- bench ---------------------------------------------------------------------------------------


def test_bench_never_sends_meta_code_and_refuses_an_evil_row(tmp_path: Path) -> None:
    from tests.benchmarks.bench_helpers import ENV, NAMES, lean_block
    from tests.fakes.fake_openai import FakeOpenAIServer

    evil = lean_block(f"theorem {NAMES[0]} : True := by\n  {EVIL_TACTIC}\n")
    with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default=evil, models=("m",)) as llm:
        base = ["bench", "--verifier", "kimina", "--kimina-url", kimina.url, "--prover-url", llm.url,
                "--prover-model", "m", "--no-progress", "--budget", "root_whole_proof_attempts=1",
                "--budget", "self_corrections=0"]
        r = runner.invoke(app, [*base[:1], "minif2f", "--split", "valid", "--limit", "2", *base[1:],
                                "--db", f"sqlite:///{tmp_path / 'a.db'}", "--json"], env=ENV)
        assert r.exit_code in (0, 1), r.output
        assert llm.requests
        assert_never_sent(kimina, MARK)

        rows = tmp_path / "evil.jsonl"
        rows.write_text(json.dumps({"name": "evil_row", "header": f"import Mathlib\n{EVIL_HEADER_LINE}\n",
                                    "formal_statement": "theorem evil_row : 1 = 1 := by\n  sorry"}) + "\n",
                        encoding="utf-8")
        r = runner.invoke(app, [*base[:1], str(rows), *base[1:], "--db", f"sqlite:///{tmp_path / 'b.db'}"], env=ENV)
        assert r.exit_code == 2, r.output
        assert "evil_row" in r.stderr and "#eval" in r.stderr
        assert_never_sent(kimina, "IO.Process")


# --- training: GRPO reward, ES reward, expert iteration ------------------------------------------


def _kimina_factory(url: str):
    return lambda: make_verifier(VerifierConfig(backend="kimina", kimina_url=url, kimina_position_mode="all",
                                                kimina_retry_wait=0.01))


def test_grpo_reward_never_sends_meta_code_or_an_evil_header() -> None:
    from lemmaforge.training.rewards import make_lean_reward

    statement = "theorem t (n : ℕ) : n + 0 = n := by\n  sorry"
    good = "```lean4\nimport Mathlib\n\ntheorem t (n : ℕ) : n + 0 = n := by\n  simp\n```"
    evil = f"```lean4\nimport Mathlib\n\ntheorem t (n : ℕ) : n + 0 = n := by\n  {EVIL_TACTIC}\n```"
    with FakeKimina(responder=ScriptedLean()) as kimina:
        reward = make_lean_reward(_kimina_factory(kimina.url))
        try:
            async def score() -> tuple[list[Any], list[Any]]:
                try:
                    ok = await reward(prompts=["p", "p"], completions=[good, evil], statement=[statement, statement],
                                      header=["import Mathlib\n\n", "import Mathlib\n\n"])
                    bad = await reward(prompts=["p"], completions=[good], statement=[statement],
                                       header=[f"import Mathlib\n{EVIL_HEADER_LINE}\n"])
                    return ok, bad
                finally:
                    await reward.aclose()

            scores, bad_row = asyncio.run(score())
            assert scores[0] == 1.0 and scores[1] == 0.0
            assert bad_row[0] in (None, 0.0)
        finally:
            pass
        assert_never_sent(kimina, MARK, "IO.Process")
        assert any("simp" in c for c in sent_codes(kimina)), "the honest completion was checked"


class _TextModel:
    """Stands in for a causal LM whose `generate` writes a fixed completion (ES samples it)."""

    def __init__(self, tokenizer: Any, completion: str) -> None:
        import torch

        self.tokenizer = tokenizer
        self.ids = torch.tensor(tokenizer(completion, add_special_tokens=False)["input_ids"])
        self._p = torch.nn.Parameter(torch.zeros(1))

    def parameters(self):
        yield self._p

    def generate(self, input_ids, num_return_sequences: int = 1, **_: Any):
        import torch

        rows = input_ids.repeat_interleave(num_return_sequences, dim=0)
        tail = self.ids.unsqueeze(0).repeat(rows.shape[0], 1)
        return torch.cat([rows, tail], dim=1)


def test_es_reward_never_sends_meta_code(tiny_tokenizer) -> None:  # noqa: F811 (fixture)
    pytest.importorskip("torch")
    from lemmaforge.training.es import make_lean_es_reward

    row = {"prompt": [{"role": "user", "content": "prove it"}], "header": "import Mathlib\n\n",
           "statement": "theorem t (n : ℕ) : n + 0 = n := by\n  sorry"}
    evil = f"```lean4\nimport Mathlib\n\ntheorem t (n : ℕ) : n + 0 = n := by\n  {EVIL_TACTIC}\n```"
    with FakeKimina(responder=ScriptedLean()) as kimina:
        reward_fn, close = make_lean_es_reward(tiny_tokenizer, [row], _kimina_factory(kimina.url),
                                               problems_per_iteration=1, samples_per_problem=2, max_new_tokens=8)
        try:
            assert reward_fn(_TextModel(tiny_tokenizer, evil), 0) in (0.0, None)
        finally:
            close()
        assert_never_sent(kimina, MARK)


@pytest.mark.slow
def test_expert_iteration_never_sends_meta_code(problems, tmp_path: Path) -> None:  # noqa: F811 (fixture)
    pytest.importorskip("transformers", reason="expert iteration's tiny model needs the train extra")
    from lemmaforge.db import Store
    from lemmaforge.training.expert import ExpertIteration, ExpertIterConfig
    from tests.fakes.fake_openai import FakeOpenAIServer

    p = problems[0]
    statements = tmp_path / "statements.jsonl"
    statements.write_text(json.dumps(p.row) + "\n", encoding="utf-8")
    head = p.statement.split(":= by", 1)[0]
    evil = f"```lean4\n{p.header}{head}:= by\n  {EVIL_TACTIC}\n```"
    with FakeKimina(responder=ScriptedLean(rules=[MessageRule(r"\bbogus\b", "unknown")])) as kimina, \
            FakeOpenAIServer(default=evil, models=("m",)) as llm:
        from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM

        cfg = ExpertIterConfig(statements=str(statements), out_dir=str(tmp_path / "out"), tiny=True, rounds=1,
                               samples=2, eval_samples=1, max_steps=1, max_length=256, max_tokens=32, concurrency=2)
        store = Store(f"sqlite:///{tmp_path / 'ei.db'}")
        loop = ExpertIteration(cfg, store, _kimina_factory(kimina.url),
                               llm_factory=lambda model, role: OpenAICompatibleLLM(llm.url, "m", role=role, retries=0))
        try:
            loop.run()
        except Exception:  # noqa: BLE001 - training steps may need extras; only what reached Lean matters
            pass
        assert llm.requests, "the prover was asked"
        assert_never_sent(kimina, MARK)

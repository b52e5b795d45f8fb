"""GRPO through TRL's GRPOTrainer on the tiny model, with the Lean reward verified by
KiminaVerifier against the fake Kimina Lean Server (real HTTP on 127.0.0.1)."""

from __future__ import annotations

import math
import zlib

import pytest

pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")

from lemmaforge.lean.kimina import KiminaVerifier, RetryPolicy  # noqa: E402
from lemmaforge.training import rewards as R  # noqa: E402
from lemmaforge.training.grpo import (  # noqa: E402
    PRESETS,
    colocate_config,
    cpu_config,
    run_grpo,
    server_config,
    validate_grpo_rows,
)
from lemmaforge.training.sft import TrainingDataError  # noqa: E402
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean  # noqa: E402
from tests.fakes.real_problems import cot_completion  # noqa: E402
from tests.fakes.scripted import BOGUS_TACTIC  # noqa: E402


@pytest.fixture
def kimina():
    lean = ScriptedLean(rules=[MessageRule(rf"\b{BOGUS_TACTIC}\b", "unknown tactic")])
    with FakeKimina(responder=lean) as server:
        yield server


@pytest.mark.slow
def test_grpo_two_steps_with_both_rewards(problems, tiny_model, tiny_tokenizer, kimina, tmp_path, monkeypatch):
    p = problems[0]
    rows = [{"prompt": p.prompt(), "header": p.header, "statement": p.statement}] * 2
    right = cot_completion(p.proof)
    wrong = right.rsplit("\n```", 1)[0].rstrip() + f"\n  {BOGUS_TACTIC}\n```\n"
    # The random tiny model writes no Lean: map each of its completions to a real CoT answer, right
    # or wrong by a hash of its text, so that the reward sees real proofs and varies in a group.
    seen: list[str] = []

    def scripted_extract(text: str) -> str | None:
        seen.append(text)
        answer = right if zlib.crc32(text.encode()) % 2 else wrong
        return R._local_extract(answer)

    monkeypatch.setattr(R, "extract_proof_code", scripted_extract)
    made: list[KiminaVerifier] = []

    def factory() -> KiminaVerifier:
        made.append(
            KiminaVerifier(kimina.url, position_mode="server", retry=RetryPolicy(attempts=1), timeout=10)
        )
        return made[-1]

    metrics = run_grpo(
        tiny_model,
        tiny_tokenizer,
        rows,
        factory,
        tmp_path / "grpo",
        preset="cpu",
        consistency_weight=0.5,
        consistency_steps=1,  # active at step 0 only
        max_steps=2,
        max_completion_length=16,
        save=False,
    )
    assert metrics["global_step"] == 2
    logs = [h for h in metrics["log_history"] if "rewards/lean_reward/mean" in h]
    assert len(logs) == 2
    for h in logs:
        assert 0.0 <= h["rewards/lean_reward/mean"] <= 1.0
        assert "rewards/structure_consistency_reward/mean" in h
        assert h["lean_reward/verifier_failures"] == 0.0
    # step 0: consistency active (the tiny model's text has no sketch: 0.0); step 1: left out
    # (None everywhere: NaN, which TRL logs as None)
    assert logs[0]["rewards/structure_consistency_reward/mean"] == 0.0
    late = logs[1]["rewards/structure_consistency_reward/mean"]
    assert late is None or math.isnan(late)
    assert seen, "the Lean reward never ran"
    assert kimina.check_requests, "nothing reached the (fake) Kimina server"
    assert len(made) == 1  # one verifier, created on TRL's reward loop, reused by both steps
    assert made[0]._client.is_closed  # closed after training
    # both right and wrong answers were verified
    assert 0.0 < sum(h["rewards/lean_reward/mean"] for h in logs) < 2.0


def test_grpo_rejects_bad_rows():
    with pytest.raises(TrainingDataError, match="statement"):
        validate_grpo_rows([{"prompt": "p", "header": "import Mathlib"}])
    with pytest.raises(TrainingDataError, match="prompt"):
        validate_grpo_rows([{"prompt": "", "statement": "theorem t : True := by sorry"}])
    with pytest.raises(TrainingDataError, match="empty"):
        validate_grpo_rows([])


def test_presets(tmp_path):
    assert set(PRESETS) == {"cpu", "gpu", "colocate", "server"}
    # one GPU without vLLM: generation with transformers, the rest as the GPU presets
    gpu = PRESETS["gpu"](tmp_path, bf16=False)
    assert not gpu.use_vllm and gpu.model_init_kwargs == {"dtype": "bfloat16"} and gpu.gradient_checkpointing
    assert gpu.loss_type == "dapo" and gpu.num_generations == 8
    cpu = cpu_config(tmp_path)
    assert cpu.use_cpu and not cpu.bf16 and not cpu.use_vllm and cpu.beta == 0.0
    # bf16=False only because this test machine has no GPU
    colo = colocate_config(tmp_path, gpu_memory_utilization=0.4, bf16=False)
    assert colo.use_vllm and colo.vllm_mode == "colocate" and colo.vllm_gpu_memory_utilization == 0.4
    assert colo.model_init_kwargs == {"dtype": "bfloat16"} and colo.gradient_checkpointing
    assert colo.loss_type == "dapo" and colo.epsilon_high == 0.28 and colo.mask_truncated_completions
    srv = server_config(tmp_path, base_url="http://127.0.0.1:8001", bf16=False)
    assert srv.use_vllm and srv.vllm_mode == "server" and srv.vllm_server_base_url == "http://127.0.0.1:8001"

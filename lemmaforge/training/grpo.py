"""GRPO with Lean-verified rewards, through TRL's GRPOTrainer (DeepSeek-Prover-V2 stage 2).

Dataset: one row per problem with columns `prompt` (a string or a chat message list, already
built, e.g. with `agent.prompts`), `header` (imports/options/opens) and `statement` (the theorem
ending in `sorry`, or a whole file with its own header). TRL passes `header` and `statement` to the
rewards. Keep only problems the current model solves sometimes but not always
(`rewards.filter_by_pass_rate`): the others give zero-variance groups and no gradient.

Rewards: `reward_funcs=[lean_reward, structure_consistency_reward]`, weighted by
`reward_weights=[lean_weight, consistency_weight]` (1.0 and 0.2 by default); the consistency
reward is active for the first `consistency_steps` optimizer steps and None afterwards (see
`rewards`). Logged: `rewards/lean_reward/mean|std`, `rewards/structure_consistency_reward/mean|std`,
`lean_reward/verifier_failures`, `reward`, `frac_reward_zero_std`, `completions/clipped_ratio`.

Presets (`PRESETS`, functions returning a `GRPOConfig`; keyword arguments override any field):

- `cpu`: smoke test with the tiny model, no GPU, seconds:

      lemmaforge train grpo --data problems.jsonl --tiny --preset cpu --verifier kimina \\
          --kimina-url http://127.0.0.1:8002 --output runs/grpo-smoke --max-steps 2

- `gpu`: one GPU, generation with transformers (no vLLM needed), bf16, gradient checkpointing:

      lemmaforge train grpo --data minif2f_valid.jsonl --model deepseek-ai/DeepSeek-Prover-V2-7B \\
          --preset gpu --lora --verifier kimina --kimina-url http://127.0.0.1:8002 --output runs/grpo

- `colocate`: one GPU (e.g. one H200) running both training and vLLM generation; vLLM takes
  `vllm_gpu_memory_utilization` of the memory (0.3), the model loads in bf16, gradient
  checkpointing on. For a 7B prover on one GPU prefer `--lora` (full fine-tuning with AdamW
  states needs ~4x the weights). Verification runs on a Kimina Lean Server (CPU):

      pip install 'lemmaforge[train]' 'trl[vllm]>=1.16,<1.17'
      docker run -d -p 8002:8000 projectnumina/kimina-lean-server:2.0.0
      lemmaforge train grpo --data problems.jsonl --model deepseek-ai/DeepSeek-Prover-V2-7B \\
          --preset colocate --lora --verifier kimina --kimina-url http://127.0.0.1:8002 \\
          --output runs/grpo --num-generations 8 --max-completion-length 4096

- `server`: generation on a separate vLLM server (different GPUs), weights pushed over NCCL
  after each step (`trl vllm-serve` is deprecated in TRL 1.16 and only runs this command):

      CUDA_VISIBLE_DEVICES=0 VLLM_SERVER_DEV_MODE=1 vllm serve deepseek-ai/DeepSeek-Prover-V2-7B \\
          --weight-transfer-config '{"backend": "nccl"}' --logprobs-mode processed_logprobs \\
          --max-logprobs -1 --max-model-len 8192 --enable-prefix-caching --port 8001
      CUDA_VISIBLE_DEVICES=1 lemmaforge train grpo --data problems.jsonl \\
          --model deepseek-ai/DeepSeek-Prover-V2-7B --preset server --vllm-url http://127.0.0.1:8001 \\
          --verifier kimina --kimina-url http://127.0.0.1:8002 --output runs/grpo

GRPO defaults follow TRL 1.16 / DAPO for the GPU presets: beta 0 (no reference model),
`loss_type="dapo"`, `epsilon_high=0.28`, `mask_truncated_completions=True`, lr 1e-6,
temperature 1.0, group-scaled rewards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from lemmaforge.config import AuditConfig
from lemmaforge.lean.verifier import Verifier
from lemmaforge.training.rewards import (
    LeanReward,
    make_lean_reward,
    make_structure_consistency_reward,
)
from lemmaforge.training.sft import (
    TrainingDataError,
    checkpointing_kwargs,
    lora_config,
    to_dataset,
    training_metrics,
)

REQUIRED_COLUMNS = ("prompt", "statement")


def _grpo_config(**kwargs: Any) -> Any:
    from trl import GRPOConfig

    return GRPOConfig(**kwargs)


def cpu_config(output_dir: str | Path, **overrides: Any) -> Any:
    """CPU smoke run (tiny model): 2 steps, 4 completions per prompt, 32 new tokens."""
    kwargs: dict[str, Any] = {
        "output_dir": str(output_dir),
        "use_cpu": True,
        "bf16": False,
        **checkpointing_kwargs(False),
        "per_device_train_batch_size": 4,
        "num_generations": 4,
        "max_completion_length": 32,
        "max_steps": 2,
        "learning_rate": 1e-4,
        "beta": 0.0,
        "logging_steps": 1,
        "save_strategy": "no",
        "report_to": "none",
        "disable_tqdm": True,
    }
    kwargs.update(overrides)
    return _grpo_config(**kwargs)


def _gpu_common(output_dir: str | Path) -> dict[str, Any]:
    return {
        "output_dir": str(output_dir),
        "bf16": True,
        **checkpointing_kwargs(True),
        "model_init_kwargs": {"dtype": "bfloat16"},
        "per_device_train_batch_size": 8,
        "gradient_accumulation_steps": 4,
        "num_generations": 8,
        "max_completion_length": 4096,
        "temperature": 1.0,
        "learning_rate": 1e-6,
        "beta": 0.0,
        "loss_type": "dapo",
        "epsilon_high": 0.28,
        "mask_truncated_completions": True,
        "scale_rewards": "group",
        "logging_steps": 1,
        "save_strategy": "steps",
        "save_steps": 50,
        "report_to": "none",
        "use_vllm": True,
    }


def colocate_config(
    output_dir: str | Path,
    *,
    gpu_memory_utilization: float = 0.3,
    sleep_mode: bool = False,
    max_model_length: int | None = None,
    **overrides: Any,
) -> Any:
    """One GPU: vLLM in the training process (`vllm_mode="colocate"`), bf16."""
    kwargs = _gpu_common(output_dir)
    kwargs.update(
        vllm_mode="colocate",
        vllm_gpu_memory_utilization=gpu_memory_utilization,
        vllm_enable_sleep_mode=sleep_mode,
        vllm_max_model_length=max_model_length,
    )
    kwargs.update(overrides)
    return _grpo_config(**kwargs)


def server_config(output_dir: str | Path, *, base_url: str = "http://127.0.0.1:8000", **overrides: Any) -> Any:
    """Generation on a separate `vllm serve` (see the module docstring for its command)."""
    kwargs = _gpu_common(output_dir)
    kwargs.update(vllm_mode="server", vllm_server_base_url=base_url)
    kwargs.update(overrides)
    return _grpo_config(**kwargs)


def gpu_config(output_dir: str | Path, **overrides: Any) -> Any:
    """One GPU without vLLM: generation with transformers' `generate` inside the trainer
    (`use_vllm=False`), bf16, gradient checkpointing. Slower generation than `colocate`, but
    nothing to install beyond the train extra: the path for a one-GPU user without vLLM."""
    kwargs = _gpu_common(output_dir)
    kwargs.update(use_vllm=False, per_device_train_batch_size=8, num_generations=8, gradient_accumulation_steps=4)
    kwargs.update(overrides)
    return _grpo_config(**kwargs)


PRESETS: dict[str, Callable[..., Any]] = {
    "cpu": cpu_config,
    "gpu": gpu_config,
    "colocate": colocate_config,
    "server": server_config,
}
VLLM_PRESETS = frozenset({"colocate", "server"})


def vllm_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("vllm") is not None


GRPO_FORMAT_HINT = (
    "expected GRPO rows {\"prompt\", \"header\", \"statement\"} (gen-data's train.jsonl or statements.jsonl) "
    "or benchmark rows {\"name\", \"header\", \"formal_statement\"} (e.g. minif2f.jsonl)"
)


def is_benchmark_row(row: Any) -> bool:
    """A benchmark problem (minif2f.jsonl style): a formal statement and no prompt yet."""
    return isinstance(row, dict) and "prompt" not in row and (
        isinstance(row.get("formal_statement"), str) or (isinstance(row.get("statement"), str) and "name" in row)
    )


def rows_from_benchmark(path: str | Path, *, cot: bool = True) -> list[dict[str, Any]]:
    """GRPO rows from a benchmark JSONL (any file `benchmarks.datasets.load_dataset` reads): the
    prover prompt (DeepSeek-Prover-V2's, with the informal statement as docstring where the file
    has one), `header`, `statement` and `name`. TrainingDataError (one line) when it cannot be read."""
    from lemmaforge.agent import prompts
    from lemmaforge.benchmarks.datasets import load_dataset
    from lemmaforge.benchmarks.registry import DatasetError

    try:
        problems = load_dataset(str(path))
    except DatasetError as exc:
        raise TrainingDataError(f"{exc}; {GRPO_FORMAT_HINT}") from None
    return [
        {
            "prompt": prompts.prover_messages(p.header, p.statement, cot=cot, informal=p.informal),
            "header": p.header,
            "statement": p.statement,
            "name": p.name,
        }
        for p in problems
    ]


def validate_grpo_rows(rows: Iterable[dict[str, Any]], *, statement_column: str = "statement") -> None:
    """Each row has a non-empty `prompt` (string or messages) and `statement` string; `header`,
    when present, is a string."""
    n = 0
    for i, row in enumerate(rows):
        n += 1
        if not isinstance(row, dict):
            raise TrainingDataError(f"row {i}: expected an object with 'prompt' and '{statement_column}'")
        prompt = row.get("prompt")
        if "prompt" not in row:
            raise TrainingDataError(f"row {i}: no 'prompt'; {GRPO_FORMAT_HINT}")
        if not (isinstance(prompt, str) and prompt.strip()) and not (
            isinstance(prompt, list) and prompt and all(isinstance(m, dict) and "content" in m for m in prompt)
        ):
            raise TrainingDataError(f"row {i}: 'prompt' must be a non-empty string or a list of messages")
        statement = row.get(statement_column)
        if not isinstance(statement, str) or not statement.strip():
            raise TrainingDataError(f"row {i}: missing '{statement_column}' (the theorem to prove); {GRPO_FORMAT_HINT}")
        if row.get("header") is not None and not isinstance(row["header"], str):
            raise TrainingDataError(f"row {i}: 'header' must be a string")
    if n == 0:
        raise TrainingDataError("the GRPO dataset is empty")


def make_rewards(
    verifier: Verifier | Callable[[], Verifier],
    *,
    lean_weight: float = 1.0,
    consistency_weight: float = 0.2,
    consistency_steps: int | None = 200,
    timeout: float | None = None,
    audit_config: AuditConfig | None = None,
    header_column: str = "header",
    statement_column: str = "statement",
) -> tuple[list[Any], list[float]]:
    """(reward_funcs, reward_weights). The consistency reward is dropped when its weight is 0."""
    lean = make_lean_reward(
        verifier,
        header_column=header_column,
        statement_column=statement_column,
        timeout=timeout,
        audit_config=audit_config,
    )
    funcs: list[Any] = [lean]
    weights = [float(lean_weight)]
    if consistency_weight:
        consistency = make_structure_consistency_reward(active_steps=consistency_steps, weight=consistency_weight)
        funcs.append(consistency)
        weights.append(consistency.weight)
    return funcs, weights


def build_grpo_trainer(
    model: Any,
    tokenizer: Any,
    dataset: Any,
    verifier: Verifier | Callable[[], Verifier],
    config: Any,
    *,
    lean_weight: float = 1.0,
    consistency_weight: float = 0.2,
    consistency_steps: int | None = 200,
    timeout: float | None = None,
    audit_config: AuditConfig | None = None,
    lora: bool = False,
    lora_r: int = 16,
    lora_alpha: int | None = None,
    callbacks: Iterable[Any] | None = None,
    extra_reward_funcs: Iterable[Any] = (),
    extra_reward_weights: Iterable[float] = (),
) -> Any:
    """A GRPOTrainer with the Lean and consistency rewards; `config.reward_weights` is set from
    the weights. `verifier` is a Verifier or (better) a zero-argument factory of one."""
    from trl import GRPOTrainer

    ds = to_dataset(dataset)
    validate_grpo_rows(ds.select(range(min(len(ds), 1000))))
    funcs, weights = make_rewards(
        verifier,
        lean_weight=lean_weight,
        consistency_weight=consistency_weight,
        consistency_steps=consistency_steps,
        timeout=timeout,
        audit_config=audit_config,
    )
    funcs += list(extra_reward_funcs)
    weights += [float(w) for w in extra_reward_weights]
    if len(weights) != len(funcs):
        raise ValueError("extra_reward_weights must have one weight per extra reward function")
    config.reward_weights = weights
    return GRPOTrainer(
        model=model,
        reward_funcs=funcs,
        args=config,
        train_dataset=ds,
        processing_class=tokenizer,
        peft_config=lora_config(r=lora_r, alpha=lora_alpha) if lora else None,
        callbacks=list(callbacks) if callbacks else None,
    )


def close_rewards(trainer: Any) -> None:
    """Close the verifiers the Lean reward created on TRL's reward loop."""
    loop = getattr(trainer, "async_loop", None)
    for func in getattr(trainer, "reward_funcs", []):
        if isinstance(func, LeanReward):
            func.close_on(loop)


def reward_summary(trainer: Any) -> dict[str, Any]:
    """Per-step reward means from the trainer's log history."""
    out: dict[str, list[float]] = {}
    for entry in trainer.state.log_history:
        for key, value in entry.items():
            if key.startswith("rewards/") or key in ("reward", "frac_reward_zero_std", "lean_reward/verifier_failures"):
                out.setdefault(key, []).append(value)
    return out


def run_grpo(
    model: Any,
    tokenizer: Any,
    dataset: Any,
    verifier: Verifier | Callable[[], Verifier],
    output_dir: str | Path,
    *,
    preset: str = "cpu",
    config: Any = None,
    lean_weight: float = 1.0,
    consistency_weight: float = 0.2,
    consistency_steps: int | None = 200,
    timeout: float | None = None,
    audit_config: AuditConfig | None = None,
    lora: bool = False,
    lora_r: int = 16,
    save: bool = True,
    **config_overrides: Any,
) -> dict[str, Any]:
    """Train with GRPO. `config` (a GRPOConfig) wins over `preset` + `config_overrides`.
    Returns JSON-safe metrics: `global_step`, `train_loss`, `rewards` (per logged step),
    `log_history`, `output_dir`."""
    if config is None:
        if preset not in PRESETS:
            raise ValueError(f"unknown preset '{preset}' (choose {', '.join(PRESETS)})")
        config = PRESETS[preset](output_dir, **config_overrides)
    trainer = build_grpo_trainer(
        model,
        tokenizer,
        dataset,
        verifier,
        config,
        lean_weight=lean_weight,
        consistency_weight=consistency_weight,
        consistency_steps=consistency_steps,
        timeout=timeout,
        audit_config=audit_config,
        lora=lora,
        lora_r=lora_r,
    )
    try:
        result = trainer.train()
    finally:
        close_rewards(trainer)
    metrics = training_metrics(trainer, result)
    metrics["rewards"] = reward_summary(trainer)
    if save:
        trainer.save_model(str(output_dir))
        if tokenizer is not None:
            tokenizer.save_pretrained(str(output_dir))
    metrics["output_dir"] = str(output_dir)
    return metrics


__all__ = [
    "GRPO_FORMAT_HINT",
    "PRESETS",
    "VLLM_PRESETS",
    "gpu_config",
    "is_benchmark_row",
    "rows_from_benchmark",
    "vllm_available",
    "build_grpo_trainer",
    "colocate_config",
    "cpu_config",
    "make_rewards",
    "run_grpo",
    "server_config",
    "validate_grpo_rows",
]

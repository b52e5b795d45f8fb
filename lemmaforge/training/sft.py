"""Supervised fine-tuning on verified proofs, through TRL's SFTTrainer.

Data: conversational prompt–completion rows,
`{"prompt": [{"role": "user", "content": …}], "completion": [{"role": "assistant", "content": …}]}`
(plain-string prompt/completion rows work too). For prompt–completion data TRL 1.16's
`completion_only_loss=None` means completion-only: prompt tokens are labelled -100, only the proof
(or the CoT plan + sketch + proof) is learned. We set it to True explicitly so that a dataset of the
wrong shape fails loudly instead of silently training on prompts.

LoRA: `lora=True` wraps the model with a peft `LoraConfig` (r, alpha, dropout, target modules,
default "all-linear"); the saved output is then the adapter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from lemmaforge.errors import InputError

TRAIN_EXTRA_HINT = "pip install 'lemmaforge[train]'"


class TrainingDataError(InputError, ValueError):
    """A training row has the wrong shape; the message names the row and the field."""


def require_train_extra(modules: tuple[str, ...] = ("torch", "transformers", "trl", "datasets", "accelerate")) -> None:
    """Raise ImportError with the install hint when the train extra (or the given part of it:
    ES needs only torch and transformers) is missing."""
    missing = []
    for module in modules:
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise ImportError(f"missing {', '.join(missing)}: {TRAIN_EXTRA_HINT}")


def _is_messages(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(m, dict) and isinstance(m.get("role"), str) and isinstance(m.get("content"), str) for m in value)
    )


def validate_sft_rows(rows: Sequence[dict[str, Any]]) -> None:
    """Every row has `prompt` and `completion`, both strings or both message lists (the completion
    ending with an assistant message). Raises TrainingDataError naming the first bad row."""
    if not rows:
        raise TrainingDataError("the SFT dataset is empty")
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise TrainingDataError(f"row {i}: expected an object with 'prompt' and 'completion'")
        for key in ("prompt", "completion"):
            if key not in row:
                raise TrainingDataError(f"row {i}: missing '{key}'")
        p, c = row["prompt"], row["completion"]
        if isinstance(p, str) and isinstance(c, str):
            if not c.strip():
                raise TrainingDataError(f"row {i}: empty 'completion'")
            continue
        if not (_is_messages(p) and _is_messages(c)):
            raise TrainingDataError(
                f"row {i}: 'prompt' and 'completion' must both be strings or both lists of "
                "{'role', 'content'} messages"
            )
        if c[-1]["role"] != "assistant":
            raise TrainingDataError(f"row {i}: the completion must end with an assistant message")


def to_dataset(data: Any) -> Any:
    """A `datasets.Dataset` from a Dataset, a list of dicts or an iterable of dicts."""
    from datasets import Dataset

    if isinstance(data, Dataset):
        return data
    if isinstance(data, dict):
        return Dataset.from_dict(data)
    return Dataset.from_list(list(data))


def default_bf16() -> bool:
    import torch

    return bool(torch.cuda.is_available() and torch.cuda.is_bf16_supported())


def checkpointing_kwargs(enabled: bool) -> dict[str, bool]:
    """Activation (gradient) checkpointing under the name this transformers version uses
    (`activation_checkpointing` since v5; `gradient_checkpointing` is its deprecated alias)."""
    from transformers import TrainingArguments

    if "activation_checkpointing" in TrainingArguments.__dataclass_fields__:
        return {"activation_checkpointing": enabled}
    return {"gradient_checkpointing": enabled}


def lora_config(
    *, r: int = 16, alpha: int | None = None, dropout: float = 0.05, target_modules: str | list[str] = "all-linear"
) -> Any:
    from peft import LoraConfig

    return LoraConfig(
        r=r,
        lora_alpha=alpha if alpha is not None else 2 * r,
        lora_dropout=dropout,
        target_modules=target_modules,
        task_type="CAUSAL_LM",
    )


def sft_config(
    output_dir: str | Path,
    *,
    max_length: int | None = 4096,
    epochs: float = 1.0,
    max_steps: int = -1,
    lr: float = 2e-5,
    batch_size: int = 1,
    grad_accum: int = 1,
    use_cpu: bool = False,
    bf16: bool | None = None,
    gradient_checkpointing: bool = False,
    logging_steps: int = 10,
    save_strategy: str = "no",
    seed: int = 0,
    report_to: str | list[str] = "none",
    **overrides: Any,
) -> Any:
    """An SFTConfig with completion-only loss and our defaults (constant-ish lr schedule left to
    TRL; override anything with keyword arguments)."""
    from trl import SFTConfig

    bf16 = (default_bf16() and not use_cpu) if bf16 is None else bf16
    kwargs: dict[str, Any] = {
        "output_dir": str(output_dir),
        "max_length": max_length,
        "num_train_epochs": epochs,
        "max_steps": max_steps,
        "learning_rate": lr,
        "per_device_train_batch_size": batch_size,
        "gradient_accumulation_steps": grad_accum,
        "use_cpu": use_cpu,
        "bf16": bf16,
        **checkpointing_kwargs(gradient_checkpointing),
        "logging_steps": logging_steps,
        "save_strategy": save_strategy,
        "seed": seed,
        "report_to": report_to,
        "completion_only_loss": True,
    }
    kwargs.update(overrides)
    return SFTConfig(**kwargs)


def build_sft_trainer(
    model: Any,
    tokenizer: Any,
    dataset: Any,
    output_dir: str | Path,
    *,
    lora: bool = False,
    lora_r: int = 16,
    lora_alpha: int | None = None,
    lora_dropout: float = 0.05,
    lora_target_modules: str | list[str] = "all-linear",
    config: Any = None,
    callbacks: Iterable[Any] | None = None,
    **config_kwargs: Any,
) -> Any:
    """An SFTTrainer ready to `.train()`. `model` is a path / hub id or a PreTrainedModel;
    `config` an SFTConfig (else built by `sft_config(output_dir, **config_kwargs)`)."""
    from trl import SFTTrainer

    ds = to_dataset(dataset)
    validate_sft_rows([ds[i] for i in range(min(len(ds), 1000))])
    args = config if config is not None else sft_config(output_dir, **config_kwargs)
    peft_config = (
        lora_config(r=lora_r, alpha=lora_alpha, dropout=lora_dropout, target_modules=lora_target_modules)
        if lora
        else None
    )
    return SFTTrainer(
        model=model,
        args=args,
        train_dataset=ds,
        processing_class=tokenizer,
        peft_config=peft_config,
        callbacks=list(callbacks) if callbacks else None,
    )


def training_metrics(trainer: Any, train_output: Any = None) -> dict[str, Any]:
    """Loss curve and summary of a finished trainer run, JSON-safe."""
    history = list(trainer.state.log_history)
    losses = [float(h["loss"]) for h in history if "loss" in h]
    out: dict[str, Any] = {
        "global_step": int(trainer.state.global_step),
        "losses": losses,
        "first_loss": losses[0] if losses else None,
        "last_loss": losses[-1] if losses else None,
        "log_history": history,
    }
    if train_output is not None:
        out["train_loss"] = float(train_output.training_loss)
        out.update({k: v for k, v in (train_output.metrics or {}).items() if isinstance(v, int | float)})
    return out


def run_sft(
    model: Any,
    tokenizer: Any,
    dataset: Any,
    output_dir: str | Path,
    *,
    lora: bool = False,
    lora_r: int = 16,
    lora_alpha: int | None = None,
    lora_dropout: float = 0.05,
    lora_target_modules: str | list[str] = "all-linear",
    max_length: int | None = 4096,
    epochs: float = 1.0,
    max_steps: int = -1,
    lr: float = 2e-5,
    batch_size: int = 1,
    grad_accum: int = 1,
    use_cpu: bool = False,
    bf16: bool | None = None,
    gradient_checkpointing: bool = False,
    logging_steps: int = 10,
    seed: int = 0,
    save: bool = True,
    **config_overrides: Any,
) -> dict[str, Any]:
    """Fine-tune on conversational prompt–completion rows with completion-only loss; save the
    model (or LoRA adapter) and tokenizer to `output_dir` when `save`. Returns JSON-safe metrics:
    `train_loss`, `global_step`, `losses` (each logged loss), `first_loss`, `last_loss`,
    `log_history`, `output_dir`."""
    trainer = build_sft_trainer(
        model,
        tokenizer,
        dataset,
        output_dir,
        lora=lora,
        lora_r=lora_r,
        lora_alpha=lora_alpha,
        lora_dropout=lora_dropout,
        lora_target_modules=lora_target_modules,
        max_length=max_length,
        epochs=epochs,
        max_steps=max_steps,
        lr=lr,
        batch_size=batch_size,
        grad_accum=grad_accum,
        use_cpu=use_cpu,
        bf16=bf16,
        gradient_checkpointing=gradient_checkpointing,
        logging_steps=logging_steps,
        seed=seed,
        **config_overrides,
    )
    result = trainer.train()
    metrics = training_metrics(trainer, result)
    if save:
        trainer.save_model(str(output_dir))
        tokenizer.save_pretrained(str(output_dir))
    metrics["output_dir"] = str(output_dir)
    return metrics

"""SFT glue of expert iteration: train the round's checkpoint from the base model on the round's
data (`training.sft`), merging a LoRA adapter so any server can load the result, and mark the
checkpoint with the data's hash so a resumed loop does not train it twice."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from lemmaforge.training.devices import free_memory
from lemmaforge.training.expert._config import ExpertIterConfig
from lemmaforge.training.runs import file_sha256
from lemmaforge.training.sft import build_sft_trainer, run_sft, training_metrics

MARKER = "lemmaforge_round.json"


def train_round(
    cfg: ExpertIterConfig, base: str, data_path: Path, rows: list[dict[str, Any]], model_dir: Path
) -> dict[str, Any]:
    """SFT from `base` on `rows` (written at `data_path`) into `model_dir`; a checkpoint already
    trained there on the same data and base (its marker file says so) is reused."""
    digest = file_sha256(data_path)
    marker = model_dir / MARKER
    if marker.is_file():
        try:
            saved = json.loads(marker.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            saved = {}
        if saved.get("data_sha256") == digest and saved.get("base") == base:
            return {**saved.get("metrics", {}), "trained": True, "reused": True}
    from transformers import AutoModelForCausalLM, AutoTokenizer  # the train extra: heavy, optional

    tok = AutoTokenizer.from_pretrained(base)
    tok.padding_side = "left"
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    model = AutoModelForCausalLM.from_pretrained(base)
    use_cpu = cfg.use_cpu or cfg.tiny
    opts: dict[str, Any] = {
        "max_length": cfg.max_length,
        "epochs": cfg.epochs,
        "max_steps": cfg.max_steps,
        "lr": cfg.lr,
        "batch_size": cfg.batch_size,
        "grad_accum": cfg.grad_accum,
        "use_cpu": use_cpu,
        "bf16": False if use_cpu else None,
        "gradient_checkpointing": cfg.gradient_checkpointing,
        "logging_steps": 1 if cfg.tiny else 10,
        "seed": cfg.seed,
        "disable_tqdm": True,
    }
    if model_dir.exists():
        shutil.rmtree(model_dir)
    if cfg.lora:
        trainer = build_sft_trainer(model, tok, rows, model_dir, lora=True, lora_r=cfg.lora_r, **opts)
        result = trainer.train()
        metrics = training_metrics(trainer, result)
        merged = trainer.model.merge_and_unload()
        merged.save_pretrained(str(model_dir))
        tok.save_pretrained(str(model_dir))
        metrics["output_dir"] = str(model_dir)
    else:
        metrics = run_sft(model, tok, rows, model_dir, **opts)
    del model
    free_memory()
    keep = {k: v for k, v in metrics.items() if k != "log_history"}
    marker.write_text(json.dumps({"data_sha256": digest, "base": base, "rows": len(rows), "metrics": keep},
                                 indent=2, default=str) + "\n", encoding="utf-8")
    return {**keep, "trained": True, "reused": False}


__all__ = ["MARKER", "train_round"]

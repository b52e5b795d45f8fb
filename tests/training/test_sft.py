"""SFT through TRL's SFTTrainer on the tiny model: completion-only loss, falling loss, LoRA."""

from __future__ import annotations

import pytest

pytest.importorskip("trl", reason="needs the train extra: pip install 'lemmaforge[train]'")

from lemmaforge.lean import syntax as lean_code  # noqa: E402
from lemmaforge.training.sft import (  # noqa: E402
    TrainingDataError,
    build_sft_trainer,
    run_sft,
    validate_sft_rows,
)


def sft_rows(problems, n=4, chars=240, short=False):
    """Non-CoT expert-iteration rows: prompt = the statement, completion = the (shortened) proof
    (`short`: a shortened prompt too, to keep the loss test fast)."""
    rows = []
    for p in problems[:n]:
        _, body = lean_code.split_header(p.proof)
        rows.append(
            {
                "prompt": [{"role": "user", "content": p.statement[:100]}] if short else p.prompt(),
                "completion": [{"role": "assistant", "content": f"```lean4\n{body[:chars]}\n```"}],
            }
        )
    return rows


FAST = {"use_cpu": True, "bf16": False, "max_length": 512, "logging_steps": 1, "disable_tqdm": True}


def test_completion_only_labels(problems, tiny_model, tiny_tokenizer, tmp_path):
    rows = sft_rows(problems, n=2)
    trainer = build_sft_trainer(tiny_model, tiny_tokenizer, rows, tmp_path, max_steps=1, **FAST)
    assert len(trainer.train_dataset) == len(rows)  # nothing truncated away
    for i, row in enumerate(rows):
        ex = trainer.train_dataset[i]
        prompt_text = tiny_tokenizer.apply_chat_template(row["prompt"], tokenize=False, add_generation_prompt=True)
        prompt_ids = tiny_tokenizer(prompt_text, add_special_tokens=False)["input_ids"]
        n = len(prompt_ids)
        assert ex["input_ids"][:n] == list(prompt_ids)
        labels = ex["labels"]
        assert labels[:n] == [-100] * n  # prompt tokens are not learned
        assert labels[n:] == ex["input_ids"][n:]  # every completion token is
        assert n < len(labels)
    batch = trainer.data_collator([trainer.train_dataset[i] for i in range(2)])
    masked = (batch["labels"] == -100) & (batch["attention_mask"] == 1)
    assert masked.any() and (batch["labels"] != -100).any()


@pytest.mark.slow
def test_sft_loss_falls(problems, tiny_model, tiny_tokenizer, tmp_path):
    metrics = run_sft(
        tiny_model, tiny_tokenizer, sft_rows(problems, short=True), tmp_path / "out", max_steps=30, lr=3e-3, batch_size=4, **FAST
    )
    assert metrics["global_step"] == 30
    assert len(metrics["losses"]) == 30
    assert metrics["last_loss"] < metrics["first_loss"] - 0.5, metrics["losses"]
    assert (tmp_path / "out" / "config.json").is_file()
    assert (tmp_path / "out" / "tokenizer.json").is_file()


@pytest.mark.slow
def test_sft_with_lora_saves_an_adapter(problems, tiny_model, tiny_tokenizer, tmp_path):
    pytest.importorskip("peft", reason="needs the train extra: pip install 'lemmaforge[train]'")
    metrics = run_sft(
        tiny_model, tiny_tokenizer, sft_rows(problems, n=2), tmp_path / "lora", lora=True, lora_r=4,
        max_steps=2, lr=1e-3, batch_size=2, **FAST
    )
    assert metrics["global_step"] == 2
    assert (tmp_path / "lora" / "adapter_config.json").is_file()


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([], "empty"),
        ([{"prompt": "p"}], "missing 'completion'"),
        ([{"prompt": [{"role": "user", "content": "p"}], "completion": "c"}], "strings or both lists"),
        ([{"prompt": [{"role": "user", "content": "p"}], "completion": [{"role": "user", "content": "c"}]}],
         "assistant"),
        (["not a dict"], "expected an object"),
    ],
)
def test_bad_sft_rows(rows, message):
    with pytest.raises(TrainingDataError, match=message):
        validate_sft_rows(rows)

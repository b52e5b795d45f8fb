"""The tiny random prover used for smoke runs: tokenizer and model built locally."""

from __future__ import annotations

import pytest

pytest.importorskip("torch", reason="needs the train extra: pip install 'lemmaforge[train]'")
pytest.importorskip("transformers", reason="needs the train extra: pip install 'lemmaforge[train]'")

import torch  # noqa: E402

from lemmaforge.training.tiny import IM_END, PAD_TOKEN, build_tiny_model, save_tiny, texts_of_rows  # noqa: E402


def test_tokenizer_round_trips_lean_and_pads_left(tiny_tokenizer, lean_texts):
    tok = tiny_tokenizer
    text = lean_texts[0]
    assert tok.decode(tok(text)["input_ids"]) == text  # byte-level: ₀ ℝ ≤ survive
    assert tok.padding_side == "left"
    assert tok.eos_token == IM_END and tok.pad_token == PAD_TOKEN
    batch = tok(["theorem t : True := by", "x"], padding=True, return_tensors="pt")
    assert batch["attention_mask"][1, 0] == 0 and batch["attention_mask"][1, -1] == 1


def test_chatml_template(tiny_tokenizer):
    msgs = [{"role": "user", "content": "Complete the following Lean 4 code"}]
    text = tiny_tokenizer.apply_chat_template(msgs, tokenize=False, add_generation_prompt=True)
    assert text == "<|im_start|>user\nComplete the following Lean 4 code<|im_end|>\n<|im_start|>assistant\n"


def test_model_generates_and_reloads(tiny_tokenizer, tmp_path):
    model = build_tiny_model(tiny_tokenizer, seed=1)
    assert model.config.vocab_size == len(tiny_tokenizer)
    enc = tiny_tokenizer(["theorem t : 1 + 1 = 2 := by"], return_tensors="pt")
    out = model.generate(**enc, max_new_tokens=5, do_sample=False)
    assert out.shape[1] <= enc["input_ids"].shape[1] + 5
    save_tiny(model, tiny_tokenizer, tmp_path / "tiny")
    from transformers import AutoModelForCausalLM, AutoTokenizer

    again = AutoModelForCausalLM.from_pretrained(tmp_path / "tiny")
    tok = AutoTokenizer.from_pretrained(tmp_path / "tiny")
    assert tok.padding_side == "left" and tok.chat_template == tiny_tokenizer.chat_template
    for (n1, p1), (_, p2) in zip(model.named_parameters(), again.named_parameters(), strict=True):
        assert torch.equal(p1, p2), n1


def test_texts_of_rows():
    rows = [{"prompt": [{"role": "user", "content": "a"}], "completion": "b", "n": 3}]
    assert texts_of_rows(rows) == ["user", "a", "b"]

"""A tiny random prover: a Qwen2-style causal LM built from a config and a BPE tokenizer trained
locally on Lean text. Nothing is downloaded.

It exists for smoke runs (`lemmaforge train sft --tiny …`), documentation and tests: the whole
training stack (SFT, GRPO, ES) runs end to end on a CPU in seconds. It proves nothing.

- tokenizer: byte-level BPE trained with `tokenizers` on the given texts (so every string
  round-trips, whatever the vocabulary), ChatML special tokens (`<|endoftext|>`, `<|im_start|>`,
  `<|im_end|>`), a ChatML chat template, left padding (GRPO generates from left-padded batches);
- model: `Qwen2ForCausalLM(Qwen2Config(...))` with random weights, eos = `<|im_end|>`, pad =
  `<|endoftext|>`.

    >>> tok = build_tokenizer(["theorem t : 1 + 1 = 2 := by norm_num"])
    >>> model = build_tiny_model(tok)
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

PAD_TOKEN = "<|endoftext|>"
IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
SPECIAL_TOKENS = (PAD_TOKEN, IM_START, IM_END)

# ChatML, as Qwen2 uses it (no default system prompt). `add_generation_prompt` opens the assistant turn.
CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)

# A few Lean lines so that a tokenizer can be built with no texts at all (and so that the usual
# Lean vocabulary is present whatever the texts are).
_SEED_TEXTS = (
    "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n",
    "theorem t (x : ℝ) (h₀ : 0 < x) : x ^ 2 > 0 := by\n  have h₁ : x ≠ 0 := by linarith\n  positivity\n",
    "Complete the following Lean 4 code:\n\n```lean4\ntheorem t : 1 + 1 = 2 := by\n  norm_num\n```\n",
)


def build_tokenizer(texts: Iterable[str] = (), *, vocab_size: int = 512, min_frequency: int = 2) -> Any:
    """A byte-level BPE `PreTrainedTokenizerFast` trained on `texts` (plus a few Lean seed lines).

    The vocabulary is at most `vocab_size` (the 256 byte symbols and the 3 special tokens included).
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    corpus = [*_SEED_TEXTS, *(t for t in texts if t)]
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=max(vocab_size, 256 + len(SPECIAL_TOKENS) + 1),
        min_frequency=min_frequency,
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator(corpus, trainer=trainer)
    tok = PreTrainedTokenizerFast(
        tokenizer_object=bpe,
        eos_token=IM_END,
        pad_token=PAD_TOKEN,
        unk_token=None,
        padding_side="left",
        model_max_length=4096,
    )
    tok.chat_template = CHATML_TEMPLATE
    return tok


def build_tiny_model(
    tokenizer: Any,
    *,
    hidden_size: int = 32,
    intermediate_size: int = 64,
    num_hidden_layers: int = 2,
    num_attention_heads: int = 4,
    num_key_value_heads: int = 2,
    max_position_embeddings: int = 4096,
    seed: int | None = 0,
) -> Any:
    """A randomly initialised `Qwen2ForCausalLM` sized for `tokenizer` (float32)."""
    import torch
    from transformers import GenerationConfig, Qwen2Config, Qwen2ForCausalLM

    eos_id = tokenizer.convert_tokens_to_ids(IM_END)
    pad_id = tokenizer.convert_tokens_to_ids(PAD_TOKEN)
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=intermediate_size,
        num_hidden_layers=num_hidden_layers,
        num_attention_heads=num_attention_heads,
        num_key_value_heads=num_key_value_heads,
        max_position_embeddings=max_position_embeddings,
        tie_word_embeddings=True,
        bos_token_id=None,
        eos_token_id=eos_id,
        pad_token_id=pad_id,
    )
    if seed is not None:
        torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config)
    model.generation_config = GenerationConfig(eos_token_id=eos_id, pad_token_id=pad_id)
    return model


def build_tiny(texts: Iterable[str] = (), *, vocab_size: int = 512, seed: int | None = 0, **model_kwargs: Any):
    """(model, tokenizer): a tokenizer trained on `texts` and a random tiny model for it."""
    tok = build_tokenizer(texts, vocab_size=vocab_size)
    return build_tiny_model(tok, seed=seed, **model_kwargs), tok


def save_tiny(model: Any, tokenizer: Any, path: str | Path) -> Path:
    """Save both so that `from_pretrained(path)` reloads them (used by `train … --tiny`)."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def texts_of_rows(rows: Iterable[dict[str, Any]]) -> list[str]:
    """Every string in prompt/completion/statement-like fields of dataset rows (messages included),
    to train a tiny tokenizer on the data it will see."""
    out: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v)

    for row in rows:
        walk(row)
    return out

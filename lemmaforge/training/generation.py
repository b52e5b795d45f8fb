"""Sampling proofs from a local transformers model (no vLLM): the pass-rate filter's sampler and
the ES reward's generation share it.

`hf_sampler(model, tokenizer)` returns `generate(prompt, n) -> list[str]`, the callable
`rewards.estimate_pass_rates` takes: the prompt (a string or chat messages, rendered with the
tokenizer's chat template) sampled `n` times on the model's own device.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def render_prompt(tokenizer: Any, prompt: Any) -> str:
    """A string prompt as is; chat messages through the tokenizer's chat template."""
    if isinstance(prompt, str):
        return prompt
    return tokenizer.apply_chat_template(prompt, tokenize=False, add_generation_prompt=True)


def hf_sampler(
    model: Any,
    tokenizer: Any,
    *,
    max_new_tokens: int = 1024,
    temperature: float = 1.0,
    top_p: float = 0.95,
    seed: int | None = 0,
) -> Callable[[Any, int], list[str]]:
    """`generate(prompt, n)`: n sampled completions (texts) of `prompt` with `model.generate`."""
    import torch

    calls = [0]

    def generate(prompt: Any, n: int) -> list[str]:
        device = next(model.parameters()).device
        enc = tokenizer([render_prompt(tokenizer, prompt)], return_tensors="pt", add_special_tokens=False).to(device)
        if seed is not None:
            torch.manual_seed(seed + calls[0])  # reproducible, but not the same sample per prompt
        calls[0] += 1
        was_training = getattr(model, "training", False)
        model.eval()
        try:
            with torch.no_grad():
                out = model.generate(
                    **enc,
                    do_sample=True,
                    temperature=temperature,
                    top_p=top_p,
                    max_new_tokens=max_new_tokens,
                    num_return_sequences=n,
                    pad_token_id=tokenizer.pad_token_id,
                )
        finally:
            if was_training:
                model.train()
        return tokenizer.batch_decode(out[:, enc["input_ids"].shape[1] :], skip_special_tokens=True)

    return generate


__all__ = ["hf_sampler", "render_prompt"]

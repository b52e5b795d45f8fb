"""Hugging Face transformers in this process: small models on CPU (extra `train`)."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any

from lemmaforge import sending
from lemmaforge.agent.backends.base import InProcessLLM, PromptInput, RawOutput, Sampling, trim_at_stop

TRANSFORMERS_MISSING = (
    "transformers/torch are not installed: pip install 'lemmaforge[train]' "
    "(or torch==2.13.0 transformers) for local generation"
)


class TransformersLLM(InProcessLLM):
    """Local generation with `transformers` (`AutoModelForCausalLM` + `AutoTokenizer`).

    Meant for small models on CPU (tests, smoke runs, expert-iteration sanity checks). Chat
    messages go through the tokenizer's chat template when it has one (otherwise they are joined
    as plain text); `n` samples come from `num_return_sequences`; `temperature == 0` is greedy;
    stop strings are trimmed after generation. Calls run one at a time in a worker thread."""

    backend = "transformers"
    scheme, packages, missing = "hf", ("torch", "transformers"), TRANSFORMERS_MISSING

    def __init__(
        self,
        model: str,
        *,
        max_tokens: int = 512,
        device: str = "cpu",
        model_kwargs: dict[str, Any] | None = None,
        tokenizer: Any = None,
        hf_model: Any = None,
        **base: Any,
    ) -> None:
        super().__init__(model, max_tokens=max_tokens, **base)
        self.device = device
        self.model_kwargs = dict(model_kwargs or {})
        # shared with the views `bind` makes: one model in memory, one generation at a time
        self._shared = SimpleNamespace(
            tokenizer=tokenizer, model=hf_model, ready=False, lock=threading.Lock()
        )

    def _load(self) -> tuple[Any, Any]:
        sh = self._shared
        if not sh.ready:
            from transformers import AutoModelForCausalLM, AutoTokenizer

            if sh.tokenizer is None:
                sh.tokenizer = AutoTokenizer.from_pretrained(self.model)
            if sh.model is None:
                sh.model = AutoModelForCausalLM.from_pretrained(self.model, **self.model_kwargs)
            sh.model.to(self.device)
            sh.model.eval()
            sh.ready = True
        return sh.model, sh.tokenizer

    def _prompt_text(self, inp: PromptInput, tok: Any) -> str:
        if isinstance(inp, str):
            return inp
        if getattr(tok, "chat_template", None):
            return tok.apply_chat_template(inp, tokenize=False, add_generation_prompt=True)
        return "\n\n".join(str(m["content"]) for m in inp) + "\n\n"

    def _run(self, inp: PromptInput, sampling: Sampling) -> RawOutput:
        import torch

        with self._shared.lock:
            hf_model, tok = self._load()
            text = self._prompt_text(inp, tok)
            enc = tok(text, return_tensors="pt", add_special_tokens=isinstance(inp, str))
            enc = {k: v.to(self.device) for k, v in enc.items()}
            prompt_len = int(enc["input_ids"].shape[1])
            # None (the server's default elsewhere): transformers' own sampling defaults
            do_sample = sampling.temperature is None or sampling.temperature > 0
            gen_kwargs: dict[str, Any] = {
                "max_new_tokens": sampling.max_tokens,
                # greedy decoding gives one answer: computed once, repeated n times (as vLLM does)
                "num_return_sequences": sampling.n if do_sample else 1,
                "do_sample": do_sample,
                "pad_token_id": tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id,
            }
            if do_sample:
                if sampling.temperature is not None:
                    gen_kwargs["temperature"] = sampling.temperature
                if sampling.top_p is not None:
                    gen_kwargs["top_p"] = sampling.top_p
            if sampling.seed is not None:
                torch.manual_seed(sampling.seed)
            with torch.no_grad():
                out = hf_model.generate(**enc, **gen_kwargs)
            if not do_sample and sampling.n > 1:
                out = out.repeat(sampling.n, 1)
        eos = tok.eos_token_id
        texts: list[str] = []
        reasons: list[str | None] = []
        per: list[int] = []
        for row in out:
            ids = row[prompt_len:].tolist()
            hit_eos = eos is not None and eos in ids
            if hit_eos:
                ids = ids[: ids.index(eos)]
            if tok.pad_token_id is not None and tok.pad_token_id != eos:
                while ids and ids[-1] == tok.pad_token_id:
                    ids.pop()
            decoded = tok.decode(ids, skip_special_tokens=True)
            decoded, hit_stop = trim_at_stop(decoded, sampling.stop)
            texts.append(decoded)
            reasons.append("stop" if hit_eos or hit_stop else "length")
            per.append(len(ids))
        return RawOutput(texts, reasons, prompt_len, sum(per), per)

    async def _generate(self, inp: PromptInput, sampling: Sampling) -> RawOutput:
        sending.sent()  # the thread runs it to the end, even if its caller is cancelled
        return await asyncio.to_thread(self._run, inp, sampling)

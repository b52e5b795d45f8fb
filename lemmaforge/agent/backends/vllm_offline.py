"""vLLM's offline engine in this process (a CUDA GPU; extra `vllm`)."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from lemmaforge.agent.backends.base import InProcessLLM, PromptInput, RawOutput, Sampling
from lemmaforge.agent.errors import LLMRequestError, LLMUnavailableError, one_line

VLLM_MISSING = "vLLM is not installed: pip install 'lemmaforge[vllm]' (needs a CUDA GPU)"


class VLLMOfflineLLM(InProcessLLM):
    """vLLM's offline engine (`vllm.LLM`) in this process.

    The engine is built on the first call (in a thread). Concurrent `generate` calls are gathered
    for `batch_wait` seconds and sent to the engine as one batch — `LLM.chat(conversations,
    sampling_params=[…])` / `LLM.generate(prompts, [...])` with one `SamplingParams(n, temperature,
    top_p, max_tokens, seed, stop)` per request — so many small prover calls share the GPU the way
    vLLM intends. `engine_kwargs` go to `vllm.LLM(model=…, **engine_kwargs)` (e.g.
    `tensor_parallel_size`, `max_model_len`, `gpu_memory_utilization`)."""

    backend = "vllm"
    scheme, packages, missing = "vllm", ("vllm",), VLLM_MISSING

    def __init__(
        self, model: str, *, engine_kwargs: dict[str, Any] | None = None, batch_wait: float = 0.01, **base: Any
    ) -> None:
        super().__init__(model, **base)
        self.engine_kwargs = dict(engine_kwargs or {})
        self.batch_wait = batch_wait
        # shared with the views `bind` makes: one engine, one queue
        self._state: dict[str, Any] = {
            "engine": None,
            "lock": threading.Lock(),
            "pending": [],
            "flusher": None,
        }

    def _get_engine(self) -> Any:
        state = self._state
        with state["lock"]:
            if state["engine"] is None:
                import vllm

                state["engine"] = vllm.LLM(model=self.model, **self.engine_kwargs)
            return state["engine"]

    def _params(self, sampling: Sampling) -> Any:
        import vllm

        # a temperature / top_p left to the server (None) is vLLM's own default (1.0)
        return vllm.SamplingParams(
            n=sampling.n,
            temperature=1.0 if sampling.temperature is None else sampling.temperature,
            top_p=1.0 if sampling.top_p is None else sampling.top_p,
            max_tokens=sampling.max_tokens,
            seed=sampling.seed,
            stop=list(sampling.stop) if sampling.stop else None,
        )

    def _run_batch(self, batch: list[tuple[PromptInput, Any, asyncio.Future]]) -> list[Any]:
        engine = self._get_engine()
        results: list[Any] = [None] * len(batch)
        chats = [i for i, (inp, _, _) in enumerate(batch) if isinstance(inp, list)]
        prompts = [i for i, (inp, _, _) in enumerate(batch) if not isinstance(inp, list)]
        if chats:
            outs = engine.chat(
                [batch[i][0] for i in chats], sampling_params=[batch[i][1] for i in chats], use_tqdm=False
            )
            for i, out in zip(chats, outs, strict=True):
                results[i] = out
        if prompts:
            outs = engine.generate(
                [batch[i][0] for i in prompts], sampling_params=[batch[i][1] for i in prompts], use_tqdm=False
            )
            for i, out in zip(prompts, outs, strict=True):
                results[i] = out
        return results

    async def _flush(self) -> None:
        state = self._state
        while state["pending"]:
            await asyncio.sleep(self.batch_wait)
            batch, state["pending"] = state["pending"], []
            live = [b for b in batch if not b[2].done()]
            if not live:
                continue
            try:
                outs = await asyncio.to_thread(self._run_batch, live)
            except (RuntimeError, OSError, MemoryError) as exc:  # the engine failed (CUDA OOM, a dead worker)
                err: BaseException = LLMUnavailableError(
                    f"vLLM engine for {self.model} failed: {one_line(exc)}", fix="check the GPU and the engine_kwargs"
                )
            except ValueError as exc:  # vLLM's answer to a prompt it cannot take (longer than max_model_len)
                err = LLMRequestError(f"vLLM engine for {self.model} refused the batch: {one_line(exc)}")
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # anything else is a bug: every waiter sees it as itself
                err = exc
            else:
                for (_, _, fut), out in zip(live, outs, strict=True):
                    if not fut.done():
                        fut.set_result(out)
                continue
            for _, _, fut in live:
                if not fut.done():
                    fut.set_exception(err)

    async def _generate(self, inp: PromptInput, sampling: Sampling) -> RawOutput:
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._state["pending"].append((inp, self._params(sampling), fut))
        flusher = self._state["flusher"]
        if flusher is None or flusher.done():
            self._state["flusher"] = asyncio.create_task(self._flush())
        out = await fut
        samples = list(out.outputs)
        per = [len(getattr(o, "token_ids", None) or []) for o in samples]
        return RawOutput(
            texts=[o.text for o in samples],
            finish_reasons=[o.finish_reason for o in samples],
            prompt_tokens=len(getattr(out, "prompt_token_ids", None) or []),
            completion_tokens=sum(per),
            per_sample_tokens=per,
        )

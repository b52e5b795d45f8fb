"""What every backend shares: the call's types (`Completion`, `LLMStats`, `Sampling`, the
backend's `RawOutput`), `BaseLLM` (defaults, input normalisation, stats, recording, `bind`) and
`InProcessLLM` (a model that runs in this process). The protocol and the factory are
`lemmaforge.agent.llm`'s; each backend lives in its own module next to this one."""

from __future__ import annotations

import asyncio
import copy
import importlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from lemmaforge.agent.errors import LLMMisconfiguredError, one_line
from lemmaforge.errors import LemmaforgeError
from lemmaforge.records import LLMCallRecord, Recorder, new_id
from lemmaforge.wire_text import wire_json, wire_text

log = logging.getLogger(__name__)

Mode = Literal["chat", "completion"]
DEFAULT_MAX_TOKENS = 8192  # a call's max_tokens when neither the call nor the endpoint sets one
Messages = list[dict[str, Any]]
PromptInput = Messages | str


@dataclass(frozen=True, slots=True)
class Completion:
    """One sampled output. `prompt_tokens` is the prompt's length (shared by the call's samples);
    `completion_tokens` is this sample's length — exact when the server reports it per sample,
    else the call's total apportioned over the samples by text length — or, for a sample told
    before its streamed call ended (`on_sample`), the chunks it came in, with `prompt_tokens` 0 (the
    server reports usage at the stream's end; the call's record has the exact totals). `call_id`
    ties the output to its `LLMCallRecord`."""

    text: str
    finish_reason: str | None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    call_id: str | None = None


@dataclass(slots=True)
class LLMStats:
    """Counters of one model object, shared by all the views `bind` makes of it."""

    calls: int = 0  # generate() calls, successful or not
    completions: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency: float = 0.0  # total seconds spent in generate()
    errors: int = 0  # generate() calls that raised
    retries: int = 0  # HTTP attempts retried after a transient failure

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Sampling:
    """Resolved sampling parameters of one call."""

    n: int
    temperature: float | None  # None: the server's / the model's default
    top_p: float | None
    max_tokens: int
    seed: int | None = None
    stop: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_tokens": self.max_tokens,
        }
        if self.seed is not None:
            out["seed"] = self.seed
        if self.stop:
            out["stop"] = list(self.stop)
        return out


@dataclass(slots=True)
class RawOutput:
    """What a backend returns for one call: texts and finish reasons in sample order, token
    counts for the whole call, and per-sample completion tokens when known."""

    texts: list[str]
    finish_reasons: list[str | None]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    per_sample_tokens: list[int] | None = None


OnSample = Callable[["Completion"], None]  # told each sample of a call as soon as it is complete


class SampleSink:
    """The samples a streaming backend has finished so far, for one call: each becomes its
    `Completion` (tied to the call) and goes to the caller's `on_sample` at once; the call's
    result lists these very objects, so a caller can tell the samples it was already given."""

    def __init__(self, call_id: str, on_sample: OnSample | None) -> None:
        self.call_id = call_id
        self.on_sample = on_sample
        self.done: dict[int, Completion] = {}  # by sample index
        self.raw_texts: dict[int, str] = {}
        self.prompt_tokens = 0

    def finish(self, index: int, text: str, finish_reason: str | None, tokens: int) -> None:
        if index in self.done:
            return
        self.raw_texts[index] = text  # exactly as the server sent it: what the call's record keeps
        completion = Completion(wire_text(text)[0], finish_reason, self.prompt_tokens, tokens, self.call_id)
        self.done[index] = completion
        if self.on_sample is not None:
            self.on_sample(completion)

    def raw(self) -> RawOutput:
        """What was finished, as a call's output (a call cancelled half-way keeps its samples)."""
        ordered = [self.done[i] for i in sorted(self.done)]
        return RawOutput(
            texts=[self.raw_texts.get(i, self.done[i].text) for i in sorted(self.done)],
            finish_reasons=[c.finish_reason for c in ordered],
            prompt_tokens=self.prompt_tokens, completion_tokens=sum(c.completion_tokens for c in ordered),
            per_sample_tokens=[c.completion_tokens for c in ordered],
        )


def apportion(total: int, texts: Sequence[str]) -> list[int]:
    """Split `total` tokens over samples in proportion to their text length (sums to `total`)."""
    if not texts:
        return []
    weights = [max(len(t), 1) for t in texts]
    s = sum(weights)
    shares = [total * w // s for w in weights]
    rest = total - sum(shares)
    for i in sorted(range(len(texts)), key=lambda i: -weights[i])[:rest]:
        shares[i] += 1
    return shares


class BaseLLM:
    """Shared machinery: defaults, input normalisation, stats, recording, `bind`.

    Subclasses implement `_generate(inp, sampling) -> RawOutput`. A view made by `bind` is a shallow
    copy: it shares the client, the semaphore and the stats object with its origin."""

    backend: str = "base"

    def __init__(
        self,
        model: str,
        *,
        endpoint: str,
        name: str | None = None,
        role: str = "llm",
        mode: Mode = "chat",
        temperature: float | None = 1.0,
        top_p: float | None = 0.95,
        max_tokens: int | None = DEFAULT_MAX_TOKENS,
        recorder: Recorder | None = None,
        run_id: str | None = None,
    ) -> None:
        if mode not in ("chat", "completion"):
            raise ValueError(f"mode must be 'chat' or 'completion', not {mode!r}")
        self.model = model
        self.endpoint = endpoint
        self.role = role
        self.name = name or f"{role}:{model}"
        self.mode: Mode = mode
        self.temperature = temperature
        self.top_p = top_p
        self.max_tokens = max_tokens or DEFAULT_MAX_TOKENS
        self.stats = LLMStats()
        self._recorder = recorder
        self._run_id = run_id

    # -- views ------------------------------------------------------------------------------

    @property
    def recorder(self) -> Recorder | None:
        return self._recorder

    @property
    def run_id(self) -> str | None:
        return self._run_id

    def bind(self, recorder: Recorder | None = None, run_id: str | None = None, *, role: str | None = None):
        """A view of this model whose calls are recorded on `recorder` under `run_id` (and
        `role`). Shares connections, the concurrency limit and `stats` with this object, so
        binding per run is cheap; close the original once at the end (closing any view closes the
        shared connection pool)."""
        view = copy.copy(self)
        view._recorder = recorder if recorder is not None else self._recorder
        view._run_id = run_id if run_id is not None else self._run_id
        if role is not None:
            view.role = role
        return view

    def has_room(self) -> bool:
        """Whether a request started now finds the model with room to spare (the search starts a
        request before it needs it only then: `[search] speculation = "prefetch"`). In-process backends say no:
        their batches are their own, and a request there is never free."""
        return False

    # -- generate ---------------------------------------------------------------------------

    def _sampling(
        self,
        n: int,
        temperature: float | None,
        top_p: float | None,
        max_tokens: int | None,
        seed: int | None,
        stop: str | Sequence[str] | None,
    ) -> Sampling:
        if n < 1:
            raise ValueError(f"n must be >= 1, not {n}")
        if isinstance(stop, str):
            stops: tuple[str, ...] | None = (stop,)
        else:
            stops = tuple(stop) if stop else None
        return Sampling(
            n=n,
            temperature=self.temperature if temperature is None else temperature,
            top_p=self.top_p if top_p is None else top_p,
            max_tokens=self.max_tokens if max_tokens is None else max_tokens,
            seed=seed,
            stop=stops,
        )

    def _normalize(self, messages_or_prompt: PromptInput) -> PromptInput:
        if self.mode == "chat":
            if isinstance(messages_or_prompt, str):
                return [{"role": "user", "content": messages_or_prompt}]
            msgs = [dict(m) for m in messages_or_prompt]
            for m in msgs:
                if "role" not in m or "content" not in m:
                    raise ValueError(f"chat messages need 'role' and 'content' keys, got {sorted(m)}")
            return msgs
        if not isinstance(messages_or_prompt, str):
            raise ValueError(
                f"{self.name} is in completion mode: pass a prompt string, not chat messages "
                "(see lemmaforge.agent.prompts for plain-text prompts)"
            )
        return messages_or_prompt

    async def generate(
        self,
        messages_or_prompt: PromptInput,
        *,
        n: int = 1,
        temperature: float | None = None,
        top_p: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        stop: str | Sequence[str] | None = None,
        on_sample: OnSample | None = None,
    ) -> list[Completion]:
        """`n` completions. `on_sample(completion)` is told each one as soon as it is complete —
        before the call returns where the backend streams (`_generate_streaming`), else when the
        call returns — exactly once, with the very objects the call returns."""
        sampling = self._sampling(n, temperature, top_p, max_tokens, seed, stop)
        # a prompt quoting odd model text is sent with its lone surrogates replaced (wire_text)
        inp, replaced_in = wire_json(self._normalize(messages_or_prompt))
        call_id = new_id()
        request: dict[str, Any] = {"mode": self.mode}
        request["messages" if isinstance(inp, list) else "prompt"] = inp
        request.update(sampling.to_json())
        if replaced_in:
            request["notes"] = [f"{replaced_in} lone surrogate(s) in the prompt sent as U+FFFD"]
        started = time.perf_counter()
        self.stats.calls += 1
        sink = SampleSink(call_id, on_sample) if on_sample is not None and self.streams(sampling) else None
        try:
            raw = await (self._generate(inp, sampling) if sink is None else self._generate_streaming(inp, sampling, sink))
        except asyncio.CancelledError:
            # A streamed call cancelled half-way (its caller had what it needed): the samples it
            # delivered are recorded with it — a candidate may cite this call.
            partial = sink.raw() if sink is not None and sink.done else None
            self._finish(call_id, request, partial, started, "cancelled")
            raise
        except LemmaforgeError as exc:  # mapped by the backend: endpoint down, misconfigured, refused
            self._finish(call_id, request, None, started, str(exc))
            raise
        except BaseException as exc:  # a bug: recorded, then it propagates as itself (never a failed sample)
            self._finish(call_id, request, None, started, f"bug: {one_line(exc)}")
            raise
        replaced_out = sum(wire_text(t)[1] for t in raw.texts)
        if replaced_out:  # the record keeps the texts exactly; the caller gets them usable
            request.setdefault("notes", []).append(
                f"{replaced_out} lone surrogate(s) in the completions used as U+FFFD (the record keeps them)")
            log.info("%s: %d lone surrogate(s) in the completions replaced by U+FFFD", self.name, replaced_out)
        self._finish(call_id, request, raw, started, None)
        if sink is not None:
            return [sink.done[i] for i in sorted(sink.done)]
        per = raw.per_sample_tokens or apportion(raw.completion_tokens, raw.texts)
        out = [
            Completion(wire_text(text)[0], reason, raw.prompt_tokens, tokens, call_id)
            for text, reason, tokens in zip(raw.texts, raw.finish_reasons, per, strict=True)
        ]
        if on_sample is not None:
            for completion in out:
                on_sample(completion)
        return out

    def streams(self, sampling: Sampling) -> bool:
        """Whether this call's samples can reach `on_sample` one by one as each finishes (a
        backend that streams says so and implements `_generate_streaming`)."""
        return False

    async def _generate_streaming(self, inp: PromptInput, sampling: Sampling, sink: SampleSink) -> RawOutput:
        """`_generate`, telling `sink.finish(index, …)` as each sample completes; returns the whole
        call's output (its token counts included), every sample of which went through `sink`."""
        raise NotImplementedError  # pragma: no cover - only called where `streams` says yes

    def _describe(self, exc: BaseException | str) -> str:
        return f"LLM endpoint {self.endpoint} (model {self.model}) failed: {one_line(exc)}"

    def _finish(
        self, call_id: str, request: dict[str, Any], raw: RawOutput | None, started: float, error: str | None
    ) -> None:
        latency = time.perf_counter() - started
        self.stats.latency += latency
        if raw is None:
            self.stats.errors += 1
        else:
            self.stats.completions += len(raw.texts)
            self.stats.prompt_tokens += raw.prompt_tokens
            self.stats.completion_tokens += raw.completion_tokens
        if self._recorder is None:
            return
        record = LLMCallRecord(
            run_id=self._run_id,
            call_id=call_id,
            role=self.role,
            endpoint=self.endpoint,
            model=self.model,
            request=request,
            completions=list(raw.texts) if raw else [],
            finish_reasons=list(raw.finish_reasons) if raw else [],
            prompt_tokens=raw.prompt_tokens if raw else 0,
            completion_tokens=raw.completion_tokens if raw else 0,
            latency=latency,
            error=error,
        )
        try:
            self._recorder.emit(record)
        except Exception:  # a broken recorder must not lose the model's answer
            log.exception("recorder failed to store LLM call %s", call_id)

    async def _generate(self, inp: PromptInput, sampling: Sampling) -> RawOutput:  # pragma: no cover
        raise NotImplementedError

    async def close(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(endpoint={self.endpoint!r}, model={self.model!r}, role={self.role!r})"


def trim_at_stop(text: str, stop: tuple[str, ...] | None) -> tuple[str, bool]:
    """Cut `text` at the first stop string (excluded, as OpenAI-style servers do)."""
    if not stop:
        return text, False
    cut = min((i for i in (text.find(s) for s in stop if s) if i >= 0), default=-1)
    return (text[:cut], True) if cut >= 0 else (text, False)




class InProcessLLM(BaseLLM):
    """A model that runs in this process: `scheme://model` is its endpoint, and its `packages`
    must import (else `LLMMisconfiguredError(missing)`, one line saying what to install). Keyword
    arguments are BaseLLM's (name, role, mode, temperature, top_p, max_tokens, recorder, run_id)."""

    scheme: str = ""
    packages: tuple[str, ...] = ()
    missing: str = ""

    def __init__(self, model: str, **base: Any) -> None:
        for package in self.packages:
            try:
                importlib.import_module(package)
            except ImportError as exc:
                raise LLMMisconfiguredError(self.missing) from exc
        super().__init__(model, endpoint=f"{self.scheme}://{model}", **base)

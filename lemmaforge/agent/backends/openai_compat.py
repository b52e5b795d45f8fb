"""OpenAI-compatible HTTP servers (`vllm serve`, SGLang, hosted APIs) through `openai.AsyncOpenAI`.
The mapping of the client's exceptions onto the LLM error kinds is in `openai_errors.py`; the
stream's server-sent events and the hook that tells a request's budget it left, in `openai_wire.py`."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import httpx
import openai
from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, stop_after_delay

from lemmaforge import sending, waits
from lemmaforge.agent.backends.base import (
    DEFAULT_MAX_TOKENS,
    BaseLLM,
    Mode,
    PromptInput,
    RawOutput,
    SampleSink,
    Sampling,
    apportion,
)
from lemmaforge.agent.backends.openai_errors import (
    _TRANSPORT_ERRORS,
    _DeadlineTimeout,
    _retry_after,
    is_transient,
    map_openai_error,
)
from lemmaforge.agent.backends.openai_wire import _tell_when_written, sse_data
from lemmaforge.agent.errors import LLMMisconfiguredError, one_line
from lemmaforge.model_choice import choose_model
from lemmaforge.records import Recorder
from lemmaforge.waits import Wait

if TYPE_CHECKING:
    from lemmaforge.config import LLMEndpoint

log = logging.getLogger(__name__)

DEFAULT_API_KEY = "EMPTY"  # what `vllm serve` accepts when started without --api-key


MIN_TOKENS_PER_SECOND = 25.0  # the slowest decode rate a request is given time for
REQUEST_TIMEOUT_BASE = 30.0  # seconds on top: queueing, prefill, network
CONNECT_TIMEOUT = 10.0
MODELS_DEADLINE = 60.0  # GET /models, from sending it to its last byte


def request_timeout(max_tokens: int, configured: float | None = None) -> float:
    """Seconds one generation request may take: `configured` when set, else sized to `max_tokens`
    (`REQUEST_TIMEOUT_BASE + max_tokens / MIN_TOKENS_PER_SECOND`: 8192 tokens → about 6 minutes)."""
    if configured is not None:
        return configured
    return REQUEST_TIMEOUT_BASE + max(int(max_tokens), 1) / MIN_TOKENS_PER_SECOND


class OpenAICompatibleLLM(BaseLLM):
    """An OpenAI-compatible server (`vllm serve`, SGLang, hosted APIs) through `openai.AsyncOpenAI`.

    - `mode="chat"` uses `/chat/completions`, `mode="completion"` uses `/completions`.
    - `n`, `temperature`, `top_p`, `max_tokens`, `seed`, `stop` are passed through; `extra_body`
      adds server-specific parameters to every request (e.g. vLLM's `{"top_k": 20}`).
    - `native_n=False` for servers that reject `n > 1`: the call fans out into `n` concurrent
      requests with `n=1` (seeds `seed, seed+1, …` when a seed is given).
    - `stream_samples=True`: a caller that wants each sample as soon as it is complete
      (`generate(on_sample=…)`: the search checks a prover's candidates while the others are still
      decoding) gets a streamed request (`stream=True`, usage included) when `n > 1`; a stream that
      breaks is retried for the samples not yet delivered. Off by default: each server-sent event
      costs the event loop ~60 µs, and servers send one per token unless run with
      `--stream-interval` (vLLM, SGLang; 256 gives a few events per sample).
    - At most `concurrency` requests are in flight per object (and its `bind` views).
    - The client's own retries are off; ours (tenacity) retry connection errors, timeouts, 408,
      429 (honouring `Retry-After` up to `backoff_max`) and 5xx with exponential backoff
      `backoff * 2**k` (capped at `backoff_max`), at most `retries` times and not after
      `retry_deadline` seconds; then `LLMUnavailableError`. Each request may take `timeout`
      seconds (None: `request_timeout(max_tokens)`).
    - `model=None`: the only model the server lists under `/v1/models` (vLLM serves one); several:
      LLMMisconfiguredError (`model_choice.choose_model`, the rule every command applies).
    - API key: `api_key`, else the environment variable `api_key_env`, else "EMPTY".
    """

    backend = "openai"

    def __init__(
        self,
        url: str,
        model: str | None = None,
        *,
        name: str | None = None,
        role: str = "llm",
        mode: Mode = "chat",
        api_key: str | None = None,
        api_key_env: str | None = "OPENAI_API_KEY",
        temperature: float | None = 1.0,
        top_p: float | None = 0.95,
        max_tokens: int = 8192,
        concurrency: int = 16,
        timeout: float | None = None,
        retries: int = 5,
        backoff: float = 1.0,
        backoff_max: float = 30.0,
        retry_deadline: float = 120.0,
        native_n: bool = True,
        stream_samples: bool = False,
        extra_body: dict[str, Any] | None = None,
        recorder: Recorder | None = None,
        run_id: str | None = None,
    ) -> None:
        super().__init__(
            model or "",
            endpoint=url,
            name=name,
            role=role,
            mode=mode,
            temperature=temperature,
            top_p=top_p,
            max_tokens=max_tokens,
            recorder=recorder,
            run_id=run_id,
        )
        if concurrency < 1:
            raise ValueError(f"concurrency must be >= 1, not {concurrency}")
        if retries < 0:
            raise ValueError(f"retries must be >= 0, not {retries}")
        self.url = url
        self.concurrency = concurrency
        self.timeout = timeout
        self.retry_deadline = retry_deadline
        self.api_key_env = api_key_env
        self.retries = retries
        self.backoff = backoff
        self.backoff_max = backoff_max
        self.native_n = native_n
        self.stream_samples = stream_samples
        self.extra_body = dict(extra_body or {})
        key = api_key or (os.environ.get(api_key_env) if api_key_env else None) or DEFAULT_API_KEY
        # the per-request timeout is set on each call (`request_timeout`); this one covers /models
        self._client = openai.AsyncOpenAI(
            base_url=url, api_key=key, max_retries=0,
            # the SDK's annotation names its own httpx alias; the object is httpx's Timeout, as it expects
            timeout=cast(Any, httpx.Timeout(timeout or 60.0, connect=CONNECT_TIMEOUT)),
            http_client=openai.DefaultAsyncHttpxClient(event_hooks={"request": [_tell_when_written]}),
        )
        self._semaphore = asyncio.Semaphore(concurrency)
        # mutable state shared with the views `bind` makes (a view is a shallow copy)
        self._shared = SimpleNamespace(model=model or "", model_lock=asyncio.Lock(), requests=0)
        self._default_name = name is None
        if not model and name is None:
            self.name = f"{role}:{url}"

    @classmethod
    def from_endpoint(cls, endpoint: LLMEndpoint, role: str, **kwargs: Any) -> OpenAICompatibleLLM:
        if not endpoint.url:
            raise LLMMisconfiguredError(f"no URL configured for the {role} model: set [{role}].url")
        opts: dict[str, Any] = {
            "model": endpoint.model,
            "role": role,
            "api_key_env": endpoint.api_key_env,
            # None: not sent unless the caller gives one (the server's default)
            "temperature": endpoint.temperature,
            "top_p": endpoint.top_p,
            "max_tokens": endpoint.max_tokens or DEFAULT_MAX_TOKENS,
            "concurrency": endpoint.concurrency,
            "timeout": endpoint.timeout,
            "mode": endpoint.mode or "chat",
            "native_n": endpoint.native_n,
            "stream_samples": endpoint.stream_samples,
            "retries": endpoint.retries,
            "backoff": endpoint.backoff,
            "backoff_max": endpoint.backoff_max,
            "retry_deadline": endpoint.retry_deadline,
            "extra_body": endpoint.extra_body,
        }
        opts.update(kwargs)
        return cls(endpoint.url, **opts)

    # -- one HTTP request -------------------------------------------------------------------

    async def _resolve_model(self) -> None:
        """`model=None`: ask the server (`GET /models`) once, for this object and its views."""
        shared = self._shared
        if not shared.model:
            async with shared.model_lock:
                if not shared.model:
                    page = await self._with_retries(self._list_models)
                    ids = [str(m.id) for m in getattr(page, "data", None) or []]
                    # the one rule `doctor`, `prove` and `bench` apply (taking the first of several
                    # would silently pick one for every role)
                    choice = choose_model(self.role, None, ids)
                    if choice.model is None:
                        raise LLMMisconfiguredError(choice.problem or "no model", backend=f"LLM endpoint {self.url}",
                                                    fix=choice.fix or "")
                    shared.model = choice.model
        if self.model != shared.model:
            self.model = shared.model
            if self._default_name:
                self.name = f"{self.role}:{self.model}"

    async def _list_models(self) -> Any:
        try:
            async with asyncio.timeout(MODELS_DEADLINE):  # in all: a trickled answer ends too
                return await self._client.models.list()
        except TimeoutError:
            raise _DeadlineTimeout(f"no complete answer to GET /models within {MODELS_DEADLINE:g} s") from None

    def _request_kwargs(self, sampling: Sampling, n: int, seed: int | None) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.model, "n": n}
        # A temperature / top_p left None is not sent: the server applies its own (vLLM: the
        # model's generation_config), as reasoning models and some families' authors expect.
        if sampling.temperature is not None:
            kwargs["temperature"] = sampling.temperature
        if sampling.top_p is not None:
            kwargs["top_p"] = sampling.top_p
        kwargs["max_tokens"] = sampling.max_tokens
        if seed is not None:
            kwargs["seed"] = seed
        if sampling.stop:
            kwargs["stop"] = list(sampling.stop)
        if self.extra_body:
            kwargs["extra_body"] = self.extra_body
        kwargs["timeout"] = httpx.Timeout(
            request_timeout(sampling.max_tokens, self.timeout), connect=CONNECT_TIMEOUT
        )
        return kwargs

    async def _create(self, inp: PromptInput, kwargs: dict[str, Any], wait: Wait | None = None) -> Any:
        """The parsed response. Read as a streaming response (the body still in one piece) so
        that the moment the headers arrive is known: a body trickled after them is a stall
        (`lemmaforge.waits`)."""
        async with self._open_stream(inp, kwargs) as response:
            if wait is not None:
                wait.headers()
            return await response.parse()

    def _deadline(self, sampling: Sampling) -> float:
        """The total seconds one request (a stream included) may take, from sending it to its
        last byte: per-read timeouts alone never end a server that trickles a byte at a time."""
        return request_timeout(sampling.max_tokens, self.timeout)

    async def _request(self, inp: PromptInput, sampling: Sampling, n: int, seed: int | None) -> RawOutput:
        kwargs = self._request_kwargs(sampling, n, seed)
        deadline = self._deadline(sampling)
        self._shared.requests += 1  # waiting for a slot or in flight
        sending.queued()
        try:
            async with self._semaphore:  # (it leaves when its body is written: `_tell_when_written`)
                with waits.waiting(self._where()) as wait:
                    try:
                        async with asyncio.timeout(deadline):
                            resp = await self._create(inp, kwargs, wait)
                    except TimeoutError:
                        raise _DeadlineTimeout(f"no complete answer within the request's {deadline:g} s deadline") from None
        finally:
            self._shared.requests -= 1
        return self._parse(resp, chat=isinstance(inp, list), n=n)

    def _open_stream(self, inp: PromptInput, kwargs: dict[str, Any]) -> Any:
        """The streamed response, unparsed (`with_streaming_response`: the SDK sends the request
        and raises its status errors, its per-event objects are not built — ~90 µs an event
        against ~3 µs for `json.loads`, and vLLM sends an event per token unless `--stream-interval`
        says otherwise: 8 samples of 443 tokens are 3,500 events)."""
        if isinstance(inp, list):
            return self._client.chat.completions.with_streaming_response.create(messages=cast(Any, inp), **kwargs)
        return self._client.completions.with_streaming_response.create(prompt=inp, **kwargs)

    async def _stream_request(self, inp: PromptInput, sampling: Sampling, indices: list[int],
                              sink: SampleSink) -> tuple[int, int] | None:
        """One streamed request for the samples `indices` (the stream's choice i is sample
        `indices[i]`): each goes to `sink` when its `finish_reason` arrives. Returns the
        request's (prompt, completion) token counts when the server reported them
        (`stream_options.include_usage`). A stream that breaks or ends before every sample
        finished raises ConnectionError (transient: the retry asks for the unfinished ones)."""
        kwargs = self._request_kwargs(sampling, len(indices), sampling.seed)
        kwargs["stream"] = True
        kwargs["stream_options"] = {"include_usage": True}
        chat = isinstance(inp, list)
        pieces: dict[int, list[str]] = {}
        usage: tuple[int, int] | None = None
        events = 0
        deadline = self._deadline(sampling)
        self._shared.requests += 1
        sending.queued()
        try:
            async with self._semaphore:
                with waits.waiting(self._where(), streamed=True) as wait:
                    async with asyncio.timeout(deadline), self._open_stream(inp, kwargs) as response:
                        wait.headers()
                        # closing the response (a cancelled call too) closes the stream: the server aborts it
                        async for data in sse_data(response.iter_lines()):
                            wait.progress()
                            if data == "[DONE]":
                                break
                            events += 1
                            chunk = self._event(data)
                            reported = chunk.get("usage")
                            if isinstance(reported, dict):
                                usage = (int(reported.get("prompt_tokens") or 0),
                                         int(reported.get("completion_tokens") or 0))
                            for choice in chunk.get("choices") or []:
                                self._take_piece(choice, chat, indices, pieces, sink)
        except _TRANSPORT_ERRORS as exc:  # the connection broke half-way through the stream
            raise ConnectionError(f"the stream broke: {one_line(exc)}") from exc
        except TimeoutError:  # asyncio.timeout's own: the samples not yet told are asked again
            raise _DeadlineTimeout(f"the stream was not complete within the request's {deadline:g} s deadline") from None
        finally:
            self._shared.requests -= 1
        if not events:  # a clean end without a single event: the server answered, but not as a stream
            raise self._misconfigured(
                "answered a streamed request (stream=true) without any server-sent event",
                fix=f"set [{self.role}].stream_samples = false for servers that do not stream",
            )
        unfinished = [i for i in indices if i not in sink.done]
        if unfinished:
            raise ConnectionError(f"the stream ended before {len(unfinished)} of {len(indices)} sample(s) finished")
        return usage

    def _event(self, data: str) -> dict[str, Any]:
        """One server-sent event's JSON. An `error` event (vLLM sends one when generation fails
        mid-stream) is transient: the retry asks again for the samples not yet told."""
        try:
            chunk = json.loads(data)
        except json.JSONDecodeError as exc:
            raise self._misconfigured(f"streamed an event that is not JSON: {data[:80]!r}") from exc
        if not isinstance(chunk, dict):
            raise self._misconfigured(f"streamed an event that is not a JSON object: {data[:80]!r}")
        error = chunk.get("error")
        if error is not None:
            message = error.get("message") if isinstance(error, dict) else error
            raise ConnectionError(f"the server reported an error mid-stream: {one_line(str(message))}")
        return chunk

    def _take_piece(self, choice: Any, chat: bool, indices: list[int], pieces: dict[int, list[str]],
                    sink: SampleSink) -> None:
        """One streamed choice delta: its text appended; the sample delivered when it finishes."""
        if not isinstance(choice, dict):
            raise self._misconfigured(f"streamed a choice that is not a JSON object: {choice!r:.80}")
        i = choice.get("index")
        if not isinstance(i, int) or not 0 <= i < len(indices):
            raise self._misconfigured(f"streamed a choice with index {i!r} for n={len(indices)}")
        if chat:
            delta = choice.get("delta")
            piece = delta.get("content") if isinstance(delta, dict) else None
        else:
            piece = choice.get("text")
        if piece is not None and not isinstance(piece, str):
            raise self._misconfigured(f"streamed a choice whose text is a {type(piece).__name__}")
        parts = pieces.setdefault(i, [])
        if piece:
            parts.append(piece)
        reason = choice.get("finish_reason")
        if reason is not None:
            # tokens: the sample's chunks (one per decoding step on vLLM's default
            # --stream-interval 1); the call's total comes from the server's usage report
            sink.finish(indices[i], "".join(parts), str(reason), len(parts))

    def has_room(self) -> bool:
        """Fewer requests out (in flight or waiting for a slot, this object and its views) than
        half of `concurrency`: the server, sized by that limit, has room for one more."""
        return self._shared.requests < max(1, self.concurrency // 2)

    def _parse(self, resp: Any, *, chat: bool, n: int) -> RawOutput:
        """The texts of an OpenAI response, checked for its shape: the client builds its objects
        without validation, so a server that answers 200 with another JSON shape, no `choices` or
        an empty list would otherwise look like a model that said nothing."""
        choices = getattr(resp, "choices", None)
        if not isinstance(choices, list):
            raise self._misconfigured("answered 200 without a `choices` list (not an OpenAI-compatible response)")
        if not choices:
            raise self._misconfigured("answered 200 with an empty `choices` list")
        if len(choices) != n:
            raise self._misconfigured(
                f"answered {len(choices)} choice(s) for n={n}",
                fix=f"set [{self.role}].native_n = false for servers that ignore n",
            )
        texts: list[str] = []
        reasons: list[str | None] = []
        for c in sorted(choices, key=lambda c: getattr(c, "index", None) or 0):
            if chat:
                message = getattr(c, "message", None)
                if message is None:
                    raise self._misconfigured("answered a choice without a message")
                content = getattr(message, "content", None)  # None is allowed (e.g. a refusal)
            else:
                content = getattr(c, "text", None)
                if content is None:
                    raise self._misconfigured("answered a choice without text")
            if not isinstance(content, str | None):
                raise self._misconfigured(f"answered a choice whose text is a {type(content).__name__}")
            texts.append(content or "")
            reasons.append(getattr(c, "finish_reason", None))
        usage = getattr(resp, "usage", None)
        return RawOutput(
            texts=texts,
            finish_reasons=reasons,
            prompt_tokens=(getattr(usage, "prompt_tokens", 0) or 0) if usage else 0,
            completion_tokens=(getattr(usage, "completion_tokens", 0) or 0) if usage else 0,
        )

    def _where(self) -> str:
        return f"LLM endpoint {self.url} (model {self.model or '?'})"

    def _misconfigured(self, detail: str, fix: str | None = None) -> LLMMisconfiguredError:
        return LLMMisconfiguredError(
            detail, backend=self._where(),
            fix=fix or f"point [{self.role}].url at an OpenAI-compatible server: vLLM, SGLang or a hosted API",
        )

    def _wait(self, state: Any) -> float:
        k = max(state.attempt_number - 1, 0)
        delay = min(self.backoff * (2**k), self.backoff_max)
        exc = state.outcome.exception() if state.outcome else None
        after = _retry_after(exc)
        if after is not None:
            delay = min(max(delay, after), self.backoff_max)
        return delay

    def _count_retry(self, state: Any) -> None:
        self.stats.retries += 1
        exc = state.outcome.exception() if state.outcome else None
        log.info(  # the final error, if any, says how many attempts were made: one line on stderr
            "LLM %s (%s): attempt %d failed (%s); retrying",
            self.url,
            self.model,
            state.attempt_number,
            one_line(exc) if exc else "?",
        )

    async def _with_retries(self, fn):
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.retries + 1) | stop_after_delay(self.retry_deadline),
            wait=self._wait,
            retry=retry_if_exception(is_transient),
            before_sleep=self._count_retry,
            reraise=True,
        )
        tries = 0
        try:
            async for attempt in retrying:
                with attempt:
                    tries += 1
                    return await fn()
        # Only what the client raises is mapped; anything else (a bug) propagates as itself.
        except (openai.OpenAIError, json.JSONDecodeError, UnicodeDecodeError, TimeoutError, ConnectionError) as exc:
            mapped = map_openai_error(
                exc, where=self._where(), role=self.role, api_key_env=self.api_key_env, attempts=tries
            )
            if mapped is None:  # pragma: no cover - every caught type maps
                raise
            raise mapped from exc
        raise AssertionError("unreachable")  # pragma: no cover

    async def _generate(self, inp: PromptInput, sampling: Sampling) -> RawOutput:
        sending.queued()  # from here the request waits inside the client until `_request` sends it
        await self._resolve_model()
        if sampling.n == 1 or self.native_n:
            return await self._with_retries(lambda: self._request(inp, sampling, sampling.n, sampling.seed))
        return self._joined(await self._fan_out(inp, sampling))

    def streams(self, sampling: Sampling) -> bool:
        """n > 1 and either streamed (`stream_samples`) or fanned out into n requests
        (`native_n=False`), each sample then complete when its own request answers."""
        return sampling.n > 1 and (self.stream_samples or not self.native_n)

    async def _generate_streaming(self, inp: PromptInput, sampling: Sampling, sink: SampleSink) -> RawOutput:
        sending.queued()
        await self._resolve_model()
        if not self.native_n:
            parts = await self._fan_out(inp, sampling, sink)
            return self._joined(parts)
        prompt_tokens, completion_tokens, reported = 0, 0, False

        async def unfinished_samples() -> None:
            # A retry asks only for the samples not yet delivered: those are the caller's already.
            nonlocal prompt_tokens, completion_tokens, reported
            usage = await self._stream_request(inp, sampling, [i for i in range(sampling.n) if i not in sink.done], sink)
            if usage is not None:
                reported = True
                prompt_tokens = max(prompt_tokens, usage[0])
                completion_tokens += usage[1]

        await self._with_retries(unfinished_samples)
        sink.prompt_tokens = prompt_tokens
        raw = sink.raw()
        if reported:
            raw.completion_tokens = completion_tokens
        return raw

    async def _fan_out(self, inp: PromptInput, sampling: Sampling, sink: SampleSink | None = None) -> list[RawOutput]:
        """`n` requests with n=1 (seeds `seed + i`), each sample told to `sink` as its request answers."""

        async def one(i: int) -> RawOutput:
            seed = None if sampling.seed is None else sampling.seed + i
            raw = await self._with_retries(lambda: self._request(inp, sampling, 1, seed))
            if sink is not None:
                sink.prompt_tokens = raw.prompt_tokens
                sink.finish(i, raw.texts[0], raw.finish_reasons[0], raw.completion_tokens)
            return raw

        try:
            async with asyncio.TaskGroup() as tg:
                tasks = [tg.create_task(one(i)) for i in range(sampling.n)]
        except BaseExceptionGroup as group:  # the call fails as its first failed request
            first: BaseException = group
            while isinstance(first, BaseExceptionGroup):
                first = first.exceptions[0]
            raise first from None
        return [t.result() for t in tasks]

    @staticmethod
    def _joined(parts: list[RawOutput]) -> RawOutput:
        per_sample: list[int] = []
        for p in parts:
            per_sample.extend(apportion(p.completion_tokens, p.texts))
        return RawOutput(
            texts=[t for p in parts for t in p.texts],
            finish_reasons=[r for p in parts for r in p.finish_reasons],
            prompt_tokens=max((p.prompt_tokens for p in parts), default=0),
            completion_tokens=sum(p.completion_tokens for p in parts),
            per_sample_tokens=per_sample,
        )

    async def close(self) -> None:
        await self._client.close()

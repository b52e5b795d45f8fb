"""Language models behind one async interface.

Everything the planner and the prover ask of a model goes through `LLM.generate`, which returns
`Completion`s and records the call (request, outputs, finish reasons, tokens, latency, error) as an
`LLMCallRecord` on the `Recorder` the call site bound (`llm.bind(recorder, run_id)`).

Backends (chosen by `make_llm` from the endpoint's URL scheme, or an explicit `backend`):

| URL                             | backend                | where                                        |
|---------------------------------|------------------------|----------------------------------------------|
| `http(s)://host:port/v1`        | `OpenAICompatibleLLM`  | `vllm serve`, SGLang, hosted OpenAI-style APIs |
| `vllm://MODEL` (name or path)   | `VLLMOfflineLLM`       | in-process vLLM on a CUDA GPU (extra `vllm`)  |
| `hf://MODEL` (name or path)     | `TransformersLLM`      | in-process HF transformers, small models, CPU (extra `train`) |

Two input modes: `chat` (a list of `{"role", "content"}` messages; a plain string becomes one user
message) and `completion` (a raw prompt string, no chat template: `/v1/completions`).

Errors (the tree is `lemmaforge.errors`; library exceptions are mapped here, at the boundary):

| what the endpoint did                                         | raised                  | kind                 |
|---------------------------------------------------------------|-------------------------|----------------------|
| 401 / 403, 404 or "model … does not exist", other 4xx/405     | `LLMMisconfiguredError` | fatal at once        |
| 200 with garbage / truncated JSON, another shape, no `choices`, empty `choices`, fewer choices than `n` | `LLMMisconfiguredError` | fatal at once |
| connection refused / reset, timeout, 408, 429, 5xx             | `LLMUnavailableError`   | retried with backoff within `retries` and `retry_deadline`, then fatal |
| 400 / 413 / 422 about the request's content (prompt too long)  | `LLMRequestError`       | a failed attempt     |

Anything else (an `AttributeError` in a backend…) is a bug: it propagates as itself, never as a
failed sample. Every message is one line naming the endpoint URL, the model and the fix.

Timeouts: each HTTP request may take `timeout` seconds (`None`, the default: sized to the call's
`max_tokens` by `request_timeout`), with 10 s to connect; retries stop after `retries` retries or
once `retry_deadline` seconds have passed since the first try, whichever comes first.
"""

from __future__ import annotations

import asyncio
import copy
import importlib
import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

import httpx

from lemmaforge.errors import AttemptFailed, BackendMisconfigured, BackendUnavailable, LemmaforgeError
from lemmaforge.records import LLMCallRecord, Recorder, new_id

if TYPE_CHECKING:
    from lemmaforge.config import LLMEndpoint

log = logging.getLogger(__name__)

Mode = Literal["chat", "completion"]
Messages = list[dict[str, Any]]
PromptInput = Messages | str

DEFAULT_API_KEY = "EMPTY"  # what `vllm serve` accepts when started without --api-key


# ---------------------------------------------------------------------------------------------
# Results, stats, errors
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Completion:
    """One sampled output. `prompt_tokens` is the prompt's length (shared by the call's samples);
    `completion_tokens` is this sample's length — exact when the server reports it per sample,
    else the call's total apportioned over the samples by text length. `call_id` ties the output to
    its `LLMCallRecord`."""

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


class LLMError(LemmaforgeError):
    """A model call failed. The message is one line that names the endpoint and the model.
    Never raised itself: one of the three kinds below says what the caller should do."""


class LLMMisconfiguredError(LLMError, BackendMisconfigured):
    """Retrying cannot help and it is not the model's fault: a wrong API key (401/403), an unknown
    model or URL (404, "model does not exist"), a response that is not the OpenAI shape (garbage
    or truncated JSON, missing fields, empty `choices`), a backend that is not installed or not
    configured. Fatal at once."""


class LLMUnavailableError(LLMError, BackendUnavailable):
    """The endpoint cannot serve right now: unreachable, timing out, overloaded (429) or failing
    (5xx) after every retry within the retry deadline. Fatal once the retries are spent."""


class LLMRequestError(LLMError, AttemptFailed):
    """The endpoint refused this one request for a reason of its content (a 400/413/422 such as a
    prompt longer than the context): a failed attempt, counted; the next request may pass."""

    def __init__(self, message: str, status_code: int | None = None) -> None:
        super().__init__(message)
        self.status_code = status_code


def one_line(exc: BaseException | str, limit: int = 400) -> str:
    """`TypeName: message` on one line, with the cause of a bare connection error appended."""
    if isinstance(exc, str):
        text = exc
    else:
        text = f"{type(exc).__name__}: {exc}".rstrip(": ")
        cause = exc.__cause__ or exc.__context__
        # a bare "Connection error." says little: name what failed underneath (not for HTTP statuses,
        # whose message already has the server's answer)
        if (
            getattr(exc, "status_code", None) is None
            and cause is not None
            and str(cause)
            and str(cause) not in text
        ):
            text += f" ({type(cause).__name__}: {cause})"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------------------------
# The protocol
# ---------------------------------------------------------------------------------------------


@runtime_checkable
class LLM(Protocol):
    """What the planner, the prover and the search need from a model.

    `generate` returns `n` completions for one input (chat messages, or a prompt string in
    completion mode); sampling parameters left `None` come from the endpoint's configuration.
    `bind` returns a view of the same model (same connection pool, concurrency limit and stats)
    whose calls are recorded on another recorder / run / role."""

    name: str
    model: str
    mode: Mode
    role: str
    stats: LLMStats

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
    ) -> list[Completion]: ...

    def bind(
        self, recorder: Recorder | None = None, run_id: str | None = None, *, role: str | None = None
    ) -> LLM: ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Sampling:
    """Resolved sampling parameters of one call."""

    n: int
    temperature: float
    top_p: float
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
class _Raw:
    """What a backend returns for one call: texts and finish reasons in sample order, token
    counts for the whole call, and per-sample completion tokens when known."""

    texts: list[str]
    finish_reasons: list[str | None]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    per_sample_tokens: list[int] | None = None


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

    Subclasses implement `_generate(inp, sampling) -> _Raw`. A view made by `bind` is a shallow
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
        temperature: float = 1.0,
        top_p: float = 0.95,
        max_tokens: int = 8192,
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
        self.max_tokens = max_tokens
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
    ) -> list[Completion]:
        sampling = self._sampling(n, temperature, top_p, max_tokens, seed, stop)
        inp = self._normalize(messages_or_prompt)
        call_id = new_id()
        request: dict[str, Any] = {"mode": self.mode}
        request["messages" if isinstance(inp, list) else "prompt"] = inp
        request.update(sampling.to_json())
        started = time.perf_counter()
        self.stats.calls += 1
        try:
            raw = await self._generate(inp, sampling)
        except asyncio.CancelledError:
            self._finish(call_id, request, None, started, "cancelled")
            raise
        except LemmaforgeError as exc:  # mapped by the backend: endpoint down, misconfigured, refused
            self._finish(call_id, request, None, started, str(exc))
            raise
        except BaseException as exc:  # a bug: recorded, then it propagates as itself (never a failed sample)
            self._finish(call_id, request, None, started, f"bug: {one_line(exc)}")
            raise
        self._finish(call_id, request, raw, started, None)
        per = raw.per_sample_tokens or apportion(raw.completion_tokens, raw.texts)
        return [
            Completion(text, reason, raw.prompt_tokens, tokens, call_id)
            for text, reason, tokens in zip(raw.texts, raw.finish_reasons, per, strict=True)
        ]

    def _describe(self, exc: BaseException | str) -> str:
        return f"LLM endpoint {self.endpoint} (model {self.model}) failed: {one_line(exc)}"

    def _finish(
        self, call_id: str, request: dict[str, Any], raw: _Raw | None, started: float, error: str | None
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

    async def _generate(self, inp: PromptInput, sampling: Sampling) -> _Raw:  # pragma: no cover
        raise NotImplementedError

    async def close(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(endpoint={self.endpoint!r}, model={self.model!r}, role={self.role!r})"


def _trim_at_stop(text: str, stop: tuple[str, ...] | None) -> tuple[str, bool]:
    """Cut `text` at the first stop string (excluded, as OpenAI-style servers do)."""
    if not stop:
        return text, False
    cut = min((i for i in (text.find(s) for s in stop if s) if i >= 0), default=-1)
    return (text[:cut], True) if cut >= 0 else (text, False)


# ---------------------------------------------------------------------------------------------
# OpenAI-compatible HTTP servers
# ---------------------------------------------------------------------------------------------


def is_transient(exc: BaseException) -> bool:
    """Worth retrying: connection errors, timeouts, 408, 429 and 5xx. Not other 4xx."""
    import openai

    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        return True
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        return status in (408, 429) or status >= 500
    return isinstance(exc, (TimeoutError, ConnectionError))


#: words of a 4xx that says the model name is wrong (some servers answer 400, not 404)
_NO_MODEL_WORDS = ("does not exist", "model not found", "unknown model", "no such model", "not a valid model")

MIN_TOKENS_PER_SECOND = 25.0  # the slowest decode rate a request is given time for
REQUEST_TIMEOUT_BASE = 30.0  # seconds on top: queueing, prefill, network
CONNECT_TIMEOUT = 10.0


def request_timeout(max_tokens: int, configured: float | None = None) -> float:
    """Seconds one generation request may take: `configured` when set, else sized to `max_tokens`
    (`REQUEST_TIMEOUT_BASE + max_tokens / MIN_TOKENS_PER_SECOND`: 8192 tokens → about 6 minutes)."""
    if configured is not None:
        return configured
    return REQUEST_TIMEOUT_BASE + max(int(max_tokens), 1) / MIN_TOKENS_PER_SECOND


def map_openai_error(
    exc: BaseException, *, where: str, role: str, api_key_env: str | None, attempts: int
) -> LLMError | None:
    """The `LLMError` for an exception the openai client raised (or `None`: not the client's, a bug).

    `where` names the endpoint and model; `role` is the config section (`prover`, `planner`) used to
    say which key to fix."""
    import json as _json

    import openai

    section = f"[{role}]"
    if is_transient(exc):
        return LLMUnavailableError(
            f"unavailable after {attempts} attempt(s): {one_line(exc)}", backend=where,
            fix=f"start or fix the server, or raise {section}.retry_deadline / {section}.timeout",
        )
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        text = one_line(exc).lower()
        if status in (401, 403):
            env = f"${api_key_env}" if api_key_env else "the API key"
            return LLMMisconfiguredError(
                f"rejected the API key (HTTP {status}): {one_line(exc)}", backend=where,
                fix=f"set {env} to a key this endpoint accepts; {section}.api_key_env names the variable",
            )
        if status == 404 or any(w in text for w in _NO_MODEL_WORDS):
            if "model" in text:
                fix = f"set {section}.model (--{role}-model) to a model the server lists under /models"
            else:
                fix = f"check {section}.url (--{role}-url): an OpenAI-compatible base URL ends in /v1"
            return LLMMisconfiguredError(f"HTTP {status}: {one_line(exc)}", backend=where, fix=fix)
        if status in (400, 413, 422):
            # About this request's content (a prompt longer than the context: corrections quote the
            # model's own output): the attempt failed; the next request may well pass.
            return LLMRequestError(f"{where} rejected the request: {one_line(exc)}", status)
        return LLMMisconfiguredError(
            f"HTTP {status}: {one_line(exc)}", backend=where,
            fix=f"check {section}.url: the server does not speak the OpenAI API there",
        )
    if isinstance(exc, (_json.JSONDecodeError, openai.APIResponseValidationError)):
        return LLMMisconfiguredError(
            f"answered with a body that is not an OpenAI-compatible response ({one_line(exc)})", backend=where,
            fix=f"point {section}.url at an OpenAI-compatible server: vLLM, SGLang or a hosted API",
        )
    if isinstance(exc, openai.OpenAIError):
        return LLMMisconfiguredError(
            one_line(exc), backend=where, fix=f"check the {section} settings (url, model, api_key_env)"
        )
    return None


def _retry_after(exc: BaseException | None) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    value = headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


class OpenAICompatibleLLM(BaseLLM):
    """An OpenAI-compatible server (`vllm serve`, SGLang, hosted APIs) through `openai.AsyncOpenAI`.

    - `mode="chat"` uses `/chat/completions`, `mode="completion"` uses `/completions`.
    - `n`, `temperature`, `top_p`, `max_tokens`, `seed`, `stop` are passed through; `extra_body`
      adds server-specific parameters to every request (e.g. vLLM's `{"top_k": 20}`).
    - `native_n=False` for servers that reject `n > 1`: the call fans out into `n` concurrent
      requests with `n=1` (seeds `seed, seed+1, …` when a seed is given).
    - At most `concurrency` requests are in flight per object (and its `bind` views).
    - The client's own retries are off; ours (tenacity) retry connection errors, timeouts, 408,
      429 (honouring `Retry-After` up to `backoff_max`) and 5xx with exponential backoff
      `backoff * 2**k` (capped at `backoff_max`), at most `retries` times and not after
      `retry_deadline` seconds; then `LLMUnavailableError`. Each request may take `timeout`
      seconds (None: `request_timeout(max_tokens)`).
    - `model=None`: the first model the server lists under `/v1/models` (vLLM serves one).
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
        temperature: float = 1.0,
        top_p: float = 0.95,
        max_tokens: int = 8192,
        concurrency: int = 16,
        timeout: float | None = None,
        retries: int = 5,
        backoff: float = 1.0,
        backoff_max: float = 30.0,
        retry_deadline: float = 120.0,
        native_n: bool = True,
        extra_body: dict[str, Any] | None = None,
        recorder: Recorder | None = None,
        run_id: str | None = None,
    ) -> None:
        import openai

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
        self.extra_body = dict(extra_body or {})
        key = api_key or (os.environ.get(api_key_env) if api_key_env else None) or DEFAULT_API_KEY
        # the per-request timeout is set on each call (`request_timeout`); this one covers /models
        self._client = openai.AsyncOpenAI(
            base_url=url, api_key=key, timeout=httpx.Timeout(timeout or 60.0, connect=CONNECT_TIMEOUT), max_retries=0
        )
        self._semaphore = asyncio.Semaphore(concurrency)
        # mutable state shared with the views `bind` makes (a view is a shallow copy)
        self._shared = SimpleNamespace(model=model or "", model_lock=asyncio.Lock())
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
            "temperature": endpoint.temperature,
            "top_p": endpoint.top_p,
            "max_tokens": endpoint.max_tokens,
            "concurrency": endpoint.concurrency,
            "timeout": endpoint.timeout,
        }
        for optional in ("mode", "native_n", "retries", "backoff", "backoff_max", "retry_deadline", "extra_body"):
            value = getattr(endpoint, optional, None)
            if value is not None:
                opts[optional] = value
        opts.update(kwargs)
        return cls(endpoint.url, **opts)

    # -- one HTTP request -------------------------------------------------------------------

    async def _resolve_model(self) -> None:
        """`model=None`: ask the server (`GET /models`) once, for this object and its views."""
        shared = self._shared
        if not shared.model:
            async with shared.model_lock:
                if not shared.model:
                    page = await self._with_retries(lambda: self._client.models.list())
                    ids = [m.id for m in getattr(page, "data", None) or []]
                    if not ids:
                        raise LLMMisconfiguredError(
                            "lists no model under /models", backend=f"LLM endpoint {self.url}",
                            fix=f"set [{self.role}].model explicitly",
                        )
                    shared.model = ids[0]
        if self.model != shared.model:
            self.model = shared.model
            if self._default_name:
                self.name = f"{self.role}:{self.model}"

    async def _request(self, inp: PromptInput, sampling: Sampling, n: int, seed: int | None) -> _Raw:
        kwargs: dict[str, Any] = {
            "model": self.model,
            "n": n,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "max_tokens": sampling.max_tokens,
        }
        if seed is not None:
            kwargs["seed"] = seed
        if sampling.stop:
            kwargs["stop"] = list(sampling.stop)
        if self.extra_body:
            kwargs["extra_body"] = self.extra_body
        kwargs["timeout"] = httpx.Timeout(
            request_timeout(sampling.max_tokens, self.timeout), connect=CONNECT_TIMEOUT
        )
        async with self._semaphore:
            if isinstance(inp, list):
                resp = await self._client.chat.completions.create(messages=inp, **kwargs)
            else:
                resp = await self._client.completions.create(prompt=inp, **kwargs)
        return self._parse(resp, chat=isinstance(inp, list), n=n)

    def _parse(self, resp: Any, *, chat: bool, n: int) -> _Raw:
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
        return _Raw(
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
        import json as _json

        import openai
        from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, stop_after_delay

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
        except (openai.OpenAIError, _json.JSONDecodeError, TimeoutError, ConnectionError) as exc:
            mapped = map_openai_error(
                exc, where=self._where(), role=self.role, api_key_env=self.api_key_env, attempts=tries
            )
            if mapped is None:  # pragma: no cover - every caught type maps
                raise
            raise mapped from exc
        raise AssertionError("unreachable")  # pragma: no cover

    async def _generate(self, inp: PromptInput, sampling: Sampling) -> _Raw:
        await self._resolve_model()
        if sampling.n == 1 or self.native_n:
            return await self._with_retries(lambda: self._request(inp, sampling, sampling.n, sampling.seed))

        async def one(i: int) -> _Raw:
            seed = None if sampling.seed is None else sampling.seed + i
            return await self._with_retries(lambda: self._request(inp, sampling, 1, seed))

        try:
            async with asyncio.TaskGroup() as tg:
                tasks = [tg.create_task(one(i)) for i in range(sampling.n)]
        except BaseExceptionGroup as group:  # the call fails as its first failed request
            first: BaseException = group
            while isinstance(first, BaseExceptionGroup):
                first = first.exceptions[0]
            raise first from None
        parts = [t.result() for t in tasks]
        per_sample: list[int] = []
        for p in parts:
            per_sample.extend(apportion(p.completion_tokens, p.texts))
        return _Raw(
            texts=[t for p in parts for t in p.texts],
            finish_reasons=[r for p in parts for r in p.finish_reasons],
            prompt_tokens=max((p.prompt_tokens for p in parts), default=0),
            completion_tokens=sum(p.completion_tokens for p in parts),
            per_sample_tokens=per_sample,
        )

    async def close(self) -> None:
        await self._client.close()


# ---------------------------------------------------------------------------------------------
# vLLM in-process (GPU)
# ---------------------------------------------------------------------------------------------

VLLM_MISSING = "vLLM is not installed: pip install 'lemmaforge[vllm]' (needs a CUDA GPU)"


class _InProcessLLM(BaseLLM):
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


class VLLMOfflineLLM(_InProcessLLM):
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

        return vllm.SamplingParams(
            n=sampling.n,
            temperature=sampling.temperature,
            top_p=sampling.top_p,
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

    async def _generate(self, inp: PromptInput, sampling: Sampling) -> _Raw:
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._state["pending"].append((inp, self._params(sampling), fut))
        flusher = self._state["flusher"]
        if flusher is None or flusher.done():
            self._state["flusher"] = asyncio.create_task(self._flush())
        out = await fut
        samples = list(out.outputs)
        per = [len(getattr(o, "token_ids", None) or []) for o in samples]
        return _Raw(
            texts=[o.text for o in samples],
            finish_reasons=[o.finish_reason for o in samples],
            prompt_tokens=len(getattr(out, "prompt_token_ids", None) or []),
            completion_tokens=sum(per),
            per_sample_tokens=per,
        )


# ---------------------------------------------------------------------------------------------
# Hugging Face transformers in-process (small models, CPU)
# ---------------------------------------------------------------------------------------------

TRANSFORMERS_MISSING = (
    "transformers/torch are not installed: pip install 'lemmaforge[train]' "
    "(or torch==2.13.0 transformers) for local generation"
)


class TransformersLLM(_InProcessLLM):
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

    def _run(self, inp: PromptInput, sampling: Sampling) -> _Raw:
        import torch

        with self._shared.lock:
            hf_model, tok = self._load()
            text = self._prompt_text(inp, tok)
            enc = tok(text, return_tensors="pt", add_special_tokens=isinstance(inp, str))
            enc = {k: v.to(self.device) for k, v in enc.items()}
            prompt_len = int(enc["input_ids"].shape[1])
            do_sample = sampling.temperature > 0
            gen_kwargs: dict[str, Any] = {
                "max_new_tokens": sampling.max_tokens,
                # greedy decoding gives one answer: computed once, repeated n times (as vLLM does)
                "num_return_sequences": sampling.n if do_sample else 1,
                "do_sample": do_sample,
                "pad_token_id": tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id,
            }
            if do_sample:
                gen_kwargs["temperature"] = sampling.temperature
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
            decoded, hit_stop = _trim_at_stop(decoded, sampling.stop)
            texts.append(decoded)
            reasons.append("stop" if hit_eos or hit_stop else "length")
            per.append(len(ids))
        return _Raw(texts, reasons, prompt_len, sum(per), per)

    async def _generate(self, inp: PromptInput, sampling: Sampling) -> _Raw:
        return await asyncio.to_thread(self._run, inp, sampling)


# ---------------------------------------------------------------------------------------------
# Factory
# ---------------------------------------------------------------------------------------------

BACKENDS = ("openai", "vllm", "transformers")


def backend_of(url: str | None, backend: str | None = None) -> str:
    """Which backend serves `url`: explicit `backend` wins; `vllm://` → vllm, `hf://` → transformers,
    anything else → openai (an OpenAI-compatible HTTP server)."""
    if backend:
        aliases = {
            "openai": "openai",
            "http": "openai",
            "vllm": "vllm",
            "hf": "transformers",
            "transformers": "transformers",
        }
        if backend not in aliases:
            raise ValueError(f"unknown LLM backend {backend!r} (choose one of: {', '.join(BACKENDS)})")
        return aliases[backend]
    if url and url.startswith("vllm://"):
        return "vllm"
    if url and url.startswith("hf://"):
        return "transformers"
    return "openai"


def make_llm(
    endpoint: LLMEndpoint,
    role: str,
    *,
    recorder: Recorder | None = None,
    run_id: str | None = None,
    backend: str | None = None,
    **kwargs: Any,
) -> BaseLLM:
    """Build the model for `role` ("planner", "prover", …) from its `LLMEndpoint`.

    - `url = "http://host:8000/v1"` (any http/https URL): `OpenAICompatibleLLM`.
    - `url = "vllm://deepseek-ai/DeepSeek-Prover-V2-7B"`: `VLLMOfflineLLM` (the model is the part
      after the scheme; `model` in the config wins when set).
    - `url = "hf://path/or/hub-id"`: `TransformersLLM`.
    - `backend=` (or an endpoint field `backend`) forces the choice; then `url` may be the bare
      model name/path.
    Extra keyword arguments go to the backend's constructor (`mode`, `native_n`, `retries`,
    `backoff`, `engine_kwargs`, `device`, …); fields of those names on the endpoint are used too.
    Raises `LLMMisconfiguredError` (one line) when the endpoint is not configured or its backend is
    not installed."""
    url = endpoint.url
    kind = backend_of(url, backend or getattr(endpoint, "backend", None))
    if kind == "openai":
        if not url:
            raise LLMMisconfiguredError(
                f"no model configured for the {role}: set [{role}].url to an OpenAI-compatible base URL "
                "(e.g. http://localhost:8000/v1), vllm://MODEL or hf://MODEL"
            )
        if not url.startswith(("http://", "https://")):
            raise LLMMisconfiguredError(
                f"[{role}].url {url!r} is not an http(s) URL, vllm://MODEL or hf://MODEL"
            )
        return OpenAICompatibleLLM.from_endpoint(endpoint, role, recorder=recorder, run_id=run_id, **kwargs)

    target = url or ""
    for scheme in ("vllm://", "hf://"):
        if target.startswith(scheme):
            target = target[len(scheme) :]
    model = endpoint.model or target
    if not model:
        raise LLMMisconfiguredError(f"no model configured for the {role}: set [{role}].model or [{role}].url")
    opts: dict[str, Any] = {
        "role": role,
        "temperature": endpoint.temperature,
        "top_p": endpoint.top_p,
        "max_tokens": endpoint.max_tokens,
        "recorder": recorder,
        "run_id": run_id,
    }
    mode = getattr(endpoint, "mode", None)
    if mode:
        opts["mode"] = mode
    engine_kwargs = getattr(endpoint, "engine_kwargs", None)
    if kind == "vllm" and engine_kwargs:
        opts["engine_kwargs"] = dict(engine_kwargs)
    opts.update(kwargs)
    if kind == "vllm":
        return VLLMOfflineLLM(model, **opts)
    return TransformersLLM(model, **opts)


__all__ = [
    "BACKENDS",
    "BaseLLM",
    "Completion",
    "LLM",
    "LLMError",
    "LLMMisconfiguredError",
    "LLMRequestError",
    "LLMStats",
    "LLMUnavailableError",
    "Messages",
    "Mode",
    "OpenAICompatibleLLM",
    "PromptInput",
    "Sampling",
    "TransformersLLM",
    "VLLMOfflineLLM",
    "apportion",
    "backend_of",
    "is_transient",
    "make_llm",
    "map_openai_error",
    "one_line",
    "request_timeout",
]

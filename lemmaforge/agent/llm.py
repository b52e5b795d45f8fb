"""Language models behind one async interface.

Everything the planner and the prover ask of a model goes through `LLM.generate`, which returns
`Completion`s and records the call (request, outputs, finish reasons, tokens, latency, error) as an
`LLMCallRecord` on the `Recorder` the call site bound (`llm.bind(recorder, run_id)`).

Backends (chosen by `make_llm` from the endpoint's URL scheme, or an explicit `backend`; each in
its own module under `agent/backends/`: `openai_compat`, `vllm_offline`, `hf_local`):

| URL                             | backend                | where                                        |
|---------------------------------|------------------------|----------------------------------------------|
| `http(s)://host:port/v1`        | `OpenAICompatibleLLM`  | `vllm serve`, SGLang, hosted OpenAI-style APIs |
| `vllm://MODEL` (name or path)   | `VLLMOfflineLLM`       | in-process vLLM on a CUDA GPU (extra `vllm`)  |
| `hf://MODEL` (name or path)     | `TransformersLLM`      | in-process HF transformers, small models, CPU (extra `train`) |

Two input modes: `chat` (a list of `{"role", "content"}` messages; a plain string becomes one user
message) and `completion` (a raw prompt string, no chat template: `/v1/completions`).

Errors (`lemmaforge.agent.errors`, in the tree of `lemmaforge.errors`; each backend module maps its
library's exceptions at the boundary — `backends/openai_errors.py` for the OpenAI client):

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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from lemmaforge.agent.backends.base import (
    BaseLLM,
    Completion,
    LLMStats,
    Messages,
    Mode,
    OnSample,
    PromptInput,
    Sampling,
    apportion,
)
from lemmaforge.agent.backends.hf_local import TransformersLLM
from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM
from lemmaforge.agent.backends.vllm_offline import VLLMOfflineLLM
from lemmaforge.agent.errors import (
    LLMError,
    LLMMisconfiguredError,
    LLMRequestError,
    LLMUnavailableError,
    one_line,
)
from lemmaforge.records import Recorder

if TYPE_CHECKING:
    from lemmaforge.config import LLMEndpoint


# The protocol
# ---------------------------------------------------------------------------------------------


@runtime_checkable
class LLM(Protocol):
    """What the planner, the prover and the search need from a model.

    `generate` returns `n` completions for one input (chat messages, or a prompt string in
    completion mode); sampling parameters left `None` come from the endpoint's configuration.
    `on_sample`, when given, is told each completion as soon as it is complete (a streaming
    backend: before the call returns), once, with the objects the call returns.
    A backend that does not stream tells each completion when the call returns (`BaseLLM`).
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
        on_sample: OnSample | None = None,
    ) -> list[Completion]: ...

    def bind(
        self, recorder: Recorder | None = None, run_id: str | None = None, *, role: str | None = None
    ) -> LLM: ...

    def has_room(self) -> bool:
        """Whether a request sent now would not wait behind others: the search starts a request
        ahead of need only then (lemmaforge/schedule/). A backend that cannot tell says False."""

    async def close(self) -> None: ...


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
    kind = backend_of(url, backend or endpoint.backend)
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
    if endpoint.mode:
        opts["mode"] = endpoint.mode
    if kind == "vllm" and endpoint.engine_kwargs:
        opts["engine_kwargs"] = dict(endpoint.engine_kwargs)
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
    "OnSample",
    "PromptInput",
    "Sampling",
    "apportion",
    "backend_of",
    "make_llm",
    "one_line",
]

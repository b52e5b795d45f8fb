"""The `openai` client's exceptions mapped onto the LLM error kinds (see `lemmaforge.agent.llm`):
which are transient (retried, then the endpoint is unavailable), which say the endpoint is
misconfigured, and which are the request's own (the attempt failed)."""

from __future__ import annotations

import json

import httpx
import openai

from lemmaforge.agent.errors import (
    LLMError,
    LLMMisconfiguredError,
    LLMRequestError,
    LLMUnavailableError,
    one_line,
)

# What a broken connection raises while a streamed response is read: httpx's, and httpx2's where
# the `openai` SDK is built on that fork of it (openai 3.x).
_TRANSPORT_ERRORS: tuple[type[BaseException], ...] = (httpx.TransportError,)
try:
    import httpx2

    _TRANSPORT_ERRORS += (httpx2.TransportError,)
except ImportError:  # pragma: no cover - SDKs built on httpx
    pass


class _DeadlineTimeout(TimeoutError):
    """A request (or stream) not complete within its total deadline: transient, retried, then the
    endpoint is unavailable (never the model's failure)."""


def is_transient(exc: BaseException) -> bool:
    """Worth retrying: connection errors, timeouts, 408, 429 and 5xx. Not other 4xx."""
    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        return True
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        return status in (408, 429) or status >= 500
    return isinstance(exc, (TimeoutError, ConnectionError))


#: words of a 4xx that says the model name is wrong (some servers answer 400, not 404)
_NO_MODEL_WORDS = ("does not exist", "model not found", "unknown model", "no such model", "not a valid model")


def map_openai_error(
    exc: BaseException, *, where: str, role: str, api_key_env: str | None, attempts: int
) -> LLMError | None:
    """The `LLMError` for an exception the openai client raised (or `None`: not the client's, a bug).

    `where` names the endpoint and model; `role` is the config section (`prover`, `planner`) used to
    say which key to fix."""
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
    if isinstance(exc, UnicodeDecodeError):  # a 200 whose body is not UTF-8: not an OpenAI server's JSON
        return LLMMisconfiguredError(
            f"answered with a body that is not UTF-8 JSON ({one_line(exc)})", backend=where,
            fix=f"point {section}.url at an OpenAI-compatible server: vLLM, SGLang or a hosted API",
        )
    if isinstance(exc, (json.JSONDecodeError, openai.APIResponseValidationError)):
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

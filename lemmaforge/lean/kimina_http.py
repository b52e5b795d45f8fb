"""One HTTP request to a Kimina server: its failures as exceptions, how they are classified
(transient and retried, or for good), the auth headers, and errors put on one line."""

from __future__ import annotations

from typing import Any

import httpx

RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})


class _HttpStatusError(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"HTTP {status}: {detail}" if detail else f"HTTP {status}")
        self.status = status


class _BadResponse(Exception):
    """A 2xx answer that is not the JSON we expect (a proxy's error page, a truncated body)."""


class _ServerCrash(Exception):
    """HTTP 500 persisted: Kimina's answer when a snippet crashed its REPL."""


class _DeadlinePassed(Exception):
    """A request not complete within its total deadline: transient, retried, then unavailable."""


def _is_transient(exc: BaseException) -> bool:
    if isinstance(exc, _HttpStatusError):
        return exc.status in RETRYABLE_STATUSES
    return isinstance(exc, (httpx.TransportError, _BadResponse, _DeadlinePassed))


def _auth_headers(api_key: str | None) -> dict[str, str]:
    if not api_key:
        return {}
    # Current servers read `Authorization` (a "Bearer " prefix is stripped); older ones `X-Auth-Token`.
    return {"Authorization": f"Bearer {api_key}", "X-Auth-Token": api_key}


def _decode(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        raise _HttpStatusError(response.status_code, _error_detail(response))
    try:
        return response.json()
    except ValueError:
        raise _BadResponse(
            f"HTTP {response.status_code} with a body that is not JSON: {_one_line(response.text)}"
        ) from None


def _error_detail(response: httpx.Response) -> str:
    body = _json_or_none(response)
    if isinstance(body, dict) and "detail" in body:
        return _one_line(str(body["detail"]))
    return _one_line(response.text)


def _json_or_none(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _describe(exc: BaseException) -> str:
    text = str(exc)
    if isinstance(exc, (_HttpStatusError, _BadResponse, _ServerCrash)):
        return _one_line(text)
    return _one_line(f"{type(exc).__name__}: {text}" if text else type(exc).__name__)


def _one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"

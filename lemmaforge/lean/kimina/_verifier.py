"""`KiminaVerifier`: the Kimina backend (the wire protocol is the package's docstring). One HTTP
request and its failures (transient and retried with tenacity, or for good; the auth headers;
errors on one line), the health and Lean-version queries, and the position mode; every check goes
through the batcher (`_batcher.py`), every result is read by `_replies.py`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import re
import time
import uuid
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import httpx
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
    wait_random,
)

from lemmaforge import sending, waits
from lemmaforge.config import VerifierConfig
from lemmaforge.lean.kimina._batcher import CheckBatcher
from lemmaforge.lean.kimina._replies import (
    _SHIFT_PLANS,
    _first_line,
    _is_header_timeout,
    _is_timeout,
    _shift_lines,
    _ShiftPlan,
    _without_proof_states,
    kimina_header_lines,
    position_probe,
)
from lemmaforge.lean.priority import LeanIdle, OrderKey
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Goal,
    ProofStatesUnsupported,
    TacticResult,
    VerifierError,
    VerifierMisconfigured,
    VerifierUnavailable,
)
from lemmaforge.wire_text import wire_json

log = logging.getLogger(__name__)

T = TypeVar("T")
PositionMode = Literal["auto", "all", "messages", "none", "server", "client"]

CHECK_PATH = "/api/check"
HEALTH_PATH = "/health"
# The API key's env var that Kimina's own clients read, accepted when ours is unset.
KIMINA_CLIENT_KEY_ENV = "LEAN_SERVER_API_KEY"
# The server waits this long for a free REPL before answering 429 (its `LEAN_SERVER_MAX_WAIT`).
SERVER_MAX_WAIT_S = 60.0
HTTP_SLACK_S = 30.0
PING_DEADLINE_S = 15.0  # GET /health, from sending it to its last byte
VERSION_SLACK_S = 5.0  # the Lean version query: its time limit plus this, from sending it to its last byte
# What Lean the server runs: the REPL answers with an info message `"4.9.0"` (Lean's `Repr` of a String).
LEAN_VERSION_COMMAND = "#eval Lean.versionString"
_VERSION_RE = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?")


# --- one HTTP request: its failures, transient or for good, the auth headers, one-line errors ---

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


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently one HTTP request is retried (connection errors, timeouts, 429, 5xx)."""

    attempts: int = 5  # tries in all, the first included
    initial_wait: float = 1.0  # seconds before the first retry; doubles each time
    max_wait: float = 30.0


@dataclass(slots=True)
class KiminaStats:
    requests: int = 0  # HTTP requests sent, retries included
    retries: int = 0
    snippets: int = 0


@dataclass(slots=True)
class _Snippet:
    code: str
    id: str = field(default_factory=lambda: f"lf-{uuid.uuid4().hex}")


class KiminaVerifier:
    """Whole-file checks on a Kimina Lean Server. No proof states: `run_tactic` is unsupported."""

    name = "kimina"
    supports_proof_states = False

    def __init__(
        self,
        url: str,
        *,
        api_key: str | None = None,
        timeout: float = 120.0,
        header_timeout: float = 600.0,
        batch_size: int = 8,
        concurrency: int = 128,
        batch_window: float = 0.005,
        spread_requests: int = 1,
        retry: RetryPolicy | None = None,
        position_mode: PositionMode = "auto",
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise VerifierError(
                f"invalid Kimina URL '{url}': expected http://host:port (verifier.kimina_url)"
            )
        if batch_size < 1 or concurrency < 1 or spread_requests < 1 or batch_window < 0:
            raise VerifierError(
                "kimina batch_size, concurrency and spread_requests must be at least 1, batch_window >= 0"
            )
        if position_mode != "auto" and position_mode not in _SHIFT_PLANS:
            raise VerifierError(
                f"unknown kimina position mode '{position_mode}': choose auto, all, messages or none"
            )
        self.url = url.rstrip("/")
        self.timeout = timeout
        self.header_timeout = max(header_timeout, timeout)
        self.batch_size = batch_size
        self.concurrency = concurrency
        self.retry = retry or RetryPolicy()
        self.position_mode: PositionMode = position_mode
        self.stats = KiminaStats()
        self._shift_plan: _ShiftPlan | None = _SHIFT_PLANS.get(position_mode)
        self._probe_lock = asyncio.Lock()
        # Every check (the engine's single ones and check_many's) is coalesced here.
        self.batcher = CheckBatcher(
            self._send_batch, batch_size=batch_size, window=batch_window, max_in_flight=concurrency,
            spread_requests=spread_requests,
        )
        # A small pool, reused: the batcher's requests, plus room for a crashed batch's snippets
        # re-sent one by one. Fewer connections is what keeps httpcore's per-request CPU flat.
        connections = self.batcher.max_requests + batch_size
        self._client = httpx.AsyncClient(
            base_url=self.url,
            headers=_auth_headers(api_key),
            limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
        )

    @classmethod
    def from_config(cls, cfg: VerifierConfig, **overrides: Any) -> KiminaVerifier:
        api_key = os.environ.get(cfg.kimina_api_key_env) or os.environ.get(KIMINA_CLIENT_KEY_ENV)
        kwargs: dict[str, Any] = {
            "api_key": api_key or None,
            "timeout": cfg.timeout,
            "header_timeout": cfg.header_timeout,
            "batch_size": cfg.kimina_batch_size,
            "batch_window": cfg.kimina_batch_window,
            "spread_requests": cfg.kimina_spread_requests,
            "concurrency": cfg.kimina_concurrency,
            "retry": RetryPolicy(attempts=cfg.kimina_retries, initial_wait=cfg.kimina_retry_wait),
            "position_mode": cfg.kimina_position_mode,
        }
        kwargs.update(overrides)
        return cls(cfg.kimina_url, **kwargs)

    # --- Verifier protocol -----------------------------------------------------------------

    def has_room(self) -> bool:
        """Whether a check submitted now would leave at once (`CheckBatcher.has_room`)."""
        return self.batcher.has_room()

    @property
    def idle(self) -> LeanIdle:
        """Fired when the batcher has a free place and nothing left to send (`CheckBatcher.idle`)."""
        return self.batcher.idle

    async def check(self, code: str, *, timeout: float | None = None, order: OrderKey | None = None) -> CheckResult:
        """`code`'s verdict; it waits its turn in `order` (None: `priority.UNORDERED`, a fresh search's place)."""
        limit = self.timeout if timeout is None else timeout
        sending.queued()  # inside the client until the batcher sends it (lemmaforge/sending.py)
        await self._ensure_shift_plan(code)
        return await self.batcher.check(code, limit, order=order)

    async def check_many(
        self, codes: Sequence[str], *, timeout: float | None = None, order: OrderKey | None = None
    ) -> list[CheckResult]:
        if not codes:
            return []
        await self._ensure_shift_plan(codes[0])
        return await _gather_or_raise([self.check(code, timeout=timeout, order=order) for code in codes])

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        raise ProofStatesUnsupported(
            "the kimina backend checks whole files only; use the repl backend for tactics on holes"
        )

    async def close(self) -> None:
        await self.batcher.close()
        await self._client.aclose()

    async def ping(self, *, deadline: float = PING_DEADLINE_S) -> str:
        """One `GET /health` (no retries: `doctor` and the preflight want a quick answer) within
        `deadline` seconds in all. Raises VerifierError."""
        try:
            async with asyncio.timeout(deadline):  # in all: a trickled answer ends too
                response = await self._client.get(HEALTH_PATH, timeout=min(10.0, deadline))
        except httpx.HTTPError as exc:
            raise VerifierUnavailable(f"Kimina server at {self.url} is unreachable: {_describe(exc)}") from None
        except TimeoutError:
            raise VerifierUnavailable(
                f"Kimina server at {self.url} did not answer GET {HEALTH_PATH} within {deadline:g} s"
            ) from None
        if response.status_code in (401, 403):
            raise VerifierMisconfigured(
                f"Kimina server at {self.url} rejected the API key (HTTP {response.status_code})"
            )
        if response.status_code in (404, 405):
            raise VerifierMisconfigured(
                f"no Kimina server at {self.url} (GET {HEALTH_PATH}: HTTP {response.status_code}); "
                "check verifier.kimina_url"
            )
        if response.status_code != 200:
            raise VerifierUnavailable(f"Kimina server at {self.url} is unhealthy: HTTP {response.status_code}")
        status = _json_or_none(response)
        state = status.get("status", "?") if isinstance(status, dict) else "?"
        return f"Kimina Lean Server at {self.url}: {state}"

    # --- one batch ---------------------------------------------------------------------------

    async def _send_batch(self, codes: Sequence[str], limit: float) -> list[CheckResult]:
        plan = self._shift_plan or _SHIFT_PLANS["all"]  # resolved before any check is queued
        return await self._check_batch(codes, limit, plan)

    async def _check_batch(self, codes: Sequence[str], limit: float, plan: _ShiftPlan) -> list[CheckResult]:
        try:
            return await self._check_batch_once(codes, limit, plan)
        except _ServerCrash as crash:
            if len(codes) == 1:
                return [_crashed(crash)]
            return await self._isolate_crash(codes, limit, plan)

    async def _check_batch_once(
        self, codes: Sequence[str], limit: float, plan: _ShiftPlan
    ) -> list[CheckResult]:
        snippets = [_Snippet(code) for code in codes]
        items = await self._post_check(snippets, limit)
        results = [self._result(items.get(s.id), s.code, plan) for s in snippets]
        return await self._retry_header_timeouts(codes, results, limit, plan)

    async def _isolate_crash(self, codes: Sequence[str], limit: float, plan: _ShiftPlan) -> list[CheckResult]:
        """One snippet that crashes its REPL fails the whole batch with HTTP 500: re-send the snippets
        one by one so that the others still get their answers. All of them failing means the server
        is broken, not a snippet."""

        async def single(code: str) -> CheckResult | _ServerCrash:
            try:
                return (await self._check_batch_once([code], limit, plan))[0]
            except _ServerCrash as crash:
                return crash

        outcomes = await _gather_or_raise([single(code) for code in codes])
        crashes = [o for o in outcomes if isinstance(o, _ServerCrash)]
        if len(crashes) == len(outcomes):
            raise VerifierError(f"Kimina server at {self.url} fails every snippet: {crashes[0]}")
        return [_crashed(o) if isinstance(o, _ServerCrash) else o for o in outcomes]

    async def _retry_header_timeouts(
        self, codes: Sequence[str], results: list[CheckResult], limit: float, plan: _ShiftPlan
    ) -> list[CheckResult]:
        """Kimina runs the imports under the proof's own time limit, so a cold `import Mathlib` can
        time out a short check. That says nothing about the proof: retry once with `header_timeout`."""
        if limit >= self.header_timeout:
            return results
        cold = [
            i
            for i, r in enumerate(results)
            if r.status is CheckStatus.TIMEOUT and _is_header_timeout(r.error)
        ]
        if not cold:
            return results
        log.info(
            "kimina: %d header import(s) timed out after %.0fs; retrying with %.0fs",
            len(cold),
            limit,
            self.header_timeout,
        )
        retried = await self._check_batch([codes[i] for i in cold], self.header_timeout, plan)
        for index, result in zip(cold, retried, strict=True):
            results[index] = result
        return results

    def _result(self, item: dict[str, Any] | None, code: str, plan: _ShiftPlan) -> CheckResult:
        if item is None:  # the server's fault, not the proof's: never counted as a failed check
            raise VerifierMisconfigured(f"Kimina server at {self.url} returned no result for a snippet it was sent")
        elapsed = float(item.get("time") or 0.0)
        error = item.get("error")
        if error:
            status = CheckStatus.TIMEOUT if _is_timeout(str(error)) else CheckStatus.CRASHED
            return CheckResult(status=status, time=elapsed, backend=self.name, error=str(error), raw=item)
        response = item.get("response")
        if not isinstance(response, dict):  # another shape: a server bug, not the proof's fault
            raise VerifierMisconfigured(
                f"Kimina server at {self.url} returned neither a response nor an error for a snippet"
            )
        header_lines = kimina_header_lines(code)
        shifted = _shift_lines(
            response,
            messages_by=header_lines if plan.messages else 0,
            sorries_by=header_lines if plan.sorries else 0,
        )
        result = CheckResult.from_repl_response(
            _without_proof_states(shifted), time=elapsed, backend=self.name
        )
        result.raw = item
        return result

    # --- HTTP --------------------------------------------------------------------------------

    async def _post_check(self, snippets: Sequence[_Snippet], limit: float) -> dict[str, dict[str, Any]]:
        server_timeout = max(1, math.ceil(limit))  # the server's schema wants an int (pydantic: 30.5 → 422)
        payload = {
            "snippets": [{"id": s.id, "code": s.code} for s in snippets],
            "timeout": server_timeout,
            "debug": False,
            "reuse": True,
        }
        # Per snippet the server may wait for a REPL, run the header, then the body, each under the limit.
        read_timeout = 2 * server_timeout + SERVER_MAX_WAIT_S + HTTP_SLACK_S
        self.stats.snippets += len(snippets)
        # Lean reads UTF-8: a lone surrogate is sent as U+FFFD (model text is made so upstream,
        # lemmaforge.wire_text; this keeps any other caller's odd text from crashing the request)
        payload, _ = wire_json(payload)
        body = await self._request("POST", CHECK_PATH, payload, read_timeout)
        results = body.get("results") if isinstance(body, dict) else None
        if not isinstance(results, list):
            raise VerifierMisconfigured(
                f"Kimina server at {self.url} answered {CHECK_PATH} without a 'results' list: check verifier.kimina_url"
            )
        return {str(item.get("id")): item for item in results if isinstance(item, dict)}

    async def _request(self, method: str, path: str, payload: Any, read_timeout: float) -> Any:
        retrying = AsyncRetrying(
            stop=stop_after_attempt(self.retry.attempts),
            # Exponential backoff plus jitter, so that many clients refused together (429) spread out.
            wait=wait_exponential(multiplier=self.retry.initial_wait, max=self.retry.max_wait)
            + wait_random(0, self.retry.initial_wait),
            retry=retry_if_exception(_is_transient),
            before_sleep=self._note_retry,
            reraise=True,
        )
        timeout = httpx.Timeout(read_timeout, connect=10.0, pool=None)
        try:
            async for attempt in retrying:
                with attempt:
                    self.stats.requests += 1
                    return _decode(await self._send(method, path, payload, timeout, read_timeout))
        except _HttpStatusError as exc:
            if exc.status == 500:
                raise _ServerCrash(str(exc)) from None
            raise self._unusable(exc) from None
        except (httpx.HTTPError, _BadResponse, _DeadlinePassed) as exc:
            raise self._unusable(exc) from None
        raise AssertionError("unreachable: tenacity either returns or reraises")

    async def _send(self, method: str, path: str, payload: Any, timeout: httpx.Timeout, deadline: float) -> httpx.Response:
        """One request, its body read whole, within `deadline` seconds in all: the read timeout
        alone never ends a server that trickles its answer a byte at a time. The moment the
        headers arrive is told to `lemmaforge.waits` (a wall budget that runs out on a trickled
        body is the server's failure)."""
        with waits.waiting(f"Kimina server at {self.url}") as wait:
            try:
                async with asyncio.timeout(deadline):
                    request = self._client.build_request(method, path, json=payload, timeout=timeout)
                    response = await self._client.send(request, stream=True)
                    wait.headers()
                    try:
                        await response.aread()
                    finally:
                        await response.aclose()
            except TimeoutError:
                raise _DeadlinePassed(f"no complete answer within the request's {deadline:g} s deadline") from None
        return response

    def _unusable(self, exc: Exception) -> VerifierError:
        """The one-line error for a request that failed for good: misconfigured (wrong key, URL, a
        server that does not speak the protocol) or unavailable (still failing after the retries)."""
        if isinstance(exc, _HttpStatusError) and exc.status in (401, 403):
            return VerifierMisconfigured(
                f"Kimina server at {self.url} rejected the API key ({exc}); set it in the env var named by "
                "verifier.kimina_api_key_env"
            )
        if isinstance(exc, _HttpStatusError) and exc.status in (404, 405):
            return VerifierMisconfigured(
                f"no Kimina {CHECK_PATH} endpoint at {self.url} ({exc}): check verifier.kimina_url"
            )
        if isinstance(exc, _BadResponse):
            return VerifierMisconfigured(
                f"Kimina server at {self.url} answered something that is not Kimina's JSON after "
                f"{self.retry.attempts} attempts: {_describe(exc)}; check verifier.kimina_url"
            )
        if _is_transient(exc):
            return VerifierUnavailable(
                f"Kimina server at {self.url} failed after {self.retry.attempts} attempts: {_describe(exc)}",
                fix="start the Kimina Lean Server, or give its URL with --kimina-url (verifier.kimina_url)",
            )
        return VerifierMisconfigured(f"Kimina server at {self.url} failed: {_describe(exc)}")

    def _note_retry(self, state: RetryCallState) -> None:
        self.stats.retries += 1
        exc = state.outcome.exception() if state.outcome else None
        wait = state.next_action.sleep if state.next_action else 0.0
        log.info(  # the final error says how many attempts were made: one line on stderr
            "kimina request to %s failed (%s); retry %d/%d in %.1fs",
            self.url,
            _describe(exc) if exc else "?",
            state.attempt_number,
            self.retry.attempts - 1,
            wait,
        )

    # --- where the server puts line numbers --------------------------------------------------

    async def _ensure_shift_plan(self, sample: str) -> _ShiftPlan:
        if self._shift_plan is not None:
            return self._shift_plan
        async with self._probe_lock:
            if self._shift_plan is None:
                self._shift_plan = await self._probe_shift_plan(sample)
        return self._shift_plan

    async def _probe_shift_plan(self, sample: str) -> _ShiftPlan:
        """Send `example : True := sorry` after `sample`'s header: it yields one message and one sorry
        on line 1 of the body. Reusing the caller's header warms the REPL that the real checks need
        (instead of evicting one); it runs under `header_timeout` since it may import Mathlib."""
        probe = _Snippet(position_probe(sample), id=f"lf-position-probe-{uuid.uuid4().hex[:12]}")
        try:
            items = await self._post_check([probe], self.header_timeout)
        except _ServerCrash as crash:
            log.warning("kimina position probe crashed (%s); assuming the server shifts lines", crash)
            return _SHIFT_PLANS["server"]
        item = items.get(probe.id) or {}
        response = item.get("response") or {}
        message_line = _first_line(response.get("messages"))
        sorry_line = _first_line(response.get("sorries"))
        if message_line is None or sorry_line is None:
            log.warning(
                "kimina position probe gave no message and sorry (%s); assuming the server shifts lines",
                _one_line(str(item)),
            )
            return _SHIFT_PLANS["server"]
        plan = _ShiftPlan(messages=message_line == 1, sorries=sorry_line == 1)
        log.info("kimina at %s: client shifts messages=%s sorries=%s", self.url, plan.messages, plan.sorries)
        return plan


# --- helpers -------------------------------------------------------------------------------------


def server_lean_version(url: str, *, api_key: str | None = None, timeout: float = 60.0) -> str | None:
    """The Lean version a Kimina server runs (`#eval Lean.versionString`, one snippet), "v4.9.0"; None
    when it cannot be learnt (unreachable, an error, no version in the answer). Synchronous: called
    once before a bench, where the dataset's pin is compared with it as the REPL path does; a
    server that is down is reported by the checks that need it, not here."""
    payload = {"snippets": [{"id": "lf-lean-version", "code": LEAN_VERSION_COMMAND}],
               "timeout": max(1, math.ceil(timeout)), "debug": False, "reuse": True}
    # in all, not per read: a server that sends its headers and trickles its body would keep a
    # per-read timeout waiting for hours (the bench's start-up, issue 47)
    deadline = time.monotonic() + timeout + VERSION_SLACK_S
    try:
        with httpx.Client(base_url=url.rstrip("/"), headers=_auth_headers(api_key)) as client, \
                client.stream("POST", CHECK_PATH, json=payload,
                              timeout=httpx.Timeout(timeout + VERSION_SLACK_S, connect=10.0)) as response:
            chunks = []
            for chunk in response.iter_bytes():
                chunks.append(chunk)
                if time.monotonic() > deadline:
                    log.info("kimina at %s: no complete answer to the Lean version query within %.0f s", url,
                             timeout + VERSION_SLACK_S)
                    return None
            body = json.loads(b"".join(chunks)) if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None
    results = body.get("results") if isinstance(body, dict) else None
    first = results[0] if isinstance(results, list) and results and isinstance(results[0], dict) else {}
    reply = first.get("response")
    messages = reply.get("messages") if isinstance(reply, dict) else None
    for message in messages if isinstance(messages, list) else []:
        if isinstance(message, dict) and message.get("severity") == "info":
            found = _VERSION_RE.search(str(message.get("data", "")))
            if found:
                return "v" + found.group(0)
    return None


def _failed(status: CheckStatus, error: str, raw: dict[str, Any] | None = None) -> CheckResult:
    return CheckResult(status=status, backend=KiminaVerifier.name, error=error, raw=raw)


def _crashed(crash: _ServerCrash) -> CheckResult:
    return _failed(CheckStatus.CRASHED, f"Kimina server error: {crash}")


async def _gather_or_raise(aws: Sequence[Awaitable[T]]) -> list[T]:
    """Run concurrently; on the first failure cancel the rest and raise that failure itself."""
    tasks = [asyncio.ensure_future(aw) for aw in aws]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise

"""A fake OpenAI-compatible server: real HTTP on 127.0.0.1, scripted replies, injected failures.

It speaks what `vllm serve` / SGLang / hosted APIs speak, as far as lemmaforge uses it:

- `POST /v1/chat/completions` and `POST /v1/completions`: OpenAI response shapes with `choices`
  (`message.content` / `text`, `finish_reason`, `index`) and `usage`; `n` choices per request;
  `stop` strings cut the reply (finish_reason "stop"); a reply longer than `max_tokens` fake tokens
  (4 characters each) is cut (finish_reason "length"); errors as `{"error": {"message", "type", "code"}}`.
- `stream: true`: the same choices as server-sent events, chunked (`chat.completion.chunk` /
  `text_completion` chunks, each choice's text in two deltas, its `finish_reason` on the second),
  in the order the replies' `after` seconds say, then a usage chunk when
  `stream_options.include_usage`, then `data: [DONE]`. `cut_next(n, choices=k)`: the next n
  streamed answers break the connection after k complete choices.
- `GET /v1/models`: the configured model ids.

Scripting is declarative. A `Rule` matches a request by a regex searched in the LAST USER MESSAGE
(chat) or the PROMPT (completions) — or in all messages joined, with `target="all"` — optionally
filtered by endpoint and model; its replies are a text, a list of texts, `Reply`s (text +
finish_reason), or a callable. Each sampled choice takes the rule's next reply: cycled by default,
or used once each with `consume=True` (an exhausted rule stops matching and later rules / the
default answer). Rules are tried in order.

    with FakeOpenAIServer(default="no idea") as srv:
        srv.add_rule(r"theorem foo", ["```lean4\\n...\\n```", "bad answer"])
        srv.fail_next(2, status=503)          # the next 2 generation requests get 503
        llm = OpenAICompatibleLLM(srv.url, "fake-model")
        ...
        assert srv.count("chat") == 3

Failure injection (applies to the two generation endpoints, in this order): permanent
(`fail_always(500)`), queued (`fail_next(n, status)` / `drop_next(n)`: close the connection with no
response), then delay (`srv.delay = 0.2`, or a rule's `delay`). Malformed answers (HTTP 200):
`fault_next(n, kind)` / `fault_always(kind)` with kind "garbage" (truncated JSON), "wrong_shape"
(valid JSON that is not a completion) or "empty_choices" (`choices: []`). `api_key="sk-…"` makes
every route answer 401 to a request without that bearer token, as hosted APIs do. `max_n=1` makes the server reject
`n > 1` with a 400, like APIs that do not support it. Every request is logged in `srv.requests`
(`Received`: path, parsed body, headers, status sent, `answered` once its last byte is about to go);
`srv.max_in_flight` is the highest number of generation requests being served at once.

Order without clocks: `Reply(text, gate=threading.Event())` holds that choice until the test sets
the event (say, from `on_sample` after it saw the first sample). A gate not set within
`srv.gate_timeout` seconds (a does-not-hang bound, not a measurement) is let through and noted in
`srv.unreleased`, which the `fake_openai` fixture checks is empty at teardown. `srv.gate = Event()`
holds every generation request the same way (whatever rule answers it).

Unknown input (no rule matches and no default) is answered with a 400 naming the text, so a test
sees the problem at once instead of retrying.

As a pytest fixture: import `fake_openai` into a conftest.py
(`from tests.fakes.fake_openai import fake_openai  # noqa: F401`); it yields a started server with
no rules and the default reply "".
"""

from __future__ import annotations

import itertools
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Literal

import pytest

from tests.fakes.fake_common import HTTPFake, simulated_latency

Endpoint = Literal["chat", "completions"]
MODEL = "fake-model"  # the model the fake serves unless told otherwise
CHARS_PER_TOKEN = 4  # about what BPE tokenizers give on Lean code and English


def count_tokens(text: str) -> int:
    """The fake tokenizer: one token per 4 characters (rounded up)."""
    return -(-len(text) // CHARS_PER_TOKEN)


def _cut_tokens(text: str, limit: int) -> str:
    return text[: limit * CHARS_PER_TOKEN]


@dataclass(frozen=True)
class Reply:
    text: str
    finish_reason: str = "stop"
    # seconds after the request's other delays at which this choice is complete: a streamed
    # answer (`stream: true`) sends the choices in that order; a plain one waits for the last
    after: float = 0.0
    # a choice with a gate is complete only once the test sets it (and `after` has passed): tests
    # order events by what they observed instead of by wall-clock delays a busy machine stretches.
    # A streamed answer sends its gated choices after the others; a plain one waits for every gate.
    gate: threading.Event | None = field(default=None, compare=False)


ReplySpec = (
    str | Reply | Sequence[str | Reply] | Callable[["Received"], "str | Reply | Sequence[str | Reply]"]
)


@dataclass
class Received:
    """One request as the server saw it."""

    method: str
    path: str
    body: dict[str, Any]
    headers: dict[str, str]  # names lower-cased
    at: float
    status: int | None = None  # what the server answered; None for a dropped connection
    usage: dict[str, int] | None = None  # the token counts it answered with (a generation's)
    answered: bool = False  # set just before the last byte of a complete answer is written

    @property
    def endpoint(self) -> Endpoint | Literal["models", "other"]:
        p = self.path.split("?")[0].rstrip("/")
        if p.endswith("/chat/completions"):
            return "chat"
        if p.endswith("/completions"):
            return "completions"
        if p.endswith("/models"):
            return "models"
        return "other"

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    @property
    def prompt(self) -> str | None:
        p = self.body.get("prompt")
        return p if isinstance(p, str) else None

    @property
    def last_user(self) -> str:
        for m in reversed(self.messages):
            if m.get("role") == "user":
                return _content(m)
        return ""

    @property
    def text(self) -> str:
        """What rules match by default: the last user message, or the prompt."""
        return self.last_user if self.endpoint == "chat" else (self.prompt or "")

    @property
    def all_text(self) -> str:
        if self.endpoint == "chat":
            return "\n\n".join(_content(m) for m in self.messages)
        return self.prompt or ""

    @property
    def n(self) -> int:
        return int(self.body.get("n") or 1)


def _content(message: dict[str, Any]) -> str:
    c = message.get("content")
    if isinstance(c, list):  # OpenAI content parts
        return "".join(p.get("text", "") for p in c if isinstance(p, dict))
    return c or ""


@dataclass(eq=False)
class Rule:
    """Answer requests whose text matches `pattern` (None: every request)."""

    pattern: str | re.Pattern[str] | None
    replies: ReplySpec
    consume: bool = False  # each reply used once, then the rule is exhausted
    endpoint: Endpoint | None = None  # only chat or only completions requests
    model: str | None = None  # only requests for this model
    target: Literal["text", "all"] = "text"  # "text": last user message / prompt; "all": every message
    delay: float = 0.0  # seconds to wait before answering
    when: Callable[[Received], bool] | None = None  # any extra condition
    hits: int = field(default=0, init=False)  # requests this rule answered (at least one choice)
    _cursor: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.pattern, str):
            self.pattern = re.compile(self.pattern, re.DOTALL)

    def matches(self, req: Received) -> bool:
        if self.endpoint is not None and req.endpoint != self.endpoint:
            return False
        if self.model is not None and req.body.get("model") != self.model:
            return False
        if self.when is not None and not self.when(req):
            return False
        if self.pattern is not None:
            text = req.all_text if self.target == "all" else req.text
            if not self.pattern.search(text):  # type: ignore[union-attr]
                return False
        return not self.exhausted

    @property
    def exhausted(self) -> bool:
        return self.consume and not callable(self.replies) and self._cursor >= len(_as_list(self.replies))

    def take(self, req: Received) -> Reply | None:
        """The reply for one choice, or None when the rule has no more."""
        if callable(self.replies):
            options = _as_list(self.replies(req))
        else:
            options = _as_list(self.replies)
        if not options:
            return None
        if self.consume:
            if self._cursor >= len(options):
                return None
            reply = options[self._cursor]
        else:
            reply = options[self._cursor % len(options)]
        self._cursor += 1
        return reply if isinstance(reply, Reply) else Reply(str(reply))


def _as_list(spec: Any) -> list[str | Reply]:
    if isinstance(spec, (str, Reply)):
        return [spec]
    return list(spec)


FaultKind = Literal["garbage", "wrong_shape", "empty_choices", "bad_utf8", "trickle"]
# bad_utf8: a 200 whose JSON body holds bytes that are not UTF-8; trickle: a 200 with its headers
# at once, then the body one byte every `trickle_gap` seconds (per-read timeouts never fire)
FAULT_KINDS: tuple[str, ...] = ("garbage", "wrong_shape", "empty_choices", "bad_utf8", "trickle")


@dataclass
class _Failure:
    kind: Literal["status", "drop", "cut", "garbage", "wrong_shape", "empty_choices"]
    remaining: int
    status: int = 503
    message: str = "injected failure"
    retry_after: float | None = None
    choices: int = 0  # "cut": complete choices streamed before the connection breaks
    error_event: bool = False  # "cut": an error event and a clean end instead of a broken connection


class FakeOpenAIServer(HTTPFake):
    """See the module docstring. Thread-safe; use as a context manager or `start()` / `stop()`
    (HTTPFake). Its request handler is `_Handler`, below."""

    thread_name = "fake-openai"

    def __init__(
        self,
        rules: Sequence[Rule] = (),
        *,
        default: str | Reply | None = None,
        models: Sequence[str] = (MODEL,),
        strict_models: bool = False,
        max_n: int | None = None,
        delay: float = 0.0,
        api_key: str | None = None,
    ) -> None:
        self.rules: list[Rule] = list(rules)
        self.api_key = api_key
        self.default = default
        self.models = list(models)
        self.strict_models = strict_models
        self.max_n = max_n
        self.delay = delay
        self.requests: list[Received] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._failures: list[_Failure] = []
        self._permanent: _Failure | None = None
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.trickle_gap = 0.2  # seconds between the bytes of a "trickle" fault's body
        self.trickle_stop = threading.Event()  # set on stop(): no handler thread outlives the fake
        self.gate_timeout = 60.0  # seconds a gated reply waits for its release before it is let through
        self.unreleased: list[str] = []  # texts of gated replies let through without their release
        # every generation request waits for this event, when set to one (a server-wide Reply.gate)
        self.gate: threading.Event | None = None

    def stop(self) -> None:
        self.trickle_stop.set()
        super().stop()
        self.trickle_stop.clear()

    # -- scripting --------------------------------------------------------------------------

    def add_rule(self, pattern: str | re.Pattern[str] | None, replies: ReplySpec, **kwargs: Any) -> Rule:
        rule = Rule(pattern, replies, **kwargs)
        with self._lock:
            self.rules.append(rule)
        return rule

    def fail_next(
        self,
        count: int = 1,
        status: int = 503,
        *,
        message: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        """The next `count` generation requests get HTTP `status` (queued after earlier ones)."""
        with self._lock:
            self._failures.append(
                _Failure("status", count, status, message or f"injected {status}", retry_after)
            )

    def cut_next(self, count: int = 1, *, choices: int = 1, error_event: bool = False) -> None:
        """The next `count` generation requests are answered as a stream that breaks after
        `choices` complete choices — the connection closed, or with `error_event` an error event
        and the stream's normal end, as vLLM reports a generation that failed (a plain request is
        answered whole)."""
        with self._lock:
            self._failures.append(_Failure("cut", count, choices=choices, error_event=error_event))

    def drop_next(self, count: int = 1) -> None:
        """The next `count` generation requests get their connection closed with no response."""
        with self._lock:
            self._failures.append(_Failure("drop", count))

    def fault_next(self, count: int = 1, kind: FaultKind = "garbage") -> None:
        """The next `count` generation requests get HTTP 200 with a malformed body (see FAULT_KINDS)."""
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r} (choose {', '.join(FAULT_KINDS)})")
        with self._lock:
            self._failures.append(_Failure(kind, count, 200))

    def fault_always(self, kind: FaultKind | None) -> None:
        """Every generation request gets a malformed 200 of `kind` until `fault_always(None)`."""
        if kind is not None and kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r} (choose {', '.join(FAULT_KINDS)})")
        with self._lock:
            self._permanent = None if kind is None else _Failure(kind, -1, 200)

    def fail_always(self, status: int | None = 500, *, message: str | None = None) -> None:
        """Every generation request gets `status` until `fail_always(None)`."""
        with self._lock:
            self._permanent = (
                None if status is None else _Failure("status", -1, status, message or f"injected {status}")
            )

    def clear(self) -> None:
        """Forget failures and the request log (rules stay)."""
        with self._lock:
            self._failures.clear()
            self._permanent = None
            self.requests.clear()
            self.max_in_flight = 0

    # -- inspection -------------------------------------------------------------------------

    def requests_to(self, endpoint: str) -> list[Received]:
        with self._lock:
            return [r for r in self.requests if r.endpoint == endpoint]

    def count(self, endpoint: str | None = None) -> int:
        with self._lock:
            return sum(1 for r in self.requests if endpoint is None or r.endpoint == endpoint)

    @property
    def url(self) -> str:
        """The OpenAI base URL (ends in /v1)."""
        return f"http://127.0.0.1:{self.port}/v1"

    # -- serving (called from handler threads) ----------------------------------------------

    def _await_gate(self, reply: Reply) -> bool:
        """Wait for a gated reply's release; False when the fake is stopping (send nothing then)."""
        return reply.gate is None or self._await(reply.gate, reply.text)

    def _await(self, gate: threading.Event, what: str) -> bool:
        deadline = time.monotonic() + self.gate_timeout
        while not gate.wait(0.05):
            if self.trickle_stop.is_set():
                return False
            if time.monotonic() > deadline:
                with self._lock:
                    self.unreleased.append(what)
                return True
        return True

    def _failure_for(self) -> _Failure | None:
        with self._lock:
            if self._permanent is not None:
                return self._permanent
            while self._failures:
                f = self._failures[0]
                if f.remaining <= 0:
                    self._failures.pop(0)
                    continue
                f.remaining -= 1
                return f
            return None

    def _choose(self, req: Received) -> tuple[list[Reply], float] | str:
        """Replies for the request's choices and the delay, or an error text."""
        replies: list[Reply] = []
        used: list[Rule] = []
        delay = 0.0
        with self._lock:
            for _ in range(req.n):
                reply = None
                for rule in self.rules:
                    if rule.matches(req):
                        reply = rule.take(req)
                        if reply is not None:
                            if rule not in used:
                                used.append(rule)
                            delay = max(delay, rule.delay)
                            break
                if reply is None:
                    if self.default is None:
                        return f"fake_openai: no rule matches and no default reply for: {req.text[:300]!r}"
                    reply = self.default if isinstance(self.default, Reply) else Reply(self.default)
                replies.append(reply)
            for rule in used:
                rule.hits += 1
        return replies, delay


class _Handler(BaseHTTPRequestHandler):
    fake: FakeOpenAIServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # silence the default stderr log
        return

    # -- plumbing ---------------------------------------------------------------------------

    def _read_body(self) -> dict[str, Any] | None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return {}
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            return None
        return body if isinstance(body, dict) else None

    def _send(
        self, req: Received | None, status: int, payload: Any, headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(payload).encode()
        if req is not None:
            req.status = status  # before answering: the client may look as soon as it has the reply
            req.answered = True
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def _error(
        self, req: Received | None, status: int, message: str, headers: dict[str, str] | None = None
    ) -> None:
        kind = {400: "BadRequestError", 404: "NotFoundError", 429: "RateLimitError"}.get(
            status, "InternalServerError" if status >= 500 else "APIError"
        )
        self._send(
            req, status, {"error": {"message": message, "type": kind, "param": None, "code": status}}, headers
        )

    def _drop(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _log(self, body: dict[str, Any]) -> Received:
        req = Received(
            self.command, self.path, body, {k.lower(): v for k, v in self.headers.items()}, time.time()
        )
        with self.fake._lock:
            self.fake.requests.append(req)
        return req

    # -- endpoints --------------------------------------------------------------------------

    def _unauthorized(self, req: Received) -> bool:
        """With `api_key` set, a request without that bearer token gets 401 (OpenAI's wording)."""
        key = self.fake.api_key
        if key is None or req.headers.get("authorization", "") == f"Bearer {key}":
            return False
        self._send(
            req, 401,
            {"error": {"message": "Incorrect API key provided.", "type": "invalid_request_error",
                       "param": None, "code": "invalid_api_key"}},
        )
        return True

    def _malformed(self, req: Received, kind: str) -> None:
        """A 200 whose body is not a usable completion."""
        if kind == "garbage":
            data = b'{"id": "chatcmpl-trunc", "object": "chat.completion", "choices": [{"index": 0, "mess'
            req.status = 200
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        elif kind == "bad_utf8":
            data = (b'{"id": "chatcmpl-bytes", "object": "chat.completion", "created": 0, "model": "fake-model", '
                    b'"choices": [{"index": 0, "message": {"role": "assistant", "content": "caf\xe9 \xff\xfe"}, '
                    b'"finish_reason": "stop"}], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}')
            req.status = 200
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        elif kind == "trickle":
            data = json.dumps({"id": "chatcmpl-slow", "object": "chat.completion", "created": 0,
                               "model": req.body.get("model"), "choices": []}).encode() * 1000
            req.status = 200
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.flush()
            try:
                for i in range(len(data)):
                    if self.fake.trickle_stop.is_set():
                        break
                    self.wfile.write(data[i:i + 1])
                    self.wfile.flush()
                    simulated_latency(self.fake.trickle_gap)
            except OSError:  # the client gave up: what a deadline is for
                pass
            self.close_connection = True
        elif kind == "wrong_shape":
            self._send(req, 200, {"result": "ok", "output": "theorem x : True := trivial"})
        else:  # empty_choices
            self._send(req, 200, {"id": "chatcmpl-empty", "object": "chat.completion", "created": 0,
                                  "model": req.body.get("model"), "choices": [],
                                  "usage": {"prompt_tokens": 1, "completion_tokens": 0, "total_tokens": 1}})

    def do_GET(self) -> None:
        req = self._log({})
        if self._unauthorized(req):
            return
        if req.endpoint == "models":
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.fake.models]
            self._send(req, 200, {"object": "list", "data": data})
        else:
            self._error(req, 404, f"no route {self.path}")

    def do_POST(self) -> None:
        body = self._read_body()
        req = self._log(body or {})
        if self._unauthorized(req):
            return
        if body is None:
            self._error(req, 400, "request body is not a JSON object")
            return
        if req.endpoint not in ("chat", "completions"):
            self._error(req, 404, f"no route {self.path}")
            return
        fake = self.fake
        with fake._lock:
            fake.in_flight += 1
            fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
        try:
            self._generate(req)
        finally:
            with fake._lock:
                fake.in_flight -= 1

    def _generate(self, req: Received) -> None:
        fake = self.fake
        failure = fake._failure_for()
        cut: int | None = None
        error_event = False
        if failure is not None and failure.kind == "cut":
            cut, error_event = (failure.choices, failure.error_event) if req.body.get("stream") else (None, False)
            failure = None
        if failure is not None:
            simulated_latency(fake.delay)
            if failure.kind == "drop":
                self._drop()
                return
            if failure.kind in FAULT_KINDS:
                self._malformed(req, failure.kind)
                return
            headers = {"Retry-After": str(failure.retry_after)} if failure.retry_after is not None else None
            self._error(req, failure.status, failure.message, headers)
            return
        body = req.body
        problem = self._validate(req)
        if problem:
            self._error(req, problem[0], problem[1])
            return
        chosen = fake._choose(req)
        if isinstance(chosen, str):
            self._error(req, 400, chosen)
            return
        replies, rule_delay = chosen
        if fake.gate is not None and not fake._await(fake.gate, "server gate"):
            self._drop()
            return
        simulated_latency(fake.delay + rule_delay)
        afters = [reply.after for reply in replies]
        if not body.get("stream"):
            simulated_latency(max(afters))
        if not body.get("stream") and not all(fake._await_gate(reply) for reply in replies):
            self._drop()
            return
        stop = body.get("stop")
        stops = [stop] if isinstance(stop, str) else list(stop or [])
        max_tokens = body.get("max_tokens") or body.get("max_completion_tokens")
        texts: list[str] = []
        reasons: list[str] = []
        for reply in replies:
            text, reason = reply.text, reply.finish_reason
            cuts = [i for i in (text.find(s) for s in stops if s) if i >= 0]
            if cuts:
                text, reason = text[: min(cuts)], "stop"
            if max_tokens is not None and count_tokens(text) > int(max_tokens):
                text, reason = _cut_tokens(text, int(max_tokens)), "length"
            texts.append(text)
            reasons.append(reason)
        if req.endpoint == "chat":
            prompt_tokens = sum(count_tokens(_content(m)) for m in req.messages)
        else:
            prompt_tokens = count_tokens(req.prompt or "")
        completion_tokens = sum(count_tokens(t) for t in texts)
        ident = next(fake._ids)
        common = {"created": int(time.time()), "model": body.get("model") or fake.models[0]}
        if body.get("stream"):
            usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                     "total_tokens": prompt_tokens + completion_tokens}
            req.usage = usage
            gates = {i: reply for i, reply in enumerate(replies) if reply.gate is not None}
            # passed only when there are gates: tests replace `_stream` with the older signature
            self._stream(req, texts, reasons, afters, ident, common, usage, cut, error_event,
                         **({"gates": gates} if gates else {}))
            return
        if req.endpoint == "chat":
            choices = [
                {
                    "index": i,
                    "message": {"role": "assistant", "content": t},
                    "finish_reason": r,
                    "logprobs": None,
                }
                for i, (t, r) in enumerate(zip(texts, reasons, strict=True))
            ]
            payload = {
                "id": f"chatcmpl-fake-{ident}",
                "object": "chat.completion",
                **common,
                "choices": choices,
            }
        else:
            choices = [
                {"index": i, "text": t, "finish_reason": r, "logprobs": None}
                for i, (t, r) in enumerate(zip(texts, reasons, strict=True))
            ]
            payload = {"id": f"cmpl-fake-{ident}", "object": "text_completion", **common, "choices": choices}
        payload["usage"] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        req.usage = payload["usage"]
        self._send(req, 200, payload)

    def _stream(self, req: Received, texts: list[str], reasons: list[str], afters: list[float], ident: int,
                common: dict[str, Any], usage: dict[str, int], cut: int | None, error_event: bool = False,
                gates: dict[int, Reply] | None = None) -> None:
        """Server-sent events over chunked transfer encoding, as `vllm serve` streams."""
        chat = req.endpoint == "chat"
        req.status = 200
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def event(payload: Any) -> None:
            data = f"data: {payload if isinstance(payload, str) else json.dumps(payload)}\n\n".encode()
            self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

        def chunk(i: int, piece: str, reason: str | None) -> dict[str, Any]:
            if chat:
                choice = {"index": i, "delta": {"role": "assistant", "content": piece}, "finish_reason": reason,
                          "logprobs": None}
                return {"id": f"chatcmpl-fake-{ident}", "object": "chat.completion.chunk", **common,
                        "choices": [choice]}
            return {"id": f"cmpl-fake-{ident}", "object": "text_completion", **common,
                    "choices": [{"index": i, "text": piece, "finish_reason": reason, "logprobs": None}]}

        started = time.monotonic()
        try:
            gates = gates or {}
            for sent, i in enumerate(sorted(range(len(texts)), key=lambda i: (i in gates, afters[i], i))):
                if cut is not None and sent >= cut:
                    if not error_event:
                        self._drop()  # mid-stream: no terminating chunk
                        return
                    event({"error": {"object": "error", "message": "injected mid-stream failure",
                                     "type": "InternalServerError", "code": 500}})
                    event("[DONE]")
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                    return
                simulated_latency(started + afters[i] - time.monotonic())
                if i in gates and not self.fake._await_gate(gates[i]):
                    self._drop()
                    return
                half = len(texts[i]) // 2
                event(chunk(i, texts[i][:half], None))
                event(chunk(i, texts[i][half:], reasons[i]))
            if (req.body.get("stream_options") or {}).get("include_usage"):
                event({"id": f"fake-{ident}", "object": "chat.completion.chunk" if chat else "text_completion",
                       **common, "choices": [], "usage": usage})
            req.answered = True
            event("[DONE]")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the client closed the stream: it aborted
            self.close_connection = True

    def _validate(self, req: Received) -> tuple[int, str] | None:
        body, fake = req.body, self.fake
        if not body.get("model"):
            return 400, "'model' is required"
        if fake.strict_models and body["model"] not in fake.models:
            return 404, f"The model `{body['model']}` does not exist."
        if req.endpoint == "chat":
            msgs = body.get("messages")
            if not isinstance(msgs, list) or not msgs:
                return 400, "'messages' must be a non-empty list"
            if any(not isinstance(m, dict) or "role" not in m for m in msgs):
                return 400, "every message needs a 'role'"
        elif not isinstance(body.get("prompt"), str):
            return 400, "'prompt' must be a string"
        n = body.get("n") or 1
        if not isinstance(n, int) or n < 1:
            return 400, "'n' must be a positive integer"
        if fake.max_n is not None and n > fake.max_n:
            return 400, f"n must be at most {fake.max_n}"
        return None


FakeOpenAIServer.handler = _Handler


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAIServer]:
    """A started fake server with no rules and default reply "" (script it in the test)."""
    with FakeOpenAIServer(default="") as server:
        yield server
    assert not server.unreleased, f"gated replies never released by the test: {server.unreleased}"

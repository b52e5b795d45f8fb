"""The demo's two servers, in-process on 127.0.0.1 (standard library only: `http.server` in a
daemon thread each), speaking the wire protocols lemmaforge's real clients speak:

* `SimulatedKimina`: a Kimina Lean Server (project-numina/kimina-lean-server, `server/routers/
  check.py`): `POST /api/check` with `{"snippets": [{"id", "code"}], "timeout", …}` answers
  `{"results": [{"id", "time", "response"}]}`, each response the simulated Lean's REPL JSON
  (`lean_sim.py`, whole-file positions as current servers give them); `GET /health` answers
  `{"status": "ok"}`.
* `SimulatedOpenAI`: an OpenAI-compatible server (what `vllm serve` speaks, as far as lemmaforge
  uses it): `GET /v1/models` lists `simulated-prover` and `simulated-planner`; `POST
  /v1/chat/completions` and `/v1/completions` answer `n` choices (`model_sim.py`), with `usage`
  counted at four characters a token, streamed as server-sent events when `stream` is set; a
  model it does not serve is a 404, as vLLM answers.

Use as context managers (`with SimulatedKimina() as lean: lean.url`) or `start()` / `stop()`.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

from lemmaforge.demo.lean_sim import SimulatedLean
from lemmaforge.demo.model_sim import MODELS, SimulatedModels, message_texts


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (a cancelled request) is normal here: say nothing."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as uvicorn and vLLM serve
    server_version = "lemmaforge-demo"
    owner: ClassVar[Any]

    def log_message(self, format: str, *args: Any) -> None:  # no access log on the demo's terminal
        return None

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            return json.loads(self.rfile.read(length) or b"null")
        except ValueError:
            return None

    def send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self.owner.get(self, self.path.split("?")[0].rstrip("/") or "/")

    def do_POST(self) -> None:  # noqa: N802
        self.owner.post(self, self.path.split("?")[0].rstrip("/") or "/", self._body())


class _HTTPService:
    """A server on 127.0.0.1 (a free port unless `port` is given), served by a daemon thread."""

    name = "simulated service"

    def __init__(self, port: int = 0) -> None:
        self._wanted_port = port
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None
        self.requests = 0  # requests answered (the demo says how many each server saw)

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError(f"the {self.name} is not running")
        return int(self._httpd.server_address[1])

    def start(self) -> _HTTPService:
        if self._httpd is None:
            handler = type("Handler", (_Handler,), {"owner": self})
            self._httpd = _Server(("127.0.0.1", self._wanted_port), handler)
            self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                            name=self.name, daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            if self._thread is not None:
                self._thread.join(timeout=5)
            self._httpd = self._thread = None

    def __enter__(self) -> Any:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def get(self, handler: _Handler, path: str) -> None:
        handler.send_json(404, {"detail": "Not Found"})

    def post(self, handler: _Handler, path: str, body: Any) -> None:
        handler.send_json(404, {"detail": "Not Found"})


class SimulatedKimina(_HTTPService):
    """A Kimina Lean Server whose Lean is simulated (module docstring)."""

    name = "simulated Kimina Lean Server"

    def __init__(self, port: int = 0, lean: SimulatedLean | None = None) -> None:
        super().__init__(port)
        self.lean = lean or SimulatedLean()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def get(self, handler: _Handler, path: str) -> None:
        if path in ("/health", "/"):
            self.requests += 1
            handler.send_json(200, {"status": "ok"})
        else:
            handler.send_json(404, {"detail": "Not Found"})

    def post(self, handler: _Handler, path: str, body: Any) -> None:
        if path != "/api/check":
            handler.send_json(404, {"detail": "Not Found"})
            return
        self.requests += 1
        snippets = body.get("snippets") if isinstance(body, dict) else None
        if not isinstance(snippets, list) or not snippets or not all(
                isinstance(s, dict) and isinstance(s.get("id"), str) and isinstance(s.get("code"), str) for s in snippets):
            handler.send_json(422, {"detail": [{"type": "value_error", "loc": ["body", "snippets"],
                                                "msg": "snippets must be a non-empty list of {id, code}"}]})
            return
        results = []
        for snippet in snippets:
            started = time.perf_counter()
            response = self.lean.check(snippet["code"])
            results.append({"id": snippet["id"], "time": round(time.perf_counter() - started, 6), "response": response})
        handler.send_json(200, {"results": results})


class SimulatedOpenAI(_HTTPService):
    """An OpenAI-compatible server whose models are simulated (module docstring)."""

    name = "simulated model server"

    def __init__(self, port: int = 0, models: SimulatedModels | None = None) -> None:
        super().__init__(port)
        self.models = models or SimulatedModels()
        self._ids = 0
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def get(self, handler: _Handler, path: str) -> None:
        if path == "/v1/models":
            self.requests += 1
            handler.send_json(200, {"object": "list", "data": [
                {"id": m, "object": "model", "created": 0, "owned_by": "lemmaforge-demo"} for m in MODELS]})
        else:
            handler.send_json(404, {"error": {"message": f"no route {path}", "type": "NotFoundError", "code": 404}})

    def post(self, handler: _Handler, path: str, body: Any) -> None:
        if path not in ("/v1/chat/completions", "/v1/completions"):
            handler.send_json(404, {"error": {"message": f"no route {path}", "type": "NotFoundError", "code": 404}})
            return
        self.requests += 1
        if not isinstance(body, dict):
            handler.send_json(400, {"error": {"message": "the body is not a JSON object", "type": "BadRequestError",
                                              "code": 400}})
            return
        model = body.get("model")
        if model not in MODELS:
            handler.send_json(404, {"error": {"message": f"The model `{model}` does not exist.",
                                              "type": "NotFoundError", "code": 404}})
            return
        chat = path.endswith("chat/completions")
        n = int(body.get("n") or 1)
        texts = message_texts(body)
        replies = self.models.replies(texts, n, completion=not chat)
        with self._lock:
            self._ids += 1
            ident = f"{'chatcmpl' if chat else 'cmpl'}-sim-{self._ids}"
        prompt_tokens = sum(len(t) for t in texts) // 4 + 1
        completion_tokens = sum(len(r) // 4 + 1 for r in replies)
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                 "total_tokens": prompt_tokens + completion_tokens}
        if body.get("stream"):
            self._stream(handler, ident, str(model), chat, replies, usage,
                         bool((body.get("stream_options") or {}).get("include_usage")))
            return
        choices = [({"index": i, "message": {"role": "assistant", "content": r}, "finish_reason": "stop"} if chat
                    else {"index": i, "text": r, "finish_reason": "stop"}) for i, r in enumerate(replies)]
        handler.send_json(200, {"id": ident, "object": "chat.completion" if chat else "text_completion",
                                "created": int(time.time()), "model": model, "choices": choices, "usage": usage})

    @staticmethod
    def _stream(handler: _Handler, ident: str, model: str, chat: bool, replies: list[str], usage: dict[str, int],
                with_usage: bool) -> None:
        """Server-sent events: each choice's text in one chunk with its finish reason, then the
        usage chunk when asked for, then `[DONE]`."""
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.close_connection = True
        kind = "chat.completion.chunk" if chat else "text_completion"

        def event(payload: Any) -> None:
            text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=False)
            handler.wfile.write(f"data: {text}\n\n".encode())
            handler.wfile.flush()

        for i, reply in enumerate(replies):
            choice = ({"index": i, "delta": {"role": "assistant", "content": reply}, "finish_reason": "stop"} if chat
                      else {"index": i, "text": reply, "finish_reason": "stop"})
            event({"id": ident, "object": kind, "created": int(time.time()), "model": model, "choices": [choice]})
        if with_usage:
            event({"id": ident, "object": kind, "created": int(time.time()), "model": model, "choices": [],
                   "usage": usage})
        event("[DONE]")


__all__ = ["SimulatedKimina", "SimulatedOpenAI"]

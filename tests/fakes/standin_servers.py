"""Stand-in servers with realistic latency shapes, for the end-to-end benchmark (scripts/bench_e2e.py).

Run each in its own process (so its CPU is not the client's):

    python -m tests.fakes.standin_servers kimina --repls 64 --scale 0.05 --seed 1
    python -m tests.fakes.standin_servers openai --slots 256 --scale 0.05 --seed 2

Each prints `PORT <n>` on its first line, then serves until killed. `GET /stats` answers what it
measured. All latencies are multiplied by `--scale` (so a run of simulated hours takes minutes);
the figures below are unscaled seconds.

Kimina (`POST /api/check`, the real wire shape): `--repls` REPL processes. A snippet waits for a
REPL (one already holding its header first), imports the header if that REPL does not hold it
(uniform 10-16 s: Mathlib's import), then checks the body (lognormal, mean 3.5 s, sigma 0.6).
Like the real server's `check` router, a request aborted by the client (disconnect) destroys the
REPLs it was using (`repl_kills`): their header must be imported again. Lean's verdict is the
benchmark's simulated Lean: `sim_bad` is an error, each `sorry` a hole, `#print axioms` answers,
and the automation portfolio (`first | …`) closes nothing (so every goal costs its one check).

OpenAI (`POST /v1/chat/completions`, `GET /v1/models`): a server with `--slots` sequences decoding
at once (vLLM's max_num_seqs). Each of a request's `n` choices samples its output length
(lognormal, mean 443 tokens, or 4,489 with `--cot`: DeepSeek-Prover-V2's non-CoT / CoT averages)
and decodes at `--tokens-per-s` per sequence; the request answers when its longest choice is done.
The planner (a request with a system message) sketches `--steps` `have … := by sorry` steps for the
statement in the prompt's first lean4 block ending in `sorry`; the prover proves a sub-lemma (`_sub_` in its name)
with probability `--p-solve` per sample (`sim_ok`, else `sim_bad`), never the root theorem, so the
search decomposes as Hilbert's does.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import hashlib
import json
import math
import random
import re
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes.fake_common import listing_messages, type_probe_messages

# --- the simulated Lean ------------------------------------------------------------------------

_SORRY = re.compile(r"\bsorry\b")
_BAD = re.compile(r"\bsim_bad\b")
_AXIOMS = re.compile(r"^#print axioms (\S+)", re.MULTILINE)


def _chance(key: str) -> float:
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


def judge(body: str, lean_version: str | None = None) -> dict[str, Any]:
    """A REPL response for `body` (positions relative to the body, as Kimina's REPL gives them
    before the server shifts them back; the stand-in shifts them like a current server), the
    audit's listing answered as Lean `lean_version` would (tests/fakes/lean_versions.py)."""
    messages: list[dict[str, Any]] = []
    sorries: list[dict[str, Any]] = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", body)]

    def pos(offset: int) -> dict[str, int]:
        line = bisect.bisect_right(line_starts, offset)
        return {"line": line, "column": offset - line_starts[line - 1]}

    first = body.find("first\n")
    if first >= 0:  # the automation portfolio (one check per goal) closes nothing in this world
        messages.append({"severity": "error", "pos": pos(first), "data": "sim: no tactic closed the goal"})
    for m in _BAD.finditer(body):
        messages.append({"severity": "error", "pos": pos(m.start()), "endPos": pos(m.end()), "data": "sim: failed"})
    for m in _SORRY.finditer(body):
        sorries.append({"pos": pos(m.start()), "endPos": pos(m.end()), "goal": "⊢ sim"})
    if sorries:
        messages.append({"severity": "warning", "pos": sorries[0]["pos"], "data": "declaration uses 'sorry'"})
    for m in _AXIOMS.finditer(body):
        deps = "propext, sorryAx" if sorries or any(x["severity"] == "error" for x in messages) else "propext"
        messages.append({"severity": "info", "pos": pos(m.start()), "data": f"'{m.group(1)}' depends on axioms: [{deps}]"})
    messages.extend(type_probe_messages(body))  # the audit's `#check @NAME` type probe
    messages.extend(listing_messages(body, lean_version=lean_version))  # the audit's listing (`run_cmd`)
    return {"env": 0, "messages": messages, "sorries": sorries}


def split_header(code: str) -> tuple[str, str, int]:
    """Kimina's split: leading `import` / blank lines are the header."""
    lines = code.split("\n")
    n = 0
    for line in lines:
        if line.strip() and not line.strip().startswith("import "):
            break
        n += 1
    return "\n".join(lines[:n]), "\n".join(lines[n:]), n


def _shift(response: dict[str, Any], by: int) -> dict[str, Any]:
    for key in ("messages", "sorries"):
        for entry in response.get(key, []):
            for p in ("pos", "endPos"):
                if isinstance(entry.get(p), dict):
                    entry[p] = {**entry[p], "line": entry[p]["line"] + by}
    return response


# --- Kimina ------------------------------------------------------------------------------------


async def service_time(seconds: float) -> None:
    """The stand-ins' one way to take time: the simulated service time of a Lean check, a header
    elaboration or a decode step, scaled (`--scale`), spent on the server's own event loop."""
    await asyncio.sleep(seconds)  # real socket timing: scripts/bench_e2e.py measures the client against it


@dataclass
class _Repl:
    index: int
    header: str | None = None
    busy: bool = False


@dataclass
class KiminaStats:
    started: float | None = None
    last: float = 0.0
    requests: int = 0
    snippets: int = 0
    checks_done: int = 0
    header_imports: int = 0
    header_seconds: float = 0.0  # REPL time importing headers (actually spent)
    check_seconds: float = 0.0  # REPL time on checks that were answered
    wasted_seconds: float = 0.0  # REPL time on work aborted by a client disconnect
    repl_kills: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    sampled_check_seconds: list[float] = field(default_factory=list)
    # (start, end, kind) of every REPL phase, kind in header / check / wasted, and of every wait for
    # a free REPL (kind queued): the benchmark's utilisation-over-time profile
    intervals: list[tuple[float, float, str]] = field(default_factory=list)


class KiminaStandIn:
    def __init__(self, repls: int, scale: float, seed: int, check_mean: float = 3.5, sigma: float = 0.6,
                 header_range: tuple[float, float] = (10.0, 16.0), lean_version: str | None = None) -> None:
        self.lean_version = lean_version  # the release whose answers the probe gets (lean_versions.py)
        self.repls = [_Repl(i) for i in range(repls)]
        self.scale = scale
        self.rng = random.Random(seed)
        self.mu = math.log(check_mean) - sigma**2 / 2  # lognormal with this mean
        self.sigma = sigma
        self.header_range = header_range
        self.waiters: deque[tuple[str, asyncio.Future[_Repl]]] = deque()
        self.stats = KiminaStats()

    def _check_latency(self) -> float:
        return self.rng.lognormvariate(self.mu, self.sigma)

    async def _acquire(self, header: str) -> _Repl:
        free = [r for r in self.repls if not r.busy]
        if free:
            repl = next((r for r in free if r.header == header), None) or next(
                (r for r in free if r.header is None), free[0])
            repl.busy = True
            return repl
        future: asyncio.Future[_Repl] = asyncio.get_running_loop().create_future()
        self.waiters.append((header, future))
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release(future.result())  # handed over just as the client left
            raise

    def _release(self, repl: _Repl) -> None:
        while self.waiters:
            header, future = self.waiters.popleft()
            if not future.done():
                future.set_result(repl)  # stays busy: handed over
                return
        repl.busy = False

    async def _snippet(self, snippet: dict[str, Any]) -> dict[str, Any]:
        header, body, header_lines = split_header(snippet["code"])
        queued = time.monotonic()
        repl = await self._acquire(header)
        phase_started = time.monotonic()
        if phase_started - queued > 1e-4:
            self.stats.intervals.append((queued, phase_started, "queued"))
        phase = "header"
        try:
            if repl.header != header:
                seconds = self.rng.uniform(*self.header_range) * self.scale
                await service_time(seconds)
                repl.header = header
                self.stats.header_imports += 1
                self.stats.header_seconds += time.monotonic() - phase_started
                self.stats.intervals.append((phase_started, time.monotonic(), "header"))
            phase, phase_started = "check", time.monotonic()
            latency = self._check_latency()
            self.stats.sampled_check_seconds.append(latency * self.scale)
            await service_time(latency * self.scale)
            self.stats.check_seconds += time.monotonic() - phase_started
            self.stats.intervals.append((phase_started, time.monotonic(), "check"))
            self.stats.checks_done += 1
            response = _shift(judge(body, self.lean_version), header_lines)
            # the seconds actually spent, as a real server reports them (scaled, header excluded)
            return {"id": snippet["id"], "time": latency * self.scale, "response": response}
        except asyncio.CancelledError:
            # What Kimina does when the client goes away mid-request: the REPL is destroyed.
            spent = time.monotonic() - phase_started
            if phase == "header":
                self.stats.header_seconds += spent
            self.stats.wasted_seconds += spent if phase == "check" else 0.0
            self.stats.intervals.append((phase_started, phase_started + spent, phase if phase == "header" else "wasted"))
            self.stats.repl_kills += 1
            repl.header = None
            raise
        finally:
            self._release(repl)

    async def check(self, request: web.Request) -> web.Response:
        body = await request.json()
        now = time.monotonic()
        self.stats.started = self.stats.started or now
        self.stats.requests += 1
        snippets = body["snippets"]
        self.stats.snippets += len(snippets)
        self.stats.in_flight += len(snippets)
        self.stats.max_in_flight = max(self.stats.max_in_flight, self.stats.in_flight)
        try:
            results = await asyncio.gather(*(self._snippet(s) for s in snippets))
        finally:
            self.stats.in_flight -= len(snippets)
            self.stats.last = time.monotonic()
        return web.json_response({"results": results})

    async def health(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def stats_view(self, request: web.Request) -> web.Response:
        s = self.stats
        sampled = s.sampled_check_seconds
        out = {k: v for k, v in s.__dict__.items() if k not in ("sampled_check_seconds", "intervals")}
        out["intervals"] = s.intervals  # time.monotonic(): one clock for all processes of this machine
        out["repls"] = len(self.repls)
        out["mean_check_seconds"] = sum(sampled) / len(sampled) if sampled else None
        out["capacity_checks_per_s"] = len(self.repls) / out["mean_check_seconds"] if sampled else None
        out["span_seconds"] = (s.last - s.started) if s.started else 0.0
        return web.json_response(out)

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 << 20)
        app.router.add_post("/api/check", self.check)
        app.router.add_get("/health", self.health)
        app.router.add_get("/stats", self.stats_view)
        return app


# --- OpenAI-compatible -------------------------------------------------------------------------

_BLOCK = re.compile(r"```lean4?\n(.*?)```", re.DOTALL)
_THEOREM = re.compile(r"((?:theorem|lemma)\s+(\S+).*?:=\s*by)\s*\n\s*sorry\s*$", re.DOTALL)


@dataclass
class OpenAIStats:
    started: float | None = None
    last: float = 0.0
    requests: int = 0
    sequences: int = 0
    sequence_seconds: float = 0.0  # slot time actually spent decoding (aborted requests: partial)
    aborted: int = 0
    tokens: int = 0
    stream_events: int = 0  # server-sent events written (streamed requests)
    intervals: list[tuple[float, float, str]] = field(default_factory=list)  # each sequence's decode


class OpenAIStandIn:
    def __init__(self, slots: int, scale: float, seed: int, *, cot: bool, tokens_per_s: float, steps: int,
                 p_solve: float, sigma: float = 0.8, stream_interval: int = 256) -> None:
        self.slots = asyncio.Semaphore(slots)
        self.n_slots = slots
        self.scale = scale
        self.rng = random.Random(seed)
        mean = 4489.0 if cot else 443.0
        self.mu, self.sigma = math.log(mean) - sigma**2 / 2, sigma
        self.tokens_per_s = tokens_per_s
        self.stream_interval = stream_interval
        self.steps = steps
        self.p_solve = p_solve
        self.stats = OpenAIStats()
        self._asked: dict[str, int] = {}

    async def _decode(self, tokens: int, every: int | None = None,
                      sent: Callable[[int], Awaitable[None]] | None = None) -> None:
        """One sequence's decode on a slot; with `every`, `sent(k)` after each k tokens (the last
        piece may be shorter), as a streaming server sends them."""
        async with self.slots:
            started = time.monotonic()
            try:
                if every is None or sent is None:
                    await service_time(tokens / self.tokens_per_s * self.scale)
                else:
                    for done in range(0, tokens, every):
                        piece = min(every, tokens - done)
                        await service_time(piece / self.tokens_per_s * self.scale)
                        await sent(piece)
            finally:
                self.stats.sequence_seconds += time.monotonic() - started
                self.stats.intervals.append((started, time.monotonic(), "decode"))

    def _reply(self, messages: list[dict[str, Any]], index: int) -> str:
        planner = any(m.get("role") == "system" for m in messages)
        prompt = "\n".join(str(m.get("content", "")) for m in messages if m.get("role") == "user")
        found = next((m for m in (_THEOREM.search(b) for b in _BLOCK.findall(prompt)) if m), None)
        if found is None:
            return "I cannot find the statement."
        head, name = found.group(1), found.group(2)
        if planner:
            steps = "".join(f"  have s{i} : x + {i} = x + {i} := by sorry\n" for i in range(self.steps))
            return f"Plan.\n\n```lean4\n{head}\n{steps}  sorry\n```\n"
        k = self._asked.get(head, 0)
        self._asked[head] = k + 1
        ok = "_sub_" in name and _chance(f"{head}#{k}") < self.p_solve
        return f"```lean4\n{head}\n  {'sim_ok' if ok else 'sim_bad'}\n```\n"

    async def chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        now = time.monotonic()
        self.stats.started = self.stats.started or now
        self.stats.requests += 1
        n = int(body.get("n") or 1)
        lengths = [max(8, int(self.rng.lognormvariate(self.mu, self.sigma))) for _ in range(n)]
        self.stats.sequences += n
        self.stats.tokens += sum(lengths)
        messages = body.get("messages") or [{"role": "user", "content": body.get("prompt", "")}]
        usage = {"prompt_tokens": 100, "completion_tokens": sum(lengths), "total_tokens": 100 + sum(lengths)}
        if body.get("stream"):
            return await self._stream(request, body, messages, lengths, usage)
        try:
            await asyncio.gather(*(self._decode(t) for t in lengths))
        except asyncio.CancelledError:
            self.stats.aborted += 1
            raise
        finally:
            self.stats.last = time.monotonic()
        choices = [
            {"index": i, "message": {"role": "assistant", "content": self._reply(messages, i)}, "finish_reason": "stop"}
            for i in range(n)
        ]
        return web.json_response({
            "id": f"cmpl-{self.stats.requests}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "standin"), "choices": choices, "usage": usage,
        })

    async def _stream(self, request: web.Request, body: dict[str, Any], messages: list[dict[str, Any]],
                      lengths: list[int], usage: dict[str, int]) -> web.StreamResponse:
        """Server-sent events as vLLM streams them: each choice's text in pieces of
        `stream_interval` tokens as they are decoded (vLLM's `--stream-interval`), its finish reason
        with the last (the samples decode side by side; one that ends early is done early)."""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        ident, created, model = f"chatcmpl-{self.stats.requests}", int(time.time()), body.get("model", "standin")

        async def send(payload: Any) -> None:
            self.stats.stream_events += 1
            await response.write(f"data: {payload if isinstance(payload, str) else json.dumps(payload)}\n\n".encode())

        async def one(i: int) -> None:
            text, tokens = self._reply(messages, i), lengths[i]
            done = 0  # tokens sent; the text is spread over them

            async def sent(k: int) -> None:
                nonlocal done
                at, done = done, done + k
                last = done >= tokens
                piece = text[at * len(text) // tokens: len(text) if last else done * len(text) // tokens]
                choice = {"index": i, "delta": {"content": piece}, "finish_reason": "stop" if last else None}
                await send({"id": ident, "object": "chat.completion.chunk", "created": created, "model": model,
                            "choices": [choice]})

            await self._decode(tokens, self.stream_interval, sent)

        try:
            async with asyncio.TaskGroup() as group:  # one sample's failure ends its siblings' decode
                for i in range(len(lengths)):
                    group.create_task(one(i))
            if (body.get("stream_options") or {}).get("include_usage"):
                await send({"id": ident, "object": "chat.completion.chunk", "created": created, "model": model,
                            "choices": [], "usage": usage})
            await send("[DONE]")
            await response.write_eof()
        except asyncio.CancelledError:
            self.stats.aborted += 1  # the client closed the stream: the rest of the decode is aborted
            raise
        except (ConnectionResetError, BaseExceptionGroup):
            self.stats.aborted += 1  # the client went away between two writes
        finally:
            self.stats.last = time.monotonic()
        return response

    async def models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "standin", "object": "model", "owned_by": "me"}]})

    async def stats_view(self, request: web.Request) -> web.Response:
        out = dict(self.stats.__dict__)
        out["slots"] = self.n_slots
        out["span_seconds"] = (self.stats.last - self.stats.started) if self.stats.started else 0.0
        return web.json_response(out)

    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 << 20)
        app.router.add_post("/v1/chat/completions", self.chat)
        app.router.add_get("/v1/models", self.models)
        app.router.add_get("/stats", self.stats_view)
        return app


async def _serve(app: web.Application) -> None:
    # handler_cancellation: a client disconnect cancels the handler, as uvicorn does for Kimina.
    runner = web.AppRunner(app, handler_cancellation=True, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=1024)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    print(f"PORT {port}", flush=True)
    await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["kimina", "openai"])
    parser.add_argument("--scale", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repls", type=int, default=64)
    parser.add_argument("--slots", type=int, default=256)
    parser.add_argument("--cot", action="store_true")
    parser.add_argument("--tokens-per-s", type=float, default=40.0)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--p-solve", type=float, default=0.5)
    parser.add_argument("--stream-interval", type=int, default=256, help="tokens per streamed event")
    parser.add_argument("--lean-version", default=None, help="the Lean release the Kimina stand-in answers as "
                        "(tests/fakes/lean_versions.py: 4.9, 4.15, 4.19, 4.27)")
    args = parser.parse_args(argv)
    if args.kind == "kimina":
        app = KiminaStandIn(args.repls, args.scale, args.seed, lean_version=args.lean_version).app()
    else:
        app = OpenAIStandIn(args.slots, args.scale, args.seed, cot=args.cot, tokens_per_s=args.tokens_per_s,
                            steps=args.steps, p_solve=args.p_solve, stream_interval=args.stream_interval).app()
    try:
        asyncio.run(_serve(app))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()

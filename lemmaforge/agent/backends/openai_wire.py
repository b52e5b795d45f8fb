"""Beneath the `openai` SDK, on the wire: the httpx request hook that tells a request's budget the
moment the request left, and the server-sent events read from a streamed response's lines (the
wire format of `stream=true`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx

from lemmaforge import sending


async def sse_data(lines: AsyncIterator[str]) -> AsyncIterator[str]:
    """The data of each server-sent event (its `data:` lines joined by newlines; comments, `event:`,
    `id:` and `retry:` fields skipped), from the response's lines."""
    data: list[str] = []
    async for line in lines:
        if not line:
            if data:
                yield "\n".join(data)
                data = []
        elif line.startswith("data:"):
            value = line[5:]
            data.append(value[1:] if value.startswith(" ") else value)
    if data:
        yield "\n".join(data)


async def _tell_when_written(request: httpx.Request) -> None:
    """httpx's request hook: the request's budget is told it left as its headers go on the wire
    (httpcore's `trace` extension, "…send_request_headers.started": from that event to the socket
    write nothing yields to the event loop, so a cancellation cannot come between them, while the
    write's own end does yield, so "…complete" can miss a request that went). Until then a request
    cancelled waiting for the concurrency slot, a pooled connection or a connect never reached the
    server. One cancelled between its headers and its body reaches it cut short: sent."""
    tell = sending.current()

    async def trace(event: str, info: dict[str, Any]) -> None:
        if event.endswith(".send_request_headers.started"):
            tell()

    request.extensions["trace"] = trace

"""Kimina Lean Server backend: remote whole-file checks over HTTP, batched and retried.

Wire protocol (project-numina/kimina-lean-server, `server/routers/check.py` and the
`kimina-client` / `lean_verification_client` packages):

- `POST {url}/api/check` with `{"snippets": [{"id", "code"}], "timeout": <int s>, "debug", "reuse"}`
  answers `{"results": [{"id", "time", "error"?, "response"?}]}`; `response` is the Lean REPL's own
  JSON (`{"env", "messages", "sorries"}` or `{"message": ...}`), `error` a server-side failure such
  as "Lean REPL command timed out in 30.0 seconds". `None` fields are omitted.
- `GET {url}/health` answers `{"status": "ok"}`.
- HTTP 429 "No available REPLs" when no REPL freed up within the server's `MAX_WAIT`; HTTP 500 when
  a snippet crashed its REPL (the whole batch fails); 401 on a bad key.
- The API key travels as `Authorization: Bearer <key>` (older servers read `X-Auth-Token`).

The server runs the leading `import` lines of a snippet once per REPL (the header) and sends the
rest as the command. Current servers shift line numbers back to whole-file positions; older ones
do not, or shift only `messages`. `position_mode` says what the server shifts: "all" (current
servers), "messages", "none"; "auto" asks the server once ("server" / "client" are accepted as
older names of "all" / "none").

Throughput: every `check` goes through a `CheckBatcher` (`_batcher.py`), which coalesces
concurrent checks into batched requests, keeps at most `concurrency` checks in flight over a small
connection pool, and never aborts a request already sent (Kimina would destroy the REPL running it).

Public names: `KiminaVerifier` (the backend; `KiminaVerifier.from_config`), its `RetryPolicy`,
`KiminaStats` and `PositionMode`; `server_lean_version` (what Lean a server runs: `bench` records
it, the selftest keys its record by it) and `KIMINA_CLIENT_KEY_ENV` (the API key's variable that
Kimina's own clients read, accepted when ours is unset).

Private parts: `_verifier.py` (the backend and its HTTP requests), `_batcher.py` (checks
coalesced into batched requests, in the order of the one check queue, lean/check_queue.py),
`_replies.py` (one result read: line numbers, proof states, timeouts).
"""

from lemmaforge.lean.kimina._verifier import (
    KIMINA_CLIENT_KEY_ENV,
    KiminaStats,
    KiminaVerifier,
    PositionMode,
    RetryPolicy,
    server_lean_version,
)

__all__ = [
    "KIMINA_CLIENT_KEY_ENV",
    "KiminaStats",
    "KiminaVerifier",
    "PositionMode",
    "RetryPolicy",
    "server_lean_version",
]

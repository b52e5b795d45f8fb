"""Text that leaves the process must be UTF-8; text a model wrote need not be.

A completion may hold lone surrogates (a server's JSON may say ``"\\ud800"``, which `json.loads`
turns into a `str` no UTF-8 codec can encode). The store keeps such text exactly (escaped,
`lemmaforge.db.safe_text`) in the call's record. Everywhere else -- the next prompt, the Lean
check, the proof stored -- the text is used with each lone surrogate replaced by U+FFFD, so that
what Lean checked is byte for byte what is stored as the proof, and no request crashes on encoding.
Each replacement is noted on the LLM call that produced it (`request["notes"]`).
"""

from __future__ import annotations

import re
from typing import Any

REPLACEMENT = "\ufffd"
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def wire_text(text: str) -> tuple[str, int]:
    """`text` with every lone surrogate replaced by U+FFFD, and how many were replaced."""
    if _LONE_SURROGATE.search(text) is None:  # the common case: no copy
        return text, 0
    return _LONE_SURROGATE.subn(REPLACEMENT, text)


def wire_json(value: Any) -> tuple[Any, int]:
    """`value` (JSON-like: str, dict, list) with `wire_text` applied to every string in it."""
    if isinstance(value, str):
        return wire_text(value)
    if isinstance(value, dict):
        total = 0
        out: dict[Any, Any] = {}
        for k, v in value.items():
            key, a = wire_text(k) if isinstance(k, str) else (k, 0)
            out[key], b = wire_json(v)
            total += a + b
        return (out, total) if total else (value, 0)
    if isinstance(value, list | tuple):
        items = [wire_json(v) for v in value]
        total = sum(n for _, n in items)
        return ([v for v, _ in items], total) if total else (value, 0)
    return value, 0

"""Reading one Kimina result: where the server put line numbers, what the client must still shift,
the proof-state ids it passes through, and its timeout error strings.

The server runs the leading `import` lines of a snippet once per REPL (the header) and sends the
rest as the command. Current servers shift line numbers back to whole-file positions; older ones
do not, or shift only `messages` (see `KiminaVerifier.position_mode` in lemmaforge/lean/kimina/_verifier.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PROBE_COMMAND = "example : True := sorry"


@dataclass(frozen=True, slots=True)
class _ShiftPlan:
    """Which line numbers the client must move by the header length (the server did not)."""

    messages: bool
    sorries: bool


# Keyed by what the server shifts itself (config `kimina_position_mode`); the plan is what is left
# for the client to shift.
_SHIFT_PLANS: dict[str, _ShiftPlan] = {
    "all": _ShiftPlan(messages=False, sorries=False),
    "messages": _ShiftPlan(messages=False, sorries=True),
    "none": _ShiftPlan(messages=True, sorries=True),
    "server": _ShiftPlan(messages=False, sorries=False),  # older name of "all"
    "client": _ShiftPlan(messages=True, sorries=True),  # older name of "none"
}


def kimina_header_lines(code: str) -> int:
    """How many leading lines Kimina splits off as the header: blank lines and `import` lines, up
    to the first other line (mirrors its `split_snippet`). The body's line 1 is the file's line n+1."""
    count = 0
    for line in code.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("import "):
            break
        count += 1
    return count


def position_probe(sample: str) -> str:
    """`sample`'s header followed by PROBE_COMMAND. With no header, one blank line stands in for it,
    so that shifted (line 2) and unshifted (line 1) answers differ."""
    header_lines = kimina_header_lines(sample)
    if header_lines == 0:
        return "\n" + PROBE_COMMAND
    header = "\n".join(sample.splitlines()[:header_lines])
    return f"{header}\n{PROBE_COMMAND}"


def _shift_lines(response: dict[str, Any], *, messages_by: int, sorries_by: int) -> dict[str, Any]:
    if not (messages_by or sorries_by):
        return response
    out = dict(response)
    for key, offset in (("messages", messages_by), ("sorries", sorries_by)):
        if offset and isinstance(response.get(key), list):
            out[key] = [_shift_entry(entry, offset) for entry in response[key]]
    return out


def _shift_entry(entry: Any, offset: int) -> Any:
    if not isinstance(entry, dict):
        return entry
    out = dict(entry)
    for key in ("pos", "endPos"):
        pos = entry.get(key)
        if isinstance(pos, dict) and isinstance(pos.get("line"), int):
            out[key] = {**pos, "line": pos["line"] + offset}
    return out


def _without_proof_states(response: dict[str, Any]) -> dict[str, Any]:
    """The server passes its REPL's `proofState` ids through, but they name states in a process we
    cannot reach: holes must not look usable for tactics."""
    sorries = response.get("sorries")
    if not isinstance(sorries, list):
        return response
    stripped = [
        {k: v for k, v in s.items() if k != "proofState"} if isinstance(s, dict) else s for s in sorries
    ]
    return {**response, "sorries": stripped}


def _first_line(entries: Any) -> int | None:
    if isinstance(entries, list) and entries and isinstance(entries[0], dict):
        pos = entries[0].get("pos")
        if isinstance(pos, dict) and isinstance(pos.get("line"), int):
            return int(pos["line"])
    return None


def _is_timeout(error: str) -> bool:
    # Kimina: "Lean REPL command timed out in 30.0 seconds" / "Lean REPL header command timed out in …";
    # its own client classifies by "timed out" too.
    lowered = error.lower()
    return "timed out" in lowered or "timeout" in lowered


def _is_header_timeout(error: str | None) -> bool:
    return error is not None and "header" in error.lower() and _is_timeout(error)

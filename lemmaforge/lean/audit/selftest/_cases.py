"""The calibration file of `lemmaforge doctor --selftest` and its cases.

`calibration.toml` ships inside the package (package data, next to this module). Each case is a
problem (`original`: its theorem ends in `sorry`), a candidate proof, and the verdict the whole
audit must reach: an `honest` case PROVED, a `cheat` refused with `reason` among the audit's
reasons. `construct` says what the case is, `lean` which of Lean's answers it calibrates.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from lemmaforge.errors import InputError
from lemmaforge.lean.audit import Reason

CALIBRATION = "calibration.toml"
FORMAT = 1


class CalibrationError(InputError):
    """The calibration file is not what the selftest reads (a packaging bug, or a file a user
    edited): one line saying which case and why."""


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    kind: str  # "honest" (must be proved) | "cheat" (must be refused for `reason`)
    construct: str  # what the case is, in words
    lean: str  # which of Lean's answers it calibrates
    original: str
    candidate: str
    reason: Reason | None = None  # a cheat's expected reason
    allow_native_decide: bool = False  # the audit's policy for this case (default: not allowed)

    @property
    def honest(self) -> bool:
        return self.kind == "honest"

    def expected(self) -> str:
        """The expected verdict in words: "proved", or "refused (REASON)"."""
        return "proved" if self.honest else f"refused ({self.reason})"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "construct": self.construct, "lean": self.lean,
                "expected": {"status": "proved"} if self.honest else {"status": "refused", "reason": str(self.reason)},
                "allow_native_decide": self.allow_native_decide}


def calibration_text() -> str:
    """The shipped calibration file's text."""
    return resources.files(__package__ or "lemmaforge.lean.audit.selftest").joinpath(CALIBRATION).read_text(encoding="utf-8")


def calibration_digest(text: str | None = None) -> str:
    """A short digest of the calibration file: a record says which calibration passed."""
    return hashlib.sha256((calibration_text() if text is None else text).encode("utf-8")).hexdigest()[:16]


def load_cases(text: str | None = None) -> tuple[Case, ...]:
    """The cases of the calibration file (`text`, default: the shipped one). Raises
    CalibrationError on anything the selftest would not read as written."""
    source = calibration_text() if text is None else text
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        raise CalibrationError(f"the calibration file is not TOML: {exc}") from None
    if data.get("format") != FORMAT:
        raise CalibrationError(f"the calibration file's format is {data.get('format')!r}, not {FORMAT}")
    raw = data.get("case")
    if not isinstance(raw, list) or not raw:
        raise CalibrationError("the calibration file has no [[case]]")
    cases: list[Case] = []
    for i, entry in enumerate(raw):
        cases.append(_case(entry, i))
    ids = [c.id for c in cases]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise CalibrationError(f"case ids used twice: {', '.join(twice)}")
    return tuple(cases)


_KEYS = {"id", "kind", "construct", "lean", "original", "candidate", "reason", "allow_native_decide"}


def _case(entry: Any, index: int) -> Case:
    where = f"case {index + 1}"
    if not isinstance(entry, dict):
        raise CalibrationError(f"{where} is not a table")
    where = f"case {entry.get('id', index + 1)!r}"
    unknown = sorted(set(entry) - _KEYS)
    if unknown:
        raise CalibrationError(f"{where}: unknown keys {', '.join(unknown)}")
    for key in ("id", "kind", "construct", "lean", "original", "candidate"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise CalibrationError(f"{where}: `{key}` must be a non-empty string")
    kind = entry["kind"]
    if kind not in ("honest", "cheat"):
        raise CalibrationError(f"{where}: kind {kind!r} is neither 'honest' nor 'cheat'")
    reason: Reason | None = None
    if kind == "cheat":
        try:
            reason = Reason(str(entry.get("reason")))
        except ValueError:
            raise CalibrationError(f"{where}: a cheat needs `reason`, one of the audit's reasons "
                                   f"({', '.join(r.value for r in Reason)})") from None
    elif "reason" in entry:
        raise CalibrationError(f"{where}: an honest case has no `reason`")
    allow = entry.get("allow_native_decide", False)
    if not isinstance(allow, bool):
        raise CalibrationError(f"{where}: `allow_native_decide` must be true or false")
    # a TOML multi-line string starts after its opening newline; files end with one newline
    original, candidate = (entry[k].lstrip("\n").rstrip() + "\n" for k in ("original", "candidate"))
    return Case(entry["id"], kind, " ".join(entry["construct"].split()), " ".join(entry["lean"].split()),
                original, candidate, reason, allow)

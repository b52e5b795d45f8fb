"""Which theorem of a user's Lean file `prove` / `check` work on, and what else in the file keeps
the result from being complete.

* The target is the theorem, lemma or `example` named by `--theorem NAME`, or by default the last
  one. Declarations after the target are left out of the problem (they cannot be part of its
  proof) and the caller says so.
* An `example` has no name, and the audit needs one for `#print axioms`: it is renamed
  `theorem EXAMPLE_NAME` (same statement, same elaboration for a Prop) on the way in.
* `sorry`s left in declarations BEFORE the target make the file incomplete whatever happens to
  the target: `prove` reports such a run as incomplete (exit 1), as `check` does on its output.
  PutnamBench-style answer slots (`abbrev … := sorry`) are the problem's own and do not count.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lemmaforge.errors import InputError
from lemmaforge.lean import syntax as lean_syntax

EXAMPLE_NAME = "lemmaforge_example"
TARGET_KINDS = ("theorem", "lemma", "example")


class TargetError(InputError, ValueError):
    """No usable target in the file (or not the one asked for); the message is one line."""


@dataclass(frozen=True, slots=True)
class Target:
    code: str  # the file to work on: everything up to the target's end (an example renamed)
    name: str  # the target's name as the user knows it ("example" for an example)
    kind: str
    candidates: tuple[str, ...]  # every theorem / lemma / example of the file, in order
    dropped: tuple[str, ...] = ()  # declarations after the target, left out
    open_before: tuple[str, ...] = field(default_factory=tuple)  # "NAME (line N)" still holding sorry

    @property
    def incomplete_reason(self) -> str | None:
        if not self.open_before:
            return None
        return f"{', '.join(self.open_before)} before the target still {'has' if len(self.open_before) == 1 else 'have'} `sorry`"


def _label(d: lean_syntax.Declaration) -> str:
    return d.name if d.name else d.kind


def choose_target(code: str, theorem: str | None = None, *, keep_rest: bool = False) -> Target:
    """The target of `code` (see the module docstring). Raises TargetError. `keep_rest` keeps the
    declarations after the target in `code` (for `check` of a whole file)."""
    decls = lean_syntax.declarations(code)
    candidates = [d for d in decls if d.kind in TARGET_KINDS]
    if not candidates:
        raise TargetError("no theorem, lemma or example found")
    names = tuple(_label(d) for d in candidates)
    if theorem is None:
        target = candidates[-1]
    else:
        wanted = theorem.strip()
        matches = [d for d in candidates if d.name == wanted or d.name.rsplit(".", 1)[-1] == wanted
                   or (wanted == "example" and d.kind == "example")]
        if not matches:
            raise TargetError(f"no theorem named {wanted!r} in the file (it has: {', '.join(names)})")
        if len(matches) > 1:
            raise TargetError(f"{len(matches)} declarations match {wanted!r}: give the full name")
        target = matches[0]
    dropped = tuple(_label(d) for d in decls if d.start >= target.end)
    if keep_rest:
        dropped = ()
    text = code if not dropped else code[: target.end] + "\n"
    if target.kind == "example":
        text = text[: target.keyword_start] + f"theorem {EXAMPLE_NAME}" + text[target.keyword_start + len("example"):]
    open_before = []
    for d in decls:
        if d.end > target.start:
            break
        if d.kind == "abbrev" and d.body.strip() == "sorry":
            continue  # an answer slot, the problem's own
        tokens = lean_syntax.find_tokens(d.text, ("sorry", "admit"))
        if tokens:
            open_before.append(f"{_label(d)} (line {code.count(chr(10), 0, d.start) + 1})")
    return Target(text, _label(target), target.kind, names, dropped, tuple(open_before))

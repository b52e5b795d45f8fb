"""Everything the simulated Lean knows about the product's probe commands and how Lean answers
them, in one place: when the audit's probe changes, this module changes with it.

The simulator reads the probe as Lean would, from the text it is sent (never from the audit's own
modules): which commands ask something, which declaration each names, the listing's nonce; and
it answers in Lean's formats, at the positions Lean reports them at.

The commands (`lemmaforge/lean/audit/_judge.py` and `lemmaforge/lean/gate/_probes.py` build them):

* `#print axioms NAME`, possibly behind `set_option … in` lines: Lean logs, at the `#print`
  token, "'NAME' depends on axioms: [a, b]" (sorted as Lean's `Name.lt`: fewer components first)
  or "'NAME' does not depend on any axioms" (leanprover/lean4 `src/Lean/Elab/Print.lean`).
* `#check @NAME` behind the `set_option pp.… in` lines of the type probe: Lean logs "@NAME : TYPE"
  at the `#check` token. The simulator prints the declaration's binders and type with whitespace
  normalised: the same text for the same statement, which is all the audit compares.
* the declaration listing, `run_cmd do` then `let lfTag : String := "NONCE"`, `let lfRoots :
  List Lean.Name := [`a, `b]` (the target and the lemmas the candidate added) and the rest of the
  template: one info message at the `run_cmd` token, one line per fact, each starting with the
  nonce: `const` (kind, then whether it is unsafe, partial, `implemented_by`, `extern` and in the
  closure of what the roots use, its full name, its axioms joined by commas), `ext` (instance,
  macro, elab, parser: new entries), `opt` (each option set at the file's top level), then `end`
  and the number of lines before it. The simulator's closure is the roots themselves: the
  declarations it models are theorems and plain definitions, none unsafe, partial or compiled by
  `implemented_by` / `extern`, so what else a root uses changes no verdict.
* `#eval Lean.versionString` (`lean/kimina/` asks a server which Lean it runs): an info message
  holding the version as Lean's `Repr` of a string, `"4.9.0"`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# A probe command is one of these, at the start of a line, after any `set_option … in` prefixes.
_PREFIX = r"(?:set_option[ \t]+\S+[ \t]+\S+[ \t]+in[ \t]*\n)*"
_AXIOMS = re.compile(rf"^{_PREFIX}(?P<cmd>#print[ \t]+axioms)[ \t]+(?P<name>\S+)[ \t]*$", re.MULTILINE)
_TYPE = re.compile(rf"^{_PREFIX}(?P<cmd>#check)[ \t]+@(?P<name>\S+)[ \t]*$", re.MULTILINE)
_LISTING = re.compile(r'^run_cmd do\n  let lfTag : String := "(?P<nonce>[0-9a-f]{16,64})"\n'
                      r"(?:  let lfRoots : List Lean\.Name := \[(?P<roots>[^\n]*)\]\n)?", re.MULTILINE)
_VERSION = re.compile(r"^#eval[ \t]+Lean\.versionString[ \t]*$", re.MULTILINE)

#: the extension kinds the listing counts, in the template's order
EXTENSIONS = ("instance", "macro", "elab", "parser")


@dataclass(frozen=True, slots=True)
class ProbeCommand:
    """One command of the probe: what it asks (`axioms`, `type`, `listing` or `version`), about
    which declaration (or with which nonce), the offsets of its whole text (prefixes included,
    for the elaborator to skip), and where Lean reports its answer (0-based offset)."""

    kind: str
    subject: str
    start: int
    end: int
    answer_at: int
    roots: tuple[str, ...] = ()  # a listing's: the declarations whose closure it asks about


def probe_commands(code: str) -> list[ProbeCommand]:
    """The probe commands of `code`, in file order. A listing's `run_cmd` block runs to the next
    line that is not indented (the template's lines all are)."""
    found: list[ProbeCommand] = []
    for m in _AXIOMS.finditer(code):
        found.append(ProbeCommand("axioms", m.group("name"), m.start(), m.end(), m.start("cmd")))
    for m in _TYPE.finditer(code):
        found.append(ProbeCommand("type", m.group("name"), m.start(), m.end(), m.start("cmd")))
    for m in _LISTING.finditer(code):
        end = m.end()
        while end < len(code):
            nl = code.find("\n", end)
            line_end = len(code) if nl < 0 else nl + 1
            if code[end:line_end].strip() and not code[end].isspace():
                break
            end = line_end
        roots = tuple(r.strip().lstrip("`") for r in (m.group("roots") or "").split(",") if r.strip())
        found.append(ProbeCommand("listing", m.group("nonce"), m.start(), end, m.start(), roots))
    for m in _VERSION.finditer(code):
        found.append(ProbeCommand("version", "", m.start(), m.end(), m.start()))
    return sorted(found, key=lambda c: c.start)


def _name_order(name: str) -> tuple[int, list[str]]:
    """Lean's `Name.lt`, which `#print axioms` sorts by: fewer components first, then by component."""
    parts = name.split(".")
    return len(parts), parts


def axioms_answer(name: str, axioms: Sequence[str]) -> str:
    """What `#print axioms NAME` logs."""
    ordered = sorted(set(axioms), key=_name_order)
    if not ordered:
        return f"'{name}' does not depend on any axioms"
    return f"'{name}' depends on axioms: [{', '.join(ordered)}]"


def type_answer(name: str, binders: str, type_: str) -> str:
    """What `#check @NAME` logs for a declaration with these binders and type (normalised)."""
    squash = " ".join(f"{binders} : {type_}".split()) if binders.strip() else " ".join(type_.split())
    return f"@{name} : {squash}"


@dataclass(frozen=True, slots=True)
class Constant:
    """A constant the file declared, as the listing reports it."""

    kind: str  # theorem, def, axiom, opaque, inductive, …
    name: str
    axioms: tuple[str, ...]
    unsafe: bool = False


#: what Lean's `ConstantInfo` calls the constant each declaration keyword makes (the listing's kinds)
LEAN_KINDS = {"theorem": "theorem", "lemma": "theorem", "def": "def", "abbrev": "def", "instance": "def",
              "axiom": "axiom", "opaque": "opaque", "inductive": "inductive", "structure": "inductive",
              "class": "inductive"}


def constant(keyword: str, name: str, axioms: Sequence[str], unsafe: bool = False) -> Constant:
    """The listing's entry for a declaration made with `keyword`: a theorem with the axioms it
    depends on (Lean's order), an axiom depending on itself, anything else on none."""
    kind = LEAN_KINDS.get(keyword, "def")
    if kind == "theorem":
        listed = tuple(sorted(set(axioms), key=_name_order))
    else:
        listed = (name,) if kind == "axiom" else ()
    return Constant(kind, name, listed, unsafe)


def _flag(value: bool) -> str:
    return "true" if value else "false"


def listing_answer(nonce: str, constants: Sequence[Constant], options: Sequence[tuple[str, str]],
                   extensions: dict[str, int] | None = None, roots: Sequence[str] = ()) -> str:
    """The listing's one message: a line per fact, each starting with `nonce`, then `end`."""
    closure = set(roots)
    lines = [f"{nonce}\tconst\t{c.kind}\t{_flag(c.unsafe)}\tfalse\tfalse\tfalse\t{_flag(c.name in closure)}"
             f"\t{c.name}\t{','.join(c.axioms)}" for c in constants]
    lines += [f"{nonce}\text\t{kind}\t{(extensions or {}).get(kind, 0)}" for kind in EXTENSIONS]
    lines += [f"{nonce}\topt\t{name}\t{value}" for name, value in options]
    lines.append(f"{nonce}\tend\t{len(lines)}")
    return "\n".join(lines)


def version_answer(version: str) -> str:
    """What `#eval Lean.versionString` logs: Lean's `Repr` of the string."""
    return f'"{version}"'


__all__ = [
    "EXTENSIONS", "LEAN_KINDS", "Constant", "ProbeCommand", "axioms_answer", "constant", "listing_answer",
    "probe_commands", "type_answer", "version_answer",
]

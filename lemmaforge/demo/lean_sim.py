"""A simulated Lean for `lemmaforge demo`: it answers a whole Lean file the way the Lean REPL does
(`{"env", "messages", "sorries"}`), without Lean, Mathlib or any mathematics.

What it reads: the file's commands at column 0 (comments and strings blanked first), and for each
`theorem` / `lemma` / `example`: its binders, its type and its proof; a tactic proof is a flat
list of tactics, where `have NAME : T := …` steps add `NAME : T` to the context of what follows.

The simulated world, deterministic (the same file always gets the same answer):

* A goal is its context's types and its conclusion (names left out, so a hole's standalone lemma
  and the same step inside its sketch are one goal). Each goal has a level, from a hash of it:
  **easy** (25%: any tactic closes it, the automation portfolio included), **medium** (40%: a
  proof that is more than one bare tactic closes it with probability 35%, again by a hash of the
  goal and the proof's text), **hard** (35%: nothing closes it; only a sketch that splits it into
  easier steps can, since each step and the sketch's closing tactic are new goals). A conclusion
  beyond reach (15% of conclusions, by a hash of the conclusion alone) is hard in any context: no
  sketch closes it either, and its theorem stays unproved.
* `sorry` is a hole: a `sorries` entry with the goal (`x : ℝ`, … `⊢ T`) and the warning
  "declaration uses 'sorry'". `first | (t; done) | …` closes a goal when one alternative does.
* A tactic that cites a local name (`h₀`, `step_2`, …) that is not in the context fails with
  "unknown identifier"; `exact NAME …` / `apply NAME …` of a theorem the file declared above
  closes the goal (how lemma-style assembly closes its holes).
* A failed tactic gets Lean's wording for it (`linarith failed to find a contradiction`, …, or
  "unsolved goals" with the goal) at the tactic's position.
* The product's probe commands (`#print axioms`, `#check @NAME`, the declaration listing,
  `#eval Lean.versionString`) are answered by `lean_answers.py`, the one module that knows them.
  A declaration's axioms are `propext`, `Classical.choice`, `Quot.sound`, with `sorryAx` when it
  (or a theorem it applies) has a hole or an error.

Positions are whole-file (line from 1, column from 0), as a current Kimina server returns them.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from lemmaforge.demo import lean_answers

#: the Lean version the simulated Lean says it is (miniF2F's pin)
SIMULATED_LEAN_VERSION = "4.9.0"
STANDARD_AXIOMS = ("propext", "Classical.choice", "Quot.sound")
EASY, MEDIUM, HARD = "easy", "medium", "hard"
BEYOND_REACH = 0.15  # the share of conclusions no proof reaches, whatever their context
MEDIUM_ODDS = 0.35  # the chance that a given proof (more than a bare tactic) closes a medium goal

_DECL = re.compile(
    r"^(?:@\[[^\]\n]*\]\s*)*(?P<mods>(?:(?:private|protected|noncomputable|unsafe|partial|nonrec)\s+)*)"
    r"(?P<kind>theorem|lemma|example|def|abbrev|instance|axiom|opaque|inductive|structure|class)\b"
)
_LOCAL_NAME = re.compile(r"^(?:h[\w₀-₉'.]*|step_[\w₀-₉']+|this)$")
_FAILURES = {
    "linarith": "linarith failed to find a contradiction",
    "nlinarith": "linarith failed to find a contradiction",
    "norm_num": "norm_num failed to simplify",
    "simp": "simp made no progress",
    "simp_all": "simp_all made no progress",
    "field_simp": "simp made no progress",
    "omega": "omega could not prove the goal",
    "positivity": "failed to prove positivity",
    "aesop": "aesop: failed to prove the goal after exhaustive search.",
    "decide": "failed to reduce to true/false",
    "ring_nf": "ring_nf failed",
}


def _fraction(*parts: str) -> float:
    """A stable number in [0, 1) for `parts`: the simulated world's coin."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def mask(code: str) -> str:
    """`code` with comments, string and char literals blanked (same length, newlines kept)."""
    out = list(code)
    i, n = 0, len(code)

    def blank(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        if code.startswith("--", i):
            j = code.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif code.startswith("/-", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if code.startswith("/-", j):
                    depth, j = depth + 1, j + 2
                elif code.startswith("-/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif code[i] == '"':
            j = i + 1
            while j < n and code[j] != '"':
                j += 2 if code[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def _squash(text: str) -> str:
    return " ".join(text.split())


def _top_level(text: str, start: int, targets: tuple[str, ...]) -> tuple[int, str] | None:
    """The first of `targets` in `text` from `start` outside brackets: (offset, which)."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c in "([{⟨⦃":
            depth += 1
        elif c in ")]}⟩⦄":
            depth -= 1
        elif depth == 0:
            for t in targets:
                if text.startswith(t, i) and not (t == ":" and text.startswith(":=", i)):
                    return i, t
        i += 1
    return None


def binders_of(text: str) -> list[tuple[str, str]]:
    """(name, type) for each variable of a signature's binders: `(a b : ℝ)` gives two; an
    anonymous instance binder `[C α]` gives ("", "C α")."""
    out: list[tuple[str, str]] = []
    i = 0
    pairs = {"(": ")", "{": "}", "[": "]", "⦃": "⦄"}
    while i < len(text):
        c = text[i]
        if c not in pairs:
            i += 1
            continue
        depth, j = 0, i
        while j < len(text):
            if text[j] in "([{⦃⟨":
                depth += 1
            elif text[j] in ")]}⦄⟩":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        inner = text[i + 1 : j]
        colon = _top_level(inner, 0, (":",))
        if colon is None:
            out.append(("", _squash(inner)))
        else:
            names, type_ = inner[: colon[0]].split(), _squash(inner[colon[0] + 1 :])
            out.extend((name, type_) for name in names or [""])
        i = j + 1
    return out


def goal_text(context: list[tuple[str, str]], conclusion: str) -> str:
    """The goal as Lean shows it: consecutive variables of one type on one line, then `⊢ T`."""
    lines: list[tuple[list[str], str]] = []
    for name, type_ in context:
        if lines and lines[-1][1] == type_ and name:
            lines[-1][0].append(name)
        else:
            lines.append(([name or "inst✝"], type_))
    return "\n".join([f"{' '.join(names)} : {type_}" for names, type_ in lines] + [f"⊢ {_squash(conclusion)}"])


def goal_key(context: list[tuple[str, str]], conclusion: str) -> str:
    """A goal, names left out: the context's types (sorted) and the conclusion."""
    return " ; ".join(sorted(t for _, t in context)) + " ⊢ " + _squash(conclusion)


def level(context: list[tuple[str, str]], conclusion: str) -> str:
    """How hard the simulated world makes a goal (module docstring): a conclusion beyond reach is
    hard in any context; any other goal's level is its own."""
    if _fraction("reach", _squash(conclusion)) < BEYOND_REACH:
        return HARD
    x = _fraction("level", goal_key(context, conclusion))
    return EASY if x < 0.25 else MEDIUM if x < 0.65 else HARD


@dataclass(slots=True)
class _Declaration:
    kind: str
    name: str | None
    start: int  # the keyword
    name_at: int
    binders: str
    type_: str
    proof_at: int  # the first character after `:=`
    end: int
    unsafe: bool
    namespace: str = ""
    axioms: set[str] = field(default_factory=lambda: set(STANDARD_AXIOMS))

    @property
    def full_name(self) -> str | None:
        if self.name is None:
            return None
        name = self.name.strip("«»")
        if name.startswith("_root_."):
            return name[len("_root_."):]
        return f"{self.namespace}.{name}" if self.namespace else name


class SimulatedLean:
    """`check(code)`: the simulated Lean's answer to one file, REPL JSON (module docstring)."""

    def __init__(self, version: str = SIMULATED_LEAN_VERSION) -> None:
        self.version = version

    def check(self, code: str) -> dict[str, Any]:
        return _Elaboration(code, self.version).run()


class _Elaboration:
    def __init__(self, code: str, version: str) -> None:
        self.code = code
        self.version = version
        self.probes = lean_answers.probe_commands(code)
        masked = list(mask(code))
        for probe in self.probes:  # the probe's commands are answered, not elaborated
            for k in range(probe.start, probe.end):
                if masked[k] != "\n":
                    masked[k] = " "
        self.masked = "".join(masked)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", code)]
        self.messages: list[dict[str, Any]] = []
        self.sorries: list[dict[str, Any]] = []
        self.declared: dict[str, _Declaration] = {}
        self.options: list[tuple[str, str]] = []

    # -- positions and messages -----------------------------------------------------------------

    def pos(self, offset: int) -> dict[str, int]:
        line = bisect_right(self.line_starts, offset)
        return {"line": line, "column": offset - self.line_starts[line - 1]}

    def message(self, severity: str, data: str, start: int, end: int | None = None) -> None:
        entry: dict[str, Any] = {"severity": severity, "pos": self.pos(start), "data": data}
        if end is not None:
            entry["endPos"] = self.pos(end)
        self.messages.append(entry)

    # -- the file ---------------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        namespaces: list[str] = []
        for start, end in self._commands():
            text = self.masked[start:end]
            word = text.split(None, 1)[0] if text.strip() else ""
            if word in ("namespace", "section"):
                named = text.split()[1] if len(text.split()) > 1 else ""
                namespaces.append(named if word == "namespace" else "")
            elif word == "end" and namespaces:
                namespaces.pop()
            elif word == "set_option":
                parts = text.split()  # `set_option NAME VALUE` (in force), not `… VALUE in CMD` (scoped)
                if len(parts) >= 3 and (len(parts) == 3 or parts[3] != "in"):
                    self.options.append((parts[1].strip("«»"), parts[2]))
            elif _DECL.match(text):
                self._declaration(start, end, ".".join(p for p in namespaces if p))
        self._answer_probes()
        self.messages.sort(key=lambda m: (m["pos"]["line"], m["pos"]["column"]))
        return {"env": 0, "messages": self.messages, "sorries": self.sorries}

    def _commands(self) -> list[tuple[int, int]]:
        """(start, end) of each command: a line at column 0 that is not blank, and the lines
        after it that are blank or indented."""
        starts = [m.start() for m in re.finditer(r"^(?=\S)", self.masked, re.MULTILINE)]
        return [(s, starts[i + 1] if i + 1 < len(starts) else len(self.masked)) for i, s in enumerate(starts)]

    def _declaration(self, start: int, end: int, namespace: str) -> None:
        text = self.masked[start:end]
        m = _DECL.match(text)
        assert m is not None
        kind = "theorem" if m.group("kind") == "lemma" else m.group("kind")
        rest = m.end()
        name: str | None = None
        name_at = start + m.start("kind")
        if kind != "example":
            nm = re.match(r"\s+(«[^»]*»|[^\s:(){}\[\]⦃⦄]+)", text[rest:])
            if nm is not None:
                name, name_at, rest = nm.group(1), start + rest + nm.start(1), rest + nm.end()
        assign = _top_level(text, rest, (":=",))
        sig_end = assign[0] if assign else len(text.rstrip())
        colon = _top_level(text[:sig_end], rest, (":",))
        binders = text[rest : colon[0]] if colon else text[rest:sig_end]
        type_ = text[colon[0] + 1 : sig_end] if colon else ""
        decl = _Declaration(kind, name, start, name_at, binders, type_,
                            start + (assign[0] + len(assign[1]) if assign else sig_end), end,
                            "unsafe" in m.group("mods").split(), namespace)
        if decl.full_name:
            self.declared[decl.full_name] = decl
        if kind not in ("theorem", "example") or assign is None or assign[1] != ":=":
            return  # definitions and the rest: accepted as written (the simulation judges proofs)
        before = (len(self.messages), len(self.sorries))
        context = binders_of(binders)
        self._proof(decl.proof_at, end, context, type_, decl)
        if len(self.sorries) > before[1]:
            self.message("warning", "declaration uses 'sorry'", decl.name_at, decl.name_at + len(name or "example"))
        if len(self.sorries) > before[1] or any(m["severity"] == "error" for m in self.messages[before[0]:]):
            decl.axioms.add("sorryAx")

    # -- proofs -----------------------------------------------------------------------------------

    def _proof(self, start: int, end: int, context: list[tuple[str, str]], conclusion: str,
               decl: _Declaration) -> None:
        """The proof text in [start, end) of a goal `context ⊢ conclusion`: `by` and tactics, or a term."""
        text = self.masked[start:end]
        stripped = text.lstrip()
        at = start + len(text) - len(stripped)
        if re.match(r"by\b", stripped):
            self._tactics(at + 2, end, context, conclusion, decl)
            return
        term = stripped.rstrip()
        if re.fullmatch(r"sorry", term):
            self._hole(at, context, conclusion)
            return
        head = term.split()[0].lstrip("(@") if term else ""
        if head in self.declared or any(name == head for name, _ in context):
            self._uses(head, decl)
            return
        if _LOCAL_NAME.match(head):
            self.message("error", f"unknown identifier '{head}'", at, at + len(head))
            return
        self._judge(at, at + len(term), term, context, conclusion, decl)

    def _tactics(self, start: int, end: int, context: list[tuple[str, str]], conclusion: str,
                 decl: _Declaration) -> None:
        """A tactic block: `have` steps (each a goal of its own, then a hypothesis), the rest is
        the script that must close `conclusion`."""
        items = self._items(start, end)
        context = list(context)
        script: list[tuple[int, int]] = []
        for a, b in items:
            item = self.masked[a:b]
            have = re.match(r"have\s+(«[^»]*»|[^\s:(){}\[\]]+)\s*:", item)
            if have is None:
                script.append((a, b))
                continue
            assign = _top_level(item, have.end(), (":=",))
            type_ = item[have.end() : assign[0]] if assign else item[have.end():]
            if assign is not None:
                self._proof(a + assign[0] + 2, b, context, type_, decl)
            else:
                self.message("error", "unexpected end of input; expected ':='", b, b)
            context.append((have.group(1), _squash(type_)))
        if not script:
            anchor = items[-1][1] if items else start
            self.message("error", "unsolved goals\n" + goal_text(context, conclusion), max(start - 2, 0), anchor)
            return
        first, last = script[0][0], script[-1][1]
        body = "\n".join(self.masked[a:b].strip() for a, b in script)
        if re.fullmatch(r"sorry", body.strip()):
            self._hole(first, context, conclusion)
            return
        if re.search(r"(?<![\w.])sorry(?![\w'])", body):
            offset = first + self.masked[first:last].find("sorry")
            self._hole(offset, context, conclusion)
            return
        self._judge(first, last, body, context, conclusion, decl)

    def _items(self, start: int, end: int) -> list[tuple[int, int]]:
        """The block's tactics at its own indentation (a continuation line is more indented)."""
        text = self.masked[start:end]
        lines: list[tuple[int, int, int]] = []  # (start, end, column) of non-blank lines
        offset = start
        for raw in text.split("\n"):
            if raw.strip():
                column = len(raw) - len(raw.lstrip())
                lines.append((offset + column, offset + len(raw.rstrip()), column if offset != start else -1))
            offset += len(raw) + 1
        if not lines:
            return []
        # a first tactic on the `by` line belongs to the block; the block's column is the next line's
        columns = [c for _, _, c in lines if c >= 0]
        block = min(columns) if columns else 0
        items: list[list[int]] = []
        for a, b, column in lines:
            if column == -1 or column <= block or not items:
                items.append([a, b])
            else:
                items[-1][1] = b
        return [(a, b) for a, b in items]

    def _hole(self, at: int, context: list[tuple[str, str]], conclusion: str) -> None:
        self.sorries.append({"pos": self.pos(at), "endPos": self.pos(at + 5), "goal": goal_text(context, conclusion)})

    def _uses(self, name: str, decl: _Declaration) -> None:
        used = self.declared.get(name)
        if used is not None and "sorryAx" in used.axioms:
            decl.axioms.add("sorryAx")

    def _judge(self, start: int, end: int, script: str, context: list[tuple[str, str]], conclusion: str,
               decl: _Declaration) -> None:
        """Does `script` close `context ⊢ conclusion`? An error at the script if not."""
        local = {name for name, _ in context if name}
        for cited in _cited(script):
            if cited in self.declared:
                self._uses(cited, decl)
            elif _LOCAL_NAME.match(cited) and cited not in local:
                at = start + self.masked[start:end].find(cited)
                self.message("error", f"unknown identifier '{cited}'", at, at + len(cited))
                return
        applied = re.match(r"(?:exact|apply|refine)\s+@?([^\s()⟨]+)", script)
        if applied and (applied.group(1) in self.declared or applied.group(1) in local):
            self._uses(applied.group(1), decl)
            return
        if _closes(level(context, conclusion), goal_key(context, conclusion), script):
            return
        word = script.split()[0] if script.split() else ""
        data = _FAILURES.get(word) or "unsolved goals\n" + goal_text(context, conclusion)
        line_end = self.masked.find("\n", start)
        self.message("error", data, start, end if line_end < 0 or line_end > end else line_end)

    # -- the probe -------------------------------------------------------------------------------

    def _answer_probes(self) -> None:
        for probe in self.probes:
            at = probe.answer_at
            if probe.kind == "version":
                self.message("info", lean_answers.version_answer(self.version), at, at + 5)
                continue
            if probe.kind == "listing":
                consts = [_constant(name, d) for name, d in self.declared.items()
                          if d.start < probe.start and d.kind != "example"]
                data = lean_answers.listing_answer(probe.subject, consts, self.options, roots=probe.roots)
                self.message("info", data, at, at + len("run_cmd"))
                continue
            decl = self.declared.get(probe.subject)
            if decl is None or decl.start > probe.start:
                word = "#print" if probe.kind == "axioms" else "#check"
                self.message("error", f"unknown constant '{probe.subject}'" if probe.kind == "axioms"
                             else f"unknown identifier '{probe.subject}'", at + len(word) + 1, probe.end)
            elif probe.kind == "axioms":
                self.message("info", lean_answers.axioms_answer(probe.subject, sorted(decl.axioms)), at, at + 6)
            else:
                self.message("info", lean_answers.type_answer(probe.subject, decl.binders, decl.type_), at, at + 6)


def _constant(name: str, decl: _Declaration) -> lean_answers.Constant:
    return lean_answers.constant(decl.kind, name, sorted(decl.axioms), decl.unsafe)


def _cited(script: str) -> list[str]:
    """Names a script cites: the items of its `[…]` lists and what `exact` / `apply` / `at` name."""
    out: list[str] = []
    for group in re.findall(r"\[([^\[\]]*)\]", script):
        for item in group.split(","):
            words = item.strip().split()
            if len(words) == 1 and re.fullmatch(r"[^\s()]+", words[0]) and not words[0].startswith("←"):
                out.append(words[0])
            elif len(words) == 2 and words[0] == "←":
                out.append(words[1])
    for m in re.finditer(r"\b(?:exact|apply|at)\s+([^\s()⟨,;]+)", script):
        out.append(m.group(1))
    return [name for name in out if name != "*"]


def _alternatives(script: str) -> list[str] | None:
    """The alternatives of a `first | a | b …` script (each `(t; done)` unwrapped), else None."""
    m = re.fullmatch(r"first\s*(.*)", script.strip(), re.DOTALL)
    if m is None:
        return None
    out = []
    for alt in re.split(r"\n\s*\||^\s*\|", m.group(1), flags=re.MULTILINE):
        alt = alt.strip().lstrip("|").strip()
        if not alt:
            continue
        inner = re.fullmatch(r"\((.*);\s*done\)", alt, re.DOTALL)
        out.append(inner.group(1).strip() if inner else alt)
    return out


def _closes(grade: str, key: str, script: str) -> bool:
    """The world's verdict on `script` against the goal `key` of level `grade` (module docstring)."""
    alternatives = _alternatives(script)
    if alternatives is not None:
        return any(_closes(grade, key, alt) for alt in alternatives)
    if grade == EASY:
        return True
    if grade == HARD:
        return False
    bare = re.fullmatch(r"[A-Za-z_]+", script.strip()) is not None
    return not bare and _fraction("closes", key, _squash(script)) < MEDIUM_ODDS


__all__ = ["SIMULATED_LEAN_VERSION", "SimulatedLean", "binders_of", "goal_key", "goal_text", "level", "mask"]

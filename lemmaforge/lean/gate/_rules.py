"""The gate's text rules (`lean/gate/` describes the whitelist): the refusal types, a file's
commands as the gate judges them, the rules every text obeys, problem contexts and answer slots,
and the three gates — a candidate proof, a dataset text, a tactic — with the dataset admission.
All read tokens from the syntax layer, never regexes on raw text.
"""

from __future__ import annotations

import bisect
import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lemmaforge.errors import InputError
from lemmaforge.lean import syntax
from lemmaforge.lean.gate._probes import without_listing
from lemmaforge.lean.gate._whitelist import (
    _CODE_RUNNERS,
    _CONFIG_LITERALS,
    _CONFIG_NAMES,
    _DATASET_ATTRIBUTES,
    _PERCENT_COMMAND_WORDS,
    _UNSPLIT_COMMAND_WORDS,
    ALLOWED_ATTRIBUTES,
    ALLOWED_MODIFIERS,
    ALLOWED_OPTION_PREFIXES,
    ALLOWED_OPTIONS,
    COMMAND_WORDS,
    DATASET_COMMANDS,
    HOST_ACCESS,
    PROOF_COMMANDS,
)
from lemmaforge.lean.syntax import Token
from lemmaforge.lean.syntax import refusal as lexer_refusal


class Reason(enum.StrEnum):
    """Why the gate refused something. Stable names: `check --json` shows them."""

    COMMAND = "banned_command"  # a command outside the whitelist (axiom, instance, notation…)
    CODE = "runs_code"  # meta code / compiled-code swap (#eval, run_tac, implemented_by…)
    OPTION = "banned_option"  # set_option outside ALLOWED_OPTIONS
    ATTRIBUTE = "banned_attribute"  # attribute outside ALLOWED_ATTRIBUTES
    MODIFIER = "banned_modifier"  # unsafe, partial…
    CONTEXT = "context_changed"  # a definition that is neither the problem's nor an answer slot
    SYNTAX = "unreadable"  # text that is not a command at all (unterminated comment, stray tokens)


@dataclass(frozen=True, slots=True)
class Violation:
    reason: Reason
    detail: str
    line: int = 0

    def __str__(self) -> str:
        where = f" at line {self.line}" if self.line else ""
        return f"{self.reason.value}: {self.detail}{where}"

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason.value, "detail": self.detail, "line": self.line}


# --- tokens and commands -------------------------------------------------------------------------
#
# Commands come from the syntax layer (`lean/syntax/_commands.py`: found at any column, after `in`,
# with attribute names and modifiers); tokens from its lexer (Lean's comment/string/«» rules).


@dataclass(frozen=True, slots=True)
class GateCommand:
    """One command as the gate judges it."""

    keyword: str
    start: int
    end: int
    modifiers: tuple[str, ...]
    attributes: tuple[str, ...]
    name: str
    full_name: str
    key: tuple[str, ...]  # its tokens, comments and docstrings dropped: identity up to layout
    prefixes: tuple[GateCommand, ...] = ()


def _tokens(text: str) -> list[Token]:
    return syntax.tokens(text)


def _unquote(name: str) -> str:
    """`«debug».skipKernelTC` → `debug.skipKernelTC`: Lean reads both as the same name."""
    return name.replace("«", "").replace("»", "")


def _own(cmd: syntax.Command, toks: Sequence[Token], starts: list[int]) -> GateCommand:
    lo, hi = bisect.bisect_left(starts, cmd.start), bisect.bisect_left(starts, cmd.end)
    return GateCommand(
        keyword=cmd.keyword,
        start=cmd.start,
        end=cmd.end,
        modifiers=tuple(cmd.modifiers),
        attributes=tuple(_unquote(a) for a in cmd.attributes),
        name=cmd.name,
        full_name=cmd.full_name,
        key=tuple(t.text for t in toks[lo:hi]),  # the command's own tokens, lexed with the file
        prefixes=tuple(_own(p, toks, starts) for p in cmd.prefixes),
    )


def split_commands(text: str) -> list[GateCommand]:
    """The commands of `text` (module docs `/-! -/` left out: they are comments to the gate)."""
    toks = _tokens(text)
    starts = [t.start for t in toks]
    return [_own(c, toks, starts) for c in syntax.split_commands(text) if c.keyword != "/-!"]


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# --- rules shared by every text ------------------------------------------------------------------


def _token_violations(text: str, toks: Sequence[Token]) -> list[Violation]:
    """Rules that hold in every text, trusted or not: the lexer vouches for it, no `#` command,
    nothing that runs code or reaches the host, no option outside the list (also `set_option … in`
    inside a proof), `(config := …)` values literal only."""
    out: list[Violation] = _lexer_violations(text)
    for i, t in enumerate(toks):
        if t.kind == "hashcmd" and _is_axiom_query(toks, i):
            continue
        if t.kind == "hashcmd":
            out.append(Violation(Reason.CODE, f"`{t.text}` command", _line(text, t.start)))
        elif t.kind == "ident" and _unquote(t.text) in _CODE_RUNNERS:
            out.append(Violation(Reason.CODE, f"`{_unquote(t.text)}`", _line(text, t.start)))
        elif t.kind == "ident" and t.text == "set_option":
            name = _unquote(toks[i + 1].text) if i + 1 < len(toks) else ""
            if not option_allowed(name):
                out.append(Violation(Reason.OPTION, f"set_option {name or '(none)'}", _line(text, t.start)))
        if t.kind in ("ident", "dotident", "namelit", "mvar"):
            host = _host_access(t.text)
            if host:
                out.append(Violation(Reason.CODE, f"host access: `{t.text}` names `{host}`", _line(text, t.start)))
        if t.kind == "symbol" and t.text == "(" and i + 2 < len(toks) and toks[i + 1].text in _CONFIG_NAMES \
                and toks[i + 2].text == ":=":
            out.extend(_config_violations(text, toks, i))
    return out


def _lexer_violations(text: str) -> list[Violation]:
    """Every text defence reads tokens; where the lexer cannot vouch for agreeing with Lean's
    reading (Lean's own lexical error, or a reading that depends on the imports or the grammar),
    nothing downstream can be trusted, so the text is refused with the lexer's reason."""
    r = lexer_refusal(text)
    if r is None:
        return []
    what = "Lean's lexer rejects it" if r.reason == "lean_error" else "the lexer cannot be sure how Lean reads it"
    return [Violation(Reason.SYNTAX, f"{what}: {r.detail}", _line(text, r.offset))]


def _host_access(name: str) -> str:
    """The component of `name` that reaches the host (`HOST_ACCESS`), or ""."""
    for part in syntax.name_components(name.lstrip(".`?")):
        if part in HOST_ACCESS:
            return part
    return ""


def _config_violations(text: str, toks: Sequence[Token], i: int) -> list[Violation]:
    """`(config := VALUE)` at `toks[i]`: every token of VALUE a literal (`_CONFIG_LITERALS`, a
    number, a `.ctor`, a field name before `:=`)."""
    out: list[Violation] = []
    depth = 0
    for j in range(i + 3, len(toks)):
        t = toks[j]
        if t.text in ("(", "{", "⟨", "["):
            depth += 1
        elif t.text in (")", "}", "⟩", "]"):
            if depth == 0:
                return out
            depth -= 1
        literal = (
            t.text in _CONFIG_LITERALS
            or t.kind in ("number", "dotident")
            or (t.kind == "ident" and j + 1 < len(toks) and toks[j + 1].text == ":=")
        )
        if not literal:
            out.append(Violation(Reason.CODE, f"`(config := …)` holds `{t.text}`: Lean evaluates config values, "
                                 "only literals are allowed", _line(text, t.start)))
            return out
    return out


def _unterminated(text: str) -> list[Violation]:
    """A block comment or string left open at the end swallows whatever follows, the audit's
    probe included, and a dangling `… in` prefixes it: refuse them rather than let Lean read the
    probe as a comment or under the candidate's `open`."""
    toks = syntax.tokens(text, comments=True)
    if not toks:
        return []
    last = toks[-1]
    if last.kind in ("comment", "doc") and last.text.startswith("/-") and not (
        last.text.endswith("-/") and len(last.text) >= 5  # `/--/` alone is an open doc comment
    ):
        return [Violation(Reason.SYNTAX, "unterminated block comment", _line(text, last.start))]
    if last.kind == "string" and (len(last.text) < 2 or not last.text.endswith('"')):
        return [Violation(Reason.SYNTAX, "unterminated string", _line(text, last.start))]
    code = [t for t in toks if t.kind not in ("comment", "doc")]
    if code and code[-1].kind == "ident" and code[-1].text == "in":
        # `open Foo in` / `set_option … in` with nothing after it: Lean applies it to the next
        # command, which is the audit's probe (`open Foo in #print axioms t` can resolve `t` to
        # another declaration). No complete command or term ends with `in`.
        return [Violation(Reason.SYNTAX, "text ends with `in`: it would prefix the next command",
                          _line(text, code[-1].start))]
    return []


def _is_axiom_query(toks: Sequence[Token], i: int) -> bool:
    """`#print axioms NAME`: read-only, and the form many provers end their proofs with. It cannot
    spoof the audit: only the answer at the product's own probe counts. `#print "text"` and every
    other `#` command stay refused."""
    return (
        toks[i].text == "#print"
        and i + 2 < len(toks)
        and toks[i + 1].kind == "ident" and toks[i + 1].text == "axioms"
        and toks[i + 2].kind == "ident" and toks[i + 2].text not in COMMAND_WORDS
    ) or _is_type_query(toks, i)


def _is_type_query(toks: Sequence[Token], i: int) -> bool:
    """`#check @NAME` alone (the audit's type probe, lean/audit/_judge.py): elaborating a constant runs
    nothing. Only when the next token starts another `#print`/`#check` or `set_option`, or the
    text ends: `#check @f (by …)` would elaborate a term, and stays refused."""
    return (
        toks[i].text == "#check"
        and i + 2 < len(toks)
        and toks[i + 1].text == "@" and toks[i + 1].end == toks[i + 2].start
        and toks[i + 2].kind == "ident" and toks[i + 2].text not in COMMAND_WORDS
        and (i + 3 == len(toks) or toks[i + 3].text in ("#print", "#check", "set_option"))
    )


def _unknown_command_words(text: str, toks: Sequence[Token]) -> list[Violation]:
    """Command words the syntax layer does not split on (`_UNSPLIT_COMMAND_WORDS`,
    `_PERCENT_COMMAND_WORDS`): refused in untrusted text wherever they
    appear, so a command Lean would run cannot hide inside a proof."""
    out: list[Violation] = []
    for k, t in enumerate(toks):
        if t.kind != "ident":
            continue
        if t.text in _UNSPLIT_COMMAND_WORDS:
            if not (t.text == "axioms" and k > 0 and toks[k - 1].text == "#print"):
                out.append(Violation(Reason.COMMAND, f"`{t.text}` command", _line(text, t.start)))
        elif t.text in _PERCENT_COMMAND_WORDS and k + 1 < len(toks) and toks[k + 1].text == "%" \
                and toks[k + 1].start == t.end:
            out.append(Violation(Reason.COMMAND, f"`{t.text}%` command", _line(text, t.start)))
    return out


def option_allowed(name: str) -> bool:
    name = _unquote(name)
    return name in ALLOWED_OPTIONS or any(name.startswith(p) and len(name) > len(p) for p in ALLOWED_OPTION_PREFIXES)


def _command_violations(
    text: str, cmd: GateCommand, commands: frozenset[str], attributes: frozenset[str], what: str
) -> list[Violation]:
    line = _line(text, cmd.start)
    out: list[Violation] = []
    for p in cmd.prefixes:  # `open … in`, `set_option … in`, `attribute […] in`, `variable … in`
        out.extend(_command_violations(text, p, commands, attributes, what))
    if cmd.keyword == "":
        out.append(Violation(Reason.SYNTAX, f"text that is not a command: {' '.join(cmd.key[:6])[:80]}", line))
        return out
    if cmd.keyword.startswith("#") or cmd.keyword in _CODE_RUNNERS:
        return out  # reported by the token rules
    if cmd.keyword not in commands:
        named = f"{cmd.keyword} {cmd.name}" if cmd.name else cmd.keyword
        out.append(Violation(Reason.COMMAND, f"`{named}` is not allowed in {what}", line))
    for m in cmd.modifiers:
        if m not in ALLOWED_MODIFIERS and m not in _CODE_RUNNERS:
            out.append(Violation(Reason.MODIFIER, f"`{m}` modifier", line))
    for a in cmd.attributes:
        if a not in attributes and a not in _CODE_RUNNERS:  # code runners are reported by token
            out.append(Violation(Reason.ATTRIBUTE, f"attribute `{a}`", line))
    return out


# --- problem contexts ----------------------------------------------------------------------------


@dataclass(slots=True)
class Context:
    """The trusted part of problems: command keys that may appear unchanged, and answer slots
    (`def`/`abbrev … := sorry`) that a candidate may fill, keyed by everything before `:=`."""

    commands: set[tuple[str, ...]] = field(default_factory=set)
    slots: set[tuple[str, ...]] = field(default_factory=set)

    def add(self, problem: str) -> None:
        for cmd in problem_context(problem):
            self.commands.add(cmd.key)
            split = _slot_split(cmd)
            if split is not None and split[1] == ("sorry",):
                self.slots.add(split[0])

    def update(self, other: Context) -> None:
        self.commands |= other.commands
        self.slots |= other.slots

    @classmethod
    def of(cls, *problems: str) -> Context:
        ctx = cls()
        for p in problems:
            ctx.add(p)
        return ctx


def problem_context(problem: str) -> list[GateCommand]:
    """Every command of a problem file except its statement (the last theorem/lemma)."""
    cmds = split_commands(problem)
    last = max((k for k, c in enumerate(cmds) if c.keyword in ("theorem", "lemma")), default=None)
    return [c for k, c in enumerate(cmds) if k != last]


def _slot_split(cmd: GateCommand) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(tokens up to and including the top-level `:=`, tokens after it) of a def/abbrev/opaque."""
    if cmd.keyword not in ("def", "abbrev", "opaque"):
        return None
    depth = 0
    try:
        kw = cmd.key.index(cmd.keyword)
    except ValueError:
        return None
    for j in range(kw + 1, len(cmd.key)):
        t = cmd.key[j]
        if t in ("(", "[", "{", "⦃", "⟨", "⟦", "@["):
            depth += 1
        elif t in (")", "]", "}", "⦄", "⟩", "⟧"):
            depth -= 1
        elif depth == 0 and t == ":=":
            return cmd.key[: j + 1], cmd.key[j + 1 :]
    return None


# --- the gates -----------------------------------------------------------------------------------


def check_candidate(text: str, context: Context | None = None) -> list[Violation]:
    """Violations of a candidate proof file (or sketch, or lemma) against the whitelist. Commands
    of `context` (the problem's own) may appear unchanged; its answer slots may be filled."""
    context = context or Context()
    text = without_listing(text)  # the product's own probe, when a check ahead sends it whole
    toks = _tokens(text)
    out = _token_violations(text, toks) + _unterminated(text)
    untrusted: list[GateCommand] = []
    for cmd in split_commands(text):
        if cmd.key in context.commands:
            continue
        untrusted.append(cmd)
        split = _slot_split(cmd)
        if split is not None and split[0] in context.slots:
            # A filled answer slot: its value is judged by the token rules like a proof.
            continue
        if cmd.keyword in ("def", "abbrev", "opaque"):
            named = f"{cmd.keyword} {cmd.name}" if cmd.name else cmd.keyword
            out.append(Violation(Reason.CONTEXT, f"`{named}` is not part of the problem's context",
                                 _line(text, cmd.start)))
            out.extend(v for v in _command_violations(text, cmd, frozenset({cmd.keyword}), ALLOWED_ATTRIBUTES, "")
                       if v.reason is not Reason.COMMAND)
            continue
        out.extend(_command_violations(text, cmd, PROOF_COMMANDS, ALLOWED_ATTRIBUTES, "a proof"))
    starts = [t.start for t in toks]
    for cmd in untrusted:
        lo, hi = bisect.bisect_left(starts, cmd.start), bisect.bisect_left(starts, cmd.end)
        out.extend(_unknown_command_words(text, toks[lo:hi]))
    return _dedup(out)


def check_dataset_text(text: str) -> list[Violation]:
    """Violations of a dataset header or problem (context + statement): imports, `open`, allowed
    options, plain definitions and scoping only."""
    toks = _tokens(text)
    out = _token_violations(text, toks) + _unknown_command_words(text, toks)
    for cmd in split_commands(text):
        out.extend(_command_violations(text, cmd, DATASET_COMMANDS, _DATASET_ATTRIBUTES, "a dataset problem"))
    return _dedup(out)


def check_tactic(text: str) -> list[Violation]:
    """Violations of tactic text sent to a proof state: the token rules, and no command at all
    except `open … in` / `set_option … in`."""
    toks = _tokens(text)
    out = _token_violations(text, toks)
    for t in toks:
        if t.kind == "ident" and t.text in COMMAND_WORDS and t.text not in ("open", "set_option"):
            out.append(Violation(Reason.COMMAND, f"`{t.text}` in a tactic", _line(text, t.start)))
    return _dedup(out)


def _dedup(vs: Iterable[Violation]) -> list[Violation]:
    seen: set[tuple[Reason, str, int]] = set()
    out = []
    for v in vs:
        k = (v.reason, v.detail, v.line)
        if k not in seen:
            seen.add(k)
            out.append(v)
    return out


class DatasetRejected(InputError):
    """A dataset row (or the original statement file) holds something outside the dataset
    whitelist, and `--trust-dataset` was not given."""

    def __init__(self, row: str, violations: Sequence[Violation]) -> None:
        self.row = row
        self.violations = list(violations)
        first = "; ".join(str(v) for v in self.violations[:3])
        super().__init__(f"dataset row '{row}' refused by the gate: {first} (pass --trust-dataset to accept it)")


def admit_problem(problem: str, *, row: str, trust: bool = False) -> Context:
    """The context of a dataset problem after the dataset gate. Raises DatasetRejected unless
    `trust`; even a trusted problem never gets code runners past the verifier gate."""
    if not trust:
        violations = check_dataset_text(problem)
        if violations:
            raise DatasetRejected(row, violations)
    return Context.of(problem)


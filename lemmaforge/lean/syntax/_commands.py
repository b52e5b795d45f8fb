"""Commands of a Lean file, found the way Lean finds them (see `layout` for the start rules).

Public API (the whitelist gate builds on it):

* `split_commands(text) -> list[Command]`: every command, in order, wherever it starts (any
  column, the same line as another command, after `in`). `open X in` / `set_option … in` /
  `attribute … in` / `variable … in` chains are NOT separate entries: they are the `prefixes` of
  the command they apply to (each a `Command` itself, whose `text` ends with `in`). Module docs
  `/-! … -/` are commands with keyword "/-!". Tokens before the first command (text Lean cannot
  parse as a command) form a command with keyword "".
* `Command` fields: `keyword` (the reserved word after attributes and modifiers: "theorem",
  "#eval", "set_option", "open", "instance", "notation3", "section" for `noncomputable section`,
  "class" for `class inductive`, "deriving" for `deriving instance`), `start`/`end` offsets (start
  = docstring, else first prefix, else first attribute/modifier; end = end of the last token,
  trailing comments excluded), `keyword_start`, `modifiers` ("private", "noncomputable",
  "local", …), `attributes` (attribute NAMES from `@[…]` and from `attribute […]`: "simp",
  "implemented_by", "extern", "csimp", "instance" — `-simp` erasure gives "simp" too),
  `name` (declared name as written, "" when none), `full_name` (with the enclosing `namespace`s,
  `_root_.` removed, «» only where needed: the form Lean prints), `namespace` (enclosing
  namespace components), `docstring`, `prefixes`, `args` (texts of the tokens after the keyword
  up to the end, comments dropped; e.g. `set_option maxHeartbeats 400000 in` has
  `("maxHeartbeats", "400000", "in")`) and `text`.
* `declarations(text)` / `last_theorem(text)`: the declarations with their signature, type and
  body split (`Declaration`).
* `split_header(text)`: the leading `import`/`set_option`/`open`/`universe` commands.
* `full_name(namespace, name)`: the helper behind `Command.full_name`.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from lemmaforge.lean.syntax._layout import (
    DECLARATION_KEYWORDS,
    PREFIX_KEYWORDS,
    Analysis,
    analyze,
    matching_bracket,
)
from lemmaforge.lean.syntax._lexer import format_name, lex, name_components
from lemmaforge.lean.syntax._scanner import Token

__all__ = [
    "Command",
    "Declaration",
    "declarations",
    "full_name",
    "last_theorem",
    "split_commands",
    "split_header",
]

_HEADER_COMMANDS = frozenset({"import", "set_option", "open", "universe"})
# Term-level local definitions whose `:=` can appear at depth 0 inside a type or statement.
LOCAL_DEFINERS = frozenset({"let", "letI", "have", "haveI"})
_NAMED_BY_NEXT_TOKEN = DECLARATION_KEYWORDS - {"example"}


@dataclass(frozen=True, slots=True)
class Command:
    """One Lean command (see the module docstring for every field)."""

    keyword: str
    start: int
    end: int
    keyword_start: int
    text: str
    modifiers: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    name: str = ""
    full_name: str = ""
    namespace: tuple[str, ...] = ()
    docstring: str | None = None
    prefixes: tuple[Command, ...] = ()
    args: tuple[str, ...] = ()


@dataclass(slots=True)
class RawCommand:
    """A command as token indices into `Analysis.toks` (what the other modules work on)."""

    first: int  # first token (prefix, attribute, modifier or keyword)
    last: int  # last token (inclusive)
    keyword: int  # the command keyword (after attributes and modifiers)
    own_first: int  # first token after the prefixes
    prefixes: list[RawCommand] = field(default_factory=list)

    def starts_command(self, an: Analysis) -> bool:
        """False for the leading tokens that no command keyword starts."""
        return self.own_first in an.keyword


def raw_commands(an: Analysis) -> list[RawCommand]:
    """The commands of an analysed text as token ranges, prefixes folded in (cached)."""
    cached = an.cache.get("commands")
    if cached is None:
        cached = _raw_commands(an)
        an.cache["commands"] = cached
    return cached


def _raw_commands(an: Analysis) -> list[RawCommand]:
    toks = an.toks
    out: list[RawCommand] = []
    if an.starts and an.starts[0] > 0:
        out.append(RawCommand(0, an.starts[0] - 1, 0, 0))  # unparseable leading tokens
    elif not an.starts and toks:
        out.append(RawCommand(0, len(toks) - 1, 0, 0))
    pending: list[RawCommand] = []
    for k, s in enumerate(an.starts):
        e = (an.starts[k + 1] if k + 1 < len(an.starts) else len(toks)) - 1
        cmd = RawCommand(s, e, an.keyword[s], s)
        kw = toks[cmd.keyword]
        last = toks[e]
        if (
            kw.kind in ("ident", "hashcmd")
            and last.kind == "ident"
            and last.text == "in"
            and k + 1 < len(an.starts)
            and (kw.text in PREFIX_KEYWORDS or (an.depth[e] == 0 and not an.stack[e]))
        ):
            # Lean's `in` is a trailing parser on ANY command (`cmd in cmd` = `section cmd cmd
            # end`): `instance … in theorem …` scopes the instance to the theorem. An `in` inside a
            # bracket or a tactic block (`open X in simp`) is not that one.
            pending.append(cmd)
            continue
        if pending:
            cmd.first = pending[0].first
            cmd.prefixes = pending
            pending = []
        out.append(cmd)
    if pending:  # a dangling `open X in` at the end of the text
        out.extend(pending)
    return out


def _start(t: Token) -> int:
    return t.start


def _doc_before(code: str, all_toks: tuple[Token, ...], offset: int) -> Token | None:
    """The docstring `/-- -/` immediately before `offset` (only whitespace between), if any."""
    k = bisect.bisect_left(all_toks, offset, key=_start) - 1
    if k >= 0 and all_toks[k].kind == "doc" and all_toks[k].text.startswith("/--"):
        if code[all_toks[k].end : offset].strip() == "":
            return all_toks[k]
    return None


def attribute_names(toks: list[Token], open_index: int) -> list[str]:
    """Names of the attributes in the list whose `@[` / `[` is token `open_index`: the first
    identifier of each comma-separated entry, after `local`/`scoped`/`-`."""
    close = matching_bracket(toks, open_index)
    names: list[str] = []
    expect = True
    depth = 0
    for j in range(open_index + 1, close):
        t = toks[j]
        if t.kind == "symbol" and t.text in ("(", "[", "{", "⟨"):
            depth += 1
        elif t.kind == "symbol" and t.text in (")", "]", "}", "⟩"):
            depth -= 1
        elif depth == 0 and t.text == ",":
            expect = True
        elif depth == 0 and expect:
            if t.text in ("local", "scoped", "-"):
                continue
            names.append(t.text)
            expect = False
    return names


def _modifiers_and_attributes(an: Analysis, cmd: RawCommand) -> tuple[list[str], list[str]]:
    toks = an.toks
    modifiers: list[str] = []
    attributes: list[str] = []
    j = cmd.own_first
    while j < cmd.keyword:
        t = toks[j]
        if t.text == "@[":
            attributes.extend(attribute_names(toks, j))
            j = matching_bracket(toks, j) + 1
        else:
            modifiers.append(t.text)
            j += 1
    kw = toks[cmd.keyword]
    if kw.text == "attribute" and cmd.keyword + 1 <= cmd.last and toks[cmd.keyword + 1].text == "[":
        attributes.extend(attribute_names(toks, cmd.keyword + 1))
    return modifiers, attributes


def declared_name_index(an: Analysis, cmd: RawCommand) -> int | None:
    """Token index of the name a declaration command declares, if it names one."""
    toks = an.toks
    kw = toks[cmd.keyword]
    if kw.kind != "ident" or kw.text not in _NAMED_BY_NEXT_TOKEN:
        return None
    i = cmd.keyword + 1
    if kw.text == "class" and i <= cmd.last and toks[i].text in ("inductive", "structure", "abbrev"):
        i += 1
    # `instance (priority := low) foo : …`
    if kw.text == "instance" and i + 1 <= cmd.last and toks[i].text == "(" and toks[i + 1].text == "priority":
        i = matching_bracket(toks, i) + 1
    if i <= cmd.last and toks[i].kind == "ident" and toks[i].text not in ("where", "extends"):
        return i
    return None


def full_name(namespace: tuple[str, ...] | list[str], name: str) -> str:
    """The full name Lean gives `name` declared inside `namespace` (components): the namespace
    prepended unless the name starts with `_root_`, printed as Lean prints names."""
    parts = name_components(name)
    if not parts:
        return ""
    if parts[0] == "_root_":
        return format_name(parts[1:])
    return format_name((*namespace, *parts))


def _namespaces(an: Analysis) -> list[tuple[str, ...]]:
    """The enclosing namespace of each raw command (`namespace`/`section`/`end`/`mutual`)."""
    toks = an.toks
    scopes: list[tuple[str, ...]] = []  # each scope: the namespace components it added
    in_mutual = 0
    out: list[tuple[str, ...]] = []
    for cmd in raw_commands(an):
        out.append(tuple(c for scope in scopes for c in scope))
        kw = toks[cmd.keyword].text
        arg = toks[cmd.keyword + 1].text if cmd.keyword + 1 <= cmd.last else ""
        if kw == "namespace":
            scopes.append(name_components(arg))
        elif kw == "section":
            scopes.append(())
        elif kw == "mutual":
            in_mutual += 1
        elif kw == "end":
            if in_mutual:
                in_mutual -= 1
            elif scopes:
                scopes.pop()
    return out


def split_commands(text: str) -> list[Command]:
    """Every command of `text` in source order (see the module docstring)."""
    an = analyze(text)
    cached = an.cache.get("public_commands")
    if cached is None:
        cached = _public_commands(an)
        an.cache["public_commands"] = cached
    return list(cached)


def _public_commands(an: Analysis) -> list[Command]:
    all_toks = lex(an.code)
    spaces = _namespaces(an)
    cmds = [_command(an, all_toks, raw, ns) for raw, ns in zip(raw_commands(an), spaces, strict=True)]
    docs = [
        Command("/-!", t.start, t.end, t.start, t.text)
        for t in all_toks
        if t.kind == "doc" and t.text.startswith("/-!")
    ]
    return sorted([*cmds, *docs], key=lambda c: c.start)


def _command(an: Analysis, all_toks: tuple[Token, ...], raw: RawCommand, ns: tuple[str, ...]) -> Command:
    code, toks = an.code, an.toks
    own = toks[raw.own_first]
    doc = _doc_before(code, all_toks, own.start)
    if doc is None and raw.prefixes:
        doc = _doc_before(code, all_toks, toks[raw.first].start)
    start = toks[raw.first].start
    if doc is not None:
        start = min(start, doc.start)
    kw = toks[raw.keyword]
    keyword = kw.text if raw.starts_command(an) else ""
    modifiers, attributes = _modifiers_and_attributes(an, raw)
    name_i = declared_name_index(an, raw)
    name = toks[name_i].text if name_i is not None else ""
    end = toks[raw.last].end
    prefixes = tuple(
        _command(an, all_toks, RawCommand(p.first, p.last, p.keyword, p.own_first), ns) for p in raw.prefixes
    )
    return Command(
        keyword=keyword,
        start=start,
        end=end,
        keyword_start=kw.start,
        text=code[start:end],
        modifiers=tuple(modifiers),
        attributes=tuple(attributes),
        name=name,
        full_name=full_name(ns, name) if name else "",
        namespace=ns,
        docstring=doc.text if doc is not None else None,
        prefixes=prefixes,
        args=tuple(t.text for t in toks[raw.keyword + 1 : raw.last + 1]),
    )


# --------------------------------------------------------------------------------------------
# Declarations
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Declaration:
    """One declaration (theorem, lemma, def, abbrev, axiom, instance, example, structure,
    inductive, class, opaque), wherever it starts.

    `start` is where its syntax begins (docstring, then any `set_option … in` / `open … in`
    prefixes, attributes and modifiers); `end` is the end of its last token (trailing comments
    and blank lines excluded). `signature` is the text from the end of the name to `:=` (binders
    and `: type`), split at the top-level colon (the first `:` at bracket depth 0) into `binders`
    and `type`. `body_start` is the offset right after `:=` (None when there is none: axioms,
    structures, `where`/`|` definitions). `universe_params` holds an explicit `.{u, v}`.
    `full_name` has the enclosing namespaces; `attributes` the attribute names."""

    kind: str
    name: str
    start: int
    end: int
    keyword_start: int
    signature_start: int
    signature: str
    binders: str
    type: str
    body_start: int | None
    text: str
    universe_params: str = ""
    modifiers: tuple[str, ...] = ()
    prefix_commands: tuple[str, ...] = ()
    docstring: str | None = None
    full_name: str = ""
    attributes: tuple[str, ...] = ()
    # The signature's tokens (comments dropped), read with the rest of the text: `theorem_key`
    # normalises them instead of lexing `signature` again (a goal's lemma grows with its depth).
    signature_tokens: tuple[Token, ...] = field(default=(), compare=False, repr=False)
    # Index in `signature_tokens` of the top-level colon (None: no colon): where `binders` ends.
    signature_colon: int | None = field(default=None, compare=False, repr=False)

    @property
    def body(self) -> str:
        """The text after `:=` (the proof of a theorem), "" when there is none."""
        if self.body_start is None:
            return ""
        return self.text[self.body_start - self.start :]

    @property
    def statement(self) -> str:
        """`kind name signature` without the body, e.g. `theorem foo (x : ℕ) : x = x`."""
        name = f" {self.name}{self.universe_params}" if self.name or self.universe_params else ""
        return f"{self.kind}{name} {self.signature}".rstrip()


def declarations(code: str) -> list[Declaration]:
    """Every declaration of `code` (theorem, lemma, def, abbrev, axiom, instance, example,
    structure, inductive, class, opaque), in order, at any column."""
    return list(declarations_of(analyze(code)))


def declarations_of(an: Analysis) -> list[Declaration]:
    cached = an.cache.get("declarations")
    if cached is None:
        all_toks = lex(an.code)
        spaces = _namespaces(an)
        cached = []
        for raw, ns in zip(raw_commands(an), spaces, strict=True):
            kw = an.toks[raw.keyword]
            if raw.starts_command(an) and kw.kind == "ident" and kw.text in DECLARATION_KEYWORDS:
                cached.append(_declaration(an, all_toks, raw, ns))
        an.cache["declarations"] = cached
    return cached


def theorems_of(an: Analysis) -> list[Declaration]:
    return [d for d in declarations_of(an) if d.kind in ("theorem", "lemma")]


def _declaration(
    an: Analysis, all_toks: tuple[Token, ...], cmd: RawCommand, ns: tuple[str, ...]
) -> Declaration:
    code, toks = an.code, an.toks
    kw = toks[cmd.keyword]
    last = cmd.last
    name_i = declared_name_index(an, cmd)
    name = ""
    name_end = kw.end
    i = cmd.keyword + 1
    if kw.text == "class" and i <= last and toks[i].text in ("inductive", "structure", "abbrev"):
        name_end = toks[i].end
        i += 1
    if kw.text == "instance" and i + 1 <= last and toks[i].text == "(" and toks[i + 1].text == "priority":
        close = matching_bracket(toks, i)
        name_end = toks[close].end
        i = close + 1
    if name_i is not None:
        name = toks[name_i].text
        name_end = toks[name_i].end
        i = name_i + 1
    universe_params = ""
    if i + 1 <= last and toks[i].text == "." and toks[i].start == name_end and toks[i + 1].text == "{":
        close = matching_bracket(toks, i + 1)
        universe_params = code[toks[i].start : toks[close].end]
        name_end = toks[close].end
        i = close + 1
    # The signature runs to `:=` at depth 0 (or `where` / `|` / the end of the command).
    base_depth = an.depth[cmd.keyword]
    colon: int | None = None
    assign: int | None = None
    stop = last + 1
    local_definitions = 0  # `let x := v; …` inside the type: that `:=` is not the body's
    for j in range(i, last + 1):
        t = toks[j]
        if an.depth[j] != base_depth:
            continue
        if t.text in LOCAL_DEFINERS and t.kind == "ident":
            local_definitions += 1
        elif t.text == ":" and colon is None:
            colon = j
        elif t.text == ":=" and local_definitions:
            local_definitions -= 1
        elif t.text == ":=":
            assign = j
            stop = j
            break
        elif (t.text == "where" and t.kind == "ident") or (
            t.text == "|" and _starts_alternative(an, j, last)
        ):
            stop = j
            break
    sig_end = toks[stop].start if stop <= last else toks[last].end
    signature = code[name_end:sig_end].strip()
    if colon is not None:
        binders = code[name_end : toks[colon].start].strip()
        type_ = code[toks[colon].end : sig_end].strip()
    else:
        binders, type_ = signature, ""
    own = toks[cmd.own_first]
    doc = _doc_before(code, all_toks, own.start)
    if doc is None and cmd.prefixes:
        doc = _doc_before(code, all_toks, toks[cmd.first].start)
    start = toks[cmd.first].start if doc is None else min(doc.start, toks[cmd.first].start)
    end = toks[last].end
    modifiers, attributes = _modifiers_and_attributes(an, cmd)
    modifier_texts = _modifier_texts(an, cmd)
    prefixes = tuple(code[toks[p.first].start : toks[p.last].end] for p in cmd.prefixes)
    return Declaration(
        kind=kw.text,
        name=name,
        start=start,
        end=end,
        keyword_start=kw.start,
        signature_start=name_end,
        signature=signature,
        binders=binders,
        type=type_,
        body_start=toks[assign].end if assign is not None else None,
        text=code[start:end],
        universe_params=universe_params,
        modifiers=tuple(modifier_texts),
        prefix_commands=prefixes,
        docstring=doc.text if doc else None,
        full_name=full_name(ns, name) if name else "",
        attributes=tuple(attributes),
        signature_tokens=tuple(toks[i:stop]),
        signature_colon=None if colon is None else colon - i,
    )


def _modifier_texts(an: Analysis, cmd: RawCommand) -> list[str]:
    """Modifiers and attribute lists as written (attribute lists whitespace-normalised)."""
    out = []
    j = cmd.own_first
    while j < cmd.keyword:
        t = an.toks[j]
        if t.text == "@[":
            close = matching_bracket(an.toks, j)
            out.append(join_tokens(an.toks[j : close + 1]))
            j = close + 1
        else:
            out.append(t.text)
            j += 1
    return out


def join_tokens(toks: list[Token]) -> str:
    """Token texts joined: one space where the source had a gap, nothing where they touched."""
    out: list[str] = []
    prev_end: int | None = None
    for t in toks:
        if prev_end is not None and t.start > prev_end:
            out.append(" ")
        out.append(t.text)
        prev_end = t.end
    return "".join(out)


def _starts_alternative(an: Analysis, j: int, last: int) -> bool:
    """Whether the `|` at token `j` starts a pattern-matching alternative (`| 0 => 1`) rather than
    an absolute value (`|m| < 2 := by`): it starts a line and a `=>` follows at the same depth
    before any `:=`."""
    if not an.line_start_tok[j]:
        return False
    for k in range(j + 1, last + 1):
        if an.depth[k] != an.depth[j]:
            continue
        if an.toks[k].text == "=>":
            return True
        if an.toks[k].text == ":=":
            return False
    return False


def last_theorem(code: str) -> Declaration | None:
    """The last `theorem` or `lemma` of `code` (the problem statement of a benchmark file)."""
    decls = theorems_of(analyze(code))
    return decls[-1] if decls else None


# --------------------------------------------------------------------------------------------
# Header
# --------------------------------------------------------------------------------------------


def split_header(code: str) -> tuple[str, str]:
    """Split `code` into its header and the rest, `header + rest == code`.

    The header is the leading run of `import` / `set_option` / `open` / `universe` commands (at
    any column; a command may continue on further lines), with the blank lines and non-doc
    comments between them, plus the rest of the last one's line and the blank lines after it. A
    `set_option … in` or `open … in` is a prefix of the next declaration, not header. Docstrings
    (`/-- -/`, `/-! -/`) end the header; so does a comment after the last header command (it
    usually describes what follows)."""
    an = analyze(code)
    all_toks = lex(code)
    header_end = 0
    for cmd in raw_commands(an):
        kw = an.toks[cmd.keyword]
        if (
            cmd.prefixes
            or not cmd.starts_command(an)
            or kw.kind != "ident"
            or kw.text not in _HEADER_COMMANDS
        ):
            break
        start = an.toks[cmd.first].start
        if any(t.kind == "doc" and header_end <= t.start < start for t in all_toks):
            break
        header_end = an.toks[cmd.last].end
    if header_end == 0:
        return "", code
    # Comments that start on the last header line belong to it; then take the rest of that line
    # and the blank lines after it.
    for t in all_toks:
        if t.kind in ("comment", "doc") and t.start >= header_end and "\n" not in code[header_end : t.start]:
            header_end = t.end
    nl = code.find("\n", header_end)
    if code[header_end : len(code) if nl < 0 else nl].strip():
        return code[:header_end], code[header_end:]  # a command follows on the same line
    if nl < 0:
        return code, ""
    end = nl + 1
    while True:
        nxt = code.find("\n", end)
        if nxt < 0:
            if code[end:].strip() == "":
                end = len(code)
            break
        if code[end:nxt].strip():
            break
        end = nxt + 1
    return code[:end], code[end:]

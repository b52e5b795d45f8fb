"""What the test doubles share: Lean-text scanning, Lean's `#print axioms` wording, a verifier
double's protocol around its `check`, and a local HTTP server run by a thread.

Standard library only, and importable both as `tests.fakes.fake_common` and as the top-level
module `fake_common` (the fake REPL process and the fake `lake` script put tests/fakes on sys.path
and import their siblings by name): the fakes import it with `from .fake_common import …` inside
the package and `from fake_common import …` outside it.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

if __package__:
    from . import fake_opens
else:  # imported by path (tests/fakes on sys.path): its sibling too
    import fake_opens

# --------------------------------------------------------------------------------------------------
# Lean text
# --------------------------------------------------------------------------------------------------

_IDENT_CHAR = re.compile(r"[\w'!?₀-₉ₐ-ₜ]")
IDENT_CHARS = r"\w'!?₀-₉ₐ-ₜᵢ-ᵪ"  # what may continue an identifier (a regex character class body)
# `sorry` as a term or tactic (not `x.sorry`, `sorryAx`, `h_sorry`), in masked text.
SORRY_RE = re.compile(rf"(?<![{IDENT_CHARS}.])sorry(?![{IDENT_CHARS}])")
# A declaration at the start of a line (Lean reads a command at any column: Seed-Prover's published
# imo1963_p5 starts its theorem at column 4): attributes, modifiers, the keyword, the name if any.
DECL_RE = re.compile(
    r"^[ \t]*(?:@\[[^\]\n]*\][ \t]*\n?[ \t]*)*(?:(?:private|protected|noncomputable|unsafe|partial|nonrec)[ \t]+)*"
    r"(?P<kind>theorem|lemma|def|abbrev|instance|example|axiom|opaque)\b"
    r"(?:[ \t]+(?P<name>[^\s:(){}\[\]⦃⦄]+))?",
    re.MULTILINE,
)
PRINT_AXIOMS_RE = re.compile(r"^#print[ \t]+axioms[ \t]+(?P<name>[^\s]+)", re.MULTILINE)


def mask_comments_and_strings(text: str) -> str:
    """Same length as `text`, with comments (`--`, nested `/- -/`), string and char literals
    replaced by spaces (newlines kept), so that regexes only see code and offsets still match."""
    out = list(text)
    i, n = 0, len(text)

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        if text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/-", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/-", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("-/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i, min(j + 1, n))
            i = j + 1
        elif text[i] == "'" and (i == 0 or not _IDENT_CHAR.match(text[i - 1])):
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:
                blank(i, i + m.end())
                i += m.end()
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


# --------------------------------------------------------------------------------------------------
# #print axioms
# --------------------------------------------------------------------------------------------------


def lean_name_order(name: str) -> tuple[int, list[str]]:
    """Lean's `Name.cmp` (which `#print axioms` sorts by): prefixes are compared first, so names
    with fewer components come first, then component by component (e.g. propext, sorryAx,
    Classical.choice, Lean.ofReduceBool, Quot.sound)."""
    parts = name.split(".")
    return len(parts), parts


def axioms_message(name: str, axioms: Iterable[str]) -> str:
    """What `#print axioms NAME` says, in Lean's wording and order."""
    ordered = sorted(set(axioms), key=lean_name_order)
    if not ordered:
        return f"'{name}' does not depend on any axioms"
    return f"'{name}' depends on axioms: [{', '.join(ordered)}]"


def probe_response(code: str, axioms: Iterable[str] = ("propext",)) -> dict[str, Any] | None:
    """The REPL's answer to a file ending in the audit's probe: one info message at the last
    `#print axioms NAME` line saying NAME depends on `axioms`, and the answer to each `#check @NAME`
    (`type_probe_messages`); None for a file without a probe."""
    found = list(PRINT_AXIOMS_RE.finditer(code))
    types = type_probe_messages(code)  # the type probe (`#check @NAME`), alone for an original
    types += listing_messages(code, default_axioms=tuple(axioms))  # the declaration listing
    if not found:
        return {"env": 0, "messages": types} if types else None
    last = found[-1]
    line = code[: last.start()].count("\n") + 1  # Lean reports at the `#print`
    return {"env": 0, "messages": [{"severity": "info", "pos": {"line": line, "column": 0},
                                     "data": axioms_message(last.group("name"), axioms)}, *types]}


# --------------------------------------------------------------------------------------------------
# A local HTTP server
# --------------------------------------------------------------------------------------------------


class CheckOnlyVerifier:
    """A verifier double that answers `check` (written by the subclass) and nothing more:
    `check_many` checks one file after another, no proof states, nothing to close."""

    name = "stand-in"
    supports_proof_states = False

    async def check(self, code: str, *, timeout: float | None = None) -> Any:
        raise NotImplementedError

    async def check_many(self, codes: Iterable[str], *, timeout: float | None = None) -> list[Any]:
        return [await self.check(code, timeout=timeout) for code in codes]

    async def run_tactic(self, hole: Any, tactic: str, *, timeout: float | None = None) -> Any:
        raise NotImplementedError

    async def close(self) -> None:
        return None


class QuietHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (timeout, cancellation) is normal here: say nothing."""
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)


class HTTPFake:
    """`start()` / `stop()` / `with` for a fake server on 127.0.0.1 (a free port), served by a
    daemon thread. A subclass names its request handler class in `handler`; each request gets a
    handler whose `fake` attribute is the running fake."""

    handler: type[BaseHTTPRequestHandler]
    thread_name = "fake-http"
    _httpd: QuietHTTPServer | None = None
    _serving: threading.Thread | None = None

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError(f"{type(self).__name__} is not running")
        return int(self._httpd.server_address[1])

    def start(self) -> Any:
        if self._httpd is not None:
            return self
        handler = type("Handler", (self.handler,), {"fake": self})
        self._httpd = QuietHTTPServer(("127.0.0.1", 0), handler)
        # A short poll interval keeps `stop()` (which waits for the serving loop) fast.
        self._serving = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, name=self.thread_name, daemon=True
        )
        self._serving.start()
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._serving is not None:
            self._serving.join(timeout=5)
        self._httpd = self._serving = None

    def __enter__(self) -> Any:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --------------------------------------------------------------------------------------------------
# #check @NAME under pp.all: the elaborated type, as far as the fakes model Lean
# --------------------------------------------------------------------------------------------------

CHECK_TYPE_RE = re.compile(r"^#check[ \t]+@(?P<name>[^\s]+)", re.MULTILINE)
# The fakes' own table of spellings Lean elaborates alike (independent of the product's).
_FAKE_SPELLINGS = {"<=": "≤", ">=": "≥", "->": "→", "<->": "↔", "/\\": "∧", "\\/": "∨", "forall": "∀",
                   "λ": "fun", "↦": "=>"}
_TYPE_TOKEN = re.compile(rf"<->|<=|>=|->|/\\|\\/|:=|[{IDENT_CHARS}.]+|\S")
# The classes whose instances decide what an operator means.
_OPERATOR_CLASSES = {"<": {"LT"}, ">": {"LT"}, "≤": {"LE"}, "≥": {"LE"}, "+": {"Add", "HAdd"},
                     "*": {"Mul", "HMul"}, "-": {"Sub", "HSub", "Neg"}, "/": {"Div", "HDiv"},
                     "^": {"Pow", "HPow"}, "%": {"Mod", "HMod"}, "∣": {"Dvd"}}
# Commands that change what later text means (at column 0, after attributes / `local` / `scoped`).
_MEANING_RE = re.compile(
    r"^(?:@\[[^\]\n]*\][ \t]*)*(?:(?:local|scoped|private|noncomputable)[ \t]+)*"
    r"(?P<kw>variable|instance|notation|infixl|infixr|infix|prefix|postfix|macro_rules|macro|syntax|attribute)\b",
    re.MULTILINE,
)
_NEXT_COMMAND = re.compile(r"\n(?=[^\s|)\]}⟩,])")


def type_tokens(text: str) -> list[str]:
    return [_FAKE_SPELLINGS.get(t, t) for t in _TYPE_TOKEN.findall(text)]


def _meaning_commands(context: str) -> list[str]:
    out = []
    for m in _MEANING_RE.finditer(context):
        nxt = _NEXT_COMMAND.search(context, m.end())
        out.append(context[m.start() : nxt.start() if nxt else len(context)])
    return out


def _changes_meaning(command: str, signature: list[str], body: str) -> bool:
    """Whether Lean would elaborate `signature` differently under `command` (cheater-favourable:
    where Lean's answer depends on the version, the version that lets the change through)."""
    kw = _MEANING_RE.match(command.lstrip())
    kind = kw.group("kw") if kw else ""
    used = set(signature)
    if kind == "variable":  # Lean < 4.10 adds a variable its proof mentions to the theorem
        names = {n for group in re.findall(r"[({\[]([^:(){}\[\]]*):", command) for n in group.split()}
        words = set(re.findall(rf"[{IDENT_CHARS}]+", " ".join(signature) + " " + body))
        return bool(names & words)
    if kind in ("instance", "attribute"):
        classes = set().union(*(_OPERATOR_CLASSES.get(t, set()) for t in used))
        named = set(re.findall(rf"[{IDENT_CHARS}.]+", command))
        return kind == "attribute" and bool(classes) or bool(named & (classes | used))
    quoted = " ".join(re.findall(r'"([^"\n]*)"', command) + re.findall(r"`\(([^)\n]*)\)", command))
    return bool(set(type_tokens(quoted)) & used)


def type_message(name: str, signature: str, context: str = "", body: str = "") -> str:
    """What `set_option pp.all true in #check @NAME` prints for a declaration whose signature
    (binders and type, the text between its name and `:=`) is `signature`, elaborated after
    `context` (the text before it): its tokens with spellings Lean reads alike unified, then every
    command of `context` that changes what those tokens mean (a `variable` it uses, an instance of
    a class its operators use, a notation or macro over its tokens), as Lean's print would differ.
    The `open`s in force decide what its names, scoped notations and instances denote
    (fake_opens.resolve)."""
    tokens = type_tokens(signature)
    masked = mask_comments_and_strings(context)
    changed = [" ".join(c.split()) for c in _meaning_commands(context) if _changes_meaning(c, tokens, body)]
    return f"@{name} : " + " ".join(fake_opens.resolve(tokens, signature, masked)) + "".join(
        f" ⟦under {c}⟧" for c in changed)


def _top_level_assign(masked: str, start: int) -> int:
    """The first `:=` at bracket depth 0 from `start` (len(masked) if none)."""
    depth = 0
    for i in range(start, len(masked)):
        c = masked[i]
        if c in "([{⦃⟨":
            depth += 1
        elif c in ")]}⦄⟩":
            depth -= 1
        elif depth == 0 and masked.startswith(":=", i):
            return i
    return len(masked)


def type_answer(code: str, name: str) -> str | None:
    """What Lean prints for `#check @name` after `code` (the declaration found by its name as
    written, or by its last component inside a namespace): `type_message`, or None without one."""
    masked = mask_comments_and_strings(code)
    spellings = [name] if name.startswith("«") else [name, name.rsplit(".", 1)[-1]]
    for spelled in spellings:
        found = list(re.finditer(rf"\b(?:theorem|lemma)\s+{re.escape(spelled)}(?=[\s:(\[{{])", masked))
        if found:
            m = found[-1]
            assign = _top_level_assign(masked, m.end())
            return type_message(name, code[m.end() : assign], code[: m.start()], code[assign:])
    return None


def type_probe_messages(code: str) -> list[dict[str, Any]]:
    """Lean's answers to every `#check @NAME` line of `code` (at the `#check` token), REPL JSON."""
    out = []
    for m in CHECK_TYPE_RE.finditer(mask_comments_and_strings(code)):
        line = code[: m.start()].count("\n") + 1
        data = type_answer(code[: m.start()], m.group("name"))
        if data is None:
            out.append({"severity": "error", "pos": {"line": line, "column": 7},
                        "data": f"unknown identifier '{m.group('name')}'"})
        else:
            out.append({"severity": "info", "pos": {"line": line, "column": 0}, "data": data})
    return out


# --------------------------------------------------------------------------------------------------
# The audit's declaration listing (`run_cmd` … lemmaforge/lean/judge.py): what Lean would list
# --------------------------------------------------------------------------------------------------

# The product's listing command, recognised by its first two lines (the nonce is in a string, so
# match the raw text, not masked text).
DECLS_PROBE_RE = re.compile(r'^run_cmd do\n  let lfTag : String := "(?P<nonce>[0-9a-f]+)"', re.MULTILINE)
_LISTED_DECL_RE = re.compile(
    r"^(?:@\[[^\]\n]*\][ \t]*\n?[ \t]*)*(?P<mods>(?:(?:private|protected|noncomputable|unsafe|partial|nonrec)[ \t]+)*)"
    r"(?P<kind>theorem|lemma|def|abbrev|instance|axiom|opaque|inductive|structure|class)\b"
    r"(?:[ \t]+(?P<name>(?:«[^»\n]*»|[^\s:(){}\[\]⦃⦄«])+))?",
    re.MULTILINE,
)
_LISTED_SCOPE_RE = re.compile(r"^(?P<kind>namespace|section|end)\b[ \t]*(?P<name>[^\s]*)", re.MULTILINE)
_MACRO_CMD_RE = re.compile(r"^(?P<local>(?:local|scoped)[ \t]+)?(?P<kw>macro_rules|macro|elab_rules|elab)\b", re.MULTILINE)
_SYNTAX_CMD_RE = re.compile(
    r"^(?P<local>(?:local|scoped)[ \t]+)?(?P<kw>notation|infixl|infixr|infix|prefix|postfix|syntax)\b", re.MULTILINE
)
_ATTR_INSTANCE_RE = re.compile(r"^attribute[ \t]*\[(?P<local>(?:local|scoped)[ \t]+)?instance\b", re.MULTILINE)
_TOP_OPTION_RE = re.compile(r"^set_option[ \t]+(?P<name>[^\s]+)[ \t]+(?P<value>[^\s]+)[ \t]*$", re.MULTILINE)
LISTED_KINDS = {"theorem": "theorem", "lemma": "theorem", "def": "def", "abbrev": "def", "instance": "def",
                "axiom": "axiom", "opaque": "opaque", "inductive": "inductive", "structure": "inductive",
                "class": "inductive"}


def namespace_prefix(scopes: list[tuple[int, str, str]], at: int) -> str:
    """The namespace in force at offset `at`, from the (offset, "namespace"/"section"/"end", name)
    scope commands before it."""
    stack: list[str] = []
    for pos, kind, name in scopes:
        if pos >= at:
            break
        if kind == "namespace":
            stack.append(name)
        elif kind == "section":
            stack.append("")
        elif stack:
            stack.pop()
    return ".".join(p for p in stack if p)


def listing_of(
    code: str,
    axioms_of: Any = None,
    default_axioms: Iterable[str] = ("propext", "Classical.choice", "Quot.sound"),
    hidden: Iterable[dict[str, Any]] = (),
) -> tuple[list[tuple[str, str, bool, list[str]]], dict[str, int], dict[str, str]]:
    """What Lean's environment holds after `code`, as far as the fakes model Lean: (constants as
    (kind, full name, unsafe, axioms), new extension entries by kind, options in force at the end).
    `axioms_of(full_name)` gives a theorem's axioms (None: `default_axioms`); `hidden` adds
    constants Lean declared that a text reading missed ({"kind", "name", "axioms"}): a fake
    scripted to model a lexer divergence."""
    masked = mask_comments_and_strings(code)
    scopes = [(m.start(), m.group("kind"), m.group("name")) for m in _LISTED_SCOPE_RE.finditer(masked)]

    def namespace(at: int) -> str:
        return namespace_prefix(scopes, at)

    consts: list[tuple[str, str, bool, list[str]]] = []
    exts = {"instance": 0, "macro": 0, "elab": 0, "parser": 0}
    for n, m in enumerate(_LISTED_DECL_RE.finditer(masked)):
        kw, name = m.group("kind"), m.group("name")
        if not name or name.startswith(":"):
            name = f"inst{n}" if kw == "instance" else None
        if name is None:
            continue
        name = name.strip("«»") if re.fullmatch(r"«[A-Za-z_][\w']*»", name) else name
        prefix = namespace(m.start())
        full = name[len("_root_."):] if name.startswith("_root_.") else (f"{prefix}.{name}" if prefix else name)
        kind = LISTED_KINDS[kw]
        unsafe = "unsafe" in m.group("mods").split()
        if kind == "theorem":
            found = axioms_of(full) if axioms_of is not None else None
            axioms = sorted(found if found is not None else default_axioms, key=lean_name_order)
        elif kind == "axiom":
            axioms = [full]
        else:
            axioms = []
        consts.append((kind, full, unsafe, axioms))
        if kind == "inductive":
            consts.append(("rec", f"{full}.rec", unsafe, []))
        if kw == "instance":
            exts["instance"] += 1
    for n, m in enumerate(_MACRO_CMD_RE.finditer(masked)):
        consts.append(("def", f"_aux_fake___{m.group('kw')}Rules_{n}", False, []))
        if not m.group("local"):
            exts["elab" if m.group("kw").startswith("elab") else "macro"] += 1
    for n, m in enumerate(_SYNTAX_CMD_RE.finditer(masked)):
        consts.append(("def", f"term_fake_{m.group('kw')}_{n}", False, []))
        if not m.group("local"):
            exts["parser"] += 1
            exts["macro"] += m.group("kw") != "syntax"
    exts["instance"] += sum(1 for m in _ATTR_INSTANCE_RE.finditer(masked) if not m.group("local"))
    options = {m.group("name").strip("«»"): m.group("value") for m in _TOP_OPTION_RE.finditer(masked)}
    for h in hidden:
        consts.append((h["kind"], h["name"], bool(h.get("unsafe", False)), list(h.get("axioms", ()))))
    return consts, exts, options


def listing_answer(nonce: str, listing: tuple[list[tuple[str, str, bool, list[str]]], dict[str, int], dict[str, str]]) -> str:
    """The info message the probe's `run_cmd` logs: one line per fact, each starting with the
    nonce, then `end` and the count of lines before it."""
    consts, exts, options = listing
    out = [f"{nonce}\tconst\t{kind}\t{'true' if unsafe else 'false'}\t{name}\t{','.join(axioms)}"
           for kind, name, unsafe, axioms in consts]
    out += [f"{nonce}\text\t{kind}\t{count}" for kind, count in exts.items()]
    out += [f"{nonce}\topt\t{name}\t{value}" for name, value in options.items()]
    out.append(f"{nonce}\tend\t{len(out)}")
    return "\n".join(out)


def listing_messages(code: str, **kw: Any) -> list[dict[str, Any]]:
    """REPL JSON: the answer to every listing probe in `code`, built from the code before it, at
    the `run_cmd` token (line of the command, column 0)."""
    out = []
    for m in DECLS_PROBE_RE.finditer(code):
        line = code[: m.start()].count("\n") + 1
        data = listing_answer(m.group("nonce"), listing_of(code[: m.start()], **kw))
        out.append({"severity": "info", "pos": {"line": line, "column": 0}, "endPos": {"line": line, "column": 7},
                    "data": data})
    return out

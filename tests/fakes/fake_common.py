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
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

if __package__:
    from . import fake_opens
    from .lean_versions import IMPORTED_DEFINITIONS, LeanRelease, private_name, user_name
else:  # imported by path (the fake REPL process, the fake `lake`): tests/fakes is on sys.path
    import fake_opens
    from lean_versions import IMPORTED_DEFINITIONS, LeanRelease, private_name, user_name

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


def axioms_message(name: str, axioms: Iterable[str], *, shown: Any = None) -> str:
    """What `#print axioms NAME` says, in Lean's wording and order (`src/Lean/Elab/Print.lean`
    `printAxiomsOf`: `'{constName}' depends on axioms: {axioms.qsort Name.lt |>.toList}`). `shown`
    maps each axiom to the way that release prints it (`print_axiom_names`); by default in full."""
    ordered = sorted(set(axioms), key=lean_name_order)
    if not ordered:
        return f"'{name}' does not depend on any axioms"
    return f"'{name}' depends on axioms: [{', '.join(shown(a) if shown else a for a in ordered)}]"


_OPEN_RE = re.compile(r"^open[ \t]+(?P<names>[^\n]*)$", re.MULTILINE)
_PP_FULL_NAMES_IN = re.compile(r"set_option[ \t]+pp\.fullNames[ \t]+true[ \t]+in\s*$")


def opened_namespaces(code: str) -> list[str]:
    """The namespaces `open A B` commands (not `open … in`, `renaming`, `hiding`) put in scope."""
    out: list[str] = []
    for m in _OPEN_RE.finditer(mask_comments_and_strings(code)):
        words = m.group("names").split()
        if "in" in words or "renaming" in words or "hiding" in words or "(" in m.group("names"):
            continue
        out.extend(w for w in words if re.fullmatch(rf"[{IDENT_CHARS}.]+", w))
    return out


def declared_private(code: str, name: str) -> bool:
    """Whether the last declaration of `name` in `code` is `private` (Lean then names it
    `_private.<Module>.0.<name>`)."""
    found = [m for m in DECL_RE.finditer(mask_comments_and_strings(code)) if (m.group("name") or "").strip("«»") == name]
    return bool(found) and re.search(r"\bprivate\b", code[found[-1].start() : found[-1].start("kind")]) is not None


def print_axiom_names(release: LeanRelease, before: str) -> Any:
    """How `#print axioms` at the end of `before` prints an axiom's name: in full, or, where the
    release prints axioms with `MessageData.ofConstName` and `pp.fullNames` is not set for the
    command (`set_option pp.fullNames true in` right before it), shortened by the namespaces open
    at that point (`Classical.choice` under `open Classical` is `choice`)."""
    if not release.axioms_by_const_name or _PP_FULL_NAMES_IN.search(before):
        return None
    opens = opened_namespaces(before)

    def shown(axiom: str) -> str:
        for ns in opens:
            if axiom.startswith(ns + ".") and "." not in axiom[len(ns) + 1 :]:
                return axiom[len(ns) + 1 :]
        return axiom

    return shown


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


def simulated_latency(seconds: float) -> None:
    """The in-process fakes' (Kimina, OpenAI) one way to take time: a delay, a trickle's gap or a
    reply's `after` that the test asked for, spent in the server's thread, so that the client
    meets it on a real socket. Tests that order events use gates, not latency."""
    if seconds > 0:
        time.sleep(seconds)  # real socket timing: the client's deadlines and streams are what is tested


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
# A command starts at column 0, except the clauses that continue a declaration there (`where`
# helpers, `termination_by`, `decreasing_by`: src/Lean/Parser/Command.lean `declBody` / `whereDecls`,
# src/Lean/Parser/Term.lean `suffix`).
_NEXT_COMMAND = re.compile(r"\n(?=[^\s|)\]}⟩,])(?!(?:where|termination_by|decreasing_by)\b)")


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
# The audit's declaration listing (`run_cmd` … lemmaforge/lean/audit/_judge.py): what Lean would list
# --------------------------------------------------------------------------------------------------

# The product's listing command, recognised by its first three lines (the nonce is in a string, so
# match the raw text, not masked text); `lfRoots` names the declarations whose closure it walks.
DECLS_PROBE_RE = re.compile(
    r'^run_cmd do\n  let lfTag : String := "(?P<nonce>[0-9a-f]+)"\n  let lfRoots : List Lean\.Name := \[(?P<roots>[^\n]*)\]',
    re.MULTILINE,
)
_LISTED_DECL_RE = re.compile(
    r"^(?P<attrs>(?:@\[[^\]\n]*\][ \t]*\n?[ \t]*)*)"
    r"(?P<mods>(?:(?:private|protected|noncomputable|unsafe|partial|nonrec)[ \t]+)*)"
    r"(?P<kind>theorem|lemma|def|abbrev|instance|axiom|opaque|inductive|structure|class)\b"
    r"(?:[ \t]+(?P<name>(?:«[^»\n]*»|[^\s:(){}\[\]⦃⦄«])+))?",
    re.MULTILINE,
)
_LISTED_SCOPE_RE = re.compile(r"^(?P<kind>namespace|section|end|noncomputable[ \t]+section)\b[ \t]*(?P<name>[^\s]*)",
                              re.MULTILINE)
_MACRO_CMD_RE = re.compile(r"^(?P<local>(?:local|scoped)[ \t]+)?(?P<kw>macro_rules|macro|elab_rules|elab)\b", re.MULTILINE)
_SYNTAX_CMD_RE = re.compile(
    r"^(?P<local>(?:local|scoped)[ \t]+)?(?P<kw>notation|infixl|infixr|infix|prefix|postfix|syntax)\b", re.MULTILINE
)
_ATTR_INSTANCE_RE = re.compile(r"^attribute[ \t]*\[(?P<local>(?:local|scoped)[ \t]+)?instance\b", re.MULTILINE)
_TOP_OPTION_RE = re.compile(r"^set_option[ \t]+(?P<name>[^\s]+)[ \t]+(?P<value>[^\s]+)[ \t]*$", re.MULTILINE)
LISTED_KINDS = {"theorem": "theorem", "lemma": "theorem", "def": "def", "abbrev": "def", "instance": "def",
                "axiom": "axiom", "opaque": "opaque", "inductive": "inductive", "structure": "inductive",
                "class": "inductive"}
_WORD_RE = re.compile(rf"[{IDENT_CHARS}.«»]+")
_MATCH_RE = re.compile(rf"(?<![{IDENT_CHARS}.])match(?![{IDENT_CHARS}])")
_EQUATION_DEF_RE = re.compile(r"\n[ \t]+\|")  # `def f : ℕ → ℕ` then `  | 0 => …`: a matcher
_WHERE_RE = re.compile(r"^[ \t]*where[ \t]*\n(?P<body>(?:[ \t]+[^\n]*\n?)+)", re.MULTILINE)
_WHERE_ITEM_RE = re.compile(rf"^[ \t]+(?P<name>[{IDENT_CHARS}]+)[ \t]*[({{\[:⦃]", re.MULTILINE)
_EQN_TACTIC_RE = re.compile(
    r"(?<![\w.])(?P<tac>simp_all|simp_rw|simp|dsimp|rw|rewrite|rwa|nth_rewrite|nth_rw|norm_num|field_simp|unfold)"
    r"(?:[ \t]+only)?(?:[ \t]+\d+)?[ \t]*(?P<args>\[[^\]\n]*\]|(?:[ \t]*[^\s\[\]:;,⊢]+)+)"
)
_SPLIT_RE = re.compile(r"(?<![\w.])split(?![\w'])")
_INDUCT_RE = re.compile(rf"(?P<name>[{IDENT_CHARS}.]+)\.induct(?![{IDENT_CHARS}])")


def namespace_prefix(scopes: list[tuple[int, str, str]], at: int) -> str:
    """The namespace in force at offset `at`, from the (offset, "namespace"/"section"/"end", name)
    scope commands before it."""
    stack: list[str] = []
    for pos, kind, name in scopes:
        if pos >= at:
            break
        if kind == "namespace":
            stack.append(name)
        elif kind.endswith("section"):
            stack.append("")
        elif stack:
            stack.pop()
    return ".".join(p for p in stack if p)


def _in_noncomputable_section(scopes: list[tuple[int, str, str]], at: int) -> bool:
    stack: list[bool] = []
    for pos, kind, _ in scopes:
        if pos >= at:
            break
        if kind in ("namespace", "section") or kind.endswith("section"):
            stack.append(kind.startswith("noncomputable"))
        elif stack:
            stack.pop()
    return any(stack)


@dataclass(slots=True)
class Listed:
    """One module-local constant as the fakes' model of Lean lists it (lean/audit/_judge.py's answer)."""

    kind: str
    name: str
    unsafe: bool = False
    partial: bool = False
    implemented_by: bool = False
    extern: bool = False
    axioms: list[str] = field(default_factory=list)
    words: set[str] = field(default_factory=set)  # identifiers its text mentions (type and value)
    uses: set[str] = field(default_factory=set)  # constants Lean made for it that its value uses
    in_closure: bool = False


_NOTATION_TYPES = {"ℝ": "Real", "ℕ": "Nat", "ℤ": "Int", "ℚ": "Rat", "ℂ": "Complex"}


def instance_name(body: str) -> str:
    """The name Lean gives `instance : C T := …` (src/Lean/Elab/DeclNameGen.lean, "shorter instance
    names", lean4#3089, v4.8.0): `inst` and the head constants of its type, e.g. `instSemiringZ2`
    (modelled on the type's words; Lean's algorithm also looks through binders)."""
    head = re.split(r":=|\bwhere\b", body, maxsplit=1)[0]
    head = head.split(":", 1)[1] if ":" in head else head
    words = [_NOTATION_TYPES.get(w, w.rsplit(".", 1)[-1]) for w in re.findall(rf"[{IDENT_CHARS}.ℝℕℤℚℂ]+", head)]
    return "inst" + "".join(w[:1].upper() + w[1:] for w in words[:3] if w and not w[0].isdigit())


def parse_roots(text: str) -> tuple[str, ...]:
    """The names of the listing's `lfRoots` list (`` `a, `b.c ``)."""
    return tuple(text[1:].split(", `")) if text.startswith("`") else ()


class _Model:
    """What one file adds to Lean's environment, as far as the fakes model Lean of `release`."""

    def __init__(self, code: str, release: LeanRelease, module: str) -> None:
        self.code = code
        self.masked = mask_comments_and_strings(code)
        self.release = release
        self.module = module
        self.scopes = [(m.start(), " ".join(m.group("kind").split()), m.group("name"))
                       for m in _LISTED_SCOPE_RE.finditer(self.masked)]
        self.opens = opened_namespaces(code)
        self.consts: list[Listed] = []
        self._made: set[str] = set()

    def add(self, const: Listed) -> Listed:
        if const.name not in self._made:
            self._made.add(const.name)
            self.consts.append(const)
        return const

    def compiled(self, name: str) -> None:
        """The old code generator's helpers of a compiled definition (`LeanRelease.old_codegen`)."""
        if self.release.old_codegen:
            for stage in ("_cstage1", "_cstage2"):
                self.add(Listed("def", f"{name}.{stage}", unsafe=True))

    def resolve_imported(self, word: str) -> str | None:
        """`word` as an imported definition the fakes know (through the `open` namespaces)."""
        word = word.lstrip("←").strip("«»")
        for candidate in (word, *(f"{ns}.{word}" for ns in self.opens)):
            if candidate in IMPORTED_DEFINITIONS:
                return candidate
        return None

    def derived(self, owner: Listed, body: str) -> None:
        """The constants Lean adds while elaborating `owner` (whose masked text is `body`)."""
        matchers = len(_MATCH_RE.findall(body))
        if owner.kind == "def" and not matchers and _EQUATION_DEF_RE.search(body.split(":=", 1)[0]):
            matchers = 1  # `def f : ℕ → ℕ` with `| 0 => …` alternatives
        for i in range(1, matchers + 1):
            # src/Lean/Meta/Match/Match.lean `mkMatcherAuxDefinition`: a definition, compiled
            # (`if compile then compileDecl decl`) under the declaration's name
            matcher = self.add(Listed("def", f"{owner.name}.match_{i}"))
            owner.uses.add(matcher.name)
            self.compiled(matcher.name)
        for m in _WHERE_RE.finditer(body):
            for item in _WHERE_ITEM_RE.finditer(m.group("body")):
                helper = self.add(Listed(owner.kind if owner.kind == "theorem" else "def",
                                         f"{user_name(owner.name)}.{item.group('name')}", axioms=list(owner.axioms)))
                owner.uses.add(helper.name)
        unfolded: list[str] = []
        for m in _EQN_TACTIC_RE.finditer(body):
            args = m.group("args").strip("[] \t")
            for word in re.split(r"[,\s]+", args):
                imported = self.resolve_imported(word)
                if imported is None:
                    continue
                unfolded.append(imported)
                count, _ = IMPORTED_DEFINITIONS[imported]
                names = ([self.release.unfold_name(imported)] if m.group("tac") == "unfold"
                         else self.release.eq_names(imported, count))
                for name in names:  # src/Lean/Meta/Eqns.lean: theorems, proved by `rfl` here
                    owner.uses.add(self.add(Listed("theorem", name)).name)
        for m in _INDUCT_RE.finditer(body):
            target = self.resolve_imported(m.group("name")) or m.group("name")
            # functional induction (lean4 v4.8.0 release notes): a theorem realized on demand
            owner.uses.add(self.add(Listed("theorem", f"{target}.induct", axioms=["propext"])).name)
        if _SPLIT_RE.search(body):
            for imported in dict.fromkeys(unfolded):
                count, matches = IMPORTED_DEFINITIONS[imported]
                if not matches:
                    continue
                matcher = f"{imported}.match_1"
                splitter = self.add(Listed("def", self.release.splitter(matcher, self.module)))
                owner.uses.add(splitter.name)
                self.compiled(splitter.name)
                for name in self.release.match_eq_names(matcher, count, self.module):
                    owner.uses.add(self.add(Listed("theorem", name)).name)

    def closure(self, roots: Iterable[str]) -> None:
        """Mark what the roots depend on, walking module-local constants as
        `Lean.CollectAxioms.collect` does (type and value): a constant uses the local constants
        whose names its text mentions and those Lean made for it."""
        by_word: dict[str, list[Listed]] = {}
        for c in self.consts:
            user = user_name(c.name)
            for w in {c.name, user, user.rsplit(".", 1)[-1]}:
                by_word.setdefault(w, []).append(c)
        by_name = {c.name: c for c in self.consts}
        wanted = set(roots)
        todo = [c for c in self.consts if user_name(c.name) in wanted]
        while todo:
            c = todo.pop()
            if c.in_closure:
                continue
            c.in_closure = True
            for w in c.words:
                todo.extend(d for d in by_word.get(w, []) if d is not c)
            todo.extend(by_name[n] for n in c.uses if n in by_name)


def listing_of(
    code: str,
    axioms_of: Any = None,
    default_axioms: Iterable[str] = ("propext", "Classical.choice", "Quot.sound"),
    hidden: Iterable[dict[str, Any]] = (),
    *,
    lean_version: str | None = None,
    roots: Iterable[str] | None = None,
    module: str = "",
) -> tuple[list[Listed], dict[str, int], dict[str, str]]:
    """What Lean's environment holds after `code`, as far as the fakes model Lean `lean_version`
    (tests/fakes/lean_versions.py): (constants, new extension entries by kind, options in force at
    the end). Constants: every declaration (a `private` one under Lean's private name, a `partial
    def` as an opaque beside its unsafe `_unsafe_rec`), the matchers, `where` helpers, equation
    lemmas (`simp [f]`, `rw [f]`, `unfold f` of an imported definition the fakes know), `.induct`
    and splitters Lean adds while elaborating them, and below 4.22 the unsafe `_cstage1` /
    `_cstage2` of every compiled definition; each marked when the closure of `roots` (the
    listing's `lfRoots`) uses it. `axioms_of(full_name)` gives a theorem's axioms (None:
    `default_axioms`); `hidden` adds constants Lean declared that a text reading missed ({"kind",
    "name", "axioms"} and optionally "unsafe", "partial", "implemented_by", "extern",
    "in_closure"): a fake scripted to model a lexer divergence."""
    model = _Model(code, LeanRelease.of(lean_version), module)
    masked = model.masked
    exts = {"instance": 0, "macro": 0, "elab": 0, "parser": 0}
    decls = list(_LISTED_DECL_RE.finditer(masked))
    for m in decls:
        kw, name = m.group("kind"), m.group("name")
        if not name or name.startswith(":"):
            name = None
            if kw == "instance":
                nxt = _NEXT_COMMAND.search(masked, m.end("kind"))
                name = instance_name(masked[m.end("kind") : nxt.start() if nxt else len(masked)])
        if name is None:
            continue
        name = name.strip("«»") if re.fullmatch(r"«[A-Za-z_][\w']*»", name) else name
        prefix = namespace_prefix(model.scopes, m.start())
        full = name[len("_root_."):] if name.startswith("_root_.") else (f"{prefix}.{name}" if prefix else name)
        mods = m.group("mods").split()
        if "private" in mods:
            full = private_name(full, module)
        nxt = _NEXT_COMMAND.search(masked, m.end())
        body = masked[m.end() : nxt.start() if nxt else len(masked)]
        kind = LISTED_KINDS[kw]
        attrs = m.group("attrs")
        if kind == "theorem":
            found = axioms_of(user_name(full)) if axioms_of is not None else None
            if found is None and axioms_of is not None and full != user_name(full):
                found = axioms_of(full)
            axioms = sorted(found if found is not None else default_axioms, key=lean_name_order)
        elif kind == "axiom":
            axioms = [full]
        else:
            axioms = []
        partial = "partial" in mods and kind == "def"
        const = model.add(Listed(
            "opaque" if partial else kind, full, unsafe="unsafe" in mods, partial=partial,
            implemented_by="implemented_by" in attrs or "implementedBy" in attrs, extern="extern" in attrs,
            axioms=axioms, words=set(_WORD_RE.findall(body)) | {w.rsplit(".", 1)[-1] for w in _WORD_RE.findall(body)},
        ))
        if kind == "inductive":
            model.add(Listed("rec", f"{full}.rec", unsafe="unsafe" in mods))
        if kw == "instance":
            exts["instance"] += 1
        computable = not ("noncomputable" in mods or _in_noncomputable_section(model.scopes, m.start()))
        if partial:
            # src/Lean/Compiler/Old.lean `mkUnsafeRecName`: the compiled code of a `partial def`
            model.add(Listed("def", f"{full}._unsafe_rec", unsafe=True))
            model.compiled(f"{full}._unsafe_rec")
        elif kind == "def" and computable and "extern" not in attrs:
            model.compiled(full)
        model.derived(const, body)
    for n, m in enumerate(_MACRO_CMD_RE.finditer(masked)):
        model.add(Listed("def", f"_aux_fake___{m.group('kw')}Rules_{n}"))
        if not m.group("local"):
            exts["elab" if m.group("kw").startswith("elab") else "macro"] += 1
    for n, m in enumerate(_SYNTAX_CMD_RE.finditer(masked)):
        model.add(Listed("def", f"term_fake_{m.group('kw')}_{n}"))
        if not m.group("local"):
            exts["parser"] += 1
            exts["macro"] += m.group("kw") != "syntax"
    exts["instance"] += sum(1 for m in _ATTR_INSTANCE_RE.finditer(masked) if not m.group("local"))
    options = {m.group("name").strip("«»"): m.group("value") for m in _TOP_OPTION_RE.finditer(masked)}
    model.closure(roots or ())
    for h in hidden:
        model.consts.append(Listed(
            h["kind"], h["name"], unsafe=bool(h.get("unsafe", False)), partial=bool(h.get("partial", False)),
            implemented_by=bool(h.get("implemented_by", False)), extern=bool(h.get("extern", False)),
            axioms=list(h.get("axioms", ())), in_closure=bool(h.get("in_closure", False)),
        ))
    return model.consts, exts, options


def _flag(value: bool) -> str:
    return "true" if value else "false"


def listing_answer(nonce: str, listing: tuple[list[Listed], dict[str, int], dict[str, str]]) -> str:
    """The info message the probe's `run_cmd` logs: one line per fact, each starting with the
    nonce, then `end` and the count of lines before it (lemmaforge/lean/gate/_probes.py's template:
    kind, unsafe, partial, implemented_by, extern, in the closure, name, axioms)."""
    consts, exts, options = listing
    out = [f"{nonce}\tconst\t{c.kind}\t{_flag(c.unsafe)}\t{_flag(c.partial)}\t{_flag(c.implemented_by)}\t"
           f"{_flag(c.extern)}\t{_flag(c.in_closure)}\t{c.name}\t{','.join(c.axioms)}" for c in consts]
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
        data = listing_answer(m.group("nonce"), listing_of(code[: m.start()], roots=parse_roots(m.group("roots")), **kw))
        out.append({"severity": "info", "pos": {"line": line, "column": 0}, "endPos": {"line": line, "column": 7},
                    "data": data})
    return out

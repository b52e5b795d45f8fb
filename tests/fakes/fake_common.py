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

# --------------------------------------------------------------------------------------------------
# Lean text
# --------------------------------------------------------------------------------------------------

_IDENT_CHAR = re.compile(r"[\w'!?₀-₉ₐ-ₜ]")
IDENT_CHARS = r"\w'!?₀-₉ₐ-ₜᵢ-ᵪ"  # what may continue an identifier (a regex character class body)
# `sorry` as a term or tactic (not `x.sorry`, `sorryAx`, `h_sorry`), in masked text.
SORRY_RE = re.compile(rf"(?<![{IDENT_CHARS}.])sorry(?![{IDENT_CHARS}])")
# A declaration at the start of a line: attributes, modifiers, the keyword, and the name if any.
DECL_RE = re.compile(
    r"^(?:@\[[^\]\n]*\][ \t]*\n?[ \t]*)*(?:(?:private|protected|noncomputable|unsafe|partial|nonrec)[ \t]+)*"
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
    a class its operators use, a notation or macro over its tokens), as Lean's print would differ."""
    tokens = type_tokens(signature)
    changed = [" ".join(c.split()) for c in _meaning_commands(context) if _changes_meaning(c, tokens, body)]
    return f"@{name} : " + " ".join(tokens) + "".join(f" ⟦under {c}⟧" for c in changed)


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

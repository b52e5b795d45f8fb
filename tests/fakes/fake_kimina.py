"""A fake Kimina Lean Server: real HTTP on 127.0.0.1, scripted Lean semantics, injectable faults.

Two parts:

- `ScriptedLean`: a responder `(code) -> REPL response dict` driven by declarative rules. Built in:
  every `sorry` token outside comments and strings gives a `sorries` entry and one
  ``declaration uses 'sorry'`` warning per declaration; `#print axioms NAME` answers in Lean's exact
  wording (`'NAME' depends on axioms: [...]`, sorted like Lean's `Name.lt`), adding `sorryAx` for
  sorry or errors, `Lean.ofReduceBool` for `native_decide`, and the user `axiom`s it reaches.
  Scripted: `MessageRule` (regex → message at the match), `AxiomRule` (regex in a declaration →
  an axiom it depends on), `ReplErrorRule` (regex → the REPL's `{"message": ...}`).
- `FakeKimina`: `POST /api/check` and `GET /health` with the real shapes, splitting the header like
  the server (leading `import`/blank lines) and shifting line numbers back (or not: `position_shift`
  emulates older servers). Faults: `fail_next(n, 503|429|500)`, `drop_next(n)` (close without an
  answer), `fail_always(503)` / `fail_always(None)` (the server down, then back), `fault_always(kind)`
  (HTTP 200 with "garbage" or a "wrong_shape" body), `delay`, `SnippetFailure` (per-snippet `error`
  such as a timeout), `SnippetCrash` (HTTP 500 for the whole batch), `cold_import_seconds` (header
  timeouts on cold REPLs).

Stdlib only (with its sibling fake_common), so that the fake `lake` script can import it too.
"""

from __future__ import annotations

import bisect
import json
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Literal

if __package__:
    from . import fake_common
    from .lean_versions import LeanRelease, private_name, user_name
else:  # the fake `lake` script imports this file by path (tests/fakes on sys.path)
    import fake_common
    from lean_versions import LeanRelease, private_name, user_name

Responder = Callable[[str], dict[str, Any]]

DEFAULT_AXIOMS = ("propext", "Classical.choice", "Quot.sound")
NATIVE_DECIDE_AXIOMS = ("Lean.ofReduceBool",)
SORRY_WARNING_V4_19 = "declaration uses 'sorry'"
SORRY_WARNING_V4_33 = "declaration uses `sorry`"

# Kimina's wording (server/routers/check.py, server/repl.py); `{timeout}` is the request's, as a float.
TIMEOUT_ERROR = "Lean REPL command timed out in {timeout} seconds"
HEADER_TIMEOUT_ERROR = "Lean REPL header command timed out in {timeout} seconds"
OOM_ERROR = "Lean REPL process exceeded memory limit"


# --- rules ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MessageRule:
    """Where `pattern` matches (comments and strings masked), Lean reports `data` over the match.
    `data` may use the match's groups (`\\1`, `\\g<name>`). An error inside a declaration also makes
    it depend on `sorryAx`, as Lean elaborates errors into `sorry`."""

    pattern: str
    data: str
    severity: str = "error"


@dataclass(frozen=True)
class AxiomRule:
    """A declaration whose text matches `pattern` depends on `axiom` (e.g. a tactic that closed the
    goal through `sorryAx` without the warning, as `apply?` once did)."""

    pattern: str
    axiom: str


@dataclass(frozen=True)
class ReplErrorRule:
    """If `pattern` matches, the REPL answers `{"message": message}` instead of a command response."""

    pattern: str
    message: str


@dataclass(frozen=True)
class DeclareRule:
    """If `pattern` matches, Lean's environment also holds constant `name` of `kind` (depending on
    `axioms`, with the listing's flags: unsafe, partial, implemented_by, extern, and whether the
    theorem's closure uses it): models a divergence where Lean reads a declaration that a text
    reading missed, so only the audit's declaration listing can see it."""

    pattern: str
    kind: str
    name: str
    axioms: tuple[str, ...] = ()
    unsafe: bool = False
    partial: bool = False
    implemented_by: bool = False
    extern: bool = False
    in_closure: bool = False


Rule = MessageRule | AxiomRule | ReplErrorRule | DeclareRule
_RULE_KINDS: dict[str, type[Rule]] = {"message": MessageRule, "axiom": AxiomRule, "repl_error": ReplErrorRule,
                                      "declare": DeclareRule}


# --- the scripted Lean engine --------------------------------------------------------------------

_NATIVE_DECIDE_RE = re.compile(rf"(?<![{fake_common.IDENT_CHARS}.])native_decide(?![{fake_common.IDENT_CHARS}])")
_SCOPE_RE = re.compile(r"^(?P<kind>namespace|section|end)\b[ \t]*(?P<name>[^\s]*)", re.MULTILINE)
_HAVE_BEFORE_SORRY_RE = re.compile(
    r"\bhave\b(?:[ \t]+[^\s:(]+)?\s*:\s*(?P<prop>(?:(?!\bhave\b).)+?)\s*:=\s*(?:by\s*)?\Z", re.DOTALL
)
_OPENERS = {"(": ")", "[": "]", "{": "}", "⦃": "⦄"}


@dataclass
class _Decl:
    kind: str
    name: str | None  # None for `example` and anonymous instances
    full_name: str | None  # Lean's name: a `private` one is `_private.<Module>.0.<name>`
    start: int
    end: int
    ref: tuple[int, int]  # where Lean reports on the declaration: its name, else its keyword
    uses_sorry: bool = False
    has_error: bool = False


@dataclass
class ScriptedLean:
    """A responder with simple, predictable Lean semantics; see the module docstring."""

    rules: Sequence[Rule] = ()
    base_axioms: Sequence[str] = DEFAULT_AXIOMS  # what every proof depends on
    sorry_warning: str = SORRY_WARNING_V4_19
    native_decide_axioms: Sequence[str] = NATIVE_DECIDE_AXIOMS
    # The Lean release the server runs: what `#eval Lean.versionString` prints (Lean's Repr of the
    # string: with quotes), and how it answers the audit's probe (tests/fakes/lean_versions.py:
    # "4.9", "4.15", "4.19", "4.27" or a full version). None: the server says nothing to the
    # version question (an old or odd server) and answers as the default release. The default,
    # 4.9.0, is what Kimina-Prover's server runs and what the bench tests pin.
    lean_version: str | None = "4.9.0"
    # False: the audit's declaration listing gets no answer (as when meta code swallowed it)
    list_declarations: bool = True
    # The main module's name in private names: "" is the REPL's anonymous module (`_private.0.x`)
    main_module: str = ""

    @property
    def release(self) -> LeanRelease:
        return LeanRelease.of(self.lean_version)

    def __call__(self, code: str) -> dict[str, Any]:
        return _Elaboration(self, code).response()

    def to_json(self) -> str:
        rules = [{"kind": _kind_of(rule), **asdict(rule)} for rule in self.rules]
        return json.dumps(
            {
                "rules": rules,
                "base_axioms": list(self.base_axioms),
                "sorry_warning": self.sorry_warning,
                "native_decide_axioms": list(self.native_decide_axioms),
                "lean_version": self.lean_version,
                "list_declarations": self.list_declarations,
                "main_module": self.main_module,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> ScriptedLean:
        data = json.loads(text)
        rules: list[Rule] = []
        for raw in data.get("rules", []):
            spec = dict(raw)
            rules.append(_RULE_KINDS[spec.pop("kind")](**spec))
        return cls(
            rules=rules,
            base_axioms=tuple(data.get("base_axioms", DEFAULT_AXIOMS)),
            sorry_warning=data.get("sorry_warning", SORRY_WARNING_V4_19),
            native_decide_axioms=tuple(data.get("native_decide_axioms", NATIVE_DECIDE_AXIOMS)),
            lean_version=data.get("lean_version", "4.9.0"),
            list_declarations=data.get("list_declarations", True),
            main_module=data.get("main_module", ""),
        )


def _kind_of(rule: Rule) -> str:
    return next(kind for kind, cls in _RULE_KINDS.items() if isinstance(rule, cls))


class _Elaboration:
    """One run of ScriptedLean over one piece of code."""

    def __init__(self, lean: ScriptedLean, code: str) -> None:
        self.lean = lean
        self.code = code
        self.text = fake_common.mask_comments_and_strings(code)
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", code)]
        self.decls = self._find_decls()
        self.messages: list[dict[str, Any]] = []
        self.sorries: list[dict[str, Any]] = []

    def response(self) -> dict[str, Any]:
        for rule in self.lean.rules:
            if isinstance(rule, ReplErrorRule) and re.search(rule.pattern, self.text, re.MULTILINE):
                return {"message": rule.message}
        self._apply_message_rules()
        self._collect_sorries()
        self._warn_sorry_decls()
        self._print_axioms()
        self._check_types()
        self._list_declarations()
        self._eval_version()
        self.messages.sort(key=lambda m: (m["pos"]["line"], m["pos"]["column"]))
        out: dict[str, Any] = {"env": 0}
        if self.messages:
            out["messages"] = self.messages
        if self.sorries:
            out["sorries"] = self.sorries
        return out

    def _eval_version(self) -> None:
        if self.lean.lean_version is None:
            return
        for m in re.finditer(r"^#eval\s+Lean\.versionString\b", self.text, re.MULTILINE):
            self._message("info", json.dumps(self.lean.lean_version), m.start(), m.start() + len("#eval"))

    # positions

    def pos(self, offset: int) -> dict[str, int]:
        line = bisect.bisect_right(self._line_starts, offset) - 1
        return {"line": line + 1, "column": offset - self._line_starts[line]}

    def _message(self, severity: str, data: str, start: int, end: int) -> None:
        self.messages.append(
            {"severity": severity, "pos": self.pos(start), "endPos": self.pos(end), "data": data}
        )

    # declarations

    def _find_decls(self) -> list[_Decl]:
        # a `where` / `termination_by` / `decreasing_by` clause at column 0 continues its declaration
        command_starts = [m.start() for m in re.finditer(r"^(?!(?:where|termination_by|decreasing_by)\b)\S",
                                                         self.text, re.MULTILINE)]
        namespaces = self._namespace_at()
        decls = []
        for m in fake_common.DECL_RE.finditer(self.text):
            kind, name = m.group("kind"), m.group("name")
            if kind == "example" or (name and name.startswith(":")):
                name = None
            if name and re.fullmatch(r"«[A-Za-z_][\w']*»", name):
                name = name[1:-1]  # as Lean reads it: `«t»` declares `t`
            later = [s for s in command_starts if s >= m.end("kind")]
            end = later[0] if later else len(self.text)
            ref = (m.start("name"), m.end("name")) if name else (m.start("kind"), m.end("kind"))
            prefix = namespaces(m.start())
            full = (
                None
                if name is None
                else (f"{prefix}.{name}" if prefix and not name.startswith("_root_.") else name)
            )
            if full and full.startswith("_root_."):
                full = full[len("_root_.") :]
            if full and re.search(r"\bprivate\b", self.text[m.start() : m.start("kind")]):
                full = private_name(full, self.lean.main_module)
            decls.append(_Decl(kind, name, full, m.start(), end, ref))
        return decls

    def _namespace_at(self) -> Callable[[int], str]:
        events: list[tuple[int, str, str]] = [
            (m.start(), m.group("kind"), m.group("name")) for m in _SCOPE_RE.finditer(self.text)
        ]

        def prefix(offset: int) -> str:
            return fake_common.namespace_prefix(events, offset)

        return prefix

    def _decl_at(self, offset: int) -> _Decl | None:
        return next((d for d in self.decls if d.start <= offset < d.end), None)

    def _resolve(self, name: str) -> _Decl | None:
        name = name.strip("«»")
        for decl in self.decls:
            if decl.full_name == name or (decl.full_name and user_name(decl.full_name) == name):
                return decl
        return next(
            (d for d in self.decls if d.name == name or user_name(d.full_name or "").endswith("." + name)), None
        )

    # rules and sorries

    def _apply_message_rules(self) -> None:
        for rule in self.lean.rules:
            if not isinstance(rule, MessageRule):
                continue
            for m in re.finditer(rule.pattern, self.text, re.MULTILINE):
                self._message(rule.severity, m.expand(rule.data), m.start(), m.end())
                decl = self._decl_at(m.start())
                if decl and rule.severity == "error":
                    decl.has_error = True

    def _collect_sorries(self) -> None:
        for proof_state, m in enumerate(fake_common.SORRY_RE.finditer(self.text)):
            decl = self._decl_at(m.start())
            if decl is not None:
                decl.uses_sorry = True
            self.sorries.append(
                {
                    "proofState": proof_state,
                    "pos": self.pos(m.start()),
                    "goal": self._goal_for(decl, m.start()),
                    "endPos": self.pos(m.end()),
                }
            )

    def _warn_sorry_decls(self) -> None:
        for decl in self.decls:
            if decl.uses_sorry and not decl.has_error:
                self._message("warning", self.lean.sorry_warning, *decl.ref)

    def _goal_for(self, decl: _Decl | None, offset: int) -> str:
        if decl is None:
            return "⊢ ?"
        hypotheses, conclusion = _statement(self.text[decl.ref[1] : decl.end])
        have = _HAVE_BEFORE_SORRY_RE.search(self.text[decl.start : offset])
        target = _squash(have.group("prop")) if have else conclusion
        return "\n".join([*hypotheses, f"⊢ {target}"])

    # #print axioms

    def _print_axioms(self) -> None:
        for m in fake_common.PRINT_AXIOMS_RE.finditer(self.text):
            name = m.group("name")
            decl = self._resolve(name)
            if decl is None:
                self._message("error", f"unknown constant '{name}'", m.start("name"), m.end("name"))
                continue
            # the name as Lean's `ofName` prints it (a private one in full), the axioms as this
            # release prints them (`fake_common.print_axiom_names`)
            shown = fake_common.print_axiom_names(self.lean.release, self.code[: m.start()])
            data = fake_common.axioms_message(decl.full_name or name, self._axioms_of(decl, set()), shown=shown)
            # Lean reports at the `#print` token (`withRef tk`).
            self._message("info", data, m.start(), m.start() + len("#print"))

    # set_option pp.all true in #check @NAME: the audit's type probe

    def _check_types(self) -> None:
        for m in fake_common.CHECK_TYPE_RE.finditer(self.text):
            name = m.group("name")
            decl = self._resolve(name)
            if decl is None or decl.start > m.start():
                self._message("error", f"unknown identifier '{name}'", m.start("name"), m.end("name"))
                continue
            sig_start, depth, assign = decl.ref[1], 0, decl.end
            for i in range(sig_start, decl.end):
                c = self.text[i]
                depth += c in "([{⦃⟨"
                depth -= c in ")]}⦄⟩"
                if depth == 0 and self.text.startswith(":=", i):
                    assign = i
                    break
            # `pp.privateNames` is false by default: a private name prints as the user's
            data = fake_common.type_message(user_name(decl.full_name or name), self.code[sig_start:assign],
                                            self.code[: decl.start], self.code[assign : decl.end])
            # Lean logs `e : type` at the `#check` token (`logInfoAt tk`).
            self._message("info", data, m.start(), m.start() + len("#check"))

    # run_cmd …: the audit's declaration listing (lemmaforge/lean/audit/_judge.py)

    def _list_declarations(self) -> None:
        if not self.lean.list_declarations:
            return
        for m in fake_common.DECLS_PROBE_RE.finditer(self.code):
            before = self.code[: m.start()]
            hidden = [asdict(r) for r in self.lean.rules
                      if isinstance(r, DeclareRule) and re.search(r.pattern, before, re.MULTILINE)]

            def axioms_of(full: str, at: int = m.start()) -> list[str] | None:
                decl = next((d for d in self.decls if d.full_name is not None and full in (d.full_name, user_name(
                    d.full_name)) and d.start < at), None)
                return sorted(self._axioms_of(decl, set())) if decl is not None else None

            listing = fake_common.listing_of(before, axioms_of, self.lean.base_axioms, hidden,
                                             lean_version=self.lean.lean_version,
                                             roots=fake_common.parse_roots(m.group("roots")),
                                             module=self.lean.main_module)
            # `run_cmd` logs at its own token (the command's line, column 0).
            self._message("info", fake_common.listing_answer(m.group("nonce"), listing), m.start(), m.start() + 7)

    def _axioms_of(self, decl: _Decl, seen: set[int]) -> set[str]:
        if decl.kind == "axiom":
            return {decl.full_name or ""}
        seen.add(decl.start)
        body = self.text[decl.ref[1] : decl.end]
        axioms = set(self.lean.base_axioms)
        if decl.uses_sorry or decl.has_error:
            axioms.add("sorryAx")
        if _NATIVE_DECIDE_RE.search(body):
            axioms.update(self.lean.native_decide_axioms)
        for rule in self.lean.rules:
            if isinstance(rule, AxiomRule) and re.search(rule.pattern, self.text[decl.start : decl.end]):
                axioms.add(rule.axiom)
        for other in self.decls:
            if other.start in seen or other.name is None:
                continue
            if re.search(rf"(?<![{fake_common.IDENT_CHARS}.]){re.escape(other.name)}(?![{fake_common.IDENT_CHARS}])", body):
                axioms |= self._axioms_of(other, seen)
        return axioms


def _statement(after_name: str) -> tuple[list[str], str]:
    """(hypothesis lines, conclusion) of `binders : conclusion := proof`, read at bracket depth 0."""
    hypotheses: list[str] = []
    depth, group_start, colon = 0, -1, -1
    closers: list[str] = []
    i = 0
    while i < len(after_name):
        ch = after_name[i]
        if ch in _OPENERS:
            if depth == 0:
                group_start = i
            closers.append(_OPENERS[ch])
            depth += 1
        elif closers and ch == closers[-1]:
            closers.pop()
            depth -= 1
            if depth == 0 and colon < 0:
                hypotheses.extend(_binder_lines(after_name[group_start : i + 1]))
        elif depth == 0 and ch == ":" and after_name[i : i + 2] != ":=":
            if colon < 0:
                colon = i
        elif depth == 0 and after_name[i : i + 2] == ":=" and colon >= 0:
            return hypotheses, _squash(after_name[colon + 1 : i])
        i += 1
    conclusion = after_name[colon + 1 :] if colon >= 0 else "?"
    return hypotheses, _squash(conclusion)


def _binder_lines(group: str) -> list[str]:
    """`(a b : ℝ)` → `a b : ℝ`; an anonymous instance `[Foo α]` → `inst✝ : Foo α`."""
    names, colon, typ = group[1:-1].partition(":")
    if not colon:
        return [f"inst✝ : {_squash(names)}"] if group[0] == "[" else []
    return [f"{_squash(names)} : {_squash(typ)}"]


def _squash(text: str) -> str:
    return " ".join(text.split())


def kimina_split(code: str) -> tuple[str, str, int]:
    """(header, body, header line count) the way the server's `split_snippet` cuts a snippet."""
    lines = code.splitlines()
    i = 0
    while i < len(lines) and (lines[i].strip() == "" or lines[i].strip().startswith("import ")):
        i += 1
    imports = [line.strip() for line in lines[:i] if line.strip().startswith("import ")]
    header = "\n".join(
        dict.fromkeys("import Mathlib" if x.startswith("import Mathlib") else x for x in imports)
    )
    return header, "\n".join(lines[i:]), i


# --- the server ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SnippetFailure:
    """Snippets matching `pattern` get `{"error": error}` instead of a response (`{timeout}` is
    replaced by the request's timeout, printed as a float like the server does)."""

    pattern: str
    error: str = TIMEOUT_ERROR


@dataclass(frozen=True)
class SnippetCrash:
    """A snippet matching `pattern` crashes its REPL: the server answers HTTP 500 for the whole batch."""

    pattern: str
    detail: str = "Lean process broken pipe"


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


PositionShift = Literal["all", "messages", "none"]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like uvicorn
    timeout = 10  # idle keep-alive connections end on their own
    fake: FakeKimina

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self.fake._handle(self, "GET")

    def do_POST(self) -> None:  # noqa: N802
        self.fake._handle(self, "POST")

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output clean


@dataclass
class FakeKimina(fake_common.HTTPFake):
    """Start with `with FakeKimina(...) as server:` (or `start()`/`stop()`); `server.url` is its base URL."""

    handler = _Handler
    thread_name = "fake-kimina"

    responder: Responder = field(default_factory=ScriptedLean)
    api_key: str | None = None
    position_shift: PositionShift = "all"  # "all": current servers; "messages"/"none": older ones
    delay: float = 0.0  # seconds before answering each request
    snippet_failures: list[SnippetFailure] = field(default_factory=list)
    crashes: list[SnippetCrash] = field(default_factory=list)
    cold_import_seconds: float = 0.0  # a header not yet imported times out when timeout < this
    requests: list[RecordedRequest] = field(default_factory=list)
    max_in_flight: int = 0
    trickle_gap: float = 0.2  # seconds between the bytes of a "trickle" fault's body
    # Order without clocks: while `gate` is an unset Event, every request is received (and recorded)
    # but held before its answer until the test sets it (or the fake stops).
    gate: threading.Event | None = None

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._scripted_failures: list[tuple[str, int, str]] = []  # ("status"|"drop", status, detail)
        self._permanent: tuple[str, int, str] | None = None  # every request, until cleared
        self._permanent_paths: tuple[str, ...] | None = None  # only these paths' requests (None: all)
        self._warm_headers: set[str] = set()
        self._in_flight = 0
        self._stopping = threading.Event()  # set on stop(): no trickling handler outlives the fake

    def stop(self) -> None:
        self._stopping.set()
        super().stop()
        self._stopping.clear()

    # lifecycle (start / stop / `with`: fake_common.HTTPFake)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # fault injection

    def fail_next(self, n: int, status: int = 503, detail: str | None = None) -> None:
        default = {429: "No available REPLs", 500: "Internal Server Error", 503: "Service Unavailable"}
        with self._lock:
            self._scripted_failures += [("status", status, detail or default.get(status, "error"))] * n

    def fail_always(self, status: int | None = 503, detail: str | None = None) -> None:
        """Every request (health included) gets HTTP `status` until `fail_always(None)`: a server
        that is down (behind a proxy that answers 503) and comes back."""
        with self._lock:
            self._permanent = None if status is None else ("status", status, detail or "Service Unavailable")
            self._permanent_paths = None

    def fault_always(self, kind: str | None, *, paths: tuple[str, ...] | None = None) -> None:
        """Every request (only those to `paths`, when given: e.g. `("/api/check",)` for a server
        whose health route answers while its checks do not) gets HTTP 200 with a body that is not
        Kimina's: "garbage" (truncated JSON) or "wrong_shape" (JSON without `results`), or
        "trickle" (the headers at once, then the body a byte every `trickle_gap` seconds), until
        `fault_always(None)`."""
        if kind not in (None, "garbage", "wrong_shape", "trickle"):
            raise ValueError(f"unknown fault kind {kind!r} (choose garbage, wrong_shape or trickle)")
        with self._lock:
            self._permanent = None if kind is None else (kind, 200, "")
            self._permanent_paths = paths

    def drop_next(self, n: int) -> None:
        """Close the next `n` connections without answering."""
        with self._lock:
            self._scripted_failures += [("drop", 0, "")] * n

    @property
    def check_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == "POST" and r.path.rstrip("/") == "/api/check"]

    # request handling (called from the handler threads)

    def _handle(self, handler: _Handler, method: str) -> None:
        body = _read_json(handler) if method == "POST" else None
        with self._lock:
            self.requests.append(RecordedRequest(method, handler.path, dict(handler.headers.items()), body))
            path = handler.path.split("?")[0].rstrip("/") or "/"
            permanent = self._permanent if self._permanent_paths is None or path in self._permanent_paths else None
            failure = permanent or (self._scripted_failures.pop(0) if self._scripted_failures else None)
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
        try:
            self._answer(handler, method, body, failure)
        finally:
            with self._lock:
                self._in_flight -= 1

    def _answer(
        self, handler: _Handler, method: str, body: Any, failure: tuple[str, int, str] | None
    ) -> None:
        fake_common.simulated_latency(self.delay)
        gate = self.gate
        while gate is not None and not gate.wait(0.05) and not self._stopping.is_set():
            pass
        if failure and failure[0] == "drop":
            handler.close_connection = True
            return
        if failure and failure[0] == "garbage":
            data = b'{"results": [{"id": "lf-'
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
            return
        if failure and failure[0] == "trickle":
            data = json.dumps({"results": []}).encode() + b" " * 100_000
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.flush()
            try:
                for i in range(len(data)):
                    if self._stopping.is_set():
                        break
                    handler.wfile.write(data[i:i + 1])
                    handler.wfile.flush()
                    fake_common.simulated_latency(self.trickle_gap)
            except OSError:  # the client gave up
                pass
            handler.close_connection = True
            return
        if failure and failure[0] == "wrong_shape":
            return _send(handler, 200, {"status": "ok", "output": []})
        if failure:
            return _send(handler, failure[1], {"detail": failure[2]})
        if not self._authorized(handler):
            return _send(handler, 401, {"detail": "Invalid API key"})
        path = handler.path.split("?")[0].rstrip("/") or "/"
        if method == "GET" and path in ("/health", "/"):
            return _send(handler, 200, {"status": "ok"})
        if method == "POST" and path == "/api/check":
            status, answer = self._check(body)
            return _send(handler, status, answer)
        if path in ("/health", "/", "/api/check"):
            return _send(handler, 405, {"detail": "Method Not Allowed"})
        return _send(handler, 404, {"detail": "Not Found"})

    def _authorized(self, handler: _Handler) -> bool:
        if self.api_key is None:
            return True
        token = handler.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        return token == self.api_key

    def _check(self, body: Any) -> tuple[int, dict[str, Any]]:
        problem = _validate(body)
        if problem:
            return 422, {"detail": [{"type": "value_error", "loc": ["body"], "msg": problem}]}
        timeout = float(body.get("timeout", 30))
        for snippet in body["snippets"]:
            for crash in self.crashes:
                if re.search(crash.pattern, snippet["code"]):
                    return 500, {"detail": crash.detail}
        return 200, {"results": [self._run_snippet(s["id"], s["code"], timeout) for s in body["snippets"]]}

    def _run_snippet(self, snippet_id: str, code: str, timeout: float) -> dict[str, Any]:
        header, body, header_lines = kimina_split(code)
        with self._lock:
            cold = bool(header) and header not in self._warm_headers
            if cold and timeout < self.cold_import_seconds:
                return {
                    "id": snippet_id,
                    "time": timeout,
                    "error": HEADER_TIMEOUT_ERROR.format(timeout=timeout),
                }
            self._warm_headers.add(header)
        for failure in self.snippet_failures:
            if re.search(failure.pattern, code):
                return {"id": snippet_id, "time": timeout, "error": failure.error.format(timeout=timeout)}
        response = self.responder(body)
        return {"id": snippet_id, "time": 0.01, "response": self._shift(response, header_lines)}

    def _shift(self, response: dict[str, Any], header_lines: int) -> dict[str, Any]:
        keys = {"all": ("messages", "sorries"), "messages": ("messages",), "none": ()}[self.position_shift]
        out = dict(response)
        for key in keys:
            if isinstance(response.get(key), list):
                out[key] = [_shifted(entry, header_lines) for entry in response[key]]
        return out


def _read_json(handler: BaseHTTPRequestHandler) -> Any:
    length = int(handler.headers.get("Content-Length") or 0)
    raw = handler.rfile.read(length) if length else b""
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return None


def _send(handler: BaseHTTPRequestHandler, status: int, payload: Any) -> None:
    data = json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def _validate(body: Any) -> str | None:
    """The checks the server's pydantic models make (CheckRequest)."""
    if not isinstance(body, dict):
        return "body must be a JSON object"
    snippets = body.get("snippets")
    if not isinstance(snippets, list) or not snippets:
        return "`snippets` must be non empty"
    if any(
        not isinstance(s, dict) or not isinstance(s.get("id"), str) or not isinstance(s.get("code"), str)
        for s in snippets
    ):
        return "each snippet needs a string `id` and `code`"
    if len({s["id"] for s in snippets}) != len(snippets):
        return "`snippets` must have unique ids"
    timeout = body.get("timeout", 30)
    if not isinstance(timeout, int) or isinstance(timeout, bool) or timeout < 0:
        return "`timeout` must be a non-negative integer"
    return None


def _shifted(entry: Any, offset: int) -> Any:
    if not isinstance(entry, dict) or not offset:
        return entry
    out = dict(entry)
    for key in ("pos", "endPos"):
        if isinstance(entry.get(key), dict):
            out[key] = {**entry[key], "line": entry[key]["line"] + offset}
    return out


@contextmanager
def running_fake_kimina(**options: Any) -> Iterator[FakeKimina]:
    with FakeKimina(**options) as server:
        yield server

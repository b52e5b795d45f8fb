"""A scripted "fake Lean": the engine behind the fake REPL process (tests/fakes/fake_repl.py).

It answers Lean REPL requests (`{"cmd"}`, `{"cmd","env"}`, `{"tactic","proofState"}`, `{"path"}`,
pickle / unpickle) with the REPL's semantics: per-process `env` and `proofState` counters that start
at 0, `Unknown environment.` / `Unknown proof state.` errors, and responses whose empty lists are
omitted. Answers come from, in order:

1. **rules** (a table given by the test): `{"match": regex, ...}` entries that can script a whole
   response, a REPL error, extra Lean messages, a sorry's goal, a tactic that closes its goal, a
   delay, a crash, a hang, garbage output or an out-of-memory death;
2. **recorded transcripts** (`shared/data/repl_transcripts/<folder>/index.json`): when the exact
   request was recorded (after dropping the two fields lean-interact adds to every command), the
   recorded response is replayed with its ids renumbered to this process's counters;
3. **scripted Lean**: every real `sorry` (outside comments and strings) becomes a `sorries` entry
   with a plausible goal and a fresh proof state, each declaration using one gets the
   `declaration uses 'sorry'` warning, `#print axioms NAME` answers in Lean's wording (with
   `sorryAx`, `Lean.ofReduceBool` and user axioms where the text uses them), a re-declared name or
   an `import` after the header is an error; everything else elaborates silently. Tactics: `sorry`
   and `skip` behave like Lean's, Mathlib's `extract_goal [*] [using NAME]` (optionally behind
   `set_option … in`) logs the proof state's goal as `theorem NAME (x : T) … : goal := sorry`
   (see `extract_goal_message`), any other tactic without a rule fails.

Everything here is pure Python and standard library only: the fake REPL process imports this module
by path, so it must start fast and must not depend on the product package (which is never allowed
to import test doubles either).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__:
    from . import fake_common
    from .lean_versions import DEFAULT as DEFAULT_LEAN_VERSION
    from .lean_versions import LeanRelease, private_name
else:  # the fake REPL process imports this file by path (tests/fakes on sys.path)
    import fake_common
    from lean_versions import DEFAULT as DEFAULT_LEAN_VERSION
    from lean_versions import LeanRelease, private_name

# The fork tag that lean-interact 0.11.6 would check out for Lean v4.19.0 (closest recorded one).
DEFAULT_TRANSCRIPT_FOLDER = "augustepoiroux-repl__v1.3.18_lean-toolchain-v4.19.0"
STANDARD_AXIOMS = ("propext", "Classical.choice", "Quot.sound")
SORRY_WARNING_V4_19 = "declaration uses 'sorry'"  # Lean >= ~4.22 prints it with backticks

# --------------------------------------------------------------------------------------------------
# Lean-style JSON output
# --------------------------------------------------------------------------------------------------


def lean_json(value: Any, width: int = 80) -> str:
    """Render `value` exactly like Lean's `Json.pretty` (what the REPL prints): object keys in
    reverse-lexicographic order, groups broken Wadler-style at `width` columns."""
    return _pretty(_json_doc(value), width)


def _escape_json_string(s: str) -> str:
    # Lean's Json.escape: only `"`, `\`, newline and CR get short escapes; other control characters
    # are \u-escaped (lowercase hex); everything else, including non-ASCII, is printed as is.
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# A tiny document algebra: str (text), _LINE, ("nest", n, doc), ("group", doc), list (concatenation).
_LINE = ("line",)


def _group(doc: Any) -> tuple[str, Any]:
    return ("group", doc)


def _bracket(left: str, items: list[Any], right: str) -> tuple[str, Any]:
    # Lean: Format.bracket l f r = group (nest l.length (l ++ f ++ r))
    return _group(("nest", len(left), [left, *items, right]))


def _join_with_comma_line(docs: list[Any]) -> list[Any]:
    out: list[Any] = []
    for i, d in enumerate(docs):
        if i:
            out.extend([",", _LINE])
        out.append(d)
    return out


def _json_doc(value: Any) -> Any:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, str):
        return _escape_json_string(value)
    if isinstance(value, Sequence):
        if not value:
            return "[]"
        return _bracket("[", _join_with_comma_line([_json_doc(v) for v in value]), "]")
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        # Lean folds its RBMap in ascending key order while consing: keys come out descending.
        kvs = [
            _group([_escape_json_string(k) + ":", _LINE, _json_doc(value[k])])
            for k in sorted(value, reverse=True)
        ]
        return _bracket("{", _join_with_comma_line(kvs), "}")
    raise TypeError(f"not JSON: {type(value).__name__}")


def _fits(remaining: int, items: list[tuple[int, bool, Any]]) -> bool:
    """Wadler's `fits`: does everything up to the next line break that stays broken fit?"""
    stack = list(items)
    while stack:
        if remaining < 0:
            return False
        indent, flat, doc = stack.pop()
        if isinstance(doc, str):
            remaining -= len(doc)
        elif isinstance(doc, list):
            stack.extend((indent, flat, d) for d in reversed(doc))
        elif doc is _LINE:
            if not flat:
                return True
            remaining -= 1
        elif doc[0] == "nest":
            stack.append((indent + doc[1], flat, doc[2]))
        else:  # group: measured in the mode of its context
            stack.append((indent, flat, doc[1]))
    return remaining >= 0


def _pretty(doc: Any, width: int) -> str:
    out: list[str] = []
    column = 0
    stack: list[tuple[int, bool, Any]] = [(0, False, doc)]
    while stack:
        indent, flat, d = stack.pop()
        if isinstance(d, str):
            out.append(d)
            column += len(d)
        elif isinstance(d, list):
            stack.extend((indent, flat, x) for x in reversed(d))
        elif d is _LINE:
            if flat:
                out.append(" ")
                column += 1
            else:
                out.append("\n" + " " * indent)
                column = indent
        elif d[0] == "nest":
            stack.append((indent + d[1], flat, d[2]))
        else:
            fits = flat or _fits(width - column, [*stack, (indent, True, d[1])])
            stack.append((indent, fits, d[1]))
    return "".join(out)


# --------------------------------------------------------------------------------------------------
# Recorded transcripts
# --------------------------------------------------------------------------------------------------


def normalize_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Drop what lean-interact adds to every command (`incrementality`, the `Elab.async` option):
    neither changes what Lean answers, and the recorded requests were sent without them."""
    out = {k: v for k, v in request.items() if k != "incrementality"}
    options = out.get("setOptions")
    if isinstance(options, list):
        kept = [o for o in options if not (isinstance(o, list) and o and o[0] == ["Elab", "async"])]
        if kept:
            out["setOptions"] = kept
        else:
            del out["setOptions"]
    return out


def _request_key(request: Mapping[str, Any]) -> str:
    body = {k: v for k, v in normalize_request(request).items() if k not in ("env", "proofState")}
    return json.dumps(body, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class RecordedExchange:
    transcript: str
    transcript_rank: int  # position of the transcript in index.json (tie-breaker)
    index: int  # position of the request inside its transcript
    ref_env: int | None
    ref_proof_state: int | None
    request_kind: str
    response: dict[str, Any]


class TranscriptIndex:
    """Recorded request → response pairs, looked up by request (ids aside)."""

    def __init__(self, exchanges: Iterable[RecordedExchange], keys: Iterable[str]) -> None:
        self._by_key: dict[str, list[RecordedExchange]] = {}
        for key, ex in zip(keys, exchanges, strict=True):
            self._by_key.setdefault(key, []).append(ex)

    @classmethod
    def load(cls, folder: str | Path, names: Iterable[str] | None = None) -> TranscriptIndex:
        """Load `<folder>/index.json`; `names` restricts it to those transcripts."""
        data = json.loads((Path(folder) / "index.json").read_text(encoding="utf-8"))
        wanted = set(names) if names is not None else None
        exchanges: list[RecordedExchange] = []
        keys: list[str] = []
        for rank, t in enumerate(data["transcripts"]):
            if t.get("expected_out") is None or (wanted is not None and t["name"] not in wanted):
                continue
            for i, (req, resp) in enumerate(zip(t["requests"], t["responses"], strict=True)):
                keys.append(_request_key(req))
                exchanges.append(
                    RecordedExchange(
                        transcript=t["name"],
                        transcript_rank=rank,
                        index=i,
                        ref_env=req.get("env"),
                        ref_proof_state=req.get("proofState"),
                        request_kind=request_kind(req),
                        response=resp,
                    )
                )
        return cls(exchanges, keys)

    def candidates(self, request: Mapping[str, Any]) -> list[RecordedExchange]:
        return self._by_key.get(_request_key(request), [])


# --------------------------------------------------------------------------------------------------
# Requests
# --------------------------------------------------------------------------------------------------


class FakeProtocolError(ValueError):
    """The request is not one the REPL understands (the real REPL dies on it: uncaught exception)."""


def request_kind(request: Mapping[str, Any]) -> str:
    """Classify a request in the REPL's own dispatch order (first match wins)."""
    if isinstance(request.get("tactic"), str) and isinstance(request.get("proofState"), int):
        return "tactic"
    if isinstance(request.get("pickleTo"), str) and isinstance(request.get("env"), int):
        return "pickle_env"
    if isinstance(request.get("unpickleEnvFrom"), str):
        return "unpickle_env"
    if isinstance(request.get("pickleTo"), str) and isinstance(request.get("proofState"), int):
        return "pickle_proof_state"
    if isinstance(request.get("unpickleProofStateFrom"), str):
        return "unpickle_proof_state"
    if isinstance(request.get("cmd"), str):
        return "header" if request.get("env") is None and starts_with_import(request["cmd"]) else "cmd"
    if isinstance(request.get("path"), str):
        return "file"
    raise FakeProtocolError(f"Could not parse as a valid JSON command: {json.dumps(request)[:200]}")


def starts_with_import(cmd: str) -> bool:
    return fake_common.mask_comments_and_strings(cmd).lstrip().startswith("import")


# --------------------------------------------------------------------------------------------------
# Lean source scanning (simple on purpose: comments, strings and char literals are masked by
# fake_common.mask_comments_and_strings; identifiers, declarations)
# --------------------------------------------------------------------------------------------------


def position(text: str, offset: int) -> dict[str, int]:
    """REPL position of `offset`: line 1-based, column 0-based in codepoints."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1)
    return {"line": line, "column": column}


def _span(text: str, start: int, end: int) -> dict[str, dict[str, int]]:
    return {"pos": position(text, start), "endPos": position(text, end)}


_IDENT = re.compile(r"[A-Za-z_α-ωΑ-Ωℕℤℚℝ][\w'!?.₀-₉]*")
_DECL_NAME = re.compile(r"[ \t]+(?P<name>[^\s:({\[⦃]+)")
_IMPORT = re.compile(r"^import\b", re.MULTILINE)
_HAVE_BEFORE_SORRY = re.compile(r"\bhave\s+(?P<name>[^\s:]+)\s*:\s*(?P<stmt>.+?)\s*:=\s*(?:by)?$")
_HAVE_LINE = re.compile(r"^\s*have\s+(?P<name>[^\s:]+)\s*:\s*(?P<stmt>.+?)\s*:=", re.MULTILINE)
_TRIVIAL_PROOFS = {"rfl", "by rfl", "by decide", "decide", "by trivial", "trivial"}
_OPEN_BRACKETS = {"(": ")", "{": "}", "[": "]", "⦃": "⦄", "⟨": "⟩"}


@dataclass(slots=True)
class Declaration:
    kind: str
    name: str | None  # None for `example` and anonymous instances
    start: int  # offset of the keyword
    end: int  # offset where the next top-level command starts
    name_span: tuple[int, int]  # where Lean puts the "declaration uses 'sorry'" warning
    binders: list[str]  # hypotheses as Lean prints them, e.g. "a b : ℝ"
    statement: str | None  # the type after the signature's colon, one line
    value: str  # text after `:=` (masked)
    sig_span: tuple[int, int] = (0, 0)  # binders and type: from the name's end to `:=`


def _find_top_level(text: str, start: int, target: str) -> int:
    """First index >= start where `target` occurs at bracket depth 0 (len(text) if none). A lone
    ":" target skips ":=", so it finds the colon that starts a declaration's statement."""
    depth = 0
    closers = set(_OPEN_BRACKETS.values())
    for i in range(start, len(text)):
        c = text[i]
        if c in _OPEN_BRACKETS:
            depth += 1
        elif c in closers:
            depth -= 1
        elif depth == 0 and text.startswith(target, i):
            if target == ":" and text.startswith(":=", i):
                continue
            return i
    return len(text)


def _parse_binders(signature: str) -> list[str]:
    """`(a b : ℝ) {n : ℕ} [Fintype α] (h : 0 < a)` → ["a b : ℝ", "n : ℕ", "inst✝ : Fintype α", "h : 0 < a"],
    merging consecutive binders of the same type like Lean's goal display does."""
    entries: list[tuple[list[str], str]] = []
    i = 0
    while i < len(signature):
        c = signature[i]
        if c not in _OPEN_BRACKETS:
            i += 1
            continue
        depth, j = 0, i
        while j < len(signature):
            if signature[j] in _OPEN_BRACKETS:
                depth += 1
            elif signature[j] in _OPEN_BRACKETS.values():
                depth -= 1
                if depth == 0:
                    break
            j += 1
        inner = " ".join(signature[i + 1 : j].split())
        colon = _find_top_level(inner, 0, ":")
        if colon < len(inner):
            names, typ = inner[:colon].split(), inner[colon + 1 :].strip()
        else:
            names, typ = ["inst✝"], inner
        if entries and entries[-1][1] == typ and names != ["inst✝"]:
            entries[-1][0].extend(names)
        else:
            entries.append((names, typ))
        i = j + 1
    return [f"{' '.join(names)} : {typ}" for names, typ in entries]


def find_declarations(masked: str) -> list[Declaration]:
    """Declarations in source order (`masked`: see fake_common.mask_comments_and_strings)."""
    decls: list[Declaration] = []
    for m in fake_common.DECL_RE.finditer(masked):
        kw_start, kw_end = m.start("kind"), m.end("kind")
        end = _next_top_level_command(masked, kw_end)
        text = masked[kw_end:end]
        name = None
        name_span = (kw_start, kw_end)  # `example` and anonymous instances: Lean uses the keyword
        nm = _DECL_NAME.match(text)
        if m.group("kind") != "example" and nm:
            name = nm.group("name")
            name_span = (kw_end + nm.start("name"), kw_end + nm.end("name"))
        sig_start = name_span[1] - kw_end if name else 0
        assign = _find_top_level(text, sig_start, ":=")
        signature = text[sig_start:assign]
        colon = _find_top_level(signature, 0, ":")
        statement = " ".join(signature[colon + 1 :].split()) if colon < len(signature) else None
        decls.append(
            Declaration(
                kind=m.group("kind"),
                name=name,
                start=kw_start,
                end=end,
                name_span=name_span,
                binders=_parse_binders(signature[:colon]),
                statement=statement or None,
                value=text[assign + 2 :],
                sig_span=(kw_end + sig_start, kw_end + assign),
            )
        )
    return decls


def _next_top_level_command(masked: str, after: int) -> int:
    """Top-level commands start in column 0; indented lines (and `|` match arms, `where` /
    `termination_by` / `decreasing_by` clauses) continue one."""
    m = re.compile(r"\n(?=[^\s|)\]}⟩,])(?!(?:where|termination_by|decreasing_by)\b)").search(masked, after)
    return m.start() + 1 if m else len(masked)


# --------------------------------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rule:
    """One scripted behaviour. `match` is a regex searched in the cmd text (or the tactic text, or
    the source line of a `sorry`, depending on `on`)."""

    match: re.Pattern[str]
    on: str = "any"  # "cmd" | "tactic" | "sorry" | "any" (cmd or tactic)
    goal_match: re.Pattern[str] | None = None  # tactic rules: the proof state's goal must match too
    response: dict[str, Any] | None = None  # the whole response; ids are renumbered like recordings
    error: str | None = None  # REPL-level error: the response is {"message": error}
    messages: tuple[dict[str, Any], ...] = ()  # extra Lean messages (default position: the match)
    goal: str | None = None  # "sorry" rules: the goal Lean reports for that sorry
    closes: bool = False  # tactic rules: the tactic closes the goal
    goals: tuple[str, ...] | None = None  # tactic rules: the goals left open
    delay_s: float = 0.0
    crash: bool = False  # exit without answering (a dead pipe for the client)
    hang: bool = False  # never answer (the client's timeout fires)
    garbage: bool = False  # answer with invalid JSON
    oom: bool = False  # die like Lean under RLIMIT_AS: "INTERNAL PANIC: out of memory", exit 1
    alloc_mb: int = 0  # allocate (and keep) this much memory before answering
    times: int | None = None  # fire at most this many times per process
    # answer only once this lock file is free: the process waits for a shared lock on it, so a test
    # that holds the exclusive lock holds every matching request in flight until it lets go
    # (a gate the test opens from its event loop: no clock involved)
    wait_unlocked: str | None = None
    # cmd rules: constants Lean declares that a text reading missed ({"kind", "name", "axioms"}),
    # listed by the audit's declaration probe (a lexer divergence, modelled)
    declares: tuple[dict[str, Any], ...] = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rule:
        known = set(cls.__slots__)  # type: ignore[attr-defined]
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown rule fields: {sorted(unknown)}")
        kw = dict(d)
        kw["match"] = re.compile(d["match"], re.MULTILINE)
        if d.get("goal_match") is not None:
            kw["goal_match"] = re.compile(d["goal_match"], re.MULTILINE)
        if "messages" in d:
            kw["messages"] = tuple(d["messages"])
        if d.get("goals") is not None:
            kw["goals"] = tuple(d["goals"])
        if "declares" in d:
            kw["declares"] = tuple(d["declares"])
        return cls(**kw)

    def applies_to(self, kind: str) -> bool:
        return self.on == kind or (self.on == "any" and kind in ("cmd", "tactic"))


@dataclass(frozen=True, slots=True)
class Latency:
    """Simulated time per request (seconds), so pool benchmarks mean something."""

    header_s: float = 0.0  # a command that starts with `import` (Mathlib: ~10-20 s for real)
    cmd_s: float = 0.0  # any other command / file
    tactic_s: float = 0.0  # a tactic step, pickle, unpickle
    startup_s: float = 0.0  # process start, before the first request is read

    def for_kind(self, kind: str) -> float:
        if kind == "header":
            return self.header_s
        if kind in ("cmd", "file"):
            return self.cmd_s
        return self.tactic_s


@dataclass(slots=True)
class Reply:
    """What the process should do with one request."""

    response: dict[str, Any] | None
    kind: str
    delay_s: float = 0.0
    crash: bool = False
    hang: bool = False
    garbage: bool = False
    oom: bool = False
    alloc_mb: int = 0
    wait_unlocked: tuple[str, ...] = ()  # lock files that must be free before the answer
    source: str = "scripted"  # "rule" | "recorded:<transcript>" | "scripted"


# --------------------------------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Env:
    decls: dict[str, frozenset[str]] = field(default_factory=dict)  # name → axioms it depends on
    user_axioms: frozenset[str] = frozenset()
    types: dict[str, str] = field(default_factory=dict)  # name → what `#check @name` prints (pp.all)
    source: str = ""  # every command elaborated into this env, for the declaration listing
    hidden: tuple[dict[str, Any], ...] = ()  # constants rules declared that the text does not show


@dataclass(slots=True)
class _ProofState:
    goals: list[str]
    env: int | None


Origin = tuple[str, int]  # (transcript, recorded id) a local id stands for


class FakeLean:
    """One fake REPL process's state. `handle()` says what to do with a request (respond, crash,
    hang, after a delay); `respond()` is the pure request → response view."""

    def __init__(
        self,
        *,
        rules: Iterable[Rule | Mapping[str, Any]] = (),
        transcripts: TranscriptIndex | None = None,
        latency: Latency = Latency(),
        sorry_warning: str = SORRY_WARNING_V4_19,
        default_tactic_error: str = "Lean error:\n<input>:1:0: tactic '{tactic}' failed (fake Lean has no rule for it)",
        cwd: str | Path = ".",
        lean_version: str = DEFAULT_LEAN_VERSION,
    ) -> None:
        self.rules = [r if isinstance(r, Rule) else Rule.from_dict(r) for r in rules]
        # how the probe is answered (tests/fakes/lean_versions.py); the REPL's main module is
        # anonymous, so a private name is `_private.0.<name>`
        self.lean_version = lean_version
        self.release = LeanRelease.of(lean_version)
        self.transcripts = transcripts
        self.latency = latency
        self.sorry_warning = sorry_warning
        self.default_tactic_error = default_tactic_error
        self.cwd = Path(cwd)
        self._envs: list[_Env] = []
        self._proof_states: list[_ProofState] = []
        self._env_origins: dict[int, list[Origin]] = {}
        self._ps_origins: dict[int, list[Origin]] = {}
        self._cursors: dict[str, int] = {}  # transcript → index of the last recorded answer used
        self._rule_uses: dict[int, int] = {}

    # ---- public -----------------------------------------------------------------------------

    def respond(self, request: Mapping[str, Any]) -> dict[str, Any] | None:
        """The response, or None when a rule says the process dies / hangs instead of answering."""
        return self.handle(request).response

    def handle(self, request: Mapping[str, Any]) -> Reply:
        kind = request_kind(request)
        base_delay = self.latency.for_kind(kind)
        rules = self._matching_rules(request, kind)
        delay = base_delay + sum(r.delay_s for r in rules)
        effects = Reply(
            response=None,
            kind=kind,
            delay_s=delay,
            crash=any(r.crash for r in rules),
            hang=any(r.hang for r in rules),
            garbage=any(r.garbage for r in rules),
            oom=any(r.oom for r in rules),
            alloc_mb=sum(r.alloc_mb for r in rules),
            wait_unlocked=tuple(r.wait_unlocked for r in rules if r.wait_unlocked),
        )
        if effects.crash or effects.hang or effects.oom:
            return effects
        effects.response, effects.source = self._answer(request, kind, rules)
        return effects

    # ---- dispatch ---------------------------------------------------------------------------

    def _matching_rules(self, request: Mapping[str, Any], kind: str) -> list[Rule]:
        text_kind = "tactic" if kind == "tactic" else "cmd" if kind in ("cmd", "header") else None
        if text_kind is None:
            return []
        text = request["tactic"] if text_kind == "tactic" else request["cmd"]
        goals = ""
        if text_kind == "tactic":
            ps = request["proofState"]
            goals = "\n\n".join(self._proof_states[ps].goals) if 0 <= ps < len(self._proof_states) else ""
        out = []
        for i, rule in enumerate(self.rules):
            if not rule.applies_to(text_kind) or not rule.match.search(text):
                continue
            if rule.goal_match is not None and not rule.goal_match.search(goals):
                continue
            if rule.times is not None and self._rule_uses.get(i, 0) >= rule.times:
                continue
            self._rule_uses[i] = self._rule_uses.get(i, 0) + 1
            out.append(rule)
        return out

    def _answer(self, request: Mapping[str, Any], kind: str, rules: list[Rule]) -> tuple[dict[str, Any], str]:
        unknown = self._unknown_reference(request, kind)
        if unknown is not None:
            return unknown, "scripted"
        for rule in rules:
            if rule.error is not None:
                return {"message": rule.error}, "rule"
            if rule.response is not None:
                return self._adopt(request, kind, rule.response, []), "rule"
        # Rules that only add delays or kill the process leave the answer to the recordings.
        shapes_answer = any(r.messages or r.closes or r.goals is not None for r in rules)
        if not shapes_answer and self.transcripts is not None:
            recorded = self._recorded(request, kind)
            if recorded is not None:
                return recorded
        if kind == "tactic":
            return self._scripted_tactic(request, rules), "rule" if rules else "scripted"
        return self._scripted_other(request, kind, rules), "scripted"

    def _unknown_reference(self, request: Mapping[str, Any], kind: str) -> dict[str, Any] | None:
        env = request.get("env")
        if env is not None and not 0 <= env < len(self._envs):
            return {"message": "Unknown environment."}
        ps = request.get("proofState")
        if kind in ("tactic", "pickle_proof_state") and not 0 <= ps < len(self._proof_states):
            return {"message": "Unknown proof state."}
        return None

    # ---- recorded answers -------------------------------------------------------------------

    def _recorded(self, request: Mapping[str, Any], kind: str) -> tuple[dict[str, Any], str] | None:
        assert self.transcripts is not None
        ref_env, ref_ps = request.get("env"), request.get("proofState")
        if ref_ps is not None and kind in ("tactic", "pickle_proof_state"):
            origins = set(self._ps_origins.get(ref_ps, []))
            matches = [e for e in self.transcripts.candidates(request) if (e.transcript, e.ref_proof_state) in origins]
        elif ref_env is not None:
            origins = set(self._env_origins.get(ref_env, []))
            matches = [e for e in self.transcripts.candidates(request) if (e.transcript, e.ref_env) in origins]
        else:
            matches = [
                e for e in self.transcripts.candidates(request) if e.ref_env is None and e.ref_proof_state is None
            ]
        if not matches:
            return None
        matches.sort(key=self._replay_preference)
        response = self._adopt(request, kind, matches[0].response, matches)
        for m in matches:
            self._cursors[m.transcript] = m.index
        return response, f"recorded:{matches[0].transcript}"

    def _replay_preference(self, e: RecordedExchange) -> tuple[int, int, int]:
        # Prefer continuing the transcript we are replaying (its next request), then a transcript
        # that starts with this request, then index.json order.
        continues = self._cursors.get(e.transcript, -2) + 1 == e.index
        return (0 if continues else 1, e.index, e.transcript_rank)

    def _adopt(
        self,
        request: Mapping[str, Any],
        kind: str,
        template: Mapping[str, Any],
        recorded: Sequence[RecordedExchange],
    ) -> dict[str, Any]:
        """Copy a recorded / scripted response, giving its new env and proof-state ids the next
        values of this process's counters (in the order Lean allocated them: ascending)."""
        response = copy.deepcopy(dict(template))
        if set(response) == {"message"}:
            return response
        ps_slots = _new_proof_state_slots(response)
        recorded_ps = sorted({get() for get, _ in ps_slots})
        local_ps = {rec: self._new_proof_state([], None) for rec in recorded_ps}
        for get, put in ps_slots:
            put(local_ps[get()])
        self._record_goals(response, local_ps.values())
        new_env: int | None = None
        if "env" in response:
            if kind == "pickle_env":
                response["env"] = request["env"]
            else:
                new_env = self._new_env(self._env_after(request, kind))
                response["env"] = new_env
        for ex in recorded:
            self._remember_origins(ex, recorded_ps, local_ps, new_env)
        return response

    def _remember_origins(
        self, ex: RecordedExchange, primary_ps: list[int], local_ps: dict[int, int], new_env: int | None
    ) -> None:
        ps_ids = sorted({get() for get, _ in _new_proof_state_slots(copy.deepcopy(ex.response))})
        if len(ps_ids) == len(primary_ps):
            for rec, prim in zip(ps_ids, primary_ps, strict=True):
                self._ps_origins.setdefault(local_ps[prim], []).append((ex.transcript, rec))
        if new_env is not None and "env" in ex.response:
            self._env_origins.setdefault(new_env, []).append((ex.transcript, ex.response["env"]))

    def _record_goals(self, response: Mapping[str, Any], local_ids: Iterable[int]) -> None:
        goals_by_id: dict[int, list[str]] = {}
        for s in response.get("sorries", []):
            if "proofState" in s:
                goals_by_id[s["proofState"]] = [s.get("goal", "")]
        for t in response.get("tactics", []):
            if "proofState" in t:
                goals_by_id[t["proofState"]] = [t.get("goals", "")]
        if "proofState" in response and "goals" in response:
            goals_by_id[response["proofState"]] = list(response["goals"])
        for ps in local_ids:
            self._proof_states[ps].goals = goals_by_id.get(ps, [])

    # ---- scripted answers -------------------------------------------------------------------

    def _scripted_other(self, request: Mapping[str, Any], kind: str, rules: list[Rule]) -> dict[str, Any]:
        if kind in ("cmd", "header"):
            return self._scripted_command(request["cmd"], request.get("env"), rules)
        if kind == "file":
            try:
                text = (self.cwd / request["path"]).read_text(encoding="utf-8")
            except OSError as exc:
                return {"message": f"no such file or directory (error code: 2, {exc.strerror})\n  file: {request['path']}"}
            return self._scripted_command(text, request.get("env"), rules)
        if kind == "pickle_env":
            self._write_pickle(request["pickleTo"], {"env": _env_to_json(self._envs[request["env"]])})
            return {"env": request["env"]}
        if kind == "unpickle_env":
            data = self._read_pickle(request["unpickleEnvFrom"])
            if data is None or "env" not in data:
                return {"message": f"could not unpickle environment from {request['unpickleEnvFrom']}"}
            return {"env": self._new_env(_env_from_json(data["env"]))}
        if kind == "pickle_proof_state":
            state = self._proof_states[request["proofState"]]
            self._write_pickle(request["pickleTo"], {"goals": state.goals})
            return self._proof_step_response(list(state.goals), state.env)
        # unpickle_proof_state
        data = self._read_pickle(request["unpickleProofStateFrom"])
        if data is None or "goals" not in data:
            return {"message": f"could not unpickle proof state from {request['unpickleProofStateFrom']}"}
        return self._proof_step_response(list(data["goals"]), request.get("env"))

    def _scripted_command(self, cmd: str, env: int | None, rules: list[Rule]) -> dict[str, Any]:
        parent = self._envs[env] if env is not None else _Env()
        masked = fake_common.mask_comments_and_strings(cmd)
        state = _Env(dict(parent.decls), parent.user_axioms, dict(parent.types), parent.source, parent.hidden)
        messages: list[tuple[int, dict[str, Any]]] = []
        if env is not None:
            for m in _IMPORT.finditer(masked):
                text = "invalid 'import' command, it must be used in the beginning of the file"
                messages.append((m.start(), self._message(cmd, m.start(), m.end(), "error", text)))
        decls = find_declarations(masked)
        rejected: list[Declaration] = []
        events = sorted(
            [(d.start, d) for d in decls] + [(m.start(), m) for m in fake_common.PRINT_AXIOMS_RE.finditer(masked)]
            + [(m.start(), m) for m in fake_common.CHECK_TYPE_RE.finditer(masked)],
            key=lambda e: e[0],
        )
        for _, item in events:  # in source order: `#print axioms` sees only what precedes it
            if isinstance(item, Declaration):
                accepted, decl_messages = self._declare(cmd, masked, item, state)
                messages.extend(decl_messages)
                if not accepted:
                    rejected.append(item)
            elif item.re is fake_common.CHECK_TYPE_RE:
                messages.append((item.start(), self._check_type(cmd, item, state)))
            else:
                messages.append((item.start(), self._print_axioms(cmd, item, state)))
        ruled: list[tuple[int, dict[str, Any]]] = []
        for rule in rules:
            ruled.extend(self._rule_messages(cmd, rule))
            state.hidden += rule.declares
        messages.extend(ruled)
        failed_at = {start for start, msg in ruled if msg.get("severity") == "error"}
        for m in fake_common.DECLS_PROBE_RE.finditer(cmd):  # the audit's listing: Lean's env so far
            # a `run_cmd` that fails to elaborate (a rule's error at its token) logs nothing else:
            # the listing's `logInfo` is its last action, never reached
            if m.start() not in failed_at:
                messages.append((m.start(), self._listing(cmd, m, state)))
        state.source = state.source + "\n" + cmd
        messages.sort(key=lambda m: m[0])
        # Lean refuses a re-declared name before elaborating its body: no holes from it.
        holes = [m for m in fake_common.SORRY_RE.finditer(masked) if not any(d.start <= m.start() < d.end for d in rejected)]
        response: dict[str, Any] = {}
        sorries = self._sorries(cmd, masked, holes, decls)
        if sorries:
            response["sorries"] = sorries
        if messages:
            response["messages"] = [m for _, m in messages]
        response["env"] = self._new_env(state)
        return response

    def _declare(
        self, cmd: str, masked: str, decl: Declaration, state: _Env
    ) -> tuple[bool, list[tuple[int, dict[str, Any]]]]:
        """Add `decl` to `state`; returns (accepted, messages)."""
        start, end = decl.name_span
        if decl.name is not None and decl.name in state.decls:
            return False, [(start, self._message(cmd, start, end, "error", f"'{decl.name}' has already been declared"))]
        body = masked[decl.start : decl.end]
        uses_sorry = bool(fake_common.SORRY_RE.search(body))
        out = [(start, self._message(cmd, start, end, "warning", self.sorry_warning))] if uses_sorry else []
        if decl.name is None:
            return True, out
        sig = cmd[decl.sig_span[0] : decl.sig_span[1]]
        state.types[decl.name] = fake_common.type_message(decl.name, sig, cmd[: decl.start], decl.value)
        if decl.kind == "axiom":
            state.decls[decl.name] = frozenset({decl.name})
            state.user_axioms = state.user_axioms | {decl.name}
        else:
            state.decls[decl.name] = self._axioms_of(decl, body, uses_sorry, state)
        return True, out

    def _axioms_of(self, decl: Declaration, body: str, uses_sorry: bool, state: _Env) -> frozenset[str]:
        axioms: set[str] = set()
        if uses_sorry:
            axioms.add("sorryAx")
        if re.search(r"\bnative_decide\b", body):
            axioms.add("Lean.ofReduceBool")
        is_proof = decl.kind in ("theorem", "lemma", "example")
        if is_proof and " ".join(decl.value.split()) not in _TRIVIAL_PROOFS:
            axioms.update(STANDARD_AXIOMS)
        for token in set(_IDENT.findall(body)):
            parts = token.split(".")
            for k in range(1, len(parts) + 1):
                prefix = ".".join(parts[:k])
                if prefix != decl.name and prefix in state.decls:
                    axioms |= state.decls[prefix]
        return frozenset(axioms)

    def _print_axioms(self, cmd: str, m: re.Match[str], state: _Env) -> dict[str, Any]:
        name = m.group("name")
        start = m.start()
        if name not in state.decls:
            return self._message(cmd, m.start("name"), m.end("name"), "error", f"unknown constant '{name}'")
        before = state.source + "\n" + cmd[:start]
        # the theorem's name as `ofName` prints it (a private one in full), the axioms as this
        # release prints them (fake_common.print_axiom_names)
        printed = private_name(name) if fake_common.declared_private(before, name) else name
        shown = fake_common.print_axiom_names(self.release, before)
        return self._message(cmd, start, start + len("#print"), "info",
                             fake_common.axioms_message(printed, state.decls[name], shown=shown))

    def _listing(self, cmd: str, m: re.Match[str], state: _Env) -> dict[str, Any]:
        """`run_cmd …` (the audit's declaration listing): every constant of the env so far (earlier
        commands and this one before the probe), logged at the `run_cmd` token."""
        source = state.source + "\n" + cmd[: m.start()]

        def axioms_of(full: str) -> list[str] | None:
            for name in (full, full.rsplit(".", 1)[-1]):
                if name in state.decls:
                    return sorted(state.decls[name])
            return None

        listing = fake_common.listing_of(source, axioms_of, STANDARD_AXIOMS, state.hidden,
                                         lean_version=self.lean_version,
                                         roots=fake_common.parse_roots(m.group("roots")))
        return self._message(cmd, m.start(), m.start() + len("run_cmd"), "info",
                             fake_common.listing_answer(m.group("nonce"), listing))

    def _check_type(self, cmd: str, m: re.Match[str], state: _Env) -> dict[str, Any]:
        """`#check @NAME` (the audit's type probe, behind `set_option pp.… in` lines): Lean logs
        `@NAME : type` at the `#check` token."""
        name = m.group("name")
        if name not in state.types:
            return self._message(cmd, m.start("name"), m.end("name"), "error", f"unknown identifier '{name}'")
        return self._message(cmd, m.start(), m.start() + len("#check"), "info", state.types[name])

    def _sorries(
        self, cmd: str, masked: str, holes: list[re.Match[str]], decls: list[Declaration]
    ) -> list[dict[str, Any]]:
        sorry_rules = [r for r in self.rules if r.on == "sorry"]
        out = []
        for m in holes:
            line_start = cmd.rfind("\n", 0, m.start()) + 1
            line_end = cmd.find("\n", m.end())
            line = cmd[line_start : len(cmd) if line_end < 0 else line_end]
            goal = next((r.goal for r in sorry_rules if r.goal is not None and r.match.search(line)), None)
            if goal is None:
                goal = self._guess_goal(masked, m.start(), decls)
            ps = self._new_proof_state([goal], None)
            out.append({"proofState": ps, **_span(cmd, m.start(), m.end()), "goal": goal})
        return out

    def _guess_goal(self, masked: str, at: int, decls: list[Declaration]) -> str:
        """`have h : P := by sorry` (same line or next) → `⊢ P`, with the declaration's binders
        and the earlier `have`s as hypotheses; a sorry standing for the declaration's remaining
        proof → its statement; otherwise `⊢ ?`."""
        decl = next((d for d in decls if d.start <= at < d.end), None)
        hyps = list(decl.binders) if decl else []
        before = masked[decl.start if decl else 0 : at].rstrip()
        last_line_start = before.rfind("\n") + 1
        have = _HAVE_BEFORE_SORRY.search(before[last_line_start:])
        if decl is not None:
            earlier = before[: last_line_start + have.start()] if have else before
            hyps += [f"{h.group('name')} : {' '.join(h.group('stmt').split())}" for h in _HAVE_LINE.finditer(earlier)]
        if have is not None:
            target = " ".join(have.group("stmt").split())
        elif decl is not None and decl.statement:
            target = decl.statement
        else:
            target = "?"
        return "\n".join([*hyps, f"⊢ {target}"])

    def _rule_messages(self, cmd: str, rule: Rule) -> list[tuple[int, dict[str, Any]]]:
        m = rule.match.search(cmd)
        out = []
        for msg in rule.messages:
            full = {"severity": "error", **msg}
            if "pos" not in full and m is not None:
                full.update(_span(cmd, m.start(), m.end()))
            full.setdefault("pos", {"line": 1, "column": 0})
            full.setdefault("endPos", full["pos"])
            start = m.start() if m is not None else 0
            out.append((start, full))
        return out

    def _scripted_tactic(self, request: Mapping[str, Any], rules: list[Rule]) -> dict[str, Any]:
        state = self._proof_states[request["proofState"]]
        tactic = request["tactic"]
        for rule in rules:
            if rule.closes:
                return self._proof_step_response([], state.env)
            if rule.goals is not None:
                return self._proof_step_response(list(rule.goals), state.env)
        if tactic.strip() == "sorry":
            hole = self._new_proof_state(list(state.goals[:1]), state.env)
            resp = self._proof_step_response([], state.env, status="Incomplete: contains sorry")
            resp["sorries"] = [{"proofState": hole, "goal": state.goals[0] if state.goals else "⊢ ?"}]
            return resp
        if tactic.strip() == "skip":
            return self._proof_step_response(list(state.goals), state.env)
        extract = _EXTRACT_GOAL.match(tactic.strip())
        if extract is not None and state.goals:
            # Lean reports a tactic's messages at 0:0 (the REPL parses the tactic on its own).
            resp = self._proof_step_response(list(state.goals), state.env)
            text = extract_goal_message(state.goals[0], extract.group("name") or "extracted_1")
            resp["messages"] = [{"severity": "info", "pos": _ORIGIN, "endPos": _ORIGIN, "data": text}]
            return resp
        return {"message": self.default_tactic_error.format(tactic=tactic)}

    # ---- helpers ----------------------------------------------------------------------------

    def _proof_step_response(self, goals: list[str], env: int | None, status: str | None = None) -> dict[str, Any]:
        ps = self._new_proof_state(goals, env)
        if status is None:
            status = "Completed" if not goals else "Incomplete: open goals remain"
        return {"proofStatus": status, "proofState": ps, "goals": goals}

    def _message(self, cmd: str, start: int, end: int, severity: str, data: str) -> dict[str, Any]:
        return {"severity": severity, **_span(cmd, start, end), "data": data}

    def _new_env(self, state: _Env) -> int:
        self._envs.append(state)
        return len(self._envs) - 1

    def _new_proof_state(self, goals: list[str], env: int | None) -> int:
        self._proof_states.append(_ProofState(goals, env))
        return len(self._proof_states) - 1

    def _env_after(self, request: Mapping[str, Any], kind: str) -> _Env:
        """State of an env created by a recorded / rule response: the parent's plus what the command
        declares (so a later scripted `#print axioms` still knows the names)."""
        env = request.get("env")
        parent = self._envs[env] if env is not None and 0 <= env < len(self._envs) else _Env()
        state = _Env(dict(parent.decls), parent.user_axioms, dict(parent.types), parent.source, parent.hidden)
        if kind in ("cmd", "header"):
            state.source = state.source + "\n" + request["cmd"]
            masked = fake_common.mask_comments_and_strings(request["cmd"])
            for decl in find_declarations(masked):
                self._declare(request["cmd"], masked, decl, state)  # messages: the recording has them
        return state

    def _write_pickle(self, path: str, data: dict[str, Any]) -> None:
        target = self.cwd / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(data), encoding="utf-8")

    def _read_pickle(self, path: str) -> dict[str, Any] | None:
        try:
            return json.loads((self.cwd / path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None


# --------------------------------------------------------------------------------------------------
# extract_goal
# --------------------------------------------------------------------------------------------------

_EXTRACT_GOAL = re.compile(
    r"(?:set_option\s+\S+\s+\S+\s+in\s+)*extract_goal(?:\s*\*)?(?:\s+using\s+(?P<name>\S+))?"
)
_ORIGIN = {"line": 0, "column": 0}
_PP_WIDTH = 120  # Lean's `format.width`


def extract_goal_message(goal: str, name: str) -> str:
    """What Mathlib's `extract_goal * using NAME` logs for a goal as the REPL prints it
    (`x y : ℝ\\nh : 0 < x\\n⊢ 0 < x * y`): `theorem NAME (x y : ℝ) (h : 0 < x) : 0 < x * y := sorry`,
    the type on its own line (indented 2) when the whole does not fit in 120 columns. Like Mathlib
    it renames inaccessible hypotheses (`x✝` → `x`, made fresh) and binds an anonymous instance
    `inst✝ : C α` as `[inst : C α]`. Types are printed as the goal shows them: the fake knows no
    more (real Lean adds `(2 : ℝ)`-style annotations under `pp.numericTypes`)."""
    logical: list[str] = []  # a hypothesis or the target, wrapped lines joined
    for line in goal.split("\n"):
        if line[:1].isspace() and logical:
            logical[-1] += " " + line.strip()
        elif line.strip() and not (line.startswith("case ") and not logical):  # skip the goal's tag
            logical.append(line.strip())
    entries: list[tuple[str, str]] = []  # (names, type) per hypothesis
    target = "?"
    for line in logical:
        if line.startswith("⊢"):
            target = line[1:].strip()
            break
        names, colon, typ = line.partition(" : ")
        if colon:
            entries.append((names.strip(), typ.strip()))
    taken = {n for names, _ in entries for n in names.split() if "✝" not in n}
    renamed: dict[str, str] = {}
    for names, _ in entries:
        for n in names.split():
            if "✝" in n:
                fresh = base = n.split("✝")[0] or "x"
                k = 0
                while fresh in taken:
                    k += 1
                    fresh = f"{base}_{k}"
                taken.add(fresh)
                renamed[n] = fresh

    def rename(text: str) -> str:  # the hypothesis is renamed wherever it is used, as in Lean
        for old, new in renamed.items():
            text = re.sub(rf"(?<![\w'.]){re.escape(old)}(?![\w'⁰¹²³⁴⁵⁶⁷⁸⁹])", new, text)
        return text

    binders = []
    for names, typ in entries:
        accessible = " ".join(renamed.get(n, n) for n in names.split())
        instance = all(n.startswith("inst✝") for n in names.split())
        binders.append(f"[{accessible} : {rename(typ)}]" if instance else f"({accessible} : {rename(typ)})")
    target = rename(target)
    head = " ".join([f"theorem {name}", *binders])
    one_line = f"{head} : {target} := sorry"
    return one_line if len(one_line) <= _PP_WIDTH else f"{head} :\n  {target} := sorry"


def _new_proof_state_slots(response: dict[str, Any]) -> list[tuple[Any, Any]]:
    """(getter, setter) pairs for every proof-state id a response allocates: sorries, tactics
    (allTactics), and the top-level `proofState` of tactic / pickle-proof-state responses."""
    slots: list[tuple[Any, Any]] = []

    def slot(obj: dict[str, Any]) -> tuple[Any, Any]:
        return (lambda: obj["proofState"], lambda v: obj.__setitem__("proofState", v))

    for key in ("sorries", "tactics"):
        for item in response.get(key, []):
            if isinstance(item, dict) and isinstance(item.get("proofState"), int):
                slots.append(slot(item))
    if isinstance(response.get("proofState"), int):
        slots.append(slot(response))
    return slots


def _env_to_json(env: _Env) -> dict[str, Any]:
    return {"decls": {k: sorted(v) for k, v in env.decls.items()}, "user_axioms": sorted(env.user_axioms),
            "types": dict(env.types), "source": env.source, "hidden": list(env.hidden)}


def _env_from_json(data: Mapping[str, Any]) -> _Env:
    return _Env({k: frozenset(v) for k, v in data.get("decls", {}).items()}, frozenset(data.get("user_axioms", [])),
                dict(data.get("types", {})), data.get("source", ""), tuple(data.get("hidden", ())))


def load_fake_lean(config: Mapping[str, Any]) -> FakeLean:
    """Build the engine from the JSON config the fake REPL process reads (see fake_repl.py)."""
    transcripts = None
    folder = config.get("transcripts_dir")
    if folder:
        transcripts = TranscriptIndex.load(folder, config.get("transcript_names"))
    latency = Latency(**config.get("latency", {}))
    kwargs: dict[str, Any] = {}
    if "sorry_warning" in config:
        kwargs["sorry_warning"] = config["sorry_warning"]
    if config.get("lean_version"):
        kwargs["lean_version"] = config["lean_version"]
    return FakeLean(
        rules=[Rule.from_dict(r) for r in config.get("rules", [])],
        transcripts=transcripts,
        latency=latency,
        cwd=config.get("cwd", "."),
        **kwargs,
    )

"""Lean decides: the product's probe, run after a candidate's whole-file check, asks Lean what was
declared, and the audit compares Lean's answers instead of trusting our reading of the text.

The probe (product text, built only from validated declaration names, never from model text):

* `set_option pp.fullNames true in #print axioms N` for the target theorem AND for every other
  theorem/lemma the candidate added (an `example` cannot be named, so the audit refuses examples
  in a final proof: see `audit.static_audit`); full names, so that no axiom prints shortened
  under an `open` (lean/gate/_probes.py `probe_command`);
* the target's elaborated type, printed with everything explicit:

      set_option pp.all true in
      set_option pp.fullNames true in  … (the sub-options below)
      #check @N

  `#check @N` elaborates the term `@N` and logs `e : type` at the `#check` token (leanprover/lean4
  `src/Lean/Elab/BuiltinCommand.lean` @ ee486c8fc9dfb4ea5e44501b93900bfa6b6f1584, `elabCheckCore`:
  only a bare identifier takes the `.signature` path; `@N` is a term). `pp.all` shows implicit
  arguments, instances, universes and full names and turns notation off; each sub-option is set
  again explicitly because an explicitly set sub-option wins over `pp.all` (`getPPFullNames o :=
  o.get pp.fullNames.name (getPPAll o)`, `src/Lean/PrettyPrinter/Delaborator/Options.lean`), so a
  candidate's own `set_option pp.fullNames false` cannot make a different constant print the same.
  Options that only hide detail (`pp.maxSteps`, `pp.deepTerms`, `pp.instances false`) fail closed:
  the candidate's print then differs from the original's.

That print is compared with the same print of the ORIGINAL statement elaborated in a clean
environment (its own check, the original file with the same probe), cached per verifier and
problem. A local notation, instance, macro, `variable` or option that changes what the unchanged
statement text means changes the elaborated type, whatever our lexer saw.

Only messages Lean attaches to the probe's own commands count: on the REPL the probe is a separate
command in the candidate's environment (`check_with_probe`), elsewhere it is appended after a
blank line and a message counts only at its command's line, column 0. A candidate that ran meta
code could still forge messages there: keeping meta code out is the gate's job, and where Lean is
local SafeVerify's kernel replay of the compiled files is the authority (`lean/safeverify.py`).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import weakref
from dataclasses import dataclass, replace
from typing import Any

from lemmaforge.lean import gate
from lemmaforge.lean.gate import NONCE_RE, declarations_command
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Message, ProbingVerifier, Severity, Verifier

# `pp.all` and the sub-options that decide which constant a printed name denotes. All exist in
# every Lean 4 release the product supports (registered in Delaborator/Options.lean since 2022).
TYPE_OPTIONS = (
    ("pp.all", "true"),
    ("pp.fullNames", "true"),
    ("pp.explicit", "true"),
    ("pp.universes", "true"),
    ("pp.notation", "false"),
    ("pp.coercions", "false"),
    ("pp.funBinderTypes", "true"),
    ("pp.proofs", "true"),
)


@dataclass(frozen=True, slots=True)
class Probe:
    """The product's probe commands: (what each asks, its text). A `#print` / `#check` command's
    messages are those at its last line (the token Lean reports at, column 0); the declaration
    listing's (`run_cmd`) at its first line. `nonce` marks every line of the listing's answer."""

    commands: tuple[tuple[tuple[str, str], str], ...]
    nonce: str | None = None

    @classmethod
    def build(cls, target: str, *, others: tuple[str, ...] = (), type_of: bool = True,
              axioms: bool = True, nonce: str | None = None) -> Probe:
        names = (target, *others)
        for name in names:
            if not gate.valid_probe_name(name):
                raise ValueError(f"not a declaration name: {name!r}")
        if nonce is not None and not NONCE_RE.fullmatch(nonce):
            raise ValueError(f"not a probe nonce: {nonce!r}")
        cmds: list[tuple[tuple[str, str], str]] = []
        if axioms:
            cmds.extend((("axioms", n), gate.probe_command(n)) for n in dict.fromkeys(names))
        if type_of:
            prefix = "".join(f"set_option {opt} {value} in\n" for opt, value in TYPE_OPTIONS)
            cmds.append((("type", target), f"{prefix}#check @{target}"))
        if nonce is not None:
            cmds.append((("decls", ""), declarations_command(nonce, tuple(dict.fromkeys(names)))))
        return cls(tuple(cmds), nonce)

    @property
    def text(self) -> str:
        return "\n".join(text for _, text in self.commands) + "\n"

    def answer_lines(self, first_line: int) -> dict[int, tuple[str, str]]:
        """Line (1-based, the probe starting at `first_line`) → the question answered there."""
        out: dict[int, tuple[str, str]] = {}
        line = first_line
        for key, text in self.commands:
            # `run_cmd` logs at its own token (the command's first line); `#print`/`#check`
            # behind `set_option … in` prefixes at the last line.
            out[line if key[0] == "decls" else line + text.count("\n")] = key
            line += text.count("\n") + 1
        return out

    def split(self, messages: list[Message], first_line: int) -> dict[tuple[str, str], list[Message]]:
        """The probe's messages by question: only those at a command's own line and column 0."""
        lines = self.answer_lines(first_line)
        out: dict[tuple[str, str], list[Message]] = {key: [] for key, _ in self.commands}
        for m in messages:
            if m.pos is not None and m.pos.column == 0 and m.pos.line in lines:
                out[lines[m.pos.line]].append(m)
        return out


def with_probe(code: str, probe: Probe) -> str:
    """`code`, a blank line, then the probe: the file a backend without `check_with_probe` checks."""
    return code.rstrip() + "\n\n" + probe.text


def _probe_first_line(code: str) -> int:
    return code.rstrip().count("\n") + 3  # the code's last line, a blank line, then the probe


def _gate_refusal(verifier: gate.GatedVerifier, violations: list[gate.Violation]) -> CheckResult:
    verifier.refused += 1
    return CheckResult(
        status=CheckStatus.ERROR,
        messages=[Message(Severity.ERROR, f"lemmaforge gate: {v}") for v in violations],
        backend=verifier.inner.name,
        raw={"gate": [v.to_json() for v in violations]},
    )


def probes_apart(verifier: Verifier) -> bool:
    """Whether the backend behind `verifier` (and its gate) runs a probe as its own command in the
    checked file's environment (`ProbingVerifier`: the REPL), rather than appended to the file."""
    gated = gate.gate_of(verifier)
    return isinstance(gated.inner if gated is not None else verifier, ProbingVerifier)


async def run_probed(
    verifier: Verifier, code: str, probe: Probe, *, timeout: float | None = None
) -> tuple[CheckResult, dict[tuple[str, str], list[Message]] | None]:
    """Check `code` (through the gate when `verifier` is gated) and run `probe` after it. Returns
    the check (the probe's messages removed) and the probe's answers by question (None: the probe
    did not run: refused, timed out, crashed)."""
    inner = verifier
    gated = gate.gate_of(verifier)
    if gated is not None:
        violations = gated.violations(code)
        if violations:
            return _gate_refusal(gated, violations), None
        if verifier is gated:
            inner = gated.inner
    if probes_apart(verifier):  # the REPL: the probe is its own command in the proof's environment
        if isinstance(verifier, gate.BehindGate):  # a run's budget: charged like any check
            result, messages = await verifier.probed_check(code, probe.text, timeout=timeout)
        else:
            assert isinstance(inner, ProbingVerifier)
            result, messages = await inner.check_with_probe(code, probe.text, timeout=timeout)
        return result, (probe.split(list(messages), 1) if messages is not None else None)
    checked = await inner.check(with_probe(code, probe), timeout=timeout)
    first = _probe_first_line(code)
    answers = probe.split(list(checked.messages), first)
    region = [m for m in checked.messages if m.pos is not None and m.pos.line >= first]
    own_msgs = [m for m in checked.messages if m not in region]
    # The probe's messages are the product's, not the proof's: a copy without them (a verifier
    # that deduplicates hands the same result object to every check of this text).
    result = replace(checked, messages=own_msgs)
    probe_errors = [m for m in region if m.severity is Severity.ERROR]
    if result.status is CheckStatus.ERROR and not result.errors and result.error is None:
        result.status = CheckStatus.INCOMPLETE if result.holes else CheckStatus.VALID
    if result.status in (CheckStatus.TIMEOUT, CheckStatus.CRASHED):
        return result, None
    if probe_errors:  # the probe itself failed (an unknown option on this Lean, a bad name)
        answers[("error", "")] = probe_errors
    return result, answers


def type_print(answers: dict[tuple[str, str], list[Message]] | None, name: str) -> str | None:
    """The elaborated type Lean printed for `#check @name`: exactly one info message there."""
    if answers is None:
        return None
    infos = [m for m in answers.get(("type", name), []) if m.severity is Severity.INFO]
    if len(infos) != 1:
        return None
    return infos[0].data.strip()


# --- `#print axioms` answers --------------------------------------------------------------------

_AXIOMS_RE = re.compile(r"^'(?P<name>.*)' depends on axioms: \[(?P<axioms>.*)\]\s*$", re.DOTALL)
_NO_AXIOMS_RE = re.compile(r"^'(?P<name>.*)' does not depend on any axioms\s*$", re.DOTALL)


def _split_names(text: str) -> list[str]:
    """`a, «b, c», d.e'` → ["a", "«b, c»", "d.e'"]: commas inside «» are part of a name."""
    out: list[str] = []
    cur: list[str] = []
    quoted = False
    for ch in text:
        if ch == "«":
            quoted = True
        elif ch == "»":
            quoted = False
        if ch == "," and not quoted:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [" ".join(n.split()) for n in out if n.strip()]


def name_key(name: str) -> str:
    """Lean prints `«x y».z` where a part needs quoting; compare names without the quotes."""
    return name.strip().replace("«", "").replace("»", "")


def private_key(name: str) -> tuple[str, bool]:
    """(the name as the text layer writes it, whether Lean's name was private). Lean names a
    `private` declaration `_private.<Module>.0.<name>` (src/Lean/Modifiers.lean `mkPrivateName`:
    `Name.mkNum (privateHeader ++ env.mainModule) 0 ++ n`; `isPrivatePrefix`: `_private`, the module's
    string components, then the number 0), the REPL's anonymous module giving `_private.0.<name>`.
    Every answer (the axiom probe, the listing, the whitelist) compares names through this one
    function; where a name must be public (the target theorem), the caller checks the flag."""
    key = name_key(name)
    parts = key.split(".")
    if parts[0] != "_private":
        return key, False
    for i in range(1, len(parts)):
        if parts[i] == "0":
            return ".".join(parts[i + 1 :]), True
        if parts[i].isdigit():
            break
    return key, False


def parse_probe(messages: list[Message] | None, theorem: str, *, private_ok: bool = False) -> list[str] | None:
    """The axiom list of `theorem` from the probe's OWN messages (those Lean attached to the
    product's `#print axioms` command), or None when there is none for exactly that name. With
    `private_ok` (a lemma the candidate added) Lean's private form of the name answers too
    (`_private.<Module>.0.theorem`: `#print axioms` prints the name with `MessageData.ofName`); the
    target theorem must be the public constant of that name."""
    if messages is None:
        return None
    wanted = name_key(theorem)

    def same(printed: str) -> bool:
        key, private = private_key(printed)
        return key == wanted and (private_ok or not private)

    found: list[str] | None = None
    for message in messages:
        if message.severity is not Severity.INFO:
            continue
        data = message.data.strip()
        m = _AXIOMS_RE.match(data)
        if m and same(m.group("name")):
            if found is not None:
                return None  # two answers to one probe: not what Lean does, trust neither
            found = _split_names(m.group("axioms"))
            continue
        m = _NO_AXIOMS_RE.match(data)
        if m and same(m.group("name")):
            if found is not None:
                return None
            found = []
    return found



# --- what Lean says was declared ---------------------------------------------------------------
#
# The listing is a `run_cmd` over the environment the candidate left behind (its template, and the
# lean4 source of every API it calls, are in lean/gate/_probes.py). For each module-local constant it
# says its kind, whether it is unsafe, partial, `@[implemented_by]` or `@[extern]`, whether the
# closure of the target and of the lemmas the candidate added uses it (the constants
# `Lean.CollectAxioms.collect` would visit), and its axioms (`Lean.collectAxioms`); then the new
# instance / macro / elaborator / parser entries and the options in force. `run_cmd` logs at its
# own token (src/Lean/Elab/BuiltinEvalCommand.lean, `elabRunCmd`). Each line starts with the
# nonce; the last says how many lines came before it, so a truncated or partly forged answer is
# malformed, and a malformed or missing answer refuses the candidate.

# Per process: a candidate's nonce is the same in `text_to_check` and in the audit (the check
# started ahead is found by its text), and no model output can predict it.
_NONCE_KEY = secrets.token_bytes(32)

EXTENSIONS = ("instance", "macro", "elab", "parser")


def nonce_for(code: str) -> str:
    """The probe nonce for `code`: keyed by a per-process secret, so the same text gets the same
    nonce within one process and text written before the check cannot contain it."""
    return hmac.new(_NONCE_KEY, code.encode(), hashlib.sha256).hexdigest()[:32]




@dataclass(frozen=True, slots=True)
class Constant:
    name: str
    kind: str  # theorem | def | axiom | opaque | quot | inductive | ctor | rec
    unsafe: bool
    axioms: tuple[str, ...]
    partial: bool = False  # `partial def` (an opaque with `_unsafe_rec`) or DefinitionSafety.partial
    implemented_by: bool = False
    extern: bool = False
    in_closure: bool = False  # the target or a lemma the candidate added depends on it

    @property
    def key(self) -> str:
        """The name as the text layer writes it (a private name's prefix removed)."""
        return private_key(self.name)[0]

    @property
    def private(self) -> bool:
        return private_key(self.name)[1]


@dataclass(frozen=True, slots=True)
class Listing:
    """Lean's answer: the module-local constants, extension entries and options in force."""

    constants: tuple[Constant, ...]
    extensions: dict[str, int]
    options: tuple[tuple[str, str], ...]


_KINDS = frozenset({"theorem", "def", "axiom", "opaque", "quot", "inductive", "ctor", "rec"})
_BOOLS = ("true", "false")


def parse_listing(messages: list[Message] | None, nonce: str) -> Listing | None:
    """Lean's listing from the probe's own messages, reading only lines that start with `nonce`
    (anything else, e.g. what the candidate printed, is ignored). None when there is no complete,
    well-formed answer: exactly one `end` line whose count matches, every line parsed."""
    if messages is None:
        return None
    lines = [ln for m in messages if m.severity is Severity.INFO for ln in m.data.split("\n")
             if ln.startswith(nonce + "\t")]
    if not lines or lines[-1].split("\t")[1:2] != ["end"]:
        return None
    body, end = lines[:-1], lines[-1].split("\t")
    if len(end) != 3 or end[2] != str(len(body)) or any(ln.split("\t")[1:2] == ["end"] for ln in body):
        return None
    consts: list[Constant] = []
    exts: dict[str, int] = {}
    opts: list[tuple[str, str]] = []
    for ln in body:
        f = ln.split("\t")
        if f[1] == "const" and len(f) == 10 and f[2] in _KINDS and all(b in _BOOLS for b in f[3:8]) and f[8]:
            unsafe, partial, impl, extern, closure = (b == "true" for b in f[3:8])
            consts.append(Constant(f[8], f[2], unsafe, tuple(a for a in f[9].split(",") if a), partial, impl,
                                   extern, closure))
        elif f[1] == "ext" and len(f) == 4 and f[2] in EXTENSIONS and f[3].isdigit() and f[2] not in exts:
            exts[f[2]] = int(f[3])
        elif f[1] == "opt" and len(f) == 4 and f[2]:
            opts.append((f[2], f[3]))
        else:
            return None
    if set(exts) != set(EXTENSIONS):
        return None
    return Listing(tuple(consts), exts, tuple(opts))


# --- the original's print, once per verifier and problem ---------------------------------------

_ORIGINAL_TYPES: weakref.WeakKeyDictionary[Any, dict[tuple[str, str], str]] = weakref.WeakKeyDictionary()
_MAX_CACHED = 4096


async def original_type(
    verifier: Any, original: str, name: str, *, timeout: float | None = None
) -> tuple[str | None, str]:
    """(the original statement's elaborated type in a clean environment, why None). Cached per
    verifier and problem: a benchmark's statement is elaborated once, not once per proof."""
    key = (hashlib.sha256(original.encode()).hexdigest(), name)
    try:
        cache = _ORIGINAL_TYPES.setdefault(verifier, {})
    except TypeError:  # an object that cannot be weakly referenced: no cache
        cache = {}
    if key in cache:
        return cache[key], ""
    probe = Probe.build(name, axioms=False)
    result, answers = await run_probed(verifier, original, probe, timeout=timeout)
    if gate.gate_violations(result):
        return None, "the original was refused by the gate"
    if answers is None:
        return None, result.error or f"the original's check did not finish ({result.status.value})"
    printed = type_print(answers, name)
    if printed is None:
        detail = "; ".join(m.format() for m in answers.get(("error", ""), []) + answers.get(("type", name), []))
        return None, f"Lean printed no type for the original '{name}'" + (f": {detail[:200]}" if detail else "")
    if len(cache) >= _MAX_CACHED:
        cache.clear()
    cache[key] = printed
    return printed, ""

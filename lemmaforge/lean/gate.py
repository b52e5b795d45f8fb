"""The whitelist gate: what a candidate proof or a dataset row may contain, decided BEFORE Lean.

Lean elaborating a file runs code: `#eval`, `run_cmd`, `run_tac`, macros, `initialize`, and any
attribute that swaps compiled code (`implemented_by`, `extern`, `csimp`). On a shared Kimina or
REPL host that is a code-execution path, and anything that runs meta code can also forge what
Lean reports. So nothing a model or a dataset wrote reaches a verifier unless this gate passed it.
The gate is a WHITELIST, read from tokens (the Lean lexer), never from regexes on raw text:

* a **candidate proof** may contain the problem's own context unchanged (registered as a
  `Context`), PutnamBench answer slots (`abbrev … := sorry` of the context) filled with a value,
  and beyond that only `theorem` / `lemma` / `example` declarations, `open …` and `set_option` of
  `ALLOWED_OPTIONS` (also as `… in` prefixes, also inside tactic blocks), with attributes of
  `ALLOWED_ATTRIBUTES` and the modifiers `private` / `protected` / `noncomputable`;
* a **dataset header or problem context** may contain imports, `open`, allowed options and plain
  definitions (`def`, `abbrev`, `theorem`, `lemma`, `inductive`, `structure`, plus the scoping
  commands `namespace` / `section` / `end` / `variable` / `universe`); anything else is refused
  unless the user passed `--trust-dataset` (recorded with the run config);
* **everywhere**, even inside proofs and trusted text: no `#`-command (except the read-only
  `#print axioms NAME` many provers end with: only the product's own probe is read), no
  `run_cmd`/`run_tac`/`run_elab`/`run_meta`/`by_elab`, no `unsafe`, no option outside the list;
  no text the lexer cannot vouch for (`syntax.lexer.refusal`: Lean's own lexical error, or a
  reading that depends on the imports or the grammar: every text rule below reads its tokens); no
  name that reaches the host (`HOST_ACCESS`: `IO`, `System`, `ST`, `include_str`, …); only
  literal values in a tactic's `(config := …)` (Lean evaluates them).

Every refusal is a `Violation` with a named reason. `GatedVerifier` applies the gate at the
verifier boundary: `backends.make_verifier` always returns one, so no code path can send text to
Lean without it. The product's own axiom probe is not text from a model: `probe_axioms` builds it
from a validated declaration name.
"""

from __future__ import annotations

import bisect
import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from lemmaforge import sending
from lemmaforge.errors import InputError
from lemmaforge.lean import syntax
from lemmaforge.lean.priority import CheckOrder, LeanIdle
from lemmaforge.lean.syntax.lexer import Token
from lemmaforge.lean.syntax.lexer import refusal as lexer_refusal
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Goal,
    Message,
    QueuedVerifier,
    Severity,
    TacticResult,
    Verifier,
)

# --- what is allowed -----------------------------------------------------------------------------

# Options that only change resources or printing. Everything else (`debug.skipKernelTC`,
# `compiler.*`, `trace.*`, `backward.*`, `autoImplicit`…) is refused.
ALLOWED_OPTIONS = frozenset(
    {"maxHeartbeats", "maxRecDepth", "synthInstance.maxHeartbeats", "synthInstance.maxSize", "maxSynthPendingDepth",
     # Seed-Prover's standard header; runs nothing, and the audit's context check still sees it.
     "tactic.hygienic"}
)
ALLOWED_OPTION_PREFIXES = ("pp.", "linter.")

# Attributes a helper lemma may carry: they register the lemma with a tactic, nothing runs.
ALLOWED_ATTRIBUTES = frozenset(
    {
        "simp", "norm_cast", "push_cast", "field_simps", "ext", "gcongr", "mono", "congr", "refl", "symm",
        "trans", "elab_as_elim", "nolint", "simps", "aesop", "fun_prop", "positivity_ext_lemma",
        "bound", "continuity", "measurability", "zify_simps", "qify_simps", "rify_simps", "mfld_simps",
        "reducible", "semireducible", "irreducible", "local", "scoped", "grind", "induction_eliminator",
        "cases_eliminator", "match_pattern", "inline", "specialize",
    }
)
# Dataset contexts: the same list. `@[instance]` / `@[coe]` would change elaboration like an
# `instance` command, which a dataset needs --trust-dataset for.
_DATASET_ATTRIBUTES = ALLOWED_ATTRIBUTES

# `import` only names installed modules (Lean refuses it after the first command); an import the
# problem does not have is a context change for the audit, not code the candidate wrote.
PROOF_COMMANDS = frozenset({"theorem", "lemma", "example", "open", "set_option", "import"})
DATASET_COMMANDS = frozenset(
    {
        "import", "open", "set_option", "def", "abbrev", "theorem", "lemma", "example", "inductive", "structure",
        "namespace", "section", "end", "variable", "universe",
    }
)
ALLOWED_MODIFIERS = frozenset({"private", "protected", "noncomputable"})

# Words that run code or meta code wherever they appear: refused in every text, trusted or not.
_CODE_RUNNERS = frozenset(
    {
        "run_cmd", "run_tac", "run_elab", "run_meta", "by_elab", "unsafe", "implemented_by", "extern", "csimp",
        "initialize", "builtin_initialize", "elab", "elab_rules", "macro", "macro_rules", "syntax",
        "declare_syntax_cat", "simproc", "dsimproc", "simproc_decl", "dsimproc_decl", "register_option",
        "register_builtin_option", "declare_config_elab", "command_elab", "term_elab", "tactic_elab",
        "suppress_compilation", "unseal", "seal", "export", "extern_lib",
    }
)

# Mathlib / core commands the syntax layer does not split on. Refused wherever they appear in
# untrusted text (they are reserved words once declared, so an honest proof never uses them).
# Why this matters: Lean ends a tactic block at the first token that cannot continue it, so a
# command word the syntax layer does not know, written after a helper lemma's last tactic, is a
# command to Lean and part of that proof to us. E.g. Mathlib's `variable? (h : False)` there adds
# a variable that Lean < 4.10 includes in the next theorem when its proof uses it: the statement
# text is unchanged, its meaning is not, and only a Lean-side statement check would see it.
_EXTRA_COMMAND_WORDS = frozenset(
    {
        "axioms", "coinductive", "prelude", "grind_pattern", "initialize_simps_projections", "compile_inductive",
        "assert_not_imported", "count_heartbeats", "whatsnew", "proof_wanted", "declare_aesop_rule_sets",
        "register_builtin_option", "extend_docs", "register_label_attr", "open_locale", "simproc_decl",
        "dsimproc_decl", "builtin_simproc", "builtin_dsimproc",
    }
)
# Every other reserved word that begins a command in Lean core, Mathlib and the libraries Mathlib
# imports (Batteries, Aesop, Plausible, ImportGraph, ProofWidgets, LeanSearchClient), read from
# their `… : command` syntax declarations and `@[builtin_command_parser]`s (Mathlib of 2026-04,
# checked against its `#help command` list of 2026-08). Left out: Lake's DSL (`package`,
# `require`, `script`, …: keywords only with `import Lake`, which a candidate cannot add), the
# module system's `module`/`public`/`meta`, and test-only helpers. `#…` commands are refused as a
# class. A word spelled with `%` (`compile_def%`) is an identifier and a `%` to the lexer.
_LIBRARY_COMMAND_WORDS = frozenset(
    {
        # Lean core
        "with_weak_namespace", "end_local_scope", "init_quot", "docs_to_verso", "register_tactic_tag",
        "tactic_extension", "recommended_spelling", "register_error_explanation", "deprecated_syntax",
        "deprecated_module", "unlock_limits", "builtin_simproc_decl", "builtin_dsimproc_decl", "cbv_simproc",
        "cbv_simproc_decl", "builtin_cbv_simproc", "builtin_cbv_simproc_decl", "init_grind_norm",
        "register_grind_attr", "grind_annotated", "grind_propagator", "builtin_grind_propagator",
        "register_try?_tactic", "norm_cast_add_elim", "declare_simp_like_tactic", "declare_uint_theorems",
        "declare_bitwise_uint_theorems", "declare_int_theorems", "declare_bitwise_int_theorems",
        "declare_uint_simprocs", "declare_sint_simprocs", "declare_eval_bin", "declare_eval_bin_bitwise",
        "declare_eval_bin_bool_pred", "register_linter_set", "register_sym_simp", "register_sym_dsimp",
        "register_sym_simp_attr", "set_library_suggestions", "show_panel_widgets", "elab_stx_quot",
        "declare_command_config_elab", "declare_core_config_elab", "declare_term_config_elab",
        "def_eval_config_item", "ensure_eval_expr_instance", "ensure_eval_term_expr_instances",
        "ensure_eval_term_instance", "derive_eval_expr_instance_using_meta_eval", "declare_config_elab_legacy",
        "declare_command_config_elab_legacy", "make_elab_simp_config", "make_elab_grind_config", "aux_def",
        "test_extern",
        # Mathlib
        "variables", "variable?", "deprecate", "register_hint", "mk_iff_of_inductive_prop", "recall", "recall?",
        "name_poly_vars", "name_power_vars", "lrat_proof", "initialize_simps_projections?", "sudo",
        "unsuppress_compilation", "insert_to_additive_translation", "to_dual_insert_cast",
        "to_dual_insert_cast_fun", "unset_option", "assert_no_sorry", "guard_min_heartbeats",
        "to_additive_name_hint", "to_dual_name_hint",
        # Aesop
        "add_aesop_rules", "erase_aesop_rules", "declare_aesop_exception", "register_aesop_check_option",
        # Commands of Lean versions after the pinned one (`verifier.lean_version`): outside its
        # whitelist, and a keyword to a newer Lean that would end the proof before them.
        "set_premise_selector", "copy_doc_string",
    }
)
# Command words written with a trailing `%`: an identifier followed by `%` to the lexer.
_PERCENT_COMMAND_WORDS = frozenset(
    {
        "gen_injective_theorems", "simproc_pattern", "builtin_simproc_pattern", "cbv_simproc_pattern",
        "builtin_cbv_simproc_pattern", "reset_grind_attrs", "compile_def", "compile_inductive",
    }
)
# Every command word the syntax layer does not split on: one set, one lookup per identifier.
_UNSPLIT_COMMAND_WORDS = _EXTRA_COMMAND_WORDS | _LIBRARY_COMMAND_WORDS
COMMAND_WORDS = syntax.COMMAND_KEYWORDS | _UNSPLIT_COMMAND_WORDS


# Names that reach the host from elaboration: the file system, processes, the environment, the
# clock, mutable state, or a read of a host file into the term (`include_str "…"`). An honest proof
# of a competition statement names none of them (none occurs in the 438 reference proofs or the
# benchmark statements); a name with one of these components is refused wherever it appears, so
# `native_decide` or a `(config := …)` cannot run `IO` through a Bool either.
HOST_ACCESS = frozenset(
    {
        "IO", "BaseIO", "EIO", "EStateM", "ST", "System", "include_str", "unsafeIO", "unsafeBaseIO", "unsafeEIO",
        "runST", "IOError", "dbgTrace", "dbg_trace", "dbgTraceIfShared", "dbgSleep", "unsafeCast", "ptrAddrUnsafe",
        "evalExpr", "MetaM", "TacticM", "CoreM", "TermElabM", "CommandElabM",
    }
)
# What a tactic's `(config := …)` may hold: Lean EVALUATES that term (`declare_config_elab` runs
# `evalExpr` on it), so it is code. Allowed: a structure instance of literal fields, `.ctor`
# values and `with`; anything else (a function call, a `let`, a `by`) is refused.
_CONFIG_NAMES = frozenset({"config", "cfg"})
_CONFIG_LITERALS = frozenset({"true", "false", "with", "{", "}", "(", ")", ",", ":=", "⟨", "⟩"})


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
# Commands come from the syntax layer (`lean/syntax/commands.py`: found at any column, after `in`,
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
    """`#check @NAME` alone (the audit's type probe, lean/judge.py): elaborating a constant runs
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


# --- the gate at the verifier boundary -----------------------------------------------------------

_PROBE_NAME = re.compile(r"^(?:«[^»\n]+»|[^\s«»()\[\]{},:;`\"#@]+)(?:\.(?:«[^»\n]+»|[^\s.«»()\[\]{},:;`\"#@]+))*$")


def valid_probe_name(name: str) -> bool:
    """A declaration name the probe may print: identifiers and `«…»` parts joined by dots."""
    return bool(_PROBE_NAME.match(name)) and not any(p in COMMAND_WORDS for p in name.split("."))


def _gate_result(violations: Sequence[Violation], backend: str) -> CheckResult:
    messages = [Message(Severity.ERROR, f"lemmaforge gate: {v}") for v in violations]
    return CheckResult(
        status=CheckStatus.ERROR,
        messages=messages,
        backend=backend,
        raw={"gate": [v.to_json() for v in violations]},
    )


def gate_violations(result: CheckResult) -> list[dict[str, Any]]:
    """The gate's refusals recorded in a result (empty when Lean was asked)."""
    return list((result.raw or {}).get("gate", []))


class GatedVerifier:
    """A verifier that gates every text before the backend sees it. Created by
    `backends.make_verifier` around every backend. Problems are registered with `admit`
    (dataset gate, then their context is trusted) or `trust` (a context already vetted)."""

    def __init__(self, inner: Verifier, *, trust_dataset: bool = False) -> None:
        self.inner = inner
        self.trust_dataset = trust_dataset
        self.context = Context()
        self.refused = 0  # texts the gate kept from the backend
        # Lean-side statement identity for the final audit (lean/safeverify.py), where Lean is local.
        self.statement_checker: Any = None

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def supports_proof_states(self) -> bool:
        return self.inner.supports_proof_states

    def __getattr__(self, attr: str) -> Any:
        # Backend-specific extras (pool statistics, ping, position mode…) stay reachable; anything
        # that could send text (`check_with_probe`, private request helpers) does not.
        if attr.startswith("_") or any(word in attr for word in ("check", "send", "run", "tactic", "cmd")):
            raise AttributeError(f"{type(self).__name__} does not expose the backend's {attr!r}")
        return getattr(self.inner, attr)

    def admit(self, problem: str, *, row: str) -> None:
        self.context.update(admit_problem(problem, row=row, trust=self.trust_dataset))

    def trust(self, context: Context) -> None:
        self.context.update(context)

    def violations(self, code: str) -> list[Violation]:
        return check_candidate(code, self.context)

    @property
    def idle(self) -> LeanIdle | None:
        """The backend's "Lean has room" event where its checks queue (`QueuedVerifier`), else None."""
        return self.inner.idle if isinstance(self.inner, QueuedVerifier) else None

    async def check(self, code: str, *, timeout: float | None = None, order: CheckOrder | None = None) -> CheckResult:
        """`order`: the check's place in the backend's queue, where it has one (`QueuedVerifier`)."""
        violations = self.violations(code)
        if violations:
            self.refused += 1
            sending.not_sent()  # refused here: nothing leaves (a run's budget gives its unit back)
            return _gate_result(violations, self.inner.name)
        if order is not None and isinstance(self.inner, QueuedVerifier):
            return await self.inner.check(code, timeout=timeout, order=order)
        return await self.inner.check(code, timeout=timeout)

    async def check_many(
        self, codes: Sequence[str], *, timeout: float | None = None, order: CheckOrder | None = None
    ) -> list[CheckResult]:
        verdicts = [self.violations(c) for c in codes]
        allowed = [c for c, v in zip(codes, verdicts, strict=True) if not v]
        results = iter(await self._check_many(allowed, timeout, order) if allowed else [])
        out: list[CheckResult] = []
        for v in verdicts:
            if v:
                self.refused += 1
                out.append(_gate_result(v, self.inner.name))
            else:
                out.append(next(results))
        return out

    async def _check_many(self, codes: Sequence[str], timeout: float | None, order: CheckOrder | None) -> list[CheckResult]:
        if order is not None and isinstance(self.inner, QueuedVerifier):
            return await self.inner.check_many(codes, timeout=timeout, order=order)
        return await self.inner.check_many(codes, timeout=timeout)

    async def check_probed(
        self, code: str, declaration: str, *, timeout: float | None = None
    ) -> tuple[CheckResult, list[Message] | None]:
        """Check `code` and the product's own `#print axioms declaration` probe. Returns the
        result and the probe's own messages (None: the probe did not run)."""
        violations = self.violations(code)
        if violations:
            self.refused += 1
            sending.not_sent()
            return _gate_result(violations, self.inner.name), None
        if not valid_probe_name(declaration):
            raise ValueError(f"not a declaration name: {declaration!r}")
        return await probe_axioms(self.inner, code, declaration, timeout=timeout)

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        violations = check_tactic(tactic)
        if violations:
            self.refused += 1
            sending.not_sent()
            return TacticResult(
                messages=[Message(Severity.ERROR, f"lemmaforge gate: {v}") for v in violations],
                proof_status="Error: refused by the gate",
                error=None,
            )
        return await self.inner.run_tactic(hole, tactic, timeout=timeout)

    async def close(self) -> None:
        await self.inner.close()


# --- the axiom probe -----------------------------------------------------------------------------


def probe_command(declaration: str) -> str:
    return f"#print axioms {declaration}"


# The product's declaration listing (lean/judge.py documents it). It is product text, built from a
# fixed template and a hex nonce only; a file that ends with it (a check started ahead of the audit
# goes through this gate with the whole probe) is judged without it.
NONCE_RE = re.compile(r"[0-9a-f]{16,64}")
_DECLS_TEMPLATE = r"""run_cmd do
  let lfTag : String := "{nonce}"
  let env ← Lean.getEnv
  let consts := env.constants.foldStage2 (fun (acc : Array (Lean.Name × Lean.ConstantInfo)) n c => acc.push (n, c)) #[]
  let mut out : Array String := #[]
  for (n, c) in consts do
    let kind := match c with
      | .axiomInfo _ => "axiom" | .defnInfo _ => "def" | .thmInfo _ => "theorem" | .opaqueInfo _ => "opaque"
      | .quotInfo _ => "quot" | .inductInfo _ => "inductive" | .ctorInfo _ => "ctor" | .recInfo _ => "rec"
    let axs ← Lean.collectAxioms n
    let axText := String.intercalate "," (axs.toList.map toString)
    out := out.push s!"{{lfTag}}\tconst\t{{kind}}\t{{c.isUnsafe}}\t{{n}}\t{{axText}}"
  out := out.push s!"{{lfTag}}\text\tinstance\t{{(Lean.Meta.instanceExtension.ext.getState env).newEntries.length}}"
  out := out.push s!"{{lfTag}}\text\tmacro\t{{(Lean.Elab.macroAttribute.ext.ext.getState env).newEntries.length}}"
  out := out.push s!"{{lfTag}}\text\telab\t{{(Lean.Elab.Command.commandElabAttribute.ext.ext.getState env).newEntries.length + (Lean.Elab.Term.termElabAttribute.ext.ext.getState env).newEntries.length + (Lean.Elab.Tactic.tacticElabAttribute.ext.ext.getState env).newEntries.length}}"
  out := out.push s!"{{lfTag}}\text\tparser\t{{(Lean.Parser.parserExtension.ext.getState env).newEntries.length}}"
  for (o, v) in (← Lean.getOptions) do
    out := out.push s!"{{lfTag}}\topt\t{{o}}\t{{v}}"
  out := out.push s!"{{lfTag}}\tend\t{{out.size}}"
  Lean.logInfo (String.intercalate "\n" out.toList)"""


def declarations_command(nonce: str) -> str:
    """The `run_cmd` that asks Lean what the file declared (module-local constants, extension
    entries, options in force), every answer line marked with `nonce`."""
    if not NONCE_RE.fullmatch(nonce):
        raise ValueError(f"not a probe nonce: {nonce!r}")
    return _DECLS_TEMPLATE.format(nonce=nonce)


_LISTING_AT_END = re.compile(r'\nrun_cmd do\n  let lfTag : String := "(?P<nonce>[0-9a-f]{16,64})"\n.*\Z', re.DOTALL)


def without_listing(text: str) -> str:
    """`text` without the product's declaration listing at its end (exactly the template, with
    some nonce), else `text` unchanged: any other `run_cmd` stays for the gate to refuse."""
    m = _LISTING_AT_END.search(text)
    if m is None:
        return text
    tail = text[m.start() + 1 :]
    if tail.rstrip("\n") != declarations_command(m.group("nonce")):
        return text
    return text[: m.start() + 1]


def with_probe(code: str, declaration: str) -> str:
    """`code` and the axiom probe on its own line after a blank one: the file `probe_axioms` checks."""
    return code.rstrip() + "\n\n" + probe_command(declaration) + "\n"


async def probe_axioms(
    verifier: Any, code: str, declaration: str, *, timeout: float | None = None
) -> tuple[CheckResult, list[Message] | None]:
    """Run `code` and the axiom probe. A backend with `check_with_probe` (REPL: the probe is a
    separate command in the proof's environment) does it its own way; otherwise the probe is
    appended on its own line and only messages Lean attaches to the probe's position count."""
    own = getattr(verifier, "check_with_probe", None)
    if own is not None:
        return await own(code, probe_command(declaration), timeout=timeout)
    full = with_probe(code, declaration)
    probe_line = code.rstrip().count("\n") + 3  # a blank line, then the probe
    checked = await verifier.check(full, timeout=timeout)
    probe_msgs = [m for m in checked.messages if m.pos is not None and m.pos.line == probe_line and m.pos.column == 0]
    # The probe's messages are the product's, not the proof's: keep them out of the proof's own —
    # in a copy: a verifier that deduplicates hands the same result to every check of this text.
    result = replace(checked, messages=[m for m in checked.messages if m not in probe_msgs])
    if result.status is CheckStatus.ERROR and not result.errors and result.error is None:
        result.status = CheckStatus.INCOMPLETE if result.holes else CheckStatus.VALID
    return result, (probe_msgs if result.status not in (CheckStatus.TIMEOUT, CheckStatus.CRASHED) else None)

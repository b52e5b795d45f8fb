"""Lean's declaration listing (`judge.parse_listing`) judged against what the proof may declare
(step 7 of the audit in `lean/audit.py`): the whitelist built from the texts, and the verdict on
every constant, extension entry and option Lean listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lemmaforge.lean import gate, judge
from lemmaforge.lean import syntax as lean_code
from lemmaforge.lean.audit_report import AuditReport, Reason, Rejection
from lemmaforge.lean.judge import name_key as _name_key
from lemmaforge.lean.verifier import Message

# --- Lean's declaration listing against the whitelist --------------------------------------------

# Components Lean itself appends to a declaration's name for the auxiliary constants it creates
# while elaborating it: abstracted proofs (`_proof_N`, `proof_N`: Lean.Meta.AbstractNestedProofs),
# matchers and their equations (`match_N`, `eq_N`, `splitter`: Lean.Meta.Match), equation lemmas
# (`eq_N`, `eq_def`, `_unfold`, `_sunfold`), `simp`'s auxiliary lemmas (`_auxLemma`, `_simp_N`),
# `native_decide`'s auxiliary definition (`_nativeDecide_N`), compiler stages (`_cstage1/2`),
# `decreasing_by` / structural recursion helpers (`_unary`, `_mutual`, `_binary`).
_AUX_COMPONENT = re.compile(
    r"(?:_proof|proof|match|eq|_auxLemma|_simp|_nativeDecide|_nativeDecide_aux|_unfold|_sunfold|_cstage|eq_def"
    r"|splitter|_unary|_mutual|_binary|_spec|_lambda|_elambda|_closed|_redArg|_boxed|_private)(?:_\d+)?|\d+"
)
_AUX_KINDS = frozenset({"theorem", "def"})
# `run_cmd` / `#eval` compile their own term under these names (Lean.Elab.Term.evalTerm).
_PROBE_OWN = frozenset({"_eval", "_run_cmd", "_runCmd", "_tmp"})
# Options a host may set for every command (never by the candidate): tolerated in the listing.
_HOST_OPTIONS = frozenset({"Elab.async", "internal.cmdlineSnapshots"})
# Context commands after which module-local instance / macro / parser entries are the problem's.
_EXTENDING_WORDS = frozenset({"instance", "deriving", "notation", "infix", "infixl", "infixr", "prefix",
                              "postfix", "macro", "macro_rules", "syntax", "elab", "elab_rules", "attribute"})


def _lean_key(name: str) -> str:
    """A name as Lean printed it, compared like the text layer's: «» dropped, a private name's
    `_private.<module>.0.` prefix removed (`private theorem t` is `t` to the text layer)."""
    key = _name_key(name)
    if key.startswith("_private."):
        parts = key.split(".")
        zero = next((i for i, p in enumerate(parts) if p.isdigit()), None)
        if zero is not None:
            key = ".".join(parts[zero + 1 :])
    return key


@dataclass(frozen=True, slots=True)
class DeclWhitelist:
    """What Lean's listing may contain: the theorems/lemmas the text layer saw in the candidate
    (each must be a theorem to Lean), the problem context's declarations (any kind, with every
    constant Lean derives from them), auxiliary constants of either by rule, and no instance,
    macro, elaborator or parser entry unless the problem's own context adds such things."""

    theorems: frozenset[str]
    context: frozenset[str]
    options: frozenset[str]
    context_extends: bool

    @classmethod
    def of(cls, candidate: str, original: str | None, target: str) -> DeclWhitelist:
        theorems = {_name_key(d.full_name) for d in lean_code.declarations(candidate)
                    if d.kind in ("theorem", "lemma") and d.full_name}
        theorems.add(_name_key(target))
        if original is not None:
            ctx_cmds = gate.problem_context(original)
            ctx_text = original
        else:
            # without an original, only what a dataset row may hold counts as context (never an axiom)
            ctx_cmds = [c for c in gate.problem_context(candidate)
                        if c.keyword in ("def", "abbrev", "inductive", "structure", "set_option")]
            ctx_text = candidate
        context = {_name_key(c.full_name) for c in ctx_cmds if c.full_name}
        context.discard(_name_key(target))
        options = {c.key[1] for c in ctx_cmds if c.keyword == "set_option" and len(c.key) > 1}
        extends = any(t.text in _EXTENDING_WORDS for c in ctx_cmds for t in lean_code.tokens(ctx_text[c.start : c.end]))
        return cls(frozenset(theorems - context), frozenset(context), frozenset(options), extends)

    def owner(self, key: str) -> tuple[str, str] | None:
        """("theorem" | "context", the declaration) that `key` is or belongs to, if any."""
        if key in self.theorems:
            return "theorem", key
        if key in self.context:
            return "context", key
        parts = key.split(".")
        for k in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:k])
            if prefix in self.context:
                return "derived", prefix
        return None

    def is_aux(self, key: str, kind: str) -> bool:
        """Lean's own constant for a whitelisted theorem T: `T.<aux…>` (`_proof_N`, `match_N`, …;
        a theorem or a definition), a `where` / `let rec` helper `T.name` (a theorem or a
        definition: its axioms are judged like any theorem's), or a `…._auxLemma.N` for `simp`."""
        if kind not in _AUX_KINDS:
            return False
        parts = key.split(".")
        if "_auxLemma" in parts and all(_AUX_COMPONENT.fullmatch(p) for p in parts[parts.index("_auxLemma") :]):
            return kind == "theorem"
        return any(".".join(parts[:k]) in self.theorems for k in range(len(parts) - 1, 0, -1))

    def option_ok(self, name: str) -> bool:
        key = _name_key(name)
        return (key in gate.ALLOWED_OPTIONS or key.startswith(gate.ALLOWED_OPTION_PREFIXES) or key in _HOST_OPTIONS
                or key in self.options)


def _judge_listing(
    report: AuditReport, whitelist: DeclWhitelist, answers: dict[tuple[str, str], list[Message]] | None,
    nonce: str, allowed: set[str], sorry_seen: object,
) -> None:
    """Lean decides what was declared: its listing (lean/judge.py) against the whitelist. The text
    layer's view only narrows what is allowed; a declaration it missed is refused by name."""
    listing = judge.parse_listing(answers.get(("decls", "")) if answers is not None else None, nonce)
    if listing is None:
        if report.check is not None and not report.check.errors:
            errs = "; ".join(m.format() for m in (answers or {}).get(("error", ""), []))[:200]
            report.reasons.append(Rejection(Reason.DECLARATIONS_UNKNOWN, "probe gave no answer: Lean's list of what "
                                            "the file declared is missing or malformed" + (f" ({errs})" if errs else "")))
        return
    allowed_keys = {_name_key(a) for a in allowed}
    for const in listing.constants:
        key = _lean_key(const.name)
        if key.split(".")[0] in _PROBE_OWN and const.kind == "def" and not const.unsafe:
            continue
        if const.unsafe:
            report.reasons.append(Rejection(Reason.BANNED_MODIFIER, f"Lean lists an unsafe {const.kind} '{const.name}'"))
            continue
        owner = whitelist.owner(key)
        if owner is not None and owner[0] == "context":
            continue  # the problem's own declaration
        if owner is not None and owner[0] == "derived":
            if const.kind in ("axiom", "opaque"):  # Lean derives no axiom from a declaration
                report.reasons.append(Rejection(Reason.UNDECLARED, f"Lean lists {const.kind} '{const.name}' under "
                                                f"the problem's '{owner[1]}'"))
            continue  # constructors, recursors, equation lemmas, projections of the problem's own
        if owner is not None:
            if const.kind != "theorem":
                report.reasons.append(Rejection(Reason.UNDECLARED, f"Lean declared '{const.name}' as {const.kind}, "
                                                "not a theorem"))
                continue
        elif not whitelist.is_aux(key, const.kind):
            report.reasons.append(Rejection(Reason.UNDECLARED, f"Lean lists {const.kind} '{const.name}', which the "
                                            "proof text does not declare as a theorem or lemma"))
            continue
        if "sorryAx" in const.axioms and not sorry_seen:
            report.reasons.append(Rejection(Reason.SORRY, f"'{const.name}' depends on sorryAx"))
        for ax in const.axioms:
            if ax != "sorryAx" and _name_key(ax) not in allowed_keys:
                report.reasons.append(Rejection(Reason.FORBIDDEN_AXIOM, f"'{const.name}' depends on axiom '{ax}'"))
    if not whitelist.context_extends:
        for ext, count in listing.extensions.items():
            if count:
                report.reasons.append(Rejection(Reason.UNDECLARED, f"Lean lists {count} new {ext} entr"
                                                + ("y" if count == 1 else "ies") + " the proof may not add"))
    for opt, value in listing.options:
        if not whitelist.option_ok(opt):
            report.reasons.append(Rejection(Reason.BANNED_OPTION, f"option '{opt}' is {value} at the end of the file "
                                            "(Lean's listing)"))

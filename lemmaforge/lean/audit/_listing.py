"""Lean's declaration listing (`judge.parse_listing`) judged against what the proof may declare
(step 7 of the audit in `lean/audit/`): the whitelist built from the texts, and the verdict on
every constant, extension entry and option Lean listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lemmaforge.lean import gate
from lemmaforge.lean import syntax as lean_code
from lemmaforge.lean.audit import _judge as judge
from lemmaforge.lean.audit._judge import name_key as _name_key
from lemmaforge.lean.audit._report import AuditReport, Reason, Rejection
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
    """A name as Lean printed it, compared like the text layer's (`judge.private_key`): «» dropped,
    a private name's `_private.<module>.0.` prefix removed (`private theorem t` is `t` to the text
    layer)."""
    return judge.private_key(name)[0]


def looks_like_old_codegen_name(name: str) -> bool:
    """Lean's own test for the helpers the old code generator (Lean < 4.22, before lean4#8577 made
    the new one the default) adds as UNSAFE definitions beside every compiled definition:
    leanprover/lean4 src/Lean/Environment.lean `looksLikeOldCodegenName` (the last string component
    starts with `_cstage`, `_spec_` or `_elambda`; C++ `register_stage1_decl` adds `X._cstage1`,
    `X._cstage2` with `definition_safety::unsafe`). `Environment.replay` and lean4checker skip
    them for that reason; so does the judge, outside what the theorem depends on."""
    last = name.rsplit(".", 1)[-1]
    return last.startswith(("_cstage", "_spec_", "_elambda"))


# A definition Lean makes for a matcher on demand, under any prefix: `split` over an imported
# `f.match_1` adds its splitter `_private.<Module>.0.f.match_1.splitter` (a compiled definition,
# so that `split` may be used in code: lean4#3815, v4.8.0; src/Lean/Meta/Match/MatchEqs.lean
# `getEquationsForImpl`: `mkPrivateName env matchDeclName ++ `splitter`).
_LEAN_MADE_DEF = re.compile(r"(?:^|.*\.)match_\d+\.splitter")
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
    # `instance : C T := …` in the problem's context: Lean names it itself (`instCT`, src/Lean/Elab/
    # DeclNameGen.lean, lean4#3089, v4.8.0), a name the text does not give; up to this many
    # module-local definitions named `inst…` are taken for those instances
    anonymous_instances: int = 0

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
        anonymous = sum(1 for c in ctx_cmds if c.keyword == "instance" and not c.full_name)
        return cls(frozenset(theorems - context), frozenset(context), frozenset(options), extends, anonymous)

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
    """Lean decides what was declared: its listing (lean/audit/_judge.py) against the whitelist. The text
    layer's view only narrows what is allowed; a declaration it missed is refused by name.

    What the theorem depends on (the closure of the target and of every lemma the candidate
    added, as `Lean.CollectAxioms.collect` walks it) may hold nothing unsafe, partial,
    `@[implemented_by]` or `@[extern]`, and only allowed axioms. Outside that closure a compiler
    artefact does not matter; a theorem is fine whatever its name (Lean's equation lemmas
    `f.eq_1`, `f.eq_def`, older `f._eq_1` / `f._unfold`, `f.induct`, matcher equations), judged
    by its axioms; anything else keeps the whitelist."""
    listing = judge.parse_listing(answers.get(("decls", "")) if answers is not None else None, nonce)
    if listing is None:
        if report.check is not None and not report.check.errors:
            errs = "; ".join(m.format() for m in (answers or {}).get(("error", ""), []))[:200]
            report.reasons.append(Rejection(Reason.DECLARATIONS_UNKNOWN, "probe gave no answer: Lean's list of what "
                                            "the file declared is missing or malformed" + (f" ({errs})" if errs else "")))
        return
    allowed_keys = {_name_key(a) for a in allowed}
    instances = [whitelist.anonymous_instances]  # Lean-named context instances still to be met
    for const in listing.constants:
        if not _judge_constant(report, whitelist, const, instances):
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


def _judge_constant(report: AuditReport, whitelist: DeclWhitelist, const: judge.Constant, instances: list[int]) -> bool:
    """Refusals for one constant of Lean's listing; True when its axioms are still to be judged."""
    key = const.key
    if const.in_closure:
        refused = _closure_refusals(const)
        report.reasons.extend(refused)
        if refused:
            return False
    elif key.split(".")[0] in _PROBE_OWN and const.kind == "def":
        return False  # the probe's own `_eval` (and, below 4.22, its `_cstage` helpers)
    elif const.unsafe:
        if looks_like_old_codegen_name(const.name):
            return False  # a compiler artefact the theorem does not depend on
        owner = whitelist.owner(key)
        if owner is not None and owner[0] in ("context", "derived"):
            return False  # e.g. `f._unsafe_rec` of the problem's own recursive `f`, compiled code only
        report.reasons.append(Rejection(Reason.BANNED_MODIFIER, f"Lean lists an unsafe {const.kind} '{const.name}'"))
        return False
    owner = whitelist.owner(key)
    if owner is not None and owner[0] == "context":
        return False  # the problem's own declaration
    if owner is not None and owner[0] == "derived":
        if const.kind in ("axiom", "opaque"):  # Lean derives no axiom from a declaration
            report.reasons.append(Rejection(Reason.UNDECLARED, f"Lean lists {const.kind} '{const.name}' under "
                                            f"the problem's '{owner[1]}'"))
            return False
        return False  # constructors, recursors, equation lemmas, projections of the problem's own
    if owner is not None:
        if const.kind != "theorem":
            report.reasons.append(Rejection(Reason.UNDECLARED, f"Lean declared '{const.name}' as {const.kind}, "
                                            "not a theorem"))
            return False
        return True
    if const.kind == "theorem" or whitelist.is_aux(key, const.kind):
        return True  # a theorem adds no computation and changes no meaning: judged by its axioms
    if const.kind == "def" and _LEAN_MADE_DEF.fullmatch(key):
        return True
    if const.kind == "def" and key.rsplit(".", 1)[-1].startswith("inst") and instances[0] > 0:
        instances[0] -= 1
        return False  # the problem's own anonymous instance, under the name Lean gave it
    report.reasons.append(Rejection(Reason.UNDECLARED, f"Lean lists {const.kind} '{const.name}', which the proof "
                                    "text does not declare as a theorem or lemma"))
    return False


def _closure_refusals(const: judge.Constant) -> list[Rejection]:
    """What the theorem may not depend on: code the kernel does not check (`unsafe`), a definition
    whose equations Lean never proved (`partial`), or one whose compiled code is not its value
    (`@[implemented_by]`, `@[extern]`: `native_decide` would trust it)."""
    out: list[Rejection] = []
    what = f"{const.kind} '{const.name}', which the theorem depends on"
    if const.unsafe:
        out.append(Rejection(Reason.BANNED_MODIFIER, f"Lean lists an unsafe {what}"))
    if const.partial:
        out.append(Rejection(Reason.BANNED_MODIFIER, f"Lean lists a partial {what}"))
    if const.implemented_by:
        out.append(Rejection(Reason.BANNED_ATTRIBUTE, f"Lean lists an @[implemented_by] {what}"))
    if const.extern:
        out.append(Rejection(Reason.BANNED_ATTRIBUTE, f"Lean lists an @[extern] {what}"))
    return out

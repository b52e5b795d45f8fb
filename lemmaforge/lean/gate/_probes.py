"""The product's own probe texts, which the gate lets through because the product built them:
the axiom probe (`#print axioms NAME`, from a validated declaration name) and how it is run
(`probe_axioms`), and the declaration listing (`run_cmd` from a fixed template and a hex nonce;
lean/audit/_judge.py documents it), with the way a file ending in it is judged without it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from lemmaforge.lean.gate._whitelist import COMMAND_WORDS
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Message, ProbingVerifier, Verifier

_PROBE_NAME = re.compile(r"^(?:«[^»\n]+»|[^\s«»()\[\]{},:;`\"#@]+)(?:\.(?:«[^»\n]+»|[^\s.«»()\[\]{},:;`\"#@]+))*$")


def valid_probe_name(name: str) -> bool:
    """A declaration name the probe may print: identifiers and `«…»` parts joined by dots."""
    return bool(_PROBE_NAME.match(name)) and not any(p in COMMAND_WORDS for p in name.split("."))


# --- the axiom probe -----------------------------------------------------------------------------

# `#print axioms` prints the theorem's own name with `MessageData.ofName` (always the full name,
# a private one as `_private.<Module>.0.<name>`), but the axiom list in some releases with
# `MessageData.ofConstName` (leanprover/lean4 src/Lean/Elab/Print.lean `printAxiomsOf`: `axioms.qsort
# Name.lt |>.map MessageData.ofConstName` in lean4 master, `{axioms.qsort Name.lt |>.toList}`, i.e.
# `ofName`, in the module-system release read at 02637a033e9d4f8f99001e01925625452fbb77c4 and in
# the older ones). `ofConstName` honours `pp.fullNames` (src/Lean/Message.lean: "pretty prints using
# the current user setting for `pp.fullNames`"), whose default is false: under `open Classical`
# `Classical.choice` prints as `choice`. Setting the option for the probe alone makes every release
# print full names, so an axiom name can never shorten into another one.
PROBE_PREFIX = "set_option pp.fullNames true in\n"


def probe_command(declaration: str) -> str:
    """The axiom probe for `declaration`: `#print axioms` with full names (Lean reports its answer
    at the `#print` token, the command's last line)."""
    return f"{PROBE_PREFIX}#print axioms {declaration}"


# The product's declaration listing (lean/audit/_judge.py documents it). It is product text, built from a
# fixed template, a hex nonce and the validated names of the declarations whose dependencies it
# walks (`lfRoots`); a file that ends with it (a check started ahead of the audit goes through this
# gate with the whole probe) is judged without it.
#
# Every Lean API it calls, and where it is defined (leanprover/lean4; each exists, with the form
# used here, from v4.9 to master; read at the commits in docs/soundness.md, "Lean behaviour →
# lean4 source"):
# * `Lean.Environment.constants`, `ConstMap.foldStage2` / `SMap.foldStage2` (src/Lean/Environment.lean,
#   src/Lean/Data/SMap.lean): the constants added after the imports, i.e. by this file (on the REPL
#   by every command since the header);
# * the `ConstantInfo` constructors, `ConstantInfo.isUnsafe`, `ConstantInfo.type`,
#   `DefinitionVal.safety` / `Lean.DefinitionSafety.partial` (src/Lean/Declaration.lean);
#   `ConstantInfo.isPartial` is not used: it is missing from older releases;
# * `Lean.Expr.getUsedConstants` (src/Lean/Util/FoldConsts.lean): the closure walks each constant
#   exactly as `Lean.CollectAxioms.collect` does (src/Lean/Util/CollectAxioms.lean: type and value
#   of definitions, theorems and opaques, the type of constructors and recursors, type and
#   constructors of inductives, nothing for axioms and `Quot`), starting from the target and every
#   lemma the candidate added (a private one found by `Lean.privateToUserName?`,
#   src/Lean/Modifiers.lean). It follows module-local constants only: an imported constant was
#   compiled before this file existed, so it never mentions one of the file's constants;
# * `Lean.Compiler.getImplementedBy?` (src/Lean/Compiler/ImplementedByAttr.lean), `Lean.isExtern`
#   (src/Lean/Compiler/ExternAttr.lean);
# * `partial def f` is elaborated as an `opaque f` beside an unsafe `f._unsafe_rec`
#   (`Lean.Compiler.mkUnsafeRecName`, src/Lean/Compiler/Old.lean: `Name.mkStr declName
#   "_unsafe_rec"`; doc-gen4 tells a partial definition by the same test), so an opaque with that
#   sibling is reported partial too, as is a definition of `DefinitionSafety.partial`;
# * `Lean.collectAxioms` (src/Lean/Util/CollectAxioms.lean): what `#print axioms` prints, for every
#   constant listed, so the axioms of a lemma our lexer missed are still asked;
# * the module-local entries (`newEntries` of a `ScopedEnvExtension`'s `StateStack`,
#   src/Lean/ScopedEnvExtension.lean) of `Lean.Meta.instanceExtension` (src/Lean/Meta/Instances.lean),
#   `Lean.Elab.macroAttribute` (src/Lean/Elab/Util.lean; a `KeyedDeclsAttribute`, whose `ext` is a
#   ScopedEnvExtension, src/Lean/KeyedDeclsAttribute.lean), the command/term/tactic elaborator
#   attributes, and `Lean.Parser.parserExtension` (src/Lean/Parser/Extension.lean);
# * the options in force (`getOptions`; `Options` has a `ForIn` over `(Name × DataValue)`,
#   src/Lean/Data/Options.lean).
NONCE_RE = re.compile(r"[0-9a-f]{16,64}")
_DECLS_TEMPLATE = r"""run_cmd do
  let lfTag : String := "{nonce}"
  let lfRoots : List Lean.Name := [{roots}]
  let env ← Lean.getEnv
  let consts := env.constants.foldStage2 (fun (acc : Array (Lean.Name × Lean.ConstantInfo)) n c => acc.push (n, c)) #[]
  let mut lfLocal : Lean.NameSet := {{}}
  let mut lfTodo : List Lean.Name := []
  for (n, _) in consts do
    lfLocal := lfLocal.insert n
    if lfRoots.contains ((Lean.privateToUserName? n).getD n) then
      lfTodo := n :: lfTodo
  let mut lfSeen : Lean.NameSet := {{}}
  while !lfTodo.isEmpty do
    match lfTodo with
    | [] => pure ()
    | n :: rest =>
      lfTodo := rest
      unless lfSeen.contains n do
        lfSeen := lfSeen.insert n
        let lfUsed : Array Lean.Name := match env.find? n with
          | some (.defnInfo v) => v.type.getUsedConstants ++ v.value.getUsedConstants
          | some (.thmInfo v) => v.type.getUsedConstants ++ v.value.getUsedConstants
          | some (.opaqueInfo v) => v.type.getUsedConstants ++ v.value.getUsedConstants
          | some (.inductInfo v) => v.type.getUsedConstants ++ v.ctors.toArray
          | some (.ctorInfo v) => v.type.getUsedConstants
          | some (.recInfo v) => v.type.getUsedConstants
          | _ => #[]
        for u in lfUsed do
          if lfLocal.contains u && !lfSeen.contains u then
            lfTodo := u :: lfTodo
  let mut out : Array String := #[]
  for (n, c) in consts do
    let kind := match c with
      | .axiomInfo _ => "axiom" | .defnInfo _ => "def" | .thmInfo _ => "theorem" | .opaqueInfo _ => "opaque"
      | .quotInfo _ => "quot" | .inductInfo _ => "inductive" | .ctorInfo _ => "ctor" | .recInfo _ => "rec"
    let lfPartial : Bool := match c with
      | .defnInfo v => (match v.safety with | Lean.DefinitionSafety.partial => true | _ => false)
      | .opaqueInfo _ => env.contains (Lean.Name.mkStr n "_unsafe_rec")
      | _ => false
    let lfImpl : Bool := (Lean.Compiler.getImplementedBy? env n).isSome
    let lfExtern : Bool := Lean.isExtern env n
    let axs ← Lean.collectAxioms n
    let axText := String.intercalate "," (axs.toList.map toString)
    out := out.push s!"{{lfTag}}\tconst\t{{kind}}\t{{c.isUnsafe}}\t{{lfPartial}}\t{{lfImpl}}\t{{lfExtern}}\t{{lfSeen.contains n}}\t{{n}}\t{{axText}}"
  out := out.push s!"{{lfTag}}\text\tinstance\t{{(Lean.Meta.instanceExtension.ext.getState env).newEntries.length}}"
  out := out.push s!"{{lfTag}}\text\tmacro\t{{(Lean.Elab.macroAttribute.ext.ext.getState env).newEntries.length}}"
  out := out.push s!"{{lfTag}}\text\telab\t{{(Lean.Elab.Command.commandElabAttribute.ext.ext.getState env).newEntries.length + (Lean.Elab.Term.termElabAttribute.ext.ext.getState env).newEntries.length + (Lean.Elab.Tactic.tacticElabAttribute.ext.ext.getState env).newEntries.length}}"
  out := out.push s!"{{lfTag}}\text\tparser\t{{(Lean.Parser.parserExtension.ext.getState env).newEntries.length}}"
  for (o, v) in (← Lean.getOptions) do
    out := out.push s!"{{lfTag}}\topt\t{{o}}\t{{v}}"
  out := out.push s!"{{lfTag}}\tend\t{{out.size}}"
  Lean.logInfo (String.intercalate "\n" out.toList)"""


def _roots_text(roots: tuple[str, ...]) -> str:
    return ", ".join(f"`{name}" for name in roots)


def declarations_command(nonce: str, roots: tuple[str, ...] | list[str] = ()) -> str:
    """The `run_cmd` that asks Lean what the file declared (module-local constants, with whether
    the closure of `roots` (the target and the lemmas the candidate added) uses each; extension
    entries; options in force), every answer line marked with `nonce`."""
    if not NONCE_RE.fullmatch(nonce):
        raise ValueError(f"not a probe nonce: {nonce!r}")
    for name in roots:
        if not valid_probe_name(name):
            raise ValueError(f"not a declaration name: {name!r}")
    return _DECLS_TEMPLATE.format(nonce=nonce, roots=_roots_text(tuple(roots)))


_LISTING_AT_END = re.compile(
    r'\nrun_cmd do\n  let lfTag : String := "(?P<nonce>[0-9a-f]{16,64})"\n'
    r"  let lfRoots : List Lean\.Name := \[(?P<roots>[^\n]*)\]\n.*\Z",
    re.DOTALL,
)


def _roots_of(text: str) -> tuple[str, ...] | None:
    """The names of a `lfRoots` list as `_roots_text` writes them (None: not that form). A name
    holds no backtick (`valid_probe_name`), so a comma, a space and a backtick separate them."""
    if not text:
        return ()
    if not text.startswith("`"):
        return None
    names = tuple(text[1:].split(", `"))
    return names if all(valid_probe_name(n) for n in names) else None


def without_listing(text: str) -> str:
    """`text` without the product's declaration listing at its end (exactly the template, with
    some nonce and valid root names), else `text` unchanged: any other `run_cmd` stays for the
    gate to refuse."""
    m = _LISTING_AT_END.search(text)
    if m is None:
        return text
    roots = _roots_of(m.group("roots"))
    if roots is None:
        return text
    tail = text[m.start() + 1 :]
    if tail.rstrip("\n") != declarations_command(m.group("nonce"), roots):
        return text
    return text[: m.start() + 1]


def with_probe(code: str, declaration: str) -> str:
    """`code` and the axiom probe on its own line after a blank one: the file `probe_axioms` checks."""
    return code.rstrip() + "\n\n" + probe_command(declaration) + "\n"


async def probe_axioms(
    verifier: Verifier, code: str, declaration: str, *, timeout: float | None = None
) -> tuple[CheckResult, list[Message] | None]:
    """Run `code` and the axiom probe. A backend with `check_with_probe` (REPL: the probe is a
    separate command in the proof's environment) does it its own way; otherwise the probe is
    appended on its own line and only messages Lean attaches to the probe's position count."""
    if isinstance(verifier, ProbingVerifier):
        return await verifier.check_with_probe(code, probe_command(declaration), timeout=timeout)
    full = with_probe(code, declaration)
    # a blank line, then the probe; Lean answers at its `#print`, the command's last line
    probe_line = code.rstrip().count("\n") + 3 + probe_command(declaration).count("\n")
    checked = await verifier.check(full, timeout=timeout)
    probe_msgs = [m for m in checked.messages if m.pos is not None and m.pos.line == probe_line and m.pos.column == 0]
    # The probe's messages are the product's, not the proof's: keep them out of the proof's own —
    # in a copy: a verifier that deduplicates hands the same result to every check of this text.
    result = replace(checked, messages=[m for m in checked.messages if m not in probe_msgs])
    if result.status is CheckStatus.ERROR and not result.errors and result.error is None:
        result.status = CheckStatus.INCOMPLETE if result.holes else CheckStatus.VALID
    return result, (probe_msgs if result.status not in (CheckStatus.TIMEOUT, CheckStatus.CRASHED) else None)

"""The product's own probe texts, which the gate lets through because the product built them:
the axiom probe (`#print axioms NAME`, from a validated declaration name) and how it is run
(`probe_axioms`), and the declaration listing (`run_cmd` from a fixed template and a hex nonce;
lean/judge.py documents it), with the way a file ending in it is judged without it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from lemmaforge.lean.gate_whitelist import COMMAND_WORDS
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Message, ProbingVerifier, Verifier

_PROBE_NAME = re.compile(r"^(?:«[^»\n]+»|[^\s«»()\[\]{},:;`\"#@]+)(?:\.(?:«[^»\n]+»|[^\s.«»()\[\]{},:;`\"#@]+))*$")


def valid_probe_name(name: str) -> bool:
    """A declaration name the probe may print: identifiers and `«…»` parts joined by dots."""
    return bool(_PROBE_NAME.match(name)) and not any(p in COMMAND_WORDS for p in name.split("."))


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
    verifier: Verifier, code: str, declaration: str, *, timeout: float | None = None
) -> tuple[CheckResult, list[Message] | None]:
    """Run `code` and the axiom probe. A backend with `check_with_probe` (REPL: the probe is a
    separate command in the proof's environment) does it its own way; otherwise the probe is
    appended on its own line and only messages Lean attaches to the probe's position count."""
    if isinstance(verifier, ProbingVerifier):
        return await verifier.check_with_probe(code, probe_command(declaration), timeout=timeout)
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

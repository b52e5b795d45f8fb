"""Soundness audit of a finished proof.

A proof counts only when ALL of these hold:

1. the whitelist gate (lean/gate/) passes it: beyond the problem's own context only
   theorems/lemmas/examples, `open` and resource options — decided on tokens, BEFORE Lean, and a
   refused text is never sent (it could run code on the Lean host);
2. the candidate's theorem WITH THE ORIGINAL'S NAME (never the last one by position) carries the
   original's exact signature tokens then `:=` (`syntax.statement_match`: the original ends in
   `:= sorry`, so nothing about the span is guessed; spellings Lean reads alike tolerated), and
   nothing before it that the statement depends on was changed (PutnamBench answer slots may be
   filled; the header — imports, `open`s, resource options — may differ, step 6 decides:
   `context_changes`); no `example` (it has no name to probe);
3. no `sorry` / `admit` / `sorryAx` anywhere in the file (helper lemmas included, whatever the
   native_decide policy; the original's own context sorries excepted) and Lean reports no hole;
4. a whole-file check has no error;
5. the product's own `#print axioms` probe (under `pp.fullNames`, so no axiom name shortens under
   an `open`) lists only whitelisted axioms (default `propext`,
   `Classical.choice`, `Quot.sound`; `Lean.ofReduceBool` / `Lean.trustCompiler` from
   `native_decide` only when allowed; axioms the original declares). Only the messages Lean
   attaches to the probe itself count (`judge.run_probed`; on the REPL backend the probe is a
   separate command in the proof's environment), for exactly the theorem's full, public name
   (a lemma the candidate added may answer under its private name). Matching
   "declaration uses sorry" strings is not enough (DeepSeek-Prover-V2's `apply?` bug on Lean 4.9
   emitted no such warning): the kernel-level axiom list is the authority;
6. Lean decides (`lean/audit/_judge.py`): the same probe asks `#print axioms` of every other lemma the
   candidate added, and prints the theorem's elaborated type under `pp.all` (`#check @T`); it
   must equal the original's print, elaborated in a clean environment (cached per problem);
7. Lean lists what the file declared (`judge.parse_listing`: module-local constants with kind,
   axioms, unsafe / partial / implemented_by / extern, and whether the theorem's closure uses
   them; new instance/macro/elaborator/parser entries, options in force, every line marked with
   the check's nonce): nothing unsafe, partial, implemented_by or extern in the closure
   (`banned_modifier`, `banned_attribute`), compiler artefacts outside it ignored, theorems judged
   by their axioms whatever their names, anything else outside the whitelist (`DeclWhitelist`)
   refused by name (`lean_declared`, `banned_option`, `banned_modifier`), a missing or malformed
   answer too (`declarations_unknown`);
8. where the verifier has Lean locally, SafeVerify (`lean/safeverify.py`) runs by default where it
   is built (kernel replay, same constants and types); when it is not installed the report says so.

Each rejection names its reason; the overall status is one of `proved`, `incomplete`, `error`,
`rejected`, `timeout`.

Public names: `audit` (the whole audit of a finished proof, Lean asked through the verifier) →
`AuditReport` (`AuditStatus`, a list of `Rejection`s each with its `Reason`); `static_audit` and
`banned_constructs` / `sorry_tokens` (the text checks alone: what a training reward or a cheap
first filter asks); `text_to_check` (the exact text the audit would send, so that a check started
ahead of the audit is the audit's own).

Private parts: `_audit.py` (the run), `_report.py` (the report, its reasons and how they rank),
`_judge.py` (the product's probe and Lean's answers to it), `_listing.py` (step 7: Lean's
declaration listing against the whitelist). `selftest/` calibrates the judge on the user's Lean
(`doctor --selftest`). The audit reads the gate (lean/gate/), never the reverse; Lean's side of the
statement identity (step 8) reaches it as the gate's `StatementChecker` (lean/verifier.py).
"""

from lemmaforge.lean.audit._audit import audit, banned_constructs, sorry_tokens, static_audit, text_to_check
from lemmaforge.lean.audit._report import AuditReport, AuditStatus, Reason, Rejection

__all__ = [
    "AuditReport",
    "AuditStatus",
    "Reason",
    "Rejection",
    "audit",
    "banned_constructs",
    "sorry_tokens",
    "static_audit",
    "text_to_check",
]

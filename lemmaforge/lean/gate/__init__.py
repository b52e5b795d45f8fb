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
  no text the lexer cannot vouch for (`syntax.refusal`: Lean's own lexical error, or a
  reading that depends on the imports or the grammar: every text rule below reads its tokens); no
  name that reaches the host (`HOST_ACCESS`: `IO`, `System`, `ST`, `include_str`, …); only
  literal values in a tactic's `(config := …)` (Lean evaluates them).

Every refusal is a `Violation` with a named reason. `GatedVerifier` applies the gate at the
verifier boundary: `backends.make_verifier` always returns one, so no code path can send text to
Lean without it. The product's own axiom probe is not text from a model: `probe_axioms` builds it
from a validated declaration name.

Public names: the gate at the verifier boundary (`GatedVerifier`, `BehindGate`, `gate_of`,
`gate_violations`); the three gates and what they answer (`check_candidate`, `check_dataset_text`,
`check_tactic`, `admit_problem` → a problem's `Context`, `problem_context`, `split_commands` →
`GateCommand`s, `option_allowed`; a refusal is a `Violation` with a `Reason`, a refused dataset
row `DatasetRejected`); the whitelist itself (`ALLOWED_ATTRIBUTES`, `ALLOWED_MODIFIERS`,
`ALLOWED_OPTIONS`, `ALLOWED_OPTION_PREFIXES`, `COMMAND_WORDS`, `DATASET_COMMANDS`,
`PROOF_COMMANDS`, `HOST_ACCESS`); and the product's own probe texts, the only `#`-commands that
reach Lean (`probe_command`, `probe_axioms`, `with_probe`, `declarations_command`, `NONCE_RE`,
`valid_probe_name`, `without_listing`), which the audit (lean/audit/) builds its questions from.

Private parts: `_whitelist.py` (what is allowed), `_rules.py` (the text rules and the three
gates), `_probes.py` (the product's probe texts), `_verifier.py` (the gate at the verifier
boundary). The gate imports nothing of the audit: the audit reads the gate.
"""

from lemmaforge.lean.gate._probes import (
    NONCE_RE,
    declarations_command,
    probe_axioms,
    probe_command,
    valid_probe_name,
    with_probe,
    without_listing,
)
from lemmaforge.lean.gate._rules import (
    Context,
    DatasetRejected,
    GateCommand,
    Reason,
    Violation,
    admit_problem,
    check_candidate,
    check_dataset_text,
    check_tactic,
    option_allowed,
    problem_context,
    split_commands,
)
from lemmaforge.lean.gate._verifier import BehindGate, GatedVerifier, gate_of, gate_violations
from lemmaforge.lean.gate._whitelist import (
    ALLOWED_ATTRIBUTES,
    ALLOWED_MODIFIERS,
    ALLOWED_OPTION_PREFIXES,
    ALLOWED_OPTIONS,
    COMMAND_WORDS,
    DATASET_COMMANDS,
    HOST_ACCESS,
    PROOF_COMMANDS,
)

__all__ = [
    "ALLOWED_ATTRIBUTES",
    "ALLOWED_MODIFIERS",
    "ALLOWED_OPTIONS",
    "ALLOWED_OPTION_PREFIXES",
    "BehindGate",
    "COMMAND_WORDS",
    "Context",
    "DATASET_COMMANDS",
    "DatasetRejected",
    "GateCommand",
    "GatedVerifier",
    "HOST_ACCESS",
    "NONCE_RE",
    "PROOF_COMMANDS",
    "Reason",
    "Violation",
    "admit_problem",
    "check_candidate",
    "check_dataset_text",
    "check_tactic",
    "declarations_command",
    "gate_of",
    "gate_violations",
    "option_allowed",
    "probe_axioms",
    "probe_command",
    "problem_context",
    "split_commands",
    "valid_probe_name",
    "with_probe",
    "without_listing",
]

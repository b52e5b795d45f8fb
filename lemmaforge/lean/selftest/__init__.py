"""`lemmaforge doctor --selftest`: the judge calibrated against the user's own Lean.

The audit's verdicts rest on what Lean answers (the axiom probe, the type print, the declaration
listing: lean/judge.py, lean/audit_listing.py), and those answers differ from release to release
(docs/soundness.md, "Lean releases"). The selftest runs a calibration file shipped with the
package (`calibration.toml`: honest constructs that must be proved, cheats that must be refused
for a named reason) through the whole audit on the configured verifier, and says plainly where
Lean's answers are not what the judge expects.

- `cases.py`: the calibration file and its cases;
- `run.py`: running them through `lean.audit.audit` (batched: one request, one header
  environment), and what each outcome says about Lean's answers;
- `record.py`: the passing selftests on record per toolchain (a small file in the user's
  lemmaforge directory), and the one line `prove` and `bench` say when there is none.

This module imports nothing, so that `prove` reading the record loads only `record.py`.
"""

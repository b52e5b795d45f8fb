"""`lemmaforge doctor --selftest`: the judge calibrated against the user's own Lean.

The audit's verdicts rest on what Lean answers (the axiom probe, the type print, the declaration
listing: lean/audit/_judge.py, lean/audit/_listing.py), and those answers differ from release to
release (docs/soundness.md, "Lean releases"). The selftest runs a calibration file shipped with the
package (`calibration.toml`: honest constructs that must be proved, cheats that must be refused for
a named reason) through the whole audit on the configured verifier, and says plainly where Lean's
answers are not what the judge expects.

Public names: the calibration (`load_cases` → `Case`s, `calibration_digest`, `CalibrationError`
for a malformed file); the run (`run_cases` → `SelftestResult`); the record of passes per
toolchain (`toolchain_of` → `Toolchain`, `record_selftest`, `passed_record`, `read_records`,
`record_path`) and the one line `prove` and `bench` say when the toolchain has none
(`start_notice`).

Private parts: `_cases.py` (the calibration file and its cases), `_run.py` (the cases through
`lean.audit.audit`, batched: one request, one header environment; what each outcome says about
Lean's answers), `_record.py` (the small record file in the user's lemmaforge directory).
"""

from lemmaforge.lean.audit.selftest._cases import CalibrationError, Case, calibration_digest, load_cases
from lemmaforge.lean.audit.selftest._record import (
    Toolchain,
    passed_record,
    read_records,
    record_path,
    record_selftest,
    start_notice,
    toolchain_of,
)
from lemmaforge.lean.audit.selftest._run import SelftestResult, run_cases

__all__ = [
    "CalibrationError",
    "Case",
    "SelftestResult",
    "Toolchain",
    "calibration_digest",
    "load_cases",
    "passed_record",
    "read_records",
    "record_path",
    "record_selftest",
    "run_cases",
    "start_notice",
    "toolchain_of",
]

"""The local Lean toolchain and project: finding `lake`, `lemmaforge setup` (elan, a Mathlib project
and lean-interact's REPL build, made ready), and the lake backend (`lake env lean --json FILE`, one
fresh Lean process per whole file).

Public names: `LakeVerifier` (the backend; `LakeVerifier.from_config`) and `parse_lean_json` (what
`lean --json` prints, read into REPL-shaped messages); `find_lake` (lake on PATH or where elan puts
it), `prepare` with its `SetupResult` and `SetupError` (what `lemmaforge setup` runs), `path_hint`
(the PATH line to add after a fresh elan install).

Private parts: `_verifier.py` (the backend), `_setup.py` (finding lake and setting up).
"""

from lemmaforge.lean.lake._setup import SetupError, SetupResult, find_lake, path_hint, prepare
from lemmaforge.lean.lake._verifier import LakeVerifier, parse_lean_json

__all__ = ["LakeVerifier", "SetupError", "SetupResult", "find_lake", "parse_lean_json", "path_hint", "prepare"]

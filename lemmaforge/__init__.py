"""lemmaforge: recursive Lean 4 theorem proving by sketch decomposition.

The library's face (lemmaforge/library.py): `prove(code, settings)` runs what `lemmaforge prove`
runs — the same preflight, gate, search and audit — and returns a `ProofResult`; `Settings` and
`load_config` make the settings the CLI reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lemmaforge.versions import __version__

if TYPE_CHECKING:
    from lemmaforge.config import Settings, load_config
    from lemmaforge.library import ProofResult, prove, prove_async

__all__ = ["ProofResult", "Settings", "__version__", "load_config", "prove", "prove_async"]

# Loaded on first use: `import lemmaforge.<anything>` (every CLI command) runs this file, and the
# library's face imports the whole stack (services, store, clients), ~2.5 s of CPU.
_FACE = {"ProofResult": "lemmaforge.library", "prove": "lemmaforge.library", "prove_async": "lemmaforge.library",
         "Settings": "lemmaforge.config", "load_config": "lemmaforge.config"}


def __getattr__(name: str) -> Any:
    module = _FACE.get(name)
    if module is None:
        raise AttributeError(f"module 'lemmaforge' has no attribute '{name}'")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value

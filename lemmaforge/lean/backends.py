"""Choose and build a Verifier from the configuration.

Every verifier this factory builds is wrapped in `gate.GatedVerifier`: no text reaches a backend
unless the whitelist gate passed it, whichever code path (check, prove, bench, rewards, ES, expert
iteration) asks. Backends are imported lazily: a user of the Kimina backend does not pay for lean-interact's
import, and a broken optional backend does not break the others.
"""

from __future__ import annotations

from lemmaforge.config import VerifierConfig
from lemmaforge.lean.gate import GatedVerifier
from lemmaforge.lean.verifier import Verifier, VerifierError

BACKENDS = ("repl", "kimina", "lake")


def make_verifier(cfg: VerifierConfig) -> GatedVerifier:
    """Build the configured backend behind the gate. Raises VerifierError (one line, actionable)
    when unusable."""
    return GatedVerifier(_make_backend(cfg), trust_dataset=cfg.trust_dataset)


def _make_backend(cfg: VerifierConfig) -> Verifier:
    if cfg.backend == "repl":
        from lemmaforge.lean.repl import ReplVerifier

        return ReplVerifier.from_config(cfg)
    if cfg.backend == "kimina":
        from lemmaforge.lean.kimina import KiminaVerifier

        return KiminaVerifier.from_config(cfg)
    if cfg.backend == "lake":
        from lemmaforge.lean.lake import LakeVerifier

        return LakeVerifier.from_config(cfg)
    raise VerifierError(f"unknown verifier backend '{cfg.backend}' (choose one of: {', '.join(BACKENDS)})")

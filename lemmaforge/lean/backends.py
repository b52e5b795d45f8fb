"""Choose and build a Verifier from the configuration.

Every verifier this factory builds is wrapped in `gate.GatedVerifier`: no text reaches a backend
unless the whitelist gate passed it, whichever code path (check, prove, bench, rewards, ES, expert
iteration) asks. Backends are imported lazily: a user of the Kimina backend does not pay for lean-interact's
import, and a broken optional backend does not break the others.
"""

from __future__ import annotations

from pathlib import Path

from lemmaforge.config import VerifierConfig
from lemmaforge.lean.gate import GatedVerifier
from lemmaforge.lean.verifier import StatementChecker, Verifier, VerifierError

BACKENDS = ("repl", "kimina", "lake")


def make_verifier(cfg: VerifierConfig) -> GatedVerifier:
    """Build the configured backend behind the gate. Raises VerifierError (one line, actionable)
    when unusable."""
    # before any process starts; SafeVerify runs by default where Lean is local and it is built
    checker = _statement_checker(cfg) if cfg.safe_verify is not None else _default_statement_checker(cfg)
    gated = GatedVerifier(_make_backend(cfg), trust_dataset=cfg.trust_dataset)
    gated.statement_checker = checker
    return gated


def _statement_checker(cfg: VerifierConfig) -> StatementChecker:
    """SafeVerify for the Lean-side statement check; only where Lean is local."""
    if cfg.backend == "kimina":
        raise VerifierError("verifier.safe_verify needs Lean on this machine: use the repl or lake backend")
    assert cfg.safe_verify is not None
    if cfg.project is None:
        raise VerifierError("verifier.safe_verify needs verifier.project (the Lean project SafeVerify runs in)")
    return _safe_verify(cfg, Path(cfg.safe_verify), Path(cfg.project))


def _default_statement_checker(cfg: VerifierConfig) -> StatementChecker | None:
    """Without `verifier.safe_verify`: SafeVerify where `lemmaforge setup --safeverify` built it for
    the project (REPL, lake), else a stand-in that reports it is not installed. Kimina: none (no
    local Lean; its probe runs inside the checked file)."""
    if cfg.backend == "kimina" or cfg.project is None:
        return None
    from lemmaforge.lean.safeverify import SafeVerifyMissing, default_location

    exe = default_location(cfg.project)
    if not exe.is_file():
        return SafeVerifyMissing(exe)
    return _safe_verify(cfg, exe, Path(cfg.project))


def _safe_verify(cfg: VerifierConfig, exe: Path, project: Path) -> StatementChecker:
    """SafeVerify at `exe`, run in `project`: compiling the candidate runs its code, so with
    `[verifier] sandbox` on (the default) every step runs in the backends' sandbox, with the memory
    limit, whichever way SafeVerify was found."""
    from lemmaforge.lean.safeverify import SafeVerifyChecker

    sandbox = None
    if cfg.sandbox:
        from lemmaforge.lean.lake import find_lake
        from lemmaforge.lean.sandbox import make_sandbox

        paths = [project.expanduser().resolve(), exe.expanduser().resolve().parent, *cfg.sandbox_paths]
        sandbox = make_sandbox(paths, lake=find_lake(cfg.lake_path) or cfg.lake_path, tmp_mb=cfg.sandbox_tmp_mb,
                               max_processes=cfg.sandbox_max_processes, memory_mb=cfg.memory_limit_mb)
    return SafeVerifyChecker(exe, project, lake=cfg.lake_path, timeout=max(cfg.timeout, 300.0),
                             workers=cfg.workers, sandbox=sandbox, memory_limit_mb=cfg.memory_limit_mb)


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

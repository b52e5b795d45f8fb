"""Shared test fixtures: where the real data lives, and switches for tests that need Lean."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
# CI clones the repo with a copy of shared/ beside it; sessions work in /work/main beside /work/shared.
SHARED = Path(os.environ.get("LEMMAFORGE_SHARED", REPO_ROOT.parent / "shared")).resolve()
DATA = SHARED / "data"
BENCHMARKS = DATA / "benchmarks"
REFERENCE_PROOFS = DATA / "reference_proofs" / "deepseek_prover_v2_minif2f"
REPL_TRANSCRIPTS = DATA / "repl_transcripts"


def reference_proof_files() -> list[Path]:
    return sorted(REFERENCE_PROOFS.glob("*/*.lean"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not DATA.is_dir():
        pytest.fail(f"shared data not found at {DATA}; set LEMMAFORGE_SHARED")
    return DATA


LEAN_PROJECT = os.environ.get("LEMMAFORGE_LEAN_PROJECT")
requires_lean = pytest.mark.skipif(
    not LEAN_PROJECT, reason="needs a real Lean + Mathlib project: set LEMMAFORGE_LEAN_PROJECT to its directory"
)


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released): connecting is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])

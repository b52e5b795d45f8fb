"""What `lemmaforge verify` decided, kept in the store (`verified_claims`, revision 0004).

    done = recorded_verdicts(store, keys)        # claim_key -> VerifiedClaim, for the keys stored
    record_verdict(store, VerifiedClaim(...))    # one row, written at once (a killed verify keeps it)

A claim's key is the sha256 of everything that decides its verdict (`claim_key`): the proof's
text, the problem's text and the audit policy. A verify resumed with the same inputs skips the
claims already decided; another proof, problem or policy is another key, checked again.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select

from .errors import store_errors
from .models import VerifiedClaimRow


@dataclass(frozen=True, slots=True)
class VerifiedClaim:
    claim_key: str
    problem: str
    dataset: str | None
    verdict: str  # confirmed | refuted | statement_mismatch
    reason: str | None
    report: dict[str, Any] = field(default_factory=dict)
    verified_at: float = 0.0


def claim_key(proof: str, original: str, policy: str) -> str:
    """The sha256 hex of what decides a verdict (NUL-separated, so no two inputs share a key)."""
    return hashlib.sha256("\0".join((proof, original, policy)).encode("utf-8", "surrogatepass")).hexdigest()


def recorded_verdicts(store: Any, keys: Iterable[str]) -> dict[str, VerifiedClaim]:
    wanted = list(dict.fromkeys(keys))
    out: dict[str, VerifiedClaim] = {}
    with store_errors(f"cannot read verified claims from database {store.url}"), store._guard, \
            store._begin(write=False) as conn:
        for i in range(0, len(wanted), 500):
            rows = conn.execute(select(VerifiedClaimRow).where(VerifiedClaimRow.claim_key.in_(wanted[i:i + 500])))
            for row in rows:
                out[row.claim_key] = _claim(row)
    return out


def _claim(row: Any) -> VerifiedClaim:
    return VerifiedClaim(row.claim_key, row.problem, row.dataset, row.verdict, row.reason, dict(row.report or {}),
                         float(row.verified_at))


def record_verdict(store: Any, claim: VerifiedClaim) -> None:
    """Store one decided claim (a key already stored keeps its first row: the same inputs give the
    same verdict)."""
    values = {"claim_key": claim.claim_key, "problem": claim.problem, "dataset": claim.dataset,
              "verdict": claim.verdict, "reason": claim.reason, "report": claim.report,
              "verified_at": claim.verified_at or time.time()}
    with store_errors(f"cannot record a verified claim in database {store.url}"), store._guard, \
            store._begin(write=True) as conn:
        exists = conn.execute(select(VerifiedClaimRow.claim_key).where(VerifiedClaimRow.claim_key == claim.claim_key))
        if exists.first() is None:
            conn.execute(insert(VerifiedClaimRow).values(**values))

"""Subgoal cache keyed by (header, normalized statement).

A lemma proved once is reused: within a run (two sketches that share a step, the same fact at two
depths) and across runs (the recorder looks the key up in the store). Normalization ignores
whitespace, comments and the lemma's own name, so `lemma sub_3 (x : ℝ) : …` and `theorem
other (x : ℝ) : …` share an entry.
"""

from __future__ import annotations

import functools
import hashlib

from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.records import Recorder


@functools.lru_cache(maxsize=8192)
def normalize_statement(lemma: str) -> str:
    """The lemma's statement key: `lean.syntax.theorem_key` (the one normaliser: Lean's tokens, no
    comments or whitespace, without the name or the proof; `open … in` prefixes kept). Cached: the
    engine asks for the same lemma on lookup and on insertion."""
    return lean_syntax.theorem_key(lemma)


@functools.lru_cache(maxsize=256)
def header_key(header: str) -> str:
    """Headers are long and repeated: key on a hash of their normalized text."""
    norm = lean_syntax.normalize_statement(header)
    return hashlib.sha256(norm.encode("utf-8")).hexdigest()[:32]


class SubgoalCache:
    def __init__(self, recorder: Recorder | None = None) -> None:
        self._local: dict[tuple[str, str], str] = {}
        self._recorder = recorder
        self.hits = 0
        self.misses = 0

    def get(self, header: str, lemma: str) -> str | None:
        key = (header_key(header), normalize_statement(lemma))
        proof = self._local.get(key)
        if proof is None and self._recorder is not None:
            # the store keys on the raw header text (it hashes it itself)
            proof = self._recorder.cached_proof(header, key[1])
            if proof is not None:
                self._local[key] = proof
        if proof is None:
            self.misses += 1
        else:
            self.hits += 1
        return proof

    def put(self, header: str, lemma: str, proof: str) -> tuple[str, str]:
        key = (header_key(header), normalize_statement(lemma))
        self._local.setdefault(key, proof)
        return key

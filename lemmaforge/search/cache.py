"""Subgoal cache keyed by (header hash, normalized statement): its own async read path.

A lemma proved once is reused: within a run (two sketches that share a step, the same fact at two
depths) and across runs (a `ProofLookup`, e.g. the store, is asked on a local miss). Normalization
ignores whitespace, comments and the lemma's own name, so `lemma sub_3 (x : ℝ) : …` and `theorem
other (x : ℝ) : …` share an entry.

One key everywhere: `cache_key(header, lemma)` is `(sha256 of the header text, normalized
statement)`, exactly the store's `(header_hash, normalized_statement)` columns, so a proof found
locally and one found in the store answer the same question. The store lookup is synchronous
SQL: `lookup` runs it in a worker thread so the event loop never waits on the database. The
recorder only writes; this class is the read side.
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import NamedTuple, Protocol

from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.memo import ByteBoundedMemo

# Memoized within a byte budget: the engine asks for the same lemma on lookup and on insertion.
_normalize_memo = ByteBoundedMemo(lean_syntax.theorem_key, max_bytes=8 << 20)


def normalize_statement(lemma: str) -> str:
    """The lemma's statement key: `lean.syntax.theorem_key` (the one normaliser: Lean's tokens, no
    comments or whitespace, without the name or the proof; `open … in` prefixes kept)."""
    return _normalize_memo(lemma)


def _header_hash(header: str) -> str:
    return hashlib.sha256(header.encode("utf-8")).hexdigest()


_header_hash_memo = ByteBoundedMemo(_header_hash, max_bytes=4 << 20)


def header_hash(header: str) -> str:
    """sha256 hex of the header text, exactly the store's `header_hash` column (headers are long
    and repeated: hashed once per distinct header)."""
    return _header_hash_memo(header)


def _header_key(header: str) -> str:
    norm = lean_syntax.normalize_statement(header)
    return hashlib.sha256(norm.encode("utf-8")).hexdigest()[:32]


_header_key_memo = ByteBoundedMemo(_header_key, max_bytes=4 << 20)


def header_key(header: str) -> str:
    """A hash of the header's comment- and whitespace-free text: groups headers that differ only
    in layout (training-data deduplication). The cache itself keys on `header_hash`."""
    return _header_key_memo(header)


class CacheKey(NamedTuple):
    header_hash: str
    statement: str  # normalize_statement(lemma)


def cache_key(header: str, lemma: str) -> CacheKey:
    return CacheKey(header_hash(header), normalize_statement(lemma))


class ProofLookup(Protocol):
    """Where proofs of earlier runs are found (the store). Synchronous: called in a worker thread."""

    def cached_proof(self, header: str, normalized_statement: str) -> str | None: ...


class SubgoalCache:
    """The run's (or a bench's) subgoal cache: a local map, then `source` (off the event loop)."""

    def __init__(self, source: ProofLookup | None = None) -> None:
        self._local: dict[CacheKey, str] = {}
        self._source = source
        # Each lemma's key, computed once: a goal asks about its lemma when it starts, between its
        # steps and when it is solved, and a shared memo of keys evicts a big tree's lemmas between
        # those (thousands of other lemmas are keyed meanwhile), so each ask re-lexed the whole
        # lemma, whose hypotheses grow with depth. Keyed by the lemma text, which the proof tree
        # holds anyway; lives as long as this cache (one run, or one `prove`).
        self._keys: dict[tuple[str, str], CacheKey] = {}
        # Goals still working on a statement, told when a proof of it is put (`watch`).
        self._watchers: dict[CacheKey, list[asyncio.Future[str]]] = {}
        self.hits = 0
        self.misses = 0
        self.source_reads = 0  # lookups that reached the store

    async def lookup(self, header: str, lemma: str) -> str | None:
        """The cached proof of `lemma` under `header`, or None; the store is read in a thread."""
        key = self.key(header, lemma)
        proof = self._local.get(key)
        if proof is None and self._source is not None:
            self.source_reads += 1
            proof = await asyncio.to_thread(self._source.cached_proof, header, key.statement)
            if proof is not None:
                self._local.setdefault(key, proof)
        return self._count(proof)

    def get(self, header: str, lemma: str) -> str | None:
        """`lookup` for synchronous callers (reads the store on the calling thread)."""
        key = self.key(header, lemma)
        proof = self._local.get(key)
        if proof is None and self._source is not None:
            self.source_reads += 1
            proof = self._source.cached_proof(header, key.statement)
            if proof is not None:
                self._local.setdefault(key, proof)
        return self._count(proof)

    def solved_meanwhile(self, header: str, lemma: str) -> str | None:
        """A proof of `lemma` put here since it was looked up (local only: the store already
        answered then). Counted as a hit when found; a miss here is not a new miss."""
        proof = self._local.get(self.key(header, lemma))
        if proof is not None:
            self.hits += 1
        return proof

    def put(self, header: str, lemma: str, proof: str) -> CacheKey:
        key = self.key(header, lemma)
        proof = self._local.setdefault(key, proof)
        for waiter in self._watchers.pop(key, ()):
            if not waiter.done():
                waiter.set_result(proof)
        return key

    def watch(self, header: str, lemma: str) -> asyncio.Future[str]:
        """A future that `put` resolves with the first proof of `lemma` put from now on (or at
        once, with the one already here): a goal still working on a statement that another goal
        has just proved takes that proof instead of finishing its own work. Call `unwatch` when
        the goal ends. On the running event loop (a run's cache belongs to its loop)."""
        key = self.key(header, lemma)
        waiter: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        known = self._local.get(key)
        if known is not None:
            waiter.set_result(known)
        else:
            self._watchers.setdefault(key, []).append(waiter)
        return waiter

    def unwatch(self, header: str, lemma: str, waiter: asyncio.Future[str]) -> None:
        key = self.key(header, lemma)
        waiters = self._watchers.get(key)
        if waiters is not None:
            try:
                waiters.remove(waiter)
            except ValueError:
                pass
            if not waiters:
                del self._watchers[key]
        waiter.cancel()

    def learn(self, header: str, lemma: str, statement_key: str | None) -> None:
        """Take `normalize_statement(lemma)` from whoever built the lemma and read it already
        (`BuiltLemma.key`, from the sketch's tokens): the lemma is then never read for its key.
        None: nothing known, `key` reads the lemma when asked."""
        if statement_key is not None:
            self._keys.setdefault((header, lemma), CacheKey(header_hash(header), statement_key))

    def key(self, header: str, lemma: str) -> CacheKey:
        """`cache_key(header, lemma)`, computed once per lemma for the life of this cache."""
        found = self._keys.get((header, lemma))
        if found is None:
            found = self._keys[(header, lemma)] = cache_key(header, lemma)
            # The search fills this lemma's hole with candidates next (`lean_syntax.fill`): its holes
            # are read now, from the reading the key has just made, and kept (they are small) until
            # then. Read at fill time, after a big tree has read thousands of other lemmas, the
            # lemma would be lexed and laid out a second time.
            lean_syntax.holes(lemma)
        return found

    def _count(self, proof: str | None) -> str | None:
        if proof is None:
            self.misses += 1
        else:
            self.hits += 1
        return proof

"""Which waiting Lean check goes first when the verifier is the bottleneck.

Why: a bench runs many searches at once and, when Lean is the busier resource, their checks queue.
Served first-come-first-served, every search is slowed alike, so the hard searches — the ones that
went deep and still have a long chain of dependent steps ahead (sketch → lemma → prover → assembly
at each level, then the whole-file audit) — finish last, in a near-empty system that leaves Lean
workers idle. Serving the checks of the searches that went deepest first keeps those chains moving
at unqueued speed while the shallow searches, which have slack, absorb the waiting: the same work,
a shorter run (the longest-remaining-chain-first rule of makespan scheduling, with depth reached
as the observable proxy for the chain ahead).

Before depth comes speculation: of a race's candidates only one is needed, so the first candidate
of every race goes before the second of any (`speculative`). A sketch's later holes count as
speculation too: the sketch needs them all, and when one fails the work spent on its siblings is
lost, so the k-th hole's work waits behind certain work, like a race's k-th candidate.

The key travels in context variables, set by the search engine (`search_scope` around each search,
`at_depth` on each goal's task, `speculative` on each candidate's task), so that `Verifier.check(code)` keeps its signature; a queue that
orders checks (the Kimina batcher) reads `current()` when a check is submitted. Checks made
outside a search (a statement check, a training reward) get the key of a fresh search.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

Priority = tuple[int, int, int, int]  # smaller is served first

# The order is a preference, not a licence to starve: a check that has waited this long is served
# next whatever its key (a search kept waiting forever would run out its wall-time budget and be
# counted "not proved" for the scheduler's sake). Generous, so that it only bounds the worst case:
# a Mathlib check takes seconds.
MAX_WAIT_SECONDS = 300.0

_run_order = itertools.count()


@dataclass(slots=True)
class SearchProgress:
    """One search's position in the queue order: how deep it has gone, when it started."""

    order: int
    deepest: int = 0


_search: ContextVar[SearchProgress | None] = ContextVar("lemmaforge_search_progress", default=None)
_depth: ContextVar[int] = ContextVar("lemmaforge_goal_depth", default=0)
_rank: ContextVar[int] = ContextVar("lemmaforge_speculation_rank", default=0)
_holes: ContextVar[int] = ContextVar("lemmaforge_hole_path", default=0)  # hole indices from the root


@contextmanager
def search_scope() -> Iterator[SearchProgress]:
    """Within: the current task (and the tasks it creates) work for one new search."""
    progress = SearchProgress(next(_run_order))
    tokens = _search.set(progress), _depth.set(0), _rank.set(0), _holes.set(0)
    try:
        yield progress
    finally:
        _search.reset(tokens[0])
        _depth.reset(tokens[1])
        _rank.reset(tokens[2])
        _holes.reset(tokens[3])


def at_depth(depth: int, hole_index: int = 0) -> None:
    """The current task (a goal's own, created by its parent's) works on a goal at `depth`, the
    `hole_index`-th hole of its sketch; the search has now gone at least that deep."""
    _depth.set(depth)
    _holes.set(_holes.get() + hole_index)
    progress = _search.get()
    if progress is not None and depth > progress.deepest:
        progress.deepest = depth


def speculative(rank: int) -> None:
    """The current task checks the `rank`-th candidate of a race (0: the first). The race needs it
    only if every earlier candidate fails, and its check is wasted if a sibling wins first: so
    certain work (rank 0: sketches, assemblies, the first candidate) goes before speculative work,
    and a waiting speculative check is dropped unsent when its race is won."""
    _rank.set(rank)


def current() -> Priority:
    """The key of a check submitted now: least speculative first (a race's later candidate, a
    sketch's later hole, summed along the path from the root), then deepest search, deepest goal,
    oldest search."""
    progress = _search.get()
    speculation = _rank.get() + _holes.get()
    if progress is None:
        return (speculation, 0, 0, 0)
    return (speculation, -progress.deepest, -_depth.get(), progress.order)


__all__ = ["MAX_WAIT_SECONDS", "Priority", "SearchProgress", "at_depth", "current", "search_scope", "speculative"]

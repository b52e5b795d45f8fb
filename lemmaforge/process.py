"""Settings of the whole process that a long search run wants, applied by the CLI at start.

Garbage collection: a search allocates a great many short-lived containers (asyncio tasks and
futures, records, token lists) while it keeps a large long-lived heap (the byte-bounded memos of
Lean text analysis, the run's proof tree). With CPython's default thresholds (700, 10, 10) the
cyclic collector runs a young-generation pass every 700 net allocations and full passes over that
heap often enough that it took about a quarter of the engine's CPU per goal node (measured with
`scripts/bench_e2e.py --overhead`: 1.46-1.50 ms -> 1.10-1.17 ms at 1k-10k goal nodes with the
thresholds below). Almost nothing a search allocates forms reference cycles — reference counting
frees it — so rarer passes only let the few cycles there are wait longer.
"""

from __future__ import annotations

import gc

GC_THRESHOLDS = (50_000, 20, 20)


def tune_garbage_collector() -> None:
    """Rarer cyclic collections (never more frequent than the process already has them)."""
    gen0, gen1, gen2 = gc.get_threshold()
    if gen0 == 0:
        return  # collection is off: leave it so
    gc.set_threshold(max(gen0, GC_THRESHOLDS[0]), max(gen1, GC_THRESHOLDS[1]), max(gen2, GC_THRESHOLDS[2]))


__all__ = ["GC_THRESHOLDS", "tune_garbage_collector"]

"""When the search's work runs: speculation, as layers around the engine's doors.

The engine (search/engine.py) says what a search does and calls the hooks of a `Schedule`
(search/interfaces.py); whoever wires it picks one (`for_speculation`: services.prove_problem from
`[search] speculation`). "off" runs the plain schedule (search/plain.py) and nothing of this
package; "prefetch" runs `Speculative` (layers.py): model requests and checks started ahead of need
(ahead.py), streamed candidates (feed.py), assemblies started ahead (assembly_ahead.py), checks held
behind earlier siblings and ranked by the search's progress (order.py, which hands lean/ an opaque
order key with each check); "full" (experimental) adds alternative sketches beside each other
(alternatives.py, with ledgers.py keeping what they send before their turn) and the goal watch.
The schedule decides only timing and hands results back: it marks no node and writes no count
(the engine marks, the budget counts). Measurements: docs/performance.md, "Speculation".
"""

from __future__ import annotations

from typing import Literal

from lemmaforge.schedule.layers import Speculative
from lemmaforge.search.interfaces import MakeSchedule, SearchRun
from lemmaforge.search.plain import PlainSchedule

# "full" spends Lean time on alternatives that are mostly never needed (docs/performance.md,
# "Speculation": a sixth of Lean's time, 0.25 below "prefetch" in useful utilisation): opt-in, and
# said so where it is chosen.
EXPERIMENTAL = frozenset({"full"})
FULL_WARNING = ('[search] speculation = "full" is experimental: alternative sketches run beside each '
                'other and most of their Lean time is never used (docs/performance.md, "Speculation")')


def _prefetch(run: SearchRun) -> Speculative:
    return Speculative(run, parallel=False)


def _full(run: SearchRun) -> Speculative:
    return Speculative(run, parallel=True)


def for_speculation(speculation: Literal["off", "prefetch", "full"]) -> MakeSchedule:
    """The schedule a run gets for `[search] speculation` (pass it to `SearchEngine(schedule=…)`)."""
    if speculation == "off":
        return PlainSchedule
    return _full if speculation == "full" else _prefetch


__all__ = ["EXPERIMENTAL", "FULL_WARNING", "Speculative", "for_speculation"]

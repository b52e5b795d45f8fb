"""When the search's work runs: speculation, as layers around the engine's doors.

The engine (search/engine.py) says what a search does and calls the hooks of a `Schedule`
(search/interfaces.py). `[search] speculation = "off"` runs the plain schedule (search/plain.py)
and nothing of this package; "prefetch" runs `Speculative` (layers.py): model requests started
ahead of need (ahead.py), streamed candidates (feed.py), assemblies started ahead
(assembly_ahead.py), checks held behind earlier siblings and ranked by the search's progress
(through lean/priority.py's scoping calls); "full" adds alternative sketches beside each other
(alternatives.py). Measurements: docs/performance.md, "Speculation".
"""

from lemmaforge.schedule.layers import Speculative

__all__ = ["Speculative"]

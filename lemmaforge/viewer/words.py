"""The words a person reads for the store's internal names, in one place: strategies
(`prover_correction` → "prover correction"), run statuses (`not_proved` → "not proved") and stop
reasons. One vocabulary for stop reasons, whichever command prints them (`prove`'s last line,
`runs`, `show`, the HTML pages): a budget that ran out is "<budget key> budget exhausted", naming
the `--budget` key to raise; a search that tried everything its limits allowed is "search
exhausted (no budget ran out)". `--json` keeps the stored values, which scripts match on.
"""

from __future__ import annotations

#: how a strategy reads to a person (records.Strategy)
STRATEGY_WORDS = {
    "cache": "cache",
    "automation": "automation",
    "prover": "prover sample",
    "prover_correction": "prover correction",
    "planner": "sketch",
    "sketch_correction": "corrected sketch",
    "assembly": "assembly",
}

#: how a run's status reads (the values `runs --status` takes stay the stored ones)
STATUS_WORDS = {"not_proved": "not proved"}

#: the stop reason of a search that no budget stopped: every strategy failed within the limits
SEARCH_EXHAUSTED = "search exhausted (no budget ran out)"

#: stored reasons said in the budget keys' own names (older runs stored "wall time")
_STOP_WORDS = {
    "exhausted": SEARCH_EXHAUSTED,
    "wall time budget exhausted": "wall_seconds budget exhausted",
}


def strategy_words(strategy: str | None) -> str:
    return STRATEGY_WORDS.get(strategy or "", (strategy or "").replace("_", " "))


#: a bench that finished is "done" whatever it solved (its result is its solved count, not a proof
#: verdict: a bench that solved 2 of 3 did not "fail")
BENCH_DONE = frozenset({"proved", "not_proved"})


def status_words(status: str | None, kind: str | None = None) -> str:
    if kind == "bench" and status in BENCH_DONE:
        return "done"
    return STATUS_WORDS.get(status or "", status or "-")


def status_class(status: str | None, kind: str | None = None) -> str:
    """The colour class of a status: a finished bench's is neutral ("done"), not a verdict's."""
    return "done" if kind == "bench" and status in BENCH_DONE else (status or "")


def stop_words(reason: str | None) -> str:
    """A stored stop reason, short (a table cell, the head of `prove`'s last line)."""
    if reason is None:
        return "-"
    return _STOP_WORDS.get(reason, reason)

"""What `prove` shows while it runs and says when it stops, on stderr.

`RunWatch` wraps the run's recorder: every record passes through unchanged to the real one, and
the watch keeps the few facts the live line and the stop message need (run id, depth, the goal
being worked on, Lean's last error). It never blocks: `emit` only looks.

Its LLM calls and Lean checks are not counted from records: `stats` is the very object the run's
budget counts the requests it sends into (`prove_problem(stats=…)`, search/budget.py), so the live
line ends on the numbers of the final line, `--json`, `runs` and `show` (records differ: the
statement check and deduplicated checks have none, a call record is written when it answers).
"""

from __future__ import annotations

import time
from typing import Any

from rich.console import Group
from rich.text import Text

from lemmaforge.records import (
    AttemptRecord,
    ForwardingRecorder,
    NodeCreated,
    RunFinished,
    RunStarted,
    StoreRecorder,
)
from lemmaforge.search.budget import SearchStats
from lemmaforge.viewer.inert import Inert, inert, markup
from lemmaforge.viewer.model import first_error
from lemmaforge.viewer.tree_view import render_tree
from lemmaforge.viewer.words import SEARCH_EXHAUSTED, stop_words


def _line(text: str) -> str:
    """A goal's conclusion on one line (the part after the last top-level ` : `)."""
    flat = " ".join(text.split())
    head = flat.split(":=")[0]
    return (head.rsplit(" : ", 1)[-1] if " : " in head else head).strip()


class RunWatch(ForwardingRecorder):
    def __init__(self, inner: StoreRecorder, budget: Any) -> None:
        super().__init__(inner)
        self.budget = budget
        self.started = time.monotonic()
        self.run_id: str | None = None
        self.finished: str | None = None
        self.stats = SearchStats()  # counted into by the run's budget: what it sent
        self.depth = 0
        self.current_goal: str | None = None
        self.last_error: str | None = None
        self._goals: dict[str, str] = {}

    # -- the StoreRecorder protocol: `emit` looks, the rest is the real recorder's ---------------

    def emit(self, record: Any) -> None:
        self.inner.emit(record)
        if isinstance(record, RunStarted) and self.run_id is None:
            self.run_id = record.run_id
        elif isinstance(record, RunFinished) and record.run_id == self.run_id:
            self.finished = record.status
        elif isinstance(record, NodeCreated):
            self.depth = max(self.depth, record.depth)
            if record.kind == "goal":
                self._goals[record.node_id] = _line(record.text)
                self.current_goal = self._goals[record.node_id]
        elif isinstance(record, AttemptRecord):
            self.current_goal = self._goals.get(record.node_id, self.current_goal)
            if record.verdict != "valid":
                err = first_error(record.errors)
                if err:
                    self.last_error = err

    @property
    def llm_calls(self) -> int:
        """Model requests the run sent so far (its budget's count)."""
        return self.stats.llm_calls

    @property
    def lean_checks(self) -> int:
        """Lean requests the run sent so far, the statement check included (its budget's count)."""
        return self.stats.checks

    # -- what it shows ------------------------------------------------------------------------

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def status_line(self) -> str:
        b = self.budget
        goal = f" · goal: {self.current_goal[:80]}" if self.current_goal else ""
        return (f"{self.elapsed():.1f} s/{b.wall_seconds:g} s · LLM calls {self.llm_calls}/{b.llm_calls} · "
                f"Lean checks {self.lean_checks}/{b.lean_checks} · depth {self.depth}/{b.max_depth}{goal}")


class LiveView:
    """The renderable `rich.live.Live` refreshes: the status line (read fresh each refresh) and
    the last tree rendering (built on the event loop's thread by `update`, a few times a second)."""

    def __init__(self, watch: RunWatch) -> None:
        self.watch = watch
        self.tree: Any = None
        self._last = 0.0

    def update(self, tree: Any) -> None:
        now = time.monotonic()
        if now - self._last >= 0.25:  # rendering walks the whole tree: not on every event
            self._last = now
            self.tree = render_tree(tree)

    def __rich__(self) -> Any:
        # The goal and the tree are model text: inert before layout, and the whole view once more
        # (a live display is drawn outside the consoles' render hook).
        line = Text("proving: ", style="bold") + Text(inert(self.watch.status_line(), keep=""))
        return Inert(Group(line, self.tree) if self.tree is not None else line)


def stop_message(result: Any, watch: RunWatch, budget: Any) -> list[str]:
    """The lines (rich markup) `prove` prints on stderr when a search ends without a proof."""
    reason = result.stop_reason
    if reason == "exhausted":
        # no budget ran out: the search tried everything its limits allowed (the words `runs` and
        # `show` use too: viewer/words.py)
        at_depth = f"; the depth limit max_depth={budget.max_depth} was reached" if watch.depth >= budget.max_depth else ""
        reason = (f"{SEARCH_EXHAUSTED}: every strategy failed on the root goal{at_depth}; raise "
                  "prover_samples_per_goal, sketch_alternatives or max_depth with --budget to search further")
    else:
        reason = stop_words(reason)
    lines = [
        f"[red]not proved[/]: {markup(reason)}",
        f"  spent: LLM calls {result.stats.llm_calls}/{budget.llm_calls}, Lean checks {result.stats.checks}/"
        f"{budget.lean_checks}, {result.seconds:.1f} s/{budget.wall_seconds:g} s, depth {watch.depth}/{budget.max_depth}",
    ]
    if watch.last_error:
        lines.append(f"  last Lean error: {markup(watch.last_error)}")
    return lines

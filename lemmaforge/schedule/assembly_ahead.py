"""A sketch's assembly checked beside the check that would complete it, when Lean has room.

Why: at the end of a search its steps are one dependent chain — the last hole's candidate is
checked, then the sketch filled with it, then the parent sketch filled with that, up to the root —
one Lean round trip per level, in a system whose other workers are idle (the tail of a bench run).
When a candidate is checked for the last open hole of a sketch, the file that sketch's assembly
will check first (`assemble.inline_file`) is known: it is started ahead too (`ChecksAhead.start`:
only on a worker that would idle, charged as it is sent), and so is the parent's
assembly with that one, level by level, up to the root's, whose check is the audit's (the text
the audit would send, `audit.text_to_check`: nothing the audit would refuse before Lean goes out).
If the candidate wins, the assembly check is the one already running (`BudgetedVerifier` takes it
by its text); if it loses, the check ahead is dropped, reported as unused. Nothing is trusted from
it: the search still checks each assembly through the same door and audits the root's file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from lemmaforge.search.assemble import Solution, inline_file, inline_solution
from lemmaforge.search.tree import Node


class _ChecksAhead(Protocol):
    """Checks started ahead of need (schedule/ahead.py `ChecksAhead`)."""

    def has_room(self) -> bool: ...

    def start(self, code: str) -> bool: ...

    def drop(self, code: str) -> None: ...


@dataclass(slots=True, eq=False)
class OpenSketch:
    """One sketch whose holes are being solved (the engine's `SketchSchedule` of it)."""

    owner: AssemblyAhead
    node_id: str
    code: str
    goal: Node  # the goal the sketch is for
    holes: list[Node]  # its holes' goals, in order
    solutions: list[Solution | None]
    # per hole: would-be solutions whose checks are out now (a candidate, a child's assembly)
    pending: list[list[Solution]]
    ahead: list[str] = field(default_factory=list)  # its assembly files started ahead

    def solved(self, hole: Node, solution: Solution) -> None:
        self.owner.solved(hole, solution)

    def close(self) -> None:
        self.owner.close(self.node_id)


class AssemblyAhead:
    """The open sketches of one search, and their assemblies started ahead of need."""

    def __init__(self, lean: _ChecksAhead, header: str, *, theorem: str,
                 audit_text: Callable[[str], str | None]) -> None:
        """`theorem`: the root's own statement (its assembly states it); `audit_text(file)`: the
        text the audit of that file would check, None if it would check none."""
        self.lean = lean
        self.header = header
        self.theorem = theorem
        self.audit_text = audit_text
        self._open: dict[str, OpenSketch] = {}  # by sketch node id

    def open(self, sketch: Node, goal: Node, holes: list[Node]) -> OpenSketch:
        """`sketch` (for `goal`) is being solved through its `holes`."""
        state = self._open[sketch.node_id] = OpenSketch(
            self, sketch.node_id, sketch.text, goal, holes, [None] * len(holes), [[] for _ in holes]
        )
        return state

    def close(self, sketch_id: str) -> None:
        """The sketch is settled (assembled, or abandoned): what it started ahead and never took
        is dropped."""
        state = self._open.pop(sketch_id, None)
        if state is not None:
            for code in state.ahead:
                self.lean.drop(code)

    def solved(self, hole: Node, solution: Solution) -> None:
        """A hole is solved: if one hole is left open and it has a check out, its sketch's
        assembly with that one is started ahead."""
        state = self._state_of(hole)
        if state is None:
            return
        state.solutions[hole.hole_index or 0] = solution
        open_holes = [i for i, s in enumerate(state.solutions) if s is None]
        if len(open_holes) == 1:
            last = open_holes[0]
            for would_be in list(state.pending[last]):
                self._speculate(state.holes[last], would_be)

    @contextmanager
    def pending(self, goal: Node, would_be: Solution | None) -> Iterator[None]:
        """Within: a check whose success would solve `goal` with `would_be` is out."""
        state = self._state_of(goal)
        if state is None or would_be is None:
            yield
            return
        index = goal.hole_index or 0
        state.pending[index].append(would_be)
        try:
            self._speculate(goal, would_be)
            yield
        finally:
            state.pending[index].remove(would_be)

    def tracks(self, goal: Node) -> bool:
        """Whether `goal` is a hole of an open sketch (a solution for it may complete one)."""
        return self._state_of(goal) is not None

    def _state_of(self, goal: Node) -> OpenSketch | None:
        if goal.parent_id is None or goal.hole_index is None:
            return None  # the root goal: no sketch above it
        return self._open.get(goal.parent_id)

    def _speculate(self, goal: Node, would_be: Solution) -> None:
        """Start, ahead, the assembly of the sketch `goal` is a hole of, as it would be with
        `would_be` for `goal` — if every other hole is solved — then the parent's, level by level."""
        while True:
            state = self._state_of(goal)
            if state is None:
                return  # the root goal: no sketch above it
            index = goal.hole_index or 0
            if any(s is None for i, s in enumerate(state.solutions) if i != index) or not self.lean.has_room():
                return  # (room asked first: most of a busy run has none, and the file costs a lexing)
            solutions = [would_be if i == index else s for i, s in enumerate(state.solutions)]
            filled = [s for s in solutions if s is not None]
            root = state.goal.parent_id is None
            code = inline_file(self.header, state.code, filled, theorem=self.theorem if root else None)
            if root:  # the root's assembly check is its audit: the text that one would send
                audited = self.audit_text(code)
                if audited is not None and self.lean.start(audited):
                    state.ahead.append(audited)
                return
            if not self.lean.start(code):
                return  # Lean has no room (or the file is known already: its chain was started)
            state.ahead.append(code)
            above = inline_solution(state.code, filled)
            if above is None:
                return
            goal, would_be = state.goal, above

"""The search's journal: the proof tree of one run and the records it emits as the tree changes.

`_Run` (engine.py) inherits these methods; they only touch the tree, the recorder and the
update callback, never Lean or a model, so the search logic reads without the bookkeeping.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from lemmaforge.records import (
    AttemptRecord,
    NodeCreated,
    NodeStatusChanged,
    ProblemRecord,
    ProofRecord,
    Recorder,
    RunFinished,
    Strategy,
    Verdict,
    new_id,
)
from lemmaforge.search.budget import Budget, first_leaf
from lemmaforge.search.tree import Node, ProofTree


class TreeJournal:
    """Tree bookkeeping and records for one run (a base of the engine's `_Run`)."""

    run_id: str
    recorder: Recorder
    tree: ProofTree
    on_update: Callable[[ProofTree], None] | None
    budget: Budget
    problem: ProblemRecord
    header: str

    def _proof_record(self, node: Node, kind: Literal["whole", "subgoal"], statement: str, key: str, proof: str,
                      *, depth: int | None, audit: dict[str, Any] | None = None) -> None:
        """A proof the store keeps: a subgoal's (the subgoal cache's rows) or the whole theorem's."""
        self.recorder.emit(ProofRecord(
            self.run_id, new_id(), kind, self.header, statement, key, proof, problem_id=self.problem.problem_id,
            node_id=node.node_id, strategy=node.strategy, depth=depth, audit=audit or {},
        ))

    def failed(self, exc: BaseException) -> BaseException:
        """The run ended on `exc` (an endpoint or verifier that stayed down, a bug, Ctrl-C): closed
        in the record with what it had spent, instead of being left "running". Returns the error
        the caller must see and map to its exit code: an error inside a sketch's TaskGroup arrives
        wrapped in an exception group, never to be read as "unhandled errors in a TaskGroup"."""
        error = first_leaf(exc)
        cancelled = isinstance(error, asyncio.CancelledError | KeyboardInterrupt)
        self._cancel_open()
        stats = self.budget.stats
        self.recorder.emit(RunFinished(
            self.run_id, "cancelled" if cancelled else "failed",
            {"error": f"{type(error).__name__}: {error}"[:500], "calls": stats.llm_calls, "checks": stats.checks},
        ))
        return error

    # -- tree bookkeeping and records --------------------------------------------------------------

    def _new_goal(
        self, lemma: str, *, depth: int, parent_id: str | None = None, hole_index: int | None = None,
        goal_state: str | None = None,
    ) -> Node:
        node = self.tree.add_goal(lemma, depth=depth, parent_id=parent_id, hole_index=hole_index,
                                  goal_state=goal_state)
        self._emit_node(node)
        return node

    def _emit_node(self, node: Node) -> None:
        self.recorder.emit(
            NodeCreated(self.run_id, node.node_id, node.kind, node.depth, node.text, node.parent_id,
                        node.hole_index, node.goal_state)
        )
        self._changed()

    def _set_status(
        self, node: Node, status: Any, *, strategy: Strategy | None = None, proof: str | None = None,
        reason: str | None = None,
    ) -> None:
        node.status = status
        node.reason = reason
        if strategy is not None:
            node.strategy = strategy
        if proof is not None:
            node.proof = proof
        self.recorder.emit(NodeStatusChanged(self.run_id, node.node_id, status, strategy, proof, reason))
        self._changed()

    def _attempt(
        self, node: Node, strategy: Strategy, verdict: Verdict, code: str, *, output: str | None = None,
        llm_call_id: str | None = None, errors: list[str] | None = None, check_seconds: float = 0.0,
        generation_seconds: float = 0.0,
    ) -> None:
        node.attempts += 1
        self.recorder.emit(
            AttemptRecord(self.run_id, new_id(), node.node_id, strategy, verdict, code, output=output,
                          llm_call_id=llm_call_id, errors=[e for e in (errors or []) if e],
                          generation_seconds=generation_seconds, check_seconds=check_seconds)
        )

    def _cancel_open(self) -> None:
        for node in list(self.tree.nodes()):
            if node.status == "open":
                self._set_status(node, "cancelled", reason="search stopped")

    def _cancel_subtree(self, node_id: str, reason: str) -> None:
        """`node_id` and everything below it still open: cancelled (its task was)."""
        stack = [self.tree.node(node_id)]
        while stack:
            node = stack.pop()
            if node.status == "open":
                self._set_status(node, "cancelled", reason=reason)
            stack.extend(self.tree.children(node.node_id))

    def _changed(self) -> None:
        if self.on_update is not None:
            self.on_update(self.tree)

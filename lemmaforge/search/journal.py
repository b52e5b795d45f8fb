"""The search's journal: the proof tree of one run and the records it emits as the tree changes.

`_Run` (engine.py) inherits these methods; they only touch the tree, the recorder and the
update callback, never Lean or a model, so the search logic reads without the bookkeeping.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lemmaforge.records import (
    AttemptRecord,
    NodeCreated,
    NodeStatusChanged,
    Recorder,
    Strategy,
    Verdict,
    new_id,
)
from lemmaforge.search.tree import Node, ProofTree


class TreeJournal:
    """Tree bookkeeping and records for one run (a base of the engine's `_Run`)."""

    run_id: str
    recorder: Recorder
    tree: ProofTree
    on_update: Callable[[ProofTree], None] | None

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

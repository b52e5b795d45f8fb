"""The AND/OR proof tree: the record of a search, on networkx.

- A goal node is an OR node: it is solved by any ONE strategy (automation, the prover, the cache,
  or one of its child sketch nodes).
- A sketch node is an AND node: it is solved when ALL its child goal nodes (its holes) are solved
  and the filled sketch checks.

Edges go goal → sketch ("decomposed by") and sketch → goal ("has hole"). The tree mirrors what the
engine emits to the recorder, so a run read back from the store has the same shape. Drawing it for
a terminal is the viewer's (viewer/tree_view.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import networkx as nx

from lemmaforge.records import NodeKind, NodeStatus, Strategy, new_id


@dataclass(slots=True)
class Node:
    node_id: str
    kind: NodeKind
    depth: int
    text: str  # goal: the lemma (statement ending in `sorry`); sketch: the sketch code
    parent_id: str | None = None
    hole_index: int | None = None
    goal_state: str | None = None
    status: NodeStatus = "open"
    strategy: Strategy | None = None
    proof: str | None = None  # goal: tactic proof text; sketch: the filled sketch
    reason: str | None = None
    attempts: int = 0


class ProofTree:
    def __init__(self) -> None:
        self.graph: nx.DiGraph = nx.DiGraph()
        self.root_id: str | None = None

    # -- building ----------------------------------------------------------------------------------

    def add_goal(
        self,
        text: str,
        *,
        depth: int,
        parent_id: str | None = None,
        hole_index: int | None = None,
        goal_state: str | None = None,
    ) -> Node:
        node = Node(new_id(), "goal", depth, text, parent_id, hole_index, goal_state)
        self._add(node)
        if parent_id is None and self.root_id is None:
            self.root_id = node.node_id
        return node

    def add_sketch(self, text: str, *, parent_id: str, depth: int) -> Node:
        node = Node(new_id(), "sketch", depth, text, parent_id)
        self._add(node)
        return node

    def _add(self, node: Node) -> None:
        self.graph.add_node(node.node_id, node=node)
        if node.parent_id is not None:
            self.graph.add_edge(node.parent_id, node.node_id)

    # -- reading -----------------------------------------------------------------------------------

    def node(self, node_id: str) -> Node:
        return self.graph.nodes[node_id]["node"]

    @property
    def root(self) -> Node:
        if self.root_id is None:
            raise LookupError("the tree has no root")
        return self.node(self.root_id)

    def children(self, node_id: str) -> list[Node]:
        kids = [self.node(n) for n in self.graph.successors(node_id)]
        return sorted(kids, key=lambda n: (n.hole_index if n.hole_index is not None else -1))

    def nodes(self) -> Iterator[Node]:
        for node_id in nx.topological_sort(self.graph):
            yield self.node(node_id)

    def __len__(self) -> int:
        return self.graph.number_of_nodes()

    def solved_depth(self, node_id: str | None = None) -> int:
        """Levels of sketches the solution of `node_id` uses: 0 when a goal was proved directly."""
        node = self.node(node_id or self.root_id or "")
        if node.kind == "goal":
            sketch = next((c for c in self.children(node.node_id) if c.status == "solved"), None)
            return 0 if sketch is None or node.strategy != "planner" else self.solved_depth(sketch.node_id)
        holes = self.children(node.node_id)
        return 1 + max((self.solved_depth(h.node_id) for h in holes), default=0)

    # -- export ------------------------------------------------------------------------------------

    def to_dict(self, node_id: str | None = None) -> dict[str, Any]:
        node = self.node(node_id or self.root_id or "")
        return {
            "id": node.node_id,
            "kind": node.kind,
            "depth": node.depth,
            "status": node.status,
            "strategy": node.strategy,
            "text": node.text,
            "proof": node.proof,
            "reason": node.reason,
            "children": [self.to_dict(c.node_id) for c in self.children(node.node_id)],
        }

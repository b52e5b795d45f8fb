"""The engine's work per goal node stays flat as ONE problem's tree grows (scripts/bench_engine_cpu.py).

Counted, not timed, so that a busy machine cannot fail it: the syntax layer's layout analyses and
the characters they read, per goal node, in a tree of 111 goal nodes (depth 2, ten holes per
sketch) and one of 1,111 (depth 3), each from emptied memos. Every sketch costs two analyses (its
own text and its goal's lemma, at the statement check), so 0.2 per goal node at any size; a goal's
lemma is not read for its key or its hole (they come from the sketch's tokens), nor a filled
sketch for its proof (lean/syntax/_filled.py). Texts grow with depth (a hole's lemma carries the
steps before it), so characters per node grow honestly (about ×1.2 here). What this keeps out: work that reads a
text once per ancestor or per ask of the cache, walks the tree from the root per node, or keys a
memo that a big tree evicts before the second use — each is one analysis or more per goal node,
and grows faster with the tree.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _bench() -> ModuleType:
    sys.path.insert(0, str(SCRIPTS))
    try:
        return importlib.import_module("bench_engine_cpu")
    finally:
        sys.path.remove(str(SCRIPTS))


@pytest.mark.slow
def test_syntax_work_per_goal_node_is_flat_from_111_to_1111_goal_nodes() -> None:
    bench = _bench()
    small, big = bench.measure("tree", depth=2), bench.measure("tree", depth=3)
    assert (small.goal_nodes, big.goal_nodes) == (111, 1111)
    assert small.proved == big.proved == 1  # the whole tree was built, then proved
    for m in (small, big):
        assert 0 < m.per_node(m.work.layouts) <= 0.4, (m.goal_nodes, m.work)
    chars_small = small.per_node(small.work.laid_out_chars)
    chars_big = big.per_node(big.work.laid_out_chars)
    assert chars_big <= 2 * chars_small, (chars_small, chars_big)
    assert big.per_node(big.work.lexed_chars) <= 2 * small.per_node(small.work.lexed_chars)

"""A proof tree drawn for the terminal (rich): the live view's and `prove`'s closing tree."""

from __future__ import annotations

from rich.tree import Tree

from lemmaforge.search.tree import Node, ProofTree
from lemmaforge.viewer.inert import markup
from lemmaforge.viewer.words import strategy_words  # the words `show` and the HTML pages use


def render_tree(tree: ProofTree, *, max_text: int = 70) -> Tree:
    """A rich Tree of `tree`, one line per node (its model text made inert)."""

    def label(n: Node) -> str:
        colour = {"solved": "green", "failed": "red", "abandoned": "magenta", "cancelled": "dim"}.get(
            n.status, "yellow"
        )
        first = " ".join(n.text.split())
        if n.kind == "goal":
            first = _statement_summary(n.text)
        how = f" by {strategy_words(n.strategy)}" if n.strategy and n.status == "solved" else ""
        # model text: inert (no escape sequence reaches the terminal) and never rich markup
        return f"[{colour}]{markup(f'{n.kind} {n.status}{how}', keep='')}[/] {markup(first[:max_text], keep='')}"

    def build(parent: Tree, n: Node) -> None:
        branch = parent.add(label(n))
        for child in tree.children(n.node_id):
            build(branch, child)

    root = tree.root
    drawn = Tree(label(root))
    for child in tree.children(root.node_id):
        build(drawn, child)
    return drawn


def _statement_summary(lemma: str) -> str:
    """The part of a lemma after its last top-level colon, for one-line display."""
    flat = " ".join(lemma.split())
    head = flat.split(":=")[0]
    return head.rsplit(" : ", 1)[-1] if " : " in head else head

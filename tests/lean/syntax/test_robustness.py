"""Broken text never crashes the syntax layer: real proofs cut at random points and sprinkled with
the tokens that change how Lean reads a file (comment and string openers, `#exit`, `«`, `in`, …).
Every tool answers, and the answers stay consistent with the text."""

from __future__ import annotations

import random

import pytest

from lemmaforge.agent.output import extract_lean_code
from lemmaforge.agent.prover import extract_proof_body, find_decls
from lemmaforge.lean import syntax as S
from tests.conftest import reference_proof_files

JUNK = [
    "(",
    ")",
    "#exit",
    "/-",
    "-/",
    '"',
    "'",
    "«",
    "»",
    "by",
    ":=",
    "@[",
    "]",
    "open X in ",
    "theorem",
    "\n",
    "  ",
    "sorry",
    "`(",
    'r#"',
    "{",
    "}",
    's!"{',
    "--",
    "/--/",
    "in ",
    "⟨",
    "set_option ",
    "·",
]


def mutants(n: int, seed: int) -> list[str]:
    files = [p.read_text() for p in reference_proof_files()[:60]]
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        text = rnd.choice(files)
        if rnd.random() < 0.3:
            text = text[: rnd.randrange(len(text) + 1)]
        for _ in range(rnd.randrange(1, 6)):
            i = rnd.randrange(len(text) + 1)
            text = text[:i] + rnd.choice(JUNK) + text[i:]
        out.append(text)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_mutated_proofs_never_crash(seed: int) -> None:
    for text in mutants(60, seed):
        header, rest = S.split_header(text)
        assert header + rest == text
        commands = S.split_commands(text)
        assert all(a.end <= b.start for a, b in zip(commands, commands[1:], strict=False))
        theorem = S.last_theorem(text)
        assert S.same_statement(text, text) == (theorem is not None)
        assert S.preamble_diff(text, text) == []
        holes = S.holes(text)
        S.fill(text, ["simp"] * len(holes))
        S.have_steps(text)
        S.top_level_tactics(text)
        S.structure_consistency(text, text)
        S.theorem_key(text)
        try:
            S.skeleton(text)
        except ValueError:
            assert theorem is None or theorem.body_start is None  # the documented refusal
        extract_lean_code(f"```lean4\n{text}\n```")
        find_decls(text)
        extract_proof_body(text, text)

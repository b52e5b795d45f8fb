"""The text tools on published proofs of OTHER provers (Kimina-Prover, Seed-Prover,
DeepSeek-Prover-V1.5; see tests/lean/data/other_provers/SOURCES.md): they round-trip and parse
with no exception, and what they find is consistent with the text."""

from __future__ import annotations

from pathlib import Path

import pytest

from lemmaforge.agent.output import extract_lean_code
from lemmaforge.agent.prover import find_decls
from lemmaforge.lean import syntax
from lemmaforge.lean.syntax import lex

DATA = Path(__file__).resolve().parents[1] / "data" / "other_provers"
FILES = sorted(DATA.rglob("*.lean"))


def test_sample_is_there() -> None:
    by_prover = {p.parent.name for p in FILES}
    assert by_prover == {"kimina_prover_preview", "seed_prover", "deepseek_prover_v1_5"}
    assert len(FILES) >= 36


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_text_tools_round_trip(path: Path) -> None:
    code = path.read_text()
    # Lexer: tokens are exact slices, in order, and only whitespace lies between them.
    pos = 0
    for t in lex(code):
        assert code[t.start : t.end] == t.text and t.start >= pos
        assert code[pos : t.start].strip() == ""
        pos = t.end
    assert code[pos:].strip() == ""
    header, rest = syntax.split_header(code)
    assert header + rest == code
    # Commands: ordered, non-overlapping; every declaration is one of them.
    commands = syntax.split_commands(code)
    assert all(a.end <= b.start for a, b in zip(commands, commands[1:], strict=False))
    assert all(c.keyword for c in commands), [c.text[:40] for c in commands if not c.keyword]
    decls = syntax.declarations(code)
    assert {d.keyword_start for d in decls} <= {c.keyword_start for c in commands}
    theorem = syntax.last_theorem(code)
    assert theorem is not None and theorem.body_start is not None
    assert syntax.holes(code) == []  # published, checked proofs
    assert syntax.same_statement(code, code)
    # Normaliser: idempotent on its own output.
    norm = syntax.normalize_statement(theorem.statement)
    assert syntax.normalize_statement(norm) == norm
    # Sketch and back: filling the skeleton's holes with its pieces restores the proof's tokens.
    sketch, pieces = syntax.skeleton(code)
    assert len(syntax.holes(sketch)) == len(pieces)
    assert syntax.statement_tokens(syntax.fill(sketch, pieces)) == syntax.statement_tokens(code)
    assert syntax.structure_consistency(sketch, code) == 1.0
    # Model-output parsing: the file as a model answer gives back its code (imports dropped),
    # and the prover's declaration model finds the same last theorem.
    extracted = extract_lean_code(f"Here is the proof.\n```lean4\n{code}\n```\n")
    assert extracted is not None and "import " not in extracted.split("\n", 1)[0]
    decl_names = [d.name for d in find_decls(extracted)]
    assert decl_names and decl_names[-1] == theorem.name

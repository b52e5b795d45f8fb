"""The statement key is read from the tokens the declaration was read with, not by lexing its
signature again: the same key, byte for byte (it is the store's `normalized_statement` column),
and one lexing of the lemma for it."""

from __future__ import annotations

import pytest

import lemmaforge.lean.syntax._compare as compare
import lemmaforge.lean.syntax._layout as layout
import lemmaforge.lean.syntax._lexer as lexer
from lemmaforge.lean.syntax import theorem_key
from lemmaforge.lean.syntax._commands import declarations_of
from tests.conftest import reference_proof_files, sweep


def _relexed_key(decl: compare.Declaration) -> str:
    """The signature's key as it was computed before: its text lexed on its own."""
    return compare.normalize_code(decl.signature)


TRICKY = [
    "theorem t (x : ℕ) -- a comment\n    (h : x.1 = a[i]) /- block -/ : x  *  y = 0 := by\n  sorry\n",
    "theorem t.{u} {α : Type u} (f : α → α) (h : (f a).foo = .bar) : f = f := by sorry",
    'lemma «odd name» (s : String) (h : s = "a -- not a comment") : s.length ≥ 0 := sorry',
    "theorem t (n : ℕ) (h : n ! = 5) (g : n!= 5) : n != 5 :=\n  by simp",
    "set_option maxHeartbeats 400000 in\ntheorem t (x : ℝ) (h : 0 < x) : Real.sqrt x ^ 2 = x := by\n  sorry",
    "theorem t (x : ℕ) : let y := x; y = x := by\n  sorry\n",
    "theorem t : ∀ x : ℕ, x = x\n",
]


@pytest.mark.parametrize("text", TRICKY)
def test_key_from_read_tokens_is_the_relexed_key(text: str) -> None:
    decls = declarations_of(layout.analyze(text))
    assert decls
    for decl in decls:
        assert decl.signature_tokens or not decl.signature.strip()
        assert compare._signature_key(decl) == _relexed_key(decl)


@sweep
def test_same_key_over_the_reference_proofs(every: int) -> None:
    """Every declaration of DeepSeek-Prover-V2's 438 miniF2F proofs: the same signature key."""
    files = reference_proof_files()
    assert len(files) > 400
    files = files[::every]
    checked = 0
    for path in files:
        for decl in declarations_of(layout.analyze(path.read_text(encoding="utf-8"))):
            assert compare._signature_key(decl) == _relexed_key(decl), (path.name, decl.name)
            checked += 1
    assert checked >= len(files)


def test_theorem_key_lexes_the_lemma_once() -> None:
    """A goal's lemma grows with its depth: its key costs one reading of it, not two."""
    hypotheses = "".join(f"    (h{i} : x + {i} = x + {i})\n" for i in range(40))
    lemma = f"theorem deep_goal_7\n{hypotheses}    : x = x := by\n  sorry\n"
    runs: list[str] = []
    real = lexer._lex_memo.fn

    def counting(code: str) -> lexer.Lexed:
        runs.append(code)
        return real(code)

    lexer._lex_memo.cache_clear()
    layout._analyze_memo.cache_clear()
    lexer._lex_memo.fn = counting
    try:
        key = theorem_key(lemma)
    finally:
        lexer._lex_memo.fn = real
    assert runs == [lemma]
    assert key.startswith("(h0 : x + 0 = x + 0)") and key.endswith(": x = x")

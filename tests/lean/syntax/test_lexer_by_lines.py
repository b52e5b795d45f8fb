"""A text with no line-crossing construct is lexed line by line (lines memoised): the same tokens
and the same refusal as one scan of the whole text, on real Lean and on random texts."""

from __future__ import annotations

import random

import pytest

import lemmaforge.lean.syntax._lexer as lexer
from tests.conftest import BENCHMARKS, reference_proof_files, sweep


def _safe_part(text: str) -> str:
    """`text` without the lines that hold a line-crossing construct (comments, strings, primes…)."""
    return "".join(line for line in text.splitlines(keepends=True) if lexer._CROSSES_LINES.search(line) is None)


def _same_either_way(text: str) -> None:
    assert lexer._CROSSES_LINES.search(text) is None
    lexer._line_memo.cache_clear()
    whole = lexer._lex_whole(text)
    assert lexer._lex_by_lines(text) == whole
    assert lexer._lex_by_lines(text) == whole  # lines now from the memo, shifted
    assert lexer._lex_uncached(text) == whole


def _real_texts() -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in reference_proof_files()]
    return texts + [(BENCHMARKS / "minif2f.jsonl").read_text(encoding="utf-8").replace("\\n", "\n")]


@sweep
def test_real_lean_lines(every: int) -> None:
    """DeepSeek-Prover-V2's 438 miniF2F proofs and the benchmarks' statements, less the lines a
    whole scan must read (numbers, dotted names, `h.1`, `#check`, `?x`, `.foo`, unicode, tactics)."""
    texts = _real_texts()
    assert len(texts) > 400
    tokens = 0
    for text in texts[::every]:
        safe = _safe_part(text)
        if "\n" in safe:
            _same_either_way(safe)
            tokens += len(lexer._lex_whole(safe).tokens)
    assert tokens > 100_000 // every


FRAGMENTS = [
    "x", "h₀", "Nat.succ", "a.b.c", "h.1", "h.1.2", ".foo", "#check", "#eval", "?m", "?_", "@[simp]",
    "0", "12", "0x1F", "0x", "0b102", "0o78", "1_000", "1.5", "2.", "1e-3", "1e", "3.e2", "1.5e+", "_",
    "(", ")", "[", "]", "{", "}", "⟨", "⟩", ",", ":", ":=", "=>", "->", "→", "←", "<-", "↔", "≤", "≥", "≠",
    "+", "-", "*", "/", "%", "^", "!", "!=", "∑", "∏", "∀", "∃", "λ", "fun", "by", "have", "theorem", "·",
    "<;>", "|", "||", "&&", "∧", "∨", "¬", "$", "\\", "/\\", "\\/", "..", "...", "|>.", "<|", "|>", "∘",
    "ℕ", "ℝ", "∈", "∉", "⊆", "∣", "⁻¹", "√", "π", "ε", "x₁", "αβ", "$(x)", "·.", "r", "r#", "#", "?", "@",
    " ", " ", " ", "  ", "\n", "\n", "\n  ", "\n    ", "\n\n",
]


@pytest.mark.parametrize("seed", range(4))
def test_random_texts(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for _ in range(600):
        parts = rng.choices(FRAGMENTS, k=rng.randint(5, 120))
        text = "".join(parts if rng.random() < 0.5 else (p + rng.choice(["", " ", "\n"]) for p in parts))
        if "\n" not in text:
            text += "\nx"
        if lexer._CROSSES_LINES.search(text) is None:  # fragments glued into `--` or `/-`: not this path
            _same_either_way(text)
            checked += 1
    assert checked > 200


def test_a_comment_across_lines_is_scanned_whole() -> None:
    text = "theorem t (x : ℕ) /- a comment\n  over lines -/ : x = x := by\n  sorry\n"
    assert lexer._CROSSES_LINES.search(text) is not None
    assert lexer._lex_uncached(text) == lexer._lex_whole(text)
    assert [t.kind for t in lexer._lex_uncached(text).tokens].count("comment") == 1

"""The subgoal cache reads a goal's lemma once for its key, however often the goal asks."""

from __future__ import annotations

import asyncio

import lemmaforge.lean.syntax._layout as layout
import lemmaforge.lean.syntax._lexer as lexer
from lemmaforge.search import cache as cache_module
from lemmaforge.search.cache import SubgoalCache, cache_key

HEADER = "import Mathlib\n\n"


def _lemma(depth: int) -> str:
    hypotheses = "".join(f"    (h{i} : x + {i} = x + {i})\n" for i in range(9 * depth))
    return f"theorem goal_sub_{depth}\n    (x : ℕ)\n{hypotheses}    : x = x := by\n  sorry\n"


def _forget_shared_memos() -> None:
    """What a big tree does between two asks of one goal: thousands of other lemmas read."""
    lexer._lex_memo.cache_clear()
    layout._analyze_memo.cache_clear()
    cache_module._normalize_memo.cache_clear()


def test_one_reading_per_lemma_across_lookup_meanwhile_and_put() -> None:
    lemmas = [_lemma(d) for d in (1, 2, 3)]
    runs: list[str] = []
    real = lexer._lex_memo.fn

    def counting(code: str) -> lexer.Lexed:
        runs.append(code)
        return real(code)

    cache = SubgoalCache()
    lexer._lex_memo.fn = counting
    try:
        _forget_shared_memos()
        for lemma in lemmas:
            assert asyncio.run(cache.lookup(HEADER, lemma)) is None
        _forget_shared_memos()
        for lemma in lemmas:
            assert cache.solved_meanwhile(HEADER, lemma) is None
            key = cache.put(HEADER, lemma, "simp")
            _forget_shared_memos()
            assert key == cache_key(HEADER, lemma)  # the same key as computed afresh
            assert cache.solved_meanwhile(HEADER, lemma) == "simp"
    finally:
        lexer._lex_memo.fn = real
    # one reading per lemma by the cache, one more by the fresh `cache_key` the test asked for
    assert sorted(runs) == sorted(lemmas * 2)
    assert asyncio.run(cache.lookup(HEADER, lemmas[0])) == "simp"
    assert (cache.hits, cache.misses) == (4, 3)


def test_a_keyed_lemma_is_filled_without_reading_it_again() -> None:
    """Keyed when its goal starts, filled when a candidate arrives: the fill does not lex or lay
    out the lemma again, though thousands of other lemmas were read in between."""
    from lemmaforge.lean import syntax as lean_syntax

    lemma = _lemma(4)
    cache = SubgoalCache()
    asyncio.run(cache.lookup(HEADER, lemma))
    _forget_shared_memos()
    runs: list[str] = []
    real = lexer._lex_memo.fn

    def counting(code: str) -> lexer.Lexed:
        runs.append(code)
        return real(code)

    lexer._lex_memo.fn = counting
    try:
        filled = lean_syntax.fill(lemma, ["simp"])
    finally:
        lexer._lex_memo.fn = real
    assert runs == []
    assert filled == lemma.replace("sorry", "simp")

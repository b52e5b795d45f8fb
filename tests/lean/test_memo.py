"""The byte-bounded memo used by the Lean text tools and the subgoal cache."""

from __future__ import annotations

import threading

from lemmaforge.lean import syntax as lean_code
from lemmaforge.lean.memo import ByteBoundedMemo
from lemmaforge.lean.syntax import layout as lean_layout
from lemmaforge.lean.syntax import lexer as lean_lexer


def test_memo_is_bounded_by_bytes_and_evicts_the_least_recently_used() -> None:
    calls: list[str] = []

    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    memo = ByteBoundedMemo(upper, max_bytes=30, size_of=lambda k, v: len(k) + len(v))
    assert memo("aaaaa") == "AAAAA" and memo("bbbbb") == "BBBBB" and memo("ccccc") == "CCCCC"  # 30 bytes
    assert memo("aaaaa") == "AAAAA"  # a hit, and now the most recent
    assert calls == ["aaaaa", "bbbbb", "ccccc"]
    memo("ddddd")  # 40 bytes > 30: the least recently used (bbbbb) goes
    assert memo.bytes <= 30 and len(memo) == 3
    memo("bbbbb")
    assert calls[-1] == "bbbbb"
    memo("x" * 40)  # larger than the whole budget: computed, never stored
    assert memo.bytes <= 30 and "x" * 40 not in memo._items


def test_memo_many_texts_stay_within_budget_from_many_threads() -> None:
    memo = ByteBoundedMemo(lambda t: t[::-1], max_bytes=5_000)

    def work(offset: int) -> None:
        for i in range(500):
            assert memo(f"text {offset} {i % (10 + offset * 40)}") == f"text {offset} {i % (10 + offset * 40)}"[::-1]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert 0 < memo.bytes <= 5_000
    assert memo.hits > 0


def test_lean_lexing_is_memoized_for_short_texts_too(monkeypatch) -> None:
    """A goal's lemma (short) is lexed once however many candidates are filled into it."""
    lemma = "theorem memo_probe_7 (x : ℕ) (h : 0 < x) : x + 0 = x := by\n  sorry"
    lexed: list[str] = []
    inner = lean_lexer._lex_memo.fn

    def counting(code: str):
        lexed.append(code)
        return inner(code)

    monkeypatch.setattr(lean_lexer._lex_memo, "fn", counting)
    lean_lexer._lex_memo.cache_clear()
    lean_layout._analyze_memo.cache_clear()
    for body in ("simp", "omega", "rfl", "norm_num", "simp"):
        assert body in lean_code.fill(lemma, [body])
    lean_code.holes(lemma)
    lean_code.last_theorem(lemma)
    assert lexed.count(lemma) == 1

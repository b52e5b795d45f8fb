"""The byte-bounded memo used by the Lean text tools and the subgoal cache."""

from __future__ import annotations

import threading

from lemmaforge.lean import syntax as lean_code
from lemmaforge.lean.memo import ByteBoundedMemo
from lemmaforge.lean.syntax import _layout as lean_layout
from lemmaforge.lean.syntax import _lexer as lean_lexer


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


def test_a_repeat_of_the_last_text_is_answered_without_recomputing_and_a_clear_forgets_it() -> None:
    calls: list[str] = []

    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    memo = ByteBoundedMemo(upper, max_bytes=10)
    big = "y" * 40  # over the budget: never stored, but still the last text asked about
    assert memo(big) == big.upper() and memo(big) == big.upper()
    assert calls == [big] and memo.hits == 1
    memo.cache_clear()
    assert memo(big) == big.upper() and calls == [big, big]


def test_filling_a_lemma_reads_its_holes_once_per_text(monkeypatch) -> None:
    """The search fills each candidate into the same lemma: its hole contexts are computed once."""
    import importlib

    holes_module = importlib.import_module("lemmaforge.lean.syntax._holes")
    memo = holes_module._hole_contexts_memo
    read: list[str] = []
    inner = memo.fn

    def counting(code: str):
        read.append(code)
        return inner(code)

    monkeypatch.setattr(memo, "fn", counting)
    memo.cache_clear()
    # Not a goal's lemma (`… := by\n  sorry` alone), whose one hole is found without reading it.
    lemma = "theorem memo_probe_9 (x : ℕ) : x + 0 = x := by\n  show x + 0 = x\n  sorry"
    filled = [lean_code.fill(lemma, [tactic]) for tactic in ("simp", "omega", "rfl")]
    other = "theorem memo_probe_10 (x : ℕ) : x = x := by\n  show x = x\n  sorry"
    lean_code.fill(other, ["rfl"])
    lean_code.fill(lemma, ["simp"])  # not the last text any more: from the memo itself
    assert filled == [lemma.replace("sorry", t) for t in ("simp", "omega", "rfl")]
    assert read == [lemma, other]
    goal_lemma = "theorem memo_probe_11 (x : ℕ)\n    (h : x = 1) :\n    x + 0 = x := by\n  sorry"
    assert lean_code.fill(goal_lemma, ["simp"]) == goal_lemma.replace("sorry", "simp")
    assert read == [lemma, other]  # read without the memo's reading (holes._closing_sorry)


def test_a_kept_text_is_computed_once_in_the_block_whatever_its_size() -> None:
    calls: list[str] = []

    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    memo = ByteBoundedMemo(upper, max_bytes=10)
    big, other = "z" * 40, "w" * 40  # both over the whole budget
    with memo.keep(big):
        for _ in range(3):
            assert memo(big) == big.upper() and memo(other) == other.upper()  # not the last text asked
        with memo.keep(big):  # nested: the inner block's end does not let go
            assert memo(big) == big.upper()
        assert memo(other) == other.upper() and memo(big) == big.upper()
    assert calls.count(big) == 1 and calls.count(other) == 4
    assert memo.bytes == 0  # kept outside the budget
    memo(other)
    assert memo(big) == big.upper() and calls.count(big) == 2  # let go at the block's end


def test_the_audit_reads_a_whole_proof_beyond_the_memo_budgets_once(monkeypatch) -> None:
    """A proof assembled from a big tree (hundreds of KB) exceeds the syntax memos' budgets; the
    audit's readings of it (commands, declarations, preamble, statement, gate) share one lexing
    and one layout analysis instead of five."""
    from lemmaforge.lean.audit import text_to_check
    from tests.fakes.fake_common import CheckOnlyVerifier

    header = "import Mathlib\n\nopen Real\n\n"
    original = header + "theorem big_t (x : ℕ) (h : 0 < x) : x = x := by\n  sorry\n"
    helpers = "".join(f"lemma big_t_sub_{i} (x : ℕ) (h{i} : {i} < x + {i + 1}) : x + {i} = {i} + x := by\n"
                      f"  have h : x + {i} = {i} + x := by\n    omega\n  exact h\n\n" for i in range(1500))
    candidate = header + helpers + "theorem big_t (x : ℕ) (h : 0 < x) : x = x := by\n  rfl\n"
    read: dict[str, list[str]] = {"lex": [], "layout": []}
    for key, memo in (("lex", lean_lexer._lex_memo), ("layout", lean_layout._analyze_memo)):
        def counting(code: str, inner=memo.fn, seen=read[key]):
            seen.append(code)
            return inner(code)

        monkeypatch.setattr(memo, "fn", counting)
        memo.cache_clear()
    layout = lean_layout._analyze_memo.size_of(candidate, lean_code.analyze(candidate))
    assert layout > lean_layout._analyze_memo.max_bytes  # the memo alone would not keep it
    read["lex"].clear()
    read["layout"].clear()

    sent = text_to_check(candidate, CheckOnlyVerifier(), original=original)
    assert sent is not None and sent.startswith(candidate.rstrip())  # passed: the whole audit read it
    assert read["layout"].count(candidate) == 1 and read["lex"].count(candidate) == 1
    assert len(lean_layout._analyze_memo._kept) == 0  # let go once the audit's reading is done

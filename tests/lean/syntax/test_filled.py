"""The proof of a filled sketch found from the sketch's reading and the edits
(`lean.syntax.filled.fill_with_body_span`) is where reading the filled text finds it: differential,
against `proof_span` of the filled text and `assemble.proof_body`, on sketches of DeepSeek-Prover-V2's
438 miniF2F proofs (`skeleton`) filled with their own proofs and with made-up ones, and on hand-made
sketches; None (unsure) where a replacement could change how the filled text reads."""

from __future__ import annotations

import importlib

import pytest

from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.syntax import TermProof
from lemmaforge.search.assemble import Solution, inline_solution, proof_body
from tests.conftest import reference_proof_files

filled_module = importlib.import_module("lemmaforge.lean.syntax._filled")

MADE_UP = [
    "simp",
    "nlinarith [sq_nonneg (x - 1), sq_nonneg (x + 1)]",
    "constructor\n· simp\n· linarith",
    "by\n  norm_num\n  linarith",
    "have h : x = x := rfl\nexact h",
    "rcases h with ⟨a, b⟩\n<;> simp_all",
    "simp -- done",  # a comment: refused, read in full
    "exact h'",  # a prime: refused
    "open Real in simp",  # a command word: refused
]


def _check(code: str, proofs: list[str | None]) -> bool:
    """Compares the two readings; True when the span was known (not refused)."""
    filled, span = filled_module.fill_with_body_span(code, proofs)
    assert filled == lean_syntax.fill(code, proofs)
    if span is None:
        return False
    assert span == filled_module._proof_span_uncached(filled), (code, proofs)
    solution = inline_solution(code, [Solution(p or "sorry") for p in proofs])
    expected = proof_body(filled)
    assert (solution.body if solution else None) == expected
    return True


@pytest.mark.slow  # all 438 reference proofs; the other tests of this file stay fast
def test_reference_sketches_filled_with_their_own_and_made_up_proofs() -> None:
    files = reference_proof_files()
    assert len(files) > 400
    compared = known = 0
    for n, path in enumerate(files):
        try:
            sketch, pieces = lean_syntax.skeleton(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        holes = len(lean_syntax.holes(sketch))
        if holes != len(pieces) or not holes:
            continue
        candidates = [list(pieces), [MADE_UP[(n + k) % len(MADE_UP)] for k in range(holes)]]
        candidates.append([TermProof("rfl") if k % 2 else "simp" for k in range(holes)])
        for proofs in candidates:
            compared += 1
            known += _check(sketch, proofs)
    assert compared > 1000
    assert known > 0.3 * compared  # the span path is taken, not only refused


SKETCHES = [
    "theorem t (x : ℕ) : x = x := by\n  have h : x = x := by sorry\n  sorry\n",
    "theorem t (x : ℕ) : x = x := by\n  have h : x = x := sorry\n  exact h\n",
    "theorem t (x : ℕ) : x = x := by\n  sorry\n",
    "theorem t (x : ℕ) : x = x := by sorry",
    "theorem t (x : ℕ) : x = x := by\n  constructor <;> sorry\n",
    "theorem t (x : ℕ) : x = x := by\n  refine ⟨?_, sorry⟩\n  sorry\nend Foo\n",
    "namespace Foo\ntheorem t (x : ℕ) : x = x := by\n  have : x = x := by\n    sorry\n  exact (by sorry)\nend Foo\n",
]


@pytest.mark.parametrize("sketch", SKETCHES)
@pytest.mark.parametrize("proof", MADE_UP)
def test_hand_made_sketches(sketch: str, proof: str) -> None:
    holes = len(lean_syntax.holes(sketch))
    _check(sketch, [proof] * holes)


def test_refused_where_a_replacement_could_change_the_reading() -> None:
    sketch = SKETCHES[0]
    for proof in ("simp -- done", "exact h'", "open Real in simp", "simp\ntheorem x : True := trivial"):
        assert filled_module.fill_with_body_span(sketch, [proof, "simp"])[1] is None, proof
    assert filled_module.fill_with_body_span(sketch, ["simp", "simp"])[1] is not None


def test_the_command_word_check_finds_what_a_lookbehind_pattern_finds() -> None:
    """`_has_command_word` looks at the character before a match itself (the regex then skips
    positions that start no keyword); it must refuse exactly what the one-pattern form refuses:
    a keyword not preceded by an ASCII letter or `_` and not followed by an identifier character."""
    import random
    import re

    from lemmaforge.lean.syntax._layout import COMMAND_KEYWORDS, SCOPE_MODIFIERS

    words = sorted(COMMAND_KEYWORDS | SCOPE_MODIFIERS)
    one_pattern = re.compile(r"(?<![A-Za-z_])(?:" + "|".join(sorted(map(re.escape, words), key=len, reverse=True))
                             + r")(?![A-Za-z0-9_'!?])")
    rnd = random.Random(48)
    glue = "ab_xZ3'!? \n.(#@«-é"
    texts = [path.read_text(encoding="utf-8") for path in reference_proof_files()[:60]]
    texts += ["".join(rnd.choice([rnd.choice(words), "".join(rnd.choices(glue, k=rnd.randint(0, 3)))])
                      for _ in range(rnd.randint(1, 5))) for _ in range(20_000)]
    found = [filled_module._has_command_word(t) for t in texts]
    assert found == [one_pattern.search(t) is not None for t in texts]
    assert 0 < sum(found) < len(found)  # both answers occur

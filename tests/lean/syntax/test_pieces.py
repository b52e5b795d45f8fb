"""A hole's lemma key put together from the sketch's tokens (`lean.syntax.pieces`,
`lemmas.lemma_key_from_step`) is the key of the lemma's text, byte for byte, or None (unsure);
and the one hole of a goal's lemma read without a layout analysis (`holes._closing_sorry`) is the
hole the analysis finds; and the lemma text is the text the builder made before, byte for byte.
Differential: the old reading (`theorem_key` of the text
`lemma_from_step` builds, `holes._hole_contexts_uncached`) against the new, on every sketch hole
of DeepSeek-Prover-V2's 438 miniF2F proofs, on sketches made of miniF2F's statements, on
hand-made tricky sketches and on random ones."""

from __future__ import annotations

import importlib
import json
import random

import pytest

from lemmaforge.lean import lemmas
from lemmaforge.lean import syntax as lean_syntax
from tests.conftest import BENCHMARKS, reference_proof_files

holes_module = importlib.import_module("lemmaforge.lean.syntax._holes")


def _builder_before(code: str, step_index: int, *, include_previous: bool, name: str) -> str:
    """`lemmas.lemma_from_step` as it was before it read the sketch through `read_sketch` (commit
    ea15b19): straight from `last_theorem` and `have_steps`."""
    decl = lean_syntax.last_theorem(code)
    if decl is None:
        raise lemmas.LemmaBuildError("no theorem or lemma in the code")
    steps = lean_syntax.have_steps(code)
    if not 0 <= step_index <= len(steps):
        raise lemmas.LemmaBuildError("out of range")
    binders = [decl.binders]
    if include_previous:
        binders += [f"({lemmas._hypothesis_name(s, k)} : {s.full_statement})" for k, s in enumerate(steps[:step_index])]
    if step_index == len(steps):
        statement = decl.type
    else:
        binders.append(steps[step_index].binders)
        statement = steps[step_index].statement
    return lemmas._format_lemma(f"{name}{decl.universe_params}", binders, statement)


def _compare_sketch(code: str, name: str = "goal_sub_1") -> tuple[int, int]:
    """(lemmas built, keys and holes read from tokens) for every hole lemma of `code`; asserts
    that each token reading equals the text reading."""
    built = fast = 0
    for k in range(len(lean_syntax.have_steps(code)) + 1):
        for include_previous in (True, False):
            try:
                text = lemmas.lemma_from_step(code, k, include_previous=include_previous, name=name)
            except lemmas.LemmaBuildError:
                with pytest.raises(lemmas.LemmaBuildError):
                    _builder_before(code, k, include_previous=include_previous, name=name)
                continue
            assert text == _builder_before(code, k, include_previous=include_previous, name=name)
            built += 1
            key = lemmas.lemma_key_from_step(code, k, include_previous=include_previous, name=name)
            closing = holes_module._closing_sorry(text)
            if closing is not None:
                assert closing == holes_module._hole_contexts_uncached(text), (code, k)
            if key is not None:
                assert key == lean_syntax.theorem_key(text), (code, k, include_previous)
                fast += 1
    return built, fast


@pytest.mark.slow  # all 438 reference proofs; the other tests of this file stay fast
def test_reference_proofs_every_hole_lemma_key_is_the_text_key() -> None:
    files = reference_proof_files()
    assert len(files) > 400
    built = fast = 0
    for path in files:
        b, f = _compare_sketch(path.read_text(encoding="utf-8"))
        built, fast = built + b, fast + f
    assert built > 4000
    assert fast > 0.9 * built  # the token path is the common one, not a curiosity


def _sketch_of(statement: str) -> str | None:
    """A sketch of a miniF2F statement: its type as two `have` steps, then the closing hole."""
    decl = lean_syntax.last_theorem(statement)
    if decl is None or decl.body_start is None or not decl.type:
        return None
    head = statement[: decl.body_start].rstrip()
    return f"{head} by\n  have h₀ : {decl.type} := by sorry\n  have : {decl.type} := by\n    sorry\n  sorry\n"


def test_minif2f_statements_as_sketches() -> None:
    path = BENCHMARKS / "minif2f.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) > 200
    built = fast = 0
    for row in rows:
        text = row.get("formal_statement") or row.get("statement") or ""
        sketch = _sketch_of(text)
        if sketch is None:
            continue
        b, f = _compare_sketch(sketch)
        built, fast = built + b, fast + f
    assert built > 1000 and fast > 0.8 * built


TRICKY_STEPS = [
    "x = 1 -- a comment",  # would swallow the `)` of `(h : …)`: refused
    "x = 1 /- block -/ + 0",
    'f "a\nb" = 1',  # a string across lines: reindented, its text changes
    "x' = 1",
    "|x| < 1 ∧ (fun y => y) x = x",
    "|x| < 1 ∧ f = fun y => y",  # `|` and `=>`: a match alternative? refused
    "let y := x; y = x",
    "x = by exact 1",
    "x = sorry",
    "a[i] = x.1 ∧ (f x).g = x .g",
    "∀ n : ℕ, n ! = n",
    "x = (1",
    "x) = (1",
    "«weird» = 1",
    "x = 1\n      ∧ y = 2",
    "x.{u} = 1",
    "open Real in x = 1",
]


@pytest.mark.parametrize("statement", TRICKY_STEPS)
def test_tricky_steps(statement: str) -> None:
    sketch = (
        "theorem t.{u} (x y : ℕ) (f : ℕ → ℕ) :\n    x = x := by\n"
        f"  have h (n : ℕ) : {statement} := by sorry\n  have h₁ : {statement} := sorry\n  sorry\n"
    )
    _compare_sketch(sketch)


def test_refused_where_the_text_could_read_differently() -> None:
    sketch = "theorem t (x : ℕ) : x = x := by\n  have h : x = 1 -- note\n    := by sorry\n  sorry\n"
    assert lean_syntax.have_steps(sketch)
    assert lemmas.lemma_key_from_step(sketch, 1, include_previous=True, name="t_sub_1") is None
    # and a name that is not one plain identifier
    plain = "theorem t (x : ℕ) : x = x := by\n  have h : x = 1 := by sorry\n  sorry\n"
    assert lemmas.lemma_key_from_step(plain, 1, include_previous=True, name="t_sub_1") is not None
    assert lemmas.lemma_key_from_step(plain, 1, include_previous=True, name="theorem") is None


_ATOMS = ["x", "y", "1", "(x + 1)", "f x", "|x - y|", "x.1", "a[i]", "(f x).g", "x'", "¬ x", "fun z => z",
          "(fun z => z) x", "Finset.sum (Finset.range 3) (fun i => i)", "∑ i in s, i", "(2 : ℝ)", "⌊x⌋",
          '"s"', "'c'", "by simp", "sorry", "let w := 1; w", "x /- c -/", "⟨x, y⟩", "x .g", "?m", "@f x"]
_OPS = [" = ", " < ", " ≤ ", " ∧ ", " → ", " + ", " * ", "\n      ∧ ", " ∣ ", " ↔ "]


def test_random_sketches() -> None:
    rng = random.Random(38)
    built = 0
    for _ in range(300):
        steps = []
        for i in range(rng.randint(1, 4)):
            expr = rng.choice(_ATOMS)
            for _ in range(rng.randint(0, 3)):
                expr += rng.choice(_OPS) + rng.choice(_ATOMS)
            binders = rng.choice(["", " (n : ℕ)", " {m : ℕ} (hm : 0 < m)"])
            steps.append(f"  have h{i}{binders} : {expr} := by sorry\n")
        sketch = "theorem r (x y : ℕ) (f : ℕ → ℕ) : x = x := by\n" + "".join(steps) + "  sorry\n"
        b, _ = _compare_sketch(sketch)
        built += b
    assert built > 300

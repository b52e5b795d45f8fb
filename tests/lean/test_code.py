"""Unit tests of lemmaforge.lean.syntax (formerly lean.code) on small, tricky inputs (the real-data tests are in
test_code_reference_proofs.py)."""

from __future__ import annotations

import pytest

from lemmaforge.lean import syntax as C

MINIF2F_HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n\nopen BigOperators Real Nat Topology Rat\n\n"


def sorry_at(code: str, occurrence: int = 0) -> int:
    """Offset of the `occurrence`-th literal `sorry` in `code` (test helper, no lexing)."""
    offset = -1
    for _ in range(occurrence + 1):
        offset = code.index("sorry", offset + 1)
    return offset


# --- split_header ---------------------------------------------------------------------------


class TestSplitHeader:
    def test_minif2f_header_and_rest(self) -> None:
        code = MINIF2F_HEADER + "theorem t : 1 = 1 := by\n  sorry"
        assert C.split_header(code) == (MINIF2F_HEADER, "theorem t : 1 = 1 := by\n  sorry")

    def test_comments_between_header_lines_belong_to_it(self) -> None:
        code = "import Mathlib\n-- why\n/- block -/\nopen Real\n\n-- about t\ntheorem t : True := trivial\n"
        header, rest = C.split_header(code)
        assert header == "import Mathlib\n-- why\n/- block -/\nopen Real\n\n"
        assert rest.startswith("-- about t\ntheorem")

    def test_set_option_in_is_a_declaration_prefix(self) -> None:
        code = "import Mathlib\nset_option maxHeartbeats 400000 in\ntheorem t : True := trivial"
        assert C.split_header(code) == ("import Mathlib\n", code[len("import Mathlib\n") :])

    def test_docstring_ends_header_and_continuation_lines_do_not(self) -> None:
        code = "import Mathlib\nopen Real\n  Nat -- trailing\n/-- doc -/\ntheorem t : True := trivial"
        header, rest = C.split_header(code)
        assert header == "import Mathlib\nopen Real\n  Nat -- trailing\n"
        assert rest.startswith("/-- doc -/")

    @pytest.mark.parametrize(
        "code",
        ["", "theorem t : True := trivial", "import Mathlib", "import Mathlib\n\n\n", "-- c\nimport A\nuniverse u\n"],
    )
    def test_header_plus_rest_is_code(self, code: str) -> None:
        header, rest = C.split_header(code)
        assert header + rest == code

    def test_no_header(self) -> None:
        assert C.split_header("theorem t : True := trivial") == ("", "theorem t : True := trivial")

    def test_import_inside_a_comment_is_not_header(self) -> None:
        code = "/- import Mathlib -/\ntheorem t : True := trivial"
        assert C.split_header(code)[0] == ""


# --- comments, strings, tokens ----------------------------------------------------------------


class TestStripComments:
    def test_offsets_and_newlines_preserved(self) -> None:
        code = "a /- x /- nested -/ y\n -/ b -- c\n/-- doc -/ d \"-- not a comment\""
        out = C.strip_comments(code)
        assert len(out) == len(code)
        assert [i for i, c in enumerate(out) if c == "\n"] == [i for i, c in enumerate(code) if c == "\n"]
        assert out.split() == ["a", "b", "d", '"--', "not", "a", 'comment"']

    def test_unterminated_block_comment_runs_to_end(self) -> None:
        assert C.strip_comments("a /- b").strip() == "a"


class TestHoles:
    def test_only_real_tokens(self) -> None:
        code = (
            "/- sorry /- nested sorry -/ still sorry -/\n"
            "-- sorry\n"
            "/-- doc sorry -/\n"
            "/-! module sorry -/\n"
            'theorem t : "sorry \\" sorry" = "x" ∧ \'s\' = \'\\\'\' := by\n'
            "  have h_sorry := sorryAx _\n"
            "  exact «sorry» x.sorry ?sorry .sorry `sorry ``sorry sorry' h!sorry Foo.sorry\n"
            "  sorry"
        )
        found = C.holes(code)
        assert [h.offset for h in found] == [code.rindex("sorry")]

    def test_interpolated_string_code_counts(self) -> None:
        code = 'theorem t : s!"a {sorry} sorry" = "" := by\n  sorry'
        assert [h.offset for h in C.holes(code)] == [sorry_at(code, 0), sorry_at(code, 2)]

    def test_line_and_column_in_code_points(self) -> None:
        code = "theorem t (h₁ : α = β) : ∀ x : ℝ, x = x := by\n  intro x; exact (h₁ ▸ sorry)\n  · sorry"
        first, second = C.holes(code)
        assert (first.line, first.column) == (2, code.split("\n")[1].index("sorry"))
        # `h₁` and `▸` are one code point each (UTF-8 would count 3 bytes for each).
        assert first.column == len("  intro x; exact (h₁ ▸ ") == 23
        assert (second.line, second.column) == (3, 4)
        assert code[first.offset : first.end] == "sorry"

    @pytest.mark.parametrize(
        ("code", "expected"),
        [
            ("theorem t : P := by sorry", ["tactic"]),
            ("theorem t : P := sorry", ["term"]),
            ("theorem t : P :=\nsorry", ["term"]),
            ("theorem t : P := by\n  exact sorry", ["term"]),
            ("theorem t : P := by\n  exact foo (sorry) (by sorry)", ["term", "tactic"]),
            ("theorem t : P := by\n  constructor\n  · sorry\n  · simp\n    sorry", ["tactic", "tactic"]),
            ("theorem t : P := by\n  constructor <;> sorry\n  all_goals sorry\n  try sorry\n  simp; sorry",
             ["tactic"] * 4),
            ("theorem t : P := by\n  exact fun x => sorry\n  refine ⟨sorry, ?_⟩", ["term", "term"]),
            ("theorem t : P := by\n  induction n with\n  | zero => sorry\n  | succ n ih =>\n    sorry\n"
             "  case h => sorry\n  next => sorry", ["tactic"] * 4),
            ("theorem t : P := by\n  exact match h with\n    | .inl h => sorry\n    | .inr h => sorry", ["term", "term"]),
            ("theorem t : P := by\n  if h : x then sorry else sorry", ["tactic", "tactic"]),
            ("theorem t : P := by\n  if h : x then\n    sorry\n  else\n    sorry\n  exact if c then sorry else sorry",
             ["tactic", "tactic", "term", "term"]),
            ("theorem t : P := by\n  calc a = b := by sorry\n    _ = c := sorry", ["tactic", "term"]),
            ("theorem t : P := by\n  have h : Q := sorry\n  sorry", ["term", "tactic"]),
            ("theorem t : P := by\n  apply foo\n    sorry\n  sorry", ["term", "tactic"]),
            ("theorem t : P := by\n  first | sorry | simp\n  (sorry)", ["tactic", "tactic"]),
        ],
    )
    def test_tactic_vs_term(self, code: str, expected: list[str]) -> None:
        assert [h.position for h in C.holes(code)] == expected

    def test_find_tokens(self) -> None:
        code = "theorem x : y := by\n  admit -- admit\n  exact sorryAx _ \"sorryAx\"\n  exact _root_.sorryAx\n  #eval 1"
        found = C.find_tokens(code, ["admit", "sorryAx", "#eval", "sorry"])
        assert [(m.text, m.line, m.column) for m in found] == [
            ("admit", 2, 2),
            ("sorryAx", 3, 8),
            ("_root_.sorryAx", 4, 8),
            ("#eval", 5, 2),
        ]

    def test_find_tokens_reads_escaped_names_as_lean_does(self) -> None:
        # `«sorryAx»` is the name `sorryAx` to Lean; `«sorry Ax»` is another name.
        code = "example : False := by\n  exact _root_.«sorryAx» _ false\n  exact «sorryAx» _\n  exact «sorry Ax»"
        found = C.find_tokens(code, ["sorryAx"])
        assert [(m.text, m.line) for m in found] == [("_root_.«sorryAx»", 2), ("«sorryAx»", 3)]


class TestNormalize:
    def test_whitespace(self) -> None:
        assert C.normalize_whitespace("  a \n\t b  c\n") == "a b c"

    def test_code(self) -> None:
        assert C.normalize_code("f  (x -- c\n   : ℕ) /- d -/ \"a  b\"") == 'f (x : ℕ) "a  b"'
        assert C.normalize_code("a[i]") != C.normalize_code("a [i]")


# --- declarations ---------------------------------------------------------------------------


class TestDeclarations:
    def test_binders_type_and_body(self) -> None:
        code = (
            "/-- doc with := and : inside -/\n"
            "@[simp] private theorem foo {α : Type*} [inst : Foo α] (s : Set α)\n"
            "    (h : ∀ x, x ∈ s → ∃ y : α, y = x) (f : α → α := id) :\n"
            "    |s.ncard| ≥ 0 ∧ ∀ z : α, z = z := by\n"
            "  simp"
        )
        (d,) = C.declarations(code)
        assert (d.kind, d.name) == ("theorem", "foo")
        assert d.binders.startswith("{α : Type*} [inst : Foo α]") and d.binders.endswith("(f : α → α := id)")
        assert d.type == "|s.ncard| ≥ 0 ∧ ∀ z : α, z = z"
        assert code[d.body_start :] == " by\n  simp"
        assert d.start == 0 and d.end == len(code) and d.docstring == "/-- doc with := and : inside -/"
        assert d.modifiers == ("@[simp]", "private")
        assert d.signature == code[d.signature_start : code.index(":= by")].strip()

    def test_putnam_term_statement_and_answer_abbrev(self) -> None:
        code = (
            "import Mathlib\n\nabbrev putnam_x_solution : Set ℕ := sorry\n-- {1}\n"
            "/--\nFind n.\n-/\ntheorem putnam_x\n(n : ℕ)\n(hn : n > 0)\n: n ∈ putnam_x_solution ↔ n = 1 :=\nsorry"
        )
        abbrev, thm = C.declarations(code)
        assert (abbrev.kind, abbrev.name, abbrev.type, abbrev.body.strip()) == ("abbrev", "putnam_x_solution", "Set ℕ", "sorry")
        assert abbrev.end == code.index("\n-- {1}")
        assert (thm.name, thm.binders, thm.type) == ("putnam_x", "(n : ℕ)\n(hn : n > 0)", "n ∈ putnam_x_solution ↔ n = 1")
        assert thm.body.strip() == "sorry" and thm.start == code.index("/--\nFind")
        assert C.last_theorem(code) == thm
        assert C.answer_slots(code) == [abbrev]

    def test_prefixes_universes_and_other_kinds(self) -> None:
        code = (
            "namespace N\n"
            "set_option maxHeartbeats 400000 in\nopen Real in\n"
            "lemma bar.{u} {α : Sort u} (a : α) : a = a := rfl\n"
            "end N\n"
            "instance : Inhabited ℕ := ⟨0⟩\n"
            "example : True := trivial\n"
            "def f : ℕ → ℕ\n  | 0 => 1\n  | n + 1 => n\n"
            "structure S where\n  x : ℕ\n"
        )
        kinds = [(d.kind, d.name) for d in C.declarations(code)]
        assert kinds == [("lemma", "bar"), ("instance", ""), ("example", ""), ("def", "f"), ("structure", "S")]
        bar = C.last_theorem(code)
        assert bar is not None and bar.universe_params == ".{u}" and bar.binders == "{α : Sort u} (a : α)"
        assert bar.prefix_commands == ("set_option maxHeartbeats 400000 in", "open Real in")
        assert bar.start == code.index("set_option") and bar.type == "a = a"
        f = C.declarations(code)[3]
        assert f.type == "ℕ → ℕ" and f.body_start is None

    def test_no_theorem(self) -> None:
        assert C.last_theorem("def x := 1") is None
        assert C.last_theorem("") is None


# --- same_statement / preamble ------------------------------------------------------------------

STATEMENT = (
    MINIF2F_HEADER
    + "/-- doc -/\ntheorem mathd_t (x : ℝ) (h₀ : 0 < x)\n    (h₁ : x ^ 2 = 4) : x = 2 := by\n  sorry"
)


class TestSameStatement:
    @pytest.mark.parametrize(
        "candidate",
        [
            STATEMENT.replace("  sorry", "  nlinarith [h₀, h₁]"),
            STATEMENT.replace("\n    (h₁", " (h₁").replace("/-- doc -/", "-- proof below"),
            STATEMENT.replace("theorem mathd_t", "lemma mathd_t").replace("(h₀ : 0 < x)", "(h₀ : 0 /- pos -/ <   x)"),
            STATEMENT.replace("theorem", "set_option maxHeartbeats 400000 in\n@[simp] theorem"),
            # One normaliser, whitespace-insensitive (issue 8): Lean reads the same tokens.
            STATEMENT.replace("(x : ℝ)", "(x:ℝ)"),
            "theorem helper : True := trivial\n" + STATEMENT.replace(":= by\n  sorry", ":=\n  by nlinarith"),
            # The target is found by the original's name (issue 37): a lemma after it is not it.
            STATEMENT + "\n\ntheorem extra : True := trivial",
        ],
    )
    def test_same(self, candidate: str) -> None:
        assert C.same_statement(STATEMENT, candidate)

    @pytest.mark.parametrize(
        "candidate",
        [
            STATEMENT.replace("0 < x", "0 ≤ x"),  # changed hypothesis
            STATEMENT.replace("x = 2 :=", "x = -2 :="),  # changed type
            STATEMENT.replace("mathd_t", "mathd_u"),  # changed name
            STATEMENT.replace("(h₀ : 0 < x)", "(h₀ : 0 < x) (hx : x ≠ 3)"),  # added binder
            STATEMENT.replace("(x : ℝ)", "(x : ℚ)"),
            STATEMENT.replace("theorem", "open Nat in\ntheorem"),  # may change notation
            "def x := 1",
        ],
    )
    def test_different(self, candidate: str) -> None:
        assert not C.same_statement(STATEMENT, candidate)


PUTNAM = (
    "import Mathlib\n\nopen Real\n\nabbrev putnam_s : ℕ := sorry\n-- 3\n"
    "def helper (n : ℕ) : ℕ := n\n\ntheorem putnam_t : helper putnam_s = 3 :=\nsorry"
)


class TestPreamble:
    def test_unchanged_and_answer_filled(self) -> None:
        filled = PUTNAM.replace(":= sorry\n-- 3", ":= 3").replace(":=\nsorry", ":= by\n  rfl")
        assert C.preamble_diff(PUTNAM, filled) == []
        assert C.filled_answers(PUTNAM, filled) == {"putnam_s": "3"}
        assert C.preamble_changed(PUTNAM, filled, allow_answer_slots=False)

    def test_allowed_additions(self) -> None:
        candidate = PUTNAM.replace("open Real\n", "open Real\nset_option maxHeartbeats 400000\n")
        candidate = candidate.replace("theorem putnam_t", "lemma aux : 1 = 1 := rfl\n\ntheorem putnam_t")
        assert not C.preamble_changed(PUTNAM, candidate)
        assert C.preamble_changed(PUTNAM, candidate, allow_added_lemmas=False)

    @pytest.mark.parametrize(
        "candidate",
        [
            PUTNAM.replace("def helper (n : ℕ) : ℕ := n", "def helper (n : ℕ) : ℕ := 3"),
            PUTNAM.replace("abbrev putnam_s : ℕ", "abbrev putnam_s : ℤ"),
            PUTNAM.replace("open Real\n", "open Real Nat\n"),
            PUTNAM.replace("def helper", "instance : Inhabited ℝ := ⟨1⟩\ndef helper"),
            PUTNAM.replace("import Mathlib\n", "import Mathlib\nimport Other\n"),
            PUTNAM.replace("def helper (n : ℕ) : ℕ := n\n", ""),
        ],
    )
    def test_changes(self, candidate: str) -> None:
        assert C.preamble_diff(PUTNAM, candidate)


# --- have steps -------------------------------------------------------------------------------

PROOF = """theorem t (a b : ℝ) (h : a < b) : a + 1 < b + 1 ∧ True := by
  -- a comment at the top
  have h₁ : a + 1 <
      b + 1 := by
    -- inside
    linarith
  have : (0 : ℝ) < 1 := by norm_num
    <;> simp
  intro_nothing
  have h₂ (n : ℕ) : (n : ℝ) ≥ 0 := fun n => by positivity
  obtain ⟨c, hc⟩ : ∃ c : ℝ, c = a := ⟨a, rfl⟩
  obtain ⟨d, hd⟩ := h
  have h₃ := h₁
  have h₄ : True := by
    trivial
  <;> simp
  constructor
  · have inner : True := trivial
    linarith
  · trivial"""


class TestHaveSteps:
    def test_kinds_names_statements(self) -> None:
        steps = C.have_steps(PROOF)
        assert [(s.kind, s.name, s.binders, s.statement) for s in steps] == [
            ("have", "h₁", "", "a + 1 <\n      b + 1"),
            ("have", "this", "", "(0 : ℝ) < 1"),
            ("have", "h₂", "(n : ℕ)", "(n : ℝ) ≥ 0"),
            ("obtain", "⟨c, hc⟩", "", "∃ c : ℝ, c = a"),
            ("have", "h₄", "", "True"),
        ]
        assert [s.by_proof for s in steps] == [True, True, False, False, True]
        assert steps[2].full_statement == "∀ (n : ℕ), (n : ℝ) ≥ 0"

    def test_extents(self) -> None:
        h1, this, _, obtain, h4 = C.have_steps(PROOF)
        assert PROOF[h1.start : h1.end].endswith("    linarith")
        assert h1.proof.startswith("by\n    -- inside") and (h1.line, h1.column) == (3, 2)
        assert this.proof == "by norm_num\n    <;> simp"  # deeper continuation: part of the proof
        assert obtain.proof == "⟨a, rfl⟩"
        # A continuation at the step's own column belongs to the step, not to its proof.
        assert h4.proof == "by\n    trivial" and PROOF[h4.start : h4.end].endswith("  <;> simp")

    def test_term_mode_and_no_theorem(self) -> None:
        assert C.have_steps("theorem t : True := trivial") == []
        assert C.have_steps("def x : ℕ := by\n  have h : True := trivial\n  exact 1") == []

    def test_last_theorem_only(self) -> None:
        code = "theorem a : True := by\n  have x : True := trivial\n  trivial\n\n" + PROOF
        assert len(C.have_steps(code)) == 5


# --- fill -------------------------------------------------------------------------------------


class TestFill:
    def test_by_sorry_becomes_indented_block(self) -> None:
        code = "theorem t : P := by\n  have h : Q := by sorry\n  exact h"
        out = C.fill(code, ["    constructor\n    · simp\n    · linarith"])
        assert out == "theorem t : P := by\n  have h : Q := by\n    constructor\n    · simp\n    · linarith\n  exact h"

    def test_single_line_stays_inline_and_by_is_not_doubled(self) -> None:
        code = "theorem t : P := by\n  have h : Q := by sorry\n  exact h"
        assert C.fill(code, ["by simp"]) == "theorem t : P := by\n  have h : Q := by simp\n  exact h"
        assert C.fill(code, ["by\n  simp\n  ring"]) == C.fill(code, ["simp\nring"])

    def test_tactic_hole_in_the_middle_of_a_block(self) -> None:
        code = "theorem t : P := by\n  intro x\n  sorry\n  exact h"
        out = C.fill(code, ["\n      have : x = x := rfl\n      simp [this]\n"])
        assert out == "theorem t : P := by\n  intro x\n  have : x = x := rfl\n  simp [this]\n  exact h"

    def test_bullet_and_combinator_holes(self) -> None:
        code = "theorem t : P := by\n  constructor\n  · sorry\n  all_goals simp <;> sorry"
        out = C.fill(code, ["intro x\nsimp", "norm_num\nlinarith"])
        assert out == (
            "theorem t : P := by\n  constructor\n  · intro x\n    simp\n  all_goals simp <;> (norm_num\n                      linarith)"
        )

    def test_term_holes(self) -> None:
        code = "theorem t : P := by\n  exact foo (sorry) sorry\n  have h : Q := sorry\n  exact h"
        out = C.fill(code, ["simp", "nlinarith [a,\n  b]", "norm_num\nlinarith"])
        assert out == (
            "theorem t : P := by\n  exact foo ((by simp)) (by\n    nlinarith [a,\n      b])\n"
            "  have h : Q := by\n    norm_num\n    linarith\n  exact h"
        )

    def test_by_hole_inside_a_term(self) -> None:
        code = "theorem t : P := by\n  · exact foo (by sorry) (by sorry)"
        out = C.fill(code, ["simp\nring", "simp\nring"])
        # More code after it: one parenthesized tactic; only `)`: a block on the next lines,
        # two columns deeper than the bullet's block.
        assert out == (
            "theorem t : P := by\n  · exact foo (by (simp\n" + " " * 19 + "ring)) (by\n      simp\n      ring)"
        )
        assert [h.position for h in C.holes(code)] == ["tactic", "tactic"]

    def test_bad_proofs(self) -> None:
        code = "theorem t : P := by\n  sorry"
        for empty in ("", "  \n ", "by", "by\n"):
            with pytest.raises(ValueError, match="empty proof"):
                C.fill(code, [empty])
        with pytest.raises(TypeError):
            C.fill(code, "simp")

    def test_putnam_term_statement(self) -> None:
        code = "theorem t\n(n : ℕ)\n: n = n :=\nsorry"
        assert C.fill(code, ["rfl"]) == "theorem t\n(n : ℕ)\n: n = n := by rfl"
        assert C.fill(code, ["intro\nrfl"]) == "theorem t\n(n : ℕ)\n: n = n := by\n  intro\n  rfl"

    def test_dict_none_and_sorry_leave_holes(self) -> None:
        code = "theorem t : P := by\n  have h : Q := by sorry\n  sorry"
        assert C.fill(code, {1: "exact h"}) == "theorem t : P := by\n  have h : Q := by sorry\n  exact h"
        assert C.fill(code, [None, "sorry"]) == code
        with pytest.raises(ValueError):
            C.fill(code, ["simp"])
        with pytest.raises(ValueError):
            C.fill(code, {2: "simp"})

    def test_term_proof(self) -> None:
        code = "theorem t : P := by\n  have h : Q := by sorry\n  sorry"
        out = C.fill(code, [C.TermProof("foo\n  bar"), C.TermProof("h")])
        assert out == "theorem t : P := by\n  have h : Q := foo\n      bar\n  exact h"


# --- skeleton and consistency ---------------------------------------------------------------


class TestSkeleton:
    def test_sketch_and_pieces(self) -> None:
        sketch, pieces = C.skeleton(PROOF)
        assert sketch.startswith("theorem t (a b : ℝ) (h : a < b) : a + 1 < b + 1 ∧ True := by\n  -- a comment")
        assert "  have h₁ : a + 1 <\n      b + 1 := by sorry\n" in sketch
        assert "  have h₂ (n : ℕ) : (n : ℝ) ≥ 0 := by sorry\n" in sketch
        assert "  have h₄ : True := by sorry\n  <;> simp\n  sorry" in sketch
        assert "  intro_nothing\n" in sketch and "  obtain ⟨d, hd⟩ := h\n" in sketch  # non-steps stay
        assert pieces[0] == "-- inside\nlinarith"
        assert pieces[1] == "norm_num\n<;> simp"
        assert isinstance(pieces[2], C.TermProof) and pieces[2] == "fun n => by positivity"
        assert pieces[-1] == "constructor\n· have inner : True := trivial\n  linarith\n· trivial"
        assert len(pieces) == len(C.holes(sketch)) == len(C.have_steps(PROOF)) + 1
        assert C.normalize_whitespace(C.fill(sketch, pieces)) == C.normalize_whitespace(PROOF)

    def test_term_mode_theorem(self) -> None:
        code = "theorem t : P :=\n  foo\n    bar"
        sketch, pieces = C.skeleton(code)
        assert sketch == "theorem t : P := by\n  sorry" and pieces == ["foo\n  bar"]
        assert C.fill(sketch, pieces) == "theorem t : P := foo\n    bar"

    def test_existing_sorry_kept_as_sorry_piece(self) -> None:
        code = "theorem t : P := by\n  have h : Q := by\n    simp\n  exact foo sorry"
        sketch, pieces = C.skeleton(code)
        assert pieces == ["simp", "exact foo sorry"]
        code2 = "theorem t : P := by\n  intro x; exact sorry\n  have h : Q := by simp\n  exact h"
        sketch2, pieces2 = C.skeleton(code2)
        assert pieces2 == ["sorry", "simp", "exact h"]
        assert C.fill(sketch2, pieces2) == code2

    def test_no_theorem_raises(self) -> None:
        with pytest.raises(ValueError):
            C.skeleton("def x := 1")


class TestStructureConsistency:
    SKETCH = "theorem t : P := by\n  have a : A := by sorry\n  have b : B x := by sorry\n  have b' : B x := by sorry\n  sorry"

    def test_full_partial_and_multiset(self) -> None:
        full = self.SKETCH.replace("sorry", "simp")
        assert C.structure_consistency(self.SKETCH, full) == 1.0
        nested = "theorem t : P := by\n  constructor\n  · have a : A := h\n    have b : B  x := h\n    have c : B x := h"
        assert C.structure_consistency(self.SKETCH, nested) == 1.0
        one_b = "theorem t : P := by\n  have a : A := by simp\n  have b : B x := by simp\n  simp"
        assert C.structure_consistency(self.SKETCH, one_b) == pytest.approx(2 / 3)
        assert C.structure_consistency(self.SKETCH, "theorem t : P := by simp") == 0.0

    def test_empty_sketch_is_consistent(self) -> None:
        assert C.structure_consistency("theorem t : P := by\n  sorry", "theorem t : P := by simp") == 1.0

"""Commands are found wherever Lean finds them: any column, the same line as another command,
after `in`; indented commands are seen by every tool built on them."""

from __future__ import annotations

import pytest

from lemmaforge.lean.syntax import (
    COMMAND_KEYWORDS,
    declarations,
    last_theorem,
    preamble_diff,
    same_statement,
    split_commands,
    split_header,
)

HEADER = "import Mathlib\nopen Real\n\n"
THEOREM = "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by\n  positivity"


def keywords(code: str) -> list[str]:
    return [c.keyword for c in split_commands(code)]


class TestCommandStarts:
    @pytest.mark.parametrize(
        ("code", "expected"),
        [
            ("(t)#exit", ["", "#exit"]),
            ("theorem a : True := by\n  trivial\n  #eval 1", ["theorem", "#eval"]),
            ("theorem a : True := by trivial; #print axioms a", ["theorem", "#print"]),
            ("theorem a : (1 = 1 := by simp\n#eval IO.println 1", ["theorem", "#eval"]),
            ("  instance : Inhabited ℕ := ⟨0⟩", ["instance"]),
            ("theorem a : True := trivial theorem b : True := trivial", ["theorem", "theorem"]),
            ('notation3 "x" => 1', ["notation3"]),
            ("noncomputable section\nend", ["section", "end"]),
            ("deriving instance Repr for Foo", ["deriving"]),
            ("structure S where\n  x : ℕ\nderiving Repr", ["structure"]),
            ("class inductive C | a", ["class"]),
            ("open scoped Real", ["open"]),
            ('local notation "y" => 2', ["notation"]),
            ("mutual\ndef a := 1\nend", ["mutual", "def", "end"]),
            ("run_cmd pure ()\nrun_elab pure ()\nrun_meta pure ()", ["run_cmd", "run_elab", "run_meta"]),
            ("initialize foo : IO.Ref ℕ ← IO.mkRef 0", ["initialize"]),
            (
                'macro "m" : tactic => `(tactic| rfl)\nelab_rules : tactic | _ => pure ()',
                ["macro", "elab_rules"],
            ),
            ("universe u\nvariable (x : ℕ)\nexport Nat (succ)", ["universe", "variable", "export"]),
        ],
    )
    def test_keywords(self, code: str, expected: list[str]) -> None:
        assert keywords(code) == expected

    def test_tactic_open_and_set_option_are_not_commands(self) -> None:
        code = "theorem a : True := by\n  open Real in\n  set_option maxRecDepth 100 in\n  trivial"
        assert keywords(code) == ["theorem"]
        assert keywords("theorem a : True := open Real in trivial") == ["theorem"]

    def test_open_after_a_term_proof_is_a_command(self) -> None:
        assert keywords("theorem a : True := trivial\n  open Real\ntheorem b : True := trivial") == [
            "theorem",
            "open",
            "theorem",
        ]

    def test_in_chains_become_prefixes(self) -> None:
        code = "set_option maxHeartbeats 400000 in open Real in\nattribute [local simp] foo in\ntheorem t : True := trivial"
        (cmd,) = split_commands(code)
        assert cmd.keyword == "theorem" and cmd.start == 0
        assert [p.keyword for p in cmd.prefixes] == ["set_option", "open", "attribute"]
        assert cmd.prefixes[0].args == ("maxHeartbeats", "400000", "in")
        assert cmd.prefixes[2].attributes == ("simp",)

    def test_prefix_before_hash_command(self) -> None:
        (cmd,) = split_commands('open Lean in run_cmd logInfo "x"')
        assert cmd.keyword == "run_cmd" and [p.keyword for p in cmd.prefixes] == ["open"]

    def test_sum_in_is_not_a_prefix(self) -> None:
        assert keywords("theorem a : ∑ i in Finset.range 3, i = 3 := by decide") == ["theorem"]

    def test_every_command_keyword_starts_a_command(self) -> None:
        for kw in sorted(COMMAND_KEYWORDS - {"open", "set_option", "deriving"}):
            code = f"theorem a : True := trivial\n{kw} foo"
            assert split_commands(code)[-1].keyword_start == code.index(f"\n{kw}") + 1, kw


class TestCommandFields:
    def test_attributes_modifiers_docstring(self) -> None:
        code = '/-- doc -/\n@[implemented_by g, simp, extern "c"] private noncomputable def f : ℕ := 1'
        (cmd,) = split_commands(code)
        assert cmd.keyword == "def" and cmd.name == "f" and cmd.start == 0
        assert cmd.attributes == ("implemented_by", "simp", "extern")
        assert cmd.modifiers == ("private", "noncomputable")
        assert cmd.docstring == "/-- doc -/"

    def test_attribute_command_names(self) -> None:
        (cmd,) = split_commands("attribute [csimp, local instance, -simp] foo")
        assert cmd.keyword == "attribute" and cmd.attributes == ("csimp", "instance", "simp")

    def test_instance_in_attribute_list_is_not_a_command(self) -> None:
        assert keywords("@[instance] def f : Inhabited ℕ := ⟨0⟩") == ["def"]

    def test_full_names(self) -> None:
        code = (
            "namespace A.B\nsection S\ntheorem foo' : True := trivial\nend S\n"
            "theorem _root_.top : True := trivial\nend A.B\ntheorem «x y».z : True := trivial\n"
            "namespace C\nmutual\ndef m := 1\nend\ndef n := 2\nend C"
        )
        names = [(c.name, c.full_name) for c in split_commands(code) if c.name]
        assert names == [
            ("foo'", "A.B.foo'"),
            ("_root_.top", "top"),
            ("«x y».z", "«x y».z"),
            ("m", "C.m"),
            ("n", "C.n"),
        ]

    def test_module_doc_is_a_command(self) -> None:
        assert keywords("/-! module doc -/\ntheorem a : True := trivial") == ["/-!", "theorem"]

    def test_doc_slash_is_a_docstring(self) -> None:
        code = "/--/ theorem hidden : False := sorry -/\ntheorem t : True := trivial"
        (cmd,) = split_commands(code)
        assert cmd.name == "t" and cmd.docstring is not None and cmd.docstring.startswith("/--/")
        assert last_theorem(code) is not None and last_theorem(code).name == "t"  # type: ignore[union-attr]


class TestIndentedCommandsAreSeen:
    @pytest.mark.parametrize(
        "addition",
        [
            "  instance : Inhabited ℝ := ⟨1⟩\n",
            "  variable (y : ℝ)\n",
            "namespace Real\n  def x := 1\nend Real\n",
            '  notation3 "π\'" => 3\n',
            "  axiom cheat : False\n",
        ],
    )
    def test_preamble_diff_sees_indented_additions(self, addition: str) -> None:
        original = HEADER + THEOREM
        candidate = HEADER + addition + THEOREM
        assert preamble_diff(original, candidate) != []

    def test_indented_theorem_is_the_last_theorem(self) -> None:
        code = HEADER + THEOREM + "\n  theorem t2 : True := trivial"
        decl = last_theorem(code)
        assert decl is not None and decl.name == "t2"

    def test_split_header_sees_indented_header_commands_and_stops_at_indented_def(self) -> None:
        code = "import Mathlib\n  open Real\n  def x := 1\n" + THEOREM
        header, rest = split_header(code)
        assert header == "import Mathlib\n  open Real\n" and rest.startswith("  def x")

    def test_open_in_after_harmless_prefix_is_compared(self) -> None:
        original = HEADER + THEOREM
        tampered = HEADER + "set_option maxHeartbeats 400000 in open Nat in\n" + THEOREM
        harmless = HEADER + "set_option maxHeartbeats 400000 in\n" + THEOREM
        assert not same_statement(original, tampered)
        assert same_statement(original, harmless)
        assert same_statement(tampered, tampered)

    def test_notation3_addition_is_reported(self) -> None:
        candidate = HEADER + 'notation3 "x²" => 4\n' + THEOREM
        assert any("notation3" in line for line in preamble_diff(HEADER + THEOREM, candidate))

    def test_primed_and_guillemet_names(self) -> None:
        for name in ("t'", "«t x»", "t₁'"):
            code = HEADER + THEOREM.replace("theorem t ", f"theorem {name} ")
            decl = last_theorem(code)
            assert decl is not None and decl.name == name and decl.type == "0 < x ^ 2"
            assert same_statement(code, code) and not same_statement(HEADER + THEOREM, code)

    def test_an_escaped_name_is_the_name_lean_reads(self) -> None:
        # `«t»` is `t` to Lean (an honest proof may write it so); `«t.x»` is one component, not
        # `t.x`, and `«t x»` is another name altogether.
        escaped = HEADER + THEOREM.replace("theorem t ", "theorem «t» ")
        assert same_statement(HEADER + THEOREM, escaped) and same_statement(escaped, HEADER + THEOREM)
        dotted = HEADER + THEOREM.replace("theorem t ", "theorem t.x ")
        one_part = HEADER + THEOREM.replace("theorem t ", "theorem «t.x» ")
        parts = HEADER + THEOREM.replace("theorem t ", "theorem «t».«x» ")
        assert not same_statement(dotted, one_part) and same_statement(dotted, parts)


def test_split_header_stops_before_a_command_on_the_same_line() -> None:
    code = "import Mathlib\nopen Real theorem t : True := trivial"
    header, rest = split_header(code)
    assert header == "import Mathlib\nopen Real" and rest == " theorem t : True := trivial"


def test_hash_command_in_prefix_chain() -> None:
    (cmd,) = split_commands("#guard_msgs in\nopen Real in\ntheorem t : True := trivial")
    assert cmd.keyword == "theorem" and [p.keyword for p in cmd.prefixes] == ["#guard_msgs", "open"]
    (cmd,) = split_commands("count_heartbeats in\ntheorem t : True := trivial")
    assert [p.keyword for p in cmd.prefixes] == ["count_heartbeats"]


def test_print_axioms_is_one_command() -> None:
    (cmd,) = split_commands("#print axioms Foo.bar'")
    assert cmd.keyword == "#print" and cmd.args == ("axioms", "Foo.bar'")


def test_any_command_can_be_an_in_prefix() -> None:
    # Lean: `cmd in cmd` for every command; the instance is scoped to the theorem.
    code = "instance : Inhabited ℕ := ⟨7⟩ in\ntheorem t : (default : ℕ) = 7 := rfl"
    (cmd,) = split_commands(code)
    assert cmd.keyword == "theorem" and [p.keyword for p in cmd.prefixes] == ["instance"]
    original = "theorem t : (default : ℕ) = 7 := sorry"
    assert not same_statement(original, code)


def test_tactic_in_is_not_a_prefix() -> None:
    code = "theorem a : True := by\n  open Real in\ntheorem b : True := trivial"
    assert [(c.keyword, len(c.prefixes)) for c in split_commands(code)] == [("theorem", 0), ("theorem", 0)]


@pytest.mark.parametrize(
    ("code", "name", "signature"),
    [
        ("instance (priority := low) instFoo : Inhabited ℕ := ⟨0⟩", "instFoo", ": Inhabited ℕ"),
        ("theorem foo.{u} (α : Sort u) : α = α := rfl", "foo", "(α : Sort u) : α = α"),
        ("abbrev putnam_sol : ℕ := sorry", "putnam_sol", ": ℕ"),
        ("protected lemma Nat.x' : True := trivial", "Nat.x'", ": True"),
    ],
)
def test_declaration_names_and_signatures(code: str, name: str, signature: str) -> None:
    (decl,) = declarations(code)
    assert decl.name == name and decl.signature == signature
    (cmd,) = split_commands(code)
    assert cmd.name == name and cmd.full_name == name


def test_universe_params_are_kept() -> None:
    (decl,) = declarations("theorem foo.{u} (α : Sort u) : α = α := rfl")
    assert decl.universe_params == ".{u}" and decl.statement == "theorem foo.{u} (α : Sort u) : α = α"

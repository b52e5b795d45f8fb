"""The lexer reads text the way Lean's `Parser/Basic.lean` does."""

from __future__ import annotations

import pytest

from lemmaforge.lean.syntax import format_name, lex, name_components, strip_comments, tokens


def kinds(code: str) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in lex(code)]


class TestComments:
    def test_doc_opener_with_slash_is_a_doc_comment_not_an_empty_comment(self) -> None:
        # Lean: `/--` is the doc-comment token; the `-/` overlapping it does not close it.
        code = "/--/ theorem hidden : False := sorry -/\ntheorem t : True := trivial"
        toks = lex(code)
        assert toks[0].kind == "doc" and toks[0].text == "/--/ theorem hidden : False := sorry -/"
        assert [t.text for t in tokens(code)][:2] == ["theorem", "t"]

    def test_char_after_block_opener_is_skipped(self) -> None:
        # whitespace: `/-` + one unread char, then finishCommentBlock: `/-/- x -/` is one comment.
        assert kinds("/-/- x -/ y") == [("comment", "/-/- x -/"), ("ident", "y")]

    def test_nested_block_comments(self) -> None:
        assert kinds("/- a /- b -/ c -/ d") == [("comment", "/- a /- b -/ c -/"), ("ident", "d")]

    def test_module_doc_and_unterminated(self) -> None:
        assert kinds("/-! mod -/ x")[0] == ("doc", "/-! mod -/")
        assert kinds("x /- open")[-1] == ("comment", "/- open")

    def test_line_comment(self) -> None:
        assert kinds("a -- sorry\nb") == [("ident", "a"), ("comment", "-- sorry"), ("ident", "b")]


class TestLiterals:
    @pytest.mark.parametrize(
        "code",
        ['"a \\" -- b"', '"gap \\\n   still"', 'r"no \\escape"', 'r#"has "quote" inside"#', 'r##"x"#y"##'],
    )
    def test_strings_are_one_token(self, code: str) -> None:
        assert kinds(code) == [("string", code)]

    def test_interpolated_string_braces_hold_code(self) -> None:
        toks = lex('s!"a {sorry} b"')
        assert ("ident", "sorry") in [(t.kind, t.text) for t in toks]
        assert strip_comments('s!"{x}" -- c').rstrip() == 's!"{x}"'

    @pytest.mark.parametrize("code", ["'a'", "'\\n'", "'\\x41'", "'\\u03B1'", "'''"])
    def test_char_literals(self, code: str) -> None:
        if code == "'''":  # `'` followed by `'` is not a char literal (Lean's tokenFnAux)
            assert lex(code)[0].kind == "symbol"
        else:
            assert kinds(code) == [("char", code)]

    @pytest.mark.parametrize("code", ["0x1F", "0b1010", "0o17", "1_000_000", "2.5", "1e10", "2.5E-3"])
    def test_numbers(self, code: str) -> None:
        assert kinds(code) == [("number", code)]

    def test_field_index_is_not_a_decimal(self) -> None:
        assert [t.text for t in lex("h.1.2")] == ["h", ".", "1", ".", "2"]


class TestNames:
    @pytest.mark.parametrize(
        "code",
        ["foo'", "h!", "foo?", "x₁", "α'", "Nat.succ", "«foo bar»", "Foo.«bar baz».c'", "ℝ", "_root_.x"],
    )
    def test_identifiers(self, code: str) -> None:
        assert kinds(code) == [("ident", code)]

    def test_lambda_pi_sigma_are_not_letters(self) -> None:
        assert [t.kind for t in lex("λx")] == ["symbol", "ident"]

    def test_special_single_tokens(self) -> None:
        assert kinds("`sorry ?sorry .sorry #eval @[") == [
            ("namelit", "`sorry"),
            ("mvar", "?sorry"),
            ("dotident", ".sorry"),
            ("hashcmd", "#eval"),
            ("symbol", "@["),
        ]

    def test_name_components_and_printing(self) -> None:
        assert name_components("Foo.«bar baz».c'") == ("Foo", "bar baz", "c'")
        assert name_components("«x.y»") == ("x.y",)
        assert name_components("1x") == ()
        assert format_name(("Foo", "bar baz", "c'")) == "Foo.«bar baz».c'"
        assert format_name(name_components("«plain»")) == "plain"


def test_offsets_cover_the_text() -> None:
    code = 'theorem t\n  (h : "s") : /- c -/ x.1 = 2 := by -- x\n  simp'
    for t in lex(code):
        assert code[t.start : t.end] == t.text

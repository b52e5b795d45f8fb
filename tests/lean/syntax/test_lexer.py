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


# --- Lean's rules, construct by construct ---------------------------------------------------------
#
# Expected spans written from Lean's parser source, not from our output: leanprover/lean4
# src/Lean/Parser/Basic.lean at 00c1b82722b50e9b1ae4999ccc97f932b2788b51 (`whitespace`,
# `finishCommentBlock`, `tokenFnAux`, `charLitFnAux`, `strLitFnAux`, `quotedCharCoreFn`,
# `stringGapFn`, `rawStrLitFnAux`, `numberFnAux`, `identFnAux`, `mkIdResult`, `fieldIdxFn`) and
# src/Lean/Parser/StrInterpolation.lean at 01f6cece2f6a6293f58a40288bbd0e89c641e842
# (`interpolatedStrFn`, `isQuotableCharForStrInterpolant`).

from lemmaforge.lean.syntax import _lexer as L  # noqa: E402


def read(code: str) -> tuple[list[tuple[str, str]], str | None]:
    lexed = L._lex_uncached(code)  # noqa: SLF001 - the rule, not the memo
    return [(t.kind, t.text) for t in lexed.tokens], (lexed.refusal.reason if lexed.refusal else None)


LEAN_READS = [
    # whitespace: `/-` + one unread char + finishCommentBlock; `--` to the newline (CR LF is one)
    ("a /-/ b -/ c", [("ident", "a"), ("comment", "/-/ b -/"), ("ident", "c")]),
    ("a -- x\r\nb", [("ident", "a"), ("comment", "-- x"), ("ident", "b")]),
    # `\/` is a token of core, so no comment opens: `\/`, `-`, `(`…
    ("p \\/-q", [("ident", "p"), ("symbol", "\\/"), ("symbol", "-"), ("ident", "q")]),
    ("p /\\ q", [("ident", "p"), ("symbol", "/\\"), ("ident", "q")]),
    # doc comments are tokens whose body is finishCommentBlock from after the opener
    ("/-- d /- n -/ e -/ x", [("doc", "/-- d /- n -/ e -/"), ("ident", "x")]),
    # strings: escapes \\ \" \' \r \n \t \xHH \uHHHH, and a gap (backslash newline spaces)
    ('"a\\"b\\x41\\u03B1\\r\\t\\\'" x', [("string", '"a\\"b\\x41\\u03B1\\r\\t\\\'"'), ("ident", "x")]),
    ('"gap \\\n    on" x', [("string", '"gap \\\n    on"'), ("ident", "x")]),
    # raw strings: no escapes; `r` then as many `#` to close as opened; `rfl` is an identifier
    ('r"a\\" b', [("string", 'r"a\\"'), ("ident", "b")]),
    ('r##"x"#y"## z', [("string", 'r##"x"#y"##'), ("ident", "z")]),
    ("rfl", [("ident", "rfl")]),
    # interpolated strings: after `s!`/`f!` (space or not) the braces hold code; `\{` is an escape
    ('s!"a{b}c"', [("ident", "s!"), ("string", '"a{'), ("ident", "b"), ("string", '}c"')]),
    ('s! "{x}"', [("ident", "s!"), ("string", '"{'), ("ident", "x"), ("string", '}"')]),
    ('f!"\\{{x}"', [("ident", "f!"), ("string", '"\\{{'), ("ident", "x"), ("string", '}"')]),
    ('s!"{s!"{x}"}"', [("ident", "s!"), ("string", '"{'), ("ident", "s!"), ("string", '"{'), ("ident", "x"),
                       ("string", '}"'), ("string", '}"')]),
    # `panic!` takes a term: `"{"` is a plain string
    ('panic!"{"', [("ident", "panic!"), ("string", '"{"')]),
    # char literals: a `'` not followed by `'`; ANY one character (raw newline, raw CR, CR LF)
    ("c 'a' '\\n' '\\x41' '\\u03B1'", [("ident", "c"), ("char", "'a'"), ("char", "'\\n'"), ("char", "'\\x41'"),
                                      ("char", "'\\u03B1'")]),
    ("c '\n' d", [("ident", "c"), ("char", "'\n'"), ("ident", "d")]),
    ("c '\r' d", [("ident", "c"), ("char", "'\r'"), ("ident", "d")]),
    ("c '\r\n' d", [("ident", "c"), ("char", "'\r\n'"), ("ident", "d")]),
    ("c '\"' d", [("ident", "c"), ("char", "'\"'"), ("ident", "d")]),
    # primed tokens: core `]'` (xs[i]'h), `×'`, `⊕'`, `Σ'`; Mathlib `''`, `⁻¹'`, `∑'`
    ("xs[i]'h", [("ident", "xs"), ("symbol", "["), ("ident", "i"), ("symbol", "]'"), ("ident", "h")]),
    ("a ⊕' b", [("ident", "a"), ("symbol", "⊕'"), ("ident", "b")]),
    ("f '' s", [("ident", "f"), ("symbol", "''"), ("ident", "s")]),
    ("f ⁻¹' s", [("ident", "f"), ("symbol", "⁻¹'"), ("ident", "s")]),
    ("∑' i", [("symbol", "∑'"), ("ident", "i")]),
    # numbers: bases, `_` separators, scientific (`2.` keeps its dot), `h.1.2` is fieldIdx
    ("0x1F 0b10 0o17 1_000 2.5 2. 1e10 2.5E-3", [("number", t) for t in
                                                ["0x1F", "0b10", "0o17", "1_000", "2.5", "2.", "1e10", "2.5E-3"]]),
    ("h.1.2", [("ident", "h"), ("symbol", "."), ("number", "1"), ("symbol", "."), ("number", "2")]),
    # identifiers: «» escapes hold anything, dots continue a name only before a part
    ("«a -- b».c x", [("ident", "«a -- b».c"), ("ident", "x")]),
    ("x₁ α' h! p?", [("ident", "x₁"), ("ident", "α'"), ("ident", "h!"), ("ident", "p?")]),
]


@pytest.mark.parametrize(("code", "tokens"), LEAN_READS, ids=[c for c, _ in LEAN_READS])
def test_spans_follow_leans_rules(code: str, tokens: list[tuple[str, str]]) -> None:
    assert read(code) == (tokens, None)


LEAN_REJECTS = [
    "a\tb",  # whitespace: "tabs are not allowed"
    "a\rb",  # "isolated carriage returns are not allowed"
    "a /- open",  # "unterminated comment"
    '"open',  # "unterminated string literal"
    '"bad \\q"',  # "invalid escape sequence"
    '"two \\\n\n gaps"',  # "unexpected additional newline in string gap"
    "'ab'",  # "missing end of character literal"
    "'\\x4'",  # hexDigitFn: two hex digits
    'r#"open"',  # "unterminated raw string literal"
    "1e",  # "missing exponent digits in scientific literal"
    "1_",  # takeDigitsFn: a `_` needs a digit after it
    "0x",  # hexNumberFn needs a digit
    "«open",  # "unterminated identifier escape"
    's!"{x"',  # interpolation never closed
    "/--\tdoc -/",  # the doc opener is a token: the whitespace after it is Lean's `whitespace`
]


@pytest.mark.parametrize("code", LEAN_REJECTS)
def test_what_lean_rejects_is_refused_as_lean_error(code: str) -> None:
    assert read(code)[1] == "lean_error"


UNSURE = [
    '"{x}"',  # interpolated or not depends on the syntax before it
    'm!"{x}"',  # `m!` is a keyword only with `import Lean`
    'throwError "{x}"',
    "a +-- c",  # `+-` could be a longer token of a table we do not hold
    "simp--c",  # likewise `simp-`
    "simp/- c -/",
    "/-- -- c\n -/",  # a comment in the doc comment opener's trailing whitespace
    "/--\r\n-- c -/\r\nx -/",  # the same after a CR LF
    "∑'x'",  # `∑'` is Mathlib's: without it, `∑` and the char `'x'`
]


@pytest.mark.parametrize("code", UNSURE)
def test_readings_that_depend_on_the_imports_or_grammar_are_refused_as_unsure(code: str) -> None:
    assert read(code)[1] == "unsure"


def test_a_glued_letter_char_reads_the_same_either_way_and_is_kept() -> None:
    assert read("('a', 'b')")[1] is None
    assert read("x +'a'b")[1] == "unsure"  # as `+'`+`a'b` the identifier would run on past the char


@pytest.mark.parametrize(("code", "tokens"), [
    ("('1', '2')", [("symbol", "("), ("char", "'1'"), ("symbol", ","), ("char", "'2'"), ("symbol", ")")]),
    ("(' ', c)", [("symbol", "("), ("char", "' '"), ("symbol", ","), ("ident", "c"), ("symbol", ")")]),
    ("('\\n', 0)", [("symbol", "("), ("char", "'\\n'"), ("symbol", ","), ("number", "0"), ("symbol", ")")]),
    ("(',', 1)", [("symbol", "("), ("char", "','"), ("symbol", ","), ("number", "1"), ("symbol", ")")]),
    ("('a'b)", [("symbol", "("), ("char", "'a'"), ("ident", "b"), ("symbol", ")")]),
])
def test_a_char_literal_right_after_an_open_paren_is_read(code: str, tokens: list[tuple[str, str]]) -> None:
    """No token of the pinned table starts with `('` (lean/syntax/_token_table.py `_CHAR_SAFE_AFTER`):
    Lean reads `(` and then a char literal, whatever character it holds (issue 46)."""
    assert read(code) == (tokens, None)
    # a char literal that swallows the quote opening a string leaves that string unterminated, as in Lean
    assert read("f (','\"')")[1] == "lean_error"

"""One statement normaliser: Lean's token stream, whitespace-insensitive where Lean is."""

from __future__ import annotations

import pytest

from lemmaforge.lean.syntax import normalize_statement, statement_tokens


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("x*y", "x * y"),
        ("194%11", "194 % 11"),
        ("(x:ℕ)", "( x : ℕ )"),
        ("f x -- c\n  y", "f x /- c -/ y"),
        ("a\n\n   = b", "a = b"),
    ],
)
def test_same(a: str, b: str) -> None:
    assert statement_tokens(a) == statement_tokens(b)
    assert normalize_statement(a) == normalize_statement(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("a[i]", "a [i]"),  # index vs application to a list
        ("x.1", "x .1"),
        ('"a  b"', '"a b"'),  # strings verbatim
        ("n!", "n !"),  # identifier `n!` vs factorial
        ("x ≤ y", "x < y"),
    ],
)
def test_different(a: str, b: str) -> None:
    assert statement_tokens(a) != statement_tokens(b)
    assert normalize_statement(a) != normalize_statement(b)


def test_canonical_text_is_readable() -> None:
    assert normalize_statement('f  (x -- c\n   : ℕ) /- d -/ "a  b"') == 'f (x : ℕ) "a  b"'
    assert normalize_statement("a[i]+ x.1") == "a[i] + x.1"

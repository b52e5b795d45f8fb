"""Column types that store any Python string, on every dialect, and give it back unchanged.

Model output is arbitrary text. Two kinds of character cannot be stored as they are:

* NUL (U+0000): Postgres refuses it in `text` ("cannot contain NUL (0x00) bytes") and in `jsonb`
  ("unsupported Unicode escape sequence");
* lone surrogates (U+D800..U+DFFF, e.g. from `bytes.decode(errors="surrogateescape")`): no driver
  can encode them as UTF-8 (SQLite and psycopg both raise `UnicodeEncodeError`).

A string that contains either, or that begins with the marker, is stored as `MARK` followed by its
JSON string literal with those characters escaped (``\\u0000``, ``\\udc80``); everything else is
stored verbatim, so ordinary rows stay readable and queryable by hand. Reading strips the marker
and decodes the literal: the round trip is exact for every `str`. `MARK` is a Unicode noncharacter
(U+FDD0, "reserved for internal use"), which no text we store is expected to start with; one that
does is escaped too, so the encoding stays unambiguous.
"""

from __future__ import annotations

import json
import re
from typing import Any

from sqlalchemy import JSON, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

MARK = "\ufdd0"
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def needs_escape(text: str) -> bool:
    return text.startswith(MARK) or _UNSTORABLE.search(text) is not None


def escape(text: str) -> str:
    """`text` as it is stored: unchanged unless it holds a character no database takes."""
    if not needs_escape(text):
        return text
    # json.dumps escapes NUL (and the other C0 controls) itself; lone surrogates are left raw by
    # ensure_ascii=False, so escape them by hand (json.loads reads `\\udXXX` back as the surrogate)
    literal = json.dumps(text, ensure_ascii=False)
    literal = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", literal)
    return MARK + literal


def unescape(text: str) -> str:
    if text.startswith(MARK):
        value = json.loads(text[len(MARK) :])
        if isinstance(value, str):
            return value
    return text


def _walk(value: Any, fn: Any) -> Any:
    """`value` with `fn` applied to every string in it (dict keys included)."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {(fn(k) if isinstance(k, str) else k): _walk(v, fn) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_walk(v, fn) for v in value]
    return value


class SafeText(TypeDecorator[str]):
    """`TEXT` that stores any `str` (see the module docstring)."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        return escape(value) if isinstance(value, str) else value

    def process_result_value(self, value: str | None, dialect: Dialect) -> str | None:
        return unescape(value) if isinstance(value, str) else value


class SafeJSON(TypeDecorator[Any]):
    """`JSON` (`JSONB` on Postgres) whose strings, keys included, may hold any character."""

    impl = JSON
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(JSONB())
        return dialect.type_descriptor(JSON())

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return _walk(value, escape) if value is not None else None

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return _walk(value, unescape) if value is not None else None

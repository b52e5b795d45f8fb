"""Record ↔ row mapping, driven by the dataclass fields and the table's columns.

A record field goes to the column of the same name (or the one `rename` gives); a column no field
fills takes its value from `extra` (computed columns such as hashes, or a status a new row starts
with). Reading back is the reverse: every field of the target dataclass is read from its column,
and a JSON column that holds NULL becomes an empty container where the dataclass wants one.
The field lists are worked out once per (class, table) pair: writes map thousands of records.
"""

from __future__ import annotations

import hashlib
from dataclasses import fields
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Table

T = TypeVar("T")


def text_hash(text: str) -> str:
    """sha256 hex of a text: the key columns of the subgoal cache (`header_hash`, `statement_hash`)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@cache
def _plan(cls: type, table: Table, rename: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """(column, field) pairs: every column that a field of `cls` fills."""
    by_column = dict(rename)  # column -> field
    names = {f.name for f in fields(cls)}
    plan = []
    for column in table.columns.keys():
        name = by_column.get(column, column)
        if name in names:
            plan.append((column, name))
    return tuple(plan)


def to_row(record: object, table: Table, *, rename: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    """The row dict of `record` for `table` (no deep copy, unlike `dataclasses.asdict`); `rename`
    maps column → field where the names differ; `extra` gives the columns no field fills."""
    kind: type = type(record)
    plan = _plan(kind, table, tuple(sorted((rename or {}).items())))
    row = {column: getattr(record, name) for column, name in plan}
    for column, value in row.items():
        if isinstance(value, tuple):  # JSON columns store lists; keep a record's tuple from leaking in
            row[column] = list(value)
    row.update(extra)
    return row


def from_row(cls: type[T], obj: object, *, rename: dict[str, str] | None = None, empty: dict[str, type] | None = None) -> T:
    """A `cls` instance from an ORM row object; `rename` maps field → attribute where the names
    differ; `empty` maps a field to the container type that replaces a NULL."""
    rename = rename or {}
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        value = getattr(obj, rename.get(f.name, f.name))
        if value is None and empty and f.name in empty:
            value = empty[f.name]()
        values[f.name] = value
    return cls(**values)

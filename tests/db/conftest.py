from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lemmaforge.db import Store


@pytest.fixture
def db_url(any_db_url: str) -> str:
    """Every store and recorder test runs on SQLite and on PostgreSQL (`tests/conftest.py`)."""
    return any_db_url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """For the tests of what is SQLite's own (WAL, pragmas, the file)."""
    return f"sqlite:///{tmp_path / 'store' / 'lemmaforge.db'}"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    yield s
    s.close()

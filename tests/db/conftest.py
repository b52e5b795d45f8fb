from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lemmaforge.db import Store


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'store' / 'lemmaforge.db'}"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    yield s
    s.close()

"""One syntax layer: all Lean text is read through `lean.syntax`; the old `lean.code` is gone."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import lemmaforge

PACKAGE = Path(lemmaforge.__file__).resolve().parent
OLD_IMPORT = re.compile(
    r"from lemmaforge\.lean import code\b|from lemmaforge\.lean\.code import|import lemmaforge\.lean\.code"
)


def test_no_code_imports_the_removed_module() -> None:
    roots = [PACKAGE, PACKAGE.parent / "tests", PACKAGE.parent / "scripts"]
    this = Path(__file__).resolve()
    offenders = [str(p) for root in roots for p in root.rglob("*.py")
                 if p.resolve() != this and OLD_IMPORT.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_old_module_is_gone() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("lemmaforge.lean.code")

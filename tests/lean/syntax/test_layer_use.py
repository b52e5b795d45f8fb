"""One syntax layer: product code imports `lean.syntax`; `lean.code` is only a deprecated re-export."""

from __future__ import annotations

import re
from pathlib import Path

import lemmaforge
from lemmaforge.lean import code, syntax

PACKAGE = Path(lemmaforge.__file__).resolve().parent
OLD_IMPORT = re.compile(
    r"from lemmaforge\.lean import code\b|from lemmaforge\.lean\.code import|import lemmaforge\.lean\.code"
)


def test_product_code_does_not_import_the_deprecated_module() -> None:
    offenders = [
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if p.name != "code.py" or p.parent.name != "lean"
        if OLD_IMPORT.search(p.read_text())
    ]
    assert offenders == []


def test_deprecated_module_re_exports_the_same_objects() -> None:
    assert code.__all__
    for name in code.__all__:
        assert getattr(code, name) is getattr(syntax, name), name

"""README's counts are true (issue 49): the size it gives for the fast subset is what
`pytest -m "not slow" --collect-only -q` counts (within 5 %: other work adds tests between counts),
and the development pages say the same figure. Slow: collecting the suite imports every test."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

PAGES = {"README.md": r"about ([\d,]+) tests", "docs/budgets.md": r"~([\d,]+) tests"}


@pytest.mark.slow
def test_the_fast_subset_s_size_is_what_the_pages_say():
    proc = subprocess.run([sys.executable, "-m", "pytest", "-m", "not slow", "--collect-only", "-q",
                           "-p", "no:cacheprovider"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    found = re.search(r"^(\d+)/\d+ tests collected", proc.stdout, re.MULTILINE)
    assert found, proc.stdout[-2000:]
    fast = int(found.group(1))
    for page, pattern in PAGES.items():
        said = re.search(pattern, (REPO_ROOT / page).read_text(encoding="utf-8"))
        assert said, page
        claimed = int(said.group(1).replace(",", ""))
        assert abs(claimed - fast) <= 0.05 * fast, f"{page} says {claimed} tests, the fast subset has {fast}"

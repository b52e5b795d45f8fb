"""docs/architecture.md's trace of one `prove` matches a run (issue #38: "the trace matches a run"):
`scripts/trace_prove.py --speculation off` runs the prove on the stand-ins, and the modules it
reports are the ones the page lists, as many as its table says. (Order is not compared: threads
may meet two modules in either order. The speculative rows vary with timing and are not compared.)
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

DOC = REPO_ROOT / "docs" / "architecture.md"


def _traced_modules() -> tuple[set[str], int, str]:
    out = subprocess.run([sys.executable, "scripts/trace_prove.py", "--speculation", "off"], cwd=REPO_ROOT,
                         capture_output=True, text=True, timeout=600, check=True).stdout
    lines = out.splitlines()
    modules = {line.split()[0].removeprefix("lemmaforge.").replace(".", "/") for line in lines[2:]
               if line.startswith("lemmaforge")}
    functions = re.match(r"(\d+) functions in (\d+) modules", lines[1])
    assert functions is not None, out
    return modules, int(functions.group(2)), lines[0]


@pytest.mark.slow
def test_the_pages_trace_of_prove_with_speculation_off_is_what_a_run_traces() -> None:
    doc = DOC.read_text(encoding="utf-8")
    listed_line = next(line for line in doc.splitlines() if line.startswith("Every module the `off` trace runs"))
    listed = set(re.findall(r"`([a-z_0-9/]+)`", listed_line.split(":", 1)[1]))
    row = re.search(r"^\| `off` \| (\d+) \| (\d+) \|", doc, re.MULTILINE)
    assert row is not None
    traced, count, verdict = _traced_modules()
    assert "'proved': True" in verdict, verdict
    assert traced == listed, {"run but not listed": sorted(traced - listed), "listed but not run": sorted(listed - traced)}
    assert int(row.group(2)) == count == len(traced)

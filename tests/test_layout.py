"""The test suite's own rules (issue 48, point 3), checked on its source:

- `tests/` mirrors the package: every package of `lemmaforge/` has a test folder of its name.
- No test imports a conftest but the root one (`tests/conftest.py`: the suite's paths and
  switches): what two folders share lives in `tests/fakes/` or a helper module, not in a folder's
  fixtures file.
- At most `MAX_WALL_SLEEPS` wall-clock sleeps remain in the tests and their fakes, each with a
  comment on its line saying why (real subprocess or socket timing). Counted, in every Python
  source under tests/ (the `.py` files and the fakes' scripts, such as `tests/fakes/lake`): a call
  of `time.sleep`, `asyncio.sleep` (also `trio.sleep`, `anyio.sleep`), under any name they are
  imported as (`from time import sleep`, `import time as t`); such a function handed over to be
  called later (`asyncio.to_thread(time.sleep, 1)`); and a timer of the loop (`call_later`,
  `call_at`), which makes a test wait as a sleep does. A fake's sleep is counted where the fake
  sleeps (a test that sets its delay waits on that line). Not counted: a sleep of a literal 0 (it
  only lets other tasks run); a sleep in a test, class or module marked `pytest.mark.looptime`
  (virtual time: the loop's clock moves, not the wall clock's) unless marked `looptime(False)`;
  the two polls of `tests/waiting.py` (waiting *for* something); `virtual_sleep` in
  tests/fakes/scripted.py (a stand-in's delay, which fails a test not on the virtual clock); a
  wait on an event with no duration (`threading.Event().wait()`: a hang until killed). Waiting for
  something happens by events, by polling, or on virtual time.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import REPO_ROOT

TESTS = REPO_ROOT / "tests"
PACKAGE = REPO_ROOT / "lemmaforge"
MAX_WALL_SLEEPS = 10
POLLS = {TESTS / "waiting.py"}
SLEEP_MODULES = {"time", "asyncio", "trio", "anyio"}  # each one's `sleep`
TIMERS = {"call_later", "call_at"}  # the loop's: a callback after a delay


def _is_python_script(path: Path) -> bool:
    """A fake's script without the `.py` suffix (tests/fakes/lake) that Python runs."""
    if path.suffix or not path.is_file():
        return False
    with path.open("rb") as f:
        first = f.readline()
    return first.startswith(b"#!") and b"python" in first


def _sources() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*") if "data" not in p.relative_to(TESTS).parts[:1]
                  and "__pycache__" not in p.parts and (p.suffix == ".py" or _is_python_script(p)))


def test_every_package_has_a_test_folder_of_its_name() -> None:
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    missing = sorted(name for name in packages if not (TESTS / name).is_dir())
    assert not missing, f"packages without a tests/<name>/ folder: {missing}"


def test_no_test_imports_a_folder_s_conftest() -> None:
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                parts = node.module.split(".")
                if parts[-1] == "conftest" and node.module != "tests.conftest":
                    found.append(f"{path.relative_to(REPO_ROOT)}:{node.lineno} imports {node.module}")
    assert not found, "\n".join(found)


def _looptime(decorators: list[ast.expr]) -> bool | None:
    """True / False where the decorators (or a `pytestmark` value) put looptime on / off."""
    for dec in decorators:
        call = dec if isinstance(dec, ast.Call) else None
        target = call.func if call else dec
        if isinstance(target, ast.Attribute) and target.attr == "looptime":
            if call and call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value is False:
                return False
            return True
    return None


def _module_looptime(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            if _looptime(values):
                return True
    return False


@dataclass
class Sleep:
    where: str
    line: str

    @property
    def commented(self) -> bool:
        return "#" in self.line and self.line.split("#", 1)[1].strip() != ""


def _sleep_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The names a module gives the sleep modules (`import time as t`: t) and their `sleep`
    functions (`from time import sleep as nap`: nap)."""
    modules, functions = set(SLEEP_MODULES), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {alias.asname for alias in node.names if alias.name in SLEEP_MODULES and alias.asname}
        elif isinstance(node, ast.ImportFrom) and node.module in SLEEP_MODULES:
            functions |= {alias.asname or alias.name for alias in node.names if alias.name == "sleep"}
    return modules, functions


def _wall_sleeps(path: Path, root: Path = REPO_ROOT) -> list[Sleep]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    modules, functions = _sleep_names(tree)
    found: list[Sleep] = []

    def is_sleep(expr: ast.expr) -> bool:
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            return expr.attr == "sleep" and expr.value.id in modules
        return isinstance(expr, ast.Name) and expr.id in functions

    def zero(args: list[ast.expr]) -> bool:
        return bool(args) and isinstance(args[0], ast.Constant) and args[0].value == 0

    def visit(node: ast.AST, virtual: bool, scope: str, called: bool = False) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            marked = _looptime(node.decorator_list)
            virtual = virtual if marked is None else marked
            if node.name == "virtual_sleep" and path.name == "scripted.py":
                return
            scope = node.name
        counted = False
        if isinstance(node, ast.Call):
            timer = isinstance(node.func, ast.Attribute) and node.func.attr in TIMERS
            counted = (is_sleep(node.func) or timer) and not zero(node.args)
        elif isinstance(node, (ast.Attribute, ast.Name)) and not called:
            counted = is_sleep(node)  # a sleep handed over, to be called later
        if counted and not virtual:
            found.append(Sleep(f"{path.relative_to(root)}:{node.lineno} ({scope})", lines[node.lineno - 1]))
        for child in ast.iter_child_nodes(node):
            visit(child, virtual, scope, called=isinstance(node, ast.Call) and child is node.func)

    visit(tree, _module_looptime(tree), "module")
    return found


def wall_sleeps() -> list[Sleep]:
    return [s for path in _sources() if path not in POLLS for s in _wall_sleeps(path)]


def test_at_most_ten_wall_clock_sleeps_each_saying_why() -> None:
    sleeps = wall_sleeps()
    listing = "\n".join(f"{s.where}: {s.line.strip()}" for s in sleeps)
    assert len(sleeps) <= MAX_WALL_SLEEPS, f"{len(sleeps)} wall-clock sleeps in tests/ (at most {MAX_WALL_SLEEPS}):\n{listing}"
    silent = [f"{s.where}: {s.line.strip()}" for s in sleeps if not s.commented]
    assert not silent, "a wall-clock sleep says why on its line (real subprocess or socket timing):\n" + "\n".join(silent)


def test_the_sleep_count_sees_a_sleep_outside_virtual_time(tmp_path: Path) -> None:
    """The counter itself: what it counts and what it leaves out."""
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "import asyncio, time\nimport time as clock\nfrom asyncio import sleep as nap\nimport pytest\n\n"
        "def test_a():\n    time.sleep(0.1)  # counted\n\n"
        "async def test_b():\n    await asyncio.sleep(0)\n\n"
        "@pytest.mark.looptime\nasync def test_c():\n    await asyncio.sleep(5)\n    await nap(1)\n\n"
        "@pytest.mark.looptime(False)\nasync def test_d():\n    await asyncio.sleep(0.2)\n\n"
        "async def test_e():\n    await nap(0.1)\n    clock.sleep(1)\n\n"
        "async def test_f():\n    await asyncio.to_thread(time.sleep, 1)\n\n"
        "async def test_g():\n    asyncio.get_running_loop().call_later(0.3, print)\n",
        encoding="utf-8",
    )
    found = _wall_sleeps(sample, root=tmp_path)
    assert [(s.where.split(" ")[1], s.commented) for s in found] == [
        ("(test_a)", True), ("(test_d)", False), ("(test_e)", False), ("(test_e)", False), ("(test_f)", False),
        ("(test_g)", False)]
    script = tmp_path / "fake_tool"  # a fake's script without the .py suffix, as tests/fakes/lake
    script.write_text("#!/usr/bin/env python3\nimport time\ntime.sleep(1)\n", encoding="utf-8")
    assert _is_python_script(script) and len(_wall_sleeps(script, root=tmp_path)) == 1

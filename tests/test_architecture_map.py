"""docs/architecture.md stays a true map: its package tree lists every package and module of
lemmaforge/ and nothing else, and its layers table is the layers contract `lint-imports` checks
(pyproject.toml `[tool.importlinter]`). The trace of one prove is tests/test_architecture_trace.py's."""

from __future__ import annotations

import re
import tomllib

from tests.conftest import REPO_ROOT

DOC = (REPO_ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
PACKAGE = REPO_ROOT / "lemmaforge"


def _tree_block() -> list[str]:
    section = DOC.split("## The package tree", 1)[1]
    return section.split("```", 2)[1].strip("\n").splitlines()


def _listed() -> set[str]:
    """Paths the tree names, relative to the checkout: `lemmaforge/lean/kimina/`, `…/_batcher.py`."""
    stack: list[str] = []
    paths: set[str] = set()
    for line in _tree_block():
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0, line
        name = line.split()[0]
        depth = indent // 2
        stack = stack[:depth]
        assert len(stack) == depth, f"a line deeper than its folder: {line!r}"
        path = "/".join([*stack, name.rstrip("/")])
        paths.add(path + ("/" if name.endswith("/") else ""))
        if name.endswith("/"):
            stack.append(name.rstrip("/"))
    return paths


def _on_disk() -> set[str]:
    paths = {"lemmaforge/", "lemmaforge/__init__.py"}
    for file in PACKAGE.rglob("*.py"):
        parts = file.relative_to(REPO_ROOT).parts
        if "migrations" in parts:  # Alembic's env and revisions: the map names the folder
            paths.add("/".join(parts[: parts.index("migrations") + 1]) + "/")
        elif parts[-1] == "__init__.py":
            paths.add("/".join(parts[:-1]) + "/")
        else:
            paths.add("/".join(parts))
    return paths


def test_the_package_tree_lists_exactly_the_packages_and_modules() -> None:
    listed, on_disk = _listed(), _on_disk()
    assert listed == on_disk, {"on disk, not on the map": sorted(on_disk - listed),
                               "on the map, not on disk": sorted(listed - on_disk)}


def test_the_layers_table_is_the_contract_lint_imports_checks() -> None:
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    [layers] = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "layers"]
    section = DOC.split("## Layers and the one-way import flow", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    table = [" | ".join(re.findall(r"`(\w+)`", row.split(" | ")[0])) for row in rows]
    assert table == [" | ".join(p.strip() for p in layer.split("|")) for layer in layers["layers"]]


def test_the_map_reads_a_moved_module_as_missing() -> None:
    assert "lemmaforge/lean/kimina/_batcher.py" in _listed() and "lemmaforge/lean/kimina.py" not in _listed()
    assert "lemmaforge/db/migrations/" in _on_disk() and "lemmaforge/db/migrations/env.py" not in _on_disk()

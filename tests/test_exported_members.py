"""Every package's `__all__` is its face, exactly (modelled on httpx's tests/test_exported_members.py,
encode/httpx@46f38d4, which holds `__all__` equal to the public names the package binds).

Here, read from each package's `__init__.py`: the public names it defines itself or imports from its
own modules are the names its `__all__` lists — no more (a name pulled up from a private part is an
export, or it is not pulled up), no fewer; nothing private is listed (dunders like `__version__`
aside, as in httpx); every listed name is there (the root's lazy names included) and a listed class
or function comes from the package itself unless it is one of the deliberate re-exports below.
Names imported from outside the package for its own use (`typing.Any`, another package's types)
are not its face. A package with no `__all__` is a plain folder of modules: it exports nothing.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import pkgutil
from pathlib import Path

import pytest

import lemmaforge

# Names a package deliberately lists although another package defines them, and why.
REEXPORTS: dict[str, set[str]] = {}


def _packages() -> list[str]:
    names = [lemmaforge.__name__]
    for info in pkgutil.walk_packages(lemmaforge.__path__, prefix="lemmaforge."):
        if info.ispkg and "migrations" not in info.name.split("."):  # Alembic's, loaded by Alembic
            names.append(info.name)
    return sorted(names)


PACKAGES = _packages()


def _init_file(name: str) -> Path:
    file = importlib.import_module(name).__file__
    assert file is not None
    return Path(file)


def _absolute(package: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _own_public_names(package: str) -> set[str]:
    """Public names the package's `__init__` binds from itself or its own modules (module level,
    `if TYPE_CHECKING:` blocks included); submodules bound by an import are not names."""
    tree = ast.parse(_init_file(package).read_text(encoding="utf-8"))
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if not _is_dunder(node.name):  # a module's `__getattr__` is machinery, not a name
                    names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name) and t.id != "__all__")
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(package, node)
                if source == package or source.startswith(package + "."):
                    names.update(alias.asname or alias.name for alias in node.names
                                 if not _is_module(f"{source}.{alias.name}"))

    visit(tree.body)
    return {n for n in names if not n.startswith("_") or _is_dunder(n)}


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # its parent is not a package
        return False


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def test_the_walk_finds_the_packages() -> None:
    assert {"lemmaforge", "lemmaforge.lean.syntax", "lemmaforge.lean.kimina", "lemmaforge.db"} <= set(PACKAGES)


@pytest.mark.parametrize("name", PACKAGES)
def test_all_lists_exactly_the_packages_public_names(name: str) -> None:
    package = importlib.import_module(name)
    exported = list(getattr(package, "__all__", []))
    assert len(exported) == len(set(exported)), f"{name}.__all__ lists a name twice"
    assert set(exported) == _own_public_names(name) | REEXPORTS.get(name, set())


@pytest.mark.parametrize("name", PACKAGES)
def test_every_listed_name_is_public_present_and_the_packages_own(name: str) -> None:
    package = importlib.import_module(name)
    for member in getattr(package, "__all__", []):
        assert not member.startswith("_") or _is_dunder(member), f"{name}.__all__ lists the private {member}"
        value = getattr(package, member)  # AttributeError: listed but not there
        if not (inspect.isclass(value) or inspect.isroutine(value)) or member in REEXPORTS.get(name, set()):
            continue  # a constant (no origin to read), or a deliberate re-export
        assert value.__module__ == name or value.__module__.startswith(name + "."), (
            f"{name}.{member} is defined in {value.__module__}"
        )


# A module (not a package) that lists another's names is a facade: the door's face is the one kept.
MODULE_FACES = {
    # the model door: its Protocol and factory, with the backends' base types and the LLM errors
    # every caller of the door handles, so that callers import the model door from one place
    "lemmaforge.agent.llm": {"BaseLLM", "Completion", "LLMError", "LLMMisconfiguredError", "LLMRequestError",
                             "LLMStats", "LLMUnavailableError", "Sampling", "apportion", "one_line"},
}


def _modules() -> list[str]:
    return sorted(
        info.name for info in pkgutil.walk_packages(lemmaforge.__path__, prefix="lemmaforge.")
        if not info.ispkg and "migrations" not in info.name.split(".")
    )


def test_a_module_lists_only_what_it_defines() -> None:
    facades = []
    for name in _modules():
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional extra (torch, vllm, …) not installed here
            continue
        facades += [
            f"{name}.{member}" for member in getattr(module, "__all__", [])
            if (inspect.isclass(value := getattr(module, member)) or inspect.isroutine(value))
            and value.__module__ != name and member not in MODULE_FACES.get(name, set())
        ]
    assert facades == [], "these modules list names defined elsewhere"


def test_no_package_imports_another_packages_private_parts() -> None:
    """A private part (`lean/kimina/_batcher.py`, or a `_name` of a module) is read inside its own
    package only: the rest of the product goes through the package's face. Function-level imports
    count."""
    root = Path(lemmaforge.__file__).resolve().parent
    offenders = []
    for file in root.rglob("*.py"):
        here = ".".join(file.relative_to(root.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(here if file.name == "__init__.py" else here.rpartition(".")[0], node)
                names = [f"{base}.{a.name}" for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                private = next((i for i, p in enumerate(parts) if p.startswith("_") and not _is_dunder(p)), None)
                if private is None:
                    continue
                module = root.parent.joinpath(*parts[: private + 1])
                is_module = module.with_suffix(".py").is_file() or module.is_dir()
                # a private module belongs to its package; a private name to its module's package
                owner = ".".join(parts[:private] if is_module else parts[: private - 1])
                if not (here == owner or here.startswith(owner + ".")):
                    offenders.append(f"{here} imports {name}")
    assert offenders == []

"""Every path of ours that the docs, README and the package's docstrings and comments mention
exists: a module or folder moved or retired takes its mentions with it.

Checked: `a/b.py` and `a/b/` paths whose first part is ours (`lemmaforge`, `tests`, `scripts`, `docs`
from the checkout's root, or a package of lemmaforge such as `lean/kimina/_batcher.py`, read from
`lemmaforge/`), and dotted `lemmaforge.a.b` names (a module, or a name in one). Paths of other
projects (`server/routers/check.py` of kimina-lean-server) start with a part that is not ours and
are left alone; the few that look like ours are listed below with why.
"""

from __future__ import annotations

import importlib
import importlib.util
import io
import re
import tokenize
from collections.abc import Iterator

from tests.conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "lemmaforge"
ROOT_PARTS = {"lemmaforge", "tests", "scripts", "docs"}
OURS = ROOT_PARTS | {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
PATH_RE = re.compile(r"(?<![\w./-])((?:[A-Za-z_]\w*/)+[A-Za-z_]\w*\.py|(?:[A-Za-z_]\w*/)+)(?![\w/])")
DOTTED_RE = re.compile(r"(?<![\w.])lemmaforge(?:\.[A-Za-z_]\w*)+")

# (file, mention): why it is not a path of this checkout.
NOT_OURS = {
    ("docs/lexer.md", "tests/lean/run/"): "Lean 4's own test folder (leanprover/lean4), which the lexer test reads",
}
NOT_MODULES = {"lemmaforge.toml"}  # the configuration file's name, not a module
KEY_RE = re.compile(r"`\[(\w+)\] (\w+)")
# (file, mention): a retired key named as what it was then (config.py refuses it with its successor).
RETIRED_KEYS = {
    ("docs/performance.md", "[search] parallel_alternatives"): "a measurement of its time; now speculation = full",
    ("docs/performance.md", "[search] prefetch"): "a measurement of its time; now speculation = prefetch",
}


def _texts() -> Iterator[tuple[str, str]]:
    """(file, text) of the docs and README, and of every docstring and comment of the package."""
    for file in sorted([*REPO_ROOT.glob("docs/*.md"), REPO_ROOT / "README.md"]):
        yield file.relative_to(REPO_ROOT).as_posix(), file.read_text(encoding="utf-8")
    for file in sorted(PACKAGE.rglob("*.py")):
        source = file.read_text(encoding="utf-8")
        tokens = tokenize.generate_tokens(io.StringIO(source).readline)
        words = [t.string for t in tokens if t.type in (tokenize.COMMENT, tokenize.STRING)]
        yield file.relative_to(REPO_ROOT).as_posix(), "\n".join(words)


def _path_exists(mention: str) -> bool | None:
    first = mention.split("/")[0]
    if first not in OURS:
        return None  # another project's path
    base = REPO_ROOT if first in ROOT_PARTS else PACKAGE
    return (base / mention).exists()


def _name_exists(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if found:
            value: object = importlib.import_module(module)
            for attribute in parts[cut:]:
                if not hasattr(value, attribute):
                    return False
                value = getattr(value, attribute)
            return True
    return False


def test_every_path_of_ours_that_is_mentioned_exists() -> None:
    stale = [
        f"{file}: {match.group(1)}"
        for file, text in _texts()
        for match in PATH_RE.finditer(text)
        if (file, match.group(1)) not in NOT_OURS and _path_exists(match.group(1)) is False
    ]
    assert stale == []


def test_every_dotted_lemmaforge_name_that_is_mentioned_exists() -> None:
    stale = [
        f"{file}: {name}"
        for file, text in _texts()
        for name in (m.group(0) for m in DOTTED_RE.finditer(text))
        if name not in NOT_MODULES and not _name_exists(name)
    ]
    assert stale == []


def test_every_config_key_that_is_mentioned_exists() -> None:
    """`[section] key` in backticks names a field of that section of `Settings`."""
    from lemmaforge.config import Settings

    sections = {name: set(getattr(field.annotation, "model_fields", {}))
                for name, field in Settings.model_fields.items()}
    stale = [
        f"{file}: [{section}] {key}"
        for file, text in _texts()
        for section, key in KEY_RE.findall(text)
        if section in sections and key not in sections[section]
        and (file, f"[{section}] {key}") not in RETIRED_KEYS
    ]
    assert stale == []


def test_the_check_sees_a_stale_mention() -> None:
    assert _path_exists("lean/kimina/_batcher.py") and _path_exists("search/engine.py")
    assert _path_exists("search/assembly_ahead.py") is False  # moved to schedule/ by issue #48
    assert _path_exists("lean/kimina.py") is False and _path_exists("server/routers/check.py") is None
    assert _name_exists("lemmaforge.lean.kimina.KiminaVerifier") and not _name_exists("lemmaforge.lean.kimina_http")
    mentions = [m.group(1) for m in PATH_RE.finditer("see `lean/repl/_process.py` and lean/gate/, not x.py")]
    assert mentions == ["lean/repl/_process.py", "lean/gate/"]
    assert KEY_RE.findall('set `[search] speculation = "off"` (was `[search] prefetch`)') == [
        ("search", "speculation"), ("search", "prefetch")]

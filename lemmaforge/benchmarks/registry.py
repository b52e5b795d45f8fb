"""The registered benchmark datasets (`DATASETS`), where their files are (`data_dir`), and what a
dataset spec names (`resolve_dataset`): see `lemmaforge.benchmarks.datasets` for the specs.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from lemmaforge.errors import InputError


class DatasetError(InputError, ValueError):
    """A dataset cannot be loaded or filtered as asked. The message is one actionable line."""


# --------------------------------------------------------------------------------------------
# registry


@dataclass(frozen=True, slots=True)
class DatasetInfo:
    name: str
    filename: str
    lean_version: str
    description: str
    family: str  # datasets of one family hold the same problems for different Lean versions
    category_from_name: bool = False  # miniF2F: the category is the name's prefix


DATASETS: dict[str, DatasetInfo] = {
    info.name: info
    for info in (
        DatasetInfo(
            "minif2f",
            "minif2f.jsonl",
            "v4.9.0",
            "miniF2F, DeepSeek-Prover-V1.5 version (valid 244 + test 244; Mathlib fork on Lean v4.9.0)",
            "minif2f",
            category_from_name=True,
        ),
        DatasetInfo(
            "minif2f-yangky11",
            "minif2f_yangky11.jsonl",
            "v4.24.0",
            "miniF2F, yangky11/miniF2F-lean4 version (valid 244 + test 244; Lean v4.24.0)",
            "minif2f",
            category_from_name=True,
        ),
        DatasetInfo(
            "proverbench",
            "proverbench.jsonl",
            "v4.9.0",
            "DeepSeek ProverBench, partial: 230 of 325 problems (test; Lean v4.9.0)",
            "proverbench",
        ),
        DatasetInfo(
            "putnambench",
            "putnambench.jsonl",
            "v4.27.0",
            "PutnamBench Lean 4, 672 problems incl. Putnam 2025 (test; Lean v4.27.0)",
            "putnambench",
        ),
    )
}
DEFAULT_DATASET = "minif2f"
_ALIASES = {
    "minif2f-deepseek": "minif2f",
    "deepseek-minif2f": "minif2f",
    "deepseek-proverbench": "proverbench",
    "prover-bench": "proverbench",
    "putnam": "putnambench",
    "putnam-bench": "putnambench",
}


def registered(spec: str) -> DatasetInfo | None:
    key = spec.strip().lower().replace("_", "-")
    key = _ALIASES.get(key, key)
    return DATASETS.get(key)


def _known() -> str:
    return ", ".join(DATASETS)


def _default_data_dir() -> Path:
    """The copies shipped inside the package (`lemmaforge/benchmarks/data`, package data of the
    wheel): a plain clone or a wheel install runs every registered benchmark with nothing beside it."""
    return Path(__file__).resolve().parent / "data"


def data_dir() -> Path:
    """The folder holding the registered datasets' JSONL files (see the module docstring)."""
    env = os.environ.get("LEMMAFORGE_DATA")
    if env:
        path = Path(env).expanduser()
        if not path.is_dir():
            raise DatasetError(
                f"LEMMAFORGE_DATA={env} is not a directory; point it at the folder holding the benchmark JSONL files"
            )
        has_files = any((path / info.filename).is_file() for info in DATASETS.values())
        if not has_files and (path / "benchmarks").is_dir():
            return path / "benchmarks"
        return path
    default = _default_data_dir()
    if default.is_dir():
        return default
    raise DatasetError(
        f"benchmark data folder not found (looked for {default}: is the package installed with its data?); "
        "set LEMMAFORGE_DATA to the folder holding minif2f.jsonl, putnambench.jsonl, …"
    )


def resolve_dataset(spec: str | os.PathLike[str]) -> DatasetInfo | Path | str:
    """What `spec` names: a registered `DatasetInfo`, a JSONL `Path`, or an `hf:` spec (str)."""
    if not isinstance(spec, str | os.PathLike):
        raise DatasetError(f"dataset spec must be a name or a path, not {type(spec).__name__}")
    text = os.fspath(spec)
    if isinstance(spec, str):
        info = registered(text)
        if info is not None:
            return info
        if text.startswith("hf:"):
            return text
    path = Path(text).expanduser()
    if path.exists():
        if not path.is_file():
            raise DatasetError(f"{text} is not a file; expected a JSONL file with one problem per line")
        return path
    if isinstance(spec, str) and not _looks_like_path(text):
        close = difflib.get_close_matches(text.lower(), list(DATASETS) + list(_ALIASES), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise DatasetError(
            f"unknown dataset {text!r}{hint}; known: {_known()}; or give a path to a .jsonl file, "
            "or hf:<dataset id>[:config]"
        )
    raise DatasetError(f"dataset file not found: {text} (known datasets: {_known()})")


def _looks_like_path(text: str) -> bool:
    return "/" in text or os.sep in text or text.startswith(".") or text.lower().endswith((".jsonl", ".json"))


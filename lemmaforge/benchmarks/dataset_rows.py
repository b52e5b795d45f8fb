"""Dataset rows → `BenchmarkProblem`s: the JSONL / Hugging Face row format of
`lemmaforge.benchmarks.datasets` (header + statement, or a whole file split), names, categories,
the Lean version a row pins. `read_problems` reads a whole dataset spec.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from lemmaforge.benchmarks.problem import Answers, BenchmarkProblem
from lemmaforge.benchmarks.registry import (
    DEFAULT_DATASET,
    DatasetError,
    DatasetInfo,
    data_dir,
    resolve_dataset,
)
from lemmaforge.lean.syntax import last_theorem, split_header, tokens

# Lean versions of hub copies we know of (lower-case ids).
_HF_LEAN_VERSIONS = {"deepseek-ai/deepseek-proverbench": "v4.9.0"}

_STATEMENT_KEYS = ("formal_statement", "code", "statement")
_INFORMAL_KEYS = ("informal_statement", "informal")
_CONSUMED = {"name", "split", "header", *_STATEMENT_KEYS, *_INFORMAL_KEYS, "lean_version", "category"}
_DOCSTRING = re.compile(r"\A\s*/--(.*?)-/\s*\Z", re.S)
_MINIF2F_PREFIX = re.compile(r"(mathd_[a-z]+|[A-Za-z]+(?:\d+[a-z]?)?)(?=_)")
# coarse family added after the exact prefix, so that e.g. all AMC 12 problems form one group
_MINIF2F_FAMILY = {"amc12a": "amc12", "amc12b": "amc12", "aimei": "aime", "aimeii": "aime"}


def minif2f_category(name: str) -> list[str]:
    """miniF2F's name prefix (`mathd_algebra`, `amc12a`, `imo`, `aimeII`, `induction`, …), plus
    the coarse family (`amc12`, `aime`) when the prefix is one of its variants."""
    m = _MINIF2F_PREFIX.match(name)
    if not m:
        return []
    prefix = m.group(1)
    family = _MINIF2F_FAMILY.get(prefix.lower())
    return [prefix, family] if family and family != prefix else [prefix]


def _tags(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, Iterable):
        return [str(v) for v in value if v is not None and str(v)]
    return [str(value)]


def _complete_statement(statement: str) -> tuple[str, bool]:
    """Append the proof slot to raw statements ending in `:= by` / `:=`."""
    stripped = statement.rstrip()
    toks = tokens(stripped)  # Lean's tokens: a trailing comment is not the end of the code
    if len(toks) >= 2 and toks[-2].text == ":=" and toks[-1].text == "by" and toks[-1].kind == "ident":
        return stripped + "\n  sorry", True
    if toks and toks[-1].text == ":=":
        end = toks[-1].end
        return stripped[:end] + " by" + stripped[end:] + "\n  sorry", True
    return statement, False


def _problem_from_row(
    row: Any,
    *,
    where: str,
    dataset: str,
    lean_version: str | None,
    category_from_name: bool,
    answers: Answers,
    default_split: str = "test",
    default_header: str | None = None,
    informal_in_header: bool = False,
) -> BenchmarkProblem:
    if not isinstance(row, Mapping):
        raise DatasetError(f"{where}: expected a JSON object, got {type(row).__name__}")
    key = next((k for k in _STATEMENT_KEYS if row.get(k) is not None), None)
    if key is None:
        raise DatasetError(f"{where}: missing 'formal_statement' (or 'code' holding header + theorem)")
    statement = row[key]
    if not isinstance(statement, str) or not statement.strip():
        raise DatasetError(f"{where}: '{key}' must be a non-empty string")
    header = row.get("header")
    if header is None:
        header, statement = split_header(statement)
        if not header.strip() and default_header:
            header = default_header  # Kimina's rows hold the theorem only; its header is DeepSeek's
        prefix = row.get("informal_prefix")
        if isinstance(prefix, str) and prefix and statement.startswith(prefix):
            # Goedel-V2's layout: header + informal docstring + theorem in one string. The docstring
            # is the informal statement (kept below), not part of the statement to prove; header +
            # informal_prefix + statement is the source string again.
            statement = statement[len(prefix):]
    elif not isinstance(header, str):
        raise DatasetError(f"{where}: 'header' must be a string, got {type(header).__name__}")
    if header and not header.endswith("\n"):
        header += "\n"  # so that `code` is always header + statement

    extra: dict[str, Any] = {k: v for k, v in row.items() if k not in _CONSUMED}
    if answers == "inlined" and isinstance(row.get("formal_statement_solution_inlined"), str):
        extra["original_statement"] = statement
        extra["answers"] = "inlined"
        statement = row["formal_statement_solution_inlined"]
    statement, completed = _complete_statement(statement)
    if completed:
        extra["sorry_appended"] = True

    name = row.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise DatasetError(f"{where}: 'name' must be a non-empty string")
    if name is None:
        theorem = last_theorem(statement)
        name = theorem.name if theorem is not None and theorem.name else None
    split = row.get("split") or default_split
    if not isinstance(split, str):
        raise DatasetError(f"{where}: 'split' must be a string, got {type(split).__name__}")
    informal = next((row[k] for k in _INFORMAL_KEYS if row.get(k) is not None), None)
    if informal is not None and not isinstance(informal, str):
        raise DatasetError(f"{where}: 'informal_statement' must be a string or null")
    if informal is None and isinstance(row.get("informal_prefix"), str):
        m = _DOCSTRING.match(row["informal_prefix"])
        informal = m.group(1).strip() if m else None
    if informal is not None and informal_in_header and _normalised(informal) in _normalised(header):
        # ProverBench's header already states it (a `/- -/` or `/-- -/` comment): a prompt that
        # adds it again shows it twice, and after a header ending in a docstring, as two
        # consecutive docstrings (invalid Lean). The text stays readable in `extra`.
        extra["informal_statement"] = informal
        extra["informal_in_header"] = True
        informal = None

    category = _tags(row.get("category")) or _tags(row.get("tags")) or _tags(row.get("area"))
    if not category and category_from_name and name:
        category = minif2f_category(name)

    version = row.get("lean_version") if isinstance(row.get("lean_version"), str) else None
    problem = BenchmarkProblem(
        name=name or "",
        dataset=dataset,
        split=split,
        header=header,
        statement=statement,
        informal=informal,
        lean_version=lean_version or version,
        category=category,
        extra=extra,
    )
    if not problem.slots:
        raise DatasetError(f"{where}: the statement has no `sorry` proof slot")
    return problem


def _normalised(text: str) -> str:
    return " ".join(text.split())


def _name_fallback(problem: BenchmarkProblem, taken: set[str]) -> BenchmarkProblem:
    """A row without a usable name: name it after a hash of its code (stable across runs)."""
    digest = hashlib.sha1(problem.code.encode()).hexdigest()[:12]
    name = f"stmt_{digest}"
    i = 1
    while name in taken:
        i += 1
        name = f"stmt_{digest}_{i}"
    return replace(problem, name=name)


def _problems_from_rows(
    rows: Iterable[tuple[str, Any]],
    *,
    dataset: str,
    lean_version: str | None,
    category_from_name: bool,
    answers: Answers,
    default_header: str | None = None,
    informal_in_header: bool = False,
) -> list[BenchmarkProblem]:
    out: list[BenchmarkProblem] = []
    first_seen: dict[str, str] = {}
    unnamed: list[int] = []
    derived: dict[str, int] = {}
    for where, row in rows:
        p = _problem_from_row(
            row,
            where=where,
            dataset=dataset,
            lean_version=lean_version,
            category_from_name=category_from_name,
            answers=answers,
            default_header=default_header,
            informal_in_header=informal_in_header,
        )
        explicit = isinstance(row, Mapping) and row.get("name") is not None
        if explicit:
            if p.name in first_seen:
                raise DatasetError(f"{where}: duplicate name {p.name!r} (first at {first_seen[p.name]})")
            first_seen[p.name] = where
        elif p.name:
            derived[p.name] = derived.get(p.name, 0) + 1
        out.append(p)
        if not explicit:
            unnamed.append(len(out) - 1)
    # rows without `name` take their theorem's name when it is unique; else a hash of their code
    taken = set(first_seen)
    for i in unnamed:
        p = out[i]
        if p.name and derived[p.name] == 1 and p.name not in taken:
            taken.add(p.name)
            continue
        out[i] = _name_fallback(p, taken)
        taken.add(out[i].name)
    return out


def _jsonl_rows(path: Path) -> Iterable[tuple[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise DatasetError(f"cannot read {path}: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise DatasetError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from e
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise DatasetError(f"{where}: invalid JSON ({e.msg} at column {e.colno})") from None
        yield where, row


def registered_path(info: DatasetInfo) -> Path:
    """The local file of a registered dataset: packaged, or downloaded (and checked) on first use.
    A packaged copy of a published file (`DatasetInfo.packaged`) is checked against the pinned
    sha256 each time it is read; where it is missing, the published file is downloaded instead."""
    if info.remote is not None and info.packaged:
        from lemmaforge.benchmarks.download import ensure, sha256_of

        packaged = data_dir() / info.filename
        if not packaged.is_file():
            return ensure(info)
        if info.remote.sha256 is not None and sha256_of(packaged) != info.remote.sha256:
            raise DatasetError(
                f"{info.name}: the packaged {packaged} does not have the published file's sha256 {info.remote.sha256} "
                f"({info.remote.url}); reinstall lemmaforge"
            )
        return packaged
    if info.remote is not None:
        from lemmaforge.benchmarks.download import ensure

        return ensure(info)
    path = data_dir() / info.filename
    if not path.is_file():
        raise DatasetError(
            f"{info.name}: data file not found: {path}; set LEMMAFORGE_DATA to the folder holding {info.filename}"
        )
    return path


def _parquet_rows(path: Path) -> Iterable[tuple[str, Any]]:
    try:
        import pyarrow.parquet as pq  # only the hub's parquet copies need it
    except ImportError:
        raise DatasetError(f"{path}: reading a parquet dataset needs pyarrow (pip install pyarrow)") from None
    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow's errors have no common base worth naming
        raise DatasetError(f"{path}: not a readable parquet file ({type(exc).__name__}: {exc})"[:300]) from None
    for i, row in enumerate(table.to_pylist()):
        yield f"{path}[{i}]", row


def _hf_rows(spec: str) -> tuple[str, Iterable[tuple[str, Any]]]:
    ident, _, config = spec[len("hf:") :].partition(":")
    if not ident:
        raise DatasetError(
            f"{spec!r}: expected hf:<dataset id>[:config], e.g. hf:deepseek-ai/DeepSeek-ProverBench"
        )
    try:
        import datasets as hf_datasets  # the `train` extra; only needed for this path
    except ImportError:
        raise DatasetError(
            f"{spec}: loading from the Hugging Face hub needs the `datasets` package "
            "(pip install 'lemmaforge[train]'); or download the data as JSONL and pass its path"
        ) from None
    try:
        loaded = hf_datasets.load_dataset(ident, config or None)
    except Exception as e:  # hub unreachable, unknown id, bad config …
        first = (str(e).strip().splitlines() or [""])[0][:200]
        raise DatasetError(
            f"{spec}: could not load from the Hugging Face hub ({type(e).__name__}: {first}); "
            "check the id and the network, or download the JSONL and pass its path"
        ) from None
    splits = loaded.items() if isinstance(loaded, Mapping) else [("test", loaded)]
    dataset = ident + (f":{config}" if config else "")

    def rows() -> Iterable[tuple[str, Any]]:
        for split_name, part in splits:
            for i, row in enumerate(part):
                row = dict(row)
                if not row.get("split"):
                    row["split"] = split_name
                yield f"{spec}[{split_name}][{i}]", row

    return dataset, rows()


def read_problems(
    spec: str | os.PathLike[str] = DEFAULT_DATASET,
    *,
    answers: Answers = "slots",
    tactic: bool = False,
    lean_version: str | None = None,
) -> list[BenchmarkProblem]:
    """Every problem of `spec`, in file order, unfiltered. See `load_dataset`."""
    if answers not in ("slots", "inlined"):
        raise DatasetError(f"answers must be 'slots' or 'inlined', not {answers!r}")
    target = resolve_dataset(spec)
    category_from_name = False
    default_header: str | None = None
    informal_in_header = False
    if isinstance(target, DatasetInfo):
        path = registered_path(target)
        parquet = target.remote is not None and target.remote.format == "parquet"
        dataset, rows = target.name, (_parquet_rows(path) if parquet else _jsonl_rows(path))
        lean_version = lean_version or target.lean_version
        category_from_name = target.category_from_name
        default_header = target.remote.default_header if target.remote is not None else None
        informal_in_header = target.informal_in_header
    elif isinstance(target, Path):
        dataset, rows = target.stem, _jsonl_rows(target)
    else:
        dataset, rows = _hf_rows(target)
        lean_version = lean_version or _HF_LEAN_VERSIONS.get(dataset.split(":")[0].lower())
        category_from_name = "minif2f" in dataset.lower()
    problems = _problems_from_rows(
        rows,
        dataset=dataset,
        lean_version=lean_version,
        category_from_name=category_from_name,
        answers=answers,
        default_header=default_header,
        informal_in_header=informal_in_header,
    )
    if not problems:
        raise DatasetError(f"{spec}: no problems found (empty file?)")
    if tactic:
        problems = [p.with_tactic_proof() for p in problems]
    return problems


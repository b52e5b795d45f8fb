"""Benchmark datasets: miniF2F (two versions), ProverBench, PutnamBench, any JSONL, or the HF hub.

`load_dataset(spec, ...)` returns a list of `BenchmarkProblem`s. `spec` is one of

* a registered name (see `DATASETS`): `minif2f` (DeepSeek's version, Lean v4.9.0, the default),
  `minif2f-yangky11` (Lean v4.24.0), `proverbench` (partial, 230 of 325; Lean v4.9.0),
  `putnambench` (Lean v4.27.0). They resolve to the JSONL copies shipped in the package
  (`lemmaforge/benchmarks/data/`, with `SOURCES.md`: origin, commit, licence and changes of each
  file), or to `$LEMMAFORGE_DATA` (the folder holding the JSONL files, or its parent `data/`
  folder) when that is set. A registered name wins over a file of
  the same name in the working directory: write `./minif2f` for the file;
* a path to a JSONL file, one problem per line: `header` + `formal_statement`, optional `name`,
  `split` (default `test`), `informal_statement`, `category` / `tags` / `area`, `lean_version`;
  every other field lands in `extra`. A line without `header` whose `formal_statement` (or
  `code`) holds the whole file is split with `lean.syntax.split_header`. A statement ending in
  `:= by` or `:=` (DeepSeek's and ATF's raw formats) gets its `sorry` appended;
* `hf:<dataset id>[:config]`: the same row format read through the Hugging Face `datasets`
  library (the `train` extra), when it is installed and the hub is reachable.

Filters are applied in this order: `split`, `names`, `shard`, then `limit` (so `limit` takes the
first N problems of the shard, in file order). Shards are stable: problems are ordered by the
SHA-256 of their name and problem j of that order goes to shard j mod n, so the n shards partition
the selection exactly, differ in size by at most one, and do not depend on the file's line order.

Proof slot and answer slots. Every statement ends in its proof slot: the FINAL `sorry`
(`BenchmarkProblem.proof_slot`). PutnamBench statements may start with solution `abbrev`s whose
`sorry`s are *answer* slots (`answer_slots`), not proofs. Holes are always counted in the
statement only: the header may hold `sorry`s of its own (ProverBench `abstract_algebra__p30`).

Term vs tactic mode. PutnamBench statements mostly end in a term-mode `:=\\nsorry`;
`as_tactic_statement()` rewrites the final term `sorry` (only) into `:= by\\n  sorry`, and
`load_dataset(..., tactic=True)` returns problems already rewritten that way, with the original
statement kept in `extra["original_statement"]`. `answers="inlined"` uses PutnamBench's
"answer given" variant (`extra["formal_statement_solution_inlined"]`, abbrevs replaced by the
official answers) as the statement where it exists, again keeping the original in `extra`.

All problems of a registered dataset carry the Lean version its file pins
(`BenchmarkProblem.lean_version`); `lean_version_mismatch` turns a difference with the verifier's
version into a warning line.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from lemmaforge.errors import InputError
from lemmaforge.lean.syntax import Hole, holes, last_theorem, split_header, tokens
from lemmaforge.records import ProblemRecord

__all__ = [
    "DATASETS",
    "DEFAULT_DATASET",
    "BenchmarkProblem",
    "DatasetError",
    "DatasetInfo",
    "data_dir",
    "lean_version_mismatch",
    "load_dataset",
    "parse_shard",
    "read_problems",
    "resolve_dataset",
    "select",
    "version_warnings",
]

Answers = Literal["slots", "inlined"]


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
# Lean versions of hub copies we know of (lower-case ids).
_HF_LEAN_VERSIONS = {"deepseek-ai/deepseek-proverbench": "v4.9.0"}


def _registered(spec: str) -> DatasetInfo | None:
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


def resolve_dataset(spec: str) -> DatasetInfo | Path | str:
    """What `spec` names: a registered `DatasetInfo`, a JSONL `Path`, or an `hf:` spec (str)."""
    if not isinstance(spec, str | os.PathLike):
        raise DatasetError(f"dataset spec must be a name or a path, not {type(spec).__name__}")
    text = os.fspath(spec)
    if isinstance(spec, str):
        info = _registered(text)
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


# --------------------------------------------------------------------------------------------
# problems


@dataclass(frozen=True)
class BenchmarkProblem:
    """One benchmark theorem. `code` (= header + statement) is what Lean checks.

    Slot positions (`slots`, `proof_slot`, `answer_slots`) are `lean.syntax.Hole`s in `code`
    coordinates (header included), the frame in which the verifier reports positions; only the
    statement's holes count, never the header's.
    """

    name: str
    dataset: str
    split: str
    header: str
    statement: str  # the formal statement, ending in its proof slot (the final `sorry`)
    informal: str | None = None
    lean_version: str | None = None  # the Lean version the dataset pins, e.g. "v4.9.0"
    category: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.dataset, self.name, self.split, self.header, self.statement))

    @property
    def problem_id(self) -> str:
        return f"{self.dataset}/{self.name}"

    @property
    def _separator(self) -> str:
        return "\n" if self.header and not self.header.endswith("\n") else ""

    @property
    def code(self) -> str:
        return self.header + self._separator + self.statement

    @property
    def statement_offset(self) -> int:
        """Where the statement starts in `code`."""
        return len(self.header) + len(self._separator)

    @cached_property
    def slots(self) -> list[Hole]:
        """The statement's holes (answer slots, then the proof slot), in `code` coordinates."""
        start = self.statement_offset
        return [h for h in holes(self.code) if h.offset >= start]

    @property
    def proof_slot(self) -> Hole:
        """The hole of the statement's final `sorry`: the proof to find."""
        if not self.slots:
            raise DatasetError(f"{self.problem_id}: the statement has no `sorry` proof slot")
        return self.slots[-1]

    @property
    def answer_slots(self) -> list[Hole]:
        """Holes before the proof slot: PutnamBench solution `abbrev`s (answers to fill in)."""
        return self.slots[:-1]

    @property
    def term_mode(self) -> bool:
        """The proof slot is a term (`:= sorry`), not a tactic (`:= by sorry`)."""
        return self.proof_slot.position == "term"

    def _assign_end(self) -> int | None:
        """Statement index right after the `:=` that the proof slot directly follows, if any."""
        slot = self.proof_slot.offset - self.statement_offset
        before = self.statement[:slot].rstrip()
        if before.endswith(":="):
            return len(before)
        return None

    def as_tactic_statement(self) -> str:
        """The statement with its final term-mode `sorry` turned into `:= by\\n  sorry`.

        Only the proof slot changes (answer `abbrev`s keep their term `sorry`); a statement whose
        proof slot is already in a tactic block is returned unchanged."""
        end = self._assign_end()
        if end is None:
            return self.statement
        slot_end = self.proof_slot.end - self.statement_offset
        return self.statement[:end] + " by\n  sorry" + self.statement[slot_end:]

    def with_tactic_proof(self) -> BenchmarkProblem:
        """This problem with `as_tactic_statement()` as its statement (original in `extra`)."""
        new = self.as_tactic_statement()
        if new == self.statement:
            return self
        extra = dict(self.extra)
        extra.setdefault("original_statement", self.statement)
        return replace(self, statement=new, extra=extra)

    def to_record(self) -> ProblemRecord:
        extra = dict(self.extra)
        extra["category"] = list(self.category)
        extra["lean_version"] = self.lean_version
        return ProblemRecord(
            problem_id=self.problem_id,
            name=self.name,
            header=self.header + self._separator,
            statement=self.statement,
            dataset=self.dataset,
            split=self.split,
            informal=self.informal,
            extra=extra,
        )


# --------------------------------------------------------------------------------------------
# rows → problems

_STATEMENT_KEYS = ("formal_statement", "code", "statement")
_INFORMAL_KEYS = ("informal_statement", "informal")
_CONSUMED = {"name", "split", "header", *_STATEMENT_KEYS, *_INFORMAL_KEYS, "lean_version", "category"}
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
    if isinstance(target, DatasetInfo):
        path = data_dir() / target.filename
        if not path.is_file():
            raise DatasetError(
                f"{target.name}: data file not found: {path}; set LEMMAFORGE_DATA to the folder holding {target.filename}"
            )
        dataset, rows = target.name, _jsonl_rows(path)
        lean_version = lean_version or target.lean_version
        category_from_name = target.category_from_name
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
    )
    if not problems:
        raise DatasetError(f"{spec}: no problems found (empty file?)")
    if tactic:
        problems = [p.with_tactic_proof() for p in problems]
    return problems


# --------------------------------------------------------------------------------------------
# filters


def parse_shard(shard: str | tuple[int, int]) -> tuple[int, int]:
    """`"i/n"` (or `(i, n)`) → `(i, n)` with 0 <= i < n."""
    if isinstance(shard, tuple) and len(shard) == 2 and all(isinstance(x, int) for x in shard):
        i, n = shard
    else:
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", str(shard))
        if not m:
            raise DatasetError(f"bad shard {shard!r}: expected 'i/n' with 0 <= i < n, e.g. '0/4'")
        i, n = int(m.group(1)), int(m.group(2))
    if n < 1:
        raise DatasetError(f"bad shard {shard!r}: the number of shards n must be at least 1 (e.g. '0/4')")
    if not 0 <= i < n:
        # shards count from 0: the n shards of i/n are 0/n … (n-1)/n, so "4/4" is one past the last
        raise DatasetError(
            f"bad shard {shard!r}: shards count from 0, so with n={n} they are 0/{n} … {n - 1}/{n} "
            f"(the last shard is {n - 1}/{n})"
        )
    return i, n


def _shard_key(name: str) -> tuple[str, str]:
    return hashlib.sha256(name.encode()).hexdigest(), name


def _parse_names(names: str | Iterable[str]) -> list[str]:
    items = names.split(",") if isinstance(names, str) else list(names)
    out = [str(n).strip() for n in items]
    return [n for n in out if n]


def _short_list(items: Sequence[str], limit: int = 10) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" (+{len(items) - limit} more)" if len(items) > limit else "")


def select(
    problems: Sequence[BenchmarkProblem],
    *,
    split: str | None = None,
    names: str | Iterable[str] | None = None,
    shard: str | tuple[int, int] | None = None,
    limit: int | None = None,
) -> list[BenchmarkProblem]:
    """Filter in this order: `split`, `names`, `shard` ("i/n"), `limit`; file order is kept."""
    out = list(problems)
    label = out[0].dataset if out else "dataset"
    if split is not None:
        splits = sorted({p.split for p in out})
        if split not in splits:
            raise DatasetError(f"{label} has no split {split!r}; splits: {', '.join(splits) or '(none)'}")
        out = [p for p in out if p.split == split]
    if names is not None:
        wanted = _parse_names(names)
        if not wanted:
            raise DatasetError("names is empty: give problem names as a list or a comma-separated string")
        all_names = {p.name for p in problems}
        unknown = [n for n in dict.fromkeys(wanted) if n not in all_names]
        if unknown:
            lower = {n.lower(): n for n in all_names}
            hints = [f"{n}→{lower[n.lower()]}" for n in unknown if n.lower() in lower]
            hint = f" (case differs: {_short_list(hints)})" if hints else ""
            raise DatasetError(f"unknown problem name(s) in {label}: {_short_list(unknown)}{hint}")
        present = {p.name for p in out}
        outside = [n for n in dict.fromkeys(wanted) if n not in present]
        if outside:
            raise DatasetError(f"problem(s) not in split {split!r} of {label}: {_short_list(outside)}")
        keep = set(wanted)
        out = [p for p in out if p.name in keep]
    if shard is not None:
        i, n = parse_shard(shard)
        order = sorted(range(len(out)), key=lambda j: _shard_key(out[j].name))
        mine = {idx for rank, idx in enumerate(order) if rank % n == i}
        out = [p for j, p in enumerate(out) if j in mine]
    if limit is not None:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise DatasetError(f"limit must be a non-negative integer, not {limit!r}")
        out = out[:limit]
    return out


def load_dataset(
    spec: str | os.PathLike[str] = DEFAULT_DATASET,
    *,
    split: str | None = None,
    limit: int | None = None,
    names: str | Iterable[str] | None = None,
    shard: str | tuple[int, int] | None = None,
    answers: Answers = "slots",
    tactic: bool = False,
    lean_version: str | None = None,
) -> list[BenchmarkProblem]:
    """Load a benchmark and select problems from it.

    `spec`: a registered name (`DATASETS`), a JSONL path, or `hf:<id>[:config]`.
    Filters apply in the order `split` → `names` (list or "a,b,c"; unknown names are an error)
    → `shard` ("i/n", stable across runs) → `limit` (first N of what is left).
    `answers="inlined"`: use PutnamBench's answer-given variant where a problem has one.
    `tactic=True`: final term-mode `sorry` → `by\\n  sorry` (see `BenchmarkProblem.as_tactic_statement`).
    `lean_version`: override the pinned version (custom files carry none unless a row has `lean_version`).
    Raises `DatasetError` with a one-line message.
    """
    problems = read_problems(spec, answers=answers, tactic=tactic, lean_version=lean_version)
    return select(problems, split=split, names=names, shard=shard, limit=limit)


# --------------------------------------------------------------------------------------------
# Lean versions


def _version_key(version: str) -> tuple[tuple[int, ...], str]:
    text = version.strip().rsplit(":", 1)[-1].strip().lstrip("vV")
    core, _, suffix = text.partition("-")
    parts: list[int] = []
    for piece in core.split("."):
        if not piece.isdigit():
            return (), text.lower()  # not a plain version: compare the text
        parts.append(int(piece))
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts), suffix.lower()


def _problem_lean_version(problem: Any) -> str | None:
    version = getattr(problem, "lean_version", None)
    if version is None:
        extra = getattr(problem, "extra", None) or {}
        version = extra.get("lean_version")
    return version


def _mismatch(
    subject: str, dataset: str, version: str | None, verifier_lean_version: str | None
) -> str | None:
    if not version or not verifier_lean_version:
        return None
    if _version_key(version) == _version_key(verifier_lean_version):
        return None
    line = (
        f"warning: {subject} is pinned to Lean {version} but the verifier runs Lean "
        f"{verifier_lean_version}; statements may not elaborate there"
    )
    info = _registered(dataset or "")
    if info is not None:
        others = [
            o.name
            for o in DATASETS.values()
            if o.family == info.family
            and o.name != info.name
            and _version_key(o.lean_version) == _version_key(verifier_lean_version)
        ]
        if others:
            line += f" (use {others[0]}, pinned to Lean {verifier_lean_version})"
    return line


def lean_version_mismatch(
    problem: BenchmarkProblem | ProblemRecord, verifier_lean_version: str | None
) -> str | None:
    """A warning line when the problem's pinned Lean version differs from the verifier's; None
    when they agree or either is unknown. Accepts "v4.9.0", "4.9", "leanprover/lean4:v4.9.0"."""
    return _mismatch(
        problem.problem_id, problem.dataset, _problem_lean_version(problem), verifier_lean_version
    )


def version_warnings(problems: Iterable[BenchmarkProblem], verifier_lean_version: str | None) -> list[str]:
    """One warning line per (dataset, pinned version) that differs from the verifier's version
    (for batch runs, instead of one line per problem)."""
    seen: set[tuple[str, str | None]] = set()
    out: list[str] = []
    for p in problems:
        key = (p.dataset, p.lean_version)
        if key in seen:
            continue
        seen.add(key)
        line = _mismatch(f"dataset {p.dataset}", p.dataset, p.lean_version, verifier_lean_version)
        if line:
            out.append(line)
    return out

"""Dataset loaders on the real benchmark files in shared/data/benchmarks, plus custom JSONL."""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path

import pytest

from lemmaforge.benchmarks import download, registry
from lemmaforge.benchmarks.dataset_rows import read_problems
from lemmaforge.benchmarks.datasets import (
    lean_version_mismatch,
    load_dataset,
    parse_shard,
    select,
    version_warnings,
)
from lemmaforge.benchmarks.problem import BenchmarkProblem
from lemmaforge.benchmarks.registry import DATASETS, DatasetError
from lemmaforge.lean.syntax import holes
from lemmaforge.records import ProblemRecord
from tests.conftest import BENCHMARKS

ABBREV = re.compile(r"(?m)^(?:noncomputable\s+)?abbrev\s+\S+\s*:.*:=\s*sorry")


@pytest.fixture(autouse=True)
def _data_env(monkeypatch: pytest.MonkeyPatch) -> None:
    if not BENCHMARKS.is_dir():
        pytest.fail(f"benchmark data not found at {BENCHMARKS}; set LEMMAFORGE_SHARED")
    monkeypatch.setenv("LEMMAFORGE_DATA", str(BENCHMARKS))


_CACHE: dict[tuple, list[BenchmarkProblem]] = {}


def problems(name: str, **kw) -> list[BenchmarkProblem]:
    """Unfiltered problems, read once per test session (loading is pure)."""
    key = (name, tuple(sorted(kw.items())))
    if key not in _CACHE:
        _CACHE[key] = read_problems(name, **kw)
    return _CACHE[key]


# ---------------------------------------------------------------- counts and slots


@pytest.mark.parametrize(
    ("name", "splits", "version"),
    [
        ("minif2f", {"valid": 244, "test": 244}, "v4.9.0"),
        ("minif2f-yangky11", {"valid": 244, "test": 244}, "v4.24.0"),
        ("proverbench", {"test": 230}, "v4.9.0"),
        ("putnambench", {"test": 672}, "v4.27.0"),
    ],
)
@pytest.mark.slow
def test_counts_splits_versions(name: str, splits: dict[str, int], version: str) -> None:
    ps = problems(name)
    assert len(ps) == sum(splits.values())
    for split, n in splits.items():
        assert len([p for p in ps if p.split == split]) == n
    assert {p.lean_version for p in ps} == {version}
    canonical = registry.registered(name).name  # "minif2f" names the DeepSeek-V1.5 version
    assert {p.dataset for p in ps} == {canonical}
    ids = [p.problem_id for p in ps]
    assert len(set(ids)) == len(ids)
    assert all(i == f"{canonical}/{p.name}" for i, p in zip(ids, ps, strict=True))
    assert all(p.category for p in ps), "every problem has at least one category"
    assert all(p.code == p.header + p.statement for p in ps)


@pytest.mark.parametrize("name", [n for n, info in DATASETS.items() if info.remote is None])
def test_proof_slot_is_the_final_sorry(name: str) -> None:
    for p in problems(name):
        slot = p.proof_slot
        assert p.code[slot.offset : slot.offset + 5] == "sorry", p.name
        assert p.code[slot.offset + 5 :].strip() == "", f"{p.name}: statement does not end in its proof slot"
        assert slot.offset >= len(p.header)
        assert slot == holes(p.code)[-1]
        if name != "putnambench":
            assert len(p.slots) == 1, p.name
            assert p.answer_slots == []


@pytest.mark.slow
def test_putnambench_answer_abbrevs() -> None:
    ps = problems("putnambench")
    with_abbrev = [p for p in ps if p.extra["has_solution_abbrev"]]
    assert len(with_abbrev) == 346
    total = 0
    for p in ps:
        n_abbrevs = len(ABBREV.findall(p.statement))
        assert bool(n_abbrevs) == p.extra["has_solution_abbrev"], p.name
        assert len(holes(p.statement)) == 1 + n_abbrevs, p.name
        assert len(p.slots) == 1 + n_abbrevs and len(p.answer_slots) == n_abbrevs
        total += len(p.slots)
    assert total == 672 + 346
    p = next(p for p in ps if p.name == "putnam_1962_a2")
    assert p.category == ["analysis"] and p.extra["year"] == 1962
    assert p.extra["formal_statement_solution_inlined"]
    assert "source" in p.extra and "informal_solution" in p.extra


def test_proverbench_header_sorry_is_not_a_slot() -> None:
    p = next(p for p in problems("proverbench") if p.name == "abstract_algebra__p30")
    assert holes(p.header), "the header of abstract_algebra__p30 holds a sorry of its own"
    assert len(holes(p.statement)) == 1
    assert len(p.slots) == 1
    assert len(holes(p.code)) == len(holes(p.header)) + 1
    assert p.proof_slot.offset > len(p.header)


def test_categories() -> None:
    mini = {p.name: p for p in problems("minif2f")}
    assert mini["amc12a_2019_p21"].category == ["amc12a", "amc12"]
    assert mini["mathd_algebra_478"].category == ["mathd_algebra"]
    assert mini["imo_1959_p1"].category == ["imo"]
    assert mini["aime_1984_p5"].category == ["aime"]
    assert mini["aimeII_2020_p6"].category == ["aimeII", "aime"]
    assert mini["induction_sum_odd"].category == ["induction"]
    firsts = {p.category[0] for p in mini.values()}
    assert {"mathd_algebra", "mathd_numbertheory", "amc12a", "amc12b", "amc12", "imo", "aime"} <= firsts
    assert sum("aime" in p.category for p in mini.values()) == 30
    pb = {p.category[0] for p in problems("proverbench")}
    assert {"aime", "calculus", "abstract_algebra", "linear_algebra", "probability"} <= pb
    putnam = problems("putnambench")
    assert all(p.category == p.extra["tags"] for p in putnam)


def test_yangky11_name_case_differs() -> None:
    names = {p.name for p in problems("minif2f-yangky11")}
    assert "numbertheory_notEquiv2i2jasqbsqdiv8" in names
    with pytest.raises(DatasetError, match="case differs"):
        load_dataset("minif2f-yangky11", names="numbertheory_notequiv2i2jasqbsqdiv8")


# ---------------------------------------------------------------- term / tactic, answers


@pytest.mark.slow
def test_as_tactic_statement_putnam() -> None:
    ps = problems("putnambench")
    assert sum(p.term_mode for p in ps) == 662  # 524 `:=\nsorry` + 137 `:=\n  sorry` + 1 `:= sorry`
    tac = problems("putnambench", tactic=True)
    for before, after in zip(ps, tac, strict=True):
        assert not after.term_mode
        assert after.statement.endswith(":= by\n  sorry")
        assert len(after.slots) == len(before.slots)
        if before.term_mode:
            assert after.extra["original_statement"] == before.statement
            # everything before the proof slot (answer abbrevs included) is untouched
            cut = before.proof_slot.offset - len(before.header)
            assert after.statement.startswith(before.statement[:cut].rstrip())
        else:
            assert after == before
    one = next(p for p in ps if p.name == "putnam_1987_a1")
    assert one.statement.endswith("C ∩ D := sorry")
    assert one.as_tactic_statement().endswith("C ∩ D := by\n  sorry")


def test_tactic_leaves_minif2f_alone() -> None:
    assert not any(p.term_mode for p in problems("minif2f"))
    assert all(p.as_tactic_statement() == p.statement for p in problems("minif2f"))


@pytest.mark.slow
def test_answers_inlined() -> None:
    ps = problems("putnambench", answers="inlined")
    assert len(ps) == 672
    inlined = [p for p in ps if p.extra.get("answers") == "inlined"]
    assert len(inlined) == 346
    for p in ps:
        assert len(p.slots) == 1, p.name
        assert not ABBREV.search(p.statement)
    p = inlined[0]
    assert p.statement == p.extra["formal_statement_solution_inlined"]
    assert ABBREV.search(p.extra["original_statement"])
    with pytest.raises(DatasetError, match="answers"):
        load_dataset("putnambench", answers="given")  # type: ignore[arg-type]


def test_to_record() -> None:
    p = problems("proverbench")[0]
    rec = p.to_record()
    assert isinstance(rec, ProblemRecord)
    assert (rec.problem_id, rec.name, rec.dataset, rec.split) == (p.problem_id, p.name, "proverbench", "test")
    assert rec.header == p.header and rec.statement == p.statement and rec.informal == p.informal
    assert rec.extra["category"] == p.category and rec.extra["lean_version"] == "v4.9.0"
    assert rec.extra["area"] == p.extra["area"]


# ---------------------------------------------------------------- filters


def test_split_names_limit() -> None:
    assert len(load_dataset("minif2f", split="valid")) == 244  # end to end once; then on the cache
    mini = problems("minif2f")
    assert len(select(mini, split="test", limit=10)) == 10
    assert select(mini, split="test", limit=10) == [p for p in mini if p.split == "test"][:10]
    assert select(mini, limit=0) == []
    picked = select(mini, names="imo_1959_p1, amc12a_2019_p21")
    assert {p.name for p in picked} == {"imo_1959_p1", "amc12a_2019_p21"}
    assert [p.name for p in select(mini, names=["imo_1959_p1"])] == ["imo_1959_p1"]
    with pytest.raises(DatasetError, match=r"unknown problem name\(s\) in minif2f-deepseek-v1.5: nope_1, nope_2$"):
        select(mini, names=["imo_1959_p1", "nope_1", "nope_2"])
    with pytest.raises(DatasetError, match="names is empty"):
        select(mini, names=" , ")
    valid_name = next(p.name for p in mini if p.split == "valid")
    with pytest.raises(DatasetError, match="not in split 'test'"):
        select(mini, split="test", names=[valid_name])
    with pytest.raises(DatasetError, match="splits: test, valid"):
        select(mini, split="train")
    with pytest.raises(DatasetError, match="limit"):
        select(mini, limit=-1)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["putnambench", "minif2f"])
@pytest.mark.parametrize("n", [1, 3, 7])
def test_shards_partition_exactly(name: str, n: int) -> None:
    everything = select(problems(name), split="test")
    shards = [select(problems(name), split="test", shard=f"{i}/{n}") for i in range(n)]
    ids = [p.problem_id for s in shards for p in s]
    assert len(ids) == len(set(ids)), "shards overlap"
    assert set(ids) == {p.problem_id for p in everything}, "shards miss problems"
    sizes = [len(s) for s in shards]
    assert max(sizes) - min(sizes) <= 1
    # stable across calls, and the same through a fresh load
    again = [[p.problem_id for p in select(problems(name), split="test", shard=(i, n))] for i in range(n)]
    assert again == [[p.problem_id for p in s] for s in shards], "shards are not stable"
    fresh = load_dataset(name, split="test", shard=f"{n - 1}/{n}")
    assert [p.problem_id for p in fresh] == [p.problem_id for p in shards[-1]]
    order = {p.problem_id: j for j, p in enumerate(everything)}
    for s in shards:  # file order kept inside a shard
        assert [order[p.problem_id] for p in s] == sorted(order[p.problem_id] for p in s)


def test_shard_independent_of_line_order(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in (BENCHMARKS / "proverbench.jsonl").read_text().splitlines()]
    f = tmp_path / "reversed.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in reversed(rows)))
    a = {p.name for p in load_dataset("proverbench", shard="2/5")}
    b = {p.name for p in load_dataset(f, shard="2/5")}
    assert a == b


@pytest.mark.slow
def test_limit_applies_after_shard() -> None:
    shard = load_dataset("putnambench", shard="1/4")
    assert load_dataset("putnambench", shard="1/4", limit=5) == shard[:5]


@pytest.mark.parametrize("bad", ["4/4", "a/b", "1", "-1/3", "0/0", "1/2/3", ""])
def test_bad_shard(bad: str) -> None:
    with pytest.raises(DatasetError, match="shard"):
        load_dataset("proverbench", shard=bad)


def test_parse_shard() -> None:
    assert parse_shard("0/1") == (0, 1)
    assert parse_shard(" 3 / 8 ") == (3, 8)
    assert parse_shard((2, 4)) == (2, 4)


# ---------------------------------------------------------------- versions


def test_lean_version_mismatch() -> None:
    p = problems("minif2f")[0]
    assert lean_version_mismatch(p, "v4.9.0") is None
    assert lean_version_mismatch(p, "4.9") is None
    assert lean_version_mismatch(p, "leanprover/lean4:v4.9.0") is None
    assert lean_version_mismatch(p, None) is None
    line = lean_version_mismatch(p, "v4.24.0")
    assert line and "\n" not in line
    assert "v4.9.0" in line and "v4.24.0" in line and p.problem_id in line
    assert "minif2f-yangky11" in line  # points to the file that matches the verifier
    assert lean_version_mismatch(p.to_record(), "v4.19.0")
    unknown = BenchmarkProblem("x", "mine", "test", "", "theorem x : True := by\n  sorry")
    assert lean_version_mismatch(unknown, "v4.19.0") is None
    warns = version_warnings(problems("putnambench"), "v4.19.0")
    assert len(warns) == 1 and "putnambench" in warns[0]


# ---------------------------------------------------------------- custom JSONL, errors


def _write(path: Path, rows: list) -> Path:
    path.write_text(
        "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8"
    )
    return path


HEADER = "import Mathlib\n\nopen Nat\n\n"


def test_custom_jsonl(tmp_path: Path) -> None:
    f = _write(
        tmp_path / "mine.jsonl",
        [
            {
                "name": "a",
                "header": HEADER,
                "formal_statement": "theorem a : 1 + 1 = 2 := by\n  sorry",
                "informal_statement": "One plus one.",
                "tags": ["easy"],
                "difficulty": 1,
            },
            {"name": "b", "split": "valid", "header": HEADER, "formal_statement": "theorem b : True := by"},
            {"code": HEADER + "theorem c_thm : 2 = 2 := by\n  sorry\n"},
            "",
            {"header": "", "formal_statement": "theorem d (n : ℕ) : n = n :=", "lean_version": "v4.19.0"},
        ],
    )
    ps = load_dataset(str(f))
    assert [p.name for p in ps] == ["a", "b", "c_thm", "d"]
    a, b, c, d = ps
    assert a.dataset == "mine" and a.problem_id == "mine/a" and a.split == "test"
    assert a.informal == "One plus one." and a.category == ["easy"] and a.extra["difficulty"] == 1
    assert a.lean_version is None
    assert b.split == "valid" and b.statement.endswith(":= by\n  sorry") and b.extra["sorry_appended"]
    assert c.header.startswith("import Mathlib") and c.statement.startswith("theorem c_thm")
    assert c.code.count("sorry") == 1 and len(c.slots) == 1
    assert d.statement.endswith(":= by\n  sorry") and d.lean_version == "v4.19.0"
    assert all(p.code == p.header + p.statement for p in ps)
    glued = BenchmarkProblem("g", "mine", "test", "import Mathlib", "theorem g : True := by\n  sorry")
    assert glued.code == "import Mathlib\ntheorem g : True := by\n  sorry"
    assert glued.proof_slot.line == 3 and glued.to_record().header == "import Mathlib\n"
    assert len(load_dataset(f, split="valid")) == 1
    assert load_dataset(f, lean_version="v4.9.0")[0].lean_version == "v4.9.0"


def test_custom_jsonl_without_names(tmp_path: Path) -> None:
    same = {"header": HEADER, "formal_statement": "theorem t : True := by\n  sorry"}
    other = {"header": HEADER, "formal_statement": "theorem t : 1 = 1 := by\n  sorry"}
    f = _write(tmp_path / "anon.jsonl", [same, other])
    ps = load_dataset(f)
    assert len({p.name for p in ps}) == 2 and all(p.name.startswith("stmt_") for p in ps)
    assert [p.name for p in load_dataset(f)] == [p.name for p in ps], "fallback names are stable"


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (
            [{"name": "a", "header": "", "formal_statement": "theorem a : True := by\n  sorry"}, "{oops"],
            r"bad\.jsonl:2: invalid JSON",
        ),
        ([{"name": "a", "header": ""}], r"bad\.jsonl:1: missing 'formal_statement'"),
        (["[1, 2]"], r"bad\.jsonl:1: expected a JSON object"),
        (
            [{"name": "a", "formal_statement": 3}],
            r"bad\.jsonl:1: 'formal_statement' must be a non-empty string",
        ),
        (
            [{"name": "a", "header": 1, "formal_statement": "theorem a : True := trivial"}],
            r"bad\.jsonl:1: 'header'",
        ),
        (
            [{"name": "a", "header": "", "formal_statement": "theorem a : True := trivial"}],
            r"bad\.jsonl:1: .*no `sorry`",
        ),
        (
            [
                {"name": "a", "header": "", "formal_statement": "theorem a : True := by\n  sorry"},
                "",
                {"name": "a", "header": "", "formal_statement": "theorem a : True := by\n  sorry"},
            ],
            r"bad\.jsonl:3: duplicate name 'a' \(first at .*bad\.jsonl:1\)",
        ),
        ([], "no problems"),
    ],
)
def test_malformed_jsonl(tmp_path: Path, rows: list, message: str) -> None:
    f = _write(tmp_path / "bad.jsonl", rows)
    with pytest.raises(DatasetError, match=message) as err:
        load_dataset(f)
    assert "\n" not in str(err.value)


def test_unknown_dataset_lists_known() -> None:
    with pytest.raises(DatasetError) as err:
        load_dataset("minif2g")
    msg = str(err.value)
    assert "unknown dataset 'minif2g'" in msg and "did you mean minif2f" in msg
    for name in DATASETS:
        assert name in msg
    with pytest.raises(DatasetError, match="dataset file not found"):
        load_dataset("no/such/file.jsonl")


def test_aliases() -> None:
    assert registry.resolve_dataset("MiniF2F_yangky11") is DATASETS["minif2f-yangky11"]
    assert registry.resolve_dataset("putnam") is DATASETS["putnambench"]


def test_hf_without_datasets_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "datasets", None)  # import fails even where it is installed
    with pytest.raises(
        DatasetError, match=r"needs the `datasets` package \(pip install 'lemmaforge\[train\]'\)"
    ):
        load_dataset("hf:deepseek-ai/DeepSeek-ProverBench")
    with pytest.raises(DatasetError, match="expected hf:<dataset id>"):
        load_dataset("hf:")


def test_hf_with_fake_datasets_package(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("datasets")
    calls = []

    def fake_load(ident: str, config: str | None = None):
        calls.append((ident, config))
        if ident == "down/hub":
            raise ConnectionError("Couldn't reach 'down/hub' on the Hub\n(details)")
        row = {
            "name": "p1",
            "header": HEADER,
            "formal_statement": "theorem p1 : True := by\n  sorry",
            "area": "calc",
        }
        return {"train": [row]}

    fake.load_dataset = fake_load  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "datasets", fake)
    [p] = load_dataset("hf:deepseek-ai/DeepSeek-ProverBench:default")
    assert calls == [("deepseek-ai/DeepSeek-ProverBench", "default")]
    assert p.split == "train" and p.dataset == "deepseek-ai/DeepSeek-ProverBench:default"
    assert p.lean_version == "v4.9.0" and p.category == ["calc"]
    with pytest.raises(
        DatasetError, match=r"could not load from the Hugging Face hub \(ConnectionError: Couldn't reach"
    ) as err:
        load_dataset("hf:down/hub")
    assert "\n" not in str(err.value)


def test_data_dir_resolution(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert registry.data_dir() == BENCHMARKS
    monkeypatch.setenv("LEMMAFORGE_DATA", str(BENCHMARKS.parent))  # the data/ folder works too
    assert registry.data_dir() == BENCHMARKS
    monkeypatch.setenv("LEMMAFORGE_DATA", str(tmp_path / "missing"))
    with pytest.raises(DatasetError, match="LEMMAFORGE_DATA=.*missing is not a directory"):
        load_dataset("minif2f")
    monkeypatch.setenv("LEMMAFORGE_DATA", str(tmp_path))
    with pytest.raises(DatasetError, match="minif2f-deepseek-v1.5: data file not found: .*LEMMAFORGE_DATA"):
        load_dataset("minif2f")
    monkeypatch.delenv("LEMMAFORGE_DATA")
    monkeypatch.delenv("LEMMAFORGE_SHARED", raising=False)
    monkeypatch.setattr(registry, "_default_data_dir", lambda: tmp_path / "nowhere")
    with pytest.raises(DatasetError, match="set LEMMAFORGE_DATA"):
        registry.data_dir()


def test_default_data_dir_is_the_packaged_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without LEMMAFORGE_DATA the datasets come from inside the package: a clone or a wheel
    install needs nothing beside it. The packaged copies are the shared files, byte for byte."""
    monkeypatch.delenv("LEMMAFORGE_DATA")
    monkeypatch.delenv("LEMMAFORGE_SHARED", raising=False)
    packaged = Path(registry.__file__).resolve().parent / "data"
    assert registry.data_dir() == packaged
    assert (packaged / "SOURCES.md").is_file()
    for info in registry.DATASETS.values():
        if info.remote is not None and info.packaged:  # a published file packaged as it is: its pin
            assert download.sha256_of(packaged / info.filename) == info.remote.sha256
            continue
        if info.remote is not None:  # downloaded on first use, never packaged
            assert not (packaged / info.filename).exists()
            continue
        assert (packaged / info.filename).read_bytes() == (BENCHMARKS / info.filename).read_bytes()
    assert len(load_dataset("proverbench")) == 230
    source = Path(registry.__file__).read_text(encoding="utf-8")
    assert "/work/" not in source and "shared" not in source, "no paths outside the package in the product code"


def test_packaged_data_is_declared_as_package_data() -> None:
    """Every file of lemmaforge/benchmarks/data is matched by pyproject's package-data, so a wheel
    (not only an editable install) carries the datasets."""
    import fnmatch
    import tomllib

    repo = Path(registry.__file__).resolve().parents[2]
    patterns = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["lemmaforge.benchmarks"]
    files = sorted(p.relative_to(Path(registry.__file__).parent).as_posix() for p in (Path(registry.__file__).parent / "data").iterdir())
    assert {"data/SOURCES.md", "data/minif2f.jsonl", "data/putnambench.jsonl"} <= set(files)
    assert all(any(fnmatch.fnmatch(f, pat) for pat in patterns) for f in files), (files, patterns)

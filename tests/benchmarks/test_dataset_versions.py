"""Published dataset versions side by side, through the CLI: `datasets [--json]`, `datasets show`,
the download of an unpackaged version (a local HTTP server serving a file the test builds), the
known-false statements listed per version, ProverBench's informal statement once in the prompt,
and Goedel-Prover-V2's miniF2F compared statement for statement when its file is here."""

from __future__ import annotations

import hashlib
import http.server
import json
import re
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.agent import prompts
from lemmaforge.benchmarks import download, registry
from lemmaforge.benchmarks.dataset_rows import read_problems
from lemmaforge.benchmarks.registry import DATASETS, RemoteFile
from lemmaforge.cli import app
from tests.conftest import DATA, closed_port

runner = CliRunner()
PACKAGED = Path(registry.__file__).resolve().parent / "data"


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LEMMAFORGE_DATA", raising=False)  # the packaged copies
    monkeypatch.setenv(download.CACHE_ENV, str(tmp_path / "cache"))


def one_line_error(result, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    for n in needles:
        assert n in lines[0], lines[0]


def _listing() -> dict[str, dict]:
    r = runner.invoke(app, ["datasets", "--json"])
    assert r.exit_code == 0, r.output
    return {e["name"]: e for e in json.loads(r.stdout)["datasets"]}


# ---------------------------------------------------------------- the list


def test_datasets_lists_versions_with_provenance() -> None:
    entries = _listing()
    v15 = entries["minif2f-deepseek-v1.5"]
    assert "minif2f" in v15["aliases"]
    assert v15["splits"] == {"valid": 244, "test": 244} and v15["counts_from"] == "packaged"
    assert v15["lean_version"] == "v4.9.0"
    assert v15["source"]["repository"] == "deepseek-ai/DeepSeek-Prover-V1.5"
    assert v15["source"]["commit"] == "2c4ba9119eef74d0d611f494261b2c5bae98c69a"
    # the 2025 papers' versions are listed beside it, with who reports on them
    for name, paper in (("minif2f-goedel-v2", "Goedel-Prover-V2"), ("minif2f-kimina", "Kimina-Prover")):
        e = entries[name]
        assert paper in e["papers"] and e["download"]["url"].startswith("https://")
        assert e["source"]["commit"] in e["download"]["url"]
        assert e["splits"] == {"test": 244}
    # Goedel-V2's version is packaged (offline); Kimina's is published only (downloaded on first use)
    assert entries["minif2f-kimina"]["counts_from"].startswith("published")
    assert entries["minif2f-goedel-v2"]["counts_from"] == "packaged"
    assert entries["minif2f-goedel-v2"]["download"]["local_file"] == str(PACKAGED / "minif2f_goedel_v2.jsonl")
    assert entries["minif2f-goedel-v2"]["download"]["sha256"] == (
        "47ca505cd60a503a77165e84bbf34c662f9a8c650d09fc33fb4c000179eee8f3")
    pb = entries["proverbench"]
    assert pb["problems"] == 230 and pb["full_benchmark"] == 325
    assert entries["proverbench-full"]["splits"] == {"test": 325}


def test_datasets_text_names_the_alias_and_papers() -> None:
    r = runner.invoke(app, ["datasets"])
    assert r.exit_code == 0, r.output
    assert "minif2f-deepseek-v1.5  (also: " in r.stdout and "minif2f," in r.stdout
    assert "Goedel-Prover-V2 (2025)" in r.stdout and "known issues: 5 false" in r.stdout


def test_known_issues_name_real_problems_and_are_not_edited() -> None:
    entries = _listing()
    v15 = {p.name: p for p in read_problems("minif2f")}
    false = {k["name"] for k in entries["minif2f-deepseek-v1.5"]["known_issues"] if k["kind"] == "false"}
    assert {"mathd_numbertheory_618", "algebra_ineq_nto1onlt2m1on", "amc12a_2020_p10"} <= false
    for k in entries["minif2f-deepseek-v1.5"]["known_issues"]:
        assert k["name"] in v15 and v15[k["name"]].split == "test" and k["reason"]
    # listed, not edited: the 618 statement still lacks the `0 < n` that makes it true
    assert "(hn : n > 0)" not in v15["mathd_numbertheory_618"].statement
    packaged = [json.loads(line) for line in (PACKAGED / "minif2f.jsonl").read_text(encoding="utf-8").splitlines()]
    source = next(r for r in packaged if r["name"] == "mathd_numbertheory_618")
    assert v15["mathd_numbertheory_618"].statement == source["formal_statement"]


def test_proverbench_names_each_missing_problem_with_its_reason() -> None:
    entries = _listing()
    excluded = entries["proverbench"]["known_issues"]
    names = {p.name for p in read_problems("proverbench")}
    assert {k["kind"] for k in excluded} == {"excluded"}
    missing = {k["name"] for k in excluded}
    assert len(missing) == 95 and not missing & names and len(missing | names) == 325
    assert all("sub-part" in k["reason"] for k in excluded)
    # every missing one is a later part of a problem whose first part is here
    for name in missing:
        stem, _, part = name.rpartition("_")
        assert int(part) >= 2 and (f"{stem}_1" in names or any(n.startswith(stem) for n in names)), name


# ---------------------------------------------------------------- show


def test_show_prints_rows_as_json() -> None:
    r = runner.invoke(app, ["datasets", "show", "minif2f", "--split", "test", "--names",
                            "mathd_numbertheory_618,amc12a_2020_p10", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["dataset"] == "minif2f-deepseek-v1.5"
    rows = {row["name"]: row for row in data["rows"]}
    assert set(rows) == {"mathd_numbertheory_618", "amc12a_2020_p10"}
    row = rows["amc12a_2020_p10"]
    assert set(row) == {"name", "split", "header", "formal_statement", "informal_statement"}
    assert row["split"] == "test" and row["header"].startswith("import Mathlib")
    assert row["formal_statement"].startswith("theorem amc12a_2020_p10") and "digits" in row["informal_statement"]
    assert "amc12a_2020_p10" in {k["name"] for k in data["known_issues"]}


def test_show_text_and_bad_input() -> None:
    r = runner.invoke(app, ["datasets", "show", "putnam", "--limit", "1"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("== putnam_") and "theorem putnam_" in r.stdout
    one_line_error(runner.invoke(app, ["datasets", "show", "minif2f-nope"]), "unknown dataset", "minif2f")
    one_line_error(runner.invoke(app, ["datasets", "show", "minif2f", "--split", "train"]), "no split 'train'")


_TWO_DOCSTRINGS = re.compile(r"/--(?:(?!-/).)*-/\s*/--", re.S)  # a docstring right after a docstring


def test_proverbench_informal_statement_once_in_the_prompt() -> None:
    """185 rows' headers already state the informal statement (15 end in it as a `/-- -/`
    docstring); the prover prompt carries it once and never as two consecutive docstrings."""
    doubled = 0
    for p in read_problems("proverbench"):
        informal = p.informal if p.informal is not None else p.extra["informal_statement"]
        prompt = prompts.prover_prompt(p.header, p.statement, cot=False, informal=p.informal)
        flat, text = " ".join(prompt.split()), " ".join(informal.split())
        # never twice; once where the header states it (a row whose statement is a `lemma` gets
        # no docstring from the prompt builder: that is the prompt's business, not the dataset's)
        assert flat.count(text) <= 1, p.name
        if p.extra.get("informal_in_header"):
            assert p.informal is None and flat.count(text) == 1, p.name
        assert not _TWO_DOCSTRINGS.search(prompt), p.name
        doubled += p.extra.get("informal_in_header", False)
    assert doubled >= 185


# ---------------------------------------------------------------- download


class _Files(http.server.BaseHTTPRequestHandler):
    files: dict[str, bytes] = {}
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.hits.append(self.path)
        body = self.files.get(self.path)
        self.send_response(200 if body is not None else 404)
        self.end_headers()
        self.wfile.write(body or b"not here")

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Files]]]:
    handler = type("Files", (_Files,), {"files": {}, "hits": []})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)  # shut down at once
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    httpd.shutdown()
    httpd.server_close()


def _goedel_like_file() -> bytes:
    """Two rows in Goedel-V2's layout (header + informal docstring + theorem in one string)."""
    header = registry.MINIF2F_HEADER
    rows = []
    for name, goal in (("demo_one", "1 + 1 = 2"), ("demo_two", "2 + 2 = 4")):
        prefix = f"/-- Show that {goal}.-/\n"
        rows.append({"name": name, "informal_prefix": prefix, "split": "test",
                     "formal_statement": f"{header}{prefix}theorem {name} : {goal} := by\n"})
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def _register(monkeypatch: pytest.MonkeyPatch, url: str, sha256: str | None) -> None:
    base = DATASETS["minif2f-goedel-v2"]
    remote = RemoteFile(url=url, sha256=sha256, commit="0" * 40)
    monkeypatch.setitem(DATASETS, "test-remote", replace(base, name="test-remote", filename="test_remote.jsonl",
                                                         remote=remote, packaged=False))


def test_download_on_first_use_checked_and_cached(server, monkeypatch, tmp_path) -> None:
    base, handler = server
    body = _goedel_like_file()
    handler.files["/pinned/data.jsonl"] = body
    _register(monkeypatch, f"{base}/pinned/data.jsonl", hashlib.sha256(body).hexdigest())
    r = runner.invoke(app, ["datasets", "show", "test-remote", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["rows"]
    assert [row["name"] for row in rows] == ["demo_one", "demo_two"]
    # Goedel's layout: the docstring is the informal statement, not part of the statement
    assert rows[0]["formal_statement"] == "theorem demo_one : 1 + 1 = 2 := by\n  sorry"
    assert rows[0]["informal_statement"] == "Show that 1 + 1 = 2."
    assert rows[0]["header"] == registry.MINIF2F_HEADER
    cached = tmp_path / "cache" / "test_remote.jsonl"
    assert cached.read_bytes() == body and "checked against the pinned sha256" in r.stderr
    # second use: from the cache, no request
    handler.files.clear()
    r = runner.invoke(app, ["datasets", "show", "test-remote", "--json"])
    assert r.exit_code == 0, r.output
    assert handler.hits == ["/pinned/data.jsonl"]
    listing = {e["name"]: e for e in json.loads(runner.invoke(app, ["datasets", "--json"]).stdout)["datasets"]}
    assert listing["test-remote"]["counts_from"] == "downloaded"
    assert listing["test-remote"]["download"]["local_file"] == str(cached)
    assert listing["minif2f-kimina"]["download"]["local_file"] is None  # not downloaded here


def test_download_with_the_wrong_digest_is_refused_and_not_cached(server, monkeypatch, tmp_path) -> None:
    base, handler = server
    handler.files["/moved.jsonl"] = _goedel_like_file()
    _register(monkeypatch, f"{base}/moved.jsonl", "0" * 64)
    one_line_error(runner.invoke(app, ["datasets", "show", "test-remote"]), "not the pinned", "0" * 64)
    assert not (tmp_path / "cache" / "test_remote.jsonl").exists()
    assert not list((tmp_path / "cache").glob("*.part"))


def test_download_offline_or_missing_is_one_line_exit_2(server, monkeypatch) -> None:
    base, _ = server
    port = closed_port()
    _register(monkeypatch, f"{base}/gone.jsonl", "0" * 64)
    one_line_error(runner.invoke(app, ["datasets", "show", "test-remote"]), "HTTP 404", "download it by hand")
    _register(monkeypatch, f"http://127.0.0.1:{port}/x.jsonl", "0" * 64)
    one_line_error(runner.invoke(app, ["datasets", "show", "test-remote"]), "cannot download", "offline?")
    one_line_error(runner.invoke(app, ["bench", "test-remote", "--prover-url", f"http://127.0.0.1:{port}/v1",
                                       "--db", "sqlite:///:memory:"]), "cannot download")


def test_unpinned_download_says_so(server, monkeypatch) -> None:
    base, handler = server
    body = _goedel_like_file()
    handler.files["/free.jsonl"] = body
    _register(monkeypatch, f"{base}/free.jsonl", None)
    r = runner.invoke(app, ["datasets", "show", "test-remote", "--limit", "1"])
    assert r.exit_code == 0, r.output
    assert f"NOT pinned (no sha256 recorded): got {hashlib.sha256(body).hexdigest()}" in r.stderr


# ---------------------------------------------------------------- Goedel-V2, statement for statement


UPSTREAM_GOEDEL = DATA / "upstream" / "goedel_prover_v2" / "minif2f.jsonl"


def test_goedel_v2_is_packaged_byte_for_byte_with_the_pinned_sha256() -> None:
    """The packaged copy is the published file (the registry's pin), and the shared copy of the
    upstream file is the same bytes."""
    packaged = PACKAGED / "minif2f_goedel_v2.jsonl"
    pin = DATASETS["minif2f-goedel-v2"].remote.sha256
    assert download.sha256_of(packaged) == pin
    if UPSTREAM_GOEDEL.is_file():
        assert UPSTREAM_GOEDEL.read_bytes() == packaged.read_bytes()


def test_goedel_v2_works_offline_and_never_downloads(monkeypatch, tmp_path) -> None:
    """No network, an empty download cache: the registered name reads the packaged copy."""
    def no_network(info):  # pragma: no cover - called only on a regression
        raise AssertionError(f"{info.name} was downloaded")

    monkeypatch.setattr(download, "_fetch", no_network)
    r = runner.invoke(app, ["datasets", "show", "minif2f-goedel-v2", "--names", "mathd_numbertheory_618", "--json"])
    assert r.exit_code == 0, r.output
    [row] = json.loads(r.stdout)["rows"]
    assert row["name"] == "mathd_numbertheory_618" and row["formal_statement"].endswith("  sorry")
    assert not (tmp_path / "cache" / "minif2f_goedel_v2.jsonl").exists()


def test_a_packaged_copy_with_another_digest_is_refused(monkeypatch, tmp_path) -> None:
    """The pin is checked each time the packaged copy is read: an edited copy is one line, exit 2."""
    folder = tmp_path / "data"
    folder.mkdir()
    for f in PACKAGED.glob("*.jsonl"):
        (folder / f.name).write_bytes(f.read_bytes())
    edited = folder / "minif2f_goedel_v2.jsonl"
    edited.write_bytes(edited.read_bytes().replace(b"mathd_algebra_478", b"mathd_algebra_479", 1))
    monkeypatch.setenv("LEMMAFORGE_DATA", str(folder))
    one_line_error(runner.invoke(app, ["datasets", "show", "minif2f-goedel-v2"]), "does not have the published",
                   DATASETS["minif2f-goedel-v2"].remote.sha256)


def test_a_missing_packaged_copy_falls_back_to_the_pinned_download(server, monkeypatch, tmp_path) -> None:
    """The download path stays: where the packaged copy is missing, the published file is fetched
    and checked against the same pin."""
    folder = tmp_path / "data"
    folder.mkdir()
    for f in PACKAGED.glob("*.jsonl"):
        if f.name != "minif2f_goedel_v2.jsonl":
            (folder / f.name).write_bytes(f.read_bytes())
    monkeypatch.setenv("LEMMAFORGE_DATA", str(folder))
    base, handler = server
    handler.files["/minif2f.jsonl"] = (PACKAGED / "minif2f_goedel_v2.jsonl").read_bytes()
    info = DATASETS["minif2f-goedel-v2"]
    monkeypatch.setitem(DATASETS, "minif2f-goedel-v2", replace(info, remote=replace(info.remote, url=f"{base}/minif2f.jsonl")))
    r = runner.invoke(app, ["datasets", "show", "minif2f-goedel-v2", "--limit", "1", "--json"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "cache" / "minif2f_goedel_v2.jsonl").is_file()


def test_goedel_v2_test_split_equals_the_published_file(monkeypatch, tmp_path) -> None:
    """Goedel-LM/Goedel-Prover-V2 @ 2e9036e1 dataset/minif2f.jsonl (blob 415d1fa0): each problem's
    header + informal docstring + statement (before the appended `sorry`) is the file's
    `formal_statement`, byte for byte, in file order; 15 of them differ from the V1.5 version."""
    source = PACKAGED / "minif2f_goedel_v2.jsonl"
    rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    problems = read_problems("minif2f-goedel-v2")
    assert [p.name for p in problems] == [r["name"] for r in rows]
    for p, row in zip(problems, rows, strict=True):
        assert p.split == row["split"] == "test"
        assert p.statement.endswith("\n  sorry")
        rebuilt = p.header + p.extra["informal_prefix"] + p.statement[: -len("  sorry")]
        assert rebuilt == row["formal_statement"], p.name
    v15 = {p.name: p.statement for p in read_problems("minif2f", )}
    changed = [p.name for p in problems if p.statement != v15[p.name]]
    assert len(changed) == 15 and "mathd_numbertheory_618" in changed


@pytest.mark.slow
def test_kimina_layout_parquet_gets_the_deepseek_header(server, monkeypatch) -> None:
    """Kimina's hub copy is parquet with `name`, `informal_prefix`, `formal_statement` (the theorem
    only, per its card): the rows get DeepSeek-V1.5's header, the docstring is the informal text."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import io

    table = pa.table({
        "name": ["demo_three"],
        "informal_prefix": ["/-- Show that 3 = 3.-/\n"],
        "formal_statement": ["theorem demo_three : (3 : ℕ) = 3 := by\n"],
    })
    buf = io.BytesIO()
    pq.write_table(table, buf)
    body = buf.getvalue()
    base, handler = server
    handler.files["/kimina.parquet"] = body
    info = DATASETS["minif2f-kimina"]
    remote = replace(info.remote, url=f"{base}/kimina.parquet", sha256=hashlib.sha256(body).hexdigest())
    monkeypatch.setitem(DATASETS, "minif2f-kimina", replace(info, remote=remote))
    r = runner.invoke(app, ["datasets", "show", "minif2f-kimina", "--json"])
    assert r.exit_code == 0, r.output
    [row] = json.loads(r.stdout)["rows"]
    assert row["header"] == registry.MINIF2F_HEADER and row["informal_statement"] == "Show that 3 = 3."
    assert row["formal_statement"] == "theorem demo_three : (3 : ℕ) = 3 := by\n  sorry"
    assert row["split"] == "test"

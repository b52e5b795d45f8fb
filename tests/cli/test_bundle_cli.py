"""`lemmaforge bundle BENCH -o PATH` and `lemmaforge verify PATH` on it, through the CLI: a bench on
the fake servers, its bundle (rows, proofs, verdicts, versions, costs, manifest), the round trip,
and tampered bundles: refused before anything runs when the manifest does not match; re-checked
(and refuted, or named a mismatch) when the manifest was rewritten to match."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.benchmarks.download import sha256_of
from lemmaforge.benchmarks.registry import DATASETS, data_dir
from lemmaforge.cli import app
from tests.benchmarks.bench_helpers import ENV, NAMES, SOLVABLE, fake_servers

runner = CliRunner()


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> tuple[str, Path]:
    """A whole-proof bench of 3 miniF2F problems, 2 attempts each: 2 solved (SOLVABLE)."""
    tmp = tmp_path_factory.mktemp("bench")
    db = f"sqlite:///{tmp / 'b.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        r = runner.invoke(app, ["bench", "minif2f", "--split", "valid", "--limit", "3", "--verifier", "kimina",
                                "--kimina-url", kimina.url, "--prover-url", llm.url, "--prover-model", "fake-model",
                                "--db", db, "--no-progress", "--protocol", "whole-proof", "--attempts", "2",
                                "--run-id", "B1"], env=ENV)
        assert r.exit_code == 0, r.output
    return db, tmp


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def rezip(path: Path, files: dict[str, bytes]) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name, body in files.items():
            zf.writestr(name, body)


def write_bundle(bench, name: str = "b.zip") -> Path:
    db, tmp = bench
    out = tmp / name
    r = runner.invoke(app, ["bundle", "B1", "-o", str(out), "--db", db, "--json"])
    assert r.exit_code == 0, r.output
    info = json.loads(r.stdout)
    assert info["path"] == str(out) and info["proofs"] == 2
    assert info["sha256"] == hashlib.sha256(out.read_bytes()).hexdigest()
    return out


def verify(kimina, path: Path, tmp: Path, *extra: str):
    return runner.invoke(app, ["verify", str(path), "--verifier", "kimina", "--kimina-url", kimina.url,
                               "--db", f"sqlite:///{tmp / 'verify.db'}", "--no-progress", "--json", *extra], env=ENV)


def test_the_bundle_holds_what_a_reader_needs(bench):
    out = write_bundle(bench)
    files = members(out)
    solved = [n for n in NAMES[:3] if n in SOLVABLE]
    assert sorted(p for p in files if p.startswith("proofs/")) == sorted(f"proofs/{n}.lean" for n in solved)
    manifest = json.loads(files["manifest.json"])
    assert manifest["format"] == "lemmaforge-bundle" and manifest["version"] == 1
    assert set(manifest["files"]) == set(files) - {"manifest.json"}
    for path, digest in manifest["files"].items():
        assert hashlib.sha256(files[path]).hexdigest() == digest
    # every claimed proof is a whole Lean file: header, the dataset's theorem, a proof
    for name in solved:
        text = files[f"proofs/{name}.lean"].decode()
        assert text.startswith("import Mathlib") and f"theorem {name}" in text and "sorry" not in text
    rows = [json.loads(x) for x in files["dataset/rows.jsonl"].decode().splitlines()]
    assert [r["name"] for r in rows] == NAMES[:3]
    assert all(r["header"].startswith("import Mathlib") and r["formal_statement"].rstrip().endswith("sorry")
               for r in rows)
    verdicts = {v["name"]: v for v in (json.loads(x) for x in files["verdicts.jsonl"].decode().splitlines())}
    assert {n: v["verdict"] for n, v in verdicts.items()} == {n: "solved" if n in solved else "unsolved"
                                                              for n in NAMES[:3]}
    assert all(len(v["attempts"]) == 2 for v in verdicts.values())
    assert verdicts[solved[0]]["audit"] and verdicts[solved[0]]["proof"] == f"proofs/{solved[0]}.lean"
    bench_json = json.loads(files["bench.json"])
    info = DATASETS["minif2f-deepseek-v1.5"]
    assert bench_json["dataset"]["name"] == "minif2f-deepseek-v1.5"
    assert bench_json["dataset"]["sha256"] == sha256_of(data_dir() / info.filename)
    assert bench_json["selection"]["attempts"] == 2 and bench_json["selection"]["limit"] == 3
    assert bench_json["protocol"]["name"] == "whole-proof"
    assert bench_json["models"]["prover"] == "fake-model"
    assert set(bench_json["sampling"]["prover"]) == {"temperature", "top_p", "max_tokens"}
    assert bench_json["budgets"]["root_whole_proof_attempts"] == 1
    assert bench_json["toolchain"]["lean"] == "v4.9.0"  # the fake Kimina's Lean version
    assert bench_json["lemmaforge"]["bench"] and bench_json["lemmaforge"]["bundle"]
    assert bench_json["costs"]["llm_calls"] == 6 and bench_json["results"]["solved"] == 2
    assert bench_json["results"]["claimed_proofs"] == 2


def test_a_bundle_round_trip_confirms_every_claim(bench):
    out = write_bundle(bench)
    with fake_servers() as (kimina, _llm):
        r = verify(kimina, out, bench[1])
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout) == {"claims": 2, "confirmed": 2, "refuted": [], "unmatched": [],
                                        "statement_mismatch": []}
        assert kimina.check_requests  # re-checked on "the user's" Lean, not taken from the bundle
        # against the dataset's own statements instead of the bundle's rows: the same
        r = verify(kimina, out, bench[1], "--dataset", "minif2f")
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["confirmed"] == 2


@pytest.mark.parametrize("change", ["proof", "row", "added", "removed", "manifest"])
def test_a_tampered_bundle_is_refused_before_anything_runs(bench, change):
    out = write_bundle(bench, f"tampered-{change}.zip")
    files = members(out)
    proof = next(p for p in files if p.startswith("proofs/"))
    if change == "proof":
        files[proof] = files[proof].replace(b"norm_num", b"sorry")
    elif change == "row":
        files["dataset/rows.jsonl"] = files["dataset/rows.jsonl"].replace(b"sorry", b"trivial", 1)
    elif change == "added":
        files["proofs/extra.lean"] = b"theorem extra : True := trivial\n"
    elif change == "removed":
        del files[proof]
    else:
        files["manifest.json"] = files["manifest.json"].replace(b'"version": 1', b'"version": 1, "x": 0')
        files["bench.json"] = files["bench.json"] + b" "
    rezip(out, files)
    with fake_servers() as (kimina, _llm):
        r = verify(kimina, out, bench[1])
        assert r.exit_code == 2, r.output
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and "manifest hash mismatch" in lines[0], r.stderr
        assert kimina.requests == []  # nothing ran


def test_a_re_signed_bundle_is_still_checked_by_lean(bench):
    """A bundle whose manifest was rewritten to match changed proofs: the manifest says nothing
    then, the audit does: a proof left with `sorry` is refuted, a changed statement is a mismatch."""
    out = write_bundle(bench, "resigned.zip")
    files = members(out)
    proofs = sorted(p for p in files if p.startswith("proofs/"))
    files[proofs[0]] = files[proofs[0]].replace(b"norm_num", b"sorry")
    name1 = Path(proofs[1]).stem
    text = files[proofs[1]].decode()
    head, sep, rest = text.partition(f"theorem {name1}")
    files[proofs[1]] = (head + sep + rest.replace(":= by", ": True := by", 1).replace(":", " (h : 1 = 1) :", 1)).encode()
    manifest = json.loads(files["manifest.json"])
    manifest["files"] = {p: hashlib.sha256(b).hexdigest() for p, b in files.items() if p != "manifest.json"}
    files["manifest.json"] = json.dumps(manifest).encode()
    rezip(out, files)
    with fake_servers() as (kimina, _llm):
        r = verify(kimina, out, bench[1])
    assert r.exit_code == 1, r.output
    result = json.loads(r.stdout)
    assert [x["problem"] for x in result["refuted"]] == [Path(proofs[0]).stem]
    assert "sorry" in result["refuted"][0]["reason"]
    assert result["statement_mismatch"] == [name1] and result["confirmed"] == 0


def test_bundle_bad_input(bench, tmp_path):
    db, _ = bench
    r = runner.invoke(app, ["bundle", "NOPE", "-o", str(tmp_path / "x.zip"), "--db", db])
    assert r.exit_code == 2 and "NOPE" in r.stderr
    r = runner.invoke(app, ["bundle", "B1", "-o", str(tmp_path / "missing" / "x.zip"), "--db", db])
    assert r.exit_code == 2 and "does not exist" in r.stderr
    child = next(iter(json.loads(runner.invoke(app, ["report", "B1", "--db", db, "--json"]).stdout)["results"]))
    run = child["runs"][0]["run_id"]
    r = runner.invoke(app, ["bundle", run, "-o", str(tmp_path / "x.zip"), "--db", db])
    assert r.exit_code == 2 and "not a bench" in r.stderr


def test_the_same_bench_gives_the_same_files(bench):
    a, b = members(write_bundle(bench, "a.zip")), members(write_bundle(bench, "b.zip"))
    for files in (a, b):  # bench.json records when the bundle was written; everything else is the bench's
        files.pop("bench.json")
        files.pop("manifest.json")
    assert a == b

"""Issue 46 point 6: published, author-verified proofs (tests/data/published/SOURCES.md) are accepted
by `lemmaforge check --against` their problem's statement, on the fakes of their Lean version.

The full sweep (every proof of every set, `@pytest.mark.slow`, CI runs it) asserts at least 99 %
accepted per set; the fast subset checks an evenly spaced sample. Every refusal must be listed,
with its reason, in docs/soundness.md ("Published proofs: refusals"), and the failure message
lists every refusal the sweep saw. A sample also goes through the CLI itself (in process and as a
subprocess) and must reach the same verdict as the harness.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from tests.conftest import REPO_ROOT
from tests.lean.published import harness as H

SOUNDNESS = REPO_ROOT / "docs" / "soundness.md"
SAMPLE_EVERY = 25


def documented_refusals() -> dict[tuple[str, str], str]:
    """(set, problem) → the row of docs/soundness.md's refusal table under "Published proofs"."""
    text = SOUNDNESS.read_text(encoding="utf-8")
    start = text.index("## Published proofs: refusals")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end >= 0 else len(text)]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0].strip("`") in H.SET_NAMES:
            rows[(cells[0].strip("`"), cells[1].strip("`"))] = line
    return rows


def assert_documented(outcomes: list[H.Outcome]) -> None:
    documented = documented_refusals()
    missing = [o for o in outcomes if not o.accepted and (o.set, o.name) not in documented]
    assert not missing, "refusals not listed in docs/soundness.md:\n" + H.render(missing)
    for o in outcomes:
        if not o.accepted:  # the documented reason is the one the audit gives
            row = documented[(o.set, o.name)]
            assert all(r.reason.value in row for r in o.reasons), (row, [str(r) for r in o.reasons])


def assert_rate(outcomes: list[H.Outcome], threshold: float = 0.99) -> None:
    accepted = sum(o.accepted for o in outcomes)
    assert outcomes and accepted / len(outcomes) >= threshold, H.render(outcomes)


# --- the data is what was published --------------------------------------------------------------


def _git_blob(path: Path) -> str:
    data = path.read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def test_the_zips_are_the_published_blobs() -> None:
    sources = (H.PUBLISHED / "SOURCES.md").read_text(encoding="utf-8")
    zips = sorted(H.PUBLISHED.glob("*/*.zip"))
    assert len(zips) == 4
    for z in zips:
        blob = _git_blob(z)
        assert f"(blob `{blob[:8]}`)" in sources, (z, blob)


def test_every_set_is_read_and_mapped_to_its_lean_version() -> None:
    counts = {s.name: len(s.proofs()) for s in H.SETS}
    assert counts == {"deepseek-prover-v2-minif2f": 438, "kimina-prover-preview-minif2f": 197,
                      "kimina-prover-72b-minif2f-0710": 28, "seed-prover-minif2f": 30, "seed-prover-past-imo": 123}
    versions = {s.name: s.lean_version for s in H.SETS}
    assert versions["deepseek-prover-v2-minif2f"] == "v4.9.0" and versions["seed-prover-past-imo"] == "v4.14.0"
    assert {versions[n] for n in ("kimina-prover-preview-minif2f", "kimina-prover-72b-minif2f-0710")} == {"v4.15.0"}
    # the one place a set's version reaches the fakes
    assert H.fake_lean_for("v4.15.0").lean_version == "4.15.0"


def test_kimina_proofs_all_state_a_published_statement() -> None:
    """SOURCES.md's claim: no Kimina proof needs the self-stated fallback (minif2f-kimina itself is
    out of reach, but DeepSeek's file or Goedel-Prover-V2's revision states each one)."""
    for name in ("kimina-prover-preview-minif2f", "kimina-prover-72b-minif2f-0710"):
        s = H.proof_set(name)
        sources = {H.statement_for(s, n, p).source for n, p in s.proofs()}  # type: ignore[union-attr]
        assert H.SELF_STATED not in sources and len(sources) == 2, sources


def test_a_self_stated_statement_is_the_proofs_theorem_on_the_datasets_header() -> None:
    s = H.proof_set("seed-prover-minif2f")
    proof = dict(s.proofs())["mathd_numbertheory_126"]  # Seed-Prover restated it as `IsLeast …`
    stated = H.statement_for(s, "mathd_numbertheory_126", proof)
    assert stated is not None and stated.source == H.SELF_STATED
    assert stated.text.startswith(s.header or "") and "IsLeast" in stated.text
    assert stated.text.endswith(":= by\n  sorry\n") and "maxRecDepth" not in stated.text  # not the proof's header


# --- the sweep -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", H.SET_NAMES)
def test_sample_of_published_proofs_is_accepted(name: str) -> None:
    outcomes = H.sweep(H.proof_set(name), every=SAMPLE_EVERY)
    assert len(outcomes) >= 2
    assert_documented(outcomes)


@pytest.mark.slow
@pytest.mark.parametrize("name", H.SET_NAMES)
def test_every_published_proof_is_accepted_or_its_refusal_documented(name: str) -> None:
    outcomes = H.sweep(H.proof_set(name))
    assert len(outcomes) == len(H.proof_set(name).proofs())
    assert_documented(outcomes)
    assert_rate(outcomes)


# --- through the CLI -----------------------------------------------------------------------------

# One proof per set, and the headers issue 46 names: Kimina-72B's reordered imports and opens
# (amc12_2001_p5), `open Real Set` (aime_1995_p7), Seed-Prover's `open` before its options with
# `Classical Polynomial` opened (imo_1990_p3), a Kimina proof that needs `native_decide`.
CLI_SAMPLE = [
    ("deepseek-prover-v2-minif2f", "mathd_algebra_478"),
    ("kimina-prover-preview-minif2f", "mathd_numbertheory_12"),
    ("kimina-prover-72b-minif2f-0710", "amc12_2001_p5"),
    ("kimina-prover-72b-minif2f-0710", "aime_1995_p7"),
    ("seed-prover-minif2f", "imo_1990_p3"),
    ("seed-prover-past-imo", "imo1959_p1_numbertheory"),
]


def _files(tmp_path: Path, name: str, problem: str) -> tuple[H.ProofSet, Path, Path, H.Statement]:
    s = H.proof_set(name)
    proof = dict(s.proofs())[problem]
    stated = H.statement_for(s, problem, proof)
    assert stated is not None
    proof_file, statement_file = tmp_path / f"{problem}.lean", tmp_path / f"{problem}.statement.lean"
    proof_file.write_text(proof, encoding="utf-8")
    statement_file.write_text(stated.text, encoding="utf-8")
    return s, proof_file, statement_file, stated


@pytest.mark.parametrize(("name", "problem"), CLI_SAMPLE, ids=[f"{n}:{p}" for n, p in CLI_SAMPLE])
def test_cli_check_gives_the_harness_verdict(tmp_path: Path, name: str, problem: str) -> None:
    s, proof_file, statement_file, _ = _files(tmp_path, name, problem)
    [expected] = H.sweep(s, names=[problem])
    with H.fake_kimina(s.lean_version) as server:
        args = ["check", str(proof_file), "--against", str(statement_file), "--theorem", problem,
                "--verifier", "kimina", "--kimina-url", server.url, "--json"]
        if s.allow_native_decide:
            args.append("--allow-native-decide")
        result = CliRunner().invoke(app, args)
    out = json.loads(result.stdout)
    assert out["status"] == expected.status == "proved", (result.stdout, H.render([expected]))
    assert result.exit_code == 0
    assert [r["reason"] for r in out["reasons"]] == [r.reason.value for r in expected.reasons]


@pytest.mark.slow
def test_cli_subprocess_on_a_reordered_header(tmp_path: Path) -> None:
    """The installed entry point (a fresh interpreter), on Kimina-72B's reordered header."""
    s, proof_file, statement_file, _ = _files(tmp_path, "kimina-prover-72b-minif2f-0710", "amc12_2001_p5")
    proof_text = proof_file.read_text(encoding="utf-8")
    assert re.match(r"import Aesop\nimport Mathlib", proof_text)  # the header the issue names
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    with H.fake_kimina(s.lean_version) as server:
        run = subprocess.run(
            [sys.executable, "-m", "lemmaforge.cli", "check", str(proof_file), "--against", str(statement_file),
             "--theorem", "amc12_2001_p5", "--verifier", "kimina", "--kimina-url", server.url, "--json",
             "--allow-native-decide"],
            capture_output=True, text=True, env=env, timeout=240, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert json.loads(run.stdout)["status"] == "proved"

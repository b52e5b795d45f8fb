"""`lemmaforge verify` on released-style solution sets, through the CLI, on the fake Kimina server:
DeepSeek-Prover-V2's published miniF2F proofs (shared data) as a directory and as a zip, matched to
minif2f-deepseek-v1.5 by theorem name; a refuted proof (`sorry`, a new axiom, native_decide) and a
mismatched one (statement changed) named; bad input exit 2; resumable from the store."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db import Store
from lemmaforge.db.models import VerifiedClaimRow
from tests.conftest import REFERENCE_PROOFS
from tests.fakes.fake_kimina import FakeKimina

runner = CliRunner()

# DeepSeek-Prover-V2 proved these on its own revision of miniF2F (Kimina's + App. D); the first two
# state minif2f-deepseek-v1.5's theorems, the last two state revised ones
CONFIRMED = ["mathd_algebra_478", "amc12a_2019_p21"]
REVISED = ["aime_1994_p3", "mathd_algebra_247"]


def reference(name: str) -> Path:
    found = sorted(REFERENCE_PROOFS.glob(f"*/{name}.lean"))
    if not found:
        pytest.fail(f"reference proof {name} not found under {REFERENCE_PROOFS}")
    return found[0]


@pytest.fixture()
def kimina():
    with FakeKimina() as server:
        yield server


@pytest.fixture()
def released(tmp_path: Path) -> Path:
    """A released-style solution set: one .lean file per problem, named after it."""
    folder = tmp_path / "solutions"
    folder.mkdir()
    for name in CONFIRMED + REVISED:
        shutil.copy(reference(name), folder / f"{name}.lean")
    return folder


def sent_codes(requests) -> list[str]:
    return [s["code"] for q in requests for s in q.body["snippets"]]


def verify(kimina: FakeKimina, db: Path, *args: str):
    return runner.invoke(app, ["verify", *args, "--verifier", "kimina", "--kimina-url", kimina.url,
                               "--db", f"sqlite:///{db}", "--no-progress", "--json"])


def test_a_released_directory_is_matched_by_theorem_name_and_mismatches_are_named(kimina, released, tmp_path):
    r = verify(kimina, tmp_path / "v.db", str(released), "--dataset", "minif2f")
    assert r.exit_code == 1, r.output  # a statement mismatch is not a solve
    out = json.loads(r.stdout)
    assert set(out) == {"claims", "confirmed", "refuted", "unmatched", "statement_mismatch"}
    assert out["claims"] == 4 and out["confirmed"] == 2
    assert out["refuted"] == [] and out["unmatched"] == []
    assert sorted(out["statement_mismatch"]) == sorted(REVISED)
    # the whole audit ran, as `check --against`: the proof with its probe, then the statement's type
    sent = sent_codes(kimina.check_requests)
    assert any("#print axioms mathd_algebra_478" in code for code in sent)
    # a mismatched proof is decided on its text: never sent to Lean
    assert not any("theorem aime_1994_p3" in code for code in sent)


def test_a_refuted_and_a_mismatched_proof_are_named_with_reasons(kimina, tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    good = reference("mathd_algebra_478").read_text(encoding="utf-8")
    theorem = good.index("theorem mathd_algebra_478")
    (folder / "mathd_algebra_478.lean").write_text(good, encoding="utf-8")
    # a proof left with a `sorry`
    amc = reference("amc12a_2019_p21").read_text(encoding="utf-8")
    head, _, _ = amc.partition(":= by")
    (folder / "amc12a_2019_p21.lean").write_text(head + ":= by\n  sorry\n", encoding="utf-8")
    # a forbidden axiom the proof uses (refused by the gate before Lean)
    s10 = reference("mathd_numbertheory_3").read_text(encoding="utf-8")
    cut = s10.index("theorem mathd_numbertheory_3")
    head3, _, _ = s10[cut:].partition(":= by")
    (folder / "mathd_numbertheory_3.lean").write_text(
        s10[:cut] + "axiom cheat : False\n\n" + head3 + ":= by\n  exact cheat.elim\n", encoding="utf-8")
    # the statement changed: `v = 65` proved as `v = v`
    (folder / "changed.lean").write_text(good[:theorem] + good[theorem:].replace("v = 65 := by", "v = v := by", 1)
                                         .replace("mathd_algebra_478", "mathd_algebra_478", 1), encoding="utf-8")
    r = verify(kimina, tmp_path / "v.db", str(folder), "--dataset", "minif2f")
    assert r.exit_code == 1, r.output
    out = json.loads(r.stdout)
    refuted = {x["problem"]: x["reason"] for x in out["refuted"]}
    assert set(refuted) == {"amc12a_2019_p21", "mathd_numbertheory_3"}
    assert "sorry" in refuted["amc12a_2019_p21"]
    assert "banned_command" in refuted["mathd_numbertheory_3"] and "cheat" in refuted["mathd_numbertheory_3"]
    assert out["statement_mismatch"] == ["mathd_algebra_478"]  # changed.lean claims it, states another theorem
    assert out["confirmed"] == 1 and out["claims"] == 4


def test_native_decide_is_refuted_unless_allowed(kimina, tmp_path):
    folder = tmp_path / "nd"
    folder.mkdir()
    text = reference("mathd_numbertheory_3").read_text(encoding="utf-8")
    head, _, _ = text.partition(":= by")
    (folder / "p.lean").write_text(head + ":= by\n  native_decide\n", encoding="utf-8")
    r = verify(kimina, tmp_path / "v.db", str(folder), "--dataset", "minif2f")
    assert r.exit_code == 1, r.output
    [refuted] = json.loads(r.stdout)["refuted"]
    assert refuted["problem"] == "mathd_numbertheory_3" and "Lean.ofReduceBool" in refuted["reason"]
    r = verify(kimina, tmp_path / "v.db", str(folder), "--dataset", "minif2f", "--allow-native-decide")
    assert r.exit_code == 0, r.output  # another policy: decided again, not taken from the store
    assert json.loads(r.stdout)["confirmed"] == 1


def test_a_zip_of_solutions_and_an_unmatched_file(kimina, released, tmp_path):
    archive = tmp_path / "solutions.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for f in sorted(released.glob("*.lean")):
            if f.stem in CONFIRMED:
                zf.write(f, f"minif2f/test/{f.name}")
        zf.writestr("minif2f/extra/not_a_problem.lean", "theorem not_a_problem : True := trivial\n")
        zf.writestr("README.md", "solutions")
    r = verify(kimina, tmp_path / "v.db", str(archive), "--dataset", "minif2f-deepseek-v1.5")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out == {"claims": 2, "confirmed": 2, "refuted": [], "unmatched": ["minif2f/extra/not_a_problem.lean"],
                   "statement_mismatch": []}


def test_text_output_names_each_refusal(kimina, released, tmp_path):
    r = runner.invoke(app, ["verify", str(released), "--dataset", "minif2f", "--verifier", "kimina",
                            "--kimina-url", kimina.url, "--db", f"sqlite:///{tmp_path / 'v.db'}", "--no-progress"])
    assert r.exit_code == 1, r.output
    assert "statement mismatch aime_1994_p3 (aime_1994_p3.lean):" in r.stdout
    assert "4 claim(s) checked: 2 confirmed, 0 refuted, 2 statement mismatch(es)" in r.stdout


@pytest.mark.parametrize(("make", "args", "needle"), [
    (lambda p: p, ("--dataset", "minif2f"), "not found"),
    (lambda p: (p.mkdir(), p)[1], ("--dataset", "minif2f"), "no .lean files"),
    (lambda p: (p.mkdir(), (p / "a.lean").write_text("theorem a : True := trivial\n"), p)[2], (),
     "give --dataset NAME"),
    (lambda p: (p.mkdir(), (p / "a.lean").write_text("theorem a : True := trivial\n"), p)[2],
     ("--dataset", "no-such-dataset"), "unknown dataset"),
    (lambda p: (p.write_bytes(b"PK\x03\x04 this is not a zip"), p)[1], ("--dataset", "minif2f"), "not a readable zip"),
    (lambda p: (p.mkdir(), (p / "a.lean").write_text("theorem a : True := trivial\n"), p)[2],
     ("--dataset", "minif2f"), "none of its 1 .lean file(s)"),
])
def test_bad_input_is_one_line_exit_2(kimina, tmp_path, make, args, needle):
    target = make(tmp_path / "in")
    r = runner.invoke(app, ["verify", str(target), *args, "--verifier", "kimina", "--kimina-url", kimina.url,
                            "--db", f"sqlite:///{tmp_path / 'v.db'}"])
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], r.stderr
    assert kimina.check_requests == []


def test_resumable_what_was_verified_is_kept(kimina, released, tmp_path):
    db = tmp_path / "v.db"
    half = tmp_path / "half"
    half.mkdir()
    for name in CONFIRMED:
        shutil.copy(released / f"{name}.lean", half)
    r = verify(kimina, db, str(half), "--dataset", "minif2f")
    assert r.exit_code == 0, r.output
    assert len(Store(f"sqlite:///{db}").engine.connect().execute(VerifiedClaimRow.__table__.select()).all()) == 2
    sent_before = len(kimina.check_requests)
    # the Lean server goes down: the claims already decided are not checked again, the others fail
    kimina.fail_always(503)
    r = verify(kimina, db, str(half), "--dataset", "minif2f")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["confirmed"] == 2
    assert len(kimina.check_requests) == sent_before  # nothing was sent
    # a mismatch is decided without Lean and stored; a new claim that needs Lean stops the run (exit 2)
    extra = tmp_path / "more"
    shutil.copytree(half, extra)
    shutil.copy(reference("mathd_numbertheory_3"), extra)
    r = runner.invoke(app, ["verify", str(extra), "--dataset", "minif2f", "--verifier", "kimina",
                            "--kimina-url", kimina.url, "--db", f"sqlite:///{db}", "--no-progress", "--json"],
                      env={"LEMMAFORGE_VERIFIER__KIMINA_RETRIES": "1"})
    assert r.exit_code == 2, r.output
    assert "run the same command again to resume" in r.stderr and kimina.url in r.stderr
    kimina.fail_always(None)
    r = verify(kimina, db, str(extra), "--dataset", "minif2f")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {"claims": 3, "confirmed": 3, "refuted": [], "unmatched": [],
                                    "statement_mismatch": []}
    resent = sent_codes(kimina.check_requests[sent_before:])
    assert not any("theorem mathd_algebra_478" in code for code in resent)  # decided before: not sent again


@pytest.mark.slow
def test_every_published_deepseek_prover_v2_proof(kimina, tmp_path):
    """All 438 published proofs against minif2f-deepseek-v1.5: the fake Lean accepts every proof
    that states its problem; the nine that DeepSeek proved on revised statements are named."""
    r = verify(kimina, tmp_path / "v.db", str(REFERENCE_PROOFS), "--dataset", "minif2f", "--concurrency", "16")
    assert r.exit_code == 1, r.output
    out = json.loads(r.stdout)
    assert out["claims"] == 438 and out["unmatched"] == [] and out["refuted"] == []
    assert sorted(out["statement_mismatch"]) == sorted([
        "aime_1994_p3", "amc12a_2021_p18", "amc12a_2021_p9", "induction_prod1p1onk3le3m1onn", "induction_sum_odd",
        "mathd_algebra_247", "mathd_algebra_342", "mathd_numbertheory_343", "mathd_numbertheory_618"])
    assert out["confirmed"] == 429

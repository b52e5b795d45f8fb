"""`lemmaforge doctor --selftest` (issue 46, point 7), through the CLI, on the fakes of every Lean
release (tests/fakes/lean_versions.py; the default and the newest in the fast subset):

- on Kimina, the REPL and lake, every honest construct of the shipped calibration file is proved
  and every cheat refused for its reason, in one `/api/check` batch on Kimina and one header
  environment on the REPL;
- where a fake is made to answer as the judge does not expect (a listing that does not
  elaborate, an unknown constant kind, an honest case refused, a cheat accepted), the selftest
  says so, plainly, and exits 1; an unusable verifier exits 2;
- a pass is recorded per toolchain, and `prove` / `bench` say once at start (stderr) when the
  toolchain in use has none; reading "no record" creates nothing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.lean.audit.selftest import load_cases, read_records, record_path
from tests.conftest import DEFAULT_RELEASE_FAST, LEAN_RELEASES, closed_port
from tests.fakes.fake_kimina import AxiomRule, DeclareRule, FakeKimina, MessageRule, ScriptedLean
from tests.fakes.lean_versions import tag

runner = CliRunner()
CASES = load_cases()
HONEST = {c.id for c in CASES if c.honest}
CHEATS = {c.id: c.reason for c in CASES if not c.honest}
NOTICE = "note: no passing `lemmaforge doctor --selftest` on record for this toolchain"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own lemmaforge directory (where the record lives)."""
    where = tmp_path / "lf-home"
    monkeypatch.setenv("LEMMAFORGE_HOME", str(where))
    return where


def full(version: str) -> str:
    """A knob value as the full version a server prints (`4.9` → `4.9.0`)."""
    return tag(version).lstrip("v")


def selftest(*args: str, env: dict[str, str] | None = None, code: int | None = 0) -> tuple[Any, dict]:
    r = runner.invoke(app, ["doctor", "--selftest", *args, "--json"], env=env)
    if code is not None:
        assert r.exit_code == code, r.output
    return r, json.loads(r.stdout)


def assert_all_as_expected(out: dict) -> None:
    by_id = {c["id"]: c for c in out["cases"]}
    assert set(by_id) == HONEST | set(CHEATS)
    for name in HONEST:
        assert by_id[name]["status"] == "proved", (name, by_id[name]["reasons"])
    for name, reason in CHEATS.items():
        case = by_id[name]
        assert case["verdict"] == "refused" and reason in [r["reason"] for r in case["reasons"]], (name, case)
    assert out["ok"] is True and out["problems"] == [] and out["as_expected"] == out["total"] == len(CASES)


# --- every release, every backend ---------------------------------------------------------------


@pytest.mark.parametrize("version", LEAN_RELEASES)
def test_kimina_every_honest_case_proved_every_cheat_refused_in_one_batch(version: str, home: Path) -> None:
    with FakeKimina(responder=ScriptedLean(lean_version=full(version))) as server:
        _, out = selftest("--verifier", "kimina", "--kimina-url", server.url)
        batches = [r.body["snippets"] for r in server.check_requests]
    assert_all_as_expected(out)
    # the Lean version question, the position probe, then every text of the calibration at once
    assert [len(b) for b in batches] == [1, 1, out["checks_sent"]], [len(b) for b in batches]
    assert out["toolchain"] == {"backend": "kimina", "lean": full(version), "mathlib": None, "project": None}
    # what Lean listed is shown: the construct was really there
    by_id = {c["id"]: c for c in out["cases"]}
    listed = {c["name"] for c in by_id["match-in-proof"]["listing"]["constants"]}
    assert "t.match_1" in listed
    assert ("t.match_1._cstage1" in listed) is (int(version.split(".")[1]) < 22)
    assert by_id["declared-axiom"]["decided_by"] == "text" and by_id["native-decide"]["decided_by"] == "lean"
    [record] = read_records()
    assert (record["backend"], record["lean"], record["cases"]) == ("kimina", full(version), len(CASES))
    assert out["recorded"] == str(home / "selftest.json")


def _repl_env(tmp_path: Path, version: str) -> tuple[dict[str, str], Any, Path]:
    from tests.fakes.fake_repl import make_fake_repl_config

    fake = make_fake_repl_config(tmp_path / "repl", transcripts=False, lean_version=version)
    project = tmp_path / "project"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
    (project / "lean-toolchain").write_text(f"leanprover/lean4:{tag(version)}\n", encoding="utf-8")
    env = {"LEMMAFORGE_VERIFIER__REPL_PATH": str(tmp_path / "repl" / "repl"),
           "LEMMAFORGE_VERIFIER__LAKE_PATH": str(tmp_path / "repl" / "bin" / "lake"),
           "LEMMAFORGE_VERIFIER__PROJECT": str(project), "LEMMAFORGE_VERIFIER__WORKERS": "1"}
    return env, fake, project


@pytest.mark.parametrize("version", DEFAULT_RELEASE_FAST)  # both fast releases: through Kimina, above
def test_repl_every_honest_case_proved_every_cheat_refused_on_one_header(version: str, tmp_path: Path) -> None:
    env, fake, project = _repl_env(tmp_path, version)
    _, out = selftest("--verifier", "repl", "--no-sandbox", env=env)
    assert_all_as_expected(out)
    # every case shares the imports: the one worker elaborated them once
    assert fake.header_elaborations() == 1 and fake.process_starts() == 1
    assert out["toolchain"]["lean"] == full(version) and out["toolchain"]["project"] == str(project)
    private = next(c for c in out["cases"] if c["id"] == "private-helper")
    assert "_private.0.aux" in {c["name"] for c in private["listing"]["constants"]}


# Slow: the same calibration runs through the REPL in the fast subset; this one adds lake's backend (2-3 s).
@pytest.mark.slow
def test_lake_every_honest_case_proved_every_cheat_refused(tmp_path: Path) -> None:
    project = tmp_path / "P"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
    fake_lake = Path(__file__).resolve().parents[1] / "fakes" / "lake"
    log = tmp_path / "lake-log"
    log.mkdir()
    env = {"LEMMAFORGE_VERIFIER__LAKE_PATH": str(fake_lake), "FAKE_LAKE_LEAN": ScriptedLean(lean_version="4.27").to_json(),
           "FAKE_LAKE_LOG": str(log), "LEMMAFORGE_VERIFIER__WORKERS": "2"}
    _, out = selftest("--verifier", "lake", "--project", str(project), "--no-sandbox", env=env)
    assert_all_as_expected(out)
    assert len(list(log.iterdir())) == out["checks_sent"]  # one `lake env lean` run per distinct text


# --- Lean answering as the judge does not expect -------------------------------------------------


def _kimina_selftest(lean: ScriptedLean, *extra: str) -> tuple[Any, dict]:
    with FakeKimina(responder=lean) as server:
        return selftest("--verifier", "kimina", "--kimina-url", server.url, *extra, code=1)


def _problems(out: dict) -> dict[str, dict]:
    return {p["kind"]: p for p in out["problems"]}


LISTING_ERROR = "unknown constant 'Lean.ConstMap.foldStage2'"


@pytest.mark.parametrize("version", LEAN_RELEASES)
def test_a_listing_that_does_not_elaborate_is_said_with_lean_s_error(version: str, home: Path) -> None:
    lean = ScriptedLean(lean_version=full(version), list_declarations=False,
                        rules=[MessageRule(r"^run_cmd do", LISTING_ERROR)])
    # a pass on record for this toolchain is removed: the latest word counts
    with FakeKimina(responder=ScriptedLean(lean_version=full(version))) as server:
        selftest("--verifier", "kimina", "--kimina-url", server.url)
    assert len(read_records()) == 1
    _, out = _kimina_selftest(lean)
    problem = _problems(out)["listing_failed"]
    assert problem["headline"] == "the declaration listing did not elaborate on this Lean"
    assert LISTING_ERROR in problem["detail"]
    # every honest case, said once; and the cheat only Lean's type print refuses, which the audit
    # never reaches once the listing refused the proof
    assert set(problem["cases"]) == HONEST | {"header-changes-statement"}
    assert out["ok"] is False and out["removed_pass"] is True and read_records() == []
    with FakeKimina(responder=lean) as server:
        r = runner.invoke(app, ["doctor", "--selftest", "--verifier", "kimina", "--kimina-url", server.url])
    assert r.exit_code == 1
    assert "MISMATCH match-in-proof" in " ".join(r.stdout.split())
    assert "Where Lean's answers are not what the judge expects:" in r.stdout
    assert "the declaration listing did not elaborate on this Lean (match-in-proof, simp-imported-def," in r.stdout
    assert LISTING_ERROR in r.stdout


def test_an_unknown_constant_kind_is_named() -> None:
    lean = ScriptedLean(lean_version="4.19.0", rules=[DeclareRule(r"simp \[Nat\.factorial\]", "thm", "t.eq_weird")])
    _, out = _kimina_selftest(lean)
    problem = _problems(out)["listing_malformed"]
    assert problem["cases"] == ["simp-imported-def"]
    assert "unknown constant kind 'thm' for 't.eq_weird'" in problem["detail"]
    assert problem["headline"] == "Lean's declaration listing is not in the form the judge reads"
    case = next(c for c in out["cases"] if c["id"] == "simp-imported-def")
    assert case["listing"]["state"] == "malformed" and case["as_expected"] is False
    assert [r["reason"] for r in case["reasons"]] == ["declarations_unknown"]


def test_an_honest_construct_refused_is_said_with_the_reasons() -> None:
    lean = ScriptedLean(lean_version="4.27.0", rules=[AxiomRule(r"match n with", "Lean.trustCompiler")])
    _, out = _kimina_selftest(lean)
    problem = _problems(out)["honest_refused"]
    assert problem["cases"] == ["match-in-proof"]
    assert "a `match` in a proof" in problem["detail"] and "forbidden_axiom" in problem["detail"]
    assert "Lean.trustCompiler" in problem["detail"]


def test_a_proof_that_does_not_compile_here_is_not_read_as_a_verdict() -> None:
    lean = ScriptedLean(lean_version="4.9.0", rules=[MessageRule(r"Nat\.factorial_succ _", "unknown identifier")])
    _, out = _kimina_selftest(lean)
    problem = _problems(out)["proof_does_not_compile"]
    assert problem["cases"] == ["match-in-proof"] and "unknown identifier" in problem["detail"]
    assert "says nothing about the judge" in problem["detail"]


def test_a_cheat_accepted_is_said() -> None:
    lean = ScriptedLean(lean_version="4.9.0", native_decide_axioms=())  # a Lean that hides the axiom
    _, out = _kimina_selftest(lean)
    problem = _problems(out)["cheat_accepted"]
    assert problem["cases"] == ["native-decide"]
    assert "expected: refused for forbidden_axiom" in problem["detail"]


# slow (5 s: two selftests over real fake-REPL processes): the fast subset says both failures through
# Kimina (test_a_listing_that_does_not_elaborate_is_said_with_lean_s_error, test_an_unknown_constant_kind_is_named)
# and runs the REPL's selftest whole (test_repl_every_honest_case_proved_every_cheat_refused_on_one_header)
@pytest.mark.slow
@pytest.mark.parametrize("version", LEAN_RELEASES)
def test_on_the_repl_too_the_listing_failure_and_an_unknown_kind_are_said(version: str, tmp_path: Path) -> None:
    env, fake, _ = _repl_env(tmp_path, version)
    fake.set_behaviour(rules=[{"match": "^run_cmd do", "on": "cmd", "messages": [{"data": LISTING_ERROR}]}])
    _, out = selftest("--verifier", "repl", "--no-sandbox", env=env, code=1)
    problem = _problems(out)["listing_failed"]
    assert LISTING_ERROR in problem["detail"] and set(problem["cases"]) == HONEST | {"header-changes-statement"}

    env, fake, _ = _repl_env(tmp_path / "again", version)
    fake.set_behaviour(rules=[{"match": r"where\n  helper", "on": "cmd",
                               "declares": [{"kind": "lemma?", "name": "t.helper2", "axioms": []}]}])
    _, out = selftest("--verifier", "repl", "--no-sandbox", env=env, code=1)
    problem = _problems(out)["listing_malformed"]
    assert problem["cases"] == ["where-helper"] and "unknown constant kind 'lemma?'" in problem["detail"]


def test_an_unusable_verifier_exits_2_and_records_nothing(home: Path) -> None:
    r = runner.invoke(app, ["doctor", "--selftest", "--verifier", "kimina", "--kimina-url",
                            f"http://127.0.0.1:{closed_port()}"], env={"LEMMAFORGE_VERIFIER__KIMINA_RETRIES": "1"})
    assert r.exit_code == 2, r.output
    assert "verifier 'kimina' unusable" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not home.exists()


def test_a_bad_flag_exits_2() -> None:
    r = runner.invoke(app, ["doctor", "--selftest", "--verifier", "coq"])
    assert r.exit_code == 2 and "unknown verifier 'coq'" in r.stderr


# --- the record, and what prove and bench say ----------------------------------------------------


def _prove(kimina: FakeKimina, tmp_path: Path, *extra: str) -> Any:
    from tests.fakes.fake_openai import FakeOpenAIServer
    from tests.fakes.prove_runs import ENV, prove_args
    from tests.search.scenarios import DEFS, HEADER, THEOREM, lean_block

    problem = tmp_path / "t.lean"
    problem.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
    with FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        return runner.invoke(app, [*prove_args(problem, kimina, llm, f"sqlite:///{tmp_path / 'r.db'}"),
                                   "--budget", "llm_calls=1", *extra], env=ENV)


def _version_questions(kimina: FakeKimina) -> int:
    return sum(1 for r in kimina.check_requests for s in r.body["snippets"] if s["code"] == "#eval Lean.versionString")


def test_prove_says_once_on_stderr_until_a_selftest_passed_for_its_toolchain(tmp_path: Path, home: Path) -> None:
    from tests.fakes.prove_runs import fake_lean

    lean = fake_lean()
    lean.lean_version = "4.9.0"
    with FakeKimina(responder=lean) as kimina:
        r = _prove(kimina, tmp_path, "--json")
        assert r.exit_code == 1, r.output
        assert r.stderr.count(NOTICE) == 1 and NOTICE not in r.stdout
        json.loads(r.stdout)  # stdout is the JSON alone
        assert _version_questions(kimina) == 0  # no Kimina toolchain on record: nothing to ask
        assert not home.exists()  # reading "no record" created nothing

        selftest("--verifier", "kimina", "--kimina-url", kimina.url)
        asked = _version_questions(kimina)
        r = _prove(kimina, tmp_path)
        assert r.exit_code == 1, r.output
        assert NOTICE not in r.stderr
        assert _version_questions(kimina) == asked + 1  # a Kimina toolchain on record: the server was asked

    # another Lean on the same backend: not the toolchain on record
    other = fake_lean()
    other.lean_version = "4.15.0"
    with FakeKimina(responder=other) as kimina:
        r = _prove(kimina, tmp_path)
    assert r.stderr.count(NOTICE) == 1 and "(kimina, Lean 4.15.0, Mathlib not reported by the server)" in r.stderr


def test_bench_says_once_at_start(tmp_path: Path) -> None:
    from tests.benchmarks.bench_helpers import ENV, bench_args, fake_servers

    with fake_servers(lean_version="4.9.0") as (kimina, llm):
        db = f"sqlite:///{tmp_path / 'b.db'}"
        r = runner.invoke(app, bench_args(kimina, llm, db, "--limit", "2", "--json"), env=ENV)
        assert r.exit_code in (0, 1), r.output
        assert r.stderr.count(NOTICE) == 1 and NOTICE not in r.stdout
        assert "(kimina, Lean 4.9.0, Mathlib not reported by the server)" in r.stderr  # the bench asked its Lean
        selftest("--verifier", "kimina", "--kimina-url", kimina.url)
        r = runner.invoke(app, bench_args(kimina, llm, f"sqlite:///{tmp_path / 'c.db'}", "--limit", "1"), env=ENV)
    assert r.exit_code in (0, 1), r.output
    assert NOTICE not in r.stderr


def test_the_record_is_per_toolchain_and_local_toolchains_come_from_the_project(tmp_path: Path, home: Path) -> None:
    from lemmaforge.config import VerifierConfig
    from lemmaforge.lean.audit.selftest import (
        Toolchain,
        passed_record,
        record_selftest,
        start_notice,
        toolchain_of,
    )

    project = tmp_path / "proj"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.15.0\n", encoding="utf-8")
    (project / "lake-manifest.json").write_text(json.dumps({"packages": [
        {"name": "mathlib", "rev": "0123456789abcdef0123", "inputRev": "v4.15.0"}]}), encoding="utf-8")
    cfg = VerifierConfig(backend="lake", project=project)
    tc = toolchain_of(cfg)
    assert (tc.backend, tc.lean, tc.mathlib) == ("lake", "4.15.0", "v4.15.0 (0123456789ab)")
    assert start_notice(cfg) is not None and not home.exists()
    record_selftest(tc, passed=True, details={"cases": 1})
    assert start_notice(cfg) is None and passed_record(tc) is not None
    assert start_notice(cfg.model_copy(update={"backend": "repl"})) is not None  # another backend
    (project / "lake-manifest.json").write_text(json.dumps({"packages": [
        {"name": "mathlib", "rev": "fedcba9876543210fedc", "inputRev": "v4.15.0"}]}), encoding="utf-8")
    assert start_notice(cfg) is not None  # another Mathlib revision
    assert toolchain_of(VerifierConfig(backend="repl")) == Toolchain("repl", "4.19.0", None)
    # a record that cannot be read is no record, and is never a crash
    record_path().write_text("{not json", encoding="utf-8")
    assert read_records() == [] and start_notice(cfg) is not None
    assert os.access(record_path(), os.R_OK)


def test_a_record_that_cannot_be_written_is_a_warning_not_a_verdict(tmp_path: Path, monkeypatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("LEMMAFORGE_HOME", str(blocked / "home"))
    with FakeKimina(responder=ScriptedLean(lean_version="4.19.0")) as server:
        _, out = selftest("--verifier", "kimina", "--kimina-url", server.url)
        r = runner.invoke(app, ["doctor", "--selftest", "--verifier", "kimina", "--kimina-url", server.url])
    assert out["ok"] is True and out["recorded"] is None and out["record_error"]
    assert r.exit_code == 0 and "warning: could not write the record" in r.stdout

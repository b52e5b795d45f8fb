"""Verdicts that hold on every Lean release the product supports (issue 46, part A): honest
constructs are proved through `lemmaforge check --against` on the fakes of each release
(tests/fakes/lean_versions.py: 4.9, 4.15, 4.19, 4.27), and the judge decides on what the theorem
depends on.

What the fakes add per release, and so what these tests exercise (each behaviour's lean4 source is
cited in tests/fakes/lean_versions.py and docs/soundness.md):
- below 4.22 the old code generator's UNSAFE `X._cstage1` / `X._cstage2` for every compiled
  definition (a problem's context `def`, a matcher `t.match_1`, an instance, a splitter);
- the matcher `t.match_N` of a `match` in a proof, a `where` helper `t.helper`;
- the equation lemmas `simp [Nat.factorial]` adds (`Nat.factorial.eq_1`, `eq_2`);
- `private lemma aux` as `_private.0.aux` in `#print axioms` and the listing;
- in 4.27, `#print axioms` printing axioms with `MessageData.ofConstName`: `choice` under
  `open Classical` unless `pp.fullNames` is set.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.lean.audit import AuditReport, AuditStatus
from lemmaforge.lean.audit import _judge as judge
from lemmaforge.lean.audit import _listing as audit_listing
from lemmaforge.lean.gate import _probes as probe_text
from lemmaforge.lean.verifier import Message, Position, Severity
from tests.conftest import LEAN_RELEASES, sweep
from tests.fakes import fake_common
from tests.fakes.fake_kimina import FakeKimina, ScriptedLean
from tests.fakes.lean_versions import VERSIONS, LeanRelease, tag

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"

# id → (original, candidate, constants the fakes of release `v` must list for the candidate: the
# construct is really there, so its acceptance is not vacuous)
NAT = "theorem t (n : ℕ) : (n + 1).factorial = (n + 1) * n.factorial := by\n"
CTX = HEADER + "def isSolution (p n : ℕ) : Prop :=\n  p.Prime ∧ 0 < n\n\n"
CTX_T = "theorem t (p n : ℕ) (h : isSolution p n) : 0 < n := by\n"
CLASSICAL = HEADER.replace("open BigOperators", "open Classical BigOperators")
CHOICE_T = "theorem t (α : Type) (h : Nonempty α) : ∃ x : α, x = x := by\n"


def _below_22(v: str) -> bool:
    return LeanRelease.of(v).old_codegen


HONEST: dict[str, tuple[str, str, list[str]]] = {
    "match-in-proof": (
        HEADER + NAT + "  sorry\n",
        HEADER + NAT + "  match n with\n  | 0 => exact Nat.factorial_succ 0\n  | k + 1 => exact Nat.factorial_succ _\n",
        ["t.match_1", "t.match_1._cstage1?"],
    ),
    "simp-imported-def": (
        HEADER + NAT + "  sorry\n",
        HEADER + NAT + "  simp [Nat.factorial]\n",
        ["Nat.factorial.eq_1", "Nat.factorial.eq_2"],
    ),
    "context-def": (
        CTX + CTX_T + "  sorry\n",
        CTX + CTX_T + "  exact h.2\n",
        ["isSolution", "isSolution._cstage1?", "isSolution._cstage2?"],
    ),
    "open-classical-choice": (
        CLASSICAL + CHOICE_T + "  sorry\n",
        CLASSICAL + CHOICE_T + "  exact ⟨Classical.choice h, rfl⟩\n",
        ["t"],
    ),
    "private-helper": (
        HEADER + NAT + "  sorry\n",
        HEADER + "private lemma aux (n : ℕ) : (n + 1).factorial = (n + 1) * n.factorial := Nat.factorial_succ n\n\n"
        + NAT + "  exact aux n\n",
        ["_private.0.aux"],
    ),
    "where-helper": (
        HEADER + NAT + "  sorry\n",
        HEADER + NAT + "  exact helper n\nwhere\n  helper (m : ℕ) : (m + 1).factorial = (m + 1) * m.factorial :=\n"
        "    Nat.factorial_succ m\n",
        ["t.helper"],
    ),
    "unfold-split-induct": (
        HEADER + "theorem t (n : ℕ) : 0 < n.factorial := by\n  sorry\n",
        HEADER + "theorem t (n : ℕ) : 0 < n.factorial := by\n  induction n using Nat.factorial.induct with\n"
        "  | _ => unfold Nat.factorial\n         split <;> positivity\n",
        ["Nat.factorial.eq_def", "Nat.factorial.induct", "_private.0.Nat.factorial.match_1.splitter",
         "_private.0.Nat.factorial.match_1.eq_1", "_private.0.Nat.factorial.match_1.splitter._cstage1?"],
    ),
    "char-literal-after-paren": (  # `('1', …)` was refused as unreadable before issue 46
        HEADER + "theorem t : ('1', ' ').1 = '1' := by\n  sorry\n",
        HEADER + "theorem t : ('1', ' ').1 = '1' := by\n  rfl\n",
        ["t"],
    ),
    "helper-lemmas-first": (
        HEADER + NAT + "  sorry\n",
        HEADER + "lemma h1 (n : ℕ) : (n + 1).factorial = (n + 1) * n.factorial := Nat.factorial_succ n\n\n"
        "theorem h2 (n : ℕ) : n.factorial = n.factorial := rfl\n\n" + NAT + "  rw [h1]\n",
        ["h1", "h2"],
    ),
}


def expected_constants(names: list[str], version: str) -> tuple[set[str], set[str]]:
    """(names the listing must hold, names it must not): `X?` is present only below 4.22."""
    present, absent = set(), set()
    for name in names:
        if name.endswith("?"):
            (present if _below_22(version) else absent).add(name[:-1])
        else:
            present.add(name)
    return present, absent


def check_cli(server: FakeKimina, tmp_path: Path, original: str, candidate: str, *extra: str) -> dict:
    proof, statement = tmp_path / "proof.lean", tmp_path / "statement.lean"
    proof.write_text(candidate, encoding="utf-8")
    statement.write_text(original, encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(proof), "--against", str(statement), "--verifier", "kimina",
                                 "--kimina-url", server.url, "--json", *extra])
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)


@pytest.fixture(scope="module", params=LEAN_RELEASES)
def kimina(request):
    """The fake Kimina answering as one Lean release."""
    with FakeKimina(responder=ScriptedLean(lean_version=request.param)) as server:
        yield server


def listed(server: FakeKimina) -> dict[str, fake_common.Listed]:
    """The constants of the listing the fake answered to the last audited candidate."""
    sent = [s["code"] for r in server.check_requests for s in r.body["snippets"] if "run_cmd do" in s["code"]]
    m = fake_common.DECLS_PROBE_RE.search(sent[-1])
    assert m is not None
    lean = server.responder
    consts, _, _ = fake_common.listing_of(sent[-1][: m.start()], lean_version=lean.lean_version,
                                          roots=fake_common.parse_roots(m.group("roots")))
    return {c.name: c for c in consts}


@pytest.mark.parametrize("name", sorted(HONEST))
def test_an_honest_construct_is_proved_through_check_on_every_release(name: str, kimina: FakeKimina,
                                                                       tmp_path: Path) -> None:
    original, candidate, names = HONEST[name]
    out = check_cli(kimina, tmp_path, original, candidate)
    assert out["ok"] is True, (name, kimina.responder.lean_version, out["reasons"])
    present, absent = expected_constants(names, kimina.responder.lean_version)
    consts = listed(kimina)
    assert present <= set(consts), (present - set(consts), sorted(consts))
    assert not absent & set(consts)


def test_old_codegen_artefacts_are_unsafe_and_outside_the_closure() -> None:
    code = CTX + CTX_T + "  match n with\n  | 0 => simp\n  | k + 1 => omega\n"
    for version in VERSIONS:
        consts = {c.name: c for c in fake_common.listing_of(code, lean_version=version, roots=("t",))[0]}
        stages = {n: c for n, c in consts.items() if "._cstage" in n}
        if _below_22(version):
            assert set(stages) == {"isSolution._cstage1", "isSolution._cstage2", "t.match_1._cstage1",
                                   "t.match_1._cstage2"}, version
            assert all(c.unsafe and not c.in_closure for c in stages.values())
        else:
            assert stages == {}, version
        assert consts["t"].in_closure and consts["isSolution"].in_closure and consts["t.match_1"].in_closure


# --- axiom names that cannot shorten (issue 46, point 2) ------------------------------------------


def test_the_newest_release_shortens_axioms_under_open_unless_the_probe_asks_full_names() -> None:
    code = CLASSICAL + CHOICE_T + "  exact ⟨Classical.choice h, rfl⟩\n\n"
    bare = ScriptedLean(lean_version="4.27")(code + "#print axioms t\n")
    full = ScriptedLean(lean_version="4.27")(code + probe_text.probe_command("t") + "\n")
    old = ScriptedLean(lean_version="4.19")(code + "#print axioms t\n")
    said = [m["data"] for m in bare["messages"] if m["severity"] == "info"]
    assert said == ["'t' depends on axioms: [propext, choice, Quot.sound]"]
    assert [m["data"] for m in full["messages"] if m["severity"] == "info"] == [
        "'t' depends on axioms: [propext, Classical.choice, Quot.sound]"]
    assert [m["data"] for m in old["messages"] if m["severity"] == "info"] == [
        "'t' depends on axioms: [propext, Classical.choice, Quot.sound]"]


@pytest.mark.parametrize("version", LEAN_RELEASES)
def test_without_full_names_the_open_classical_proof_would_be_refused_on_the_newest_release(
        version: str, tmp_path: Path, monkeypatch) -> None:
    """The probe's `set_option pp.fullNames true in` is what keeps `Classical.choice` whole: with
    it switched off, 4.27's `ofConstName` printing refuses an honest proof as `forbidden_axiom`."""
    original, candidate, _ = HONEST["open-classical-choice"]
    with FakeKimina(responder=ScriptedLean(lean_version=version)) as server:
        assert check_cli(server, tmp_path, original, candidate)["ok"] is True
        monkeypatch.setattr(probe_text, "PROBE_PREFIX", "")
        out = check_cli(server, tmp_path, original, candidate)
    if LeanRelease.of(version).axioms_by_const_name:
        assert ("forbidden_axiom", "depends on axiom 'choice'") in [(r["reason"], r["detail"]) for r in out["reasons"]]
    else:
        assert out["ok"] is True, out["reasons"]


# --- private names (issue 46, point 3) -------------------------------------------------------------


@pytest.mark.parametrize(("printed", "key"), [
    ("_private.0.aux", ("aux", True)),  # the REPL's anonymous main module
    ("_private.Proof.0.aux", ("aux", True)),
    ("_private.Mathlib.Data.Foo.0.Nat.aux", ("Nat.aux", True)),
    ("_private.Proof.0.«add zero»", ("add zero", True)),
    ("aux", ("aux", False)),
    ("Foo._private.aux", ("Foo._private.aux", False)),  # not Lean's private prefix
    ("_private.Proof.aux", ("_private.Proof.aux", False)),  # no `0` component
])
def test_private_names_are_compared_through_one_key(printed: str, key: tuple[str, bool]) -> None:
    assert judge.private_key(printed) == key


def info(text: str) -> Message:
    return Message(Severity.INFO, text, Position(1, 0))


def test_a_private_answer_stands_for_a_helper_never_for_the_target() -> None:
    said = [info("'_private.0.aux' depends on axioms: [propext]")]
    assert judge.parse_probe(said, "aux", private_ok=True) == ["propext"]
    assert judge.parse_probe(said, "aux") is None  # the target must be the public constant
    assert judge.parse_probe([info("'aux' depends on axioms: [propext]")], "aux") == ["propext"]


@pytest.mark.parametrize("module", ["", "Proof"])
def test_a_private_helper_is_proved_under_either_private_form(module: str, tmp_path: Path) -> None:
    original, candidate, _ = HONEST["private-helper"]
    with FakeKimina(responder=ScriptedLean(lean_version="4.19", main_module=module)) as server:
        out = check_cli(server, tmp_path, original, candidate)
        probe = ScriptedLean(lean_version="4.19", main_module=module)(candidate + "\n" + probe_text.probe_command("aux"))
    assert out["ok"] is True, out["reasons"]
    prefix = f"_private.{module}.0." if module else "_private.0."
    assert [m["data"] for m in probe["messages"] if m["severity"] == "info"] == [
        f"'{prefix}aux' depends on axioms: [propext, Classical.choice, Quot.sound]"]


@pytest.mark.parametrize("version", LEAN_RELEASES)
def test_a_private_theorem_with_the_target_s_name_stays_refused(version: str, tmp_path: Path) -> None:
    """The statement proved under a private constant is not the problem's theorem: `#print axioms
    t` answers for `_private.0.t`, which only a lemma the candidate added may do."""
    original, _, _ = HONEST["simp-imported-def"]
    candidate = HEADER + "private " + NAT + "  simp [Nat.factorial]\n"
    with FakeKimina(responder=ScriptedLean(lean_version=version)) as server:
        out = check_cli(server, tmp_path, original, candidate)
    assert out["ok"] is False and "axioms_unknown" in [r["reason"] for r in out["reasons"]], out


# --- the judge over the closure (issue 46, point 1) ------------------------------------------------

NONCE = "ab" * 16
EXTS = ("ext\tinstance\t0", "ext\tmacro\t0", "ext\telab\t0", "ext\tparser\t0")
ORIGINAL = HEADER + "def f (n : ℕ) : ℕ := n + 1\n\n" + "theorem t (n : ℕ) : f n = n + 1 := by\n  sorry\n"
CANDIDATE = ORIGINAL.replace("  sorry\n", "  rfl\n")


def const(kind: str, name: str, axioms: str = "", *, unsafe: bool = False, partial: bool = False,
          implemented_by: bool = False, extern: bool = False, closure: bool = False) -> str:
    flags = "\t".join("true" if b else "false" for b in (unsafe, partial, implemented_by, extern, closure))
    return f"const\t{kind}\t{flags}\t{name}\t{axioms}"


def judged(*lines: str, original: str = ORIGINAL, candidate: str = CANDIDATE) -> list[tuple[str, str]]:
    """The judge's refusals for a listing of `lines` (with `t` itself, a theorem in the closure)."""
    body = [f"{NONCE}\t{ln}" for ln in (const("theorem", "t", "propext", closure=True), *lines, *EXTS)]
    answers = {("decls", ""): [info("\n".join([*body, f"{NONCE}\tend\t{len(body)}"]))]}
    report = AuditReport(AuditStatus.PROVED, theorem="t")
    whitelist = audit_listing.DeclWhitelist.of(candidate, original, "t")
    audit_listing._judge_listing(report, whitelist, answers, NONCE, {"propext", "Classical.choice", "Quot.sound"},
                                 sorry_seen=False)
    return [(r.reason.value, r.detail) for r in report.reasons]


def test_compiler_artefacts_outside_the_closure_do_not_matter() -> None:
    assert judged(const("def", "f", closure=True), const("def", "f._cstage1", unsafe=True),
                  const("def", "f._cstage2", unsafe=True), const("def", "t.match_1", closure=True),
                  const("def", "t.match_1._cstage1", unsafe=True), const("def", "List.map._at.f._spec_1", unsafe=True),
                  const("def", "f._elambda_1", unsafe=True)) == []
    # `Lean.looksLikeOldCodegenName` is about the last component only
    assert audit_listing.looks_like_old_codegen_name("_private.0.f._cstage2")
    assert not audit_listing.looks_like_old_codegen_name("f._cstage2.evil")


def test_what_the_theorem_depends_on_may_hold_nothing_unsafe_partial_implemented_by_or_extern() -> None:
    assert judged(const("def", "f._cstage1", unsafe=True, closure=True)) == [
        ("banned_modifier", "Lean lists an unsafe def 'f._cstage1', which the theorem depends on")]
    assert judged(const("def", "f", implemented_by=True, closure=True)) == [
        ("banned_attribute", "Lean lists an @[implemented_by] def 'f', which the theorem depends on")]
    assert judged(const("opaque", "f", extern=True, closure=True)) == [
        ("banned_attribute", "Lean lists an @[extern] opaque 'f', which the theorem depends on")]
    assert judged(const("opaque", "f", partial=True, closure=True)) == [
        ("banned_modifier", "Lean lists a partial opaque 'f', which the theorem depends on")]
    # the same outside the closure: the problem's own declarations are the problem's
    assert judged(const("def", "f", implemented_by=True), const("def", "f._unsafe_rec", unsafe=True)) == []
    # an unsafe constant that is no compiler artefact and belongs to nothing allowed: refused
    assert judged(const("def", "loopForever", unsafe=True)) == [
        ("banned_modifier", "Lean lists an unsafe def 'loopForever'")]
    # an axiom the file declares is refused, and so is every theorem that depends on it
    assert judged(const("axiom", "t.cheat", "t.cheat", closure=True), const("theorem", "t.aux", "t.cheat",
                                                                           closure=True)) == [
        ("lean_declared", "Lean lists axiom 't.cheat', which the proof text does not declare as a theorem or lemma"),
        ("forbidden_axiom", "'t.aux' depends on axiom 't.cheat'")]


def test_a_theorem_is_judged_by_its_axioms_whatever_its_name() -> None:
    names = ["Nat.factorial.eq_1", "Nat.factorial.eq_def", "Nat.factorial._eq_1", "Nat.factorial._unfold",
             "Nat.factorial.induct", "_private.0.Nat.factorial.match_1.eq_2", "evil._proof_1"]
    assert judged(*(const("theorem", n, "propext", closure=True) for n in names)) == []
    assert judged(const("theorem", "Nat.factorial.eq_1", "propext,sorryAx", closure=True)) == [
        ("sorry", "'Nat.factorial.eq_1' depends on sorryAx")]
    assert judged(const("theorem", "Nat.factorial.eq_1", "smuggled")) == [
        ("forbidden_axiom", "'Nat.factorial.eq_1' depends on axiom 'smuggled'")]


def test_definitions_keep_the_whitelist() -> None:
    # a splitter Lean makes for `split` over an imported matcher: Lean's own
    assert judged(const("def", "_private.0.Nat.factorial.match_1.splitter", closure=True),
                  const("def", "_private.0.Nat.factorial.match_1.splitter._cstage1", unsafe=True)) == []
    for kind, name in [("def", "evil"), ("def", "evil.splitter"), ("opaque", "evil"), ("inductive", "Evil"),
                       ("axiom", "evil")]:
        refusals = judged(const(kind, name))
        assert refusals and refusals[0][0] == "lean_declared", (kind, name, refusals)


def test_an_anonymous_instance_of_the_context_is_known_by_the_name_lean_gives_it() -> None:
    original = HEADER + "def Z2 : Type := ZMod 2\n\ninstance : Semiring Z2 := inferInstanceAs (Semiring (ZMod 2))\n\n" \
        + "theorem t (x : Z2) : x = x := by\n  sorry\n"
    candidate = original.replace("  sorry\n", "  rfl\n")
    lines = (const("def", "Z2"), const("def", "instSemiringZ2"), const("def", "instSemiringZ2._cstage1", unsafe=True))
    assert judged(*lines, original=original, candidate=candidate) == []
    # one anonymous instance in the context: a second `inst…` definition is not the problem's
    extra = judged(*lines, const("def", "instRingZ2"), original=original, candidate=candidate)
    assert extra == [("lean_declared", "Lean lists def 'instRingZ2', which the proof text does not declare as a "
                                        "theorem or lemma")]


@pytest.mark.parametrize("version", LEAN_RELEASES)
def test_the_closure_through_check_on_every_release(version: str, tmp_path: Path) -> None:
    """Through `check` on the fake Kimina, Lean's listing saying the theorem depends on an
    `@[implemented_by]` definition of the problem's own: refused; the same definition unused: not."""
    from tests.fakes.fake_kimina import DeclareRule

    original = ORIGINAL
    used = ScriptedLean(lean_version=version, rules=[DeclareRule(r"rfl", "def", "f", (), implemented_by=True,
                                                                 in_closure=True)])
    with FakeKimina(responder=used) as server:
        out = check_cli(server, tmp_path, original, CANDIDATE)
    assert out["ok"] is False
    assert ("banned_attribute", "Lean lists an @[implemented_by] def 'f', which the theorem depends on") in [
        (r["reason"], r["detail"]) for r in out["reasons"]]
    unused = ScriptedLean(lean_version=version, rules=[DeclareRule(r"rfl", "def", "g._cstage1", (), unsafe=True)])
    with FakeKimina(responder=unused) as server:
        assert check_cli(server, tmp_path, original, CANDIDATE)["ok"] is True


# --- real ProverBench contexts (../shared/data) ----------------------------------------------------


def _proverbench_with_computable_defs(shared_data: Path) -> list[dict]:
    rows = [json.loads(line) for line in (shared_data / "benchmarks" / "proverbench.jsonl").open(encoding="utf-8")]
    return [r for r in rows if re.search(r"^(?:def|abbrev|instance) ", r["header"] + r["formal_statement"], re.M)]


def _open_only_at_the_target(row: dict) -> bool:
    """One `sorry`, the target's: context lemmas left at `sorry` make `check` incomplete whatever
    the proof (lemmaforge/targets.py), which is not what this test is about."""
    return (row["header"] + row["formal_statement"]).count("sorry") == 1


@sweep
def test_proverbench_problems_with_a_computable_def_can_be_proved_on_every_release(shared_data: Path,
                                                                                   every: int, tmp_path: Path) -> None:
    """The 45 ProverBench rows whose context holds a computable `def` / `abbrev` / `instance` (so
    below 4.22 Lean adds unsafe `_cstage` helpers for it; the judge refused every one of them
    before issue 46): a proof the fakes accept is proved through `check --against`, on every
    release (44 of them: one leaves a context lemma at `sorry`)."""
    rows = _proverbench_with_computable_defs(shared_data)
    assert len(rows) == 45
    rows = [r for r in rows if _open_only_at_the_target(r)]
    assert len(rows) == 44
    refused = []
    for version in VERSIONS:
        with FakeKimina(responder=ScriptedLean(lean_version=version)) as server:
            for row in rows[::every]:
                original = row["header"] + row["formal_statement"]
                end = original.rindex("sorry")
                candidate = original[:end] + "simp" + original[end + len("sorry"):]
                out = check_cli(server, tmp_path, original, candidate, "--trust-dataset")
                if not out["ok"]:
                    refused.append((version, row["name"], out["reasons"][:2]))
                elif _below_22(version) and "def " in row["header"] and "noncomputable def" not in row["header"]:
                    assert any(n.endswith("._cstage1") for n in listed(server)), row["name"]
    assert refused == []


# --- the fake REPL answers as each release too -----------------------------------------------------


ALL_CONSTRUCTS = (
    CTX + "private lemma aux (n : ℕ) (h : 0 < n) : 0 < n := h\n\n"
    "lemma first (p n : ℕ) (h : isSolution p n) : 0 < n := h.2\n\n"
    + CTX_T + "  match n with\n  | 0 => exact absurd h.2 (lt_irrefl 0)\n  | k + 1 => exact aux _ (helper k)\n"
    "where\n  helper (k : ℕ) : 0 < k + 1 := Nat.succ_pos k\n"
)


@pytest.mark.parametrize("version", LEAN_RELEASES)
def test_the_repl_fake_proves_every_construct_at_once(version: str, tmp_path: Path) -> None:
    from tests.fakes.fake_repl import make_fake_repl_config

    make_fake_repl_config(tmp_path / "repl", transcripts=False, lean_version=version)
    project = tmp_path / "project"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
    (project / "lean-toolchain").write_text(f"leanprover/lean4:{tag(version)}\n", encoding="utf-8")
    env = {"LEMMAFORGE_VERIFIER__REPL_PATH": str(tmp_path / "repl" / "repl"),
           "LEMMAFORGE_VERIFIER__LAKE_PATH": str(tmp_path / "repl" / "bin" / "lake"),
           "LEMMAFORGE_VERIFIER__PROJECT": str(project), "LEMMAFORGE_VERIFIER__WORKERS": "1"}
    proof, statement = tmp_path / "proof.lean", tmp_path / "statement.lean"
    proof.write_text(ALL_CONSTRUCTS, encoding="utf-8")
    statement.write_text(CTX + CTX_T + "  sorry\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["check", str(proof), "--against", str(statement), "--verifier", "repl",
                                 "--no-sandbox", "--json"], env=env)
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["ok"] is True and out["status"] == "proved", out["reasons"]
    consts = {c.name for c in fake_common.listing_of(ALL_CONSTRUCTS, lean_version=version, roots=("t", "first"))[0]}
    assert {"_private.0.aux", "first", "t.match_1", "t.helper"} <= consts
    assert ("isSolution._cstage1" in consts) is _below_22(version)



@pytest.mark.parametrize("version", LEAN_RELEASES)
def test_the_fake_repl_prints_axioms_and_private_names_as_the_release_does(version: str) -> None:
    """The fake REPL process's engine (tests/fakes/fake_lean.py): a private lemma's name in its
    private form; the axioms shortened under `open Classical` only where the release prints them
    with `ofConstName` and the probe did not set `pp.fullNames`."""
    from tests.fakes.fake_lean import FakeLean

    lean = FakeLean(lean_version=version)
    header = lean.respond({"cmd": "import Mathlib\nopen Classical"})
    assert header is not None
    env = header["env"]
    said = lean.respond({"cmd": "private lemma aux (p : Prop) : p ∨ ¬p := by\n  exact em p", "env": env})
    assert said is not None

    def answer(cmd: str) -> str:
        out = lean.respond({"cmd": cmd, "env": said["env"]})
        assert out is not None
        return next(m["data"] for m in out["messages"] if m["severity"] == "info")

    shortened = LeanRelease.of(version).axioms_by_const_name
    choice = "choice" if shortened else "Classical.choice"
    assert answer("#print axioms aux") == f"'_private.0.aux' depends on axioms: [propext, {choice}, Quot.sound]"
    assert answer(probe_text.probe_command("aux")) == (
        "'_private.0.aux' depends on axioms: [propext, Classical.choice, Quot.sound]")


def test_the_stand_in_kimina_answers_the_listing_as_the_chosen_release() -> None:
    """The stand-in servers (scripts' benchmarks) take the same knob (`--lean-version`)."""
    from tests.fakes.standin_servers import judge as standin

    code = CTX + CTX_T + "  exact h.2\n"
    body = code + "\n" + probe_text.declarations_command(NONCE, ("t",)) + "\n"
    for version in VERSIONS:
        listing = next(m["data"] for m in standin(body, version)["messages"] if NONCE in m["data"])
        assert ("\tisSolution._cstage1\t" in listing) is _below_22(version), version

"""The whitelist gate on its own: candidate proofs, dataset problems, tactics, the shipped datasets,
and the SafeVerify build step of `lemmaforge setup --safeverify` (fake git / lake)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from lemmaforge.errors import InputError
from lemmaforge.lean import gate
from lemmaforge.lean.gate import Context, DatasetRejected, Reason, admit_problem, check_candidate
from lemmaforge.lean.safeverify import build_safe_verify, default_location
from lemmaforge.lean.verifier import VerifierError
from tests.conftest import BENCHMARKS

PROBLEM = "import Mathlib\n\nopen Real\n\ndef f (x : ℕ) : ℕ := x + 1\n\ntheorem t (x : ℕ) : f x = x + 1 := by\n  sorry\n"
CONTEXT = Context.of(PROBLEM)


def reasons(text: str, context: Context | None = CONTEXT) -> set[Reason]:
    return {v.reason for v in check_candidate(text, context)}


def test_the_problem_context_may_be_repeated_and_proofs_added() -> None:
    proof = PROBLEM.replace("  sorry", "  rfl").replace("theorem t", "lemma helper : f 0 = 1 := rfl\n\ntheorem t")
    assert check_candidate(proof, CONTEXT) == []
    # Re-indented / re-spaced context commands are the same commands (token identity).
    assert check_candidate(proof.replace("def f (x : ℕ) : ℕ := x + 1", "def f (x : ℕ) : ℕ :=\n    x+1"), CONTEXT) == []


@pytest.mark.parametrize(
    ("addition", "reason"),
    [
        ("def g : ℕ := 1", Reason.CONTEXT),
        ("def f (x : ℕ) : ℕ := x + 2", Reason.CONTEXT),  # a changed context definition
        ("instance : Inhabited ℝ := ⟨0⟩", Reason.COMMAND),
        ("  axiom a : False", Reason.COMMAND),
        ("variable (h : False)", Reason.COMMAND),
        ("universe u", Reason.COMMAND),
        ("namespace X\nend X", Reason.COMMAND),
        ("local notation \"x\" => 1", Reason.COMMAND),
        ("notation3 \"x\" => 1", Reason.COMMAND),
        ("#eval 1", Reason.CODE),
        ("#exit", Reason.CODE),
        ("run_cmd pure ()", Reason.CODE),
        ("@[implemented_by id] def h : ℕ → ℕ := id", Reason.CODE),
        ("@[csimp] theorem c : @id ℕ = id := rfl", Reason.CODE),
        ("@[instance] theorem c : True := trivial", Reason.ATTRIBUTE),
        ("@[simp, my_attr] theorem c : True := trivial", Reason.ATTRIBUTE),
        ("set_option debug.skipKernelTC true", Reason.OPTION),
        ("set_option trace.Meta.synthInstance true in\ntheorem c : True := trivial", Reason.OPTION),
        ("partial theorem c : True := trivial", Reason.MODIFIER),
        ("/- never closed", Reason.SYNTAX),
        ("count_heartbeats in\ntheorem c : True := trivial", Reason.COMMAND),
    ],
)
def test_everything_outside_the_whitelist_is_refused_with_its_reason(addition: str, reason: Reason) -> None:
    text = PROBLEM.replace("  sorry", "  rfl") + "\n" + addition + "\n"
    assert reason in reasons(text), check_candidate(text, CONTEXT)


@pytest.mark.parametrize(
    "tactic",
    ["run_tac pure ()", "exact by_elab pure (Lean.mkConst ``True)", "set_option debug.skipKernelTC true in rfl",
     "exact (by decide)#eval 1", "exact unsafe (unsafeCast 0)"],
)
def test_code_runners_are_refused_inside_proofs(tactic: str) -> None:
    text = PROBLEM.replace("  sorry", "  " + tactic)
    assert reasons(text) & {Reason.CODE, Reason.OPTION}
    assert gate.check_tactic(tactic)


@pytest.mark.parametrize(
    "tactic", ["simp", "open Real in simp", "set_option maxHeartbeats 400000 in nlinarith", "exact h.2.1",
               "have : \"#eval run_tac\".length = 13 := by decide", "trace \"x\"", "set_option pp.all true in rfl"]
)
def test_legal_tactics_pass(tactic: str) -> None:
    assert gate.check_tactic(tactic) == []
    assert check_candidate(PROBLEM.replace("  sorry", "  " + tactic), CONTEXT) == []


@pytest.mark.parametrize(
    "command",
    ["variable? (h : False)", "variables (h : False)", "name_poly_vars X over ℝ", "sudo set_option maxHeartbeats 0",
     "init_quot", "compile_def% Nat.add", "gen_injective_theorems% Nat", "add_aesop_rules safe Nat.le_refl",
     "with_weak_namespace Foo theorem x : True := trivial", "deprecate to y (since := \"2026-01-01\") theorem x : True := trivial",
     "mk_iff_of_inductive_prop Nat.le Nat.le_iff", "aux_def foo : ℕ := 1", "unset_option maxHeartbeats",
     "lrat_proof foo \"p cnf 1 1\" \"1 0\"", "recall Nat.add_zero (n : ℕ) : n + 0 = n"],
)
@pytest.mark.parametrize("indent", ["", "  "])
def test_library_commands_hidden_after_a_helpers_last_tactic_are_refused(command: str, indent: str) -> None:
    # Lean ends a tactic block at the first token that cannot continue it, so a command word the
    # syntax layer does not split on would be a command to Lean and part of the helper's proof to
    # a gate that did not know the word.
    helper = f"lemma helper : True := by\n  trivial\n{indent}{command}\n\n"
    text = PROBLEM.replace("theorem t", helper + "theorem t").replace("  sorry", "  rfl")
    assert Reason.COMMAND in reasons(text), check_candidate(text, CONTEXT)


@pytest.mark.parametrize("tail", ["open Real in", "set_option maxHeartbeats 400 in", "open Real in -- c\n"])
def test_a_dangling_in_prefix_at_the_end_is_refused(tail: str) -> None:
    # It would prefix the next command Lean reads: the audit's `#print axioms` probe.
    text = PROBLEM.replace("  sorry", "  rfl") + tail + "\n"
    assert [v.reason for v in check_candidate(text, CONTEXT)] == [Reason.SYNTAX]
    assert check_candidate(text.replace(tail, tail.replace(" in", "")), CONTEXT) == []


def test_percent_command_words_are_identifiers_without_their_percent() -> None:
    text = PROBLEM.replace("  sorry", "  have compile_def : True := trivial\n  rfl")
    assert check_candidate(text, CONTEXT) == []


def test_answer_slots_may_be_filled_only_with_the_same_signature() -> None:
    problem = "import Mathlib\n\nabbrev ans : ℕ := sorry\n\ntheorem t : ans = 2 := by\n  sorry\n"
    ctx = Context.of(problem)
    assert check_candidate(problem.replace(":= sorry\n\n", ":= 2\n\n").replace("  sorry", "  rfl"), ctx) == []
    assert Reason.CONTEXT in reasons(problem.replace("abbrev ans : ℕ := sorry", "abbrev ans : ℤ := 2"), ctx)
    assert Reason.CODE in reasons(problem.replace(":= sorry\n\n", ":= by run_tac pure ()\n\n"), ctx)


def test_dataset_gate_names_the_row() -> None:
    admit_problem(PROBLEM, row="ok")  # plain definitions pass
    for header, word in [("#eval IO.Process.exit 0", "#eval"), ("axiom magic : False", "axiom magic"),
                         ("instance : Inhabited ℝ := ⟨0⟩", "instance"), ("set_option autoImplicit true", "autoImplicit"),
                         ("macro \"x\" : term => `(1)", "macro")]:
        text = f"import Mathlib\n{header}\ntheorem t : True := by\n  sorry\n"
        with pytest.raises(DatasetRejected) as info:
            admit_problem(text, row="row_17")
        assert isinstance(info.value, InputError)
        message = str(info.value)
        assert "row_17" in message and word in message and "--trust-dataset" in message
        assert "\n" not in message
    # Trusted: axioms and instances are accepted as the problem's context…
    ctx = admit_problem("import Mathlib\naxiom magic : False\ntheorem t : True := by\n  sorry\n", row="r", trust=True)
    assert check_candidate("import Mathlib\naxiom magic : False\ntheorem t : True := magic.elim\n", ctx) == []
    # …but code runners stay refused at the verifier even in trusted text.
    evil = "import Mathlib\n#eval 1\ntheorem t : True := by\n  trivial\n"
    assert Reason.CODE in reasons(evil, admit_problem(evil.replace("trivial", "sorry"), row="r", trust=True))


def test_shipped_datasets_pass_except_the_rows_that_declare_axioms_or_instances() -> None:
    refused: dict[str, set[str]] = {}
    total = 0
    for path in sorted(BENCHMARKS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            total += 1
            violations = gate.check_dataset_text((row.get("header") or "") + "\n" + row["formal_statement"])
            if violations:
                refused[f"{path.stem}/{row['name']}"] = {v.detail.split("`")[1].split()[0] for v in violations}
    assert total > 1800
    assert len(refused) < 20, refused
    assert all(words <= {"axiom", "instance"} for words in refused.values()), refused
    assert all(name.startswith("proverbench/") for name in refused)


def test_the_probe_name_must_be_a_name() -> None:
    assert gate.valid_probe_name("Foo.t'") and gate.valid_probe_name("«add zero, twice»")
    assert not gate.valid_probe_name("t\n#eval 1") and not gate.valid_probe_name("t #exit")


# --- `lemmaforge setup --safeverify` ------------------------------------------------------------


def _script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_build_safe_verify_clones_pins_the_toolchain_and_builds(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.19.0\n", encoding="utf-8")
    git = _script(tmp_path / "git", 'mkdir -p "$5" && touch "$5/lakefile.lean"\n')
    lake = _script(tmp_path / "lake", "mkdir -p .lake/build/bin && touch .lake/build/bin/safe_verify\n")
    exe = build_safe_verify(project, lake=lake, git=git)
    assert exe == default_location(project) and exe.is_file()
    assert (project / ".lemmaforge" / "SafeVerify" / "lean-toolchain").read_text() == "leanprover/lean4:v4.19.0\n"
    failing = _script(tmp_path / "lake2", "echo 'error: unknown package Cli' >&2; exit 1\n")
    with pytest.raises(VerifierError, match="building SafeVerify failed .*unknown package Cli"):
        build_safe_verify(project, lake=failing, git=git)


# --- honest published proofs pass the gate -----------------------------------------------------------

OTHER_PROVERS = Path(__file__).resolve().parent / "data" / "other_provers"


@pytest.mark.slow
def test_published_competition_proofs_pass_the_gate() -> None:
    from tests.conftest import REFERENCE_PROOFS

    files = sorted(REFERENCE_PROOFS.rglob("*.lean"))
    # Other provers' miniF2F / competition proofs; the miniCTX files are whole library contexts
    # (instances, notation, `namespace`): those belong to a (trusted) problem, not to a proof.
    files += [f for f in sorted(OTHER_PROVERS.rglob("*.lean")) if not f.name.startswith("miniCTX")]
    assert len(files) > 438
    refused = {f.name: check_candidate(f.read_text(encoding="utf-8"), Context()) for f in files}
    assert {name: v for name, v in refused.items() if v} == {}


def test_trust_dataset_is_recorded_with_the_run_config() -> None:
    from lemmaforge.config import load_config

    record = load_config(None, {"verifier": {"trust_dataset": True}}).to_record()
    assert record["verifier"]["trust_dataset"] is True
    assert load_config(None, {}).to_record()["verifier"]["trust_dataset"] is False


def test_the_gate_reads_only_what_it_declares_of_the_backend() -> None:
    """No attribute forwarding: the gate answers `has_room` from a backend that reports room (False
    where it cannot say), and neither the backend's own extras nor its `check_with_probe` (which
    would send text past the gate) are reachable through it."""
    from lemmaforge.lean.verifier import ProbingVerifier, ReportsRoom
    from tests.fakes.fake_common import CheckOnlyVerifier

    class Roomy(CheckOnlyVerifier):
        room = True
        position_mode = "all"  # a backend's own extra

        def has_room(self) -> bool:
            return self.room

        async def check_with_probe(self, code, probe, *, timeout=None):
            raise AssertionError("the gate must not hand text to the backend's own probe")

    backend = Roomy()
    gated = gate.GatedVerifier(backend)
    assert isinstance(gated, ReportsRoom) and gated.has_room() is True
    backend.room = False
    assert gated.has_room() is False
    assert gate.GatedVerifier(CheckOnlyVerifier()).has_room() is False  # cannot say: nothing started ahead
    assert not isinstance(gated, ProbingVerifier)
    with pytest.raises(AttributeError):
        _ = gated.position_mode  # type: ignore[attr-defined]

"""The fake Lean REPL speaks the real protocol: it replays every recorded transcript byte for byte
(through the real stdin/stdout framing), prints JSON like Lean, and its scripted answers and
failure modes reach lean-interact the way Lean's would."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from lean_interact import Command, LeanServer, ProofStep

from tests.conftest import REPL_TRANSCRIPTS
from tests.fakes.fake_common import axioms_message, mask_comments_and_strings
from tests.fakes.fake_lean import (
    DEFAULT_TRANSCRIPT_FOLDER,
    FakeLean,
    Latency,
    TranscriptIndex,
    extract_goal_message,
    lean_json,
)
from tests.fakes.fake_repl import make_fake_repl_config

FAKE_REPL = Path(__file__).resolve().parents[1] / "fakes" / "fake_repl.py"
DEFAULT_FOLDER = REPL_TRANSCRIPTS / DEFAULT_TRANSCRIPT_FOLDER


def _paired(folder: Path) -> list[dict[str, Any]]:
    data = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    return [t for t in data["transcripts"] if t.get("expected_out")]


PAIRED = _paired(DEFAULT_FOLDER)


@pytest.fixture(scope="module")
def default_index() -> TranscriptIndex:
    return TranscriptIndex.load(DEFAULT_FOLDER)


# --------------------------------------------------------------------------------------------------
# Protocol: output format and recorded transcripts
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("folder", sorted(p.name for p in REPL_TRANSCRIPTS.iterdir() if (p / "index.json").exists()))
def test_lean_json_reproduces_every_recorded_response_byte_for_byte(folder: str) -> None:
    for t in _paired(REPL_TRANSCRIPTS / folder):
        for raw, parsed in zip(t["responses_raw"], t["responses"], strict=True):
            assert lean_json(parsed) == raw.rstrip("\n"), (t["name"], raw)


def test_lean_json_key_order_and_width() -> None:
    assert lean_json({"a": 1, "b": [], "c": "x"}) == '{"c": "x", "b": [], "a": 1}'
    long = lean_json({"goal": "x" * 90, "env": 0})
    assert long == '{"goal":\n "' + "x" * 90 + '",\n "env": 0}'
    assert lean_json("tab\there\u0001") == '"tab\\u0009here\\u0001"'


@pytest.mark.parametrize("restricted", [False, True], ids=["all-transcripts", "only-this-one"])
def test_engine_replays_every_transcript(restricted: bool, default_index: TranscriptIndex) -> None:
    """In-process: a fresh engine per transcript answers every request as recorded, ids included,
    whether it knows only that transcript or all of them (then it must pick the right one)."""
    for t in PAIRED:
        index = TranscriptIndex.load(DEFAULT_FOLDER, [t["name"]]) if restricted else default_index
        engine = FakeLean(transcripts=index)
        for request, expected in zip(t["requests"], t["responses"], strict=True):
            assert engine.respond(request) == expected, (t["name"], request)


def _run_fake_process(stdin: bytes, config: dict[str, Any], tmp: Path) -> subprocess.CompletedProcess[bytes]:
    config_path = tmp / "cfg.json"
    config_path.write_text(json.dumps(config), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-S", str(FAKE_REPL), "--config", str(config_path)],
        input=stdin,
        capture_output=True,
        cwd=tmp,
        timeout=60,
    )


@pytest.mark.slow
def test_process_replays_every_recorded_pair_byte_for_byte(tmp_path: Path) -> None:
    """Each recorded `.in` file, piped as is into a fresh fake process (as the REPL's test.sh
    does), produces its `.expected.out` exactly: framing, skipping, ids and JSON layout."""

    def replay(t: dict[str, Any]) -> tuple[str, bytes, bytes, bytes]:
        work = tmp_path / t["name"].replace("/", "_")
        work.mkdir()
        # Only this transcript in the process's index: the fake must find it without hints, and
        # a small index keeps 78 process starts fast.
        (work / "index.json").write_text(json.dumps({"transcripts": [t]}), encoding="utf-8")
        config = {"transcripts_dir": str(work)}
        done = _run_fake_process((DEFAULT_FOLDER / t["in"]).read_bytes(), config, work)
        return t["name"], done.stdout, (DEFAULT_FOLDER / t["expected_out"]).read_bytes(), done.stderr

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(replay, PAIRED))
    core = [r for r, t in zip(results, PAIRED, strict=True) if not t["needs_mathlib"]]
    assert len(core) == 61 and len(results) == 78
    for name, out, expected, err in results:
        assert err == b"", name
        assert out == expected, name


# --------------------------------------------------------------------------------------------------
# Framing edge cases (REPL/Main.lean `getLines` / `loop`)
# --------------------------------------------------------------------------------------------------


def test_comment_queries_are_skipped_and_lines_are_joined(tmp_path: Path) -> None:
    stdin = (
        b'# a comment query\n\n-- another\n\n{"cmd": "theorem t : 1 = 1 :=\n   rfl"}\n\n{"cmd": "#check 1",\n "env": 0}\n'
    )
    done = _run_fake_process(stdin, {}, tmp_path)
    assert done.returncode == 0
    out = done.stdout.decode()
    assert out.count("\n\n") == 2 and out.endswith("}\n\n")
    first, second = (json.loads(block) for block in out.split("\n\n")[:2])
    assert first == {"env": 0}  # "rfl" joined to ":=" with no separator: ":=   rfl" after rstrip
    assert second == {"env": 1}


def test_malformed_json_and_extra_blank_line_kill_the_process_like_the_real_repl(tmp_path: Path) -> None:
    done = _run_fake_process(b'{"cmd": oops}\n\n', {}, tmp_path)
    assert done.returncode == 1 and b"uncaught exception" in done.stderr and done.stdout == b""
    # Two blank lines in a row: the second is the query "\n", which Json.parse rejects.
    done = _run_fake_process(b'{"cmd": "def x := 1"}\n\n\n{"cmd": "def y := 1"}\n\n', {}, tmp_path)
    assert done.returncode == 1 and done.stdout.decode().count("\n\n") == 1


def test_unknown_request_shape_kills_the_process(tmp_path: Path) -> None:
    done = _run_fake_process(b'{"hello": 1}\n\n', {}, tmp_path)
    assert done.returncode == 1 and b"Could not parse as a valid JSON command" in done.stderr


# --------------------------------------------------------------------------------------------------
# Scripted Lean
# --------------------------------------------------------------------------------------------------

SKETCH = """theorem t (a b : ℝ) (h : 0 < a ∧ 0 < b) : 0 < a * b ∧ 0 < a + b := by
  have h1 : 0 < a * b := by sorry
  have h2 : 0 < a + b := by
    sorry -- "sorry" here is a comment: sorry
  exact ⟨h1, h2⟩"""


def test_sorries_have_positions_goals_and_fresh_proof_states() -> None:
    engine = FakeLean()
    assert engine.respond({"cmd": "import Mathlib"}) == {"env": 0}
    resp = engine.respond({"cmd": SKETCH, "env": 0})
    assert resp is not None
    assert resp["env"] == 1
    assert [(s["proofState"], s["pos"], s["endPos"]) for s in resp["sorries"]] == [
        (0, {"line": 2, "column": 28}, {"line": 2, "column": 33}),
        (1, {"line": 4, "column": 4}, {"line": 4, "column": 9}),
    ]
    assert resp["sorries"][0]["goal"] == "a b : ℝ\nh : 0 < a ∧ 0 < b\n⊢ 0 < a * b"
    assert resp["sorries"][1]["goal"] == "a b : ℝ\nh : 0 < a ∧ 0 < b\nh1 : 0 < a * b\n⊢ 0 < a + b"
    assert resp["messages"] == [
        {
            "severity": "warning",
            "pos": {"line": 1, "column": 8},
            "endPos": {"line": 1, "column": 9},
            "data": "declaration uses 'sorry'",
        }
    ]


def test_sorry_in_comments_strings_and_identifiers_is_not_a_hole() -> None:
    code = 'def s : String := "sorry"\n/- sorry /- nested sorry -/ -/\ntheorem sorry_free : True := trivial -- sorry\n'
    assert mask_comments_and_strings(code).count("sorry") == 1  # only the identifier sorry_free
    resp = FakeLean().respond({"cmd": code})
    assert resp == {"env": 0}


def test_unknown_env_and_proof_state() -> None:
    engine = FakeLean()
    assert engine.respond({"cmd": "def f : Nat := 1", "env": 0}) == {"message": "Unknown environment."}
    assert engine.respond({"tactic": "rfl", "proofState": 0}) == {"message": "Unknown proof state."}


def test_print_axioms_uses_lean_wording_and_tracks_dependencies() -> None:
    code = """theorem uses_sorry : 1 = 2 := by sorry
theorem via_lemma : 1 = 2 := by exact uses_sorry
theorem by_rfl : 1 = 1 := rfl
theorem classical (p : Prop) : p ∨ ¬p := by exact Classical.em p
axiom cheat : False
theorem by_cheat : 1 = 2 := cheat.elim
theorem native : 2 ^ 10 = 1024 := by native_decide
#print axioms uses_sorry
#print axioms via_lemma
#print axioms by_rfl
#print axioms classical
#print axioms by_cheat
#print axioms native
#print axioms missing"""
    resp = FakeLean().respond({"cmd": code})
    assert resp is not None
    infos = [m["data"] for m in resp["messages"] if m["severity"] == "info"]
    assert infos == [
        "'uses_sorry' depends on axioms: [propext, sorryAx, Classical.choice, Quot.sound]",
        "'via_lemma' depends on axioms: [propext, sorryAx, Classical.choice, Quot.sound]",
        "'by_rfl' does not depend on any axioms",
        "'classical' depends on axioms: [propext, Classical.choice, Quot.sound]",
        "'by_cheat' depends on axioms: [cheat, propext, Classical.choice, Quot.sound]",
        "'native' depends on axioms: [propext, Classical.choice, Lean.ofReduceBool, Quot.sound]",
    ]
    first_info = next(m for m in resp["messages"] if m["severity"] == "info")
    assert first_info["pos"] == {"line": 8, "column": 0} and first_info["endPos"] == {"line": 8, "column": 6}
    assert resp["messages"][-1]["data"] == "unknown constant 'missing'"
    # Lean sorts by Name.cmp (prefix first): one-component names come before dotted ones.
    assert axioms_message("x", ["Quot.sound", "sorryAx", "A.b.c", "propext"]) == (
        "'x' depends on axioms: [propext, sorryAx, Quot.sound, A.b.c]"
    )


def test_axioms_and_declarations_carry_over_through_env() -> None:
    engine = FakeLean()
    engine.respond({"cmd": "axiom cheat : False\ntheorem t : 1 = 2 := cheat.elim"})
    resp = engine.respond({"cmd": "theorem t : 1 = 1 := rfl\n#print axioms t\nimport Foo", "env": 0})
    assert resp is not None
    assert [m["data"] for m in resp["messages"]] == [
        "'t' has already been declared",
        "'t' depends on axioms: [cheat, propext, Classical.choice, Quot.sound]",
        "invalid 'import' command, it must be used in the beginning of the file",
    ]


def test_tactic_rules_builtins_and_default_error() -> None:
    engine = FakeLean(
        rules=[
            {"match": r"^linarith$", "on": "tactic", "goal_match": r"⊢ 0 < a \* b", "closes": True},
            {"match": r"^constructor$", "on": "tactic", "goals": ["⊢ A", "⊢ B"]},
            {"match": r"^exact\?$", "on": "tactic", "error": "Lean error:\n`exact?` could not close the goal."},
        ]
    )
    resp = engine.respond({"cmd": SKETCH})
    assert resp is not None
    assert engine.respond({"tactic": "linarith", "proofState": 0}) == {
        "proofStatus": "Completed",
        "proofState": 2,
        "goals": [],
    }
    # The same tactic on a goal the rule does not match fails like an unknown tactic would.
    failed = engine.respond({"tactic": "linarith", "proofState": 1})
    assert failed is not None and failed["message"].startswith("Lean error:\n")
    assert engine.respond({"tactic": "constructor", "proofState": 1}) == {
        "proofStatus": "Incomplete: open goals remain",
        "proofState": 3,
        "goals": ["⊢ A", "⊢ B"],
    }
    assert engine.respond({"tactic": "exact?", "proofState": 1}) == {
        "message": "Lean error:\n`exact?` could not close the goal."
    }
    sorry = engine.respond({"tactic": "sorry", "proofState": 0})
    assert sorry == {
        "sorries": [{"proofState": 4, "goal": resp["sorries"][0]["goal"]}],
        "proofStatus": "Incomplete: contains sorry",
        "proofState": 5,
        "goals": [],
    }


def test_extract_goal_prints_the_proof_state_as_a_theorem_like_mathlib() -> None:
    engine = FakeLean(rules=[{"match": "extract_goal", "on": "tactic", "goal_match": "⊢ 0 < a \\+ b", "error": "boom"}])
    engine.respond({"cmd": SKETCH})
    tactic = "set_option pp.numericTypes true in set_option pp.coercions.types true in extract_goal * using t_sub_1"
    assert engine.respond({"tactic": tactic, "proofState": 0}) == {
        "proofStatus": "Incomplete: open goals remain",
        "proofState": 2,
        "goals": ["a b : ℝ\nh : 0 < a ∧ 0 < b\n⊢ 0 < a * b"],  # extract_goal leaves the goal open
        "messages": [
            {
                "severity": "info",
                "pos": {"line": 0, "column": 0},
                "endPos": {"line": 0, "column": 0},
                "data": "theorem t_sub_1 (a b : ℝ) (h : 0 < a ∧ 0 < b) : 0 < a * b := sorry",
            }
        ],
    }
    step = engine.respond({"tactic": "extract_goal", "proofState": 0})
    assert step is not None and step["messages"][0]["data"].startswith("theorem extracted_1 (a b : ℝ)")
    assert engine.respond({"tactic": "extract_goal", "proofState": 1}) == {"message": "boom"}  # a rule wins


def test_extract_goal_message_renames_inaccessible_names_and_wraps_long_statements() -> None:
    goal = "case succ\nα : Type\ninst✝ : Fintype α\nn✝¹ n✝ n : ℕ\nh : n✝¹ ≤\n  n✝ + n\n⊢ Fintype.card α ≤ n✝"
    assert extract_goal_message(goal, "l") == (
        "theorem l (α : Type) [inst : Fintype α] (n_1 n_2 n : ℕ) (h : n_1 ≤ n_2 + n) : Fintype.card α ≤ n_2 := sorry"
    )
    long = extract_goal_message("x : ℝ\n⊢ " + " + ".join(["x"] * 60) + " = 60 * x", "l")
    head, body = long.split("\n")
    assert head == "theorem l (x : ℝ) :" and body.startswith("  x + x") and body.endswith(" = 60 * x := sorry")


def test_rules_script_responses_errors_messages_goals_and_limits() -> None:
    engine = FakeLean(
        rules=[
            {"match": "SCRIPTED", "on": "cmd", "response": {"env": 7, "sorries": [{"proofState": 9, "goal": "⊢ X"}]}},
            {"match": "REPLERR", "error": "Lean error:\nboom"},
            {"match": "nlinarith", "on": "cmd", "messages": [{"data": "linarith failed"}]},
            {"match": r"have h1", "on": "sorry", "goal": "⊢ scripted goal"},
            {"match": "ONCE", "on": "cmd", "error": "first time only", "times": 1},
        ]
    )
    assert engine.respond({"cmd": "-- SCRIPTED"}) == {"env": 0, "sorries": [{"proofState": 0, "goal": "⊢ X"}]}
    assert engine.respond({"cmd": "REPLERR"}) == {"message": "Lean error:\nboom"}
    resp = engine.respond({"cmd": "theorem t : 1 < 2 := by\n  nlinarith"})
    assert resp is not None and resp["messages"] == [
        {"severity": "error", "pos": {"line": 2, "column": 2}, "endPos": {"line": 2, "column": 11}, "data": "linarith failed"}
    ]
    resp = engine.respond({"cmd": SKETCH})
    assert resp is not None and resp["sorries"][0]["goal"] == "⊢ scripted goal"
    assert engine.respond({"cmd": "-- ONCE"}) == {"message": "first time only"}
    assert engine.respond({"cmd": "-- ONCE"}) == {"env": 3}


def test_failure_rules_and_latency_are_reported_not_performed() -> None:
    engine = FakeLean(
        rules=[{"match": "CRASH", "crash": True}, {"match": "SLOW", "delay_s": 2.0}, {"match": "HANG", "hang": True}],
        latency=Latency(header_s=1.5, cmd_s=0.25, tactic_s=0.125),
    )
    header = engine.handle({"cmd": "import Mathlib"})
    assert (header.kind, header.delay_s) == ("header", 1.5)
    slow = engine.handle({"cmd": "-- SLOW", "env": 0})
    assert slow.delay_s == 2.25 and slow.response is not None
    crash = engine.handle({"cmd": "-- CRASH"})
    assert crash.crash and crash.response is None
    assert engine.respond({"cmd": "-- HANG"}) is None


def test_recorded_answers_are_renumbered_to_this_process(default_index: TranscriptIndex) -> None:
    """A recorded exchange replayed in a process that already has states gets fresh ids, and the
    follow-up tactic on the renumbered state still finds its recorded answer."""
    engine = FakeLean(transcripts=default_index)
    engine.respond({"cmd": SKETCH})  # env 0, proof states 0 and 1 (scripted)
    resp = engine.handle({"cmd": "def f (x : Unit) : Nat := by sorry"})  # test/readme
    assert resp.source == "recorded:readme"
    assert resp.response is not None and resp.response["env"] == 1
    assert resp.response["sorries"][0]["proofState"] == 2
    step = engine.handle({"tactic": "apply Int.natAbs", "proofState": 2})
    assert step.source == "recorded:readme"
    assert step.response == {"proofStatus": "Incomplete: open goals remain", "proofState": 3, "goals": ["x : Unit\n⊢ Int"]}


def test_lean_interact_fields_do_not_hide_recordings(default_index: TranscriptIndex) -> None:
    engine = FakeLean(transcripts=default_index)
    request = {"cmd": "def f : Nat := by sorry", "incrementality": True, "setOptions": [[["Elab", "async"], True]]}
    assert engine.handle(request).source.startswith("recorded:")


def test_scripted_pickles_round_trip(tmp_path: Path) -> None:
    engine = FakeLean(cwd=tmp_path)
    engine.respond({"cmd": "theorem t : 1 = 2 := by sorry"})
    assert engine.respond({"pickleTo": "e.olean", "env": 0}) == {"env": 0}
    assert engine.respond({"unpickleEnvFrom": "e.olean"}) == {"env": 1}
    resp = engine.respond({"cmd": "#print axioms t", "env": 1})
    assert resp is not None and "sorryAx" in resp["messages"][0]["data"]
    assert engine.respond({"pickleTo": "p.olean", "proofState": 0}) == {
        "proofStatus": "Incomplete: open goals remain",
        "proofState": 1,
        "goals": ["⊢ 1 = 2"],
    }
    assert engine.respond({"unpickleProofStateFrom": "p.olean"}) == {
        "proofStatus": "Incomplete: open goals remain",
        "proofState": 2,
        "goals": ["⊢ 1 = 2"],
    }


# --------------------------------------------------------------------------------------------------
# Through the real lean-interact code path
# --------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_lean_interact_runs_the_fake_without_git_network_or_build(tmp_path: Path) -> None:
    fake = make_fake_repl_config(tmp_path, rules=[{"match": "^linarith$", "on": "tactic", "closes": True}])
    assert fake.config.lean_version == "v4.19.0"
    assert fake.config.working_dir == str(tmp_path / "repl")
    server = LeanServer(fake.config)
    try:
        header = server.run(Command(cmd="import Mathlib"), timeout=10)
        resp = server.run(Command(cmd=SKETCH, env=header.env), timeout=10)  # type: ignore[union-attr]
        assert [s.proof_state for s in resp.sorries] == [0, 1]
        step = server.run(ProofStep(proof_state=0, tactic="linarith"), timeout=10)
        assert step.proof_status == "Completed"  # type: ignore[union-attr]
    finally:
        server.kill()
    assert fake.lake_calls() == [f"env {tmp_path / 'repl' / '.lake' / 'build' / 'bin' / 'repl'}"]
    kinds = [e["kind"] for e in fake.requests()]
    assert kinds == ["header", "cmd", "tactic"]
    assert fake.header_elaborations() == 1 and fake.process_starts() == 1


@pytest.mark.parametrize(
    ("rule", "exception", "text"),
    [
        ({"match": "BOOM", "crash": True}, ConnectionAbortedError, "closed unexpectedly"),
        ({"match": "BOOM", "garbage": True}, json.JSONDecodeError, "Could not parse"),
        ({"match": "BOOM", "oom": True}, ConnectionAbortedError, "INTERNAL PANIC: out of memory"),
        ({"match": "BOOM", "hang": True}, TimeoutError, "did not respond in time"),
    ],
    ids=["crash", "garbage", "oom", "hang"],
)
@pytest.mark.slow
def test_failure_modes_reach_lean_interact_as_lean_failures_would(
    tmp_path: Path, rule: dict[str, Any], exception: type[BaseException], text: str
) -> None:
    fake = make_fake_repl_config(tmp_path, rules=[rule], transcripts=False)
    server = LeanServer(fake.config)
    try:
        with pytest.raises(exception, match=text):
            server.run(Command(cmd="-- BOOM"), timeout=0.3)
    finally:
        server.kill()


@pytest.mark.slow
def test_memory_limit_is_enforced_on_the_fake_process(tmp_path: Path) -> None:
    """lean-interact's memory_hard_limit_mb (RLIMIT_AS) really applies to the fake: allocating past
    it kills the process the way Lean dies."""
    fake = make_fake_repl_config(tmp_path, rules=[{"match": "BIG", "alloc_mb": 1500}], transcripts=False, memory_limit_mb=1024)
    server = LeanServer(fake.config)
    try:
        assert server.run(Command(cmd="def x := 1"), timeout=10).env == 0  # type: ignore[union-attr]
        with pytest.raises(ConnectionAbortedError, match="out of memory"):
            server.run(Command(cmd="-- BIG"), timeout=10)
    finally:
        server.kill()

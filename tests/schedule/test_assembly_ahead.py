"""A sketch's assembly started ahead, beside the check that would complete it (schedule/assembly_ahead.py):
the unit on its own, with a recording stand-in for the budgeted verifier, then in the engine."""

from __future__ import annotations

import asyncio

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.lean.audit import _judge as judge
from lemmaforge.records import MemoryRecorder, ProblemRecord
from lemmaforge.schedule.assembly_ahead import AssemblyAhead
from lemmaforge.search.assemble import Solution, inline_file, inline_solution
from lemmaforge.search.tree import ProofTree
from tests.fakes.scripted import Answer, OneHavePlanner, ScriptedProver, TimedVerifier, wired_engine
from tests.search.scenarios import search_settings

# Virtual time (looptime): the stand-ins' delays and the tests' waits move the loop's clock, not
# the wall clock's; the order of events is what the delays say, however busy the machine.
pytestmark = pytest.mark.looptime

HEADER = "import Mathlib\n\n"
ROOT = "theorem p (x : ℕ) : x = x := by\n  sorry\n"
SKETCH_1 = "theorem p (x : ℕ) : x = x := by\n  have h : x + 0 = x := by sorry\n  sorry\n"
GOAL_1 = "theorem p_sub_1 (x : ℕ) : x + 0 = x := by\n  sorry\n"
SKETCH_2 = "theorem p_sub_1 (x : ℕ) : x + 0 = x := by\n  have a : 0 + x = x := by sorry\n  sorry\n"
GOAL_2 = "theorem p_sub_3 (x : ℕ) : 0 + x = x := by\n  sorry\n"
SKETCH_3 = "theorem p_sub_3 (x : ℕ) : 0 + x = x := by\n  have b : x = x := by sorry\n  sorry\n"


class AheadLog:
    """Stands in for the search's checks ahead (schedule/ahead.py `ChecksAhead`): records what starts and is dropped."""

    def __init__(self, room: bool = True) -> None:
        self.room = room
        self.started: list[str] = []
        self.dropped: list[str] = []

    def has_room(self) -> bool:
        return self.room

    def start(self, code: str) -> bool:
        if not self.room or code in self.started:
            return False
        self.started.append(code)
        return True

    def drop(self, code: str) -> None:
        self.dropped.append(code)


def _tree():
    """root -> sketch 1 (two holes: g1, g1b) -> g1's sketch 2 (two holes: g2, g2b) -> g2's sketch 3
    (two holes: leaf, leaf_b)."""
    tree = ProofTree()
    root = tree.add_goal(ROOT, depth=0)
    s1 = tree.add_sketch(SKETCH_1, parent_id=root.node_id, depth=0)
    g1 = tree.add_goal(GOAL_1, depth=1, parent_id=s1.node_id, hole_index=0)
    g1b = tree.add_goal("theorem p_sub_2 : True := by\n  sorry\n", depth=1, parent_id=s1.node_id, hole_index=1)
    s2 = tree.add_sketch(SKETCH_2, parent_id=g1.node_id, depth=1)
    g2 = tree.add_goal(GOAL_2, depth=2, parent_id=s2.node_id, hole_index=0)
    g2b = tree.add_goal("theorem p_sub_4 : True := by\n  sorry\n", depth=2, parent_id=s2.node_id, hole_index=1)
    s3 = tree.add_sketch(SKETCH_3, parent_id=g2.node_id, depth=2)
    leaf = tree.add_goal("theorem p_sub_5 : True := by\n  sorry\n", depth=3, parent_id=s3.node_id, hole_index=0)
    leaf_b = tree.add_goal("theorem p_sub_6 : True := by\n  sorry\n", depth=3, parent_id=s3.node_id, hole_index=1)
    return root, (s1, g1, g1b), (s2, g2, g2b), (s3, leaf, leaf_b)


def _probed(code: str) -> str:
    return code + "#probe\n"


def _opened(log: AheadLog, audit_text=_probed):
    ahead = AssemblyAhead(log, HEADER, theorem=ROOT, audit_text=audit_text)
    root, (s1, g1, g1b), (s2, g2, g2b), (s3, leaf, leaf_b) = _tree()
    ahead.open(s1, root, [g1, g1b])
    ahead.open(s2, g1, [g2, g2b])
    ahead.open(s3, g2, [leaf, leaf_b])
    return ahead, (s1, g1, g1b), (s2, g2, g2b), (s3, leaf, leaf_b)


def _files_up_to_the_root(leaf_b_solution: Solution) -> list[str]:
    """The assembly files of sketches 3, 2 and 1 (the root's: the audit's text) with the other holes
    solved as the tests below solve them."""
    level_3 = [Solution("omega"), leaf_b_solution]
    above_3 = inline_solution(SKETCH_3, level_3)
    assert above_3 is not None
    level_2 = [above_3, Solution("simp")]
    above_2 = inline_solution(SKETCH_2, level_2)
    assert above_2 is not None
    return [inline_file(HEADER, SKETCH_3, level_3), inline_file(HEADER, SKETCH_2, level_2),
            _probed(inline_file(HEADER, SKETCH_1, [above_2, Solution("trivial")], theorem=ROOT))]


def test_the_last_holes_check_starts_its_sketchs_assembly_and_each_one_above_up_to_the_roots_audit():
    log = AheadLog()
    ahead, (s1, g1, g1b), (s2, g2, g2b), (s3, leaf, leaf_b) = _opened(log)
    ahead.solved(g2b, Solution("simp"))
    ahead.solved(g1b, Solution("trivial"))
    ahead.solved(leaf, Solution("omega"))
    with ahead.pending(leaf_b, Solution("rfl")):
        file_3, file_2, audited_1 = _files_up_to_the_root(Solution("rfl"))
        # the sketch's own file, then its parent's with it, then the root's as its audit checks it
        assert log.started == [file_3, file_2, audited_1]
        assert file_3.endswith("  have b : x = x := by omega\n  rfl\n")
        assert audited_1.startswith(HEADER + "theorem p (x : ℕ) : x = x := by\n  have h : x + 0 = x := by\n")
    assert log.dropped == []
    ahead.close(s3.node_id)
    assert log.dropped == [file_3]  # never taken by the search: dropped (reported unused)


def test_a_root_file_the_audit_would_not_send_is_not_sent_ahead():
    log = AheadLog()
    ahead, (s1, g1, g1b), (s2, g2, g2b), (s3, leaf, leaf_b) = _opened(log, audit_text=lambda code: None)
    for hole, body in ((g2b, "simp"), (g1b, "trivial"), (leaf, "omega")):
        ahead.solved(hole, Solution(body))
    with ahead.pending(leaf_b, Solution("rfl")):
        assert log.started == _files_up_to_the_root(Solution("rfl"))[:2]


def test_nothing_starts_while_another_hole_is_open_or_lean_has_no_room():
    log = AheadLog()
    ahead, _, (s2, g2, g2b), (s3, leaf, leaf_b) = _opened(log)
    with ahead.pending(leaf_b, Solution("rfl")):
        assert log.started == []  # the first hole is still open
    ahead.solved(leaf, Solution("omega"))
    log.room = False
    with ahead.pending(leaf_b, Solution("rfl")):
        assert log.started == []  # a worker would not start it at once: not speculated
    log.room = True
    ahead.solved(g2b, Solution("simp"))
    with ahead.pending(leaf_b, Solution("rfl")):
        assert len(log.started) == 2  # up to sketch 2: the root's sketch has an open hole (g1b)


def test_a_hole_solved_while_the_last_ones_check_is_out_starts_the_assembly_then():
    log = AheadLog()
    ahead, _, _, (s3, leaf, leaf_b) = _opened(log)
    with ahead.pending(leaf_b, Solution("rfl")):
        assert log.started == []
        ahead.solved(leaf, Solution("omega"))
        assert log.started[0] == inline_file(HEADER, SKETCH_3, [Solution("omega"), Solution("rfl")])
    # the check answered (and lost): a sibling solved later starts nothing for it
    log.started.clear()
    ahead.solved(leaf, Solution("omega"))
    assert log.started == []


def test_the_file_started_ahead_is_the_one_assemble_checks_first_lemmas_included():
    from lemmaforge.search.assemble import assemble

    checked: list[str] = []

    async def check(code: str) -> bool:
        checked.append(code)
        return True

    solutions = [Solution("exact p_aux x", ("theorem p_aux (x : ℕ) : 0 + x = x := by simp",)), Solution("rfl")]
    solved = asyncio.run(assemble(HEADER, SKETCH_3, ["", ""], solutions, check))
    assert checked == [inline_file(HEADER, SKETCH_3, solutions)]
    assert checked[0].startswith(HEADER + "theorem p_aux")
    assert solved == inline_solution(SKETCH_3, solutions)


# --- in the engine ---------------------------------------------------------------------------------


def _hole(number: int) -> str:
    """What the lemma statement of hole `p_sub_<number>` contains (and, with at most 6 holes in these
    searches, no other hole's does)."""
    return f"p_sub_{number}"


EARLY, LATE = 0.01, 0.15
LATE_OK = Answer("ok", LATE)


def _prover(last_holes: Answer | list[Answer] = LATE_OK) -> ScriptedProver:
    """Fails the root sketch's holes (so each is sketched again), proves the holes below them. A
    lower sketch's holes are named in order (p_sub_3, p_sub_4; p_sub_5, p_sub_6): the last one's
    (even) answers late (`last_holes`), so the first is solved when its candidate's check goes out."""
    return ScriptedProver(["ok"], [EARLY], rules={_hole(1): Answer("bad", EARLY), _hole(2): Answer("bad", EARLY),
                                                 _hole(4): last_holes, _hole(6): last_holes})


def _lower_sketches(result) -> list[tuple[str, str]]:
    """(the goal's name, its last hole's name) for each sketch below the root's."""
    tree = result.tree
    out = []
    for sketch in tree.nodes():
        if sketch.kind == "sketch" and sketch.depth == 1:
            holes = tree.children(sketch.node_id)
            out.append((sketch.text.split()[1], holes[-1].text.split()[1]))
    return out


def _named(code: str) -> str:
    return code[len(HEADER):].split()[1]


async def _search(verifier: TimedVerifier, prover: ScriptedProver, *, max_depth: int, samples: int = 1,
                  samples_per_call: int = 0):
    """The root `p` searched with `OneHavePlanner` and `prover`: no whole-proof attempts, no automation,
    no corrections, one sketch per goal, model requests one step after another."""
    budget = BudgetConfig(root_whole_proof_attempts=0, prover_samples_per_goal=samples, self_corrections=0,
                          sketch_alternatives=1, max_depth=max_depth)
    engine = wired_engine(verifier, OneHavePlanner(), prover, recorder=MemoryRecorder(),
                          settings=search_settings(budget=budget, portfolio=(), speculation="prefetch",
                                                prover_samples_per_call=samples_per_call))
    return await asyncio.wait_for(engine.prove(ProblemRecord("t/p", "p", HEADER, ROOT)), timeout=10)


@pytest.mark.parametrize("room", [True, False])
async def test_in_a_search_a_sketchs_assembly_runs_beside_its_last_holes_check_only_with_room(room):
    verifier = TimedVerifier(room)
    result = await _search(verifier, _prover(), max_depth=2)
    assert result.proved

    codes = [code for code, _, _ in verifier.log]
    assert len(codes) == len(set(codes))  # the assembly started ahead is the one the search took
    lower = _lower_sketches(result)
    assert len(lower) == 2
    for goal, last_hole in lower:
        (assembly_started,) = [s for c, s, _ in verifier.log if _named(c) == goal and "sorry" not in c
                               and "bad" not in c]
        (candidate_answered,) = [e for c, _, e in verifier.log if _named(c) == last_hole]
        assert (assembly_started < candidate_answered) is room
    stats = result.stats
    # with room, each lower sketch's assembly (and, when timing lets it, the root's audit text)
    assert stats.checks_ahead >= 2 if room else stats.checks_ahead == 0
    assert stats.checks_ahead_unused == 0
    assert stats.checks == len(verifier.log)  # each started ahead was taken and charged once


async def test_a_last_hole_candidate_that_fails_leaves_its_assembly_ahead_unused_and_uncharged():
    # the last hole of each lower sketch gets a wrong candidate and a right one, together
    prover = _prover([Answer("bad", LATE), Answer("ok", LATE)])
    verifier = TimedVerifier(True)
    result = await _search(verifier, prover, max_depth=2, samples=2, samples_per_call=1)
    assert result.proved
    stats = result.stats
    # per lower sketch: a file ahead with the wrong candidate (never taken), one with the right one
    # (and, when timing lets it, the root's audit text)
    assert stats.checks_ahead >= 4 and stats.checks_ahead_unused == 2
    assert stats.checks == len(verifier.started)  # charged: all that was sent, taken or not
    assert stats.used_checks == stats.checks - 2


@pytest.mark.parametrize("room", [True, False])
async def test_the_roots_audit_check_runs_beside_its_sketchs_last_hole_check_only_with_room(room):
    # proves the root sketch's holes; the last one's candidate comes late
    prover = ScriptedProver(["ok"], [EARLY], rules={_hole(2): Answer("ok", LATE)})
    verifier = TimedVerifier(room)
    result = await _search(verifier, prover, max_depth=1)
    assert result.proved and result.proof is not None
    (audit_started,) = [s for c, s, _ in verifier.log if "#print axioms p" in c]
    (candidate_answered,) = [e for c, _, e in verifier.log if _named(c) == "p_sub_2"]
    assert (audit_started < candidate_answered) is room
    assert [c for c, _, _ in verifier.log if "#print axioms" in c] == [judge.with_probe(result.proof, judge.Probe.build("p", nonce=judge.nonce_for(result.proof)))]
    assert (result.stats.checks_ahead, result.stats.checks_ahead_unused) == ((1, 0) if room else (0, 0))
    assert result.stats.checks == len(verifier.log)

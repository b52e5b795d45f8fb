"""lemmaforge.lean.syntax (formerly lean.code) on real data: all DeepSeek-Prover-V2 miniF2F proofs (valid + test) and
every statement of the benchmark files. Each test walks the whole set and reports every failure
at once (one test per file would cost more in pytest overhead than the checks themselves)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from lemmaforge.lean import syntax as C
from lemmaforge.lean.syntax._steps import _all_steps
from tests.conftest import BENCHMARKS, REFERENCE_PROOFS, reference_proof_files

MINIF2F_HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n\nopen BigOperators Real Nat Topology Rat\n\n"
# Independent of the lexer: a line at the proof's base column starting a `have`/`obtain` whose
# text before `:=` has a type ascription ` : ` (`have h := e` states nothing).
TYPED_STEP_LINE = re.compile(r"^  (?:have|obtain)\b([^\n]*)$", re.MULTILINE)


@cache
def proofs() -> dict[str, str]:
    files = reference_proof_files()
    if len(files) != 438:
        pytest.fail(f"expected 438 reference proofs under {REFERENCE_PROOFS}, found {len(files)}")
    return {f"{p.parent.name}/{p.stem}": p.read_text() for p in files}


@cache
def benchmark(name: str) -> list[dict[str, Any]]:
    path = Path(BENCHMARKS) / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def statement(row: dict[str, Any]) -> str:
    return row["header"] + row["formal_statement"]


def typed_step_lines(proof: str) -> int:
    return sum(1 for m in TYPED_STEP_LINE.finditer(proof) if " : " in m.group(1).split(":=")[0])


def report(failures: list[Any], total: int) -> str:
    return f"{len(failures)}/{total} failed, e.g. {failures[:5]}"


# --- reference proofs --------------------------------------------------------------------------


@pytest.mark.slow
def test_reference_proofs_header_and_no_holes() -> None:
    failures = [
        name for name, p in proofs().items() if C.split_header(p)[0] != MINIF2F_HEADER or C.holes(p) != []
    ]
    assert not failures, report(failures, len(proofs()))


@pytest.mark.slow
def test_have_steps_match_an_independent_count() -> None:
    failures = []
    with_steps = 0
    for name, p in proofs().items():
        steps = C.have_steps(p)
        with_steps += bool(steps)
        if len(steps) != typed_step_lines(p) or any(not s.statement.strip() for s in steps):
            failures.append((name, len(steps), typed_step_lines(p)))
        elif any(p[s.start : s.end].split()[0] not in ("have", "obtain") for s in steps):
            failures.append((name, "extent"))
    assert not failures, report(failures, len(proofs()))
    assert with_steps > 300  # most DeepSeek proofs are chains of `have`s: the data is the right data


@pytest.mark.slow
def test_skeleton_fill_round_trip() -> None:
    failures = []
    exact = 0
    for name, p in proofs().items():
        sketch, pieces = C.skeleton(p)
        steps = C.have_steps(p)
        if len(pieces) != len(C.holes(sketch)) or len(C.have_steps(sketch)) != len(steps):
            failures.append((name, "hole/step count"))
            continue
        if any(s.proof != "by sorry" for s in C.have_steps(sketch)):
            failures.append((name, "sketch step proof is not `by sorry`"))
            continue
        back = C.fill(sketch, pieces)
        exact += back == p
        if C.normalize_whitespace(back) != C.normalize_whitespace(p):
            failures.append((name, "text"))
        # Stronger than the text: same tokens with the same spacing, same top-level structure.
        elif C.normalize_code(back) != C.normalize_code(p) or len(C.top_level_tactics(back)) != len(
            C.top_level_tactics(p)
        ):
            failures.append((name, "structure"))
        elif [(s.name, s.statement) for s in C.have_steps(back)] != [(s.name, s.statement) for s in steps]:
            failures.append((name, "steps"))
    assert not failures, report(failures, len(proofs()))
    # Single-line step proofs come back inline (`:= by linarith`), everything else verbatim.
    assert exact > len(proofs()) * 0.8


@pytest.mark.slow
def test_structure_consistency_of_own_sketch_and_with_a_step_removed() -> None:
    failures = []
    for name, p in proofs().items():
        sketch, _ = C.skeleton(p)
        if C.structure_consistency(sketch, p) != 1.0:
            failures.append((name, "own sketch"))
        steps = C.have_steps(p)
        if steps:
            victim = steps[len(steps) // 2]
            statement_elsewhere = sum(
                C.normalize_code(s.full_statement) == C.normalize_code(victim.full_statement) for s in _all_steps(p)
            )
            if statement_elsewhere > 1:
                continue  # the same statement is also proved elsewhere (nested): removal is invisible
            removed = p[: victim.start] + p[victim.end :]
            if not C.structure_consistency(sketch, removed) < 1.0:
                failures.append((name, "removed step not noticed"))
    assert not failures, report(failures, len(proofs()))


@pytest.mark.slow
def test_same_statement_as_minif2f() -> None:
    rows = {r["name"]: r for r in benchmark("minif2f")}
    matches, mismatches = 0, []
    for key, p in proofs().items():
        name = key.split("/", 1)[1]
        assert name in rows, f"{name} has no miniF2F row"
        if C.same_statement(statement(rows[name]), p):
            matches += 1
        else:
            mismatches.append(name)
    print(f"\nsame_statement: {matches}/{len(proofs())} reference proofs state the miniF2F theorem; "
          f"restated: {sorted(mismatches)}")
    # DeepSeek restated 9 problems (e.g. an extra `hn : n > 0`, re-parenthesized ∏/∑ bodies);
    # every other proof must be recognized.
    assert matches >= 425


# --- benchmark statements ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["minif2f", "minif2f_yangky11", "putnambench"])
def test_split_header_gives_the_header_field(name: str) -> None:
    rows = benchmark(name)
    failures = [r["name"] for r in rows if C.split_header(statement(r)) != (r["header"], r["formal_statement"])]
    assert not failures, report(failures, len(rows))


def test_proverbench_header_field_starts_with_split_header() -> None:
    # ProverBench's header field also carries docstrings, defs, axioms and helper lemmas: those
    # are declarations, not header commands, so split_header stops before them.
    rows = benchmark("proverbench")
    failures = [
        r["name"] for r in rows if not r["header"].startswith(C.split_header(statement(r))[0]) or not C.split_header(statement(r))[0]
    ]
    assert not failures, report(failures, len(rows))


@pytest.mark.parametrize("name", ["minif2f", "minif2f_yangky11"])
def test_minif2f_one_hole_at_the_end(name: str) -> None:
    rows = benchmark(name)
    failures = []
    for r in rows:
        code = statement(r)
        found = C.holes(code)
        thm = C.last_theorem(code)
        if len(found) != 1 or found[0].end != len(code.rstrip()) or found[0].position != "tactic":
            failures.append((r["name"], "holes"))
        elif thm is None or thm.name != r["name"] or not thm.type:
            failures.append((r["name"], "theorem"))
    assert not failures, report(failures, len(rows))


def test_putnambench_holes_answer_slots_and_proof_slot() -> None:
    rows = benchmark("putnambench")
    assert sum(r["has_solution_abbrev"] for r in rows) == 346
    failures = []
    for r in rows:
        code = statement(r)
        found = C.holes(code)
        thm = C.last_theorem(code)
        slots = C.answer_slots(code)
        expected = 1 + (1 if r["has_solution_abbrev"] else 0)
        if len(found) != expected or thm is None or thm.name != r["name"]:
            failures.append((r["name"], len(found)))
        elif thm.body_start is None or not thm.body_start <= found[-1].offset < thm.end:
            failures.append((r["name"], "last hole is not the proof slot"))
        elif len(slots) != expected - 1 or any(s.name != f"{r['name']}_solution" for s in slots):
            failures.append((r["name"], "answer slots"))
        elif any(h.position != "term" for h in found[:-1]):
            failures.append((r["name"], "answer hole not a term"))
    assert not failures, report(failures, len(rows))


def test_proverbench_holes() -> None:
    rows = {r["name"]: r for r in benchmark("proverbench")}
    failures = []
    for name, r in rows.items():
        code = statement(r)
        found = C.holes(code)
        thm = C.last_theorem(code)
        if not found or thm is None or thm.body_start is None or not thm.body_start <= found[-1].offset < thm.end:
            failures.append(name)
        elif len(C.holes(r["header"])) != len(found) - 1:
            failures.append((name, "header holes"))
    assert not failures, report(failures, len(rows))
    # The one row whose header has holes: two helper `lemma … := sorry` before the theorem.
    with_header_holes = [name for name, r in rows.items() if C.holes(r["header"])]
    assert with_header_holes == ["abstract_algebra__p30"]
    assert [h.position for h in C.holes(statement(rows["abstract_algebra__p30"]))] == ["term", "term", "tactic"]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["minif2f", "putnambench", "proverbench"])
def test_same_statement_on_benchmark_statements(name: str) -> None:
    rows = benchmark(name)
    failures = []
    for r in rows:
        code = statement(r)
        thm = C.last_theorem(code)
        assert thm is not None
        signature = code[thm.signature_start : thm.signature_start + len(thm.signature) + 1]
        reflowed = code.replace(signature, signature.replace("\n", "\n   -- comment\n      "), 1)
        if not C.same_statement(code, reflowed) or not C.same_statement(code, code.replace("sorry", "simp")):
            failures.append((r["name"], "reflowed"))
        type_at = code.index(thm.type, thm.signature_start)
        changed = code[:type_at] + thm.type + " ∧ True" + code[type_at + len(thm.type) :]
        name_end = thm.keyword_start + code[thm.keyword_start :].index(thm.name) + len(thm.name)
        renamed = code[:name_end] + "'" + code[name_end:]
        if C.same_statement(code, changed) or C.same_statement(code, renamed):
            failures.append((r["name"], "change not noticed"))
        proved = C.fill(code, {len(C.holes(code)) - 1: "simp"})
        if C.preamble_changed(code, proved):
            failures.append((r["name"], "preamble"))
    assert not failures, report(failures, len(rows))


@pytest.mark.parametrize("name", ["minif2f", "putnambench"])
def test_fill_benchmark_proof_slot(name: str) -> None:
    rows = benchmark(name)
    failures = []
    for r in rows:
        code = statement(r)
        found = C.holes(code)
        filled = C.fill(code, {len(found) - 1: "  intro x\n  nlinarith [sq_nonneg x]\n"})
        thm = C.last_theorem(filled)
        body = filled[thm.body_start :] if thm and thm.body_start else ""
        if len(C.holes(filled)) != len(found) - 1 or not C.same_statement(code, filled):
            failures.append((r["name"], "filled"))
        elif C.normalize_whitespace(body) != "by intro x nlinarith [sq_nonneg x]" or "\n  intro x\n  nlinarith" not in body:
            failures.append((r["name"], body))
    assert not failures, report(failures, len(rows))

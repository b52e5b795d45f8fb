"""`lemmaforge gen-data` / `training.export`: the three kinds of rows from a store, their TRL
conversational prompt–completion shape, dedup and cap, and no leakage of held-out problems.

The fixture store is written through `SqlRecorder` with the records the search engine emits, on
real miniF2F statements and DeepSeek-Prover-V2 reference proofs (valid split for training, test
split for the held-out problems); the sketch of a decomposed run is the `skeleton()` of a
reference proof. A second test runs the real `SearchEngine` (scripted planner, prover and Lean)
and exports what it wrote, so the reader is checked against the writer itself.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from lemmaforge.agent import prompts
from lemmaforge.benchmarks.datasets import load_dataset
from lemmaforge.cli.data import gen_data_command
from lemmaforge.db import SqlRecorder, Store
from lemmaforge.lean import syntax as lean_code
from lemmaforge.lean.lemmas import lemma_from_step
from lemmaforge.records import (
    AttemptRecord,
    LLMCallRecord,
    NodeCreated,
    NodeStatusChanged,
    ProblemRecord,
    ProofRecord,
    RunFinished,
    RunStarted,
)
from lemmaforge.search.cache import normalize_statement
from lemmaforge.training.export import collect, write
from lemmaforge.training.holdout import ExportError, Holdout, parse_dataset_spec
from lemmaforge.training.rewards import sketch_and_proof, structure_consistency_score
from lemmaforge.training.rows import COT_SECTIONS, KINDS, ROW_KEYS
from lemmaforge.training.sft import validate_sft_rows
from tests.conftest import REFERENCE_PROOFS

HOLDOUT = "minif2f:test"
PLAN = "PLAN: both variables are positive, so their product is; then clear the logarithms."


@dataclass(frozen=True)
class Pair:
    problem: ProblemRecord
    proof: str  # the reference file

    @property
    def theorem(self) -> str:
        decl = lean_code.last_theorem(self.problem.statement)
        assert decl is not None
        return self.problem.statement[decl.start :]

    def sketch(self) -> tuple[str, list[str]]:
        """The planner-style sketch of the reference proof (3 `have … := by sorry` holes, the
        closing tactics kept) and the 3 hole proofs."""
        _, body = lean_code.split_header(self.proof)
        decl = lean_code.last_theorem(body)
        assert decl is not None
        skel, pieces = lean_code.skeleton(body[decl.keyword_start :])
        sketch = lean_code.fill(skel, {len(pieces) - 1: pieces[-1]})
        assert len(lean_code.holes(sketch)) == 3
        return sketch, pieces[:-1]


def _pairs(split: str, n: int) -> list[Pair]:
    problems = {p.name: p for p in load_dataset("minif2f", split=split)}
    out = []
    for path in sorted((REFERENCE_PROOFS / split).glob("*.lean")):
        p = problems.get(path.stem)
        if p is None:
            continue
        proof = path.read_text(encoding="utf-8")
        if not lean_code.same_statement(p.code, proof) or len(lean_code.have_steps(proof)) != 3:
            continue
        _, pieces = lean_code.skeleton(proof)
        if any(type(x) is not str or x in ("skip", "sorry") for x in pieces):
            continue
        out.append(Pair(p.to_record(), proof))
        if len(out) == n:
            break
    assert len(out) == n
    return out


@pytest.fixture(scope="module")
def pairs(shared_data) -> dict[str, list[Pair]]:
    return {"valid": _pairs("valid", 2), "test": _pairs("test", 2)}


class RunWriter:
    """Emits one run's records the way `SearchEngine` does."""

    def __init__(self, rec: SqlRecorder, problem: ProblemRecord, run_id: str, parent: str | None = None) -> None:
        self.rec, self.problem, self.run_id = rec, problem, run_id
        self.header = problem.header
        self.n = 0
        rec.emit(problem)
        rec.emit(RunStarted(run_id, "prove", {}, {}, problem.problem_id, parent))

    def nid(self) -> str:
        self.n += 1
        return f"{self.run_id}-n{self.n}"

    def node(self, kind: str, depth: int, text: str, parent: str | None = None, hole: int | None = None) -> str:
        node_id = self.nid()
        self.rec.emit(NodeCreated(self.run_id, node_id, kind, depth, text, parent, hole))
        return node_id

    def attempt(self, node_id: str, strategy: str, verdict: str, code: str, output: str | None = None,
                call_id: str | None = None) -> None:
        self.rec.emit(AttemptRecord(self.run_id, self.nid(), node_id, strategy, verdict, code, output=output,
                                    llm_call_id=call_id))

    def call(self, role: str, text: str) -> str:
        call_id = self.nid()
        self.rec.emit(LLMCallRecord(self.run_id, call_id, role, "http://fake/v1", "fake", {}, [text], ["stop"]))
        return call_id

    def status(self, node_id: str, status: str, strategy: str | None = None, proof: str | None = None) -> None:
        self.rec.emit(NodeStatusChanged(self.run_id, node_id, status, strategy, proof))

    def proof(self, kind: str, statement: str, proof: str, node_id: str, strategy: str, depth: int) -> None:
        self.rec.emit(ProofRecord(self.run_id, self.nid(), kind, self.header, statement, normalize_statement(statement),
                                  proof, problem_id=self.problem.problem_id, node_id=node_id, strategy=strategy,
                                  depth=depth))

    def finish(self, proved: bool = True) -> None:
        self.rec.emit(RunFinished(self.run_id, "proved" if proved else "not_proved", {}))

    # -- whole runs ----------------------------------------------------------------------------

    def direct(self, proof_file: str) -> None:
        root = self.node("goal", 0, self.problem.statement)
        call = self.call("prover", lean_block(proof_file))
        self.attempt(root, "prover", "valid", proof_file, output=lean_block(proof_file), call_id=call)
        _, body = lean_code.split_header(proof_file)
        self.status(root, "solved", "prover", body)
        self.attempt(root, "assembly", "valid", proof_file)
        self.proof("whole", self.problem.statement, proof_file, root, "prover", 0)
        self.finish()

    def decomposed(self, pair: Pair, held_out_lemma: str) -> tuple[str, list[str]]:
        """Root: the prover fails; sketch 1 (abandoned: hole 0 proved — it states a held-out
        theorem —, hole 1 failed); sketch 2 drafted with an error, corrected, 3 holes proved by
        the prover and automation, assembled inline. Plus a lemma-style solved goal (no proof
        record). Returns the sketch and the 3 lemmas."""
        theorem = pair.theorem
        root = self.node("goal", 0, theorem)
        self.attempt(root, "prover", "error", self.header + lean_code.fill(theorem, ["bogus_tactic"]))
        # sketch 1, abandoned
        bad_sketch = theorem.replace(":= by\n  sorry", ":= by\n  have k : 1 = 1 := by sorry\n  sorry")
        self.attempt(root, "planner", "incomplete", self.header + bad_sketch, output=planner_output("other", bad_sketch))
        s1 = self.node("sketch", 0, bad_sketch, root)
        g0 = self.node("goal", 1, held_out_lemma, s1, 0)
        self.status(g0, "solved", "automation", "nlinarith")
        self.proof("subgoal", held_out_lemma, "nlinarith", g0, "automation", 1)
        g1 = self.node("goal", 1, theorem.replace(pair.problem.name, "k_sub_2", 1), s1, 1)
        self.status(g1, "failed")
        self.status(s1, "abandoned")
        # sketch 2: draft with an error, corrected
        sketch, pieces = pair.sketch()
        draft = sketch.replace("have", "have bad_tactic_here", 1)
        call = self.call("planner", planner_output(PLAN, draft))
        self.attempt(root, "planner", "error", self.header + draft, output=planner_output(PLAN, draft), call_id=call)
        fix = f"The error was a malformed step name; here is the fixed sketch.\n\n{lean_block(sketch)}"
        self.attempt(root, "sketch_correction", "incomplete", self.header + sketch, output=fix)
        s2 = self.node("sketch", 0, sketch, root)
        lemmas = []
        for i, piece in enumerate(pieces):
            lemma = lemma_from_step(sketch, i, include_previous=True, name=f"{pair.problem.name}_sub_{i + 3}")
            lemmas.append(lemma)
            g = self.node("goal", 1, lemma, s2, i)
            strategy = "automation" if i == 0 else "prover"
            self.attempt(g, strategy, "valid", self.header + lean_code.fill(lemma, [piece]))
            self.status(g, "solved", strategy, piece)
            self.proof("subgoal", lemma, piece, g, strategy, 1)
        inline = lean_code.fill(sketch, pieces)
        self.attempt(s2, "assembly", "valid", self.header + inline)
        self.status(s2, "solved", "assembly", "...")
        self.status(root, "solved", "planner", "...")
        # a goal solved lemma-style: its proof applies lemmas that only exist in the assembled file
        s3 = self.node("sketch", 1, sketch, root)
        g3 = self.node("goal", 2, lemmas[1], s3, 1)
        self.status(g3, "solved", "planner", "apply k_sub_9 <;> assumption")
        self.proof("whole", self.problem.statement, self.header + inline, root, "planner", 1)
        self.finish()
        return sketch, lemmas


def lean_block(code: str) -> str:
    return f"Here is the proof.\n\n```lean4\n{code.strip()}\n```\n"


def planner_output(plan: str, sketch: str) -> str:
    return f"### Informal Proof\n\n{plan}\n\n### Lean 4 Sketch\n\n```lean4\n{sketch.strip()}\n```\n"


def renamed(statement: str, new: str) -> str:
    decl = lean_code.last_theorem(statement)
    assert decl is not None
    return re.sub(rf"\b{re.escape(decl.name)}\b", new, statement, count=1)


def reformatted(proof: str) -> str:
    """The same proof with a comment and different blank lines / spacing."""
    return proof.replace(":= by\n", ":= by\n  -- a comment the normalizer drops\n\n", 1).replace("\n", "\n\n", 1)


@pytest.fixture(scope="module")
def store_db(tmp_path_factory, pairs) -> dict:
    """A store with: a bench run whose children are a direct proof of valid problem P1 and of
    held-out test problem T1; P1 proved again (same proof reformatted, and a different proof);
    valid problem P2 solved through a 3-hole sketch; a renamed copy of test problem T2 proved."""
    path = tmp_path_factory.mktemp("store") / "runs.db"
    url = f"sqlite:///{path}"
    store = Store(url)
    rec = SqlRecorder(store)
    p1, p2 = pairs["valid"]
    t1, t2 = pairs["test"]
    rec.emit(RunStarted("bench", "bench", {}, {}))
    RunWriter(rec, p1.problem, "direct-1", parent="bench").direct(p1.proof)
    RunWriter(rec, t1.problem, "heldout-1", parent="bench").direct(t1.proof)
    rec.emit(RunFinished("bench", "proved", {}))
    RunWriter(rec, p1.problem, "direct-1-dup").direct(reformatted(p1.proof))
    other = p1.proof.rstrip() + "\n  all_goals norm_num\n"
    RunWriter(rec, p1.problem, "direct-1-alt").direct(other)
    held_lemma = renamed(t2.problem.statement, f"{p2.problem.name}_sub_1")
    sketch, lemmas = RunWriter(rec, p2.problem, "sketch-2").decomposed(p2, held_lemma)
    copy = replace(t2.problem, problem_id="adhoc/renamed_copy/0", name="renamed_copy", dataset="adhoc",
                   statement=renamed(t2.problem.statement, "renamed_copy"))
    RunWriter(rec, copy, "copy-1").direct(renamed(t2.proof, "renamed_copy"))
    rec.close()
    return {"url": url, "store": store, "p1": p1, "p2": p2, "t1": t1, "t2": t2, "sketch": sketch, "lemmas": lemmas}


def _names(rows):
    return sorted({r["name"] for r in rows})


def test_dataset_spec_parsing(tmp_path):
    assert parse_dataset_spec("minif2f:test") == ("minif2f", "test")
    assert parse_dataset_spec("minif2f") == ("minif2f", None)
    assert parse_dataset_spec("hf:org/ds:cfg:valid") == ("hf:org/ds:cfg", "valid")
    f = tmp_path / "a:b.jsonl"
    f.write_text("", encoding="utf-8")
    assert parse_dataset_spec(str(f)) == (str(f), None)


def test_three_kinds_shapes_and_holdout(store_db):
    held = Holdout.load([HOLDOUT])
    assert held.problems == 244
    result = collect(store_db["store"], holdout=held)
    p1, p2 = store_db["p1"].problem, store_db["p2"].problem

    # every row: TRL conversational prompt–completion, one schema
    all_rows = result.train_rows()
    validate_sft_rows(all_rows)
    from trl.data_utils import is_conversational

    for row in all_rows:
        assert tuple(row) == ROW_KEYS
        assert is_conversational(row)
        assert [m["role"] for m in row["prompt"]] == ["user"]
        assert [m["role"] for m in row["completion"]] == ["assistant"]
        assert row["prompt"][0]["content"].startswith(prompts.PROVER_INSTRUCTION)
        assert row["verified"] is True

    # non-CoT: P1 twice (the reformatted copy is a duplicate), P2 once; test problems never
    sft = result.rows["sft"]
    assert _names(sft) == sorted([p1.name, p2.name])
    assert len(sft) == 3 and result.counts["duplicates"]["sft"] == 1
    row = next(r for r in sft if r["run_id"] == "direct-1")
    # the prompt carries the problem's informal statement as the theorem's docstring (DS-Prover-V2)
    assert p1.informal
    assert row["prompt"] == prompts.prover_messages(p1.header, p1.statement, cot=False, informal=p1.informal)
    assert f"/-- {p1.informal.strip()}-/\ntheorem " in row["prompt"][0]["content"]
    assert row["completion"][0]["content"] == f"```lean4\n{store_db['p1'].proof.strip()}\n```"
    assert (row["header"], row["statement"], row["problem_id"]) == (p1.header, p1.statement, p1.problem_id)

    # CoT: only the decomposed problem, DeepSeek-Prover-V2's 4 sections in order
    (cot,) = result.rows["cot"]
    assert cot["name"] == p2.name and cot["depth"] == 1 and cot["strategy"] == "planner"
    assert cot["prompt"] == prompts.prover_messages(p2.header, p2.statement, cot=True, informal=p2.informal)
    text = cot["completion"][0]["content"]
    positions = [text.index(s) for s in COT_SECTIONS]
    assert positions == sorted(positions) and positions[0] == 0
    analysis = text[positions[0] : positions[1]]
    assert PLAN in analysis and "The error was" not in analysis and "```" not in analysis
    sketch_block, proof_block = sketch_and_proof(text)
    assert sketch_block.strip() == store_db["sketch"].strip()
    assert "sorry" not in proof_block and lean_code.same_statement(p2.header + p2.statement, proof_block)
    assert structure_consistency_score(text) == 1.0
    plan = text[positions[1] : positions[2]]
    assert all(f"`{s.name} :" in plan for s in lean_code.have_steps(store_db["sketch"]))

    # subgoals: the 3 holes of the winning sketch (type b, as verified); the abandoned sketch's
    # lemma states a held-out theorem and is dropped
    sub = result.rows["subgoal"]
    assert sorted(r["statement"] for r in sub) == sorted(store_db["lemmas"])
    for r in sub:
        assert r["lemma_type"] == "b" and r["problem_id"] == p2.problem_id
        assert r["prompt"] == prompts.prover_messages(r["header"], r["statement"], cot=False)  # a subgoal: no informal
        code = r["completion"][0]["content"]
        assert code.startswith("```lean4\nimport Mathlib") and "sorry" not in code
        assert lean_code.same_statement(r["statement"], code)

    # curriculum statements: type b (verified) and type a for the steps with earlier steps (the
    # first step's type a IS its type b); type a has no proof anywhere
    stmts = result.statements
    assert sorted(s["lemma_type"] for s in stmts) == ["a", "a", "b", "b", "b"]
    for s in stmts:
        assert s["verified"] is (s["lemma_type"] == "b")
        assert set(s) >= {"prompt", "header", "statement", "name"}
    a_texts = [s["statement"] for s in stmts if s["lemma_type"] == "a"]
    steps = lean_code.have_steps(store_db["sketch"])
    assert all(steps[0].name not in re.sub(r"theorem \S+", "", a) for a in a_texts)
    assert not any(a in {r["statement"] for r in sub} for a in a_texts)

    # leakage: nothing of the held-out problems, by name, by statement (renamed copy, subgoal)
    counts = result.counts
    assert counts["excluded"]["by_name"] == {"sft": 1}
    assert counts["excluded"]["by_statement"] == {"sft": 1, "subgoal": 1}
    assert set(counts["excluded"]["problems"]) == {store_db["t1"].problem.problem_id, "adhoc/renamed_copy/0",
                                                  p2.problem_id}
    leaked = held.statements
    for r in [*all_rows, *stmts]:
        assert r["name"] not in held.names
        for t in (store_db["t1"], store_db["t2"]):
            assert normalize_statement(t.theorem) != normalize_statement(r["statement"])
        from lemmaforge.training.holdout import statement_key

        assert statement_key(r["statement"]) not in leaked
    assert counts["skipped"] == {"subgoal_not_standalone": 1}


def test_without_holdout_and_cap(store_db):
    result = collect(store_db["store"])
    assert len(result.rows["sft"]) == 5  # the held-out run and the renamed copy are back
    assert len(result.rows["subgoal"]) == 4
    capped = collect(store_db["store"], holdout=Holdout.load([HOLDOUT]), max_per_statement=1)
    assert len(capped.rows["sft"]) == 2 and capped.counts["capped"]["sft"] == 1
    assert [r["run_id"] for r in capped.rows["sft"] if r["name"] == store_db["p1"].problem.name] == ["direct-1"]


def test_run_selection(store_db):
    bench = collect(store_db["store"], runs=["bench"], kinds=["sft"])
    assert sorted(r["run_id"] for r in bench.rows["sft"]) == ["direct-1", "heldout-1"]
    assert set(bench.rows) == {"sft"} and bench.statements == []
    with pytest.raises(ExportError, match="unknown run"):
        collect(store_db["store"], runs=["nope"])
    with pytest.raises(ExportError, match="unknown kind"):
        collect(store_db["store"], kinds=["dpo"])


def test_write_files_and_hf(store_db, tmp_path):
    result = collect(store_db["store"], holdout=Holdout.load([HOLDOUT]))
    files = write(result, tmp_path / "out", hf_dir=tmp_path / "hf")
    for kind in KINDS:
        lines = Path(files[kind]).read_text(encoding="utf-8").splitlines()
        assert [json.loads(x) for x in lines] == result.rows[kind]
    assert len(Path(files["train"]).read_text(encoding="utf-8").splitlines()) == result.total
    manifest = json.loads(Path(files["manifest"]).read_text(encoding="utf-8"))
    assert manifest["rows"] == {"sft": 3, "cot": 1, "subgoal": 3} and manifest["excluded"]["total"] == 3
    # the curriculum file is a problem set that load_dataset (and expert-iter --statements) reads
    problems = load_dataset(files["statements"])
    assert len(problems) == 5 and len({p.name for p in problems}) == 5
    from datasets import load_from_disk

    dd = load_from_disk(str(tmp_path / "hf"))
    assert set(dd) == {"sft", "cot", "subgoal", "statements"}
    assert dd["cot"][0]["completion"][0]["role"] == "assistant"


def _cli() -> typer.Typer:
    app = typer.Typer()
    app.command("gen-data")(gen_data_command)
    app.command("noop")(lambda: None)  # a second command keeps `gen-data` a named subcommand
    return app


def test_gen_data_cli(store_db, tmp_path):
    runner = CliRunner()
    out = tmp_path / "o"
    r = runner.invoke(_cli(), ["gen-data", "--db", store_db["url"], "--out", str(out), "--holdout", HOLDOUT,
                               "--max-per-statement", "1", "--json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert summary["rows"] == {"sft": 2, "cot": 1, "subgoal": 3}
    assert summary["excluded"]["by_name"] == {"sft": 1} and summary["capped"]["sft"] == 1
    assert (out / "statements.jsonl").is_file()
    r = runner.invoke(_cli(), ["gen-data", "--db", store_db["url"], "--out", str(out), "--runs", "bench",
                               "--kinds", "cot"])
    assert r.exit_code == 1  # the bench runs hold no decomposition: nothing to write
    for args, message in [
        (["--kinds", "sft,dpo"], "unknown kind"),
        (["--runs", "nope"], "unknown run"),
        (["--holdout", "no_such_dataset:test"], "--holdout"),
        (["--db", f"sqlite:///{tmp_path / 'none.db'}"], "no database at"),
    ]:
        r = runner.invoke(_cli(), ["gen-data", "--db", store_db["url"], "--out", str(out), *args])
        assert not (tmp_path / "none.db").exists()
        assert r.exit_code == 2, r.output
        lines = [ln for ln in r.output.strip().splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], r.output


# --- the real engine writes what the exporter reads --------------------------------------------------


def test_export_of_an_engine_run(tmp_path, pairs):
    from lemmaforge.config import BudgetConfig
    from lemmaforge.search.engine import SearchEngine
    from tests.fakes.scripted import ScriptedProver, ScriptedVerifier, SketchOnce
    from tests.search.scenarios import search_settings

    pair = pairs["valid"][1]
    sketch, _ = pair.sketch()
    raw = planner_output(PLAN, sketch)

    planner = SketchOnce(sketch=sketch, informal=PLAN, raw=raw)
    prover = ScriptedProver(["bogus_tactic"])  # fails on the root; the holes are closed by automation

    url = f"sqlite:///{tmp_path / 'engine.db'}"
    store = Store(url)
    recorder = SqlRecorder(store)
    options = search_settings(budget=BudgetConfig(root_whole_proof_attempts=1, self_corrections=0),
                            portfolio=("linarith",))
    engine = SearchEngine(ScriptedVerifier(), planner, prover, recorder=recorder, settings=options)
    result = asyncio.run(engine.prove(pair.problem))
    recorder.close()
    assert result.proved and result.depth == 1
    export = collect(store)
    assert len(export.rows["sft"]) == 1 and len(export.rows["cot"]) == 1
    text = export.rows["cot"][0]["completion"][0]["content"]
    assert PLAN in text and structure_consistency_score(text) == 1.0
    assert len(export.rows["subgoal"]) == 3
    # automation's proof: the tactic itself, never a `first | …` portfolio
    from lemmaforge.search.automation import is_portfolio

    for r in export.rows["subgoal"]:
        content = r["completion"][0]["content"]
        assert "linarith" in content and not is_portfolio(content) and "first" not in content

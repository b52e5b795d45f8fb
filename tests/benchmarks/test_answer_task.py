"""PutnamBench's answer task through `lemmaforge bench --answers fill` and `lemmaforge report`,
on real PutnamBench rows (trishullab/PutnamBench @ 3c9b9268ebd132d482938b8e9d242dd71fc1ebc0,
lean4/src/<name>.lean; the reference answer is the `-- …` comment under each solution abbrev),
with a scripted fake model and the fake Kimina server."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db import Store
from tests.benchmarks.bench_helpers import ENV, fake_lean, lean_block
from tests.fakes.fake_kimina import FakeKimina
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()

RIGHT = "putnam_1963_b1"  # abbrev putnam_1963_b1_solution : ℤ := sorry  -- 2
OTHER = "putnam_1962_a5"  # abbrev putnam_1962_a5_solution : ℕ → ℕ := sorry  -- fun n : ℕ => n * (n + 1) * 2^(n - 2)
RETYPED = "putnam_1965_a1"  # noncomputable abbrev putnam_1965_a1_solution : ℝ := sorry  -- Real.pi / 15
LEFT = "putnam_1963_b2"
PLAIN = "putnam_1962_a1"  # no answer slot: an ordinary problem in every mode


def _proof(name: str, abbrev: str, tactic: str = "norm_num") -> str:
    return lean_block(f"{abbrev}\n\ntheorem {name} : True := by\n  {tactic}\n")


def _script(llm: FakeOpenAIServer) -> None:
    def rule(name: str, reply: str, before: str = "") -> None:
        llm.add_rule(rf"{before}theorem {re.escape(name)}\b", reply)

    rule(RIGHT, _proof(RIGHT, "abbrev putnam_1963_b1_solution : ℤ := (2)"))
    rule(OTHER, _proof(OTHER, "abbrev putnam_1962_a5_solution : ℕ → ℕ := fun n => n ^ 2"))
    rule(RETYPED, _proof(RETYPED, "noncomputable abbrev putnam_1965_a1_solution : ℕ := 3"))
    rule(LEFT, _proof(LEFT, "abbrev putnam_1963_b2_solution : Prop := sorry"))
    rule(PLAIN, lean_block(f"theorem {PLAIN} : True := by\n  norm_num\n"))


def _bench(kimina: FakeKimina, llm: FakeOpenAIServer, db: str, names: list[str], *extra: str) -> object:
    return runner.invoke(app, ["bench", "putnambench", "--names", ",".join(names), "--verifier", "kimina",
                               "--kimina-url", kimina.url, "--prover-url", llm.url, "--db", db, "--no-progress",
                               *extra], env=ENV)


def _servers() -> tuple[FakeKimina, FakeOpenAIServer]:
    default = lean_block("theorem wrong : True := by\n  bad_tactic\n")
    return FakeKimina(responder=fake_lean()), FakeOpenAIServer(default=default)


def test_the_model_fills_the_answers_and_the_report_matches_them(tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 'a.db'}"
    kimina, llm = _servers()
    with kimina, llm:
        _script(llm)
        r = _bench(kimina, llm, db, [RIGHT, OTHER, RETYPED, LEFT, PLAIN], "--answers", "fill",
                   "--protocol", "whole-proof", "--run-id", "A", "--json")
        assert r.exit_code == 0, r.output
        # the model never sees the reference answer; it sees the slot it must fill
        prompts = [q.text for q in llm.requests]
        assert any("putnam_1963_b1_solution : ℤ := sorry" in t for t in prompts)
        assert not any("-- 2\n" in t or "2^(n - 2)" in t for t in prompts)
    rep = json.loads(runner.invoke(app, ["report", "A", "--db", db, "--json"]).stdout)
    by_name = {x["name"]: x for x in rep["answer_task"]["problems"]}
    assert by_name[RIGHT]["status"] == "proved" and by_name[RIGHT]["answer"] == "match"
    assert by_name[RIGHT]["values"] == {"putnam_1963_b1_solution": "(2)"}
    assert by_name[RIGHT]["reference"] == {"putnam_1963_b1_solution": "2"}
    # Lean (the fake) accepts a different answer: proved, but a person must look
    assert by_name[OTHER]["status"] == "proved" and by_name[OTHER]["answer"] == "needs review"
    assert by_name[RETYPED]["status"] == "not proved" and by_name[RETYPED]["answer"] == "refused"
    assert "changed answer declaration" in by_name[RETYPED]["refused"]
    assert by_name[LEFT]["status"] == "not proved" and by_name[LEFT]["answer"] == "refused"
    assert "left `sorry`" in by_name[LEFT]["refused"]
    assert PLAIN not in by_name  # no answer slot: an ordinary problem
    assert rep["answer_task"]["totals"] == {"problems": 4, "proved_answer_matches": 1,
                                            "proved_answer_needs_review": 1, "not_proved": 2}
    assert rep["solved"] == 3  # RIGHT, OTHER and the plain problem
    store = Store(db)
    # the stored proof holds the model's answer in place of the slot's sorry, and nothing else changed
    run = next(x for x in store.runs(parent="A") if x.problem_id == f"putnambench/{RIGHT}")
    proof = store.proofs(run_id=run.run_id, kind="whole")[0].proof
    assert "abbrev putnam_1963_b1_solution : ℤ := (2)" in proof and "sorry" not in proof
    # the stored problem is the dataset's, not the model's
    assert ":= sorry" in store.problem(f"putnambench/{RIGHT}").statement
    text = runner.invoke(app, ["report", "A", "--db", db]).stdout
    assert "answer task: 4 problem(s) with answer slots: 1 proved with a matching answer, " \
           "1 proved with an answer that needs review, 2 not proved" in text
    assert f"{OTHER}: proved, answer needs review (filled `fun n => n ^ 2`; reference " in text
    assert f"{RETYPED}: not proved, answer refused: changed answer declaration" in text
    html = tmp_path / "a.html"
    assert runner.invoke(app, ["report", "A", "--db", db, "--html", str(html)]).exit_code == 0
    page = html.read_text()
    assert "1 proved with a matching answer" in page and f"{RIGHT}: proved, answer match" in page


def test_a_wrong_answer_lean_refuses_is_not_proved(tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 'w.db'}"
    kimina, llm = _servers()
    with kimina, llm:
        llm.add_rule(rf"theorem {RIGHT}\b", _proof(RIGHT, "abbrev putnam_1963_b1_solution : ℤ := 3", "bad_tactic"))
        r = _bench(kimina, llm, db, [RIGHT], "--answers", "fill", "--protocol", "whole-proof", "--run-id", "W",
                   "--json")
        assert r.exit_code == 0, r.output
        assert llm.count("chat") == 1  # whole-proof: exactly one sample per attempt, the answer's
    rep = json.loads(runner.invoke(app, ["report", "W", "--db", db, "--json"]).stdout)
    (row,) = rep["answer_task"]["problems"]
    assert row["status"] == "not proved" and row["values"] == {"putnam_1963_b1_solution": "3"}
    assert row["answer"] == "needs review"
    assert rep["answer_task"]["totals"]["not_proved"] == 1


def test_search_goes_on_with_the_models_answer(tmp_path) -> None:
    """The first file's proof fails; the search (budget left) proves the theorem with that answer."""
    db = f"sqlite:///{tmp_path / 's.db'}"
    kimina, llm = _servers()
    with kimina, llm:
        llm.add_rule(r"putnam_1963_b1_solution : ℤ := sorry",
                     _proof(RIGHT, "abbrev putnam_1963_b1_solution : ℤ := 2", "bad_tactic"))
        llm.add_rule(r"putnam_1963_b1_solution : ℤ := 2", lean_block(f"theorem {RIGHT} : True := by\n  norm_num\n"))
        r = _bench(kimina, llm, db, [RIGHT], "--answers", "fill", "--run-id", "S", "--json",
                   "--budget", "root_whole_proof_attempts=2", "--budget", "self_corrections=0")
        assert r.exit_code == 0, r.output
    rep = json.loads(runner.invoke(app, ["report", "S", "--db", db, "--json"]).stdout)
    (row,) = rep["answer_task"]["problems"]
    assert row["status"] == "proved" and row["answer"] == "match"
    store = Store(db)
    (run,) = [x for x in store.runs(parent="S") if x.problem_id == f"putnambench/{RIGHT}"]
    assert run.summary["calls"] >= 2  # the answer sample is charged to the attempt
    assert ":= sorry" in store.problem(f"putnambench/{RIGHT}").statement


@pytest.mark.slow
def test_slots_and_inlined_say_what_they_are(tmp_path) -> None:
    db = f"sqlite:///{tmp_path / 'l.db'}"
    kimina, llm = _servers()
    with kimina, llm:
        for answers, run_id in (("slots", "L"), ("inlined", "I")):
            r = _bench(kimina, llm, db, [RIGHT, PLAIN], "--answers", answers, "--protocol", "whole-proof",
                       "--run-id", run_id, "--json")
            assert r.exit_code == 0, r.output
    slots = json.loads(runner.invoke(app, ["report", "L", "--db", db, "--json"]).stdout)
    assert slots["answer_task"]["mode"] == "slots"
    assert slots["answer_task"]["label"].startswith("slots: lower bound")
    inlined = json.loads(runner.invoke(app, ["report", "I", "--db", db, "--json"]).stdout)
    assert inlined["answer_task"]["label"].startswith("inlined: answers given")
    assert "slots: lower bound" in runner.invoke(app, ["report", "L", "--db", db]).stdout
    assert "inlined: answers given" in runner.invoke(app, ["report", "I", "--db", db]).stdout
    html = tmp_path / "r.html"
    assert runner.invoke(app, ["report", "L", "--db", db, "--html", str(html)]).exit_code == 0
    assert "slots: lower bound" in html.read_text()


def test_fill_without_a_prover_is_refused(tmp_path) -> None:
    r = runner.invoke(app, ["bench", "putnambench", "--names", RIGHT, "--answers", "fill", "--planner-url",
                            "http://127.0.0.1:9", "--db", f"sqlite:///{tmp_path / 'n.db'}", "--no-progress"], env=ENV)
    assert r.exit_code == 2
    assert "--answers fill needs a prover" in r.stderr
    bad = runner.invoke(app, ["bench", "putnambench", "--answers", "guess", "--prover-url", "http://127.0.0.1:9",
                              "--db", f"sqlite:///{tmp_path / 'n.db'}", "--no-progress"], env=ENV)
    assert bad.exit_code == 2 and "--answers must be 'slots', 'inlined' or 'fill'" in bad.stderr


@pytest.mark.slow
def test_a_resumed_fill_bench_still_fills_after_a_slots_bench_shared_the_problem(tmp_path) -> None:
    """Problem rows are shared by the benches of a store: a `slots` bench in between must not turn
    the resumed `fill` bench's attempts into slot attempts."""
    db = f"sqlite:///{tmp_path / 'r.db'}"
    kimina, llm = _servers()
    with kimina, llm:
        _script(llm)
        llm.fail_always(503)  # the endpoint is down: the fill bench stops, resumable
        r = _bench(kimina, llm, db, [RIGHT], "--answers", "fill", "--protocol", "whole-proof", "--run-id", "F")
        assert r.exit_code == 2, r.output
        llm.fail_always(None)
        r = _bench(kimina, llm, db, [RIGHT], "--answers", "slots", "--protocol", "whole-proof", "--run-id", "G")
        assert r.exit_code == 0, r.output
        r = runner.invoke(app, ["bench", "--resume", "F", "--db", db, "--no-progress", "--json"], env=ENV)
        assert r.exit_code == 0, r.output
    rep = json.loads(runner.invoke(app, ["report", "F", "--db", db, "--json"]).stdout)
    (row,) = rep["answer_task"]["problems"]
    assert row["status"] == "proved" and row["answer"] == "match"
    slots = json.loads(runner.invoke(app, ["report", "G", "--db", db, "--json"]).stdout)
    assert slots["solved"] == 0  # the slot stays sorry: the theorem depends on sorryAx


def test_a_jsonl_of_ones_own_with_an_answer_slot(tmp_path) -> None:
    """Not only PutnamBench: any row whose statement has `abbrev … := sorry` before its theorem,
    the reference in a `--` comment under it (PutnamBench's layout), runs the answer task."""
    rows = tmp_path / "mine.jsonl"
    statement = ("abbrev mine_solution : ℕ := sorry\n-- 2 + 3\n"
                 "theorem mine : mine_solution = 5 := by\n  sorry")
    rows.write_text(json.dumps({"name": "mine", "header": "import Mathlib\n", "formal_statement": statement}) + "\n")
    db = f"sqlite:///{tmp_path / 'm.db'}"
    kimina, llm = _servers()
    with kimina, llm:
        llm.add_rule(r"theorem mine\b", _proof("mine", "abbrev mine_solution : ℕ := 2+3", "rfl"))
        r = runner.invoke(app, ["bench", str(rows), "--answers", "fill", "--protocol", "whole-proof", "--verifier",
                                "kimina", "--kimina-url", kimina.url, "--prover-url", llm.url, "--db", db,
                                "--no-progress", "--run-id", "M", "--json"], env=ENV)
        assert r.exit_code == 0, r.output
        assert not any("2 + 3" in q.text for q in llm.requests_to("chat"))  # the reference stays hidden
    rep = json.loads(runner.invoke(app, ["report", "M", "--db", db, "--json"]).stdout)
    (row,) = rep["answer_task"]["problems"]
    assert (row["status"], row["answer"], row["values"]) == ("proved", "match", {"mine_solution": "2+3"})

"""`lemmaforge prove` end to end on what real provers write (issue 36, point 2): a proof that calls
its own helper lemma, a chain of thought cut off by `max_tokens` after one complete block, and a
self-correction turn that shows Lean's error from its start to its end. The fake OpenAI server
plays the prover, the fake Kimina server plays Lean, the store is a real SQLite file.

The fake Lean knows what these scenarios need: `my_aux` is an unknown identifier unless the
checked file declares `lemma my_aux`, and `bad_multi` … `bad_tail` (over two lines) is one error
whose range is the whole match.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db import Store
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer, Reply
from tests.search.scenarios import (
    DEFS,
    HEADER,
    SKETCH,
    THEOREM,
    add_planner,
    add_prover,
    closing_hole_rule,
    lean_block,
    lemma_head,
)

runner = CliRunner()
ENV = {
    "LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01", "LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all",
    "LEMMAFORGE_PROVER__BACKOFF": "0.01", "LEMMAFORGE_PROVER__RETRIES": "1",
}
HEAD = "theorem t (x : ℕ) (h : A x) : D x := by"
AUX = "lemma my_aux (x : ℕ) : D x := by\n  exact rfl"


def fake_lean() -> ScriptedLean:
    return ScriptedLean(rules=[
        MessageRule(r"(?s)\A(?!.*\blemma my_aux\b).*?\bmy_aux\b", "unknown identifier 'my_aux'"),
        MessageRule(r"bad_multi\n\s*bad_tail", "unsolved goals"),
    ])


def prove(tmp_path: Path, kimina, llm, model: str, *extra: str):
    problem = tmp_path / "t.lean"
    problem.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'r.db'}"
    args = ["prove", str(problem), "--verifier", "kimina", "--kimina-url", kimina.url, "--prover-url", llm.url,
            "--prover-model", model, "--db", db, "--json", "--no-live",
            "--budget", "root_whole_proof_attempts=1", "--budget", "max_depth=0", *extra]
    r = runner.invoke(app, args, env=ENV)
    return r, Store(db)


def block(code: str) -> str:
    return f"```lean4\n{code}\n```"


def test_a_proof_that_calls_its_own_helper_lemma_is_proved_with_the_lemma(tmp_path):
    answer = "Here is the proof.\n\n" + block(f"{AUX}\n\n{HEAD}\n  exact my_aux x")
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=answer, models=("m",)) as llm:
        r, store = prove(tmp_path, kimina, llm, "m")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    proof = out["proof"]
    # the helper comes before our theorem, stated as the model wrote it; our statement is unchanged
    assert proof.startswith(HEADER + DEFS) and proof.index(AUX) < proof.index(HEAD + "\n  exact my_aux x")
    [whole] = store.proofs(out["run_id"])
    assert AUX in whole.proof and whole.kind == "whole"
    [attempt] = [a for a in store.attempts(out["run_id"]) if a.strategy == "prover"]
    assert attempt.verdict == "valid" and AUX in attempt.code


def test_kimina_72b_style_output_with_a_helper_lemma_under_its_preset(tmp_path):
    # Kimina's answers restate the header, define their lemmas, then the theorem (its reader wants
    # `import` in the block); the restated `def`s of the problem are not declared twice.
    answer = ("<think>\nlet me use a helper\n</think>\n"
              + block(f"import Mathlib\nimport Aesop\n\n{DEFS}{AUX}\n\n{HEAD}\n  exact my_aux x"))
    model = "AI-MO/Kimina-Prover-72B"
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=answer, models=(model,)) as llm:
        r, _ = prove(tmp_path, kimina, llm, model)
        [req] = [q for q in llm.requests if q.endpoint == "chat"]
    assert r.exit_code == 0, r.output
    assert "prover preset: kimina-prover (inferred from the served model AI-MO/Kimina-Prover-72B" in r.stderr
    assert req.body["messages"][0]["role"] == "system"
    proof = json.loads(r.stdout)["proof"]
    assert proof.count("def Easy") == 1 and AUX in proof


def test_a_cut_off_cot_output_yields_its_last_complete_block(tmp_path):
    cut = Reply("<think>\nFirst attempt:\n" + block(f"{HEAD}\n  exact rfl")
                + "\nHmm, maybe I should double-check this with\n```lean4\n" + HEAD + "\n  simp only [D", "length")
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=cut, models=("m",)) as llm:
        r, store = prove(tmp_path, kimina, llm, "m", "--cot")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["proof"].endswith(HEAD + "\n  exact rfl\n") or (HEAD + "\n  exact rfl") in out["proof"]
    # the sample is recorded as cut by length (what a report counts)
    calls = [c for c in store.llm_calls(out["run_id"]) if c.role == "prover"]
    assert calls and calls[0].finish_reasons == ["length"]


def test_a_cut_off_goedel_output_yields_its_last_complete_block(tmp_path):
    model = "Goedel-LM/Goedel-Prover-V2-8B"
    cut = Reply("<think>\n" + block(f"{HEAD}\n  exact rfl") + "\nnow the final answer\n```lean4\n" + HEAD, "length")
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=cut, models=(model,)) as llm:
        r, _ = prove(tmp_path, kimina, llm, model)
    assert r.exit_code == 0, r.output
    assert (HEAD + "\n  exact rfl") in json.loads(r.stdout)["proof"]


def test_goedel_correction_turn_shows_each_error_from_its_start_to_its_end(tmp_path):
    model = "Goedel-LM/Goedel-Prover-V2-8B"
    first = "The plan.\n" + block(f"{HEAD}\n  have k : D x := by\n    bad_multi\n    bad_tail\n  exact k")
    fixed = "After analysing the error:\n" + block(f"{HEAD}\n  exact rfl")
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(models=(model,)) as llm:
        llm.add_rule(r"Complete the following Lean 4 code", first)
        llm.add_rule(r"The proof \(Round 0\) is not correct", fixed)
        r, _ = prove(tmp_path, kimina, llm, model, "--budget", "self_corrections=1")
        chats = [q for q in llm.requests if q.endpoint == "chat"]
    assert r.exit_code == 0, r.output
    correction = chats[-1].body["messages"]
    assert [m["role"] for m in correction] == ["user", "assistant", "user"]
    assert correction[1]["content"] == first  # the previous answer stays in the chat
    feedback = correction[2]["content"]
    assert feedback.startswith("The proof (Round 0) is not correct. Following is the compilation error message")
    # the error's range, start AND end, over two lines
    assert "    <error>bad_multi\n    bad_tail</error>\n" in feedback and "Error Message: unsolved goals" in feedback


def test_holes_proved_with_the_same_helper_lemma_assemble_with_it_once(tmp_path, monkeypatch):
    config = tmp_path / "lemmaforge.toml"
    config.write_text('[search]\nportfolio = ["auto_tac"]\n', encoding="utf-8")
    monkeypatch.setenv("LEMMAFORGE_CONFIG", str(config))
    lean = fake_lean()
    lean.rules.append(MessageRule(r"\bauto_tac\b", "auto_tac failed"))

    def with_aux(conclusion: str):
        return lambda req: block(f"{AUX}\n\n{lemma_head(req.text, conclusion)} := by\n  exact my_aux x")

    with FakeKimina(responder=lean) as kimina, FakeOpenAIServer(default="", models=("m",)) as llm:
        add_planner(llm, r"theorem t ", lean_block(SKETCH))
        add_prover(llm, *closing_hole_rule())
        add_prover(llm, r":\s+Easy x := by", with_aux("Easy x"))
        add_prover(llm, r":\s+Hard x := by", with_aux("Hard x"))
        r, _ = prove(tmp_path, kimina, llm, "m", "--planner-url", llm.url, "--planner-model", "m",
                     "--budget", "max_depth=1")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["depth"] == 1 and out["proof"].count(AUX) == 1
    assert out["proof"].index(AUX) < out["proof"].index(HEAD)


def test_kimina_error_fix_turn(tmp_path):
    model = "AI-MO/Kimina-Prover-Distill-8B"
    first = block(f"import Mathlib\n{HEAD}\n  have k : D x := by\n    bad_multi\n    bad_tail\n  exact k")
    fixed = block(f"import Mathlib\n{HEAD}\n  exact rfl")
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(models=(model,)) as llm:
        llm.add_rule(r"Think about and solve the following problems", first)
        llm.add_rule(r"# Error 1:", fixed)
        r, _ = prove(tmp_path, kimina, llm, model, "--budget", "self_corrections=1")
        chats = [q for q in llm.requests if q.endpoint == "chat"]
    assert r.exit_code == 0, r.output
    messages = chats[-1].body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[2]["content"] == first
    assert messages[3]["content"].startswith(
        "# Error 1:\nError message: \nunsolved goals\n\nLean 4 code snippet with error:\n```lean4\n")
    assert chats[-1].body["temperature"] == 0.8 and "top_p" not in chats[-1].body


def test_a_family_without_correction_spends_no_correction_round(tmp_path):
    model = "deepseek-ai/DeepSeek-Prover-V2-7B"
    failing = block(f"{HEAD}\n  have k : D x := by\n    bad_multi\n    bad_tail\n  exact k")
    with FakeKimina(responder=fake_lean()) as kimina, FakeOpenAIServer(default=failing, models=(model,)) as llm:
        r, _ = prove(tmp_path, kimina, llm, model, "--budget", "self_corrections=2")
        chats = [q for q in llm.requests if q.endpoint == "chat"]
    assert r.exit_code == 1, r.output
    out = json.loads(r.stdout)
    assert len(chats) == 1 and out["calls"] == 1  # the one whole-proof request, nothing charged for corrections

"""The demo's simulated models and servers (lemmaforge/demo/model_sim.py, servers.py): they read the
product's real prompts (agent/prompts.py) and answer on the wire as vLLM and Kimina do."""

from __future__ import annotations

import json

import httpx

from lemmaforge.agent import prompts
from lemmaforge.agent.output import lean_blocks
from lemmaforge.demo.model_sim import (
    PLANNER_MODEL,
    PROVER_MODEL,
    SimulatedModels,
    find_statement,
    proof,
    sketch,
)
from lemmaforge.demo.servers import SimulatedKimina, SimulatedOpenAI

HEADER = prompts.MINIF2F_HEADER


def extract_proof(text: str) -> str | None:
    """The answer's last Lean block, as the product's readers take it (agent/output.py)."""
    blocks = lean_blocks(text)
    return blocks[-1].strip() if blocks else None
STATEMENT = ("theorem mathd_algebra_478 (b h v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v) (h₁ : v = 1 / 3 * (b * h))\n"
             "    (h₂ : b = 30) (h₃ : h = 13 / 2) : v = 65 := by\n  sorry")
BLOCK = f"Prove this:\n\n```lean4\n{STATEMENT}\n```"


def test_the_statement_is_read_from_every_kind_of_prompt():
    for messages in (prompts.prover_messages(HEADER, STATEMENT, cot=False, informal="The volume is 65."),
                     prompts.planner_draft_messages(HEADER, STATEMENT),
                     prompts.prover_correction_messages(prompts.prover_messages(HEADER, STATEMENT, cot=False),
                                                        "```lean4\ntheorem x : True := by\n  bad\n```", "err", 1)):
        found = find_statement([m["content"] for m in messages])
        assert found is not None and found.name == "mathd_algebra_478" and found.conclusion == "v = 65"
        assert [n for n, _ in found.hypotheses] == ["h₀", "h₁", "h₂", "h₃"] and found.variables == ["b", "h", "v"]
    completion = prompts.prover_completion_prompt(HEADER, STATEMENT.removesuffix("\n  sorry"))
    assert find_statement([completion]).name == "mathd_algebra_478"


def test_the_planner_restates_the_theorem_and_writes_steps_then_a_closing_tactic():
    statement = find_statement([BLOCK])
    text = sketch(statement, 0)
    code = extract_proof(text)
    assert code is not None and code.startswith(statement.head + " := by\n")
    lines = code.splitlines()[1:]
    assert all(line.startswith("  have step_") and line.endswith(":= by sorry") for line in lines[:-1])
    assert "sorry" not in lines[-1] and "step_" in lines[-1]  # the closing tactic cites the steps
    assert sketch(statement, 1) != text  # another request: another sketch


def test_the_prover_answers_every_sample_and_corrects_a_cited_name_that_does_not_exist():
    statement = find_statement([BLOCK])
    samples = [extract_proof(proof(statement, i)) for i in range(8)]
    assert all(s is not None and s.startswith(statement.head + " := by\n") for s in samples)
    assert len(set(samples)) == 8 and any("h_aux" in s for s in samples)  # one cites a name Lean will not know
    assert all("h_aux" not in extract_proof(proof(statement, i, correction=True)) for i in range(8))
    models = SimulatedModels()
    first, second = (models.replies([BLOCK], 2) for _ in range(2))
    assert first != second  # a later request for the same statement samples other proofs


def test_the_model_server_speaks_the_openai_api():
    with SimulatedOpenAI() as server:
        listed = httpx.get(f"{server.url}/models").json()
        assert [m["id"] for m in listed["data"]] == [PROVER_MODEL, PLANNER_MODEL]
        body = {"model": PROVER_MODEL, "n": 3, "messages": prompts.prover_messages(HEADER, STATEMENT, cot=False)}
        answer = httpx.post(f"{server.url}/chat/completions", json=body).json()
        assert [c["index"] for c in answer["choices"]] == [0, 1, 2] and answer["usage"]["completion_tokens"] > 0
        assert all(c["finish_reason"] == "stop" and "```lean4" in c["message"]["content"] for c in answer["choices"])
        missing = httpx.post(f"{server.url}/chat/completions", json={**body, "model": "other"})
        assert missing.status_code == 404 and "does not exist" in missing.json()["error"]["message"]
        with httpx.stream("POST", f"{server.url}/chat/completions",
                          json={**body, "stream": True, "stream_options": {"include_usage": True}}) as streamed:
            events = [line[len("data: "):] for line in streamed.iter_lines() if line.startswith("data: ")]
        assert events[-1] == "[DONE]" and json.loads(events[-2])["usage"]["prompt_tokens"] > 0
        assert sorted(json.loads(e)["choices"][0]["index"] for e in events[:3]) == [0, 1, 2]


def test_the_lean_server_speaks_kimina_s_api():
    with SimulatedKimina() as server:
        assert httpx.get(f"{server.url}/health").json() == {"status": "ok"}
        snippets = [{"id": "a", "code": HEADER + STATEMENT}, {"id": "b", "code": "#eval Lean.versionString"}]
        results = httpx.post(f"{server.url}/api/check", json={"snippets": snippets, "timeout": 30}).json()["results"]
        assert [r["id"] for r in results] == ["a", "b"]
        assert results[0]["response"]["sorries"] and results[1]["response"]["messages"][0]["data"] == '"4.9.0"'
        bad = httpx.post(f"{server.url}/api/check", json={"snippets": []})
        assert bad.status_code == 422

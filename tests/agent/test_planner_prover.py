"""Planner and Prover against scripted replies of the fake OpenAI-compatible server."""

from __future__ import annotations

import pytest

from lemmaforge.agent import prompts
from lemmaforge.agent.output import informal_part
from lemmaforge.agent.planner import Planner, Sketch, restate
from lemmaforge.agent.prompts import MINIF2F_HEADER
from lemmaforge.agent.prover import ProofCandidate, Prover
from lemmaforge.lean.verifier import Message, Position, Severity
from lemmaforge.records import LLMCallRecord
from tests.agent.test_extraction import REFS, cot_output

STATEMENT = (
    "/-- Show that for any real numbers $a$ and $b$, $2ab \\leq a^2 + b^2$. -/\n"
    "theorem algebra_2rootsintpoly (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by\n  sorry"
)
DECL = "theorem algebra_2rootsintpoly (a b : ℝ) : 2 * a * b ≤ a ^ 2 + b ^ 2 := by"

SKETCH_CODE = (
    f"{DECL}\n"
    "  have h_sq : 0 ≤ (a - b) ^ 2 := by sorry\n"
    "  have h_expand : (a - b) ^ 2 = a ^ 2 - 2 * a * b + b ^ 2 := by sorry\n"
    "  nlinarith [h_sq, h_expand]"
)
SKETCH_REPLY = (
    "### Informal Proof\n\n1. $(a-b)^2 \\ge 0$.\n2. Expand the square.\n3. Rearrange.\n\n"
    f"### Lean 4 Sketch\n```lean4\n{SKETCH_CODE}\n```\n"
)
RENAMED_REPLY = "Sketch:\n```lean4\n" + SKETCH_CODE.replace("algebra_2rootsintpoly", "my_sketch") + "\n```"
CHANGED_REPLY = "```lean4\n" + SKETCH_CODE.replace("(a b : ℝ)", "(a b : ℕ)") + "\n```"
NO_CODE_REPLY = "I think we should use AM-GM, but I cannot write the Lean code."


@pytest.fixture
def planner(make_client):
    return Planner(make_client(role="planner", run_id="run-p"), temperature=0.6)


async def test_planner_draft_parses_sketches_and_discards_changed_statements(fake_openai, planner, recorder):
    rule = fake_openai.add_rule(
        r"algebra_2rootsintpoly", [SKETCH_REPLY, NO_CODE_REPLY, CHANGED_REPLY, RENAMED_REPLY], endpoint="chat"
    )

    sketches = await planner.draft(MINIF2F_HEADER, STATEMENT, informal="Use (a-b)^2 ≥ 0.", n=4)

    assert rule.hits == 1
    [req] = fake_openai.requests_to("chat")
    assert req.n == 4 and req.body["temperature"] == 0.6
    assert req.messages == prompts.planner_draft_messages(MINIF2F_HEADER, STATEMENT, "Use (a-b)^2 ≥ 0.")
    assert len(sketches) == 2
    first, renamed = sketches
    assert isinstance(first, Sketch)
    assert first.code == SKETCH_CODE
    assert first.informal == "1. $(a-b)^2 \\ge 0$.\n2. Expand the square.\n3. Rearrange."
    assert first.raw == SKETCH_REPLY
    [rec] = recorder.of_type(LLMCallRecord)
    assert first.call_id == rec.call_id and rec.run_id == "run-p" and rec.role == "planner"
    assert renamed.code == SKETCH_CODE  # renamed back to the original name
    assert renamed.informal == "Sketch:"


async def test_planner_keeps_the_original_statement_text(fake_openai, planner):
    spaced = SKETCH_CODE.replace(DECL, "/-- my doc -/\n" + DECL).replace("2 * a * b ≤", "2 * a * b  ≤")
    fake_openai.add_rule(None, f"```lean4\n{spaced}\n```")
    [sketch] = await planner.draft(MINIF2F_HEADER, STATEMENT)
    assert sketch.code == "/-- my doc -/\n" + SKETCH_CODE


async def test_planner_correction_sends_the_marked_errors(fake_openai, planner):
    fake_openai.add_rule(r"did not compile", SKETCH_REPLY)
    broken = Sketch("plan", SKETCH_CODE.replace("nlinarith [h_sq, h_expand]", "linarith"), "raw", None)
    checked = prompts.with_header(MINIF2F_HEADER, broken.code)
    line = checked.split("\n").index("  linarith") + 1
    errors = [
        Message(
            Severity.ERROR, "linarith failed to find a contradiction", Position(line, 2), Position(line, 10)
        )
    ]

    [fixed] = await planner.correct(MINIF2F_HEADER, STATEMENT, broken, errors)

    assert fixed.code == SKETCH_CODE
    user = fake_openai.requests_to("chat")[0].last_user
    assert f"```lean4\n{checked.rstrip()}\n```" in user
    assert "  <error>linarith</error>\n" in user
    assert "Error Message: linarith failed to find a contradiction" in user

    fake_openai.add_rule(r"plain error text", SKETCH_REPLY)
    await planner.correct(MINIF2F_HEADER, STATEMENT, broken.code, ["plain error text"])


async def test_planner_in_completion_mode_sends_plain_text(fake_openai, make_client):
    fake_openai.add_rule(None, SKETCH_REPLY, endpoint="completions")
    planner = Planner(make_client(mode="completion"))
    [sketch] = await planner.draft(MINIF2F_HEADER, STATEMENT)
    assert sketch.code == SKETCH_CODE
    prompt = fake_openai.requests_to("completions")[0].prompt
    assert prompt == prompts.to_plain(prompts.planner_draft_messages(MINIF2F_HEADER, STATEMENT))


def test_restate_and_informal_part_directly():
    assert restate(STATEMENT, SKETCH_CODE) == SKETCH_CODE
    assert restate(STATEMENT, "theorem a : True := trivial\ntheorem b : True := trivial") is None
    assert informal_part("no code here") == ""


# ---------------------------------------------------------------------------------------------
# prover
# ---------------------------------------------------------------------------------------------

PROOF_BODY = "nlinarith [sq_nonneg (a - b), sq_nonneg (a + b)]"
NON_COT_REPLY = f"```lean4\n{MINIF2F_HEADER}{STATEMENT.replace('sorry', PROOF_BODY)}\n```"


async def test_prover_non_cot(fake_openai, make_client, recorder):
    fake_openai.add_rule(r"^Complete the following Lean 4 code:", [NON_COT_REPLY, "no code", NON_COT_REPLY])
    prover = Prover(make_client(role="prover"), cot=False)

    cands = await prover.prove(MINIF2F_HEADER, STATEMENT, n=3)

    [req] = fake_openai.requests_to("chat")
    assert req.messages == [
        {"role": "user", "content": prompts.prover_prompt(MINIF2F_HEADER, STATEMENT, cot=False)}
    ]
    assert "Before producing" not in req.last_user
    assert len(cands) == 2
    cand = cands[0]
    assert isinstance(cand, ProofCandidate)
    assert cand.body == PROOF_BODY
    assert cand.code == STATEMENT.replace("sorry", PROOF_BODY)
    assert cand.round == 0 and cand.statement == STATEMENT and cand.finish_reason == "stop"
    assert cand.call_id == recorder.of_type(LLMCallRecord)[0].call_id
    assert cand.prompt == req.last_user


async def test_prover_cot_on_real_proofs(fake_openai, make_client):
    refs = REFS[:5]
    for ref in refs:
        fake_openai.add_rule(rf"theorem {ref.name}\b", cot_output(ref))
    prover = Prover(make_client(), cot=True, max_tokens=32768)  # some real proofs are long
    for ref in refs:
        [cand] = await prover.prove(MINIF2F_HEADER, ref.statement)
        assert cand.body == ref.proof
        assert cand.code.startswith(ref.statement[: -len("\n  sorry")])
    req = fake_openai.requests_to("chat")[0]
    assert req.last_user == prompts.prover_prompt(MINIF2F_HEADER, refs[0].statement, cot=True)


async def test_prover_self_correction_goedel_style(fake_openai, make_client):
    bad = STATEMENT.replace("sorry", "linarith")
    fake_openai.add_rule(r"^Complete the following", f"```lean4\n{bad}\n```")
    fake_openai.add_rule(r"^The proof \(Round 0\) is not correct", NON_COT_REPLY)
    prover = Prover(make_client(), cot=True)
    [first] = await prover.prove(MINIF2F_HEADER, STATEMENT)
    assert first.body == "linarith"
    checked = prompts.with_header(MINIF2F_HEADER, first.code)
    line = checked.split("\n").index("  linarith") + 1
    errors = [
        Message(Severity.WARNING, "unused variable", Position(1, 0), None),
        Message(
            Severity.ERROR, "linarith failed to find a contradiction", Position(line, 2), Position(line, 10)
        ),
    ]

    [fixed] = await prover.correct(MINIF2F_HEADER, first, errors, n=1)

    assert fixed.body == PROOF_BODY and fixed.round == 1
    req = fake_openai.requests_to("chat")[-1]
    roles = [m["role"] for m in req.messages]
    assert roles == ["user", "assistant", "user"]
    assert req.messages[0]["content"] == prompts.prover_prompt(MINIF2F_HEADER, STATEMENT, cot=True)
    assert req.messages[1]["content"] == first.raw
    feedback = req.messages[2]["content"]
    assert feedback.startswith("The proof (Round 0) is not correct.")
    assert "  <error>linarith</error>\n" in feedback and "unused variable" not in feedback
    assert feedback.endswith("provide a detailed analysis of the error message.")
    assert len(fixed.history) == 3

    fake_openai.add_rule(r"^The proof \(Round 1\) is not correct", NON_COT_REPLY)
    [again] = await prover.correct(MINIF2F_HEADER, fixed, ["some error"])
    assert again.round == 2
    assert [m["role"] for m in fake_openai.requests_to("chat")[-1].messages] == ["user", "assistant"] * 2 + [
        "user"
    ]


BARE = f"{DECL}\n  sorry"  # the statement without its docstring
INFORMAL = "Show that for any real numbers $a$ and $b$, $2ab \\leq a^2 + b^2$."


async def test_prover_puts_the_informal_statement_in_the_prompt_as_the_theorems_docstring(fake_openai, make_client):
    reply = f"```lean4\n{MINIF2F_HEADER}/-- {INFORMAL}-/\n{BARE.replace('sorry', PROOF_BODY)}\n```"
    fake_openai.add_rule(r"^Complete the following Lean 4 code:", reply)
    prover = Prover(make_client(), cot=False)

    [cand] = await prover.prove(MINIF2F_HEADER, BARE, informal=INFORMAL)

    [req] = fake_openai.requests_to("chat")
    assert req.last_user == prompts.prover_prompt(MINIF2F_HEADER, BARE, cot=False, informal=INFORMAL)
    assert f"/-- {INFORMAL}-/\n{DECL}" in req.last_user  # DeepSeek-Prover-V2's miniF2F layout
    assert cand.body == PROOF_BODY and cand.code == BARE.replace("sorry", PROOF_BODY)  # our statement, no docstring


async def test_prover_in_completion_mode_puts_the_informal_statement_before_the_open_theorem(fake_openai, make_client):
    fake_openai.add_rule(r":= by\n$", f"  {PROOF_BODY}\n```", endpoint="completions")
    prover = Prover(make_client(mode="completion"))

    [cand] = await prover.prove(MINIF2F_HEADER, BARE, informal=INFORMAL)

    [req] = fake_openai.requests_to("completions")
    assert req.prompt.endswith(f"/-- {INFORMAL}-/\n{DECL}\n")
    assert cand.body == PROOF_BODY


async def test_prover_completion_mode(fake_openai, make_client):
    fake_openai.add_rule(r":= by\n$", [f"  {PROOF_BODY}\n```\nextra text", "```"], endpoint="completions")
    prover = Prover(make_client(mode="completion"))

    cands = await prover.prove(MINIF2F_HEADER, STATEMENT, n=2)

    [req] = fake_openai.requests_to("completions")
    assert req.prompt == prompts.prover_completion_prompt(
        MINIF2F_HEADER, STATEMENT[: -len("sorry")].rstrip() + "\n"
    )
    assert "```" in req.body["stop"]
    [cand] = cands  # the empty continuation is dropped
    assert cand.body == PROOF_BODY and cand.code == STATEMENT.replace("sorry", PROOF_BODY)

    fake_openai.add_rule(r"A corrected proof:", f"  {PROOF_BODY}\n", endpoint="completions")
    err = Message(Severity.ERROR, "linarith failed", Position(MINIF2F_HEADER.count("\n") + 3, 2), None)
    [fixed] = await prover.correct(MINIF2F_HEADER, cand, [err])
    prompt = fake_openai.requests_to("completions")[-1].prompt
    assert "-- The previous proof attempt (Round 0) did not compile" in prompt
    assert f"--   {PROOF_BODY}\n--   -- ^ error: linarith failed" in prompt
    assert prompt.endswith(STATEMENT[: -len("sorry")].rstrip() + "\n")
    assert fixed.round == 1 and fixed.body == PROOF_BODY


def test_cot_needs_chat(make_client):
    with pytest.raises(ValueError, match="CoT"):
        Prover(make_client(mode="completion"), cot=True)


async def test_prover_correction_with_engine_style_errors(fake_openai, make_client):
    """The search engine checks `header + fill(statement, [body])` and passes `Message.format()`
    strings: the default checked file must be that one, so the marks land on the right code."""
    one_line = "theorem foo (a b : ℝ) (h : a < b) : a ≤ b := by sorry"
    fake_openai.add_rule(
        r"^Complete", "```lean4\ntheorem foo (a b : ℝ) (h : a < b) : a ≤ b := by linarith\n```"
    )
    fake_openai.add_rule(
        r"^The proof \(Round 0\)",
        "```lean4\ntheorem foo (a b : ℝ) (h : a < b) : a ≤ b := by\n  exact le_of_lt h\n```",
    )
    prover = Prover(make_client())
    [cand] = await prover.prove(MINIF2F_HEADER, one_line)
    assert cand.body == "linarith"
    checked = MINIF2F_HEADER + cand.code  # what the engine checks
    line = checked.split("\n").index(cand.code.split("\n")[0]) + 1
    col = checked.split("\n")[line - 1].index("linarith")
    err = Message(Severity.ERROR, "linarith failed", Position(line, col), None)

    [fixed] = await prover.correct(MINIF2F_HEADER, cand, [err.format()])

    assert fixed.body == "exact le_of_lt h"
    feedback = fake_openai.requests_to("chat")[-1].messages[-1]["content"]
    assert ":= by <error>linarith</error>\n" in feedback

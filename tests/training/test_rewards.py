"""The Lean reward, the structure-consistency reward and pass-rate filtering (no torch needed)."""

from __future__ import annotations

import asyncio
import math
import threading
from types import SimpleNamespace

import pytest

from lemmaforge.agent.llm import Completion
from lemmaforge.lean import syntax as lean_code
from lemmaforge.lean.verifier import VerifierError
from lemmaforge.training import rewards as R
from tests.fakes.real_problems import Problem, cot_completion, drop_step, fenced
from tests.fakes.scripted import BOGUS_TACTIC, CRASH_MARK, RAISE_MARK, TIMEOUT_MARK, ScriptedVerifier


def call(reward, problem: Problem, completions: list) -> list:
    n = len(completions)
    return asyncio.run(
        reward(prompts=[problem.prompt()] * n, completions=completions, header=[problem.header] * n,
               statement=[problem.statement] * n)
    )


def chat(text: str) -> list[dict[str, str]]:
    return [{"role": "assistant", "content": text}]


def with_tactic(problem: Problem, tactic: str) -> str:
    """The reference proof with its last line's tactic replaced by `tactic`."""
    lines = problem.proof.rstrip().splitlines()
    indent = lines[-1][: len(lines[-1]) - len(lines[-1].lstrip())]
    return "\n".join([*lines[:-1], indent + tactic]) + "\n"


def test_lean_reward_scores_proved_wrong_and_crashed(problems):
    p = problems[0]
    verifier = ScriptedVerifier()
    reward = R.make_lean_reward(verifier, timeout=5)
    body_start = lean_code.last_theorem(p.proof).start
    renamed = p.proof[:body_start] + p.proof[body_start:].replace(p.name, p.name + "_other", 1)
    completions = [
        chat("Here is the proof.\n" + fenced(p.proof)),  # conversational, proved
        fenced(p.proof, "lean"),  # plain string, ```lean fence, proved
        chat(fenced(with_tactic(p, BOGUS_TACTIC))),  # Lean error
        chat("I could not find a proof."),  # no code block
        chat(fenced(renamed)),  # statement changed (other theorem name)
        chat(fenced(lean_code.skeleton(p.proof)[0])),  # sorry left
        chat(fenced(with_tactic(p, f"linarith -- {TIMEOUT_MARK}"))),  # timeout: the proof's fault
        chat(fenced(with_tactic(p, f"linarith -- {CRASH_MARK}"))),  # Lean crashed: not the proof's fault
        chat(fenced(with_tactic(p, f"linarith -- {RAISE_MARK}"))),  # verifier unusable
        chat("```lean4\n" + p.proof),  # unterminated block: agent.prover's extractor lets Lean judge it
        chat("```lean4\n" + with_tactic(p, BOGUS_TACTIC)),
    ]
    rewards = call(reward, p, completions)
    assert rewards == [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, None, None, 1.0, 0.0]
    # all distinct candidates were verified concurrently, in one batch
    assert verifier.peak > 1


def test_lean_reward_uses_the_rows_header_and_dedups(problems):
    p = problems[1]
    verifier = ScriptedVerifier()
    reward = R.make_lean_reward(verifier)
    _, body = lean_code.split_header(p.proof)
    # the model wrote no header at all, and one with an extra `import`: the row's header is used
    completions = [chat(fenced(body)), chat(fenced("import Mathlib.Tactic\n\n" + body)), chat(fenced(body))]
    assert call(reward, p, completions) == [1.0, 1.0, 1.0]
    # the same proof under different model headers is one candidate: verified once; the other check
    # is the statement's own type, elaborated once for the problem (lean/audit/_judge.py)
    candidates = [c for c in verifier.checked if "#print axioms" in c]
    assert len(candidates) == 1 and len(verifier.checked) == 2
    for code in verifier.checked:
        assert code.startswith(p.header.rstrip())
        assert "Mathlib.Tactic" not in code


def test_lean_reward_logs_failures_and_status(problems):
    p = problems[0]
    logged: dict = {}
    extra: dict = {}
    reward = R.make_lean_reward(ScriptedVerifier())
    completions = [chat(fenced(p.proof)), chat(fenced(with_tactic(p, f"simp -- {CRASH_MARK}")))]
    out = asyncio.run(
        reward(prompts=[None] * 2, completions=completions, header=[p.header] * 2, statement=[p.statement] * 2,
               log_metric=lambda k, v: logged.__setitem__(k, v), log_extra=lambda k, v: extra.__setitem__(k, v))
    )
    assert out == [1.0, None]
    assert logged == {"lean_reward/verifier_failures": 0.5}
    assert extra == {"lean_status": ["proved", "verifier_failure"]}


def test_lean_reward_stops_after_consecutive_dead_batches(problems):
    p = problems[0]
    reward = R.make_lean_reward(ScriptedVerifier(), max_failed_batches=2)
    dead = [chat(fenced(with_tactic(p, f"simp -- {RAISE_MARK}")))] * 2
    assert call(reward, p, dead) == [None, None]
    with pytest.raises(VerifierError, match="2 consecutive batches"):
        call(reward, p, dead)


def test_lean_reward_needs_the_statement_column(problems):
    reward = R.make_lean_reward(ScriptedVerifier())
    with pytest.raises(KeyError, match="statement"):
        asyncio.run(reward(prompts=[None], completions=["x"], header=["import Mathlib"]))


def test_statement_may_carry_its_own_header(problems):
    p = problems[0]
    verifier = ScriptedVerifier()
    reward = R.make_lean_reward(verifier)
    out = asyncio.run(reward(prompts=[None], completions=[fenced(p.proof)], statement=[p.header + p.statement]))
    assert out == [1.0]


def test_factory_verifier_is_created_on_the_calling_loop(problems):
    """TRL calls async rewards on its daemon loop: a factory-made verifier lives on that loop."""
    p = problems[0]
    made: list[ScriptedVerifier] = []

    def factory():
        made.append(ScriptedVerifier())
        return made[-1]

    reward = R.make_lean_reward(factory)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        fut = asyncio.run_coroutine_threadsafe(
            reward(prompts=[None], completions=[fenced(p.proof)], header=[p.header], statement=[p.statement]), loop
        )
        assert fut.result(10) == [1.0]
        assert len(made) == 1 and made[0].loops[0][0] is loop
        reward.close_on(loop)
        assert made[0].closed
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
    # another loop gets its own verifier
    assert call(reward, p, [fenced(p.proof)]) == [1.0]
    assert len(made) == 2


def test_instance_verifier_calls_are_forwarded_to_its_loop(problems):
    """A verifier instance bound to a running loop in another thread is only ever used there."""
    p = problems[0]
    verifier = ScriptedVerifier()
    reward = R.make_lean_reward(verifier)
    owner = asyncio.new_event_loop()
    thread = threading.Thread(target=owner.run_forever, daemon=True)
    thread.start()
    try:
        first = asyncio.run_coroutine_threadsafe(
            reward(prompts=[None], completions=[fenced(p.proof)], header=[p.header], statement=[p.statement]), owner
        )
        assert first.result(10) == [1.0]
        # now called from the main thread's own loop: forwarded to `owner`
        assert call(reward, p, [chat(fenced(with_tactic(p, BOGUS_TACTIC)))]) == [0.0]
        assert {lp for lp, _ in verifier.loops} == {owner}
        assert {tid for _, tid in verifier.loops} == {thread.ident}
    finally:
        owner.call_soon_threadsafe(owner.stop)
        thread.join(5)
        owner.close()


# --- structure consistency -----------------------------------------------------------------------


def test_structure_consistency_on_cot_completions(problems):
    for p in problems[:4]:
        steps = lean_code.have_steps(p.proof)
        # a step stated only once (nested steps may restate a top-level one: those still count)
        i = next(i for i, st in enumerate(steps) if p.proof.count(st.statement) == 1)
        full = cot_completion(p.proof)
        dropped = cot_completion(p.proof, final=drop_step(p.proof, i))
        scores = R.structure_consistency_reward(None, [chat(full), dropped])
        assert scores[0] == 1.0
        assert scores[1] == pytest.approx((len(steps) - 1) / len(steps))


def test_structure_consistency_zero_without_sketch_or_proof(problems):
    p = problems[0]
    sketch = lean_code.skeleton(p.proof)[0]
    no_haves = lean_code.split_header(p.proof)[0] + p.statement  # `:= by sorry`: a sketch with no step
    completions = [
        fenced(p.proof),  # non-CoT: no sketch
        "plan only\n" + fenced(sketch),  # sketch but no final proof
        fenced(no_haves) + "\n" + fenced(p.proof),  # a sketch without `have` steps
        "no code at all",
    ]
    assert R.structure_consistency_reward(None, completions) == [0.0, 0.0, 0.0, 0.0]


def test_structure_consistency_is_active_for_k_steps(problems):
    p = problems[0]
    gated = R.make_structure_consistency_reward(active_steps=2, weight=0.3)
    assert gated.__name__ == "structure_consistency_reward" and gated.weight == 0.3
    completions = [cot_completion(p.proof), fenced(p.proof)]
    assert gated(None, completions, trainer_state=SimpleNamespace(global_step=0)) == [1.0, 0.0]
    assert gated(None, completions, trainer_state=SimpleNamespace(global_step=1)) == [1.0, 0.0]
    assert gated(None, completions, trainer_state=SimpleNamespace(global_step=2)) == [None, None]
    assert gated(None, completions) == [1.0, 0.0]  # no trainer state: active
    always = R.make_structure_consistency_reward(active_steps=None)
    assert always(None, completions, trainer_state=SimpleNamespace(global_step=10**6)) == [1.0, 0.0]


def test_sketch_and_proof_blocks():
    text = "a\n```lean4\nhave h : 1 = 1 := by sorry\n```\nb\n```lean\nexact rfl\n```\nc ```lean4\nunclosed"
    assert R.sketch_and_proof(text) == ("have h : 1 = 1 := by sorry\n", "exact rfl\n")
    assert R.sketch_and_proof("```lean4\n-- sorry in a comment\nrfl\n```") == (None, "-- sorry in a comment\nrfl\n")


# --- pass rates ----------------------------------------------------------------------------------


def test_filter_by_pass_rate():
    rows = [{"i": i} for i in range(6)]
    rates = [0.0, 0.25, 1.0, None, math.nan, 0.5]
    assert [r["i"] for r in R.filter_by_pass_rate(rows, rates)] == [1, 5]
    assert [r["i"] for r in R.filter_by_pass_rate(rows, rates, low=0.3)] == [5]
    with pytest.raises(ValueError):
        R.filter_by_pass_rate(rows, rates[:2])


def test_estimate_pass_rates(problems):
    a, b, c = problems[:3]
    rows = [{"prompt": p.prompt(), "header": p.header, "statement": p.statement, "name": p.name} for p in (a, b, c)]
    proofs = {p.name: p for p in (a, b, c)}

    def generate(prompt, n):  # a always right, b right half the time, c never
        name = next(k for k in proofs if k in prompt[0]["content"])
        p = proofs[name]
        good, bad = fenced(p.proof), fenced(with_tactic(p, BOGUS_TACTIC))
        pattern = {a.name: [good] * n, b.name: [good, bad] * (n // 2), c.name: [bad] * n}[name]
        return pattern

    rates = R.estimate_pass_rates(generate, ScriptedVerifier(), rows, 4)
    assert rates == [1.0, 0.5, 0.0]
    assert [r["name"] for r in R.filter_by_pass_rate(rows, rates)] == [b.name]

    async def agenerate(prompt, n):
        return generate(prompt, n)

    assert R.estimate_pass_rates(agenerate, ScriptedVerifier(), rows, 2) == [1.0, 0.5, 0.0]

    class FakeLLM:  # the agent.llm.LLM shape: async generate(prompt, n=...) -> [Completion(.text)]
        async def generate(self, prompt, *, n=1, **kw):
            return [Completion(t, "stop") for t in generate(prompt, n)]

    assert R.estimate_pass_rates(FakeLLM(), ScriptedVerifier(), rows, 2) == [1.0, 0.5, 0.0]


# --- what the consistency reward must not pay for, and token-level matching ------------------------


def _unspaced(text: str) -> str:
    """`text` with the spaces around `*`, `+`, `^` removed (`x * y` → `x*y`): same Lean tokens."""
    for op in (" * ", " + ", " ^ "):
        text = text.replace(op, op.strip())
    return text


def _proof_with_unspaced_steps(p: Problem) -> str:
    """The reference proof with every step statement re-typed without spaces around operators."""
    out = p.proof
    for step in reversed(lean_code.have_steps(p.proof)):
        stmt = step.statement
        out = out.replace(stmt, _unspaced(stmt))
    return out


def test_consistency_compares_steps_on_tokens(problems):
    scored = 0
    for p in problems[:6]:
        final = _proof_with_unspaced_steps(p)
        if final == p.proof:
            continue
        scored += 1
        # the syntax layer compares steps on Lean tokens: re-spaced steps are the same steps
        assert lean_code.structure_consistency(lean_code.skeleton(p.proof)[0], final) == 1.0
        assert R.structure_consistency_reward(None, [cot_completion(p.proof, final=final)]) == [1.0]
    assert scored >= 2


def test_consistency_pays_nothing_for_a_copied_sketch_or_an_unfinished_proof(problems):
    p = problems[0]
    sketch = lean_code.skeleton(p.proof)[0]
    steps = lean_code.have_steps(p.proof)
    first_body = p.proof[steps[0].proof_start : steps[0].proof_end]
    one_sorry = p.proof.replace(first_body, " by sorry", 1)
    respaced_copy = _unspaced(sketch).replace("\n", "\n\n")  # the sketch again, re-typed
    banned = p.proof.rstrip() + "\n\naxiom cheat : False\n"
    completions = [
        cot_completion(p.proof, final=sketch),  # the final block is the sketch itself
        "plan\n" + fenced(sketch) + "\nfinal:\n" + fenced(respaced_copy) + "\n" + fenced(respaced_copy.replace("sorry", "sorry ")),
        cot_completion(p.proof, final=one_sorry),  # one step still `sorry`
        cot_completion(p.proof, final=banned),  # banned construct: fails the text audit
        cot_completion(p.proof),  # the real thing
    ]
    assert R.structure_consistency_reward(None, completions) == [0.0, 0.0, 0.0, 0.0, 1.0]


def test_consistency_with_the_rows_statement_rejects_a_changed_theorem(problems):
    p = problems[0]
    changed = p.proof.replace(f"theorem {p.name}", f"theorem {p.name}_x", 1)
    completions = [cot_completion(p.proof, final=changed), cot_completion(p.proof)]
    assert R.structure_consistency_reward(None, completions) == [1.0, 1.0]  # no statement column
    scores = R.structure_consistency_reward(
        None, completions, header=[p.header] * 2, statement=[p.statement] * 2
    )
    assert scores == [0.0, 1.0]


def test_lean_reward_matches_the_statement_on_tokens(problems):
    p = next(q for q in problems if _unspaced(q.statement) != q.statement)
    decl = lean_code.last_theorem(p.proof)
    head = p.proof[: decl.start]
    theorem = p.proof[decl.start :]
    sig_end = theorem.index(":= by")
    retyped = head + _unspaced(theorem[:sig_end]).replace("\n", " -- same\n") + theorem[sig_end:]
    assert lean_code.same_statement(p.header + p.statement, retyped)  # compared on tokens, not text
    assert lean_code.same_statement(p.header + p.statement, R.candidate_text(retyped, p.header + p.statement))
    constant = head + theorem[:sig_end].rstrip() + " ∧ True " + theorem[sig_end:]  # another statement
    assert constant != p.proof
    reward = R.make_lean_reward(ScriptedVerifier())
    assert call(reward, p, [fenced(retyped), fenced(constant), fenced(p.proof)]) == [1.0, 0.0, 1.0]

"""The search's final audit goes through the run's budget (search/budget.py) and still gets all of
the gate behind it (lean/gate/ `BehindGate`): the dataset setting (`--trust-dataset`), the
backend's own way to run the product's probe (the REPL: a separate command in the proof's
environment), and the Lean-side statement check (SafeVerify) — each charged to the run's budget.

Before, the audit saw only the budget wrapper: a `--trust-dataset` problem was proved and then
refused at the audit (exit 2), the REPL got the probe appended to the file, and SafeVerify never
ran in `prove` or `bench`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from lemmaforge import cli
from lemmaforge.lean.gate import GatedVerifier
from lemmaforge.lean.repl import ReplVerifier
from lemmaforge.lean.verifier import StatementVerdict
from lemmaforge.services import open_recorder, open_services, problem_from_code, prove_problem
from tests.fakes.fake_kimina import FakeKimina, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.fakes.fake_repl import make_fake_repl_config
from tests.search.scenarios import DEFS, HEADER, THEOREM, lean_block, proof_of
from tests.search.test_budget_property import PROBE_COMMANDS, repl_requests
from tests.search.test_prove_repl_e2e import BAD_TACTIC, SIMP_CLOSES_EASY, settings_for

AXIOM_CONTEXT = ("import Mathlib\n\naxiom f_values : ∃ f : ℕ → ℕ, f 1 = 2\n\n"
                 "theorem uses_axiom : ∃ f : ℕ → ℕ, f 1 = 2 := by\n  sorry\n")


def _prove_axiom_context(tmp_path: Path, *extra: str) -> Any:
    problem = tmp_path / "t.lean"
    problem.write_text(AXIOM_CONTEXT, encoding="utf-8")
    proof = AXIOM_CONTEXT.replace("  sorry", "  exact f_values")
    with FakeKimina(responder=ScriptedLean()) as kimina, FakeOpenAIServer(default=lean_block(proof)) as llm:
        return CliRunner().invoke(cli.app, [
            "prove", str(problem), "--verifier", "kimina", "--kimina-url", kimina.url,
            "--prover-url", llm.url, "--prover-model", "fake-model", "--planner-url", llm.url,
            "--planner-model", "fake-model", "--db", f"sqlite:///{tmp_path / 'r.db'}", "--no-live", "--json", *extra,
        ], env={"LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all"})


def test_a_trusted_dataset_problem_is_proved_through_the_audit(tmp_path: Path) -> None:
    result = _prove_axiom_context(tmp_path, "--trust-dataset")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["proved"] is True and out["audit"]["status"] == "proved"


def test_without_trust_the_problem_is_refused_before_any_request(tmp_path: Path) -> None:
    result = _prove_axiom_context(tmp_path)
    assert result.exit_code == 2, result.output
    assert "--trust-dataset" in result.stderr


class RecordingStatementChecker:
    """Lean's statement identity as a stand-in: says "same" and remembers what it was asked."""

    name = "safe_verify"

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    async def compare(self, original: str, candidate: str, *, allowed_axioms: set[str],
                      timeout: float | None = None) -> StatementVerdict:
        self.asked.append((original, candidate))
        return StatementVerdict(True, "same statement")


async def test_the_repl_audit_probes_apart_and_runs_the_statement_check_charged(tmp_path: Path) -> None:
    with FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        # the prover proves the theorem at the root
        llm.add_rule(r"theorem t ", proof_of("theorem t (x : ℕ) (h : A x) : D x", "exact proof_of_t"))
        settings = settings_for(tmp_path, llm)
        fake = make_fake_repl_config(tmp_path / "repl", rules=(BAD_TACTIC, SIMP_CLOSES_EASY), transcripts=False)
        gated = GatedVerifier(ReplVerifier(fake.config, workers=2, timeout=30, header_timeout=30,
                                            max_checks_per_worker=1000))
        checker = RecordingStatementChecker()
        gated.statement_checker = checker
        gated.admit(HEADER + DEFS + THEOREM, row="original")  # as the preflight does
        recorder, close = open_recorder(None)
        try:
            async with open_services(settings, recorder=recorder, verifier=gated) as services:
                result = await prove_problem(services, settings, problem_from_code(HEADER + DEFS + THEOREM))
        finally:
            close()
            await gated.close()
    assert result.proved, result.stop_reason
    assert result.audit is not None and result.audit.statement_check == {"same": True, "detail": "same statement",
                                                                         "skipped": False}
    assert checker.asked == [(HEADER + DEFS + THEOREM, result.proof)]
    commands = [r["text"] for r in fake.requests("cmd")]
    # the probe is its own command, after the proof's check, never appended to the proof's file
    assert any(c.lstrip().startswith("set_option pp.fullNames true in\n#print axioms t") for c in commands), commands
    assert not any("exact proof_of_t" in c and "#print axioms" in c for c in commands), commands
    # every Lean request of the run is charged: the REPL's commands and tactic steps (the probe
    # rides in its check's request) plus the one statement comparison
    probes = [c for c in commands if c.lstrip().startswith(PROBE_COMMANDS)]
    assert len(probes) == 2, commands  # the audit's axiom probe and the original's type probe
    # (the REPL budget tests' one allowance: a cancelled check written to a process that the pool's
    # close killed before it read it was sent, and counted in `cancelled_checks`, but never logged)
    received = repl_requests(fake) + 1
    assert received <= result.stats.checks <= received + result.stats.cancelled_checks, (result.stats, commands)

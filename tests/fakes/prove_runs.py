"""A `lemmaforge prove` run against the fakes, as the CLI, viewer and audit tests start it: the fake
Kimina server answering as scripted Lean (`bad_…` tactics fail, `auto_tac` closes only `Easy x`),
the fake OpenAI server scripted as planner and prover (`script_sketch`), the environment that keeps
the endpoints' retries and back-off short, and the automation portfolio set the way a user sets it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer
from tests.search.scenarios import SKETCH, add_planner, add_prover, closing_hole_rule, lean_block, prover_rule

ENV = {
    "LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01", "LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all",
    "LEMMAFORGE_PROVER__BACKOFF": "0.01", "LEMMAFORGE_PLANNER__BACKOFF": "0.01",
    "LEMMAFORGE_PROVER__RETRIES": "1", "LEMMAFORGE_PLANNER__RETRIES": "1",
}


INJECTION = "<script>window.pwned = 1</script><b>bold?</b> "


def auto_tac(monkeypatch: pytest.MonkeyPatch) -> None:
    """The automation portfolio is the one tactic `auto_tac`, set the way a user sets it: the
    config file's [search] section (also seen by `prove` run as a subprocess)."""
    config = Path(tempfile.mkdtemp()) / "lemmaforge.toml"
    config.write_text('[search]\nportfolio = ["auto_tac"]\n', encoding="utf-8")
    monkeypatch.setenv("LEMMAFORGE_CONFIG", str(config))


def prove_args(problem: Path, kimina: FakeKimina, llm: FakeOpenAIServer, db: str, *extra: str) -> list[str]:
    return [
        "prove", str(problem), "--verifier", "kimina", "--kimina-url", kimina.url,
        "--planner-url", llm.url, "--planner-model", "fake-model",
        "--prover-url", llm.url, "--prover-model", "fake-model",
        "--db", db, "--no-live",
        "--budget", "root_whole_proof_attempts=2", "--budget", "prover_samples_per_goal=2", *extra,
    ]


def fake_lean() -> ScriptedLean:
    return ScriptedLean(rules=[
        MessageRule(r"\bbad_\w+", "tactic failed"),
        MessageRule(r"(?s)\A(?!.*Easy x :=).*?\bauto_tac\b", "auto_tac failed"),
    ])


def script_sketch(llm: FakeOpenAIServer) -> None:
    """Root: whole-proof samples fail (`bad_default`), the planner's sketch has holes h1 (closed by
    automation), h2 (the prover) and the closing hole (the prover)."""
    add_prover(llm, *prover_rule("Hard x", "exact hard_fact"))
    add_prover(llm, *closing_hole_rule())
    add_planner(llm, r"theorem t ", lean_block(SKETCH))

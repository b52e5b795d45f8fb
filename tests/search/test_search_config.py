"""Search settings live in config: every `[search]` key reaches the engine, and the Kimina knobs
reach the client (no field that nothing reads)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lemmaforge.config import ConfigError, SearchConfig, VerifierConfig, load_config
from lemmaforge.lean.kimina import KiminaVerifier
from lemmaforge.records import MemoryRecorder
from tests.fakes.scripted import PROBLEM, AutomationVerifier, ScriptedProver, SketchOnce, wired_engine

# Virtual time (looptime): the stand-ins' delays move the loop's clock, not the wall clock's.
pytestmark = pytest.mark.looptime

PACKAGE = Path(__file__).resolve().parents[2] / "lemmaforge"


async def test_search_section_reaches_the_engine(tmp_path: Path) -> None:
    """The engine takes config.py's `Settings` as they are (no options type between them): the
    `[search]` portfolio is what automation checks, `prover_samples_per_call` sizes the prover's
    requests, `[verifier] timeout` is every check's, `speculation` is the schedule."""
    config = tmp_path / "lemmaforge.toml"
    config.write_text(
        '[search]\nportfolio = ["auto_ok", "simp"]\nprover_samples_per_call = 2\nspeculation = "off"\n\n'
        "[budget]\nroot_whole_proof_attempts = 0\nprover_samples_per_goal = 4\nself_corrections = 0\n"
        "sketch_alternatives = 1\n\n[verifier]\ntimeout = 44\n",
        encoding="utf-8",
    )
    settings = load_config(config, environ={})
    verifier, prover = AutomationVerifier([], closes=False, room=None), ScriptedProver(["ok"], [0.0])
    engine = wired_engine(verifier, SketchOnce(), prover, recorder=MemoryRecorder(), settings=settings)
    result = await engine.prove(PROBLEM)
    assert result.proved
    automation = [c for c in verifier.checked if "auto_ok" in c]
    assert automation and all("| (auto_ok; done)\n    | (simp; done)" in c for c in automation)
    sizes = [r.n for r in prover.requests]
    assert sizes and set(sizes) == {2}  # 4 samples per goal, 2 per request
    assert verifier.timeouts and set(verifier.timeouts) == {44}
    assert result.stats.prefetched_calls == 0


def test_search_defaults_are_the_builtin_portfolio_one_lemma_check_and_n_per_request() -> None:
    search = load_config(None, environ={}).search
    assert search.portfolio is None  # the engine's built-in portfolio
    assert (search.automation, search.prover_samples_per_call, search.race_window) == ("lemma", 0, 1)
    assert search.speculation == "prefetch"


def test_search_keys_are_validated() -> None:
    with pytest.raises(ConfigError, match="search.automation"):
        load_config(None, {"search": {"automation": "everywhere"}}, environ={})
    with pytest.raises(ConfigError, match="search.correction_samples"):
        load_config(None, {"search": {"correction_samples": 0}}, environ={})
    with pytest.raises(ConfigError, match="search.race_window"):
        load_config(None, {"search": {"race_window": 0}}, environ={})


def test_kimina_knobs_reach_the_client() -> None:
    cfg = VerifierConfig(backend="kimina", kimina_batch_size=5, kimina_concurrency=40, kimina_batch_window=0.02,
                         kimina_position_mode="messages")
    verifier = KiminaVerifier.from_config(cfg)
    assert (verifier.batcher.batch_size, verifier.batcher.max_in_flight, verifier.batcher.window) == (5, 40, 0.02)
    assert verifier.position_mode == "messages"


@pytest.mark.parametrize("model", [SearchConfig, VerifierConfig])
def test_every_field_is_read_by_the_package(model: type) -> None:
    """A config field that no module outside config.py mentions does nothing."""
    sources = "\n".join(
        p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py") if p.name != "config.py"
    )
    unread = [name for name in model.model_fields if f".{name}" not in sources and f'"{name}"' not in sources]
    assert unread == []

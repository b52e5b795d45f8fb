"""Search options live in config: every `[search]` key reaches the engine, and the Kimina knobs
reach the client (no field that nothing reads)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lemmaforge.config import ConfigError, SearchConfig, VerifierConfig, load_config
from lemmaforge.lean.kimina import KiminaVerifier
from lemmaforge.search.automation import DEFAULT_PORTFOLIO
from lemmaforge.services import search_options

PACKAGE = Path(__file__).resolve().parents[2] / "lemmaforge"


def test_search_section_reaches_the_engine_options(tmp_path: Path) -> None:
    config = tmp_path / "lemmaforge.toml"
    config.write_text(
        '[search]\nportfolio = ["omega", "simp"]\nautomation = "proof_state"\ntactic_timeout = 7.5\n'
        "prover_samples_per_call = 2\ncorrection_samples = 3\nrace_window = 4\n\n[verifier]\ntimeout = 44\n",
        encoding="utf-8",
    )
    options = search_options(load_config(config, environ={}))
    assert options.portfolio == ("omega", "simp")
    assert options.automation_on_proof_state is True
    assert (options.tactic_timeout, options.prover_samples_per_call, options.correction_samples) == (7.5, 2, 3)
    assert options.check_timeout == 44
    assert options.race_window == 4


def test_search_defaults_are_the_builtin_portfolio_one_lemma_check_and_n_per_request() -> None:
    options = search_options(load_config(None, environ={}))
    assert options.portfolio == DEFAULT_PORTFOLIO
    assert options.automation_on_proof_state is False
    assert options.prover_samples_per_call == 0  # all of a goal's samples in one request
    assert options.race_window == 1  # a candidate goes while no earlier one is unanswered (or Lean has room)


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

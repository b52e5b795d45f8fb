"""`[search] speculation`: one switch for all of lemmaforge/schedule/. A `prove` on the stand-in
servers is traced (`sys.setprofile`, in every thread): with "off" no function of the package runs,
with "full" (and the default) its layers do, and both prove the theorem with the same verdict.
The keys it replaced are refused with one line naming it (exit 2)."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import lemmaforge
from tests.search.scenarios import SKETCH, add_planner, add_prover, closing_hole_rule, lean_block, prover_rule
from tests.search.test_prove_e2e import prove, servers  # noqa: F401  (the fixture)

SCHEDULE = str(Path(lemmaforge.__file__).parent / "schedule")


def _traced_prove(tmp_path: Path, kimina: Any, llm: Any, speculation: str) -> tuple[Any, set[str]]:
    ran: set[str] = set()

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(SCHEDULE):
            ran.add(f"{Path(frame.f_code.co_filename).stem}.{frame.f_code.co_qualname}")

    config = tmp_path / "lemmaforge.toml"
    config.write_text(f'[search]\nportfolio = ["auto_tac"]\nspeculation = "{speculation}"\n', encoding="utf-8")
    threading.setprofile(profile)
    sys.setprofile(profile)
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("LEMMAFORGE_CONFIG", str(config))
            result, _store = prove(tmp_path, kimina, llm)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    return result, ran


def _script(llm: Any) -> None:
    add_prover(llm, *prover_rule("Hard x", "exact hard_fact"))
    add_prover(llm, *closing_hole_rule())
    add_planner(llm, r"theorem t ", lean_block(SKETCH))


@pytest.mark.parametrize("speculation", ["off", "full", "prefetch"])
def test_speculation_off_runs_no_schedule_code_and_on_runs_it(tmp_path, servers, speculation):  # noqa: F811
    kimina, llm = servers
    _script(llm)
    result, ran = _traced_prove(tmp_path, kimina, llm, speculation)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["proved"] is True
    if speculation == "off":
        assert ran == set()
        assert out["prefetched_calls"] == out["checks_ahead"] == 0
        assert (out["calls"], out["checks"]) == (out["used_calls"], out["used_checks"])  # nothing unused
    else:
        assert {"layers.Speculative.goal", "layers.SpeculativeGoal.beside"} <= ran
        assert ("alternatives.Alternatives.run" in ran) == (speculation == "full")
    # "full" is experimental: one warning line says so when it is chosen, and only then
    assert ("is experimental" in result.stderr) == (speculation == "full"), result.stderr


@pytest.mark.parametrize("old", ["prefetch = false", "parallel_alternatives = true"])
def test_the_replaced_keys_are_refused_naming_the_new_one(tmp_path, servers, old):  # noqa: F811
    kimina, llm = servers
    config = tmp_path / "lemmaforge.toml"
    config.write_text(f"[search]\n{old}\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LEMMAFORGE_CONFIG", str(config))
        result, _store = prove(tmp_path, kimina, llm)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "speculation" in lines[0] and old.split()[0] in lines[0], lines

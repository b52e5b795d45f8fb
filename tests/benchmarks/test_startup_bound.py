"""A bench's start-up (the Lean version query, the statement checks before any attempt) and
`prove`'s preflight are bounded like the search's requests (issue 47, point 5): a Kimina server
that sends its headers and then trickles its body (the fake's "trickle" fault) used to keep a bench
waiting for minutes (2 x timeout + 90 s per try, then retries; with a 2 s timeout and a 12 s wall
budget, still running after 4 minutes). Now it stops once the wall budget has run out, with one
line naming the endpoint, exit 2 as for other infrastructure failures, and `--resume` continues.

The bounds below do not depend on the machine's speed: they are the budget plus the fixed
allowances the product grants (the version query's deadline, the verifier's close grace), plus a
margin, all far below the minutes a trickling server used to cost."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.lean.kimina._batcher import CLOSE_GRACE_SECONDS
from lemmaforge.lean.kimina._verifier import VERSION_SLACK_S
from tests.benchmarks.bench_helpers import ENV, SOLVABLE, bench_args, fake_servers
from tests.conftest import error_lines
from tests.errors.test_prove_faults import one_error_line, prove
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer

runner = CliRunner()
MARGIN_S = 15.0  # start-up of the command and the fakes on a loaded machine


def _bounded_stop(tmp_path, timeout: float, wall: float) -> None:
    db = f"sqlite:///{tmp_path / 'b.db'}"
    env = {**ENV, "LEMMAFORGE_VERIFIER__TIMEOUT": f"{timeout:g}", "LEMMAFORGE_BUDGET__WALL_SECONDS": f"{wall:g}"}
    with fake_servers(SOLVABLE) as (kimina, llm):
        # every check's answer: the headers at once, then a byte every 0.2 s; the health route still
        # answers (a trickling health request is bounded by its own deadline: tests/errors/test_deadlines.py)
        kimina.fault_always("trickle", paths=("/api/check",))
        started = time.monotonic()
        r = runner.invoke(app, bench_args(kimina, llm, db, "--limit", "2", "--run-id", "T"), env=env)
        elapsed = time.monotonic() - started
        assert r.exit_code == 2, r.output  # an infrastructure failure, as any other
        [line] = error_lines(r.stderr)
        assert kimina.url in line and f"wall time budget ({wall:g} s) ran out waiting on it" in line, line
        assert "--resume T" in line
        assert elapsed < timeout + VERSION_SLACK_S + wall + CLOSE_GRACE_SECONDS + MARGIN_S, elapsed
        assert llm.count("chat") == 0  # no attempt started: no model request spent
        # the server is fixed: --resume continues the bench, which completes
        kimina.fault_always(None)
        r = runner.invoke(app, ["bench", "--resume", "T", "--db", db, "--verifier", "kimina", "--kimina-url",
                                kimina.url, "--prover-url", llm.url, "--no-progress", "--json"], env=env)
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        assert out["complete"] and out["problems"] == 2 and out["resumed"]


# The three tests through the CLI below wait out real budgets and timeouts (6 to 15 s each): slow.
# The fast subset keeps the bound itself (`within_wall`, at the end of this file) and a trickling
# endpoint passing its deadline (tests/errors/test_deadlines.py).
@pytest.mark.slow
def test_a_trickling_kimina_stops_the_bench_at_its_wall_budget(tmp_path):
    _bounded_stop(tmp_path, timeout=1, wall=3)


@pytest.mark.slow
def test_the_issue_s_case_2s_timeout_12s_wall_budget(tmp_path):
    """The issue's numbers: before, still running after 4 minutes."""
    _bounded_stop(tmp_path, timeout=2, wall=12)


@pytest.mark.slow
def test_a_slow_but_answering_server_is_waited_for(tmp_path):
    """The control: a server that answers whole, only late (no stall), is not blamed when the wall
    budget runs out during a statement check: the check's own deadline bounds it, and the bench
    goes on."""
    db = f"sqlite:///{tmp_path / 'b.db'}"
    env = {**ENV, "LEMMAFORGE_BUDGET__WALL_SECONDS": "1"}
    with fake_servers(SOLVABLE) as (kimina, llm):
        kimina.delay = 1.5  # every answer 1.5 s late, then whole
        r = runner.invoke(app, bench_args(kimina, llm, db, "--limit", "1", "--json"), env=env)
    assert r.exit_code in (0, 1), r.output  # the attempt ran (whether its 1 s budget sufficed is the model's)
    assert json.loads(r.stdout)["tried"] == 1


@pytest.mark.slow
def test_prove_s_preflight_is_bounded_too(tmp_path):
    lean = ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed")])
    proof = "```lean4\ntheorem t (x : ℕ) : x = x := by\n  rfl\n```"
    with FakeKimina(responder=lean) as kimina, FakeOpenAIServer(default=proof) as llm:
        kimina.fault_always("trickle", paths=("/api/check",))
        started = time.monotonic()
        r, _db = prove(tmp_path, kimina, llm, env={"LEMMAFORGE_BUDGET__WALL_SECONDS": "3",
                                                  "LEMMAFORGE_VERIFIER__TIMEOUT": "1"})
        elapsed = time.monotonic() - started
        assert r.exit_code == 2, r.output
        line = one_error_line(r)
        assert kimina.url in line and "wall time budget (3 s)" in line, line
        assert elapsed < 3 + CLOSE_GRACE_SECONDS + MARGIN_S, elapsed
        assert llm.count("chat") == 0


# --- the bound itself (lemmaforge.waits.within_wall), without servers -----------------------------


async def test_within_wall_raises_the_stall_naming_the_backend(monkeypatch):
    from lemmaforge import waits

    monkeypatch.setattr(waits, "BODY_STALL_S", 0.0)
    cancelled = []

    async def trickled() -> None:
        with waits.waiting("Kimina server at http://127.0.0.1:9") as wait:
            wait.headers()  # the headers came; the body never completes
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.append(True)
                raise

    with pytest.raises(waits.StalledBackend, match=r"Kimina server at http://127.0.0.1:9.*wall time budget \(0.05 s\)"):
        await waits.within_wall(trickled(), 0.05)
    assert cancelled == [True]  # the stalled request was cancelled, not left running


async def test_within_wall_waits_for_a_request_that_has_not_stalled():
    """No headers yet: the server may be working; only the request's own deadline can tell."""
    from lemmaforge import waits

    answered = asyncio.Event()

    async def slow() -> int:
        with waits.waiting("Kimina server at http://127.0.0.1:9"):
            await answered.wait()
        return 7

    asyncio.get_running_loop().call_later(0.3, answered.set)  # after the 0.05 s budget: wall clock, as within_wall's
    assert await waits.within_wall(slow(), 0.05) == 7

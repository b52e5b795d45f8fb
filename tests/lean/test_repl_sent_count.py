"""The REPL pool's close edge: a check handed a worker just as the pool closes is charged to the
run's budget (and counted in the pool's `checks`) only if it reached Lean.

The fake REPL logs every request it reads: what it received is the measure. The second check needs
another header, so the worker it is handed must first replace its process: the pool closes while
its thread does that (or before the thread starts), and the check never reaches Lean.
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from lemmaforge.config import BudgetConfig
from lemmaforge.lean.repl import ReplVerifier
from lemmaforge.lean.verifier import CheckStatus
from lemmaforge.search.budget import Budget, BudgetedVerifier
from tests.fakes.fake_repl import make_fake_repl_config
from tests.waiting import until

HEADER = "import Mathlib\n\n"
OTHER_HEADER = "import Mathlib\nimport Aesop\n\n"


def _bodies(fake) -> list[str]:
    """The checks the fake REPL received (their bodies start with a `-- label` line)."""
    return [e["head"].split("\n")[0][3:] for e in fake.requests() if e["head"].startswith("-- ")]


@pytest.mark.slow  # starts fake REPL processes (about 2 s each on 2 shared cores)
@pytest.mark.parametrize("cancelled", [False, True], ids=["closed", "cancelled-and-closed"])
async def test_a_check_handed_a_worker_as_the_pool_closes_counts_only_if_it_reached_lean(tmp_path, cancelled) -> None:
    fake = make_fake_repl_config(tmp_path / "fake", latency={"cmd_s": 0.2}, transcripts=False)
    pool = ReplVerifier(fake.config, workers=1, timeout=30.0, header_timeout=30.0, max_checks_per_worker=1000)
    budget = Budget(BudgetConfig(lean_checks=10))
    lean = BudgetedVerifier(pool, budget, timeout=30)
    try:
        first = asyncio.ensure_future(lean.check(HEADER + "-- first\ntheorem a : True := trivial"))
        await until(lambda: _bodies(fake) == ["first"], what="the first check at the fake")
        # The one worker is busy: the second check waits for it in the pool's queue.
        second = asyncio.ensure_future(lean.check(OTHER_HEADER + "-- second\ntheorem b : True := trivial"))
        await asyncio.sleep(0)
        assert (await first).status is not CheckStatus.CRASHED
        # The first check's end handed its worker to the second (whose task runs before this one
        # resumes): close the pool now, while the second check's thread replaces the process.
        if cancelled:
            second.cancel()
        await pool.close()
        outcome = (await asyncio.gather(second, return_exceptions=True))[0]
    finally:
        await pool.close()
    # a process the worker's thread might have started would have logged once the thread is done
    await until(lambda: not [t for t in threading.enumerate() if t.name.startswith("lemmaforge-repl")],
                what="the pool's worker threads to finish")
    assert _bodies(fake) == ["first"]  # the second check never reached Lean…
    assert budget.stats.checks == 1 == pool.stats().checks  # …and is not counted
    assert budget.stats.cancelled_checks == 0 and budget.held_checks == 0  # its unit was given back
    if cancelled:
        assert isinstance(outcome, asyncio.CancelledError)
    else:
        assert outcome.status is CheckStatus.CRASHED and outcome.error == "the REPL verifier was closed"

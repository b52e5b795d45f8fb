"""Scripted builders for the search's and the schedule's tests.

`wired_engine` is `SearchEngine` with its schedule picked from the settings' `[search]
speculation` exactly as `services.prove_problem` picks it (`services.schedule_for`): a test that
builds an engine by hand runs the schedule the product would run with those settings. The
stand-ins below are shared by several test files (a candidate or sketch, a planner that sketches
every goal with one `have`, a verifier whose every check takes 50 ms of the loop's time).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from lemmaforge.config import Settings
from lemmaforge.lean.verifier import CheckResult, Verifier
from lemmaforge.records import Recorder
from lemmaforge.search.cache import SubgoalCache
from lemmaforge.search.engine import SearchEngine
from lemmaforge.search.interfaces import PlannerLike, ProverLike
from lemmaforge.search.tree import ProofTree
from lemmaforge.services import schedule_for
from tests.fakes.agents import AgentStandIn
from tests.fakes.fake_common import CheckOnlyVerifier, probe_response


def wired_engine(
    verifier: Verifier, planner: PlannerLike | None, prover: ProverLike | None, *, recorder: Recorder,
    settings: Settings | None = None, on_update: Callable[[ProofTree], None] | None = None,
    cache: SubgoalCache | None = None,
) -> SearchEngine:
    settings = settings or Settings()
    return SearchEngine(verifier, planner, prover, recorder=recorder, settings=settings, on_update=on_update,
                        cache=cache, schedule=schedule_for(settings))


class Candidate:
    """A model output as the engine reads it (a prover candidate, or a sketch with `body` None)."""

    def __init__(self, code: str, body: str | None) -> None:
        self.code, self.body, self.raw, self.call_id, self.aux = code, body, "", None, ""


class OneHavePlanner(AgentStandIn):
    """Sketches any statement with one `have` (a hole) and the closing `sorry` (a second hole)."""

    async def draft(self, header, statement, informal=None, n=1, *, avoid=()):
        head = statement.rstrip()
        assert head.endswith("sorry")
        return [Candidate(head[: -len("sorry")] + "have a : x = x := by sorry\n  sorry\n", None)]

    async def correct(self, *a, **kw):
        return []


class TimedVerifier(CheckOnlyVerifier):
    """Sketches check with their holes, a file with `  bad` fails, anything else checks; each
    check takes 50 ms and is logged with its start and end."""

    def __init__(self, room: bool) -> None:
        self.room = room
        self.log: list[tuple[str, float, float]] = []
        self.started: list[str] = []  # every check received (`log`: those answered)

    def has_room(self) -> bool:
        return self.room

    async def check(self, code: str, *, timeout=None) -> CheckResult:
        loop = asyncio.get_running_loop()
        started = loop.time()
        self.started.append(code)
        await asyncio.sleep(0.05)
        self.log.append((code, started, loop.time()))
        if (probed := probe_response(code)) is not None:
            return CheckResult.from_repl_response(probed)
        if "sorry" in code:
            holes = [{"pos": {"line": 99, "column": 0}, "goal": "⊢ x", "endPos": None}]
            return CheckResult.from_repl_response({"env": 0, "messages": [], "sorries": holes})
        bad = "  bad" in code
        msgs = [{"severity": "error", "pos": {"line": 1, "column": 0}, "data": "nope"}] if bad else []
        return CheckResult.from_repl_response({"env": 0, "messages": msgs})

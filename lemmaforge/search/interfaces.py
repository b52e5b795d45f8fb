"""What the search engine takes and gives back: the agent-layer Protocols it talks to (planner,
prover and their outputs), the schedule hooks, and its result types. Its configuration is
config.py's (`Settings`: `budget`, `audit`, `search`, `verifier.timeout`).

Kept apart from `engine.py` so that callers (services, bench, training) can name these types
without reading the search loop, and the engine module stays about the search itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, TypeVar

from lemmaforge.lean.audit import AuditReport
from lemmaforge.search.budget import DoorSchedule, SearchStats
from lemmaforge.search.tree import ProofTree

if TYPE_CHECKING:
    from lemmaforge.search.assemble import Solution
    from lemmaforge.search.budget import Budget, BudgetedVerifier
    from lemmaforge.search.cache import SubgoalCache
    from lemmaforge.search.tree import Node

T = TypeVar("T")

# --- what the engine needs from the agent layer ----------------------------------------------------


# Read-only members: the engine only reads them, and the agents' own types are frozen dataclasses.


class SketchLike(Protocol):
    @property
    def code(self) -> str: ...  # the theorem with its sketch proof (no header)

    @property
    def informal(self) -> str | None: ...

    @property
    def raw(self) -> str: ...

    @property
    def call_id(self) -> str | None: ...


class CandidateLike(Protocol):
    @property
    def code(self) -> str: ...  # the lemma with the model's proof (no header)

    @property
    def body(self) -> str | None: ...  # the tactic proof, dedented

    @property
    def aux(self) -> str: ...  # helper declarations its model wrote before its theorem ("" for none)

    @property
    def raw(self) -> str: ...

    @property
    def call_id(self) -> str | None: ...


class PlannerLike(Protocol):
    def has_room(self) -> bool:
        """Whether a request sent now would not wait behind others (work ahead of need only goes
        then: search/schedule); a planner that cannot say has none."""

    async def draft(
        self, header: str, statement: str, informal: str | None = None, n: int = 1, *, avoid: Sequence[str] = ()
    ) -> Sequence[SketchLike]: ...

    # `sketch`: one this planner returned (an implementation may need its own fields of it).
    async def correct(
        self, header: str, statement: str, sketch: Any, errors: list[str], n: int = 1, *,
        checked_code: str | None = None,
    ) -> Sequence[SketchLike]: ...


OnCandidate = Callable[[CandidateLike], None]


class ProverLike(Protocol):
    """Every prover the search (and expert iteration's sampling) is given takes all of these
    parameters; one with no use for a parameter ignores it."""

    async def prove(
        self, header: str, lemma_statement: str, n: int = 1, *, informal: str | None = None,
        on_candidate: OnCandidate | None = None,
    ) -> Sequence[CandidateLike]:
        """`informal`: the problem's informal statement, given for the theorem itself (never for a
        subgoal lemma it does not describe). `on_candidate`: told each candidate as soon as its
        sample is complete (a streaming model: before the call returns; schedule/feed.py), once,
        with the objects the call returns."""

    def has_room(self) -> bool:
        """As `PlannerLike.has_room`."""

    @property
    def corrects(self) -> bool:
        """Whether `correct` may be asked (a family not trained on Lean's errors is not: a request
        that sends nothing must not be charged as an LLM call)."""

    async def correct(
        self, header: str, candidate: Any, errors: Sequence[Any], n: int = 1, *,
        on_candidate: OnCandidate | None = None, checked_code: str | None = None,
    ) -> Sequence[CandidateLike]:
        """`candidate`: one this prover returned (the agents' Prover reads its statement and
        history). `errors`: Lean's `Message`s on `checked_code`, the file the candidate was checked
        as (their positions refer to it; None: the prover's own `header + candidate.code`).
        `on_candidate`: as for `prove`."""


def correction(
    prover: ProverLike, header: str, candidate: Any, errors: Sequence[Any], n: int, checked_code: str
) -> MakeRequest:
    """A correction request as a schedule makes it: told where its candidates go."""
    return lambda told: prover.correct(header, candidate, errors, n, on_candidate=told, checked_code=checked_code)


# --- results and budgets ---------------------------------------------------------------------------


# --- results ------------------------------------------------------------------------------------


@dataclass(slots=True)
class SearchResult:
    run_id: str
    proved: bool
    proof: str | None  # the whole assembled file, audited
    depth: int | None
    seconds: float
    stats: SearchStats
    stop_reason: str
    tree: ProofTree
    audit: AuditReport | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "proved": self.proved,
            "proof": self.proof,
            # sent (each charged to its budget), and of that what the search used (search/budget.py)
            "calls": self.stats.llm_calls,
            "checks": self.stats.checks,
            "used_calls": self.stats.used_calls,
            "used_checks": self.stats.used_checks,
            "preflight_checks": self.stats.preflight_checks,
            "prompt_tokens": self.stats.prompt_tokens,
            "completion_tokens": self.stats.completion_tokens,
            "depth": self.depth,
            "seconds": round(self.seconds, 3),
            "run_id": self.run_id,
            "stop_reason": self.stop_reason,
            "nodes": len(self.tree),
            "cache_hits": self.stats.cache_hits,
            "cache_misses": self.stats.cache_misses,
            "cancelled_calls": self.stats.cancelled_calls,
            "cancelled_checks": self.stats.cancelled_checks,
            "prefetched_calls": self.stats.prefetched_calls,
            "prefetched_unused": self.stats.prefetched_unused,
            "checks_ahead": self.stats.checks_ahead,
            "checks_ahead_unused": self.stats.checks_ahead_unused,
            "speculative_calls": self.stats.speculative_calls,
            "speculative_checks": self.stats.speculative_checks,
            "engine_seconds": round(self.stats.engine_seconds, 4),
            "audit": self.audit.to_json() if self.audit else None,
        }


# --- around the agent and the store -------------------------------------------------------------


class Generated(list[Any]):
    """What one model request returned, and how long it took (for the attempts it leads to)."""

    seconds: float = 0.0


# --- when work runs: the hooks a schedule implements -------------------------------------------------
#
# The engine says WHAT it does (search/engine.py) and states what it needs as it goes: a model
# request is known (`GoalSchedule.known`) or needed now (`needed`), a step runs (`beside`), a Lean
# check is about to go (`DoorSchedule.order` / `started`, asked by the run's door), siblings are
# ranked (`ranked`), a sketch's holes are open (`sketch`), a check would settle a goal
# (`checking`), a goal is settled (`close`). A schedule says WHEN the work runs and hands the
# results back (`Pending.answer`, `SketchTries.won`, `work`'s `elsewhere`); it never marks a node
# nor writes the run's counts (it tells the budget: search/budget.py). The plain schedule
# (search/plain.py: each step when the one before it is done, nothing held, nothing ahead) is what
# `[search] speculation = "off"` runs; lemmaforge/schedule/ implements the same hooks with
# requests started ahead, streamed candidates, assembly ahead, sibling holding and parallel
# alternatives. Whoever wires the engine picks one (`SearchEngine(schedule=…)`); the engine only
# ever calls these.

# A model request's maker: given where to tell each candidate as its sample completes (None:
# nowhere; a streaming prover tells its candidates there), it makes the request's coroutine.
MakeRequest = Callable[[OnCandidate | None], Awaitable[Sequence[object]]]
Step = Literal["automation", "prover"]
RequestKind = Literal["prover", "draft"]  # whose request: the prover's (candidates) or the planner's (a sketch)
GroupKind = Literal["race", "holes"]  # a race's candidates by arrival, a sketch's holes by position
Work: TypeAlias = Coroutine[object, None, T]  # one member's work in a ranked group


class Feed(Protocol):
    """A request's candidates as they arrive (schedule/feed.py)."""

    def listen(self, listener: Callable[[CandidateLike, float], None]) -> Callable[[], None]: ...


class Pending(Protocol):
    """A model request of one goal, made known to its schedule; its answer when the engine asks."""

    @property
    def feed(self) -> Feed | None:
        """Its candidates as they arrive, where the schedule streams them (None: with the answer)."""

    def answer(self) -> Awaitable[Generated]:
        """The request's answer (asked once): the one started ahead, else the request made now."""


class Ranked(Protocol):
    """Work of one group in rank order (a race's candidates, a sketch's holes): `add` wraps the
    rank's work (entered now, run in its own task); `end` when the group is settled."""

    def add(self, rank: int, work: Work[T]) -> Work[T]: ...

    def end(self) -> None: ...


class SketchTries(Protocol):
    """A goal's alternative sketches as the engine tries them (search/engine.py `_SketchTries`):
    a schedule runs them one at a time (search/plain.py) or beside each other
    (schedule/alternatives.py), through these and nothing else."""

    @property
    def count(self) -> int:
        """How many alternatives may be drafted (`sketch_alternatives`)."""

    def draft(self) -> Awaitable[Generated]:
        """The next alternative's sketch request, answered (asked to differ from the sketches drafted
        before); once it is answered with a sketch, the request after it is made known."""

    def attempt(self, sketches: Generated) -> Awaitable[Solution | None]:
        """One drafted sketch tried for the goal: elaborated, its holes solved, assembled."""

    def won(self, solution: Solution) -> Solution:
        """`solution` (an attempt's) settles the goal: the engine records it."""


class GoalSchedule(Protocol):
    """When one goal's work runs (made in the goal's own task)."""

    def known(self, kind: RequestKind, request: MakeRequest) -> Pending:
        """A model request of the goal is known before the step that needs it (the prover's
        before automation, the next sketch's before the prover): the schedule may start it."""

    def needed(self, request: MakeRequest) -> Pending:
        """A model request the goal's step needs now (a correction; one not made known before)."""

    def beside(self, attempt: Awaitable[Solution | None], step: Step) -> Awaitable[Solution | None]:
        """Run the goal's `step`; what runs beside it (checks of known requests' answers) is the
        schedule's."""

    def work(self, work: Callable[[], Awaitable[Solution | None]],
             elsewhere: Callable[[str], Solution]) -> Awaitable[Solution | None]:
        """The goal's own work (after its cache miss). A schedule that settles the goal because its
        statement was proved elsewhere meanwhile hands that proof to `elsewhere` (the engine
        records it) and returns what it returns."""

    def sketches(self, tries: SketchTries) -> Awaitable[Solution | None]:
        """The goal's alternative sketches: a solution one of them won (`tries.won`'s), or None."""

    def close(self) -> None:
        """The goal is settled: what was started for it and not taken is dropped."""


class SketchSchedule(Protocol):
    """One sketch whose holes are being solved."""

    def solved(self, hole: Node, solution: Solution) -> None:
        """One of its holes is solved (before its assembly)."""

    def close(self) -> None:
        """The sketch is settled (assembled, or abandoned)."""


class Schedule(DoorSchedule, Protocol):
    """When one search's work runs (one per run; `DoorSchedule`'s three: what the run's Lean door
    and budget ask as work leaves)."""

    def scope(self) -> AbstractContextManager[object]:
        """Around the whole search."""

    def goal(self, node: Node) -> GoalSchedule:
        """A goal's work starts (in the goal's own task)."""

    def ranked(self, kind: GroupKind, window: int = 1) -> Ranked:
        """A group of siblings: a goal's prover candidates ranked by arrival (`window`: how many may
        be open before a later one waits), a sketch's holes by position."""

    def sketch(self, sketch: Node, goal: Node, holes: Sequence[Node]) -> SketchSchedule:
        """`sketch` (for `goal`) is being solved through its `holes`."""

    def checking(self, goal: Node, would_be: Callable[[], Solution | None]) -> AbstractContextManager[object]:
        """Within: a check whose success would settle `goal` with `would_be()` is out."""


class SearchRun(Protocol):
    """What a schedule sees of one search (search/engine.py `_Run`): its doors, nothing that
    records."""

    header: str  # everything before the theorem: the context of every check and prompt
    theorem: str
    original: str  # the problem as given (header + statement): what the audit compares to
    budget: Budget
    lean: BudgetedVerifier
    cache: SubgoalCache
    planner: PlannerLike | None
    prover: ProverLike | None

    def generate(self, call: Awaitable[Sequence[object]]) -> Awaitable[Generated]:
        """One model request through the run's budget."""

    def candidate_code(self, node: Node, candidate: CandidateLike) -> str:
        """The file a candidate for `node` is checked as."""


MakeSchedule = Callable[[SearchRun], Schedule]  # what wires a run's schedule (services, or the caller)

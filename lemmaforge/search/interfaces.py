"""What the search engine takes and gives back: the agent-layer Protocols it talks to (planner,
prover and their outputs), its options, and its result types.

Kept apart from `engine.py` so that callers (services, bench, training) can name these types
without reading the search loop, and the engine module stays about the search itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeGuard

from lemmaforge.callables import takes_keyword
from lemmaforge.config import AuditConfig, BudgetConfig, Settings
from lemmaforge.lean.audit import AuditReport
from lemmaforge.search import automation
from lemmaforge.search.budget import SearchStats
from lemmaforge.search.tree import ProofTree

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
    def raw(self) -> str: ...

    @property
    def call_id(self) -> str | None: ...


class PlannerLike(Protocol):
    async def draft(
        self, header: str, statement: str, informal: str | None = None, n: int = 1, *, avoid: Sequence[str] = ()
    ) -> Sequence[SketchLike]: ...

    # `sketch`: one this planner returned (an implementation may need its own fields of it).
    async def correct(
        self, header: str, statement: str, sketch: Any, errors: list[str], n: int = 1, *,
        checked_code: str | None = None,
    ) -> Sequence[SketchLike]: ...


class ProverLike(Protocol):
    """`prove` may also take `informal=` (keyword): the problem's informal statement, passed for the
    theorem itself when the problem has one and the method names that parameter."""

    async def prove(self, header: str, lemma_statement: str, n: int = 1) -> Sequence[CandidateLike]: ...

    # `candidate`: one this prover returned (the agents' Prover reads its statement and history).
    # `errors`: Lean's `Message`s on the file the candidate was checked as (start and end of each);
    # a prover whose `correct` takes `checked_code=` is given that file.
    async def correct(
        self, header: str, candidate: Any, errors: Sequence[Any], n: int = 1
    ) -> Sequence[CandidateLike]: ...


class InformalProverLike(Protocol):
    """A prover whose `prove` takes the problem's informal statement (`takes_informal`)."""

    async def prove(
        self, header: str, lemma_statement: str, n: int = 1, *, informal: str | None = None
    ) -> Sequence[CandidateLike]: ...


def takes_informal(prover: Any) -> TypeGuard[InformalProverLike]:
    """Whether `prover.prove` has a parameter named `informal` (a prover written without one keeps
    working: it is simply not given the informal statement)."""
    prove = getattr(prover, "prove", None)
    return prove is not None and takes_keyword(prove, "informal")


def prove_request(
    prover: ProverLike, header: str, statement: str, n: int, informal: str | None = None,
    on_candidate: Callable[[CandidateLike], None] | None = None,
) -> Awaitable[Sequence[CandidateLike]]:
    """`prover.prove(header, statement, n=n)`, given `informal=` too when there is one and the
    prover takes it (the search's root attempts, expert iteration's sampling), and `on_candidate=`
    when the prover takes it (each candidate as soon as its sample is complete: search/feed.py)."""
    extra: dict[str, Any] = {}
    if informal and takes_informal(prover):
        extra["informal"] = informal
    if on_candidate is not None and takes_keyword(prover.prove, "on_candidate"):
        extra["on_candidate"] = on_candidate
    return prover.prove(header, statement, n=n, **extra)


def correct_request(
    prover: ProverLike, header: str, candidate: Any, errors: Sequence[Any], n: int,
    on_candidate: Callable[[CandidateLike], None] | None = None, *, checked_code: str | None = None,
) -> Awaitable[Sequence[CandidateLike]]:
    """`prover.correct(header, candidate, errors, n=n)`, with `on_candidate=` and `checked_code=`
    (the file Lean's positions refer to) where the prover takes them."""
    extra: dict[str, Any] = {}
    if on_candidate is not None and takes_keyword(prover.correct, "on_candidate"):
        extra["on_candidate"] = on_candidate
    if checked_code is not None and takes_keyword(prover.correct, "checked_code"):
        extra["checked_code"] = checked_code
    return prover.correct(header, candidate, errors, n=n, **extra)


# --- results and budgets ---------------------------------------------------------------------------


# --- results and options ------------------------------------------------------------------------


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


@dataclass(slots=True)
class SearchOptions:
    budget: BudgetConfig = field(default_factory=BudgetConfig)
    audit: AuditConfig = field(default_factory=AuditConfig)
    portfolio: tuple[str, ...] = automation.DEFAULT_PORTFOLIO
    check_timeout: float = 120.0
    tactic_timeout: float = 30.0
    # Samples per model request: 0 = all of a goal's samples in one request (`n = k`, one prompt
    # prefill); 1 = one request per sample, each verified the moment it arrives.
    prover_samples_per_call: int = 0
    correction_samples: int = 2
    race_window: int = 1  # see SearchConfig.race_window
    prefetch: bool = True  # see SearchConfig.prefetch
    parallel_alternatives: bool = False  # see SearchConfig.parallel_alternatives
    # Automation on the hole's proof state (one pinned tactic step per tactic) instead of one
    # check of the standalone lemma on any worker (see SearchConfig.automation).
    automation_on_proof_state: bool = False

    @classmethod
    def from_settings(cls, settings: Settings) -> SearchOptions:
        search = settings.search
        return cls(
            budget=settings.budget,
            audit=settings.audit,
            portfolio=tuple(search.portfolio) if search.portfolio is not None else automation.DEFAULT_PORTFOLIO,
            check_timeout=settings.verifier.timeout,
            tactic_timeout=search.tactic_timeout,
            prover_samples_per_call=search.prover_samples_per_call,
            correction_samples=search.correction_samples,
            race_window=search.race_window,
            prefetch=search.prefetch,
            parallel_alternatives=search.parallel_alternatives,
            automation_on_proof_state=search.automation == "proof_state",
        )


# --- around the agent and the store -------------------------------------------------------------


class Generated(list[Any]):
    """What one model request returned, and how long it took (for the attempts it leads to)."""

    seconds: float = 0.0


def store_lookup(recorder: Any) -> Any:
    """A recorder that can also answer cache reads (older wiring): its `cached_proof` is the
    subgoal cache's store lookup. A write-only recorder gives an in-run cache only."""
    return recorder if callable(getattr(recorder, "cached_proof", None)) else None

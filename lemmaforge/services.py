"""Services wiring: configuration → verifier, LLM clients, recorder (store, cache), search engine.
Used by `prove`, `bench` and the training commands.

The search engine receives Protocols; this is the one place that picks the concrete classes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import platform
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lemmaforge import waits
from lemmaforge.agent.llm import LLM, LLMMisconfiguredError, make_llm
from lemmaforge.agent.planner import Planner
from lemmaforge.agent.presets import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_TEMPERATURE,
    DEFAULT_TOP_P,
    REASONING_MAX_TOKENS,
    ProverPreset,
    get_preset,
    is_reasoning_model,
    preset_for_model,
)
from lemmaforge.agent.prover import Prover
from lemmaforge.config import ConfigError, LLMEndpoint, Settings
from lemmaforge.db import SqlRecorder, Store
from lemmaforge.doctor import require_llm, require_verifier
from lemmaforge.errors import InputError, StatementInvalid
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.backends import make_verifier
from lemmaforge.lean.gate import GatedVerifier
from lemmaforge.lean.verifier import Verifier, VerifierMisconfigured
from lemmaforge.records import (
    ForwardingRecorder,
    LLMCallRecord,
    MemoryRecorder,
    ProblemRecord,
    RunFinished,
    StoreRecorder,
    new_id,
)
from lemmaforge.search.budget import SearchStats
from lemmaforge.search.cache import SubgoalCache
from lemmaforge.search.engine import SearchEngine
from lemmaforge.search.interfaces import MakeSchedule, SearchResult
from lemmaforge.search.plain import PlainSchedule
from lemmaforge.search.tree import ProofTree
from lemmaforge.versions import __version__, mathlib_version, package_version

log = logging.getLogger(__name__)

MINIF2F_HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"


class ProblemError(InputError, ValueError):
    """The input is not a provable problem (no theorem, no proof slot); one line."""


def problem_from_code(code: str, *, dataset: str = "adhoc", name: str | None = None) -> ProblemRecord:
    """A problem from a whole Lean file: header (imports, options, opens) + the theorem."""
    header, statement = lean_syntax.split_header(code)
    theorem = lean_syntax.last_theorem(statement)
    if theorem is None:
        raise ProblemError("no theorem or lemma found")
    if not lean_syntax.holes(statement[theorem.start :]):
        raise ProblemError(f"theorem '{theorem.name}' has no `sorry` to prove (nothing to do)")
    digest = hashlib.sha256((header + statement).encode("utf-8")).hexdigest()[:12]
    problem_name = name or theorem.name
    return ProblemRecord(
        problem_id=f"{dataset}/{problem_name}/{digest}",
        name=problem_name,
        header=header if header.endswith("\n") or not header else header + "\n",
        statement=statement if statement.endswith("\n") else statement + "\n",
        dataset=dataset,
    )


def versions(settings: Settings) -> dict[str, str | None]:
    """Everything a run's result depends on that is not in the config."""
    out: dict[str, str | None] = {
        "lemmaforge": __version__,
        "python": platform.python_version(),
        "lean-interact": package_version("lean-interact"),
        "openai": package_version("openai"),
        "lean": None,
        "mathlib": None,
        "planner_model": settings.planner.model,
        "prover_model": settings.prover.model,
    }
    project = settings.verifier.project
    # where the Lean version came from: a file or a setting claims it; only "verifier" (the
    # verifier's Lean said it, `cli/bench.py`) is verified, and reports say which
    if project is not None:
        toolchain = Path(project) / "lean-toolchain"
        if toolchain.is_file():
            out["lean"] = toolchain.read_text(encoding="utf-8").strip()
            out["lean_from"] = "the project's lean-toolchain"
        out["mathlib"] = mathlib_version(Path(project))
    elif settings.verifier.backend == "repl":
        out["lean"] = settings.verifier.lean_version
        out["lean_from"] = "verifier.lean_version"
    if settings.verifier.sandbox and settings.verifier.backend != "kimina":
        # which bubblewrap ran Lean (lean/sandbox.py); the on/off switch itself is in the config
        from lemmaforge.lean.sandbox import bwrap_version, find_bwrap

        found = find_bwrap()
        out["sandbox"] = (bwrap_version(found) if found else None) or "bwrap"
    return out


@dataclass(slots=True)
class Services:
    """What runs share: one verifier pool and one client per model endpoint (with its
    concurrency limit). Planner and prover objects are made per run, bound to its id."""

    verifier: Verifier
    recorder: StoreRecorder  # also the store's lookup of earlier proofs (each run's subgoal cache reads it)
    planner_llm: LLM | None
    prover_llm: LLM | None
    cot: bool = False


def _explicit(endpoint: LLMEndpoint, defaults: dict[str, Any]) -> dict[str, Any]:
    """`defaults` with the sampling values the configuration sets (not None) instead."""
    given = {"temperature": endpoint.temperature, "top_p": endpoint.top_p, "max_tokens": endpoint.max_tokens}
    return {k: given[k] if given[k] is not None else v for k, v in defaults.items()}


def prover_preset(settings: Settings) -> ProverPreset | None:
    """The preset `[prover] preset` names (set by the user, or by `resolve_endpoints` from the
    served model); None: the built-in default (DeepSeek-Prover-V2's prompt, `--cot` chooses)."""
    return get_preset(settings.prover.preset) if settings.prover.preset else None


def prover_sampling(endpoint: LLMEndpoint, preset: ProverPreset | None) -> dict[str, Any]:
    """What the prover samples with: the configuration's values where it sets them, else the
    preset's (published), else 1.0 / 0.95 / 8192."""
    defaults = preset.sampling() if preset is not None else {
        "temperature": DEFAULT_TEMPERATURE, "top_p": DEFAULT_TOP_P, "max_tokens": DEFAULT_MAX_TOKENS}
    return _explicit(endpoint, defaults)


def planner_is_reasoning(endpoint: LLMEndpoint) -> bool:
    return endpoint.reasoning if endpoint.reasoning is not None else is_reasoning_model(endpoint.model)


def planner_sampling(endpoint: LLMEndpoint) -> dict[str, Any]:
    """A reasoning planner (DeepSeek-R1 style): the server's default temperature and top_p (none
    sent) unless the configuration sets them, and room for its thinking; any other planner: 1.0 /
    0.95 / 8192 unless set."""
    if planner_is_reasoning(endpoint):
        return _explicit(endpoint, {"temperature": None, "top_p": None, "max_tokens": REASONING_MAX_TOKENS})
    return _explicit(endpoint, {"temperature": DEFAULT_TEMPERATURE, "top_p": DEFAULT_TOP_P,
                                "max_tokens": DEFAULT_MAX_TOKENS})


def agents_for_run(services: Services, settings: Settings, run_id: str) -> tuple[Planner | None, Prover | None]:
    """Planner and prover whose every LLM call is recorded under `run_id`."""
    planner: Planner | None = None
    prover: Prover | None = None
    if services.planner_llm is not None:
        planner = Planner(services.planner_llm.bind(services.recorder, run_id),
                          reasoning=planner_is_reasoning(settings.planner), **planner_sampling(settings.planner))
    if services.prover_llm is not None:
        preset = prover_preset(settings)
        llm = services.prover_llm.bind(services.recorder, run_id)
        if preset is not None and llm.mode != preset.endpoint:
            llm.mode = preset.endpoint  # this run's view of the model (`bind` made a copy)
        prover = Prover(llm, cot=services.cot, preset=preset, **prover_sampling(settings.prover, preset))
    return planner, prover


def open_recorder(db_url: str | None, *, deferred: bool = False) -> tuple[StoreRecorder, Callable[[], None]]:
    """The SQL recorder for `db_url` (None: in memory) and the function that flushes and closes it.
    `deferred`: the store is opened (the SQLite file created) only when first needed — by
    `DeferredStore.open`, which the command calls once its preflight passed, or by the first
    record or read — so that a command that stops in its preflight writes nothing."""
    if db_url is None:
        return MemoryRecorder(), lambda: None
    if deferred:
        store = DeferredStore(db_url)
        return store, store.close
    recorder = SqlRecorder(Store(db_url))
    return recorder, recorder.close


class DeferredStore:
    """A `StoreRecorder` whose store is opened when first needed (`open`, or the first `emit`,
    `cached_proof` or flush): `prove` opens it once its preflight passed, so that a run stopped
    by a bad endpoint, verifier or statement creates no database. Raises StoreError from
    whichever call opens it."""

    def __init__(self, db_url: str) -> None:
        self.db_url = db_url
        self._recorder: SqlRecorder | None = None

    @property
    def opened(self) -> bool:
        return self._recorder is not None

    def open(self) -> SqlRecorder:
        if self._recorder is None:
            self._recorder = SqlRecorder(Store(self.db_url))
        return self._recorder

    def emit(self, record: Any) -> None:
        self.open().emit(record)

    def cached_proof(self, header: str, normalized_statement: str) -> str | None:
        return self.open().cached_proof(header, normalized_statement)

    def flush(self, timeout: float | None = None) -> None:
        if self._recorder is not None:
            self._recorder.flush(timeout)

    async def aflush(self) -> None:
        if self._recorder is not None:
            await self._recorder.aflush()

    def close(self) -> None:
        if self._recorder is not None:
            self._recorder.close()


async def open_store_after_preflight(recorder: StoreRecorder) -> None:
    """Open a `DeferredStore` somewhere in `recorder`'s wrappers (a thread: it may create the
    database and run its migrations); any other recorder is open already."""
    inner: Any = recorder
    while inner is not None and not isinstance(inner, DeferredStore):
        inner = getattr(inner, "inner", None)
    if isinstance(inner, DeferredStore) and not inner.opened:
        await asyncio.to_thread(inner.open)


@asynccontextmanager
async def open_services(
    settings: Settings, *, recorder: StoreRecorder, cot: bool = False, verifier: Verifier | None = None
) -> AsyncIterator[Services]:
    """Verifier and models for a run; closed on exit. Raises VerifierError / LLMMisconfiguredError
    (one line each) when a backend cannot be built."""
    warn_if_experimental(settings)  # once per command that opens its services
    # Lean first: on a machine without it, that is the thing to fix first.
    own_verifier = verifier is None
    lean: Verifier = verifier if verifier is not None else make_verifier(settings.verifier)
    if not settings.planner.url and not settings.prover.url:
        if own_verifier:
            await lean.close()
        raise LLMMisconfiguredError(
            "no model configured: set --prover-url (and --planner-url for decomposition), "
            "or [prover].url / [planner].url in the config"
        )
    planner_llm: LLM | None = None
    prover_llm: LLM | None = None
    try:
        planner_llm = make_llm(settings.planner, "planner", recorder=recorder) if settings.planner.url else None
        prover_llm = make_llm(settings.prover, "prover", recorder=recorder) if settings.prover.url else None
        yield Services(lean, recorder, planner_llm, prover_llm, cot)
    finally:
        for llm in (planner_llm, prover_llm):
            if llm is not None:
                await llm.close()
        if own_verifier:
            await lean.close()


# --------------------------------------------------------------------------------------------------
# preflight: before any budget is spent


def preflight_endpoints(settings: Settings) -> None:
    """Every configured LLM endpoint answers and serves its model: the probe `doctor` runs
    (`doctor.require_llm`). Raises LLMMisconfiguredError / LLMUnavailableError, one line each.
    Blocking (a few HTTP requests): call it before the event loop, or through a thread."""
    for role in ("planner", "prover"):
        endpoint = getattr(settings, role)
        if endpoint.url:
            require_llm(role, endpoint)


def _served_model(role: str, endpoint: LLMEndpoint) -> str | None:
    """The model `endpoint` will be asked for (`model_choice.choose_model`, through the probe
    `doctor` shows: `require_llm`): the named one, else the only one its server lists; a server
    listing several with none named is refused (LLMMisconfiguredError, exit 2) listing them."""
    return require_llm(role, endpoint).model


def _choose_preset(endpoint: LLMEndpoint, *, cot: bool) -> tuple[LLMEndpoint, str]:
    """The prover endpoint with its preset settled (named, or inferred from the model's id), and
    the line that says which."""
    if endpoint.preset:
        preset: ProverPreset | None = get_preset(endpoint.preset)  # UnknownPreset: bad input, exit 2
        how = "as configured"
    else:
        preset = preset_for_model(endpoint.model, cot=cot)
        how = f"inferred from the served model {endpoint.model}"
    if preset is None:
        prompt = "DeepSeek-Prover-V2's " + ("CoT" if cot else "non-CoT") + " prompt"
        line = (f"prover preset: none for model {endpoint.model or '?'} (no known family): {prompt}, Goedel-style "
                "correction, temperature/top_p/max_tokens from [prover] or 1.0/0.95/8192; choose one with "
                "--prover-preset NAME (`lemmaforge presets` lists them)")
        return endpoint, line
    if endpoint.mode is not None and endpoint.mode != preset.endpoint:
        raise ConfigError(f"[prover] mode = {endpoint.mode!r} conflicts with the prover preset {preset.name}, "
                          f"which uses a {preset.endpoint} endpoint")
    line = f"prover preset: {preset.name} ({how}; {preset.endpoint} endpoint, " + ", ".join(
        f"{k} {v if v is not None else 'server default'}" for k, v in preset.sampling().items()) + ")"
    return endpoint.model_copy(update={"preset": preset.name, "mode": preset.endpoint}), line


def resolve_endpoints(
    settings: Settings, *, cot: bool = False, say: Callable[[str], None] | None = None
) -> Settings:
    """The preflight of `prove` and `bench`, before any budget is spent: every configured endpoint
    answers and serves its model (`require_llm`), each role's model is named (the server's only
    model when the configuration names none; several: refused), and the prover's preset is
    settled. Returns the settings the run uses (recorded with it); `say` is told, one line each,
    which preset the prover uses and, without a planner, that the run will not decompose.
    Blocking (a few HTTP requests): call it before the event loop, or through a thread."""
    say = say or (lambda _line: None)
    updates: dict[str, LLMEndpoint] = {}
    for role in ("planner", "prover"):
        endpoint: LLMEndpoint = getattr(settings, role)
        if endpoint.url:
            model = _served_model(role, endpoint)
            updates[role] = endpoint.model_copy(update={"model": model}) if model != endpoint.model else endpoint
    if "prover" in updates:
        updates["prover"], line = _choose_preset(updates["prover"], cot=cot)
        say(line)
    if "planner" not in updates:
        say("no planner: the prover alone (whole-proof attempts and corrections), no decomposition into "
            "subgoals; give --planner-url to decompose")
    elif planner_is_reasoning(updates["planner"]):
        say(f"planner: {updates['planner'].model} is a reasoning model: no system prompt, the server's sampling "
            f"unless [planner] sets it, max_tokens {planner_sampling(updates['planner'])['max_tokens']}")
    return settings.model_copy(update=updates) if updates else settings


async def check_statement(verifier: Verifier, problem: ProblemRecord, *, timeout: float, admitted: bool = False) -> None:
    """One Lean check of the problem as given (its proof `sorry`): the verifier answers and the
    statement elaborates. Lean's `sorry` warning is expected; any error is not:

    - an error on an `import` line of the header: the verifier's environment lacks the package
      (Mathlib not built, wrong project): `VerifierMisconfigured`, fatal to the run;
    - any other error: `StatementInvalid` ("statement does not compile: …"), the problem's fault.

    A check that times out or crashes proves nothing either way: the search goes on (its own
    checks say more). Backend failures propagate as the verifier raised them. The dataset gate
    admits the problem first (DatasetRejected, exit 2; then its context is trusted by the gated
    verifier) unless `admitted` (`preflight` admitted it before probing anything): once per
    problem, and the search does not admit it again."""
    if not admitted:
        _admit(verifier, problem)
    result = await verifier.check(problem.header + problem.statement, timeout=timeout)
    errors = result.errors
    if not errors:
        return
    first = errors[0]
    header_lines = problem.header.split("\n")
    line = first.pos.line if first.pos is not None else None
    if line is not None and line <= len(header_lines) and header_lines[line - 1].lstrip().startswith("import "):
        raise VerifierMisconfigured(
            f"the {verifier.name} verifier cannot import what {problem.name} needs: {first.data}",
            fix="build Mathlib in the verifier's project (`lemmaforge setup`, then `lemmaforge doctor`)",
        )
    raise StatementInvalid(first.format(), problem=problem.name)


def _admit(verifier: Verifier, problem: ProblemRecord) -> None:
    """The dataset gate (lean/gate/) on the problem's text, where the verifier is gated."""
    if isinstance(verifier, GatedVerifier):
        verifier.admit(problem.header + problem.statement, row=problem.name)


async def check_verifier(verifier: Verifier, header: str = "", *, timeout: float) -> None:
    """The verifier answers and elaborates `header` (a training set's header) under a trivial
    `example`: the preflight of training commands, whose rows are many. Raises the verifier's
    backend errors, `VerifierMisconfigured` for missing imports, `InputError` for a header that
    does not compile."""
    probe = ProblemRecord(problem_id="preflight/verifier", name="preflight", header=header,
                          statement="example : True := by\n  sorry\n", dataset="preflight")
    try:
        await check_statement(verifier, probe, timeout=timeout)
    except StatementInvalid as exc:
        raise InputError(f"the data's header does not compile: {exc.detail}") from None


async def preflight(
    services: Services, settings: Settings, problem: ProblemRecord, *, cot: bool = False,
    say: Callable[[str], None] | None = None,
) -> tuple[Settings, int]:
    """What every `prove` checks before its search (the CLI and the library alike): the dataset
    gate admits the file (pure text, first), a remote verifier answers a short health request
    (`doctor.require_verifier`: seconds, before its first check), every configured endpoint
    serves its model and the prover's preset is settled (`resolve_endpoints`, told to `say`),
    and the statement compiles (`check_statement`). Raises what those raise (one line each). Returns the settings the run
    uses and the Lean requests it sent (1), which the run's budget is charged with."""
    _admit(services.verifier, problem)  # pure text: refuse a bad file before probing anything
    await asyncio.to_thread(require_verifier, settings.verifier)  # Lean first: a short health request
    settings = await asyncio.to_thread(resolve_endpoints, settings, cot=cot, say=say)
    # bounded like the search's requests (waits.within_wall): a stalled server stops it, named
    await waits.within_wall(check_statement(services.verifier, problem, timeout=settings.verifier.header_timeout,
                                            admitted=True), settings.budget.wall_seconds)
    return settings, 1


class _RunTally(ForwardingRecorder):
    """The run's recorder, passed through, counting the tokens of the run's model requests (their
    call records) so that the run's result and its RunFinished record report them."""

    def __init__(self, inner: StoreRecorder, run_id: str) -> None:
        super().__init__(inner)
        self.run_id = run_id
        self.prompt_tokens = 0
        self.completion_tokens = 0

    def emit(self, record: Any) -> None:
        if isinstance(record, LLMCallRecord) and record.run_id == self.run_id:
            self.prompt_tokens += record.prompt_tokens
            self.completion_tokens += record.completion_tokens
        elif isinstance(record, RunFinished) and record.run_id == self.run_id:
            record = replace(record, summary={**record.summary, "prompt_tokens": self.prompt_tokens,
                                               "completion_tokens": self.completion_tokens})
        self.inner.emit(record)


def schedule_for(settings: Settings) -> MakeSchedule:
    """When a run's work runs, from `[search] speculation`: the plain schedule for "off" (none of
    lemmaforge/schedule/ is imported or run then), else the speculative one."""
    speculation = settings.search.speculation
    if speculation == "off":
        return PlainSchedule
    from lemmaforge import schedule  # only when speculation is on

    return schedule.for_speculation(speculation)


def warn_if_experimental(settings: Settings) -> None:
    """One warning line (the log's) when the settings choose an experimental schedule ("full")."""
    if settings.search.speculation == "off":
        return
    from lemmaforge import schedule  # only when speculation is on

    if settings.search.speculation in schedule.EXPERIMENTAL:
        log.warning(schedule.FULL_WARNING)


async def prove_problem(
    services: Services,
    settings: Settings,
    problem: ProblemRecord,
    *,
    run_id: str | None = None,
    parent_run_id: str | None = None,
    on_update: Callable[[ProofTree], None] | None = None,
    run_config: dict[str, Any] | None = None,
    versions_record: dict[str, Any] | None = None,
    recorder: StoreRecorder | None = None,
    preflight_checks: int = 0,
    stats: SearchStats | None = None,
) -> SearchResult:
    """One search, its LLM calls attributed to the run. `recorder` overrides the services' one for
    this run (a bench wraps it to scope the subgoal cache to the attempt); `run_config` replaces
    the recorded config (a bench adds the attempt number); `preflight_checks`: the Lean requests
    `preflight` sent for this run, charged to its budget first; `stats`: the object the run's
    budget counts into (`prove`'s live view reads it: the numbers the final line gives)."""
    run_id = run_id or new_id()
    if recorder is not None:
        services = replace(services, recorder=recorder)
    tally = _RunTally(services.recorder, run_id)
    planner, prover = agents_for_run(replace(services, recorder=tally), settings, run_id)
    engine = SearchEngine(
        services.verifier, planner, prover, recorder=tally, settings=settings,
        on_update=on_update, cache=SubgoalCache(services.recorder), schedule=schedule_for(settings),
    )
    config = run_config if run_config is not None else json.loads(json.dumps(settings.to_record(), default=str))
    result = await engine.prove(
        problem, run_id=run_id, run_config=config,
        versions=versions_record if versions_record is not None else versions(settings), parent_run_id=parent_run_id,
        preflight_checks=preflight_checks, stats=stats,
    )
    result.stats.prompt_tokens, result.stats.completion_tokens = tally.prompt_tokens, tally.completion_tokens
    return result

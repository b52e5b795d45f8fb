"""The recursive search: budgets, depth, concurrency, cancellation.

For each goal, in order of cost:
  (0) the subgoal cache;
  (1) the automation portfolio (on the hole's proof state where the backend has one, else, or
      when that state was lost with its process, on the standalone lemma) — skipped at the root,
      which starts at (2) like Hilbert;
  (2) the prover: pass@k on the lemma, candidates verified as they arrive (generation overlaps
      verification), then optional self-correction rounds from Lean's errors;
  (3) the planner: a sketch for this goal (corrected from Lean's errors up to N rounds), whose
      holes become child goals solved concurrently (AND); a hole that cannot be solved abandons
      the sketch, cancels its siblings, and the next alternative sketch is tried.

A solved sketch is assembled inline (each hole filled with its proof) and re-checked; if that
fails, lemma style (proved lemmas placed before, holes closed by applying them) is tried. At the
root the assembled file is audited (no sorry, whitelisted axioms, statement unchanged) before it
counts. While the check that would close a sketch's last open hole is out, that sketch's inline
assembly (and each one above it, up to the root's audit) is started beside it when Lean has room
(search/assembly_ahead.py). The engine knows nothing about SQL or HTTP: it emits records and talks to Protocols.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any

from lemmaforge import waits
from lemmaforge.errors import AttemptFailed
from lemmaforge.lean import lemmas as lean_lemmas
from lemmaforge.lean import priority as lean_priority
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.audit import AuditReport, audit, text_to_check
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Goal, Severity, Verifier
from lemmaforge.records import (
    ProblemRecord,
    ProofRecord,
    Recorder,
    RunFinished,
    RunStarted,
    Strategy,
    Verdict,
    new_id,
)
from lemmaforge.search import automation
from lemmaforge.search.ahead import Ahead, RequestsAhead
from lemmaforge.search.assemble import (
    Solution,
    align_holes,
    assemble,
    inline_solution,
    proof_body,
    verdict_of,
)
from lemmaforge.search.assembly_ahead import AssemblyAhead
from lemmaforge.search.budget import (
    Budget,
    BudgetedVerifier,
    BudgetExhausted,
    Provisional,
    SearchStats,
    first_leaf,
)
from lemmaforge.search.cache import SubgoalCache, normalize_statement
from lemmaforge.search.feed import CandidateFeed, FedRequest
from lemmaforge.search.interfaces import (
    CandidateLike,
    Generated,
    PlannerLike,
    ProverLike,
    SearchOptions,
    SearchResult,
    SketchLike,
    correct_request,
    prove_request,
    store_lookup,
)
from lemmaforge.search.journal import TreeJournal
from lemmaforge.search.tree import Node, ProofTree

# How often a goal with alternative sketches left looks for room to start the next one beside the
# running one (a Mathlib check takes seconds: this is well within one).
ROOM_POLL_SECONDS = 0.5


class _HoleFailed(Exception):
    """A hole of a sketch could not be solved: abandon the sketch, cancel its siblings."""


# --- the engine ------------------------------------------------------------------------------------


class SearchEngine:
    def __init__(
        self,
        verifier: Verifier,
        planner: PlannerLike | None,
        prover: ProverLike | None,
        *,
        recorder: Recorder,
        options: SearchOptions | None = None,
        on_update: Callable[[ProofTree], None] | None = None,
        cache: SubgoalCache | None = None,
    ) -> None:
        self.verifier = verifier
        self.planner = planner
        self.prover = prover
        self.recorder = recorder
        self.options = options or SearchOptions()
        self.on_update = on_update
        # The subgoal cache (its own read path); None: one per run, reading the store through
        # the recorder's `cached_proof` when it has one.
        self.cache = cache

    async def prove(
        self,
        problem: ProblemRecord,
        *,
        run_id: str | None = None,
        run_config: dict[str, Any] | None = None,
        versions: dict[str, str | None] | None = None,
        parent_run_id: str | None = None,
        preflight_checks: int = 0,
        stats: SearchStats | None = None,
    ) -> SearchResult:
        """`preflight_checks`: the Lean requests sent for this run before the search (the
        statement check, services.preflight), charged to its budget first. `stats`: the object the
        run's budget counts into (a live view reads it while the run goes)."""
        # The dataset gate (lean/gate.py): a row outside the whitelist is refused (InputError, exit
        # 2) before anything is recorded or sent; an admitted row's context is trusted by the gated
        # verifier, which refuses everything else a model writes.
        admit = getattr(self.verifier, "admit", None)
        if admit is not None:
            admit(problem.header + problem.statement, row=problem.name)
        run = _Run(self, problem, run_id or new_id(), preflight_checks=preflight_checks, stats=stats)
        self.recorder.emit(problem)
        self.recorder.emit(
            RunStarted(run.run_id, "prove", run_config or {}, versions or {}, problem.problem_id, parent_run_id)
        )
        try:
            result = await run.execute()
        except BaseException as exc:
            # An endpoint or verifier that stayed down, a bug, Ctrl-C: the run is closed in the
            # record (with what it had spent) instead of being left "running", then the error goes on.
            # An error inside a sketch's TaskGroup arrives wrapped in an exception group: the error
            # itself is what the caller must see (and map to its exit code), never "unhandled errors
            # in a TaskGroup" read as a search result.
            error = first_leaf(exc)
            cancelled = isinstance(error, asyncio.CancelledError | KeyboardInterrupt)
            run._cancel_open()
            stats = run.budget.stats
            self.recorder.emit(
                RunFinished(
                    run.run_id,
                    "cancelled" if cancelled else "failed",
                    {"error": f"{type(error).__name__}: {error}"[:500], "calls": stats.llm_calls,
                     "checks": stats.checks},
                )
            )
            if error is not exc:
                # the leaf with its own traceback; the group around it is the TaskGroup's plumbing
                raise error from None
            raise
        self.recorder.emit(
            RunFinished(
                run.run_id,
                "proved" if result.proved else "not_proved",
                {k: v for k, v in result.to_json().items() if k not in ("proof", "audit")},
            )
        )
        return result


_NAME_SAFE = re.compile(r"[^A-Za-z0-9_]")


def _aux(candidate: Any) -> str:
    """The helper declarations a candidate's model wrote before its theorem ("" for none, and for
    candidates of provers that do not keep them)."""
    aux = getattr(candidate, "aux", "")
    return aux.strip("\n") if isinstance(aux, str) else ""


class _Run(TreeJournal):
    """One search for one problem: the state that the engine's methods share."""

    def __init__(self, engine: SearchEngine, problem: ProblemRecord, run_id: str, *, preflight_checks: int = 0,
                 stats: SearchStats | None = None) -> None:
        self.engine = engine
        self.opts = engine.options
        self.verifier = engine.verifier
        self.recorder = engine.recorder
        self.on_update = engine.on_update
        self.problem = problem
        self.run_id = run_id
        self.original = problem.header + problem.statement
        theorem = lean_syntax.last_theorem(problem.statement)
        split = theorem.start if theorem is not None else 0
        # Everything before the theorem (ProverBench / PutnamBench defs, helper lemmas) is context
        # that every check, prompt and lemma needs; the goal itself is the theorem alone.
        self.header = problem.header + problem.statement[:split]
        self.theorem = problem.statement[split:]
        self._context_lines = self.header.count("\n")
        self.tree = ProofTree()
        self.budget = Budget(self.opts.budget, preflight_checks=preflight_checks, stats=stats)
        # Every Lean request of the run goes through this door: budgeted and deduplicated.
        self.lean = BudgetedVerifier(self.verifier, self.budget, timeout=self.opts.check_timeout)
        self.cache = engine.cache if engine.cache is not None else SubgoalCache(store_lookup(self.recorder))
        self._lemma_counter = 0
        # model requests started ahead of need ([search] prefetch: search/ahead.py)
        self.ahead = RequestsAhead(self.budget, self.lean, self._generate, enabled=self.opts.prefetch)
        # A sketch's assembly started beside the check that would complete it, when Lean has room.
        self.assemblies_ahead = AssemblyAhead(
            self.lean, self.header, theorem=self.theorem,
            audit_text=lambda code: text_to_check(code, self.lean, original=self.original),
        )
        # The root's assembly checks are audits (the file checked is the whole proof): by text.
        self._audits: dict[str, AuditReport] = {}
        base = theorem.name if theorem else "goal"
        self.lemma_prefix = _NAME_SAFE.sub("_", base.rsplit(".", 1)[-1]) or "goal"

    # -- top level ---------------------------------------------------------------------------------

    async def execute(self) -> SearchResult:
        started = time.monotonic()
        cpu_started = time.thread_time()
        try:
            with lean_priority.search_scope():  # this search's checks queue by its progress
                return await self._execute(started)
        finally:
            self.budget.stats.engine_seconds = time.thread_time() - cpu_started

    async def _execute(self, started: float) -> SearchResult:
        root = self._new_goal(self.theorem, depth=0)
        stop_reason = "exhausted"
        solution: Solution | None = None
        report: AuditReport | None = None
        proof: str | None = None
        try:
            async with asyncio.timeout(self.opts.budget.wall_seconds):
                solution = await self._solve_goal(root, hole=None)
                if solution is not None:
                    proof, report = await self._finish(root, solution)
                    stop_reason = "proved" if report.ok else f"audit {report.status.value}"
        except* BudgetExhausted as group:
            # the leaf: nested TaskGroups nest their groups, whose own text says nothing
            stop_reason = str(first_leaf(group))
        except* TimeoutError:
            stop_reason = "wall time budget exhausted"
            # spent waiting on a server that trickles its answer: the backend's failure, not the
            # model's (a resumed bench redoes the attempt)
            stall = waits.stalled_at(started + self.opts.budget.wall_seconds - 1.0)
            if stall is not None:
                self._cancel_open()
                raise stall.error(self.opts.budget.wall_seconds) from None
        proved = report is not None and report.ok
        if not proved:
            self._cancel_open()
        seconds = time.monotonic() - started
        return SearchResult(
            run_id=self.run_id,
            proved=proved,
            proof=proof if proved else None,
            depth=self.tree.solved_depth() if proved else None,
            seconds=seconds,
            stats=self.budget.stats,
            stop_reason=stop_reason,
            tree=self.tree,
            audit=report,
        )

    async def _finish(self, root: Node, solution: Solution) -> tuple[str, AuditReport]:
        """Assemble the whole file, check it whole and audit it against the original."""
        body_file = lean_syntax.fill(self.theorem, [solution.body])
        lemmas = "\n\n".join(solution.lemmas)
        assembled = self.header + (lemmas + "\n\n" if lemmas else "") + body_file
        report = self._audits.get(assembled)  # the root's assembly check audited this very file
        if report is None:
            report = await self._audit(assembled)
        verdict: Verdict = "valid" if report.ok else ("rejected" if report.status.value == "rejected" else "error")
        self._attempt(root, "assembly", verdict, assembled, errors=[str(r) for r in report.reasons])
        if report.ok:
            self.recorder.emit(
                ProofRecord(
                    self.run_id, new_id(), "whole", self.header, self.problem.statement,
                    normalize_statement(self.problem.statement), assembled, problem_id=self.problem.problem_id,
                    node_id=root.node_id, strategy=root.strategy, depth=self.tree.solved_depth(),
                    audit=report.to_json(),
                )
            )
        return assembled, report

    async def _audit(self, code: str) -> AuditReport:
        return await audit(code, self.lean, original=self.original, config=self.opts.audit,
                           timeout=self.opts.check_timeout)

    # -- one goal (OR node) ------------------------------------------------------------------------

    async def _solve_goal(self, node: Node, hole: Goal | None) -> Solution | None:
        is_root = node.parent_id is None
        lean_priority.at_depth(node.depth, node.hole_index or 0)

        cached = await self.cache.lookup(self.header, node.text)
        if cached is not None:
            self.budget.stats.cache_hits += 1
            return self._solved(node, "cache", Solution(cached))
        self.budget.stats.cache_misses += 1
        # Watched only where alternatives run beside each other (`[search] parallel_alternatives`):
        # there the same hole is open in two sketches at once as a rule. One alternative at a time,
        # the watch measured worse on scripts/bench_e2e.py's default workload (three runs: 235-236
        # of 244 proved for ~14 % more Lean work, against 238-242 without it), for a cause not yet
        # found; a goal then looks in the cache when it starts and between its steps.
        if is_root or not self.opts.parallel_alternatives:
            return await self._work_on_goal(node, hole)
        return await self._unless_proved_elsewhere(node, hole)

    async def _unless_proved_elsewhere(self, node: Node, hole: Goal | None) -> Solution | None:
        """The goal's own work, in its own task, settled at once when another goal of the run
        proves the same statement meanwhile (the subgoal cache tells it: `SubgoalCache.watch`).
        The same lemma is often open twice at once — two alternatives' sketches that share a step,
        a hole held behind its siblings while the same fact is proved elsewhere — and a goal that
        looked in the cache only between its steps went on paying for a deep subtree, and could
        even fail, after its statement had been proved (measured on deep trees: an alternative
        abandoned for a hole proved 155 s earlier by the alternative beside it)."""
        proved = self.cache.watch(self.header, node.text)
        work = asyncio.ensure_future(self._work_on_goal(node, hole))
        settled_elsewhere = False

        def told(answer: asyncio.Future[str]) -> None:
            nonlocal settled_elsewhere
            # Its own proof also tells its watcher (`_solved` puts it): only a goal still open is
            # cancelled for a proof found elsewhere (its sketches' subtrees are marked settled).
            if not answer.cancelled() and not work.done() and node.status == "open":
                settled_elsewhere = True
                work.cancel()

        proved.add_done_callback(told)
        try:
            return await work  # (cancelling this goal cancels its work, and waits for it)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not settled_elsewhere or (task is not None and task.cancelling()):
                raise
            self.budget.stats.cache_hits += 1
            return self._solved(node, "cache", Solution(proved.result()))
        finally:
            self.cache.unwatch(self.header, node.text, proved)

    async def _work_on_goal(self, node: Node, hole: Goal | None) -> Solution | None:
        """Automation, the prover, then sketches, in order of cost (with requests ahead of need)."""
        budget = self.opts.budget
        is_root = node.parent_id is None
        prover, planner = self.engine.prover, self.engine.planner
        samples = budget.root_whole_proof_attempts if is_root else budget.prover_samples_per_goal
        calls = self._prover_calls(samples) if prover is not None else []
        prover_requests = [self._prove_call(node, k) for k in calls]  # each request's candidates on its feed
        plans = planner is not None and node.depth < budget.max_depth
        # Requests started ahead of need (`[search] prefetch`): each is taken where this goal's
        # steps, one after another, would have made it, or dropped when the goal closes first.
        provers_ahead: list[Ahead | None] = []
        sketch_ahead: Ahead | None = None
        checks_ahead: list[str] = []
        try:
            if not is_root and self.opts.portfolio:
                if prover is not None:  # the prover's request, while automation is checked
                    provers_ahead = [self.ahead.start(prover, request) for request in prover_requests]
                solution = await self._beside(  # with room, the candidates' checks meanwhile
                    self._try_automation(node, hole), provers_ahead,
                    lambda out: self._check_candidates_ahead(node, out, checks_ahead),
                    [request.feed for request in prover_requests])
                if solution is not None:
                    return solution

            if (solved := self._solved_meanwhile(node)) is not None:
                return solved
            if calls:
                if plans:  # the first sketch, while the prover's candidates are generated and checked
                    sketch_ahead = self.ahead.start(planner, self._draft_call(node, ()))
                solution = await self._beside(  # with room, the first sketch's check meanwhile
                    self._try_prover(node, prover_requests, provers_ahead), [sketch_ahead],
                    lambda out: self._check_sketch_ahead(node, out, checks_ahead))
                if solution is not None:
                    return solution

            if plans:
                if (solved := self._solved_meanwhile(node)) is not None:
                    return solved
                solution = await self._try_sketches(node, sketch_ahead)
                if solution is not None:
                    return solution
        finally:
            for task in (*provers_ahead, sketch_ahead):
                self.ahead.drop(task)
            for code in checks_ahead:
                self.lean.drop_ahead(code)

        self._set_status(node, "failed", reason="no strategy closed the goal")
        return None

    # -- model requests --------------------------------------------------------------------------------

    def _prover_calls(self, samples: int) -> list[int]:
        """The sizes (`n`) of the requests for a goal's `samples` prover samples."""
        if samples <= 0:
            return []
        per_call = self.opts.prover_samples_per_call or samples
        return [min(per_call, samples - i) for i in range(0, samples, per_call)]

    def _prove_call(self, node: Node, n: int) -> FedRequest:
        prover = self.engine.prover
        assert prover is not None
        # The theorem's own whole-proof attempts get the informal statement, as the planner's draft
        # does and as training rows are built; a subgoal lemma's do not (it is not about the lemma).
        informal = self.problem.informal if node.parent_id is None else None
        return FedRequest(lambda told: prove_request(prover, self.header, node.text, n, informal, told))

    def _draft_call(self, node: Node, avoid: tuple[str, ...]) -> Callable[[], Awaitable[Any]]:
        planner = self.engine.planner
        assert planner is not None
        informal = self.problem.informal if node.parent_id is None else None
        return lambda: planner.draft(self.header, node.text, informal, n=1, avoid=avoid)

    def _solved_meanwhile(self, node: Node) -> Solution | None:
        """The same statement proved since this goal looked in the cache — by a hole of another
        sketch or alternative, often while this one's work was held behind its siblings: taken
        instead of paying for the next step."""
        if node.parent_id is None:
            return None
        proof = self.cache.solved_meanwhile(self.header, node.text)
        if proof is None:
            return None
        self.budget.stats.cache_hits += 1
        return self._solved(node, "cache", Solution(proof))

    def _solved(self, node: Node, strategy: Strategy, solution: Solution) -> Solution:
        node.strategy = strategy
        node.proof = solution.body
        self._set_status(node, "solved", strategy=strategy, proof=solution.body)
        if node.parent_id is not None and not solution.lemmas:
            key = self.cache.put(self.header, node.text, solution.body)
            self.recorder.emit(
                ProofRecord(
                    self.run_id, new_id(), "subgoal", self.header, node.text, key[1], solution.body,
                    problem_id=self.problem.problem_id, node_id=node.node_id, strategy=strategy, depth=node.depth,
                )
            )
        return solution

    # -- (1) automation ----------------------------------------------------------------------------

    async def _beside(
        self, attempt: Awaitable[Solution | None], requests: Sequence[Ahead | None],
        answered: Callable[[Generated], None], feeds: Sequence[CandidateFeed] = (),
    ) -> Solution | None:
        """`attempt`; meanwhile, as each of the `requests` started ahead answers, `answered(its
        candidates)` (which starts their checks ahead when Lean has room) — each candidate as it
        arrives where the request streams (`feeds`, search/feed.py). On a run's tail, where
        each goal's steps are one dependent chain in a near-empty system, a step's check and the
        next step's then take the time of one."""
        waiting = [t for t in requests if t is not None]
        if not waiting:
            return await attempt
        # The attempt runs in this task, as it would alone (its requests and budget spends keep
        # their order); the watch beside it ends with it.
        told: set[int] = set()  # id() of the candidates a feed already gave `answered`

        def arrived(candidate: CandidateLike, _seconds: float) -> None:
            told.add(id(candidate))
            self._answered_one(answered, candidate)

        stops = [feed.listen(arrived) for feed in feeds]
        # A prover that tells its candidates (search/feed.py) gives each one once, on arrival; the
        # watch answers only what no feed gave (a prover that does not tell), so no candidate's
        # code is built twice.
        watch = asyncio.ensure_future(self._watch_answers(
            waiting, lambda out: answered(Generated(c for c in out if id(c) not in told))))
        try:
            return await attempt
        finally:
            watch.cancel()
            for stop in stops:
                stop()

    @staticmethod
    def _answered_one(answered: Callable[[Generated], None], candidate: CandidateLike) -> None:
        try:
            answered(Generated([candidate]))
        except ValueError:
            pass  # a candidate `fill` refuses: the prover's turn meets it and records it

    async def _watch_answers(self, requests: list[Ahead], answered: Callable[[Generated], None]) -> None:
        """`answered(candidates)` for each of `requests` as it answers, while it is still ahead."""
        pending = set(requests)
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for request in done:
                if not request.cancelled() and request.exception() is None and request in self.ahead.sent:
                    try:
                        answered(request.result() or Generated())
                    except ValueError:
                        pass  # a candidate `fill` refuses: the prover's turn meets it and records it

    def _check_candidates_ahead(self, node: Node, candidates: Generated, checks_ahead: list[str]) -> None:
        """The prover's candidates, checked ahead (as `_verify_candidate` will check them)."""
        for candidate in candidates:
            if candidate.body:
                code = self._candidate_code(node, candidate)
                if self.lean.check_ahead(code):
                    checks_ahead.append(code)

    def _check_sketch_ahead(self, node: Node, sketches: Generated, checks_ahead: list[str]) -> None:
        """The first sketch, checked ahead (as `_elaborate_sketch` will check it)."""
        if sketches and lean_syntax.same_statement(node.text, sketches[0].code):
            code = self.header + sketches[0].code
            if self.lean.check_ahead(code):
                checks_ahead.append(code)

    async def _try_automation(self, node: Node, hole: Goal | None) -> Solution | None:
        tactics = self.opts.portfolio
        if (
            self.opts.automation_on_proof_state
            and hole is not None
            and hole.proof_state is not None
            and self.lean.supports_proof_states
        ):
            started = time.monotonic()
            outcome = await automation.on_proof_state(self.lean, hole, tactics, timeout=self.opts.tactic_timeout)
            solution = self._automation_attempt(node, outcome, outcome.proof or "\n".join(outcome.tried), started)
            if solution is not None or not outcome.state_lost:
                return solution
            # The worker holding the state restarted: try the portfolio on the standalone lemma.
        started = time.monotonic()
        proof = automation.first_combinator(tactics) if len(tactics) > 1 else tactics[0]
        code = self.header + lean_syntax.fill(node.text, [proof])
        result = await self._check(code)  # counts its own time
        closed = self._proves(result)
        error = None if closed else (result.error or "; ".join(m.data for m in result.errors[:2]) or result.status.value)
        checks = 1
        if closed and len(tactics) > 1:
            # The portfolio is never the proof: the one tactic that closes the goal is (each
            # check through `_check`, so each is counted in the budget).
            single, n = await automation.single_closer(lambda t: self._lemma_closes(node.text, t), tactics)
            checks += n
            if single is None:
                error = "the portfolio closed the goal but no single tactic of it did"
            else:
                proof, code = single, self.header + lean_syntax.fill(node.text, [single])
        outcome = automation.AutomationOutcome(proof if error is None else None, checks, list(tactics), error, result)
        return self._automation_attempt(node, outcome, code, started)

    async def _lemma_closes(self, lemma: str, tactic: str) -> bool:
        return self._proves(await self._check(self.header + lean_syntax.fill(lemma, [tactic])))

    def _automation_attempt(
        self, node: Node, outcome: automation.AutomationOutcome, code: str, started: float
    ) -> Solution | None:
        verdict: Verdict = "valid" if outcome.proof else "error"
        self._attempt(node, "automation", verdict, code, errors=[outcome.last_error] if outcome.last_error else [],
                      check_seconds=time.monotonic() - started)
        if outcome.proof is None:
            return None
        return self._solved(node, "automation", Solution(outcome.proof))

    # -- (2) prover --------------------------------------------------------------------------------

    async def _try_prover(
        self, node: Node, requests: list[FedRequest], ahead: list[Ahead | None]
    ) -> Solution | None:
        prover = self.engine.prover
        assert prover is not None
        failures: list[tuple[CandidateLike, CheckResult]] = []
        prefetched = ahead + [None] * (len(requests) - len(ahead))
        solution = await self._race_candidates(
            node, [(self.ahead.take(t, r), r.feed) for t, r in zip(prefetched, requests, strict=True)],
            "prover", failures,
        )
        if solution is not None:
            return solution
        # A prover that says it does not correct (a family not trained on Lean's errors) is not
        # asked: a request that sends nothing must not be charged as an LLM call.
        rounds = self.opts.budget.self_corrections if getattr(prover, "corrects", True) else 0
        for _round in range(rounds):
            fixable = [(c, r) for c, r in failures if r.errors]
            if not fixable:
                break
            candidate, result = fixable[0]
            failures = []
            # Lean's messages themselves (start AND end of each error), with the file they are about.
            errors = list(result.errors[:8])
            fix = FedRequest(partial(correct_request, prover, self.header, candidate, errors,
                                     self.opts.correction_samples, checked_code=self._candidate_code(node, candidate)))
            solution = await self._race_candidates(
                node, [(self._generate(fix()), fix.feed)], "prover_correction", failures,
            )
            if solution is not None:
                return solution
        return None

    async def _generate(self, call: Any) -> Generated:
        """One model request through the budget; the candidates carry how long it took."""
        started = time.monotonic()
        try:
            out = Generated(await self.budget.call(call))
        except AttemptFailed:
            # The server refused this request (a 4xx: prompt too long, bad parameter): a failed
            # attempt. Backend errors (endpoint down or misconfigured) and bugs propagate.
            out = Generated()
        out.seconds = time.monotonic() - started
        return out

    async def _race_candidates(
        self,
        node: Node,
        generations: list[tuple[Awaitable[Generated], CandidateFeed | None]],
        strategy: Strategy,
        failures: list[tuple[CandidateLike, CheckResult]],
    ) -> Solution | None:
        """Verify candidates as they arrive — each as soon as its sample is complete where the
        request streams (its feed), else when the request answers; the first that checks wins and
        every other generation / check still in flight is cancelled.

        A budget that runs out stops only what it would pay for: the requests already started
        (and paid) are awaited and their candidates verified, and BudgetExhausted is raised once
        nothing is left in flight. Raising at once would cancel paid requests, so the run would
        report calls it never sent."""
        pending: set[asyncio.Future[Any]] = {asyncio.ensure_future(g) for g, _ in generations}
        exhausted: BudgetExhausted | None = None
        # The candidates' order of arrival: a later one's check waits for the earlier ones' verdicts
        # (all but `race_window - 1` of them) unless Lean has room (lean/priority.py).
        race = lean_priority.Siblings(window=self.opts.race_window, kind="race")
        rank = 0
        verifying: set[int] = set()  # id() of the candidates whose check has started
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()  # a candidate arrived on a feed

        def verify(candidate: CandidateLike, seconds: float) -> None:
            nonlocal rank
            if id(candidate) in verifying:
                return
            verifying.add(id(candidate))
            race.enter(rank)
            pending.add(asyncio.ensure_future(self._verify_ranked(race, rank, node, candidate, strategy, seconds)))
            rank += 1
            if not woken.done():
                woken.set_result(None)

        stops = [feed.listen(verify) for _, feed in generations if feed is not None]
        try:
            while pending:
                await asyncio.wait(pending | {woken}, return_when=asyncio.FIRST_COMPLETED)
                if woken.done():
                    woken = loop.create_future()
                done = {t for t in pending if t.done()}
                pending -= done
                # Retrieve every finished task's exception (so none is left "never retrieved"),
                # then let the first real failure propagate: endpoint down, verifier down, a bug.
                errors = [e for t in done if not t.cancelled() and (e := t.exception()) is not None]
                for error in errors:
                    if not isinstance(error, BudgetExhausted):
                        raise error
                    exhausted = exhausted or error
                for task in done:
                    if task.cancelled() or task.exception() is not None:
                        continue
                    value = task.result()
                    if isinstance(value, Solution):
                        return value
                    if isinstance(value, tuple):  # (candidate, failed check)
                        failures.append(value)
                        continue
                    for candidate in value:  # a finished generation: verify each not verified yet
                        verify(candidate, value.seconds)
            if exhausted is not None:
                raise exhausted
            return None
        finally:
            for stop in stops:
                stop()
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
            race.end()

    async def _verify_ranked(self, race: lean_priority.Siblings, rank: int, *args: Any) -> Any:
        lean_priority.join(race, rank)  # in this candidate's own task: its checks only
        try:
            return await self._verify_candidate(*args)
        finally:
            race.leave(rank)  # answered (or cancelled): the next candidate need not wait for it

    def _candidate_code(self, node: Node, candidate: CandidateLike) -> str:
        """The file a candidate is checked as. The statement is OURS, not the model's: the body is
        filled into our lemma so a model that rewrote the statement cannot pass. The helper lemmas
        the model wrote before its theorem (`aux`) come first: its proof may use them, and they go
        through the gate and Lean like the rest (and into the proof with it: `_solution`)."""
        aux = _aux(candidate)
        return self.header + (aux + "\n\n" if aux else "") + lean_syntax.fill(node.text, [candidate.body or ""])

    @staticmethod
    def _solution(candidate: CandidateLike) -> Solution:
        """A checked candidate's solution: its body, and its helper lemmas to be placed before the
        root theorem (as lemma-style assembly places proved lemmas)."""
        aux = _aux(candidate)
        return Solution(candidate.body or "", (aux,) if aux else ())

    async def _verify_candidate(
        self, node: Node, candidate: CandidateLike, strategy: Strategy, generation_seconds: float = 0.0
    ) -> Solution | tuple[CandidateLike, CheckResult]:
        body = candidate.body
        if not body:
            self._attempt(node, strategy, "skipped", "", output=candidate.raw, llm_call_id=candidate.call_id,
                          errors=["no Lean proof found in the output"], generation_seconds=generation_seconds)
            return candidate, CheckResult(CheckStatus.ERROR, error="no Lean proof in the output")
        code = self._candidate_code(node, candidate)
        with self.assemblies_ahead.pending(node, self._solution(candidate)):
            result = await self._check(code)
        verdict: Verdict = "valid" if self._proves(result) else verdict_of(result)
        self._attempt(node, strategy, verdict, code, output=candidate.raw, llm_call_id=candidate.call_id,
                      errors=[m.format() for m in result.errors[:8]] or ([result.error] if result.error else []),
                      check_seconds=result.time, generation_seconds=generation_seconds)
        if self._proves(result):
            if node.status == "solved":
                # Another sample won first (identical samples share one check and finish together):
                # the node is recorded as solved, and its subgoal proof stored, once.
                return self._solution(candidate)
            return self._solved(node, strategy, self._solution(candidate))
        return candidate, result

    # -- (3) planner: sketches (AND nodes) ---------------------------------------------------------

    async def _try_sketches(self, node: Node, ahead: Ahead | None = None) -> Solution | None:
        """Up to `sketch_alternatives` sketches, each drafted to differ from the earlier ones, in
        order: the next one is drafted when the current one failed — or, while Lean and the planner
        both have room (`[search] parallel_alternatives`), beside it, its Lean work held behind the
        earlier alternatives' (lean/priority.py: sent only when nothing else waits). The first
        alternative that closes the goal wins; the others are cancelled.

        One started beside an earlier one is charged for what it sends, like all work, and keeps
        a ledger of it (search/budget.py `Provisional`): used when its turn comes (every earlier
        one failed), reported as speculative, unused, when an earlier one closes the goal. One
        cancelled before its turn is tried again from the same draft when its turn comes. One
        that fails before its turn is tried again on
        it, from its draft: beside an earlier one it tried every hole itself, where on its turn a
        one-at-a-time search takes the holes proved meanwhile from the cache and tries the failed
        one afresh (measured on deep trees before this: 1 proof in 8 beside, 6 in 8 one at a time)."""
        planner = self.engine.planner
        assert planner is not None
        failed: list[str] = []  # earlier sketches: the planner is asked for a different one
        alternatives = self.opts.budget.sketch_alternatives
        order = lean_priority.Siblings()
        running: dict[asyncio.Task[Solution | None], int] = {}  # each alternative's task: its rank
        ledgers: dict[int, Provisional | None] = {}  # each one's provisional spends (None: on its turn)
        drafts: dict[int, Generated] = {}
        ended: set[int] = set()  # failed (or stopped by the budget), on their turn or before it
        preempted: set[int] = set()  # cancelled before their turn: tried again on it
        # Failed before their turn: tried again on it, from the same draft, as a one-at-a-time
        # search would try that sketch then — with what the earlier alternatives proved meanwhile
        # in the cache (a shared step is taken, not re-proved), the hole that failed tried afresh.
        retried: set[int] = set()
        drafted = 0
        no_room_beside = False  # a draft beside did not fit the budget: wait for something to settle
        # A budget that runs out while an alternative still runs stops only what it would pay for:
        # no new alternative starts, the running ones finish, and it is raised if none succeeds.
        exhausted: BaseException | None = None
        try:
            while True:
                turn = min((r for r in range(drafted) if r not in ended), default=drafted)
                for rank in range(turn + 1):  # the failed ones before it, and the one on its turn
                    self.budget.charge(ledgers.get(rank))
                if turn in retried:  # its turn came: its draft (charged) tried again, alone
                    retried.discard(turn)
                    if exhausted is not None:  # nothing left to try it with
                        ended.add(turn)
                        continue
                    ledgers[turn] = None  # on its turn: what it fails now is final
                    order.enter(turn)
                    running[asyncio.ensure_future(self._try_alternative(order, False, turn, node, drafts[turn]))] = turn
                    continue
                if turn in preempted:  # its turn came: tried again, alone, from its draft (already paid)
                    preempted.discard(turn)
                    ledgers[turn] = None
                    order.enter(turn)
                    running[asyncio.ensure_future(self._try_alternative(order, False, turn, node, drafts[turn]))] = turn
                    continue
                more = drafted < alternatives and exhausted is None
                on_turn = turn == drafted
                if more and (on_turn or (not no_room_beside and self._room_beside(planner))):
                    rank, drafted = drafted, drafted + 1
                    ledger = None if on_turn else self.budget.provisional()
                    try:
                        with Budget.within(ledger):
                            sketches = await self.ahead.take(ahead, self._draft_call(node, tuple(failed)))
                    except BudgetExhausted as error:
                        ahead = None
                        if ledger is not None:  # no room beside: this one waits for its turn
                            self.budget.refund(ledger)
                            drafted -= 1
                            no_room_beside = True
                            continue
                        if not running:
                            raise
                        exhausted = error
                        ended.add(rank)
                        continue
                    ahead = None
                    ledgers[rank] = ledger
                    if not sketches:
                        ended.add(rank)
                        continue
                    drafts[rank] = sketches
                    failed.append(sketches[0].code)
                    if drafted < alternatives:  # the next alternative's draft, while this one is tried
                        ahead = self.ahead.start(planner, self._draft_call(node, tuple(failed)))
                    if ledger is not None and ledger.state == "refunded":  # its units were needed meanwhile
                        preempted.add(rank)
                        continue
                    # Started beside a running one, its work is speculation, held behind the earlier
                    # ranks; started alone, it is what a one-at-a-time search does now: held by nothing.
                    order.enter(rank)
                    task = asyncio.ensure_future(
                        self._try_alternative(order, ledger is not None, rank, node, sketches, ledger))
                    if ledger is not None:
                        ledger.cancel = task.cancel
                    running[task] = rank
                    continue
                if not running:
                    if exhausted is not None:
                        raise exhausted
                    return None
                # Wait for an alternative to settle; while more could start beside it, look for room
                # now and then.
                poll = more and self.opts.parallel_alternatives
                done, _ = await asyncio.wait(running, timeout=ROOM_POLL_SECONDS if poll else None,
                                             return_when=asyncio.FIRST_COMPLETED)
                if done:
                    no_room_beside = False
                # errors first, then the earlier alternative (what a one-at-a-time search finds)
                for task in sorted(done, key=lambda t: (t.cancelled() or t.exception() is None, running[t])):
                    rank = running.pop(task)
                    if task.cancelled():  # before its turn, its units went to work on its turn
                        preempted.add(rank)
                        continue
                    failure = task.exception()
                    if failure is not None and (running or preempted) and isinstance(first_leaf(failure), BudgetExhausted):
                        exhausted = exhausted or failure
                        ended.add(rank)
                        continue
                    solution = task.result()  # an endpoint, verifier or budget error propagates
                    if solution is not None:
                        self.budget.charge(ledgers.get(rank))  # it closed the goal: its work counts
                        return self._solved(node, "planner", solution)
                    ledger = ledgers.get(rank)
                    if ledger is not None and ledger.state == "open" and exhausted is None:
                        retried.add(rank)  # failed before its turn came
                    else:
                        ended.add(rank)
        finally:
            self.ahead.drop(ahead)
            for task in running:
                task.cancel()
            if running:
                await asyncio.gather(*running, return_exceptions=True)
            for ledger in ledgers.values():
                self.budget.refund(ledger)  # those not charged: never their turn
            order.end()

    def _room_beside(self, planner: Any) -> bool:
        """Whether the next alternative may start beside a running one: Lean and the planner idle
        enough that its work takes nothing from work that is needed."""
        if not self.opts.parallel_alternatives or not self.lean.has_room():
            return False
        room = getattr(planner, "has_room", None)
        return callable(room) and bool(room())

    async def _try_alternative(
        self, order: lean_priority.Siblings, beside: bool, rank: int, node: Node, sketches: Generated,
        ledger: Provisional | None = None,
    ) -> Solution | None:
        """One sketch for `node`: elaborated (corrected up to N rounds), then its holes solved and
        the pieces assembled. In its own task; started `beside` earlier alternatives, its Lean work
        waits while one of them is still open, unless Lean has room, and it spends into `ledger`."""
        Budget.enter(ledger)
        if beside:
            lean_priority.join(order, rank)
        try:
            elaborated = await self._elaborate_sketch(node, sketches[0], sketches.seconds)
            if elaborated is None:
                return None
            sketch, result = elaborated
            if self._proves(result):  # the "sketch" is already a complete proof
                body = proof_body(sketch.code)
                return Solution(body) if body is not None else None
            return await self._solve_sketch(node, sketch, result)
        finally:
            order.leave(rank)

    async def _elaborate_sketch(
        self, node: Node, sketch: SketchLike, generation_seconds: float = 0.0
    ) -> tuple[SketchLike, CheckResult] | None:
        """Check the sketch; correct it from Lean's errors up to N rounds."""
        planner = self.engine.planner
        assert planner is not None
        for round_ in range(self.opts.budget.sketch_corrections + 1):
            if not lean_syntax.same_statement(node.text, sketch.code):
                self._attempt(node, "planner", "rejected", sketch.code, output=sketch.raw,
                              llm_call_id=sketch.call_id, errors=["the sketch changed the statement"],
                              generation_seconds=generation_seconds)
                return None
            result = await self._check(self.header + sketch.code)
            strategy: Strategy = "planner" if round_ == 0 else "sketch_correction"
            self._attempt(node, strategy, verdict_of(result), self.header + sketch.code, output=sketch.raw,
                          llm_call_id=sketch.call_id, errors=[m.format() for m in result.errors[:8]],
                          check_seconds=result.time, generation_seconds=generation_seconds)
            if not result.errors and result.status in (CheckStatus.INCOMPLETE, CheckStatus.VALID):
                return sketch, result
            if result.status in (CheckStatus.TIMEOUT, CheckStatus.CRASHED) or round_ == self.opts.budget.sketch_corrections:
                return None
            errors = [m.format() for m in result.errors[:8]]
            fixed = await self._generate(
                planner.correct(self.header, node.text, sketch, errors, n=1, checked_code=self.header + sketch.code)
            )
            if not fixed:
                return None
            sketch, generation_seconds = fixed[0], fixed.seconds
        return None

    async def _solve_sketch(self, node: Node, sketch: SketchLike, result: CheckResult) -> Solution | None:
        sketch_node = self.tree.add_sketch(sketch.code, parent_id=node.node_id, depth=node.depth)
        self._emit_node(sketch_node)
        try:
            return await self._solve_sketch_holes(node, sketch_node, sketch, result)
        except asyncio.CancelledError:
            # another alternative or a sibling hole settled it first: nothing below stays "open"
            self._cancel_subtree(sketch_node.node_id, "cancelled: the goal was settled another way")
            raise
        finally:
            self.assemblies_ahead.close(sketch_node)  # after its assembly: what it never took is dropped

    async def _solve_sketch_holes(
        self, node: Node, sketch_node: Node, sketch: SketchLike, result: CheckResult
    ) -> Solution | None:
        text_holes = lean_syntax.holes(sketch.code)
        lean_holes = align_holes(text_holes, result.holes, header_lines=self.header.count("\n"))
        children: list[tuple[Node, Goal | None]] = []
        # All holes' lemmas at once (each may cost an extract_goal and a round-trip check); names
        # are handed out first so they do not depend on which finishes first.
        names = [self._next_lemma_name() for _ in lean_holes]
        built = await asyncio.gather(
            *(self._lemma_for_hole(sketch.code, i, h, names[i]) for i, h in enumerate(lean_holes)),
            return_exceptions=True,
        )
        for index, (lean_hole, lemma) in enumerate(zip(lean_holes, built, strict=True)):
            if isinstance(lemma, lean_lemmas.LemmaBuildError):
                self._set_status(sketch_node, "abandoned", reason=f"hole {index}: {lemma}")
                return None
            if isinstance(lemma, BaseException):
                raise lemma
            child = self._new_goal(
                lemma, depth=node.depth + 1, parent_id=sketch_node.node_id, hole_index=index,
                goal_state=lean_hole.goal if lean_hole else None,
            )
            children.append((child, lean_hole))

        # A later hole's work waits while an earlier hole is unsolved, unless Lean has room
        # (lean/priority.py): when a hole fails, the work on its siblings is lost.
        siblings = lean_priority.Siblings(kind="holes")
        for index in range(len(children)):
            siblings.enter(index)

        async def solve_or_fail(index: int, child: Node, hole: Goal | None) -> Solution:
            lean_priority.join(siblings, index)  # in this hole's own task: its whole subtree
            solution = await self._solve_goal(child, hole)
            if solution is None:
                raise _HoleFailed(child.node_id)
            siblings.leave(index)
            self.assemblies_ahead.solved(child, solution)
            return solution

        hole_failed = False
        self.assemblies_ahead.open(sketch_node, node, [c for c, _ in children])
        try:
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(solve_or_fail(i, c, h)) for i, (c, h) in enumerate(children)]
        except* _HoleFailed:
            hole_failed = True  # (`return` is not allowed inside `except*`)
        finally:
            siblings.end()
        if hole_failed:
            for child, _ in children:
                if child.status == "open":
                    self._set_status(child, "cancelled", reason="a sibling hole failed")
            self._set_status(sketch_node, "abandoned", reason="a hole could not be solved")
            return None
        solutions = [t.result() for t in tasks]
        assembled = await self._assemble(node, sketch_node, sketch.code, [c for c, _ in children], solutions)
        if assembled is None:
            self._set_status(sketch_node, "failed", reason="the filled sketch does not check")
            return None
        self._set_status(sketch_node, "solved", strategy="assembly", proof=assembled.body)
        return assembled

    def _next_lemma_name(self) -> str:
        self._lemma_counter += 1
        return f"{self.lemma_prefix}_sub_{self._lemma_counter}"

    async def _lemma_for_hole(self, sketch_code: str, index: int, hole: Goal | None, name: str) -> str:
        # Through the run's door: extract_goal and the round-trip check spend the Lean budget and
        # share the check cache like every other request.
        built = await lean_lemmas.build_lemma(
            self.lean, sketch_code, index, hole, name=name, header=self.header, timeout=self.opts.check_timeout
        )
        return built.statement

    async def _assemble(
        self, node: Node, sketch_node: Node, sketch_code: str, children: list[Node], solutions: list[Solution]
    ) -> Solution | None:
        """Inline first; lemma style when inline fails to check (search/assemble.py). At the root
        the file checked is the whole proof (our statement, the sketch's proof), and its check is
        the audit's own (the axiom probe rides along): the audit that follows reads the report
        instead of checking the same file again, one check less at the end of every proof."""
        root = node.parent_id is None

        async def check(code: str) -> bool:
            if root:
                report = self._audits[code] = await self._audit(code)
                result = report.check  # None: refused before Lean (the report says why)
                if result is None:
                    self._attempt(sketch_node, "assembly", "rejected", code,
                                  errors=[str(r) for r in report.reasons[:8]])
                    return False
            else:
                result = await self._check(code)
            proved = self._proves(result)
            self._attempt(sketch_node, "assembly", "valid" if proved else verdict_of(result), code,
                          errors=[m.format() for m in result.errors[:8]], check_seconds=result.time)
            return proved

        # While its check is out, the parent's assembly with it may start ahead (search/assembly_ahead.py).
        with self.assemblies_ahead.pending(node, None if root else inline_solution(sketch_code, solutions)):
            return await assemble(self.header, sketch_code, [child.text for child in children], solutions, check,
                                  theorem=self.theorem if root else None)

    def _proves(self, result: CheckResult) -> bool:
        """Lean accepted the code: no error, and no hole or sorry warning past the context (the
        problem's own context may carry `sorry`s, e.g. ProverBench helper lemmas; the final audit
        still rejects a theorem that depends on them)."""
        if result.status in (CheckStatus.TIMEOUT, CheckStatus.CRASHED) or result.errors:
            return False
        past = lambda pos: pos is None or pos.line > self._context_lines  # noqa: E731
        if any(past(h.pos) for h in result.holes):
            return False
        return not any(
            m.severity is not Severity.ERROR and "declaration uses" in m.data and "sorry" in m.data and past(m.pos)
            for m in result.messages
        )

    # -- Lean checks (deduplicated: never re-check what was checked) -------------------------------

    async def _check(self, code: str) -> CheckResult:
        return await self.lean.check(code)

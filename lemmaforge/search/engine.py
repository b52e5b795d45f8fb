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
counts.

This module says WHAT the search does, and states what it needs as it goes (a request is known, a
check is about to go, a goal is settled). WHEN its work runs is a `Schedule`'s
(search/interfaces.py), injected by whoever wires the engine (`SearchEngine(schedule=…)`: services
picks it from `[search] speculation`): the plain one (search/plain.py, the default) runs each step
when the one before it is done; lemmaforge/schedule/ starts work ahead of need and orders it by
the search's progress. Only this module marks nodes and counts the search's own statistics.
The engine knows nothing about SQL or HTTP: it emits records and talks to Protocols — Lean
through its run's `BudgetedVerifier` (search/budget.py), the models through `PlannerLike` /
`ProverLike`, the store through its `Recorder`.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from lemmaforge import waits
from lemmaforge.config import Settings
from lemmaforge.errors import AttemptFailed
from lemmaforge.lean import lemmas as lean_lemmas
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.audit import AuditReport, audit
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Goal, Verifier
from lemmaforge.records import (
    ProblemRecord,
    Recorder,
    RunFinished,
    RunStarted,
    Strategy,
    Verdict,
    new_id,
)
from lemmaforge.search import automation
from lemmaforge.search.assemble import (
    Solution,
    align_holes,
    assemble,
    inline_solution,
    proof_body,
    verdict_of,
)
from lemmaforge.search.budget import Budget, BudgetedVerifier, BudgetExhausted, SearchStats, first_leaf
from lemmaforge.search.cache import SubgoalCache, normalize_statement
from lemmaforge.search.candidates import candidate_file, proves, solution_of
from lemmaforge.search.interfaces import (
    CandidateLike,
    Feed,
    Generated,
    GoalSchedule,
    MakeRequest,
    MakeSchedule,
    Pending,
    PlannerLike,
    ProverLike,
    Schedule,
    SearchResult,
    SketchLike,
    SketchSchedule,
    correction,
)
from lemmaforge.search.journal import TreeJournal
from lemmaforge.search.plain import PlainSchedule
from lemmaforge.search.race import race_candidates, request_sizes
from lemmaforge.search.tree import Node, ProofTree


class _HoleFailed(Exception):
    """A hole of a sketch could not be solved: abandon the sketch, cancel its siblings."""


# --- the engine ------------------------------------------------------------------------------------


class SearchEngine:
    def __init__(
        self, verifier: Verifier, planner: PlannerLike | None, prover: ProverLike | None, *, recorder: Recorder,
        settings: Settings | None = None, on_update: Callable[[ProofTree], None] | None = None,
        cache: SubgoalCache | None = None, schedule: MakeSchedule | None = None,
    ) -> None:
        """`schedule`: makes each run's `Schedule` (when its work runs); None: the plain one
        (search/plain.py). `[search] speculation` is read by whoever wires the engine
        (services.prove_problem: `lemmaforge.schedule.for_speculation`), not here."""
        self.verifier, self.planner, self.prover, self.recorder = verifier, planner, prover, recorder
        # budgets, audit, `[search]` and the check timeout: the run's configuration, one type per concern
        self.settings = settings or Settings()
        self.on_update = on_update
        # The subgoal cache (its own read path: whoever wires the search gives it the store's
        # `ProofLookup`); None: one per run, in memory.
        self.cache = cache
        self.make_schedule: MakeSchedule = schedule if schedule is not None else PlainSchedule

    async def prove(
        self, problem: ProblemRecord, *, run_id: str | None = None, run_config: dict[str, Any] | None = None,
        versions: dict[str, str | None] | None = None, parent_run_id: str | None = None, preflight_checks: int = 0,
        stats: SearchStats | None = None,
    ) -> SearchResult:
        """`preflight_checks`: the Lean requests sent for this run before the search (the
        statement check, services.preflight), charged to its budget first. The dataset gate
        admitted the problem before (services.check_statement): a gated verifier refuses the
        problem's context otherwise. `stats`: the object the run's budget counts into (a live view
        reads it while the run goes)."""
        run = _Run(self, problem, run_id or new_id(), preflight_checks=preflight_checks, stats=stats)
        self.recorder.emit(problem)
        self.recorder.emit(
            RunStarted(run.run_id, "prove", run_config or {}, versions or {}, problem.problem_id, parent_run_id)
        )
        try:
            result = await run.execute()
        except BaseException as exc:
            error = run.failed(exc)  # the run closed in the record; the error the caller must see
            if error is not exc:
                raise error from None  # the leaf with its own traceback (the group around it is plumbing)
            raise
        summary = {k: v for k, v in result.to_json().items() if k not in ("proof", "audit")}
        self.recorder.emit(RunFinished(run.run_id, "proved" if result.proved else "not_proved", summary))
        return result


_NAME_SAFE = re.compile(r"[^A-Za-z0-9_]")


class _Run(TreeJournal):
    """One search for one problem: the state that the engine's methods share."""

    def __init__(self, engine: SearchEngine, problem: ProblemRecord, run_id: str, *, preflight_checks: int = 0,
                 stats: SearchStats | None = None) -> None:
        self.engine = engine
        self.planner, self.prover = engine.planner, engine.prover
        settings = engine.settings
        self.limits, self.config, self.audit_config = settings.budget, settings.search, settings.audit
        self.check_timeout = settings.verifier.timeout
        portfolio = settings.search.portfolio
        self.portfolio = tuple(portfolio) if portfolio is not None else automation.DEFAULT_PORTFOLIO
        self.verifier, self.recorder, self.on_update = engine.verifier, engine.recorder, engine.on_update
        self.problem, self.run_id = problem, run_id
        self.original = problem.header + problem.statement
        theorem = lean_syntax.last_theorem(problem.statement)
        split = theorem.start if theorem is not None else 0
        # Everything before the theorem (ProverBench / PutnamBench defs, helper lemmas) is context
        # that every check, prompt and lemma needs; the goal itself is the theorem alone.
        self.header = problem.header + problem.statement[:split]
        self.theorem = problem.statement[split:]
        self._context_lines = self.header.count("\n")
        self.tree = ProofTree()
        self.budget = Budget(self.limits, preflight_checks=preflight_checks, stats=stats)
        # Every Lean request of the run goes through this door: budgeted and deduplicated.
        self.lean = BudgetedVerifier(self.verifier, self.budget, timeout=self.check_timeout)
        self.cache = engine.cache if engine.cache is not None else SubgoalCache()
        self._lemma_counter = 0
        # When the run's work runs: the schedule the engine was given; the run's doors ask it as
        # work leaves (a check's place in Lean's queue, a check started ahead, provisional work).
        self.schedule: Schedule = engine.make_schedule(self)
        self.budget.schedule = self.lean.schedule = self.schedule
        # The root's assembly checks are audits (the file checked is the whole proof): by text.
        self._audits: dict[str, AuditReport] = {}
        self._sketches: dict[str, SketchSchedule] = {}  # open sketches' schedules, by node id
        base = theorem.name if theorem else "goal"
        self.lemma_prefix = _NAME_SAFE.sub("_", base.rsplit(".", 1)[-1]) or "goal"

    # -- top level ---------------------------------------------------------------------------------

    async def execute(self) -> SearchResult:
        started = time.monotonic()
        cpu_started = time.thread_time()
        try:
            with self.schedule.scope():
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
            async with asyncio.timeout(self.limits.wall_seconds):
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
            stall = waits.stalled_at(started + self.limits.wall_seconds - 1.0)
            if stall is not None:
                self._cancel_open()
                raise stall.error(self.limits.wall_seconds) from None
        proved = report is not None and report.ok
        if not proved:
            self._cancel_open()
        return SearchResult(
            run_id=self.run_id, proved=proved, proof=proof if proved else None,
            depth=self.tree.solved_depth() if proved else None, seconds=time.monotonic() - started,
            stats=self.budget.stats, stop_reason=stop_reason, tree=self.tree, audit=report,
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
            self._proof_record(root, "whole", self.problem.statement, normalize_statement(self.problem.statement),
                               assembled, depth=self.tree.solved_depth(), audit=report.to_json())
        return assembled, report

    async def _audit(self, code: str) -> AuditReport:
        return await audit(code, self.lean, original=self.original, config=self.audit_config,
                           timeout=self.check_timeout)

    # -- one goal (OR node) ------------------------------------------------------------------------

    async def _solve_goal(self, node: Node, hole: Goal | None) -> Solution | None:
        steps = self.schedule.goal(node)
        cached = await self.cache.lookup(self.header, node.text)
        if cached is not None:
            self.budget.stats.cache_hits += 1
            return self.solved(node, "cache", Solution(cached))
        self.budget.stats.cache_misses += 1
        return await steps.work(lambda: self._work_on_goal(node, hole, steps), lambda proof: self._elsewhere(node, proof))

    def _elsewhere(self, node: Node, proof: str) -> Solution:
        """The goal's statement was proved elsewhere while it was being worked on (the schedule
        settled it: schedule/layers.py's goal watch)."""
        self.budget.stats.cache_hits += 1
        return self.solved(node, "cache", Solution(proof))

    async def _work_on_goal(self, node: Node, hole: Goal | None, steps: GoalSchedule) -> Solution | None:
        """Automation, the prover, then sketches, in order of cost. `steps` says when each step's
        model requests run (plain: when the step needs them; speculative: ahead of need)."""
        budget = self.limits
        is_root = node.parent_id is None
        prover, planner = self.prover, self.planner
        samples = budget.root_whole_proof_attempts if is_root else budget.prover_samples_per_goal
        calls = request_sizes(samples, self.config.prover_samples_per_call) if prover is not None else []
        prover_requests = [self._prove_call(node, k) for k in calls]
        plans = planner is not None and node.depth < budget.max_depth
        provers: list[Pending] | None = None  # the prover's requests, once made known
        draft: Pending | None = None  # the first sketch's request, once made known
        try:
            if not is_root and self.portfolio:
                provers = [steps.known("prover", request) for request in prover_requests]
                solution = await steps.beside(self._try_automation(node, hole), "automation")
                if solution is not None:
                    return solution

            if (solved := self._solved_meanwhile(node)) is not None:
                return solved
            if calls:
                if plans:
                    draft = steps.known("draft", self.draft_call(node, ()))
                if provers is None:
                    provers = [steps.needed(request) for request in prover_requests]
                solution = await steps.beside(self._try_prover(node, provers, steps), "prover")
                if solution is not None:
                    return solution

            if plans:
                if (solved := self._solved_meanwhile(node)) is not None:
                    return solved
                solution = await self._try_sketches(node, steps, draft)
                if solution is not None:
                    return solution
        finally:
            steps.close()

        self._set_status(node, "failed", reason="no strategy closed the goal")
        return None

    # -- model requests --------------------------------------------------------------------------------

    def _prove_call(self, node: Node, n: int) -> MakeRequest:
        prover = self.prover
        assert prover is not None
        # The theorem's own whole-proof attempts get the informal statement, as the planner's draft
        # does and as training rows are built; a subgoal lemma's do not (it is not about the lemma).
        informal = self.problem.informal if node.parent_id is None else None
        return lambda told: prover.prove(self.header, node.text, n, informal=informal, on_candidate=told)

    def draft_call(self, node: Node, avoid: tuple[str, ...]) -> MakeRequest:
        planner = self.planner
        assert planner is not None
        informal = self.problem.informal if node.parent_id is None else None
        return lambda _told: planner.draft(self.header, node.text, informal, n=1, avoid=avoid)

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
        return self.solved(node, "cache", Solution(proof))

    def solved(self, node: Node, strategy: Strategy, solution: Solution) -> Solution:
        node.strategy = strategy
        node.proof = solution.body
        self._set_status(node, "solved", strategy=strategy, proof=solution.body)
        if node.parent_id is not None and not solution.lemmas:
            key = self.cache.put(self.header, node.text, solution.body)
            self._proof_record(node, "subgoal", node.text, key[1], solution.body, depth=node.depth)
        return solution

    # -- (1) automation ----------------------------------------------------------------------------

    async def _try_automation(self, node: Node, hole: Goal | None) -> Solution | None:
        tactics = self.portfolio
        if (
            self.config.automation == "proof_state"
            and hole is not None
            and hole.proof_state is not None
            and self.lean.supports_proof_states
        ):
            started = asyncio.get_running_loop().time()
            outcome = await automation.on_proof_state(self.lean, hole, tactics, timeout=self.config.tactic_timeout)
            solution = self._automation_attempt(node, outcome, outcome.proof or "\n".join(outcome.tried), started)
            if solution is not None or not outcome.state_lost:
                return solution
            # The worker holding the state restarted: try the portfolio on the standalone lemma.
        started = asyncio.get_running_loop().time()
        lemma_closes = lambda tactic: self._proves_code(self.header + lean_syntax.fill(node.text, [tactic]))  # noqa: E731
        outcome, proof = await automation.on_lemma(lemma_closes, tactics)
        return self._automation_attempt(node, outcome, self.header + lean_syntax.fill(node.text, [proof]), started)

    async def _proves_code(self, code: str) -> tuple[bool, CheckResult]:
        result = await self.lean.check(code)
        return self._proves(result), result

    def _automation_attempt(
        self, node: Node, outcome: automation.AutomationOutcome, code: str, started: float
    ) -> Solution | None:
        verdict: Verdict = "valid" if outcome.proof else "error"
        self._attempt(node, "automation", verdict, code, errors=[outcome.last_error] if outcome.last_error else [],
                      check_seconds=asyncio.get_running_loop().time() - started)
        if outcome.proof is None:
            return None
        return self.solved(node, "automation", Solution(outcome.proof))

    # -- (2) prover --------------------------------------------------------------------------------

    async def _try_prover(self, node: Node, requests: list[Pending], steps: GoalSchedule) -> Solution | None:
        prover = self.prover
        assert prover is not None
        failures: list[tuple[CandidateLike, CheckResult]] = []
        generations = [(request.answer(), request.feed) for request in requests]
        solution = await self._race(node, generations, "prover", failures)
        if solution is not None:
            return solution
        rounds = self.limits.self_corrections if prover.corrects else 0
        for _round in range(rounds):
            fixable = [(c, r) for c, r in failures if r.errors]
            if not fixable:
                break
            candidate, result = fixable[0]
            failures = []
            # Lean's messages themselves (start AND end of each error), with the file they are about.
            errors = list(result.errors[:8])
            fix = correction(prover, self.header, candidate, errors, self.config.correction_samples,
                             self.candidate_code(node, candidate))
            fixing = steps.needed(fix)
            solution = await self._race(node, [(fixing.answer(), fixing.feed)], "prover_correction", failures)
            if solution is not None:
                return solution
        return None

    async def generate(self, call: Awaitable[Sequence[object]]) -> Generated:
        """One model request through the budget; the candidates carry how long it took."""
        started = asyncio.get_running_loop().time()
        try:
            out = Generated(await self.budget.call(call))
        except AttemptFailed:
            # The server refused this request (a 4xx: prompt too long, bad parameter): a failed
            # attempt. Backend errors (endpoint down or misconfigured) and bugs propagate.
            out = Generated()
        out.seconds = asyncio.get_running_loop().time() - started
        return out

    def _race(
        self, node: Node, generations: Sequence[tuple[Awaitable[Generated], Feed | None]], strategy: Strategy,
        failures: list[tuple[CandidateLike, CheckResult]],
    ) -> Awaitable[Solution | None]:
        """The candidates verified as they arrive; the first that checks wins (search/race.py)."""
        return race_candidates(
            generations, lambda candidate, seconds: self._verify_candidate(node, candidate, strategy, seconds),
            self.schedule.ranked("race", self.config.race_window), failures)

    def candidate_code(self, node: Node, candidate: CandidateLike) -> str:
        return candidate_file(self.header, node.text, candidate)

    async def _verify_candidate(
        self, node: Node, candidate: CandidateLike, strategy: Strategy, generation_seconds: float = 0.0
    ) -> Solution | tuple[CandidateLike, CheckResult]:
        body = candidate.body
        if not body:
            self._attempt(node, strategy, "skipped", "", output=candidate.raw, llm_call_id=candidate.call_id,
                          errors=["no Lean proof found in the output"], generation_seconds=generation_seconds)
            return candidate, CheckResult(CheckStatus.ERROR, error="no Lean proof in the output")
        code = self.candidate_code(node, candidate)
        with self.schedule.checking(node, lambda: solution_of(candidate)):
            result = await self.lean.check(code)
        verdict: Verdict = "valid" if self._proves(result) else verdict_of(result)
        self._attempt(node, strategy, verdict, code, output=candidate.raw, llm_call_id=candidate.call_id,
                      errors=[m.format() for m in result.errors[:8]] or ([result.error] if result.error else []),
                      check_seconds=result.time, generation_seconds=generation_seconds)
        if self._proves(result):
            if node.status == "solved":
                # Another sample won first (identical samples share one check and finish together):
                # the node is recorded as solved, and its subgoal proof stored, once.
                return solution_of(candidate)
            return self.solved(node, strategy, solution_of(candidate))
        return candidate, result

    # -- (3) planner: sketches (AND nodes) ---------------------------------------------------------

    def _try_sketches(self, node: Node, steps: GoalSchedule, first: Pending | None) -> Awaitable[Solution | None]:
        """Up to `sketch_alternatives` sketches, each drafted to differ from the earlier ones; the
        first that closes the goal wins. The schedule runs them (one after another, or beside each
        other) through `_SketchTries`; `first`: the first one's request, made known before."""
        return steps.sketches(_SketchTries(self, node, steps, first))

    async def try_sketch(self, node: Node, sketches: Generated) -> Solution | None:
        """One sketch for `node`: elaborated (corrected up to N rounds), then its holes solved and
        the pieces assembled."""
        elaborated = await self._elaborate_sketch(node, sketches[0], sketches.seconds)
        if elaborated is None:
            return None
        sketch, result = elaborated
        if self._proves(result):  # the "sketch" is already a complete proof
            body = proof_body(sketch.code)
            return Solution(body) if body is not None else None
        return await self._solve_sketch(node, sketch, result)

    async def _elaborate_sketch(
        self, node: Node, sketch: SketchLike, generation_seconds: float = 0.0
    ) -> tuple[SketchLike, CheckResult] | None:
        """Check the sketch; correct it from Lean's errors up to N rounds."""
        planner = self.planner
        assert planner is not None
        for round_ in range(self.limits.sketch_corrections + 1):
            if not lean_syntax.same_statement(node.text, sketch.code):
                self._attempt(node, "planner", "rejected", sketch.code, output=sketch.raw,
                              llm_call_id=sketch.call_id, errors=["the sketch changed the statement"],
                              generation_seconds=generation_seconds)
                return None
            lean_lemmas.read_sketch(sketch.code)  # now, from the analysis the statement check just made
            result = await self.lean.check(self.header + sketch.code)
            strategy: Strategy = "planner" if round_ == 0 else "sketch_correction"
            self._attempt(node, strategy, verdict_of(result), self.header + sketch.code, output=sketch.raw,
                          llm_call_id=sketch.call_id, errors=[m.format() for m in result.errors[:8]],
                          check_seconds=result.time, generation_seconds=generation_seconds)
            if not result.errors and result.status in (CheckStatus.INCOMPLETE, CheckStatus.VALID):
                return sketch, result
            if result.status in (CheckStatus.TIMEOUT, CheckStatus.CRASHED) or round_ == self.limits.sketch_corrections:
                return None
            errors = [m.format() for m in result.errors[:8]]
            fixed = await self.generate(
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
            opened = self._sketches.pop(sketch_node.node_id, None)
            if opened is not None:
                opened.close()  # after its assembly: what it never took is dropped

    async def _solve_sketch_holes(
        self, node: Node, sketch_node: Node, sketch: SketchLike, result: CheckResult
    ) -> Solution | None:
        text_holes = lean_syntax.holes(sketch.code)
        lean_holes = align_holes(text_holes, result.holes, header_lines=self.header.count("\n"))
        children: list[tuple[Node, Goal | None]] = []
        # All holes' lemmas at once (each may cost an extract_goal and a round-trip check); names
        # are handed out first so they do not depend on which finishes first.
        names = [self._next_lemma_name() for _ in lean_holes]
        built = await asyncio.gather(*(  # through the run's door: extract_goal and round trips are budgeted
            lean_lemmas.build_lemma(self.lean, sketch.code, i, h, name=names[i], header=self.header,
                                    timeout=self.check_timeout) for i, h in enumerate(lean_holes)
        ), return_exceptions=True)
        for index, (lean_hole, lemma) in enumerate(zip(lean_holes, built, strict=True)):
            if isinstance(lemma, lean_lemmas.LemmaBuildError):
                self._set_status(sketch_node, "abandoned", reason=f"hole {index}: {lemma}")
                return None
            if isinstance(lemma, BaseException):
                raise lemma
            child = self._new_goal(lemma.statement, depth=node.depth + 1, parent_id=sketch_node.node_id,
                                   hole_index=index, goal_state=lean_hole.goal if lean_hole else None)
            self.cache.learn(self.header, lemma.statement, lemma.key)  # its key, from the sketch's tokens
            children.append((child, lean_hole))

        holes = self.schedule.ranked("holes")  # in order of position

        async def solve_or_fail(child: Node, hole: Goal | None) -> Solution:
            solution = await self._solve_goal(child, hole)
            if solution is None:
                raise _HoleFailed(child.node_id)
            opened.solved(child, solution)
            return solution

        hole_failed = False
        opened = self.schedule.sketch(sketch_node, node, [c for c, _ in children])
        self._sketches[sketch_node.node_id] = opened
        try:
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(holes.add(i, solve_or_fail(c, h))) for i, (c, h) in enumerate(children)]
        except* _HoleFailed:
            hole_failed = True  # (`return` is not allowed inside `except*`)
        finally:
            holes.end()
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
                result = await self.lean.check(code)
            proved = self._proves(result)
            self._attempt(sketch_node, "assembly", "valid" if proved else verdict_of(result), code,
                          errors=[m.format() for m in result.errors[:8]], check_seconds=result.time)
            return proved

        would_be = (lambda: None) if root else (lambda: inline_solution(sketch_code, solutions))
        with self.schedule.checking(node, would_be):
            return await assemble(self.header, sketch_code, [child.text for child in children], solutions, check,
                                  theorem=self.theorem if root else None)

    def _proves(self, result: CheckResult) -> bool:
        return proves(result, self._context_lines)


class _SketchTries:
    """A goal's alternative sketches, as a schedule tries them (search/interfaces.py `SketchTries`):
    the one place where the next sketch is drafted, asked to differ from the earlier ones, its
    successor's request made known, a drafted sketch tried, and the goal settled by one."""

    __slots__ = ("count", "drafted", "failed", "next", "node", "run", "steps")

    def __init__(self, run: _Run, node: Node, steps: GoalSchedule, first: Pending | None) -> None:
        self.run, self.node, self.steps = run, node, steps
        self.count = run.limits.sketch_alternatives
        self.failed: list[str] = []  # earlier sketches: the planner is asked for a different one
        self.drafted = 0  # drafts answered
        self.next = first  # the next sketch's request, made known ahead (None: made when drafted)

    async def draft(self) -> Generated:
        pending, self.next = self.next, None
        if pending is None:
            pending = self.steps.needed(self.run.draft_call(self.node, tuple(self.failed)))
        sketches = await pending.answer()
        self.drafted += 1
        if sketches:
            self.failed.append(sketches[0].code)
            if self.drafted < self.count:  # the next one's request is known now
                self.next = self.steps.known("draft", self.run.draft_call(self.node, tuple(self.failed)))
        return sketches

    def attempt(self, sketches: Generated) -> Awaitable[Solution | None]:
        return self.run.try_sketch(self.node, sketches)

    def won(self, solution: Solution) -> Solution:
        return self.run.solved(self.node, "planner", solution)

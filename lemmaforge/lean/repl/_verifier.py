"""lean-interact backend: a pool of Lean REPL processes keyed by header.

Why a pool keyed by header: `import Mathlib` costs 10-20 s and ~6 GB per process, a typical check a
few seconds. Each worker elaborates its file header once (`{"cmd": header}` → env `e`) and every
later check with that header is sent as `{"cmd": body, "env": e}`, branching from the header env, so
checks never see each other's declarations. Positions in the answer are relative to the body; they
are shifted back by the header's line count so callers see whole-file positions.

Scheduling — which check or tactic step gets which worker, and when a worker switches header —
is the pool's policy in `_scheduling.py`; all of it runs on the event loop, only the blocking
lean-interact calls run in threads, one in-flight request per worker.

Failures are reported, never hidden: a check that runs past its timeout is `TIMEOUT` (lean-interact
killed the process); a dead pipe, unparseable output or an out-of-memory death is `CRASHED` and
carries what the process said. The worker is restarted (header replayed) on its next use. A crashed
check is retried once on the fresh process by default (`crash_retries`), because a crash is often
caused by the process's history (memory grown by earlier checks) rather than by the code; a
timeout is never retried. Processes are recycled after `max_checks_per_worker` requests because the
REPL never frees environments or proof states.

LeanServer, not AutoLeanServer: AutoLeanServer restarts a dead process by itself on the next call
and its memory guard kills the process (then sleeps 1+2+4+8+16 s, blocking the thread) when the
*machine* is above 80% memory. Both silently renumber env / proof-state ids: a hole's proof state
could then point at a different state of the new process, and the header would be replayed without
a timeout. With plain LeanServer every restart happens here, so the worker's generation changes
and stale proof states are refused ("proof state lost: worker restarted"); memory is bounded by
RLIMIT_AS (`memory_limit_mb`) plus a resident-size check between requests that recycles a worker
before it reaches the limit.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import resource  # noqa: F401  imported before any fork: see _start_process
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from lean_interact import Command, LeanREPLConfig, ProofStep
from lean_interact.interface import BaseREPLQuery
from lean_interact.server import LeanServer

from lemmaforge import sending
from lemmaforge.config import VerifierConfig
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.check_queue import CheckQueue
from lemmaforge.lean.priority import UNORDERED, LeanIdle, OrderKey
from lemmaforge.lean.repl._process import (
    ABANDONED,
    CLOSED,
    Counters,
    Handoff,
    Outcome,
    ReplPoolStats,
    SandboxedLeanServer,
    Worker,
    describe_crash,
    ewma,
    first_line,
    repl_config_for,
    repl_sandbox,
    retrieve_quietly,
)
from lemmaforge.lean.repl._results import (
    BACKEND,
    WorkerHandle,
    check_result,
    copy_result,
    has_errors,
    response_dict,
    tactic_result,
)
from lemmaforge.lean.repl._scheduling import PoolScheduling, Waiter
from lemmaforge.lean.sandbox import Sandbox
from lemmaforge.lean.verifier import (
    CheckResult,
    CheckStatus,
    Goal,
    Message,
    TacticResult,
    VerifierError,
    VerifierMisconfigured,
)

log = logging.getLogger(__name__)

# Recycle a worker between requests once its resident memory passes this fraction of the cap:
# RLIMIT_AS kills it mid-request otherwise, which loses the check.
MEMORY_RECYCLE_FRACTION = 0.8

# --------------------------------------------------------------------------------------------------
# Header / body split
# --------------------------------------------------------------------------------------------------


def split_header(code: str) -> tuple[str, str, int]:
    """(header, body, body_line_offset): `lean.syntax.split_header`, plus the number of lines the
    header takes, by which positions of the body's results are shifted back."""
    header, body = lean_syntax.split_header(code)
    return header, body, header.count("\n")


_pool_ids = itertools.count(1)

# Says "proof state lost", which automation.on_proof_state looks for to stop trying tactics.
_LOST = "proof state lost: worker restarted"


# --------------------------------------------------------------------------------------------------
# The verifier
# --------------------------------------------------------------------------------------------------


class ReplVerifier(PoolScheduling):
    """`Verifier` on lean-interact REPL processes (see the module docstring)."""

    name = BACKEND
    supports_proof_states = True

    def __init__(
        self,
        repl_config: LeanREPLConfig,
        *,
        workers: int,
        timeout: float,
        header_timeout: float,
        max_checks_per_worker: int,
        crash_retries: int = 1,
        memory_recycle_fraction: float = MEMORY_RECYCLE_FRACTION,
        sandbox: Sandbox | None = None,
    ) -> None:
        if workers < 1 or max_checks_per_worker < 1 or crash_retries < 0:
            raise ValueError("workers and max_checks_per_worker must be >= 1, crash_retries >= 0")
        self._repl_config = repl_config
        self.sandbox = sandbox  # None: Lean runs unsandboxed (`--no-sandbox`, or a test's fake)
        self._capacity = workers
        self._timeout = timeout
        self._header_timeout = header_timeout
        self._max_requests = max_checks_per_worker
        self._crash_retries = crash_retries
        self._memory_recycle_mb = (
            repl_config.memory_hard_limit_mb * memory_recycle_fraction if repl_config.memory_hard_limit_mb else None
        )
        self._pool_id = next(_pool_ids)
        self._workers: list[Worker] = []
        # Checks wait in one queue, a lane per header (lean/check_queue.py); a tactic step waits for
        # the one worker whose process holds its proof state, ahead of any check.
        self._queue: CheckQueue[Waiter] = CheckQueue()
        self._tactic_waiters: deque[Waiter] = deque()
        self._failed_headers: dict[str, CheckResult] = {}
        # Running averages of Lean's answer times, to decide when switching a worker's header pays.
        self._avg_header_s: float | None = None
        self._avg_check_s: float | None = None
        self._counters = Counters()
        self._header_seconds = 0.0
        self._started_at = time.monotonic()
        self._closed = False
        # A private executor: the default one has min(32, cpu+4) threads, which would silently cap
        # the pool's parallelism on small machines (6 threads on 2 CPUs).
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lemmaforge-repl")

    # ---- construction from the typed config -----------------------------------------------------

    @classmethod
    def from_config(cls, cfg: VerifierConfig) -> ReplVerifier:
        """The pool for `cfg` (`_process.repl_config_for`). Raises VerifierError with one
        actionable line when Lean / lake / the project is missing."""
        repl_config = repl_config_for(cfg)
        return cls(
            repl_config,
            sandbox=repl_sandbox(cfg, repl_config) if cfg.sandbox else None,
            workers=cfg.workers,
            timeout=cfg.timeout,
            header_timeout=cfg.header_timeout,
            max_checks_per_worker=cfg.max_checks_per_worker,
        )

    # ---- Verifier protocol --------------------------------------------------------------------

    @property
    def idle(self) -> LeanIdle:
        """Fired when a worker is freed with nothing left to take (`CheckQueue.idle`)."""
        return self._queue.idle

    def has_room(self) -> bool:
        """Whether a check submitted now finds a worker at once: nothing waits for one, and one is
        idle or may still be started."""
        if self._queue or self._tactic_waiters:
            return False
        return len(self._workers) < self._capacity or any(not w.busy for w in self._workers)

    async def check(
        self, code: str, *, timeout: float | None = None, order: OrderKey | None = None
    ) -> CheckResult:
        """`code`'s verdict; it waits for a worker in `order` (None: `priority.UNORDERED`, a fresh search's place)."""
        return (await self._check_retrying(code, None, timeout, order or UNORDERED))[0]

    async def check_with_probe(
        self, code: str, probe: str, *, timeout: float | None = None, order: OrderKey | None = None
    ) -> tuple[CheckResult, list[Message] | None]:
        """Check `code`, then run `probe` (the audit's `#print axioms`) as a SEPARATE command in
        the environment `code` produced: the probe's messages come in their own response, so
        nothing the proof prints can be mistaken for them. None when the probe did not run."""
        return await self._check_retrying(code, probe, timeout, order or UNORDERED)

    async def _check_retrying(
        self, code: str, probe: str | None, timeout: float | None, order: OrderKey
    ) -> tuple[CheckResult, list[Message] | None]:
        header, body, offset = split_header(code)
        attempts = 0
        while True:
            result = await self._check_once(header, body, offset, timeout or self._timeout, order, probe=probe)
            if result[0].status is not CheckStatus.CRASHED or attempts >= self._crash_retries or self._closed:
                return result
            attempts += 1
            self._counters.bump("crash_retries")
            log.warning("Lean REPL crashed on a check (%s); retrying once on a fresh process", result[0].error)

    async def check_many(
        self, codes: Sequence[str], *, timeout: float | None = None, order: OrderKey | None = None
    ) -> list[CheckResult]:
        # The pool queue bounds the concurrency; results keep the input order.
        order = order or UNORDERED
        return list(await asyncio.gather(*(self.check(c, timeout=timeout, order=order) for c in codes)))

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        if hole.proof_state is None:
            sending.not_sent()
            return TacticResult(error="this hole has no proof state (Lean reported none for it)")
        handle = hole.worker
        if not isinstance(handle, WorkerHandle) or handle.pool != self._pool_id or handle.slot >= len(self._workers):
            sending.not_sent()
            return TacticResult(error="this hole was not produced by this verifier")
        worker = self._workers[handle.slot]
        if self._is_stale(worker, hole.generation):
            sending.not_sent()
            return TacticResult(error=_LOST)
        sending.queued()
        worker = await self._acquire(None, slot=handle.slot)  # the process that holds the state
        try:
            if self._is_stale(worker, hole.generation):  # restarted (or closed) while we waited for it
                sending.not_sent()
                return TacticResult(error=_LOST)
            request = ProofStep(proof_state=hole.proof_state, tactic=tactic)
            limit = timeout or self._timeout
            outcome = await self._handed(worker, "tactic_steps",
                                         lambda handoff: self._send(worker, request, limit, handoff=handoff))
            return self._tactic_result(outcome, worker)  # before release: the generation is ours
        finally:
            self._release(worker)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        waiters = [*self._queue.clear(), *self._tactic_waiters]
        self._tactic_waiters.clear()
        for waiter in waiters:
            if not waiter.future.done():
                waiter.future.set_exception(VerifierError("the REPL verifier was closed"))
        servers = [w.server for w in self._workers if w.server is not None]
        for w in self._workers:
            w.server, w.loaded_header = None, None
        # LeanServer.kill waits up to 1 s per process tree: kill them side by side. A thread still
        # talking to a process may be killing it too (lean-interact does on a broken pipe), and
        # its kill is not idempotent: whichever comes second may fail, which is fine.
        outcomes = await asyncio.gather(*(asyncio.to_thread(s.kill) for s in servers), return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, Exception):
                log.debug("REPL process was already going away at close: %r", outcome)
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def __aenter__(self) -> ReplVerifier:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- statistics ---------------------------------------------------------------------------

    def stats(self) -> ReplPoolStats:
        return ReplPoolStats(
            workers=self._capacity,
            started_workers=len(self._workers),
            busy_seconds=tuple(w.busy_seconds for w in self._workers),
            wall_seconds=time.monotonic() - self._started_at,
            header_seconds=self._header_seconds,
            **self._counters.values,
        )

    def worker_pids(self) -> list[int | None]:
        """Process id per worker slot (None while stopped); for diagnostics and tests."""
        return [w.server._proc.pid if w.server is not None and w.server._proc is not None else None for w in self._workers]

    # ---- one check ----------------------------------------------------------------------------

    async def _check_once(
        self, header: str, body: str, offset: int, timeout: float, order: OrderKey, *,
        probe: str | None = None,
    ) -> tuple[CheckResult, list[Message] | None]:
        if header in self._failed_headers:
            sending.not_sent()  # the header's failure is known: nothing leaves
            return copy_result(self._failed_headers[header]), None
        sending.queued()
        worker = await self._acquire(header, order=order)
        try:
            if self._closed:  # closed while the worker was handed over: nothing leaves
                sending.not_sent()
                return CheckResult(status=CheckStatus.CRASHED, backend=self.name, error=CLOSED), None
            outcome = await self._handed(worker, "checks",
                                         lambda handoff: self._blocking_check(worker, body, timeout, probe, handoff))
            result = self._check_result(outcome, worker, header, offset)  # before release: see run_tactic
        finally:
            self._release(worker)
        if outcome.probe_response is None or "env" not in outcome.probe_response:
            return result, None
        return result, [Message.from_json(m) for m in outcome.probe_response.get("messages", [])]

    async def _handed(self, worker: Worker, counter: str, fn: Callable[[Handoff], Outcome]) -> Outcome:
        """Run `fn` in the worker's thread, `fn` writing to Lean only through the `Handoff` it is
        given, and tell the run's budget what left (lemmaforge/sending.py): "sent" the moment a
        request of it reaches Lean (the pool's `counter` counts it then too), "not_sent" when none
        did (the pool closed first, or the caller gave it up before it went)."""
        loop = asyncio.get_running_loop()
        tell = sending.current()  # "sent" for this request, callable from the loop
        told = False

        def went() -> None:  # on the loop: exactly once per check that reached Lean
            nonlocal told
            if not told:
                told = True
                self._counters.bump(counter)
                tell()

        def from_thread() -> None:
            try:
                loop.call_soon_threadsafe(went)
            except RuntimeError:  # the loop is gone (closing): nobody is left to tell
                pass

        handoff = Handoff(from_thread)
        try:
            outcome = await self._in_thread(worker, lambda: fn(handoff))
        except asyncio.CancelledError:
            if handoff.abandon():  # it had reached Lean: sent, then cancelled (the budget's word now)
                went()
            raise
        except BaseException:
            self._tell_outcome(handoff, went)
            raise
        self._tell_outcome(handoff, went)
        return outcome

    @staticmethod
    def _tell_outcome(handoff: Handoff, went: Callable[[], None]) -> None:
        if handoff.went:
            went()
        else:
            sending.not_sent()

    def _blocking_check(
        self, worker: Worker, body: str, timeout: float, probe: str | None = None, handoff: Handoff | None = None
    ) -> Outcome:
        """Runs in a thread while the worker is held: (re)start and header if needed, then the body."""
        started = time.monotonic()
        failed = self._prepare(worker, handoff)
        if failed is not None:
            failed.seconds = time.monotonic() - started
            return failed
        request = Command(cmd=body or "\n") if worker.header_env is None else Command(cmd=body or "\n", env=worker.header_env)
        outcome = self._send(worker, request, timeout, handoff=handoff)
        if outcome.failure is None:
            self._avg_check_s = ewma(self._avg_check_s, outcome.seconds)
        env = (outcome.response or {}).get("env") if outcome.failure is None else None
        if probe is not None and env is not None and worker.server is not None:
            answer = self._send(worker, Command(cmd=probe, env=int(env)), timeout, handoff=handoff)
            if answer.failure is not None:  # the probe timed out or killed the process
                outcome.failure, outcome.error = answer.failure, answer.error
            else:
                outcome.probe_response = answer.response
        outcome.seconds = time.monotonic() - started  # what this check cost, restarts included
        return outcome

    def _prepare(self, worker: Worker, handoff: Handoff | None = None) -> Outcome | None:
        """Make the worker's process serve `worker.header`: replace it after a header switch or when
        it is due for recycling, start it if needed and elaborate the header once (a request of the
        check: through its `handoff`)."""
        if self._closed:  # never start a process for a pool that is shutting down
            return Outcome(failure=CheckStatus.CRASHED, error=CLOSED)
        if worker.server is not None and worker.loaded_header != worker.header:
            self._counters.bump("header_switches")
            self._discard_process(worker)
        elif worker.server is not None and (worker.needs_recycle or worker.requests >= self._max_requests):
            self._counters.bump("recycles")
            self._discard_process(worker)
        if worker.server is not None:
            return None
        self._start_process(worker)
        if self._closed:  # closed while the process started: close() did not see it, stop it here
            self._discard_process(worker)
            return Outcome(failure=CheckStatus.CRASHED, error=CLOSED)
        if not worker.header:
            worker.loaded_header, worker.header_env = worker.header, None
            return None
        self._counters.bump("header_elaborations")
        header_started = time.monotonic()
        outcome = self._send(worker, Command(cmd=worker.header), self._header_timeout, counts=False, handoff=handoff)
        self._header_seconds += time.monotonic() - header_started  # statistics only: a rare lost update is harmless
        if outcome.failure is not None:
            outcome.error = f"while elaborating the header: {outcome.error}"
            return outcome
        self._avg_header_s = ewma(self._avg_header_s, outcome.seconds)
        response = outcome.response or {}
        if "env" not in response or has_errors(response):
            self._discard_process(worker)  # its env is useless; restart clean for the next header
            return Outcome(response=response, header_failed=True)
        worker.loaded_header, worker.header_env = worker.header, int(response["env"])
        return None

    def _start_process(self, worker: Worker) -> None:
        # LeanServer forks with a preexec_fn (setting RLIMIT_AS) that runs `import resource` in the
        # child. Forking from a thread while another thread holds the import lock could deadlock
        # the child; `resource` is imported at module load so that import is a dict lookup.
        try:
            if self.sandbox is not None:
                worker.server = SandboxedLeanServer(self._repl_config, self.sandbox)
            else:
                worker.server = LeanServer(self._repl_config)
        except (OSError, ChildProcessError) as exc:
            raise VerifierMisconfigured(
                f"cannot start the Lean REPL (`{self._repl_config.lake_path} env …/repl` in "
                f"{self._repl_config.working_dir}): {first_line(exc)}"
            ) from exc
        if worker.generation > 0:
            self._counters.bump("restarts")
        worker.generation += 1
        worker.requests = 0
        worker.needs_recycle = False

    def _discard_process(self, worker: Worker) -> None:
        server, worker.server = worker.server, None
        worker.loaded_header, worker.header_env = None, None
        if server is not None:
            try:
                server.kill()
            except Exception as exc:  # close() may be killing it at the same time (not idempotent)
                log.debug("REPL process kill raced with another: %r", exc)

    def _send(
        self, worker: Worker, request: BaseREPLQuery, timeout: float, *, counts: bool = True,
        handoff: Handoff | None = None,
    ) -> Outcome:
        """One round-trip; every failure mode of lean-interact becomes a classified outcome.
        `counts`: the request adds states to the process (all but the header) and so counts
        toward `max_checks_per_worker`. `handoff`: the check it is for, told just before the
        request is written (nothing is written for a check its caller gave up)."""
        server = worker.server  # read once: close() may clear the attribute from the loop thread
        if server is None:
            # close() took the process while this thread was on its way here: an answer, not an
            # AssertionError left in a future that a cancelled caller never retrieves.
            return Outcome(failure=CheckStatus.CRASHED, error=CLOSED)
        if handoff is not None and not handoff.start():
            return Outcome(failure=CheckStatus.CRASHED, error=ABANDONED)
        worker.requests += int(counts)
        started = time.monotonic()
        try:
            response = server.run(request, timeout=timeout)  # type: ignore[call-overload]
        except TimeoutError:  # lean-interact already killed the process
            self._counters.bump("timeouts")
            self._discard_process(worker)
            return Outcome(
                failure=CheckStatus.TIMEOUT,
                error=f"no answer from Lean within {timeout:g} s; the process was killed and will be restarted",
            )
        except (OSError, ChildProcessError, MemoryError, ValueError) as exc:
            # ConnectionAbortedError / BrokenPipeError (dead pipe), ChildProcessError (not running),
            # JSONDecodeError and pydantic's ValidationError (garbage), MemoryError.
            self._counters.bump("crashes")
            self._discard_process(worker)
            return Outcome(failure=CheckStatus.CRASHED, error=describe_crash(exc, self._repl_config.memory_hard_limit_mb))
        except Exception:
            if self._closed:
                # close() killed the process under this request, and lean-interact's own kill
                # raced with it (AttributeError on a process handle it cleared): the pool is gone.
                return Outcome(failure=CheckStatus.CRASHED, error=CLOSED)
            raise
        seconds = time.monotonic() - started
        self._maybe_schedule_recycle(worker, server)
        return Outcome(response=response_dict(response), seconds=seconds)

    def _maybe_schedule_recycle(self, worker: Worker, server: LeanServer) -> None:
        # RLIMIT_AS kills a process mid-request, losing that check; recycling it between requests
        # once its resident size nears the cap loses nothing.
        if self._memory_recycle_mb is not None and server.get_memory_usage() >= self._memory_recycle_mb:
            worker.needs_recycle = True

    def _check_result(self, outcome: Outcome, worker: Worker, header: str, offset: int) -> CheckResult:
        result = check_result(outcome, WorkerHandle(self._pool_id, worker.slot), worker.generation, offset)
        if outcome.failure is None and outcome.header_failed:
            self._failed_headers[header] = result
            return copy_result(result)
        return result

    def _tactic_result(self, outcome: Outcome, worker: Worker) -> TacticResult:
        return tactic_result(outcome, WorkerHandle(self._pool_id, worker.slot), worker.generation)

    def _is_stale(self, worker: Worker, generation: int) -> bool:
        return worker.server is None or worker.generation != generation

    async def _in_thread(self, worker: Worker, fn: Callable[[], Outcome]) -> Outcome:
        """Run a blocking call for `worker` in the pool's executor, accounting busy time. If the
        caller is cancelled the call still finishes (a REPL request cannot be interrupted without
        killing the process) and the worker is released when it does."""

        def timed() -> Outcome:
            started = time.monotonic()
            try:
                return fn()
            finally:
                worker.busy_seconds += time.monotonic() - started

        future = asyncio.get_running_loop().run_in_executor(self._executor, timed)
        # A caller cancelled meanwhile never awaits this future: retrieve its outcome here, so an
        # unexpected exception is logged once instead of "Future exception was never retrieved".
        future.add_done_callback(retrieve_quietly)
        worker.inflight = future
        return await asyncio.shield(future)

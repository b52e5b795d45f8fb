"""Reward functions for TRL's GRPOTrainer, and problem filtering by pass rate.

TRL 1.16 calls every reward function once per generation batch as
`f(prompts=…, completions=…, completion_ids=…, **columns, trainer_state=…, log_extra=…, log_metric=…)`
and wants one `float | None` per completion; `None` becomes NaN and leaves that function out for
that sample. A sample for which EVERY function returns `None` is "unscorable": it is excluded from
its group's baseline and its advantage is forced to 0 (it neither helps nor hurts).

`lean_reward` (from `make_lean_reward`), async and batched: 1.0 when the completion's Lean proof,
under the row's header, passes the full audit against the row's statement; else 0.0.

| outcome of the completion                                            | reward |
|----------------------------------------------------------------------|--------|
| audit `proved`                                                       | 1.0    |
| no Lean block, no theorem, statement changed, banned construct       | 0.0    |
| Lean errors, `sorry`/holes, forbidden axioms                          | 0.0    |
| the check timed out (audit `timeout`)                                 | 0.0    |
| verifier raised (VerifierError or another backend error), or         | None   |
| the Lean process / server crashed (CheckStatus.CRASHED)               |        |

A timeout is the proof's fault (too slow a proof is no proof: the same budget applies at test
time) and is punished like a wrong proof. A crash says nothing about the proof: the sample is left
out rather than punished. Caveat: a sample is only left out entirely when every reward function
returns None for it; while the structure-consistency reward is active (its first K steps), a
crashed sample is scored on consistency alone. After K steps that reward returns None, so crashes
are then fully neutral.

`structure_consistency_reward` (DeepSeek-Prover-V2's "consistency reward in the early steps"):
for a CoT completion (plan, a sketch block with `sorry`s, then the final proof block), the
fraction of the sketch's `have` steps that the final proof keeps (`code.structure_consistency`
on the token-respaced texts: `x*y` and `x * y` are one step). 0.0 when there is no sketch (no
block with `sorry`, or one with no `have` step) or no separate final proof block, and when the
final proof proves nothing: it has `sorry`, fails the text audit (banned constructs; a changed
statement when the row's `statement` is passed), or is the sketch again — a copied sketch would
otherwise earn the full consistency reward.

Statement matching is on Lean tokens: a completion that re-typed the theorem with other spacing
(`x*y` for `x * y`) is checked against the original's exact text (`with_original_statement`),
not rejected as "statement changed". `make_structure_consistency_reward(active_steps=K)` gates it on
`trainer_state.global_step < K`; from step K on it returns None (not 0.0): a constant 0.0 would
change no advantage but would turn crashed samples into punished ones (see above) and log a
misleading mean of 0.

Event loops. TRL runs async reward functions on its own daemon-thread event loop. Verifiers hold
loop-bound resources (httpx connection pools, asyncio locks, REPL subprocess pipes). So
`LeanReward` accepts either a verifier FACTORY (recommended, what `run_grpo` and the CLI pass):
the verifier is created lazily inside the loop that first calls the reward, and a fresh one is
made for any other loop; or a verifier INSTANCE, which is bound to the first loop that uses it:
calls from another thread's running loop are forwarded to the owner loop
(`run_coroutine_threadsafe`), and if the owner loop has ended the instance is used on the new
loop (fine for backends that open their resources lazily per loop).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from lemmaforge.agent.backends.base import Completion
from lemmaforge.agent.output import extract_lean_code, lean_blocks, sketch_and_proof
from lemmaforge.config import AuditConfig
from lemmaforge.errors import BackendError
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.verifier import CheckStatus, Verifier, VerifierError

log = logging.getLogger(__name__)

VerifierFactory = Callable[[], Verifier]



# --- completions and code blocks -----------------------------------------------------------------


def completion_text(completion: Any) -> str:
    """The text of one TRL completion: a plain string, or a list of messages (conversational:
    `completion[0]["content"]`; several assistant messages are joined)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return _content(completion.get("content"))
    if isinstance(completion, Completion):  # a model's (agent.llm)
        return completion.text
    if isinstance(completion, list | tuple):
        parts = [
            _content(m.get("content"))
            for m in completion
            if isinstance(m, dict) and m.get("role", "assistant") == "assistant"
        ]
        return "\n".join(p for p in parts if p)
    return "" if completion is None else str(completion)


def _content(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content blocks [{"type": "text", "text": ...}]
        return "".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return "" if content is None else str(content)


def _local_extract(text: str) -> str | None:
    """The last closed ```lean4 / ```lean block of `text` (no header handling)."""
    blocks = lean_blocks(text)
    return blocks[-1] if blocks else None


def extract_proof_code(text: str) -> str | None:
    """The Lean proof of a completion: `agent.output.extract_lean_code` (the last ```lean4 /
    ```lean block, after any `<think>` and after DS-Prover-V2's "Complete Lean 4 Proof" heading;
    an unterminated final block is returned for Lean to judge). None when there is none."""
    return extract_lean_code(text)


# --- the Lean reward -----------------------------------------------------------------------------


def original_text(header: str | None, statement: str) -> str:
    """The problem as a whole Lean file: `header` + `statement`, unless the statement already
    carries its own header (then `header` is ignored)."""
    own_header, _ = lean_syntax.split_header(statement)
    if own_header.strip() or not (header or "").strip():
        return statement
    return (header or "").rstrip() + "\n\n" + statement.lstrip()


def candidate_text(proof_code: str, original: str) -> str:
    """The completion's code under the ORIGINAL's header: whatever header the model wrote
    (imports, options, opens) is replaced by the problem's own, and a theorem statement that is
    the original's token for token (`x*y` for `x * y`, other line breaks, comments) is replaced
    by the original's exact text (`with_original_statement`)."""
    header, _ = lean_syntax.split_header(original)
    _, body = lean_syntax.split_header(proof_code)
    body = with_original_statement(body, original)
    if not header.strip():
        return body
    return header.rstrip() + "\n\n" + body.lstrip()


def with_original_statement(candidate: str, original: str) -> str:
    """`candidate` with its last theorem's signature replaced by the original's text when the two
    have the same name and the same Lean tokens (layout, comments and ASCII spellings aside).
    Statement matching on tokens, not text: a proof that re-typed the statement with other
    spacing is not "statement changed". Sound by construction: Lean then checks the proof
    against the original's own text, so a token-equal but differently-parsed statement (there
    is none the audit could miss) would fail to check, never pass."""
    from lemmaforge.training.canonical import expression_tokens

    cand, orig = lean_syntax.last_theorem(candidate), lean_syntax.last_theorem(original)
    if cand is None or orig is None or cand.name != orig.name or cand.signature == orig.signature:
        return candidate
    if expression_tokens(cand.signature) != expression_tokens(orig.signature):
        return candidate
    start = candidate.find(cand.signature, cand.signature_start)
    if start < 0:
        return candidate
    return candidate[:start] + orig.signature + candidate[start + len(cand.signature) :]


@dataclass(frozen=True, slots=True)
class Scored:
    reward: float | None
    status: str  # proved | no_code | incomplete | error | rejected | timeout | verifier_failure | dataset_rejected


async def score_code(
    verifier: Verifier,
    code: str | None,
    original: str,
    *,
    audit_config: AuditConfig | None = None,
    timeout: float | None = None,
) -> Scored:
    """Score one extracted proof (None: the completion had no Lean block) against one original
    problem (see the module table)."""
    from lemmaforge.lean.audit import AuditStatus, Reason, audit
    from lemmaforge.lean.gate import DatasetRejected

    if code is None or not code.strip():
        return Scored(0.0, "no_code")
    candidate = candidate_text(code, original)
    try:
        report = await audit(candidate, verifier, original=original, config=audit_config, timeout=timeout)
    except asyncio.CancelledError:
        raise
    except BackendError as exc:  # VerifierError included: left out, never punished (errors.is_fatal)
        log.warning("lean_reward: verifier unusable, sample left out: %s", exc)
        return Scored(None, "verifier_failure")
    except DatasetRejected as exc:  # the row, not the model: never sent to Lean, never scored
        log.warning("lean_reward: %s; sample left out", exc)
        return Scored(None, "dataset_rejected")
    # anything else is a bug: it propagates instead of silently leaving samples out
    crashed = (report.check is not None and report.check.status is CheckStatus.CRASHED) or any(
        r.reason is Reason.VERIFIER_FAILURE for r in report.reasons
    )
    if crashed:
        return Scored(None, "verifier_failure")
    if report.status is AuditStatus.PROVED:
        return Scored(1.0, "proved")
    return Scored(0.0, report.status.value)


async def score_proof(
    verifier: Verifier,
    text: str,
    original: str,
    *,
    audit_config: AuditConfig | None = None,
    timeout: float | None = None,
) -> Scored:
    """Score one completion text (its last Lean block) against one original problem."""
    return await score_code(
        verifier, extract_proof_code(text), original, audit_config=audit_config, timeout=timeout
    )


class LeanReward:
    """The async, batched Lean reward (build it with `make_lean_reward`). TRL logs it as
    `rewards/lean_reward/...`; it also logs `lean_reward/verifier_failures` (fraction of the batch
    left out) and a `lean_status` column in the completions table."""

    def __init__(
        self,
        verifier: Verifier | VerifierFactory,
        *,
        header_column: str = "header",
        statement_column: str = "statement",
        timeout: float | None = None,
        audit_config: AuditConfig | None = None,
        max_concurrency: int | None = 64,
        max_failed_batches: int | None = 3,
        name: str = "lean_reward",
    ) -> None:
        if isinstance(verifier, Verifier):
            self._instance: Verifier | None = verifier
            self._factory: VerifierFactory | None = None
        elif callable(verifier):
            self._instance, self._factory = None, verifier
        else:
            raise TypeError("verifier must be a Verifier or a zero-argument factory returning one")
        self.header_column = header_column
        self.statement_column = statement_column
        self.timeout = timeout
        self.audit_config = audit_config
        self.max_concurrency = max_concurrency
        self.max_failed_batches = max_failed_batches
        self.__name__ = name  # TRL names the reward (and its log keys) after this
        self._lock = threading.Lock()
        self._owner_loop: asyncio.AbstractEventLoop | None = None
        self._made: dict[asyncio.AbstractEventLoop, Verifier] = {}
        self._slots: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}
        self._failed_batches = 0

    # the verifier, per event loop

    def _verifier_for(self, loop: asyncio.AbstractEventLoop) -> tuple[Verifier, asyncio.AbstractEventLoop]:
        """(verifier, the loop it must be used on)."""
        with self._lock:
            if self._factory is not None:
                if loop not in self._made:
                    self._made[loop] = self._factory()
                return self._made[loop], loop
            assert self._instance is not None
            owner = self._owner_loop
            if owner is None or owner is loop or owner.is_closed() or not owner.is_running():
                self._owner_loop = loop
                return self._instance, loop
            return self._instance, owner

    async def _score_on_loop(self, code: str | None, original: str) -> Scored:
        loop = asyncio.get_running_loop()
        verifier, owner = self._verifier_for(loop)
        coro = score_code(verifier, code, original, audit_config=self.audit_config, timeout=self.timeout)
        if owner is loop:
            return await coro
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, owner))

    async def score(self, completions: Sequence[Any], originals: Sequence[str]) -> list[Scored]:
        """Score a batch concurrently; identical (proof, problem) pairs are verified once."""
        loop = asyncio.get_running_loop()
        slots: asyncio.Semaphore | None = None
        if self.max_concurrency:
            with self._lock:
                slots = self._slots.setdefault(loop, asyncio.Semaphore(self.max_concurrency))
        keys = [
            (extract_proof_code(completion_text(c)), original)
            for c, original in zip(completions, originals, strict=True)
        ]
        unique = list(dict.fromkeys(keys))

        async def one(code: str | None, original: str) -> Scored:
            if slots is None:
                return await self._score_on_loop(code, original)
            async with slots:
                return await self._score_on_loop(code, original)

        results = await asyncio.gather(*(one(code, original) for code, original in unique))
        by_key = dict(zip(unique, results, strict=True))
        return [by_key[k] for k in keys]

    async def __call__(self, prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> list[float | None]:
        n = len(completions)
        headers = _column(kwargs, self.header_column, n, required=False)
        statements = _column(kwargs, self.statement_column, n, required=True)
        originals = [original_text(h, s) for h, s in zip(headers, statements, strict=True)]
        scored = await self.score(completions, originals)
        rewards = [s.reward for s in scored]
        failures = sum(r is None for r in rewards)
        if callable(kwargs.get("log_metric")):
            kwargs["log_metric"]("lean_reward/verifier_failures", failures / max(n, 1))
        if callable(kwargs.get("log_extra")):
            kwargs["log_extra"]("lean_status", [s.status for s in scored])
        if n and failures == n:
            self._failed_batches += 1
            if self.max_failed_batches and self._failed_batches >= self.max_failed_batches:
                raise VerifierError(
                    f"lean_reward: the verifier failed on every completion of {self._failed_batches} "
                    "consecutive batches; stopping rather than training on nothing"
                )
        else:
            self._failed_batches = 0
        return rewards

    async def aclose(self) -> None:
        """Close the verifiers this reward created (factory mode) that live on the running loop."""
        loop = asyncio.get_running_loop()
        with self._lock:
            mine = self._made.pop(loop, None)
        if mine is not None:
            await mine.close()

    def close_on(self, loop: asyncio.AbstractEventLoop | None, timeout: float = 30.0) -> None:
        """Close factory-made verifiers from outside their loop (e.g. TRL's daemon loop after
        training). Verifiers of loops that are no longer running are dropped."""
        with self._lock:
            loops = list(self._made)
        for lp in loops:
            if lp is loop and lp.is_running():
                try:
                    asyncio.run_coroutine_threadsafe(self.aclose(), lp).result(timeout)
                except Exception:  # noqa: BLE001 - closing is best effort
                    log.debug("lean_reward: closing the verifier failed", exc_info=True)
            else:
                with self._lock:
                    self._made.pop(lp, None)


def _column(kwargs: dict[str, Any], name: str, n: int, *, required: bool) -> list[Any]:
    values = kwargs.get(name)
    if values is None:
        if required:
            raise KeyError(
                f"lean_reward needs the dataset column '{name}' (TRL passes dataset columns to rewards)"
            )
        return [None] * n
    if isinstance(values, str):
        return [values] * n
    values = list(values)
    if len(values) != n:
        raise ValueError(f"column '{name}' has {len(values)} values for {n} completions")
    return values


def make_lean_reward(
    verifier: Verifier | VerifierFactory,
    *,
    header_column: str = "header",
    statement_column: str = "statement",
    timeout: float | None = None,
    audit_config: AuditConfig | None = None,
    max_concurrency: int | None = 64,
    max_failed_batches: int | None = 3,
) -> LeanReward:
    """The async batched Lean reward for GRPOTrainer (see the module docstring for the scoring
    table and the event-loop rules). `verifier` is a Verifier or a zero-argument factory of one
    (preferred: the verifier is then created on TRL's reward loop). `timeout` is seconds per
    check. After `max_failed_batches` consecutive batches in which every verification failed it
    raises VerifierError, so that a dead Lean server stops the run (None: never)."""
    return LeanReward(
        verifier,
        header_column=header_column,
        statement_column=statement_column,
        timeout=timeout,
        audit_config=audit_config,
        max_concurrency=max_concurrency,
        max_failed_batches=max_failed_batches,
    )


# --- structure consistency -----------------------------------------------------------------------


def respaced(code: str) -> str:
    """`code` rebuilt from its Lean tokens: comments dropped, exactly one space between tokens on
    a line, line breaks and indentation kept (tactic blocks are layout-sensitive). Steps then
    compare on tokens: `x*y` ≡ `x * y`."""
    out: list[str] = []
    prev_end: int | None = None
    for t in lean_syntax.tokens(code):
        if prev_end is not None:
            if "\n" in code[prev_end : t.start]:
                line_start = code.rfind("\n", 0, t.start) + 1
                out.append("\n" + " " * (t.start - line_start))
            else:
                out.append(" ")
        else:
            line_start = code.rfind("\n", 0, t.start) + 1
            out.append(" " * (t.start - line_start))
        out.append(t.text)
        prev_end = t.end
    return "".join(out)


def _passes_text_audit(proof: str, original: str | None) -> bool:
    """The checks that need no Lean: a theorem, no banned construct, and (with the original)
    the original's statement and context."""
    from lemmaforge.lean.audit import banned_constructs, static_audit

    if original is None:
        return lean_syntax.last_theorem(proof) is not None and not banned_constructs(proof)
    _, _, reasons = static_audit(candidate_text(proof, original), original)
    return not reasons


def _has_sorry(code: str) -> bool:
    """A real `sorry`/`admit` token (the lexer's; comments and strings do not count)."""
    from lemmaforge.lean.audit import sorry_tokens

    return bool(sorry_tokens(code))


def _body(code: str) -> tuple[str, ...]:
    from lemmaforge.training.canonical import expression_tokens

    return expression_tokens(lean_syntax.split_header(code)[1])


def structure_consistency_score(text: str, original: str | None = None) -> float:
    """Fraction of the sketch's `have` steps that the final proof keeps, steps compared on Lean
    tokens (`x*y` ≡ `x * y`). 0.0 without a sketch (no block with `sorry`, or no `have` in it),
    without a final proof block after it, and for a final proof that proves nothing: one with
    `sorry`/`admit`, one that fails the text audit (banned constructs; with `original`, a
    changed statement or context), or the sketch again (a copy earns no structure reward)."""
    sketch, proof = sketch_and_proof(text)
    if sketch is None or proof is None:
        return 0.0
    if not lean_syntax.have_steps(sketch):
        return 0.0
    if _has_sorry(proof) or _body(proof) == _body(sketch) or not _passes_text_audit(proof, original):
        return 0.0
    return float(lean_syntax.structure_consistency(respaced(sketch), respaced(proof)))


def structure_consistency_reward(
    prompts: Sequence[Any], completions: Sequence[Any], trainer_state: Any = None, **kwargs: Any
) -> list[float]:
    """Ungated structure-consistency reward (always active): one score per completion. With the
    dataset's `statement` (and `header`) columns, the final proof must also state the original."""
    statements = kwargs.get("statement")
    headers = kwargs.get("header")
    out = []
    for i, c in enumerate(completions):
        original = None
        if isinstance(statements, list | tuple) and i < len(statements) and statements[i]:
            header = headers[i] if isinstance(headers, list | tuple) and i < len(headers) else None
            original = original_text(header, statements[i])
        out.append(structure_consistency_score(completion_text(c), original))
    return out


class StructureConsistencyReward:
    """`structure_consistency_reward` active while `trainer_state.global_step < active_steps`
    (always when `active_steps` is None or no trainer state is passed); None afterwards.
    `weight` is the entry `run_grpo` puts in `GRPOConfig.reward_weights` for it: the function
    itself returns the unweighted fraction, so its logged mean stays readable."""

    def __init__(self, active_steps: int | None = 200, weight: float = 0.2, name: str = "structure_consistency_reward"):
        if active_steps is not None and active_steps < 0:
            raise ValueError("active_steps must be >= 0")
        self.active_steps = active_steps
        self.weight = float(weight)
        self.__name__ = name

    def active(self, trainer_state: Any = None) -> bool:
        if self.active_steps is None or trainer_state is None:
            return True
        return int(getattr(trainer_state, "global_step", 0)) < self.active_steps

    def __call__(
        self, prompts: Sequence[Any], completions: Sequence[Any], trainer_state: Any = None, **kwargs: Any
    ) -> list[float | None]:
        if not self.active(trainer_state):
            return [None] * len(completions)
        return list(structure_consistency_reward(prompts, completions))


def make_structure_consistency_reward(
    active_steps: int | None = 200, weight: float = 0.2
) -> StructureConsistencyReward:
    """The consistency reward for the first `active_steps` optimizer steps (DeepSeek-Prover-V2
    gives no K; 200 is our default), None afterwards. See the module docstring."""
    return StructureConsistencyReward(active_steps=active_steps, weight=weight)


# --- problem filtering by pass rate --------------------------------------------------------------

@runtime_checkable
class Sampler(Protocol):
    """What estimate_pass_rates asks of a model (an `agent.llm.LLM` is one): its `Completion`s'
    `.text` is scored."""

    async def generate(self, messages_or_prompt: Any, *, n: int = 1) -> Sequence[Completion]: ...


# `generate(prompt, n)` returning n texts / chat completions (sync or async), or a model.
GenerateFn = Callable[[Any, int], Sequence[Any] | Awaitable[Sequence[Any]]] | Sampler


def filter_by_pass_rate(
    rows: Sequence[dict[str, Any]],
    pass_rates: Sequence[float | None],
    low: float = 0.0,
    high: float = 1.0,
) -> list[dict[str, Any]]:
    """Rows whose pass rate is strictly between `low` and `high` (default: solved sometimes but
    not always, the only problems GRPO learns from). Rows with an unknown rate (None, NaN) go."""
    if len(rows) != len(pass_rates):
        raise ValueError(f"{len(rows)} rows but {len(pass_rates)} pass rates")
    return [
        row
        for row, rate in zip(rows, pass_rates, strict=True)
        if rate is not None and not math.isnan(rate) and low < rate < high
    ]


async def estimate_pass_rates_async(
    generate: GenerateFn,
    verifier: Verifier,
    rows: Sequence[dict[str, Any]],
    n: int,
    *,
    prompt_column: str = "prompt",
    header_column: str = "header",
    statement_column: str = "statement",
    timeout: float | None = None,
    audit_config: AuditConfig | None = None,
    max_concurrency: int | None = 64,
) -> list[float | None]:
    """For each row: sample `n` completions of `row[prompt_column]` with `generate` (a callable
    `generate(prompt, n)`, sync or async, returning texts or chat completions; or an
    `agent.llm.LLM`) and verify them like `lean_reward`. The pass rate is
    proved / scored, where samples whose verification failed (None) are not counted; None when
    none could be scored."""
    if n < 1:
        raise ValueError("n must be at least 1")
    reward = LeanReward(
        verifier,
        header_column=header_column,
        statement_column=statement_column,
        timeout=timeout,
        audit_config=audit_config,
        max_concurrency=max_concurrency,
        max_failed_batches=None,
    )

    async def sample(prompt: Any) -> list[Any]:
        out = generate.generate(prompt, n=n) if isinstance(generate, Sampler) else generate(prompt, n)
        if inspect.isawaitable(out):
            out = await out
        return list(out)

    async def one(row: dict[str, Any]) -> float | None:
        samples = await sample(row[prompt_column])
        original = original_text(row.get(header_column), row[statement_column])
        scored = await reward.score(samples, [original] * len(samples))
        values = [s.reward for s in scored if s.reward is not None]
        return sum(values) / len(values) if values else None

    return list(await asyncio.gather(*(one(dict(r)) for r in rows)))


def estimate_pass_rates(
    generate: GenerateFn, verifier: Verifier, rows: Sequence[dict[str, Any]], n: int, **kwargs: Any
) -> list[float | None]:
    """Synchronous `estimate_pass_rates_async` (runs its own event loop)."""
    return asyncio.run(estimate_pass_rates_async(generate, verifier, rows, n, **kwargs))

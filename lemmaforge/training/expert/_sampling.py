"""Sampling for expert iteration: ask the served checkpoint for proofs of each statement, audit
every candidate (whole file, no `sorry`, whitelisted axioms, statement unchanged) and record the
round's tree — goal node, attempts, verified proofs — on the loop's recorder (the search's
`Recorder`: `SqlRecorder` on the store, the one writer of tree records). Evaluation samples the
same way but records nothing but the LLM calls."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from lemmaforge.agent.llm import LLM, LLMRequestError, backend_of, make_llm
from lemmaforge.agent.prompts import with_header
from lemmaforge.agent.prover import Prover
from lemmaforge.config import AuditConfig, LLMEndpoint
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.audit import audit
from lemmaforge.lean.verifier import Verifier
from lemmaforge.records import (
    AttemptRecord,
    NodeCreated,
    NodeStatusChanged,
    ProblemRecord,
    ProofRecord,
    Recorder,
    Verdict,
    new_id,
)
from lemmaforge.search.cache import normalize_statement
from lemmaforge.search.interfaces import ProverLike
from lemmaforge.training.devices import default_device
from lemmaforge.training.holdout import proof_key


class SamplingConfig(Protocol):
    """The fields of the loop's recipe (`ExpertIterConfig`) that sampling reads."""

    prover_url: str
    prover_model: str | None
    samples: int
    eval_samples: int
    temperature: float
    top_p: float
    max_tokens: int
    concurrency: int


@dataclass(frozen=True)
class Problem:
    record: ProblemRecord
    header: str  # the problem's header + anything before the theorem (the engine's "header")
    theorem: str  # the theorem alone

    @property
    def original(self) -> str:
        return self.record.header + self.record.statement

    @property
    def node_key(self) -> str:
        return hashlib.sha1(self.record.problem_id.encode("utf-8")).hexdigest()[:16]


def problem_of(record: ProblemRecord) -> Problem:
    decl = lean_syntax.last_theorem(record.statement)
    split = decl.start if decl is not None else 0
    return Problem(record, record.header + record.statement[:split], record.statement[split:])


class RoundSampler:
    """Samples and audits for one loop. `llm_factory(model_path, role)`, when given, replaces
    `prover_url`: it returns the LLM serving the checkpoint at `model_path`."""

    def __init__(
        self,
        cfg: SamplingConfig,
        store: Any,
        recorder: Recorder,
        verifier_factory: Callable[[], Verifier],
        *,
        audit_config: AuditConfig | None = None,
        check_timeout: float | None = None,
        llm_factory: Callable[[str, str], LLM] | None = None,
    ) -> None:
        self.cfg = cfg
        self.store = store
        self.recorder = recorder
        self.verifier_factory = verifier_factory
        self.audit_config = audit_config
        self.check_timeout = check_timeout
        self.llm_factory = llm_factory

    def endpoint(self, model: str) -> LLMEndpoint:
        url = self.cfg.prover_url.replace("{model}", model)
        name = self.cfg.prover_model.replace("{model}", model) if self.cfg.prover_model else None
        return LLMEndpoint(
            url=url, model=name, temperature=self.cfg.temperature, top_p=self.cfg.top_p,
            max_tokens=self.cfg.max_tokens, concurrency=max(self.cfg.concurrency, 1),
        )

    def llm(self, model: str, role: str, run_id: str) -> Any:
        if self.llm_factory is not None:
            return self.llm_factory(model, role).bind(self.recorder, run_id, role=role)
        endpoint = self.endpoint(model)
        extra: dict[str, Any] = {}
        if backend_of(endpoint.url) == "transformers":
            extra["device"] = default_device()
        return make_llm(endpoint, role, recorder=self.recorder, run_id=run_id, **extra)

    async def sample(self, run_id: str, r: int, model: str, todo: list[Problem]) -> dict[str, Any]:
        nodes = {n.node_id: n for n in self.store.nodes(run_id)}
        pending = [p for p in todo if nodes.get(self.node_id(r, p)) is None
                   or nodes[self.node_id(r, p)].status not in ("solved", "failed")]
        stats = {"attempted": len(todo), "resumed_done": len(todo) - len(pending), "new_proofs": 0,
                 "solved": 0, "candidates": 0}
        if not pending:
            return stats
        llm = self.llm(model, "prover", run_id)
        verifier = self.verifier_factory()
        try:
            prover = Prover(llm, cot=False)
            slots = asyncio.Semaphore(max(self.cfg.concurrency, 1))

            async def one(p: Problem) -> None:
                async with slots:
                    out = await self.attempt(prover, verifier, p, self.cfg.samples, run_id=run_id,
                                              node_id=self.node_id(r, p))
                stats["candidates"] += out["candidates"]
                stats["new_proofs"] += out["proofs"]
                stats["solved"] += int(out["proofs"] > 0)

            await asyncio.gather(*(one(p) for p in pending))
        finally:
            await llm.close()
            await verifier.close()
        return stats

    async def evaluate(self, run_id: str, model: str, problems: list[Problem]) -> dict[str, Any]:
        llm = self.llm(model, "eval", run_id)
        verifier = self.verifier_factory()
        solved = 0
        try:
            prover = Prover(llm, cot=False)
            slots = asyncio.Semaphore(max(self.cfg.concurrency, 1))

            async def one(p: Problem) -> bool:
                async with slots:
                    out = await self.attempt(prover, verifier, p, self.cfg.eval_samples, run_id=None, node_id=None)
                return out["proofs"] > 0

            solved = sum(await asyncio.gather(*(one(p) for p in problems)))
        finally:
            await llm.close()
            await verifier.close()
        return {"model": model, "solved": solved, "total": len(problems),
                "pass_rate": round(solved / len(problems), 4) if problems else 0.0}

    @staticmethod
    def node_id(r: int, p: Problem) -> str:
        return f"r{r}-{p.node_key}"

    async def attempt(
        self, prover: ProverLike, verifier: Verifier, p: Problem, n: int, *, run_id: str | None, node_id: str | None
    ) -> dict[str, int]:
        """Sample `n` proofs of `p` and audit them. With `run_id` (sampling) the goal node, the
        attempts and the verified proofs are recorded; without (evaluation) nothing but the LLM
        call is."""
        record = run_id is not None and node_id is not None
        rid, nid = run_id or "", node_id or ""  # used only when `record`
        if record:
            self.recorder.emit(NodeCreated(rid, nid, "goal", 0, p.theorem))
        try:
            # The prompt the exported training rows are built with (export.sft_row): the informal
            # statement as the theorem's docstring, where the problem has one.
            candidates = await prover.prove(p.header, p.theorem, n, informal=p.record.informal)
        except LLMRequestError as exc:
            if record:
                self.recorder.emit(AttemptRecord(rid, new_id(), nid, "prover", "skipped", "", errors=[str(exc)]))
                self.recorder.emit(NodeStatusChanged(rid, nid, "failed", reason="the server refused the request"))
            return {"candidates": 0, "proofs": 0}

        async def check(c: Any) -> tuple[Any, str, Any]:
            file = with_header(p.header, c.code)
            report = await audit(file, verifier, original=p.original, config=self.audit_config,
                                 timeout=self.check_timeout)
            return c, file, report

        checked = await asyncio.gather(*(check(c) for c in candidates))
        seen: set[str] = set()
        proofs = 0
        first_body: str | None = None
        for cand, file, report in checked:
            ok = report.ok
            if record:
                # incomplete / error / rejected / timeout
                verdict = "valid" if ok else cast(Verdict, report.status.value)
                self.recorder.emit(AttemptRecord(rid, new_id(), nid, "prover", verdict, file, output=cand.raw,
                                         prompt=cand.prompt, llm_call_id=cand.call_id,
                                         errors=[str(x) for x in report.reasons][:8],
                                         check_seconds=report.check.time if report.check else 0.0))
            if not ok:
                continue
            key = proof_key(file)
            if key in seen:
                continue
            seen.add(key)
            proofs += 1
            first_body = first_body or cand.body
            if record:
                self.recorder.emit(ProofRecord(rid, new_id(), "whole", p.header, p.record.statement,
                                       normalize_statement(p.record.statement), file,
                                       problem_id=p.record.problem_id, node_id=nid, strategy="prover",
                                       depth=0, audit=report.to_json()))
        if record:
            if proofs:
                self.recorder.emit(NodeStatusChanged(rid, nid, "solved", "prover", first_body))
            else:
                self.recorder.emit(NodeStatusChanged(rid, nid, "failed", reason=f"no verified proof in {n} samples"))
        return {"candidates": len(candidates), "proofs": proofs}



__all__ = ["Problem", "RoundSampler", "SamplingConfig", "problem_of"]

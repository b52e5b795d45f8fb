"""Expert iteration: sample proofs of the still-unsolved statements, keep what Lean verifies,
retrain, evaluate, serve the new model, repeat (DeepSeek-Prover-V2 §2.3, STP, Goedel-Prover).

One round r (1-based), with M_0 the initial prover (`initial_model`, default the base model):

1. **sample**: serve M_{r-1}; for every statement not yet proved by an earlier round, ask the
   prover (DeepSeek-Prover-V2's non-CoT prompt, the LLM layer, `samples` completions in one call)
   and audit every candidate (whole-file check, no `sorry`, whitelisted axioms, statement
   unchanged). Each statement is a goal node of the round's run; each candidate an attempt (model
   output and LLM call id kept); each verified proof a `ProofRecord` (kind "whole").
2. **data**: the union of every round's verified proofs so far (plus `seed_data`), as non-CoT
   prompt–completion rows (`training.export`: deduplicated on (statement, proof), at most
   `max_per_statement` proofs per statement, held-out problems excluded — the `holdout` specs and
   the eval set; seed rows are checked when they carry `name` / `statement` columns, as
   `gen-data` rows do), written to `OUT/rounds/r/data.jsonl`.
3. **train**: SFT from the BASE model on that union (STP retrains from the base each round rather
   than continuing from M_{r-1}), `run_sft` → `OUT/rounds/r/model` (a full checkpoint: with LoRA
   the adapter is merged, so any server can load it).
4. **evaluate**: serve M_r; pass@`eval_samples` on the eval set (`eval`, else the statements
   themselves); eval samples are NOT proofs of the loop (no `ProofRecord`): an eval set never
   becomes training data.
5. **record**: the round's run ends with `RunFinished.summary` = data path, model path and metrics.

Store layout (no schema change): a parent run `RunStarted(kind="expert_iter")` whose config holds
the whole recipe (`ExpertIterConfig`), and one child run per round (`kind="expert_iter_round"`,
`config={"round": r, "sampled_from": M_{r-1}}`). A round is done when its run has finished with
status "proved" (it proved something new) or "not_proved"; a stopped loop (killed, Ctrl-C, a
server that died) is resumed with `ExpertIteration.resume(store, run_id, …)` /
`lemmaforge train expert-iter --resume ID`: finished rounds are skipped (their models are reused
from their summaries), and the round in progress continues: statements whose goal node already
has a verdict are not sampled again, and a model already trained on the same data (a marker file
holding the data's hash) is not trained again.

Handing the new checkpoint to the prover (`prover_url`, `serve_cmd`): the loop must serve each
M_r; it never assumes that a server reloads weights by itself. Either
* `prover_url` contains `{model}`: it is formatted with the checkpoint path every time a model is
  needed — `hf://{model}` (transformers in this process: small models, CPU tests) or
  `vllm://{model}` (vLLM offline in this process; note that vLLM does not give the GPU memory of
  an engine back until the process ends, so on ONE GPU prefer the next way); or
* `serve_cmd` is a shell command template (`{model}`, `{port}`, `{host}` from `prover_url`), e.g.
  `vllm serve {model} --port {port} --max-model-len 8192`: the loop starts it before sampling /
  evaluating a model, waits until `GET {prover_url}/models` answers, and stops it (SIGTERM to its
  process group) before training, so that sampling and SFT can share one GPU. `prover_model`
  names the served model (`model_choice.MODEL_RULE` when it does not).
One of the two is required.

This module is the loop's bookkeeping (rounds, resume, data union, the record of each round). The
recipe is `_config.py`; serving a checkpoint, `_serving.py`; sampling, auditing and recording
the round's tree on the loop's `SqlRecorder` (the one writer), `_sampling.py`; SFT,
`_sft.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from lemmaforge.agent.llm import LLM
from lemmaforge.config import AuditConfig
from lemmaforge.db import SqlRecorder
from lemmaforge.lean.verifier import Verifier
from lemmaforge.records import RunFinished, RunStarted, new_id
from lemmaforge.training.devices import free_memory
from lemmaforge.training.expert._config import CONNECTION_FIELDS, ExpertIterConfig, ExpertIterError
from lemmaforge.training.expert._sampling import Problem, RoundSampler, problem_of
from lemmaforge.training.expert._serving import ModelServer
from lemmaforge.training.expert._sft import train_round
from lemmaforge.training.export import collect, read_jsonl, write_jsonl
from lemmaforge.training.holdout import Deduper, ExportError, Holdout, load_problems
from lemmaforge.training.runs import file_sha256
from lemmaforge.training.sft import TrainingDataError, validate_sft_rows
from lemmaforge.training.tiny import build_tiny, save_tiny

log = logging.getLogger(__name__)

PARENT_KIND = "expert_iter"
ROUND_KIND = "expert_iter_round"
DONE = frozenset({"proved", "not_proved"})

EventHook = Callable[[str, int, dict[str, Any]], None]





def _one_line(exc: BaseException) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text[:400]


class ExpertIteration:
    """One expert-iteration loop on a `Store` (see the module docstring).

    `verifier_factory()` makes a Verifier (one per sampling / evaluation phase, closed after it).
    `llm_factory(model_path, role)`, when given, replaces `prover_url` / `serve_cmd`: it returns the
    LLM (`agent.llm.LLM`) that serves the checkpoint at `model_path` (embedding the loop in a
    program that serves models its own way; the tests' fake server).
    `on_event(event, round, info)` is called at "round_start", "sampled", "trained", "evaluated"
    and "round_end"; an exception raised there stops the loop like a crash would (the round is
    marked failed / cancelled and can be resumed)."""

    def __init__(
        self,
        config: ExpertIterConfig,
        store: Any,
        verifier_factory: Callable[[], Verifier],
        *,
        audit_config: AuditConfig | None = None,
        check_timeout: float | None = None,
        run_id: str | None = None,
        on_event: EventHook | None = None,
        versions: dict[str, str | None] | None = None,
        llm_factory: Callable[[str, str], LLM] | None = None,
    ) -> None:
        config.validate()
        if llm_factory is None:
            config.validate_handover()
        self.llm_factory = llm_factory
        self.cfg = config
        self.store = store
        self.verifier_factory = verifier_factory
        self.audit_config = audit_config
        self.check_timeout = check_timeout
        self.run_id = run_id or new_id()
        self.on_event = on_event
        self.versions = versions or {}
        self.out = Path(config.out_dir)
        self.server = ModelServer(config, self.out / "logs")
        self.recorder: Any = None
        self._phase = "start"
        # bad statements / eval / hold-out specs / seed data fail here, before anything is recorded
        self._problems = self._load()
        self._seed_rows = self._read_seed()

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def resume(
        cls, store: Any, run_id: str, verifier_factory: Callable[[], Verifier], *,
        overrides: dict[str, Any] | None = None, **kwargs: Any,
    ) -> ExpertIteration:
        """The loop of parent run `run_id`, with its stored recipe; `overrides` may change only
        `CONNECTION_FIELDS` (where the prover is served, how many rounds in all)."""
        from lemmaforge.db import RunIdError

        try:  # the id or any unique prefix of 4+ characters, as every command takes
            info = store.resolve_run(run_id)
        except RunIdError as exc:
            raise ExpertIterError(f"no expert-iteration run {run_id!r}: {exc}") from None
        run_id = info.run_id
        if info.kind != PARENT_KIND:
            raise ExpertIterError(f"no expert-iteration run {run_id!r} in the store")
        data = dict((info.config or {}).get("expert_iter") or {})
        if not data:
            raise ExpertIterError(f"run {run_id!r} has no expert-iteration config")
        # connection fields (and `rounds`) as the last session left them
        latest = (info.summary or {}).get("expert_iter") or {}
        data.update({k: v for k, v in latest.items() if k in CONNECTION_FIELDS})
        for key, value in (overrides or {}).items():
            if value is None:
                continue
            if key not in CONNECTION_FIELDS and data.get(key) != value:
                raise ExpertIterError(
                    f"--{key.replace('_', '-')} {value!r} differs from run {run_id}'s {data.get(key)!r}: "
                    "a resumed loop keeps its recipe"
                )
            data[key] = value
        return cls(ExpertIterConfig.from_json(data), store, verifier_factory, run_id=run_id, **kwargs)

    # -- helpers ---------------------------------------------------------------------------------

    def _event(self, name: str, round_: int, **info: Any) -> None:
        if self.on_event is not None:
            self.on_event(name, round_, info)

    def _emit(self, record: Any) -> None:
        self.recorder.emit(record)

    def _flush(self) -> None:
        self.recorder.flush()

    def _rounds(self) -> dict[int, Any]:
        """Round number → its run (the latest one per round)."""
        out: dict[int, Any] = {}
        for run in self.store.runs(parent=self.run_id):
            if run.kind == ROUND_KIND and isinstance(run.config.get("round"), int):
                out[run.config["round"]] = run
        return out

    def _data_hashes(self) -> dict[str, str]:
        """sha256 of the input files (statements, eval set, seed data) that are files: which data
        the loop ran on, whatever the paths hold later."""
        out = {}
        for key in ("statements", "eval", "seed_data"):
            value = getattr(self.cfg, key, None)
            if value and Path(value).is_file():
                out[key] = file_sha256(value)
        return out

    def _holdout(self, eval_problems: list[Any] | None) -> Holdout:
        parts = [Holdout.load(self.cfg.holdout)] if self.cfg.holdout else []
        if eval_problems is not None:
            parts.append(Holdout.of(eval_problems, source=f"eval {self.cfg.eval}"))
        names: set[str] = set()
        stmts: set[str] = set()
        sources: list[str] = []
        count = 0
        for h in parts:
            names |= h.names
            stmts |= h.statements
            sources += h.sources
            count += h.problems
        return Holdout(frozenset(names), frozenset(stmts), tuple(sources), count)

    def _load(self) -> tuple[list[Problem], list[Problem], Holdout, int]:
        try:
            statements = load_problems(self.cfg.statements)
            eval_problems = load_problems(self.cfg.eval) if self.cfg.eval else None
            holdout = self._holdout(eval_problems)
        except ExportError as exc:
            raise ExpertIterError(str(exc)) from None
        kept = [p for p in statements if holdout.reason([p.name], [p.statement]) is None]
        if not kept:
            raise ExpertIterError(f"{self.cfg.statements}: no statement left after the hold-out")
        train = [problem_of(p.to_record()) for p in kept]
        evals = [problem_of(p.to_record()) for p in eval_problems] if eval_problems is not None else train
        return train, evals, holdout, len(statements) - len(kept)

    def _read_seed(self) -> list[dict[str, Any]]:
        if not self.cfg.seed_data:
            return []
        path = Path(self.cfg.seed_data)
        try:
            rows = list(read_jsonl(path))
            validate_sft_rows(rows)
        except (OSError, ValueError) as exc:  # TrainingDataError and JSON errors are ValueErrors
            what = str(exc) if isinstance(exc, TrainingDataError) else _one_line(exc)
            raise ExpertIterError(f"seed data {path}: {what}") from None
        return rows

    def _base_dir(self, train: list[Problem]) -> str:
        if not self.cfg.tiny:
            assert self.cfg.base_model is not None
            return self.cfg.base_model
        base = self.out / "base"
        if not (base / "config.json").is_file():
            texts = [p.original for p in train]
            model, tok = build_tiny(texts, vocab_size=400, seed=self.cfg.seed)
            save_tiny(model, tok, base)
        return str(base)

    # -- the loop ----------------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        """Run (or continue) the loop to `rounds`; returns the summary also stored on the parent run."""
        train, evals, holdout, held_out = self._problems
        self.out.mkdir(parents=True, exist_ok=True)
        self.recorder = SqlRecorder(self.store)
        self.sampler = RoundSampler(
            self.cfg, self.store, self.recorder, self.verifier_factory,
            audit_config=self.audit_config, check_timeout=self.check_timeout, llm_factory=self.llm_factory,
        )
        round_run: str | None = None
        round_ = 0
        self._phase = "start"
        try:
            if self.store.get_run(self.run_id) is None:
                self._emit(RunStarted(self.run_id, PARENT_KIND, {"expert_iter": self.cfg.to_json(),
                                                                 "data_sha256": self._data_hashes()}, self.versions))
            for p in {p.record.problem_id: p for p in [*train, *evals]}.values():
                self._emit(p.record)
            self._flush()
            base = self._base_dir(train)
            model = self.cfg.initial_model or base
            summaries: list[dict[str, Any]] = []
            rounds = self._rounds()
            for round_ in range(1, self.cfg.rounds + 1):
                existing = rounds.get(round_)
                if existing is not None and existing.status in DONE:
                    summary = dict(existing.summary or {})
                    summaries.append(summary)
                    model = summary.get("model_path") or model
                    log.info("round %d already done (run %s)", round_, existing.run_id)
                    continue
                self._phase = "start"
                if existing is not None:
                    round_run = existing.run_id
                else:
                    round_run = new_id()
                    self._emit(RunStarted(round_run, ROUND_KIND, {"round": round_, "sampled_from": model},
                                          self.versions, parent_run_id=self.run_id))
                    self._flush()
                self._event("round_start", round_, run_id=round_run, model=model)
                summary = self._round(round_, round_run, model, base, train, evals, holdout, held_out)
                summaries.append(summary)
                model = summary["model_path"]
                round_run = None
            final = {
                "rounds": summaries,
                "final_model": model,
                "out_dir": str(self.out),
                "statements": len(train),
                "solved": summaries[-1]["metrics"]["solved_total"] if summaries else 0,
                "expert_iter": self.cfg.to_json(),
            }
            self._emit(RunFinished(self.run_id, "proved" if final["solved"] else "not_proved", final))
            self._flush()
            return {"run_id": self.run_id, **final}
        except BaseException as exc:
            status: Literal["cancelled", "failed"] = (
                "cancelled" if isinstance(exc, KeyboardInterrupt | asyncio.CancelledError) else "failed"
            )
            info = {"round": round_, "phase": self._phase, "error": _one_line(exc)}
            if round_run is not None:
                self._emit(RunFinished(round_run, status, info))
            self._emit(RunFinished(self.run_id, status, {**info, "expert_iter": self.cfg.to_json()}))
            with contextlib.suppress(Exception):
                self._flush()
            raise
        finally:
            self.server.stop()
            with contextlib.suppress(Exception):
                self.recorder.close()

    def _round(
        self, r: int, run_id: str, model: str, base: str, train: list[Problem], evals: list[Problem],
        holdout: Holdout, held_out: int,
    ) -> dict[str, Any]:
        rdir = self.out / "rounds" / str(r)
        rdir.mkdir(parents=True, exist_ok=True)
        timings: dict[str, float] = {}

        # 1. sample from M_{r-1}
        self._phase = "sample"
        t = time.monotonic()
        done = self._rounds()
        earlier = [done[k].run_id for k in range(1, r) if k in done]
        solved_before = self._solved(earlier)
        todo = [p for p in train if p.record.problem_id not in solved_before]
        self.server.ensure(model)
        sampled = asyncio.run(self.sampler.sample(run_id, r, model, todo))
        free_memory()  # an in-process prover (hf://, vllm://) is gone with its event loop
        self._flush()
        timings["sample"] = round(time.monotonic() - t, 3)
        self._event("sampled", r, **sampled)

        # 2. data: the union of every round so far
        self._phase = "data"
        self.server.stop()  # free the GPU for training
        rows, data_counts = self._data(earlier + [run_id], holdout)
        data_path = rdir / "data.jsonl"
        write_jsonl(data_path, rows)

        # 3. SFT from the base model
        self._phase = "train"
        t = time.monotonic()
        model_dir = rdir / "model"
        if rows:
            sft = train_round(self.cfg, base, data_path, rows, model_dir)
            new_model = str(model_dir)
        else:
            sft = {"trained": False, "reason": "no verified proof yet"}
            new_model = model
        timings["train"] = round(time.monotonic() - t, 3)
        self._event("trained", r, model=new_model, **{k: v for k, v in sft.items() if k != "log_history"})

        # 4. evaluate M_r
        self._phase = "eval"
        t = time.monotonic()
        evaluation: dict[str, Any] = {"set": self.cfg.eval or "statements", "samples": self.cfg.eval_samples}
        if self.cfg.eval_samples > 0:
            self.server.ensure(new_model)
            evaluation.update(asyncio.run(self.sampler.evaluate(run_id, new_model, evals)))
            free_memory()
        timings["eval"] = round(time.monotonic() - t, 3)
        self._event("evaluated", r, **evaluation)

        # 5. record
        self._phase = "record"
        solved_now = self._solved(earlier + [run_id])
        metrics = {
            "statements": len(train),
            "held_out_statements": held_out,
            "attempted": sampled["attempted"],
            "samples": self.cfg.samples,
            "new_proofs": len(self.store.proofs(run_id=run_id, kind="whole")),
            "newly_solved": len(solved_now) - len(solved_before),
            "solved_total": len(solved_now),
            "unsolved": len(train) - len(solved_now),
            "solved_fraction": round(len(solved_now) / len(train), 4),
            "data_rows": len(rows),
            "data": data_counts,
            "sft": {k: v for k, v in sft.items() if k not in ("log_history", "losses")},
            "eval": evaluation,
            "seconds": timings,
        }
        summary = {
            "round": r,
            "sampled_from": model,
            "data_path": str(data_path),
            "data_sha256": file_sha256(data_path) if Path(data_path).is_file() else None,
            "model_path": new_model,
            "trained": bool(rows),
            "metrics": metrics,
        }
        (rdir / "metrics.json").write_text(json.dumps({**summary, "sft_full": sft}, indent=2, default=str) + "\n",
                                           encoding="utf-8")
        self._emit(RunFinished(run_id, "proved" if metrics["newly_solved"] else "not_proved", summary))
        self._flush()
        self._event("round_end", r, **summary)
        return summary

    # -- store reads -------------------------------------------------------------------------------

    def _solved(self, run_ids: Sequence[str]) -> set[str]:
        out: set[str] = set()
        for rid in run_ids:
            out |= {p.problem_id for p in self.store.proofs(run_id=rid, kind="whole") if p.problem_id}
        return out

    def _data(self, run_ids: list[str], holdout: Holdout) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        dedup = Deduper(self.cfg.max_per_statement)
        rows: list[dict[str, Any]] = []
        seed = 0
        if self._seed_rows:
            for row in self._seed_rows:
                if holdout.reason([row.get("name")], [row.get("statement")]) is not None:
                    continue
                if {"kind", "header", "statement"} <= set(row) and not dedup.add(row):
                    continue
                rows.append(row)
                seed += 1
        result = collect(self.store, runs=run_ids, kinds=["sft"], holdout=holdout)
        for row in result.rows["sft"]:
            if dedup.add(row):
                rows.append(row)
        counts = {
            "seed_rows": seed,
            "proof_rows": len(rows) - seed,
            "duplicates": sum(dedup.duplicates.values()) + result.counts["duplicates"]["sft"],
            "capped": sum(dedup.capped.values()),
            "excluded": result.counts["excluded"]["total"],
        }
        return rows, counts

    # -- sampling and evaluation -------------------------------------------------------------------



__all__ = [
    "PARENT_KIND",
    "ROUND_KIND",
    "ExpertIteration",
]

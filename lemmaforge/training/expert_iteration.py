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
  names the served model (default: the first the server lists).
One of the two is required.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import os
import shlex
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from lemmaforge.config import AuditConfig, LLMEndpoint
from lemmaforge.errors import BackendUnavailable, InputError
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.verifier import Verifier
from lemmaforge.records import (
    AttemptRecord,
    NodeCreated,
    NodeStatusChanged,
    ProblemRecord,
    ProofRecord,
    RunFinished,
    RunStarted,
    new_id,
)
from lemmaforge.search.cache import normalize_statement
from lemmaforge.training.export import collect, write_jsonl
from lemmaforge.training.holdout import Deduper, ExportError, Holdout, load_problems, proof_key
from lemmaforge.training.runs import file_sha256

log = logging.getLogger(__name__)

PARENT_KIND = "expert_iter"
ROUND_KIND = "expert_iter_round"
DONE = frozenset({"proved", "not_proved"})
MARKER = "lemmaforge_round.json"

EventHook = Callable[[str, int, dict[str, Any]], None]


class ExpertIterError(InputError, ValueError):
    """The loop cannot start or resume as asked (bad config, unknown run). One line."""


@dataclass
class ExpertIterConfig:
    """The recipe of one loop. Stored in the parent run's config; a resumed loop keeps it (only
    the connection fields `CONNECTION_FIELDS` and `rounds` may change)."""

    statements: str
    out_dir: str
    base_model: str | None = None  # model directory (or cached hub id); None with `tiny`
    tiny: bool = False  # a tiny random base model built in OUT/base (CPU smoke runs, tests)
    initial_model: str | None = None  # M_0, the prover of round 1 (default: the base model)
    prover_url: str = "hf://{model}"
    prover_model: str | None = None
    serve_cmd: str | None = None
    serve_timeout: float = 900.0
    rounds: int = 3
    samples: int = 8
    eval: str | None = None  # DATASET[:SPLIT] or file; None: the statements themselves
    eval_samples: int = 1
    temperature: float = 1.0
    top_p: float = 0.95
    max_tokens: int = 2048
    concurrency: int = 8  # statements sampled / verified at once
    max_per_statement: int | None = 16
    seed_data: str | None = None  # extra SFT rows (e.g. `gen-data`'s train.jsonl) in every round
    holdout: list[str] = field(default_factory=list)
    # SFT
    epochs: float = 1.0
    max_steps: int = -1
    lr: float = 5e-5
    batch_size: int = 1
    grad_accum: int = 1
    max_length: int = 4096
    lora: bool = False
    lora_r: int = 16
    gradient_checkpointing: bool = False
    use_cpu: bool = False
    seed: int = 0

    def validate(self) -> None:
        if self.rounds < 1 or self.samples < 1 or self.eval_samples < 0:
            raise ExpertIterError("rounds and samples must be >= 1, eval_samples >= 0")
        if self.tiny == (self.base_model is not None):
            raise ExpertIterError("give either a base model (--base-model PATH) or --tiny")
        if self.max_per_statement is not None and self.max_per_statement < 1:
            raise ExpertIterError("max_per_statement must be >= 1")
    def validate_handover(self) -> None:
        """The trained checkpoints must reach the prover: `{model}` in the URL or a serve command."""
        if "{model}" not in self.prover_url and not self.serve_cmd:
            raise ExpertIterError(
                "the trained checkpoints would never be served: put {model} in --prover-url "
                "(hf://{model}, vllm://{model}) or give --serve-cmd (e.g. 'vllm serve {model} --port {port}')"
            )
        if self.serve_cmd and not self.prover_url.startswith(("http://", "https://")):
            raise ExpertIterError("--serve-cmd needs --prover-url http://HOST:PORT/v1 (where the command serves)")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ExpertIterConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


CONNECTION_FIELDS = ("prover_url", "prover_model", "serve_cmd", "serve_timeout", "concurrency", "rounds")


# --------------------------------------------------------------------------------------------
# serving the current checkpoint
# --------------------------------------------------------------------------------------------


class ModelServer:
    """Runs `serve_cmd` for one checkpoint at a time (no-op without a command)."""

    def __init__(self, cfg: ExpertIterConfig, log_dir: Path) -> None:
        self.cfg = cfg
        self.log_dir = log_dir
        self.current: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._log_path: Path | None = None
        self._starts = 0

    def command(self, model_path: str) -> str:
        url = urlparse(self.cfg.prover_url)
        assert self.cfg.serve_cmd is not None
        return self.cfg.serve_cmd.format(
            model=shlex.quote(model_path), port=url.port or (443 if url.scheme == "https" else 80),
            host=url.hostname or "127.0.0.1",
        )

    def ensure(self, model_path: str) -> None:
        if not self.cfg.serve_cmd:
            return
        if self.current == model_path and self._proc is not None and self._proc.poll() is None:
            return
        self.stop()
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._starts += 1
        self._log_path = self.log_dir / f"serve-{self._starts}.log"
        cmd = self.command(model_path)
        log.info("serving %s: %s", model_path, cmd)
        with self._log_path.open("ab") as out:
            self._proc = subprocess.Popen(  # noqa: S602 - the user's own command template
                cmd, shell=True, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.current = model_path
        self._wait_ready()

    def _wait_ready(self) -> None:
        assert self._proc is not None
        url = self.cfg.prover_url.rstrip("/") + "/models"
        deadline = time.monotonic() + self.cfg.serve_timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                tail = self._tail()
                self.stop()
                raise ServeError(f"--serve-cmd exited with status {self._proc.returncode} before serving: {tail}")
            try:
                with urllib.request.urlopen(url, timeout=2) as resp:  # noqa: S310 - the user's URL
                    if resp.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise ServeError(f"--serve-cmd did not serve {url} within {self.cfg.serve_timeout:.0f}s: {self._tail()}")

    def _tail(self) -> str:
        if self._log_path is None or not self._log_path.is_file():
            return "(no output)"
        lines = self._log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        return " | ".join(lines[-3:])[-400:] or "(no output)"

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        self.current = None
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        except (ProcessLookupError, PermissionError):
            pass
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


class ServeError(BackendUnavailable):
    """The serve command did not come up. One line, with the tail of its log."""


# --------------------------------------------------------------------------------------------
# the loop
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Problem:
    record: ProblemRecord
    header: str  # the problem's header + anything before the theorem (the engine's "header")
    theorem: str  # the theorem alone

    @property
    def original(self) -> str:
        return self.record.header + self.record.statement

    @property
    def node_key(self) -> str:
        return hashlib.sha1(self.record.problem_id.encode("utf-8")).hexdigest()[:16]


def _problem(record: ProblemRecord) -> _Problem:
    decl = lean_syntax.last_theorem(record.statement)
    split = decl.start if decl is not None else 0
    return _Problem(record, record.header + record.statement[:split], record.statement[split:])


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
        llm_factory: Callable[[str, str], Any] | None = None,
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
        info = store.get_run(run_id)
        if info is None or info.kind != PARENT_KIND:
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

    def _load(self) -> tuple[list[_Problem], list[_Problem], Holdout, int]:
        try:
            statements = load_problems(self.cfg.statements)
            eval_problems = load_problems(self.cfg.eval) if self.cfg.eval else None
            holdout = self._holdout(eval_problems)
        except ExportError as exc:
            raise ExpertIterError(str(exc)) from None
        kept = [p for p in statements if holdout.reason([p.name], [p.statement]) is None]
        if not kept:
            raise ExpertIterError(f"{self.cfg.statements}: no statement left after the hold-out")
        train = [_problem(p.to_record()) for p in kept]
        evals = [_problem(p.to_record()) for p in eval_problems] if eval_problems is not None else train
        return train, evals, holdout, len(statements) - len(kept)

    def _read_seed(self) -> list[dict[str, Any]]:
        if not self.cfg.seed_data:
            return []
        from lemmaforge.training.export import read_jsonl
        from lemmaforge.training.sft import TrainingDataError, validate_sft_rows

        path = Path(self.cfg.seed_data)
        try:
            rows = list(read_jsonl(path))
            validate_sft_rows(rows)
        except (OSError, ValueError) as exc:  # TrainingDataError and JSON errors are ValueErrors
            what = str(exc) if isinstance(exc, TrainingDataError) else _one_line(exc)
            raise ExpertIterError(f"seed data {path}: {what}") from None
        return rows

    def _base_dir(self, train: list[_Problem]) -> str:
        if not self.cfg.tiny:
            assert self.cfg.base_model is not None
            return self.cfg.base_model
        base = self.out / "base"
        if not (base / "config.json").is_file():
            from lemmaforge.training.tiny import build_tiny, save_tiny

            texts = [p.original for p in train]
            model, tok = build_tiny(texts, vocab_size=400, seed=self.cfg.seed)
            save_tiny(model, tok, base)
        return str(base)

    # -- the loop ----------------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        """Run (or continue) the loop to `rounds`; returns the summary also stored on the parent run."""
        from lemmaforge.db import SqlRecorder

        train, evals, holdout, held_out = self._problems
        self.out.mkdir(parents=True, exist_ok=True)
        self.recorder = SqlRecorder(self.store)
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
            status = "cancelled" if isinstance(exc, KeyboardInterrupt | asyncio.CancelledError) else "failed"
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
        self, r: int, run_id: str, model: str, base: str, train: list[_Problem], evals: list[_Problem],
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
        sampled = asyncio.run(self._sample(run_id, r, model, todo))
        _free_memory()  # an in-process prover (hf://, vllm://) is gone with its event loop
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
            sft = self._train(base, data_path, rows, model_dir)
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
            evaluation.update(asyncio.run(self._evaluate(run_id, new_model, evals)))
            _free_memory()
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

    def _endpoint(self, model: str) -> LLMEndpoint:
        url = self.cfg.prover_url.replace("{model}", model)
        name = self.cfg.prover_model.replace("{model}", model) if self.cfg.prover_model else None
        return LLMEndpoint(
            url=url, model=name, temperature=self.cfg.temperature, top_p=self.cfg.top_p,
            max_tokens=self.cfg.max_tokens, concurrency=max(self.cfg.concurrency, 1),
        )

    def _llm(self, model: str, role: str, run_id: str) -> Any:
        from lemmaforge.agent.llm import backend_of, make_llm

        if self.llm_factory is not None:
            return self.llm_factory(model, role).bind(self.recorder, run_id, role=role)
        endpoint = self._endpoint(model)
        extra: dict[str, Any] = {}
        if backend_of(endpoint.url) == "transformers":
            extra["device"] = _device()
        return make_llm(endpoint, role, recorder=self.recorder, run_id=run_id, **extra)

    async def _sample(self, run_id: str, r: int, model: str, todo: list[_Problem]) -> dict[str, Any]:
        from lemmaforge.agent.prover import Prover

        nodes = {n.node_id: n for n in self.store.nodes(run_id)}
        pending = [p for p in todo if nodes.get(self._node_id(r, p)) is None
                   or nodes[self._node_id(r, p)].status not in ("solved", "failed")]
        stats = {"attempted": len(todo), "resumed_done": len(todo) - len(pending), "new_proofs": 0,
                 "solved": 0, "candidates": 0}
        if not pending:
            return stats
        llm = self._llm(model, "prover", run_id)
        verifier = self.verifier_factory()
        try:
            prover = Prover(llm, cot=False)
            slots = asyncio.Semaphore(max(self.cfg.concurrency, 1))

            async def one(p: _Problem) -> None:
                async with slots:
                    out = await self._attempt(prover, verifier, p, self.cfg.samples, run_id=run_id,
                                              node_id=self._node_id(r, p))
                stats["candidates"] += out["candidates"]
                stats["new_proofs"] += out["proofs"]
                stats["solved"] += int(out["proofs"] > 0)

            await asyncio.gather(*(one(p) for p in pending))
        finally:
            await llm.close()
            await verifier.close()
        return stats

    async def _evaluate(self, run_id: str, model: str, problems: list[_Problem]) -> dict[str, Any]:
        from lemmaforge.agent.prover import Prover

        llm = self._llm(model, "eval", run_id)
        verifier = self.verifier_factory()
        solved = 0
        try:
            prover = Prover(llm, cot=False)
            slots = asyncio.Semaphore(max(self.cfg.concurrency, 1))

            async def one(p: _Problem) -> bool:
                async with slots:
                    out = await self._attempt(prover, verifier, p, self.cfg.eval_samples, run_id=None, node_id=None)
                return out["proofs"] > 0

            solved = sum(await asyncio.gather(*(one(p) for p in problems)))
        finally:
            await llm.close()
            await verifier.close()
        return {"model": model, "solved": solved, "total": len(problems),
                "pass_rate": round(solved / len(problems), 4) if problems else 0.0}

    @staticmethod
    def _node_id(r: int, p: _Problem) -> str:
        return f"r{r}-{p.node_key}"

    async def _attempt(
        self, prover: Any, verifier: Verifier, p: _Problem, n: int, *, run_id: str | None, node_id: str | None
    ) -> dict[str, int]:
        """Sample `n` proofs of `p` and audit them. With `run_id` (sampling) the goal node, the
        attempts and the verified proofs are recorded; without (evaluation) nothing but the LLM
        call is."""
        from lemmaforge.agent.llm import LLMRequestError
        from lemmaforge.lean.audit import audit

        record = run_id is not None and node_id is not None
        if record:
            self._emit(NodeCreated(run_id, node_id, "goal", 0, p.theorem))
        try:
            candidates = await prover.prove(p.header, p.theorem, n=n)
        except LLMRequestError as exc:
            if record:
                self._emit(AttemptRecord(run_id, new_id(), node_id, "prover", "skipped", "", errors=[str(exc)]))
                self._emit(NodeStatusChanged(run_id, node_id, "failed", reason="the server refused the request"))
            return {"candidates": 0, "proofs": 0}

        async def check(c: Any) -> tuple[Any, str, Any]:
            from lemmaforge.agent.prompts import with_header

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
                verdict = "valid" if ok else report.status.value  # incomplete / error / rejected / timeout
                self._emit(AttemptRecord(run_id, new_id(), node_id, "prover", verdict, file, output=cand.raw,
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
                self._emit(ProofRecord(run_id, new_id(), "whole", p.header, p.record.statement,
                                       normalize_statement(p.record.statement), file,
                                       problem_id=p.record.problem_id, node_id=node_id, strategy="prover",
                                       depth=0, audit=report.to_json()))
        if record:
            if proofs:
                self._emit(NodeStatusChanged(run_id, node_id, "solved", "prover", first_body))
            else:
                self._emit(NodeStatusChanged(run_id, node_id, "failed", reason=f"no verified proof in {n} samples"))
        return {"candidates": len(candidates), "proofs": proofs}

    # -- training ----------------------------------------------------------------------------------

    def _train(self, base: str, data_path: Path, rows: list[dict[str, Any]], model_dir: Path) -> dict[str, Any]:
        digest = _sha256(data_path)
        marker = model_dir / MARKER
        if marker.is_file():
            try:
                saved = json.loads(marker.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                saved = {}
            if saved.get("data_sha256") == digest and saved.get("base") == base:
                return {**saved.get("metrics", {}), "trained": True, "reused": True}
        from transformers import AutoModelForCausalLM, AutoTokenizer

        from lemmaforge.training.sft import build_sft_trainer, run_sft, training_metrics

        tok = AutoTokenizer.from_pretrained(base)
        tok.padding_side = "left"
        if tok.pad_token is None:
            tok.pad_token = tok.eos_token
        model = AutoModelForCausalLM.from_pretrained(base)
        use_cpu = self.cfg.use_cpu or self.cfg.tiny
        opts: dict[str, Any] = {
            "max_length": self.cfg.max_length,
            "epochs": self.cfg.epochs,
            "max_steps": self.cfg.max_steps,
            "lr": self.cfg.lr,
            "batch_size": self.cfg.batch_size,
            "grad_accum": self.cfg.grad_accum,
            "use_cpu": use_cpu,
            "bf16": False if use_cpu else None,
            "gradient_checkpointing": self.cfg.gradient_checkpointing,
            "logging_steps": 1 if self.cfg.tiny else 10,
            "seed": self.cfg.seed,
            "disable_tqdm": True,
        }
        if model_dir.exists():
            import shutil

            shutil.rmtree(model_dir)
        if self.cfg.lora:
            trainer = build_sft_trainer(model, tok, rows, model_dir, lora=True, lora_r=self.cfg.lora_r, **opts)
            result = trainer.train()
            metrics = training_metrics(trainer, result)
            merged = trainer.model.merge_and_unload()
            merged.save_pretrained(str(model_dir))
            tok.save_pretrained(str(model_dir))
            metrics["output_dir"] = str(model_dir)
        else:
            metrics = run_sft(model, tok, rows, model_dir, **opts)
        del model
        _free_memory()
        keep = {k: v for k, v in metrics.items() if k != "log_history"}
        marker.write_text(json.dumps({"data_sha256": digest, "base": base, "rows": len(rows), "metrics": keep},
                                     indent=2, default=str) + "\n", encoding="utf-8")
        return {**keep, "trained": True, "reused": False}


def _device() -> str:
    try:
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    except ImportError:  # pragma: no cover - the train extra brings torch
        return "cpu"


def _free_memory() -> None:
    gc.collect()
    try:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except ImportError:  # pragma: no cover
        pass


__all__ = [
    "CONNECTION_FIELDS",
    "PARENT_KIND",
    "ROUND_KIND",
    "ExpertIterConfig",
    "ExpertIterError",
    "ExpertIteration",
    "ModelServer",
    "ServeError",
]

"""Training runs in the store: every `lemmaforge train …` command is a run row.

A training run is a `RunStarted(kind="train_sft" | "train_grpo" | "train_es")` whose config is
`{"train": {command, data, data_sha256, rows, output, settings…}}`, ended by a `RunFinished` whose
summary holds the metrics (`status` "finished", or "failed" / "cancelled" with the error). Expert
iteration already writes its own runs (`expert_iter`, `expert_iter_round`). No schema change: the
runs table holds any kind, and `lemmaforge report RUN_ID` / `lemmaforge train runs` read them back.
"""

from __future__ import annotations

import hashlib
import math
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lemmaforge.errors import ExitCode
from lemmaforge.records import RunFinished, RunStarted

TRAIN_KINDS: tuple[str, ...] = ("train_sft", "train_grpo", "train_es")
#: every training kind `train runs` lists (expert iteration's parent runs included)
LISTED_KINDS: tuple[str, ...] = (*TRAIN_KINDS, "expert_iter")
FINISHED = "finished"


def file_sha256(path: str | Path) -> str:
    """sha256 of the data file's bytes: which data a run trained on, whatever its path later holds."""
    h = hashlib.sha256()
    with Path(path).open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def json_safe(obj: Any) -> Any:
    """Metrics as JSON: non-finite floats become None, unknown objects their str."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_safe(v) for v in obj]
    if isinstance(obj, str | int | bool) or obj is None:
        return obj
    return str(obj)


@dataclass
class TrainingRun:
    """One training command's run row; `finish` / `fail` end it."""

    store: Any
    run_id: str
    kind: str
    config: dict[str, Any]
    ended: bool = False

    @classmethod
    def start(
        cls,
        store: Any,
        command: str,
        *,
        data: str | Path | None,
        output: str | Path,
        settings: dict[str, Any],
        versions: dict[str, Any] | None = None,
        rows: int | None = None,
        extra: dict[str, Any] | None = None,
    ) -> TrainingRun:
        kind = f"train_{command}"
        if kind not in TRAIN_KINDS:
            raise ValueError(f"unknown training command {command!r}")
        train: dict[str, Any] = {
            "command": command,
            "data": str(Path(data).expanduser().resolve()) if data is not None else None,
            "data_sha256": file_sha256(data) if data is not None and Path(data).is_file() else None,
            "rows": rows,
            "output": str(Path(output).expanduser().resolve()),
            "settings": json_safe(settings),
            **json_safe(extra or {}),
        }
        run = cls(store, uuid.uuid4().hex, kind, {"train": train})
        store.write([RunStarted(run.run_id, kind, run.config, json_safe(versions or {}))])
        return run

    def finish(self, metrics: dict[str, Any]) -> None:
        self._end(FINISHED, {"metrics": json_safe(metrics), "output": self.config["train"]["output"]})

    def fail(self, error: str, status: str = "failed") -> None:
        self._end(status, {"error": error, "output": self.config["train"]["output"]})

    def _end(self, status: str, summary: dict[str, Any]) -> None:
        if self.ended:
            return
        self.ended = True
        self.store.write([RunFinished(self.run_id, status, summary)])  # type: ignore[arg-type]

    @contextmanager
    def failing_on_error(self) -> Iterator[TrainingRun]:
        """Ends the run as failed (or cancelled on Ctrl-C, SIGTERM or SIGHUP) when the body raises;
        re-raises, except an interruption: that says which run it stopped on stderr and exits
        `ExitCode.INTERRUPTED` (the console entry makes it 143 / 129 for a signal), not click's
        "Aborted!" with exit 1."""
        try:
            yield self
        except KeyboardInterrupt:
            self.fail("interrupted", "cancelled")
            print(f"interrupted: {self.kind} run {self.run_id} stopped and recorded as cancelled", file=sys.stderr)
            raise SystemExit(ExitCode.INTERRUPTED) from None
        except BaseException as exc:
            self.fail(" ".join(f"{type(exc).__name__}: {exc}".split())[:500])
            raise


def training_runs(store: Any, kinds: tuple[str, ...] = LISTED_KINDS) -> list[Any]:
    """Training runs of the store, oldest first (expert iteration: its parent runs only)."""
    out = [r for kind in kinds for r in store.runs(kind=kind)]
    return sorted(out, key=lambda r: r.started_at)


def run_summary(run: Any) -> dict[str, Any]:
    """A training run as one JSON object: what `report` and `train runs` show."""
    train = (run.config or {}).get("train") or {}
    summary = run.summary or {}
    metrics = summary.get("metrics") or {}
    return {
        "run_id": run.run_id,
        "kind": run.kind,
        "status": run.status,
        "command": train.get("command") or run.kind,
        "data": train.get("data"),
        "data_sha256": train.get("data_sha256") or (run.config or {}).get("data_sha256"),
        "rows": train.get("rows"),
        "output": train.get("output") or summary.get("output") or summary.get("final_model"),
        "settings": train.get("settings") or (run.config or {}).get("expert_iter"),
        "metrics": metrics if run.kind in TRAIN_KINDS else summary,
        "error": summary.get("error"),
        "started_at": run.started_at,
        "finished_at": run.finished_at,
    }


def one_line(info: dict[str, Any]) -> str:
    metrics = info.get("metrics") or {}
    steps = metrics.get("global_step")
    parts = [f"{info['kind']} {info['run_id']}", info["status"]]
    if steps is not None:
        parts.append(f"{steps} steps")
    if info.get("output"):
        parts.append(f"output {info['output']}")
    if info.get("data"):
        parts.append(f"data {Path(info['data']).name} ({str(info.get('data_sha256') or '')[:12]})")
    if info.get("error"):
        parts.append(f"error: {info['error']}")
    return ", ".join(parts)


__all__ = [
    "FINISHED",
    "LISTED_KINDS",
    "TRAIN_KINDS",
    "TrainingRun",
    "file_sha256",
    "json_safe",
    "one_line",
    "run_summary",
    "training_runs",
]

"""What the `lemmaforge train` commands share: their options, reading and validating a data file,
loading a model, the verifier factory, the store, the preflight, and the report of a finished run.

A module of its own so that `cli.train` (the sub-app; sft, grpo, runs, expert-iter) and
`cli.train_es` (es) both import it; neither imports the other's commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from lemmaforge.cli.common import BadInput, fail, out, print_json, read_jsonl
from lemmaforge.config import ConfigError, load_config
from lemmaforge.training.sft import TrainingDataError

DataOpt = Annotated[Path, typer.Option("--data", help="JSONL training file.")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model directory (or hub id already cached).")]
TinyOpt = Annotated[bool, typer.Option("--tiny", help="Use a tiny random model (CPU smoke run).")]
OutputOpt = Annotated[Path, typer.Option("--output", help="Output directory.")]
TimeoutOpt = Annotated[float | None, typer.Option("--timeout", help="Seconds per Lean check.")]
TrustDatasetOpt = Annotated[
    bool | None,
    typer.Option("--trust-dataset", help="Accept rows outside the dataset whitelist (axioms, instances); recorded."),
]



def _validated(path: Path, validate: Any) -> list[dict[str, Any]]:
    rows = read_jsonl(path)
    try:
        validate(rows)
    except TrainingDataError as exc:
        raise BadInput(f"{path}: {exc}") from None
    return rows


def _check_max_steps(max_steps: int | None) -> None:
    """-1 means "train by epochs"; any other value below 1 is a typo, not a request for epochs."""
    if max_steps is not None and max_steps != -1 and max_steps < 1:
        raise BadInput(f"--max-steps must be a positive number of steps or -1 (train by epochs), not {max_steps}")


def _require_extra(modules: tuple[str, ...] | None = None) -> None:
    from lemmaforge.training.sft import require_train_extra

    try:
        require_train_extra(*((modules,) if modules else ()))
    except ImportError as exc:
        raise BadInput(str(exc)) from None


def _load_model(
    model: str | None, tiny: bool, rows: list[dict[str, Any]], *, weights: bool = True
) -> tuple[Any, Any, str]:
    """(model, tokenizer, name). The tokenizer pads on the left (generation). Without `weights`
    the model is returned as its path, for TRL to load (with the preset's dtype)."""
    if tiny:
        if model is not None:
            raise BadInput("give either --model or --tiny, not both")
        from lemmaforge.training.tiny import build_tiny, texts_of_rows

        m, tok = build_tiny(texts_of_rows(rows))
        return m, tok, "tiny"
    if model is None:
        raise BadInput("give --model PATH (a model directory) or --tiny")
    path = Path(model).expanduser()
    if not path.exists() and (model.startswith((".", "/", "~")) or model.count("/") != 1):
        raise BadInput(f"model not found: {model}")
    from transformers import AutoModelForCausalLM, AutoTokenizer

    try:
        tok = AutoTokenizer.from_pretrained(model)
        m = AutoModelForCausalLM.from_pretrained(model) if weights else model
    except (OSError, ValueError) as exc:
        raise BadInput(f"cannot load model '{model}': {' '.join(str(exc).split())[:300]}") from None
    tok.padding_side = "left"
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    return m, tok, model


def _settings(config: Path | None, overrides: dict[str, Any]) -> Any:

    try:
        return load_config(config, overrides)
    except ConfigError as exc:
        raise BadInput(str(exc)) from None


def _verifier_factory(
    config: Path | None,
    verifier: str | None,
    kimina_url: str | None,
    project: Path | None,
    timeout: float | None,
    db_url: str | None = None,
    trust_dataset: bool | None = None,
):
    from lemmaforge.lean.backends import BACKENDS, make_verifier

    if verifier is not None and verifier not in BACKENDS:
        raise BadInput(f"unknown verifier '{verifier}' (choose {', '.join(BACKENDS)})")
    settings = _settings(
        config,
        {
            "verifier": {"backend": verifier, "kimina_url": kimina_url, "project": project, "timeout": timeout,
                         "trust_dataset": trust_dataset},
            "db_url": db_url,
        },
    )
    return (lambda: make_verifier(settings.verifier)), settings


def _open_store(db_url: str) -> Any:
    """The store training runs are recorded in; BadInput when it cannot be opened."""
    from lemmaforge.db import Store, StoreError

    try:
        return Store(db_url)
    except StoreError as exc:  # every store failure (bad URL, unwritable directory) is a StoreError
        raise BadInput(str(exc)) from None


def _preflight(factory: Any, settings: Any, header: str = "", endpoints: Sequence[tuple[str, Any]] = ()) -> None:
    """Before any training step: each LLM endpoint serves its model (`doctor`'s probe) and the
    verifier answers and elaborates the data's header. One line and exit 2 when not."""
    from lemmaforge.doctor import require_llm
    from lemmaforge.errors import LemmaforgeError
    from lemmaforge.services import check_verifier

    async def verifier_answers() -> None:
        verifier = factory()
        try:
            await check_verifier(verifier, header, timeout=settings.verifier.header_timeout)
        finally:
            await verifier.close()

    try:
        for role, endpoint in endpoints:
            require_llm(role, endpoint)
        asyncio.run(verifier_answers())
    except LemmaforgeError as exc:
        fail(str(exc))


def _quiet(as_json: bool) -> contextlib.AbstractContextManager[Any]:
    """With --json, whatever the libraries print while training goes to stderr: stdout carries
    the one JSON object."""
    return contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext()


def _report(metrics: dict[str, Any], as_json: bool, what: str) -> None:
    if as_json:
        print_json(metrics)
        return
    out.print(f"[green]{what} done[/]: {metrics.get('global_step', '?')} steps, output {metrics.get('output_dir')}")
    if metrics.get("run_id"):
        out.print(f"  run {metrics['run_id']} (lemmaforge report {metrics['run_id']})", highlight=False, soft_wrap=True)
    if metrics.get("first_loss") is not None:
        out.print(f"  loss {metrics['first_loss']:.4f} -> {metrics['last_loss']:.4f}", highlight=False)
    for key, values in (metrics.get("rewards") or {}).items():
        if key.endswith("/mean") and values:
            out.print(f"  {key}: {', '.join('nan' if v != v else f'{v:.3f}' for v in values)}", highlight=False)


def _store_metrics(metrics: dict[str, Any]) -> dict[str, Any]:
    """What the run row keeps: the metrics without the per-step log (that is in the output dir)."""
    return {k: v for k, v in metrics.items() if k != "log_history"}


def _grpo_rows(data: Path, cot: bool) -> tuple[list[dict[str, Any]], str]:
    """(rows, "grpo" | "benchmark"): GRPO rows as they are, or built from benchmark problems."""
    from lemmaforge.training.grpo import is_benchmark_row, rows_from_benchmark, validate_grpo_rows

    rows = read_jsonl(data)
    try:
        if is_benchmark_row(rows[0]):
            return rows_from_benchmark(data, cot=cot), "benchmark"
        validate_grpo_rows(rows)
    except TrainingDataError as exc:
        raise BadInput(f"{data}: {exc}") from None
    return rows, "grpo"


def _absolute(spec: str | None) -> str | None:
    """An existing file or directory as an absolute path (a loop is resumed from anywhere); a
    dataset name, `NAME:SPLIT` or hub id unchanged."""
    if spec is None:
        return None
    path = Path(spec).expanduser()
    return str(path.resolve()) if path.exists() else spec

"""`lemmaforge train …`: SFT, GRPO, ES and expert iteration on Lean proving data.

Wired into the main app as `app.add_typer(train_app, name="train")`. Exit codes as everywhere:
0 done, 2 bad input (missing or malformed data file, missing model, missing train extra, unusable
verifier), with one line on stderr.

Data files are JSONL, one object per line:

- `sft`: `{"prompt": [{"role": "user", …}], "completion": [{"role": "assistant", …}]}` (or both
  strings);
- `grpo`, `es`: `{"prompt": <string or messages>, "header": "import Mathlib …", "statement":
  "theorem … := by sorry"}`, or benchmark rows `{"name", "header", "formal_statement",
  "informal_statement"?}` (miniF2F's JSONL), whose prompts are built here (DeepSeek-Prover-V2's,
  the informal statement as docstring).

Every training command records a run in the store (`--db`, default the config's): config, data
file sha256, metrics, output directory (`lemmaforge.training.runs`); `train runs` lists them and
`lemmaforge report RUN_ID` shows one.

`--tiny` trains a tiny random model (tokenizer trained on the data file) instead of `--model`:
a CPU smoke run of the whole stack.

`expert-iter` reads problems (`--statements DATASET[:SPLIT]` or a JSONL of `header` + `statement`,
e.g. `gen-data`'s statements.jsonl) and writes its rounds to the store; see
`lemmaforge.training.expert_iteration` for the round, the store layout and how each new checkpoint
is served (`--prover-url hf://{model}` / `vllm://{model}`, or `--serve-cmd`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from lemmaforge.cli_common import BadInput, ConfigOpt, JsonOpt, err, fail, out, read_text_file
from lemmaforge.training.sft import TrainingDataError

app = typer.Typer(
    name="train",
    help="Train provers on verified proofs: SFT, GRPO (Lean-verified rewards), Evolution Strategies, expert iteration.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
train_app = app

DataOpt = Annotated[Path, typer.Option("--data", help="JSONL training file.")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model directory (or hub id already cached).")]
TinyOpt = Annotated[bool, typer.Option("--tiny", help="Use a tiny random model (CPU smoke run).")]
OutputOpt = Annotated[Path, typer.Option("--output", help="Output directory.")]
VerifierOpt = Annotated[str | None, typer.Option("--verifier", help="Lean backend: repl, kimina or lake.")]
KiminaOpt = Annotated[str | None, typer.Option("--kimina-url", help="Kimina Lean Server URL.")]
ProjectOpt = Annotated[Path | None, typer.Option("--project", help="Lean project with Mathlib (repl, lake).")]
TimeoutOpt = Annotated[float | None, typer.Option("--timeout", help="Seconds per Lean check.")]
TrustDatasetOpt = Annotated[
    bool | None,
    typer.Option("--trust-dataset", help="Accept rows outside the dataset whitelist (axioms, instances); recorded."),
]


def _json_safe(obj: Any) -> Any:
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): _json_safe(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_json_safe(v) for v in obj]
    if isinstance(obj, str | int | bool) or obj is None:
        return obj
    return str(obj)


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(_json_safe(obj), ensure_ascii=False, indent=2) + "\n")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Rows of a JSONL file; BadInput naming the file and line on any problem."""
    text = read_text_file(path, "data file")
    rows: list[dict[str, Any]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BadInput(f"{path}:{n}: not valid JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise BadInput(f"{path}:{n}: expected a JSON object, got {type(row).__name__}")
        rows.append(row)
    if not rows:
        raise BadInput(f"data file has no rows: {path}")
    return rows


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
    from lemmaforge.config import ConfigError, load_config

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
    from lemmaforge.app import check_verifier
    from lemmaforge.doctor import require_llm
    from lemmaforge.errors import LemmaforgeError

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


DbOpt = Annotated[str | None, typer.Option("--db", help="SQLAlchemy URL of the store the run is recorded in (default: the config's).")]


@app.command()
def sft(
    data: DataOpt,
    output: OutputOpt,
    model: ModelOpt = None,
    tiny: TinyOpt = False,
    lora: Annotated[bool, typer.Option("--lora", help="Train a LoRA adapter instead of all weights.")] = False,
    lora_r: Annotated[int, typer.Option("--lora-r", min=1)] = 16,
    max_steps: Annotated[int, typer.Option("--max-steps", help="Stop after N optimizer steps (-1: epochs).")] = -1,
    epochs: Annotated[float, typer.Option("--epochs", min=0.0)] = 1.0,
    lr: Annotated[float, typer.Option("--lr", min=0.0)] = 2e-5,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1)] = 1,
    grad_accum: Annotated[int, typer.Option("--grad-accum", min=1)] = 1,
    max_length: Annotated[int, typer.Option("--max-length", min=16)] = 4096,
    cpu: Annotated[bool, typer.Option("--cpu", help="Train on the CPU (default with --tiny).")] = False,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Supervised fine-tuning on conversational prompt–completion rows (completion-only loss).
    The run (config, data hash, metrics, output) is recorded in the store."""
    from lemmaforge.training.runs import TrainingRun
    from lemmaforge.training.sft import validate_sft_rows

    try:
        _check_max_steps(max_steps)
        rows = _validated(data, validate_sft_rows)
        _require_extra()
        store = _open_store(_settings(config, {"db_url": db}).db_url)
        m, tok, name = _load_model(model, tiny, rows)
    except BadInput as exc:
        fail(str(exc))
    from lemmaforge.training.sft import run_sft

    use_cpu = cpu or tiny
    settings = {
        "model": _absolute(name), "tiny": tiny, "lora": lora, "lora_r": lora_r, "max_steps": max_steps,
        "epochs": epochs, "lr": lr, "batch_size": batch_size, "grad_accum": grad_accum, "max_length": max_length,
        "use_cpu": use_cpu,
    }
    run = TrainingRun.start(store, "sft", data=data, output=output, settings=settings, versions=_train_versions(),
                            rows=len(rows))
    try:
        with run.failing_on_error(), _quiet(as_json):
            metrics = run_sft(
                m, tok, rows, output, lora=lora, lora_r=lora_r, max_steps=max_steps, epochs=epochs, lr=lr,
                batch_size=batch_size, grad_accum=grad_accum, max_length=max_length, use_cpu=use_cpu,
                bf16=False if use_cpu else None, logging_steps=1 if tiny else 10, disable_tqdm=as_json,
            )
        run.finish(_store_metrics(metrics))
    finally:
        store.close()
    _report({**metrics, "run_id": run.run_id}, as_json, "sft")


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


def _filter_by_pass_rate(
    rows: list[dict[str, Any]], m: Any, tok: Any, factory: Any, settings: Any, *, samples: int, max_new_tokens: int,
    output: Path, as_json: bool,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Sample `samples` proofs per problem with the starting model, verify them, keep the problems
    solved sometimes but not always (0 < rate < 1). The kept set is written to
    OUTPUT/pass_rates.jsonl (every problem, its rate, kept or not) and returned for the run row."""
    import json as _json

    from lemmaforge.training.generation import hf_sampler
    from lemmaforge.training.rewards import estimate_pass_rates, filter_by_pass_rate

    model = m
    if isinstance(m, str):  # the GPU presets let TRL load the weights: the filter loads them once
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained(m, dtype="auto")
        import torch

        if torch.cuda.is_available():
            model = model.to("cuda")
    generate = hf_sampler(model, tok, max_new_tokens=max_new_tokens)
    if not as_json:
        out.print(f"pass-rate filter: sampling {samples} per problem for {len(rows)} problems", highlight=False)
    with _quiet(as_json):
        rates = estimate_pass_rates(
            generate, factory, rows, samples, timeout=settings.verifier.timeout, audit_config=settings.audit
        )
    kept = filter_by_pass_rate(rows, rates)
    kept_ids = {id(r) for r in kept}
    output.mkdir(parents=True, exist_ok=True)
    path = output / "pass_rates.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for i, (row, rate) in enumerate(zip(rows, rates, strict=True)):
            f.write(_json.dumps({"index": i, "name": row.get("name"), "statement": row.get("statement"),
                                 "pass_rate": rate, "kept": id(row) in kept_ids}, ensure_ascii=False) + "\n")
    if model is not m:
        del model
    info = {
        "samples": samples,
        "problems": len(rows),
        "kept": len(kept),
        "kept_names": [r.get("name") or r.get("statement", "")[:80] for r in kept],
        "pass_rates": str(path),
    }
    return kept, info


@app.command()
def grpo(
    data: Annotated[Path, typer.Option("--data", help="JSONL: GRPO rows (prompt, header, statement) or benchmark rows (name, header, formal_statement).")],
    output: OutputOpt,
    model: ModelOpt = None,
    tiny: TinyOpt = False,
    preset: Annotated[str, typer.Option("--preset", help="cpu, gpu (one GPU, transformers generation), colocate (one GPU + vLLM) or server (vLLM server).")] = "cpu",
    vllm_url: Annotated[str | None, typer.Option("--vllm-url", help="vLLM server base URL (--preset server).")] = None,
    gpu_memory_utilization: Annotated[float, typer.Option("--vllm-gpu-memory", min=0.05, max=0.95)] = 0.3,
    max_steps: Annotated[int | None, typer.Option("--max-steps")] = None,
    num_generations: Annotated[int | None, typer.Option("--num-generations", min=2)] = None,
    batch_size: Annotated[int | None, typer.Option("--batch-size", min=1, help="Completions per device step.")] = None,
    grad_accum: Annotated[int | None, typer.Option("--grad-accum", min=1)] = None,
    max_completion_length: Annotated[int | None, typer.Option("--max-completion-length", min=1)] = None,
    lr: Annotated[float | None, typer.Option("--lr", min=0.0)] = None,
    lora: Annotated[bool, typer.Option("--lora")] = False,
    lora_r: Annotated[int, typer.Option("--lora-r", min=1)] = 16,
    consistency_weight: Annotated[float, typer.Option("--consistency-weight", min=0.0)] = 0.2,
    consistency_steps: Annotated[int, typer.Option("--consistency-steps", min=0)] = 200,
    filter_pass_rate: Annotated[
        int | None,
        typer.Option("--filter-pass-rate", min=1, help="Sample N proofs per problem with the starting model first; train only on problems solved sometimes but not always (0 < rate < 1)."),
    ] = None,
    filter_max_new_tokens: Annotated[int | None, typer.Option("--filter-max-new-tokens", min=1, help="Tokens per filter sample (default: the completion length).")] = None,
    cot: Annotated[bool, typer.Option("--cot/--no-cot", help="Prompts built from benchmark rows: CoT (default) or non-CoT.")] = True,
    verifier: VerifierOpt = None,
    kimina_url: KiminaOpt = None,
    project: ProjectOpt = None,
    trust_dataset: TrustDatasetOpt = None,
    timeout: TimeoutOpt = None,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """GRPO with the Lean-verified reward (+ the early structure-consistency reward). The run
    (config, data hash, kept problems, metrics, output) is recorded in the store."""
    from lemmaforge.lean.verifier import VerifierError
    from lemmaforge.training.grpo import PRESETS, VLLM_PRESETS, vllm_available
    from lemmaforge.training.runs import TrainingRun

    try:
        _check_max_steps(max_steps)
        if preset not in PRESETS:
            raise BadInput(f"unknown preset '{preset}' (choose {', '.join(PRESETS)})")
        if preset == "server" and not vllm_url:
            raise BadInput("--preset server needs --vllm-url (the `vllm serve` base URL)")
        rows, data_format = _grpo_rows(data, cot)
        factory, settings = _verifier_factory(config, verifier, kimina_url, project, timeout, db, trust_dataset=trust_dataset)
        _require_extra()
        if preset in VLLM_PRESETS and not vllm_available():
            raise BadInput(f"--preset {preset} needs vLLM, which is not installed: use --preset gpu "
                           "(generation with transformers) or pip install 'lemmaforge[vllm]'")
        store = _open_store(settings.db_url)
        m, tok, name = _load_model(model, tiny, rows, weights=preset == "cpu" or tiny)
    except BadInput as exc:
        fail(str(exc))
    _preflight(factory, settings, str(rows[0].get("header") or ""))
    from lemmaforge.training.grpo import run_grpo

    overrides: dict[str, Any] = {}
    for key, value in (
        ("max_steps", max_steps),
        ("num_generations", num_generations),
        ("per_device_train_batch_size", batch_size),
        ("gradient_accumulation_steps", grad_accum),
        ("max_completion_length", max_completion_length),
        ("learning_rate", lr),
    ):
        if value is not None:
            overrides[key] = value
    if preset == "colocate":
        overrides["gpu_memory_utilization"] = gpu_memory_utilization
    if preset == "server":
        overrides["base_url"] = vllm_url
    if tiny and preset != "cpu":
        overrides["model_init_kwargs"] = None  # the tiny model is built here, not loaded by TRL
    run_settings = {
        "model": _absolute(name), "tiny": tiny, "preset": preset, "lora": lora, "lora_r": lora_r,
        "consistency_weight": consistency_weight, "consistency_steps": consistency_steps,
        "filter_pass_rate": filter_pass_rate, "data_format": data_format, "cot": cot,
        "verifier": settings.verifier.backend, **overrides,
    }
    run = TrainingRun.start(store, "grpo", data=data, output=output, settings=run_settings,
                            versions=_train_versions(), rows=len(rows))
    kept_info: dict[str, Any] | None = None
    try:
        with run.failing_on_error():
            if filter_pass_rate is not None:
                tokens = filter_max_new_tokens or max_completion_length or (32 if tiny else 1024)
                try:
                    rows, kept_info = _filter_by_pass_rate(
                        rows, m, tok, factory, settings, samples=filter_pass_rate, max_new_tokens=tokens,
                        output=output, as_json=as_json,
                    )
                except VerifierError as exc:
                    raise BadInput(f"verifier '{settings.verifier.backend}' unusable: {exc}") from None
                if not rows:
                    run.fail("no problem kept by the pass-rate filter")
                    fail(f"no problem has a pass rate strictly between 0 and 1 after {filter_pass_rate} samples "
                         f"each (see {kept_info['pass_rates']}): nothing for GRPO to learn from", 1)
                if not as_json:
                    out.print(f"  kept {kept_info['kept']}/{kept_info['problems']} problems", highlight=False)
            with _quiet(as_json):
                metrics = run_grpo(
                    m, tok, rows, factory, output, preset=preset, lora=lora, lora_r=lora_r,
                    consistency_weight=consistency_weight, consistency_steps=consistency_steps,
                    timeout=settings.verifier.timeout, audit_config=settings.audit, **overrides,
                )
    except BadInput as exc:
        store.close()
        fail(str(exc))
    except VerifierError as exc:
        store.close()
        fail(f"verifier '{settings.verifier.backend}' unusable: {exc}")
    except ValueError as exc:
        store.close()
        fail(" ".join(str(exc).split())[:400])
    if kept_info is not None:
        metrics["filter"] = kept_info
    run.finish(_store_metrics(metrics))
    store.close()
    _report({**metrics, "run_id": run.run_id}, as_json, "grpo")


#: ES settings, their defaults, and whether a --resume may change them (device and the target
#: number of iterations may; everything that defines the experiment may not)
ES_DEFAULTS: dict[str, Any] = {
    "iterations": 10,
    "population": 30,
    "sigma": 1e-3,
    "alpha": 5e-4,
    "seed": 0,
    "problems_per_iteration": 8,
    "samples": 4,
    "max_new_tokens": 1024,
}
ES_FLAGS = {
    "iterations": "--iterations", "population": "--population", "sigma": "--sigma", "alpha": "--alpha",
    "seed": "--seed", "problems_per_iteration": "--problems-per-iteration", "samples": "--samples",
    "max_new_tokens": "--max-new-tokens", "model": "--model", "tiny": "--tiny", "data": "--data",
}


def _device(device: str) -> str:
    """`auto` → cuda when torch sees a GPU, else cpu; a CUDA device that is not there is bad input."""
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda"):
        if not torch.cuda.is_available():
            raise BadInput(f"--device {device}: no CUDA device available (torch.cuda.is_available() is False)")
        index = device.partition(":")[2]
        if index and (not index.isdigit() or int(index) >= torch.cuda.device_count()):
            raise BadInput(f"--device {device}: no such CUDA device ({torch.cuda.device_count()} visible)")
        return device
    if device != "cpu":
        raise BadInput(f"--device {device}: choose auto, cpu, cuda or cuda:N")
    return device


def _es_resume_settings(history: Any, given: dict[str, Any], history_path: Path) -> dict[str, Any]:
    """Every setting of the stored experiment, with the flags given now checked against it: a flag
    that would change the experiment is refused (as `bench --resume` does); `--iterations` is
    the new total."""
    stored = {**history.settings, **{k: getattr(history.config, k) for k in ("sigma", "alpha", "population", "seed")}}
    conflicts = []
    for key, value in given.items():
        if key == "iterations" or value is None or key not in stored or stored[key] is None:
            continue
        if key == "data":
            if stored.get("data_sha256") and value["sha256"] != stored["data_sha256"]:
                conflicts.append(f"--data {value['path']} is not the data of the run (it trained on {stored['data']})")
            continue
        if value != stored[key]:
            conflicts.append(f"{ES_FLAGS[key]} {value} (the run has {stored[key]})")
    if conflicts:
        raise BadInput(
            f"--resume {history_path}: {'; '.join(conflicts)}; flags that change the experiment cannot change on "
            "resume (start a new --output instead)"
        )
    merged = {**ES_DEFAULTS, **{k: v for k, v in stored.items() if v is not None}}
    if given.get("iterations") is not None:
        merged["iterations"] = given["iterations"]
    return merged


@app.command()
def es(
    output: OutputOpt,
    data: Annotated[Path | None, typer.Option("--data", help="JSONL of GRPO rows or benchmark rows (default on --resume: the run's).")] = None,
    model: ModelOpt = None,
    tiny: TinyOpt = False,
    iterations: Annotated[int | None, typer.Option("--iterations", min=1, help="Iterations in all (a resumed run continues up to it; default 10).")] = None,
    population: Annotated[int | None, typer.Option("--population", min=2, help="Default 30.")] = None,
    sigma: Annotated[float | None, typer.Option("--sigma", help="Default 1e-3.")] = None,
    alpha: Annotated[float | None, typer.Option("--alpha", help="Default 5e-4.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Default 0.")] = None,
    problems: Annotated[int | None, typer.Option("--problems-per-iteration", min=1, help="Default 8.")] = None,
    samples: Annotated[int | None, typer.Option("--samples", min=1, help="Proofs sampled per problem per member (default 4).")] = None,
    max_new_tokens: Annotated[int | None, typer.Option("--max-new-tokens", min=1, help="Default 1024.")] = None,
    device: Annotated[str, typer.Option("--device", help="auto (cuda when available), cpu, cuda or cuda:N.")] = "auto",
    resume: Annotated[bool, typer.Option("--resume", help="Continue from OUTPUT/es_history.json with its own settings.")] = False,
    save_model: Annotated[bool, typer.Option("--save-model/--no-save-model")] = True,
    verifier: VerifierOpt = None,
    kimina_url: KiminaOpt = None,
    project: ProjectOpt = None,
    trust_dataset: TrustDatasetOpt = None,
    timeout: TimeoutOpt = None,
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Evolution Strategies: seeded weight perturbations scored by Lean-verified sampled proofs.
    The run is OUTPUT/es_history.json (base model + seeds + coefficients + every setting).
    `--resume` replays it onto the same model and continues with the stored settings (data,
    model, sigma, alpha, population, seed, problems per iteration, samples, max new tokens);
    a flag that contradicts them is refused; `--iterations` is the total to reach. After the
    last iteration the replay check recomputes the weights from the history and compares them
    bit for bit with the model on its device."""
    from lemmaforge.lean.verifier import VerifierError
    from lemmaforge.training.runs import TrainingRun, file_sha256

    history_path = output / "es_history.json"
    history = None
    try:
        if (sigma is not None and sigma <= 0) or (alpha is not None and alpha <= 0):
            raise BadInput("--sigma and --alpha must be positive")
        _require_extra(("torch", "transformers"))
        if resume:
            if not history_path.is_file():
                raise BadInput(f"nothing to resume: {history_path} not found")
            from lemmaforge.training.es import ESHistory

            try:
                history = ESHistory.load(history_path)
            except (ValueError, KeyError, TypeError) as exc:
                raise BadInput(f"{history_path}: {exc}") from None
        if data is None:
            stored_data = history.settings.get("data") if history is not None else None
            if stored_data is None:
                raise BadInput("give --data (a JSONL of prompt, header, statement rows)")
            data = Path(stored_data)
        data_sha = file_sha256(data) if data.is_file() else None
        given: dict[str, Any] = {
            "iterations": iterations, "population": population, "sigma": sigma, "alpha": alpha, "seed": seed,
            "problems_per_iteration": problems, "samples": samples, "max_new_tokens": max_new_tokens,
            "model": _absolute(model), "tiny": True if tiny else None,
            "data": {"path": str(data), "sha256": data_sha} if data_sha is not None else None,
        }
        if history is not None:
            values = _es_resume_settings(history, given, history_path)
            if model is None and not tiny:
                model, tiny = values.get("model") if not values.get("tiny") else None, bool(values.get("tiny"))
        else:
            values = {**ES_DEFAULTS, **{k: v for k, v in given.items() if k in ES_DEFAULTS and v is not None}}
        rows, _ = _grpo_rows(data, values.get("cot", True))
        factory, settings = _verifier_factory(config, verifier, kimina_url, project, timeout, db, trust_dataset=trust_dataset)
        target = _device(device)
        store = _open_store(settings.db_url)
        m, tok, name = _load_model(model, bool(tiny), rows)
    except BadInput as exc:
        fail(str(exc))
    _preflight(factory, settings, str(rows[0].get("header") or ""))
    from lemmaforge.training.es import (
        ESConfig,
        EvolutionStrategy,
        iteration_summary,
        make_lean_es_reward,
        replay_matches,
    )

    experiment = {
        **{k: values[k] for k in ES_DEFAULTS},
        "model": _absolute(name) if name != "tiny" else None,
        "tiny": name == "tiny",
        "data": str(data.expanduser().resolve()),
        "data_sha256": data_sha,
    }
    m.to(target)
    cfg = None if history is not None else ESConfig(
        sigma=values["sigma"], alpha=values["alpha"], population=values["population"], seed=values["seed"]
    )
    done_before = len(history.iterations) if history is not None else 0
    todo = max(0, values["iterations"] - done_before)
    run = TrainingRun.start(
        store, "es", data=data, output=output, settings={**experiment, "device": target}, versions=_train_versions(),
        rows=len(rows), extra={"resumed": history is not None, "iterations_before": done_before},
    )
    reward_fn, close = make_lean_es_reward(
        tok, rows, factory, problems_per_iteration=values["problems_per_iteration"],
        samples_per_problem=values["samples"], max_new_tokens=values["max_new_tokens"], seed=values["seed"],
        timeout=settings.verifier.timeout, audit_config=settings.audit,
    )
    summaries: list[dict[str, Any]] = []

    def progress(t: int, it: Any) -> None:
        s = {"iteration": t, **iteration_summary(it)}
        summaries.append(s)
        if not as_json:
            out.print(f"  iteration {t}: mean reward {s['mean_reward']}", highlight=False)

    try:
        with run.failing_on_error():
            try:
                strategy = EvolutionStrategy(m, reward_fn, cfg, history=history, base=name)
            except ValueError as exc:
                raise BadInput(str(exc)) from None
            strategy.history.settings = experiment
            if todo == 0:
                strategy.history.save(history_path)
            with _quiet(as_json):
                strategy.train(todo, history_path=history_path, callback=progress)
            exact = replay_matches(m, strategy.base_state, strategy.history)
    except BadInput as exc:
        store.close()
        fail(str(exc))
    except VerifierError as exc:
        store.close()
        fail(f"verifier '{settings.verifier.backend}' unusable: {exc}")
    finally:
        close()
    if save_model:
        m.save_pretrained(output / "model")
        tok.save_pretrained(output / "model")
    metrics = {
        "output_dir": str(output),
        "history": str(history_path),
        "device": target,
        "global_step": len(strategy.history.iterations),
        "iterations_run": todo,
        "replay_exact": exact,
        "iterations": summaries,
    }
    run.finish(metrics)
    store.close()
    if not exact:
        err.print(f"error: the replay check failed: {history_path} does not rebuild the weights on {target}")
        raise typer.Exit(1)
    if not as_json:
        out.print(f"  replay check on {target}: exact", highlight=False)
    _report({**metrics, "run_id": run.run_id}, as_json, "es")


@app.command("runs")
def runs_command(
    db: DbOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List the training runs recorded in the store (sft, grpo, es, expert iteration)."""
    from lemmaforge.training.runs import one_line, run_summary, training_runs

    try:
        store = _open_store(_settings(config, {"db_url": db}).db_url)
    except BadInput as exc:
        fail(str(exc))
    try:
        infos = [run_summary(r) for r in training_runs(store)]
    finally:
        store.close()
    if as_json:
        print_json({"runs": infos})
        return
    if not infos:
        out.print("no training runs", highlight=False)
    for info in infos:
        out.print(one_line(info), highlight=False, soft_wrap=True)


@app.command("expert-iter")
def expert_iter(
    out_dir: Annotated[Path | None, typer.Option("--out", help="Output directory: base model, rounds/N/{data.jsonl,model,metrics.json}.")] = None,
    statements: Annotated[
        str | None, typer.Option("--statements", help="Problems to prove: DATASET[:SPLIT] (e.g. minif2f:valid) or a JSONL file (header + statement).")
    ] = None,
    base_model: Annotated[str | None, typer.Option("--base-model", help="Model every round's SFT starts from.")] = None,
    tiny: TinyOpt = False,
    initial_model: Annotated[str | None, typer.Option("--initial-model", help="Prover of round 1 (default: the base model).")] = None,
    prover_url: Annotated[
        str | None,
        typer.Option("--prover-url", help="Where the current model is served: hf://{model}, vllm://{model}, or http://HOST:PORT/v1 with --serve-cmd. Default with --tiny: hf://{model}."),
    ] = None,
    prover_model: Annotated[str | None, typer.Option("--prover-model", help="Served model name (default: the first the server lists).")] = None,
    serve_cmd: Annotated[
        str | None,
        typer.Option("--serve-cmd", help="Shell command serving {model} on {port}, e.g. 'vllm serve {model} --port {port}'; started per model, stopped before training."),
    ] = None,
    serve_timeout: Annotated[float | None, typer.Option("--serve-timeout", min=1.0, help="Seconds to wait for the server.")] = None,
    rounds: Annotated[int | None, typer.Option("--rounds", min=1, help="Rounds in all (a resumed loop may be extended).")] = None,
    samples: Annotated[int | None, typer.Option("--samples", min=1, help="Proofs sampled per unsolved statement per round.")] = None,
    eval_set: Annotated[str | None, typer.Option("--eval", help="Eval set DATASET[:SPLIT] or file (held out from training); default: the statements.")] = None,
    eval_samples: Annotated[int | None, typer.Option("--eval-samples", min=0, help="pass@N of the evaluation (0: no evaluation).")] = None,
    temperature: Annotated[float | None, typer.Option("--temperature", min=0.0)] = None,
    max_tokens: Annotated[int | None, typer.Option("--max-tokens", min=1)] = None,
    concurrency: Annotated[int | None, typer.Option("--concurrency", min=1, help="Statements sampled and verified at once.")] = None,
    max_per_statement: Annotated[int | None, typer.Option("--max-per-statement", min=1, help="Proofs per statement in the SFT data (STP: 16).")] = None,
    seed_data: Annotated[Path | None, typer.Option("--seed-data", help="Extra SFT rows for every round (e.g. gen-data's train.jsonl).")] = None,
    holdout: Annotated[list[str] | None, typer.Option("--holdout", help="DATASET[:SPLIT] never trained on (repeatable).")] = None,
    epochs: Annotated[float | None, typer.Option("--epochs", min=0.0)] = None,
    max_steps: Annotated[int | None, typer.Option("--max-steps", help="SFT optimizer steps per round (-1: epochs).")] = None,
    lr: Annotated[float | None, typer.Option("--lr", min=0.0)] = None,
    batch_size: Annotated[int | None, typer.Option("--batch-size", min=1)] = None,
    grad_accum: Annotated[int | None, typer.Option("--grad-accum", min=1)] = None,
    max_length: Annotated[int | None, typer.Option("--max-length", min=16)] = None,
    lora: Annotated[bool, typer.Option("--lora", help="Train LoRA adapters, merged into each round's checkpoint.")] = False,
    cpu: Annotated[bool, typer.Option("--cpu", help="Train on the CPU (default with --tiny).")] = False,
    resume: Annotated[str | None, typer.Option("--resume", help="Continue the loop of this run id (its recipe is kept).")] = None,
    db: Annotated[str | None, typer.Option("--db", help="SQLAlchemy URL of the store (default: the config's).")] = None,
    verifier: VerifierOpt = None,
    kimina_url: KiminaOpt = None,
    project: ProjectOpt = None,
    trust_dataset: TrustDatasetOpt = None,
    timeout: TimeoutOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Expert iteration: sample proofs of unsolved statements, verify, retrain from the base on all
    rounds' proofs, evaluate, serve the new model, repeat. Every round is a run in the store;
    `--resume RUN_ID` continues a stopped loop at the round it was in.

    The new checkpoint reaches the prover either through {model} in --prover-url (hf://{model},
    vllm://{model}: loaded in this process) or through --serve-cmd (a server started for each
    checkpoint and stopped before training)."""
    from lemmaforge.agent.llm import LLMError
    from lemmaforge.db import Store, StoreError
    from lemmaforge.lean.verifier import VerifierError
    from lemmaforge.training.expert_config import ExpertIterConfig, ExpertIterError
    from lemmaforge.training.expert_iteration import ExpertIteration
    from lemmaforge.training.serving import ServeError

    given: dict[str, Any] = {
        "statements": _absolute(statements),
        "out_dir": str(out_dir.expanduser().resolve()) if out_dir is not None else None,
        "base_model": _absolute(base_model),
        "tiny": True if tiny else None,
        "initial_model": _absolute(initial_model),
        "prover_url": prover_url,
        "prover_model": prover_model,
        "serve_cmd": serve_cmd,
        "serve_timeout": serve_timeout,
        "rounds": rounds,
        "samples": samples,
        "eval": _absolute(eval_set),
        "eval_samples": eval_samples,
        "temperature": temperature,
        "max_tokens": max_tokens,
        "concurrency": concurrency,
        "max_per_statement": max_per_statement,
        "seed_data": str(seed_data.expanduser().resolve()) if seed_data is not None else None,
        "holdout": [h.strip() for item in holdout or [] for h in item.split(",") if h.strip()] or None,
        "epochs": epochs,
        "max_steps": max_steps,
        "lr": lr,
        "batch_size": batch_size,
        "grad_accum": grad_accum,
        "max_length": max_length,
        "lora": True if lora else None,
        "use_cpu": True if cpu else None,
    }
    try:
        _check_max_steps(max_steps)
        _require_extra()
        factory, settings = _verifier_factory(config, verifier, kimina_url, project, timeout, db, trust_dataset=trust_dataset)
        if seed_data is not None and not seed_data.is_file():
            raise BadInput(f"seed data file not found: {seed_data}")
        if resume is None and not tiny and prover_url is None:
            raise BadInput(
                "give --prover-url: hf://{model} or vllm://{model} (loaded in this process), "
                "or http://HOST:PORT/v1 with --serve-cmd"
            )
        try:
            store = Store(settings.db_url)
        except StoreError as exc:
            raise BadInput(str(exc)) from None
    except BadInput as exc:
        fail(str(exc))

    def progress(event: str, round_: int, info: dict[str, Any]) -> None:
        if as_json:
            return
        if event == "round_start":
            out.print(f"round {round_}: sampling from {info.get('model')}", highlight=False)
        elif event == "sampled":
            out.print(f"  sampled {info.get('attempted')} statements: {info.get('new_proofs')} new proofs", highlight=False)
        elif event == "trained":
            out.print(f"  model {info.get('model')} (loss {info.get('train_loss', '-')})", highlight=False)
        elif event == "evaluated" and "pass_rate" in info:
            out.print(f"  eval {info.get('set')}: pass@{info.get('samples')} {info['pass_rate']:.3f} "
                      f"({info.get('solved')}/{info.get('total')})", highlight=False)

    kwargs: dict[str, Any] = {
        "audit_config": settings.audit,
        "check_timeout": settings.verifier.timeout,
        "on_event": progress,
        "versions": _train_versions(),
    }
    loop: Any = None
    try:
        if resume is not None:
            loop = ExpertIteration.resume(store, resume, factory, overrides=given, **kwargs)
        else:
            if statements is None or out_dir is None:
                raise ExpertIterError("give --statements and --out (or --resume RUN_ID)")
            values = {k: v for k, v in given.items() if v is not None}
            if tiny and max_tokens is None:
                values["max_tokens"] = 64  # a random tiny model writes nothing worth 2048 tokens
            cfg = ExpertIterConfig(**values)
            loop = ExpertIteration(cfg, store, factory, **kwargs)
            if not as_json:
                out.print(f"expert iteration run {loop.run_id} (resume with --resume {loop.run_id})", highlight=False)
        # after the input is validated, before any round: the verifier answers (the prover is the
        # checkpoint of each round, loaded in process or served by --serve-cmd, which waits for it)
        _preflight(factory, settings)
        with _quiet(as_json):
            summary = loop.run()
    except (ExpertIterError, ServeError, TrainingDataError) as exc:
        fail(str(exc))
    except (LLMError, VerifierError, StoreError) as exc:
        run_id = resume or (loop.run_id if loop is not None else "RUN_ID")
        fail(f"{' '.join(str(exc).split())[:300]} (resume with --resume {run_id})")
    finally:
        store.close()
    if as_json:
        print_json(summary)
        return
    last = summary["rounds"][-1] if summary["rounds"] else {}
    out.print(
        f"[green]expert iteration done[/]: {summary['solved']}/{summary['statements']} statements proved, "
        f"final model {summary['final_model']}, run {summary['run_id']}",
        highlight=False,
    )
    if last:
        out.print(f"  last round: {last['metrics']['new_proofs']} new proofs, data {last['data_path']}", highlight=False)


def _absolute(spec: str | None) -> str | None:
    """An existing file or directory as an absolute path (a loop is resumed from anywhere); a
    dataset name, `NAME:SPLIT` or hub id unchanged."""
    if spec is None:
        return None
    path = Path(spec).expanduser()
    return str(path.resolve()) if path.exists() else spec


def _train_versions() -> dict[str, str | None]:
    from importlib import metadata

    from lemmaforge import __version__

    def pkg(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    return {"lemmaforge": __version__, **{p: pkg(p) for p in ("torch", "transformers", "trl", "vllm")}}

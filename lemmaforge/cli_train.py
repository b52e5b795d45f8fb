"""`lemmaforge train …`: SFT, GRPO, ES and expert iteration on Lean proving data.

Wired into the main app as `app.add_typer(train_app, name="train")`. Exit codes as everywhere:
0 done, 2 bad input (missing or malformed data file, missing model, missing train extra, unusable
verifier), with one line on stderr.

Data files are JSONL, one object per line:

- `sft`: `{"prompt": [{"role": "user", …}], "completion": [{"role": "assistant", …}]}` (or both
  strings);
- `grpo`, `es`: `{"prompt": <string or messages>, "header": "import Mathlib …", "statement":
  "theorem … := by sorry"}`.

`--tiny` trains a tiny random model (tokenizer trained on the data file) instead of `--model`:
a CPU smoke run of the whole stack.

`expert-iter` reads problems (`--statements DATASET[:SPLIT]` or a JSONL of `header` + `statement`,
e.g. `gen-data`'s statements.jsonl) and writes its rounds to the store; see
`lemmaforge.training.expert_iteration` for the round, the store layout and how each new checkpoint
is served (`--prover-url hf://{model}` / `vllm://{model}`, or `--serve-cmd`).
"""

from __future__ import annotations

import contextlib
import json
import math
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from lemmaforge.cli_common import BadInput, ConfigOpt, JsonOpt, fail, out, read_text_file
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


def _require_extra() -> None:
    from lemmaforge.training.sft import require_train_extra

    try:
        require_train_extra()
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


def _verifier_factory(
    config: Path | None,
    verifier: str | None,
    kimina_url: str | None,
    project: Path | None,
    timeout: float | None,
    db_url: str | None = None,
    trust_dataset: bool | None = None,
):
    from lemmaforge.config import ConfigError, load_config
    from lemmaforge.lean.backends import BACKENDS, make_verifier

    if verifier is not None and verifier not in BACKENDS:
        raise BadInput(f"unknown verifier '{verifier}' (choose {', '.join(BACKENDS)})")
    try:
        settings = load_config(
            config,
            {
                "verifier": {"backend": verifier, "kimina_url": kimina_url, "project": project, "timeout": timeout,
                             "trust_dataset": trust_dataset},
                "db_url": db_url,
            },
        )
    except ConfigError as exc:
        raise BadInput(str(exc)) from None
    return (lambda: make_verifier(settings.verifier)), settings


def _quiet(as_json: bool) -> contextlib.AbstractContextManager[Any]:
    """With --json, whatever the libraries print while training goes to stderr: stdout carries
    the one JSON object."""
    return contextlib.redirect_stdout(sys.stderr) if as_json else contextlib.nullcontext()


def _report(metrics: dict[str, Any], as_json: bool, what: str) -> None:
    if as_json:
        print_json(metrics)
        return
    out.print(f"[green]{what} done[/]: {metrics.get('global_step', '?')} steps, output {metrics.get('output_dir')}")
    if metrics.get("first_loss") is not None:
        out.print(f"  loss {metrics['first_loss']:.4f} -> {metrics['last_loss']:.4f}", highlight=False)
    for key, values in (metrics.get("rewards") or {}).items():
        if key.endswith("/mean") and values:
            out.print(f"  {key}: {', '.join('nan' if v != v else f'{v:.3f}' for v in values)}", highlight=False)


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
    as_json: JsonOpt = False,
) -> None:
    """Supervised fine-tuning on conversational prompt–completion rows (completion-only loss)."""
    from lemmaforge.training.sft import validate_sft_rows

    try:
        rows = _validated(data, validate_sft_rows)
        _require_extra()
        m, tok, _ = _load_model(model, tiny, rows)
    except BadInput as exc:
        fail(str(exc))
    from lemmaforge.training.sft import run_sft

    use_cpu = cpu or tiny
    with _quiet(as_json):
        metrics = run_sft(
            m,
            tok,
            rows,
            output,
            lora=lora,
            lora_r=lora_r,
            max_steps=max_steps,
            epochs=epochs,
            lr=lr,
            batch_size=batch_size,
            grad_accum=grad_accum,
            max_length=max_length,
            use_cpu=use_cpu,
            bf16=False if use_cpu else None,
            logging_steps=1 if tiny else 10,
            disable_tqdm=as_json,
        )
    _report(metrics, as_json, "sft")


@app.command()
def grpo(
    data: DataOpt,
    output: OutputOpt,
    model: ModelOpt = None,
    tiny: TinyOpt = False,
    preset: Annotated[str, typer.Option("--preset", help="cpu, colocate (one GPU + vLLM) or server (vLLM server).")] = "cpu",
    vllm_url: Annotated[str | None, typer.Option("--vllm-url", help="vLLM server base URL (--preset server).")] = None,
    gpu_memory_utilization: Annotated[float, typer.Option("--vllm-gpu-memory", min=0.05, max=0.95)] = 0.3,
    max_steps: Annotated[int | None, typer.Option("--max-steps")] = None,
    num_generations: Annotated[int | None, typer.Option("--num-generations", min=2)] = None,
    batch_size: Annotated[int | None, typer.Option("--batch-size", min=1, help="Completions per device step.")] = None,
    max_completion_length: Annotated[int | None, typer.Option("--max-completion-length", min=1)] = None,
    lr: Annotated[float | None, typer.Option("--lr", min=0.0)] = None,
    lora: Annotated[bool, typer.Option("--lora")] = False,
    lora_r: Annotated[int, typer.Option("--lora-r", min=1)] = 16,
    consistency_weight: Annotated[float, typer.Option("--consistency-weight", min=0.0)] = 0.2,
    consistency_steps: Annotated[int, typer.Option("--consistency-steps", min=0)] = 200,
    verifier: VerifierOpt = None,
    kimina_url: KiminaOpt = None,
    project: ProjectOpt = None,
    trust_dataset: TrustDatasetOpt = None,
    timeout: TimeoutOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """GRPO with the Lean-verified reward (+ the early structure-consistency reward)."""
    from lemmaforge.lean.verifier import VerifierError
    from lemmaforge.training.grpo import PRESETS, validate_grpo_rows

    try:
        if preset not in PRESETS:
            raise BadInput(f"unknown preset '{preset}' (choose {', '.join(PRESETS)})")
        if preset == "server" and not vllm_url:
            raise BadInput("--preset server needs --vllm-url (the `vllm serve` base URL)")
        rows = _validated(data, validate_grpo_rows)
        factory, settings = _verifier_factory(config, verifier, kimina_url, project, timeout, trust_dataset=trust_dataset)
        _require_extra()
        m, tok, name = _load_model(model, tiny, rows, weights=preset == "cpu")
    except BadInput as exc:
        fail(str(exc))
    from lemmaforge.training.grpo import run_grpo

    overrides: dict[str, Any] = {}
    for key, value in (
        ("max_steps", max_steps),
        ("num_generations", num_generations),
        ("per_device_train_batch_size", batch_size),
        ("max_completion_length", max_completion_length),
        ("learning_rate", lr),
    ):
        if value is not None:
            overrides[key] = value
    if preset == "colocate":
        overrides["gpu_memory_utilization"] = gpu_memory_utilization
    if preset == "server":
        overrides["base_url"] = vllm_url
    try:
        with _quiet(as_json):
            metrics = run_grpo(
                m,
                tok,
                rows,
                factory,
                output,
                preset=preset,
                lora=lora,
                lora_r=lora_r,
                consistency_weight=consistency_weight,
                consistency_steps=consistency_steps,
                timeout=settings.verifier.timeout,
                audit_config=settings.audit,
                **overrides,
            )
    except VerifierError as exc:
        fail(f"verifier '{settings.verifier.backend}' unusable: {exc}")
    except ValueError as exc:
        fail(" ".join(str(exc).split())[:400])
    _report(metrics, as_json, "grpo")


@app.command()
def es(
    data: DataOpt,
    output: OutputOpt,
    model: ModelOpt = None,
    tiny: TinyOpt = False,
    iterations: Annotated[int, typer.Option("--iterations", min=1)] = 10,
    population: Annotated[int, typer.Option("--population", min=2)] = 30,
    sigma: Annotated[float, typer.Option("--sigma", min=0.0)] = 1e-3,
    alpha: Annotated[float, typer.Option("--alpha", min=0.0)] = 5e-4,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    problems: Annotated[int, typer.Option("--problems-per-iteration", min=1)] = 8,
    samples: Annotated[int, typer.Option("--samples", min=1, help="Proofs sampled per problem per member.")] = 4,
    max_new_tokens: Annotated[int, typer.Option("--max-new-tokens", min=1)] = 1024,
    resume: Annotated[bool, typer.Option("--resume", help="Continue from OUTPUT/es_history.json.")] = False,
    save_model: Annotated[bool, typer.Option("--save-model/--no-save-model")] = True,
    verifier: VerifierOpt = None,
    kimina_url: KiminaOpt = None,
    project: ProjectOpt = None,
    trust_dataset: TrustDatasetOpt = None,
    timeout: TimeoutOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Evolution Strategies: seeded weight perturbations scored by Lean-verified sampled proofs.
    The run is OUTPUT/es_history.json (base model + seeds + coefficients). `--resume` replays it
    onto the same --model (or --tiny on the same data) and continues with the history's own
    sigma, alpha, population and seed (the flags for those are then ignored)."""
    from lemmaforge.lean.verifier import VerifierError
    from lemmaforge.training.grpo import validate_grpo_rows

    history_path = output / "es_history.json"
    try:
        if sigma <= 0 or alpha <= 0:
            raise BadInput("--sigma and --alpha must be positive")
        rows = _validated(data, validate_grpo_rows)
        if resume and not history_path.is_file():
            raise BadInput(f"nothing to resume: {history_path} not found")
        factory, settings = _verifier_factory(config, verifier, kimina_url, project, timeout, trust_dataset=trust_dataset)
        _require_extra()
        m, tok, name = _load_model(model, tiny, rows)
    except BadInput as exc:
        fail(str(exc))
    from lemmaforge.training.es import (
        ESConfig,
        ESHistory,
        EvolutionStrategy,
        iteration_summary,
        make_lean_es_reward,
    )

    history = None
    if resume:
        try:
            history = ESHistory.load(history_path)
        except (ValueError, KeyError, TypeError) as exc:
            fail(f"{history_path}: {exc}")
    cfg = ESConfig(sigma=sigma, alpha=alpha, population=population, seed=seed) if history is None else None
    reward_fn, close = make_lean_es_reward(
        tok,
        rows,
        factory,
        problems_per_iteration=problems,
        samples_per_problem=samples,
        max_new_tokens=max_new_tokens,
        seed=seed,
        timeout=settings.verifier.timeout,
        audit_config=settings.audit,
    )
    summaries: list[dict[str, Any]] = []

    def progress(t: int, it: Any) -> None:
        s = {"iteration": t, **iteration_summary(it)}
        summaries.append(s)
        if not as_json:
            out.print(f"  iteration {t}: mean reward {s['mean_reward']}", highlight=False)

    try:
        try:
            strategy = EvolutionStrategy(m, reward_fn, cfg, history=history, base=name)
        except ValueError as exc:
            fail(str(exc))
        with _quiet(as_json):
            strategy.train(iterations, history_path=history_path, callback=progress)
    except VerifierError as exc:
        fail(f"verifier '{settings.verifier.backend}' unusable: {exc}")
    finally:
        close()
    if save_model:
        m.save_pretrained(output / "model")
        tok.save_pretrained(output / "model")
    metrics = {
        "output_dir": str(output),
        "history": str(history_path),
        "global_step": len(strategy.history.iterations),
        "iterations": summaries,
    }
    _report(metrics, as_json, "es")


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
    from lemmaforge.training.expert_iteration import (
        ExpertIteration,
        ExpertIterConfig,
        ExpertIterError,
        ServeError,
    )

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

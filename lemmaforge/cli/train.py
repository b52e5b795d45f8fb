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
`lemmaforge.training.expert` for the round, the store layout and how each new checkpoint
is served (`--prover-url hf://{model}` / `vllm://{model}`, or `--serve-cmd`).
"""


from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lemmaforge.cli.common import (
    BadInput,
    ConfigOpt,
    DbOpt,
    JsonOpt,
    KiminaOpt,
    ProjectOpt,
    VerifierOpt,
    fail,
    out,
    print_json,
)
from lemmaforge.cli.train_common import (
    DataOpt,
    ModelOpt,
    OutputOpt,
    TimeoutOpt,
    TinyOpt,
    TrustDatasetOpt,
    _absolute,
    _check_max_steps,
    _grpo_rows,
    _load_model,
    _open_store,
    _preflight,
    _quiet,
    _report,
    _require_extra,
    _settings,
    _store_metrics,
    _validated,
    _verifier_factory,
)
from lemmaforge.cli.train_es import es
from lemmaforge.errors import ExitCode
from lemmaforge.model_choice import model_help
from lemmaforge.training.sft import TrainingDataError
from lemmaforge.versions import training_versions

app = typer.Typer(
    name="train",
    help="Train provers on verified proofs: SFT, GRPO (Lean-verified rewards), Evolution Strategies, expert iteration.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
train_app = app


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
    run = TrainingRun.start(store, "sft", data=data, output=output, settings=settings, versions=training_versions(),
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

    model: Any = m
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
                            versions=training_versions(), rows=len(rows))
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


app.command("es")(es)


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
    prover_model: Annotated[str | None, typer.Option("--prover-model", help=model_help("prover"))] = None,
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
    db: DbOpt = None,
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
    from lemmaforge.training.expert import ExpertIteration, ExpertIterConfig, ExpertIterError, ServeError

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
        "versions": training_versions(),
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
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP (lemmaforge.cli.signals): the loop recorded it
        if loop is None:
            fail("interrupted before the expert iteration run started", ExitCode.INTERRUPTED)
        fail(f"interrupted: expert iteration run {loop.run_id} recorded as cancelled "
             f"(resume with --resume {loop.run_id})", ExitCode.INTERRUPTED)
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

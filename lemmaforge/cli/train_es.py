"""`lemmaforge train es`: Evolution Strategies on Lean-verified rewards, resumable from its history.

Registered on the `train` sub-app by `cli.train`; see `lemmaforge.training.es` for the algorithm.
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
    err,
    fail,
    out,
)
from lemmaforge.cli.train_common import (
    ModelOpt,
    OutputOpt,
    TimeoutOpt,
    TinyOpt,
    TrustDatasetOpt,
    _absolute,
    _grpo_rows,
    _load_model,
    _open_store,
    _preflight,
    _quiet,
    _report,
    _require_extra,
    _verifier_factory,
)
from lemmaforge.versions import training_versions

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
        store, "es", data=data, output=output, settings={**experiment, "device": target}, versions=training_versions(),
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

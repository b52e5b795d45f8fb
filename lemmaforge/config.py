"""One typed configuration, recorded with every run.

Precedence (lowest to highest): defaults < TOML file < environment < CLI flags.

- TOML file: `--config PATH`, else `$LEMMAFORGE_CONFIG`, else `./lemmaforge.toml` when present.
- Environment: `LEMMAFORGE_<SECTION>__<FIELD>`, e.g. `LEMMAFORGE_VERIFIER__BACKEND=kimina`,
  `LEMMAFORGE_DB_URL=postgresql://…`. `LEMMAFORGE_LEAN_PROJECT` is accepted as a short form of
  `LEMMAFORGE_VERIFIER__PROJECT`.
- CLI flags: passed to `load_config(overrides=…)` as a nested dict of the values the user set.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from lemmaforge.errors import InputError

DEFAULT_HOME = Path(os.environ.get("LEMMAFORGE_HOME", Path.home() / ".lemmaforge"))
DEFAULT_AXIOMS = ("propext", "Classical.choice", "Quot.sound")


class ConfigError(InputError, ValueError):
    """The configuration is invalid; the message says which key and why."""


#: RAM one REPL worker is sized at: `import Mathlib` alone holds ~6.5 GB resident, and a worker's
#: states grow until it is recycled (`max_checks_per_worker`); lean-interact's docs ask for > 8 GB
REPL_RAM_MB = 8192
#: RAM left to the system, the models' clients and lemmaforge itself when sizing workers
RAM_RESERVE_MB = 2048


def total_ram_mb() -> int:
    """The machine's physical memory in MB (POSIX sysconf; 0 where it cannot be read)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024))
    except (AttributeError, ValueError, OSError):  # not POSIX, or the names are unknown: sized by cores alone
        return 0


def default_workers(cpus: int | None = None, ram_mb: int | None = None) -> int:
    """REPL workers that fit the machine: one per core but one, and no more than fit in RAM at
    `REPL_RAM_MB` each (a 16-core, 64 GB machine: 7). At least 1."""
    cpus = (os.cpu_count() or 2) if cpus is None else cpus
    ram_mb = total_ram_mb() if ram_mb is None else ram_mb
    by_cores = max(1, cpus - 1)
    if ram_mb <= 0:
        return by_cores
    return max(1, min(by_cores, (ram_mb - RAM_RESERVE_MB) // REPL_RAM_MB))


class VerifierConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    backend: Literal["repl", "kimina", "lake"] = "repl"
    # A Lean project with Mathlib built (REPL and lake backends). None: lean-interact's temporary
    # Mathlib project for `lean_version` (made by `lemmaforge setup`).
    project: Path | None = None
    lean_version: str = "v4.19.0"
    repl_path: Path | None = None  # a prebuilt REPL checkout (skips lean-interact's build)
    lake_path: str = "lake"
    workers: int = Field(default_factory=default_workers, ge=1)  # REPL processes: cores − 1, as RAM allows
    memory_limit_mb: int | None = Field(default=16384, ge=1024)  # per REPL process (RLIMIT_AS)
    timeout: float = Field(default=120.0, gt=0)  # seconds per check
    header_timeout: float = Field(default=600.0, gt=0)  # first `import Mathlib` can be slow
    max_checks_per_worker: int = Field(default=2000, ge=1)  # REPL states are never freed: recycle
    # 8002: the prover (8000) and planner (8001) are served on the ports before it (README)
    kimina_url: str = "http://127.0.0.1:8002"
    kimina_api_key_env: str = "KIMINA_API_KEY"
    # Concurrent checks are coalesced into `/api/check` requests of up to `kimina_batch_size`
    # snippets, collected for at most `kimina_batch_window` seconds; at most `kimina_concurrency`
    # snippets are in flight at once: about twice the server's REPLs, so that its queue never runs
    # dry while a batch waits for its slowest snippet (default: a 64-REPL server).
    kimina_batch_size: int = Field(default=8, ge=1)
    kimina_batch_window: float = Field(default=0.005, ge=0)
    kimina_concurrency: int = Field(default=128, ge=1)
    # Checks are spread over about this many requests before two share one (lean/kimina_batcher.py):
    # a request answers when its slowest check does, so at light load (a run's end) batching only
    # delays each verdict. 1: plain coalescing. For a 64-REPL server: 64, its REPL count, so that no
    # check waits for a batch-mate while a REPL could take it (docs/performance.md, "Check queue").
    kimina_spread_requests: int = Field(default=1, ge=1)
    kimina_retries: int = Field(default=5, ge=1)  # HTTP tries per batch, the first included
    kimina_retry_wait: float = Field(default=1.0, ge=0)  # seconds before the first retry; doubles
    # How the server reports line numbers: "auto" probes once; "all" (current Kimina) shifts
    # messages and sorries back by the header; "messages" / "none" for older server versions.
    kimina_position_mode: Literal["auto", "all", "messages", "none"] = "auto"
    # Accept dataset rows / original files outside the dataset whitelist (lean/gate.py): instances,
    # axioms, options beyond the allowed list. Recorded with the run config like every setting.
    trust_dataset: bool = False
    # SafeVerify executable (repl / lake backends): the final audit asks Lean whether the proof
    # states the original (lean/safeverify.py). Built by `lemmaforge setup --safeverify`.
    safe_verify: Path | None = None
    # Run Lean (repl, lake backends) under bubblewrap: read-only allow-listed files, no network, no
    # home (lean/sandbox.py). False (`--no-sandbox`): Lean runs as the user; recorded with the run.
    sandbox: bool = True
    # Extra host paths visible read-only inside the sandbox (a toolchain outside ~/.elan, …).
    sandbox_paths: list[Path] = Field(default_factory=list)
    # Inside the sandbox: the size of /tmp (a tmpfs, the one writable place) and the most tasks
    # (processes and threads: Lean starts one thread per core) at once (docs/sandbox.md).
    sandbox_tmp_mb: int = Field(default=512, ge=16)
    sandbox_max_processes: int = Field(default=1024, ge=16)


class AuditConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    axioms: list[str] = Field(default_factory=lambda: list(DEFAULT_AXIOMS))
    allow_native_decide: bool = False  # admits Lean.ofReduceBool / Lean.trustCompiler


class LLMEndpoint(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # OpenAI-compatible base URL (http://localhost:8000/v1), or `vllm://MODEL` (offline vLLM, GPU)
    # or `hf://PATH` (transformers, small models on CPU).
    url: str | None = None
    model: str | None = None  # None: the first model the server lists
    backend: Literal["openai", "vllm", "transformers"] | None = None  # None: from the URL scheme
    # None: the prover preset's endpoint kind, else "chat"
    mode: Literal["chat", "completion"] | None = None
    # [prover] only: a model family's published prompt, sampling, correction and reader
    # (`lemmaforge presets` lists them). None: inferred from the served model's id.
    preset: str | None = None
    # [planner] only: a reasoning model (DeepSeek-R1 style: no system prompt, its own sampling,
    # a long max_tokens). None: inferred from the model's id.
    reasoning: bool | None = None
    native_n: bool = True  # False for servers that reject n > 1: n single requests instead
    # Stream a multi-sample request so that the search checks each sample as soon as it is
    # complete, while the others are still decoding. Off by default: a server streams an event per
    # token unless told otherwise (vLLM / SGLang `--stream-interval`), and each event costs this
    # client ~60 µs of its event loop — 8 samples of 443 tokens, ~0.2 s. Turn it on with the server
    # run with `--stream-interval 256` (a few events per sample).
    stream_samples: bool = False
    # Retries of a request that failed for a transient reason (connection, timeout, 408, 429, 5xx):
    # at most `retries`, waiting backoff·2^k (≤ backoff_max), and none after `retry_deadline`
    # seconds since the first try; then the endpoint is declared unavailable (fatal to the run).
    retries: int = Field(default=5, ge=0)
    backoff: float = Field(default=1.0, ge=0)
    backoff_max: float = Field(default=30.0, ge=0)
    retry_deadline: float = Field(default=120.0, gt=0)
    extra_body: dict[str, Any] = Field(default_factory=dict)  # server-specific sampling (top_k…)
    engine_kwargs: dict[str, Any] = Field(default_factory=dict)  # vLLM offline engine arguments
    api_key_env: str = "OPENAI_API_KEY"
    # None: the prover preset's value; else 1.0 / 0.95 / 8192 — except for a reasoning planner,
    # which gets the server's default temperature and top_p (none sent) and 32768 tokens.
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    # Requests in flight at once, each carrying up to `n` samples (a prover request asks for a goal's
    # samples together): size it in requests, not sequences. Requests ahead of need (`[search]
    # prefetch`) start only while fewer than half of it are out.
    concurrency: int = Field(default=16, ge=1)
    # Seconds one HTTP request may take. None: sized to the call's max_tokens (30 s + max_tokens / 25
    # tokens per second: about 6 minutes for 8192), so a hung endpoint costs minutes, not an hour.
    timeout: float | None = Field(default=None, gt=0)


class BudgetConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    llm_calls: int = Field(default=256, ge=1)
    prover_samples_per_goal: int = Field(default=8, ge=1)
    root_whole_proof_attempts: int = Field(default=8, ge=0)
    sketch_alternatives: int = Field(default=3, ge=1)
    sketch_corrections: int = Field(default=2, ge=0)
    self_corrections: int = Field(default=1, ge=0)
    max_depth: int = Field(default=3, ge=0)
    lean_checks: int = Field(default=2000, ge=1)
    wall_seconds: float = Field(default=3600.0, gt=0)


class SearchConfig(BaseModel):
    """How the engine searches (budgets are in `BudgetConfig`)."""

    model_config = ConfigDict(extra="forbid")

    # Automation tactics tried on every non-root goal, cheapest first; None: the built-in portfolio.
    portfolio: list[str] | None = None
    # "lemma": the portfolio as ONE check of the hole's standalone lemma (`first | … `), on any
    # worker; "proof_state": one tactic step per tactic on the hole's proof state, which pins them
    # all to the REPL worker holding that state (measured slower at scale: see docs/performance.md).
    automation: Literal["lemma", "proof_state"] = "lemma"
    tactic_timeout: float = Field(default=30.0, gt=0)  # seconds per tactic step (proof_state mode)
    # Prover samples per model request (`n`); 0: all of a goal's samples in one request.
    prover_samples_per_call: int = Field(default=0, ge=0)
    correction_samples: int = Field(default=2, ge=1)  # samples per self-correction request
    # A prover candidate's check goes at once while fewer than this many earlier candidates of its
    # race are unanswered; later ones wait until Lean has room (schedule/order.py). 1: a candidate
    # is checked beside an unanswered earlier one only when Lean has room; 2 spends Lean time on
    # candidates a won race did not need (docs/performance.md, "Check queue").
    race_window: int = Field(default=1, ge=1)
    # When the search's work runs (lemmaforge/schedule/; measurements in docs/performance.md,
    # "Speculation"). "off": each step when the one before it is done, nothing held or started
    # ahead. "prefetch": a goal's next model request starts before the step that needs it while
    # the endpoint has room, its answer's checks too while Lean has room; a prover's candidates are
    # checked as each sample completes; a sketch's assembly starts beside the check that would
    # complete it; checks are ordered by the search's progress (a later candidate or hole held
    # behind earlier ones). "full" (experimental): also the next alternative sketch beside the current one while
    # Lean and the planner have room. Work started ahead is charged to its budget when it is sent
    # (never the budget's last unit) and reported unused when it was not taken.
    speculation: Literal["off", "prefetch", "full"] = "prefetch"

    @model_validator(mode="before")
    @classmethod
    def _replaced_keys(cls, data: Any) -> Any:
        """`prefetch` and `parallel_alternatives` were replaced by `speculation`: refused with the
        new key's name rather than mapped, so that a config never means two things."""
        if isinstance(data, dict):
            for old in ("prefetch", "parallel_alternatives"):
                if old in data:
                    raise ValueError(
                        f"[search] {old} was replaced by [search] speculation = \"off\" | \"prefetch\" | \"full\""
                    )
        return data


class Settings(BaseModel):
    verifier: VerifierConfig = Field(default_factory=VerifierConfig)
    audit: AuditConfig = Field(default_factory=AuditConfig)
    planner: LLMEndpoint = Field(default_factory=LLMEndpoint)
    prover: LLMEndpoint = Field(default_factory=LLMEndpoint)
    budget: BudgetConfig = Field(default_factory=BudgetConfig)
    search: SearchConfig = Field(default_factory=SearchConfig)
    db_url: str = Field(default_factory=lambda: f"sqlite:///{DEFAULT_HOME / 'lemmaforge.db'}")

    model_config = ConfigDict(extra="forbid")

    @field_validator("db_url")
    @classmethod
    def _db_url_has_scheme(cls, v: str) -> str:
        if "://" not in v:
            raise ValueError("must be an SQLAlchemy URL such as sqlite:///path.db")
        return v

    def to_record(self) -> dict[str, Any]:
        """JSON-safe dump for the run record (secrets are never stored: only env var names)."""
        return self.model_dump(mode="json")


def _deep_merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def _env_layer(environ: dict[str, str]) -> dict[str, Any]:
    """The environment as a nested dict, so it can be merged between TOML and CLI."""
    layer: dict[str, Any] = {}
    for key, value in environ.items():
        if not key.startswith("LEMMAFORGE_"):
            continue
        rest = key[len("LEMMAFORGE_") :].lower()
        if rest in ("config", "home"):
            continue
        if rest == "lean_project":
            rest = "verifier__project"
        parts = rest.split("__")
        if parts[0] not in Settings.model_fields:
            continue  # other LEMMAFORGE_* variables (test switches…) are not config
        node = layer
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return layer


def find_config_file(explicit: Path | None = None, environ: dict[str, str] | None = None) -> Path | None:
    environ = dict(os.environ) if environ is None else environ
    if explicit is not None:
        return explicit
    if environ.get("LEMMAFORGE_CONFIG"):
        return Path(environ["LEMMAFORGE_CONFIG"])
    local = Path("lemmaforge.toml")
    return local if local.is_file() else None


def load_config(
    path: Path | None = None,
    overrides: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> Settings:
    """Defaults < TOML < environment < overrides (CLI flags). Raises ConfigError with one line."""
    environ = dict(os.environ) if environ is None else environ
    file = find_config_file(path, environ)
    data: dict[str, Any] = {}
    if file is not None:
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"config file not found: {file}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"config file {file} is not valid TOML: {exc}") from None
    data = _deep_merge(data, _env_layer(environ))
    data = _deep_merge(data, _drop_none(overrides or {}))
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"invalid config value for '{where}': {first['msg']}") from None


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if isinstance(v, dict):
            sub = _drop_none(v)
            if sub:
                out[k] = sub
        elif v is not None:
            out[k] = v
    return out

"""One typed configuration, recorded with every run.

Precedence (lowest to highest): defaults < TOML file < environment < CLI flags.

- TOML file: `--config PATH`, else `$LEMMAFORGE_CONFIG`, else `./lemmaforge.toml` when present.
- Environment: `LEMMAFORGE_<SECTION>__<FIELD>`, e.g. `LEMMAFORGE_VERIFIER__BACKEND=kimina`,
  `LEMMAFORGE_DB_URL=postgresql://…`, read by pydantic-settings (`Settings.model_config`: prefix,
  nested delimiter, names case-insensitive; lists and tables as JSON). `LEMMAFORGE_LEAN_PROJECT` is
  accepted as a short form of `LEMMAFORGE_VERIFIER__PROJECT`.
- CLI flags: passed to `load_config(overrides=…)` as a nested dict of the values the user set.

Every field says what it is in its `description`; docs/configuration.md is generated from them
(`scripts/gen_config_docs.py`, kept so by tests/test_config.py).
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
    TomlConfigSettingsSource,
)

from lemmaforge.errors import InputError

DEFAULT_HOME = Path(os.environ.get("LEMMAFORGE_HOME", Path.home() / ".lemmaforge"))
DEFAULT_AXIOMS = ("propext", "Classical.choice", "Quot.sound")
#: the prefix of every environment variable of the configuration
ENV_PREFIX = "LEMMAFORGE_"
#: short environment names: the short form is read when the long one is not set
ENV_SHORT_FORMS = {"LEMMAFORGE_LEAN_PROJECT": "LEMMAFORGE_VERIFIER__PROJECT"}


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
    """How Lean checks proofs: the backend, its workers and limits, and the sandbox it runs in."""

    model_config = ConfigDict(extra="forbid")

    backend: Literal["repl", "kimina", "lake"] = Field(
        default="repl",
        description=(
            "Which Lean checks proofs. `repl`: Lean REPL processes on this machine (lean-interact), "
            "`workers` of them, each importing Mathlib once and keeping it; `kimina`: a Kimina Lean server "
            "over HTTP (`kimina_url`), for many checks at once on a bigger machine; `lake`: one "
            "`lake env lean` process per check, which imports Mathlib every time (slow, but needs no REPL "
            "build). Default `repl`: it needs nothing but this machine."
        ),
    )
    project: Path | None = Field(
        default=None,
        description=(
            "A Lean project with Mathlib built, for the `repl` and `lake` backends. Unset: "
            "lean-interact's temporary Mathlib project for "
            "`lean_version`, made by `lemmaforge setup`. Set it to check against your own Mathlib, e.g. "
            "the version a benchmark was written for."
        ),
    )
    lean_version: str = Field(
        default="v4.19.0",
        description=(
            "The Lean release (and Mathlib tag of the same name) of the temporary project used when "
            "`project` is unset, and the one `lemmaforge setup` installs. Default `v4.19.0`: a recent "
            "Mathlib for your own theorems; benchmarks were written for others (miniF2F and ProverBench "
            "v4.9.0, PutnamBench v4.27.0; `bench` warns when the verifier's version differs)."
        ),
    )
    repl_path: Path | None = Field(
        default=None,
        description=(
            "A prebuilt Lean REPL checkout (its binary in `.lake/build/bin/repl`), so that lean-interact "
            "skips building one. Unset: lean-interact builds the REPL for the project's Lean version "
            "on first use."
        ),
    )
    lake_path: str = Field(
        default="lake",
        description=(
            "The `lake` executable that builds and runs the project: a path, or a name looked up on "
            "`PATH`, then in `~/.elan/bin` (where a fresh elan install puts it before `PATH` knows). "
            "Change it when the `lake` found first is not the one of the project's toolchain."
        ),
    )
    workers: int = Field(
        default_factory=default_workers, ge=1,
        json_schema_extra={"shown_default": "cores − 1, no more than fit in RAM at 8 GB each"},
        description=(
            "REPL processes checking at once (`repl` backend), and `lake` processes (`lake` backend). "
            "Each REPL worker holds Mathlib in memory (about 8 GB once it has worked a while), so the "
            "default is one per core but one, as RAM allows (`lemmaforge doctor` shows the fit). Lower "
            "it when other work shares the machine; a Kimina server sizes its own."
        ),
    )
    memory_limit_mb: int | None = Field(
        default=16384, ge=1024,
        description=(
            "Address-space limit of each Lean process (RLIMIT_AS), in MB: a check that blows up fails "
            "alone instead of taking the machine's memory. Default 16384: twice the 8 GB a worker is "
            "sized at. `None` (from Python only) removes the limit."
        ),
    )
    timeout: float = Field(
        default=120.0, gt=0,
        description=(
            "Seconds one Lean check may take; a longer one ends as a timeout and proves nothing. "
            "Default 120: generous for competition problems; raise it for "
            "heavy `simp`/`nlinarith` proofs, lower it to spend less Lean time on hopeless candidates."
        ),
    )
    header_timeout: float = Field(
        default=600.0, gt=0,
        description=(
            "Seconds a worker's first check may take, which imports the header (`import Mathlib`: "
            "minutes on a cold disk), and the statement check before a run. Default 600."
        ),
    )
    max_checks_per_worker: int = Field(
        default=2000, ge=1,
        description=(
            "Checks a REPL worker answers before it is replaced by a fresh one: the REPL never frees "
            "its environments, so a worker grows with every check. Lower it if workers run out of "
            "memory; each replacement costs one header import."
        ),
    )
    kimina_url: str = Field(
        default="http://127.0.0.1:8002",
        description=(
            "Base URL of the Kimina Lean server (`kimina` backend). Default port 8002: the prover (8000) "
            "and planner (8001) are served on the ports before it (README)."
        ),
    )
    kimina_api_key_env: str = Field(
        default="KIMINA_API_KEY",
        description=(
            "Name of the environment variable holding the Kimina server's API key (else "
            "`LEAN_SERVER_API_KEY`, the server's own). Only the name is recorded with a run, never "
            "the key."
        ),
    )
    kimina_batch_size: int = Field(
        default=8, ge=1,
        description=(
            "Most snippets in one `/api/check` request: concurrent checks are coalesced into requests "
            "of up to this many. A request answers when its slowest snippet does, so larger batches "
            "save HTTP round trips at the cost of waiting."
        ),
    )
    kimina_batch_window: float = Field(
        default=0.005, ge=0,
        description=(
            "Seconds a check waits for others to travel in its batch before the batch is sent. "
            "0: send at once with whatever is waiting."
        ),
    )
    kimina_concurrency: int = Field(
        default=128, ge=1,
        description=(
            "Most snippets in flight to the server at once. Default 128: about twice the REPLs of a "
            "64-REPL server, so that its queue never runs dry while a batch waits for its slowest "
            "snippet; size it to twice your server's REPLs."
        ),
    )
    kimina_spread_requests: int = Field(
        default=1, ge=1,
        description=(
            "Checks are spread over about this many requests before two share one "
            "(lean/kimina/_batcher.py): a request answers when its slowest check does, so at light load "
            "(a run's end) batching only delays each verdict. 1: plain coalescing. For a 64-REPL "
            "server: 64, its REPL count, so that no check waits for a batch-mate while a REPL could "
            "take it (docs/performance.md, \"Check queue\")."
        ),
    )
    kimina_retries: int = Field(
        default=5, ge=1,
        description=(
            "HTTP tries of one batch, the first included, on connection errors, 429 and 5xx. After the "
            "last, the verifier is declared unavailable (an infrastructure failure, never a wrong proof)."
        ),
    )
    kimina_retry_wait: float = Field(
        default=1.0, ge=0,
        description="Seconds before the first retry of a batch; the wait doubles with each retry.",
    )
    kimina_position_mode: Literal["auto", "all", "messages", "none"] = Field(
        default="auto",
        description=(
            "How the server reports line numbers of a checked file. `auto`: probe the server once; "
            "`all` (current Kimina): it shifts messages and sorries back by the header; `messages` / "
            "`none`: older server versions. Set it to skip the probe when you know the server's "
            "version."
        ),
    )
    trust_dataset: bool = Field(
        default=False,
        description=(
            "Accept dataset rows and original files outside the dataset whitelist (lean/gate/): "
            "instances, axioms, options beyond the allowed list. Off: such a row is refused before "
            "Lean sees it. Turn it on only for a dataset you have read; it is recorded with the run."
        ),
    )
    safe_verify: Path | None = Field(
        default=None,
        description=(
            "The SafeVerify executable (`repl` and `lake` backends): the final audit asks Lean whether "
            "the proof states the original theorem (lean/safeverify.py). Built by "
            "`lemmaforge setup --safeverify`. Unset: that comparison is skipped; the text-level "
            "statement check and the axiom audit still run."
        ),
    )
    sandbox: bool = Field(
        default=True,
        description=(
            "Run Lean (`repl`, `lake` backends, SafeVerify) under bubblewrap: read-only allow-listed "
            "files, no network, no home (lean/sandbox.py, docs/sandbox.md). False (`--no-sandbox`): "
            "Lean runs as the user, for machines without bubblewrap; recorded with the run."
        ),
    )
    sandbox_paths: list[Path] = Field(
        default_factory=list,
        description=(
            "Extra host paths visible read-only inside the sandbox, e.g. a toolchain outside "
            "`~/.elan`. From the environment as a JSON list: "
            "`LEMMAFORGE_VERIFIER__SANDBOX_PATHS='[\"/opt/lean\"]'`."
        ),
    )
    sandbox_tmp_mb: int = Field(
        default=512, ge=16,
        description=(
            "Size in MB of `/tmp` inside the sandbox, a tmpfs and the one writable place. Raise it if "
            "Lean or a tactic writes large temporary files."
        ),
    )
    sandbox_max_processes: int = Field(
        default=1024, ge=16,
        description=(
            "Most tasks (processes and threads) inside the sandbox at once: Lean starts one thread per "
            "core, so raise it on machines with many hundreds of cores (docs/sandbox.md)."
        ),
    )


class AuditConfig(BaseModel):
    """What the final audit accepts in a proof's axioms."""

    model_config = ConfigDict(extra="forbid")

    axioms: list[str] = Field(
        default_factory=lambda: list(DEFAULT_AXIOMS),
        description=(
            "Axioms a proof may depend on (`#print axioms`). Default: Lean's standard three, "
            "`propext`, `Classical.choice`, `Quot.sound`, which classical mathematics uses. Adding one "
            "lets through proofs that rely on it; `sorryAx` is never accepted."
        ),
    )
    allow_native_decide: bool = Field(
        default=False,
        description=(
            "Accept proofs by `native_decide`, which trust the compiler (the axioms "
            "`Lean.ofReduceBool` / `Lean.trustCompiler`). Off: most benchmarks do not count them "
            "(`--allow-native-decide` on `prove`)."
        ),
    )


class LLMEndpoint(BaseModel):
    """One model endpoint (`[prover]` or `[planner]`): where it is served, how it is asked, and
    how its requests are retried."""

    model_config = ConfigDict(extra="forbid")

    url: str | None = Field(
        default=None,
        description=(
            "Where the model is served: an OpenAI-compatible base URL (`http://localhost:8000/v1`), "
            "`vllm://MODEL` (offline vLLM in this process, GPU) or `hf://PATH` (transformers, small "
            "models on CPU). Unset: the role is not used (no planner: no sketches)."
        ),
    )
    model: str | None = Field(
        default=None,
        description=(
            "The served model's id (`--prover-model` / `--planner-model`). With no model named, a role "
            "uses the only model its server lists; a server that lists several stops the command with "
            "exit 2 until one is named. Name it when a server serves several (a base model and its "
            "LoRA adapters, say)."
        ),
    )
    backend: Literal["openai", "vllm", "transformers"] | None = Field(
        default=None,
        description="The client library. Unset: from the URL's scheme (`http(s)` → openai, `vllm://`, `hf://`).",
    )
    mode: Literal["chat", "completion"] | None = Field(
        default=None,
        description=(
            "Chat messages or a raw completion prompt. Unset: the prover preset's endpoint kind "
            "(DeepSeek-Prover-V1.5 is a completion model), else `chat`."
        ),
    )
    preset: str | None = Field(
        default=None,
        description=(
            "`[prover]` only: a model family's published prompt, sampling, correction and answer "
            "reader (`lemmaforge presets` lists them). Unset: inferred from the served model's id; "
            "name one for a fine-tuned model whose id does not say its family."
        ),
    )
    reasoning: bool | None = Field(
        default=None,
        description=(
            "`[planner]` only: a reasoning model (DeepSeek-R1 style: no system prompt, its own "
            "sampling, a long `max_tokens`). Unset: inferred from the model's id."
        ),
    )
    native_n: bool = Field(
        default=True,
        description=(
            "Ask for several samples in one request (`n`). False for servers that reject or ignore "
            "`n > 1`: a call then fans out into `n` concurrent requests of one sample each."
        ),
    )
    stream_samples: bool = Field(
        default=False,
        description=(
            "Stream a multi-sample request so that each sample is checked as soon as it is complete, "
            "while the others are still decoding. Off by default: a server streams an event per token "
            "unless told otherwise (vLLM / SGLang `--stream-interval`), and each event costs this "
            "client ~60 µs of its event loop (8 samples of 443 tokens: ~0.2 s). Turn it on with the "
            "server run with `--stream-interval 256` (a few events per sample)."
        ),
    )
    retries: int = Field(
        default=5, ge=0,
        description=(
            "Retries of a request that failed for a transient reason (connection, timeout, 408, 429, "
            "5xx); after them, or after `retry_deadline`, the endpoint is declared unavailable, which "
            "stops the run (an infrastructure failure, never counted as the model's)."
        ),
    )
    backoff: float = Field(
        default=1.0, ge=0,
        description="Seconds before the first retry; the wait doubles with each retry, up to `backoff_max`.",
    )
    backoff_max: float = Field(
        default=30.0, ge=0,
        description="Longest wait between retries, in seconds (a server's `Retry-After` is capped by it too).",
    )
    retry_deadline: float = Field(
        default=120.0, gt=0,
        description=(
            "Seconds after a request's first try past which no retry starts. Default 120: a server "
            "restarting comes back within it; raise it for endpoints that scale from zero."
        ),
    )
    extra_body: dict[str, Any] = Field(
        default_factory=dict,
        description=(
            "Server-specific fields added to every request's body (`top_k`, `min_p`, "
            "`repetition_penalty` …). From the environment as a JSON object: "
            "`LEMMAFORGE_PROVER__EXTRA_BODY='{\"top_k\": 20}'`."
        ),
    )
    engine_kwargs: dict[str, Any] = Field(
        default_factory=dict,
        description=(
            "Arguments of the offline vLLM engine (`vllm://` URLs), e.g. "
            "`{\"gpu_memory_utilization\": 0.85, \"max_model_len\": 16384}`; JSON from the environment."
        ),
    )
    api_key_env: str = Field(
        default="OPENAI_API_KEY",
        description=(
            "Name of the environment variable holding the endpoint's API key (a local server takes "
            "any). Only the name is recorded with a run, never the key."
        ),
    )
    temperature: float | None = Field(
        default=None,
        description=(
            "Sampling temperature. Unset: the prover preset's value, else 1.0 — except for a "
            "reasoning planner, which gets the server's default (none is sent)."
        ),
    )
    top_p: float | None = Field(
        default=None,
        description=(
            "Nucleus sampling's `top_p`. Unset: the prover preset's value, else 0.95 — except for a "
            "reasoning planner, which gets the server's default (none is sent)."
        ),
    )
    max_tokens: int | None = Field(
        default=None, ge=1,
        description=(
            "Most tokens one sample may generate. Unset: the prover preset's value, else 8192 (32768 "
            "for a reasoning planner, whose thinking comes first). It also sizes the request's "
            "default `timeout`."
        ),
    )
    concurrency: int = Field(
        default=16, ge=1,
        description=(
            "Requests in flight to this endpoint at once, each carrying up to `n` samples (a prover "
            "request asks for a goal's samples together): size it in requests, not sequences. "
            "Requests ahead of need (`[search] speculation`) start only while fewer than half of it "
            "are out."
        ),
    )
    timeout: float | None = Field(
        default=None, gt=0,
        description=(
            "Seconds one HTTP request may take. Unset: sized to the call's `max_tokens` (30 s + "
            "`max_tokens` / 25 tokens per second: about 6 minutes for 8192), so that a hung endpoint "
            "costs minutes, not an hour."
        ),
    )


class BudgetConfig(BaseModel):
    """What one proof attempt may spend (docs/budgets.md). `--budget KEY=VALUE` sets any of them
    for one command."""

    model_config = ConfigDict(extra="forbid")

    llm_calls: int = Field(
        default=256, ge=1,
        description=(
            "Most model requests a run sends (planner and prover; one request is one unit whatever "
            "its `n`). The run stops with `llm_calls budget exhausted` at the cap."
        ),
    )
    prover_samples_per_goal: int = Field(
        default=8, ge=1,
        description=(
            "Prover samples (whole proofs) asked for each subgoal before the planner sketches it; "
            "how many go in one request is `[search] prover_samples_per_call`."
        ),
    )
    root_whole_proof_attempts: int = Field(
        default=8, ge=0,
        description=(
            "Prover samples asked for the theorem itself before it is decomposed. 0: decompose at "
            "once (the planner's sketch first)."
        ),
    )
    sketch_alternatives: int = Field(
        default=3, ge=1,
        description=(
            "Sketches the planner drafts for one goal, one after another, each asked to differ from "
            "the earlier ones; the first that closes the goal wins."
        ),
    )
    sketch_corrections: int = Field(
        default=2, ge=0,
        description="Rounds of correcting a sketch from Lean's errors before the next alternative is drafted.",
    )
    self_corrections: int = Field(
        default=1, ge=0,
        description=(
            "Rounds of asking the prover to correct its failed candidate from Lean's errors. A preset "
            "whose family was not trained to correct gets none."
        ),
    )
    max_depth: int = Field(
        default=3, ge=0,
        description=(
            "Most levels of decomposition: a goal at this depth gets automation and the prover but "
            "no sketch. 0: no decomposition (whole-proof generation only)."
        ),
    )
    lean_checks: int = Field(
        default=2000, ge=1,
        description=(
            "Most Lean requests a run sends: candidate and sketch checks, automation, lemma "
            "building, the final audit and the statement check."
        ),
    )
    wall_seconds: float = Field(
        default=3600.0, gt=0,
        description="Wall-clock seconds a run may take; then it stops with `wall time budget exhausted`.",
    )


class SearchConfig(BaseModel):
    """How the engine searches: automation, sampling and when work runs (budgets are in
    `[budget]`)."""

    model_config = ConfigDict(extra="forbid")

    portfolio: list[str] | None = Field(
        default=None,
        description=(
            "Automation tactics tried on every goal below the root before the prover, cheapest "
            "first, e.g. `[\"omega\", \"norm_num\", \"linarith\"]`. Unset: the built-in portfolio; `[]`: "
            "no automation. From the environment as a JSON list."
        ),
    )
    automation: Literal["lemma", "proof_state"] = Field(
        default="lemma",
        description=(
            "How the portfolio is tried. `lemma`: as ONE check of the hole's standalone lemma "
            "(`first | … `), on any worker; `proof_state`: one tactic step per tactic on the hole's "
            "proof state, which pins them all to the REPL worker holding that state (measured slower "
            "at scale: docs/performance.md)."
        ),
    )
    tactic_timeout: float = Field(
        default=30.0, gt=0,
        description="Seconds one tactic step may take (`automation = \"proof_state\"` only).",
    )
    prover_samples_per_call: int = Field(
        default=0, ge=0,
        description=(
            "Prover samples per model request (`n`). 0: all of a goal's samples in one request. "
            "Smaller requests spread a goal's samples over the endpoint's `concurrency` and let "
            "checking start sooner, at the cost of more requests against `llm_calls`."
        ),
    )
    correction_samples: int = Field(
        default=2, ge=1,
        description="Samples asked in one self-correction request (`[budget] self_corrections` rounds).",
    )
    race_window: int = Field(
        default=1, ge=1,
        description=(
            "A prover candidate's check goes at once while fewer than this many earlier candidates "
            "of its race are unanswered; later ones wait until Lean has room (the schedule orders "
            "them). 1: a candidate is checked beside an unanswered earlier one only when Lean has "
            "room; 2 spends Lean time on candidates a won race did not need (docs/performance.md, "
            "\"Check queue\")."
        ),
    )
    speculation: Literal["off", "prefetch", "full"] = Field(
        default="prefetch",
        description=(
            "When the search's work runs (lemmaforge/schedule/; measurements in docs/performance.md, "
            "\"Speculation\"). `off`: each step when the one before it is done, nothing held or started "
            "ahead: the most proofs per model call. `prefetch`: a goal's next model request starts "
            "before the step that needs it while the endpoint has room, its answer's checks too while "
            "Lean has room; a prover's candidates are checked as each sample completes; a sketch's "
            "assembly starts beside the check that would complete it; checks are ordered by the "
            "search's progress. It finishes a Lean-bound run about a fifth sooner. `full` "
            "(experimental): also the next alternative sketch beside the current one while Lean and "
            "the planner have room. Work started ahead is charged to its budget when it is sent "
            "(never the budget's last unit) and reported unused when it was not taken. Replaces "
            "`prefetch` / `parallel_alternatives`."
        ),
    )

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


class Settings(BaseSettings):
    """Everything a command is configured by: one section per concern, and the store's URL.

    `Settings(...)` in code holds what it is given (and the defaults); `load_config` reads the TOML
    file and the environment (pydantic-settings' sources, configured by `model_config`)."""

    verifier: VerifierConfig = Field(
        default_factory=VerifierConfig,
        description="How Lean checks proofs: the backend, its workers and limits, and the sandbox it runs in.",
    )
    audit: AuditConfig = Field(
        default_factory=AuditConfig,
        description="What the final audit accepts in a proof's axioms (docs/soundness.md).",
    )
    planner: LLMEndpoint = Field(
        default_factory=LLMEndpoint,
        description=(
            "The model that sketches a proof as `have … := by sorry` steps (a general or reasoning "
            "model). Without it the search generates whole proofs only."
        ),
    )
    prover: LLMEndpoint = Field(
        default_factory=LLMEndpoint,
        description="The model that writes whole proofs of the theorem and of each sketch's holes.",
    )
    budget: BudgetConfig = Field(
        default_factory=BudgetConfig,
        description=(
            "What one proof attempt may spend (docs/budgets.md); `--budget KEY=VALUE` sets any of "
            "them for one command."
        ),
    )
    search: SearchConfig = Field(
        default_factory=SearchConfig,
        description="How the engine searches: automation, sampling, and when work runs.",
    )
    db_url: str = Field(
        default_factory=lambda: f"sqlite:///{DEFAULT_HOME / 'lemmaforge.db'}",
        json_schema_extra={
            "shown_default": "`sqlite:///<home>/lemmaforge.db`, home `$LEMMAFORGE_HOME` else `~/.lemmaforge`"
        },
        description=(
            "Where runs, attempts and proofs are stored: an SQLAlchemy URL. Default: an SQLite file in "
            "lemmaforge's home, enough for one machine; `postgresql+psycopg://…` (the `postgres` "
            "extra) for several machines writing at once (docs/database.md). `--db` sets it for one "
            "command."
        ),
    )

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", case_sensitive=False, extra="forbid",
    )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only what `Settings(...)` is given: a `Settings` made in code (the engine's default, a
        benchmark worker's copy, a test) must not pick up the caller's environment. Unlike
        kimina-lean-server's `Settings()` (server/settings.py), which reads its environment itself,
        here the file and the environment are read by `load_config`, the one door that can say
        which of them set a bad key."""
        return (init_settings,)

    @field_validator("db_url")
    @classmethod
    def _db_url_has_scheme(cls, v: str) -> str:
        if "://" not in v:
            raise ValueError("must be an SQLAlchemy URL such as sqlite:///path.db")
        return v

    def to_record(self) -> dict[str, Any]:
        """JSON-safe dump for the run record (secrets are never stored: only env var names)."""
        return self.model_dump(mode="json")


#: the sections of the configuration file, and its top-level keys
SECTIONS: dict[str, type[BaseModel]] = {
    name: field.annotation for name, field in Settings.model_fields.items()
    if isinstance(field.annotation, type) and issubclass(field.annotation, BaseModel)
}
TOP_LEVEL_KEYS = tuple(name for name in Settings.model_fields if name not in SECTIONS)
#: how a list or table is written in an environment variable (pydantic-settings decodes it as JSON)
JSON_EXAMPLE = "lists and tables are JSON in the environment, e.g. '[\"/opt/lean\"]' or '{\"top_k\": 20}'"


class EnvironmentSource(EnvSettingsSource):
    """pydantic-settings' environment source, over a given mapping (`load_config(environ=…)`).

    Names, prefix and JSON decoding are pydantic-settings' (`Settings.model_config`). Added here:
    the short forms (`ENV_SHORT_FORMS`), and a `LEMMAFORGE_<A>__<B>` variable whose section `<a>`
    does not exist is kept, for validation to refuse it naming the variable (pydantic-settings
    reads only the fields it knows): the double underscore says it was meant as configuration.
    Other `LEMMAFORGE_*` variables (`LEMMAFORGE_HOME`, `LEMMAFORGE_CONFIG`, test switches…) are not
    configuration."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.environ = {name: value for name, value in environ.items() if name.upper().startswith(ENV_PREFIX)}
        super().__init__(Settings)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        """The variables, by lower-case name (`case_sensitive=False`), short forms expanded. The one
        private pydantic-settings hook overridden (its own reads `os.environ`); tests/test_config.py
        pins that this one is read instead."""
        env: dict[str, str | None] = {name.lower(): value for name, value in self.environ.items()}
        for short, long in ENV_SHORT_FORMS.items():
            if short.lower() in env:
                env.setdefault(long.lower(), env[short.lower()])
        return env

    def variables(self) -> dict[tuple[str, ...], str]:
        """The variable that set each key, by the key's path (`("verifier", "timeout")`), for
        error messages. A short form counts where its long form is not set."""
        given = {name.upper() for name in self.environ}
        out: dict[tuple[str, ...], str] = {}
        for name in self.environ:
            long = ENV_SHORT_FORMS.get(name.upper(), name.upper())
            if long != name.upper() and long in given:
                continue  # the long form is set: it wins
            path = tuple(long[len(ENV_PREFIX):].lower().split("__"))
            if path[0] in Settings.model_fields or len(path) > 1:
                out[path] = name
        return out

    def decode_complex_value(self, field_name: str, field: FieldInfo, value: Any) -> Any:
        try:
            return super().decode_complex_value(field_name, field, value)
        except ValueError:  # a ConfigError is a ValueError too: where pydantic-settings may pass the
            # raw text on (an optional list…), it still does, and validation then names the key
            found = [(path, name) for path, name in self.variables().items()
                     if self.environ[name] == value and path[-1] == field_name.lower()]
            key, where = field_name, "the environment"
            if found:
                key, where = ".".join(found[0][0]), f"environment variable {found[0][1]}"
            raise ConfigError(f"invalid config value for '{key}' in {where}: not valid JSON ({JSON_EXAMPLE})") from None

    def __call__(self) -> dict[str, Any]:
        try:
            data = super().__call__()
        except SettingsError as exc:
            if isinstance(exc.__cause__, ConfigError):
                raise exc.__cause__ from None
            raise ConfigError(f"the environment: {exc}") from None
        prefix = ENV_PREFIX.lower()
        for name, value in self.environ.items():
            head, nested, rest = name[len(prefix):].lower().partition("__")
            if not nested or head in SECTIONS:
                continue  # a top-level key, or a section's: pydantic-settings read it
            if head in Settings.model_fields:
                raise ConfigError(f"environment variable {name}: '{head}' is a key, not a section "
                                  f"(set {ENV_PREFIX}{head.upper()})")
            node = data.setdefault(head, {})
            *parts, last = rest.split("__")
            for part in parts:
                node = node.setdefault(part, {})
            node[last] = value
        return data


def _deep_merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def nearest(word: str, choices: Any) -> str | None:
    """The valid name closest to `word` (difflib), if any is close enough to be a typo."""
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return found[0] if found else None


def _has(layer: dict[str, Any], loc: tuple[str, ...]) -> bool:
    node: Any = layer
    for part in loc:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _describe_error(
    error: Any, file: Path | None, file_data: dict[str, Any], env_names: dict[tuple[str, ...], str],
    overrides: dict[str, Any],
) -> str:
    """One line for pydantic's first error: where the key was set (the highest layer that sets
    it: options, then the environment, then the file), which key, and for a key or section that
    does not exist, the nearest valid one."""
    loc = tuple(str(p) for p in error["loc"])
    # the variable that set the key, a key under it (an unknown section), or the list or table holding it
    env_var = next((name for path, name in env_names.items()
                    if path[: len(loc)] == loc or loc[: len(path)] == path), None)
    if loc and _has(overrides, loc):
        where = "the command-line options"
    elif env_var is not None:
        where = f"environment variable {env_var}"
    elif file is not None and _has(file_data, loc):
        where = f"config file {file}"
    else:
        where = "the configuration"
    dotted = ".".join(loc)
    if error["type"] == "extra_forbidden" and len(loc) == 1:
        name = loc[0]
        if isinstance(error.get("input"), dict) or name not in TOP_LEVEL_KEYS:
            guess = nearest(name, SECTIONS) or nearest(name, TOP_LEVEL_KEYS)
            if guess in SECTIONS:
                hint = f"did you mean [{guess}]?"
            elif guess is not None:
                hint = f"did you mean '{guess}'?"
            else:
                hint = "sections: " + ", ".join(SECTIONS) + "; top-level keys: " + ", ".join(TOP_LEVEL_KEYS)
            if env_var is not None and guess is not None:
                hint += f" set {ENV_PREFIX}{guess.upper()}{env_var[len(ENV_PREFIX) + len(name):]}"
            kind = "section" if isinstance(error.get("input"), dict) or env_var is not None else "key"
            shown = f"[{name}]" if kind == "section" else f"'{name}'"
            return f"unknown {kind} {shown} in {where} ({hint})"
    if error["type"] == "extra_forbidden" and len(loc) == 2 and loc[0] in SECTIONS:
        section, name = loc
        guess = nearest(name, SECTIONS[section].model_fields)
        hint = (f"did you mean '{section}.{guess}'?" if guess is not None
                else f"[{section}] keys: " + ", ".join(SECTIONS[section].model_fields))
        if env_var is not None and guess is not None:
            hint += f" set {ENV_PREFIX}{section.upper()}__{guess.upper()}"
        return f"unknown key '{dotted}' in {where} ({hint})"
    message = str(error["msg"]).removeprefix("Value error, ")
    if env_var is not None and error["type"] in ("list_type", "dict_type", "model_type"):
        message += f" ({JSON_EXAMPLE})"
    return f"invalid config value for '{dotted}' in {where}: {message}"


def find_config_file(explicit: Path | None = None, environ: Mapping[str, str] | None = None) -> Path | None:
    environ = os.environ if environ is None else environ
    if explicit is not None:
        return explicit
    if environ.get("LEMMAFORGE_CONFIG"):
        return Path(environ["LEMMAFORGE_CONFIG"])
    local = Path("lemmaforge.toml")
    return local if local.is_file() else None


def _file_layer(file: Path) -> dict[str, Any]:
    """The TOML file's values (pydantic-settings' TOML source), or ConfigError saying why not."""
    if not file.exists():
        raise ConfigError(f"config file not found: {file}")
    if not file.is_file():
        raise ConfigError(f"config file {file} is not a file")
    try:
        return TomlConfigSettingsSource(Settings, toml_file=file)()
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {file} is not valid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"config file {file} cannot be read: {exc.strerror or exc}") from None


def load_config(
    path: Path | None = None,
    overrides: dict[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Defaults < TOML < environment < overrides (CLI flags). Raises ConfigError with one line."""
    environ = os.environ if environ is None else environ
    file = find_config_file(path, environ)
    file_data = _file_layer(file) if file is not None else {}
    env = EnvironmentSource(environ)
    env_data = env()
    given = _drop_none(overrides or {})
    data = _deep_merge(_deep_merge(file_data, env_data), given)
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe_error(exc.errors()[0], file, file_data, env.variables(), given)) from None


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

"""The recipe of one expert-iteration loop (`ExpertIterConfig`) and the loop's input error."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from lemmaforge.errors import InputError


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


__all__ = ["CONNECTION_FIELDS", "ExpertIterConfig", "ExpertIterError"]

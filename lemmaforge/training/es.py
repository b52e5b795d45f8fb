"""Evolution Strategies fine-tuning (arXiv 2509.24372; the Modal / AE Studio theorem-proving case
study), with exactly reproducible weights. Not a TRL algorithm, so the loop is ours.

One iteration t, with population N, noise scale σ and step size α:

1. the iteration seed s_t = derive_seed(config.seed, t); member i has seed m_i = derive_seed(s_t, i);
   its noise for parameter k (in `named_parameters()` order) is ε_ik = randn(shape) drawn from a
   CPU generator seeded with derive_seed(m_i, k): every parameter gets its own stream, so
   same-shaped tensors do NOT share noise (the reference code's "partially correlated noise");
2. member i is evaluated on θ + σ·ε_i, written into the working model from the CLEAN live copy θ
   (kept on the CPU, never modified in place). Perturb-then-restore in place drifts: in bf16, 30
   cycles at σ=1e-3 moved weights by up to 0.0078, more than σ itself;
3. rewards are z-scored over the population (members whose reward is None or NaN get z=0), and
   θ ← θ + Σ_i c_i·ε_i with c_i = (α/N)·z_i (σ folded into α, as in the reference), computed per
   parameter in float32 in member order, then cast back to the parameter's dtype.

The model's state is therefore the base weights plus the history [(s_t, [c_i])], a few hundred
bytes per iteration as JSON (floats round-trip exactly), and `replay(base_state, history)`
recomputes the live weights bitwise (same ops, same order, same dtype casts, CPU noise).

The reward callable `reward_fn(model, iteration) -> float | None` scores the working model;
`make_lean_es_reward` builds the product one: sample proofs for a fixed batch of problems per
iteration (the same problems and sampling seed for every member: common random numbers) and
return the mean Lean reward.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch

HISTORY_FORMAT = "lemmaforge-es-history/1"
RewardFn = Callable[[Any, int], "float | None"]


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from integers, stable across platforms and Python versions."""
    data = ":".join(str(int(p)) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big") & ((1 << 63) - 1)


def param_noise(shape: torch.Size | Sequence[int], seed: int) -> torch.Tensor:
    """Standard normal noise of `shape`, float32, from a CPU generator (device-independent)."""
    gen = torch.Generator(device="cpu")
    gen.manual_seed(int(seed))
    return torch.randn(tuple(shape), generator=gen, dtype=torch.float32)


def es_parameters(model: Any) -> Iterator[tuple[str, torch.nn.Parameter]]:
    """The parameters ES perturbs: every floating-point parameter, in `named_parameters()` order
    (tied weights once)."""
    for name, p in model.named_parameters():
        if p.is_floating_point():
            yield name, p


def es_state(model: Any) -> dict[str, torch.Tensor]:
    """A CPU copy of the perturbable weights (the clean copy ES keeps)."""
    return {name: p.detach().to("cpu", copy=True) for name, p in es_parameters(model)}


def state_digest(state: dict[str, torch.Tensor]) -> str:
    """Hash of the parameter names, shapes and dtypes (not values): a history only applies to a
    model with the same layout."""
    h = hashlib.sha256()
    for name, t in state.items():
        h.update(f"{name}:{tuple(t.shape)}:{t.dtype};".encode())
    return h.hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class ESIteration:
    seed: int  # the iteration seed s_t
    coefficients: tuple[float, ...]  # c_i = (α/N)·z_i, one per member
    rewards: tuple[float | None, ...] = ()  # raw member rewards, for the record only

    def member_seed(self, i: int) -> int:
        return derive_seed(self.seed, i)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "coefficients": list(self.coefficients), "rewards": list(self.rewards)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> ESIteration:
        return cls(
            seed=int(obj["seed"]),
            coefficients=tuple(float(c) for c in obj["coefficients"]),
            rewards=tuple(None if r is None else float(r) for r in obj.get("rewards", ())),
        )


@dataclass
class ESConfig:
    sigma: float = 1e-3  # noise scale of the evaluated perturbations
    alpha: float = 5e-4  # step size (σ folded in)
    population: int = 30
    seed: int = 0  # master seed: s_t = derive_seed(seed, t)

    def __post_init__(self) -> None:
        if self.population < 2:
            raise ValueError("the population needs at least 2 members")
        if not (self.sigma > 0 and self.alpha > 0):
            raise ValueError("sigma and alpha must be positive")


@dataclass
class ESHistory:
    """Everything needed, with the base weights, to rebuild the live weights."""

    config: ESConfig = field(default_factory=ESConfig)
    iterations: list[ESIteration] = field(default_factory=list)
    digest: str | None = None  # state_digest of the base weights
    base: str | None = None  # where the base weights come from (a model path), informational
    # the rest of the experiment (data and its hash, model, problems per iteration, samples,
    # max new tokens, target iterations…): what `train es --resume` restores and checks flags against
    settings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": HISTORY_FORMAT,
            "config": asdict(self.config),
            "digest": self.digest,
            "base": self.base,
            "settings": self.settings,
            "iterations": [it.to_json() for it in self.iterations],
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> ESHistory:
        if obj.get("format") != HISTORY_FORMAT:
            raise ValueError(f"not an ES history (format {obj.get('format')!r}, expected {HISTORY_FORMAT!r})")
        return cls(
            config=ESConfig(**obj["config"]),
            iterations=[ESIteration.from_json(it) for it in obj.get("iterations", [])],
            digest=obj.get("digest"),
            base=obj.get("base"),
            settings=dict(obj.get("settings") or {}),
        )

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, path: str | Path) -> ESHistory:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


# --- the pure functions: perturbation, update, replay --------------------------------------------


def perturbed_tensor(theta: torch.Tensor, member_seed: int, index: int, sigma: float) -> torch.Tensor:
    """θ_k + σ·ε_ik as a NEW tensor in θ's dtype (θ untouched)."""
    noise = param_noise(theta.shape, derive_seed(member_seed, index))
    return (theta.float() + noise.mul_(sigma)).to(theta.dtype)


def apply_iteration(state: dict[str, torch.Tensor], iteration: ESIteration) -> dict[str, torch.Tensor]:
    """θ + Σ_i c_i·ε_i as a new state (float32 accumulation in member order, then θ's dtype)."""
    out: dict[str, torch.Tensor] = {}
    for k, (name, theta) in enumerate(state.items()):
        update = torch.zeros(theta.shape, dtype=torch.float32)
        for i, c in enumerate(iteration.coefficients):
            if c == 0.0:
                continue  # adding 0·ε changes nothing; skipping it keeps replay identical
            update.add_(param_noise(theta.shape, derive_seed(iteration.member_seed(i), k)), alpha=c)
        out[name] = (theta.float() + update).to(theta.dtype)
    return out


def replay(base_state: dict[str, torch.Tensor], history: ESHistory | Sequence[ESIteration]) -> dict[str, torch.Tensor]:
    """The live weights after `history`, recomputed from the base weights (bitwise equal to what
    `EvolutionStrategy` holds)."""
    iterations = history.iterations if isinstance(history, ESHistory) else list(history)
    if isinstance(history, ESHistory) and history.digest and history.digest != state_digest(base_state):
        raise ValueError("this ES history was recorded on a model with a different parameter layout")
    state = {name: t.detach().to("cpu", copy=True) for name, t in base_state.items()}
    for it in iterations:
        state = apply_iteration(state, it)
    return state


@torch.no_grad()
def load_state(model: Any, state: dict[str, torch.Tensor]) -> None:
    """Copy `state` into the model's parameters (on their devices)."""
    for name, p in es_parameters(model):
        p.copy_(state[name])


@torch.no_grad()
def replay_matches(model: Any, base_state: dict[str, torch.Tensor], history: ESHistory) -> bool:
    """The replay check: `replay(base_state, history)` (CPU, from the JSON history alone) equals,
    bit for bit, the weights the model holds on its own device (CUDA included: the live weights
    are computed on the CPU and only copied to the device, so the device never changes them)."""
    state = replay(base_state, history)
    return all(torch.equal(p.detach(), state[name].to(p.device)) for name, p in es_parameters(model))


@torch.no_grad()
def load_perturbed(model: Any, state: dict[str, torch.Tensor], member_seed: int, sigma: float) -> None:
    """Write θ + σ·ε(member) into the model, built from the clean copy `state` (never in place)."""
    for k, (name, p) in enumerate(es_parameters(model)):
        p.copy_(perturbed_tensor(state[name], member_seed, k, sigma))


def z_scores(rewards: Sequence[float | None]) -> list[float]:
    """Population z-scores; None/NaN rewards get 0 (left out of the mean and std)."""
    valid = [r for r in rewards if r is not None and not math.isnan(r)]
    if len(valid) < 2:
        return [0.0] * len(rewards)
    mean = sum(valid) / len(valid)
    std = math.sqrt(sum((r - mean) ** 2 for r in valid) / len(valid))
    if std == 0.0:
        return [0.0] * len(rewards)
    return [0.0 if r is None or math.isnan(r) else (r - mean) / (std + 1e-8) for r in rewards]


# --- the loop ------------------------------------------------------------------------------------


class EvolutionStrategy:
    """ES on `model` (the working model: every evaluation overwrites its weights).

    `base_state` (default: the model's weights now) and `history` (default: empty) define the
    live weights `self.state` = replay(base_state, history); resuming is passing both back."""

    def __init__(
        self,
        model: Any,
        reward_fn: RewardFn,
        config: ESConfig | None = None,
        *,
        base_state: dict[str, torch.Tensor] | None = None,
        history: ESHistory | None = None,
        base: str | None = None,
    ) -> None:
        self.model = model
        self.reward_fn = reward_fn
        self.base_state = base_state if base_state is not None else es_state(model)
        digest = state_digest(self.base_state)
        if history is None:
            history = ESHistory(config=config or ESConfig(), digest=digest, base=base)
        elif config is not None:
            history.config = config
        if history.digest is None:
            history.digest = digest
        self.history = history
        self.state = replay(self.base_state, history)
        load_state(model, self.state)

    @property
    def config(self) -> ESConfig:
        return self.history.config

    def evaluate(self, member_seed: int, iteration: int) -> float | None:
        load_perturbed(self.model, self.state, member_seed, self.config.sigma)
        was_training = getattr(self.model, "training", False)
        if hasattr(self.model, "eval"):
            self.model.eval()
        try:
            reward = self.reward_fn(self.model, iteration)
        finally:
            if was_training:
                self.model.train()
        return None if reward is None else float(reward)

    def step(self) -> ESIteration:
        """One iteration: evaluate the population, update θ, record (seed, coefficients)."""
        cfg = self.config
        t = len(self.history.iterations)
        seed = derive_seed(cfg.seed, t)
        rewards = [self.evaluate(derive_seed(seed, i), t) for i in range(cfg.population)]
        z = z_scores(rewards)
        coefficients = tuple((cfg.alpha / cfg.population) * zi for zi in z)
        iteration = ESIteration(seed=seed, coefficients=coefficients, rewards=tuple(rewards))
        self.state = apply_iteration(self.state, iteration)
        self.history.iterations.append(iteration)
        load_state(self.model, self.state)
        return iteration

    def train(
        self,
        iterations: int,
        *,
        history_path: str | Path | None = None,
        callback: Callable[[int, ESIteration], None] | None = None,
    ) -> ESHistory:
        for _ in range(iterations):
            it = self.step()
            if history_path is not None:
                self.history.save(history_path)
            if callback is not None:
                callback(len(self.history.iterations) - 1, it)
        return self.history


def iteration_summary(it: ESIteration) -> dict[str, Any]:
    valid = [r for r in it.rewards if r is not None and not math.isnan(r)]
    return {
        "seed": it.seed,
        "mean_reward": sum(valid) / len(valid) if valid else None,
        "max_reward": max(valid) if valid else None,
        "scored": len(valid),
        "population": len(it.rewards),
    }


# --- the product reward: Lean-verified proofs sampled from the perturbed model -------------------


def make_lean_es_reward(
    tokenizer: Any,
    rows: Sequence[dict[str, Any]],
    verifier: Any,
    *,
    problems_per_iteration: int = 8,
    samples_per_problem: int = 4,
    max_new_tokens: int = 1024,
    temperature: float = 1.0,
    top_p: float = 0.95,
    seed: int = 0,
    timeout: float | None = None,
    audit_config: Any = None,
    prompt_column: str = "prompt",
    header_column: str = "header",
    statement_column: str = "statement",
) -> tuple[RewardFn, Callable[[], None]]:
    """(reward_fn, close): reward_fn(model, t) samples `samples_per_problem` proofs with HF
    `generate` for `problems_per_iteration` rows chosen by (seed, t) — the same rows and sampling
    seed for every member of iteration t — and returns the mean Lean reward (None when no sample
    could be verified). `verifier` is a Verifier or a factory; verification runs on a private
    event loop. Call `close()` at the end."""
    from lemmaforge.training.rewards import LeanReward, original_text

    if not rows:
        raise ValueError("no problems to score")
    reward = LeanReward(
        verifier,
        header_column=header_column,
        statement_column=statement_column,
        timeout=timeout,
        audit_config=audit_config,
        max_failed_batches=None,
    )
    loop = asyncio.new_event_loop()

    def reward_fn(model: Any, t: int) -> float | None:
        rng = random.Random(derive_seed(seed, t))
        batch = rng.sample(list(rows), min(problems_per_iteration, len(rows)))
        prompts = [_render_prompt(tokenizer, r[prompt_column]) for r in batch]
        device = next(model.parameters()).device
        enc = tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False).to(device)
        torch.manual_seed(derive_seed(seed, t, 1))
        with torch.no_grad():
            out = model.generate(
                **enc,
                do_sample=True,
                temperature=temperature,
                top_p=top_p,
                max_new_tokens=max_new_tokens,
                num_return_sequences=samples_per_problem,
                pad_token_id=tokenizer.pad_token_id,
            )
        texts = tokenizer.batch_decode(out[:, enc["input_ids"].shape[1] :], skip_special_tokens=True)
        originals = [
            original_text(r.get(header_column), r[statement_column]) for r in batch for _ in range(samples_per_problem)
        ]
        scored = loop.run_until_complete(reward.score(texts, originals))
        values = [s.reward for s in scored if s.reward is not None]
        return sum(values) / len(values) if values else None

    def close() -> None:
        try:
            loop.run_until_complete(reward.aclose())
        finally:
            loop.close()

    return reward_fn, close


def _render_prompt(tokenizer: Any, prompt: Any) -> str:
    from lemmaforge.training.generation import render_prompt

    return render_prompt(tokenizer, prompt)

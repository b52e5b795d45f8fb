"""One preset per prover family: how its authors prompted it, sampled it, corrected it and read it.

A prover performs only when it is prompted exactly as it was trained and its output is read the way
its authors read it. A `ProverPreset` fixes, for one family:

- the system message (or none) and the user prompt, byte for byte as the authors' code renders it
  (the builders are in `agent.prompts`);
- the endpoint kind: chat (`/v1/chat/completions`) or raw completion (`/v1/completions`);
- temperature / top_p / max_tokens as published (`None`: not sent, the server's default);
- the self-correction turn's format, or none where the model was not trained for one;
- the reader (`agent.output.READERS`, or the continuation of a raw-completion prompt).

Chosen by name (`--prover-preset`, `[prover] preset`) or from the served model's id
(`preset_for_model`). Where two published sources disagree, the preset follows the code that
produced the published numbers, and its `notes` say so. `sources` cite repository, file and commit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from lemmaforge.agent import prompts
from lemmaforge.errors import InputError

Endpoint = Literal["chat", "completion"]
Correction = Literal["goedel", "kimina"]
Reader = Literal["deepseek", "last-block", "kimina", "continuation"]

# Published repositories, at the commit each template was read from.
DSP_V2 = "deepseek-ai/DeepSeek-Prover-V2@e598a57ea3284997d4a2a168a069fdd5064afbc8"
DSP_V15 = "deepseek-ai/DeepSeek-Prover-V1.5@2c4ba9119eef74d0d611f494261b2c5bae98c69a"
GOEDEL_V2 = "Goedel-LM/Goedel-Prover-V2@2e9036e118464aa96a8bebaf9f5b9d091aa3585c"
KIMINA = "MoonshotAI/Kimina-Prover-Preview@7abd61a5d9861bf5c15b195c216c1bb233ac32e4"
# The Preview's Distill models' card (Hugging Face; a card has no commit of its own here)
KIMINA_PREVIEW_CARD = "huggingface.co/AI-MO/Kimina-Prover-Preview-Distill-7B model card"

# (header, statement cut after its `:= by`, informal statement or None) -> the user prompt / raw prompt
PromptBuilder = Callable[[str, str, "str | None"], str]


def _dsp_v2(cot: bool) -> PromptBuilder:
    def build(header: str, open_statement: str, informal: str | None) -> str:
        return prompts.prover_prompt(header, open_statement + "\n  sorry", cot=cot, informal=informal)

    return build


def _v15(cot: bool) -> PromptBuilder:
    def build(header: str, open_statement: str, informal: str | None) -> str:
        return prompts.v15_prompt(header, open_statement, informal, cot=cot)

    return build


@dataclass(frozen=True, slots=True)
class ProverPreset:
    name: str
    family: str
    endpoint: Endpoint
    system: str | None
    build: PromptBuilder = field(repr=False)
    temperature: float | None
    top_p: float | None
    max_tokens: int
    correction: Correction | None
    reader: Reader
    sources: tuple[str, ...]
    notes: str = ""
    # model ids of this family contain one of these (lower case)
    patterns: tuple[str, ...] = ()

    def user_prompt(self, header: str, open_statement: str, informal: str | None = None) -> str:
        return self.build(header, open_statement, informal)

    def request(self, header: str, open_statement: str, informal: str | None = None) -> list[dict[str, str]] | str:
        """What is sent: chat messages (system first, where the family has one), or the raw
        prompt string of a completion endpoint."""
        text = self.user_prompt(header, open_statement, informal)
        if self.endpoint == "completion":
            return text
        messages = [{"role": "system", "content": self.system}] if self.system is not None else []
        return [*messages, {"role": "user", "content": text}]

    def sampling(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "top_p": self.top_p, "max_tokens": self.max_tokens}

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "family": self.family, "endpoint": self.endpoint,
            "system": self.system, "temperature": self.temperature, "top_p": self.top_p,
            "max_tokens": self.max_tokens, "correction": self.correction, "reader": self.reader,
            "sources": list(self.sources), "notes": self.notes,
        }


_V2_SAMPLING_NOTE = (
    "The README's example samples with max_new_tokens=8192 and states no temperature/top_p; "
    "temperature 1.0 / top_p 0.95 are the family's published values (DeepSeek-Prover-V1.5 "
    "configs/sampling.py). Not trained for Lean-feedback correction: none."
)

PRESETS: dict[str, ProverPreset] = {
    p.name: p
    for p in (
        ProverPreset(
            name="deepseek-prover-v2", family="DeepSeek-Prover-V2 (non-CoT)", endpoint="chat", system=None,
            build=_dsp_v2(cot=False), temperature=1.0, top_p=0.95, max_tokens=8192, correction=None,
            reader="deepseek",
            sources=(f"{DSP_V2}:README.md (prompt, max_new_tokens)", "DeepSeek_Prover_V2.pdf App. A.1 (non-CoT = "
                     "the CoT prompt without its closing paragraph)"),
            notes=_V2_SAMPLING_NOTE,
            patterns=("deepseek-prover-v2",),
        ),
        ProverPreset(
            name="deepseek-prover-v2-cot", family="DeepSeek-Prover-V2 (CoT)", endpoint="chat", system=None,
            build=_dsp_v2(cot=True), temperature=1.0, top_p=0.95, max_tokens=28672, correction=None,
            reader="deepseek",
            sources=(f"{DSP_V2}:README.md (prompt)", "DeepSeek_Prover_V2.pdf §2.3 (32,768-token length)"),
            notes=(
                "The README's example caps CoT output at 8192 tokens, but CoT outputs average 4.5k (7B) / 6.8k "
                "(671B) tokens with a long tail and the paper trains and samples at 32,768: max_tokens is "
                "28672, so that prompt + output fit a 32K context (vLLM refuses a request that does not). "
                + _V2_SAMPLING_NOTE
            ),
            patterns=("deepseek-prover-v2",),
        ),
        ProverPreset(
            name="goedel-prover-v2", family="Goedel-Prover-V2", endpoint="chat", system=None,
            build=prompts.goedel_v2_prompt, temperature=1.0, top_p=0.95, max_tokens=32768, correction="goedel",
            reader="last-block",
            sources=(f"{GOEDEL_V2}:src/utils.py (DeepSeekCoTHandler: prompt, correction turn, get_error_str, "
                     "extrac_code)", f"{GOEDEL_V2}:src/inference.py (top_p 0.95)",
                     f"{GOEDEL_V2}:scripts/pipeline.sh (temperature 1.0, 40960 context, 2 correction rounds)"),
            notes=(
                "The README's quick start puts a newline between `sorry` and the closing fence; the pipeline "
                "that produced the numbers (src/utils.py) does not: the pipeline's prompt is used. The "
                "pipeline samples up to its 40960-token context; a server refuses prompt + max_tokens over the "
                "context, so max_tokens is 32768 (the paper's first-round budget): serve with "
                "--max-model-len 40960."
            ),
            patterns=("goedel-prover-v2",),
        ),
        ProverPreset(
            name="kimina-prover-preview", family="Kimina-Prover Preview (72B, Distill-7B/1.5B)", endpoint="chat",
            system=prompts.KIMINA_PREVIEW_SYSTEM, build=prompts.kimina_preview_prompt, temperature=0.6, top_p=0.95,
            max_tokens=8096, correction=None, reader="kimina",
            sources=(f"{KIMINA_PREVIEW_CARD} (the whole preset: system message, prompt template, temperature 0.6, "
                     "top_p 0.95, max_tokens 8096), as Goedel-Prover-V2's KiminaCoTHandler cites it "
                     f"({GOEDEL_V2}:src/utils.py)",
                     f"{KIMINA}:kimina_prover_demo/utils.py (extract_proof_from_text: the reader)"),
            notes=(
                "One source for the whole preset: the Distill models' model card (its quick start), the only "
                "inference setup the Kimina team published for the Preview. `# Problem:` carries the informal "
                "statement as in the card (the cleaned code when the problem has none, as Goedel-Prover-V2's "
                "handler does). Goedel-Prover-V2's pipeline ran the model at temperature 1.0: that is Goedel's "
                "choice, not the card's, and is not used. Trained without prover feedback: no correction."
            ),
            patterns=("kimina-prover-preview",),
        ),
        ProverPreset(
            name="kimina-prover", family="Kimina-Prover (2025: 72B, Distill-8B/1.7B)", endpoint="chat",
            system=prompts.KIMINA_SYSTEM, build=prompts.kimina_prompt, temperature=0.8, top_p=None,
            max_tokens=16000, correction="kimina", reader="kimina",
            sources=(f"{KIMINA}:kimina_prover_demo/error_fix.py (system, prompt, temperature 0.8, max_tokens "
                     "16000, error-fix turn)", f"{KIMINA}:kimina_prover_demo/utils.py (create_tool_message, "
                     "extract_proof_from_text)"),
            notes=(
                "top_p is not sent (the demo leaves it to the server). The demo's first turn also sends "
                "presence_penalty 0.2, which this client does not send. The error-fix turn is Kimina's own "
                "(first 3 errors, numbered snippet marking the start line); the goal state it adds from Lean's "
                "info tree is left out (no backend here returns one)."
            ),
            patterns=("kimina-prover",),
        ),
        ProverPreset(
            name="deepseek-prover-v1.5", family="DeepSeek-Prover-V1.5 (non-CoT)", endpoint="completion", system=None,
            build=_v15(cot=False), temperature=1.0, top_p=0.95, max_tokens=2048, correction=None,
            reader="continuation",
            sources=(f"{DSP_V15}:prover/utils.py (non_cot_prompt, post_process_output)",
                     f"{DSP_V15}:configs/sampling.py (temperature 1, top_p 0.95, max_tokens 2048)"),
            notes="Raw completion: the model continues the open code block; its output is cut at the first fence.",
            patterns=("deepseek-prover-v1.5", "deepseek-prover-v1-5"),
        ),
        ProverPreset(
            name="deepseek-prover-v1.5-cot", family="DeepSeek-Prover-V1.5 (CoT)", endpoint="completion", system=None,
            build=_v15(cot=True), temperature=1.0, top_p=0.95, max_tokens=2048, correction=None,
            reader="continuation",
            sources=(f"{DSP_V15}:prover/utils.py (cot_prompt, post_process_output)",
                     f"{DSP_V15}:configs/sampling.py (mode cot, temperature 1, top_p 0.95, max_tokens 2048)"),
            notes="Raw completion, the \"explanatory comments\" variant the V1.5 configs use by default.",
            patterns=("deepseek-prover-v1.5", "deepseek-prover-v1-5"),
        ),
    )
}

# Families whose model id does not say whether the CoT prompt is wanted: `--cot` chooses.
_COT_VARIANT = {"deepseek-prover-v2": "deepseek-prover-v2-cot", "deepseek-prover-v1.5": "deepseek-prover-v1.5-cot"}
# Tried in this order (the Preview's ids also contain "kimina-prover").
_INFERENCE_ORDER = ("goedel-prover-v2", "kimina-prover-preview", "kimina-prover", "deepseek-prover-v2",
                    "deepseek-prover-v1.5")


class UnknownPreset(InputError, ValueError):
    """A preset name that is not one of PRESETS (bad input: exit 2)."""


def get_preset(name: str) -> ProverPreset:
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPreset(f"unknown prover preset {name!r} (choose one of: {', '.join(PRESETS)})") from None


def preset_for_model(model_id: str | None, *, cot: bool = False) -> ProverPreset | None:
    """The preset of the family `model_id` names (case-insensitive: `Goedel-LM/Goedel-Prover-V2-8B`,
    `AI-MO/Kimina-Prover-Preview-Distill-7B`, a local path ending in the model's name…), or None.
    DeepSeek families get their CoT variant when `cot`."""
    if not model_id:
        return None
    text = model_id.lower().replace("_", "-")
    for name in _INFERENCE_ORDER:
        if any(pattern in text for pattern in PRESETS[name].patterns):
            return PRESETS[_COT_VARIANT[name]] if cot and name in _COT_VARIANT else PRESETS[name]
    return None


# ---------------------------------------------------------------------------------------------------
# The planner: reasoning models (DeepSeek-R1 style) are asked as their authors recommend

# DeepSeek-R1's usage recommendations: no system prompt (instructions go in the user prompt), the
# model's own sampling (its generation_config, which the server applies when none is sent), room for
# a long chain of thought.
REASONING_PATTERNS = ("deepseek-r1", "deepseek-reasoner", "r1-distill", "qwq", "gpt-oss", "thinking")
REASONING_MAX_TOKENS = 32768
DEFAULT_MAX_TOKENS = 8192
DEFAULT_TEMPERATURE = 1.0
DEFAULT_TOP_P = 0.95


def is_reasoning_model(model_id: str | None) -> bool:
    return bool(model_id) and any(p in str(model_id).lower() for p in REASONING_PATTERNS)


__all__ = [
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_TEMPERATURE",
    "DEFAULT_TOP_P",
    "PRESETS",
    "REASONING_MAX_TOKENS",
    "ProverPreset",
    "UnknownPreset",
    "get_preset",
    "is_reasoning_model",
    "preset_for_model",
]

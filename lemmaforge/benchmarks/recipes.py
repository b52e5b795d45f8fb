"""Published setups to reproduce: `lemmaforge recipes`, `lemmaforge bench DATASET --recipe NAME`.

A recipe is one paper's (or README's) number and everything needed to run the same experiment:
model id, prover preset (prompt, reader), dataset and version, split, protocol, attempts (the k of
pass@k), sampling and max tokens, the Lean version the authors used, and the number they reported
with its source: the document (paper table or README), where in it, and its version (the commit of
the repository it was read from, or the arXiv id). Every number below was read from that source,
at that commit; where a source changed its number over time, `notes` says so.

Sampling comes from the authors' code where they published it (`sampling_source` says which file);
otherwise from the preset, whose own sources say where its values come from.

`bench --recipe NAME` runs the recipe's setup; only the endpoints come from flags or the
configuration. A flag that changes anything else (dataset, split, a subset of problems, attempts,
protocol, preset, model, CoT, answers) is allowed, and the run is labelled "modified: …" with the
differences (`differences`), in its config and in every report (`report/_recipe.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lemmaforge.benchmarks.spec import BenchError

# Where each number was read (repository@commit:file), as the presets cite their sources.
DSP_V2 = "deepseek-ai/DeepSeek-Prover-V2@e598a57ea3284997d4a2a168a069fdd5064afbc8"
DSP_V15 = "deepseek-ai/DeepSeek-Prover-V1.5@2c4ba9119eef74d0d611f494261b2c5bae98c69a"
GOEDEL_V2 = "Goedel-LM/Goedel-Prover-V2@2e9036e118464aa96a8bebaf9f5b9d091aa3585c"
KIMINA = "MoonshotAI/Kimina-Prover-Preview@7abd61a5d9861bf5c15b195c216c1bb233ac32e4"
PUTNAMBENCH = "trishullab/PutnamBench@3c9b9268ebd132d482938b8e9d242dd71fc1ebc0"


@dataclass(frozen=True, slots=True)
class Source:
    document: str  # what was read: repository@commit:file, or a paper / post
    location: str  # where in it: a table, a sentence
    version: str  # the commit, arXiv id or date that fixes the text read
    url: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"document": self.document, "location": self.location, "version": self.version, "url": self.url}

    def __str__(self) -> str:
        return f"{self.document}, {self.location} ({self.version})"


@dataclass(frozen=True, slots=True)
class Reported:
    value: float  # a percentage (unit "percent") or a number of problems (unit "problems")
    unit: str
    k: int  # pass@k
    source: Source
    spread: float | None = None  # the ± the source gives (a standard deviation over runs), where it gives one
    of: int | None = None  # problems the number is out of, where the source says

    @property
    def rate(self) -> float | None:
        if self.unit == "percent":
            return self.value / 100
        return self.value / self.of if self.of else None

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "unit": self.unit, "pass_at": self.k, "spread": self.spread, "of": self.of,
                "rate": round(self.rate, 4) if self.rate is not None else None, "source": self.source.to_json()}

    def words(self) -> str:
        spread = f" ± {self.spread:g}" if self.spread is not None else ""
        if self.unit == "percent":
            return f"{self.value:g}%{spread} pass@{self.k}"
        of = f"/{self.of}" if self.of else ""
        return f"{self.value:g}{of} problems pass@{self.k}"


@dataclass(frozen=True, slots=True)
class Recipe:
    name: str
    title: str
    model: str  # the model id as the authors publish it
    preset: str  # agent.presets name
    dataset: str  # registered dataset (benchmarks.registry)
    split: str | None
    protocol: str  # benchmarks.protocols
    attempts: int  # k of pass@k: attempts per problem
    temperature: float | None
    top_p: float | None
    max_tokens: int
    sampling_source: str
    lean_version: str | None
    lean_source: str
    reported: Reported
    cot: bool = False
    answers: str = "slots"  # PutnamBench: "inlined" is the "with answer" track
    dataset_version: str = ""  # which version of the benchmark the authors used, where it differs
    notes: str = ""
    extra_reported: tuple[Reported, ...] = field(default_factory=tuple)  # the same source's other k

    def sampling(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "top_p": self.top_p, "max_tokens": self.max_tokens}

    def to_json(self) -> dict[str, Any]:
        from lemmaforge.benchmarks.registry import registered

        info = registered(self.dataset)
        return {
            "name": self.name, "title": self.title, "model": self.model, "preset": self.preset, "cot": self.cot,
            "dataset": {"name": self.dataset, "split": self.split,
                        "version": info.source if info is not None else None,
                        "lean_version": info.lean_version if info is not None else None,
                        "authors_version": self.dataset_version or None},
            "protocol": self.protocol, "attempts": self.attempts, "pass_at": self.attempts, "answers": self.answers,
            "sampling": {**self.sampling(), "source": self.sampling_source},
            "lean_version": self.lean_version, "lean_version_source": self.lean_source,
            "reported": self.reported.to_json(),
            "also_reported": [r.to_json() for r in self.extra_reported],
            "notes": self.notes,
        }


_DSP_V2_TABLE1 = Source(f"{DSP_V2}:DeepSeek_Prover_V2.pdf", "Table 1 (miniF2F-test)", "commit e598a57 (arXiv 2504.21801)",
                        "https://github.com/deepseek-ai/DeepSeek-Prover-V2/blob/e598a57ea3284997d4a2a168a069fdd5064afbc8/DeepSeek_Prover_V2.pdf")
_DSP_V2_LEAN = f"{DSP_V2}:DeepSeek_Prover_V2.pdf §3 (\"conducted with Lean 4.9.0-rc2\")"
_DSP_V2_DATA = ("Kimina's revised miniF2F (Wang et al. 2025) with one more test statement revised "
                "(DeepSeek_Prover_V2.pdf §3.1 and App. D); minif2f-kimina is the published file closest to it")
_DSP_V2_SAMPLING = (f"{DSP_V2}:README.md (max_new_tokens 8192; no temperature or top_p published): the preset's values "
                    "(see `lemmaforge presets`)")
_GOEDEL_README = f"{GOEDEL_V2}:README.md"
_GOEDEL_SAMPLING = (f"{GOEDEL_V2}:scripts/pipeline.sh (TEMPERATURE=1.0, MAX_MODEL_LEN=40960) and src/inference.py "
                    "(top_p=0.95); max_tokens 32768 so that prompt + output fit 40960 (the preset's note)")
_GOEDEL_LEAN = f"{GOEDEL_V2}:README.md §5 (\"Lean 4 version 4.9\", as DeepSeek-Prover-V1.5)"
_KIMINA_REPORT = Source(f"{KIMINA}:Kimina_Prover_Preview.pdf", "Table 1 (miniF2F-test)", "commit 7abd61a (arXiv 2504.11354)",
                        "https://arxiv.org/abs/2504.11354")
_KIMINA_LEAN = ("not stated by the report; minif2f-kimina's pin, Kimina Lean Server's 2025 default")

RECIPES: dict[str, Recipe] = {
    r.name: r
    for r in (
        Recipe(
            name="deepseek-prover-v2-7b-minif2f", title="DeepSeek-Prover-V2-7B, non-CoT, miniF2F-test pass@32",
            model="deepseek-ai/DeepSeek-Prover-V2-7B", preset="deepseek-prover-v2", dataset="minif2f-kimina",
            split="test", protocol="whole-proof", attempts=32, temperature=1.0, top_p=0.95, max_tokens=8192,
            sampling_source=_DSP_V2_SAMPLING, lean_version="v4.9.0-rc2", lean_source=_DSP_V2_LEAN,
            reported=Reported(68.0, "percent", 32, _DSP_V2_TABLE1, spread=0.5),
            extra_reported=(Reported(55.5, "percent", 1, _DSP_V2_TABLE1, spread=1.4),
                            Reported(73.2, "percent", 1024, _DSP_V2_TABLE1, spread=0.5),
                            Reported(75.0, "percent", 8192, _DSP_V2_TABLE1)),
            dataset_version=_DSP_V2_DATA,
        ),
        Recipe(
            name="deepseek-prover-v2-7b-cot-minif2f", title="DeepSeek-Prover-V2-7B, CoT, miniF2F-test pass@32",
            model="deepseek-ai/DeepSeek-Prover-V2-7B", preset="deepseek-prover-v2-cot", cot=True,
            dataset="minif2f-kimina", split="test", protocol="whole-proof", attempts=32, temperature=1.0, top_p=0.95,
            max_tokens=28672,
            sampling_source=(f"{DSP_V2}:README.md (no temperature or top_p published) and DeepSeek_Prover_V2.pdf §2.3 "
                             "(32,768-token length): the preset's values, 28672 tokens so that prompt + output fit 32K"),
            lean_version="v4.9.0-rc2", lean_source=_DSP_V2_LEAN,
            reported=Reported(75.6, "percent", 32, _DSP_V2_TABLE1, spread=0.5),
            extra_reported=(Reported(58.6, "percent", 1, _DSP_V2_TABLE1, spread=1.1),
                            Reported(79.9, "percent", 1024, _DSP_V2_TABLE1, spread=0.3),
                            Reported(82.0, "percent", 8192, _DSP_V2_TABLE1)),
            dataset_version=_DSP_V2_DATA,
        ),
        Recipe(
            name="goedel-prover-v2-8b-minif2f", title="Goedel-Prover-V2-8B, miniF2F-test pass@32",
            model="Goedel-LM/Goedel-Prover-V2-8B", preset="goedel-prover-v2", dataset="minif2f-goedel-v2",
            split="test", protocol="whole-proof", attempts=32, temperature=1.0, top_p=0.95, max_tokens=32768,
            sampling_source=_GOEDEL_SAMPLING, lean_version="v4.9.0", lean_source=_GOEDEL_LEAN,
            reported=Reported(84.6, "percent", 32, Source(
                _GOEDEL_README, "§1: \"reaches 84.6% on MiniF2F test set at Pass@32\"", "commit 2e9036e (2025-08-27)",
                "https://github.com/Goedel-LM/Goedel-Prover-V2/blob/2e9036e118464aa96a8bebaf9f5b9d091aa3585c/README.md")),
            notes="The README said 83.0% for the 8B model until commit 2e9036e (2025-08-27), which changed it to 84.6%.",
        ),
        Recipe(
            name="goedel-prover-v2-32b-minif2f", title="Goedel-Prover-V2-32B, standard mode, miniF2F-test pass@32",
            model="Goedel-LM/Goedel-Prover-V2-32B", preset="goedel-prover-v2", dataset="minif2f-goedel-v2",
            split="test", protocol="whole-proof", attempts=32, temperature=1.0, top_p=0.95, max_tokens=32768,
            sampling_source=_GOEDEL_SAMPLING, lean_version="v4.9.0", lean_source=_GOEDEL_LEAN,
            reported=Reported(88.0, "percent", 32, Source(
                _GOEDEL_README, "§1: \"achieves 88.0% on MiniF2F at Pass@32 on standard mode\"",
                "commit 2e9036e (2025-08-27)",
                "https://github.com/Goedel-LM/Goedel-Prover-V2/blob/2e9036e118464aa96a8bebaf9f5b9d091aa3585c/README.md")),
            notes="Standard mode (no self-correction), which is the whole-proof protocol; the README's 90.4% is the "
                  "self-correction mode (two rounds of Lean feedback), which this protocol does not run.",
        ),
        Recipe(
            name="kimina-prover-preview-distill-7b-minif2f",
            title="Kimina-Prover-Preview-Distill-7B, miniF2F-test pass@32",
            model="AI-MO/Kimina-Prover-Preview-Distill-7B", preset="kimina-prover-preview", dataset="minif2f-kimina",
            split="test", protocol="whole-proof", attempts=32, temperature=0.6, top_p=0.95, max_tokens=8096,
            sampling_source="the Distill models' card (huggingface.co/AI-MO/Kimina-Prover-Preview-Distill-7B, as "
                            f"{GOEDEL_V2}:src/utils.py KiminaCoTHandler cites it): the kimina-prover-preview preset",
            lean_version="v4.15.0", lean_source=_KIMINA_LEAN,
            reported=Reported(63.1, "percent", 32, _KIMINA_REPORT),
            extra_reported=(Reported(52.5, "percent", 1, _KIMINA_REPORT), Reported(70.8, "percent", 1024, _KIMINA_REPORT)),
            notes="The report evaluates with a 32K-token context; the card's quick start samples 8096 tokens.",
        ),
        Recipe(
            name="kimina-prover-72b-minif2f", title="Kimina-Prover-72B (2025), miniF2F-test pass@32",
            model="AI-MO/Kimina-Prover-72B", preset="kimina-prover", dataset="minif2f-kimina", split="test",
            protocol="whole-proof", attempts=32, temperature=0.8, top_p=None, max_tokens=16000,
            sampling_source=f"{KIMINA}:kimina_prover_demo/error_fix.py (temperature 0.8, max_tokens 16000; top_p not sent)",
            lean_version="v4.15.0", lean_source=_KIMINA_LEAN,
            reported=Reported(84.0, "percent", 32, Source(
                "Hugging Face blog 'Kimina-Prover: Applying Test-time RL Search on Large Formal Reasoning Models' "
                "(linked from " + f"{KIMINA}:README.md)", "miniF2F-test results: Kimina-Prover-72B pass@32",
                "post of 2025-07-10 (a blog has no commit)", "https://huggingface.co/blog/AI-MO/kimina-prover")),
            extra_reported=(Reported(63.9, "percent", 1, Source(
                "Hugging Face blog 'Kimina-Prover: Applying Test-time RL Search on Large Formal Reasoning Models'",
                "miniF2F-test results: Kimina-Prover-72B pass@1", "post of 2025-07-10",
                "https://huggingface.co/blog/AI-MO/kimina-prover")),),
            notes="Plain sampling (no error fixing, no test-time RL search: the blog's 92.2% is the search). "
                  "The blog is the only source of this number; it names no Lean version.",
        ),
        Recipe(
            name="deepseek-prover-v1.5-rl-minif2f", title="DeepSeek-Prover-V1.5-RL, CoT, miniF2F-test pass@32",
            model="deepseek-ai/DeepSeek-Prover-V1.5-RL", preset="deepseek-prover-v1.5-cot", cot=True,
            dataset="minif2f-deepseek-v1.5", split="test", protocol="whole-proof", attempts=32, temperature=1.0,
            top_p=0.95, max_tokens=2048,
            sampling_source=f"{DSP_V15}:configs/sampling.py (mode cot, temperature 1, top_p 0.95, max_tokens 2048)",
            lean_version="v4.9.0", lean_source=f"{DSP_V15}:mathlib4 submodule (xinhjBrant/mathlib4 2f65ba7, Lean v4.9.0)",
            reported=Reported(50.0, "percent", 32, Source(
                f"{DSP_V15}:paper.pdf", "Table 1 (miniF2F-test, single-pass whole-proof generation, "
                "DeepSeek-Prover-V1.5-RL, sample budget 32)", "commit 2c4ba91 (arXiv 2408.08152)",
                "https://arxiv.org/abs/2408.08152"), spread=0.5),
            extra_reported=(Reported(51.6, "percent", 128, Source(
                f"{DSP_V15}:paper.pdf", "Table 1 (DeepSeek-Prover-V1.5-RL, sample budget 128)",
                "commit 2c4ba91 (arXiv 2408.08152)", "https://arxiv.org/abs/2408.08152"), spread=0.5),),
            notes="The table's SFT and RL rows use the CoT prompt (its caption).",
        ),
        Recipe(
            name="goedel-prover-v2-32b-putnambench", title="Goedel-Prover-V2-32B, standard mode, PutnamBench pass@32",
            model="Goedel-LM/Goedel-Prover-V2-32B", preset="goedel-prover-v2", dataset="putnambench", split=None,
            protocol="whole-proof", attempts=32, temperature=1.0, top_p=0.95, max_tokens=32768, answers="inlined",
            sampling_source=_GOEDEL_SAMPLING, lean_version="v4.9.0", lean_source=_GOEDEL_LEAN,
            reported=Reported(43, "problems", 32, Source(
                _GOEDEL_README, "Table 1 (PutnamBench leaderboard): Goedel-Prover-V2-32B, 43, Pass@32",
                "commit 2e9036e (2025-08-27)",
                "https://github.com/Goedel-LM/Goedel-Prover-V2/blob/2e9036e118464aa96a8bebaf9f5b9d091aa3585c/README.md")),
            dataset_version=("PutnamBench at commit 0a59dcd (Lean v4.17.0 there; Goedel ran Lean 4.9.0), per "
                             f"{PUTNAMBENCH}:docs/results.json; lemmaforge ships 3c9b926 (672 problems, Lean v4.27.0): "
                             "compare counts with care"),
            notes="The PutnamBench leaderboard's \"with answer\" track (answers given: --answers inlined). The README's "
                  "86 (pass@192; the leaderboard says pass@184) and 57 are the self-correction mode; its prose also "
                  "says 64 at pass@64.",
        ),
        Recipe(
            name="kimina-prover-preview-distill-7b-putnambench",
            title="Kimina-Prover-Preview-Distill-7B, PutnamBench pass@192",
            model="AI-MO/Kimina-Prover-Preview-Distill-7B", preset="kimina-prover-preview", dataset="putnambench",
            split=None, protocol="whole-proof", attempts=192, temperature=1.0, top_p=0.95, max_tokens=8096,
            answers="inlined",
            sampling_source=(f"{PUTNAMBENCH}:docs/results.json (the entry's note: \"pass@192, T = 1.0\"); top_p and "
                             "max_tokens from the kimina-prover-preview preset (the model card)"),
            lean_version="v4.17.0", lean_source=f"{PUTNAMBENCH}:docs/results.json (commit beb8de9 of PutnamBench, "
                                                "whose lean4/lean-toolchain is v4.17.0)",
            reported=Reported(10, "problems", 192, Source(
                f"{PUTNAMBENCH}:docs/results.json", "entry Kimina-Prover-7B-Distill (lean-wsolution 10, pass@192)",
                "commit 3c9b926 (2026-07-23)",
                "https://trishullab.github.io/PutnamBench/leaderboard.html")),
            dataset_version="PutnamBench at commit beb8de9 (2025-04-12); lemmaforge ships 3c9b926 (672 problems)",
            notes="Temperature 1.0 is the leaderboard entry's, not the card's 0.6.",
        ),
    )
}


def get_recipe(name: str) -> Recipe:
    try:
        return RECIPES[name]
    except KeyError:
        raise BenchError(f"unknown recipe {name!r} (`lemmaforge recipes` lists them: {', '.join(RECIPES)})") from None


def differences(recipe: Recipe, run: dict[str, Any]) -> list[str]:
    """What the run changes from the recipe, one phrase each ("attempts 4 (recipe: 32)"); empty
    when it is the recipe's setup. `run`: dataset (canonical), split, limit, names, shard,
    attempts, protocol, answers, preset, model, cot, temperature, top_p, max_tokens."""
    from lemmaforge.benchmarks.spec import canonical_dataset

    out: list[str] = []

    def differ(label: str, value: Any, wanted: Any) -> None:
        if value != wanted:
            out.append(f"{label} {value if value is not None else 'none'} (recipe: {wanted if wanted is not None else 'none'})")

    differ("dataset", run.get("dataset"), canonical_dataset(recipe.dataset))
    differ("split", run.get("split"), recipe.split)
    for key in ("limit", "names", "shard"):
        if run.get(key):
            value = ",".join(run[key]) if isinstance(run[key], list | tuple) else run[key]
            out.append(f"{key} {value} (recipe: every problem)")
    differ("attempts", run.get("attempts"), recipe.attempts)
    differ("protocol", run.get("protocol"), recipe.protocol)
    differ("answers", run.get("answers"), recipe.answers)
    differ("prover preset", run.get("preset"), recipe.preset)
    differ("prover model", run.get("model"), recipe.model)
    differ("cot", bool(run.get("cot")), recipe.cot)
    for key in ("temperature", "top_p", "max_tokens"):
        value = run.get(key)
        wanted = getattr(recipe, key)
        if value is not None and wanted is not None and float(value) != float(wanted) or (value is None) != (wanted is None):
            out.append(f"{key} {value} (recipe: {wanted})")
    return out

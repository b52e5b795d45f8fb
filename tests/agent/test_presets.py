"""agent.presets: each family's prompt pinned against its authors' published template, byte for
byte, on real miniF2F problems (DeepSeek-Prover-V1.5's `datasets/minif2f.jsonl`, shipped in
shared/data), plus the readers and the model-id inference.

The published templates below are written as their authors' code writes them, and applied the way
that code applies them (the `lean4_code.split(":= by")[0] + …` steps are theirs):

- DSP2: deepseek-ai/DeepSeek-Prover-V2 @ e598a57ea3284997d4a2a168a069fdd5064afbc8, README.md
  ("Quick Start": `prompt = \"\"\"Complete the following Lean 4 code: …\"\"\".strip()`, the file's CRLF
  line ends read as "\\n" by Python).
- GOEDEL: Goedel-LM/Goedel-Prover-V2 @ 2e9036e118464aa96a8bebaf9f5b9d091aa3585c, src/utils.py
  (DeepSeekCoTHandler.prover_inference, KiminaCoTHandler.prover_inference, generate_correction_prompt).
- KIMINA: MoonshotAI/Kimina-Prover-Preview @ 7abd61a5d9861bf5c15b195c216c1bb233ac32e4,
  kimina_prover_demo/error_fix.py (SYSTEM, prompt) and utils.py (create_tool_message,
  extract_proof_from_text).
- V15: deepseek-ai/DeepSeek-Prover-V1.5 @ 2c4ba9119eef74d0d611f494261b2c5bae98c69a, prover/utils.py
  (non_cot_prompt, cot_prompt).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lemmaforge.agent import prompts
from lemmaforge.agent.output import read_lean_code
from lemmaforge.agent.presets import PRESETS, UnknownPreset, get_preset, is_reasoning_model, preset_for_model
from lemmaforge.agent.prover import open_statement

DSP2_PROMPT = (
    "Complete the following Lean 4 code:\n\n```lean4\n{}\n```\n\n"
    "Before producing the Lean 4 code to formally prove the given theorem, provide a detailed proof plan "
    "outlining the main proof steps and strategies.\n"
    "The plan should highlight key ideas, intermediate lemmas, and proof structures that will guide the "
    "construction of the final formal proof."
)
GOEDEL_COT = (
    "Complete the following Lean 4 code:\n\n```lean4\n{formal_statement}```\n\nBefore producing the Lean 4 code "
    "to formally prove the given theorem, provide a detailed proof plan outlining the main proof steps and "
    "strategies.\nThe plan should highlight key ideas, intermediate lemmas, and proof structures that will guide "
    "the construction of the final formal proof."
)
KIMINA_PREVIEW_SYSTEM = "You are an expert in mathematics and Lean 4."
KIMINA_SYSTEM = "You are an expert programmer and mathematician who helps formalizing mathematical problems in Lean 4."
V15_NON_COT = "Complete the following Lean 4 code:\n\n```lean4\n{header}{informal_prefix}{formal_statement}"
V15_COT = ("Complete the following Lean 4 code with explanatory comments preceding each line of code:\n\n"
           "```lean4\n{header}{informal_prefix}{formal_statement}")
GOEDEL_FEEDBACK = (
    "The proof (Round {n}) is not correct. Following is the compilation error message, where we use "
    "<error></error> to signal the position of the error.\n\n{errors}\n\nBefore producing the Lean 4 code to "
    "formally prove the given theorem, provide a detailed analysis of the error message."
)

NAMES = ("mathd_algebra_10", "mathd_algebra_478", "amc12a_2019_p21", "imo_1959_p1", "induction_12dvd4expnp1p20")


@pytest.fixture(scope="module")
def rows(shared_data: Path) -> list[dict]:
    table = {r["name"]: r for r in map(json.loads, (shared_data / "benchmarks" / "minif2f.jsonl").open(encoding="utf-8"))}
    return [table[n] for n in NAMES if n in table]


def lean4_code(row: dict) -> str:
    """The dataset row as one Lean file, the `lean4_code` layout of Goedel's data."""
    return row["header"] + row["informal_prefix"] + row["formal_statement"]


def render(name: str, row: dict):
    preset = get_preset(name)
    return preset.request(row["header"], open_statement(row["formal_statement"]), row["informal_statement"])


def test_every_row_used_is_there(rows):
    assert len(rows) == len(NAMES)


def test_deepseek_v2_cot_is_the_readme_prompt(rows):
    for row in rows:
        formal_statement = lean4_code(row).strip()
        assert render("deepseek-prover-v2-cot", row) == [{"role": "user", "content": DSP2_PROMPT.format(formal_statement)}]


def test_deepseek_v2_non_cot_is_the_readme_prompt_without_its_closing_paragraph(rows):
    non_cot = DSP2_PROMPT[: DSP2_PROMPT.index("\n\nBefore producing")]
    for row in rows:
        assert render("deepseek-prover-v2", row) == [{"role": "user", "content": non_cot.format(lean4_code(row).strip())}]


def test_goedel_v2_is_its_pipelines_prompt(rows):
    for row in rows:
        formal_statement = lean4_code(row).split(":= by")[0] + ":= by sorry"
        assert render("goedel-prover-v2", row) == [{"role": "user", "content": GOEDEL_COT.format(formal_statement=formal_statement)}]


def test_kimina_preview_is_the_card_layout_with_its_system_message(rows):
    for row in rows:
        formal_statement = lean4_code(row).split(":= by")[0] + ":= by"
        prompt = "Think about and solve the following problem step by step in Lean 4."
        prompt += f"\n# Problem:{row['informal_statement']}"
        prompt += f"\n# Formal statement:\n```lean4\n{formal_statement}\n```\n"
        assert render("kimina-prover-preview", row) == [
            {"role": "system", "content": KIMINA_PREVIEW_SYSTEM}, {"role": "user", "content": prompt}]


def test_kimina_preview_without_an_informal_statement_has_goedels_cleaned_code():
    header = prompts.MINIF2F_HEADER
    out = get_preset("kimina-prover-preview").user_prompt(header, "theorem t (x : ℕ) : x = x := by", None)
    assert "\n# Problem:theorem t (x : ℕ) : x = x := by\n# Formal statement:\n" in out


def test_kimina_2025_is_the_demo_prompt(rows):
    for row in rows:
        statement = lean4_code(row).split(":= by")[0] + ":= by sorry"
        prompt = "Think about and solve the following problems step by step in Lean 4."
        prompt += "\n\n"
        prompt += statement
        assert render("kimina-prover", row) == [{"role": "system", "content": KIMINA_SYSTEM},
                                                {"role": "user", "content": prompt}]


@pytest.mark.parametrize(("name", "template"), [("deepseek-prover-v1.5", V15_NON_COT), ("deepseek-prover-v1.5-cot", V15_COT)])
def test_deepseek_v15_is_the_raw_completion_prompt(rows, name, template):
    for row in rows:
        # V1.5's dataset ends each formal_statement with `:= by` and a newline
        v15_statement = row["formal_statement"].split(":= by")[0] + ":= by\n"
        expected = template.format(header=row["header"], informal_prefix=row["informal_prefix"],
                                   formal_statement=v15_statement)
        assert render(name, row) == expected


def test_every_preset_cites_a_commit_and_has_published_sampling():
    for preset in PRESETS.values():
        assert preset.sources and any("@" in s and len(s.split("@")[1].split(":")[0]) == 40 for s in preset.sources)
        assert preset.max_tokens > 0
    assert get_preset("deepseek-prover-v1.5").sampling() == {"temperature": 1.0, "top_p": 0.95, "max_tokens": 2048}
    assert get_preset("goedel-prover-v2").sampling()["top_p"] == 0.95
    assert get_preset("kimina-prover").sampling() == {"temperature": 0.8, "top_p": None, "max_tokens": 16000}
    assert {p.endpoint for p in PRESETS.values() if p.name.startswith("deepseek-prover-v1.5")} == {"completion"}


def test_unknown_preset_name():
    with pytest.raises(UnknownPreset, match="unknown prover preset 'nope'"):
        get_preset("nope")


@pytest.mark.parametrize(
    ("model", "cot", "preset"),
    [
        ("Goedel-LM/Goedel-Prover-V2-8B", False, "goedel-prover-v2"),
        ("Goedel-LM/Goedel-Prover-V2-32B", True, "goedel-prover-v2"),
        ("AI-MO/Kimina-Prover-Preview-Distill-7B", False, "kimina-prover-preview"),
        ("AI-MO/Kimina-Prover-72B", False, "kimina-prover"),
        ("AI-MO/Kimina-Prover-Distill-1.7B", False, "kimina-prover"),
        ("deepseek-ai/DeepSeek-Prover-V2-7B", False, "deepseek-prover-v2"),
        ("deepseek-ai/DeepSeek-Prover-V2-671B", True, "deepseek-prover-v2-cot"),
        ("deepseek-ai/DeepSeek-Prover-V1.5-RL", False, "deepseek-prover-v1.5"),
        ("/models/deepseek-prover-v1.5-sft", True, "deepseek-prover-v1.5-cot"),
        ("fake-model", False, None),
        ("Qwen/Qwen3-8B", False, None),
    ],
)
def test_preset_inferred_from_the_model_id(model, cot, preset):
    found = preset_for_model(model, cot=cot)
    assert (found.name if found else None) == preset


def test_reasoning_planners():
    assert is_reasoning_model("deepseek-ai/DeepSeek-R1") and is_reasoning_model("Qwen/QwQ-32B")
    assert not is_reasoning_model("deepseek-ai/DeepSeek-V3") and not is_reasoning_model(None)


# --- readers ---------------------------------------------------------------------------------------

PROOF = "theorem t (x : ℕ) : x = x := by\n  rfl"


def test_goedel_reader_takes_the_last_complete_block_even_when_cut():
    cut = f"<think>\nplan\n```lean4\n{PROOF}\n```\nmore thinking ```lean4\ntheorem t (x : ℕ) : x = x := by\n  sim"
    assert read_lean_code(cut, reader="last-block") == PROOF
    assert read_lean_code("no code", reader="last-block") is None


def test_kimina_reader_skips_blocks_without_the_theorem_words():
    text = f"```lean4\nimport Mathlib\n{PROOF}\n```\nand a remark\n```lean4\nexample : True := trivial\n```"
    assert read_lean_code(text, prompts.MINIF2F_HEADER, reader="kimina") == PROOF
    assert read_lean_code(f"```lean4\n{PROOF}\n```", reader="kimina") is None  # no `import`: not a proof to them


def test_deepseek_reader_falls_back_to_the_last_complete_block_only_when_cut():
    cut = f"<think>\n```lean4\n{PROOF}\n```\nstill thinking"
    assert read_lean_code(cut, reader="deepseek", cut_off=True) == PROOF
    assert read_lean_code(cut, reader="deepseek", cut_off=False) is None  # not cut: an unclosed think is no answer
    unterminated = f"### Complete Lean 4 Proof\n```lean4\n{PROOF}\n```\nagain:\n```lean4\ntheorem t (x : ℕ) : x = x := by\n  si"
    assert read_lean_code(unterminated, reader="deepseek", cut_off=True) == PROOF


# --- correction turns --------------------------------------------------------------------------------


def test_kimina_error_message_is_create_tool_message():
    code = "import Mathlib\nimport Aesop\n\ntheorem t (x : ℕ) : x = x := by\n  simp\n  linarith\n"
    errors = [{"severity": "error", "pos": {"line": 5, "column": 2}, "endPos": {"line": 5, "column": 6},
               "data": "simp made no progress  "},
              {"severity": "warning", "pos": {"line": 4, "column": 8}, "data": "unused"}]
    # their code: proof lines counted after the leading import lines, `>` on pos.line - 1
    lines = code.strip().split("\n")[2:]
    snippet = "```lean4\n" + "".join(
        f"{ln + 1:03d}{' >' if ln == 4 else '  '}| {lines[ln]}\n" for ln in range(2, min(len(lines), 7))) + "```"
    expected = "# Error 1:\n" + "Error message: \nsimp made no progress\n\n" + f"Lean 4 code snippet with error:\n{snippet}\n"
    assert prompts.kimina_error_message(code, errors) == expected


def test_goedel_feedback_marks_each_errors_start_and_end():
    code = "theorem t : True := by\n  have h : 1 = 1 := by\n    bad_one\n    bad_two\n  trivial"
    error = {"severity": "error", "pos": {"line": 3, "column": 4}, "endPos": {"line": 4, "column": 11},
             "data": "unsolved goals"}
    text = prompts.format_errors(code, [error])
    assert "    <error>bad_one\n    bad_two</error>\n" in text
    feedback = prompts.prover_correction_feedback(text, 0)
    assert feedback == GOEDEL_FEEDBACK.format(n=0, errors=text)


def test_kimina_preview_preset_takes_one_source_the_model_card() -> None:
    """Issue 47: the prompt was the card's and temperature 1.0 Goedel-Prover-V2's pipeline's; now the
    whole preset follows the card (as Goedel's KiminaCoTHandler cites it) and says so."""
    p = get_preset("kimina-prover-preview")
    assert p.sampling() == {"temperature": 0.6, "top_p": 0.95, "max_tokens": 8096}
    assert "Kimina-Prover-Preview-Distill-7B model card" in p.sources[0] and "the whole preset" in p.sources[0]
    assert not any("pipeline.sh" in s or "inference.py" in s for s in p.sources)  # Goedel's sampling is not used
    assert "One source for the whole preset" in p.notes

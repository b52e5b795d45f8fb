"""The prompt templates: DeepSeek-Prover-V2's verbatim, Goedel-Prover-V2's error format, planner prompts."""

from __future__ import annotations

from lemmaforge.agent import prompts
from lemmaforge.agent.prompts import MINIF2F_HEADER
from lemmaforge.lean.verifier import Message, Position, Severity

STATEMENT = (
    "/-- What is the positive difference between $120\\%$ of 30 and $130\\%$ of 20? Show that it is 10.-/\n"
    "theorem mathd_algebra_10 : abs ((120 : ℝ) / 100 * 30 - 130 / 100 * 20) = 10 := by\n  sorry"
)

# The DeepSeek-Prover-V2 model card's example, as written there.
README_FORMAL_STATEMENT = (MINIF2F_HEADER + STATEMENT).strip()
README_PROMPT = """
Complete the following Lean 4 code:

```lean4
{}
```

Before producing the Lean 4 code to formally prove the given theorem, provide a detailed proof plan outlining the main proof steps and strategies.
The plan should highlight key ideas, intermediate lemmas, and proof structures that will guide the construction of the final formal proof.
""".strip()


def test_cot_prompt_is_deepseek_prover_v2_verbatim():
    assert prompts.prover_prompt(MINIF2F_HEADER, STATEMENT, cot=True) == README_PROMPT.format(
        README_FORMAL_STATEMENT
    )
    assert prompts.prover_messages(MINIF2F_HEADER, STATEMENT, cot=True) == [
        {"role": "user", "content": README_PROMPT.format(README_FORMAL_STATEMENT)}
    ]


def test_non_cot_prompt_is_the_code_block_alone():
    assert prompts.prover_prompt(MINIF2F_HEADER, STATEMENT, cot=False) == (
        f"Complete the following Lean 4 code:\n\n```lean4\n{README_FORMAL_STATEMENT}\n```"
    )


def test_completion_prompt_leaves_the_block_open_after_by():
    opened = STATEMENT[: -len("\n  sorry")] + "\n"
    p = prompts.prover_completion_prompt(MINIF2F_HEADER, opened)
    assert p == "Complete the following Lean 4 code:\n\n```lean4\n" + MINIF2F_HEADER + opened
    assert p.endswith(":= by\n")


CODE = "\n".join(
    [
        "import Mathlib",  # 1
        "",  # 2
        "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by",  # 3
        "  have h1 : 0 < x * x := by",  # 4
        "    nlinarith",  # 5
        "  simpa [pow_two] using h1",  # 6
    ]
)


def test_goedel_error_format_single_line():
    err = Message(Severity.ERROR, "linarith failed to find a contradiction", Position(5, 4), Position(5, 13))
    assert prompts.format_errors(CODE, [err]) == (
        "\nError 1:\n"
        "\nCorresponding Code:\n```lean4\n"
        "import Mathlib\n"
        "\n"
        "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by\n"
        "  have h1 : 0 < x * x := by\n"
        "    <error>nlinarith</error>\n"
        "  simpa [pow_two] using h1\n"
        "\n```\n"
        "\nError Message: linarith failed to find a contradiction\n"
    )


def test_goedel_error_format_multi_line_no_end_plain_and_omitted():
    multi = {
        "severity": "error",
        "data": "unsolved goals",
        "pos": {"line": 4, "column": 25},
        "endPos": {"line": 5, "column": 13},
    }
    no_end = Message(Severity.ERROR, "unknown identifier", Position(6, 2), None)
    text = prompts.format_errors(CODE, [multi, no_end, "plain message"], max_errors=2)
    assert "  have h1 : 0 < x * x := <error>by\n    nlinarith</error>\n  simpa [pow_two] using h1\n" in text
    assert "  <error>simpa [pow_two] using h1</error>\n\n```\n\nError Message: unknown identifier\n" in text
    assert text.endswith("\n... [Omitted 1 more errors] ...\n")
    assert prompts.format_errors(CODE, ["plain message"]) == "\nError 1:\n\nError Message: plain message\n"


def test_long_error_ranges_are_truncated():
    code = "\n".join(f"line {i}" for i in range(1, 21))
    err = Message(Severity.ERROR, "boom", Position(2, 0), Position(15, 4))
    text = prompts.format_errors(code, [err])
    assert (
        "<error>line 2\nline 3\nline 4\nline 5\nline 6\nline 7\n\n... --[Truncated]-- ...\nline</error> 15\nline 16\n"
        in text
    )


def test_only_errors_drops_warnings():
    warn = Message(Severity.WARNING, "declaration uses 'sorry'", Position(3, 8), None)
    err = Message(Severity.ERROR, "type mismatch", Position(6, 2), None)
    assert prompts.only_errors([warn, err]) == [err]
    assert prompts.only_errors([warn]) == [warn]


def test_goedel_correction_conversation():
    history = prompts.prover_messages(MINIF2F_HEADER, STATEMENT, cot=True)
    msgs = prompts.prover_correction_messages(history, "previous answer", "\nError 1:\n...", 0)
    assert [m["role"] for m in msgs] == ["user", "assistant", "user"]
    assert msgs[1]["content"] == "previous answer"
    assert msgs[2]["content"] == (
        "The proof (Round 0) is not correct. Following is the compilation error message, where we use "
        "<error></error> to signal the position of the error.\n\n\nError 1:\n..."
        "\n\nBefore producing the Lean 4 code to formally prove the given theorem, provide a detailed analysis "
        "of the error message."
    )


def test_inline_annotation_as_comments():
    err = Message(Severity.ERROR, "linarith failed\nmore detail", Position(5, 4), None)
    annotated = prompts.annotate_errors_inline(CODE, [err, "no position"])
    lines = annotated.split("\n")
    assert lines[4] == "    nlinarith" and lines[5] == "    -- ^ error: linarith failed"
    assert lines[-1] == "-- error: no position"


def test_planner_draft_prompt_has_the_theorem_rules_and_format():
    msgs = prompts.planner_draft_messages(MINIF2F_HEADER, STATEMENT, informal="Compute: 36 - 26 = 10.")
    assert [m["role"] for m in msgs] == ["system", "user"]
    user = msgs[1]["content"]
    assert f"```lean4\n{README_FORMAL_STATEMENT}\n```" in user
    assert "Compute: 36 - 26 = 10." in user
    assert "`have name : statement := by sorry`" in user
    assert "never inside `calc` blocks" in user and "Later steps may use earlier steps" in user
    assert "Restate the theorem exactly as given" in user
    assert "### Lean 4 Sketch" in user and "tried before" not in user
    again = prompts.planner_draft_prompt(MINIF2F_HEADER, STATEMENT, avoid=["theorem old := by\n  sorry"])
    assert "tried before" in again and "theorem old := by\n  sorry" in again


def test_planner_correction_prompt_shows_the_checked_file_and_marked_errors():
    err = Message(Severity.ERROR, "linarith failed", Position(5, 4), Position(5, 13))
    text = prompts.planner_correction_prompt(MINIF2F_HEADER, STATEMENT, CODE, [err, "another problem"])
    assert f"```lean4\n{CODE}\n```" in text
    assert "    <error>nlinarith</error>\n" in text and "Error Message: another problem" in text


def test_with_header_and_to_plain():
    assert prompts.with_header("import Mathlib", "theorem x") == "import Mathlib\ntheorem x"
    assert prompts.with_header(MINIF2F_HEADER, "theorem x") == MINIF2F_HEADER + "theorem x"
    assert prompts.with_header("", "theorem x") == "theorem x"
    assert (
        prompts.to_plain([{"role": "system", "content": "a "}, {"role": "user", "content": "b"}])
        == "a\n\nb\n\n"
    )


def test_formatted_message_strings_are_read_back_into_positions():
    err = Message(Severity.ERROR, "linarith failed", Position(5, 4), None)
    assert prompts.format_errors(CODE, [err.format()]) == prompts.format_errors(CODE, [err])
    assert "    <error>nlinarith</error>\n" in prompts.format_errors(CODE, ["5:4: error: linarith failed"])
    assert prompts.only_errors(["3:0: warning: declaration uses 'sorry'", "x"]) == ["x"]


def _minif2f_rows(split: str = "test") -> list[dict]:
    import json

    from tests.conftest import BENCHMARKS

    with (BENCHMARKS / "minif2f.jsonl").open(encoding="utf-8") as f:
        return [r for r in map(json.loads, f) if r["split"] == split]


def test_prover_prompt_carries_the_informal_statement_as_deepseek_prover_v2_does(shared_data):
    """DeepSeek-Prover-V2's miniF2F prompts: `{header}{informal_prefix}{formal_statement}` in the
    code block. From the informal statement or from the ready `informal_prefix`, the same block."""
    rows = _minif2f_rows()
    checked = 0
    for row in rows:
        if not row.get("informal_prefix") or not row.get("informal_statement"):
            continue
        expected = (row["header"] + row["informal_prefix"] + row["formal_statement"]).strip()
        for informal in (row["informal_statement"], row["informal_prefix"]):
            for cot in (False, True):
                prompt = prompts.prover_prompt(row["header"], row["formal_statement"], cot=cot, informal=informal)
                assert prompt.startswith(f"Complete the following Lean 4 code:\n\n```lean4\n{expected}\n```")
        checked += 1
    assert checked >= 200


def test_informal_docstring_placement_and_escaping():
    stmt = "def f (x : ℕ) : ℕ := x\n\ntheorem t : f 1 = 1 := by\n  sorry"
    out = prompts.with_informal(stmt, "Show that f(1) = 1.")
    assert out == "def f (x : ℕ) : ℕ := x\n\n/-- Show that f(1) = 1.-/\ntheorem t : f 1 = 1 := by\n  sorry"
    # a theorem that has its own docstring keeps it; no informal, no change
    documented = "/-- Given. -/\ntheorem t : 1 = 1 := by\n  sorry"
    assert prompts.with_informal(documented, "Other.") == documented
    assert prompts.with_informal(stmt, None) == stmt == prompts.with_informal(stmt, "  ")
    # `-/` in the text cannot close the docstring early
    assert prompts.informal_docstring("a -/ b") == "/-- a - / b-/\n"
    opened = "theorem t : 1 = 1 := by\n"
    assert prompts.prover_completion_prompt("", opened, "One is one.").endswith("/-- One is one.-/\ntheorem t : 1 = 1 := by\n")

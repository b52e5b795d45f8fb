"""agent.output: the one parser of model text (fences, <think>, CoT sections, header lines)."""

from __future__ import annotations

from lemmaforge.agent.output import (
    code_blocks,
    extract_lean_code,
    informal_part,
    lean_blocks,
    sketch_and_proof,
    strip_header_lines,
)

HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n"


def test_lean_blocks_only_closed_lean_fences() -> None:
    text = "```python\nx = 1\n```\n```lean4\na\n```\n```lean\nb\n```\n```lean4\ncut off"
    assert lean_blocks(text) == ["a\n", "b\n"]
    assert [b.closed for b in code_blocks(text)] == [True, True, True, False]


def test_sketch_and_proof_ignores_sorry_in_comments_and_strings() -> None:
    text = (
        '```lean4\n-- sorry later\nhave h : "sorry" = "sorry" := rfl\n```\n'
        "```lean4\nhave h : 1 = 1 := by sorry\n```\n```lean4\nexact rfl\n```"
    )
    assert sketch_and_proof(text) == ("have h : 1 = 1 := by sorry\n", "exact rfl\n")


def test_strip_header_lines_drops_imports_and_known_commands_at_any_column() -> None:
    code = (
        "import Mathlib\n  import Aesop\nset_option maxHeartbeats 400000\nopen Real\n"
        "open BigOperators Real Nat Topology Rat\nset_option maxHeartbeats 400000 in\ntheorem t : True := trivial"
    )
    out = strip_header_lines(code, HEADER)
    # `open Real` is not in the header (kept); the `… in` prefix scopes the theorem (kept).
    assert out == "open Real\nset_option maxHeartbeats 400000 in\ntheorem t : True := trivial"


def test_extract_after_think_and_complete_heading() -> None:
    out = (
        "<think>```lean4\ntheorem wrong : False := sorry\n```</think>\n### Detailed Proof\nplan\n"
        "```lean4\ntheorem sketch : True := by sorry\n```\n### Complete Lean 4 Proof\n"
        "```lean4\nimport Mathlib\ntheorem t : True := by\n  trivial\n```"
    )
    assert extract_lean_code(out, HEADER) == "theorem t : True := by\n  trivial"
    # The prose before the final block (the sketch block is part of the plan), headings trimmed.
    assert informal_part(out) == "### Detailed Proof\nplan\n```lean4\ntheorem sketch : True := by sorry\n```"
    assert extract_lean_code("<think>never closed ```lean4\ntheorem t : True := trivial\n```") is None

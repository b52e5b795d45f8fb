"""Every prompt lemmaforge sends to a model, in one place.

Pure string formatting: no model calls, no Lean parsing (the planner and the prover prepare the
statement text they pass in). Chat prompts are lists of `{"role", "content"}` messages; prompts for
completion-mode endpoints (no chat template) are plain strings.

Sources of the published templates (see `docs/research/provers.md`):

- Prover, non-CoT and CoT: DeepSeek-Prover-V2's model card / README — "Complete the following
  Lean 4 code:" + the header, the informal statement as a docstring where the dataset has one
  (`{header}{docstring}theorem … := by sorry`, the miniF2F `informal_prefix` layout) and the
  theorem ending in `sorry` in a ```lean4 block, plus, for CoT, the "Before producing the Lean 4
  code … detailed proof plan …" paragraph, verbatim.
- Prover, completion mode (no chat template): DeepSeek-Prover-V1.5 style — the same first line and
  an OPEN ```lean4 block ending in `:= by`, which the model continues with the proof.
- Prover self-correction: Goedel-Prover-V2 (`src/utils.py`) — the previous answer stays in the
  chat, then "The proof (Round {n}) is not correct. Following is the compilation error message,
  where we use <error></error> to signal the position of the error. …", each error shown as the
  code around it with `<error>…</error>` marking Lean's range, then `Error Message:`, at most 8.
- Planner sketch: DeepSeek-Prover-V2 did not publish DeepSeek-V3's prompt; ours asks for the same
  output (informal plan, then `have name : P := by sorry` steps) with the rules of Hilbert and
  goedels-poetry (flat chain, no `sorry` nested in `calc`/`cases`/`induction`, self-contained
  steps, later steps may use earlier ones, statement unchanged).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from lemmaforge.lean.verifier import Message

# The header DeepSeek-Prover-V2, Goedel-Prover-V2 and Hilbert use for miniF2F.
MINIF2F_HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n\nopen BigOperators Real Nat Topology Rat\n\n"

MAX_ERRORS = 8  # Goedel-Prover-V2 shows at most 8 errors

Messages = list[dict[str, str]]


def with_header(header: str, code: str) -> str:
    """The Lean file for `code` under `header` — the one way lemmaforge joins them, so that the
    line numbers of Lean's messages about the file can be mapped back."""
    if not header:
        return code
    if not header.endswith("\n"):
        header += "\n"
    return header + code


# ---------------------------------------------------------------------------------------------
# Prover (DeepSeek-Prover-V2 templates)
# ---------------------------------------------------------------------------------------------

PROVER_INSTRUCTION = "Complete the following Lean 4 code:"
PROVER_COT_SUFFIX = (
    "Before producing the Lean 4 code to formally prove the given theorem, provide a detailed proof plan "
    "outlining the main proof steps and strategies.\n"
    "The plan should highlight key ideas, intermediate lemmas, and proof structures that will guide the "
    "construction of the final formal proof."
)


def informal_docstring(informal: str | None) -> str:
    """The informal statement as the docstring DeepSeek-Prover-V2's miniF2F prompts carry in the
    code block (the dataset's `informal_prefix`: `/-- text-/` and a newline). An `informal` that
    is already a docstring is kept as written; "" for none. A `-/` inside the text would end the
    comment early: it is broken up."""
    if informal is None or not informal.strip():
        return ""
    text = informal.strip()
    if text.startswith("/--") and text.endswith("-/") and "-/" not in text[3:-2]:
        return text + "\n"
    return "/-- " + text.replace("-/", "- /") + "-/\n"


def with_informal(statement: str, informal: str | None) -> str:
    """`statement` with the informal docstring right before its theorem (after any definitions
    the statement brings along), unless the theorem already has a docstring."""
    doc = informal_docstring(informal)
    if not doc:
        return statement
    from lemmaforge.lean import syntax as lean_syntax

    decl = lean_syntax.last_theorem(statement)
    if decl is None:
        return doc + statement
    if decl.docstring is not None:
        return statement
    return statement[: decl.start] + doc + statement[decl.start :]


def prover_prompt(header: str, statement: str, *, cot: bool, informal: str | None = None) -> str:
    """DeepSeek-Prover-V2's user prompt. `statement` is the theorem (docstring allowed) ending in
    `:= by\\n  sorry`; the code block holds `header + docstring + statement`, stripped as in the
    model card, the docstring being `informal` (the dataset's informal statement or its
    `informal_prefix`) where there is one."""
    code = with_header(header, with_informal(statement, informal)).strip()
    prompt = f"{PROVER_INSTRUCTION}\n\n```lean4\n{code}\n```"
    if cot:
        prompt += f"\n\n{PROVER_COT_SUFFIX}"
    return prompt


def prover_messages(header: str, statement: str, *, cot: bool, informal: str | None = None) -> Messages:
    return [{"role": "user", "content": prover_prompt(header, statement, cot=cot, informal=informal)}]


def prover_completion_prompt(header: str, open_statement: str, informal: str | None = None) -> str:
    """Completion mode (no chat template): an open ```lean4 block ending in the theorem's
    `:= by\\n` (after the informal docstring, as in `prover_prompt`); the model continues with the
    tactic proof and closes the block."""
    return f"{PROVER_INSTRUCTION}\n\n```lean4\n{with_header(header, with_informal(open_statement, informal))}"


# ---------------------------------------------------------------------------------------------
# Prover templates of the other families (chosen by `agent.presets`), each as its authors' code
# renders it. `open_statement` is the theorem cut after its `:= by` (no proof, no newline after).
# ---------------------------------------------------------------------------------------------

# Goedel-Prover-V2 `src/utils.py` (DeepSeekCoTHandler.prover_inference): the statement is
# `lean4_code.split(":= by")[0] + ":= by sorry"` and the closing fence follows `sorry` directly.
GOEDEL_V2_TEMPLATE = "Complete the following Lean 4 code:\n\n```lean4\n{formal_statement}```\n\n" + PROVER_COT_SUFFIX

# Kimina-Prover Preview (the Distill models' card, as Goedel-Prover-V2 `src/utils.py`
# KiminaCoTHandler renders it).
KIMINA_PREVIEW_SYSTEM = "You are an expert in mathematics and Lean 4."
KIMINA_PREVIEW_INSTRUCTION = "Think about and solve the following problem step by step in Lean 4."

# Kimina-Prover (2025: 72B, Distill-8B / 1.7B): MoonshotAI/Kimina-Prover-Preview
# `kimina_prover_demo/error_fix.py` and `lemma_use.py` (no fence around the statement).
KIMINA_SYSTEM = (
    "You are an expert programmer and mathematician who helps formalizing mathematical problems in Lean 4."
)
KIMINA_INSTRUCTION = "Think about and solve the following problems step by step in Lean 4."

# DeepSeek-Prover-V1.5 `prover/utils.py`: raw-completion prompts (`non_cot_prompt`, `cot_prompt`).
V15_COT_INSTRUCTION = "Complete the following Lean 4 code with explanatory comments preceding each line of code:"


def _statement_code(header: str, open_statement: str, informal: str | None, tail: str) -> str:
    """`header + docstring + open_statement + tail`: the dataset's `lean4_code` layout."""
    return with_header(header, with_informal(open_statement + tail, informal))


def goedel_v2_prompt(header: str, open_statement: str, informal: str | None = None) -> str:
    """Goedel-Prover-V2's user prompt (its pipeline's `dpskcot` handler): the DeepSeek CoT prompt
    with the statement ending `:= by sorry` right before the closing fence, not stripped."""
    return GOEDEL_V2_TEMPLATE.format(formal_statement=_statement_code(header, open_statement, informal, " sorry"))


def clean_code_string(code: str) -> str:
    """Goedel-Prover-V2's `InferenceHandler.clean_code_string`: the lines that do not start with
    `import` / `set_option` / `open` and are not blank."""
    return "\n".join(
        line for line in code.splitlines()
        if not (line.startswith("import") or line.startswith("set_option") or line.startswith("open")
                or line.strip() == "")
    )


def kimina_preview_prompt(header: str, open_statement: str, informal: str | None = None) -> str:
    """Kimina-Prover Preview's user prompt: `# Problem:` then the informal statement (the model
    card's layout; with none, the cleaned code, as Goedel-Prover-V2's KiminaCoTHandler fills it),
    then the statement ending `:= by` in a ```lean4 block."""
    formal_statement = _statement_code(header, open_statement, informal, "")
    problem = informal if informal and informal.strip() else clean_code_string(formal_statement)
    prompt = KIMINA_PREVIEW_INSTRUCTION
    prompt += f"\n# Problem:{problem}"
    prompt += f"\n# Formal statement:\n```lean4\n{formal_statement}\n```\n"
    return prompt


def kimina_prompt(header: str, open_statement: str, informal: str | None = None) -> str:
    """Kimina-Prover (2025)'s user prompt: the instruction, a blank line, then the code (header,
    docstring, theorem ending `:= by sorry`) with no fence."""
    return f"{KIMINA_INSTRUCTION}\n\n" + _statement_code(header, open_statement, informal, " sorry").strip()


def v15_prompt(header: str, open_statement: str, informal: str | None = None, *, cot: bool = False) -> str:
    """DeepSeek-Prover-V1.5's raw-completion prompt: an open ```lean4 block ending in the
    statement's `:= by` and a newline (the dataset's `formal_statement`), which the model continues."""
    instruction = V15_COT_INSTRUCTION if cot else PROVER_INSTRUCTION
    return f"{instruction}\n\n```lean4\n" + _statement_code(header, open_statement, informal, "\n")


def split_proof_header(proof: str) -> tuple[str, str]:
    """Kimina's `split_proof_header` (kimina_prover_demo/utils.py): the leading `import` lines, and
    the rest, read as its code reads them."""
    proof = proof.strip()
    header_lines: list[str] = []
    toggle = False
    lines = proof.split("\n")
    index = 0
    for line in lines:
        if line.startswith("import"):
            toggle = True
            header_lines.append(line)
            index += 1
        elif toggle:
            break
    return "\n".join(header_lines).strip(), "\n".join(lines[index:])


def kimina_error_message(code: str, errors: Sequence[Any], *, max_errors: int = 3) -> str:
    """Kimina-Prover's error-fix turn (kimina_prover_demo/utils.py `create_tool_message`): the
    first 3 errors, each with its message and the lines around it numbered, `>` marking the line
    where it starts (its code counts lines after the leading `import` lines, as published). The
    goal state it adds from Lean's info tree is left out: no backend here returns info trees
    (their code leaves it out too when it finds none)."""
    errs = [e for e in errors if _error_fields(e)[3] == "error"][:max_errors]
    _, context = split_proof_header(code)
    proof_lines = context.split("\n")
    out = ""
    for i, error in enumerate(errs, 1):
        data, start, _, _ = _error_fields(error)
        out += f"# Error {i}:\n"
        out += f"Error message: \n{data.strip()}\n\n"
        if start is not None:
            line_num = start[0] - 1
            snippet = "```lean4\n"
            for ln in range(max(0, line_num - 2), min(len(proof_lines), line_num + 3)):
                proof_line = proof_lines[ln].replace("count_heartbeats in", "")
                snippet += f"{ln + 1:03d}{' >' if ln == line_num else '  '}| {proof_line}\n"
            out += f"Lean 4 code snippet with error:\n{snippet}```\n"
    return out


# ---------------------------------------------------------------------------------------------
# Lean errors (Goedel-Prover-V2 format)
# ---------------------------------------------------------------------------------------------


_FORMATTED = re.compile(r"^(\d+):(\d+): (error|warning|info|trace): (.*)$", re.DOTALL)


def _error_fields(error: Any) -> tuple[str, tuple[int, int] | None, tuple[int, int] | None, str]:
    """(message, (line, column) start, end, severity) from a `Message`, a REPL message dict or a
    string — `Message.format()`'s `line:col: severity: text` is read back into a position. Lines
    are 1-based, columns 0-based (Lean REPL convention)."""
    if isinstance(error, str):
        m = _FORMATTED.match(error)
        if m:
            return m.group(4), (int(m.group(1)), int(m.group(2))), None, m.group(3)
        return error, None, None, "error"
    if isinstance(error, Mapping):
        data = str(error.get("data", error.get("message", "")))
        pos, end = error.get("pos"), error.get("endPos")
        start = (int(pos["line"]), int(pos["column"])) if pos else None
        stop = (int(end["line"]), int(end["column"])) if end else None
        return data, start, stop, str(error.get("severity", "error"))
    if not isinstance(error, Message):
        raise TypeError(f"a Lean error is a Message, a REPL message dict or a formatted line, not {type(error).__name__}")
    start = (error.pos.line, error.pos.column) if error.pos is not None else None
    stop = (error.end_pos.line, error.end_pos.column) if error.end_pos is not None else None
    return error.data, start, stop, error.severity.value


def only_errors(errors: Sequence[Any]) -> list[Any]:
    """Keep error-severity messages (warnings such as "declaration uses 'sorry'" are noise to a
    model); keep everything when nothing has error severity."""
    errs = [e for e in errors if _error_fields(e)[3] == "error"]
    return errs or list(errors)


def format_errors(code: str, errors: Sequence[Any], *, max_errors: int = MAX_ERRORS) -> str:
    """Goedel-Prover-V2's error listing (`get_error_str`): for each error the 4 lines before it,
    its range marked `<error>…</error>` (a long range shows 6 lines then `... --[Truncated]-- ...`),
    the line after, and `Error Message: …`. `code` is the exact file Lean checked (header
    included) so that positions match; errors without a position show only the message."""
    lines = code.split("\n")
    out = ""
    for i, error in enumerate(errors[:max_errors]):
        data, start, stop, _ = _error_fields(error)
        out += f"\nError {i + 1}:\n"
        if start is None or not lines or not 1 <= start[0] <= len(lines):
            out += f"\nError Message: {data}\n"
            continue
        start_line, start_col = start[0] - 1, start[1]
        if stop is None or not 1 <= stop[0] <= len(lines) or stop < start:
            end_line, end_col = start_line, len(lines[start_line])
        else:
            end_line, end_col = stop[0] - 1, stop[1]
        out += "\nCorresponding Code:\n```lean4\n"
        snippet = ""
        for back in range(-4, 0):
            if start_line + back >= 0:
                snippet += f"{lines[start_line + back]}\n"
        first = lines[start_line]
        if start_line != end_line:
            snippet += first[:start_col] + "<error>" + first[start_col:] + "\n"
            show = 6
            j = start_line
            for j in range(start_line + 1, min(end_line, start_line + show)):
                snippet += f"{lines[j]}\n"
            if end_line > start_line + show:
                lead = len(lines[j]) - len(lines[j].lstrip(" "))
                snippet += "\n" + " " * lead + "... --[Truncated]-- ...\n"
            last = lines[end_line]
            snippet += last[:end_col] + "</error>" + last[end_col:] + "\n"
        else:
            snippet += (
                first[:start_col] + "<error>" + first[start_col:end_col] + "</error>" + first[end_col:] + "\n"
            )
        if end_line + 1 < len(lines):
            snippet += f"{lines[end_line + 1]}\n"
        out += snippet + "\n```\n" + f"\nError Message: {data}\n"
    if len(errors) > max_errors:
        out += f"\n... [Omitted {len(errors) - max_errors} more errors] ...\n"
    return out


def annotate_errors_inline(code: str, errors: Sequence[Any], *, max_errors: int = MAX_ERRORS) -> str:
    """`code` with each error written as a Lean comment under the line where it starts:
    `-- ^ error: message` (first line of the message; the caret under Lean's column). Errors
    without a position are appended at the end as `-- error: message`."""
    lines = code.split("\n")
    notes: dict[int, list[str]] = {}
    loose: list[str] = []
    for error in errors[:max_errors]:
        data, start, _, _ = _error_fields(error)
        msg = " ".join(data.strip().splitlines()[0].split()) if data.strip() else "error"
        if start is None or not 1 <= start[0] <= len(lines):
            loose.append(f"-- error: {msg}")
            continue
        col = min(start[1], len(lines[start[0] - 1]))
        notes.setdefault(start[0] - 1, []).append(" " * col + f"-- ^ error: {msg}")
    out: list[str] = []
    for i, line in enumerate(lines):
        out.append(line)
        out.extend(notes.get(i, []))
    return "\n".join(out + loose)


# ---------------------------------------------------------------------------------------------
# Prover self-correction (Goedel-Prover-V2)
# ---------------------------------------------------------------------------------------------


def prover_correction_feedback(errors_text: str, round_: int) -> str:
    """Goedel-Prover-V2's feedback turn; `round_` counts from 0 for the first attempt."""
    return (
        f"The proof (Round {round_}) is not correct. Following is the compilation error message, where we use "
        f"<error></error> to signal the position of the error.\n\n{errors_text}"
        "\n\nBefore producing the Lean 4 code to formally prove the given theorem, provide a detailed analysis "
        "of the error message."
    )


def prover_correction_messages(
    history: Sequence[Mapping[str, str]], previous_output: str, errors_text: str, round_: int
) -> Messages:
    """The conversation so far (`history`: the messages that produced `previous_output`), the
    previous answer as the assistant turn, then the error feedback."""
    msgs = [{"role": str(m["role"]), "content": str(m["content"])} for m in history]
    msgs.append({"role": "assistant", "content": previous_output})
    msgs.append({"role": "user", "content": prover_correction_feedback(errors_text, round_)})
    return msgs


def prover_correction_completion_prompt(
    header: str, open_statement: str, annotated_previous: str, round_: int
) -> str:
    """Completion mode: the failed attempt (with its errors marked inline by
    `annotate_errors_inline`) as comments, then the open theorem to prove again."""
    annotated = annotated_previous
    commented = "\n".join(f"-- {line}" if line.strip() else "--" for line in annotated.split("\n"))
    note = (
        f"-- The previous proof attempt (Round {round_}) did not compile; Lean's errors are marked below.\n"
        f"{commented}\n-- A corrected proof:\n\n"
    )
    return f"{PROVER_INSTRUCTION}\n\n```lean4\n{with_header(header, note + open_statement)}"


# ---------------------------------------------------------------------------------------------
# Planner (sketches)
# ---------------------------------------------------------------------------------------------

PLANNER_SYSTEM = (
    "You are an expert mathematician and an expert in the Lean 4 theorem prover and its Mathlib library. "
    "You decompose hard theorems into chains of easier formal steps."
)

SKETCH_RULES = """\
Rules for the sketch:
1. Restate the theorem exactly as given: the same name, binders, hypotheses and conclusion. Do not repeat the \
`import`, `set_option` and `open` lines of the header.
2. The proof is a flat chain of steps `have name : statement := by sorry`, one per intermediate claim, then a \
closing tactic that proves the goal from the steps (for example `linarith [h1, h2]`, `nlinarith [...]`, \
`exact h3`, `simp_all`, `omega`). You may start with `intro` / `rintro` / `obtain` lines that introduce \
variables and hypotheses.
3. Put `sorry` only as the whole proof of a top-level step (`:= by sorry`): never inside `calc` blocks, \
`cases` / `rcases` / `induction` / `match` branches, `fun`s or nested `have`s. Do not use `sorry` for the \
closing step.
4. Each step's statement must be self-contained: it may mention only the theorem's variables and \
hypotheses and the names of earlier steps, with type ascriptions on numerals where the type matters \
(e.g. `(2 : ℝ)`).
5. Later steps may use earlier steps. Choose steps small enough that each one follows from the hypotheses \
and the earlier steps with a few tactics.
6. Do not add `axiom`s, `lemma`s, definitions or `set_option`s."""

SKETCH_FORMAT = """\
Answer in this format:

### Informal Proof
(the informal proof, as a numbered list of intermediate claims)

### Lean 4 Sketch
```lean4
theorem ... := by
  have step_1 : ... := by sorry
  have step_2 : ... := by sorry
  ...
  (closing tactic)
```"""


def _theorem_block(header: str, statement: str) -> str:
    return f"```lean4\n{with_header(header, statement).strip()}\n```"


def planner_draft_prompt(
    header: str, statement: str, informal: str | None = None, avoid: Sequence[str] = ()
) -> str:
    """Ask for an informal proof and a `have … := by sorry` sketch of `statement`. `informal`: an
    informal statement or proof to follow. `avoid`: earlier sketches of this theorem that did not
    work out, to get a different decomposition."""
    parts = [
        "Here is a theorem in Lean 4 with Mathlib. Do not prove it completely. Instead, write a proof "
        "sketch that decomposes it into easier intermediate steps, each of which will be proved separately.",
        _theorem_block(header, statement),
    ]
    if informal and informal.strip():
        parts.append(f"An informal statement or proof to follow:\n\n{informal.strip()}")
    if avoid:
        tried = "\n\n".join(f"```lean4\n{a.strip()}\n```" for a in avoid)
        parts.append(
            "These sketches were tried before and did not work out (a step could not be proved, or the "
            f"sketch did not compile):\n\n{tried}\n\nWrite a substantially different decomposition."
        )
    parts.append(
        "First explain an informal proof: the key idea, then a sequence of intermediate claims, each easy "
        "to prove from the hypotheses and the earlier claims. Then translate it into ONE Lean 4 code block."
    )
    parts.append(SKETCH_RULES)
    parts.append(SKETCH_FORMAT)
    return "\n\n".join(parts)


def planner_draft_messages(
    header: str, statement: str, informal: str | None = None, avoid: Sequence[str] = ()
) -> Messages:
    return [
        {"role": "system", "content": PLANNER_SYSTEM},
        {"role": "user", "content": planner_draft_prompt(header, statement, informal, avoid)},
    ]


def planner_correction_prompt(
    header: str, statement: str, checked_file: str, errors: Sequence[Any], informal: str | None = None
) -> str:
    """Ask to fix a sketch that Lean rejected. `checked_file` is the exact file Lean checked
    (header + sketch) so that the error positions match; errors are shown in Goedel's format."""
    parts = [
        "Here is a theorem in Lean 4 with Mathlib, to be decomposed into easier intermediate steps.",
        _theorem_block(header, statement),
    ]
    if informal and informal.strip():
        parts.append(f"An informal statement or proof to follow:\n\n{informal.strip()}")
    parts.append(
        "A proof sketch for it did not compile. This is the file Lean checked (line numbers in the errors "
        f"count from its first line):\n\n```lean4\n{checked_file.rstrip()}\n```"
    )
    parts.append(
        "Lean reported these errors; <error></error> marks the position of each one.\n"
        f"{format_errors(checked_file, only_errors(errors))}"
    )
    parts.append(
        "Explain briefly what went wrong. Then write the corrected sketch in ONE Lean 4 code block: keep the "
        "steps that were fine, and fix or replace the ones that caused errors (a step whose statement is "
        "false or ill-typed must be restated)."
    )
    parts.append(SKETCH_RULES)
    parts.append(SKETCH_FORMAT)
    return "\n\n".join(parts)


def planner_correction_messages(
    header: str, statement: str, checked_file: str, errors: Sequence[Any], informal: str | None = None
) -> Messages:
    return [
        {"role": "system", "content": PLANNER_SYSTEM},
        {
            "role": "user",
            "content": planner_correction_prompt(header, statement, checked_file, errors, informal),
        },
    ]


def without_system(messages: Sequence[Mapping[str, str]]) -> Messages:
    """`messages` with the system message's text moved to the start of the first user message
    (DeepSeek-R1's usage recommendation: no system prompt, every instruction in the user prompt)."""
    system = "\n\n".join(str(m["content"]) for m in messages if m["role"] == "system")
    out = [{"role": str(m["role"]), "content": str(m["content"])} for m in messages if m["role"] != "system"]
    if system:
        for m in out:
            if m["role"] == "user":
                m["content"] = f"{system}\n\n{m['content']}"
                break
        else:
            out.insert(0, {"role": "user", "content": system})
    return out


def to_plain(messages: Sequence[Mapping[str, str]]) -> str:
    """Chat messages as one prompt for a completion-mode endpoint (no chat template): the
    contents in order, separated by blank lines, ending with a blank line."""
    return "\n\n".join(str(m["content"]).strip() for m in messages) + "\n\n"


__all__ = [
    "GOEDEL_V2_TEMPLATE",
    "KIMINA_INSTRUCTION",
    "KIMINA_PREVIEW_INSTRUCTION",
    "KIMINA_PREVIEW_SYSTEM",
    "KIMINA_SYSTEM",
    "MAX_ERRORS",
    "V15_COT_INSTRUCTION",
    "clean_code_string",
    "goedel_v2_prompt",
    "kimina_error_message",
    "kimina_preview_prompt",
    "kimina_prompt",
    "split_proof_header",
    "v15_prompt",
    "MINIF2F_HEADER",
    "PLANNER_SYSTEM",
    "PROVER_COT_SUFFIX",
    "PROVER_INSTRUCTION",
    "SKETCH_FORMAT",
    "SKETCH_RULES",
    "annotate_errors_inline",
    "format_errors",
    "only_errors",
    "planner_correction_messages",
    "planner_correction_prompt",
    "planner_draft_messages",
    "planner_draft_prompt",
    "prover_completion_prompt",
    "prover_correction_completion_prompt",
    "prover_correction_feedback",
    "prover_correction_messages",
    "prover_messages",
    "prover_prompt",
    "to_plain",
    "with_header",
    "without_system",
]

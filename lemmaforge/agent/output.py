"""Model output → Lean code: code fences, `<think>` sections, DeepSeek-Prover-V2 CoT headings.

The one place that parses what a language model wrote (the prover, the planner and the GRPO
rewards all read outputs through it). It is pure text and tolerant of what models really write:
`<think>…</think>` preambles, CoT answers with a plan and several code blocks (the block after
`### Complete Lean 4 Proof` / the last Lean block wins), ```lean4 / ```lean / bare fences, a last
block cut off by `max_tokens` (returned as is: Lean judges it), and code that restates the header
(its `import` commands and the `set_option` / `open` commands the header already has are dropped,
so the code can go back under our header). The Lean inside the blocks is read with
`lemmaforge.lean.syntax`, like everywhere else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lemmaforge.lean import syntax

__all__ = [
    "READERS",
    "CodeBlock",
    "answer_text",
    "code_blocks",
    "dedent_lines",
    "drop_restated",
    "extract_lean_code",
    "final_block",
    "informal_part",
    "is_lean_block",
    "last_complete_block",
    "lean_blocks",
    "read_lean_code",
    "sketch_and_proof",
    "strip_header_lines",
    "trim_blank",
]

_FENCE_OPEN = re.compile(r"^[ \t]*(?P<ticks>`{3,})[ \t]*(?P<lang>[\w+.#-]*)[ \t]*$")
_LEAN_LANGS = {"lean", "lean4"}
_COMPLETE = re.compile(r"^#+[ \t]*Complete Lean 4 Proof", re.IGNORECASE | re.MULTILINE)
_INFORMAL_HEADING = re.compile(r"\s*#+\s*Informal", re.IGNORECASE)
_LOOKS_LEAN = re.compile(r"\b(theorem|lemma|example)\b|:=\s*by\b|\bby\s*$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class CodeBlock:
    lang: str
    body: str
    start: int  # offset of the opening fence line
    end: int  # offset after the closing fence (or the end of the text when unterminated)
    closed: bool


def code_blocks(text: str) -> list[CodeBlock]:
    """Fenced blocks in order. A block left open at the end of the text is returned with
    `closed=False` (the model ran out of tokens). A closing fence glued to the end of a code line
    (`  linarith```) closes the block too."""
    blocks: list[CodeBlock] = []
    pos = 0
    cur: tuple[str, int, int, list[str]] | None = None  # lang, fence start, ticks, lines
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        if cur is None:
            m = _FENCE_OPEN.match(bare)
            if m:
                cur = (m.group("lang").lower(), pos, len(m.group("ticks")), [])
        else:
            lang, start, ticks, body = cur
            stripped = bare.strip()
            if stripped and set(stripped) == {"`"} and len(stripped) >= ticks:
                blocks.append(CodeBlock(lang, "".join(body), start, pos + len(line), True))
                cur = None
            elif bare.rstrip().endswith("`" * ticks) and bare.strip("` \t"):
                body.append(bare.rstrip()[:-ticks] + "\n")
                blocks.append(CodeBlock(lang, "".join(body), start, pos + len(line), True))
                cur = None
            else:
                body.append(line)
        pos += len(line)
    if cur is not None:
        lang, start, _, body = cur
        blocks.append(CodeBlock(lang, "".join(body), start, len(text), False))
    return blocks


def is_lean_block(block: CodeBlock) -> bool:
    """A ```lean / ```lean4 block, or an untagged one whose text looks like Lean."""
    if block.lang in _LEAN_LANGS:
        return True
    return block.lang == "" and bool(_LOOKS_LEAN.search(block.body))


def lean_blocks(text: str) -> list[str]:
    """The bodies of every CLOSED ```lean4 / ```lean block of `text`, in order (a truncated last
    block is not a proof for the rewards)."""
    return [b.body for b in code_blocks(text) if b.closed and b.lang in _LEAN_LANGS]


def answer_text(output: str) -> str | None:
    """The part of `output` after the reasoning: the text after the last `</think>`; None when a
    `<think>` section never closed (the model was still thinking when it stopped)."""
    close = output.rfind("</think>")
    if close >= 0:
        return output[close + len("</think>") :]
    if "<think>" in output:
        return None
    return output


def final_block(output: str) -> tuple[str, CodeBlock] | None:
    """(answer text, the final Lean block in it), or None. With a `### Complete Lean 4 Proof`
    heading (DeepSeek-Prover-V2 CoT), the block must come after the last such heading."""
    text = answer_text(output)
    if text is None:
        return None
    blocks = [b for b in code_blocks(text) if is_lean_block(b)]
    headings = list(_COMPLETE.finditer(text))
    if headings:
        blocks = [b for b in blocks if b.start >= headings[-1].end()]
    if not blocks:
        return None
    return text, blocks[-1]


def informal_part(output: str) -> str:
    """The prose before the final code block, without markdown headings around it."""
    found = final_block(output)
    if found is None:
        return ""
    text, block = found
    lines = text[: block.start].strip().split("\n")
    while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
        lines.pop()
    while lines and (not lines[0].strip() or _INFORMAL_HEADING.match(lines[0])):
        lines.pop(0)
    return "\n".join(lines).strip()


def _has_hole(code: str) -> bool:
    return bool(syntax.find_tokens(code, ("sorry", "admit")))


def sketch_and_proof(text: str) -> tuple[str | None, str | None]:
    """(sketch, final proof) of a CoT completion: the sketch is the first closed Lean block with a
    real `sorry`/`admit` token (not one in a comment or string), the proof the last block,
    provided it comes after the sketch."""
    blocks = lean_blocks(text)
    sketch_index = next((i for i, b in enumerate(blocks) if _has_hole(b)), None)
    if sketch_index is None:
        return None, blocks[-1] if blocks else None
    if sketch_index == len(blocks) - 1:
        return blocks[sketch_index], None
    return blocks[sketch_index], blocks[-1]


def dedent_lines(lines: list[str]) -> list[str]:
    """Remove the common indentation of the non-blank lines; blank lines become ""."""
    lines = [ln.rstrip() if not ln.strip() else ln for ln in lines]
    indents = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
    cut = min(indents, default=0)
    return [ln[cut:] if ln.strip() else "" for ln in lines]


def trim_blank(lines: list[str]) -> list[str]:
    """Drop blank lines at both ends (in place) and return the list."""
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def strip_header_lines(code: str, header: str | None = None) -> str:
    """Drop `import` commands, and the `set_option` / `open` commands that `header` already has
    (found as Lean finds commands, at any column; a `… in` prefix scopes one declaration and is
    kept). The lines they stood on go with them when nothing else is on those lines."""
    known = {
        syntax.normalize_statement(c.text)
        for c in syntax.split_commands(header or "")
        if c.keyword in ("set_option", "open") and not c.prefixes
    }
    cuts: list[tuple[int, int]] = []
    for cmd in syntax.split_commands(code):
        if cmd.prefixes:
            continue
        if cmd.keyword == "import" or (
            cmd.keyword in ("set_option", "open") and syntax.normalize_statement(cmd.text) in known
        ):
            cuts.append(_whole_lines(code, cmd.start, cmd.end))
    out = code
    for start, end in reversed(cuts):
        out = out[:start] + out[end:]
    return out


def drop_restated(code: str, context: str | None) -> str:
    """`code` without the commands that `context` already has, statement for statement (a model
    restating the problem's definitions or helper lemmas before its proof: checked under the
    context, they would be declared twice)."""
    if not context or not code.strip():
        return code
    known = {syntax.normalize_statement(c.text) for c in syntax.split_commands(context)}
    cuts = [_whole_lines(code, c.start, c.end) for c in syntax.split_commands(code)
            if syntax.normalize_statement(c.text) in known]
    out = code
    for start, end in reversed(cuts):
        out = out[:start] + out[end:]
    return out


def _whole_lines(code: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) widened to whole lines (with the newline) when only whitespace or a comment
    shares those lines with it."""
    line_start = code.rfind("\n", 0, start) + 1
    nl = code.find("\n", end)
    line_end = len(code) if nl < 0 else nl + 1
    before = code[line_start:start]
    after = syntax.strip_comments(code[end:line_end])
    if before.strip() or after.strip():
        return start, end
    return line_start, line_end


def extract_lean_code(output: str, header: str | None = None) -> str | None:
    """The Lean code a model answered with: the last ```lean4 / ```lean block (or a bare ``` block
    that looks like Lean) of the answer, after any `<think>…</think>` and, for DeepSeek-Prover-V2
    CoT outputs, after the last `### Complete Lean 4 Proof` heading.

    - An unterminated final block (the model hit `max_tokens`) is returned as it is: the verifier
      judges it.
    - `import` commands, and the `set_option` / `open` commands that `header` already has, are
      dropped, so the code can be put back under our header; a block indented as a whole is
      dedented.
    - None when there is no Lean block, when `<think>` never closed, or when the answer has the
      `### Complete Lean 4 Proof` heading but no block after it (truncated before the proof)."""
    found = final_block(output)
    if found is None:
        return None
    return _clean(found[1].body, header)


def _clean(body: str, header: str | None) -> str | None:
    """A block's code ready to go back under our header: header lines dropped, blank ends
    trimmed, a block indented as a whole dedented."""
    code = strip_header_lines(body, header)
    lines = trim_blank(code.split("\n"))
    if all(ln[:1].isspace() for ln in lines if ln.strip()):
        lines = dedent_lines(lines)  # a block indented as a whole (inside a list item): Lean wants column 0
    code = "\n".join(lines).rstrip()
    return code or None


# How each family's authors read an output (`agent.presets` names one per preset):
# - "deepseek": `extract_lean_code` (DeepSeek-Prover-V2 CoT headings, `<think>`, the last block);
# - "last-block": Goedel-Prover-V2 `src/utils.py` `extrac_code`: the last ```lean4 block closed
#   by a fence on its own line, else the last closed ```lean4 one, else the last closed ```lean one
#   — wherever it is, `<think>` included;
# - "kimina": Kimina-Prover `kimina_prover_demo/utils.py` `extract_proof_from_text`: the last
#   ```lean4 block (closed on its own line) that has `theorem`, `by`, `:=` and `import` in it.
READERS = ("deepseek", "last-block", "kimina")
_GOEDEL_PATTERNS = (
    re.compile(r"```lean4\n(.*?)\n```", re.DOTALL),
    re.compile(r"```lean4\n(.*?)```", re.DOTALL),
    re.compile(r"```lean\n(.*?)```", re.DOTALL),
)
_KIMINA_WORDS = ("theorem", "by", ":=", "import")


def last_complete_block(output: str) -> str | None:
    """The body of the last CLOSED ```lean4 / ```lean block anywhere in `output` (inside an
    unclosed `<think>` too): what a cut-off output still offers."""
    blocks = [b for b in code_blocks(output) if b.closed and is_lean_block(b)]
    return blocks[-1].body if blocks else None


def read_lean_code(
    output: str, header: str | None = None, *, reader: str = "deepseek", cut_off: bool = False
) -> str | None:
    """The Lean code of `output` as `reader` reads it (see READERS), ready to go under `header`.

    `cut_off`: the sample stopped at `max_tokens` (finish reason "length"). Its last block is
    unterminated or its `<think>` never closed, so the "deepseek" reader would give a truncated
    block or nothing; it then takes the last complete Lean block before the cut, as Goedel's and
    Kimina's readers do (they read only complete blocks)."""
    if reader == "last-block":
        for pattern in _GOEDEL_PATTERNS:
            matches = pattern.findall(output)
            if matches:
                return _clean(matches[-1], header)
        return None
    if reader == "kimina":
        for body in reversed(re.findall(r"```lean4\n(.*?)\n```", output, re.DOTALL)):
            if all(word in body for word in _KIMINA_WORDS):
                return _clean(body, header)
        return None
    if reader != "deepseek":
        raise ValueError(f"unknown reader {reader!r} (one of {', '.join(READERS)})")
    if cut_off:
        found = final_block(output)
        if found is None or not found[1].closed:
            complete = last_complete_block(output)
            if complete is not None:
                return _clean(complete, header)
    return extract_lean_code(output, header)

"""PutnamBench's answer task, as text: reading the answers a model filled into the solution
`abbrev`s, refusing the ones that are not answers, placing them into the problem, and comparing
them with the dataset's reference answers.

PutnamBench (trishullab/PutnamBench, README and docs/index.html @ 3c9b9268) factors the answer of
"find …" problems out of the theorem into `abbrev putnam_…_solution : T := sorry`, followed by the
reference answer in a `-- …` comment, and allows two tasks: "proving the theorem with the solution
provided" (our `--answers inlined`, its `lean4/scripts/rewrite_solutions.py` applied) and
"additionally determining the solution" (`--answers fill`: the model writes the abbrev's value
and the proof, and the proof is checked with the model's value).

What the model may change in an answer slot is its VALUE only: the declaration keeps its kind,
name and type (the gate's and the audit's slot key: everything before `:=`), its value is not
`sorry` and holds no `sorry`/`admit`, and it passes the whitelist gate like any candidate text.
A trivially vacuous answer is still an answer: no audit can judge it, the answer match below is
what says whether it is the reference's.

The match is textual on Lean's tokens (`lean.syntax`): comments and whitespace ignored, spellings
Lean reads as one token merged (`->`/`→`, `fun x =>`/`fun x ↦`, `<=`/`≤` …), parentheses around
the whole answer dropped. A different text may still be an equivalent answer (`2/4` for `1/2`),
so a non-match is "needs review", never "wrong".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from lemmaforge.lean import gate
from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.syntax import CLOSE_BRACKETS, GLUE, OPEN_BRACKETS, join_canonical

__all__ = [
    "ANSWER_TASK",
    "MATCH",
    "NEEDS_REVIEW",
    "ModelAnswers",
    "answer_key",
    "answers_match",
    "read_answers",
    "reference_answers",
    "with_answers",
]

#: `extra` key marking a problem whose attempts run the answer task (set by `spec.select_problems`)
ANSWER_TASK = "answer_task"
MATCH = "match"
NEEDS_REVIEW = "needs review"


@dataclass(frozen=True, slots=True)
class ModelAnswers:
    """The answers a model's file gives to a problem's slots (name → value text as written), or
    why they are refused (`refused`: one line; `values` then holds what was read so far)."""

    values: dict[str, str] = field(default_factory=dict)
    refused: str | None = None

    @property
    def ok(self) -> bool:
        return self.refused is None and bool(self.values)


def _key(decl: lean_syntax.Declaration) -> tuple[str, str, str]:
    """What an answer must keep: kind, name and type (the text between the name and `:=`)."""
    return (decl.kind, decl.name, lean_syntax.normalize_code(decl.universe_params + decl.signature))


def _value(code: str, decl: lean_syntax.Declaration) -> str:
    return code[decl.body_start:decl.end].strip() if decl.body_start is not None else ""


def read_answers(problem_code: str, model_code: str) -> ModelAnswers:
    """The values `model_code` (the model's whole file, as extracted from its output) gives to the
    answer slots of `problem_code` (header + statement, slots `:= sorry`). Refused, in this order:
    a slot the model did not define, a slot whose kind, name or type it changed, a value that is
    `sorry` or holds `sorry`/`admit`, a value the whitelist gate refuses."""
    slots = lean_syntax.answer_slots(problem_code)
    if not slots:
        return ModelAnswers(refused="the problem has no answer slot")
    theirs: dict[str, list[lean_syntax.Declaration]] = {}
    for decl in lean_syntax.declarations(model_code):
        theirs.setdefault(decl.name, []).append(decl)
    values: dict[str, str] = {}
    context = gate.Context.of(problem_code)
    for slot in slots:
        found = theirs.get(slot.name)
        if not found:
            return ModelAnswers(values, f"no answer: the model's file does not define `{slot.name}`")
        decl = found[-1]  # Lean would refuse a second one; the last is the one the model meant
        if _key(decl) != _key(slot):
            wrote = lean_syntax.normalize_code(f"{decl.kind} {decl.name}{decl.universe_params}{decl.signature}")
            wanted = lean_syntax.normalize_code(f"{slot.kind} {slot.name}{slot.universe_params}{slot.signature}")
            return ModelAnswers(values, f"changed answer declaration: `{wrote}` instead of `{wanted}` "
                                        "(only the value after `:=` is the model's)")
        value = _value(model_code, decl)
        if not value or lean_syntax.normalize_code(value) == "sorry":
            return ModelAnswers(values, f"no answer: `{slot.name}` is left `sorry`")
        holes = lean_syntax.find_tokens(value, ("sorry", "admit", "sorryAx"))
        if holes:
            return ModelAnswers(values, f"the answer `{slot.name}` holds `{holes[0].text}`")
        text = model_code[decl.start:decl.end]
        violations = gate.check_candidate(text, context)
        if violations:
            return ModelAnswers(values, f"the answer `{slot.name}` is refused by the gate: {violations[0]}")
        values[slot.name] = value
    return ModelAnswers(values)


def with_answers(statement: str, values: Mapping[str, str]) -> str:
    """`statement` (a problem's statement with its answer slots) with each slot's `sorry` replaced
    by its value; everything else unchanged, so that only the values differ from the original."""
    slots = [d for d in lean_syntax.answer_slots(statement) if d.name in values]
    out = statement
    for slot in sorted(slots, key=lambda d: d.start, reverse=True):
        assert slot.body_start is not None  # an answer slot has `:= sorry`
        out = out[:slot.body_start] + " " + values[slot.name] + out[slot.end:]
    return out


def reference_answers(statement: str) -> dict[str, str]:
    """Name → the reference answer PutnamBench writes after each answer slot: the `--` comment on
    the slot's own line after `sorry`, else the run of `--` comment lines right below it (joined
    by a space). Empty for a statement whose comments were removed (`--answers slots`)."""
    out: dict[str, str] = {}
    for slot in lean_syntax.answer_slots(statement):
        line_end = statement.find("\n", slot.end)
        line_end = len(statement) if line_end < 0 else line_end
        parts: list[str] = []
        tail = statement[slot.end:line_end].strip()
        if tail.startswith("--"):
            parts.append(tail[2:].strip())
        else:
            for line in statement[line_end + 1:].split("\n"):
                if not line.lstrip().startswith("--"):
                    break
                parts.append(line.lstrip()[2:].strip())
        if parts:
            out[slot.name] = " ".join(p for p in parts if p)
    return out


def answer_key(text: str) -> str:
    """An answer as the match compares it: Lean's tokens (comments and whitespace dropped, one
    spelling per token Lean reads alike), parentheses around the whole answer removed."""
    toks = lean_syntax.compared_tokens(text)
    while len(toks) >= 2 and toks[0] == "(" and toks[-1] == ")" and _wraps(toks):
        toks = toks[1:-1]
    return join_canonical(toks)


def _wraps(toks: list[str]) -> bool:
    """Whether the `(` at the start closes at the very end (`(a) + (b)` is not wrapped)."""
    depth = 0
    for i, tok in enumerate(toks):
        t = tok.removeprefix(GLUE)
        if t in OPEN_BRACKETS:
            depth += 1
        elif t in CLOSE_BRACKETS:
            depth -= 1
            if depth == 0 and i < len(toks) - 1:
                return False
    return True


def answers_match(filled: Mapping[str, str], reference: Mapping[str, str]) -> str:
    """`MATCH` when every slot's filled value reads as its reference answer, else `NEEDS_REVIEW`
    (also when there is no reference to compare with)."""
    if not reference or set(filled) != set(reference):
        return NEEDS_REVIEW
    same = all(answer_key(filled[k]) == answer_key(reference[k]) for k in reference)
    return MATCH if same else NEEDS_REVIEW

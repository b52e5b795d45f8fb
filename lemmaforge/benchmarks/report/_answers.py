"""The report's PutnamBench answer section: what the answer mode of a bench means for its numbers,
and, for the answer task (`--answers fill`), per problem whether the model's answer matches the
dataset's reference (see `benchmarks.answers`, `benchmarks.answer_task`).

* `slots`: the answer abbrevs stay `:= sorry` and nothing fills them, so no problem with one can
  be proved (its theorem depends on `sorryAx`): the rate is a lower bound.
* `inlined`: PutnamBench's "proving the theorem with the solution provided" (the leaderboard's
  "with answer"): the reference answers are written into the statements.
* `fill`: PutnamBench's "additionally determining the solution" ("no answer" on the leaderboard):
  a problem with answer slots counts as proved with a matching answer, proved with an answer that
  needs review (Lean accepted a proof with it, but it reads differently from the reference: it may
  be an equivalent form, or a vacuous answer the statement admits), or not proved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from lemmaforge.benchmarks.answers import MATCH, NEEDS_REVIEW


# What this section reads of report.py's RunData / ProblemResult / attempts, declared here so that
# report.py can import this module without an import cycle.
class _Attempt(Protocol):
    @property
    def run_id(self) -> str: ...
    @property
    def attempt(self) -> int: ...
    @property
    def proved(self) -> bool: ...


class _Problem(Protocol):
    @property
    def problem_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def answer_slots(self) -> Any: ...
    @property
    def attempts(self) -> Sequence[_Attempt]: ...


class _Bench(Protocol):
    @property
    def run_id(self) -> str: ...
    @property
    def config(self) -> dict[str, Any]: ...
    @property
    def problems(self) -> Sequence[_Problem]: ...
    @property
    def invalid(self) -> Sequence[tuple[_Problem, Any]]: ...

__all__ = ["LABELS", "answer_lines", "answer_task_section"]

LABELS = {
    "slots": "slots: lower bound — problems with answer slots (`abbrev … := sorry`) cannot be solved in this mode: "
             "nothing fills their answers",
    "inlined": "inlined: answers given — PutnamBench's \"proving the theorem with the solution provided\": the "
               "reference answers are written into the statements",
    "fill": "fill: the model determines the answers — PutnamBench's \"additionally determining the solution\": each "
            "answer it filled is compared with the dataset's reference (a different text needs review, it is not "
            "counted wrong)",
}


def answer_task_section(store: Any, data: _Bench) -> dict[str, Any] | None:
    """The answer section of a bench's report; None when none of its problems has answer slots."""
    mode = str((data.config.get("bench") or {}).get("answers") or "slots")
    summaries = {run.run_id: run.summary or {} for run in store.runs(parent=data.run_id)} if mode == "fill" else {}
    answered = {a.run_id for a in (a for p in data.problems for a in p.attempts)
                if "answer" in summaries.get(a.run_id, {})}
    # PutnamBench flags its problems (`has_solution_abbrev`); another file's show in their runs
    with_slots = [p for p in [*data.problems, *(p for p, _ in data.invalid)]
                  if p.answer_slots or any(a.run_id in answered for a in p.attempts)]
    if not with_slots:
        return None
    out: dict[str, Any] = {"mode": mode, "label": LABELS.get(mode, mode), "with_answer_slots": len(with_slots)}
    if mode != "fill":
        return out
    rows = [_problem_row(p, summaries) for p in with_slots]
    out["problems"] = rows
    out["totals"] = {
        "problems": len(rows),
        "proved_answer_matches": sum(1 for r in rows if r["status"] == "proved" and r["answer"] == MATCH),
        "proved_answer_needs_review": sum(1 for r in rows if r["status"] == "proved" and r["answer"] != MATCH),
        "not_proved": sum(1 for r in rows if r["status"] != "proved"),
    }
    return out


def _problem_row(p: _Problem, summaries: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The attempt that speaks for the problem: a proving one with a matching answer, else a
    proving one, else the last one; its answer as the run recorded it."""
    answers = [(a, (summaries.get(a.run_id) or {}).get("answer") or {}) for a in p.attempts]
    proved = [(a, ans) for a, ans in answers if a.proved]
    chosen = next(((a, ans) for a, ans in proved if ans.get("match") == MATCH), None) or \
        (proved[0] if proved else (answers[-1] if answers else None))
    row: dict[str, Any] = {"problem_id": p.problem_id, "name": p.name,
                           "status": "proved" if proved else ("not proved" if answers else "not tried")}
    if chosen is None:
        return {**row, "answer": None, "values": {}, "reference": {}}
    a, ans = chosen
    row.update(run_id=a.run_id, attempt=a.attempt, values=ans.get("values") or {}, reference=ans.get("reference") or {})
    if ans.get("refused"):
        row.update(answer="refused", refused=ans["refused"])
    else:
        row["answer"] = ans.get("match") or NEEDS_REVIEW
    return row


def answer_lines(rep: dict[str, Any]) -> list[str]:
    """The section in words: the mode's label, and for the answer task its totals and each problem."""
    section = rep.get("answer_task")
    if not section:
        return []
    lines = [f"answers: {section['label']} ({section['with_answer_slots']} problem(s) with answer slots)"]
    totals = section.get("totals")
    if totals is None:
        return lines
    lines.append(f"answer task: {totals['problems']} problem(s) with answer slots: {totals['proved_answer_matches']} "
                 f"proved with a matching answer, {totals['proved_answer_needs_review']} proved with an answer that "
                 f"needs review, {totals['not_proved']} not proved")
    for row in section.get("problems") or []:
        if row["answer"] is None:
            lines.append(f"{row['name']}: {row['status']}")
            continue
        answer = f"answer refused: {row['refused']}" if row["answer"] == "refused" else f"answer {row['answer']}"
        filled = "; ".join(f"`{v}`" for v in row["values"].values())
        reference = "; ".join(f"`{v}`" for v in row["reference"].values())
        detail = f" (filled {filled}; reference {reference or 'none'})" if filled else ""
        lines.append(f"{row['name']}: {row['status']}, {answer}{detail}")
    return lines

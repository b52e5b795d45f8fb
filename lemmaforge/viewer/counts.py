"""One way to say what a run (or a bench) cost, in every view that shows it.

`prove`'s final line, `show`, and the bench report (text and HTML) read the same stored figures
— the run's `calls` / `checks` (requests sent, search/budget.py), `used_calls` / `used_checks` and
the tokens of its RunFinished record, or a bench's sums of them — and say them with these words,
so that a reader comparing two views compares like with like.
"""

from __future__ import annotations

from typing import Any


def cost_words(calls: int | None, checks: int | None, *, used_calls: int | None = None,
               used_checks: int | None = None, prompt_tokens: int | None = None,
               completion_tokens: int | None = None) -> str:
    """e.g. "9 LLM calls (7 used), 11 Lean checks (10 used), 1260 prompt + 72 completion tokens".
    A figure a record does not hold (an older run) is left out, never guessed."""

    def sent(n: int | None, what: str, used: int | None) -> str:
        shown = f"{n if n is not None else '-'} {what}"
        return shown + (f" ({used} used)" if used is not None and n is not None and used != n else "")

    parts = [sent(calls, "LLM calls", used_calls), sent(checks, "Lean checks", used_checks)]
    if prompt_tokens is not None or completion_tokens is not None:
        parts.append(f"{prompt_tokens or 0} prompt + {completion_tokens or 0} completion tokens")
    return ", ".join(parts)


def bench_cost_words(cost: dict[str, Any]) -> str:
    """A bench report's `cost` (sums of its runs' stored figures) in the same words, then what of it
    no counted attempt sent: the bench's statement checks, and attempts that do not count."""
    words = cost_words(cost["llm_calls"], cost["lean_checks"], used_calls=cost.get("used_llm_calls"),
                       used_checks=cost.get("used_lean_checks"), prompt_tokens=cost.get("prompt_tokens"),
                       completion_tokens=cost.get("completion_tokens"))
    besides = []
    if cost.get("statement_checks"):
        besides.append(f"{cost['statement_checks']} statement checks")
    if cost.get("uncounted_llm_calls") or cost.get("uncounted_lean_checks"):
        besides.append(f"{cost.get('uncounted_llm_calls') or 0} LLM calls and {cost.get('uncounted_lean_checks') or 0}"
                       " Lean checks of attempts that do not count")
    return words + (f" (including {' and '.join(besides)})" if besides else "")


def run_cost_words(budget: dict[str, Any]) -> str:
    """A run view's `budget` (viewer/model.py: its record's stored figures) in the same words."""
    calls, checks, tokens = budget.get("llm_calls") or {}, budget.get("lean_checks") or {}, budget.get("tokens") or {}
    return cost_words(calls.get("spent"), checks.get("spent"), used_calls=calls.get("used"),
                      used_checks=checks.get("used"), prompt_tokens=tokens.get("prompt"),
                      completion_tokens=tokens.get("completion"))

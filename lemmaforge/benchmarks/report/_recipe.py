"""A bench run from a recipe, beside the number the recipe's authors reported: the `recipe` section
of a report (JSON, text, HTML), and the 95 % interval of the user's rate.

The interval is the Wilson score interval (Wilson 1927) of the user's solved / problems at the
recipe's k, z = 1.96: a binomial proportion's interval that stays inside [0, 1] and behaves at
small counts and at rates near 0 or 1, where the normal approximation does not. It says how far
the user's own rate may be from the model's true one given the problems run; a reported number
outside it is a difference worth explaining (another dataset version, Lean, sampling, a bug).
"""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal distribution


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of successes / n (both ends in [0, 1]); (0, 1) for n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def recipe_section(config: dict[str, Any], rep: dict[str, Any]) -> dict[str, Any] | None:
    """The report's `recipe` section for a bench run from a recipe (None otherwise): the recipe,
    what its authors reported and where, the user's rate at the recipe's k with its 95 % (Wilson)
    interval, and the run's differences from the recipe ("modified: …")."""
    from lemmaforge.benchmarks.recipes import RECIPES

    stored = config.get("recipe")
    if not isinstance(stored, dict) or not stored.get("name"):
        return None
    recipe = RECIPES.get(str(stored["name"]))
    modified = [str(m) for m in stored.get("modified") or []]
    solved, problems = int(rep.get("solved") or 0), int(rep.get("problems") or 0)
    low, high = wilson_interval(solved, problems)
    out: dict[str, Any] = {
        "name": stored["name"],
        "modified": modified,
        "label": ("modified: " + "; ".join(modified)) if modified else f"recipe {stored['name']} as published",
        "yours": {"solved": solved, "problems": problems, "rate": round(solved / problems, 4) if problems else None,
                  "pass_at": rep.get("attempts"), "interval_95": [round(low, 4), round(high, 4)],
                  "interval_method": "Wilson score interval (z = 1.96) of solved / problems",
                  "complete": bool(rep.get("complete"))},
        "reported": None,
    }
    if recipe is None:  # a recipe this lemmaforge no longer knows: the run's own numbers stand
        return out
    reported = recipe.reported.to_json()
    out["title"] = recipe.title
    out["reported"] = reported
    rate = recipe.reported.rate
    out["reported_within_interval"] = (low <= rate <= high) if rate is not None else None
    if rate is None and recipe.reported.unit == "problems":  # a count: compare counts
        out["reported_within_interval"] = None
    return out


def recipe_lines(rep: dict[str, Any]) -> list[str]:
    """The recipe section in words: one line beside the reported number, one with the label."""
    r = rep.get("recipe")
    if not r:
        return []
    yours = r["yours"]
    low, high = yours["interval_95"]
    rate = f"{100 * yours['rate']:.1f}%" if yours["rate"] is not None else "-"
    mine = (f"yours: {yours['solved']}/{yours['problems']} = {rate} pass@{yours['pass_at']} "
            f"(95% Wilson interval {100 * low:.1f}–{100 * high:.1f}%)" + ("" if yours["complete"] else ", incomplete"))
    lines = []
    reported = r.get("reported")
    if reported:
        spread = f" ± {reported['spread']:g}" if reported.get("spread") is not None else ""
        value = (f"{reported['value']:g}%{spread}" if reported["unit"] == "percent"
                 else f"{reported['value']:g} problems" + (f" of {reported['of']}" if reported.get("of") else ""))
        src = reported["source"]
        within = r.get("reported_within_interval")
        verdict = "" if within is None else ("; inside your interval" if within else "; outside your interval")
        lines.append(f"recipe {r['name']}: reported {value} pass@{reported['pass_at']} "
                     f"({src['document']}, {src['location']}, {src['version']}) beside {mine}{verdict}")
    else:
        lines.append(f"recipe {r['name']} (not known to this lemmaforge): {mine}")
    lines.append(r["label"])
    return lines

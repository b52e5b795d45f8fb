"""pass@k and solved rates, for benchmark reports.

`pass_at_k(n, c, k)` is the unbiased estimator of Chen et al. 2021 ("Evaluating Large Language
Models Trained on Code"): with n samples of which c are correct, the probability that at least one
of k samples drawn without replacement is correct,

    pass@k = 1 - C(n - c, k) / C(n, k) = 1 - prod_{i = n-c+1}^{n} (1 - k / i),

computed in the product form (no huge binomials, no cancellation). `mean_pass_at_k` averages it
over problems; `solved_by_group` gives solved counts / rates (and optionally mean pass@k) per
split, category or dataset.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)  # a problem's key: any hashable, one type per mapping

__all__ = [
    "GroupStat",
    "groups_of",
    "mean_pass_at_k",
    "pass_at_k",
    "solved_by_group",
    "solved_rate",
]

NO_GROUP = "(none)"


def _check_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return value


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n samples with c correct. Needs n >= 1, 0 <= c <= n, 1 <= k <= n."""
    n, c, k = _check_int("n", n), _check_int("c", c), _check_int("k", k)
    if n < 1:
        raise ValueError(f"pass@k needs at least one sample (n={n})")
    if not 0 <= c <= n:
        raise ValueError(f"correct count c={c} must be between 0 and n={n}")
    if k < 1:
        raise ValueError(f"k={k} must be at least 1")
    if k > n:
        raise ValueError(f"k={k} is larger than the number of samples n={n}: pass@{k} cannot be estimated")
    if n - c < k:  # every draw of k samples contains a correct one
        return 1.0
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def _nc(key: Any, value: Any) -> tuple[int, int]:
    try:
        n, c = value
    except (TypeError, ValueError):
        raise ValueError(f"{key!r}: expected an (n, c) pair, got {value!r}") from None
    return n, c


def mean_pass_at_k(results: Mapping[K, tuple[int, int]], k: int) -> float:
    """Mean of `pass_at_k(n, c, k)` over problems; `results` maps a problem to (n, c)."""
    if not results:
        raise ValueError("mean pass@k of no results")
    total = 0.0
    for key, value in results.items():
        n, c = _nc(key, value)
        try:
            total += pass_at_k(n, c, k)
        except ValueError as e:
            raise ValueError(f"{key}: {e}") from None
    return total / len(results)


def _solved(key: Any, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    n, c = _nc(key, value)
    return c > 0


def solved_rate(results: Mapping[Hashable, bool | tuple[int, int]]) -> float:
    """Fraction of problems solved; a value is a bool or an (n, c) pair (solved when c > 0).
    0.0 for no problems."""
    if not results:
        return 0.0
    return sum(_solved(k, v) for k, v in results.items()) / len(results)


@dataclass(frozen=True, slots=True)
class GroupStat:
    group: str
    problems: int
    solved: int
    pass_at_k: float | None = None  # mean pass@k over the group, when k was given

    @property
    def rate(self) -> float:
        return self.solved / self.problems if self.problems else 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "group": self.group,
            "problems": self.problems,
            "solved": self.solved,
            "rate": self.rate,
        }
        if self.pass_at_k is not None:
            out["pass_at_k"] = self.pass_at_k
        return out


def _as_groups(value: str | Iterable[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value else []
    return list(dict.fromkeys(str(v) for v in value if v))


def solved_by_group(
    results: Mapping[K, bool | tuple[int, int]],
    groups: Mapping[K, str | Iterable[str] | None],
    *,
    k: int | None = None,
) -> dict[str, GroupStat]:
    """Solved counts per group, sorted by group name.

    `groups` maps a problem to one group (a split) or several (category tags: a problem then
    counts in each of its groups). Problems with no group land in "(none)". With `k`, each group
    also gets its mean pass@k (then every result must be an (n, c) pair)."""
    members: dict[str, list[K]] = {}
    for key in results:
        for g in _as_groups(groups.get(key)) or [NO_GROUP]:
            members.setdefault(g, []).append(key)
    out: dict[str, GroupStat] = {}
    for g in sorted(members):
        keys = members[g]
        solved = sum(_solved(key, results[key]) for key in keys)
        pk = mean_pass_at_k({key: _nc(key, results[key]) for key in keys}, k) if k is not None else None
        out[g] = GroupStat(g, len(keys), solved, pk)
    return out


def groups_of(problems: Iterable[Any], by: str = "category") -> dict[str, list[str]]:
    """problem_id → its groups, from an attribute of the problems: "split", "category",
    "dataset" (or any attribute holding a string or a list of strings)."""
    out: dict[str, list[str]] = {}
    for p in problems:
        out[p.problem_id] = _as_groups(getattr(p, by))
    return out

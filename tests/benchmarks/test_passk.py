"""pass@k (Chen et al. 2021) against hand-computed values and brute force; group rates."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from lemmaforge.benchmarks.passk import (
    GroupStat,
    groups_of,
    mean_pass_at_k,
    pass_at_k,
    solved_by_group,
    solved_rate,
)
from lemmaforge.benchmarks.problem import BenchmarkProblem


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (5, 2, 1, 0.4),
        (5, 2, 2, 0.7),
        (10, 0, 1, 0.0),
        (10, 0, 10, 0.0),
        (10, 10, 1, 1.0),
        (10, 10, 10, 1.0),
        (1, 1, 1, 1.0),
        (1, 0, 1, 0.0),
        (5, 4, 2, 1.0),  # n - c < k: every pair holds a correct sample
        (4, 1, 2, 0.5),
        (10, 1, 1, 0.1),
    ],
)
def test_hand_computed(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


def brute_force(n: int, c: int, k: int) -> Fraction:
    samples = [True] * c + [False] * (n - c)
    draws = list(itertools.combinations(range(n), k))
    return Fraction(sum(any(samples[i] for i in d) for d in draws), len(draws))


def test_against_brute_force() -> None:
    for n in range(1, 9):
        for c in range(n + 1):
            for k in range(1, n + 1):
                assert pass_at_k(n, c, k) == pytest.approx(float(brute_force(n, c, k)), abs=1e-12), (n, c, k)


@pytest.mark.parametrize(("n", "c", "k"), [(10_000, 5, 100), (3200, 17, 32), (1024, 1, 1), (500, 250, 64)])
def test_stable_for_large_n(n: int, c: int, k: int) -> None:
    exact = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
    assert pass_at_k(n, c, k) == pytest.approx(float(exact), rel=1e-12)


@pytest.mark.parametrize(("n", "c", "k"), [(5, 2, 6), (0, 0, 1), (5, 6, 1), (5, -1, 1), (5, 2, 0)])
def test_bad_arguments(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_types() -> None:
    with pytest.raises(TypeError):
        pass_at_k(5.0, 2, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        pass_at_k(True, 1, 1)


def test_mean_pass_at_k() -> None:
    results = {"a": (5, 2), "b": (5, 0), "c": (5, 5)}
    assert mean_pass_at_k(results, 1) == pytest.approx((0.4 + 0.0 + 1.0) / 3)
    assert mean_pass_at_k(results, 2) == pytest.approx((0.7 + 0.0 + 1.0) / 3)
    with pytest.raises(ValueError, match="b: k=6"):
        mean_pass_at_k({"a": (8, 1), "b": (5, 1)}, 6)
    with pytest.raises(ValueError):
        mean_pass_at_k({}, 1)
    with pytest.raises(ValueError, match="pair"):
        mean_pass_at_k({"a": 3}, 1)  # type: ignore[dict-item]


def test_solved_rate() -> None:
    assert solved_rate({"a": True, "b": False, "c": (4, 1), "d": (4, 0)}) == 0.5
    assert solved_rate({}) == 0.0


def test_solved_by_group() -> None:
    results = {"p1": (4, 1), "p2": (4, 0), "p3": (4, 4), "p4": (4, 2)}
    groups = {"p1": ["algebra", "analysis"], "p2": ["algebra"], "p3": "geometry", "p4": []}
    stats = solved_by_group(results, groups)
    assert list(stats) == ["(none)", "algebra", "analysis", "geometry"]
    assert stats["algebra"] == GroupStat("algebra", 2, 1)
    assert stats["algebra"].rate == 0.5
    assert stats["(none)"].solved == 1 and stats["geometry"].rate == 1.0
    with_k = solved_by_group(results, groups, k=1)
    assert with_k["algebra"].pass_at_k == pytest.approx((0.25 + 0.0) / 2)
    assert with_k["algebra"].to_json()["pass_at_k"] == pytest.approx(0.125)
    assert solved_by_group({"x": True}, {})["(none)"].to_json() == {
        "group": "(none)",
        "problems": 1,
        "solved": 1,
        "rate": 1.0,
    }


def test_groups_of_problems() -> None:
    ps = [
        BenchmarkProblem(
            "a", "d", "valid", "", "theorem a : True := by\n  sorry", category=["imo", "algebra"]
        ),
        BenchmarkProblem("b", "d", "test", "", "theorem b : True := by\n  sorry", category=[]),
    ]
    assert groups_of(ps, "split") == {"d/a": ["valid"], "d/b": ["test"]}
    assert groups_of(ps) == {"d/a": ["imo", "algebra"], "d/b": []}
    stats = solved_by_group({"d/a": True, "d/b": False}, groups_of(ps, "split"))
    assert stats["valid"].rate == 1.0 and stats["test"].rate == 0.0

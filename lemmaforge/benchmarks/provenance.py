"""What is known about each published dataset version beyond its rows: statements known to be
false (listed, never edited: the file stays byte-faithful to its source) and problems a partial
copy leaves out, each with its reason. `registry.DATASETS` refers to these lists.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class KnownIssue:
    """One problem of one dataset version that is wrong as stated, or left out of a partial copy.

    `kind`: "false" (a counterexample is given), "unprovable" (its publisher says so),
    "misformalized" (provable, but not the problem: e.g. vacuous), "excluded" (not in the copy)."""

    name: str
    kind: str
    reason: str


# The fixes in Kimina's and Goedel-Prover-V2's versions name the DeepSeek-Prover-V1.5 one as their
# base. "false" entries carry a counterexample checked by hand; the others are what Kimina's
# dataset card (huggingface.co/datasets/AI-MO/minif2f_test, README at 59ecefd) lists as corrected
# "since the original formal statements could not be proven". Goedel-V2's file changes all of them.
_KIMINA_CARD = "corrected in Kimina's miniF2F (card of AI-MO/minif2f_test @59ecefd)"
MINIF2F_V15_KNOWN: tuple[KnownIssue, ...] = (
    KnownIssue("mathd_numbertheory_618", "false", "n = 0 meets the hypotheses (p 0 = p 1 = 41) but 41 ≤ 0 "
               "fails; Kimina and Goedel-V2 add `n > 0`"),
    KnownIssue("algebra_ineq_nto1onlt2m1on", "false", "n = 1 gives 1 < 1; Goedel-V2 states ≤"),
    KnownIssue("amc12a_2020_p10", "false", "n = 1 meets the hypothesis (both sides are logb of 0, i.e. 0) but "
               "its digit sum is 1; Goedel-V2 assumes 1 < n"),
    KnownIssue("mathd_numbertheory_343", "false", "`∏ k in range 6, 2 * k + 1` parses as (∏ 2k) + 1 = 1 and "
               "1 % 10 ≠ 5; " + _KIMINA_CARD),
    KnownIssue("aime_1994_p3", "false", "the recurrence is assumed at one x only (x = 0, f 0 = f (-1) = 0, "
               "f 19 = 94, f 94 = 0 meets it); " + _KIMINA_CARD),
    KnownIssue("amc12a_2021_p9", "unprovable", "the product's body is parsed without its parentheses; " + _KIMINA_CARD),
    KnownIssue("mathd_algebra_342", "unprovable", "the sum's body is parsed without its parentheses; " + _KIMINA_CARD),
    KnownIssue("amc12a_2020_p7", "unprovable", "sums a (k ^ 2), not (a k) ^ 2; " + _KIMINA_CARD),
    KnownIssue("algebra_cubrtrp1oncubrtreq3_rcubp1onrcubeq5778", "unprovable", "no r ≥ 0 assumption; " + _KIMINA_CARD),
    KnownIssue("mathd_algebra_314", "misformalized", "computed in ℕ (1 / 4 = 0): true, but not the problem; "
               + _KIMINA_CARD),
    KnownIssue("mathd_algebra_275", "misformalized", "the exponent 1 / 4 is a natural number (0), so the "
               "hypothesis is false and the goal vacuous; " + _KIMINA_CARD),
)


# ProverBench as packaged (ATF's 230-row copy): the 95 later sub-parts it does not have. ATF kept one
# row per informal statement and sub-parts share theirs; the statements of these exist publicly only
# inside model-written proofs, which restate ~9% of the overlapping problems differently, so they
# are not reconstructed (data/SOURCES.md §4).
PROVERBENCH_MISSING_REASON = (
    "a later sub-part of a multi-part problem: the 230-row copy (ATF) kept one row per informal statement; "
    "no faithful public copy of its statement (use proverbench-full)"
)
PROVERBENCH_MISSING: tuple[str, ...] = (
    "abstract_algebra__p11_2", "abstract_algebra__p11_3", "abstract_algebra__p26_2", "abstract_algebra__p4_3",
    "calculus__p13_2", "calculus__p13_3", "calculus__p13_4", "calculus__p13_5", "calculus__p23_2",
    "calculus__p23_3", "calculus__p35_4", "calculus__p35_5", "calculus__p35_6", "calculus__p43_2",
    "calculus__p43_3", "calculus__p43_4", "calculus__p48_2", "calculus__p57_2", "calculus__p57_3",
    "calculus__p57_4", "calculus__p64_2", "calculus__p64_3", "calculus__p64_4", "calculus__p64_5",
    "complex_analysis__p2_2", "complex_analysis__p2_3", "complex_analysis__p3_2", "complex_analysis__p3_3",
    "complex_analysis__p3_4", "complex_analysis__p4_2", "elementary_algebra__p14_2", "elementary_algebra__p14_3",
    "elementary_algebra__p16_2", "elementary_algebra__p16_3", "elementary_algebra__p8_2",
    "elementary_algebra__p8_3", "functional_analysis__p1_4", "functional_analysis__p1_5",
    "functional_analysis__p1_6", "functional_analysis__p1_7", "functional_analysis__p1_8",
    "functional_analysis__p2_2", "linear_algebra__p10_2", "linear_algebra__p10_3", "linear_algebra__p11_2",
    "linear_algebra__p13_2", "linear_algebra__p14_2", "linear_algebra__p14_3", "linear_algebra__p15_2",
    "linear_algebra__p18_2", "linear_algebra__p19_2", "linear_algebra__p19_3", "linear_algebra__p1_2",
    "linear_algebra__p20_2", "linear_algebra__p20_3", "linear_algebra__p21_2", "linear_algebra__p23_2",
    "linear_algebra__p2_2", "linear_algebra__p3_2", "linear_algebra__p3_3", "linear_algebra__p4_2",
    "linear_algebra__p5_2", "linear_algebra__p5_3", "linear_algebra__p8_2", "linear_algebra__p8_3",
    "linear_algebra__p9_2", "linear_algebra__p9_3", "number_theory__p18_2", "number_theory__p18_3",
    "number_theory__p18_4", "number_theory__p18_5", "number_theory__p18_6", "number_theory__p3_2",
    "number_theory__p3_3", "probability__p1_4", "probability__p2_2", "probability__p2_3",
    "probability__p2_4", "probability__p3_2", "real_analysis__p12_2", "real_analysis__p12_3",
    "real_analysis__p13_2", "real_analysis__p13_3", "real_analysis__p2_2", "real_analysis__p2_3",
    "real_analysis__p3_2", "real_analysis__p6_2", "real_analysis__p6_3", "real_analysis__p6_4",
    "real_analysis__p7_2", "real_analysis__p7_3", "real_analysis__p7_4", "real_analysis__p7_5",
    "real_analysis__p8_2", "real_analysis__p8_3",
)
PROVERBENCH_EXCLUSIONS: tuple[KnownIssue, ...] = tuple(
    KnownIssue(name, "excluded", PROVERBENCH_MISSING_REASON) for name in PROVERBENCH_MISSING
)

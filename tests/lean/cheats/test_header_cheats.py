"""Issue 46 point 4: a model's header is not the statement (headers.toml).

Honest headers (reordered imports, other opens, more resource and printing options, a module
import, opens after a context definition) are PROVED: the text layer lets them through and Lean's
type print of the theorem, answered the way the fakes model Lean (tests/fakes/fake_opens.py:
names, scoped notations and scoped instances an `open` brings), equals the original's. A header
change that changes what the statement means is refused by that print (`statement_changed`, after
the check was sent); every other header difference is refused before Lean (`context_changed`),
naming the command.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from lemmaforge.lean import syntax
from lemmaforge.lean.audit import AuditStatus, audit
from lemmaforge.lean.gate import GatedVerifier
from tests.fakes import fake_common
from tests.lean.cheats.test_cheats import CorpusLean, type_probe

CASES: dict[str, list[dict[str, Any]]] = tomllib.loads((Path(__file__).parent / "headers.toml").read_text("utf-8"))
HONEST, CHEATS = CASES["honest"], CASES["cheat"]


def _text(case: dict[str, Any], key: str) -> str:
    return case[key].lstrip("\n")


async def run(case: dict[str, Any]) -> tuple[Any, CorpusLean]:
    original, candidate = _text(case, "original"), _text(case, "candidate")
    theorem = syntax.last_theorem(original)
    assert theorem is not None
    axioms = fake_common.axioms_message(theorem.name, ("propext", "Classical.choice", "Quot.sound"))
    fake = CorpusLean({"messages": [{"severity": "info", "pos": "probe", "data": axioms}]}, original)
    report = await audit(candidate, GatedVerifier(fake), original=original)
    return report, fake


def test_the_cases_cover_what_the_issue_names() -> None:
    assert len(HONEST) >= 6 and len(CHEATS) >= 10
    assert len({c["id"] for c in HONEST + CHEATS}) == len(HONEST) + len(CHEATS)
    sent = {c["id"] for c in CHEATS if c["sent"]}
    assert {"open-changes-name-resolution", "scoped-notation-left-out",
            "open-classical-changes-a-decidability-instance"} <= sent


@pytest.mark.parametrize("case", HONEST, ids=[c["id"] for c in HONEST])
async def test_honest_header_is_proved(case: dict[str, Any]) -> None:
    report, fake = await run(case)
    assert report.ok, (case["id"], [str(r) for r in report.reasons])
    theorem = report.theorem
    # the candidate (with the probe), then the original alone with the type probe
    assert len(fake.requests) == 2 and fake.requests[0].startswith(_text(case, "candidate").rstrip())
    assert fake.requests[1] == _text(case, "original").rstrip() + "\n\n" + type_probe(theorem)


@pytest.mark.parametrize("case", CHEATS, ids=[c["id"] for c in CHEATS])
async def test_header_cheat_is_refused(case: dict[str, Any]) -> None:
    report, fake = await run(case)
    reasons = [r.reason.value for r in report.reasons]
    assert not report.ok and report.status is AuditStatus.REJECTED, reasons
    assert case["reason"] in reasons, (case["id"], [str(r) for r in report.reasons])
    if case["sent"]:
        # Lean was asked: the text layer let the header through, the type print differs
        assert reasons == [case["reason"]] and "Lean elaborates" in report.reasons[0].detail
        assert fake.requests and report.lean_type is not None
    else:
        assert fake.requests == [], f"{case['id']} reached the verifier"
        named = [r.detail for r in report.reasons if r.reason.value == case["reason"]]
        assert any(case["names"] in d for d in named), named


def test_the_type_print_is_what_tells_the_honest_header_from_the_cheat() -> None:
    """The same candidate header (`open Real` for `open Nat`) on two statements: where no name the
    opens resolve occurs, the prints agree; where `sqrt` occurs, they differ."""
    qualified = "(n : ℕ) (h : n = 10) : Nat.sqrt n = 3"
    bare = "(n : ℕ) (h : n = 10) : sqrt n = 3"
    assert fake_common.type_message("t", qualified, "open Nat\n") == fake_common.type_message("t", qualified, "open Real\n")
    assert fake_common.type_message("t", bare, "open Nat\n") != fake_common.type_message("t", bare, "open Real\n")
    # the order of the opens and of the imports does not matter to Lean's print
    assert fake_common.type_message("t", bare, "open BigOperators Real Nat Topology Rat\n") == \
        fake_common.type_message("t", bare, "open BigOperators Nat Rat Real Topology\n")

"""The parts of `doctor --selftest` (lemmaforge/lean/audit/selftest/): the shipped calibration file, the
reading of Lean's answer to the declaration listing where the judge could not read it, and the
shared backend that sends each distinct text once. The CLI runs are in tests/cli/test_selftest.py."""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path
from typing import Any

import pytest

from lemmaforge.lean import syntax as lean_syntax
from lemmaforge.lean.audit import Reason
from lemmaforge.lean.audit import _judge as judge
from lemmaforge.lean.audit.selftest import CalibrationError, load_cases
from lemmaforge.lean.audit.selftest._cases import calibration_text
from lemmaforge.lean.audit.selftest._run import SharedBackend, explain_listing
from lemmaforge.lean.kimina._replies import kimina_header_lines
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Message, Position, Severity, VerifierError
from lemmaforge.targets import choose_target
from tests.conftest import REPO_ROOT
from tests.fakes.fake_common import CheckOnlyVerifier

CASES = load_cases()


# --- the calibration file -------------------------------------------------------------------------


def test_the_calibration_file_holds_every_construct_and_cheat_of_the_issue() -> None:
    ids = {c.id: c for c in CASES}
    assert {"match-in-proof", "simp-imported-def", "context-def", "open-classical-choice", "private-helper",
            "where-helper", "helper-lemmas-first", "reordered-header"} <= {i for i, c in ids.items() if c.honest}
    cheats = {i: c.reason for i, c in ids.items() if not c.honest}
    assert cheats == {"declared-axiom": Reason.BANNED_COMMAND, "sorry-in-helper": Reason.SORRY,
                      "native-decide": Reason.FORBIDDEN_AXIOM, "changed-statement": Reason.STATEMENT_CHANGED,
                      "header-changes-statement": Reason.STATEMENT_CHANGED, "local-instance": Reason.CONTEXT_CHANGED}
    assert ids["native-decide-allowed"].allow_native_decide and not ids["native-decide"].allow_native_decide
    assert ids["native-decide-allowed"].candidate == ids["native-decide"].candidate  # one Lean check, two policies
    assert "simp [Nat.factorial]" in ids["simp-imported-def"].candidate
    assert "open Classical" in ids["open-classical-choice"].candidate
    assert "private lemma" in ids["private-helper"].candidate and "\nwhere\n" in ids["where-helper"].candidate


def test_the_file_ships_as_package_data() -> None:
    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "*.toml" in pyproject["tool"]["setuptools"]["package-data"]["lemmaforge.lean.audit.selftest"]
    assert (REPO_ROOT / "lemmaforge" / "lean" / "audit" / "selftest" / "calibration.toml").read_text(encoding="utf-8") \
        == calibration_text()


def test_every_case_file_has_the_same_imports_and_nothing_else_in_its_header() -> None:
    """So the REPL elaborates one header for all of them, and Kimina reuses one REPL."""
    texts = [t for c in CASES for t in (c.original, c.candidate)]
    assert {lean_syntax.split_header(t)[0] for t in texts} == {"import Mathlib\nimport Aesop\n\n"}
    assert {kimina_header_lines(t) for t in texts} == {3}


def test_each_case_is_audited_as_check_would_audit_the_same_files() -> None:
    """`check FILE --against ORIGINAL` chooses the file's last theorem and keeps the rest: for
    every case that is the file as written, so `audit` on the texts is what `check` does."""
    for case in CASES:
        for text in (case.original, case.candidate):
            target = choose_target(text, None, keep_rest=True)
            assert target.code == text and target.name == "t", case.id
        assert not choose_target(case.original, None, keep_rest=True).incomplete_reason


@pytest.mark.parametrize(("edit", "said"), [
    (lambda t: t.replace("format = 1", "format = 2"), "format"),
    (lambda t: t.replace('reason = "sorry"', 'reason = "soory"'), "a cheat needs `reason`"),
    (lambda t: t.replace('kind = "honest"', 'kind = "fine"', 1), "neither 'honest' nor 'cheat'"),
    (lambda t: t.replace('id = "where-helper"', 'id = "match-in-proof"'), "used twice: match-in-proof"),
    (lambda t: t.replace('id = "context-def"', 'id = "context-def"\nflavour = "x"'), "unknown keys flavour"),
    (lambda t: t.replace('id = "context-def"', 'id = "context-def"\nreason = "sorry"'), "an honest case has no"),
    (lambda t: t + "\n[[case]]\nid = 3\n", "`id` must be a non-empty string"),
])
def test_a_calibration_file_the_selftest_would_not_read_as_written_is_refused(edit: Any, said: str) -> None:
    with pytest.raises(CalibrationError, match=said.replace("(", r"\(").replace("`", ".")):
        load_cases(edit(calibration_text()))


# --- Lean's answer to the listing, where the judge could not read it -------------------------------

NONCE = "cd" * 16
GOOD = [f"{NONCE}\tconst\ttheorem\tfalse\tfalse\tfalse\tfalse\ttrue\tt\tpropext",
        f"{NONCE}\text\tinstance\t0", f"{NONCE}\text\tmacro\t0", f"{NONCE}\text\telab\t0",
        f"{NONCE}\text\tparser\t0", f"{NONCE}\topt\tmaxHeartbeats\t400000"]


def answer(lines: list[str], *, end: int | None = None) -> list[Message]:
    body = [*lines, f"{NONCE}\tend\t{len(lines) if end is None else end}"]
    return [Message(Severity.INFO, "\n".join(body), Position(30, 0))]


@pytest.mark.parametrize(("lines", "end", "said"), [
    ([GOOD[0].replace("\ttheorem\t", "\tthm\t"), *GOOD[1:]], None, "unknown constant kind 'thm' for 't'"),
    ([GOOD[0] + "\textra", *GOOD[1:]], None, "a constant's line has 10 fields, the judge reads 9"),
    ([GOOD[0].replace("\ttrue\t", "\tyes\t"), *GOOD[1:]], None, "the flag 'yes' of 't' is not true or false"),
    (GOOD, 3, "its `end` line counts 3 lines, Lean sent 6"),
    ([*GOOD, f"{NONCE}\text\tmacro\t0"], None, "two counts of the macro entries"),
    ([GOOD[0], *GOOD[2:]], None, "no count of the instance entries"),
    ([*GOOD, f"{NONCE}\tsyntax\tx"], None, "a line of unknown kind 'syntax'"),
    ([*GOOD, f"{NONCE}\text\tmacro\tmany"], None, "an extension count the judge does not read"),
])
def test_a_malformed_listing_is_named_where_the_judge_reads_none(lines: list[str], end: int | None, said: str) -> None:
    messages = answer(lines, end=end)
    assert judge.parse_listing(messages, NONCE) is None
    explained = explain_listing(messages, NONCE)
    assert explained.state == "malformed" and said in explained.detail, explained


def test_a_listing_the_judge_reads_is_ok_and_an_error_or_silence_is_a_failure() -> None:
    ok = explain_listing(answer(GOOD), NONCE)
    assert ok.state == "ok" and [c.name for c in ok.constants] == ["t"]
    cut = [Message(Severity.INFO, "\n".join(GOOD), Position(30, 0))]  # no `end` line
    assert explain_listing(cut, NONCE).detail == "its last line is not `end` (the answer is cut off)"
    error = [Message(Severity.ERROR, "unknown constant 'Lean.isExtern'", Position(30, 0))]
    failed = explain_listing(error, NONCE)
    assert failed.state == "failed" and "unknown constant 'Lean.isExtern'" in failed.detail
    assert explain_listing([], NONCE).detail == "Lean gave no answer to it (no message at its `run_cmd`)"
    forged = [Message(Severity.INFO, "\n".join(line.replace(NONCE, "ef" * 16) for line in GOOD), Position(30, 0))]
    assert explain_listing(forged, NONCE).state == "failed"  # lines without the nonce are not Lean's answer


# --- one check per distinct text -------------------------------------------------------------------


class Counting(CheckOnlyVerifier):
    def __init__(self, fail: bool = False) -> None:
        self.sent: list[list[str]] = []
        self.fail = fail

    async def check_many(self, codes: Any, *, timeout: float | None = None) -> list[Any]:
        self.sent.append(list(codes))
        await asyncio.sleep(0)
        if self.fail:
            raise VerifierError("the server is down")
        return [CheckResult(CheckStatus.VALID, backend="stand-in", raw={"code": c}) for c in codes]


async def test_the_shared_backend_sends_each_distinct_text_once() -> None:
    inner = Counting()
    shared = SharedBackend(inner)
    first = await shared.check_many(["a", "b", "a"])
    assert [r.raw["code"] for r in first] == ["a", "b", "a"]  # type: ignore[index]
    together = await asyncio.gather(shared.check("c"), shared.check("c"), shared.check("a"))
    assert [r.raw["code"] for r in together] == ["c", "c", "a"]  # type: ignore[index]
    assert inner.sent == [["a", "b"], ["c"]] and shared.sent == 3


async def test_a_failure_reaches_every_case_waiting_for_that_text() -> None:
    shared = SharedBackend(Counting(fail=True))
    outcomes = await asyncio.gather(shared.check("a"), shared.check("a"), return_exceptions=True)
    assert all(isinstance(o, VerifierError) for o in outcomes)


def test_the_selftest_module_docs_point_at_the_same_files() -> None:
    doc = (REPO_ROOT / "lemmaforge" / "lean" / "audit" / "selftest" / "__init__.py").read_text(encoding="utf-8")
    for name in ("_cases.py", "_run.py", "_record.py", "calibration.toml"):
        assert name in doc and (Path(REPO_ROOT / "lemmaforge" / "lean" / "audit" / "selftest" / name)).is_file()

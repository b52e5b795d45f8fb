"""The gate's rules for host access, config values, newer commands and the lexer's refusals
(issue #37, point 4 and category 1). Through `check` on the fake server: test_lexer_cheats.py."""

from __future__ import annotations

import pytest

from lemmaforge.lean import gate
from lemmaforge.lean.gate import HOST_ACCESS, Reason, check_candidate, check_dataset_text, check_tactic

PROOF = "theorem t : (2 : ℕ) ^ 10 = 1024 := by\n  {}\n"


def reasons(violations: list[gate.Violation]) -> list[str]:
    return [v.reason.value for v in violations]


@pytest.mark.parametrize("name", sorted(HOST_ACCESS))
def test_every_host_access_name_is_refused_in_every_text(name: str) -> None:
    uses = [f"have _x := {name}", f"have _x := Foo.{name}.bar", f"open {name} in decide"]
    for use in uses:
        assert "runs_code" in reasons(check_candidate(PROOF.format(use))), use
        assert "runs_code" in reasons(check_tactic(use)), use
    assert "runs_code" in reasons(check_dataset_text(f"import Mathlib\nopen {name}\n"))


@pytest.mark.parametrize(
    "name", ["IOx", "myIO", "h_IO", "System'", "Stable", "STx", "ioLemma", "hST", "EStateMx"]
)
def test_names_that_only_contain_the_letters_pass(name: str) -> None:
    assert check_candidate(PROOF.format(f"have {name} : True := trivial\n  decide")) == []


@pytest.mark.parametrize(
    "config",
    ["{ decide := true }", "{ kernel := true, zeta := false }", ".default", "{ maxSteps := 100000 }",
     "{ ({ decide := true }) with arith := true }"],
)
def test_literal_configs_pass(config: str) -> None:
    assert check_candidate(PROOF.format(f"simp (config := {config})")) == []


@pytest.mark.parametrize(
    "config",
    ["{ maxSteps := f 3 }", "let c := {}; c", "{ decide := by exact true }", "{ maxSteps := (fun _ => 3) 0 }",
     "{ maxSteps := -1 }", "mkConfig"],
)
def test_configs_holding_code_are_refused(config: str) -> None:
    for key in ("config", "cfg"):
        found = check_candidate(PROOF.format(f"simp ({key} := {config})"))
        assert Reason.CODE in [v.reason for v in found], (key, config)


def test_commands_of_newer_lean_versions_are_refused() -> None:
    found = check_candidate(PROOF.format("decide\nset_premise_selector fun _ _ => pure #[]"))
    assert "banned_command" in reasons(found)


@pytest.mark.parametrize(
    ("text", "detail"),
    [('theorem t : True := by\n  have := "{x}"\n  trivial', "cannot be sure"),
     ("theorem t : True := by\n\ttrivial", "Lean's lexer rejects it"),
     ("theorem t : True := by\n  trivial /- open", "Lean's lexer rejects it")],
)
def test_the_lexers_refusal_is_an_unreadable_violation_with_its_line(text: str, detail: str) -> None:
    found = [v for v in check_candidate(text) if detail in v.detail]
    assert found and found[0].reason is Reason.SYNTAX and found[0].line >= 2, check_candidate(text)

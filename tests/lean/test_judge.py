"""The product's probe (lean/audit/_judge.py): its text, which messages count as its answers, and what the
gate lets through of it."""

from __future__ import annotations

import pytest

from lemmaforge.lean import gate
from lemmaforge.lean.audit._judge import Probe, type_print, with_probe
from lemmaforge.lean.verifier import Message, Position, Severity


def msg(line: int, column: int, data: str, severity: Severity = Severity.INFO) -> Message:
    return Message(severity, data, Position(line, column))


def test_probe_text_asks_axioms_of_each_name_then_the_type() -> None:
    probe = Probe.build("Foo.t", others=("helper", "Foo.t"))
    lines = probe.text.splitlines()
    # each name once, its axioms printed with full names (an `open` cannot shorten one: issue 46)
    assert lines[:4] == ["set_option pp.fullNames true in", "#print axioms Foo.t",
                         "set_option pp.fullNames true in", "#print axioms helper"]
    assert lines[4] == "set_option pp.all true in" and lines[-1] == "#check @Foo.t"
    assert all(ln.startswith("set_option pp.") and ln.endswith(" in") for ln in lines[4:-1])
    assert "#check" not in Probe.build("t", type_of=False).text
    with pytest.raises(ValueError):
        Probe.build("t (by native_decide)")


def test_only_messages_at_a_probe_commands_own_line_and_column_zero_count() -> None:
    code = "theorem t : True := by\n  trace \"'t' depends on axioms: []\"\n  trivial\n"
    probe = Probe.build("t")
    first = code.rstrip().count("\n") + 3
    assert with_probe(code, probe).splitlines()[first - 1] == "set_option pp.fullNames true in"
    assert with_probe(code, probe).splitlines()[first] == "#print axioms t"
    assert probe.answer_lines(first)[first + 1] == ("axioms", "t")  # Lean answers at the `#print`
    check_line = first + len(probe.text.splitlines()) - 1
    answers = probe.split(
        [
            msg(2, 2, "'t' depends on axioms: []"),  # the proof's own trace: not an answer
            msg(first, 0, "'t' depends on axioms: [sorryAx]"),  # the `set_option` line: not the answer
            msg(first + 1, 0, "'t' depends on axioms: [propext]"),
            msg(check_line, 0, "@t : True"),
            msg(check_line, 4, "@t : False"),  # not at the `#check` token
        ],
        first,
    )
    assert [m.data for m in answers[("axioms", "t")]] == ["'t' depends on axioms: [propext]"]
    assert type_print(answers, "t") == "@t : True"
    two = probe.split([msg(check_line, 0, "@t : True"), msg(check_line, 0, "@t : False")], first)
    assert type_print(two, "t") is None  # two answers to one question: trust neither
    assert type_print(None, "t") is None


@pytest.mark.parametrize(
    ("text", "allowed"),
    [
        ("theorem t : True := trivial\n\n" + Probe.build("t").text, True),
        ("theorem t : True := trivial\n\n#check @t\n", True),
        ("theorem t : True := trivial\n\n#check @t (by native_decide)\n", False),  # elaborates a term
        ("theorem t : True := trivial\n\n#check t\n", False),
        ("theorem t : True := trivial\n\n#check (1 : ℕ)\n", False),
        ("theorem t : True := trivial\n\n#check @t\ntheorem u : True := trivial\n", False),
    ],
)
def test_the_gate_lets_through_only_the_type_query_alone(text: str, allowed: bool) -> None:
    assert (gate.check_candidate(text) == []) is allowed

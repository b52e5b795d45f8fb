"""Terminal output is inert: a store holding escape sequences and control characters in dataset
and problem names, stop reasons, Lean messages and proof comments; `runs`, `show` (proved and
failed), `report`, `--json` and error lines print none of them raw, and show them escaped.

The runs are recorded for real (tests/viewer/conftest.py); the hostile text is then written into
the store the way any other writer of that store (a shared Postgres, an imported dataset) could.
"""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from rich.tree import Tree
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.db.models import AttemptRow, ProblemRow, ProofRow, RunRow
from lemmaforge.viewer.inert import inert, is_inert, json_inert, markup
from lemmaforge.viewer.live import LiveView, RunWatch

runner = CliRunner()
WIDE = {"COLUMNS": "400"}

# What a hostile text can carry (ECMA-48 / xterm control sequences):
OSC8_LINK = "\x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\"
OSC52_CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07"
CLEAR_AND_FAKE = "\x1b[2J\x1b[H\x1b[32mproved\x1b[0m"
TITLE = "\x1b]0;pwned\x07"
C1_CSI = "\x9b31m"
BIDI = "\u202eevil\u202c \u2066iso\u2069"
MARKUP = "[red]not markup[/red] [link=https://evil.example/]x[/link]"
HOSTILE = f"{OSC8_LINK} {OSC52_CLIPBOARD} {CLEAR_AND_FAKE} {TITLE} {C1_CSI} {BIDI} \x7f\x08\r {MARKUP}"


def acting_characters(text: str) -> list[str]:
    """The characters of `text` a terminal would act on (newline and tab are layout)."""
    return sorted({c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F
                   or 0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069})


def assert_inert(output: str) -> None:
    assert acting_characters(output) == [], acting_characters(output)


@pytest.fixture()
def hostile(recorded):
    """The recorded runs with HOSTILE in the problem's name and dataset, the failed run's stop
    reason and Lean errors, and a comment of the proved run's proof."""
    engine = create_engine(recorded.db)
    with Session(engine) as session:
        for problem in session.scalars(select(ProblemRow)):
            problem.name, problem.dataset, problem.split = f"p {HOSTILE}", f"d {HOSTILE}", f"s {HOSTILE}"
            problem.extra = {**(problem.extra or {}), "category": f"c {HOSTILE}"}
        failed = session.get(RunRow, recorded.failed)
        failed.summary = {**(failed.summary or {}), "stop_reason": f"stop {HOSTILE}"}
        for attempt in session.scalars(select(AttemptRow).where(AttemptRow.run_id == recorded.failed)):
            attempt.errors = [f"17:2: error: {HOSTILE}" for _ in attempt.errors] or [f"1:0: error: {HOSTILE}"]
        for proof in session.scalars(select(ProofRow).where(ProofRow.run_id == recorded.proved)):
            proof.proof = proof.proof + f"\n-- {HOSTILE}\n"
        session.commit()
    engine.dispose()
    return recorded


def run(*args: str):
    result = runner.invoke(app, list(args), env=WIDE)
    assert_inert(result.stdout)
    assert_inert(result.stderr)
    return result


def test_runs_table_shows_names_and_stop_reasons_escaped(hostile) -> None:
    r = run("runs", "--db", hostile.db)
    assert r.exit_code == 0, r.output
    flat = "".join(r.stdout.split())
    assert "\\x1b]52;c;" in flat and "\\x9b31m" in flat  # shown, escaped
    assert "[red]notmarkup[/red]" in flat  # markup stays text


def test_show_proved_run_escapes_the_problem_and_the_proof_comment(hostile) -> None:
    r = run("show", hostile.proved, "--db", hostile.db)
    assert r.exit_code == 0, r.output
    assert f"-- {inert(HOSTILE)}" in r.stdout  # the proof's comment, on its own line, escaped
    assert "\\x1b]8;;https://evil.example/\\x1b\\click me" in r.stdout
    assert "\\u202eevil\\u202c" in r.stdout
    assert "[red]not markup[/red]" in r.stdout


def test_show_failed_run_escapes_stop_reason_and_lean_errors(hostile) -> None:
    r = run("show", hostile.failed, "--db", hostile.db, "--all-attempts")
    assert r.exit_code == 0, r.output
    assert f"stop: stop {inert(HOSTILE, keep='')}" in r.stdout
    # Lean's first error is shown on one line (whitespace, \r included, collapsed), the rest escaped
    assert f"last Lean error: 17:2: error: {inert(OSC8_LINK)} {inert(OSC52_CLIPBOARD)}" in r.stdout
    assert "\\x1b[2J\\x1b[H" in r.stdout and "\\x7f\\x08" in r.stdout


def test_report_of_a_run_escapes_its_names(hostile) -> None:
    r = run("report", hostile.failed, "--db", hostile.db)
    assert r.exit_code == 0, r.output
    flat = "".join(r.stdout.split())
    assert "s\\x1b]8;;https://evil.example/" in flat  # the split's name, in the "by split" table
    assert "[red]notmarkup[/red]" in flat


def test_json_keeps_the_exact_text_as_json_escapes(hostile) -> None:
    r = run("show", hostile.proved, "--db", hostile.db, "--json")
    assert r.exit_code == 0, r.output
    view = json.loads(r.stdout)
    assert view["run"]["problem"] == f"p {HOSTILE}"  # the exact value, decoded
    assert "\\u009b" in r.stdout and "\\u202e" in r.stdout and "\\u001b" in r.stdout


def test_error_lines_are_inert(hostile) -> None:
    r = run("show", f"no-such-run {TITLE}{OSC52_CLIPBOARD}[red]x", "--db", hostile.db)
    assert r.exit_code == 2
    assert r.stderr.count("\n") == 1
    assert "no-such-run \\x1b]0;pwned\\x07\\x1b]52;c;cm0gLXJmIH4=\\x07[red]x" in r.stderr


def test_live_view_shows_model_text_inert() -> None:
    class Budget:
        wall_seconds, llm_calls, lean_checks, max_depth = 60.0, 10, 10, 3

    watch = RunWatch(inner=None, budget=Budget())
    watch.current_goal = f"goal {HOSTILE}"
    view = LiveView(watch)
    view.tree = Tree(f"sketch {HOSTILE}")  # whatever a tree holds, the view draws it inert
    buffer = io.StringIO()
    Console(file=buffer, width=400, color_system=None, force_terminal=True).print(view)
    shown = buffer.getvalue()
    assert_inert(shown)
    assert "\\x1b]52;c;" in shown and "\\u202eevil" in shown


def test_inert_escapes_exactly_the_acting_characters() -> None:
    every = "".join(chr(c) for c in range(0x00, 0xA0)) + "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069é≤→"
    shown = inert(every)
    assert acting_characters(shown) == []
    assert "\n" in shown and "\t" in shown and "é≤→" in shown
    assert "".join(chr(c) for c in range(0x20, 0x7F)) in shown  # printable ASCII untouched
    assert "\\x1b" in shown and "\\x07" in shown and "\\x7f" in shown and "\\x9b" in shown and "\\u202e" in shown
    assert "\\x0a" in inert("a\nb", keep="") and is_inert(inert(every)) and inert(shown) == shown
    assert markup("[red]x[/red]") == "\\[red]x\\[/red]"
    assert json.loads(json_inert(json.dumps(every, ensure_ascii=False))) == every


_WRITE_PROOF = """
import sys
from lemmaforge.cli.prove import _write_stdout
_write_stdout(sys.argv[1])
"""


def _proof_through(stdout_is_tty: bool, proof: str) -> tuple[bytes, str]:
    """`prove`'s proof writer in a child whose stdout is a pseudo-terminal or a pipe."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    if not stdout_is_tty:
        done = subprocess.run([sys.executable, "-c", _WRITE_PROOF, proof], capture_output=True, env=env, check=True)
        return done.stdout, done.stderr.decode()
    master, slave = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-c", _WRITE_PROOF, proof], stdout=slave, stderr=subprocess.PIPE,
                              env=env, check=True)
        os.close(slave)
        slave = -1
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child side is closed and everything was read
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks), done.stderr.decode()
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)


def test_prove_stdout_is_byte_exact_on_a_pipe_and_inert_on_a_terminal() -> None:
    proof = f"theorem t : True := by\n  -- {OSC52_CLIPBOARD}{TITLE}\n  trivial\n"
    piped, note = _proof_through(False, proof)
    assert piped == proof.encode("utf-8") and note == ""
    shown, note = _proof_through(True, proof)
    text = shown.decode("utf-8").replace("\r\n", "\n")  # the terminal's own newline translation
    assert_inert(text)
    assert text == inert(proof)
    assert "-o FILE" in note and "control characters" in note



def test_log_records_are_inert(capsys: pytest.CaptureFixture[str]) -> None:
    """Log records quote Lean's stderr and messages: the CLI's handler prints them inert."""
    import logging

    from lemmaforge.cli.common import configure_logging

    configure_logging(0)
    logging.getLogger("lemmaforge.test").warning("Lean said: %s", HOSTILE)
    shown = capsys.readouterr().err
    assert_inert(shown)
    assert "\\x1b]52;c;" in "".join(shown.split())


def test_check_report_names_are_inert_and_not_markup(monkeypatch: pytest.MonkeyPatch) -> None:
    """`check` prints the file, the theorem's name (a «…» name holds any character) and Lean's
    axiom names: inert, and `[link=…]` stays text."""
    from types import SimpleNamespace

    import lemmaforge.cli.prove as prove_cli
    from lemmaforge.viewer.inert import InertHook

    buffer = io.StringIO()
    console = Console(file=buffer, width=400, color_system=None, force_terminal=True)
    console.push_render_hook(InertHook())
    monkeypatch.setattr(prove_cli, "out", console)
    report = SimpleNamespace(status=SimpleNamespace(value="error"), theorem=f"«{MARKUP}{TITLE}»",
                             axioms=[f"ax{OSC52_CLIPBOARD}"], reasons=[f"Lean: {CLEAR_AND_FAKE}"])
    prove_cli._print_report(Path(f"p{C1_CSI}.lean"), report)
    shown = buffer.getvalue()
    assert_inert(shown)
    assert MARKUP in shown and "\\x1b]0;pwned\\x07" in shown and "\\x1b[2J" in shown and "\\x9b31m" in shown

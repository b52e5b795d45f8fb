"""Cheats that ride on a lexer disagreeing with Lean's (issue #37, category 1), through `check`.

Each wrapper is one place where a lexer that does not follow Lean's `tokenFn` reads a string,
char or comment boundary differently from Lean, written so that such a lexer sees the payload as
the inside of a string or comment while Lean elaborates it as a command (or a term). Each payload
is something the gate must refuse: a global `instance`, `macro_rules`, `variable`,
`set_option debug.skipKernelTC`, `#eval`, `by_elab`. The fake Lean server answers as real Lean
would most favour the cheater (ScriptedLean: anything without `sorry` elaborates), so only the
text defences stand between the cheat and a "proved": every case must be rejected with the
payload's reason and never reach the server.

Lean's rules (leanprover/lean4, src/Lean/Parser/Basic.lean at 00c1b82722b50e9b1ae4999ccc97f932b2788b51;
src/Lean/Parser/StrInterpolation.lean at 01f6cece2f6a6293f58a40288bbd0e89c641e842):

* `panic!"{"`: `panic!` is a token followed by a term; `"{"` is a plain `str` literal
  (`strLitFnAux`), so the `{` opens nothing.
* `s! "{'"'}"`: `s!` is a token; the whitespace after a token is skipped, so the string is still
  `interpolatedStrFn`'s: `{` opens a term (here the char `'"'`), `}"` closes the string.
* a char literal holding a raw newline or CR: `charLitFnAux` takes ANY one character after `'`.
* `\\/`: a token of core (`infixr:30 " \\/ " => Or`, Init/Core.lean); `whitespace` runs only
  between tokens, so `\\/-` is `\\/` then `-`, never a comment opener.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.lean import gate
from tests.fakes.fake_kimina import FakeKimina, ScriptedLean
from tests.fakes.lean_versions import DEFAULT, VERSIONS

ORIGINAL = "import Mathlib\n\ntheorem pow_ten : (2 : ℕ) ^ 10 = 1024 := by\n  sorry\n"
HEAD = "import Mathlib\n\ntheorem pow_ten : (2 : ℕ) ^ 10 = 1024 := by\n"

# name -> (text before the payload, text after it). A lexer with the divergence reads the payload
# as part of a string or comment; Lean reads it as code.
WRAPPERS = {
    # `"{` read as an interpolation: the `"` on the next lines flip string/code for such a lexer.
    "panic-brace": ('  have _h : String := panic!"{"\n  decide\n', '\n-- "}"\n'),
    # `s! "…"` read as a plain string ending at the `"` inside `'"'`: the rest is read inverted.
    "s-bang-space": ("  have _h : String := s! \"{'\"'}\"\n  decide\n", '\n-- "\n'),
    # `'⏎'` not read as a char: `','` becomes the char and `"` then opens a string.
    "char-newline": ("  have _c : Char × Char := ('\n','\"')\n  decide\n", '\n-- "\n'),
    # the same with a raw CR inside the char (legal in Lean; a CR LF is Lean's newline)
    "char-cr": ("  have _c : Char × Char := ('\r','\"')\n  decide\n", '\n-- "\n'),
    # `\` then `/-` read as a block comment running to the `-/` in the line comment.
    "backslash-or": ("  have _o : True \\/-(1 : ℤ) = -1 := Or.inl trivial\n  decide\n", "\n-- -/\n"),
}

# name -> (payload, reason `check --json` must give)
PAYLOADS = {
    "instance": ("instance : OfNat ℕ 1024 := ⟨2 ^ 10⟩", "banned_command"),
    "macro_rules": ("macro_rules | `(tactic| decide) => `(tactic| trivial)", "runs_code"),
    "variable": ("variable (h : False)", "banned_command"),
    "skipKernelTC": ("set_option debug.skipKernelTC true", "banned_option"),
    "eval": ("#eval (2 : ℕ) ^ 10", "runs_code"),
    "by_elab": ("example : True := by_elab pure (Lean.mkConst ``True.intro)", "runs_code"),
}

CASES = [(w, p) for w in WRAPPERS for p in PAYLOADS]


def cheat(wrapper: str, payload: str) -> str:
    before, after = WRAPPERS[wrapper]
    return HEAD + before + PAYLOADS[payload][0] + after


# Every Lean release's fake (issue 46, point 8). These cheats are refused before Lean, so the release
# cannot change their verdict: the fast subset runs the default release, the full suite all four.
@pytest.fixture(scope="module", params=[pytest.param(v, marks=[] if v == DEFAULT else [pytest.mark.slow])
                                        for v in VERSIONS])
def kimina(request):
    with FakeKimina(responder=ScriptedLean(lean_version=request.param)) as server:
        yield server


def run_check(kimina: FakeKimina, tmp_path: Path, text: str) -> tuple[int, dict]:
    proof, statement = tmp_path / "proof.lean", tmp_path / "statement.lean"
    # bytes: a raw CR stays a CR (Lean normalises only CR LF)
    proof.write_bytes(text.encode("utf-8"))
    statement.write_text(ORIGINAL, encoding="utf-8")
    result = CliRunner().invoke(app, ["check", str(proof), "--against", str(statement), "--verifier", "kimina",
                                      "--kimina-url", kimina.url, "--json"])
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize(("wrapper", "payload"), CASES, ids=[f"{w}-{p}" for w, p in CASES])
def test_divergence_cheat_is_rejected_before_lean(kimina: FakeKimina, tmp_path: Path, wrapper: str,
                                                  payload: str) -> None:
    before = len(kimina.check_requests)
    code, out = run_check(kimina, tmp_path, cheat(wrapper, payload))
    assert code == 1, out
    assert out["ok"] is False and out["status"] == "rejected"
    assert PAYLOADS[payload][1] in [r["reason"] for r in out["reasons"]], out["reasons"]
    assert len(kimina.check_requests) == before, "the cheat reached the Lean server"


# The char wrappers need a `'` written right against a symbol (`,'"'`): Lean's reading of that
# depends on its token table (core has `]'`), so the lexer refuses the wrapper itself as unsure.
UNSURE_WRAPPERS = {"char-newline", "char-cr"}


@pytest.mark.parametrize("wrapper", list(WRAPPERS))
def test_the_wrapper_alone_is_not_what_is_refused(wrapper: str) -> None:
    """Control: without a payload the wrapper's text passes the gate (or, for the char wrappers,
    is refused only as unsure lexing), so the payload's reason above comes from the lexer exposing
    the payload, not from the wrapper looking odd."""
    before, after = WRAPPERS[wrapper]
    found = gate.check_candidate(HEAD + before + after, gate.Context.of(ORIGINAL))
    if wrapper in UNSURE_WRAPPERS:
        assert [(v.reason.value, "cannot be sure" in v.detail) for v in found] == [("unreadable", True)], found
    else:
        assert found == []


# --- host access, config values, newer commands (issue #37, category 3 / point 4) ---------------

HOST = {
    "include_str": ('  have _s : String := include_str "/etc/passwd"\n  decide\n', "runs_code"),
    "io-read": ('  have _s := (unsafeBaseIO (IO.FS.readFile "/etc/passwd"))\n  decide\n', "runs_code"),
    "native-decide-io": ("  have : (unsafeIO (IO.Process.run {cmd := \"id\"})).isOk = true := by native_decide\n"
                         "  decide\n", "runs_code"),
    "open-system": ("  open System in decide\n", "runs_code"),
    "st": ("  have _x := runST (fun _ => pure 1)\n  decide\n", "runs_code"),
    "estatem": ("  have _x : EStateM Unit Unit Nat := pure 1\n  decide\n", "runs_code"),
    "config-code": ("  simp (config := { maxSteps := (dbgTraceVal 10) })\n", "runs_code"),
    "config-let": ("  decide (config := let k := true; { kernel := k })\n", "runs_code"),
    "premise-selector": ("  decide\nset_premise_selector fun _ _ => pure #[]\n", "banned_command"),
}


@pytest.mark.parametrize("case", list(HOST))
def test_host_access_is_refused_before_lean(kimina: FakeKimina, tmp_path: Path, case: str) -> None:
    body, reason = HOST[case]
    before = len(kimina.check_requests)
    code, out = run_check(kimina, tmp_path, HEAD + body)
    assert code == 1, out
    assert out["status"] == "rejected" and reason in [r["reason"] for r in out["reasons"]], out["reasons"]
    assert len(kimina.check_requests) == before


# --- honest proofs using the same constructs still pass -----------------------------------------

HONEST = {
    "or-ascii": "  have _o : True \\/ False := Or.inl trivial\n  decide\n",
    "char-escapes": "  have _c : Char := '\\n'\n  have _d : List Char := ['a', 'b', '\\'']\n  decide\n",
    "interpolated": '  have _s : String := s!"{(2 : ℕ) ^ 10}"\n  decide\n',
    "plain-braces-after-panic": '  have _s : String := panic!"{"\n  decide\n',
    "config-literal": "  decide (config := { kernel := true })\n",
    "crlf": "  norm_num\r\n",
}


@pytest.mark.parametrize("case", list(HONEST))
def test_honest_proof_with_the_same_constructs_is_proved(kimina: FakeKimina, tmp_path: Path, case: str) -> None:
    code, out = run_check(kimina, tmp_path, HEAD + HONEST[case])
    assert code == 0, out
    assert out["status"] == "proved" and out["reasons"] == []

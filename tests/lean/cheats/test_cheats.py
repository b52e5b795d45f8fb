"""The cheat corpus (cheats.toml) and the honest corpus (honest.toml) against the audit.

Each case runs through `audit` on a `GatedVerifier` (what `backends.make_verifier` builds) around
a fake verifier that records every request and answers the case's scripted Lean response. A
cheat must be rejected with its named reason; when the gate or the static checks can see it, the
fake must receive NOTHING. An honest proof must be proved with exactly the request the data file
implies. `check --json` is run on every cheat that never reaches Lean, to show its reason.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from lemmaforge.cli import app
from lemmaforge.config import AuditConfig
from lemmaforge.lean import syntax
from lemmaforge.lean.audit import AuditStatus, audit
from lemmaforge.lean.audit._judge import nonce_for
from lemmaforge.lean.gate import GatedVerifier, declarations_command
from lemmaforge.lean.verifier import CheckResult, CheckStatus, Goal, TacticResult
from tests.conftest import LEAN_RELEASES
from tests.fakes import fake_common
from tests.fakes.fake_kimina import FakeKimina, ScriptedLean
from tests.fakes.fake_lean import _find_top_level

HERE = Path(__file__).parent
ORIGINALS: dict[str, dict[str, Any]] = tomllib.loads((HERE / "originals.toml").read_text(encoding="utf-8"))
CHEATS: list[dict[str, Any]] = tomllib.loads((HERE / "cheats.toml").read_text(encoding="utf-8"))["cheat"]
HONEST: list[dict[str, Any]] = tomllib.loads((HERE / "honest.toml").read_text(encoding="utf-8"))["honest"]


def original_of(case: dict[str, Any]) -> str:
    return ORIGINALS[case["original"]]["text"]


def candidate_of(case: dict[str, Any]) -> str:
    if "candidate" in case:
        return case["candidate"]
    original = original_of(case)
    theorem = syntax.last_theorem(original)
    assert theorem is not None
    return original[: theorem.start] + case["body"]


# The type probe the product appends for a theorem NAME (lean/audit/_judge.py), written out here.
TYPE_OPTIONS = ("pp.all true", "pp.fullNames true", "pp.explicit true", "pp.universes true", "pp.notation false",
                "pp.coercions false", "pp.funBinderTypes true", "pp.proofs true")


def type_probe(name: str) -> str:
    return "".join(f"set_option {o} in\n" for o in TYPE_OPTIONS) + f"#check @{name}\n"


AXIOM_PROBE = "set_option pp.fullNames true in\n#print axioms "  # full names: none shortens under an `open`


def expected_request(case: dict[str, Any]) -> str:
    """The candidate, a blank line, `#print axioms` (with full names) for its theorem and each
    lemma it added (`helpers`), then the theorem's type probe and the declaration listing, whose
    closure starts from the same names."""
    names = (case["probe"], *case.get("helpers", ()))
    axioms = "".join(f"{AXIOM_PROBE}{n}\n" for n in names)
    listing = declarations_command(nonce_for(candidate_of(case)), tuple(dict.fromkeys(names))) + "\n"
    return candidate_of(case).rstrip() + "\n\n" + axioms + type_probe(case["probe"]) + listing


def type_answer(code: str, name: str) -> str:
    """What Lean prints for `#check @name` after `code` (the fakes' model: fake_common)."""
    masked = fake_common.mask_comments_and_strings(code)
    spellings = [name] if name.startswith("«") else [name, name.rsplit(".", 1)[-1]]
    for spelled in spellings:
        found = list(re.finditer(rf"\b(?:theorem|lemma)\s+{re.escape(spelled)}(?=[\s:(\[{{])", masked))
        if found:
            m = found[-1]
            assign = _find_top_level(masked, m.end(), ":=")
            return fake_common.type_message(name, code[m.end() : assign], code[: m.start()], code[assign:])
    raise AssertionError(f"no theorem {name} in the request")


_AXIOMS_SAID = re.compile(r"^'(?P<name>[^']*)' depends on axioms: \[(?P<axioms>.*)\]$")
_NO_AXIOMS_SAID = re.compile(r"^'(?P<name>[^']*)' does not depend on any axioms$")


class CorpusLean:
    """A Kimina-like verifier (one whole-file check, the probe appended) that answers one scripted
    REPL response and records every request. `pos = "probe"` is the `#print` token of the
    theorem's axiom probe; the other probe lines (a helper's axioms, the type) are answered the
    way the fakes model Lean, unless the case scripts them. The original's own check (its type in
    a clean environment) is answered from its text."""

    name = "corpus"
    supports_proof_states = False

    def __init__(self, response: dict[str, Any] | None, original: str = "", lean_version: str | None = None) -> None:
        self.response = response
        self.original = original
        self.lean_version = lean_version  # the release whose listing the fakes model (lean_versions.py)
        self.requests: list[str] = []

    async def check(self, code: str, *, timeout: float | None = None) -> CheckResult:
        self.requests.append(code)
        if self.response is None:
            raise AssertionError("this case must never reach Lean")
        body, _, probe = code.rpartition("\n\n" + AXIOM_PROBE)
        if not body:  # the original, with the type probe only
            body, _, probe = code.partition("\n\nset_option pp.all")
            assert body == self.original.rstrip(), "only the original is checked without an axiom probe"
            return self._typed(code, [], [])
        if self.response.get("status") == "timeout":  # the backend killed the check
            return CheckResult(status=CheckStatus.TIMEOUT, backend=self.name, error="Lean ran past its time limit")
        probe_line = code[: code.index("#print axioms", len(body))].count("\n") + 1
        messages = []
        for m in self.response.get("messages", []):
            pos = m["pos"]
            line, col = (probe_line, 0) if pos == "probe" else pos
            end = (line, 6) if pos == "probe" else (line, col + 1)
            messages.append({"severity": m["severity"], "data": m["data"], "pos": {"line": line, "column": col},
                             "endPos": {"line": end[0], "column": end[1]}})
        for k, ln in enumerate(code.splitlines()[probe_line:], start=probe_line + 1):  # helpers' probes
            if ln.startswith("#print axioms "):
                helper = ln.split()[-1]
                data = self.response.get("helpers", {}).get(helper, f"'{helper}' depends on axioms: [propext]")
                messages.append({"severity": "info", "data": data, "pos": {"line": k, "column": 0},
                                 "endPos": {"line": k, "column": 6}})
        sorries = [{"pos": {"line": s["pos"][0], "column": s["pos"][1]}, "goal": s["goal"], "proofState": k}
                   for k, s in enumerate(self.response.get("sorries", []))]
        return self._typed(code, messages, sorries)

    def _typed(self, code: str, messages: list[dict[str, Any]], sorries: list[dict[str, Any]]) -> CheckResult:
        lines = code.splitlines()
        k = next(i for i, ln in enumerate(lines) if ln.startswith("#check @"))
        name = lines[k].split("@", 1)[1]
        data = self.response.get("type") if self.response and code.count("#print axioms") else None
        messages = [*messages, {"severity": "info", "data": data or type_answer(code, name),
                                "pos": {"line": k + 1, "column": 0}, "endPos": {"line": k + 1, "column": 6}}]
        # Lean's declaration listing, modelled from the text (fake_common); each theorem's axioms
        # are what the case scripts for its `#print axioms`, so the listing agrees with them.
        scripted = {}
        for m in messages:
            said = _AXIOMS_SAID.match(m["data"])
            if said:
                scripted[said.group("name")] = [a.strip() for a in said.group("axioms").split(",") if a.strip()]
            elif _NO_AXIOMS_SAID.match(m["data"]):
                scripted[_NO_AXIOMS_SAID.match(m["data"]).group("name")] = []
        hidden = self.response.get("declares", []) if self.response else []
        messages += fake_common.listing_messages(code, axioms_of=scripted.get, hidden=hidden,
                                                 lean_version=self.lean_version)
        return CheckResult.from_repl_response({"env": 0, "messages": messages, "sorries": sorries}, backend=self.name)

    async def check_many(self, codes: Sequence[str], *, timeout: float | None = None) -> list[CheckResult]:
        return [await self.check(c) for c in codes]

    async def run_tactic(self, hole: Goal, tactic: str, *, timeout: float | None = None) -> TacticResult:
        raise AssertionError("the audit runs no tactic")

    async def close(self) -> None:
        return None


async def run_case(case: dict[str, Any], lean_version: str | None = None) -> tuple[Any, CorpusLean]:
    fake = CorpusLean(case.get("response"), original_of(case), lean_version)
    verifier = GatedVerifier(fake, trust_dataset=bool(ORIGINALS[case["original"]].get("trust_dataset", False)))
    config = AuditConfig(allow_native_decide=bool(case.get("allow_native_decide", False)))
    report = await audit(candidate_of(case), verifier, original=original_of(case), config=config)
    return report, fake


def test_corpus_size_and_categories() -> None:
    assert len(CHEATS) >= 60 and len(HONEST) >= 15
    assert len({c["id"] for c in CHEATS}) == len(CHEATS) and len({h["id"] for h in HONEST}) == len(HONEST)
    categories = {c["category"] for c in CHEATS}
    assert {"sorry", "custom axioms", "kernel bypass", "native computation", "statement tampering",
            "metaprogramming", "lexer tricks", "output spoofing", "metavariables",
            # issue 37: categories 2 and 4
            "statement span", "target by name"} <= categories
    for case in CHEATS:
        assert ("response" in case) == case["sent"] == ("probe" in case), case["id"]


@pytest.mark.parametrize("lean_version", LEAN_RELEASES)
@pytest.mark.parametrize("case", CHEATS, ids=[c["id"] for c in CHEATS])
async def test_cheat_is_rejected_with_its_reason(case: dict[str, Any], lean_version: str) -> None:
    """Every cheat, on the fakes of every Lean release the product supports (issue 46, point 8):
    nothing the corpus refuses becomes accepted on any of them."""
    report, fake = await run_case(case, lean_version)
    reasons = [r.reason.value for r in report.reasons]
    assert not report.ok and report.status is not AuditStatus.PROVED, reasons
    assert case["reason"] in reasons, (case["id"], [str(r) for r in report.reasons])
    if case["sent"]:
        assert fake.requests[0] == expected_request(case)
        # Anything after it is the original's type in a clean environment (never model text).
        assert all(r == original_of(case).rstrip() + "\n\n" + type_probe(case["probe"]) for r in fake.requests[1:])
    else:
        assert fake.requests == [], f"{case['id']} reached the verifier"


@pytest.mark.parametrize("lean_version", LEAN_RELEASES)
@pytest.mark.parametrize("case", HONEST, ids=[h["id"] for h in HONEST])
async def test_honest_proof_is_proved(case: dict[str, Any], lean_version: str) -> None:
    report, fake = await run_case(case, lean_version)
    assert report.ok, (case["id"], [str(r) for r in report.reasons])
    assert fake.requests == [expected_request(case), original_of(case).rstrip() + "\n\n" + type_probe(case["probe"])]


# --- `check --json` shows the reason ---------------------------------------------------------------

UNSENT = [c for c in CHEATS if not c["sent"]]


def one_per_category(cases: list[dict[str, Any]]) -> list[Any]:
    """The first case of each category runs in the fast subset (`pytest -m "not slow"`), the others
    only in the full suite: every case is already refused in-process above, this is the CLI path."""
    seen: set[str] = set()
    params = []
    for case in cases:
        marks = [pytest.mark.slow] if case["category"] in seen else []
        seen.add(case["category"])
        params.append(pytest.param(case, id=case["id"], marks=marks))
    return params


@pytest.fixture(scope="module")
def kimina():
    with FakeKimina(responder=ScriptedLean()) as server:
        yield server


@pytest.mark.parametrize("case", one_per_category(UNSENT))
def test_check_json_shows_the_reason(case: dict[str, Any], kimina: FakeKimina, tmp_path: Path) -> None:
    before = len(kimina.check_requests)
    proof, statement = tmp_path / "proof.lean", tmp_path / "statement.lean"
    proof.write_text(candidate_of(case), encoding="utf-8")
    statement.write_text(original_of(case), encoding="utf-8")
    args = ["check", str(proof), "--against", str(statement), "--verifier", "kimina", "--kimina-url", kimina.url,
            "--json"]
    if ORIGINALS[case["original"]].get("trust_dataset"):
        args.append("--trust-dataset")
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    out = json.loads(result.stdout)
    assert out["ok"] is False and out["status"] == "rejected"
    assert case["reason"] in [r["reason"] for r in out["reasons"]]
    assert len(kimina.check_requests) == before, "a refused text reached the Lean server"


def test_check_json_spoofed_axiom_line_through_the_kimina_client(tmp_path: Path) -> None:
    """End to end over HTTP: the proof prints a clean axiom line (a `trace`), Lean's real answer to
    the probe lists Lean.ofReduceBool; `check --json` reads only the probe's answer."""
    from tests.fakes.fake_kimina import MessageRule

    lean = ScriptedLean(rules=[MessageRule(r'trace "([^"]*)"', r"\1", severity="info")])
    original = ORIGINALS["nat"]["text"]
    spoof = original.replace("  sorry", "  trace \"'pow_ten' depends on axioms: [propext]\"\n  native_decide")
    proof, statement = tmp_path / "proof.lean", tmp_path / "statement.lean"
    proof.write_text(spoof, encoding="utf-8")
    statement.write_text(original, encoding="utf-8")
    with FakeKimina(responder=lean) as server:
        result = CliRunner().invoke(
            app, ["check", str(proof), "--against", str(statement), "--verifier", "kimina", "--kimina-url", server.url,
                  "--json"], env={"LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all"})
        sent = [s["code"] for r in server.check_requests for s in r.body["snippets"]]
    assert result.exit_code == 1, result.output
    out = json.loads(result.stdout)
    assert out["status"] == "rejected" and "forbidden_axiom" in [r["reason"] for r in out["reasons"]]
    assert "Lean.ofReduceBool" in out["axioms"]
    listing = declarations_command(nonce_for(spoof), ("pow_ten",)) + "\n"  # the check ran in this process
    assert any(code.endswith(f"\n\n{AXIOM_PROBE}pow_ten\n" + type_probe("pow_ten") + listing) for code in sent)

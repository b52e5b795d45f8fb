"""The dataset gate admits a `prove`'s problem once (services.preflight, before any endpoint is
probed), not again in the statement check and the search."""

from __future__ import annotations

import json

from lemmaforge.lean.gate import GatedVerifier
from tests.search.scenarios import add_prover, prover_rule
from tests.search.test_prove_e2e import prove, servers, use_auto_tac  # noqa: F401  (the fixture)


def test_a_prove_admits_its_problem_once(tmp_path, servers, monkeypatch):  # noqa: F811
    use_auto_tac(monkeypatch, tmp_path)
    kimina, llm = servers
    add_prover(llm, *prover_rule("D x", "exact rfl"))
    admitted: list[str] = []
    admit = GatedVerifier.admit

    def counted(self, problem, *, row):
        admitted.append(row)
        return admit(self, problem, row=row)

    monkeypatch.setattr(GatedVerifier, "admit", counted)
    r, _store = prove(tmp_path, kimina, llm)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["proved"] is True
    assert len(admitted) == 1

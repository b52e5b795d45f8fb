"""The Ray executor decides fatality the way the local one does (`errors.is_fatal`, inside each
task): a misconfigured endpoint met in a worker stops the bench with one line and exit 2, and a
local `--resume` finishes it with the fault-free numbers."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lemmaforge.db import Store
from tests.benchmarks.bench_entry import app
from tests.benchmarks.bench_helpers import ENV, SOLVABLE, bench_args, fake_servers

# A whole Ray cluster starts here: the module is slow as a whole, so the fast subset does not even
# import it (tests/conftest.py: pytest_ignore_collect).
pytestmark = pytest.mark.slow

pytest.importorskip("ray", reason="Ray is not installed (pip install 'lemmaforge[ray]')")

runner = CliRunner()


def test_a_fault_in_a_ray_worker_stops_the_bench_with_one_line(tmp_path):
    db = f"sqlite:///{tmp_path / 'ray.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        llm.fault_always("empty_choices")  # the probe of /models passes; every generation is malformed
        r = runner.invoke(app, bench_args(kimina, llm, db, "--limit", "2", "--run-id", "RF", "--executor", "ray",
                                          "--concurrency", "2", "--json"), env=ENV)
        assert r.exit_code == 2, r.output
        assert r.stdout == ""
        # Ray may say things of its own on stderr (token auth…); ours is one error line, the last
        errors = [ln for ln in r.stderr.strip().splitlines() if ln.startswith("error:")]
        assert len(errors) == 1 and r.stderr.strip().splitlines()[-1] == errors[0], r.stderr
        assert "empty `choices`" in errors[0] and "--resume RF" in errors[0]
        store = Store(db)
        assert store.get_run("RF").status == "failed"
        assert not [c for c in store.runs(parent="RF") if c.status in ("proved", "not_proved", "running")]

        llm.fault_always(None)
        r = runner.invoke(app, ["bench", "--resume", "RF", "--db", db, "--json", "--no-progress"], env=ENV)
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
    assert out["complete"] and out["attempts_done"] == 2 and out["solved"] == 1

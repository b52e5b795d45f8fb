"""`lemmaforge bench --executor ray` on a local Ray cluster (2 CPUs): the problems run as Ray
tasks in worker processes that open their own services and recorder on the same SQLite store;
the results equal those of the local executor."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lemmaforge.db import Store
from tests.benchmarks.bench_entry import app
from tests.benchmarks.bench_helpers import ENV, NAMES, SOLVABLE, bench_args, fake_servers, outcome

# A whole Ray cluster starts here: the module is slow as a whole, so the fast subset does not even
# import it (tests/conftest.py: pytest_ignore_collect).
pytestmark = pytest.mark.slow

pytest.importorskip("ray", reason="Ray is not installed (pip install 'lemmaforge[ray]')")

runner = CliRunner()


def test_bench_on_a_local_ray_cluster_matches_the_local_executor(tmp_path, monkeypatch):
    from lemmaforge import services as app_module

    ray_db = f"sqlite:///{tmp_path / 'ray.db'}"
    local_db = f"sqlite:///{tmp_path / 'local.db'}"
    with fake_servers(SOLVABLE) as (kimina, llm):
        r = runner.invoke(app, bench_args(kimina, llm, local_db, "--limit", "3", "--attempts", "2", "--run-id", "L"),
                          env=ENV)
        assert r.exit_code == 0, r.output
        calls_local = llm.count("chat")

        # the driver never opens services itself: every search runs in a Ray worker process
        def no_services_in_the_driver(*a, **kw):
            raise AssertionError("the Ray driver opened services")

        monkeypatch.setattr(app_module, "open_services", no_services_in_the_driver)
        r = runner.invoke(
            app,
            bench_args(kimina, llm, ray_db, "--limit", "3", "--attempts", "2", "--run-id", "R",
                       "--executor", "ray", "--concurrency", "2", "--json"),
            env=ENV,
        )
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        assert llm.count("chat") == 2 * calls_local  # the workers reached the same fake endpoint

    assert out["bench_run_id"] == "R" and out["complete"] and out["attempts_done"] == 6
    assert out["solved"] == 2 and [p["name"] for p in out["results"]] == NAMES[:3]
    ray_store = Store(ray_db)
    assert outcome(ray_store, "R") == outcome(Store(local_db), "L")  # one finished run per (problem, attempt)
    assert all(run.status in ("proved", "not_proved") for run in ray_store.runs(parent="R"))
    assert ray_store.get_run("R").status == "not_proved"

"""Store: schema, round trips, idempotency, reading a run back, bad URLs."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import networkx as nx
import pytest

from lemmaforge.db import Store, StoreError, StoreRecordError
from lemmaforge.db.models import Base
from lemmaforge.records import (
    AttemptRecord,
    LLMCallRecord,
    NodeCreated,
    NodeStatusChanged,
    ProblemRecord,
    ProofRecord,
    RunFinished,
    RunStarted,
)

from .synth import HEADER, expected_nodes, synthetic_run


def one_of_each(run_id: str = "r1") -> dict[str, object]:
    return {
        "problem": ProblemRecord(
            problem_id="adhoc/p1",
            name="p1",
            header=HEADER,
            statement="theorem p1 : 1 + 1 = 2 := by sorry",
            informal="one plus one",
            split="valid",
            extra={"difficulty": 3, "nested": {"a": [1, 2, None]}, "unicode": "∀ ε > 0"},
        ),
        "start": RunStarted(
            run_id=run_id,
            kind="prove",
            config={"x": 1.5, "list": [1, "two"]},
            versions={"lemmaforge": "0.1.0", "lean": None},
            problem_id="adhoc/p1",
            started_at=1.0,
        ),
        "node": NodeCreated(
            run_id=run_id,
            node_id="n0",
            kind="goal",
            depth=0,
            text="theorem p1 : 1 + 1 = 2 := by sorry",
            goal_state="⊢ 1 + 1 = 2",
            created_at=2.0,
        ),
        "call": LLMCallRecord(
            run_id=run_id,
            call_id="c1",
            role="prover",
            endpoint="http://x/v1",
            model="m",
            request={"messages": [{"role": "user", "content": "hi"}], "n": 2, "seed": 7},
            completions=["a", "b"],
            finish_reasons=["stop", None],
            prompt_tokens=3,
            completion_tokens=4,
            latency=0.5,
            error=None,
            created_at=3.0,
        ),
        "attempt": AttemptRecord(
            run_id=run_id,
            attempt_id="a1",
            node_id="n0",
            strategy="prover",
            verdict="valid",
            code="norm_num",
            output="```lean\nnorm_num\n```",
            prompt="prove",
            llm_call_id="c1",
            errors=["warning: x", "line\nbreak"],
            generation_seconds=1.25,
            check_seconds=0.125,
            created_at=4.0,
        ),
        "status": NodeStatusChanged(
            run_id=run_id, node_id="n0", status="solved", strategy="prover", proof="norm_num", at=5.0
        ),
        "proof": ProofRecord(
            run_id=run_id,
            proof_id="pf1",
            kind="subgoal",
            header=HEADER,
            statement="theorem p1 : 1 + 1 = 2 := by sorry",
            normalized_statement="1 + 1 = 2",
            proof="norm_num",
            problem_id="adhoc/p1",
            node_id="n0",
            strategy="prover",
            depth=0,
            audit={"ok": True},
            created_at=6.0,
        ),
        "end": RunFinished(run_id=run_id, status="proved", summary={"calls": 1}, finished_at=7.0),
    }


def test_round_trip_of_every_record_type(store: Store) -> None:
    recs = one_of_each()
    store.write(list(recs.values()))
    orphan_call = LLMCallRecord(
        run_id=None,
        call_id="c0",
        role="planner",
        endpoint="e",
        model="m",
        request={},
        completions=[],
        finish_reasons=[],
    )
    store.write([orphan_call])

    assert store.problem("adhoc/p1") == recs["problem"]
    assert store.problem("nope") is None
    run = store.get_run("r1")
    start, end = recs["start"], recs["end"]
    assert run is not None
    assert (
        run.run_id,
        run.kind,
        run.config,
        run.versions,
        run.problem_id,
        run.parent_run_id,
        run.started_at,
    ) == (
        start.run_id,
        start.kind,
        start.config,
        start.versions,
        start.problem_id,
        start.parent_run_id,
        start.started_at,
    )
    assert (run.status, run.summary, run.finished_at) == (end.status, end.summary, end.finished_at)
    assert store.get_run("nope") is None

    [node] = store.nodes("r1")
    assert node.created() == recs["node"]
    assert (node.status, node.strategy, node.proof, node.reason, node.status_at) == (
        "solved",
        "prover",
        "norm_num",
        None,
        5.0,
    )
    assert store.status_changes("r1") == [recs["status"]]
    assert store.attempts("r1") == [recs["attempt"]]
    assert store.attempts("r1", node_id="n0") == [recs["attempt"]]
    assert store.attempts("r1", node_id="other") == []
    assert store.llm_calls("r1") == [recs["call"]]
    assert store.llm_calls(None) == [orphan_call]
    assert store.llm_call("c1") == recs["call"]
    assert store.proofs("r1") == [recs["proof"]]
    assert store.proofs(kind="whole") == []
    assert store.proofs(problem_id="adhoc/p1") == [recs["proof"]]


def test_problem_upserts_by_problem_id(store: Store) -> None:
    p = ProblemRecord(problem_id="d/p", name="p", header="h", statement="s")
    store.write([p])
    p2 = ProblemRecord(problem_id="d/p", name="p", header="h2", statement="s2", dataset="d", extra={"v": 2})
    store.write([p2])
    assert store.problem("d/p") == p2
    assert store.problems() == [p2]
    assert store.problems(dataset="d") == [p2] and store.problems(dataset="adhoc") == []


def test_writing_twice_does_not_duplicate(store: Store) -> None:
    run = synthetic_run()
    store.write(run.records)
    before = (
        store.nodes(run.run_id),
        store.attempts(run.run_id),
        store.llm_calls(run.run_id),
        store.proofs(),
    )
    changes = store.status_changes(run.run_id)
    store.write(run.records)  # replay all
    store.write(run.records[::-1][:20])  # replay some, out of order: an old status change must not win
    for rec in run.records:  # and one by one
        store.write([rec])
    assert (
        store.nodes(run.run_id),
        store.attempts(run.run_id),
        store.llm_calls(run.run_id),
        store.proofs(),
    ) == before
    assert store.status_changes(run.run_id) == changes
    assert len(store.runs()) == 1 and len(store.problems()) == 1


def test_duplicates_within_one_batch(store: Store) -> None:
    recs = one_of_each()
    store.write([*recs.values(), *recs.values()])
    assert len(store.nodes("r1")) == 1 and len(store.attempts("r1")) == 1 and len(store.proofs()) == 1
    assert len(store.status_changes("r1")) == 1


def test_latest_status_wins_by_time(store: Store) -> None:
    recs = one_of_each()
    store.write([recs["start"], recs["node"]])
    late = NodeStatusChanged(run_id="r1", node_id="n0", status="cancelled", reason="sibling failed", at=9.0)
    early = NodeStatusChanged(run_id="r1", node_id="n0", status="failed", reason="x", at=8.0)
    store.write([late])
    store.write([early])
    [node] = store.nodes("r1")
    assert (node.status, node.reason) == ("cancelled", "sibling failed")
    assert [c.status for c in store.status_changes("r1")] == ["cancelled", "failed"]  # history keeps both


def test_synthetic_run_reads_back(store: Store) -> None:
    run = synthetic_run()
    store.write(run.records)
    expected = expected_nodes(run.records)
    nodes = store.nodes(run.run_id)
    assert [n.node_id for n in nodes] == list(expected)
    for n in nodes:
        e = expected[n.node_id]
        assert n.created() == e["created"]
        assert (n.status, n.strategy, n.proof, n.reason, n.status_at) == (
            e["status"],
            e["strategy"],
            e["proof"],
            e["reason"],
            e["status_at"],
        )
    assert store.attempts(run.run_id) == run.of(AttemptRecord)
    assert store.llm_calls(run.run_id) == run.of(LLMCallRecord)
    assert store.proofs(run.run_id) == run.of(ProofRecord)
    assert store.status_changes(run.run_id) == run.of(NodeStatusChanged)


def test_tree(store: Store) -> None:
    run = synthetic_run()
    store.write(run.records)
    g = store.tree(run.run_id)
    assert isinstance(g, nx.DiGraph) and nx.is_arborescence(g)
    assert g.graph["run_id"] == run.run_id and g.graph["roots"] == ["g0"]
    assert set(g.successors("g0")) == {"s0"}
    assert g.edges["g0", "s0"]["relation"] == "decomposition"
    assert sorted(g.successors("s0"), key=lambda n: g.edges["s0", n]["hole_index"]) == ["h0", "h1", "h2"]
    assert g.edges["s0", "h1"] == {"relation": "hole", "hole_index": 1}
    assert set(g.successors("h2")) == {"s1a", "s1"}
    assert set(g.successors("s1")) == {"h2b0", "h2b1"}
    assert g.nodes["s1a"]["status"] == "abandoned" and g.nodes["h2a0"]["status"] == "failed"
    assert g.nodes["h1"]["strategy"] == "prover_correction" and g.nodes["h1"]["kind"] == "goal"
    assert max(d["depth"] for _, d in g.nodes(data=True)) == 2
    assert store.tree("nope").number_of_nodes() == 0


def test_cached_proof_across_runs(store: Store) -> None:
    store.write(synthetic_run("run-a").records)
    assert store.cached_proof(HEADER, "normalized h1") == "nlinarith [sq_nonneg x]"
    assert store.cached_proof(HEADER + " ", "normalized h1") is None  # another header
    assert store.cached_proof(HEADER, "normalized h9") is None
    assert store.cached_proof(HEADER, "normalized root") is None  # whole proofs are not subgoal cache entries
    fresh = Store(store.url)
    assert fresh.cached_proof(HEADER, "normalized h2b1") == "simp"


def test_runs_children_and_finished_problem_ids(store: Store) -> None:
    store.write([RunStarted(run_id="bench", kind="bench", config={}, versions={}, started_at=0.0)])
    for i, status in enumerate(["proved", "not_proved", "failed", "cancelled", None]):
        run = RunStarted(
            run_id=f"c{i}",
            kind="prove",
            config={},
            versions={},
            problem_id=f"p{i}",
            parent_run_id="bench",
            started_at=i + 1.0,
        )
        store.write([run] + ([RunFinished(run_id=f"c{i}", status=status, summary={})] if status else []))  # type: ignore[arg-type]
    store.write(
        [RunStarted(run_id="other", kind="prove", config={}, versions={}, problem_id="p0", started_at=9.0)]
    )
    assert [r.run_id for r in store.runs(parent="bench")] == ["c0", "c1", "c2", "c3", "c4"]
    assert [r.run_id for r in store.runs(kind="bench")] == ["bench"]
    assert [r.run_id for r in store.runs(problem_id="p0")] == ["c0", "other"]
    assert store.get_run("c4").status == "running"  # type: ignore[union-attr]
    assert store.finished_problem_ids("bench") == {"p0", "p1"}
    assert store.finished_problem_ids("bench", statuses={"proved", "failed"}) == {"p0", "p2"}
    assert store.finished_problem_ids("nope") == set()


def test_record_of_unknown_run_or_node_is_an_error(store: Store) -> None:
    with pytest.raises(StoreError, match="unknown run 'ghost'"):
        store.write([RunFinished(run_id="ghost", status="proved", summary={})])
    with pytest.raises(StoreRecordError):
        store.write([NodeCreated(run_id="ghost", node_id="n", kind="goal", depth=0, text="t")])
    store.write([RunStarted(run_id="r", kind="prove", config={}, versions={})])
    with pytest.raises(StoreRecordError):
        store.write([NodeStatusChanged(run_id="r", node_id="ghost", status="solved")])
    with pytest.raises(StoreRecordError):  # the CHECK constraint on the node kind
        store.write([NodeCreated(run_id="r", node_id="n", kind="leaf", depth=0, text="t")])  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="not a lemmaforge.records record"):
        store.write(["not a record"])  # type: ignore[list-item]
    # a failed write is rolled back as a whole
    with pytest.raises(StoreError):
        store.write(
            [
                NodeCreated(run_id="r", node_id="ok", kind="goal", depth=0, text="t"),
                RunFinished("ghost", "proved", {}),
            ]
        )
    assert store.nodes("r") == []


def test_portable_code_path(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The select-then-insert path used for databases other than SQLite and Postgres."""
    monkeypatch.setattr(store, "_native_upsert", False)
    run = synthetic_run()
    store.write(run.records)
    store.write(run.records)
    assert store.attempts(run.run_id) == run.of(AttemptRecord)
    assert store.proofs() == run.of(ProofRecord)
    assert store.status_changes(run.run_id) == run.of(NodeStatusChanged)
    p2 = ProblemRecord(problem_id=run.problem_id, name="renamed", header="h", statement="s")
    store.write([p2])
    assert store.problem(run.problem_id) == p2


def test_sqlite_file_is_in_wal_mode_with_foreign_keys(sqlite_url: str) -> None:
    db_url, store = sqlite_url, Store(sqlite_url)
    store.write([one_of_each()["problem"]])
    path = db_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000


def test_creates_parent_directories_and_expands_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    s = Store("sqlite:///~/deep/er/x.db")
    assert (tmp_path / "deep" / "er" / "x.db").is_file()
    assert s.url == f"sqlite:///{tmp_path / 'deep' / 'er' / 'x.db'}"
    s.close()


def test_in_memory_database_is_shared_between_threads() -> None:
    import threading

    s = Store("sqlite://")
    recs = list(one_of_each().values())
    t = threading.Thread(target=s.write, args=(recs,))
    t.start()
    t.join()
    assert len(s.nodes("r1")) == 1


@pytest.mark.parametrize(
    ("url", "match"),
    [
        ("not a url", "not a database URL"),
        ("", "not a database URL"),
        ("nosuchdialect://x/y", "unknown dialect or driver"),
        ("postgresql+nosuchdriver://u:secret@h/db", "unknown dialect or driver"),
        ("postgresql+pg8000://u:secret@localhost:1/db", "driver is not installed|cannot open database"),
    ],
)
def test_bad_url_is_one_line_store_error(url: str, match: str) -> None:
    with pytest.raises(StoreError, match=match) as info:
        Store(url)
    msg = str(info.value)
    assert "\n" not in msg and "secret" not in msg and len(msg) < 300


def test_unusable_sqlite_paths(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    with pytest.raises(StoreError, match="afile is a file, not a directory") as info:
        Store(f"sqlite:///{tmp_path / 'afile' / 'sub' / 'x.db'}")
    assert "\n" not in str(info.value)
    with pytest.raises(StoreError, match="is a directory"):
        Store(f"sqlite:///{tmp_path}")
    (tmp_path / "junk.db").write_bytes(b"this is not an sqlite database, but a text file of some length" * 20)
    with pytest.raises(StoreError, match="cannot open database") as info:
        Store(f"sqlite:///{tmp_path / 'junk.db'}")
    assert "\n" not in str(info.value)


def test_schema_compiles_for_postgres() -> None:
    """No Postgres here: check that the DDL and the upserts render for it (JSONB, ON CONFLICT)."""
    from sqlalchemy.dialects import postgresql
    from sqlalchemy.schema import CreateIndex, CreateTable

    dialect = postgresql.dialect()
    ddl = "\n".join(str(CreateTable(t).compile(dialect=dialect)) for t in Base.metadata.sorted_tables)
    ddl += "\n".join(
        str(CreateIndex(i).compile(dialect=dialect)) for t in Base.metadata.tables.values() for i in t.indexes
    )
    assert "JSONB" in ddl and "FOREIGN KEY(run_id, node_id) REFERENCES nodes (run_id, node_id)" in ddl
    assert "ix_proofs_cache ON proofs (header_hash, statement_hash)" in ddl

    s = Store.__new__(Store)
    s.dialect = "postgresql"
    table = Base.metadata.tables["nodes"]
    stmt = s._dialect_insert(table).on_conflict_do_nothing(index_elements=["run_id", "node_id"])
    assert "ON CONFLICT (run_id, node_id) DO NOTHING" in str(stmt.compile(dialect=dialect))
    pt = Base.metadata.tables["problems"]
    up = s._dialect_insert(pt)
    up = up.on_conflict_do_update(index_elements=["problem_id"], set_={"name": up.excluded.name})
    assert "ON CONFLICT (problem_id) DO UPDATE SET name = excluded.name" in str(up.compile(dialect=dialect))


def test_json_is_lenient_and_keeps_unicode(sqlite_url: str) -> None:
    db_url, store = sqlite_url, Store(sqlite_url)
    store.write(
        [RunStarted(run_id="r", kind="prove", config={"home": Path("/x/y"), "t": "∀ ε"}, versions={})]
    )
    assert store.get_run("r").config == {"home": "/x/y", "t": "∀ ε"}  # type: ignore[union-attr]
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as con:
        assert "∀ ε" in con.execute("SELECT config FROM runs").fetchone()[0]


def test_an_unreachable_postgres_is_one_line_and_transient() -> None:
    pytest.importorskip("psycopg")
    from lemmaforge.db import StoreUnavailable
    from lemmaforge.errors import BackendUnavailable
    from tests.conftest import closed_port

    with pytest.raises(StoreUnavailable, match="cannot open database postgresql") as info:
        Store(f"postgresql+psycopg://u:secret@127.0.0.1:{closed_port()}/lemmaforge")
    msg = str(info.value)
    assert isinstance(info.value, BackendUnavailable) and "\n" not in msg and "secret" not in msg

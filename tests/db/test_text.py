"""Any text a user or a model produces is stored and read back unchanged, on SQLite and PostgreSQL:
long names (no VARCHAR limits), NUL characters (Postgres refuses them in text and jsonb), lone
surrogates (no driver encodes them), and text that looks like our escape marker."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

from lemmaforge.db import Store
from lemmaforge.db.safe_text import MARK, escape, unescape
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

NASTY = [
    "plain ∀ ε > 0, ∃ δ",
    "nul\x00inside",
    "\x00",
    "lone surrogate \udc80 from surrogateescape",
    "high \ud83d alone",
    MARK + "starts with the marker",
    MARK,
    "backslash \\u0000 is not a NUL",
    '"quoted" and \\ and \n newlines \t tabs \x01 \x1f',
    "",
]


@pytest.mark.parametrize("value", NASTY)
def test_escape_round_trips_and_leaves_ordinary_text_alone(value: str) -> None:
    stored = escape(value)
    assert unescape(stored) == value
    assert "\x00" not in stored
    stored.encode("utf-8")  # every stored form is encodable
    if "\x00" not in value and not value.startswith(MARK) and not any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        assert stored == value


def test_long_names_and_unstorable_characters_round_trip(store: Store, db_url: str) -> None:
    problem_id = "putnambench/" + "x" * 400  # over the old VARCHAR(255)
    dataset = "/data/" + "very_long_dataset_file_name_" * 5 + ".jsonl"  # over the old VARCHAR(64)
    nul = "theorem t : True := by\n  trivial\x00 -- the model emitted a NUL"
    sur = "output with \udc80\udcff undecodable bytes"
    run_id = "run-" + "r" * 200  # over the old VARCHAR(128)
    p = ProblemRecord(problem_id=problem_id, name="x" * 400, header="import Mathlib", statement=nul,
                      dataset=dataset, split="t" * 100, informal=sur, extra={"k\x00": ["v\x00", sur, MARK]})
    call = LLMCallRecord(run_id=run_id, call_id="c" * 300, role="prover", endpoint="http://" + "h" * 600,
                         model="m" * 300, request={"messages": [{"content": nul}]}, completions=[nul, sur],
                         finish_reasons=["stop", None], error=sur)
    records = [
        p,
        RunStarted(run_id, "prove", {"statement": nul, sur: 1}, {"v": MARK + "x"}, problem_id),
        NodeCreated(run_id, "n" * 300, "goal", 0, text=nul, goal_state=sur),
        call,
        AttemptRecord(run_id, "a" * 300, "n" * 300, "prover", "invalid", code=nul, output=sur, prompt=MARK,
                      llm_call_id=call.call_id, errors=[nul, sur]),
        NodeStatusChanged(run_id, "n" * 300, "failed", reason=nul, proof=sur),
        ProofRecord(run_id, "p" * 300, "whole", header="import Mathlib", statement=nul, normalized_statement=sur, proof=nul,
                    problem_id=problem_id, audit={"note": nul}),
        RunFinished(run_id, "not_proved", {"last_error": nul, "why": sur}),
    ]
    store.write(records)
    fresh = Store(db_url)
    assert fresh.problem(problem_id) == p
    assert fresh.problems(dataset=dataset) == [p]
    run = fresh.get_run(run_id)
    assert run is not None and run.config == {"statement": nul, sur: 1} and run.versions == {"v": MARK + "x"}
    assert run.summary == {"last_error": nul, "why": sur} and run.problem_id == problem_id
    assert fresh.llm_calls(run_id) == [call]
    assert fresh.attempts(run_id) == [records[4]]
    assert fresh.status_changes(run_id) == [records[5]]
    node = fresh.nodes(run_id)[0]
    assert (node.text, node.goal_state, node.reason, node.proof) == (nul, sur, nul, sur)
    assert fresh.proofs(problem_id=problem_id) == [records[6]]
    assert [r.run_id for r in fresh.runs(problem_id=problem_id)] == [run_id]


def test_ordinary_text_is_stored_verbatim(store: Store, db_url: str) -> None:
    """Only unstorable strings are escaped: the rows stay readable and queryable by other tools."""
    store.write([RunStarted("r", "prove", {"t": "∀ ε"}, {}, "minif2f/test/∀")])
    engine = create_engine(db_url)
    with engine.connect() as conn:
        row = conn.execute(text("SELECT problem_id FROM runs WHERE id = 'r'")).one()
    engine.dispose()
    assert row[0] == "minif2f/test/∀"


def test_a_key_too_long_for_an_index_is_a_clear_record_error(store: Store) -> None:
    """PostgreSQL's btree entries are limited (~2.7 kB): a 10 kB problem id cannot be a key there.
    It is refused as one record (StoreRecordError, one line), never a crash; SQLite takes it."""
    import secrets

    from lemmaforge.db import StoreRecordError

    # random (incompressible: Postgres compresses index entries, so "x" * 10_000 would fit)
    p = ProblemRecord(problem_id=secrets.token_hex(5_000), name="n", header="h", statement="s")
    if store.dialect == "postgresql":
        with pytest.raises(StoreRecordError, match="index row") as info:
            store.write([p])
        assert "\n" not in str(info.value) and len(str(info.value)) < 500
    else:
        store.write([p])
        assert store.problem(p.problem_id) == p

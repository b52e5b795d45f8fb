"""KiminaVerifier against a fake Kimina Lean Server over real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Iterator

import pytest

from lemmaforge.config import VerifierConfig
from lemmaforge.lean.kimina import KiminaVerifier, RetryPolicy
from lemmaforge.lean.kimina._replies import kimina_header_lines, position_probe
from lemmaforge.lean.verifier import (
    CheckStatus,
    Goal,
    Position,
    ProofStatesUnsupported,
    Severity,
    Verifier,
    VerifierError,
)
from tests.conftest import closed_port
from tests.fakes.fake_kimina import (
    OOM_ERROR,
    FakeKimina,
    MessageRule,
    ReplErrorRule,
    ScriptedLean,
    SnippetCrash,
    SnippetFailure,
)
from tests.lean.positions import where
from tests.waiting import until

FAST_RETRIES = RetryPolicy(attempts=3, initial_wait=0.001, max_wait=0.005)
MINIF2F_HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n\nopen BigOperators Real Nat Topology Rat\n\n"


@pytest.fixture
def server() -> Iterator[FakeKimina]:
    with FakeKimina() as fake:
        yield fake


@pytest.fixture
async def verifier(server: FakeKimina) -> AsyncIterator[KiminaVerifier]:
    v = KiminaVerifier(server.url, retry=FAST_RETRIES, position_mode="server", timeout=30)
    yield v
    await v.close()


# --- results ---------------------------------------------------------------------------------------


async def test_is_a_verifier_without_proof_states(verifier: KiminaVerifier) -> None:
    from lemmaforge.lean.verifier import QueuedVerifier

    assert isinstance(verifier, Verifier) and isinstance(verifier, QueuedVerifier)  # its checks queue
    assert verifier.idle is verifier.batcher.idle
    assert verifier.name == "kimina" and verifier.supports_proof_states is False
    with pytest.raises(ProofStatesUnsupported):
        await verifier.run_tactic(Goal("⊢ True", proof_state=0), "trivial")


async def test_valid_proof_of_a_real_statement(verifier: KiminaVerifier, minif2f: dict) -> None:
    row = minif2f["mathd_algebra_182"]
    code = row["header"] + row["formal_statement"].replace("sorry", "ring")

    result = await verifier.check(code)

    assert result.status is CheckStatus.VALID and result.ok
    assert result.backend == "kimina" and result.error is None and result.time > 0
    assert result.raw is not None and result.raw["response"]["env"] == 0


async def test_sorry_is_incomplete_with_holes_at_whole_file_positions(
    verifier: KiminaVerifier, server: FakeKimina, minif2f: dict
) -> None:
    row = minif2f["amc12a_2019_p21"]
    code = row["header"] + row["formal_statement"]

    result = await verifier.check(code)

    assert result.status is CheckStatus.INCOMPLETE and not result.ok and result.uses_sorry
    [hole] = result.holes
    assert hole.pos == where(code, "sorry") and hole.pos.line == 10
    assert hole.end_pos == Position(hole.pos.line, hole.pos.column + len("sorry"))
    assert hole.goal.startswith("z : ℂ\nh₀ : z = (1 + Complex.I) / Real.sqrt 2\n⊢ ")
    assert hole.proof_state is None  # the server's REPL ids are unreachable from here
    assert (
        result.raw is not None and result.raw["response"]["sorries"][0]["proofState"] == 0
    )  # kept on record
    [warning] = result.messages
    assert warning.severity is Severity.WARNING and warning.data == "declaration uses 'sorry'"
    assert warning.pos == where(code, "amc12a_2019_p21")
    # The server got the whole file (header included) and the request shape of the real client.
    [request] = server.check_requests
    assert request.body["snippets"][0]["code"] == code
    assert request.body["timeout"] == 30 and request.body["debug"] is False and request.body["reuse"] is True


async def test_errors_keep_their_positions() -> None:
    lean = ScriptedLean(rules=[MessageRule(r"linarith", "linarith failed to find a contradiction")])
    code = MINIF2F_HEADER + "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 3 := by\n  nlinarith [h]\n  linarith\n"
    with FakeKimina(responder=lean) as server:
        verifier = KiminaVerifier(server.url, retry=FAST_RETRIES, position_mode="server")
        result = await verifier.check(code)
        await verifier.close()

    assert result.status is CheckStatus.ERROR
    first, second = result.errors
    assert (first.pos, first.end_pos) == (where(code, "linarith"), where(code, " [h]"))
    assert second.pos == where(code, "linarith", occurrence=1) and second.pos.line == 10
    assert "linarith failed" in second.format()


async def test_repl_error_message_is_an_error() -> None:
    lean = ScriptedLean(rules=[ReplErrorRule(r"#bad", "Unknown environment.")])
    with FakeKimina(responder=lean) as server:
        verifier = KiminaVerifier(server.url, retry=FAST_RETRIES, position_mode="server")
        result = await verifier.check("#bad")
        await verifier.close()

    assert result.status is CheckStatus.ERROR and result.error == "Unknown environment."


async def test_print_axioms_comes_back_as_info() -> None:
    code = MINIF2F_HEADER + "theorem t : (2 : ℕ) + 2 = 4 := by native_decide\n\n#print axioms t\n"
    with FakeKimina() as server:
        verifier = KiminaVerifier(server.url, retry=FAST_RETRIES, position_mode="server")
        result = await verifier.check(code)
        await verifier.close()

    [info] = result.messages
    assert info.severity is Severity.INFO and info.pos == where(code, "#print")
    assert info.data == "'t' depends on axioms: [propext, Classical.choice, Lean.ofReduceBool, Quot.sound]"
    assert result.status is CheckStatus.VALID  # the audit, not the verifier, rejects the axiom


async def test_server_timeout_error_is_timeout() -> None:
    with FakeKimina(snippet_failures=[SnippetFailure(r"nlinarith")]) as server:
        verifier = KiminaVerifier(server.url, retry=FAST_RETRIES, position_mode="server")
        result = await verifier.check(MINIF2F_HEADER + "example : 1 = 1 := by nlinarith", timeout=7.5)
        await verifier.close()

    assert result.status is CheckStatus.TIMEOUT
    assert result.error == "Lean REPL command timed out in 8.0 seconds"  # timeout rounded up to an int
    assert server.check_requests[0].body["timeout"] == 8


async def test_other_server_errors_are_crashes() -> None:
    with FakeKimina(snippet_failures=[SnippetFailure(r"huge", OOM_ERROR)]) as server:
        verifier = KiminaVerifier(server.url, retry=FAST_RETRIES, position_mode="server")
        result = await verifier.check("example : huge := rfl")
        await verifier.close()

    assert result.status is CheckStatus.CRASHED and result.error == OOM_ERROR


async def test_cold_header_timeout_is_retried_with_the_header_timeout() -> None:
    with FakeKimina(cold_import_seconds=60) as server:
        verifier = KiminaVerifier(
            server.url, retry=FAST_RETRIES, position_mode="server", timeout=10, header_timeout=120
        )
        result = await verifier.check(MINIF2F_HEADER + "example : 1 = 1 := rfl")
        await verifier.close()

    assert result.status is CheckStatus.VALID
    assert [r.body["timeout"] for r in server.check_requests] == [10, 120]


async def test_header_timeout_within_the_header_limit_stays_a_timeout() -> None:
    with FakeKimina(cold_import_seconds=1000) as server:
        verifier = KiminaVerifier(
            server.url, retry=FAST_RETRIES, position_mode="server", timeout=10, header_timeout=120
        )
        result = await verifier.check(MINIF2F_HEADER + "example : 1 = 1 := rfl")
        await verifier.close()

    assert result.status is CheckStatus.TIMEOUT and "header command timed out" in (result.error or "")
    assert len(server.check_requests) == 2


# --- batching ------------------------------------------------------------------------------------


async def test_batches_preserve_order_and_use_unique_ids(server: FakeKimina, minif2f: dict) -> None:
    rows = [r for r in minif2f.values() if r["split"] == "valid"][:20]
    codes = [
        r["header"] + (r["formal_statement"] if i % 2 else r["formal_statement"].replace("sorry", "simp"))
        for i, r in enumerate(rows)
    ]
    verifier = KiminaVerifier(
        server.url, batch_size=8, concurrency=16, retry=FAST_RETRIES, position_mode="server"
    )

    results = await verifier.check_many(codes)
    await verifier.close()

    # 16 checks in flight: two full batches at once (in any order), the last 4 when one returns.
    assert sorted(len(r.body["snippets"]) for r in server.check_requests) == [4, 8, 8]
    assert [r.status for r in results] == [CheckStatus.VALID, CheckStatus.INCOMPLETE] * 10
    for code, result in zip(codes, results, strict=True):
        if result.holes:
            assert result.holes[0].pos == where(code, "sorry", occurrence=code.count("sorry") - 1)
    ids = [s["id"] for r in server.check_requests for s in r.body["snippets"]]
    assert len(set(ids)) == 20
    assert verifier.stats.requests == 3 and verifier.stats.snippets == 20


async def test_concurrency_bounds_checks_in_flight_across_callers() -> None:
    with FakeKimina(gate=threading.Event()) as server:  # requests are held until the test says
        verifier = KiminaVerifier(
            server.url, batch_size=2, concurrency=3, retry=FAST_RETRIES, position_mode="server"
        )
        many = verifier.check_many([f"example : {i} = {i} := rfl" for i in range(8)])
        singles = [verifier.check(f"example : {i} = {i} := rfl") for i in range(6)]
        everything = asyncio.gather(many, *singles)

        def checks_at_the_server() -> int:
            return sum(len(r.body["snippets"]) for r in server.check_requests)

        await until(lambda: checks_at_the_server() >= 3, what="three checks sent")
        for _ in range(20):  # room for a fourth to leave, were the limit not kept
            await asyncio.sleep(0)
        assert checks_at_the_server() == 3 and server.max_in_flight > 1  # held there side by side
        server.gate.set()  # type: ignore[union-attr]
        results = await everything
        await verifier.close()

    assert len(results[0]) == 8 and all(r.ok for r in results[0]) and all(r.ok for r in results[1:])
    # Never more than `concurrency` checks in flight across all callers together (so never more
    # requests either), and the single checks travel in batches with the others.
    assert 1 < server.max_in_flight <= 3
    assert verifier.batcher.stats.max_in_flight <= 3
    assert sum(len(r.body["snippets"]) for r in server.check_requests) == 14
    assert len(server.check_requests) < 14


async def test_concurrent_single_checks_are_coalesced_into_batches() -> None:
    """The engine calls `check()` one file at a time from many tasks: those calls, not only
    check_many, are what the batcher groups into `/api/check` requests."""
    with FakeKimina(delay=0.05) as server:
        verifier = KiminaVerifier(server.url, batch_size=8, retry=FAST_RETRIES, position_mode="all")
        codes = [f"example : {i} = {i} := rfl" for i in range(20)]
        results = await asyncio.gather(*(verifier.check(c) for c in codes))
        await verifier.close()
    assert all(r.ok for r in results)
    assert sorted(len(r.body["snippets"]) for r in server.check_requests) == [4, 8, 8]
    assert verifier.stats.requests == 3


async def test_a_sent_check_is_never_aborted_and_its_verdict_is_kept() -> None:
    """Kimina destroys the REPL of a request that is aborted: a check cancelled after its request
    left runs to the end, and the next check of the same code gets that verdict without a request."""
    with FakeKimina(gate=threading.Event()) as server:  # requests are held until the test says
        verifier = KiminaVerifier(server.url, batch_size=8, batch_window=0, retry=FAST_RETRIES,
                                  position_mode="all")
        task = asyncio.ensure_future(verifier.check("example : 1 = 1 := rfl"))
        await until(lambda: len(server.check_requests) == 1, what="the check sent")
        task.cancel()  # sent, not answered
        with pytest.raises(asyncio.CancelledError):
            await task
        server.gate.set()  # type: ignore[union-attr]
        await until(lambda: verifier.batcher.in_flight == 0, what="the request finished on its own")
        assert len(server.check_requests) == 1 and server.max_in_flight == 1
        result = await verifier.check("example : 1 = 1 := rfl")
        await verifier.close()
    assert result.ok
    assert len(server.check_requests) == 1  # answered from the kept verdict
    assert (verifier.batcher.stats.orphaned, verifier.batcher.stats.orphan_hits) == (1, 1)


async def test_a_check_cancelled_before_it_is_sent_is_never_sent() -> None:
    with FakeKimina(gate=threading.Event()) as server:  # requests are held until the test says
        verifier = KiminaVerifier(server.url, batch_size=1, concurrency=1, batch_window=0,
                                  retry=FAST_RETRIES, position_mode="all")
        first = asyncio.ensure_future(verifier.check("example : 1 = 1 := rfl"))
        queued = asyncio.ensure_future(verifier.check("example : 2 = 2 := rfl"))
        await until(lambda: len(server.check_requests) == 1, what="the first check sent")
        queued.cancel()  # the first is in flight, the second waits for room
        server.gate.set()  # type: ignore[union-attr]
        assert (await first).ok
        with pytest.raises(asyncio.CancelledError):
            await queued
        # one room, first come first sent: had the cancelled check gone out, it would go before this
        assert (await verifier.check("example : 3 = 3 := rfl")).ok
        await verifier.close()
    sent = [s["code"] for r in server.check_requests for s in r.body["snippets"]]
    assert sent == ["example : 1 = 1 := rfl", "example : 3 = 3 := rfl"]
    assert verifier.batcher.stats.dropped_unsent == 1


async def test_empty_input_sends_nothing(verifier: KiminaVerifier, server: FakeKimina) -> None:
    assert await verifier.check_many([]) == []
    assert server.requests == []


# --- retries and failures ----------------------------------------------------------------------


@pytest.mark.parametrize("status", [503, 429, 502])
async def test_transient_statuses_are_retried(
    verifier: KiminaVerifier, server: FakeKimina, status: int
) -> None:
    server.fail_next(2, status)

    result = await verifier.check("example : 1 = 1 := rfl")

    assert result.ok
    assert len(server.check_requests) == 3 and verifier.stats.retries == 2


async def test_dropped_connections_are_retried(verifier: KiminaVerifier, server: FakeKimina) -> None:
    server.drop_next(1)

    result = await verifier.check("example : 1 = 1 := rfl")

    assert result.ok and verifier.stats.retries == 1


async def test_retries_are_logged(
    verifier: KiminaVerifier, server: FakeKimina, caplog: pytest.LogCaptureFixture
) -> None:
    server.fail_next(1, 429)
    with caplog.at_level(logging.INFO, logger="lemmaforge.lean.kimina"):
        await verifier.check("example : 1 = 1 := rfl")
    assert "HTTP 429: No available REPLs" in caplog.text


async def test_permanent_failure_raises_naming_the_url(verifier: KiminaVerifier, server: FakeKimina) -> None:
    server.fail_next(10, 503)

    with pytest.raises(VerifierError) as raised:
        await verifier.check("example : 1 = 1 := rfl")

    message = str(raised.value)
    assert server.url in message and "after 3 attempts" in message and "HTTP 503" in message
    assert "\n" not in message
    assert len(server.check_requests) == FAST_RETRIES.attempts


async def test_client_errors_are_not_retried() -> None:
    with FakeKimina(api_key="right") as server:
        verifier = KiminaVerifier(server.url, api_key="wrong", retry=FAST_RETRIES, position_mode="server")
        with pytest.raises(VerifierError, match="rejected the API key"):
            await verifier.check("example : 1 = 1 := rfl")
        await verifier.close()

    assert len(server.requests) == 1


async def test_api_key_is_sent_as_bearer_token() -> None:
    with FakeKimina(api_key="s3cret") as server:
        verifier = KiminaVerifier(server.url, api_key="s3cret", retry=FAST_RETRIES, position_mode="server")
        assert (await verifier.check("example : 1 = 1 := rfl")).ok
        assert "ok" in await verifier.ping()
        await verifier.close()

    assert server.requests[0].headers["Authorization"] == "Bearer s3cret"


async def test_connection_refused_raises_naming_the_url() -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    verifier = KiminaVerifier(url, retry=FAST_RETRIES, position_mode="server")

    with pytest.raises(VerifierError) as raised:
        await verifier.check("example : 1 = 1 := rfl")
    await verifier.close()

    assert url in str(raised.value) and "ConnectError" in str(raised.value)
    assert verifier.stats.requests == FAST_RETRIES.attempts


async def test_a_crashing_snippet_fails_alone(server: FakeKimina) -> None:
    server.crashes.append(SnippetCrash(r"panic"))
    verifier = KiminaVerifier(server.url, batch_size=4, retry=FAST_RETRIES, position_mode="server")
    codes = ["example : 1 = 1 := rfl", "example : panic := rfl", "example : 2 = 2 := by sorry"]

    results = await verifier.check_many(codes)
    await verifier.close()

    assert [r.status for r in results] == [CheckStatus.VALID, CheckStatus.CRASHED, CheckStatus.INCOMPLETE]
    assert "HTTP 500: Lean process broken pipe" in (results[1].error or "")


async def test_a_server_that_fails_everything_is_unusable(server: FakeKimina) -> None:
    server.crashes.append(SnippetCrash(r"."))
    verifier = KiminaVerifier(server.url, retry=FAST_RETRIES, position_mode="server")

    with pytest.raises(VerifierError, match="fails every snippet"):
        await verifier.check_many(["example : 1 = 1 := rfl", "example : 2 = 2 := rfl"])
    await verifier.close()


async def test_not_a_kimina_server(server: FakeKimina) -> None:
    verifier = KiminaVerifier(server.url + "/nothing-here", retry=FAST_RETRIES, position_mode="server")
    with pytest.raises(VerifierError, match="HTTP 404"):
        await verifier.check("example : 1 = 1 := rfl")
    await verifier.close()


# --- positions across server versions -------------------------------------------------------------


@pytest.mark.parametrize("shift", ["all", "messages", "none"])
async def test_auto_mode_finds_where_the_server_puts_line_numbers(shift: str, minif2f: dict) -> None:
    row = minif2f["amc12a_2015_p10"]
    code = row["header"] + row["formal_statement"]
    with FakeKimina(position_shift=shift) as server:  # type: ignore[arg-type]
        verifier = KiminaVerifier(server.url, retry=FAST_RETRIES)  # position_mode="auto"
        first, second = await verifier.check_many([code, code])
        again = await verifier.check(code)
        await verifier.close()

    for result in (first, second, again):
        assert result.holes[0].pos == where(code, "sorry")
        assert result.messages[0].pos == where(code, "amc12a_2015_p10")
    probes = [r for r in server.check_requests if r.body["snippets"][0]["id"].startswith("lf-position-probe")]
    assert len(probes) == 1 and len(server.check_requests) == 3
    assert probes[0].body["snippets"][0]["code"].startswith("import Mathlib\nimport Aesop\n")


@pytest.mark.parametrize("shift", ["all", "messages", "none"])
async def test_each_configured_position_mode_matches_that_server(shift: str, minif2f: dict) -> None:
    """`verifier.kimina_position_mode` names what the server shifts; set explicitly, no probe is
    sent and positions come out whole-file (config values, not only the verifier's own names)."""
    row = minif2f["amc12a_2015_p10"]
    code = row["header"] + row["formal_statement"]
    with FakeKimina(position_shift=shift) as server:  # type: ignore[arg-type]
        cfg = VerifierConfig(backend="kimina", kimina_url=server.url, kimina_position_mode=shift)  # type: ignore[arg-type]
        verifier = KiminaVerifier.from_config(cfg, retry=FAST_RETRIES)
        result = await verifier.check(code)
        await verifier.close()
    assert result.holes[0].pos == where(code, "sorry")
    assert result.messages[0].pos == where(code, "amc12a_2015_p10")
    assert len(server.check_requests) == 1  # no probe


def test_an_unknown_position_mode_is_refused() -> None:
    with pytest.raises(VerifierError, match="position mode"):
        KiminaVerifier("http://127.0.0.1:1", position_mode="sideways")  # type: ignore[arg-type]


def test_header_lines_follow_kiminas_split() -> None:
    # `set_option` and `open` are not header: the server re-elaborates them with every body.
    assert kimina_header_lines(MINIF2F_HEADER + "theorem t : True := trivial") == 3
    assert kimina_header_lines("theorem t : True := trivial\nimport Mathlib") == 0
    assert kimina_header_lines("\n\nimport Mathlib\n  import Aesop\nopen Real") == 4
    assert position_probe("theorem t : True := trivial") == "\nexample : True := sorry"
    assert (
        position_probe(MINIF2F_HEADER + "theorem t")
        == "import Mathlib\nimport Aesop\n\nexample : True := sorry"
    )


# --- health and configuration -----------------------------------------------------------------------


async def test_ping(verifier: KiminaVerifier, server: FakeKimina) -> None:
    assert await verifier.ping() == f"Kimina Lean Server at {server.url}: ok"


async def test_ping_unreachable_raises() -> None:
    verifier = KiminaVerifier(f"http://127.0.0.1:{closed_port()}", retry=FAST_RETRIES)
    with pytest.raises(VerifierError, match="unreachable"):
        await verifier.ping()
    await verifier.close()


async def test_from_config_reads_settings_and_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KIMINA_KEY", "k")
    cfg = VerifierConfig(
        backend="kimina",
        kimina_url="http://example.invalid:8000/",
        kimina_api_key_env="MY_KIMINA_KEY",
        kimina_batch_size=3,
        kimina_concurrency=2,
        timeout=45,
        header_timeout=300,
    )
    verifier = KiminaVerifier.from_config(cfg)
    try:
        assert verifier.url == "http://example.invalid:8000"
        assert (verifier.batch_size, verifier.concurrency, verifier.timeout, verifier.header_timeout) == (
            3,
            2,
            45,
            300,
        )
        assert verifier._client.headers["Authorization"] == "Bearer k"
    finally:
        await verifier.close()


def test_bad_url_is_a_verifier_error() -> None:
    with pytest.raises(VerifierError, match="invalid Kimina URL"):
        KiminaVerifier("localhost:8000")


async def test_a_check_after_close_is_refused_not_left_waiting(server: FakeKimina) -> None:
    verifier = KiminaVerifier(server.url, retry=FAST_RETRIES, position_mode="all")
    assert (await verifier.check("example : 1 = 1 := rfl")).ok
    await verifier.close()
    with pytest.raises(VerifierError, match="closed"):
        await asyncio.wait_for(verifier.check("example : 2 = 2 := rfl"), timeout=5)

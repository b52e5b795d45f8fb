"""The Kimina batcher sizes its requests by the load: a request answers when its slowest check does,
so at light load each check travels alone (its verdict waits for no other), and under load batches
grow up to `batch_size` (lean/kimina/_batcher.py, `spread_requests`)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from lemmaforge.config import VerifierConfig
from lemmaforge.lean.kimina import KiminaVerifier
from lemmaforge.lean.kimina._batcher import CheckBatcher
from lemmaforge.lean.verifier import CheckResult, CheckStatus, VerifierError
from tests.waiting import until

# Virtual time (looptime): the stand-ins' delays and the tests' waits move the loop's clock, not
# the wall clock's; the order of events is what the delays say, however busy the machine.
pytestmark = pytest.mark.looptime


class HeldServer:
    """Answers a request when its slowest check is done (as Kimina's /api/check does): a check whose
    code says "slow" is done once the test sets `release`, any other at once."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.release = asyncio.Event()

    async def send(self, codes: Sequence[str], timeout: float) -> list[CheckResult]:
        self.batches.append(list(codes))
        if any("slow" in c for c in codes):
            await self.release.wait()
        return [CheckResult(status=CheckStatus.VALID) for _ in codes]


class GatedServer:
    """Holds every request until `gate` is set: what was sent together stays visible."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.gate = asyncio.Event()

    async def send(self, codes: Sequence[str], timeout: float) -> list[CheckResult]:
        self.batches.append(list(codes))
        await self.gate.wait()
        return [CheckResult(status=CheckStatus.VALID) for _ in codes]


async def _fast_verdict_waits_for_the_slow_one(server: HeldServer, batcher: CheckBatcher) -> bool:
    """Whether a fast check submitted together with a slow one gets its verdict only after the slow
    one's: decided by what the server holds, not by how long anything took."""
    slow = asyncio.ensure_future(batcher.check("slow", 10.0))
    fast = asyncio.ensure_future(batcher.check("fast", 10.0))
    await until(lambda: fast.done() or any("fast" in b for b in server.batches), what="the fast check sent")
    for _ in range(20):  # the held slow check is all the fast one could still be waiting for
        await asyncio.sleep(0)
    waited = not fast.done()
    assert not slow.done()
    server.release.set()
    assert (await fast).ok and (await slow).ok
    await batcher.close()
    return waited


async def test_at_light_load_a_check_travels_alone_and_waits_for_no_other() -> None:
    spread = HeldServer()
    alone = CheckBatcher(spread.send, batch_size=4, window=0.02, max_in_flight=16, spread_requests=8)
    assert not await _fast_verdict_waits_for_the_slow_one(spread, alone)  # answered when its own check was done
    assert sorted(map(len, spread.batches)) == [1, 1]

    coalesced = HeldServer()
    together = CheckBatcher(coalesced.send, batch_size=4, window=0.02, max_in_flight=16)
    assert await _fast_verdict_waits_for_the_slow_one(coalesced, together)  # it came with the slow one
    assert [len(b) for b in coalesced.batches] == [2]  # the default: plain coalescing


@pytest.mark.parametrize(("checks", "sizes"), [(3, [1, 1, 1]), (6, [2, 2, 2]), (16, [4, 4, 4, 4]), (24, [4] * 6)])
async def test_under_load_batches_grow_with_the_load_up_to_the_batch_size(checks: int, sizes: list[int]) -> None:
    """Spread over 4 requests: below 4 checks each alone; 6 make batches of 2; 16 or more, full ones."""
    server = GatedServer()
    batcher = CheckBatcher(server.send, batch_size=4, window=0.0, max_in_flight=64, spread_requests=4)
    waiting = [asyncio.ensure_future(batcher.check(f"c{i}", 10.0)) for i in range(checks)]
    for _ in range(20):  # let the dispatcher send all it will
        await asyncio.sleep(0)
    assert sorted(map(len, server.batches)) == sizes
    server.gate.set()
    assert all(r.ok for r in await asyncio.gather(*waiting))
    await batcher.close()


async def test_single_check_requests_do_not_eat_into_the_full_batches_allowance() -> None:
    """Room for the light load's singles comes on top of the requests that carry the in-flight
    limit in full batches, so the limit is still reached when load arrives behind them."""
    server = GatedServer()
    batcher = CheckBatcher(server.send, batch_size=4, window=0.0, max_in_flight=16, spread_requests=3)
    assert batcher.max_requests == 16 // 4 + 3
    first = [asyncio.ensure_future(batcher.check(f"a{i}", 10.0)) for i in range(2)]  # 2 singles
    for _ in range(10):
        await asyncio.sleep(0)
    rest = [asyncio.ensure_future(batcher.check(f"b{i}", 10.0)) for i in range(30)]
    for _ in range(20):
        await asyncio.sleep(0)
    assert batcher.in_flight == 16  # the in-flight limit, not the request count, is what binds
    server.gate.set()
    assert len(await asyncio.gather(*first, *rest)) == 32
    await batcher.close()


async def test_a_spread_beyond_the_in_flight_limit_is_bounded_by_it() -> None:
    """Every check alone, but the request allowance (and the connection pool sized from it) no
    larger than the in-flight limit can use."""
    server = GatedServer()
    batcher = CheckBatcher(server.send, batch_size=4, window=0.0, max_in_flight=8, spread_requests=1000)
    assert batcher.max_requests == 8 // 4 + 8
    waiting = [asyncio.ensure_future(batcher.check(f"c{i}", 10.0)) for i in range(12)]
    for _ in range(20):
        await asyncio.sleep(0)
    assert batcher.in_flight == 8 and all(len(b) == 1 for b in server.batches)
    server.gate.set()
    assert len(await asyncio.gather(*waiting)) == 12
    await batcher.close()


def test_spread_requests_below_one_is_refused() -> None:
    async def send(codes: Sequence[str], timeout: float) -> list[CheckResult]:
        return []

    with pytest.raises(ValueError, match="spread_requests"):
        CheckBatcher(send, batch_size=4, window=0.0, max_in_flight=8, spread_requests=0)
    with pytest.raises(VerifierError, match="spread_requests"):
        KiminaVerifier("http://127.0.0.1:1", spread_requests=0)


async def test_the_setting_reaches_the_kimina_batcher_from_config() -> None:
    cfg = VerifierConfig(backend="kimina", kimina_url="http://127.0.0.1:1", kimina_batch_size=4,
                         kimina_concurrency=128, kimina_spread_requests=32)
    verifier = KiminaVerifier.from_config(cfg)
    try:
        assert verifier.batcher.spread_requests == 32
        assert verifier.batcher.max_requests == 128 // 4 + 32
    finally:
        await verifier.close()
    assert VerifierConfig().kimina_spread_requests == 1  # plain coalescing unless asked

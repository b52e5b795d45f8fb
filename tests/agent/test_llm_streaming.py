"""Samples told one by one as each completes (`generate(on_sample=…)`): a streamed request
against the fake OpenAI-compatible server (real HTTP, server-sent events), its retries, its
cancellation, and the backends that do not stream."""

from __future__ import annotations

import asyncio
import threading

import pytest

from lemmaforge.agent.llm import Completion, LLMMisconfiguredError
from lemmaforge.agent.prover import Prover
from lemmaforge.config import LLMEndpoint
from lemmaforge.records import LLMCallRecord, MemoryRecorder
from tests.fakes.fake_openai import FakeOpenAIServer, Reply, count_tokens
from tests.waiting import until

LEAN = "```lean4\ntheorem t (x : ℕ) : x = x := by\n  {}\n```"


def calls(recorder: MemoryRecorder) -> list[LLMCallRecord]:
    return recorder.of_type(LLMCallRecord)


class Told:
    """An `on_sample` that notes each sample and whether the held one (a reply gated on `release`)
    had been released when it came, then releases it: order by what happened, not by the clock,
    so that a busy machine cannot fail the test."""

    def __init__(self, release: threading.Event | None = None) -> None:
        self.release = release or threading.Event()
        self.samples: list[tuple[Completion, bool]] = []

    def __call__(self, sample: Completion) -> None:
        self.samples.append((sample, self.release.is_set()))
        self.release.set()


@pytest.mark.parametrize("mode", ["chat", "completion"])
async def test_each_sample_is_told_when_it_completes_not_when_the_slowest_does(fake_openai, make_client,
                                                                               recorder, mode):
    told = Told()  # the slow sample is held until a sample has been told
    fake_openai.add_rule(None, [Reply("slow one", gate=told.release), Reply("quick", after=0.0),
                                Reply("cut", "length", 0.1)])
    llm = make_client(mode=mode, stream_samples=True)
    outs = await llm.generate("x", n=3, on_sample=told)

    assert [c.text for c, _ in told.samples] == ["quick", "cut", "slow one"]  # in order of completion
    assert told.samples[0][1] is False  # the first told before the slow one was even released
    assert not fake_openai.unreleased  # (a client that told all at the end would leave it held)
    assert [o.text for o in outs] == ["slow one", "quick", "cut"]  # the call's result: sample order
    assert {id(o) for o in outs} == {id(c) for c, _ in told.samples}  # the very objects told, once each
    assert [o.finish_reason for o in outs] == ["stop", "stop", "length"]
    [req] = fake_openai.requests_to("chat" if mode == "chat" else "completions")
    assert req.body["stream"] is True and req.body["stream_options"] == {"include_usage": True}
    assert req.body["n"] == 3
    [rec] = calls(recorder)
    assert rec.error is None and rec.completions == ["slow one", "quick", "cut"]
    assert rec.completion_tokens == sum(count_tokens(t) for t in ("slow one", "quick", "cut"))  # the usage chunk
    assert rec.prompt_tokens > 0 and len({o.call_id for o in outs} | {rec.call_id}) == 1


async def test_without_on_sample_or_with_one_sample_or_by_default_the_request_is_not_streamed(fake_openai,
                                                                                               make_client):
    fake_openai.add_rule(None, ["a", "b"])
    llm = make_client(stream_samples=True)
    assert [o.text for o in await llm.generate("x", n=2)] == ["a", "b"]
    told = Told()
    [one] = await llm.generate("x", n=1, on_sample=told)
    assert [c for c, _ in told.samples] == [one]
    # off by default: a server streams an event per token unless run with --stream-interval
    assert LLMEndpoint().stream_samples is False
    default = make_client()
    outs = await default.generate("x", n=2, on_sample=told)
    assert [c for c, _ in told.samples[1:]] == outs
    assert [r.body.get("stream") for r in fake_openai.requests_to("chat")] == [None, None, None]


async def test_stream_samples_off_tells_every_sample_when_the_call_answers(fake_openai, make_client):
    fake_openai.add_rule(None, [Reply("a", after=0.0), Reply("b", after=0.3)])
    llm = make_client(stream_samples=False)
    told: list[Completion] = []
    answered: list[bool] = []  # whether the server had sent its whole answer when each sample was told

    def on_sample(sample: Completion) -> None:
        told.append(sample)
        answered.append(fake_openai.requests_to("chat")[0].answered)

    outs = await llm.generate("x", n=2, on_sample=on_sample)
    assert told == outs
    assert answered == [True, True]  # none told while "b" was still being generated
    assert fake_openai.requests_to("chat")[0].body.get("stream") is None


async def test_a_stream_that_breaks_is_retried_for_the_samples_not_yet_told(fake_openai, make_client, recorder):
    fake_openai.add_rule(None, [Reply("first", after=0.0), Reply("second", after=0.05), Reply("third", after=0.1)])
    fake_openai.cut_next(1, choices=1)  # the connection breaks after one complete choice
    llm = make_client(stream_samples=True)
    told = Told()
    outs = await llm.generate("x", n=3, on_sample=told)

    assert len(outs) == 3 and len(told.samples) == 3  # each told once, none twice
    assert outs[0].text == "first"  # the sample already told is kept
    assert [r.body["n"] for r in fake_openai.requests_to("chat")] == [3, 2]  # the retry asks for the rest
    assert llm.stats.retries == 1
    [rec] = calls(recorder)
    assert rec.error is None and len(rec.completions) == 3


async def test_a_stream_cancelled_half_way_records_the_samples_it_told(fake_openai, make_client, recorder):
    never = threading.Event()  # the second sample is held until the fake stops
    fake_openai.add_rule(None, [Reply("early", after=0.0), Reply("never", gate=never)])
    llm = make_client(stream_samples=True)
    told = Told()
    task = asyncio.create_task(llm.generate("x", n=2, on_sample=told))
    await until(lambda: told.samples, what="the first sample told")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    [rec] = calls(recorder)
    assert rec.error == "cancelled"
    assert rec.completions == ["early"]  # a candidate may cite this call: its sample is kept
    assert told.samples[0][0].call_id == rec.call_id


async def test_servers_that_reject_n_tell_each_sample_as_its_own_request_answers(make_client):
    with FakeOpenAIServer(default="", max_n=1) as server:
        told = Told()
        server.add_rule(None, [Reply("slow", gate=told.release), Reply("quick")])
        llm = make_client(url=server.url, native_n=False)
        outs = await llm.generate("x", n=2, on_sample=told)
        assert [c.text for c, _ in told.samples] == ["quick", "slow"]
        assert told.samples[0][1] is False and not server.unreleased  # told before the slow one was released
        assert {id(o) for o in outs} == {id(c) for c, _ in told.samples}
        assert all(r.body.get("stream") is None and r.n == 1 for r in server.requests_to("chat"))


async def test_a_streamed_choice_with_an_index_out_of_range_is_a_misconfigured_server(fake_openai, make_client,
                                                                                     monkeypatch):
    from tests.fakes import fake_openai as fake_module

    real = fake_module._Handler._stream

    def shifted(self, req, texts, reasons, afters, *rest):  # the server numbers its choices from 1
        return real(self, req, ["pad", *texts], ["stop", *reasons], [0.0, *afters], *rest)

    monkeypatch.setattr(fake_module._Handler, "_stream", shifted)
    fake_openai.add_rule(None, ["a", "b"])
    llm = make_client(stream_samples=True)
    with pytest.raises(LLMMisconfiguredError, match="index 2"):
        await llm.generate("x", n=2, on_sample=Told())


async def test_the_prover_tells_each_candidate_as_its_sample_completes(fake_openai, make_client):
    release = threading.Event()  # "omega" is held until a candidate has been told
    fake_openai.add_rule(None, [Reply(LEAN.format("omega"), gate=release), Reply("no code here"),
                                Reply(LEAN.format("simp"), after=0.0)])
    prover = Prover(make_client(stream_samples=True))
    told: list[tuple[str, bool]] = []

    def on_candidate(c) -> None:
        told.append((c.body, release.is_set()))
        release.set()

    candidates = await prover.prove("import Mathlib\n", "theorem t (x : ℕ) : x = x := by sorry", n=3,
                                    on_candidate=on_candidate)
    assert [body for body, _ in told] == ["simp", "omega"]  # the output without Lean code is no candidate
    assert told[0][1] is False and not fake_openai.unreleased  # told before "omega" was released
    assert [c.body for c in candidates] == ["omega", "simp"]


async def test_the_prover_tells_candidates_of_a_model_that_cannot_stream():
    class Plain:  # a model that takes on_sample (LLM protocol) but tells nothing before it returns
        mode = "chat"

        async def generate(self, messages, *, n=1, on_sample=None, **kw):
            assert on_sample is not None
            return [Completion(LEAN.format(t), "stop") for t in ("rfl", "simp")][:n]

    told: list[str] = []
    candidates = await Prover(Plain()).prove("", "theorem t (x : ℕ) : x = x := by sorry", n=2,  # type: ignore[arg-type]
                                             on_candidate=lambda c: told.append(c.body))
    assert told == [c.body for c in candidates] == ["rfl", "simp"]


async def test_a_server_that_answers_a_stream_with_plain_json_is_misconfigured(fake_openai, make_client,
                                                                              monkeypatch):
    from tests.fakes import fake_openai as fake_module

    def plain(self, req, texts, reasons, afters, ident, common, usage, cut, error_event=False):  # ignores `stream`
        self._send(req, 200, {"id": "x", "object": "chat.completion", **common, "usage": usage,
                              "choices": [{"index": i, "message": {"role": "assistant", "content": t},
                                           "finish_reason": r} for i, (t, r) in enumerate(zip(texts, reasons, strict=True))]})

    monkeypatch.setattr(fake_module._Handler, "_stream", plain)
    fake_openai.add_rule(None, ["a", "b"])
    llm = make_client(stream_samples=True)
    with pytest.raises(LLMMisconfiguredError, match="stream_samples = false"):
        await llm.generate("x", n=2, on_sample=Told())
    assert fake_openai.count("chat") == 1  # not retried


async def test_server_sent_events_are_read_as_the_protocol_says():
    from lemmaforge.agent.backends.openai_compat import sse_data

    async def lines():
        for line in [": a comment", "event: message", 'data: {"a":', "data: 1}", "", "id: 7", "", "data:[DONE]"]:
            yield line

    assert [d async for d in sse_data(lines())] == ['{"a":\n1}', "[DONE]"]


async def test_an_error_event_mid_stream_is_retried_for_the_samples_not_yet_told(fake_openai, make_client, recorder):
    fake_openai.add_rule(None, [Reply("first", after=0.0), Reply("second", after=0.05)])
    fake_openai.cut_next(1, choices=1, error_event=True)  # vLLM's `data: {"error": …}` after one choice
    llm = make_client(stream_samples=True)
    told = Told()
    outs = await llm.generate("x", n=2, on_sample=told)
    assert outs[0].text == "first" and len(outs) == 2 and len(told.samples) == 2  # the one told is kept
    assert [r.body["n"] for r in fake_openai.requests_to("chat")] == [2, 1]
    assert calls(recorder)[0].error is None

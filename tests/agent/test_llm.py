"""OpenAICompatibleLLM against the fake OpenAI-compatible server (real HTTP), the factory, and the
in-process backends' error paths (vLLM through a stand-in module)."""

from __future__ import annotations

import asyncio
import importlib.util
import socket
import sys
import threading
import types

import pytest

from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM
from lemmaforge.agent.backends.vllm_offline import VLLM_MISSING, VLLMOfflineLLM
from lemmaforge.agent.llm import (
    LLM,
    Completion,
    LLMMisconfiguredError,
    LLMRequestError,
    LLMUnavailableError,
    apportion,
    backend_of,
    make_llm,
)
from lemmaforge.config import LLMEndpoint
from lemmaforge.records import LLMCallRecord, MemoryRecorder
from tests.fakes.fake_openai import MODEL, FakeOpenAIServer, Reply, count_tokens
from tests.waiting import until


def calls(recorder: MemoryRecorder) -> list[LLMCallRecord]:
    return recorder.of_type(LLMCallRecord)


# ---------------------------------------------------------------------------------------------
# chat, completions, n, usage, recording
# ---------------------------------------------------------------------------------------------


async def test_chat_call_is_recorded_with_usage(fake_openai, make_client, recorder):
    fake_openai.add_rule(r"prove it", ["first answer", Reply("second, cut short", "length")])
    llm = make_client(run_id="run-1", role="prover")
    messages = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "prove it please"}]

    outs = await llm.generate(messages, n=2, temperature=0.7, top_p=0.9, max_tokens=100, seed=3, stop=["###"])

    assert [o.text for o in outs] == ["first answer", "second, cut short"]
    assert [o.finish_reason for o in outs] == ["stop", "length"]
    assert all(isinstance(o, Completion) for o in outs)
    assert isinstance(llm, LLM) and isinstance(llm.bind(None, "other"), LLM)
    [req] = fake_openai.requests_to("chat")
    assert req.body["messages"] == messages
    assert req.body["model"] == MODEL
    assert {k: req.body[k] for k in ("n", "temperature", "top_p", "max_tokens", "seed", "stop")} == {
        "n": 2,
        "temperature": 0.7,
        "top_p": 0.9,
        "max_tokens": 100,
        "seed": 3,
        "stop": ["###"],
    }
    [rec] = calls(recorder)
    assert rec.run_id == "run-1" and rec.role == "prover"
    assert rec.endpoint == fake_openai.url and rec.model == MODEL
    assert rec.request["messages"] == messages
    assert rec.request["n"] == 2 and rec.request["temperature"] == 0.7 and rec.request["stop"] == ["###"]
    assert rec.completions == ["first answer", "second, cut short"]
    assert rec.finish_reasons == ["stop", "length"]
    prompt_tokens = count_tokens("be brief") + count_tokens("prove it please")
    assert rec.prompt_tokens == prompt_tokens
    assert rec.completion_tokens == count_tokens("first answer") + count_tokens("second, cut short")
    assert rec.latency > 0 and rec.error is None
    assert {o.call_id for o in outs} == {rec.call_id}
    assert sum(o.completion_tokens for o in outs) == rec.completion_tokens
    assert all(o.prompt_tokens == prompt_tokens for o in outs)
    assert llm.stats.calls == 1 and llm.stats.completions == 2 and llm.stats.errors == 0
    assert llm.stats.completion_tokens == rec.completion_tokens


async def test_string_input_in_chat_mode_is_one_user_message(fake_openai, make_client):
    fake_openai.add_rule("hello", "hi")
    llm = make_client()
    [out] = await llm.generate("hello")
    assert out.text == "hi"
    assert fake_openai.requests_to("chat")[0].body["messages"] == [{"role": "user", "content": "hello"}]


async def test_completion_mode_uses_the_completions_endpoint(fake_openai, make_client, recorder):
    fake_openai.add_rule(r":= by\n$", ["  nlinarith [sq_nonneg (a - b)]\n```\ntrailing", "  simp\n"])
    llm = make_client(mode="completion")
    prompt = "Complete the following Lean 4 code:\n\n```lean4\ntheorem t (a b : ℝ) : 0 ≤ (a - b) ^ 2 := by\n"

    outs = await llm.generate(prompt, n=2, stop=["```"])

    assert [o.text for o in outs] == ["  nlinarith [sq_nonneg (a - b)]\n", "  simp\n"]
    assert [o.finish_reason for o in outs] == ["stop", "stop"]
    [req] = fake_openai.requests_to("completions")
    assert req.body["prompt"] == prompt and req.body["n"] == 2
    assert fake_openai.count("chat") == 0
    assert calls(recorder)[0].request["prompt"] == prompt


async def test_completion_mode_refuses_chat_messages(make_client):
    llm = make_client(mode="completion")
    with pytest.raises(ValueError, match="completion mode"):
        await llm.generate([{"role": "user", "content": "x"}])


async def test_max_tokens_cut_gives_length_finish_reason(fake_openai, make_client):
    fake_openai.add_rule(None, "one two three four five six")
    llm = make_client()
    [out] = await llm.generate("x", max_tokens=3)
    assert out.text == "one two thre" and out.finish_reason == "length"  # 4 characters per fake token


async def test_defaults_come_from_the_endpoint_config(fake_openai, recorder, monkeypatch):
    monkeypatch.delenv("LF_TEST_KEY", raising=False)
    endpoint = LLMEndpoint(
        url=fake_openai.url,
        model=MODEL,
        temperature=0.25,
        top_p=0.5,
        max_tokens=77,
        api_key_env="LF_TEST_KEY",
    )
    llm = make_llm(endpoint, "planner", recorder=recorder, run_id="r")
    try:
        assert isinstance(llm, OpenAICompatibleLLM) and llm.role == "planner"
        await llm.generate("x")
    finally:
        await llm.close()
    body = fake_openai.requests[-1].body
    assert (body["temperature"], body["top_p"], body["max_tokens"]) == (0.25, 0.5, 77)
    assert "seed" not in body and "stop" not in body
    assert fake_openai.requests[-1].headers["authorization"] == "Bearer EMPTY"
    assert calls(recorder)[0].role == "planner"


async def test_api_key_comes_from_the_named_env_var(fake_openai, make_client, monkeypatch):
    monkeypatch.setenv("LF_TEST_KEY", "sk-secret")
    llm = make_client(api_key_env="LF_TEST_KEY")
    await llm.generate("x")
    assert fake_openai.requests[-1].headers["authorization"] == "Bearer sk-secret"


async def test_model_none_asks_the_server(fake_openai, make_client, recorder):
    llm = make_client(model=None, role="prover")
    await asyncio.gather(llm.generate("a"), llm.generate("b"))
    assert fake_openai.count("models") == 1
    assert all(r.body["model"] == MODEL for r in fake_openai.requests_to("chat"))
    assert llm.model == MODEL and llm.name == f"prover:{MODEL}"
    assert {r.model for r in calls(recorder)} == {MODEL}


async def test_bind_attributes_calls_to_runs_and_shares_stats(fake_openai, make_client, recorder):
    llm = make_client(recorder=None, role="prover")
    other = MemoryRecorder()
    run_a = llm.bind(recorder, "run-a")
    run_b = llm.bind(other, "run-b", role="prover_correction")

    await asyncio.gather(run_a.generate("x"), run_b.generate("y", n=2), llm.generate("z"))

    assert [(r.run_id, r.role) for r in calls(recorder)] == [("run-a", "prover")]
    assert [(r.run_id, r.role, len(r.completions)) for r in calls(other)] == [
        ("run-b", "prover_correction", 2)
    ]
    assert llm.stats is run_a.stats is run_b.stats
    assert llm.stats.calls == 3 and llm.stats.completions == 4


async def test_a_broken_recorder_does_not_lose_the_answer(fake_openai, make_client):
    class Broken:
        def emit(self, record):
            raise RuntimeError("disk full")

        def cached_proof(self, header, normalized_statement):
            return None

    fake_openai.add_rule(None, "answer")
    llm = make_client(recorder=Broken())
    [out] = await llm.generate("x")
    assert out.text == "answer"


# ---------------------------------------------------------------------------------------------
# concurrency
# ---------------------------------------------------------------------------------------------


async def test_concurrency_limit_is_respected(fake_openai, make_client):
    release = threading.Event()  # answers are held until three requests are in flight at once
    fake_openai.add_rule(None, Reply("ok", gate=release))
    llm = make_client(concurrency=3)
    calls_ = asyncio.gather(*(llm.generate(f"q{i}") for i in range(10)))
    await until(lambda: fake_openai.in_flight >= 3)
    await asyncio.sleep(0.05)  # real sockets: room for a fourth request to reach the fake, were the limit broken
    release.set()
    outs = await calls_
    assert len(outs) == 10
    assert fake_openai.count("chat") == 10
    assert fake_openai.max_in_flight == 3


async def test_fan_out_for_servers_that_reject_n(make_client, recorder):
    with FakeOpenAIServer(default="", max_n=1) as server:
        server.add_rule(None, ["a", "b", "c", "d"])
        native = make_client(url=server.url)
        with pytest.raises(LLMRequestError, match="n must be at most 1"):
            await native.generate("x", n=4)
        assert server.count("chat") == 1  # a 400 is not retried

        release = threading.Event()  # answers are held until two requests are in flight at once
        server.rules.clear()
        server.add_rule(None, [Reply(t, gate=release) for t in "abcd"])
        fanned = make_client(url=server.url, native_n=False, concurrency=2)
        call = asyncio.create_task(fanned.generate("x", n=4, seed=10))
        await until(lambda: server.in_flight >= 2)
        await asyncio.sleep(0.05)  # real sockets: room for a third request to reach the fake, were the limit broken
        release.set()
        outs = await call

        assert sorted(o.text for o in outs) == ["a", "b", "c", "d"]
        fan_requests = server.requests_to("chat")[1:]
        assert len(fan_requests) == 4 and all(r.n == 1 for r in fan_requests)
        assert sorted(r.body["seed"] for r in fan_requests) == [10, 11, 12, 13]
        assert server.max_in_flight == 2
        rec = calls(recorder)[-1]
        assert rec.request["n"] == 4 and sorted(rec.completions) == ["a", "b", "c", "d"]
        assert rec.completion_tokens == 4 and [o.completion_tokens for o in outs] == [1, 1, 1, 1]
        assert len({o.call_id for o in outs}) == 1


# ---------------------------------------------------------------------------------------------
# retries and failures
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [503, 429, 500, 502])
async def test_transient_errors_are_retried(fake_openai, make_client, recorder, status):
    fake_openai.add_rule(None, "finally")
    fake_openai.fail_next(2, status=status)
    llm = make_client(retries=3)
    [out] = await llm.generate("x")
    assert out.text == "finally"
    assert [r.status for r in fake_openai.requests_to("chat")] == [status, status, 200]
    assert llm.stats.retries == 2 and llm.stats.errors == 0
    [rec] = calls(recorder)
    assert rec.error is None and rec.completions == ["finally"]


async def test_retry_after_is_honoured_within_the_cap(fake_openai, make_client):
    fake_openai.fail_next(1, status=429, retry_after=30)
    llm = make_client(backoff_max=0.05)  # the cap wins over a long Retry-After
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await llm.generate("x")
    waited = loop.time() - t0
    # a lower bound: the client did wait; the upper one only tells the capped 0.05 s from the
    # 30 s asked for, far enough apart that a busy machine cannot blur them
    assert 0.04 <= waited < 15
    assert fake_openai.count("chat") == 2


async def test_dropped_connection_is_retried(fake_openai, make_client):
    fake_openai.add_rule(None, "ok")
    fake_openai.drop_next(1)
    llm = make_client()
    [out] = await llm.generate("x")
    assert out.text == "ok"
    assert [r.status for r in fake_openai.requests_to("chat")] == [None, 200]


async def test_permanent_failure_raises_unavailable_naming_the_endpoint(fake_openai, make_client, recorder):
    fake_openai.fail_always(500, message="engine dead")
    llm = make_client(retries=2, run_id="run-x")
    with pytest.raises(LLMUnavailableError) as err:
        await llm.generate("x")
    message = str(err.value)
    assert "\n" not in message
    assert fake_openai.url in message and MODEL in message
    assert "engine dead" in message and "3 attempt" in message
    assert fake_openai.count("chat") == 3
    [rec] = calls(recorder)
    assert rec.error == message and rec.completions == [] and rec.run_id == "run-x"
    assert llm.stats.errors == 1


async def test_unreachable_endpoint_raises_unavailable(make_client, recorder):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    llm = make_client(url=url, retries=1)
    with pytest.raises(LLMUnavailableError, match="Connection") as err:
        await llm.generate("x")
    assert url in str(err.value) and MODEL in str(err.value)
    assert calls(recorder)[0].error == str(err.value)


# Slow: two real 1 s client timeouts (a socket's timing, not a virtual clock's); retries on status
# codes and the deadline of a trickling endpoint stay in the fast subset.
@pytest.mark.slow
async def test_timeouts_are_retried_then_unavailable(fake_openai, make_client):
    never = threading.Event()  # the answer never comes: only the client's timeout ends each attempt
    fake_openai.add_rule(None, Reply("too late", gate=never))
    # 1 s, not less: the server counts a request once it has read it, which a busy machine can
    # delay past a shorter timeout (then the attempt timed out before it was received)
    llm = make_client(timeout=1.0, retries=1)
    with pytest.raises(LLMUnavailableError, match="Timeout"):
        await llm.generate("x")
    assert fake_openai.count("chat") == 2


@pytest.mark.parametrize("status", [400, 413, 422])
async def test_other_4xx_are_not_retried(fake_openai, make_client, recorder, status):
    fake_openai.fail_next(1, status=status, message="prompt too long")
    llm = make_client(retries=5)
    with pytest.raises(LLMRequestError) as err:
        await llm.generate("x")
    assert err.value.status_code == status
    assert "prompt too long" in str(err.value) and fake_openai.url in str(err.value)
    assert fake_openai.count("chat") == 1
    assert calls(recorder)[0].error == str(err.value)


async def test_no_matching_rule_is_a_400_from_the_fake(make_client):
    with FakeOpenAIServer() as server:
        llm = make_client(url=server.url)
        with pytest.raises(LLMRequestError, match="no rule matches"):
            await llm.generate("unscripted question")


async def test_cancelled_call_is_recorded(fake_openai, make_client, recorder):
    never = threading.Event()  # the answer is held until the fake stops
    fake_openai.add_rule(None, Reply("too late", gate=never))
    llm = make_client()
    task = asyncio.create_task(llm.generate("x"))
    await until(lambda: fake_openai.count("chat") == 1)  # the request is out
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    [rec] = calls(recorder)
    assert rec.error == "cancelled"


def test_apportion_sums_to_total():
    assert apportion(10, ["aaaa", "a", ""]) == [7, 2, 1]
    assert sum(apportion(7, ["x", "yy", "zzz"])) == 7
    assert apportion(0, []) == []


# ---------------------------------------------------------------------------------------------
# factory and in-process backends
# ---------------------------------------------------------------------------------------------


def test_backend_of_url_schemes():
    assert backend_of("http://localhost:8000/v1") == "openai"
    assert backend_of("https://api.example.com/v1") == "openai"
    assert backend_of("vllm://deepseek-ai/DeepSeek-Prover-V2-7B") == "vllm"
    assert backend_of("hf://./tiny-model") == "transformers"
    assert backend_of("anything", "hf") == "transformers"
    with pytest.raises(ValueError, match="unknown LLM backend"):
        backend_of(None, "bogus")


def test_make_llm_without_url_says_what_to_set():
    with pytest.raises(LLMMisconfiguredError, match=r"set \[prover\]\.url"):
        make_llm(LLMEndpoint(), "prover")
    with pytest.raises(LLMMisconfiguredError, match="not an http"):
        make_llm(LLMEndpoint(url="ftp://host/v1", model="m"), "prover")


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="vLLM is installed here")
def test_vllm_missing_is_a_clear_error():
    with pytest.raises(LLMMisconfiguredError) as err:
        make_llm(LLMEndpoint(url="vllm://deepseek-ai/DeepSeek-Prover-V2-7B"), "prover")
    assert (
        str(err.value)
        == VLLM_MISSING
        == "vLLM is not installed: pip install 'lemmaforge[vllm]' (needs a CUDA GPU)"
    )


@pytest.mark.skipif(
    importlib.util.find_spec("transformers") is not None and importlib.util.find_spec("torch") is not None,
    reason="transformers and torch are installed here",
)
def test_transformers_missing_is_a_clear_error():
    with pytest.raises(LLMMisconfiguredError, match=r"pip install 'lemmaforge\[train\]'"):
        make_llm(LLMEndpoint(url="hf://some/tiny-model"), "prover")


def _fake_vllm_module(log: list) -> types.ModuleType:
    """A stand-in for `vllm` with the offline API's shapes (LLM.chat / LLM.generate / SamplingParams)."""
    mod = types.ModuleType("vllm")

    class SamplingParams:
        def __init__(self, **kwargs):
            self.kwargs = kwargs

    class Output:
        def __init__(self, text, finish_reason):
            self.text = text
            self.finish_reason = finish_reason
            self.token_ids = list(range(len(text.split())))

    class RequestOutput:
        def __init__(self, prompt, params):
            n = params.kwargs["n"]
            self.prompt_token_ids = [0] * 5
            self.outputs = [Output(f"{prompt} #{i}", "stop") for i in range(n)]

    class LLM:
        def __init__(self, model, **kwargs):
            log.append(("init", model, kwargs))

        def chat(self, conversations, sampling_params=None, use_tqdm=True):
            log.append(("chat", len(conversations)))
            return [
                RequestOutput(c[-1]["content"], p)
                for c, p in zip(conversations, sampling_params, strict=True)
            ]

        def generate(self, prompts, sampling_params=None, use_tqdm=True):
            log.append(("generate", len(prompts)))
            return [RequestOutput(p, sp) for p, sp in zip(prompts, sampling_params, strict=True)]

    mod.LLM, mod.SamplingParams = LLM, SamplingParams
    return mod


async def test_vllm_offline_batches_concurrent_calls(monkeypatch, recorder):
    log: list = []
    monkeypatch.setitem(sys.modules, "vllm", _fake_vllm_module(log))
    llm = make_llm(
        LLMEndpoint(url="vllm://org/model", max_tokens=64),
        "prover",
        recorder=recorder,
        run_id="r",
        engine_kwargs={"max_model_len": 4096},
        batch_wait=0.02,
    )
    assert isinstance(llm, VLLMOfflineLLM) and llm.model == "org/model"
    view = llm.bind(recorder, "r2")
    a, b, c = await asyncio.gather(
        llm.generate("one", n=2), view.generate("two"), llm.generate("three", seed=1)
    )

    assert [o.text for o in a] == ["one #0", "one #1"] and b[0].text == "two #0" and c[0].text == "three #0"
    assert log == [("init", "org/model", {"max_model_len": 4096}), ("chat", 3)]  # one engine, one batch
    assert a[0].prompt_tokens == 5 and a[0].completion_tokens == 2
    recs = calls(recorder)
    assert len(recs) == 3 and {r.endpoint for r in recs} == {"vllm://org/model"}
    assert sorted(r.run_id for r in recs) == ["r", "r", "r2"]

    completion = VLLMOfflineLLM("org/model", mode="completion")
    [out] = await completion.generate("prompt text", stop=["```"])
    assert out.text == "prompt text #0" and log[-1] == ("generate", 1)


async def test_has_room_while_fewer_requests_are_out_than_half_the_concurrency(fake_openai, make_client):
    """`has_room` (the search starts requests ahead of need only then) counts this client's and
    its views' requests in flight or waiting for a slot against half of `concurrency`; the
    in-process backends never claim room."""
    release = threading.Event()  # both answers are held until the test has looked
    fake_openai.add_rule(None, Reply("ok", gate=release))
    llm = make_client(concurrency=4)
    view = llm.bind(role="planner")
    assert llm.has_room() and view.has_room()
    one = asyncio.create_task(llm.generate("a"))
    await until(lambda: fake_openai.count("chat") == 1)
    assert llm.has_room()  # 1 of 4
    two = asyncio.create_task(view.generate("b"))
    await until(lambda: fake_openai.count("chat") == 2)
    assert not llm.has_room() and not view.has_room()  # 2 of 4: half
    release.set()
    await asyncio.gather(one, two)
    assert llm.has_room()
    assert VLLMOfflineLLM.has_room(object.__new__(VLLMOfflineLLM)) is False

"""Fixtures for the agent tests: the fake OpenAI-compatible server and fast LLM clients."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM
from lemmaforge.records import MemoryRecorder
from tests.fakes.fake_openai import MODEL, FakeOpenAIServer, fake_openai  # noqa: F401  (fixture)


@pytest.fixture
def recorder() -> MemoryRecorder:
    return MemoryRecorder()


@pytest.fixture
async def make_client(
    fake_openai: FakeOpenAIServer,  # noqa: F811
    recorder: MemoryRecorder,
) -> AsyncIterator[Callable[..., OpenAICompatibleLLM]]:
    """Build clients for the fake server with millisecond backoff; all are closed afterwards."""
    made: list[OpenAICompatibleLLM] = []

    def make(**kwargs) -> OpenAICompatibleLLM:
        opts = {"model": MODEL, "retries": 3, "backoff": 0.001, "backoff_max": 0.01, "recorder": recorder}
        opts.update(kwargs)
        url = opts.pop("url", fake_openai.url)
        llm = OpenAICompatibleLLM(url, **opts)
        made.append(llm)
        return llm

    yield make
    for llm in made:
        await llm.close()

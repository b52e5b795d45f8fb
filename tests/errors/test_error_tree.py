"""One error tree: every product exception sits under `LemmaforgeError`, library errors are mapped
at the boundary into misconfigured (fatal at once) / unavailable (retried, then fatal) / attempt
failed (the model's fault), and a bug propagates as itself instead of becoming a failed sample."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import threading
import time

import pytest

import lemmaforge
from lemmaforge import errors
from lemmaforge.agent.backends.openai_compat import OpenAICompatibleLLM, request_timeout
from lemmaforge.agent.llm import LLMMisconfiguredError, LLMRequestError, LLMUnavailableError
from lemmaforge.errors import (
    AttemptFailed,
    BackendError,
    BackendMisconfigured,
    BackendUnavailable,
    ExitCode,
    InputError,
    LemmaforgeError,
    StatementInvalid,
    exit_code_of,
    is_fatal,
)
from lemmaforge.lean.kimina import KiminaVerifier, RetryPolicy
from lemmaforge.lean.verifier import VerifierMisconfigured, VerifierUnavailable
from lemmaforge.records import LLMCallRecord, MemoryRecorder
from tests.fakes.fake_kimina import FakeKimina
from tests.fakes.fake_openai import FakeOpenAIServer, Reply

MODEL = "fake-model"

#: exceptions that are control flow inside one function, never raised to a caller
CONTROL_FLOW = {"BudgetExhausted", "_HoleFailed", "_HttpStatusError", "_BadResponse", "_ServerCrash",
                "_DeadlineTimeout", "_DeadlinePassed"}


def _product_exceptions() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(lemmaforge.__path__, "lemmaforge."):
        if info.name.startswith("lemmaforge.db.migrations."):
            continue  # Alembic's scripts: run by Alembic inside a migration, not importable alone
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra
            continue
        for name, obj in vars(module).items():
            if (inspect.isclass(obj) and issubclass(obj, BaseException) and obj.__module__ == info.name
                    and name not in CONTROL_FLOW):
                found[f"{info.name}.{name}"] = obj
    return list(found.values())


def test_every_product_exception_is_in_the_one_tree():
    classes = _product_exceptions()
    names = {c.__name__ for c in classes}
    # the ones the issue names are all found (the walk works) ...
    assert {"LLMError", "VerifierError", "ProofStatesUnsupported", "BenchError", "FatalBenchError", "ConfigError",
            "DatasetError", "ProblemError", "BadInput", "StoreError", "SetupError", "ExportError",
            "ExpertIterError", "ServeError", "LemmaBuildError", "TrainingDataError"} <= names
    # ... and every one of them is a LemmaforgeError that says what to do with it
    outside = [c.__qualname__ for c in classes if not issubclass(c, LemmaforgeError)]
    assert outside == []
    kinds = (InputError, BackendError, AttemptFailed, errors.InternalError)
    assert [c.__qualname__ for c in classes if c is not LemmaforgeError and not issubclass(c, kinds)
            and c.__name__ != "LLMError"] == []


def test_kinds_of_the_named_errors():
    from lemmaforge.agent.llm import LLMError
    from lemmaforge.benchmarks.spec import BenchError, FatalBenchError
    from lemmaforge.cli.common import BadInput
    from lemmaforge.config import ConfigError
    from lemmaforge.db import StoreError
    from lemmaforge.lean.verifier import ProofStatesUnsupported, VerifierError

    for cls in (BadInput, ConfigError, BenchError, StatementInvalid):
        assert issubclass(cls, InputError) and not is_fatal(cls("x"))
    for cls in (VerifierError, StoreError, FatalBenchError, LLMMisconfiguredError, LLMUnavailableError):
        assert is_fatal(cls("x")) and exit_code_of(cls("x")) == ExitCode.BAD_INPUT
    assert issubclass(ProofStatesUnsupported, BackendMisconfigured)
    assert issubclass(LLMUnavailableError, BackendUnavailable) and issubclass(VerifierUnavailable, BackendUnavailable)
    assert issubclass(LLMRequestError, AttemptFailed) and not is_fatal(LLMRequestError("x"))
    assert exit_code_of(LLMRequestError("x")) == ExitCode.NOT_PROVED
    assert all(issubclass(c, LLMError) for c in (LLMMisconfiguredError, LLMUnavailableError, LLMRequestError))
    # names stay importable where code and tests used them, with their old bases kept
    assert issubclass(ConfigError, ValueError) and issubclass(BenchError, ValueError)
    assert exit_code_of(AttributeError("x")) == ExitCode.INTERNAL == 70
    assert exit_code_of(KeyboardInterrupt()) == ExitCode.INTERRUPTED


def test_backend_errors_are_one_line_naming_the_backend_and_the_fix():
    err = LLMMisconfiguredError("rejected the\nAPI key", backend="LLM endpoint http://h/v1 (model m)",
                                fix="set $KEY")
    assert str(err) == "LLM endpoint http://h/v1 (model m): rejected the API key (set $KEY)"
    assert str(StatementInvalid("1:2: error: unknown\n identifier", problem="p")) == (
        "p: statement does not compile: 1:2: error: unknown identifier")


# --- the OpenAI-compatible client: one class per fault ----------------------------------------------


@pytest.fixture
async def server():
    with FakeOpenAIServer(default="an answer") as srv:
        yield srv


def client(url: str, **kw) -> OpenAICompatibleLLM:
    opts = {"model": MODEL, "retries": 3, "backoff": 0.001, "backoff_max": 0.01, "recorder": MemoryRecorder(),
            "role": "prover"}
    opts.update(kw)
    return OpenAICompatibleLLM(url, **opts)


@pytest.mark.parametrize("fault", ["garbage", "wrong_shape", "empty_choices"])
async def test_a_malformed_200_is_misconfigured_at_once(server, fault):
    server.fault_always(fault)
    llm = client(server.url)
    with pytest.raises(LLMMisconfiguredError) as err:
        await llm.generate("x")
    assert server.count("chat") == 1  # not retried: retrying cannot help
    assert server.url in str(err.value) and MODEL in str(err.value) and "\n" not in str(err.value)
    assert "[prover].url" in str(err.value)  # the fix
    [rec] = llm.recorder.of_type(LLMCallRecord)
    assert rec.error == str(err.value) and rec.completions == []
    await llm.close()


async def test_fewer_choices_than_asked_says_to_turn_off_native_n(server):
    """A server that ignores `n` answers one choice: a silent 1-of-4 would shrink every pass@k."""
    llm = client(server.url)
    resp = await llm._client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "x"}])
    assert llm._parse(resp, chat=True, n=1).texts == ["an answer"]
    with pytest.raises(LLMMisconfiguredError, match=r"1 choice\(s\) for n=4.*native_n = false"):
        llm._parse(resp, chat=True, n=4)
    await llm.close()


async def test_a_wrong_api_key_is_misconfigured_and_names_the_variable(monkeypatch):
    monkeypatch.setenv("LF_TEST_KEY", "wrong")
    with FakeOpenAIServer(default="a", api_key="right") as srv:
        llm = client(srv.url, api_key_env="LF_TEST_KEY")
        with pytest.raises(LLMMisconfiguredError, match=r"HTTP 401.*\$LF_TEST_KEY"):
            await llm.generate("x")
        assert srv.count("chat") == 1
        await llm.close()
        monkeypatch.setenv("LF_TEST_KEY", "right")
        llm = client(srv.url, api_key_env="LF_TEST_KEY")
        [out] = await llm.generate("x")
        assert out.text == "a"
        await llm.close()


async def test_an_unknown_model_is_misconfigured_and_says_which_to_set():
    with FakeOpenAIServer(default="a", models=("served",), strict_models=True) as srv:
        llm = client(srv.url, model="nope")
        with pytest.raises(LLMMisconfiguredError, match=r"does not exist.*\[prover\]\.model"):
            await llm.generate("x")
        assert srv.count("chat") == 1
        await llm.close()


@pytest.mark.parametrize("status", [403, 405])
async def test_other_refusals_of_every_request_are_misconfigured(server, status):
    server.fail_next(1, status=status)
    llm = client(server.url)
    with pytest.raises(LLMMisconfiguredError):
        await llm.generate("x")
    assert server.count("chat") == 1
    await llm.close()


async def test_a_prompt_too_long_is_a_failed_attempt_not_fatal(server):
    server.fail_next(1, status=400, message="This model's maximum context length is 4096 tokens")
    llm = client(server.url)
    with pytest.raises(LLMRequestError) as err:
        await llm.generate("x")
    assert isinstance(err.value, AttemptFailed) and not is_fatal(err.value)
    await llm.close()


@pytest.mark.parametrize("fault", ["503", "429", "drop"])
async def test_transient_faults_are_retried_then_unavailable(server, fault):
    if fault == "drop":
        server.drop_next(10)
    else:
        server.fail_next(10, status=int(fault))
    llm = client(server.url, retries=2)
    with pytest.raises(LLMUnavailableError, match="unavailable after 3 attempt"):
        await llm.generate("x")
    assert server.count("chat") == 3
    await llm.close()


async def test_the_retry_deadline_bounds_a_failing_endpoint(server):
    server.fail_always(503)
    llm = client(server.url, retries=1000, backoff=0.05, backoff_max=0.05, retry_deadline=1.0)
    started = time.monotonic()
    with pytest.raises(LLMUnavailableError):
        await llm.generate("x")
    # 1000 retries 0.05 s apart would take 50 s: the bounds only tell the 1 s deadline from
    # that, with room for a busy machine (idle: ~1 s and ~20 requests)
    assert time.monotonic() - started < 25
    assert 2 <= server.count("chat") < 500
    await llm.close()


async def test_a_hung_endpoint_times_out_per_request(server):
    server.add_rule(None, Reply("never sent", gate=threading.Event()))  # held until the fake stops
    llm = client(server.url, timeout=0.2, retries=0)
    with pytest.raises(LLMUnavailableError, match="Timeout"):  # only the timeout can end the call
        await llm.generate("x")
    assert not server.unreleased
    await llm.close()


def test_default_request_timeout_is_sized_to_max_tokens():
    assert request_timeout(8192) == pytest.approx(30 + 8192 / 25)
    assert request_timeout(512) < request_timeout(8192) < 600  # was 600 s for any request
    assert request_timeout(8192, configured=12.5) == 12.5
    from lemmaforge.config import LLMEndpoint

    assert LLMEndpoint().timeout is None and LLMEndpoint().retry_deadline == 120.0


async def test_a_bug_in_a_backend_propagates_as_itself_and_is_recorded(server, monkeypatch):
    llm = client(server.url)

    def broken(self, resp, *, chat, n):
        raise AttributeError("'NoneType' object has no attribute 'content'")

    monkeypatch.setattr(OpenAICompatibleLLM, "_parse", broken)
    with pytest.raises(AttributeError):
        await llm.generate("x")
    [rec] = llm.recorder.of_type(LLMCallRecord)
    assert rec.error.startswith("bug: AttributeError")
    await llm.close()


# --- the Kimina client ----------------------------------------------------------------------------


async def kimina_check(server: FakeKimina, **kw):
    verifier = KiminaVerifier(server.url, retry=RetryPolicy(attempts=2, initial_wait=0.001), position_mode="all", **kw)
    try:
        return await verifier.check("import Mathlib\ntheorem t : True := trivial\n")
    finally:
        await verifier.close()


@pytest.mark.parametrize(("fault", "kind"), [("down", VerifierUnavailable), ("garbage", VerifierMisconfigured),
                                             ("wrong_shape", VerifierMisconfigured), ("key", VerifierMisconfigured)])
async def test_kimina_faults_map_to_their_kind(fault, kind):
    with FakeKimina(api_key="k" if fault == "key" else None) as server:
        if fault == "down":
            server.fail_always(503)
        elif fault != "key":
            server.fault_always(fault)
        with pytest.raises(kind) as err:
            await kimina_check(server)
        assert server.url in str(err.value) and "\n" not in str(err.value)
        server.fail_always(None)
        server.fault_always(None)
        if fault != "key":
            assert (await kimina_check(server)).ok  # back: the same client works again


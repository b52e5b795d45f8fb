"""Shared pieces of the bench / report tests: fake servers scripted per problem name, the
command-line arguments, and the environment that makes the fakes fast."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from lemmaforge.benchmarks.datasets import load_dataset
from lemmaforge.benchmarks.spec import child_attempt
from lemmaforge.db import Store
from tests.conftest import REPO_ROOT
from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
from tests.fakes.fake_openai import FakeOpenAIServer, Reply, Rule
from tests.waiting import until_sync

#: the first problems of miniF2F's valid split; the fake prover proves SOLVABLE ones
NAMES = [p.name for p in load_dataset("minif2f", split="valid", limit=6)]
SOLVABLE = [NAMES[0], NAMES[2], NAMES[3]]

ENV = {
    "LEMMAFORGE_VERIFIER__KIMINA_RETRY_WAIT": "0.01",
    "LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all",
    "LEMMAFORGE_PROVER__BACKOFF": "0.01",
    "LEMMAFORGE_PLANNER__BACKOFF": "0.01",
    "LEMMAFORGE_PROVER__RETRIES": "1",
    "LEMMAFORGE_PLANNER__RETRIES": "1",
}


def lean_block(code: str) -> str:
    return f"Here is the proof.\n\n```lean4\n{code}```\n"


def fake_lean() -> ScriptedLean:
    """Code without `sorry` checks, unless it holds a `bad_*` tactic."""
    return ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed")])


def script_prover(llm: FakeOpenAIServer, solvable: Iterable[str]) -> None:
    """The prover proves the theorems named in `solvable` (`norm_num`); anything else gets a
    failing proof (the server's default reply)."""
    for name in solvable:
        llm.add_rule(rf"theorem {re.escape(name)}\b", lean_block(f"theorem {name} : True := by\n  norm_num\n"))


@contextmanager
def fake_servers(
    solvable: Iterable[str] = (), *, delay: float = 0.0, lean_version: str = "4.9.0"
) -> Iterator[tuple[FakeKimina, FakeOpenAIServer]]:
    default = lean_block("theorem wrong : True := by\n  bad_tactic\n")
    responder = fake_lean()
    responder.lean_version = lean_version  # what `#eval Lean.versionString` answers
    with FakeKimina(responder=responder) as kimina, FakeOpenAIServer(default=default, delay=delay) as llm:
        script_prover(llm, solvable)
        yield kimina, llm


def bench_args(kimina: FakeKimina, llm: FakeOpenAIServer, db: str, *extra: str) -> list[str]:
    return [
        "bench", "minif2f", "--split", "valid",
        "--verifier", "kimina", "--kimina-url", kimina.url,
        "--prover-url", llm.url, "--prover-model", "fake-model",
        "--db", db, "--no-progress",
        "--budget", "root_whole_proof_attempts=1", "--budget", "self_corrections=1",
        *extra,
    ]


def slots(store: Store, bench_id: str) -> dict[tuple[str, int], list]:
    """(problem, attempt) -> the bench's child runs of that attempt. Children without an attempt
    are not slots: a statement that does not compile, a statement check sent ahead for a problem
    the stopped bench never started (runner.record_invalid / record_unattempted)."""
    out: dict[tuple[str, int], list] = {}
    for run in store.runs(parent=bench_id):
        attempt = child_attempt(run)
        if attempt is not None:
            out.setdefault((run.problem_id, attempt), []).append(run)
    return out


def outcome(store: Store, bench_id: str) -> dict[tuple[str, int], tuple]:
    """(problem, attempt) -> what its finished run found (status, calls, checks, depth, proof)."""
    out = {}
    for key, runs in slots(store, bench_id).items():
        done = [r for r in runs if r.status in ("proved", "not_proved")]
        assert len(done) == 1, (key, [r.status for r in runs])
        r = done[0]
        proofs = [p.proof for p in store.proofs(run_id=r.run_id, kind="whole")]
        out[key] = (r.status, r.summary["calls"], r.summary["checks"], r.summary["depth"], proofs)
    return out


def hold_all_but(llm: FakeOpenAIServer, names: Iterable[str]) -> threading.Event:
    """While the returned event is set, the model answers only the problems `names`; every other
    request is held until the fake stops. A test that must stop a bench mid-run (kill, signal)
    thus finds it mid-run however busy the machine, instead of racing it with slow answers.
    Clear the event before the resume: the held requests are the stopped process's."""
    hold = threading.Event()
    answered = re.compile("|".join(rf"theorem {re.escape(n)}\b" for n in names))
    llm.rules.insert(0, Rule(None, Reply("held", gate=threading.Event()),
                             when=lambda q: hold.is_set() and not answered.search(q.all_text)))
    hold.set()
    return hold


def bench_killed_when(args: list[str], ready: Callable[[], bool], *, seconds: float) -> int:
    """Runs the bench CLI with `args` in a subprocess, SIGKILLs it once `ready()` holds (polled),
    and returns its exit status; fails if it exits first or makes no progress within `seconds`."""
    proc = subprocess.Popen([sys.executable, "-m", "tests.benchmarks.bench_entry", *args], cwd=REPO_ROOT,
                            env={**os.environ, **ENV}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        until_sync(ready, what="the bench's progress", limit=seconds, proc=proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode

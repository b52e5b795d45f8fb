#!/usr/bin/env python3
"""Fault drills: `lemmaforge bench` against the stand-in servers with injected faults.

For each drill the bench runs in a subprocess (the real CLI, this checkout) against the fake
OpenAI-compatible server (the prover) and the fake Kimina server (Lean) from tests/fakes, with one
fault injected. If it stops (exit 2: one line naming the backend; exit 70: a bug; killed), the
fault is removed and `bench --resume` continues it (a bench stopped by its preflight stored nothing:
the same command runs again). The drill passes when the final report equals
the fault-free run's: problems, solved, pass@k, every (problem, attempt)'s status, LLM calls, Lean
checks and depth.

    python scripts/drill.py                                   # SQLite in a temporary folder
    python scripts/drill.py --db-url postgresql+psycopg://u@127.0.0.1:5432/drills
    python scripts/drill.py --drills "llm 401,kill -9" --json

Every bench gets its own run id, so one database holds them all (re-running is fine). Exit 0 when
every drill's report equals the fault-free one, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_helpers import ENV, SOLVABLE, bench_args, fake_servers  # noqa: E402
from tests.fakes.fake_openai import Rule  # noqa: E402

#: what must not change when a fault comes and goes
REPORT_KEYS = ("problems", "solved", "tried", "attempts_done", "attempts_planned", "complete", "pass_at_k",
               "by_split", "by_category", "depth", "invalid")
RUN_KEYS = ("attempt", "status", "calls", "checks", "depth", "stop_reason")

Servers = tuple[Any, Any]  # (FakeKimina, FakeOpenAIServer)
Action = Callable[[Any, Any, dict[str, str]], None]


def _after_requests(llm: Any, n: int, action: Callable[[], None]) -> None:
    """Run `action` once the fake LLM got its n-th generation request: a fault in mid-run."""
    seen: list[int] = []

    def when(req: Any) -> bool:
        seen.append(1)
        if len(seen) == n:  # called under the fake's lock: act from another thread
            threading.Thread(target=action, daemon=True).start()
        return False

    llm.rules.insert(0, Rule(None, "", when=when))


def _nothing(kimina: Any, llm: Any, env: dict[str, str]) -> None:
    return None


def _odd_bytes(kimina: Any, llm: Any, env: dict[str, str]) -> None:
    """Every failing answer carries a lone surrogate (``"\\ud800"`` in the JSON) in a comment:
    the same failures as the fault-free run's, which must not crash on it."""
    llm.default = "Here is the proof.\n\n```lean4\ntheorem wrong : True := by\n  bad_tactic -- \ud800\n```\n"


def _replace_store(db_url: str) -> Callable[[], None]:
    """Move a copy of the SQLite file in place of itself: the same bytes, another file."""
    path = Path(db_url.removeprefix("sqlite:///"))

    def replace() -> None:
        copy = path.with_name(path.name + ".copy")
        copy.write_bytes(path.read_bytes())
        copy.replace(path)
    return replace


@dataclass
class Drill:
    name: str
    inject: Action
    remove: Action = _nothing
    env: dict[str, str] = field(default_factory=dict)
    kill: bool = False  # kill -9 the bench at a random moment (once its run row is stored) instead
    signal: int | None = None  # send this signal instead of SIGKILL (SIGTERM, SIGHUP: exit 143 / 129)
    race: bool = False  # stopped first (kill -9), then two `--resume` at once: one runs, one is refused
    store_fault: bool = False  # the SQLite file is replaced mid-run (SQLite only)


DRILLS = [
    Drill("llm 401 wrong key", lambda k, s, e: (setattr(s, "api_key", "right"), e.update(OPENAI_API_KEY="wrong")),
          lambda k, s, e: e.update(OPENAI_API_KEY="right")),
    Drill("llm 404 unknown model", lambda k, s, e: (setattr(s, "models", ["other-model"]),
                                                     setattr(s, "strict_models", True)),
          lambda k, s, e: setattr(s, "models", ["fake-model"])),
    Drill("llm garbage json", lambda k, s, e: s.fault_always("garbage"), lambda k, s, e: s.fault_always(None)),
    Drill("llm wrong-shape json", lambda k, s, e: s.fault_always("wrong_shape"),
          lambda k, s, e: s.fault_always(None)),
    Drill("llm empty choices", lambda k, s, e: s.fault_always("empty_choices"),
          lambda k, s, e: s.fault_always(None)),
    Drill("llm garbage json mid-run", lambda k, s, e: _after_requests(s, 4, lambda: s.fault_always("garbage")),
          lambda k, s, e: s.fault_always(None)),
    Drill("llm 5xx burst", lambda k, s, e: s.fail_next(1, status=503)),
    Drill("llm 5xx down", lambda k, s, e: s.fail_always(500), lambda k, s, e: s.fail_always(None)),
    Drill("llm 429 down mid-run", lambda k, s, e: _after_requests(s, 3, lambda: s.fail_always(429)),
          lambda k, s, e: s.fail_always(None)),
    Drill("llm timeouts", lambda k, s, e: setattr(s, "delay", 1.5), lambda k, s, e: setattr(s, "delay", 0.0),
          env={"LEMMAFORGE_PROVER__TIMEOUT": "0.4"}),
    Drill("verifier down", lambda k, s, e: k.fail_always(503), lambda k, s, e: k.fail_always(None)),
    Drill("verifier down mid-run, then back", lambda k, s, e: _after_requests(s, 3, lambda: k.fail_always(503)),
          lambda k, s, e: k.fail_always(None)),
    Drill("verifier blip", lambda k, s, e: k.fail_next(2, 503)),
    Drill("verifier garbage", lambda k, s, e: k.fault_always("garbage"), lambda k, s, e: k.fault_always(None)),
    Drill("kill -9 at a random moment", lambda k, s, e: setattr(s, "delay", 0.1),
          lambda k, s, e: setattr(s, "delay", 0.0), kill=True),
    # issue 39: deadlines, odd bytes, signals, concurrent resumes, the store under foot
    Drill("llm trickles past its deadline", lambda k, s, e: s.fault_always("trickle"),
          lambda k, s, e: s.fault_always(None), env={"LEMMAFORGE_PROVER__TIMEOUT": "0.5"}),
    Drill("llm trickles under a wall budget", lambda k, s, e: s.fault_always("trickle"),
          lambda k, s, e: s.fault_always(None), env={"LEMMAFORGE_BUDGET__WALL_SECONDS": "8"}),
    Drill("llm body not UTF-8", lambda k, s, e: s.fault_always("bad_utf8"), lambda k, s, e: s.fault_always(None)),
    Drill("llm lone surrogates in answers", _odd_bytes),
    Drill("SIGTERM at a random moment", lambda k, s, e: setattr(s, "delay", 0.1),
          lambda k, s, e: setattr(s, "delay", 0.0), kill=True, signal=signal.SIGTERM),
    Drill("SIGHUP at a random moment", lambda k, s, e: setattr(s, "delay", 0.1),
          lambda k, s, e: setattr(s, "delay", 0.0), kill=True, signal=signal.SIGHUP),
    Drill("two resumes at once", lambda k, s, e: setattr(s, "delay", 0.1),
          lambda k, s, e: setattr(s, "delay", 0.0), kill=True, race=True),
    Drill("store file replaced mid-run", _nothing, store_fault=True),
]


@dataclass
class Outcome:
    drill: str
    first: str  # what the faulted run did
    resumed: str  # what --resume did ("-": not needed)
    equal: bool
    detail: str = ""


@dataclass
class Kill:
    """Stop the bench with `sig` `after` seconds once its run row `run_id` is in `db_url`: the
    moment is measured from the row, not from the start, so a busy machine (a slow start-up)
    cannot make the signal land before there is a run to resume."""

    db_url: str
    run_id: str
    after: float
    sig: int = signal.SIGKILL


def _run_row_stored(db_url: str, run_id: str) -> bool:
    from lemmaforge.db import Store, StoreError

    try:
        store = Store(db_url, read_only=True)
    except StoreError:  # not created yet, or being created
        return False
    try:
        return store.get_run(run_id) is not None
    except StoreError:
        return False
    finally:
        store.close()


def _start(args: list[str], env: dict[str, str]) -> subprocess.Popen:
    full_env = {**os.environ, **ENV, **env, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "lemmaforge.cli", *args], cwd=ROOT, env=full_env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _cli(args: list[str], env: dict[str, str], *, kill: Kill | None = None) -> tuple[int, str, str]:
    """`python -m lemmaforge.cli ARGS` on this checkout; stopped as `kill` says if given."""
    proc = _start(args, env)
    if kill is not None:
        deadline = time.monotonic() + 300
        while proc.poll() is None and not _run_row_stored(kill.db_url, kill.run_id):
            if time.monotonic() > deadline:
                break
            time.sleep(0.1)
        try:
            proc.wait(timeout=kill.after)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, kill.sig)
    out, err = proc.communicate(timeout=600)
    return proc.returncode, out, err


def _comparable(report: dict[str, Any]) -> dict[str, Any]:
    runs = {p["name"]: [{k: r.get(k) for k in RUN_KEYS} for r in p["runs"]] for p in report.get("results", [])}
    return {**{k: report.get(k) for k in REPORT_KEYS}, "runs": runs}


def _bench(servers: Servers, db_url: str, run_id: str, env: dict[str, str], limit: int, attempts: int,
           kill: Kill | None = None) -> tuple[int, str, str]:
    kimina, llm = servers
    args = bench_args(kimina, llm, db_url, "--limit", str(limit), "--attempts", str(attempts), "--concurrency", "2",
                      "--run-id", run_id, "--json")
    return _cli(args, env, kill=kill)


def _resume_args(run_id: str, db_url: str) -> list[str]:
    return ["bench", "--resume", run_id, "--db", db_url, "--json", "--no-progress"]


def _race(run_id: str, db_url: str, env: dict[str, str]) -> tuple[int, str, str, str]:
    """Two `--resume` at once: (the winner's exit, its stdout, its stderr, what the other did)."""
    procs = [_start(_resume_args(run_id, db_url), env) for _ in range(2)]
    outputs = [p.communicate(timeout=600) for p in procs]
    done = [(p.pid, p.returncode, out, err) for p, (out, err) in zip(procs, outputs, strict=True)]
    codes = sorted(code for _, code, _, _ in done)
    if codes != [0, 2]:
        return 1, "", f"two resumes at once ended {codes}, not one 0 and one 2", ""
    (w_pid, _, w_out, w_err), = [d for d in done if d[1] == 0]
    (_, _, l_out, l_err), = [d for d in done if d[1] == 2]
    named = f":{w_pid}:" in l_err and len(l_err.strip().splitlines()) == 1 and not l_out
    other = "the other refused, naming the holder" if named else f"the other: {_last_line(l_err)[:80]}"
    return (0 if named else 1), w_out, w_err, other


def _last_line(text: str) -> str:
    """The error line, without its `error: ` prefix and with the fakes' random ports hidden."""
    lines = text.strip().splitlines()
    line = lines[-1].removeprefix("error: ") if lines else ""
    line = re.sub(r" \(bench \S+ stopped; continue it with --resume \S+\)$", " (bench stopped; --resume)", line)
    return re.sub(r"http://127\.0\.0\.1:\d+", "URL", line)


def run_drill(drill: Drill, reference: dict[str, Any], db_url: str, tag: str, limit: int, attempts: int,
              rng: random.Random) -> Outcome:
    run_id = f"drill-{re.sub(r'[^a-z0-9]+', '-', drill.name.lower()).strip('-')}-{tag}"
    env = dict(drill.env)
    if drill.store_fault and not db_url.startswith("sqlite:///"):
        return Outcome(drill.name, "skipped (SQLite only)", "-", True)
    with fake_servers(SOLVABLE) as servers:
        kimina, llm = servers
        drill.inject(kimina, llm, env)
        if drill.store_fault:
            _after_requests(llm, 3, _replace_store(db_url))
        kill = Kill(db_url, run_id, rng.uniform(0.0, 2.0), drill.signal or signal.SIGKILL) if drill.kill else None
        code, out, err = _bench(servers, db_url, run_id, env, limit, attempts, kill)
        if code == 0:
            first = "finished"
            report = json.loads(out)
            resumed = "-"
        else:
            if code < 0:
                first = f"killed ({signal.Signals(-code).name})"
            else:
                first = f"exit {code}: {_last_line(err)}"
            drill.remove(kimina, llm, env)
            if drill.store_fault:
                llm.rules.pop(0)
                time.sleep(0.5)  # the stopped bench's process is gone: its lease is taken over
            if code == 2 and not _run_row_stored(db_url, run_id):
                # stopped by its preflight, before anything was stored (issue 49): nothing to
                # resume; the same command runs again
                code, out, err = _bench(servers, db_url, run_id, env, limit, attempts)
                resumed = "run again (nothing stored)"
            elif drill.race:
                code, out, err, other = _race(run_id, db_url, env)
                resumed = f"one finished, {other}"
            else:
                code, out, err = _cli(_resume_args(run_id, db_url), env)
                resumed = "finished"
            if code != 0:
                return Outcome(drill.name, first, f"exit {code}: {_last_line(err)[:110]}", False)
            report = json.loads(out)
    equal = _comparable(report) == _comparable(reference)
    detail = "" if equal else json.dumps({"got": _comparable(report), "want": _comparable(reference)})[:400]
    return Outcome(drill.name, first, resumed, equal, detail)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db-url", help="SQLAlchemy URL of the store (default: SQLite in a temporary folder)")
    parser.add_argument("--drills", help="comma-separated drill names (default: all); --list shows them")
    parser.add_argument("--list", action="store_true", help="list the drills and exit")
    parser.add_argument("--limit", type=int, default=3, help="problems of miniF2F valid (default 3)")
    parser.add_argument("--attempts", type=int, default=2, help="attempts per problem (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random kill moment")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (for docs/errors.md)")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(d.name for d in DRILLS))
        return 0
    chosen = DRILLS
    if args.drills:
        wanted = [w.strip() for w in args.drills.split(",") if w.strip()]
        chosen = [d for d in DRILLS if any(w in d.name for w in wanted)]
        if not chosen:
            print(f"error: no drill matches {args.drills!r} (see --list)", file=sys.stderr)
            return 2
    tmp = tempfile.TemporaryDirectory(prefix="lemmaforge-drill-")
    db_url = args.db_url or f"sqlite:///{Path(tmp.name) / 'drills.db'}"
    tag = uuid.uuid4().hex[:8]
    rng = random.Random(args.seed)

    with fake_servers(SOLVABLE) as servers:
        code, out, err = _bench(servers, db_url, f"drill-reference-{tag}", {}, args.limit, args.attempts)
    if code != 0:
        print(f"error: the fault-free run failed (exit {code}): {_last_line(err)}", file=sys.stderr)
        return 1
    reference = json.loads(out)

    results: list[Outcome] = []
    for drill in chosen:
        started = time.monotonic()
        outcome = run_drill(drill, reference, db_url, tag, args.limit, args.attempts, rng)
        results.append(outcome)
        if not args.json and not args.markdown:
            mark = "yes" if outcome.equal else "NO"
            print(f"{outcome.drill:34} | {outcome.first[:90]:90} | {outcome.resumed[:48]:8} | {mark:3} "
                  f"({time.monotonic() - started:.1f}s)", flush=True)
            if outcome.detail:
                print(f"    {outcome.detail}", flush=True)
    if args.markdown:
        print("| drill | first run | `--resume` | report = fault-free |")
        print("|---|---|---|---|")
        for o in results:
            first = o.first.replace("|", "\\|")
            print(f"| {o.drill} | {first} | {o.resumed} | {'yes' if o.equal else '**no**'} |")
    elif args.json:
        print(json.dumps({"db": db_url.split("@")[-1], "reference": _comparable(reference),
                          "drills": [o.__dict__ for o in results]}, indent=2))
    else:
        ok = sum(o.equal for o in results)
        print(f"{ok}/{len(results)} drills end with the fault-free report ({db_url.split('@')[-1]})")
    tmp.cleanup()
    return 0 if all(o.equal for o in results) else 1


if __name__ == "__main__":
    sys.exit(main())

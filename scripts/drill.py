#!/usr/bin/env python3
"""Fault drills: `lemmaforge bench` against the stand-in servers with injected faults.

For each drill the bench runs in a subprocess (the real CLI, this checkout) against the fake
OpenAI-compatible server (the prover) and the fake Kimina server (Lean) from tests/fakes, with one
fault injected. If it stops (exit 2: one line naming the backend; exit 70: a bug; killed), the
fault is removed and `bench --resume` continues it. The drill passes when the final report equals
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


@dataclass
class Drill:
    name: str
    inject: Action
    remove: Action = _nothing
    env: dict[str, str] = field(default_factory=dict)
    kill: bool = False  # kill -9 the bench at a random moment instead


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
]


@dataclass
class Outcome:
    drill: str
    first: str  # what the faulted run did
    resumed: str  # what --resume did ("-": not needed)
    equal: bool
    detail: str = ""


def _cli(args: list[str], env: dict[str, str], *, kill_after: float | None = None) -> tuple[int, str, str]:
    """`python -m lemmaforge.cli ARGS` on this checkout; SIGKILLed after `kill_after` seconds if set."""
    full_env = {**os.environ, **ENV, **env, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "lemmaforge.cli", *args], cwd=ROOT, env=full_env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if kill_after is not None:
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
    out, err = proc.communicate(timeout=600)
    return proc.returncode, out, err


def _comparable(report: dict[str, Any]) -> dict[str, Any]:
    runs = {p["name"]: [{k: r.get(k) for k in RUN_KEYS} for r in p["runs"]] for p in report.get("results", [])}
    return {**{k: report.get(k) for k in REPORT_KEYS}, "runs": runs}


def _bench(servers: Servers, db_url: str, run_id: str, env: dict[str, str], limit: int, attempts: int,
           kill_after: float | None = None) -> tuple[int, str, str]:
    kimina, llm = servers
    args = bench_args(kimina, llm, db_url, "--limit", str(limit), "--attempts", str(attempts), "--concurrency", "2",
                      "--run-id", run_id, "--json")
    return _cli(args, env, kill_after=kill_after)


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
    with fake_servers(SOLVABLE) as servers:
        kimina, llm = servers
        drill.inject(kimina, llm, env)
        kill_after = rng.uniform(0.5, 3.0) if drill.kill else None
        code, out, err = _bench(servers, db_url, run_id, env, limit, attempts, kill_after)
        if code == 0:
            first = "finished"
            report = json.loads(out)
            resumed = "-"
        else:
            first = "killed (-9)" if code == -signal.SIGKILL else f"exit {code}: {_last_line(err)}"
            drill.remove(kimina, llm, env)
            code, out, err = _cli(["bench", "--resume", run_id, "--db", db_url, "--json", "--no-progress"], env)
            if code != 0:
                return Outcome(drill.name, first, f"exit {code}: {_last_line(err)[:110]}", False)
            report = json.loads(out)
            resumed = "finished"
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
            print(f"{outcome.drill:34} | {outcome.first[:90]:90} | {outcome.resumed:8} | {mark:3} "
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

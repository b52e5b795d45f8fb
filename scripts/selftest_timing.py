#!/usr/bin/env python3
"""How long `lemmaforge doctor --selftest` takes, and how many Lean requests it makes, on each
backend (docs/performance.md, "doctor --selftest").

    PYTHONPATH=. python scripts/selftest_timing.py [--runs 3] [--modelled]

1. The selftest's own cost: `doctor --selftest --json` in process (typer's CliRunner) against the
   fakes answering at once (tests/fakes: the fake Kimina server, the fake REPL process through
   lean-interact, the fake `lake`): wall seconds, distinct texts sent, and what reached Lean
   (Kimina: HTTP requests and snippets; REPL: header elaborations and commands; lake: runs).
2. `--modelled`: with Lean's latencies modelled. The fake REPL with `--header-s` per header
   elaboration (Mathlib's import: 10–20 s on real Lean) and `--cmd-s` per command, 1 and 2
   workers; the stand-in Kimina server (tests/fakes/standin_servers.py, unscaled: header imports
   10–16 s, checks lognormal with mean 3.5 s) with 16 REPLs, cold then warm. The stand-in's Lean
   is crude (its verdicts are not all the calibration's: only the time counts here).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["LEMMAFORGE_HOME"] = tempfile.mkdtemp(prefix="lf-selftest-timing-")

from typer.testing import CliRunner  # noqa: E402

from lemmaforge.cli import app  # noqa: E402
from tests.fakes.fake_kimina import FakeKimina, ScriptedLean  # noqa: E402
from tests.fakes.fake_repl import make_fake_repl_config  # noqa: E402


def run_selftest(*args: str, env: dict[str, str] | None = None) -> tuple[float, dict[str, Any]]:
    started = time.monotonic()
    r = CliRunner().invoke(app, ["doctor", "--selftest", *args, "--json"], env=env)
    seconds = time.monotonic() - started
    if r.exit_code not in (0, 1):
        raise SystemExit(f"doctor --selftest failed ({r.exit_code}): {r.output}")
    return seconds, json.loads(r.stdout)


def kimina(runs: int) -> dict[str, Any]:
    walls, outs, requests = [], [], []
    for _ in range(runs):
        with FakeKimina(responder=ScriptedLean(lean_version="4.19.0")) as server:
            seconds, out = run_selftest("--verifier", "kimina", "--kimina-url", server.url)
            requests = [len(r.body["snippets"]) for r in server.check_requests]
        walls.append(seconds)
        outs.append(out)
    return {"backend": "kimina (fake server)", **_summary(walls, outs), "snippets per request": requests}


def repl_env(root: Path, workers: int, latency: dict[str, float] | None = None) -> tuple[dict[str, str], Any]:
    fake = make_fake_repl_config(root / "repl", transcripts=False, lean_version="4.19", latency=latency)
    project = root / "project"
    project.mkdir()
    (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.19.0\n", encoding="utf-8")
    env = {"LEMMAFORGE_VERIFIER__REPL_PATH": str(root / "repl" / "repl"),
           "LEMMAFORGE_VERIFIER__LAKE_PATH": str(root / "repl" / "bin" / "lake"),
           "LEMMAFORGE_VERIFIER__PROJECT": str(project), "LEMMAFORGE_VERIFIER__WORKERS": str(workers)}
    return env, fake


def repl(runs: int, workers: int = 1, latency: dict[str, float] | None = None) -> dict[str, Any]:
    walls, outs = [], []
    fake = None
    for _ in range(runs):
        env, fake = repl_env(Path(tempfile.mkdtemp()), workers, latency)
        seconds, out = run_selftest("--verifier", "repl", "--no-sandbox", env=env)
        walls.append(seconds)
        outs.append(out)
    assert fake is not None
    label = f"repl (fake process, {workers} worker{'s' if workers > 1 else ''}" + (
        f", header {latency['header_s']:g} s, command {latency['cmd_s']:g} s)" if latency else ")")
    return {"backend": label, **_summary(walls, outs), "header elaborations": fake.header_elaborations(),
            "commands": len(fake.requests("cmd"))}


def lake(runs: int, workers: int = 2) -> dict[str, Any]:
    walls, outs, lake_runs = [], [], 0
    for _ in range(runs):
        root = Path(tempfile.mkdtemp())
        project, log = root / "P", root / "log"
        project.mkdir()
        log.mkdir()
        (project / "lakefile.toml").write_text('name = "P"\n', encoding="utf-8")
        env = {"LEMMAFORGE_VERIFIER__LAKE_PATH": str(ROOT / "tests" / "fakes" / "lake"),
               "FAKE_LAKE_LEAN": ScriptedLean(lean_version="4.19").to_json(), "FAKE_LAKE_LOG": str(log),
               "LEMMAFORGE_VERIFIER__WORKERS": str(workers)}
        seconds, out = run_selftest("--verifier", "lake", "--project", str(project), "--no-sandbox", env=env)
        walls.append(seconds)
        outs.append(out)
        lake_runs = len(list(log.iterdir()))
    return {"backend": f"lake (fake lake, {workers} workers)", **_summary(walls, outs), "lake env lean runs": lake_runs}


@contextmanager
def standin_kimina(repls: int) -> Iterator[str]:
    proc = subprocess.Popen([sys.executable, "-m", "tests.fakes.standin_servers", "kimina", "--repls", str(repls),
                             "--scale", "1", "--lean-version", "4.19"], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError(f"the stand-in did not start: {line!r}")
        yield f"http://127.0.0.1:{int(line.split()[1])}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def standin(repls: int = 16) -> list[dict[str, Any]]:
    rows = []
    with standin_kimina(repls) as url:
        for label in ("cold", "warm"):
            seconds, out = run_selftest("--verifier", "kimina", "--kimina-url", url)
            rows.append({"backend": f"kimina (stand-in, {repls} REPLs, {label})", **_summary([seconds], [out])})
    return rows


def _summary(walls: list[float], outs: list[dict[str, Any]]) -> dict[str, Any]:
    last = outs[-1]
    return {"wall_s": {"min": round(min(walls), 2), "mean": round(statistics.mean(walls), 2), "max": round(max(walls), 2)},
            "selftest_s": round(last["seconds"], 2), "texts_sent": last["checks_sent"],
            "as_expected": f"{last['as_expected']}/{last['total']}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--modelled", action="store_true", help="also with Lean's latencies modelled")
    parser.add_argument("--header-s", type=float, default=12.0)
    parser.add_argument("--cmd-s", type=float, default=0.3)
    args = parser.parse_args()
    rows = [kimina(args.runs), repl(args.runs), lake(args.runs)]
    if args.modelled:
        latency = {"header_s": args.header_s, "cmd_s": args.cmd_s}
        rows += [repl(1, 1, latency), repl(1, 2, latency), *standin()]
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()

"""`lemmaforge demo`: the product working end to end in a minute, without Lean, a GPU or a model.

It starts the simulated Kimina Lean Server and the simulated model server (`servers.py`) in this
process on 127.0.0.1, then runs the real commands as a person would type them, each as a child
process of this interpreter (`python -m lemmaforge.cli …`, the code `lemmaforge` runs):

1. `doctor` with the endpoint and verifier options `prove` takes;
2. `prove` on miniF2F's `mathd_algebra_478` (the packaged dataset's statement, written to the
   demo folder) with a planner and a prover, then `show RUN --html` (the run page);
3. `bench minif2f --names …` on three problems, then `report BENCH --html` (the report and a tree
   page per attempt).

Everything goes to the demo folder (`--dir`; default a fresh temporary folder): the store
`demo.db`, the problem file, the proof and the pages. The children get a clean environment (no
`LEMMAFORGE_*` variable of the caller, `LEMMAFORGE_HOME` in the demo folder, the folder as their
working directory so no `./lemmaforge.toml` is read): nothing is read from or written to
`~/.lemmaforge`. Every line the demo prints starts with `[simulated]`, and every page it writes
carries a banner saying the results are simulated.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lemmaforge.demo.model_sim import PLANNER_MODEL, PROVER_MODEL
from lemmaforge.demo.servers import SimulatedKimina, SimulatedOpenAI
from lemmaforge.errors import InputError, InternalError

#: what every printed line starts with
PREFIX = "[simulated] "
#: the theorem `prove` works on (the README's example) and the bench's three problems: one the
#: prover proves outright, one that takes a sketch, one the simulated world leaves unproved
PROVE_PROBLEM = "mathd_algebra_478"
BENCH_PROBLEMS = ("mathd_algebra_48", "aime_1991_p6", "imo_1964_p1_2")
PROVER_PRESET = "deepseek-prover-v2"
COMMAND_TIMEOUT_S = 240.0
BANNER_ID = "simulated-results"
BANNER = (
    f'<div id="{BANNER_ID}" style="background:#fff8c5;border:2px solid #9a6700;border-radius:6px;'
    'padding:.6em 1em;margin:.4em 0 1em;font-weight:600">Simulated results: written by <code>lemmaforge demo</code> '
    "with a simulated Lean and simulated models (no Lean, no model, no mathematics). The commands and the "
    "pages are the real ones; the verdicts are not.</div>"
)


class DemoError(InputError):
    """The demo's folder cannot be used: one line, exit 2."""


class DemoFailed(InternalError):
    """A command the demo ran failed against the simulated servers, which always answer: a bug
    reported across the process boundary (its output was printed above), exit 70."""


@dataclass(slots=True)
class Step:
    """One command the demo ran: its arguments (after `lemmaforge`), exit code and time."""

    what: str
    args: list[str]
    exit_code: int | None = None
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"what": self.what, "command": "lemmaforge " + shlex.join(self.args), "exit_code": self.exit_code,
                "seconds": round(self.seconds, 2)}


@dataclass(slots=True)
class DemoResult:
    """What the demo did and where it left it."""

    folder: Path
    steps: list[Step] = field(default_factory=list)
    prove_run: str | None = None
    prove_status: str | None = None
    bench_run: str | None = None
    bench_line: str | None = None
    pages: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"simulated": True, "folder": str(self.folder), "db": db_url(self.folder),
                "prove_run": self.prove_run, "prove_status": self.prove_status, "bench_run": self.bench_run,
                "bench": self.bench_line, "pages": self.pages, "steps": [s.to_json() for s in self.steps],
                "seconds": round(self.seconds, 2)}


def db_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'demo.db'}"


def prepare_folder(folder: Path | None) -> Path:
    """The demo folder: `folder` (created if missing; an existing one is reused, its store keeps
    earlier demo runs), else a fresh temporary folder. DemoError for a path that is not a folder."""
    import tempfile

    if folder is None:
        return Path(tempfile.mkdtemp(prefix="lemmaforge-demo-")).resolve()
    folder = folder.expanduser().resolve()
    if folder.exists() and not folder.is_dir():
        raise DemoError(f"--dir {folder} is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DemoError(f"cannot make the demo folder {folder}: {exc.strerror or exc}") from None
    return folder


def write_problem(folder: Path, name: str = PROVE_PROBLEM) -> Path:
    """The statement `prove` works on, from the packaged miniF2F: header + theorem ending in sorry."""
    from lemmaforge.benchmarks.datasets import load_dataset

    [problem] = load_dataset("minif2f", names=[name])
    path = folder / f"{name}.lean"
    path.write_text(problem.header + problem.statement.rstrip() + "\n", encoding="utf-8")
    return path


def child_environment(folder: Path, width: int) -> dict[str, str]:
    """The children's environment: the caller's, without its lemmaforge settings, with the demo
    folder as LEMMAFORGE_HOME (nothing in ~/.lemmaforge) and a fixed width for their tables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEMMAFORGE_")}
    env.update(LEMMAFORGE_HOME=str(folder), COLUMNS=str(width), TERMINAL_WIDTH=str(width), NO_COLOR="1",
               PYTHONIOENCODING="utf-8")
    return env


def add_banner(html: Path) -> None:
    """Put the 'simulated results' banner at the top of a page the demo wrote."""
    text = html.read_text(encoding="utf-8")
    if BANNER_ID in text:
        return
    text = re.sub(r"<body>\n?", lambda m: m.group(0) + BANNER + "\n", text, count=1)
    html.write_text(text, encoding="utf-8")


class Demo:
    """The demo's run (module docstring). `say(line)` prints one line (the demo prefixes it)."""

    def __init__(self, folder: Path, say: Callable[[str], None], *, width: int = 100) -> None:
        self.folder = folder
        self.say = say
        self.width = max(60, width - len(PREFIX))
        self.result = DemoResult(folder)
        self.db = db_url(folder)

    # -- one command ----------------------------------------------------------------------------

    def command(self, what: str, args: Sequence[str], *, ok: tuple[int, ...] = (0,)) -> Step:
        """Run `lemmaforge ARGS` as a child process, print the command and every line it wrote
        (prefixed), and raise DemoFailed when it exits with a code not in `ok`."""
        step = Step(what, list(args))
        self.result.steps.append(step)
        self.say("")
        self.say(f"── {what}")
        self.say(f"$ lemmaforge {shlex.join(step.args)}")
        started = time.monotonic()
        try:
            proc = subprocess.run([sys.executable, "-m", "lemmaforge.cli", *step.args], cwd=self.folder,
                                  env=child_environment(self.folder, self.width), capture_output=True, text=True,
                                  encoding="utf-8", errors="replace", timeout=COMMAND_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise DemoFailed(f"`lemmaforge {step.args[0]}` did not finish within {COMMAND_TIMEOUT_S:g} s") from None
        step.seconds = time.monotonic() - started
        step.exit_code = proc.returncode
        for line in (proc.stdout + proc.stderr).splitlines():
            self.say("  " + line)
        self.say(f"(exit {proc.returncode}, {step.seconds:.1f} s)")
        if proc.returncode not in ok:
            last = (proc.stderr.strip().splitlines() or proc.stdout.strip().splitlines() or ["no output"])[-1]
            raise DemoFailed(f"`lemmaforge {step.args[0]}` exited {proc.returncode}: {last}")
        return step

    def _new_runs(self, kind: str, before: set[str]) -> list[Any]:
        from lemmaforge.db import Store

        store = Store(self.db, read_only=True)
        try:
            return [r for r in store.runs(kind=kind) if r.run_id not in before and r.parent_run_id is None]
        finally:
            store.close()

    def _run_ids(self, kind: str) -> set[str]:
        if not (self.folder / "demo.db").is_file():
            return set()
        return {r.run_id for r in self._new_runs(kind, set())}

    # -- the demo -------------------------------------------------------------------------------

    def run(self, *, lean_url: str, model_url: str) -> DemoResult:
        started = time.monotonic()
        endpoints = ["--verifier", "kimina", "--kimina-url", lean_url,
                     "--prover-url", model_url, "--prover-model", PROVER_MODEL,
                     "--planner-url", model_url, "--planner-model", PLANNER_MODEL]
        self.command("1. check what prove will use: the simulated Lean server and model server",
                     ["doctor", *endpoints, "--db", self.db])

        problem = write_problem(self.folder)
        proof = self.folder / f"{PROVE_PROBLEM}.proof.lean"
        before = self._run_ids("prove")
        self.command(f"2. prove {PROVE_PROBLEM} (miniF2F) by recursive decomposition",
                     ["prove", str(problem), *endpoints, "--prover-preset", PROVER_PRESET, "--db", self.db,
                      "-o", str(proof), "--no-live"], ok=(0, 1))
        runs = self._new_runs("prove", before)
        if runs:
            run = runs[-1]
            self.result.prove_run, self.result.prove_status = run.run_id, run.status
            page = self.folder / "prove-run.html"
            self.command("3. the run's proof tree as a page",
                         ["show", run.run_id[:12], "--db", self.db, "--html", str(page)])
            add_banner(page)
            self.result.pages["run"] = str(page)
            if proof.is_file():
                self.result.pages["proof"] = str(proof)

        before = self._run_ids("bench")
        self.command(f"4. a {len(BENCH_PROBLEMS)}-problem benchmark (miniF2F, one attempt each)",
                     ["bench", "minif2f", "--names", ",".join(BENCH_PROBLEMS), *endpoints, "--prover-preset",
                      PROVER_PRESET, "--db", self.db, "--no-progress"], ok=(0, 1))
        benches = self._new_runs("bench", before)
        if benches:
            bench = benches[-1]
            self.result.bench_run = bench.run_id
            summary = bench.summary or {}
            self.result.bench_line = (f"{summary['solved']}/{summary['problems']} solved" if "solved" in summary
                                      else bench.status)
            report = self.folder / "bench-report.html"
            self.command("5. the benchmark's report as a page (and a tree page per attempt)",
                         ["report", bench.run_id[:12], "--db", self.db, "--html", str(report)])
            for page in [report, *sorted((self.folder / "bench-report_runs").glob("*.html"))]:
                add_banner(page)
            self.result.pages["report"] = str(report)
        self.result.seconds = time.monotonic() - started
        return self.result


def run_demo(folder: Path | None, say: Callable[[str], None], *, width: int = 100,
             serve: Callable[[str, str], None] | None = None) -> DemoResult:
    """Start the simulated servers, run the demo's commands (`Demo.run`), stop the servers —
    unless `serve` is given: it is called with the servers' URLs while they still run (the CLI's
    `--serve` waits there for Ctrl-C)."""
    folder = prepare_folder(folder)
    with SimulatedKimina() as lean, SimulatedOpenAI() as models:
        say(f"a simulated Kimina Lean Server at {lean.url} and a simulated model server at {models.url} "
            f"(models {PROVER_MODEL}, {PLANNER_MODEL}), in this process")
        say(f"everything goes to {folder}")
        result = Demo(folder, say, width=width).run(lean_url=lean.url, model_url=models.url)
        if serve is not None:
            serve(lean.url, models.url)
    return result


__all__ = ["BANNER", "BENCH_PROBLEMS", "PREFIX", "PROVE_PROBLEM", "Demo", "DemoError", "DemoFailed", "DemoResult",
           "add_banner",
           "prepare_folder", "run_demo"]

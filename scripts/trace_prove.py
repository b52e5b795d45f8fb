"""Trace one `lemmaforge prove` on the stand-in servers: which lemmaforge modules and functions run,
in the order they first run. docs/architecture.md's trace is this script's output:

    python scripts/trace_prove.py                      # modules in order of first call
    python scripts/trace_prove.py --functions          # and each module's functions
    python scripts/trace_prove.py --speculation off    # the plain schedule (no lemmaforge/schedule/)

The problem and the servers' answers are tests/search/scenarios.py's: a theorem whose sketch has
two holes, one closed by automation, one by the prover, assembled and audited. Every thread is
traced (`sys.setprofile` and `threading.setprofile`); only functions defined under lemmaforge/
count. Nothing of the import machinery is counted: the modules are imported before the trace.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import lemmaforge  # noqa: E402

PACKAGE = Path(lemmaforge.__file__).resolve().parent


def _module_of(filename: str) -> str | None:
    path = Path(filename)
    if not filename.startswith(str(PACKAGE)):
        return None
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def trace(speculation: str) -> tuple[dict[str, list[str]], dict[str, object]]:
    from typer.testing import CliRunner

    from lemmaforge.cli import app
    from tests.fakes.fake_kimina import FakeKimina, MessageRule, ScriptedLean
    from tests.fakes.fake_openai import FakeOpenAIServer
    from tests.search.scenarios import (
        DEFS,
        HEADER,
        SKETCH,
        THEOREM,
        add_planner,
        add_prover,
        closing_hole_rule,
        lean_block,
        prover_rule,
    )

    # Every module the run may call, imported before the trace (their import is not the run).
    for name in ("lemmaforge.cli.prove", "lemmaforge.services", "lemmaforge.search.engine",
                 "lemmaforge.schedule", "lemmaforge.schedule.alternatives"):
        importlib.import_module(name)
    calls: OrderedDict[str, OrderedDict[str, None]] = OrderedDict()

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event != "call":
            return
        module = _module_of(frame.f_code.co_filename)
        if module is not None:
            calls.setdefault(module, OrderedDict())[frame.f_code.co_qualname] = None

    lean = ScriptedLean(rules=[MessageRule(r"\bbad_\w+", "tactic failed"),
                               MessageRule(r"(?s)\A(?!.*Easy x :=).*?\bauto_tac\b", "auto_tac failed")])
    with tempfile.TemporaryDirectory() as tmp, FakeKimina(responder=lean) as kimina, \
            FakeOpenAIServer(default=lean_block("bad_default")) as llm:
        add_prover(llm, *prover_rule("Hard x", "exact hard_fact"))
        add_prover(llm, *closing_hole_rule())
        add_planner(llm, r"theorem t ", lean_block(SKETCH))
        problem = Path(tmp) / "t.lean"
        problem.write_text(HEADER + DEFS + THEOREM, encoding="utf-8")
        config = Path(tmp) / "lemmaforge.toml"
        config.write_text(f'[search]\nportfolio = ["auto_tac"]\nspeculation = "{speculation}"\n', encoding="utf-8")
        args = ["prove", str(problem), "--verifier", "kimina", "--kimina-url", kimina.url,
                "--planner-url", llm.url, "--planner-model", "fake-model", "--prover-url", llm.url,
                "--prover-model", "fake-model", "--db", f"sqlite:///{Path(tmp) / 'runs.db'}", "--json", "--no-live",
                "--budget", "root_whole_proof_attempts=2", "--budget", "prover_samples_per_goal=2"]
        env = {"LEMMAFORGE_CONFIG": str(config), "LEMMAFORGE_VERIFIER__KIMINA_POSITION_MODE": "all",
               "LEMMAFORGE_HOME": tmp}
        threading.setprofile(profile)
        sys.setprofile(profile)
        try:
            result = CliRunner().invoke(app, args, env=env)
        finally:
            sys.setprofile(None)
            threading.setprofile(None)  # type: ignore[arg-type]
    if result.exit_code != 0:
        raise SystemExit(f"the traced prove exited {result.exit_code}: {result.output[-2000:]}")
    out = json.loads(result.stdout)
    summary = {k: out[k] for k in ("proved", "calls", "checks", "nodes", "depth")}
    return {m: list(f) for m, f in calls.items()}, summary


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--speculation", choices=("off", "prefetch", "full"), default="prefetch")
    p.add_argument("--functions", action="store_true", help="each module's functions, in order of first call")
    args = p.parse_args()
    os.environ.setdefault("LEMMAFORGE_SHARED", str(ROOT.parent / "shared"))
    modules, summary = trace(args.speculation)
    functions = sum(len(f) for f in modules.values())
    print(f"speculation = {args.speculation}: {summary}")
    print(f"{functions} functions in {len(modules)} modules, in order of first call")
    for module, names in modules.items():
        print(f"{module}  ({len(names)})")
        if args.functions:
            for name in names:
                print(f"    {name}")


if __name__ == "__main__":
    main()

"""`lemmaforge demo`: the product working end to end without Lean, a GPU or a model.

Plain typer-annotated function; `lemmaforge.cli` registers it. Exit codes as everywhere: 0 the
demo ran (whatever the simulated runs proved), 2 its folder cannot be used, 70 a command it ran failed
against the simulated servers (a bug: its output is printed above the one-line error), 130 interrupted.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated

import typer

from lemmaforge.cli.common import JsonOpt, err, fail, print_json
from lemmaforge.errors import ExitCode


def demo_command(
    folder: Annotated[
        Path | None,
        typer.Option("--dir", help="Folder for the demo's store, files and pages (default: a fresh temporary folder)."),
    ] = None,
    serve: Annotated[
        bool,
        typer.Option("--serve", help="Afterwards, keep the simulated servers running (Ctrl-C stops them) to try commands."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Try lemmaforge in a minute, without Lean, a GPU or a model: simulated results.

    Starts a simulated Kimina Lean Server and a simulated OpenAI-compatible model server on
    127.0.0.1, then runs the real commands against them: doctor, prove (a miniF2F theorem, with
    its run page), and a 3-problem bench with its HTML report. Prints each command and its output
    (every line marked \\[simulated]) and where the pages are. Exit 0 done, 2 a bad --dir, 70 a command failed."""
    import sys

    from lemmaforge.demo.run import PREFIX, run_demo
    from lemmaforge.errors import LemmaforgeError

    width = shutil.get_terminal_size((100, 24)).columns

    def say(line: str) -> None:
        # stdout carries only the JSON with --json; the demo's lines then go to stderr
        stream = sys.stderr if as_json else sys.stdout
        stream.write(f"{PREFIX}{line}\n" if line else f"{PREFIX.rstrip()}\n")
        stream.flush()

    def keep_serving(lean_url: str, model_url: str) -> None:
        import threading

        say("")
        say("the simulated servers keep running: try the commands above, or your own, with")
        say(f"  --verifier kimina --kimina-url {lean_url} --prover-url {model_url} --prover-model simulated-prover")
        say("Ctrl-C stops them")
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            say("stopped")

    try:
        result = run_demo(folder, say, width=width, serve=keep_serving if serve else None)
    except LemmaforgeError as exc:  # DemoError (the folder): 2; DemoFailed (a command failed): 70
        fail(f"demo: {exc}", exc.exit_code)
    except KeyboardInterrupt:
        err.print("interrupted: the demo stopped", highlight=False)
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    if as_json:
        print_json(result.to_json())
        raise typer.Exit(ExitCode.OK)
    say("")
    say(f"done in {result.seconds:.0f} s. Everything above is simulated: no Lean and no model ran.")
    if result.prove_run:
        say(f"prove run {result.prove_run}: {result.prove_status}; its page: {result.pages.get('run')}")
    if result.pages.get("proof"):
        say(f"the proof: {result.pages['proof']}")
    if result.bench_run:
        say(f"bench run {result.bench_run}: {result.bench_line}; its report: {result.pages.get('report')}")
    say(f"the store: {result.folder / 'demo.db'} (lemmaforge runs --db sqlite:///{result.folder / 'demo.db'})")
    say("next, for real: `lemmaforge setup` (Lean and Mathlib), serve a prover, then `lemmaforge doctor` "
        "(README: Quick start)")
    raise typer.Exit(ExitCode.OK)


__all__ = ["demo_command"]

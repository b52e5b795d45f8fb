"""A prover "server" for the expert-iteration tests, started by the loop's `--serve-cmd`:

    python -m tests.training.fake_prover_server --model {model} --port {port} --script S --log L

It serves the fake OpenAI API on 127.0.0.1:PORT under the model name it was started with, appends
that name to the log file (so a test sees which checkpoint was served when), and proves the
theorems the script allows for this checkpoint: `script["solves"]` maps a substring of the model
path to theorem names (the longest matching key wins), `script["proofs"]` a name to its proof.
Other theorems get a proof that uses `bogus_tactic`, which the scripted Lean rejects.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import threading
from http.server import ThreadingHTTPServer
from typing import Any

from tests.fakes.fake_openai import FakeOpenAIServer, Received, Rule, _Handler

CODE = re.compile(r"```lean4\n(.*?)\n```", re.DOTALL)


def replier(script: dict[str, Any], model: str):
    keys = [k for k in script["solves"] if k in model]
    allowed = set(script["solves"][max(keys, key=len)]) if keys else set()

    def reply(req: Received) -> str:
        code = CODE.search(req.text)
        statement = code.group(1) if code else ""
        name = re.search(r"theorem\s+(\S+)", statement)
        if name and name.group(1) in allowed:
            return f"Here it is.\n\n```lean4\n{script['proofs'][name.group(1)].strip()}\n```\n"
        return f"```lean4\n{statement.rsplit('sorry', 1)[0]}bogus_tactic\n```\n"

    return reply


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--script", required=True)
    ap.add_argument("--log", required=True)
    args = ap.parse_args()
    with open(args.script, encoding="utf-8") as f:
        script = json.load(f)
    fake = FakeOpenAIServer([Rule(None, replier(script, args.model))], models=[args.model])
    handler = type("Handler", (_Handler,), {"fake": fake})  # the fake's own handler, on OUR port
    httpd = ThreadingHTTPServer(("127.0.0.1", args.port), handler)
    httpd.daemon_threads = True
    with open(args.log, "a", encoding="utf-8") as f:
        f.write(args.model + "\n")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    stop.wait()
    httpd.shutdown()
    httpd.server_close()


if __name__ == "__main__":
    main()

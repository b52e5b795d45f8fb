"""Serve the stand-in Kimina Lean Server (tests/fakes/fake_kimina.py) until killed: for scripts
(scripts/gpu_check.sh) that drive the CLI end to end without Lean. Writes its URL to the file
given as the first argument (or prints it)."""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo root: tests.fakes

from tests.fakes.fake_kimina import FakeKimina  # noqa: E402


def main() -> None:
    server = FakeKimina()
    server.start()
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(server.url + "\n", encoding="utf-8")
    else:
        print(server.url, flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    done.wait()
    server.stop()


if __name__ == "__main__":
    main()

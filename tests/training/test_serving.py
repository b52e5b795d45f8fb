"""The model server of expert iteration: starts the user's serve command, waits (httpx probes paced
by tenacity) until `GET {prover_url}/models` answers 200, and says in one line why it did not come
up — the command exited, or it never answered within `serve_timeout`."""

from __future__ import annotations

import shlex
import socket
import sys
import time
from pathlib import Path

import pytest

from lemmaforge.errors import BackendUnavailable
from lemmaforge.training.expert import ExpertIterConfig, ModelServer, ServeError

# a server that answers 200 on /v1/models only, after writing which model it serves
SERVER = """
import http.server, sys
model, port, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
open(log, "a").write(model + "\\n")
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/v1/models" else 404)
        self.end_headers()
        self.wfile.write(b'{"data": []}')
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", port), H).serve_forever()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cfg(serve_cmd: str | None, port: int, timeout: float = 30.0) -> ExpertIterConfig:
    return ExpertIterConfig(statements="s.jsonl", out_dir="out", tiny=True, serve_cmd=serve_cmd,
                            prover_url=f"http://127.0.0.1:{port}/v1", serve_timeout=timeout)


@pytest.fixture
def server_script(tmp_path: Path) -> Path:
    path = tmp_path / "server.py"
    path.write_text(SERVER, encoding="utf-8")
    return path


def test_serves_each_checkpoint_once_and_stops_it(tmp_path, server_script):
    port = free_port()
    served = tmp_path / "served.log"
    cmd = f"{shlex.quote(sys.executable)} {server_script} {{model}} {{port}} {served}"
    server = ModelServer(cfg(cmd, port), tmp_path / "logs")
    try:
        server.ensure(str(tmp_path / "round 1"))  # a path with a space: quoted into the command
        pid = server._proc.pid
        server.ensure(str(tmp_path / "round 1"))  # the same checkpoint still served: not restarted
        assert server._proc.pid == pid
        server.ensure(str(tmp_path / "round 2"))  # a new checkpoint: the old server is replaced
        assert server._proc.pid != pid and server.current == str(tmp_path / "round 2")
    finally:
        server.stop()
    assert served.read_text().splitlines() == [str(tmp_path / "round 1"), str(tmp_path / "round 2")]
    assert server.current is None
    with socket.socket() as s:  # the port is free again: the process group was terminated
        assert s.connect_ex(("127.0.0.1", port)) != 0


def test_a_command_that_exits_is_one_line_with_its_status_and_log(tmp_path):
    cmd = f"{shlex.quote(sys.executable)} -c \"print('CUDA out of memory'); raise SystemExit(3)\""
    server = ModelServer(cfg(cmd, free_port()), tmp_path / "logs")
    with pytest.raises(ServeError) as info:
        server.ensure("m")
    message = str(info.value)
    assert "exited with status 3 before serving" in message and "CUDA out of memory" in message
    assert "\n" not in message
    assert isinstance(info.value, BackendUnavailable)  # infrastructure, never a model failure
    assert server.current is None


@pytest.mark.slow
def test_a_command_that_never_serves_times_out(tmp_path):
    port = free_port()
    # the shell says "loading" at once (a Python start can take longer than the deadline on a busy machine)
    cmd = "echo loading; exec sleep 60"
    server = ModelServer(cfg(cmd, port, timeout=2.0), tmp_path / "logs")
    started = time.monotonic()
    with pytest.raises(ServeError, match=rf"did not serve http://127.0.0.1:{port}/v1/models within 2s: loading"):
        server.ensure("m")
    # does not hang: the poll stops at the deadline rather than the command's 60 s (generous on purpose)
    assert time.monotonic() - started < 30
    assert server._proc is None


def test_without_a_command_nothing_is_started(tmp_path):
    server = ModelServer(cfg(None, free_port()), tmp_path / "logs")
    server.ensure("m")
    assert server.current is None and not (tmp_path / "logs").exists()


def test_command_template_gets_quoted_model_port_and_host(tmp_path):
    server = ModelServer(cfg("vllm serve {model} --host {host} --port {port}", 8123), tmp_path)
    assert server.command("/ckpt/round 1") == "vllm serve '/ckpt/round 1' --host 127.0.0.1 --port 8123"


# a server started in the background by the serve command's shell, slow to exit on SIGTERM (as a
# vLLM server releasing its GPU workers is): the shell ends first, the server still listens
SLOW_SERVER = """
import http.server, signal, sys, time
port, linger = int(sys.argv[1]), float(sys.argv[2])
def slow_exit(*_):
    if linger < 0:
        return  # ignores SIGTERM altogether
    time.sleep(linger)
    raise SystemExit(0)
signal.signal(signal.SIGTERM, slow_exit)
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", port), H).serve_forever()
"""


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.slow
@pytest.mark.parametrize("linger", [0.8, -1.0], ids=["slow-to-exit", "ignores-sigterm"])
def test_stop_returns_only_when_the_whole_group_has_exited(tmp_path, monkeypatch, linger):
    import lemmaforge.training.expert._serving as serving

    monkeypatch.setattr(serving, "STOP_GRACE", 2.0)  # the SIGKILL fallback, sooner than 30 s
    script = tmp_path / "slow.py"
    script.write_text(SLOW_SERVER, encoding="utf-8")
    port = free_port()
    cmd = f"{shlex.quote(sys.executable)} {script} {{port}} {linger} & wait"
    server = ModelServer(cfg(cmd, port), tmp_path / "logs")
    server.ensure("m")
    assert listening(port)
    started = time.monotonic()
    server.stop()
    assert not listening(port)  # the port (and whatever else the server held) is released
    # the 2 s grace, not the 30 s default, with KILL_GRACE (10 s) of room for a busy machine
    assert time.monotonic() - started < 2.0 + serving.KILL_GRACE

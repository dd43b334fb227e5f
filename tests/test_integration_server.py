"""``make integration`` leaves no server behind: the runner's handling of its llama-server child,
tried against a stand-in that behaves like a busy llama-server (it ignores SIGTERM while answering,
and never answers a chat request) and has a child of its own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.llama_server import Server

ROOT = Path(__file__).resolve().parents[1]

STAND_IN = """#!{python}
import http.server, os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a busy llama-server waits for its requests
port = int(sys.argv[sys.argv.index("--port") + 1])
child = subprocess.Popen(["sleep", "600"])
folder = os.environ["STAND_IN_FOLDER"]
with open(os.path.join(folder, "pids"), "w") as f:
    f.write(f"{{os.getpid()}} {{child.pid}}")

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{{}}")

    def do_POST(self):
        open(os.path.join(folder, "asked"), "w").close()
        time.sleep(600)

    def log_message(self, *args):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
"""


@pytest.fixture
def stand_in(tmp_path, monkeypatch):
    path = tmp_path / "llama-server"
    path.write_text(STAND_IN.format(python=sys.executable))
    path.chmod(0o755)
    monkeypatch.setenv("STAND_IN_FOLDER", str(tmp_path))
    return path


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for a parent that does not reap it does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def all_gone(pids: list[int], seconds: float = 10) -> bool:
    """Whether every one of ``pids`` has stopped running within ``seconds``: a SIGKILL to a process
    group is delivered to each member when the kernel next schedules it, which on a loaded machine
    is a moment after the call returns."""
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def wait_for(path: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_server_and_its_children_are_stopped_though_it_ignores_sigterm(stand_in, tmp_path):
    with Server(str(stand_in), "model.gguf", 1, tmp_path / "log") as server:
        pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
        assert all(alive(p) for p in pids) and server.proc is not None
        os.killpg(server.proc.pid, signal.SIGTERM)  # ignored, like a busy llama-server
        time.sleep(0.3)
        assert all(alive(p) for p in pids)
    assert all_gone(pids)
    assert server.proc.returncode == -signal.SIGKILL
    server.stop()  # a second stop is harmless


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_the_runner_stops_a_busy_server(stand_in, tmp_path, signum):
    runner = subprocess.Popen(
        [sys.executable, "-m", "tests.integration.llama_server", "--server", str(stand_in), "--model", "m.gguf"]
        + ["--runs", "vlm-alignbench", "--limit", "1"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_for(tmp_path / "asked")  # the run is waiting for the (never coming) answers
        pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
        runner.send_signal(signum)
        out, _ = runner.communicate(timeout=60)
    finally:
        if runner.poll() is None:
            runner.kill()
    assert runner.returncode == 128 + signum, out
    assert f"stopped by {signal.Signals(signum).name}" in out and "llama-server stopped" in out
    assert all_gone(pids)

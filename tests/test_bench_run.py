"""`cece bench run | show | list` end to end: scores worked out by hand, resuming after a real
SIGKILL, refusing to mix runs, and the vlm judge against a scripted local server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks.loaders import detailverify
from detectors import registry
from detectors.base import Detection, Detector, SpanScore
from detectors.sentence_scores import sentence_scores
from halcece import main

FIXTURES = Path(__file__).parent / "fixtures"
CECE = Path(sys.executable).with_name("cece")


from fixtures import llm_server as llm  # noqa: E402  (tests/ is on sys.path under pytest)
from fixtures.processes import kill_after_lines  # noqa: E402  (tests/ is on sys.path under pytest)


class Keyword(Detector):
    """Flags the caption words in ``words`` (score 1); a fast, transparent test detector."""

    name = "keyword"

    def __init__(self, words: tuple[str, ...] = ("red", "guitar", "pasta")) -> None:
        self.words = {w.lower() for w in words}

    def detect(self, sample):
        caption = sample["caption"]
        spans = [
            SpanScore(m.start(), m.end(), m.group(), 1.0, "keyword")
            for m in re.finditer(r"\w+", caption)
            if m.group().lower() in self.words
        ]
        return Detection(
            sample["id"],
            self.name,
            score=1.0 if spans else 0.0,
            spans=spans,
            sentences=sentence_scores(caption, [(s.start, s.end, s.score) for s in spans]),
        )


@pytest.fixture
def keyword():
    registry.register(Keyword)
    yield
    registry.unregister("keyword")


def bench(*args: str):
    result = CliRunner().invoke(main, ["bench", *map(str, args)], catch_exceptions=False)
    return result


def metrics(rundir: Path) -> dict:
    return json.loads((rundir / "metrics.json").read_text())


# -- scores worked out by hand ---------------------------------------------------------------
def test_hat_run_scores_by_hand_and_resumes(tmp_path, keyword):
    out = tmp_path / "hat"
    r = bench("run", "hat", "--data", FIXTURES / "bench_hat.json", "-d", "keyword", "-o", out)
    assert r.exit_code == 0, r.output
    # flagged: h1 red (hallucinated), h3 guitar (hallucinated), h4 pasta, h6 red (both clean); h5 missed.
    # labels 1 0 1 0 1 0, scores 1 0 1 1 0 1: AP = 2/3 * 1/2 + 1/3 * 1/2; AUROC = 4.5 / 9
    summary = metrics(out)["detectors"]["keyword"]["summary"]
    # marked spans: red, guitar (hits), pasta, red (clean captions): span P = 2/4; gold words red,
    # guitar, Three: gold-word R = 2/3. Keyword gives no verdicts: those columns are None.
    # ECE, 10 bins: bin [0, .1) holds h2, h5 (1 hallucinated, scores sum 0): |1 - 0|; bin [.9, 1]
    # holds h1, h3, h4, h6 (2 hallucinated, scores sum 4): |2 - 4|; (1 + 2) / 6.
    assert summary == pytest.approx(
        {
            "AP": 0.5,
            "AUROC": 0.5,
            "ECE": 0.5,
            "LA": 2 / 3,
            "word P": 0.5,
            "word R": 2 / 3,
            "word F1": 4 / 7,
            "span P": 0.5,
            "gold-word R": 2 / 3,
            "verdict P": None,
            "verdict R": None,
            "flagged clean": None,
            "bal acc": None,
        }
    )
    assert "| keyword | 0.500 | 0.500 | 0.500 | 0.667 |" in r.output
    made = {p.name for p in out.iterdir()}
    assert made >= {"run.json", "metrics.json", "leaderboard.md", "pr_curves.png", "reliability.png", "predictions"}
    assert "![reliability diagram](reliability.png)" in (out / "leaderboard.md").read_text()
    lines = (out / "predictions" / "keyword.jsonl").read_text().splitlines()
    assert len(lines) == 6
    again = bench("run", "hat", "--data", FIXTURES / "bench_hat.json", "-d", "keyword", "-o", out)
    assert re.search(r"\b0 written\b.*\b6 skipped", again.output)
    assert (out / "predictions" / "keyword.jsonl").read_text().splitlines() == lines


def test_foil_run_by_domain_and_pairs(tmp_path, keyword):
    out = tmp_path / "foil"
    r = bench(
        "run",
        "foil",
        "--data",
        FIXTURES / "bench_foil.json",
        "-d",
        "keyword",
        "--option",
        'keyword.words=["eraser", "golf", "rose"]',
        "-o",
        out,
    )
    assert r.exit_code == 0, r.output
    m = metrics(out)["detectors"]["keyword"]
    # pairs: eraser, golf (ball), rose flagged; lion missed -> a tie at 0: (1 + 1 + 1 + 0.5) / 4
    assert m["summary"]["pair acc"] == 0.875 and m["summary"]["LA"] == 0.75  # the lion foil has no span
    assert m["details"]["by_domain"]["out-domain"]["pair acc"] == 0.75
    assert m["details"]["by_domain"]["in-domain"]["n"] == 2
    assert "## By domain" in (out / "leaderboard.md").read_text()


def test_a_run_directory_is_never_mixed(tmp_path, keyword):
    out = tmp_path / "run"
    data = FIXTURES / "bench_hat.json"
    assert bench("run", "hat", "--data", data, "-d", "keyword", "-o", out).exit_code == 0
    r = bench("run", "hat", "--data", data, "-d", "keyword", "--option", 'keyword.words=["red"]', "-o", out)
    assert r.exit_code == 1 and "detector 'keyword' ran with options {}" in r.output
    r = bench("run", "foil", "--data", FIXTURES / "bench_foil.json", "-d", "keyword", "-o", out)
    assert r.exit_code == 1 and "holds a run of benchmark 'hat'" in r.output
    r = bench(
        "run", "hat", "--data", data, "-d", "keyword", "--option", 'keyword.words=["red"]', "-o", out, "--overwrite"
    )
    assert r.exit_code == 0 and metrics(out)["detectors"]["keyword"]["summary"]["word P"] == 0.5


def test_show_merges_runs_in_every_format(tmp_path, keyword):
    hat_run, foil_run = tmp_path / "hat-kw", tmp_path / "foil-kw"
    bench("run", "hat", "--data", FIXTURES / "bench_hat.json", "-d", "keyword", "-o", hat_run)
    bench("run", "foil", "--data", FIXTURES / "bench_foil.json", "-d", "keyword", "-o", foil_run)
    md = bench("show", hat_run, foil_run, "-f", "markdown").output
    assert "## hat" in md and "## foil" in md and "| keyword | hat-kw | 0.500 |" in md
    rows = json.loads(bench("show", hat_run, foil_run, "-f", "json").output)
    assert [(r["benchmark"], r["run"]) for r in rows] == [("hat", "hat-kw"), ("foil", "foil-kw")]
    csv_text = bench("show", hat_run, foil_run, "-f", "csv").output
    assert csv_text.splitlines()[0].startswith("benchmark,run,detector,AP,AUROC,ECE,LA")
    assert "keyword" in bench("show", hat_run).output and "ECE" in bench("show", hat_run).output
    assert bench("show", tmp_path).exit_code == 1  # not a run
    listing = bench("list").output
    assert all(name in listing for name in ("hat", "foil", "alignbench", "detailverify"))


class Decider(Detector):
    """Scores caption words from ``weights`` and decides: hallucinated when its score (the top
    word score) is at least its own ``threshold``, which also marks its spans."""

    name = "decider"

    def __init__(self, weights=None, threshold: float = 0.35) -> None:
        self.weights = weights or {"red": 0.6, "guitar": 0.9, "pasta": 0.9, "three": 0.4}
        self.threshold = threshold

    def detect(self, sample):
        spans = [
            SpanScore(m.start(), m.end(), m.group(), self.weights[m.group().lower()], "word")
            for m in re.finditer(r"\w+", sample["caption"])
            if m.group().lower() in self.weights
        ]
        score = max((s.score for s in spans), default=0.0)
        return Detection(
            sample["id"],
            self.name,
            score=score,
            spans=spans,
            hallucinated=score >= self.threshold,
            threshold=self.threshold,
        )


@pytest.fixture
def decider():
    registry.register(Decider)
    yield
    registry.unregister("decider")


def test_detectors_with_and_without_verdicts_in_one_leaderboard(tmp_path, keyword, decider):
    out = tmp_path / "hat-both"
    r = bench("run", "hat", "--data", FIXTURES / "bench_hat.json", "-d", "keyword", "-d", "decider", "-o", out)
    assert r.exit_code == 0, r.output
    line = json.loads((out / "predictions" / "decider.jsonl").read_text().splitlines()[0])
    assert line["hallucinated"] is True and line["threshold"] == 0.35
    assert "hallucinated" not in (out / "predictions" / "keyword.jsonl").read_text()
    dets = metrics(out)["detectors"]
    # decider, labels 1 0 1 0 1 0: scores .6 0 .9 .9 .4 .6 -> verdicts 1 0 1 1 1 1 (own threshold .35):
    # TP 3, FP 2, TN 1, FN 0 -> P 3/5, R 1, flagged clean 2/3, bal acc (1 + 1/3) / 2.
    # Marked at .35: red, guitar, Three (hits), pasta, red (clean captions) -> span P 3/5, gold-word R 1;
    # word R keeps the run's threshold .5, where Three (.4) is not predicted: 2/3.
    s = dets["decider"]["summary"]
    assert {
        k: s[k] for k in ("verdict P", "verdict R", "flagged clean", "bal acc", "span P", "gold-word R", "word R")
    } == pytest.approx(
        {
            "verdict P": 0.6,
            "verdict R": 1.0,
            "flagged clean": 2 / 3,
            "bal acc": 2 / 3,
            "span P": 0.6,
            "gold-word R": 1.0,
            "word R": 2 / 3,
        }
    )
    # ECE: bins [0, .1) {0: label 0}, [.4, .5) {.4: 1}, [.6, .7) {.6: 1, .6: 0}, [.9, 1] {.9: 1, .9: 0}:
    # (|0 - 0| + |1 - .4| + |1 - 1.2| + |1 - 1.8|) / 6
    assert s["ECE"] == pytest.approx(1.6 / 6)
    assert dets["decider"]["details"]["verdicts"] == 6 and dets["keyword"]["details"]["verdicts"] == 0
    k = dets["keyword"]["summary"]
    assert k["verdict P"] is None and k["bal acc"] is None and k["span P"] == 0.5
    board = (out / "leaderboard.md").read_text()
    cells = [
        [c.strip() for c in x.strip("|").split("|")]
        for x in board.splitlines()
        if x.startswith(("| detector |", "| keyword |", "| decider |"))
    ]
    table = {row[0]: dict(zip(cells[0], row, strict=True)) for row in cells[1:]}
    new = ["span P", "gold-word R", "verdict P", "verdict R", "flagged clean", "bal acc"]
    assert [table["keyword"][c] for c in new] == ["0.500", "0.667", "–", "–", "–", "–"]
    assert [table["decider"][c] for c in new] == ["0.600", "1.000", "0.600", "1.000", "0.667", "0.667"]
    assert "| decider |" in board and "None" not in board and "nan" not in board
    # every `bench show` format renders the missing verdicts cleanly
    md = bench("show", out, "-f", "markdown").output
    assert "| keyword | hat-both |" in md and "| – | – | – | – |" in md and "None" not in md
    rows = {r["detector"]: r for r in json.loads(bench("show", out, "-f", "json").output)}
    assert rows["keyword"]["verdict P"] is None and rows["decider"]["verdict P"] == pytest.approx(0.6)
    csv_lines = bench("show", out, "-f", "csv").output.splitlines()
    cols = csv_lines[0].split(",")
    kw = next(x for x in csv_lines if x.startswith("hat,hat-both,keyword,")).split(",")
    assert kw[cols.index("verdict P")] == "" and kw[cols.index("span P")] == "0.5"
    table = bench("show", out).output
    assert "verdict P" in table and "–" in table and "None" not in table and "nan" not in table


def test_old_prediction_lines_without_verdict_fields_are_scored(tmp_path):
    from benchmarks.evaluate import evaluate_captions
    from benchmarks.loaders import hat
    from benchmarks.run import read_predictions

    path = tmp_path / "old.jsonl"
    path.write_text(
        json.dumps(
            {
                "id": "h1",
                "detector": "old",
                "score": 0.9,
                "error": None,
                "sentences": [],
                "spans": [{"start": 24, "end": 27, "text": "red", "score": 0.9, "label": None}],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    found = read_predictions(path)
    assert found["h1"].hallucinated is None and found["h1"].threshold is None
    _, gold = hat.load(FIXTURES / "bench_hat.json")
    e = evaluate_captions(gold, found)
    assert e.summary["verdict P"] is None and e.summary["span P"] == 1.0
    assert e.summary["gold-word R"] == pytest.approx(1 / 3) and e.counts["errors"] == 5


# -- kill -9 and resume ----------------------------------------------------------------------
def _big_hat(path: Path, n: int) -> Path:
    words = ["dog", "cat", "horse", "car", "bench", "tree", "boat", "kite", "man", "woman", "table"]
    records = []
    for k in range(n):
        a, b, c = words[k % 11], words[(k * 7 + 3) % 11], ["red", "blue", "small", "wooden"][k % 4]
        caption = f"A {c} {a} next to a {b}."
        records.append(
            {
                "sample_id": f"s{k:04d}",
                "caption": caption,
                "contains_hallucination": k % 3 == 0,
                "grounding": [[w, k % 3 == 0 and w == c] for w in caption.split()],
                "references": [f"A {a} near a {b}.", f"The {b} and the {a}."],
                "image_path": f"{k}.jpg",
            }
        )
    path.write_text(json.dumps(records))
    return path


def test_sigkill_mid_run_then_rerun_gives_the_uninterrupted_predictions(tmp_path):
    data = _big_hat(tmp_path / "hat.json", 400)
    cmd = [str(CECE), "bench", "run", "hat", "--data", str(data), "-d", "lexical", "--batch-size", "1", "-o"]
    subprocess.run(cmd + [str(tmp_path / "full")], check=True, capture_output=True, timeout=120)
    killed = tmp_path / "killed"
    pred = killed / "predictions" / "lexical.jsonl"
    kill_after_lines(cmd + [str(killed)], pred, 40)
    written = pred.read_bytes().count(b"\n")
    assert 40 <= written < 400 and not (killed / "metrics.json").exists()
    with pred.open("ab") as f:
        f.write(b'{"id": "s0')  # what a kill in the middle of a write leaves behind
    rerun = subprocess.run(cmd + [str(killed)], check=True, capture_output=True, text=True, timeout=120)
    assert re.search(rf"\b{400 - written} written\b.*\b{written} skipped", rerun.stderr)
    full = (tmp_path / "full" / "predictions" / "lexical.jsonl").read_bytes()
    assert pred.read_bytes() == full  # nothing lost, nothing doubled, same order
    ids = [json.loads(line)["id"] for line in full.splitlines()]
    assert len(ids) == len(set(ids)) == 400
    assert metrics(killed)["detectors"] == metrics(tmp_path / "full")["detectors"]


# -- the vlm judge against the scripted server -----------------------------------------------
def _backend(server) -> str:
    return "vlm.backend=" + json.dumps({"base_url": server.url, "model": "judge", "backoff": 0.01, "max_workers": 4})


def test_vlm_alignbench_protocol_end_to_end(tmp_path):
    root = tmp_path / "images"
    for rel in ("val2014/COCO_val2014_000000000042.jpg", "images/sd/7.png"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(llm.PNG)
    wrong = {
        "He wears a red hat.",
        "Two dogs run beside him.",
        "A knife lies next to it.",
        "A glass of milk stands behind the apple.",
    }

    def judge(body, n):
        sentence = re.search(r'Sentence to judge: "(.*)"', llm.prompt_of(body)).group(1)
        return json.dumps({"score": 10 if sentence in wrong else 95})

    out = tmp_path / "ab"
    with llm.ScriptedServer(judge) as server:
        r = bench(
            "run",
            "alignbench",
            "--data",
            FIXTURES / "bench_alignbench.jsonl",
            "--images",
            root,
            "-d",
            "vlm",
            "--option",
            "vlm.protocol=alignbench",
            "--option",
            _backend(server),
            "-o",
            out,
        )
        assert r.exit_code == 0, r.output
        assert server.count == 10 and all(llm.images_of(b) for b in server.bodies)  # every sentence, with its image
    m = metrics(out)["detectors"]["vlm"]
    assert m["summary"]["AUROC"] == 1.0 and (m["valid"], m["errors"], m["parse_failures"]) == (4, 0, 0)
    assert m["details"]["auroc_by_captioner"] == {"gpt4o": 1.0, "llava": 1.0}
    assert m["details"]["n_sentences"] == 9  # the unknown sentence is judged but not scored
    by_pos = m["details"]["mean_score_by_position"]
    assert by_pos["0"]["correct"]["mean"] == pytest.approx(0.05)
    assert by_pos["1"]["incorrect"]["mean"] == pytest.approx(0.9)
    assert m["details"]["mean_score_by_error_type"]["object"]["n"] == 3
    assert (out / "score_by_position.png").exists()
    # sentence ECE: 5 correct ones scored .05 (bin [0, .1]: |0 - .25|), 4 incorrect scored .9
    # (bin (.8, .9]: |4 - 3.6|), over 9 sentences
    assert m["details"]["incorrect"] == 4 and m["summary"]["ECE"] == pytest.approx(0.65 / 9)
    assert (out / "reliability.png").exists()
    assert "## AUROC per captioner" in (out / "leaderboard.md").read_text()


def test_vlm_detailverify_protocol_end_to_end(tmp_path):
    data = FIXTURES / "bench_dvb_real.jsonl"
    samples, gold = detailverify.load(data)
    root = tmp_path / "test"
    for line in data.read_text().splitlines():
        rec = json.loads(line)
        (root / rec["category"]).mkdir(parents=True, exist_ok=True)
        (root / rec["category"] / rec["filename"]).write_bytes(llm.PNG)
    answers = {g.caption: g.tagged for g in gold.values()}  # a judge that knows the answers

    def judge(body, n):
        caption = re.search(r"Here is a caption of the image:\n(.*)\nFind the words", llm.prompt_of(body)).group(1)
        return f"<result>{answers[caption]}</result>"

    out = tmp_path / "dvb"
    with llm.ScriptedServer(judge) as server:
        r = bench(
            "run",
            "detailverify",
            "--data",
            data,
            "--images",
            root,
            "-d",
            "vlm",
            "--option",
            "vlm.protocol=detailverify",
            "--option",
            _backend(server),
            "-o",
            out,
        )
        assert r.exit_code == 0, r.output
        assert server.count == len(samples)
    real = metrics(out)["detectors"]["vlm"]["details"]["real"]
    # 5 of 6 captions hold hallucinations: F1 = 1 on each, 0 on the clean one (the official convention)
    for mode in ("official", "aligned"):
        assert real[mode]["token"] == pytest.approx({"precision": 5 / 6, "recall": 5 / 6, "f1": 5 / 6, "iou": 1.0})
        assert all(v["recall"] == 1.0 for v in real[mode]["types"].values())
    assert "| vlm | official |" in (out / "leaderboard.md").read_text()

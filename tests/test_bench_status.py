"""Benchmark runs that never lie: a run without data says where to put it; a
detector with no valid prediction shows n/a with its error and parse-failure counts, never a
figure computed from failures; DetailVerifyBench drops failed detections as its own pipeline
does, and counts them; secrets in detector options never reach the run directory."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks import dvb_metrics as dm
from benchmarks.evaluate import evaluate
from benchmarks.loaders import alignbench, detailverify
from benchmarks.run import DATA_HELP, NoDataError, RunError, load_data, redact, run_benchmark
from detectors import registry
from detectors.base import Detection, Detector, SpanScore
from halcece import main

FIXTURES = Path(__file__).parent / "fixtures"
README = Path(__file__).parent.parent / "README.md"

from fixtures import llm_server as llm  # noqa: E402  (tests/ is on sys.path under pytest)


def bench(*args: str):
    return CliRunner().invoke(main, ["bench", *map(str, args)], catch_exceptions=False)


def metrics(rundir: Path) -> dict:
    return json.loads((rundir / "metrics.json").read_text())


class Flagger(Detector):
    """Flags every word ``red``; fails (with ``parse_failures`` 2) on the ids in ``fail``, or on
    every sample when ``fail`` is ``"all"``."""

    name = "flagger"

    def __init__(self, fail: list[str] | str = ()) -> None:
        self.fail = fail

    def detect(self, sample):
        if self.fail == "all" or sample["id"] in self.fail:
            return Detection(sample["id"], self.name, error="model answer unreadable", details={"parse_failures": 2})
        spans = [SpanScore(m.start(), m.end(), m.group(), 1.0) for m in re.finditer(r"\bred\b", sample["caption"])]
        return Detection(sample["id"], self.name, score=float(bool(spans)), spans=spans, details={"parse_failures": 0})


@pytest.fixture
def flagger():
    registry.register(Flagger)
    yield
    registry.unregister("flagger")


# -- a benchmark with no data says where to put it -------------------------------------------
def test_the_readme_has_the_section_the_message_names():
    text = README.read_text(encoding="utf-8")
    assert "## Benchmarks" in text and "### Getting the data" in text
    assert text.index("### Getting the data") > text.index("## Benchmarks")
    assert '"Benchmarks", "Getting the data"' in DATA_HELP


@pytest.mark.parametrize("content", [None, "", "\n \n", "[]"])
def test_no_data_names_the_expected_file_and_the_readme(tmp_path, content):
    data = tmp_path / "halcap_bench.jsonl"
    if content is not None:
        data.write_text(content)
    with pytest.raises(NoDataError) as err:
        run_benchmark("alignbench", data, tmp_path / "run", detectors={})
    message = str(err.value)
    assert "halcap_bench.jsonl of omron-sinicx/AlignBench" in message and DATA_HELP in message
    assert ("does not exist" if content is None else "no rows") in message
    assert not (tmp_path / "run").exists()  # nothing written, no leaderboard of failures
    with pytest.raises(NoDataError, match="no data file given"):
        load_data("detailverify", None)
    with pytest.raises(NoDataError, match="is not a file"):
        load_data("hat", tmp_path)


def test_cli_run_on_an_empty_file_fails_with_the_message(tmp_path, flagger):
    data = tmp_path / "empty.jsonl"
    data.write_text("")
    r = bench("run", "alignbench", "--data", data, "-d", "flagger", "-o", tmp_path / "run")
    assert r.exit_code != 0
    assert "halcap_bench.jsonl" in r.output and "Getting the data" in r.output
    assert "0.500" not in r.output and "0.250" not in r.output and not (tmp_path / "run").exists()


@pytest.mark.parametrize("data", [None, "missing.jsonl"])
def test_cli_run_without_data_names_the_file_to_get(tmp_path, flagger, data):
    """No --data at all (not click's "Missing option") or one that does not exist: the message
    says which file --data expects and where the README tells how to get it; exit status 1."""
    where = [] if data is None else ["--data", tmp_path / data]
    r = bench("run", "alignbench", *where, "-d", "flagger", "-o", tmp_path / "run")
    assert r.exit_code == 1, r.output
    assert "Missing option" not in r.output
    assert "no data file given" in r.output if data is None else "does not exist" in r.output
    assert "halcap_bench.jsonl of omron-sinicx/AlignBench" in r.output and "Getting the data" in r.output
    assert not (tmp_path / "run").exists()


def test_a_malformed_record_stays_a_data_error_with_its_place(tmp_path):
    data = tmp_path / "bad.jsonl"
    data.write_text('{"model": "m"}\n')
    with pytest.raises(ValueError) as err:
        load_data("alignbench", data)
    assert not isinstance(err.value, NoDataError) and "line 1" in str(err.value)


# -- no valid prediction: n/a with the counts ------------------------------------------------
def test_every_sample_failed_gives_na_never_auroc_half(tmp_path):
    """The reported case: AlignBench, the judge's answers all unreadable -> AUROC .500 / AP .250."""
    root = tmp_path / "images"
    for rel in ("val2014/COCO_val2014_000000000042.jpg", "images/sd/7.png"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(llm.PNG)
    out = tmp_path / "ab"
    backend = json.dumps({"base_url": "http://x", "model": "judge", "backoff": 0.01})
    with llm.ScriptedServer(lambda body, n: "Hmm, let me look at the picture again later.") as server:
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
            f"vlm.image_root={root}",
            "--option",
            "vlm.backend=" + backend.replace("http://x", server.url),
            "-o",
            out,
        )
        assert server.count == 10
    m = metrics(out)["detectors"]["vlm"]
    assert (m["valid"], m["errors"], m["parse_failures"], m["dropped"]) == (0, 4, 10, 0)
    assert m["summary"] and all(v is None for v in m["summary"].values()) and m["details"] == {}
    board = (out / "leaderboard.md").read_text()
    row = next(line for line in board.splitlines() if line.startswith("| vlm |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:6] == ["n/a"] * 5 and cells[-2:] == ["4", "10"]
    assert "`vlm` has no valid prediction to score (4 errors, 10 parse failures" in board
    for text in (board, r.output):
        assert "0.500" not in text and "0.250" not in text
    assert not (out / "pr_curves.png").exists()
    shown = json.loads(bench("show", out, "-f", "json").output)[0]
    assert shown["AUROC"] == "n/a" and shown["errors"] == 4 and shown["parse failures"] == 10
    assert "n/a" in bench("show", out).output


def test_one_failed_detector_beside_a_working_one(tmp_path, flagger):
    out = tmp_path / "hat"
    r = bench("run", "hat", "--data", FIXTURES / "bench_hat.json", "-d", "flagger", "-o", out)
    assert r.exit_code == 0, r.output
    r = bench(
        "run",
        "hat",
        "--data",
        FIXTURES / "bench_hat.json",
        "-d",
        "flagger",
        "-o",
        out,
        "--overwrite",
        "--option",
        'flagger.fail="all"',
    )
    dets = metrics(out)["detectors"]
    assert (dets["flagger"]["valid"], dets["flagger"]["errors"], dets["flagger"]["parse_failures"]) == (0, 6, 12)
    # the same detector, failing on two samples only: scored, the failures counted (as score 0)
    part = tmp_path / "part"
    bench(
        "run",
        "hat",
        "--data",
        FIXTURES / "bench_hat.json",
        "-d",
        "flagger",
        "-o",
        part,
        "--option",
        'flagger.fail=["h1", "h2"]',
    )
    m = metrics(part)["detectors"]["flagger"]
    assert (m["valid"], m["errors"], m["parse_failures"]) == (4, 2, 4) and m["summary"]["AP"] is not None
    md = bench("show", out, part, "-f", "markdown").output
    assert re.search(r"\| flagger \| hat \| n/a \| n/a \|.*\| 6 \| 12 \|", md)
    assert re.search(r"\| flagger \| part \| 0\.\d{3} \|.*\| 2 \| 4 \|", md)
    csv_rows = bench("show", out, "-f", "csv").output.splitlines()
    assert csv_rows[0].endswith(",errors,parse failures") and ",n/a," in csv_rows[1]


def test_evaluate_with_nothing_valid_reports_only_counts():
    _, gold = alignbench.load(FIXTURES / "bench_alignbench.jsonl")
    failed = {i: Detection(i, "x", error="timeout") for i in gold}
    e = evaluate("alignbench", gold, failed)
    assert set(e.summary) >= {"AUROC", "AP"} and all(v is None for v in e.summary.values())
    assert (
        e.curve is None and e.details == {} and e.counts == {"valid": 0, "errors": 4, "parse_failures": 0, "dropped": 0}
    )


def test_an_unscored_sentence_is_not_given_its_neighbours_score():
    from benchmarks.evaluate import sentence_score
    from detectors.base import SentenceScore

    d = Detection("a", "vlm", score=0.9, sentences=[SentenceScore(0, 10, 0.9)])  # sentence 2 unscored
    assert sentence_score(d, 0, 10) == 0.9 and sentence_score(d, 11, 20) == 0.0


# -- DetailVerifyBench drops failed detections, as its pipeline does -------------------------
def _dvb_dets(gold, fail):
    out = {}
    for i, g in gold.items():
        if i in fail:
            out[i] = Detection(
                i, "oracle", error="no valid tagged caption after 3 attempts", details={"parse_failures": 3}
            )
        else:  # tags the gold spans but the last: a caption with one (missing_06) gets none
            spans = [SpanScore(a, b, g.caption[a:b], 1.0) for a, b, _ in g.spans[:-1]]
            out[i] = Detection(i, "oracle", score=float(bool(spans)), spans=spans, details={"parse_failures": 1})
    return out


def test_dvb_failed_detections_are_dropped_and_counted():
    _, gold = detailverify.load(FIXTURES / "bench_dvb_real.jsonl")
    fail = {"chart_02.png", "room_03.jpg"}
    e = evaluate("detailverify", gold, _dvb_dets(gold, fail))
    assert e.counts == {"valid": 4, "errors": 2, "parse_failures": 4 * 1 + 2 * 3, "dropped": 2}
    kept = [i for i in gold if i not in fail]
    answers = [
        detailverify.to_tagged(gold[i].caption, [(s.start, s.end) for s in _dvb_dets(gold, fail)[i].spans])
        for i in kept
    ]
    answers = [a if "<HALLUCINATION>" in a else "NO HALLUCINATION" for a in answers]
    assert answers.count("NO HALLUCINATION") == 1 == e.details["real"]["official"]["no_hallucination_expanded"]
    expected = dm.official_scores([gold[i].tagged for i in kept], answers, [gold[i].label_records for i in kept])
    got = e.details["real"]
    assert got["dropped"] == 2 and got["official"]["n"] == 4 == got["aligned"]["n"]
    assert got["official"]["token"] == pytest.approx(expected["token"])
    assert got["official"]["split_half"] == expected["split_half"]
    assert e.summary["real tok F1"] == pytest.approx(expected["token"]["f1"])
    # what the old scoring did -- failures as empty answers -- gives other (lower) figures
    empty = dm.official_scores(
        [gold[i].tagged for i in gold],
        [answers[kept.index(i)] if i in kept else "" for i in gold],
        [gold[i].label_records for i in gold],
    )
    assert empty["token"]["f1"] < got["official"]["token"]["f1"]


def test_dvb_a_split_with_nothing_valid_has_no_figures():
    _, gold = detailverify.load(FIXTURES / "bench_dvb_real.jsonl")
    e = evaluate("detailverify", gold, _dvb_dets(gold, set(gold)))
    assert e.counts["dropped"] == len(gold) and all(v is None for v in e.summary.values())


class Oracle(Detector):
    """Tags the gold spans of the DetailVerifyBench real fixture; fails on ``fail``."""

    name = "oracle"

    def __init__(self, fail: list[str] = ()) -> None:
        self.fail = set(fail)
        self.gold = detailverify.load(FIXTURES / "bench_dvb_real.jsonl")[1]

    def detect(self, sample):
        return _dvb_dets({sample["id"]: self.gold[sample["id"]]}, self.fail)[sample["id"]]


def test_dvb_run_reports_dropped_in_metrics_and_leaderboard(tmp_path):
    registry.register(Oracle)
    try:
        out = tmp_path / "dvb"
        r = bench(
            "run",
            "detailverify",
            "--data",
            FIXTURES / "bench_dvb_real.jsonl",
            "-d",
            "oracle",
            "-o",
            out,
            "--option",
            'oracle.fail=["chart_02.png", "room_03.jpg"]',
        )
        assert r.exit_code == 2, r.output  # predictions with an error
    finally:
        registry.unregister("oracle")
    m = metrics(out)["detectors"]["oracle"]
    assert (m["valid"], m["errors"], m["dropped"], m["parse_failures"]) == (4, 2, 2, 10)
    assert m["details"]["real"]["official"]["no_hallucination_expanded"] == 1  # missing_06: nothing tagged
    board = (out / "leaderboard.md").read_text()
    header = next(line for line in board.splitlines() if line.startswith("| detector |"))
    assert header.rstrip(" |").endswith("| errors | parse failures | dropped")
    assert "| oracle | official | 4 | 2 |" in board and "Official split-half figures" in board


# -- secrets never reach the run directory ---------------------------------------------------
def test_redact_names_and_urls():
    opts = {
        "api_key": "sk-1",
        "API_TOKEN": 5,
        "client_secret": ["a"],
        "Password": "pw",
        "passwd": "p2",
        "backend": {"base_url": "https://ann:hunter2@h/v1?token=t0k&x=1", "model": "m", "key_file": None},
        "prompt": "uses sk-1 inside",
        "n": 2,
        "words": ["red"],
    }
    assert redact(opts) == {
        "api_key": "***",
        "API_TOKEN": "***",
        "client_secret": "***",
        "Password": "***",
        "passwd": "***",
        "backend": {"base_url": "https://***@h/v1?token=***&x=1", "model": "m", "key_file": None},
        "prompt": "uses *** inside",
        "n": 2,
        "words": ["red"],
    }


def _everything_under(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def test_secrets_in_options_are_never_written(tmp_path):
    key, password = "sk-SECRET-4711", "hunter2-PASS"
    root = tmp_path / "images"
    for rel in ("val2014/COCO_val2014_000000000042.jpg", "images/sd/7.png"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(llm.PNG)

    def judge(body, n):  # a careless server that echoes the caller's credentials in an error
        sentence = re.search(r'Sentence to judge: "(.*)"', llm.prompt_of(body)).group(1)
        if sentence.startswith("Two dogs"):
            return llm.Reply(
                status=400,
                body=json.dumps(
                    {"error": f"bad request from {key} / {password} at http://ann:{password}@host"}
                ).encode(),
            )
        return json.dumps({"score": 90})

    out = tmp_path / "ab"
    with llm.ScriptedServer(judge) as server:
        url = server.url.replace("http://", f"http://ann:{password}@")
        backend = {"base_url": url, "model": "judge", "api_key": key, "backoff": 0.01}
        args = [
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
            f"vlm.image_root={root}",
            "-o",
            out,
        ]
        r = bench(*args, "--option", "vlm.backend=" + json.dumps(backend))
        assert r.exit_code == 2, r.output  # a prediction has an error
        assert server.headers[0]["Authorization"] == f"Bearer {key}"  # it was really used
        # the same run again resumes (a redacted manifest still matches) ...
        again = bench(*args, "--option", "vlm.backend=" + json.dumps(backend))
        # the error row is retried, the three good predictions are skipped
        assert again.exit_code == 2 and re.search(r"\b3 skipped", again.output), again.output
        # ... and a different model is refused without the secret in the message
        other = bench(*args, "--option", "vlm.backend=" + json.dumps(backend | {"model": "other"}))
        assert other.exit_code != 0 and "ran with options" in other.output
        for text in (r.output, again.output, other.output):
            assert key not in text and password not in text
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["detectors"]["vlm"]["backend"]["api_key"] == "***"
    assert manifest["detectors"]["vlm"]["backend"]["base_url"].startswith("http://***@127.0.0.1")
    m = metrics(out)["detectors"]["vlm"]
    assert (m["valid"], m["errors"]) == (3, 1)  # the caption with the refused sentence: an error row
    everything = _everything_under(out)
    assert b"http" in everything and key.encode() not in everything and password.encode() not in everything


def test_library_runs_and_old_manifests_are_redacted_too(tmp_path, flagger):
    out = tmp_path / "run"
    secret = {"token": "tok-LIB-555", "endpoint": "https://u:pw-LIB-777@h/x?api_key=k-LIB-999"}
    (out).mkdir()
    # a manifest from before redaction, holding the secrets in clear
    (out / "run.json").write_text(
        json.dumps(
            {
                "benchmark": "hat",
                "data": str((FIXTURES / "bench_hat.json").resolve()),
                "images": None,
                "detectors": {"flagger": secret},
            }
        )
    )
    run_benchmark(
        "hat", FIXTURES / "bench_hat.json", out, detectors={"flagger": Flagger()}, options={"flagger": secret}
    )
    everything = _everything_under(out)
    for s in (b"tok-LIB-555", b"pw-LIB-777", b"k-LIB-999"):
        assert s not in everything
    with pytest.raises(RunError) as err:
        run_benchmark(
            "hat",
            FIXTURES / "bench_hat.json",
            out,
            detectors={"flagger": Flagger()},
            options={"flagger": secret | {"words": ["blue"]}},
        )
    assert "tok-LIB-555" not in str(err.value) and "***" in str(err.value)

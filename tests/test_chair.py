"""CHAIR: COCO object mentions, the chair detector, CHAIRs / CHAIRi in the benchmarks and the
report, against figures computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cece.cli import main
from cece.metrics import chair_i, chair_s
from detectors.chair import CHAIRDetector
from parsers.coco_objects import coco_categories, coco_mentions

FIXTURES = Path(__file__).parent / "fixtures"

# Hand-counted: (hallucinated mentions, mentions) per sample.
SAMPLES = [
    # plurals and synonyms: puppies -> dog, kitten -> cat, sofa -> couch; the cat is not there
    ({"id": "pets", "caption": "Two puppies and a kitten on a sofa.",
      "references": ["A dog on a couch.", "Dogs sleeping on a sofa."]}, ["kitten"], 3),
    # two-word phrases read first: "teddy bear" and "hot dog" (no bear, no dog)
    ({"id": "toys", "caption": "A teddy bear next to a hot dog.",
      "references": ["A teddybear beside a hot dog.", "A stuffed toy and food."]}, [], 2),
    # "baby elephant" is an elephant, not a person; "toilet seat" is the toilet; the chair is wrong
    ({"id": "zoo", "caption": "A baby elephant near a toilet seat and a chair.",
      "annotation": ["elephant", "toilet"]}, ["chair"], 3),
    # an object seen only in the references: the man is the references' boy (both: person)
    ({"id": "kite", "caption": "A man with a kite.", "references": ["A boy flying a kite."]}, [], 2),
]


def test_mentions_follow_the_published_rules():
    assert [(m.word, m.category) for m in coco_mentions("Two puppies and a kitten on a sofa.")] == [
        ("puppy", "dog"), ("kitten", "cat"), ("sofa", "couch")]
    assert [m.category for m in coco_mentions("A baby elephant near a toilet seat.")] == ["elephant", "toilet"]
    assert [m.category for m in coco_mentions("A passenger jet and a bow tie.")] == ["airplane", "tie"]
    assert [m.category for m in coco_mentions("A wooden seat in a park.")] == ["chair"]
    text = "Children eat hot dogs."
    assert [(m.category, text[m.span[0]:m.span[1]]) for m in coco_mentions(text)] == [
        ("person", "Children"), ("hot dog", "hot dogs")]
    assert coco_categories(["a lap", "the sky"]) == set()


@pytest.mark.parametrize("sample, wrong, n", SAMPLES, ids=[s["id"] for s, _, _ in SAMPLES])
def test_detector_per_sample(sample, wrong, n):
    d = CHAIRDetector().detect(sample)
    assert [s.text for s in d.spans] == wrong
    assert len(d.details["mentions"]) == n and d.hallucinated is bool(wrong)
    assert d.score == pytest.approx(len(wrong) / n)
    assert [m["word"] for m in d.details["hallucinated_objects"]] == [
        m["word"] for m in d.details["mentions"] if m["category"] not in d.details["categories"]]


def test_chair_s_and_chair_i_by_hand():
    dets = CHAIRDetector().detect_batch([s for s, _, _ in SAMPLES])
    hal = [len(d.details["hallucinated_objects"]) for d in dets]
    total = [len(d.details["mentions"]) for d in dets]
    assert chair_s(h > 0 for h in hal) == 2 / 4
    assert chair_i(hal, total) == 2 / 10


def test_cli_detect_and_bench(tmp_path):
    src = tmp_path / "samples.jsonl"
    src.write_text("".join(json.dumps(s) + "\n" for s, _, _ in SAMPLES) + json.dumps({"id": "bare", "caption": "A dog."}) + "\n")
    out = tmp_path / "det.jsonl"
    r = CliRunner().invoke(main, ["detect", "-d", "chair", str(src), "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    rows = {x["id"]: x for x in map(json.loads, out.read_text().splitlines())}
    assert rows["pets"]["details"]["hallucinated_objects"][0]["category"] == "cat"
    assert "needs 'annotation' or 'references'" in rows["bare"]["error"]
    run = tmp_path / "run"
    r = CliRunner().invoke(main, ["bench", "run", "hat", "--data", str(FIXTURES / "bench_hat.json"), "-d", "chair",
                                  "-o", str(run)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    summary = json.loads((run / "metrics.json").read_text())["detectors"]["chair"]["summary"]
    dets = [json.loads(x) for f in (run / "predictions").glob("*chair*") for x in f.read_text().splitlines()]
    flagged = [bool(d["details"]["hallucinated_objects"]) for d in dets]
    assert flagged and summary["CHAIRs"] == pytest.approx(sum(flagged) / len(flagged))
    assert 0.0 <= summary["CHAIRi"] <= 1.0


def test_report_shows_chair(tmp_path):
    src = tmp_path / "captions.jsonl"
    src.write_text("".join(json.dumps({**s, "model": "m"}) + "\n" for s, _, _ in SAMPLES))
    r = CliRunner().invoke(main, ["report", str(src), "-o", str(tmp_path / "rep")], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    html = (tmp_path / "rep" / "index.html").read_text()
    assert "CHAIRs" in html and "CHAIRi" in html
    [row] = json.loads((tmp_path / "rep" / "tables.json").read_text())["tables"]["objects"]
    assert (row["chair_s"], row["chair_i"]) == (0.5, 0.2)

"""CHAIR: COCO object mentions, the chair detector, CHAIRs / CHAIRi in the benchmarks and the
report, against figures computed by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.chair_metrics import chair_i, chair_s
from cece import metrics
from detectors.chair import CHAIRDetector
from halcece import main
from parsers.coco_objects import coco_categories, coco_mentions, synonyms

FIXTURES = Path(__file__).parent / "fixtures"

# Hand-counted: (hallucinated mentions, mentions) per sample.
SAMPLES = [
    # plurals and synonyms: puppies -> dog, kitten -> cat, sofa -> couch; the cat is not there
    (
        {
            "id": "pets",
            "caption": "Two puppies and a kitten on a sofa.",
            "references": ["A dog on a couch.", "Dogs sleeping on a sofa."],
        },
        ["kitten"],
        3,
    ),
    # two-word phrases read first: "teddy bear" and "hot dog" (no bear, no dog)
    (
        {
            "id": "toys",
            "caption": "A teddy bear next to a hot dog.",
            "references": ["A teddybear beside a hot dog.", "A stuffed toy and food."],
        },
        [],
        2,
    ),
    # "baby elephant" is an elephant, not a person; "toilet seat" is the toilet; the chair is wrong
    (
        {
            "id": "zoo",
            "caption": "A baby elephant near a toilet seat and a chair.",
            "annotation": ["elephant", "toilet"],
        },
        ["chair"],
        3,
    ),
    # an object seen only in the references: the man is the references' boy (both: person)
    ({"id": "kite", "caption": "A man with a kite.", "references": ["A boy flying a kite."]}, [], 2),
]


def test_mentions_follow_the_published_rules():
    assert [(m.word, m.category) for m in coco_mentions("Two puppies and a kitten on a sofa.")] == [
        ("puppy", "dog"),
        ("kitten", "cat"),
        ("sofa", "couch"),
    ]
    assert [m.category for m in coco_mentions("A baby elephant near a toilet seat.")] == ["elephant", "toilet"]
    assert [m.category for m in coco_mentions("A passenger jet and a bow tie.")] == ["airplane", "tie"]
    assert [m.category for m in coco_mentions("A wooden seat in a park.")] == ["chair"]
    text = "Children eat hot dogs."
    assert [(m.category, text[m.span[0] : m.span[1]]) for m in coco_mentions(text)] == [
        ("person", "Children"),
        ("hot dog", "hot dogs"),
    ]
    assert coco_categories(["a lap", "the sky"]) == set()


def test_plurals_that_wordnet_also_lists_as_words_are_singularised():
    # WordNet lists "men" and "cows" as lemmas of their own; CHAIR reads them as man and cow
    assert [(m.word, m.category) for m in coco_mentions("Two men herd cows.")] == [("man", "person"), ("cow", "cow")]
    # the table's own words stay ("people"), and the second word of a phrase is singularised too
    assert [m.word for m in coco_mentions("People hold wine glasses and teddy bears.")] == [
        "people",
        "wine glass",
        "teddy bear",
    ]
    assert coco_mentions("A man wearing glasses.")[1:] == []  # spectacles are no wine glass
    # a phrase of CHAIR's list that names no category is read as one word and is no mention
    assert [m.word for m in coco_mentions("A batter and a catcher at home plate.")] == []


def test_spans_index_the_caption_as_given():
    text = "İİ A DOG and Cats"  # "İ" lower-cases to two characters
    assert [text[a:b] for a, b in (m.span for m in coco_mentions(text))] == ["DOG", "Cats"]


def test_every_category_name_reads_as_itself():
    for category in set(synonyms().values()):
        assert coco_categories([category]) == {category}


@pytest.mark.parametrize("sample, wrong, n", SAMPLES, ids=[s["id"] for s, _, _ in SAMPLES])
def test_detector_per_sample(sample, wrong, n):
    d = CHAIRDetector().detect(sample)
    assert [s.text for s in d.spans] == wrong
    assert len(d.details["mentions"]) == n and d.hallucinated is bool(wrong)
    assert d.score == pytest.approx(len(wrong) / n)
    assert [m["word"] for m in d.details["hallucinated_objects"]] == [
        m["word"] for m in d.details["mentions"] if m["category"] not in d.details["categories"]
    ]


def test_chair_s_and_chair_i_by_hand():
    dets = CHAIRDetector().detect_batch([s for s, _, _ in SAMPLES])
    truth = [d.details["categories"] for d in dets]
    mentions = [[m["category"] for m in d.details["mentions"]] for d in dets]
    assert chair_s(truth, mentions) == 2 / 4  # pets, zoo
    assert chair_i(truth, mentions) == 2 / 10  # kitten, chair of 3 + 2 + 3 + 2 mentions
    hal = [len(d.details["hallucinated_objects"]) for d in dets]
    assert metrics.chair_s(h > 0 for h in hal) == 2 / 4
    assert metrics.chair_i(hal, [len(m) for m in mentions]) == 2 / 10


def test_metrics_edge_cases():
    assert chair_s([], []) == 0.0 and chair_i([{"dog"}], [[]]) == 0.0
    assert chair_i([set(), {"dog"}], [["dog", "dog"], ["dog"]]) == 2 / 3  # repeated mentions count
    with pytest.raises(ValueError):
        chair_s([{"dog"}], [])


@given(st.lists(st.tuples(st.sets(st.sampled_from("abcd")), st.lists(st.sampled_from("abcd"), max_size=5)), max_size=8))
def test_metrics_are_shares(pairs):
    truth, mentions = [t for t, _ in pairs], [m for _, m in pairs]
    s, i = chair_s(truth, mentions), chair_i(truth, mentions)
    assert 0.0 <= s <= 1.0 and 0.0 <= i <= 1.0
    assert (s == 0.0) == (i == 0.0)  # a hallucinated mention makes both positive
    assert chair_s(truth, [[] for _ in truth]) == 0.0


def test_ground_truth_from_the_annotation_else_the_references_or_both():
    sample = {
        "id": "u",
        "caption": "A man walks a dog past a bus.",
        "annotation": ["dog", "bus"],
        "references": ["A boy with his puppy."],
    }
    auto, union = CHAIRDetector().detect(sample), CHAIRDetector(ground_truth="union").detect(sample)
    assert [m["word"] for m in auto.details["hallucinated_objects"]] == ["man"]
    assert auto.details["ground_truth"] == "annotation"
    assert union.details["hallucinated_objects"] == [] and union.details["ground_truth"] == "annotation+references"
    coco = {
        "images": [{"id": 7}],
        "annotations": [{"image_id": 7, "category_id": 18}],
        "categories": [{"id": 18, "name": "dog"}, {"id": 67, "name": "dining table"}],
    }
    d = CHAIRDetector().detect({"id": "c", "caption": "A dog under a table.", "annotation": coco})
    assert d.details["categories"] == ["dog"] and [s.text for s in d.spans] == ["table"]
    with pytest.raises(ValueError):
        CHAIRDetector(ground_truth="segments")


def test_cli_detect_and_bench(tmp_path):
    src = tmp_path / "samples.jsonl"
    rows = [s for s, _, _ in SAMPLES] + [{"id": "bare", "caption": "A dog."}]
    src.write_text("".join(json.dumps(s) + "\n" for s in rows))
    out = tmp_path / "det.jsonl"
    r = CliRunner().invoke(main, ["detect", "-d", "chair", str(src), "-o", str(out)], catch_exceptions=False)
    assert r.exit_code == 2 and "1 error" in r.output, r.output  # "bare" has no image side: its error row, exit 2
    rows = {x["id"]: x for x in map(json.loads, out.read_text().splitlines())}
    assert rows["pets"]["details"]["hallucinated_objects"][0]["category"] == "cat"
    assert rows["pets"]["score"] == pytest.approx(1 / 3) and rows["pets"]["hallucinated"] is True
    assert rows["pets"]["spans"] == [{"start": 18, "end": 24, "text": "kitten", "score": 1.0, "label": "object"}]
    assert rows["kite"]["hallucinated"] is False and rows["kite"]["spans"] == []
    assert "needs 'annotation' or 'references'" in rows["bare"]["error"]
    r = CliRunner().invoke(
        main,
        ["detect", "-d", "chair", str(src), "-o", str(tmp_path / "u.jsonl"), "--option", "chair.ground_truth=union"],
        catch_exceptions=False,
    )
    assert r.exit_code == 2, r.output
    run = tmp_path / "run"
    r = CliRunner().invoke(
        main,
        ["bench", "run", "hat", "--data", str(FIXTURES / "bench_hat.json"), "-d", "chair", "-o", str(run)],
        catch_exceptions=False,
    )
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

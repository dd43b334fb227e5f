"""Benchmark loaders on fixtures written to each benchmark's documented schema: samples, gold
labels, images kept inside their root, and errors that name file, place and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.loaders import BENCHMARKS, DataError, alignbench, detailverify, foil, hat
from benchmarks.loaders.common import inside

FIXTURES = Path(__file__).parent / "fixtures"
PNG = b"\x89PNG\r\n\x1a\n" + b"0" * 16


def write(path: Path, data) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def image(root: Path, rel: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(PNG)
    return p


# -- HAT -------------------------------------------------------------------------------------
def test_hat_samples_gold_and_images(tmp_path):
    root = tmp_path / "coco"
    image(root, "COCO_val2014_000000000001.jpg")
    samples, gold = hat.load(FIXTURES / "bench_hat.json", images=root)
    assert [s["id"] for s in samples] == ["h1", "h2", "h3", "h4", "h5", "h6"]
    assert samples[0]["image"] == str((root / "COCO_val2014_000000000001.jpg").resolve())
    assert "image" not in samples[1]  # not on disk: the sample goes without
    assert samples[0]["references"][0] == "A dog sleeping on a brown couch."
    h1, h2 = gold["h1"], gold["h2"]
    assert (h1.label, [h1.caption[a:b] for a, b in h1.spans]) == (1, ["red"])
    assert (h2.label, h2.spans, sum(h2.word_labels)) == (0, [], 0)
    assert len(h1.words) == len(h1.caption.split()) == len(h1.word_labels)


def test_hat_grounding_must_be_the_caption_split(tmp_path):
    rec = json.loads((FIXTURES / "bench_hat.json").read_text())[:2]
    rec[1]["grounding"][0][0] = "Three"
    with pytest.raises(DataError, match=r"bench\.json:record 2: grounding: tokens"):
        hat.load(write(tmp_path / "bench.json", rec))
    rec[1]["grounding"] = "x"
    with pytest.raises(DataError, match="record 2: grounding: expected a list"):
        hat.load(write(tmp_path / "bench.json", rec))
    rec[1].pop("references")
    with pytest.raises(DataError, match="record 2: references: missing"):
        hat.load(write(tmp_path / "bench.json", rec))


@pytest.mark.parametrize("bad", ["../outside.jpg", "/etc/hostname", "sub/../../outside.jpg", "link.jpg"])
def test_no_image_path_leaves_its_root(tmp_path, bad):
    root = tmp_path / "images"
    root.mkdir()
    outside = image(tmp_path, "outside.jpg")
    (root / "link.jpg").symlink_to(outside)
    rec = json.loads((FIXTURES / "bench_hat.json").read_text())[:1]
    rec[0]["image_path"] = bad
    with pytest.raises(DataError, match="resolves outside the image root"):
        hat.load(write(tmp_path / "hat.json", rec), images=root)
    assert inside(root, "a/b.jpg") == (root / "a/b.jpg").resolve()


# -- nocaps-FOIL -----------------------------------------------------------------------------
def test_foil_pairs_and_token_diff_spans():
    samples, gold = foil.load(FIXTURES / "bench_foil.json")
    assert [s["id"] for s in samples[:4]] == ["0:clean", "0:foil", "1:clean", "1:foil"]

    def text(g):
        return [g.caption[a:b] for a, b in g.spans]

    assert text(gold["0:foil"]) == ["eraser"]  # not "eraser." (punctuation is its own token)
    assert text(gold["1:foil"]) == ["golf ball"]  # the insertion widened to the foil word
    assert text(gold["2:foil"]) == ["rose", "rose"]  # every swapped occurrence
    assert text(gold["3:foil"]) == ["lion"]
    assert gold["0:clean"].label == 0 and gold["0:clean"].spans == []
    assert {g.group for g in gold.values()} == {"in-domain", "near-domain", "out-domain"}
    assert gold["2:clean"].pair == gold["2:foil"].pair == "2"


def test_foil_diff_is_not_a_string_replace():
    # "rifle" also occurs where it was not swapped; inflection differs from the replacement word.
    spans = foil.foil_spans("A rifle range with a rifle.", "A rifle range with a carrots.", "carrot")
    assert spans == [(21, 28)]


def test_foil_identical_captions_fail(tmp_path):
    rec = json.loads((FIXTURES / "bench_foil.json").read_text())[:1]
    rec[0]["foil"] = rec[0]["baseline"]
    with pytest.raises(DataError, match="record 1: foil: the foil caption does not differ"):
        foil.load(write(tmp_path / "f.json", rec))


# -- AlignBench ------------------------------------------------------------------------------
def test_alignbench_groups_rows_into_captions(tmp_path):
    root = tmp_path / "alignbench"
    coco = image(root, "coco/val2014/COCO_val2014_000000000042.jpg")
    generated = image(root, "images/sd/7.png")
    samples, gold = alignbench.load(FIXTURES / "bench_alignbench.jsonl", images=root)
    assert len(samples) == 4 and {s["model"] for s in samples} == {"llava", "gpt4o"}
    by_id = {s["id"]: s for s in samples}
    assert by_id["llava/COCO/COCO_val2014_000000000042.jpg"]["image"] == str(coco.resolve())  # found by name
    assert by_id["gpt4o/sd/images/sd/7.png"]["image"] == str(generated.resolve())  # by repo path
    g = gold["gpt4o/sd/images/sd/7.png"]  # its rows come in the order 1, 0
    assert g.caption == "An apple on a table. A glass of milk stands behind the apple."
    assert [(s.position, s.label) for s in g.sentences] == [(0, "correct"), (1, "incorrect")]
    assert [g.caption[a:b] for a, b in g.sentences[1].error_spans] == ["glass of milk"]
    llava = gold["llava/COCO/COCO_val2014_000000000042.jpg"]
    assert [s.label for s in llava.sentences] == ["correct", "incorrect", "unknown"]
    assert [llava.caption[s.start : s.end] for s in llava.sentences][2] == "The sky is cloudy."
    assert gold["gpt4o/COCO/COCO_val2014_000000000042.jpg"].sentences[1].error_types == ["count", "object"]
    knife = gold["llava/sd/images/sd/7.png"].sentences[1]  # error_words as a plain string
    assert [gold["llava/sd/images/sd/7.png"].caption[a:b] for a, b in knife.error_spans] == ["knife"]


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("annotation", "maybe", "expected one of correct, incorrect, unknown, got 'maybe'"),
        ("sentence_index", "1", "expected a non-negative integer"),
        ("error_words", 3, "expected a list of strings or a string"),
        ("error_words", "[broken", "looks like a JSON list but does not parse"),
        ("fleiss_Pi", "high", "expected a number or null"),
        ("caption", None, "expected a string, got null"),
    ],
)
def test_alignbench_unexpected_values_name_file_line_and_field(tmp_path, field, value, message):
    rows = (FIXTURES / "bench_alignbench.jsonl").read_text().splitlines()
    bad = json.loads(rows[2])
    bad[field] = value
    rows[2] = json.dumps(bad)
    path = write(tmp_path / "halcap_bench.jsonl", "\n".join(rows) + "\n")
    with pytest.raises(DataError) as err:
        alignbench.load(path)
    assert str(err.value).startswith(f"{path}:line 3: {field}: ") and message in str(err.value)


def test_alignbench_repeated_sentence_and_escaping_image(tmp_path):
    rows = [json.loads(r) for r in (FIXTURES / "bench_alignbench.jsonl").read_text().splitlines()]
    rows[1]["sentence_index"] = 0
    with pytest.raises(DataError, match="line 2: sentence_index: sentence 0 of llava/.* repeats"):
        alignbench.load(write(tmp_path / "a.jsonl", "\n".join(map(json.dumps, rows))))
    rows[1]["sentence_index"] = 1
    for r in rows:
        if r["image_path_in_repo"]:
            r["image_path_in_repo"] = "../../etc/passwd"
    (tmp_path / "root").mkdir()
    with pytest.raises(DataError, match="image_path_in_repo: image path '../../etc/passwd' resolves outside"):
        alignbench.load(write(tmp_path / "a.jsonl", "\n".join(map(json.dumps, rows))), images=tmp_path / "root")


# -- DetailVerifyBench -----------------------------------------------------------------------
def test_dvb_real_format(tmp_path):
    root = tmp_path / "test"
    image(root, "Natural/street_01.jpg")
    samples, gold = detailverify.load(FIXTURES / "bench_dvb_real.jsonl", images=root)
    assert samples[0] == {
        "id": "street_01.jpg",
        "caption": gold["street_01.jpg"].caption,
        "image": str((root / "Natural/street_01.jpg").resolve()),
    }
    g = gold["street_01.jpg"]
    assert "<Hallucination>" not in g.tagged and g.tagged.count("<HALLUCINATION>") == 2  # mixed case accepted
    assert [(g.caption[a:b], t) for a, b, t in g.spans] == [
        ("red", "Object Color Hallucination"),
        ("wooden", "Material Hallucination"),
    ]
    assert gold["chart_02.png"].spans[0][2] == "Unknown"  # its label record has an empty "labels"
    assert gold["room_03.jpg"].spans == [] and gold["room_03.jpg"].split == "real"
    park = gold["park_05.jpg"]  # the same text twice: records are used in order
    assert [t for _, _, t in park.spans] == ["Object Color Hallucination", "Attribute Hallucination"]


def test_dvb_synthetic_format_uses_applied_edits():
    samples, gold = detailverify.load(FIXTURES / "bench_dvb_synthetic.jsonl")
    g = gold["beach_11.jpg"]
    assert g.split == "synthetic" and g.caption.startswith("Three surfers carry yellow boards")
    assert g.label_records == [
        {"text": "Three surfers", "labels": ["Counting"]},
        {"text": "yellow", "labels": ["Obj. Color"]},
    ]
    assert [t for *_, t in g.spans] == ["Counting", "Obj. Color"]


def test_dvb_website_format_and_predictions(tmp_path):
    def variant(tagged, labels):
        return {"description_tag": tagged, "hallucination_labels": labels, "GT_description": ""}

    examples = [
        {
            "filename": "cat.png",
            "category": "Chart",
            "image": "data/examples/images/Chart/cat.png",
            "natural": variant("A <HALLUCINATION>black</HALLUCINATION> cat.", [{"text": "black", "labels": ["Color"]}]),
            "injected": {
                "adversarial": variant(
                    "A cat on a <HALLUCINATION>sofa</HALLUCINATION>.", [{"text": "sofa", "label": "Object"}]
                )
            },
        }
    ]
    root = tmp_path / "site"
    image(root, "data/examples/images/Chart/cat.png")
    samples, gold = detailverify.load(write(tmp_path / "examples.json", examples), images=root)
    assert [s["id"] for s in samples] == ["real/cat.png", "synthetic/cat.png"]
    assert all(s["image"].endswith("Chart/cat.png") for s in samples)
    assert gold["synthetic/cat.png"].spans == [(11, 15, "Object")]
    # The official script only reads "labels": a record with "label" is "Unknown" there.
    from benchmarks.dvb_metrics import official_scores

    g = gold["synthetic/cat.png"]
    assert list(official_scores([g.tagged], [g.tagged], [g.label_records])["types"]) == ["Unknown"]
    results = [
        {
            "filename": "cat.png",
            "real": {
                "gt_tagged": examples[0]["natural"]["description_tag"],
                "models": {"m1": [" Black ", "cat", "BLACK"], "m2": []},
            },
        }
    ]
    preds = detailverify.website_predictions(write(tmp_path / "detection_results.json", results))
    assert preds["m1"]["real/cat.png"] == ("A <HALLUCINATION>black</HALLUCINATION> <HALLUCINATION>cat</HALLUCINATION>.")
    assert preds["m2"]["real/cat.png"] == "A black cat."


@pytest.mark.parametrize(
    "tagged,message",
    [
        ("A <HALLUCINATION>red car.", "never closed"),
        ("A red</HALLUCINATION> car.", "closing tag"),
        ("<HALLUCINATION>A <HALLUCINATION>red</HALLUCINATION></HALLUCINATION>", "nested"),
    ],
)
def test_dvb_broken_tags_fail_with_place(tmp_path, tagged, message):
    rec = {
        "filename": "x.jpg",
        "category": "C",
        "Modify": "Yes",
        "GT_description": "",
        "description_tag": tagged,
        "hallucination_labels": [],
    }
    with pytest.raises(DataError, match=f"line 1: description_tag: .*{message}"):
        detailverify.load(write(tmp_path / "real.jsonl", json.dumps(rec) + "\n"))


def test_dvb_unknown_format_and_prediction_reader(tmp_path):
    with pytest.raises(DataError, match="line 1: record: neither the real"):
        detailverify.load(write(tmp_path / "x.jsonl", '{"caption": "x"}\n'))
    rec = json.loads((FIXTURES / "bench_dvb_real.jsonl").read_text().splitlines()[0])
    rec["Modify"] = "maybe"
    with pytest.raises(DataError, match='line 1: Modify: expected "Yes" or "No", got \'maybe\''):
        detailverify.load(write(tmp_path / "x.jsonl", json.dumps(rec) + "\n"))
    preds = detailverify.read_tagged_predictions(FIXTURES / "bench_dvb_pred_synthetic.json")
    assert set(preds) == {"beach_11.jpg", "menu_12.png"}  # a plain record and a {"data": ...} one


def test_registry_names_every_benchmark_and_its_needs():
    assert set(BENCHMARKS) == {"hat", "foil", "alignbench", "detailverify"}
    assert all(b.data and b.images and b.unit for b in BENCHMARKS.values())

"""The files users already have: COCO results (one file per model), LLaVA answers, --annotations
(COCO captions / instances, nocaps, Visual Genome scene graphs and split files, {image_id: refs}),
`cece chair` against a hand-worked CHAIR fixture, and the errors of bad inputs."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cece.annotation_sets import AnnotationSet
from cece.inputs import Naming, normalize, open_inputs, wanted_images
from halcece import main
from parsers.annotation_files import AnnotationsFileError, read_annotation_file

FIXTURES = Path(__file__).parent / "fixtures" / "coco"
EXAMPLE = Path(__file__).parent.parent / "cece" / "examples" / "coco"


def run(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def rows(output: str) -> list[dict]:
    return [json.loads(x) for x in output.splitlines() if x.startswith("{")]


# -- the same explanation inline and from COCO files ------------------------------------------
def test_coco_results_and_captions_explain_as_the_same_records_inline(tmp_path):
    captions = json.loads((EXAMPLE / "captions_example.json").read_text())
    refs: dict[int, list[str]] = {}
    for a in captions["annotations"]:
        refs.setdefault(a["image_id"], []).append(a["caption"])
    results = json.loads((EXAMPLE / "eager.json").read_text())
    inline = tmp_path / "inline.jsonl"
    inline.write_text(
        "".join(
            json.dumps(
                {"id": r["image_id"], "model": "eager", "caption": r["caption"], "references": refs[r["image_id"]]}
            )
            + "\n"
            for r in results
        )
    )
    a = run("explain", inline, "-f", "json")
    b = run("explain", EXAMPLE / "eager.json", "--annotations", EXAMPLE / "captions_example.json", "-f", "json")
    assert a.exit_code == b.exit_code == 0, b.output
    assert rows(a.output) == rows(b.output) and len(rows(a.output)) == len(results)


def test_a_report_over_three_results_files_names_three_models(tmp_path):
    r = run(
        "report",
        *(EXAMPLE / f"{m}.json" for m in ("careful", "eager", "confuser")),
        "--annotations",
        EXAMPLE / "captions_example.json",
        "-o",
        tmp_path,
    )
    assert r.exit_code == 0, r.output
    models = {m["model"]: m["n_captions"] for m in json.loads((tmp_path / "tables.json").read_text())["models"]}
    assert models == {"careful": 5, "eager": 5, "confuser": 5}
    assert "from 3 models" in r.output


# -- record shapes -----------------------------------------------------------------------------
def test_record_shapes_are_normalised():
    assert normalize({"image_id": 5, "caption": "A dog."}, Naming("modelA")) == {
        "image_id": 5,
        "caption": "A dog.",
        "id": 5,
        "model": "modelA",
    }
    llava = normalize({"question_id": 9, "text": "A cat.", "image": "COCO_val2014_000000000042.jpg"}, Naming("m"))
    assert (llava["id"], llava["caption"], llava["image_id"], llava["model"]) == (9, "A cat.", "42", "m")
    assert normalize({"question_id": 9, "text": "x", "model_id": "llava-7b"}, Naming("m"))["model"] == "llava-7b"
    # This project's own records keep what they name, and get no model unless asked.
    assert normalize({"id": "a", "caption": "x", "annotation": ["dog"]}, Naming("f")) == {
        "id": "a",
        "caption": "x",
        "annotation": ["dog"],
    }
    assert normalize({"id": "a", "caption": "x"}, Naming("f", every=True))["model"] == "f"
    assert normalize({"id": "a", "model": "own", "caption": "x"}, Naming("f", "cli", True))["model"] == "own"


def test_detect_reads_several_results_files_as_models(tmp_path):
    out = tmp_path / "d.jsonl"
    r = run(
        "detect",
        EXAMPLE / "careful.json",
        EXAMPLE / "eager.json",
        "-d",
        "chair",
        "-o",
        out,
        "--annotations",
        EXAMPLE / "captions_example.json",
        "-q",
    )
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(x["model"], x["id"]) for x in lines][:2] == [("careful", "16903"), ("careful", "139")]
    assert {x["model"] for x in lines} == {"careful", "eager"} and len(lines) == 10
    # Resuming keys on the model too: the same ids of the second model are not "done".
    assert (
        run(
            "detect",
            EXAMPLE / "careful.json",
            EXAMPLE / "eager.json",
            "-d",
            "chair",
            "-o",
            out,
            "--annotations",
            EXAMPLE / "captions_example.json",
            "-q",
        ).exit_code
        == 0
    )
    assert len(out.read_text().splitlines()) == 10


# -- annotation files, streamed ----------------------------------------------------------------
def _file(tmp_path: Path, name: str, value) -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(value))
    return p


def test_only_the_wanted_images_are_kept_and_ids_match_as_int_or_string(tmp_path):
    sg = [
        {"image_id": i, "objects": [{"object_id": 10 * i, "names": ["dog"]}], "relationships": []} for i in range(1, 50)
    ]
    f = read_annotation_file(_file(tmp_path, "scene_graphs.json", sg), {"7", "12"})
    assert f.kind == "visual_genome" and sorted(f.by_image) == ["12", "7"] and f.seen == 49
    sets = AnnotationSet([f])
    assert sets.resolve({"id": 1, "caption": "x", "image_id": "007"})["annotation"]["image_id"] == 7


def test_visual_genome_split_files_are_merged_by_object_id(tmp_path):
    objs = _file(
        tmp_path,
        "objects.json",
        [{"image_id": 3, "objects": [{"object_id": 1, "names": ["man"]}, {"object_id": 2, "names": ["horse"]}]}],
    )
    rels = _file(
        tmp_path,
        "relationships.json",
        [
            {
                "image_id": 3,
                "relationships": [
                    {
                        "predicate": "riding",
                        "subject": {"object_id": 1, "names": ["man"]},
                        "object": {"object_id": 2, "names": ["horse"]},
                    }
                ],
            }
        ],
    )
    attrs = _file(
        tmp_path,
        "attributes.json",
        [{"image_id": 3, "attributes": [{"object_id": 2, "names": ["horse"], "attributes": ["brown"]}]}],
    )
    sets = AnnotationSet.load([str(objs), str(rels), str(attrs)], {"3"})
    assert [f.kind for f in sets.files] == ["vg_objects", "vg_relationships", "vg_attributes"]
    ann = sets.sides(3)["annotation"]
    assert ann["objects"][1]["attributes"] == ["brown"] and ann["relationships"][0]["predicate"] == "riding"
    from parsers import to_scene_graph

    assert to_scene_graph(annotation=ann).triples() == [("man", "ride", "horse")]


def test_nocaps_captions_and_reference_maps_give_references(tmp_path):
    nocaps = _file(
        tmp_path,
        "nocaps_val.json",
        {
            "licenses": [],
            "images": [{"id": 0, "domain": "in-domain"}],
            "annotations": [
                {"image_id": 0, "id": 0, "caption": "A cat."},
                {"image_id": 0, "id": 1, "caption": "A kitten."},
            ],
        },
    )
    refs = _file(tmp_path, "refs.json", {"0": ["A small cat."]})
    sets = AnnotationSet.load([str(nocaps), str(refs)], {"0"})
    assert sets.sides("0")["references"] == ["A cat.", "A kitten.", "A small cat."]


def test_an_annotation_file_of_an_unknown_shape_names_file_and_expected_keys(tmp_path):
    for value in ({"foo": {"bar": 1}}, [{"name": "x"}], 3, {"images": [], "annotations": [{"image_id": 1}]}):
        path = _file(tmp_path, "odd.json", value)
        with pytest.raises(AnnotationsFileError, match=r"odd\.json: not an annotations file.*expected .*image_id"):
            read_annotation_file(path, None)
    r = run("explain", EXAMPLE / "careful.json", "--annotations", _file(tmp_path, "odd.json", [{"name": "x"}]))
    assert r.exit_code == 1 and "odd.json: not an annotations file" in r.output and "scene_graphs.json" in r.output


def test_an_unknown_image_id_is_that_records_error_naming_the_files_searched(tmp_path):
    results = _file(
        tmp_path,
        "m.json",
        [{"image_id": 16903, "caption": "A man on a horse."}, {"image_id": 999, "caption": "A dog."}],
    )
    out = tmp_path / "out.jsonl"
    r = run("explain", results, "--annotations", EXAMPLE / "captions_example.json", "-o", out, "-q")
    assert r.exit_code == 2
    written = [json.loads(x) for x in out.read_text().splitlines()]
    assert "error" not in written[0] and written[1]["id"] == 999 and written[1]["model"] == "m"
    assert written[1]["error"]["field"] == "image_id" and "captions_example.json" in written[1]["error"]["message"]
    assert f"{results}:1: image_id: 999 is in none of the annotation files searched" in r.output


def test_each_annotation_file_is_read_once_with_several_workers(tmp_path, monkeypatch):
    import parsers.annotation_files as af

    opened: list[str] = []
    real = af.read_annotation_file

    def counting(source, wanted, name=None):
        if isinstance(source, (str, Path)):
            opened.append(str(source))
        return real(source, wanted, name)

    monkeypatch.setattr("cece.annotation_sets.read_annotation_file", counting)
    r = run(
        "explain",
        EXAMPLE / "careful.json",
        EXAMPLE / "eager.json",
        "--annotations",
        EXAMPLE / "captions_example.json",
        "-w",
        "2",
        "-o",
        tmp_path / "o.jsonl",
        "-q",
    )
    assert r.exit_code == 0, r.output
    assert opened == [str(EXAMPLE / "captions_example.json")]
    assert len((tmp_path / "o.jsonl").read_text().splitlines()) == 10


def test_wanted_images_come_from_every_input_shape(tmp_path):
    a = _file(
        tmp_path,
        "a.json",
        [{"image_id": 1, "caption": "x"}, {"question_id": 2, "text": "y", "image": "COCO_val2014_000000000003.jpg"}],
    )
    assert wanted_images(open_inputs([str(a)])) == {"1", "3"}


# -- CHAIR -------------------------------------------------------------------------------------
def test_chair_matches_the_published_algorithm_on_a_hand_worked_fixture(tmp_path):
    out = tmp_path / "chair.json"
    r = run(
        "chair",
        FIXTURES / "model_fixture.json",
        "--annotations",
        FIXTURES / "instances_fixture.json",
        "--annotations",
        FIXTURES / "captions_fixture.json",
        "-o",
        out,
    )
    assert r.exit_code == 0, r.output
    got = json.loads(out.read_text())
    # Worked by hand with chair.py's rules: 2 of 4 captions hallucinate; 3 of 11 mentions.
    assert got["overall_metrics"] == {"CHAIRs": 0.5, "CHAIRi": round(3 / 11, 6)}
    s = {x["image_id"]: x for x in got["sentences"]}
    # plural "women" -> person, "hot dogs" is the two-word category, "desk" a synonym of dining table
    assert s[1]["hallucinated_words"] == [["hot dog", "hot dog"], ["cat", "cat"]]
    assert s[1]["mscoco_generated_words"] == [
        ["woman", "person"],
        ["hot dog", "hot dog"],
        ["desk", "dining table"],
        ["cat", "cat"],
    ]
    assert s[1]["gt_objects"] == ["dining table", "laptop", "person"]  # instances + captions
    # the teddy bear is only in the instances; the puppy is a dog nobody annotated
    assert s[2]["hallucinated_words"] == [["puppy", "dog"]] and "teddy bear" in s[2]["gt_objects"]
    # image 3 has no instances: its captions alone; image 4: "toilet seat" is the toilet
    assert s[3]["hallucinated_words"] == [] and s[3]["gt_objects"] == ["car", "traffic light"]
    assert s[4]["mscoco_generated_words"] == [["toilet", "toilet"], ["sink", "sink"]]
    assert s[2]["metrics"]["CHAIRi"] == round(1 / 3, 6) and s[1]["metrics"]["chair_s"] == 1
    assert "model_fixture" in r.output and "50.0" in r.output and "27.3" in r.output


def test_chair_with_instances_only_and_several_models(tmp_path):
    out = tmp_path / "c.json"
    r = run(
        "chair",
        EXAMPLE / "careful.json",
        EXAMPLE / "eager.json",
        "--annotations",
        EXAMPLE / "instances_example.json",
        "-o",
        out,
    )
    assert r.exit_code == 0, r.output
    eager = json.loads((tmp_path / "c.eager.json").read_text())
    assert eager["model"] == "eager" and len(eager["sentences"]) == 5
    assert ["dog", "dog"] in eager["sentences"][0]["hallucinated_words"]


def test_chair_reports_records_it_cannot_score(tmp_path):
    results = _file(tmp_path, "m.json", [{"image_id": 1, "caption": "A cat."}, {"image_id": 77, "caption": "A dog."}])
    r = run("chair", results, "--annotations", FIXTURES / "instances_fixture.json", "-o", tmp_path / "c.json")
    assert r.exit_code == 2 and "image_id: 77 is in none of the annotation files searched" in r.output
    got = json.loads((tmp_path / "c.json").read_text())
    assert len(got["sentences"]) == 1 and got["errors"][0]["id"] == 77


def test_annotations_from_a_stream_are_read_whole_only_once():
    f = read_annotation_file(io.BytesIO(b'{"1": ["A dog."], "2": ["A cat."]}'), {"2"}, "r.json")
    assert f.by_image == {"2": ["A cat."]} and f.seen == 2


# -- intervals and paired tests in the report --------------------------------------------------
def test_bootstrap_intervals_and_paired_tests_tell_real_differences_from_noise():
    import numpy as np

    from cece.report.intervals import Row, model_intervals, paired_tests

    rng = np.random.default_rng(1)
    base = rng.uniform(0, 1, 60)
    rows = (
        [Row("a", str(i), float(v), float(v > 0.5), float(v > 0.3)) for i, v in enumerate(base)]
        + [
            Row("same", str(i), float(min(1, v + rng.normal(0, 0.05))), float(v > 0.5), float(v > 0.3))
            for i, v in enumerate(base)
        ]
        + [Row("worse", str(i), float(min(1, v + 0.3)), 1.0, 1.0) for i, v in enumerate(base)]
    )
    ivs = model_intervals(rows)
    a = ivs["a"]["hal_rate"]
    assert a.low < a.value < a.high and a.n == 60 and a.high - a.low < 0.2
    assert model_intervals(rows) == ivs  # seeded: the same report every run
    tests = {(t.a, t.b, t.metric): t for t in paired_tests(rows)}
    noise, real = tests[("a", "same", "hal_rate")], tests[("a", "worse", "hal_rate")]
    assert noise.low <= 0 <= noise.high and noise.p_value > 0.05
    assert real.high < 0 and real.p_value < 0.01 and real.n == 60
    assert tests[("a", "same", "chair_s")].p_value == 1.0  # identical verdicts: no difference at all


def test_report_writes_the_interval_tables(tmp_path):
    r = run(
        "report",
        EXAMPLE / "careful.json",
        EXAMPLE / "confuser.json",
        "--annotations",
        EXAMPLE / "captions_example.json",
        "-o",
        tmp_path,
    )
    assert r.exit_code == 0, r.output
    tables = json.loads((tmp_path / "tables.json").read_text())["tables"]
    assert [t["model"] for t in tables["intervals"]] == ["careful", "confuser"]
    assert {t["metric"] for t in tables["paired"]} == {"hal_rate", "chair_s", "verdict"}
    assert all(t["n"] == 5 for t in tables["paired"])
    html = (tmp_path / "index.html").read_text()
    assert "95 % bootstrap intervals" in html and "Paired differences" in html

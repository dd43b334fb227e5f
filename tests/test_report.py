"""`cece report`: per-model tables equal to the library's numbers, resuming, inputs, and the HTML page
as a browser shows it."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cece import Explainer, aggregate_metrics
from cece.annotation_sets import AnnotationSet
from cece.edits import Edit
from cece.report import AnnotationsFileError, load_items
from cece.report.captions import highlight
from cece.report.figures import bins_for
from halcece import main

EXAMPLES = Path(__file__).resolve().parents[1] / "cece" / "examples"


def _vg(image_id, names, rels):
    """A Visual Genome record: objects with ids, relationships by subject/object id."""
    objs = [{"object_id": image_id * 100 + k, "names": [n], "synsets": []} for k, n in enumerate(names)]
    ids = {n: image_id * 100 + k for k, n in enumerate(names)}
    return {
        "image_id": image_id,
        "objects": objs,
        "relationships": [
            {"relationship_id": k, "predicate": p, "subject_id": ids[s], "object_id": ids[o]}
            for k, (s, p, o) in enumerate(rels)
        ],
    }


VG = [
    _vg(1, ["man", "dog", "frisbee", "grass"], [("man", "throwing", "frisbee"), ("dog", "on", "grass")]),
    _vg(2, ["woman", "pizza", "plate", "table"], [("pizza", "on", "plate"), ("plate", "on", "table")]),
]
REFS = {
    "1": ["A man throws a frisbee to a dog.", "A dog on the grass."],
    "2": ["A woman with a pizza on a plate.", "Pizza on a table."],
}
LABELS = ["cat", "sofa", "laptop"]  # image 3: labels only, so roles are not judged
REFS_ONLY = ["A horse stands in a field.", "A brown horse behind a fence."]  # image 4
CAPTIONS = {
    "careful": [
        "A man throwing a frisbee to a dog on the grass.",
        "A woman with a pizza on a plate.",
        "A cat on a sofa next to a laptop.",
        "A horse in a field.",
    ],
    "eager": [
        "A man throwing a frisbee to a dog next to a bench and a tree.",
        "A woman eating pizza and salad with a glass of wine at a table.",
        "A cat on a sofa with a laptop, a cup and a remote control.",
        "A horse and a barn in a field.",
    ],
    "confuser": [
        "A boy throwing a ball to a cat on the grass.",
        "A girl eating a sandwich on a plate.",
        "A dog on a couch next to a computer.",
        "A stallion behind a wall.",
    ],
}


def records() -> list[dict]:
    out = []
    for model, caps in CAPTIONS.items():
        for k, cap in enumerate(caps, 1):
            rec = {"id": f"img{k}-{model}", "model": model, "caption": cap}
            if k <= 2:
                rec["image_id"] = k
            elif k == 3:
                rec["annotation"] = LABELS
            else:
                rec["references"] = REFS_ONLY
            out.append(rec)
    return out


BAD = [
    ('{"model": "eager", "caption": "A dog.", "annotation": ["dog"]}', "id"),
    ('{"id": "x2", "model": "eager", "caption": "A dog.", "image_id": 99}', "image_id"),
    ('{"id": "img1-eager", "model": "eager", "caption": "A dog.", "annotation": ["dog"]}', "id"),
    ('{"id": "x3", "model": "eager", "caption": "A dog.", "annotation": {"what": 1}}', "annotation"),
    ('{"id": "x4", "model": "eager", "caption": "A dog."', "json"),
]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("inputs")
    (d / "vg.json").write_text(json.dumps(VG))
    (d / "refs.json").write_text(json.dumps(REFS))
    (d / "captions.jsonl").write_text("\n".join(json.dumps(r) for r in records()) + "\n")
    (d / "bad.jsonl").write_text("\n".join([json.dumps(r) for r in records()] + [b for b, _ in BAD]) + "\n")
    return {
        "dir": d,
        "vg": d / "vg.json",
        "refs": d / "refs.json",
        "captions": d / "captions.jsonl",
        "bad": d / "bad.jsonl",
    }


def report(src: Path, out: Path, *extra: str, inputs: dict):
    args = [
        "report",
        str(src),
        "--annotations",
        str(inputs["vg"]),
        "--annotations",
        str(inputs["refs"]),
        "-o",
        str(out),
        *extra,
    ]
    return CliRunner().invoke(main, args, catch_exceptions=False)


@pytest.fixture(scope="module")
def built(inputs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report")
    r = report(inputs["captions"], out, "--with-linguistic", inputs=inputs)
    assert r.exit_code == 0, r.output
    assert "Report of 12 captions from 3 models" in r.stdout
    return out


def test_numbers_equal_the_library_api(built):
    # The same inputs, resolved by hand, straight through Explainer + aggregate_metrics.
    vg, lib_records = {r["image_id"]: r for r in VG}, []
    for rec in records():
        rec = dict(rec)
        if "image_id" in rec:
            rec["annotation"] = vg[rec["image_id"]]
        lib_records.append(rec)
    explanations = list(Explainer().explain_many(lib_records))
    tables = json.loads((built / "tables.json").read_text())
    by_model = {m["model"]: m for m in tables["models"]}
    assert list(by_model) == list(CAPTIONS)
    for model in CAPTIONS:
        mine = [e for e in explanations if e.model == model]
        objects = aggregate_metrics(e.objects.to_dict() for e in mine)
        roles = aggregate_metrics(e.roles.to_dict() for e in mine if e.roles.judged)
        assert by_model[model]["objects"] == pytest.approx(objects)
        assert by_model[model]["roles"] == pytest.approx(roles)
        assert by_model[model]["roles"]["n_captions"] == 3  # the labels-only image judges no roles
        assert by_model[model]["hal_total"] == sum(e.objects.hal for e in mine)
        row = next(r for r in csv.DictReader((built / "objects.csv").open()) if r["model"] == model)
        assert float(row["hal_rate"]) == pytest.approx(objects["hal_rate"])
        assert f"| {model} | 4 | {objects['n_objects']:.2f} |" in (built / "tables.md").read_text()


def test_report_files_and_groupings(built):
    for name in (
        "index.html",
        "tables.md",
        "tables.json",
        "objects.csv",
        "object_edits.csv",
        "roles.csv",
        "frequent_edits.md",
        "frequent_edits.json",
        "linguistic.csv",
        "correlations.csv",
        "explanations.jsonl",
    ):
        assert (built / name).stat().st_size > 0, name
    md = (built / "tables.md").read_text()
    for header in (
        "#objects | #ancestors | HalRate (#hal) | Granularity | U",
        "| Model | D | O | R | Similarity of R |",
        "#roles | D | R | HalRate | Granularity",
        "ROUGE-1",
        "Pearson r",
    ):
        assert header in md
    ling = json.loads((built / "tables.json").read_text())["linguistic"]
    assert [m["model"] for m in ling["models"]] == list(CAPTIONS)
    assert all(0 <= m["rouge1"] <= 1 and 0 <= m["bleu"] <= 1 for m in ling["models"])
    # References come from refs.json (images 1, 2) and inline (image 4); image 3 has none.
    assert {m["n_captions"] for m in ling["models"]} == {3}
    assert any(c["pearson_r"] is not None for c in ling["correlations"])


def test_frequent_edits_link_to_example_captions(built):
    freq = json.loads((built / "frequent_edits.json").read_text())
    eager = [f["label"] for f in freq["eager"]["objects"]]
    assert "delete: bench" in eager
    over = [f["label"] for f in freq["confuser"]["over"]]
    assert "girl -> woman" in over
    html = (built / "index.html").read_text()
    example = freq["eager"]["objects"][0]["examples"][0]
    assert f'href="#c{example}"' in html and f'id="c{example}"' in html


def test_page_is_self_contained(built):
    html = (built / "index.html").read_text()
    # Nothing the browser would fetch: no remote or local src/href, url(), @import, <link>.
    assert not re.search(r'(src|href)\s*=\s*"(?!#)|url\((?!#)|@import|<link', html)
    assert "https://" not in html and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
        'xmlns:xlink="http://www.w3.org/1999/xlink"', ""
    )
    assert html.count("<svg") == 3 and "<style>" in html and '<mark class="e-R"' in html


def test_bad_records_are_reported_and_the_rest_still_run(inputs, tmp_path):
    r = report(inputs["bad"], tmp_path / "rep", inputs=inputs)
    assert r.exit_code == 2
    # Reading problems come out first, explaining problems as they are met: order by line.
    errors = sorted(
        (ln for ln in r.stderr.splitlines() if ln.startswith(str(inputs["bad"]))), key=lambda e: int(e.split(":")[1])
    )
    n = len(records())
    assert [e.split(": ")[1] for e in errors] == [f for _, f in BAD]
    assert [int(e.split(":")[1]) for e in errors] == list(range(n + 1, n + len(BAD) + 1))
    rows = [json.loads(x) for x in (tmp_path / "rep" / "explanations.jsonl").read_text().splitlines()]
    assert len([x for x in rows if "error" not in x]) == n  # and the error rows of records that failed
    assert f"{len(BAD)} records could not be used" in (tmp_path / "rep" / "index.html").read_text()


def test_resume_skips_done_captions_and_redoes_a_cut_line(inputs, built, tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    lines = (built / "explanations.jsonl").read_text().splitlines()
    # A killed run: 5 explanations written, the 6th cut mid-line.
    (out / "explanations.jsonl").write_text("\n".join(lines[:5]) + "\n" + lines[5][:40])
    assert report(inputs["captions"], out, inputs=inputs).exit_code == 0
    redone = (out / "explanations.jsonl").read_text().splitlines()
    assert redone[:5] == lines[:5] and len(redone) == len(lines)
    mine, theirs = (json.loads((d / "tables.json").read_text())["models"] for d in (out, built))
    assert mine == theirs
    assert report(inputs["captions"], out, inputs=inputs).exit_code == 0  # nothing left to do
    assert (out / "explanations.jsonl").read_text().splitlines() == redone


def test_annotation_files_are_recognised(tmp_path):
    def load(value, name):
        (tmp_path / name).write_text(json.dumps(value))
        return AnnotationSet.load([str(tmp_path / name)], None).files[0]

    coco = {
        "images": [{"id": 5}, {"id": 6}],
        "categories": [{"id": 1, "name": "dog"}],
        "annotations": [{"id": 1, "image_id": 5, "category_id": 1}],
    }
    idx = load(coco, "coco.json")
    assert idx.kind == "coco_instances" and idx.by_image["6"]["annotations"] == []
    caps = {"images": [{"id": 5}], "annotations": [{"id": 1, "image_id": 5, "caption": "A dog."}]}
    assert load(caps, "c.json").by_image == {"5": ["A dog."]}
    assert load(VG, "vg.json").kind == "visual_genome"
    assert load(REFS, "r.json").kind == "references"
    with pytest.raises(AnnotationsFileError, match="not an annotations file"):
        load({"a": 1}, "x.json")
    src = tmp_path / "c.jsonl"
    src.write_text(json.dumps({"id": "a", "model": "m", "caption": "A dog.", "image_id": 5}) + "\n")
    items, errors = load_items(src, AnnotationSet([idx, load(caps, "c.json")]))
    assert not errors and items[0].record["annotation"]["annotations"][0]["category_id"] == 1
    assert items[0].references == ["A dog."]
    (tmp_path / "broken.json").write_text("{oops")
    r = CliRunner().invoke(
        main, ["report", str(src), "--annotations", str(tmp_path / "broken.json"), "-o", str(tmp_path / "o")]
    )
    assert r.exit_code == 1 and "broken.json: cannot read as JSON" in r.output, r.output
    r = CliRunner().invoke(main, ["report", str(src), "--annotations", str(src), "-o", str(tmp_path / "o")])
    assert r.exit_code == 1 and "c.jsonl: not an annotations file" in r.output


def test_highlight_marks_overlapping_object_and_role_spans():
    sure = {"confidence": 1.0, "hallucinated": True, "status": "hallucinated"}
    obj = Edit("replace", "object", "R", source="dog", target="cat", wup=0.86, spans=[(2, 5)], **sure)
    role = Edit("delete", "relation", "D", source=["dog", "on", "lap"], spans=[(6, 8), (2, 5), (11, 14)], **sure)
    html = highlight("A dog on a lap.", [obj, role])
    assert html.startswith('A <mark class="e-R" title="R replace: dog -&gt; cat (Wu-Palmer 0.86) · hallucinated 1.00')
    assert '<mark class="e-role-D" title="role D delete: [dog, on, lap] · hallucinated 1.00">on</mark>' in html
    assert bins_for("count", [2, 3])[:2] == (2, 2)


def test_highlight_quiet_for_unverified_and_silent_for_consequences():
    doubt = Edit(
        "delete", "relation", "D", source=["dog", "on", "lap"], spans=[(6, 8)], confidence=0.05, status="unverified"
    )
    echo = Edit(
        "replace",
        "relation",
        "R",
        source=["dog", "on", "lap"],
        target=["cat", "on", "lap"],
        spans=[(11, 14)],
        status="consequence",
        caused_by=0,
    )
    html = highlight("A dog on a lap.", [doubt, echo])
    assert '<mark class="e-unverified" title="role D delete: [dog, on, lap] · unverified 0.05">on</mark>' in html
    assert html.endswith(" a lap.")


def test_bundled_example_shows_different_behaviours(tmp_path):
    r = CliRunner().invoke(
        main, ["report", str(EXAMPLES / "models.jsonl"), "-o", str(tmp_path)], catch_exceptions=False
    )
    assert r.exit_code == 0, r.output
    m = {x["model"]: x for x in json.loads((tmp_path / "tables.json").read_text())["models"]}
    assert len(m) >= 3
    assert m["careful"]["objects"]["hal_rate"] < 0.1 < m["eager"]["objects"]["d_rate"]
    assert m["confuser"]["objects"]["r_rate"] > m["eager"]["objects"]["r_rate"]
    assert m["confuser"]["objects"]["o_rate"] > 0.1
    assert m["terse"]["objects"]["granularity"] == min(x["objects"]["granularity"] for x in m.values())


CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = "/usr/bin/chromedriver"
HEADLESS_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,2400",
]


@pytest.mark.skipif(
    not (CHROMIUM and Path(CHROMEDRIVER).exists()) and not os.environ.get("CI"),
    reason="chromium / chromium-driver not installed (make test installs them)",
)
def test_page_in_headless_chromium(built, tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or "/usr/bin/chromium"  # given, so selenium-manager is never asked
    for flag in HEADLESS_FLAGS + [f"--user-data-dir={tmp_path / 'profile'}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        page = (built / "index.html").as_uri()
        driver.get(page)
        for name in ("objects", "object_edits", "roles", "linguistic", "correlations"):
            rows = driver.find_elements(By.CSS_SELECTOR, f"#table-{name} tbody tr")
            assert len(rows) == (3 if name != "correlations" else 7), name
        figures = driver.find_elements(By.CSS_SELECTOR, "svg.figure")
        assert len(figures) == 3 and all(f.is_displayed() and f.size["width"] > 400 for f in figures)
        marks = driver.find_elements(By.CSS_SELECTOR, "li.cap mark")
        assert marks and all(m.get_attribute("title") for m in marks)
        assert {"e-D", "e-R", "e-O"} <= {m.get_attribute("class") for m in marks}

        def shown():
            return [li for li in driver.find_elements(By.CSS_SELECTOR, "li.cap") if li.is_displayed()]

        assert len(shown()) == 12
        Select(driver.find_element(By.ID, "f-model")).select_by_value("confuser")
        assert {li.get_attribute("data-model") for li in shown()} == {"confuser"} and len(shown()) == 4
        assert driver.find_element(By.ID, "f-count").text == "4 of 12 captions"
        Select(driver.find_element(By.ID, "f-cls")).select_by_value("O")
        assert shown() and all("O" in li.get_attribute("data-cls").split() for li in shown())
        driver.save_screenshot(str(tmp_path / "report-filtered.png"))
        # A frequent-edit link to a caption the filters hide brings it back.
        Select(driver.find_element(By.ID, "f-cls")).select_by_value("")
        link = driver.find_element(By.CSS_SELECTOR, "#frequent-edits section:nth-child(2) li a")
        target = link.get_attribute("href").split("#")[1]
        driver.execute_script("arguments[0].click();", link)
        assert driver.find_element(By.ID, target).is_displayed()
        driver.get(page)
        assert driver.save_screenshot(str(tmp_path / "report.png"))
        assert (tmp_path / "report.png").stat().st_size > 10_000
    finally:
        driver.quit()

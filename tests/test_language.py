"""Captions that are not English are refused per record, by name, instead of coming back "clean";
English captions -- short ones, names, numbers, loanwords, long detailed paragraphs -- are not.
The check is :func:`parsers.language.looks_english` (script, then the share of words unknown to
spaCy's stop words and WordNet)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cece import Explainer
from halcece import main
from parsers.language import looks_english

FOREIGN = [
    json.loads(line)
    for line in (Path(__file__).parent / "fixtures" / "non_english_captions.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
]
ENGLISH = [
    "A dog.",
    "Two dogs.",
    "Dogs!",
    "3 cats on 2 beds.",
    "A 1950s car.",
    "John and Mary at Wimbledon in 2019.",
    "Barack Obama speaks to Angela Merkel in Berlin.",
    "A man riding a wave on top of a surfboard.",
    "An x-ray of a hand.",
    "Selfie of a smiling teenager with braces.",
    "A bento box with sushi, tempura and edamame.",
    "A grumpy chihuahua wearing a tutu.",
    "The Eiffel Tower at night.",
    "lol this pic is so kawaii",
    "Kids skateboarding near graffiti-covered walls.",
    "A café with baguettes and croissants on display.",
    "A photo of Schloss Neuschwanstein in Bavaria.",
    "Golden retriever puppy chewing slipper.",
    "Vintage red Ferrari parked outside Monaco casino.",
    'A sign that reads "Zimmer frei" on a fence.',
    "The image shows a cozy living room bathed in warm afternoon light. A plush grey sectional sofa faces a "
    "mid-century walnut coffee table on which rest a ceramic vase of dried eucalyptus, two hardcover books and a "
    "remote control. To the left, a tall fiddle-leaf fig stands beside floor-to-ceiling windows framed by linen "
    "curtains, while a tabby cat naps on a knitted throw draped over the armrest.",
]


@pytest.mark.parametrize("row", FOREIGN, ids=[r["lang"] for r in FOREIGN])
def test_captions_in_other_languages_are_refused(row):
    assert looks_english(row["caption"]).startswith("caption does not look like English")


@pytest.mark.parametrize("caption", ENGLISH)
def test_english_captions_are_not_refused(caption):
    assert looks_english(caption) is None


def test_a_foreign_caption_is_its_records_error_not_a_clean_verdict(tmp_path: Path):
    src = tmp_path / "in.jsonl"
    rows = [
        {"id": "en", "caption": "A brown dog sits on a red sofa.", "annotation": ["dog", "sofa"]},
        {"id": "de", "caption": "Ein brauner Hund sitzt auf einem roten Sofa.", "annotation": ["dog", "sofa"]},
        {"id": "zh", "caption": "一只棕色的狗坐在红色的沙发上。", "annotation": ["dog", "sofa"]},
    ]
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    r = CliRunner().invoke(main, ["explain", str(src), "-q", "-o", str(out)])
    assert r.exit_code == 2, r.output
    written = {row["id"]: row for row in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    assert "error" not in written["en"]
    for key, line in (("de", 2), ("zh", 3)):
        error = written[key]["error"]
        assert (error["field"], error["line"]) == ("caption", line)
        assert "does not look like English" in error["message"]
        assert f"{src}:{line}: caption: caption does not look like English" in r.stderr
    # the library refuses it the same way
    [result] = Explainer().explain_many([rows[1]])
    assert result.field == "caption" and "not look like English" in result.message

"""Free-text answers of small instruct models, read into verdicts; image paths a sample may not use.

``fixtures/free_text_answers.jsonl`` holds answers written in the styles small models really use
(verdict words, yes/no with reasons, negations, numbers in words, markdown, quotes, conclusions stated
last or after a contrast, "not incorrect") with the
verdict each must give: an AlignBench alignment (0-100) or a yes/no, or null for an answer that
gives none. The parser may miss a verdict (a parse failure, counted) but never invent one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fixtures import llm_server as llm  # noqa: E402  (tests/ is on sys.path under pytest)
from hypothesis import given, settings
from hypothesis import strategies as st

from detectors.backends.answers import parse_score, parse_yes_no, read_verdict
from detectors.backends.images import ImageError, load_image, to_data_url
from detectors.vlm import VLMDetector

ANSWERS = [
    json.loads(line)
    for line in (Path(__file__).parent / "fixtures" / "free_text_answers.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
]


def read(row):
    if row["protocol"] == "alignbench":
        return parse_score(row["answer"], echo=(row["sentence"],))
    return parse_yes_no(row["answer"], echo=(row["statement"],))


def test_free_text_answers_give_their_verdicts_or_none():
    assert len(ANSWERS) >= 50
    got = [read(r) for r in ANSWERS]
    wrong = [
        (r["answer"], g, r["expect"]) for r, g in zip(ANSWERS, got, strict=True) if g is not None and g != r["expect"]
    ]
    assert wrong == []  # a missed verdict is counted; a wrong one would be a silent lie
    with_verdict = [g == r["expect"] for r, g in zip(ANSWERS, got, strict=True) if r["expect"] is not None]
    assert sum(with_verdict) / len(with_verdict) >= 0.9
    assert [g for r, g in zip(ANSWERS, got, strict=True) if r["expect"] is None] == [None] * sum(
        r["expect"] is None for r in ANSWERS
    )


def test_the_judge_scores_free_text_and_reports_the_rest_as_parse_failures():
    rows = [r for r in ANSWERS if r["protocol"] == "alignbench"]
    current = {}
    with llm.ScriptedServer(lambda body, n: current["answer"]) as server:
        det = VLMDetector(backend={"base_url": server.url, "model": "m", "cache": None, "max_workers": 1})
        out = []
        for i, r in enumerate(rows):
            current["answer"] = r["answer"]
            out.append(det.detect({"id": str(i), "caption": r["sentence"], "references": ["a photo"]}))
    failures = 0
    for r, d in zip(rows, out, strict=True):
        assert d.details["parse_failures"] == (read(r) is None)
        if read(r) is None:
            failures += 1
            assert d.score is None and "no judgement could be read" in d.error
            assert d.details["unparsed"] == [r["answer"][:500]]
        else:
            assert d.error is None and d.score == pytest.approx(1 - r["expect"] / 100)
    assert failures == sum(r["expect"] is None for r in rows) > 0


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            list("yesnotcrrectwrong 0123456789/%.:,*\"'{}")
            + [
                " not ",
                " correct",
                " out of ",
                " score",
                "hallucinat",
                "n't",
                " seventy",
                "-five",
                "\n",
                '{"score": ',
                "<think>",
                "</think>",
                "```",
            ]
        ),
        max_size=40,
    ).map("".join)
)
def test_readers_never_raise_and_stay_in_range(text):
    score = parse_score(text)
    assert score is None or 0 <= score <= 100
    verdict = read_verdict(text)
    assert verdict is None or 0 <= verdict <= 1
    assert parse_yes_no(text) in (True, False, None)


# -- image paths -------------------------------------------------------------------------------
@pytest.fixture
def tree(tmp_path):
    """root/ with a real image, a text file named .png, a symlink out; a real image outside."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "ok.png").write_bytes(llm.PNG)
    (root / "notes.png").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (outside / "secret.png").write_bytes(llm.PNG)
    os.symlink(outside / "secret.png", root / "link.png")
    os.mkfifo(root / "pipe.png")  # reading it would block: it must be refused unopened
    return root, outside


@pytest.mark.parametrize(
    "path, why",
    [
        ("../outside/secret.png", "outside the image root"),
        ("../../../../etc/passwd", "outside the image root"),
        ("/etc/passwd", "outside the image root"),
        ("{outside}/secret.png", "outside the image root"),
        ("link.png", "outside the image root"),
        ("sub/../../outside/secret.png", "outside the image root"),
        ("notes.png", "is not a PNG, JPEG, GIF, WebP or BMP image"),
        ("pipe.png", "not a regular file"),
        ("data:text/plain;base64,cm9vdDp4OjA6MA==", "is not an image"),
        ("data:image/png;base64,cm9vdDp4OjA6MA==", "holds no image"),
    ],
)
def test_image_paths_that_escape_or_are_no_images_are_refused(tree, path, why):
    root, outside = tree
    with pytest.raises(ImageError, match=why):
        to_data_url(path.format(outside=outside), root)


def test_refused_images_are_their_records_errors_and_never_sent(tree):
    root, outside = tree
    images = [
        "ok.png",
        "../outside/secret.png",
        str(outside / "secret.png"),
        "link.png",
        "notes.png",
        "../../../../etc/passwd",
    ]
    with llm.ScriptedServer(lambda body, n: '{"score": 100}') as server:
        det = VLMDetector(
            image_root=str(root), use_references=True, backend={"base_url": server.url, "model": "m", "max_workers": 1}
        )
        out = det.detect_batch(
            [{"id": str(i), "caption": "A dog.", "image": im, "references": ["a dog"]} for i, im in enumerate(images)]
        )
    assert out[0].error is None and out[0].score == 0.0
    assert all(d.error and "ImageError" in d.error for d in out[1:])  # no fall-back to the references
    assert server.count == 1 and len(llm.images_of(server.bodies[0])) == 1
    assert load_image("ok.png", root).startswith("data:image/png;base64,")

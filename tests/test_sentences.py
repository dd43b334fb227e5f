"""The one sentence splitter (parsers.sentences): abbreviations, decimals, quotes, ellipses, long
DetailVerifyBench-style paragraphs, and the detectors that use it."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parsers.sentences import Sentence, split_sentences


def cut(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Dr. Brown holds a cat. It sleeps.", ["Dr. Brown holds a cat.", "It sleeps."]),
        ("Mr. and Mrs. Lee stand by St. Mary's church.", ["Mr. and Mrs. Lee stand by St. Mary's church."]),
        ("Some fruit, e.g. Apples and pears. A bowl.", ["Some fruit, e.g. Apples and pears.", "A bowl."]),
        (
            "Vehicles, i.e. cars, line the street. A bus waits.",
            ["Vehicles, i.e. cars, line the street.", "A bus waits."],
        ),
        ("A U.S. Army truck is parked. It is green.", ["A U.S. Army truck is parked.", "It is green."]),
        ("A flag of the U.S. The flag is red.", ["A flag of the U.S.", "The flag is red."]),
        ("Cups, plates, etc. A man eats.", ["Cups, plates, etc.", "A man eats."]),
        ("Cups, plates, etc. On the table.", ["Cups, plates, etc.", "On the table."]),
        ("A poster of J. Smith hangs. Below it a desk.", ["A poster of J. Smith hangs.", "Below it a desk."]),
    ],
)
def test_abbreviations(text, expected):
    assert cut(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("The bottle holds 3.5 litres. It is full.", ["The bottle holds 3.5 litres.", "It is full."]),
        ("Scores of 67.21% and 0.5. Next one!", ["Scores of 67.21% and 0.5.", "Next one!"]),
        ("A sign reads www.example.com in red.", ["A sign reads www.example.com in red."]),
        ("Version 2.0.1 is shown. 3 cats sit nearby.", ["Version 2.0.1 is shown.", "3 cats sit nearby."]),
    ],
)
def test_decimals_and_dotted_tokens(text, expected):
    assert cut(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ('A sign says "STOP." A car waits.', ['A sign says "STOP."', "A car waits."]),
        ('"Look!" she says to the dog. It runs.', ['"Look!" she says to the dog.', "It runs."]),
        ("A man shouts \u201cHello!\u201d A dog barks.", ["A man shouts \u201cHello!\u201d", "A dog barks."]),
        ("He asks (is it raining?) and waits. Rain falls.", ["He asks (is it raining?) and waits.", "Rain falls."]),
        ("A boy runs. 'Wait,' calls his mother.", ["A boy runs.", "'Wait,' calls his mother."]),
    ],
)
def test_quotes_and_brackets(text, expected):
    assert cut(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("A dog waits... and then runs. The end.", ["A dog waits... and then runs.", "The end."]),
        ("A dog waits... The cat sleeps.", ["A dog waits...", "The cat sleeps."]),
        ("A dog waits\u2026 The cat sleeps.", ["A dog waits\u2026", "The cat sleeps."]),
        ("A dog ... ", ["A dog ..."]),
        ("...", []),
    ],
)
def test_ellipses(text, expected):
    assert cut(text) == expected


def test_lower_case_captions_line_breaks_and_cjk():
    assert cut("a dog on a couch. a cat on a mat.") == ["a dog on a couch.", "a cat on a mat."]
    assert cut("A dog\nA cat on a mat") == ["A dog", "A cat on a mat"]
    assert cut("一只狗。一只猫！") == ["一只狗。", "一只猫！"]
    assert cut("") == [] and cut(" \n\t ") == []
    assert cut("No terminator at all") == ["No terminator at all"]


# A long detailed caption in the style of DetailVerifyBench's model outputs (written for this test).
PARAGRAPH = (
    "The image shows a busy street market in the late afternoon, with approx. twenty stalls lined up "
    "under striped awnings. In the foreground, a vendor in a green apron, e.g. a fruit seller, weighs "
    "2.5 kg of oranges on a metal scale while a woman in a red coat watches. Behind her, a man holds a "
    'sign that reads "FRESH FISH!" above a table of ice. Dr. Lee\'s pharmacy, with a white cross on its '
    "window, stands at the corner... A U.S. Postal Service truck is parked beside it. On the left, "
    "children play near a fountain; one of them holds a blue balloon. Several bicycles lean against a "
    "lamp post, and a black dog sleeps beneath a bench. The sky is overcast, and the wet pavement "
    "reflects the lights of the stalls. There are crates of apples, pears, plums, etc. The overall "
    "mood is lively, with people chatting, bargaining and carrying bags of groceries home."
)


def test_detailverify_paragraph():
    sentences = cut(PARAGRAPH)
    assert len(PARAGRAPH.split()) >= 150
    assert sentences == [
        "The image shows a busy street market in the late afternoon, with approx. twenty stalls lined up "
        "under striped awnings.",
        "In the foreground, a vendor in a green apron, e.g. a fruit seller, weighs 2.5 kg of oranges on a "
        "metal scale while a woman in a red coat watches.",
        'Behind her, a man holds a sign that reads "FRESH FISH!" above a table of ice.',
        "Dr. Lee's pharmacy, with a white cross on its window, stands at the corner...",
        "A U.S. Postal Service truck is parked beside it.",
        "On the left, children play near a fountain; one of them holds a blue balloon.",
        "Several bicycles lean against a lamp post, and a black dog sleeps beneath a bench.",
        "The sky is overcast, and the wet pavement reflects the lights of the stalls.",
        "There are crates of apples, pears, plums, etc.",
        "The overall mood is lively, with people chatting, bargaining and carrying bags of groceries home.",
    ]


@given(st.text(alphabet=st.sampled_from(list("ab .!?\"'\n…3E")), max_size=60))
def test_spans_are_ordered_disjoint_and_trimmed(text):
    spans = split_sentences(text)
    assert all(isinstance(s, Sentence) for s in spans)
    for a, b in spans:
        assert 0 <= a < b <= len(text)
        assert not text[a].isspace() and not text[b - 1].isspace()
        assert any(ch.isalnum() for ch in text[a:b])
    assert all(b1 <= a2 for (_, b1), (a2, _) in pairwise(spans))
    # every letter or digit lies in some sentence
    covered = {i for a, b in spans for i in range(a, b)}
    assert all(i in covered for i, ch in enumerate(text) if ch.isalnum())


# -- the detectors use it --------------------------------------------------------------------
def test_ensemble_sentences_never_overlap_even_when_members_cut_their_own_way():
    from detectors.base import Detection, Detector, SentenceScore
    from detectors.ensemble import EnsembleDetector

    caption = "Dr. Lee holds 3.5 kg of fish. A cat waits... The end."
    ours = split_sentences(caption)

    class Naive(Detector):  # cuts after every ". " like the old splitters did
        name = "naive"

        def detect(self, s):
            import re

            cuts = [0] + [m.end() for m in re.finditer(r"\. ", caption)] + [len(caption) + 1]
            sents = [SentenceScore(a, b - 1, 1.0 if "fish" in caption[a:b] else 0.0) for a, b in pairwise(cuts)]
            return Detection(id=s["id"], detector=self.name, score=1.0, sentences=sents)

    class Ours(Detector):
        name = "ours"

        def detect(self, s):
            return Detection(
                id=s["id"], detector=self.name, score=0.0, sentences=[SentenceScore(a, b, 0.5) for a, b in ours]
            )

    d = EnsembleDetector(members=[Naive(), Ours()]).detect({"id": "x", "caption": caption})
    assert [(s.start, s.end) for s in d.sentences] == [tuple(s) for s in ours]
    assert [round(s.score, 3) for s in d.sentences] == [0.75, 0.25, 0.25]


def test_sentence_scoring_detectors_share_the_splitter():
    from detectors.base import SpanScore
    from detectors.sentence_scores import sentence_scores
    from detectors.vlm import _sentence_scores

    caption = PARAGRAPH
    expected = [tuple(s) for s in split_sentences(caption)]
    assert [(s.start, s.end) for s in sentence_scores(caption, [])] == expected
    assert [(s.start, s.end) for s in _sentence_scores(caption, [SpanScore(0, 3, "The", 1.0)])] == expected

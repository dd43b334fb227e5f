"""Property tests over arbitrary unicode text for the entry points of `knowledge` and `parsers`
(and one level up, `cece.explain`): no text -- empty, punctuation only, a bare hyphen, lone
surrogates, control characters -- may raise, and what comes back is well formed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cece import explain
from knowledge import lemmatize, noun_senses, noun_synset, verb_synset, wup_similarity
from knowledge.concepts import morphy_forms
from parsers import AnnotationError, CaptionParser, from_labels
from parsers.attributes import base_colour, colours_clash

# Any code point, lone surrogates included, plus the punctuation that broke lookups before.
TEXT = st.text(st.characters(), max_size=40) | st.sampled_from(
    ["-", "--", "x- ray", "a - sign", " - ", "\ud800", "\u200b", "\x00", "'s", "...", "é-", "_"])
CAPTIONISH = st.lists(st.sampled_from(["a", "dog", "-", "x-", "ray", "on", "the", "sofa", ",", ".", "\ud800",
                                       "two", "red", "possibly", "and", "\n", "é", "🙂", "''"]),
                      max_size=12).map(" ".join) | TEXT
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def parser():
    return CaptionParser()


@FAST
@given(TEXT)
def test_wordnet_lookups_never_raise(text):
    synset = noun_synset(text)
    senses = noun_senses(text)
    assert synset is None or (synset.count(".") >= 2 and synset == senses[0])
    assert isinstance(lemmatize(text), str) and isinstance(lemmatize(text, "v"), str)
    assert isinstance(morphy_forms(text.lower()), list)
    verb = verb_synset(text)
    assert verb is None or ".v." in verb
    if synset:
        assert 0.0 < wup_similarity(synset, synset) <= 1.0


@FAST
@given(TEXT, TEXT)
def test_attribute_helpers_never_raise(a, b):
    assert isinstance(colours_clash([a], [b]), bool)
    base_colour(a)


@SLOW
@given(CAPTIONISH)
def test_caption_parser_gives_spans_inside_the_text(parser, text):
    g = parser.parse(text)
    assert g.text == text
    for c in g.concepts:
        for a, b in [*c.spans, *([c.phrase_span] if c.phrase_span else [])]:
            assert 0 <= a < b <= len(text)
        assert c.synset is None or c.synset.count(".") >= 2
    for r in g.relations:
        assert 0 <= r.subject < len(g.concepts) and 0 <= r.object < len(g.concepts)


@SLOW
@given(st.lists(CAPTIONISH, max_size=4))
def test_parse_many_equals_parse(parser, texts):
    assert [g.to_dict() for g in parser.parse_many(texts)] == [parser.parse(t).to_dict() for t in texts]


@FAST
@given(st.lists(TEXT, max_size=5))
def test_labels_give_a_graph_or_a_clear_error(labels):
    try:
        g = from_labels(labels)
    except AnnotationError as exc:  # an empty label: named by its position
        assert exc.field.startswith("annotation[")
    else:
        assert len(g.concepts) == len(labels)


@SLOW
@given(CAPTIONISH, st.lists(CAPTIONISH, min_size=1, max_size=3))
def test_explain_in_both_modes_never_raises(caption, refs):
    for image in ({"references": refs}, {"annotation": ["man", "sign", "dog"]}):
        e = explain(caption, **image)
        assert 0.0 <= e.score <= 1.0
        for edit in e.edits:
            assert all(0 <= a < b <= len(caption) for a, b in edit.spans)


@pytest.mark.parametrize("text", ["a - sign", "x- ray", "A doctor looks at an x- ray.", "-", "--", "- x -"])
def test_hyphen_regressions(text):
    assert noun_synset(text) in (None, "sign.n.01", "x_ray.n.01", "ten.n.01")
    e = explain("There is a - sign on an x- ray.", references=[text, "A sign."])
    assert 0.0 <= e.score <= 1.0

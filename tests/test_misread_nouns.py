"""A two-noun name whose head noun the tagger read as a verb ("A bathroom *counter* with a
sink"): the head noun is put back, so the caption's thing is judged, not a relation "counter
with" (:mod:`parsers.misread_nouns`)."""

from __future__ import annotations

import pytest

from cece import explain
from parsers import CaptionParser


@pytest.fixture(scope="module")
def parser():
    return CaptionParser()


@pytest.mark.parametrize(
    "text, triples",
    [
        # a present-tense verb of several cannot have one bathroom as its subject
        ("A bathroom counter with a sink and a mirror.", [("counter", "have", "mirror"), ("counter", "have", "sink")]),
        ("Waffle cone with ice cream in a hand.", [("cone", "have", "ice cream"), ("cone", "in", "hand")]),
        ("Black cologne bottle with a flower pattern.", [("bottle", "have", "pattern")]),
        # a word more often a verb: the first noun is no one who could sink, and only "with" follows
        ("A bathroom sink with a mirror.", [("sink", "have", "mirror")]),
        # no verb at all, read as a past form: "oven", "salad"
        ("An antique oven with chrome handles.", [("oven", "have", "handle")]),
        ("Potato salad with broccoli.", [("potato salad", "have", "broccoli")]),
        # a part of something
        ("A doll head with blonde hair.", [("head", "have", "hair")]),
        # a listed name's second word read as an adjective of another word
        ("a close up of a pink fire hydrant on a city street", [("fire hydrant", "on", "street")]),
        # a name WordNet lists, with the sentence's verb later
        (
            "A teddy bear along with some toys is on the bed.",
            [("teddy bear", "along with", "toy"), ("teddy bear", "on", "bed")],
        ),
    ],
)
def test_a_head_noun_read_as_a_verb_is_the_noun(parser, text, triples):
    assert sorted(parser.parse(text).triples()) == sorted(triples)


@pytest.mark.parametrize(
    "text, triple",
    [
        ("A man face the wall.", ("man", "face", "wall")),  # it governs an object
        ("A woman stand in line.", ("woman", "stand in", "line")),  # somebody who stands
        ("Two people fence in a gym.", ("people", "fence in", "gym")),  # several agree with the verb
        ("White deer walk on the dirt.", ("deer", "walk on", "dirt")),  # "deer" is its own plural
        ("A bowl and a cup sit on a table.", ("cup", "sit on", "table")),  # joined by "and": several
    ],
)
def test_a_verb_that_agrees_or_acts_stays_the_verb(parser, text, triple):
    assert triple in parser.parse(text).triples()


def test_the_head_noun_is_judged_and_rewritten():
    refs = [
        "A white bathtub below a large mirror.",
        "A bathroom with a bathtub and a mirror.",
        "A bathtub in a bathroom with a mirror on the wall.",
    ]
    e = explain("A bathroom sink with a mirror.", references=refs)
    assert e.hallucinated
    [edit] = [x for x in e.edits if x.hallucinated]
    assert edit.cls == "R" and e.caption[slice(*edit.spans[0])] == "bathroom sink"
    assert e.counterfactual == "A bathtub with a mirror."


@pytest.mark.parametrize(
    "text, triples",
    [
        # a noun the tagger reads as an adjective, heading its noun phrase: it was an orphan
        ("A gray mule pulling some people in a cart.", [("mule", "in", "cart"), ("mule", "pull", "people")]),
        (
            "A man is standing over a urinal in a small bathroom stall.",
            [("man", "in", "stall"), ("man", "stand above", "urinal")],
        ),
        ("A little hedgehog is curled up on the grass.", [("hedgehog", "curl up on", "grass")]),
        # ... or as a participle, which takes no adjective
        ("The yellow pastry has a white cream filling.", [("pastry", "have", "filling")]),
        # ... or as a foreign word ("fedora"), which lost the shirt after it too
        (
            "A woman that is wearing a fedora and a white shirt.",
            [("woman", "wear", "fedora"), ("woman", "wear", "shirt")],
        ),
    ],
)
def test_a_head_noun_read_as_an_adjective_is_the_noun(parser, text, triples):
    assert sorted(parser.parse(text).triples()) == sorted(triples)


@pytest.mark.parametrize(
    "text, lemma",
    [
        ("A man driving a white jeep over some rocks.", "white"),  # a colour
        ("An exotic sports car is being displayed with its hood open.", "open"),  # said of the hood
    ],
)
def test_an_adjective_in_a_nouns_place_stays_an_adjective(parser, text, lemma):
    assert lemma not in [c.lemma for c in parser.parse(text).concepts]


def test_a_head_noun_read_as_an_adjective_keeps_its_colour():
    # a generated-FOIL caption: the urinal's colour was lost with its noun, and the clash with it
    refs = ["A pair of shoes have been left in front of this urinal.", "A pair of shoes are in front of a urinal."]
    e = explain(
        "A green urinal with a pair of black shoes in front of it.", references=[*refs, "A white urinal on the wall."]
    )
    assert [(x.level, x.source, x.target) for x in e.edits if x.hallucinated] == [("attribute", "green", "white")]
    assert e.counterfactual == "A white urinal with a pair of black shoes in front of it."

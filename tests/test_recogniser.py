"""FaithScore stage 1: descriptive vs analytical sub-sentences, one test per error family, on
sentences written for these tests."""

from __future__ import annotations

import pytest

from detectors.faithscore import recognise, split_sub_sentences

DESCRIPTIVE = [
    "A brown horse is grazing in a fenced paddock",
    "holding a blue kite",
    "The table is covered with a checkered cloth",
    "There are four boats tied to the dock",
    "The photo shows a man repairing a bicycle",
    "Two pigeons can be seen on the roof",
    "The boy appears to be laughing",
    "featuring white stripes",
    "while the other dog is lying near the door",
]
ANALYTICAL = {
    "framing": ["In the picture", "From the image", "In the background"],
    "connective": ["Furthermore", "Secondly", "On the other hand", "Alternatively"],
    "inference": ["it can be inferred that the family is on holiday", "which suggests that it is early morning",
                  "The wet road indicates that it rained recently", "the hikers might be lost",
                  "as the dog seems to have found a warm spot", "Pigeons are known to gather in city squares"],
    "participle": ["adding a cheerful note to the kitchen", "making it a perfect spot for a picnic",
                   "creating a lively atmosphere", "showcasing the skill of the rider"],
    "purpose": ["to keep the food warm", "which protects the hikers from the wind",
                "The shelf serves as a convenient place for storing books"],
    "evaluative": ["The scene captures the beauty of the autumn forest", "a cozy and inviting corner",
                   "The whole arrangement is visually appealing"],
}


@pytest.mark.parametrize("text", DESCRIPTIVE)
def test_descriptive(text):
    assert recognise([text]) == [1]


@pytest.mark.parametrize("family, text", [(f, t) for f, texts in ANALYTICAL.items() for t in texts])
def test_analytical(family, text):
    assert recognise([text]) == [0], family


def test_a_list_continues_with_the_label_of_its_head():
    assert recognise(["The cat has black", " white", " and orange fur"]) == [1, 1, 1]
    assert recognise(["The lake offers many activities such as fishing", " rowing", " or hiking"]) == [0, 0, 0]


def test_sub_sentences_carry_the_recogniser_labels():
    subs = split_sub_sentences("In the image, a dog sits on a sofa, which adds a homely touch to the room.")
    assert [(s.text, s.label) for s in subs] == [("In the image, a dog sits on a sofa", "descriptive"),
                                                 ("which adds a homely touch to the room.", "analytical")]


def test_empty_and_punctuation():
    assert recognise([]) == [] and recognise(["", " , ", "-"]) == [0, 0, 0]

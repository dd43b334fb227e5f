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
    # words of the lexicon that also describe: a productive verb with a thing in view ...
    "A woman is making a pancake on the stove",
    "giving a carrot to the pony",
    "The shepherd is leading three goats along the path",
    "The waiter is serving a bowl of soup",
    "The chair is made of metal",
    # ... a mild evaluative said of a visible thing, a visible state put mildly
    "A nurse in a safety mask is pushing a trolley",
    "The pond is calm",
    "The baby appears to be comfortable in the stroller",
    "The boy seems to be reading a comic",
    # a position in the picture is no frame
    "On the right side of the photo",
]
ANALYTICAL = {
    "framing": ["In the picture", "From the image", "In the background"],
    "connective": ["Furthermore", "Secondly", "On the other hand", "Alternatively"],
    "inference": [
        "it can be inferred that the family is on holiday",
        "which suggests that it is early morning",
        "The wet road indicates that it rained recently",
        "the hikers might be lost",
        "as the dog seems to have found a warm spot",
        "Pigeons are known to gather in city squares",
    ],
    "participle": [
        "adding a cheerful note to the kitchen",
        "making it a perfect spot for a picnic",
        "creating a lively atmosphere",
        "showcasing the skill of the rider",
    ],
    "purpose": [
        "to keep the food warm",
        "which protects the hikers from the wind",
        "The shelf serves as a convenient place for storing books",
    ],
    "evaluative": [
        "The scene captures the beauty of the autumn forest",
        "a cozy and inviting corner",
        "The whole arrangement is visually appealing",
        "The rug looks warm and perfect for a nap",
        "The mattress seems quite comfortable for the dog",
        "which provides a sense of security",
    ],
    "productive verb, abstract object or clause": [
        "making the office feel more welcoming",
        "The lanterns create a magical glow over the market",
        "giving the garden a rustic charm",
        "which adds depth to the photo",
    ],
    "purpose clause": ["a wide ledge for the birds to perch on", "in order to attract customers"],
    "guess": [
        "The building appears to be a former factory",
        "It looks like the train has been delayed",
        "It seems like a chilly morning",
    ],
    "kind": ["Owls are nocturnal hunters", "Feeding ducks bread is a common pastime"],
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


def test_a_connective_passes_on_no_label():
    # the fragment after "Moreover" is judged on its own, not as a continuation of the connective
    assert recognise(["Moreover", " the lamp near the bed"]) == [0, 1]
    assert recognise(["In the photo", " the skier", " who is wearing goggles"]) == [0, 1, 1]


def test_sub_sentences_carry_the_recogniser_labels():
    subs = split_sub_sentences("In the image, a dog sits on a sofa, which adds a homely touch to the room.")
    assert [(s.text, s.label) for s in subs] == [
        ("In the image, a dog sits on a sofa", "descriptive"),
        ("which adds a homely touch to the room.", "analytical"),
    ]


def test_empty_and_punctuation():
    assert recognise([]) == [] and recognise(["", " , ", "-"]) == [0, 0, 0]

"""Counterfactual captions: only what is wrong changes, in grammatical English, and explaining the
rewrite again finds nothing (a fixed point). Expected rewrites are written by hand."""

from __future__ import annotations

import pytest

from cece import counterfactual, explain
from cece.diff import word_diff
from parsers import load_spacy


def A(objects, relations=()):
    return {"objects": list(objects), "relationships": [list(r) for r in relations]}


REWRITES = [
    # object R / O in the caption's number
    ("A cat on a sofa.", A(["dog", "sofa"]), "A dog on a sofa."),
    ("Two cats on a sofa.", A(["dog", "dog", "sofa"]), "Two dogs on a sofa."),
    ("An elephant standing next to a truck.", A(["elephant", "car"]), "An elephant standing next to a car."),
    ("There is a cat on the bed.", A(["dog", "bed"]), "There is a dog on the bed."),
    ("A man's dog runs on the beach.", A(["man", "cat", "beach"]), "A man's cat runs on the beach."),
    # object D with what only depended on it
    ("A guitar on a sofa.", A(["dog", "sofa"]), "A sofa."),
    ("A dog and a cat sitting on a couch.", A(["dog", "couch"]), "A dog sitting on a couch."),
    ("A cat and a dog are sitting on a couch.", A(["dog", "couch"]), "A dog is sitting on a couch."),
    ("A dog and a cat are sitting on a couch.", A(["dog", "couch"]), "A dog is sitting on a couch."),
    ("A cat, a dog and a bird on a bench.", A(["cat", "bird", "bench"]), "A cat and a bird on a bench."),
    ("A man holding a knife.", A(["man"]), "A man."),
    ("A small boy holding an umbrella.", A(["boy", "kite"]), "A small boy."),
    ("A man that is holding a knife stands near a car.", A(["man", "car"]), "A man stands near a car."),
    ("A man walks while a cat runs behind him.", A(["man"]), "A man walks."),
    ("A plate of pasta and a glass of wine.", A(["plate", "pasta"]), "A plate of pasta."),
    ("A dog sleeps on a bed. A cat sits on the floor.", A(["dog", "bed", "floor"]), "A dog sleeps on a bed."),
    ("A dog chasing a frisbee next to a bench in a park.", A(["dog", "frisbee", "park"]),
     "A dog chasing a frisbee in a park."),
    # attributes and counts, with agreement
    ("A red car parked on a street.", {"objects": [{"name": "car", "attributes": ["blue"]}, "street"]},
     "A blue car parked on a street."),
    ("Three giraffes are standing in a field.", A(["giraffe", "giraffe", "field"]), "Two giraffes are standing in a field."),
    ("Two horses are grazing in a field.", A(["horse", "field"]), "A horse is grazing in a field."),
    ("People are walking on a sidewalk near some cars.", A(["person", "person", "sidewalk", "bus"]),
     "People are walking on a sidewalk near a bus."),
    # relations: the image's predicate in the caption's verb form
    ("A man standing next to a horse.", A(["man", "horse"], [["man", "sitting on", "horse"]]), "A man sitting on a horse."),
    ("A dog sitting on a lap.", A(["man", "dog", "laptop", "lap"], [["laptop", "on", "lap"], ["dog", "next to", "man"]]),
     "A laptop sitting on a lap."),
    ("A woman is riding a horse on the beach.", A(["woman", "horse", "beach"], [["woman", "riding", "horse"]]),
     "A woman is riding a horse."),
    # quantities, tenses, possessives, there-is, lists, several sentences, a long paragraph
    ("A pair of cats on a sofa.", A(["dog", "dog", "sofa"]), "A pair of dogs on a sofa."),
    ("Four sheep grazing on a hill.", A(["sheep", "sheep", "hill"]), "Two sheep grazing on a hill."),
    ("The woman's cat is sleeping.", A(["woman", "dog"]), "The woman's dog is sleeping."),
    ("There are two cats on the bed.", A(["dog", "dog", "bed"]), "There are two dogs on the bed."),
    ("A cat sat on a mat.", A(["dog", "mat"]), "A dog sat on a mat."),
    ("A cat sits on a mat.", A(["dog", "mat"]), "A dog sits on a mat."),
    ("The cats were sitting on a mat.", A(["dog", "dog", "mat"]), "The dogs were sitting on a mat."),
    ("A man rides a bike while a dog runs beside him.", A(["man", "bicycle"]), "A man rides a bike."),
    ("A man and a woman are eating pizza.", A(["man", "pizza"]), "A man is eating pizza."),
    ("A woman in a red dress holds an umbrella.", {"objects": [{"name": "dress", "attributes": ["blue"]}, "woman",
                                                               "umbrella"]}, "A woman in a blue dress holds an umbrella."),
    ("A large dog lies on a small bed.", {"objects": [{"name": "dog", "attributes": ["small"]}, "bed"]},
     "A small dog lies on a small bed."),
    ("A dog with a ball in its mouth.", A(["dog", "frisbee", "mouth"]), "A dog with a frisbee in its mouth."),
    ("A kitchen with a stove, a sink and a toaster.", A(["kitchen", "stove", "sink"]), "A kitchen with a stove and a sink."),
    ("A table with plates, cups and a vase of flowers.", A(["table", "plate", "cup"]), "A table with a plate and a cup."),
    ("Two people ride horses on the beach. A dog follows them.", A(["person", "person", "horse", "horse", "beach"]),
     "Two people ride horses on the beach. A person follows them."),
    ("A bus is parked next to a tree, and a car drives by.", A(["bus", "tree"]), "A bus is parked next to a tree."),
    ("A giraffe eating leaves from a tall tree.", A(["giraffe", "tree", "leaf"]), "A giraffe eating a leaf from a tall tree."),
    ("An old man feeding pigeons in a park.", A(["man", "pigeon", "park"]), "An old man feeding a pigeon in a park."),
    ("A boy throws a frisbee to his dog.", A(["boy", "ball", "dog"]), "A boy throws a ball to his dog."),
    ("A plate with a sandwich and some fries.", A(["plate", "sandwich"]), "A plate with a sandwich."),
    ("A white horse standing in a field.", {"objects": [{"name": "horse", "attributes": ["brown"]}, "field"]},
     "A brown horse standing in a field."),
    ("The image shows a living room with a sofa, a television and a lamp. A cat is sleeping on the sofa, and a dog "
     "is lying on the rug next to it. A window lets in sunlight.",
     A(["living room", "sofa", "television", "cat", "rug", "window", "sunlight"]),
     "The image shows a living room with a sofa and a television. A cat is sleeping on the sofa. A window lets in sunlight."),
]

REFERENCE_REWRITES = [
    ("A dog and a cat sitting on a couch.", ["A dog sitting on a couch.", "A brown dog lying on a sofa."],
     "A dog sitting on a couch."),
    ("Three giraffes standing next to a red truck.", ["Two giraffes near a white truck.",
                                                       "Two giraffes standing by a white pickup truck."],
     "Two giraffes standing next to a white truck."),
    ("Two horses are grazing in a field.", ["A horse grazing in a field.", "One horse in a grassy field."],
     "A horse is grazing in a field."),
]


@pytest.mark.parametrize("caption, annotation, expected", REWRITES, ids=[c for c, _, _ in REWRITES])
def test_rewrite_against_an_annotation(caption, annotation, expected):
    e = explain(caption, annotation=annotation)
    assert e.hallucinated and e.counterfactual == expected
    assert e.fixed_point is True


@pytest.mark.parametrize("caption, references, expected", REFERENCE_REWRITES, ids=[c for c, _, _ in REFERENCE_REWRITES])
def test_rewrite_against_references(caption, references, expected):
    e = explain(caption, references=references)
    assert (e.counterfactual, e.fixed_point) == (expected, True)


@pytest.mark.parametrize("caption, image", [
    ("A dog on a sofa.", {"annotation": A(["dog", "sofa"])}),
    ("A man looking at a horse.", {"references": ["A man with a horse.", "A horse and a man."]}),  # only unverified
    ("A  dog ,on a sofa !", {"annotation": A(["dog", "sofa"])}),
])
def test_faithful_captions_stay_byte_for_byte(caption, image):
    e = explain(caption, **image)
    assert not e.hallucinated and e.counterfactual == caption and e.fixed_point is None


@pytest.mark.parametrize("caption, objects", [("A man walks a dog.", ["man"]), ("A child is flying a kite.", ["child", "balloon"])])
def test_no_grammatical_rewrite_says_why(caption, objects):
    e = explain(caption, annotation=A(objects))
    assert e.hallucinated and e.counterfactual is None
    assert "no grammatical rewrite" in e.counterfactual_note and e.to_dict()["counterfactual"] is None


def test_library_applies_a_chosen_subset_and_maps_edits_to_chars():
    caption = "A red car next to a cat."
    image = {"objects": [{"name": "car", "attributes": ["blue"]}, "dog"]}
    assert counterfactual(caption, annotation=image).text == "A blue car next to a dog."
    e = explain(caption, annotation=image)
    colour = next(k for k, x in enumerate(e.edits) if x.level == "attribute")
    only = counterfactual(caption, annotation=image, edits=[colour])
    assert only.text == "A blue car next to a cat." and only.changed_by() == {colour: [(2, 5, "blue")]}


def test_word_diff():
    assert word_diff("A cat on a sofa.", "A dog on a sofa.") == [("=", "A"), ("-", "cat"), ("+", "dog"), ("=", "on a sofa.")]


def grammar_problems(nlp, text):
    """What a reader would call broken: a bare auxiliary, a preposition without its object, a
    sentence ending on a determiner or conjunction, a subject and verb that disagree."""
    out = []
    for s in nlp(text).sents:
        for t in s:
            if t.dep_ in ("aux", "auxpass") and t.head.i == t.i:
                out.append(f"bare auxiliary {t.text!r}")
            if t.dep_ == "prep" and not list(t.children) and t.i + 1 < len(t.doc) and t.doc[t.i + 1].is_punct:
                out.append(f"dangling {t.text!r}")
            if t.dep_ == "nsubj" and not any(c.dep_ == "conj" for c in t.children):
                verb = next((c for c in t.head.children if c.dep_ == "aux" and c.tag_ in ("VBZ", "VBP")), t.head)
                if (t.tag_, verb.tag_) in (("NNS", "VBZ"), ("NN", "VBP")):
                    out.append(f"agreement {t.text!r} {verb.text!r}")
        if len(s) > 1 and s[-1].is_punct and s[-2].pos_ in ("AUX", "DET", "CCONJ", "ADP"):
            out.append(f"ends on {s[-2].text!r}")
    return out


def test_every_rewrite_is_grammatical():
    nlp = load_spacy()
    for caption, annotation, _ in REWRITES:
        text = explain(caption, annotation=annotation).counterfactual
        assert grammar_problems(nlp, text) == [], (caption, text)
    for caption, references, _ in REFERENCE_REWRITES:
        text = explain(caption, references=references).counterfactual
        assert grammar_problems(nlp, text) == [], (caption, text)

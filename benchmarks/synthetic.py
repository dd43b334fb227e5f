"""Generated inputs for the speed and memory harnesses: captions and image graphs from a small
vocabulary, deterministic for a seed (perf, scaling, memory and report_speed share them).

>>> make_captions(2)
['A white bench on a old boat near a man.', 'A large elephant on a small frisbee with a door.']
"""

from __future__ import annotations

import random

NOUNS = [
    "dog",
    "cat",
    "man",
    "woman",
    "child",
    "horse",
    "bus",
    "car",
    "bicycle",
    "table",
    "chair",
    "sofa",
    "laptop",
    "pizza",
    "cake",
    "plate",
    "cup",
    "bottle",
    "tree",
    "street",
    "beach",
    "kite",
    "frisbee",
    "umbrella",
    "bench",
    "train",
    "boat",
    "bird",
    "sheep",
    "cow",
    "elephant",
    "giraffe",
    "clock",
    "phone",
    "book",
    "bed",
    "window",
    "door",
    "surfboard",
    "skateboard",
]
ADJS = ["", "red ", "small ", "large ", "white ", "black ", "wooden ", "old ", "young ", "two "]
VERBS = [
    "sitting on",
    "standing next to",
    "lying under",
    "riding",
    "holding",
    "looking at",
    "walking near",
    "parked in front of",
    "on",
    "beside",
]


def make_captions(n: int, seed: int = 0) -> list[str]:
    """Deterministic, varied one- and two-clause captions."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        a, b, c = rng.sample(NOUNS, 3)
        s = f"A {rng.choice(ADJS)}{a} {rng.choice(VERBS)} a {rng.choice(ADJS)}{b}"
        if rng.random() < 0.5:
            s += f" {rng.choice(['with', 'near', 'in front of'])} a {c}"
        out.append(s.replace("a two", "two").replace("A two", "Two") + ".")
    return out


def make_image_graph(rng: random.Random, size: int):
    """A random image graph of `size` concepts from the vocabulary, with a few relations."""
    from knowledge import noun_synset
    from parsers import Concept, Relation, SceneGraph

    g = SceneGraph()
    for noun in rng.sample(NOUNS, size):
        g.add_concept(Concept(text=noun, lemma=noun, synset=noun_synset(noun)))
    for _ in range(size // 2):
        u, v = rng.sample(range(size), 2)
        g.add_relation(Relation(u, rng.choice(["on", "next to", "hold", "in front of"]), v))
    return g


#: Other words the references use for some nouns (a caption and its references rarely agree on
#: every word), and more nouns for the scenes: COCO's object classes.
_OTHER_NAMES = {
    "dog": "puppy",
    "man": "guy",
    "woman": "lady",
    "child": "kid",
    "sofa": "couch",
    "bicycle": "bike",
    "phone": "cellphone",
    "car": "vehicle",
    "street": "road",
    "cup": "mug",
}
_SCENE_NOUNS = NOUNS + [
    "truck",
    "motorcycle",
    "airplane",
    "bear",
    "zebra",
    "backpack",
    "handbag",
    "tie",
    "suitcase",
    "ball",
    "bat",
    "glove",
    "racket",
    "glass",
    "fork",
    "knife",
    "spoon",
    "bowl",
    "banana",
    "apple",
    "sandwich",
    "orange",
    "broccoli",
    "carrot",
    "donut",
    "toilet",
    "television",
    "mouse",
    "keyboard",
    "microwave",
    "oven",
    "sink",
    "refrigerator",
    "vase",
    "scissors",
    "toothbrush",
    "hydrant",
    "sign",
    "meter",
]
_PLACES = ["park", "kitchen", "yard", "field", "garage", "square", "office", "garden"]
_CAPTION_FORM = "A {adj}{a} {verb} a {b} {prep} a {c} in the {place}."
_REFERENCE_FORMS = [
    "A {adj}{a} {verb} a {b} in the {place}.",
    "A {a} {verb} a {b} {prep} a {c}.",
    "A {b} and a {a} {prep} a {c} in the {place}.",
    "There is a {a} next to a {b} in this picture.",
    "A picture of a {c} and a {a} in the {place}.",
]


def scene_records(n: int, seed: int = 0, hallucinated: float = 1 / 3) -> list[dict]:
    """Records shaped like HAT's: a caption (13 words) and five reference captions (10 words)
    of one scene -- three objects, a relation, an adjective, a place -- the references in varied
    words ("dog" / "puppy"). A share ``hallucinated`` of the captions names one object the scene
    does not have, as about a third of HAT's captions do.

    >>> r = scene_records(3)[0]
    >>> len(r["references"]), len(r["caption"].split())
    (5, 13)
    """
    rng = random.Random(seed)
    out = []
    for i in range(n):
        a, b, c, stranger = rng.sample(_SCENE_NOUNS, 4)
        words = {"adj": rng.choice(ADJS[1:-1]), "verb": rng.choice(VERBS), "place": rng.choice(_PLACES)}

        def name(noun: str) -> str:
            return _OTHER_NAMES[noun] if noun in _OTHER_NAMES and rng.random() < 0.5 else noun

        refs = [
            form.format(a=name(a), b=name(b), c=name(c), prep=rng.choice(["near", "in front of", "with"]), **words)
            for form in _REFERENCE_FORMS
        ]
        rng.shuffle(refs)
        caption = _CAPTION_FORM.format(
            a=a, b=b, c=stranger if rng.random() < hallucinated else c, prep=rng.choice(["near", "with"]), **words
        )
        out.append({"id": f"s{i}", "model": "gen", "caption": caption, "references": refs})
    return out

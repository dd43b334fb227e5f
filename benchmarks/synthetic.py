"""Generated inputs for the speed and memory harnesses: captions and image graphs from a small
vocabulary, deterministic for a seed (perf, scaling, memory and report_speed share them).

>>> make_captions(2)
['A white bench on a old boat near a man.', 'A large elephant on a small frisbee with a door.']
"""

from __future__ import annotations

import random

NOUNS = ["dog", "cat", "man", "woman", "child", "horse", "bus", "car", "bicycle", "table", "chair",
         "sofa", "laptop", "pizza", "cake", "plate", "cup", "bottle", "tree", "street", "beach",
         "kite", "frisbee", "umbrella", "bench", "train", "boat", "bird", "sheep", "cow", "elephant",
         "giraffe", "clock", "phone", "book", "bed", "window", "door", "surfboard", "skateboard"]
ADJS = ["", "red ", "small ", "large ", "white ", "black ", "wooden ", "old ", "young ", "two "]
VERBS = ["sitting on", "standing next to", "lying under", "riding", "holding", "looking at",
         "walking near", "parked in front of", "on", "beside"]


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

"""The animal an animal's young is the young of, read from its WordNet gloss when the index is
built (:func:`knowledge.hierarchy.build_hierarchy`). WordNet files a "puppy" under dog.n.01 and a
"fawn" under deer.n.01, but a "kitten", a "lamb", a "foal", a "calf" or a "piglet" only under
young_mammal.n.01, defined as "young domestic cat", "young sheep", "a young horse": a kitten was
no kind of cat, and a caption's kitten where the references see a cat was a thing none of them
names. The index adds the animal its gloss names as a second parent.

>>> _gloss_animal("young domestic cat"), _gloss_animal("young of domestic cattle")
(['domestic', 'cat'], ['domestic', 'cattle'])
>>> _gloss_animal("young of any of various canines"), _gloss_animal("an inexperienced young person")
(['any', 'of'], None)
"""

from __future__ import annotations

import re
from typing import Any

#: The young of animals WordNet files by age alone.
YOUNG = ("young.n.01", "young_mammal.n.01", "young_bird.n.01", "young_fish.n.01")
_OPENING = re.compile(r"(?:an? |the )?(?:very )?young (?:of )?([a-z]+)(?: ([a-z]+))?")


def _gloss_animal(gloss: str) -> list[str] | None:
    """The two words after a gloss's opening "(a) young (of)", or None for another opening."""
    m = _OPENING.match(gloss.lower())
    return None if m is None else [w for w in m.groups() if w]


def build_young(reader: Any) -> dict[str, str]:
    """Per noun synset WordNet files under one of :data:`YOUNG`, the animal synset its gloss names
    after "young" (two words, else the second, else the first: "domestic cat", "cattle" of
    "domestic cattle", "sheep"), when it is an animal that is not above it already."""
    young = [reader.synset(name) for name in YOUNG]
    animal = reader.synset("animal.n.01")
    out: dict[str, str] = {}
    for synset in reader.all_synsets("n"):
        if not set(synset.hypernyms()) & set(young) or (words := _gloss_animal(synset.definition())) is None:
            continue
        above = set(synset.closure(lambda s: s.hypernyms()))
        for phrase in ("_".join(words), words[-1], words[0]):
            found = reader.synsets(phrase, "n")[:1]
            if found and animal in found[0].closure(lambda s: s.hypernyms()) and found[0] not in above:
                out[synset.name()] = found[0].name()
                break
    return dict(sorted(out.items()))

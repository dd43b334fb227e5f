"""The adjective -> nouns table of :mod:`knowledge.having`, read from WordNet when its index is built
(:func:`knowledge.hierarchy.build_hierarchy`): derivations, pertainyms and glosses, which the cached
index does not otherwise keep."""

from __future__ import annotations

import re
from typing import Any

#: What a gloss says when the adjective means having the thing, not being like it.
_HAVING = re.compile(
    r"\b(presence of|abounding|covered with|covered in|full of|filled with|having|containing|"
    r"consisting of|furnished with|made of)\b"
)
#: Endings that make an adjective of a noun (grass-y, tusk-ed, wool-en, sun-ny).
_ENDINGS = ("y", "ed", "d", "en", "n")


def _made_from(adjective: str, noun: str) -> bool:
    """Whether ``adjective`` is ``noun`` with an adjective ending ("tiled" from "tile", "muddy"
    from "mud" with its last letter doubled)."""
    for stem in (noun, noun[:-1] if noun.endswith("e") else ""):
        if stem and adjective.startswith(stem):
            rest = adjective[len(stem) :]
            if rest in _ENDINGS or (len(rest) > 1 and rest[0] == stem[-1] and rest[1:] in _ENDINGS):
                return True
    return False


def build_having(reader: Any) -> dict[str, tuple[str, ...]]:
    """Per one-word adjective, the nouns whose thing it says is there, from an NLTK WordNet
    reader: a noun the adjective is derived from (or pertains to), spelled as its stem, and named
    in the gloss of that sense with a word of having ("abounding in", "covered with",
    "having"...)."""
    found: dict[str, set[str]] = {}
    for pos in ("a", "s"):
        for synset in reader.all_synsets(pos):
            gloss = synset.definition().lower()
            if not _HAVING.search(gloss):
                continue
            glossed = {f for w in re.findall(r"[a-z]+", gloss) for f in (w, *reader._morphy(w, "n"))}
            for lemma in synset.lemmas():
                adjective = lemma.name().lower()
                for other in lemma.derivationally_related_forms() + lemma.pertainyms():
                    noun = other.name().lower()
                    if (
                        other.synset().pos() == "n"
                        and len(noun) > 2
                        and noun in glossed
                        and "_" not in adjective + noun
                        and _made_from(adjective, noun)
                    ):
                        found.setdefault(adjective, set()).add(noun)
    return {adjective: tuple(sorted(nouns)) for adjective, nouns in sorted(found.items())}

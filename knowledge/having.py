"""Adjectives that say a thing is there: a "grassy" field has grass, a "leafy" tree leaves, a
"snowy" road snow, a "tusked" elephant tusks.

A reference that calls the field grassy has seen the grass a caption names, although it never
uses the noun. WordNet links such an adjective to its noun (a derivation or a pertainym), and
its gloss says whether the adjective means having the thing ("abounding in grass", "covered
with snow", "having tusks") or only resembling it ("glassy": resembling glass; "silky",
"creamy", "bushy" hair): only the first kind is kept. The pairs are read once, when the WordNet
index is built (:func:`knowledge.having_index.build_having`), and looked up with :func:`nouns_had`.

>>> nouns_had("grassy"), nouns_had("snowy"), nouns_had("leafy")
(('grass',), ('snow',), ('leaf',))
>>> nouns_had("glassy"), nouns_had("silky"), nouns_had("red")
((), (), ())
"""

from __future__ import annotations

from knowledge.hierarchy import get_hierarchy


def nouns_had(adjective: str) -> tuple[str, ...]:
    """The nouns whose thing ``adjective`` says is there (see the module docstring)."""
    return get_hierarchy().having.get(adjective.lower(), ())

"""Names WordNet gives a whole "X of Y" phrase: "a *body of water*", "a *chest of drawers*", "a
*loaf of bread*", "a *bird of prey*".

The parser reads "a large body of water" as two things and a relation -- (body, of, water), the
body a human body -- and "a chest of drawers" as a thorax of underpants. A phrase that WordNet
lists as one noun (``body_of_water``: a lake, a river or a sea is a kind of it; ``chest_of_drawers``:
the dresser it is another name for) is one thing: the first noun's mention takes the phrase as its
name (:attr:`parsers.draft_graph.Mention.tail`), and the second noun's mention becomes its alias.
Only a physical thing is joined: "a cup of tea" is in WordNet as what one likes, and "a piece of
cake" as an easy task, where a caption means the drink and the cake.

>>> from parsers import CaptionParser
>>> g = CaptionParser().parse("A boat in a large body of water.")
>>> [(c.lemma, c.synset) for c in g.concepts], g.triples()
([('boat', 'boat.n.01'), ('body of water', 'body_of_water.n.01')], [('boat', 'in', 'body of water')])
"""

from __future__ import annotations

from functools import lru_cache

from knowledge import noun_synset, objecthood
from knowledge.hierarchy import get_hierarchy
from parsers.draft_graph import Draft


@lru_cache(maxsize=4096)
def of_name(first: str, second: str) -> str | None:
    """The WordNet name of "``first`` of ``second``" (``first`` a lemma) when it is a physical
    thing, else None.

    >>> of_name("body", "water"), of_name("chest", "drawers"), of_name("cup", "tea"), of_name("cup", "coffee")
    ('body of water', 'chest of drawers', None, None)
    """
    if f"{first}_of_{second}" not in get_hierarchy().lemmas("n"):
        return None
    name = f"{first} of {second}"
    synset = noun_synset(name)
    return name if synset and objecthood(synset) != "abstract" else None


def join_of_names(d: Draft) -> None:
    """Each "X of Y" that WordNet names as one thing (module docstring) becomes one mention:
    the second noun right after "of", with no word of its own before it ("a body of *the*
    water" is not the name)."""
    doc = d.doc
    for idx, m in enumerate(d.mentions):
        root = doc[m.root]
        if m.alias is not None or m.tail is not None or root.i + 2 >= len(doc):
            continue
        of, second = doc[root.i + 1], doc[root.i + 2]
        k = d.tok2m[second.i]
        if of.lower_ != "of" or of.head.i != root.i or second.head.i != of.i or k < 0 or k == idx:
            continue
        other = d.mentions[k]
        if other.root != second.i or other.start != second.i or other.alias is not None:
            continue
        if of_name(root.lemma_.lower(), second.lower_) is None:
            continue
        m.end, m.tail = max(m.end, other.end), second.i
        d.links = [
            link
            for link in d.links
            if not ({link.subject, link.object} == {idx, k} and [doc[t].lower_ for t in link.tokens] == ["of"])
        ]
        other.alias = idx

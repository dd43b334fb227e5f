"""A quantifier noun and the things it counts: "a couple of dogs", "a group of people", "a
piece of cake", "a pile of rice and beans".

Upstream reads "a group of people" as two objects, the group and the people, related by "of".
:func:`fold_quantifiers` makes the quantifier an alias of what it quantifies, which gets its count
("many", "2") and its relations -- as does every further member of the list after its "of" ("The
plate has a pile of rice *and beans*": the plate has the beans too).

>>> from parsers.caption import CaptionParser
>>> CaptionParser().parse("The plate has a pile of rice and beans.").triples()
[('plate', 'have', 'rice'), ('plate', 'have', 'bean')]
"""

from __future__ import annotations

from typing import Any

from knowledge import lexname, names_portion, noun_synset, one_pair
from parsers.draft_graph import Draft, Link, flatten


def fold_quantifiers(d: Draft, quantifiers: dict[str, str]) -> None:
    """ "a group of people": the group aliases the people, who get count "many"; "a piece of
    cake", "a slice of pizza": a piece or an amount (:func:`knowledge.names_portion`) aliases
    the cake, whose count it does not say ("two pieces of cake" is one cake)."""
    doc = d.doc
    for idx, m in enumerate(d.mentions):
        root = doc[m.root]
        # plural quantifiers too: "two bunches of bananas", "stacks of plates"
        value = quantifiers.get(root.lower_, quantifiers.get(root.lemma_.lower()))
        value = "many" if value is None and _a_group_of_several(root) else value
        portion = value is None and names_portion(root.lemma_.lower())
        if (value is None and not portion) or m.alias is not None:
            continue
        for p in root.children:
            if p.dep_ != "prep" or p.lower_ != "of" or p.i != root.i + 1:
                continue
            objs = [g for g in p.children if g.dep_ == "pobj" and d.tok2m[g.i] >= 0]
            if objs:
                t_idx = d.tok2m[objs[0].i]
                target = d.mentions[t_idx]
                # "lots of kinds of donuts": counts already folded into "kinds" move on too;
                # "a pair of jeans" is one pair of jeans, not two ("a pair of shoes" is two)
                pair = (
                    root.lemma_.lower() == "pair"
                    and objs[0].tag_ == "NNS"
                    and one_pair(objs[0].lower_, noun_synset(objs[0].lower_))
                )
                if not portion:
                    target.counts.extend(m.counts + ([value] if value and not pair else []))
                start = (m.phrase or (m.start, m.end))[0]
                target.phrase = (start, (target.phrase or (target.start, target.end))[1])
                # upstream's (group, of, people) is the quantity itself, not a relation; nor is
                # the "of" a coordinated quantity shares ("a group of men and a group of women")
                d.links = [
                    k
                    for k in d.links
                    if not (k.subject == idx and len(k.tokens) == 1 and doc[k.tokens[0]].lower_ == "of")
                ]
                m.alias = t_idx
                _share_with_list(d, idx, [d.tok2m[g.i] for g in flatten(objs[0]) if g.i != objs[0].i])


def _share_with_list(d: Draft, idx: int, others: list[int]) -> None:
    """Give the other members of the list after a quantifier's "of" the quantifier's relations,
    which its first member takes over: "The plate has a pile of rice *and beans*" has the beans."""
    for k in list(d.links):
        for o in others:
            if o < 0 or o == idx:
                continue
            if k.object == idx and k.subject != o:
                d.links.append(Link(k.subject, o, k.tokens))
            elif k.subject == idx and k.object != o:
                d.links.append(Link(o, k.object, k.tokens))


def _a_group_of_several(root: Any) -> bool:
    """Whether noun ``root`` names a group (WordNet files it so) of the plural after its "of":
    "a *batch* of cucumbers", "a *cluster* of grapes", "a *family* of ducks" count them."""
    synset = noun_synset(root.lemma_.lower())
    if synset is None or lexname(synset) != "noun.group":
        return False
    of = [p for p in root.children if p.dep_ == "prep" and p.lower_ == "of" and p.i == root.i + 1]
    return any(g.dep_ == "pobj" and g.tag_ in ("NNS", "NNPS") for p in of for g in p.children)

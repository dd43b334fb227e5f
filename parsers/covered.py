"""A thing named inside a participle that covers or fills another: "the *snow* covered ground",
"*moss*-covered rocks", "a *water* filled tank", "a *tree* lined street".

spaCy hangs the noun on the participle (``npadvmod``), so it heads no noun phrase and the thing
is lost on both sides: a caption's snow could not be checked, nor a reference's snow found.
:func:`add_covering_things` makes it a mention of its own, related to the thing the participle
describes as the participle says ("ground covered with snow"), and :func:`covering_noun` tells
the attribute reader that the participle is said by that relation, not as a modifier.

>>> from parsers.caption import CaptionParser
>>> CaptionParser().parse("Two people lying on the snow covered ground.").triples()
[('people', 'lie on', 'ground'), ('ground', 'cover with', 'snow')]
"""

from __future__ import annotations

import re
from typing import Any

from knowledge import noun_synset, objecthood
from parsers.draft_graph import Draft, Link, Mention

#: Participles that say what covers or fills the thing they describe, with the noun before them.
COVERING = frozenset(
    ("covered", "filled", "lined", "topped", "coated", "capped", "laden", "strewn", "dotted", "littered")
    + ("packed", "stuffed", "dusted", "sprinkled", "crusted", "encrusted")
)

#: What can cover or fill another: a thing, or stuff ("snow", "water").
_SEEN = ("thing", "stuff")

#: A covering participle right after a noun ("tree| lined", "snow|-covered").
_COVERING_AFTER = re.compile(r"[-\s]+(?:" + "|".join(sorted(COVERING)) + r")\b", re.IGNORECASE)


def before_covering(text: str, end: int) -> bool:
    """Whether a covering participle follows the noun ending at char ``end`` of ``text``: such a
    bare noun ("a *tree* lined road") says nothing of how many there are.

    >>> before_covering("a tree lined road", 6), before_covering("a tree by a road", 6)
    (True, False)
    """
    return _COVERING_AFTER.match(text, end) is not None


def covering_noun(participle: Any) -> Any | None:
    """The noun token that ``participle`` says covers or fills its head noun ("snow" of "snow
    covered"), or None."""
    if participle.lower_ not in COVERING or participle.dep_ != "amod":
        return None
    for c in participle.children:
        if c.dep_ in ("npadvmod", "compound") and c.i < participle.i and objecthood(noun_synset(c.lower_)) in _SEEN:
            return c
    return None


def add_covering_things(d: Draft) -> None:
    """Make each noun a :func:`covering_noun` finds a mention, linked from the mention of the
    participle's head noun by the participle and "with"."""
    doc = d.doc
    for t in doc:
        noun = covering_noun(t)
        if noun is None:
            continue
        owner, already = d.tok2m[t.head.i], d.tok2m[noun.i]
        if owner < 0 or d.mentions[owner].root != t.head.i or (already >= 0 and d.mentions[already].root == noun.i):
            continue  # no mention of the covered thing, or the covering one has its own already
        idx = d.add_mention(Mention(root=noun.i, start=noun.i, end=noun.i + 1))
        d.links.append(Link(owner, idx, (t.i,), canonical_text=f"{t.lower_} with"))

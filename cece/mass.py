"""How the references say a thing: counted ("a pizza", "two dogs") or as a mass ("a plate of
pasta", "some meat"). A mass has no number to contradict ("three kinds of meats" where they
say "some meat" is no count claim) and takes no "a" in a rewrite ("eating a sandwich" ->
"eating pasta"). And by what name: a rewrite says "a cherry picker" where every reference does,
not "a picker" (:func:`said_name`).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from cece.counterfactuals.words import noun_form
from knowledge import PREPOSITIONS, lemmatize, noun_synset
from parsers import SceneGraph
from parsers.attribute_words import COLOURS, MATERIALS, NUMBER_WORDS
from parsers.language import is_modifier

#: Words that count the noun they come before ("a red and white top"), and words that determine
#: it without saying whether it can be counted ("the", "his").
_COUNTING = frozenset({"a", "an", "one", "each", "every", "another", *NUMBER_WORDS[2:]})
_DEFINITE = frozenset({"the", "this", "that", "his", "her", "its", "their", "my", "your", "our", "whose"})
#: Words a noun phrase starts after with no determiner: prepositions, "of", "some", "is".
_BEFORE_PHRASE = frozenset(
    {w for p in PREPOSITIONS for w in p.split()[:1]} | {"of", "for", "from", "to", "some", "is", "are", "was", "were"}
)
#: What reading a mention back stops at.
_NOT_MODIFIERS = _COUNTING | _DEFINITE | _BEFORE_PHRASE


def uncounted(image: SceneGraph, g: Any) -> bool:
    """Whether the references say image concept ``g`` as a mass: never in the plural, never
    counted ("a pasta", "a red and white bread"), and at least twice with no determiner ("a plate
    of pasta", "with bloody makeup", "Pasta on a plate") or after "some". A mention is read back
    over its adjectives to the word before them; "the", and a noun or verb there ("a man eating
    pasta": spelling alone cannot tell "eating" from "sliced"), say neither.

    >>> from parsers import Concept
    >>> refs = SceneGraph([Concept("pasta", "pasta", spans=[(0, 5), (29, 34)])],
    ...                   text="Pasta on a table. A plate of pasta.", kind="references")
    >>> uncounted(refs, refs.concepts[0])
    True
    """
    if image.kind != "references" or not g.spans:
        return False
    plural, bare = noun_form(g.lemma, True), 0
    for (a, b), before in zip(g.spans, _words_before(image, g), strict=True):
        if image.text[a:b].lower() == plural != noun_form(g.lemma, False) or before in _COUNTING:
            return False
        bare += before is None or before in _BEFORE_PHRASE
    return bare >= 2


def in_its_word(image: SceneGraph, g: Any, word: str) -> Any | None:
    """Image concept ``g`` as said in ``word``: only its mentions in that word, and a reference's
    "one" only where it says that word; None when none does. An entity merges the general word of
    one reference with the kinds others name ("fruit" and "a pomegranate"): one pomegranate is no
    one fruit, but "two puppies" are still several dogs.

    >>> from parsers import Concept
    >>> fruit = Concept("fruit", "fruit", spans=[(10, 15), (19, 30)], votes={"number": {"one": [0, 1]}})
    >>> refs = SceneGraph([fruit], text="Slices of fruit. A pomegranate.", kind="references",
    ...                   parts=[(0, 16), (17, 31)])
    >>> in_its_word(refs, fruit, "fruit").votes
    {'number': {'one': [0]}}
    """
    spans = _spans_in_word(image, g, word)
    if not spans:
        return None
    refs = {image.part_of(a) for a, _ in spans}
    votes: dict[str, dict[str, list[int]]] = {}
    for kind, by_value in g.votes.items():
        for value, ks in by_value.items():
            if kept := [k for k in ks if k in refs or value not in ("one", "1")]:
                votes.setdefault(kind, {})[value] = kept
    return replace(g, spans=spans, votes=votes)


def counted_in_word(image: SceneGraph, g: Any, word: str) -> Any | None:
    """Image concept ``g`` with the counts that references give it in ``word`` where that word
    is more general than the entity's (``general count`` votes, :mod:`parsers.references`): "two
    branches" said of the entity one reference calls "a tree branch" says how many branches a
    caption's "two branches" are, though not how many tree branches. None when none does.

    >>> from parsers import Concept
    >>> limb = Concept("tree branch", "limb.n.02", spans=[(2, 13), (30, 38)],
    ...                votes={"number": {"one": [0]}, "general count": {"2": [1]}})
    >>> refs = SceneGraph([limb], text="A tree branch. A koala on two branches.", kind="references",
    ...                   parts=[(0, 14), (15, 39)])
    >>> counted_in_word(refs, limb, "branch").votes["count"]
    {'2': [1]}
    """
    general = g.votes.get("general count")
    if not general:
        return None
    refs = {image.part_of(a) for a, _ in _spans_in_word(image, g, word)}
    said = {v: [k for k in ks if k in refs] for v, ks in general.items()}
    if not any(said.values()):
        return None
    counts = {v: list(ks) for v, ks in g.votes.get("count", {}).items()}
    for v, ks in said.items():
        counts.setdefault(v, []).extend(k for k in ks if k not in counts[v])
    return replace(g, votes={**g.votes, "count": counts})


def _spans_in_word(image: SceneGraph, g: Any, word: str) -> list[tuple[int, int]]:
    """The spans of image concept ``g``'s mentions in ``word``: a form lemminflect makes
    ("papers"), or one WordNet reads back ("zucchinis")."""
    n, forms = len(word.split()), {noun_form(word, False), noun_form(word, True)}
    tails = [(a, b, " ".join(image.text[a:b].lower().split()[-n:])) for a, b in g.spans]
    return [(a, b) for a, b, t in tails if t in forms or lemmatize(t) == lemmatize(word)]


def said_plural(image: SceneGraph, g: Any) -> bool:
    """Whether the references say image concept ``g`` only in the plural, in a word with no
    singular form ("jeans", "clothes", "tights": lemminflect knows no other form of it), and never
    counted: a caption's "a skirt" is rewritten "jeans", not "a jean".

    >>> from parsers import Concept
    >>> refs = SceneGraph([Concept("jean", "jean.n.01", plural=True, spans=[(15, 20)])],
    ...                   text="A girl in blue jeans.", kind="references")
    >>> said_plural(refs, refs.concepts[0])
    True
    """
    from lemminflect import getLemma  # on first use: it imports spaCy

    if image.kind != "references" or not g.spans or not g.plural:
        return False
    for (a, b), before in zip(g.spans, _words_before(image, g), strict=True):
        word = image.text[a:b].lower().split()[-1:] or [""]
        if before in _COUNTING or getLemma(word[0], "NOUN")[:1] != tuple(word):
            return False
    return True


def _words_before(image: SceneGraph, g: Any) -> list[str | None]:
    """For each mention of ``g``, the word before it, read back over its adjectives (None at the
    start of a sentence; "and" for a member of a list after a comma, which shares or drops the
    determiner of the list's first member, as one after "and" does: "wearing red hat, red
    shirt")."""
    out: list[str | None] = []
    for a, _ in g.spans:
        clauses = re.split(r"([.!?;,\n])", image.text[max(0, a - 60) : a])
        words = [w for w in re.findall(r"[a-z]+", clauses[-1].lower()) if w not in ("and", "or")]
        while (
            words and (is_modifier(words[-1]) or words[-1] in COLOURS | MATERIALS) and words[-1] not in _NOT_MODIFIERS
        ):
            words.pop()
        listed = not words and len(clauses) > 1 and clauses[-2] == ","
        out.append(words[-1] if words else "and" if listed else None)
    return out


def said_name(image: SceneGraph, g: Any) -> str:
    """The name the references give image concept ``g``: its lemma, after the noun modifier of
    it that comes right before every mention ("a man in a *cherry* picker", twice: "cherry
    picker", where "picker" alone is one who picks); a modifier some mentions lack ("a kitchen
    counter", "the counter") is no part of its name.

    >>> from parsers import Concept
    >>> picker = Concept("picker", "picker", "picker.n.01", {"other": ["cherry"]}, [(18, 24), (39, 45)])
    >>> refs = SceneGraph([picker], text="A man in a cherry picker. A red cherry picker.", kind="references")
    >>> said_name(refs, picker)
    'cherry picker'
    """
    nouns = [m for m in g.attributes.get("other", []) if m.isalpha() and noun_synset(m)]
    if image.kind != "references" or not g.spans or not nouns:
        return str(g.lemma)
    before = {(re.findall(r"[a-z]+", image.text[max(0, a - 30) : a].lower()) or [""])[-1] for a, _ in g.spans}
    return f"{before.pop()} {g.lemma}" if len(before) == 1 and before <= set(nouns) else str(g.lemma)

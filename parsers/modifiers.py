"""What the words around a mention say about it: attributes, counts, plural, hedges.

>>> from parsers.caption import CaptionParser
>>> g = CaptionParser().parse("Two small brown dogs and possibly a cat.")   # doctest: +SKIP
>>> g.concepts[0].attributes, g.concepts[1].uncertain                          # doctest: +SKIP
({'count': ['2'], 'size': ['small'], 'colour': ['brown']}, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from parsers.attribute_words import (
    COLOURS,
    COUNT_WORDS,
    HEDGE_ADVERBS,
    HEDGE_MODALS,
    HEDGE_VERBS,
    ONE_DETERMINERS,
    TONES,
    VAGUE_COUNTS,
    counts_several,
    names_with,
)
from parsers.attributes import count_value
from parsers.covered import covering_noun
from parsers.draft_graph import CHAIN_WORDS, Draft, Mention, first_of_list, flatten
from parsers.verb_words import own_plural

_COUNT_DEPS = frozenset(("det", "predet", "amod", "quantmod", "nummod"))
#: Sizes said of the whole thing even when spaCy hangs them on a noun modifier ("a *large*
#: gingerbread castle"); a length or height there is the modifier's ("a *long* sleeve shirt",
#: "*high* heel shoes").
_OVERALL_SIZES = frozenset(("small", "large", "big", "little", "huge", "tiny", "giant", "massive", "enormous"))
_ARG_DEPS = frozenset(("attr", "dobj", "oprd"))
#: Verbs whose complement is the colour they give their subject ("painted green").
_COLOURING = frozenset(("paint", "color", "colour"))


def modifier_values(
    doc: Any, m: Mention, heads: set[int], compounds: Iterable[int] = ()
) -> tuple[list[str], list[str]]:
    """(attribute words, count values) of a mention; ``heads`` are the head-word tokens, which
    are the object's name, not its modifiers, and ``compounds`` the noun modifiers the name left
    out ("city" street). "close to", "full of" are relations, not attributes."""
    root = doc[m.root]
    counts: list[str] = []
    left_out = set(compounds)
    mods: list[Any] = [doc[i] for i in sorted(left_out)]
    one_name: dict[int, str] = {}  # noun modifiers that are one name with their adjective ("flat screen")
    # the other words of a compound name carry modifiers too: "a white | school bus" hangs
    # "white" on "school", "a silver and red | fire hydrant" hangs "silver" on "fire" as nmod
    named = (x for h in sorted(heads) if h != m.root for x in doc[h].children)
    for c in [*root.children, *(x for x in named if x.dep_ == "amod" or x.dep_ == "nmod" and x.pos_ == "ADJ")]:
        dep = c.dep_
        if dep in _COUNT_DEPS:
            low = c.lower_
            if dep == "nummod" or low in VAGUE_COUNTS or low in COUNT_WORDS:
                value = count_value(low)
                if value is not None:
                    if not _counts_a_modifier(doc, c, root, value, heads):  # "a two story house" is one
                        counts.append(value)
                    continue
        if dep == "amod" and covering_noun(c) is not None:
            continue  # "snow covered": a relation to the snow says it (parsers.covered)
        if dep == "amod" or (dep == "nmod" and c.pos_ == "ADJ") or (dep == "compound" and c.i not in heads):
            mods.extend(flatten(c))
            if dep == "compound":
                mods.extend(y for g in c.children if _said_of_the_thing(g, c) for y in flatten(g))
                for g in c.children:
                    if _one_name(g, c):
                        one_name[c.i] = f"{g.lower_} {c.lower_}"
    if root.dep_ == "nsubj" and root.head.lemma_ == "be":  # "The car is red."
        mods.extend(y for c in root.head.children if c.dep_ == "acomp" for y in flatten(c))
    if root.dep_ == "nsubjpass" and root.head.lemma_ in _COLOURING:  # "The building is painted green."
        mods.extend(y for c in root.head.children if c.dep_ == "oprd" for y in flatten(c))
    for clause in root.children:  # "a car that is red", "a building that is painted green"
        if clause.dep_ == "relcl" and (clause.lemma_ == "be" or clause.lemma_ in _COLOURING):
            mods.extend(y for c in clause.children if c.dep_ in ("acomp", "oprd") for y in flatten(c))
    # "a green colored pineapple", "a red-colored car": spaCy hangs the colour on "colored"
    mods += [c for t in mods if t.lower_ in ("colored", "coloured") for c in t.children if c.lower_ in COLOURS]
    mods = sorted(
        {
            t.i: t
            for t in mods
            if t.i not in heads
            and not (t.lower_ in CHAIN_WORDS and any(g.dep_ == "prep" for g in t.children))
            and not _colour_of_a_part(doc, t)
        }.values(),
        key=lambda t: t.i,
    )
    # the noun modifiers the name left out come first, as they are read first
    values = sorted(_join_tones(mods, one_name), key=lambda v: v[0] not in left_out)
    return [word for _, word in values], counts


def _said_of_the_thing(adjective: Any, modifier: Any) -> bool:
    """Whether ``adjective``, which spaCy hangs on the noun ``modifier`` of a mention, describes the
    mention's thing: its overall size ("a *small* matte helicopter") or its colour ("a *blue* yoga
    mat", "a *red* city bus", "a *black* metal pole"); not a length or height ("a *long* sleeve
    shirt"), nor an adjective that is one name with the modifier ("a *red* wine glass")."""
    if adjective.dep_ != "amod" or _one_name(adjective, modifier):
        return False
    return adjective.lower_ in _OVERALL_SIZES or adjective.lower_ in COLOURS


def _one_name(adjective: Any, modifier: Any) -> bool:
    """Whether ``adjective`` right before the noun ``modifier`` makes one name with it: "a *flat
    screen* tv", "a *red wine* glass", "a *green tea* cup" (:func:`names_with`)."""
    if adjective.dep_ != "amod" or adjective.i != modifier.i - 1:
        return False
    return names_with(adjective.lower_, modifier.lemma_.lower())


def _colour_of_a_part(doc: Any, t: Any) -> bool:
    """Whether colour word ``t`` is said of a body part the word after it names ("a *green* eyed
    cat", "a *brown* haired girl", "a *gray* headed monkey"): that part's colour, not the thing's.
    A covering or a pattern shows the thing's colour ("a *blue* zippered jacket", "a *white*
    collared shirt", "a *black* and white striped shirt"), as a word that colours it does ("a
    blue *painted* door").

    >>> from parsers.spacy_model import load_spacy
    >>> doc = load_spacy(exclude=("ner",), fast_attributes=True)("A green eyed cat by a blue striped door.")
    >>> _colour_of_a_part(doc, doc[1]), _colour_of_a_part(doc, doc[6])
    (True, False)
    """
    from knowledge import noun_synset, objecthood

    if t.lower_ not in COLOURS or t.i + 1 >= len(doc):
        return False
    word = doc[t.i + 1].lower_
    if doc[t.i + 1].tag_ not in ("JJ", "VBN", "VBD") or len(word) < 4 or not word.endswith("ed"):
        return False  # (not "a red *bed*")
    if word in COLOURS or word in ("colored", "coloured"):
        return False
    stems = [word[:-1], word[:-2]] + ([word[:-3]] if word[-3] == word[-4] else [])  # eyed, haired, skinned
    return any((s := noun_synset(stem)) is not None and objecthood(s) == "part" for stem in stems)


def _counts_a_modifier(doc: Any, number: Any, root: Any, value: str, heads: set[int]) -> bool:
    """Whether ``number`` (above one) counts the noun modifying a singular ``root`` rather than
    the root: "a *two* story house", "a *three* picture collage", or the noun of an adjective
    made from one, "a *four* sided clock", "a *three* wheeled bicycle" (a number above one before
    a noun that has a plural form of its own would make that noun plural: "two houses"). A word of
    the thing's own name (``heads``: "two fire truck") is no such noun.

    >>> from parsers.spacy_model import load_spacy
    >>> doc = load_spacy(exclude=("ner",), fast_attributes=True)("A two story house.")
    >>> _counts_a_modifier(doc, doc[1], doc[3], "2", {3})
    True
    """
    if not value.isdigit() or int(value) < 2 or root.tag_ != "NN":
        return False
    if own_plural(root.lower_) is not False:  # "two sheep" (the usual plural, not "cake" as stuff)
        return False
    between = [doc[k] for k in range(number.i + 1, root.i) if k not in heads]
    return any(
        t.dep_ in ("compound", "nmod") and t.tag_ == "NN" or t.tag_ in ("JJ", "VBN") and t.lower_.endswith("ed")
        for t in between
    )


def _join_tones(mods: list[Any], names: dict[int, str]) -> list[tuple[int, str]]:
    """(first token, value) of each value of ``mods``: "dark blue" is one colour value, whether
    spaCy hangs "dark" on "blue" or on the noun; a token of ``names`` is the name given there
    ("flat screen" for "screen")."""
    out: list[tuple[int, str]] = []
    used: set[int] = set()
    for n, t in enumerate(mods):
        if t.i in used:
            continue
        low = t.lower_
        if low in COLOURS:
            tone = [c for c in t.children if c.lower_ in TONES and c.i < t.i]
            if tone:
                out.append((t.i, f"{tone[-1].lower_} {low}"))
                continue
        nxt = mods[n + 1] if n + 1 < len(mods) else None
        if low in TONES and nxt is not None and nxt.lower_ in COLOURS and nxt.i - t.i <= 2:
            out.append((t.i, f"{low} {nxt.lower_}"))
            used.add(nxt.i)
            continue
        out.append((t.i, names.get(t.i, low)))
    return out


def mark_uncertain(d: Draft) -> None:
    """Flag hedged mentions: "possibly a cat", "there is probably a dog", "appears to be a dog",
    "looks like a kite", "it might be a cat", each thing of a list joined by "and/or" ("a hat
    and/or a trenchcoat": neither alone is said to be there). A hedge on an adjective ("a
    probably broken umbrella") hedges the attribute, not the object, and is ignored."""
    doc = d.doc
    for t in doc:
        low = t.lower_
        if low in HEDGE_ADVERBS:
            targets = _hedged_by_adverb(d, t)
        elif t.lemma_ in HEDGE_VERBS and t.pos_ in ("VERB", "AUX"):
            targets = _hedged_by_verb(t)
        elif low in HEDGE_MODALS and t.dep_ == "aux" and t.head.lemma_ == "be":
            targets = [y for c in t.head.children if c.dep_ in _ARG_DEPS for y in flatten(c)]
        elif low == "and/or" and t.dep_ == "cc":
            targets = list(flatten(first_of_list(t.head)))
        else:
            continue
        for y in targets:
            idx = d.tok2m[y.i]
            if idx >= 0:
                idx = d.resolve(idx)
                if idx >= 0:
                    d.mentions[idx].uncertain = True


def _hedged_by_adverb(d: Draft, t: Any) -> list[Any]:
    """What a hedging adverb hedges: the noun it modifies; the phrase of the preposition it
    modifies ("possibly *in a living room with a train track*"); for a verb, the subject when the
    hedge comes first ("Maybe a dog is sleeping"), else the verb's objects, else its
    prepositional objects ("a cat, possibly looking *at the camera*", "possibly accompanied *by
    other vegetables*")."""
    h = t.head
    if h.pos_ in ("NOUN", "PROPN", "PRON", "NUM"):
        return list(flatten(h))
    if h.pos_ == "ADP" or (h.pos_ == "ADV" and any(c.dep_ == "prep" for c in h.children)):  # "possibly next to"
        return [y for y in h.subtree if y.i > t.i]
    if h.pos_ in ("VERB", "AUX"):
        subjects = [c for c in h.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects and t.i < subjects[0].i:
            return [y for c in subjects for y in flatten(c)]
        args = [c for c in h.children if c.dep_ in _ARG_DEPS]
        if not args:
            # a passive's agent too ("possibly accompanied *by other vegetables*")
            args = [
                g
                for p in h.children
                if p.dep_ in ("prep", "agent") and p.i > t.i
                for g in p.subtree
                if g.dep_ == "pobj"
            ]
        if not args:
            args = subjects
        return [y for c in args for y in flatten(c)]
    return []


def _hedged_by_verb(v: Any) -> list[Any]:
    out: list[Any] = []
    for c in v.children:
        if c.dep_ == "prep" and c.lower_ == "like":  # "looks like a kite"
            out.extend(y for g in c.children if g.dep_ == "pobj" for y in flatten(g))
        elif c.dep_ == "xcomp" and c.lemma_ == "be":  # "appears to be a dog"
            out.extend(y for g in c.children if g.dep_ in _ARG_DEPS for y in flatten(g))
        elif c.dep_ == "dobj" and v.lemma_ == "resemble":
            out.extend(flatten(c))
    return out


def is_plural(root: Any) -> bool:
    """Whether noun ``root`` is plural: tagged so, unless its own "a", "this", "each" or the like,
    with only modifiers between that count no more than one, says one: of a word that is no other
    word's plural ("a young kangaroo", which the tagger may call plural), or of another word's
    plural with only adjectives between, outside a list ("a women standing", "a double sinks"; not
    "a tank top and black pants", "a persons hands", "a few people")."""
    if root.tag_ not in ("NNS", "NNPS"):
        return False
    from knowledge.concepts import morphy_forms

    det = next((c for c in root.children if c.dep_ == "det" and c.lower_ in ONE_DETERMINERS), None)
    between = root.doc[det.i + 1 : root.i] if det is not None else ()
    one = det is not None and all(
        t.dep_ in ("amod", "compound", "advmod") and t.head.i == root.i and not counts_several(t.lower_)
        for t in between
    )
    if not one:
        return True
    if set(morphy_forms(root.lower_, "n")) <= {root.lower_}:
        return False
    listed = root.dep_ == "conj" or any(c.dep_ in ("cc", "conj") for c in root.children)
    return listed or any(t.dep_ != "amod" for t in between)

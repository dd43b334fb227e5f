"""Verbs the small English model reads as nouns, and the token tests the repairs of
:mod:`parsers.participles` share (:func:`may_be_finite`: a present-tense verb read as a noun).

Besides a participle right after its subject (:mod:`parsers.participles`), the tagger misreads
a verb in three more places:

- the verb of a caption with no other, built into the object of a preposition: "Several apples
  of varying ripeness *hang* on a tree", "A range of veggies *lays* on a white cloth", "A boy
  with a kite *runs* on the beach". The word is the verb of the sentence's head noun when it
  agrees with that noun in number, SemCor has it more often as a verb, a preposition follows,
  and the two words before it are no compound WordNet lists ("a bowl of french *fries* on a
  table" stays a bowl of fries);
- a present-tense verb read as a noun that the parser still gave its subject: "A woman in a
  yellow top *poses* next to a blue wall" (:func:`subject_verb_candidate`);
- a participle joined by "and" to a verb or to that verb's object: "looking at the camera and
  *posing* in the grass", "wearing a red bikini and *standing* in the sand" (not "illustrating art
  and *engineering*", which SemCor has more often as a noun, nor "surrounded by pictures and
  *wording*"); so is a present-tense verb read as a plural noun, joined to a present-tense verb
  ("looks down and *smiles*") or, last in the sentence and naming no thing, to its object ("looks
  in the mirror and *smiles*.", not "shines on citrus fruits and *leaves*").

>>> from parsers.spacy_model import load_spacy
>>> doc = load_spacy(tree_repairs=True)("A lily is wearing a red bikini and standing in the sand.")
>>> [(t.text, t.tag_, t.head.text) for t in doc if t.text == "standing"]
[('standing', 'VBG', 'wearing')]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from knowledge.states import state_of_verb
from parsers.attribute_words import ONE_DETERMINERS, counts_several
from parsers.doers import final_participle
from parsers.verb_words import (
    listed_name,
    more_often_a_verb,
    names_one_thing,
    own_plural,
    seen,
    verb_form,
    verb_participle,
)

#: Tags of a finite verb: a sentence with one has its main verb.
FINITE = frozenset(("VBZ", "VBP", "VBD", "MD"))
#: Modifier deps the tagger gives the words of a phrase it reads as one noun phrase.
INSIDE = frozenset(("amod", "compound", "nmod"))
#: What only a noun has: adjectives, noun modifiers, determiners, numbers, possessors.
_NOUN_DEPENDENTS = INSIDE | {"det", "nummod", "poss"}


def verb_tag(v: Any) -> str:
    """The verb tag a misread word ``v`` gets back: a plural noun or a verb built into a noun
    phrase is a present-tense verb ("VBZ"), a singular noun ending in -ing a participle ("VBG"),
    another singular noun a present-tense verb of several ("two dogs *sleep*": "VBP")."""
    if v.tag_ in ("NNS", "VBZ"):
        return "VBZ"
    return "VBG" if v.lower_.endswith("ing") else "VBP"


def counted(n: Any, v: Any) -> bool:
    """Whether a number above one counts ``n`` (spaCy may hang it from ``v``)."""
    return any(c.dep_ == "nummod" and c.lower_ not in ("one", "1") for t in (n, v) for c in t.children)


def governs_next(doc: Any, i: int) -> bool:
    """Whether what follows token ``i`` is what a verb takes (a preposition, a particle, an
    article, the end), not more of a noun phrase ("a maroon color *four* door car")."""
    return i + 1 >= len(doc) or doc[i + 1].tag_ in ("IN", "RP", "DT", "PRP$", "RB", ".", ",")


def preposition_at(doc: Any, i: int) -> bool:
    """Whether a preposition or particle starts at token ``i``, alone or after an adverb ("next
    to", "close to")."""
    return doc[i].tag_ in ("IN", "RP") or doc[i].tag_ == "RB" and i + 1 < len(doc) and doc[i + 1].tag_ == "IN"


def names_several(t: Any) -> bool:
    """Whether noun ``t`` says several ("men", "two deer", "a couple in black sit"), or is
    joined to another by "and", which makes the two several ("a woman and a man ... *stand*")."""
    joined = any(c.dep_ == "conj" and c.tag_.startswith("NN") for c in t.children)
    return t.tag_ in ("NNS", "NNPS") or counted(t, t) or counts_several(t.lower_) or joined


def prep_object_candidate(doc: Any, i: int) -> tuple[Any, Any, tuple[Any, str], Any] | None:
    """``(noun, verb, (noun's new head, dep), subject)`` when token ``i`` is the verb of a caption
    with none, which the tagger built into the object of a preposition ("Several apples of
    varying ripeness *hang* on a tree", "A carving of an owl *stands* on an arc", "A boy with a
    kite *runs* on the beach"): the sentence's head noun does it when the word agrees with it in
    number, is more often a verb, no number counts it, and a preposition follows. After another
    preposition than "of", a noun compound is likelier ("with flower *designs* on the blade",
    "with rust *stains* in a bathroom"): there the tagger must have read it as a verb, or it is a
    verb of posture or motion (:mod:`knowledge.states`: "with orange eyes *crouches* on")."""
    if i == 0 or i + 1 >= len(doc):
        return None
    v, n = doc[i], doc[i - 1]
    if v.tag_ not in ("NN", "NNS", "VBZ") or v.dep_ != "pobj" or v.head.tag_ != "IN" or n.head.i != v.i:
        return None
    if n.tag_ not in ("NN", "NNS") or counted(n, v):  # (not "glasses of a green *drink* with a straw")
        return None
    if v.head.lower_ != "of" and v.tag_ != "VBZ" and state_of_verb(v.lower_) is None:
        return None
    subject = v.head.head
    if subject.dep_ != "ROOT" or subject.tag_ not in ("NN", "NNS") or not preposition_at(doc, i + 1):
        return None
    if (v.tag_ != "NN") == names_several(subject) or any(t.tag_ in FINITE and t.i != i for t in doc):
        return None
    if not more_often_a_verb(v.lower_) or not verb_form(v.lower_, verb_tag(v)) or listed_name(n.lower_, v.lower_):
        return None
    return n, v, (v.head, "pobj"), subject


def participle_object_candidate(doc: Any, i: int) -> tuple[Any, Any, tuple[Any, str], Any] | None:
    """``(noun, participle, (noun's new head, dep), noun)`` when token ``i`` is a participle the
    parser built into the object of a preposition, with the noun before it as its modifier ("A
    grill with butter *cooking* on it", "a gecko *climbing* on the wall", "a lock *hanging* under
    the handlebars"): the noun is the object, and the participle says what it does. Not a noun
    that first names a food or a substance ("cream *filling*", "cheese *frosting*"), nor a name
    WordNet lists. A participle the tagger read as a noun there says what the one wearing or
    holding the noun does (:func:`parsers.doers.final_participle`: "in a black dress *standing*.")."""
    v, n = doc[i], doc[i - 1]
    if v.tag_ == "NN":
        return final_participle(doc, i)
    if v.tag_ != "VBG" or v.dep_ != "pobj" or v.head.tag_ != "IN" or n.dep_ != "compound" or n.head.i != v.i:
        return None
    if n.tag_ not in ("NN", "NNS") or not (i + 1 == len(doc) or doc[i + 1].is_punct or preposition_at(doc, i + 1)):
        return None
    if not more_often_a_verb(v.lower_) or listed_name(n.lower_, v.lower_) or _names_food(v.lower_):
        return None
    return n, v, (v.head, "pobj"), n


def _names_food(word: str) -> bool:
    """Whether ``word`` first names a food or a substance ("filling", "frosting")."""
    from knowledge import lexname, noun_synset

    synset = noun_synset(word)
    return synset is not None and lexname(synset) in ("noun.food", "noun.substance")


def conjoined_candidate(doc: Any, i: int) -> tuple[Any, Any] | None:
    """``(verb read as a noun, verb)`` when token ``i`` is a participle the tagger read as a noun
    joined by "and" to a verb ("looking at the camera and *posing* in the grass") or to that verb's
    object ("wearing a red bikini and *standing* in the sand"), or a present-tense verb read as a
    plural noun joined to a present-tense verb ("looks down and *smiles*") or, at the end of the
    sentence, to its object ("looks in the mirror and *smiles*."): it is the verb's second verb."""
    v = doc[i]
    form = "VBG" if v.tag_ == "NN" and v.lower_.endswith("ing") else "VBZ" if v.tag_ == "NNS" else None
    if form is None or v.dep_ != "conj" or doc[i - 1].dep_ != "cc":
        return None
    h = v.head
    verb = (
        h
        if h.tag_.startswith("VB")
        else h.head
        if h.dep_ == "dobj"
        else h.head.head
        if h.dep_ == "pobj" and h.head.lower_ != "by"
        else None
    )
    if verb is None or not verb.tag_.startswith("VB") or not verb_participle(v.lower_, form):
        return None
    last = i + 1 == len(doc) or doc[i + 1].is_punct
    if form == "VBZ" and (verb.tag_ != "VBZ" or verb is not h and not (last and not seen(v.lower_))):
        return None  # (not "holding flowers and *drinks*", "shines on citrus fruits and *leaves*")
    if not more_often_a_verb(v.lower_):  # "illustrating art and *engineering*", "pictures and *wording*"
        return None
    if i + 1 < len(doc) and doc[i + 1].is_alpha and names_one_thing(v.lower_, doc[i + 1].lower_):
        return None
    return v, verb


def relink_conjoined(v: Any, verb: Any) -> None:
    """Make participle ``v`` the second verb of ``verb``, with the "and" before it."""
    doc = v.doc
    doc[v.i - 1].head = verb
    v.head, v.dep_, v.tag_ = verb, "conj", "VBG" if v.tag_ == "NN" else "VBZ"
    if v.i + 1 < len(doc) and doc[v.i + 1].dep_ in ("prep", "prt") and doc[v.i + 1].head.i == verb.i:
        doc[v.i + 1].head = v  # "and standing *in* the sand"


def subject_verb_candidate(doc: Any, i: int) -> str | None:
    """The verb tag of token ``i`` when it is the verb of a caption with none, which the tagger
    read as a noun but the parser gave its subject all the same: "A woman in a yellow top *poses*
    next to a blue wall", "A man with a cast *tries* to play pool", "A bride and groom *pose*
    outside". It agrees with its subject in number, is more often a verb and is a form of one,
    and no other word is the sentence's verb; not "a girl wearing a suit and blue *goggles*" (the
    goggles are more often a thing; so is "rest": "Two green parrots *rest* on branches" stays
    unread), nor a word with what only a noun has ("door *handles*", "white bridal *wear*")."""
    v = doc[i]
    if v.tag_ not in ("NN", "NNS") or v.dep_ != "ROOT":
        return None
    subject = next((c for c in v.children if c.dep_ == "nsubj" and c.i < i and c.tag_ in ("NN", "NNS", "NNP")), None)
    tag = "VBZ" if v.tag_ == "NNS" else "VBP"
    if subject is None or names_several(subject) != (tag == "VBP"):
        return None
    if any(c.dep_ in _NOUN_DEPENDENTS for c in v.children):  # "door *handles*", "white bridal *wear*"
        return None
    if any(t.tag_ in FINITE for t in doc) or names_one_thing(doc[i - 1].lower_, v.lower_):
        return None  # "with door *handles*": one thing WordNet names
    return tag if more_often_a_verb(v.lower_) and verb_form(v.lower_, tag) else None


def may_be_finite(doc: Any, i: int) -> bool:
    """Whether token ``i``, with no finite verb before it (a participle is no main verb, a later
    one is another clause's: "a batter *swings* while people watch"), may be the sentence's verb:
    a plural noun after a singular one ("a bird *huddles* on a branch"; not after a number: "two
    coffee mugs"), a verb the parser built into a noun phrase ("a deer *walks*", "white deer
    *walk*": "deer" its compound), or a singular noun after a plural or a counted many ("two dogs
    *sleep*", "four deer *walk*"); never a later verb's subject, nor the second word of a thing
    WordNet names."""
    from knowledge import lemmatize

    v, n = doc[i], doc[i - 1] if i else None
    if n is None or v.tag_ not in ("NN", "NNS", "VBZ", "VBP") or v.dep_ in ("nsubj", "nsubjpass"):
        return False  # "the bicycle pedals ... are visible": a later verb's subject
    built_in = n.dep_ in INSIDE and n.head.i == v.i
    # "A lily *looks* around": the noun read as an adjective; "A zucchini *lays*": one by its "a"
    one = n.tag_ == "NNS" and lemmatize(n.lower_) == n.lower_ and any(c.lower_ in ONE_DETERMINERS for c in v.lefts)
    after_one = n.tag_ in ("NN", "NNP", "JJ") or one
    if v.tag_ == "NN":  # a verb of several: "two dogs *sleep*"
        if not (built_in and governs_next(doc, i) and _says_several(n, v)):
            return False
    elif v.tag_ == "VBP":  # "white deer *walk*"
        if not (built_in and _says_several(n, v)):
            return False
    elif not after_one or (v.tag_ == "VBZ" and not built_in) or any(t.tag_ == "CD" for t in doc[:i]):
        return False  # "a bird *huddles*", "a deer *walks*"; not "two coffee mugs"
    if any(t.tag_ in FINITE for t in doc[:i]):
        return False
    counted_many = v.tag_ == "NN" and n.tag_ == "NN" and counted(n, v)
    if names_one_thing(n.lower_, lemmatize(v.lower_)):
        return False
    # after a counted many ("four deer *stand* near the stones") a singular noun can be no thing
    # they are, whatever else it may name
    return verb_form(v.lower_, verb_tag(v)) if counted_many else verb_participle(v.lower_, verb_tag(v))


def _says_several(n: Any, v: Any) -> bool:
    """Whether noun ``n`` before ``v`` says several: a plural ("two dogs"), or a noun whose plural
    is itself counted by a number above one ("four deer walk"; "a three drawer table" is one
    table), or an animal of that kind with no article of one ("white deer walk"; "a deer park" is
    one park, "fried pork chunk" no animal)."""
    if n.tag_ == "NNS":
        return True
    zero_plural, animal = _zero_plural(n.lower_) if n.tag_ == "NN" else (False, False)
    if not zero_plural:
        return False
    if counted(n, v):
        return True
    one = any(c.dep_ == "det" and c.lower_ in ONE_DETERMINERS for t in (n, v) for c in t.children)
    return not one and animal


@lru_cache(maxsize=8192)
def _zero_plural(word: str) -> tuple[bool, bool]:
    """Whether noun ``word`` is its own usual plural (:func:`own_plural`), and whether it is an
    animal."""
    from knowledge import is_animate, noun_synset

    return bool(own_plural(word)), is_animate(noun_synset(word))

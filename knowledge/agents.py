"""Who can do what a verb says: somebody wears a coat, smiles or rides a horse; a thing cannot.

WordNet lists each verb sense's sentence frames, and some have only "Somebody" as the subject
("Somebody ----s something": *wear*, *smile*, *ride*) where others admit "Something" (*sit*,
*hang*, *hold*: "a bowl holding fruit"). A caption that has a word do what only somebody does
("A *human mouth* wearing a coat", "a *lily* posing") puts a thing where a person or an animal
must be -- the sentence says what the word should have been, whatever the word says.

What may take such a verb is wider than people and animals: a group of them ("a *team*
celebrates"), a vehicle, which moves itself ("a *bus* driving down a street") and what pictures
or plays one ("a *statue* of a man riding a horse", "a *teddy bear* wearing a bow").

>>> needs_somebody("wearing"), needs_somebody("smiles"), needs_somebody("sit"), needs_somebody("hold")
(True, True, False, False)
>>> needs_somebody("drives"), needs_somebody("parked")  # "a parked car": done to the car
(True, False)
>>> can_act("mouth.n.01"), can_act("man.n.01"), can_act("bus.n.01"), can_act("teddy.n.01")
(False, True, True, True)
>>> can_act("team.n.01"), can_act("herd.n.01"), can_act("table.n.01")
(True, True, False)
"""

from __future__ import annotations

from functools import lru_cache

from knowledge.concepts import lemmatize, noun_synset, wordnet_first_sense
from knowledge.distance import is_hypernym
from knowledge.hierarchy import get_hierarchy
from knowledge.relations import relation_key
from knowledge.states import NO_OBJECT_FORMS, is_animate

#: How many of a verb's senses (most frequent first) must all be done by somebody: one sense is
#: too narrow a reading of a word ("show" is first "Somebody shows something", but a sign shows a
#: map), every sense too wide (some rare one always admits a thing).
SENSES = 2

#: Things that are not people or animals and still do what they do, in captions: vehicles, and
#: pictures, statues, toys and machines made in someone's likeness.
ACTORS = ("conveyance.n.03", "creation.n.02", "plaything.n.01", "automaton.n.02")
#: Groups of people or animals, which act as one ("a team celebrates", "a herd grazes").
GROUPS = ("social_group.n.01", "biological_group.n.01")


@lru_cache(maxsize=4096)
def needs_somebody(verb: str, transitive: bool = True) -> bool:
    """Whether ``verb`` says its subject does what only somebody does: its first :data:`SENSES`
    WordNet senses have only "Somebody" frames, and ``verb`` is active -- the base form, the
    third person or the -ing form. A past participle says what was done to its subject ("a car
    *parked* on the street"), and is told from a past tense by no word, so neither counts.
    Without an object (``transitive`` False) "lay" is "lie" (:data:`knowledge.states.NO_OBJECT_FORMS`):
    "a fruit *laying* on the grill" does what a thing does.

    >>> needs_somebody("laying"), needs_somebody("laying", transitive=False)
    (True, False)
    """
    from lemminflect import getInflection  # here: lemminflect loads its tables on import

    word = verb.lower()
    lemma = lemmatize(word, "v")
    if not (word.endswith("ing") or word == lemma or word in getInflection(lemma, "VBZ")):
        return False
    if not transitive:
        lemma = NO_OBJECT_FORMS.get(lemma, lemma)
    h = get_hierarchy()
    ids = h.lemmas("v").get(lemma, [])[:SENSES]
    return bool(ids) and all(bool(h.somebody_only[i]) for i in ids)


@lru_cache(maxsize=8192)
def may_be_somebody(word: str) -> bool:
    """Whether noun ``word`` may name a person or an animal: as it is read, or in WordNet's own
    first sense, which the reading passes over for the thing a caption more likely means ("a
    racer" is a racing car unless the sentence has it act, and then it is the one who races).

    >>> may_be_somebody("racer"), may_be_somebody("dog"), may_be_somebody("toaster"), may_be_somebody("car")
    (True, True, True, False)
    """
    return is_animate(noun_synset(word)) or is_animate(wordnet_first_sense(word))


def does_as_somebody(predicate: str, canonical: str | None, verb_synset: str | None) -> bool:
    """Whether a relation -- its ``predicate`` as written, its ``canonical`` form and its verb's
    synset -- has its subject do what only somebody does (:func:`needs_somebody`; a verb with a
    preposition and no object, "laying *on* the grill", is intransitive).

    >>> does_as_somebody("wearing", "wear", "wear.v.01"), does_as_somebody("on", "on", None)
    (True, False)
    """
    if not verb_synset or not predicate.split():
        return False
    key = relation_key(canonical or predicate)
    return needs_somebody(predicate.split()[0], transitive=key == (canonical or predicate))


@lru_cache(maxsize=8192)
def can_act(synset: str | None) -> bool:
    """Whether noun synset ``synset`` names what can do what somebody does: a person or an animal
    (:func:`knowledge.states.is_animate`), a group of them (:data:`GROUPS`: a team, a herd; not
    every group WordNet lists -- its first "table" is an arrangement of data), or one of
    :data:`ACTORS`. An unknown word (None) may be anything: True."""
    if not synset:
        return True
    return is_animate(synset) or any(is_hypernym(a, synset) for a in GROUPS + ACTORS)

"""Who does what a participle says, where spaCy's small model hangs it from the wrong noun.

The parser often hangs a participle from the noun right before it, whatever that noun is: "two
men in wetsuits *surfing* on waves" (the wetsuits surf), "The girl is standing on the grass
*wearing* gray leggings" (the grass wears them), "a boy wearing a helmet *riding* a bike" (a
second object of "wearing"). A reader hangs it from who can do it. :func:`doer_of` finds that
one for a participle hung from a thing that is no person or animal:

- the person or animal a prepositional object's preposition hangs from ("men *in* wetsuits");
- the subject of the verb the preposition hangs from ("The girl is standing *on* the grass
  wearing ...", "standing *in front of* billboards holding a purse"), when the object is no
  vehicle or other thing that acts ("sitting in a car *pulling* a trailer") and the participle
  has an object of its own ("A man stands in a river holding a big fish") or needs somebody to
  do it (:func:`knowledge.agents.needs_somebody`: "wearing"), and is no posture a thing has too
  ("a rifle *laying* on the ground" lies there itself);
- whoever does the verb a direct object belongs to ("a man wearing a parka *inserting* coins").

:func:`final_participle` finds the same one for a participle that ends its clause, which the
tagger reads as a noun with the worn thing or the place before it as its modifier ("in a black
dress *standing*.", "standing in a kitchen *cooking*.").

The parser also coordinates the second thing a person wears or holds with the person: "A man
wearing a hat *and a jacket*" (a second man, who wears the hat), "A girl in a sun dress *and
leggings* stands" (a second girl, in the dress), "A woman wearing a scarf *and a coat* is
standing" (a second subject of "standing"), "A man in a blue shirt *and khaki shorts* holding a
surfboard" (the man's apposition, who holds the surfboard). :func:`regroup` hangs such a noun from the first
object: it follows a participle or preposition of the person that has an object before it, it
cannot act (:func:`knowledge.agents.can_act`: "a man riding a horse and a carriage" may list two
actors) and it is the same broad kind of thing as that object (WordNet's lexicographer file: "a
hat and a jacket", not "a kite and a tree"). A participle of its own then goes to the person too
("A girl wearing a blouse and pants *standing* on the grass"). After a participle the one who
does it need not be a person: "A *cookie* wearing a blouse and pants standing on the grass" (a
wrong word for the girl) still wears both and stands, "a car carrying a bike and a kayak" carries
both.

>>> from parsers.spacy_model import load_spacy
>>> nlp = load_spacy(exclude=("ner",), fast_attributes=True, tree_repairs=True)
>>> [(t.text, t.dep_, t.head.text) for t in nlp("A man wearing a hat and a jacket.")][6:8]
[('a', 'det', 'jacket'), ('jacket', 'conj', 'hat')]
"""

from __future__ import annotations

from typing import Any

from parsers.attribute_words import COLOURS
from parsers.draft_graph import list_member
from parsers.verb_words import names_one_thing, seen, verb_participle

_NOUNS = frozenset(("NN", "NNS", "NNP"))


def _synset(word: Any) -> str | None:
    from knowledge import noun_synset

    return noun_synset(word.lower_)


def _animate(word: Any) -> bool:
    from knowledge.agents import may_be_somebody

    return may_be_somebody(word.lower_)


def _acts(word: Any) -> bool:
    from knowledge.agents import can_act

    return can_act(_synset(word))


def _actor(word: Any) -> bool:
    """Whether ``word`` names a thing that does what somebody does (a vehicle, a statue, a toy:
    :data:`knowledge.agents.ACTORS`): "sitting in a car *pulling* a trailer" may be the car's.
    Not a group of people, which is as often a place one is in ("standing in a crowd *holding* a
    sign")."""
    from knowledge import is_hypernym
    from knowledge.agents import ACTORS

    synset = _synset(word)
    return synset is not None and any(is_hypernym(a, synset) for a in ACTORS)


def owner_of(word: Any) -> Any | None:
    """The person or animal preposition or participle ``word`` hangs from ("a man *in* a helmet",
    "a woman *wearing* a fedora"; "a person dressed *in* black": through the participle), else None."""
    owner = word.head
    if word.dep_ == "prep" and owner.dep_ == "acl" and owner.tag_ == "VBN" and owner.i < word.i:
        owner = owner.head
    if wears(word) and word.dep_ not in ("prep", "acl"):  # "A man is *wearing* a helmet riding": the verb's subject
        subject = _subject(word)
        return subject if subject is not None and subject.tag_ in _NOUNS and _animate(subject) else None
    if word.dep_ not in ("prep", "acl") or owner.tag_ not in _NOUNS:
        return None
    return owner if _animate(owner) else None


def _subject(verb: Any) -> Any | None:
    """The subject of ``verb``: its nsubj, or the noun a relative pronoun subject stands for ("A
    girl *that* is wearing a dress kneeling", "a man *who* is holding a bat")."""
    subject = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    if subject is not None and subject.tag_ in ("WDT", "WP") and verb.dep_ == "relcl":
        return verb.head
    return subject


def _subject_of(prep: Any, t: Any) -> Any | None:
    """The subject of the verb preposition ``prep`` hangs from ("The girl is standing *on* ..."),
    when participle ``t`` needs somebody or governs an object, and the subject is animate."""
    from knowledge.agents import needs_somebody
    from knowledge.states import state_of_verb

    verb = prep.head
    while verb.dep_ == "pobj" and verb.head.dep_ == "prep":  # "standing *in front of* billboards"
        prep, verb = verb.head, verb.head.head
    if prep.dep_ != "prep" or not verb.tag_.startswith("VB") or verb.i > prep.i:  # tags: no POS yet
        return None
    # a posture a thing has too ("a rifle *laying* on the ground": lying) stays the thing's
    alone = not any(c.dep_ == "dobj" for c in t.children)
    if alone and (state_of_verb(t.lower_) is not None or not needs_somebody(t.lower_)):
        return None
    subject = verb.head if verb.dep_ == "acl" else next((c for c in verb.children if c.dep_ == "nsubj"), None)
    if subject is None or subject.tag_ not in _NOUNS or not _animate(subject):
        return None
    return subject


def doer_of(t: Any) -> Any | None:
    """For a participle the parser hung from a prepositional or direct object that is no person or
    animal (module docstring), the person or animal who does it, else None."""
    x = t.head
    if t.dep_ != "acl" or x.dep_ not in ("pobj", "dobj", "conj") or x.i > t.i:
        return None
    if t.tag_ != "VBG" and not (t.tag_ == "NN" and verb_participle(t.lower_)):
        return None
    while x.dep_ == "conj":
        x = x.head
    if x.dep_ not in ("pobj", "dobj") or _animate(t.head):
        return None
    if x.dep_ == "pobj":
        return owner_of(x.head) or (None if _actor(t.head) else _subject_of(x.head, t))
    verb = x.head
    doer_ = verb.head if verb.dep_ == "acl" else _subject(verb)
    if doer_ is None or doer_.tag_ not in _NOUNS or not _animate(doer_):
        return None
    return doer_


def second_object_doer(doc: Any, i: int) -> Any | None:
    """For a participle the tagger read as a second noun object of the participle before it ("a
    boy wearing a helmet *riding* a bike"), the person or animal who does both, else None."""
    v, n, nxt = doc[i], doc[i - 1], doc[i + 1] if i + 1 < len(doc) else None
    if nxt is None or v.tag_ not in ("NN", "VBG") or not v.lower_.endswith("ing") or v.dep_ != "dobj":
        return None
    if n.tag_ not in ("NN", "NNS") or n.dep_ != "dobj" or n.head.i != v.head.i or v.head.dep_ not in ("acl", "relcl"):
        return None
    governs = nxt.tag_ in ("IN", "RP") or any(c.dep_ == "dobj" and c.i > v.i for c in v.children)
    named = names_one_thing(n.lower_, v.lower_) or nxt.pos_ == "NOUN" and names_one_thing(v.lower_, nxt.lower_)
    return owner_of(v.head) if governs and not named and verb_participle(v.lower_) else None  # not "*riding boots*"


def final_participle(doc: Any, i: int) -> tuple[Any, Any, tuple[Any, str], Any] | None:
    """``(noun, participle, (noun's new head, dep), owner)`` when token ``i`` is a participle that
    ends its clause, read by the tagger with the noun before it as one prepositional or direct
    object ("a woman in a black dress *standing*.": the noun "dress standing"): it says what
    the one wearing or holding the noun does, or the one in that place (as :func:`doer_of` finds
    them: "standing in a kitchen *cooking*."), when the two words name no one thing; else None."""
    v, n = doc[i], doc[i - 1]
    if v.tag_ not in ("NN", "VBG") or not v.lower_.endswith("ing") or v.dep_ not in ("pobj", "dobj"):
        return None
    if n.head.i != v.i or n.dep_ != "compound" or i + 1 < len(doc) and not doc[i + 1].is_punct:
        return None
    if n.tag_ not in ("NN", "NNS") or names_one_thing(n.lower_, v.lower_) or not verb_participle(v.lower_):
        return None
    place = (v.head, v.dep_)
    owner = owner_of(place[0])
    if owner is None and v.dep_ == "pobj" and not _actor(n):  # "standing in a kitchen *cooking*."
        owner = _subject_of(place[0], v)
    return (n, v, place, owner) if owner is not None and seen(n.lower_) else None


def relink_doer(v: Any, doer_: Any) -> None:
    """Hang participle ``v`` from ``doer_``; a prepositional phrase right after what ``v``
    governs that the parser hung from the verb before it goes with ``v`` ("wearing a parka
    inserting coins *into a meter*")."""
    before = v.head.head
    v.head, v.dep_, v.tag_ = doer_, "acl", "VBG"
    end = v.right_edge.i + 1
    if end < len(v.doc):
        nxt = v.doc[end]
        if nxt.dep_ == "prep" and nxt.head.i == before.i and before.i < v.i:
            nxt.head = v


def _coordinated_with(c: Any) -> Any | None:
    """The noun ``c`` is coordinated with: its head as a ``conj``, or the subject before it
    of the same verb whose conjunction, or a comma after its phrase, stands between them ("A
    woman wearing a scarf and a coat is standing": "woman" and "coat" both subjects of
    "standing")."""
    if list_member(c):
        return c.head  # an apposition holding a conjunct is the rest of a list ("a hat, a scarf and gloves")
    if c.dep_ == "appos" and any(t.dep_ == "cc" and c.head.i < t.i < c.left_edge.i for t in c.doc):
        return c.head  # "A man in a blue shirt *and khaki shorts* holding": the shorts his apposition
    if c.dep_ != "nsubj":
        return None
    before = [t for t in c.head.children if t.dep_ == "nsubj" and t.i < c.i]
    if not before:
        return None
    if any(t.dep_ == "cc" and before[-1].i < t.i < c.i for t in before[-1].children):
        return before[-1]
    # or a comma right after the first's phrase: "A man wearing blue jeans, a black t-shirt and
    # glasses sits" (the t-shirt a second subject of "sits")
    after = before[-1].right_edge.i + 1
    return before[-1] if after < c.i and c.doc[after].text == "," else None


def _first_object(c: Any) -> tuple[Any, Any] | None:
    """For a noun ``c`` coordinated with a person who does something to an object before it
    ("A man wearing a hat *and a jacket*"), or with anything after its participle ("A cookie
    wearing a blouse *and pants*"), the person (or thing) and that object, when ``c`` is another
    one of the same kind (module docstring), else None."""
    from knowledge import filed_as

    person = _coordinated_with(c)
    if person is None or c.tag_ not in _NOUNS or person.tag_ not in _NOUNS:
        return None
    verb = next((v for v in person.children if v.dep_ in ("acl", "relcl", "prep") and person.i < v.i < c.i), None)
    if verb is None or not (_acts(person) or verb.dep_ == "acl"):
        return None
    first = next((o for o in verb.children if o.dep_ in ("dobj", "pobj") and o.i < c.i), None)
    if first is None or _acts(c):
        return None
    mine, theirs = _synset(c), _synset(first)
    return (person, first) if mine and theirs and filed_as(mine) == filed_as(theirs) else None


def regroup(doc: Any) -> Any:
    """Hang every noun the parser coordinated with a person instead of with the object before it
    from that object, and a participle of its own from the person (module docstring), in place."""
    for c in doc:
        found = _first_object(c)
        if found is None:
            continue
        person, first = found
        for cc in doc[first.i + 1 : c.i]:
            if cc.dep_ in ("cc", "punct") and cc.head.i == person.i:
                cc.head = first
        c.head, c.dep_ = first, "conj"
        for v in [v for v in c.children if v.dep_ == "acl" and v.i > c.i]:
            doer_ = doer_of(v) or (person if v.tag_ == "VBG" else None)
            if doer_ is not None:
                relink_doer(v, doer_)
    return doc


#: Verbs whose object is what is worn ("wearing black", "dressed in black", "clad in red").
WEARING = frozenset({"wear", "dress", "clothe", "clad"})


def worn_colour(n: Any) -> bool:
    """Whether ``n`` is a colour said as what someone wears: right after "in" or a verb of wearing
    ("in black", "wearing white"; not "with black dots", "holding green leaves")."""
    if n.tag_ != "JJ" or n.lower_ not in COLOURS or n.i == 0:
        return False
    before = n.doc[n.i - 1]
    return before.lower_ == "in" or wears(before)


def wears(t: Any) -> bool:
    """Whether token ``t`` is a participle or present-tense verb of wearing ("wearing", "dressed", "wears")."""
    from knowledge import lemmatize

    return t.tag_ in ("VBG", "VBN", "VBZ", "VBP") and lemmatize(t.lower_, "v") in WEARING

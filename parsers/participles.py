"""A participle (or present-tense verb) after its subject, which spaCy's small model reads as a
noun, put back as a verb.

In a caption that is one noun phrase with a participle ("A puppy playing with a ball.", "A kid
playing baseball.", "A bull standing in front of a fence.") the small English model often tags
the participle NN and parses the whole caption as one noun phrase: "puppy" an adjective of the
noun "playing", or "kid" and "playing" modifiers of the noun "baseball" (or, tagged VBG, builds the
noun into it: "A gray *dolphin* swimming", a compound of "swimming"). The subject is lost and
"playing" becomes an object. :func:`repair` (a pipeline component, after the parser) re-reads such
a phrase the way a reader does -- the noun is the head, the participle modifies it (``acl``), and
what followed the participle is its object -- so every later step (scene graph, rewrites, grammar
checks) sees the same corrected tree.

A word ``v`` right after a noun ``n`` is re-read when all of these hold (English morphology and
WordNet, nothing tuned to a caption):

- ``v`` is an ``-ing`` form lemminflect derives from a verb WordNet knows ("playing" <- play), and
  is no thing itself: its first noun sense, if any, is not a visible thing ("building",
  "clothing" and "filling" stay nouns); a present-tense verb that also names a thing is the verb
  when WordNet's sense-tagged corpus has the verb more often ("clings", "flies", "perches";
  :func:`parsers.verb_words.verb_participle`);
- ``v`` and the word after it do not name one thing WordNet knows ("swimming pool", "cutting
  board", "playing field");
- ``n`` can be a subject that does something: a noun whose first sense is a visible thing
  (:func:`knowledge.is_thing`: a person, an animal, an artifact...), not also an adjective when
  tagged as one;
- the phrase the tagger built around them heads the sentence or its subject, and ``v`` has
  something after it to govern (an object or a prepositional phrase).

The same holds of a present-tense verb the tagger reads as a plural noun with no finite verb
before it ("A red fox *stares* at the camera.": the noun "fox stares",
:func:`parsers.misread_verbs.may_be_finite`; also inside a participle's object: "a boy wearing a
cap *smiles*"): after a singular noun, not after a
number ("two coffee mugs"), not the subject of a later verb, and not when the two words name one
thing. So of a verb the tagger got right but the parser built into the noun phrase ("A deer
*walks* on a crosswalk": "deer" a compound of "walks"), and of a verb of several read as a
singular noun ("Two dogs *sleep*.", "Four deer *walk* near the stones."; "a three *drawer* table"
is one table).

Inside a prepositional object the tagger makes the same mistake ("A man in a helmet skiing down a
hill": the noun "helmet skiing"; "in a black jacket and helmet skiing down"; "two horses in a
green pasture grazing on grass"). There the participle says what the one wearing or holding the
object, or in that place, does, as the parser reads "a woman in a coat playing harp": ``n`` (a
thing, a place or scenery; or a colour said as what is worn, "a man in black *walks* by",
"wearing black *sits*") stays the object (or joins the coordination before it: "wearing a coat
and a scarf *standing* next to"), ``v`` modifies the noun the preposition hangs from, when that
noun names a person or an animal and ``v`` is followed by a preposition or particle ("next to"
too) or governs an object of its own ("a child in a helmet holding a bat": the noun "helmet
holding", the bat its object); a singular noun that is more often a verb is the verb of several
when those persons are several ("men in formal dress *stand* in front of"). When the tagger
builds the worn noun, the participle and its object into one prepositional object ("a man in a
red shirt playing tennis": the noun "shirt playing tennis"), the worn noun becomes the object again, the
participle the owner's and the last noun its object -- unless that noun is a garment, which the
``-ing`` word says the purpose of ("a bicycle *racing suit*"). For the same reason a participle
the parser hangs from such an object that is no person or animal is hung from the person or
animal ("two men in wetsuits surfing on waves": the men surf), as is one read as a second object of
the participle before it ("wearing a helmet *riding* a bike", "wearing black shirt *playing cello*"),
or hung from a place its doer is in or on ("standing on the grass *wearing* leggings"): who does
what is :mod:`parsers.doers`, which first regroups a worn or held thing the parser coordinated
with its wearer ("A man wearing a hat and a jacket"). After a finite verb of wearing the same
holds ("A man is wearing a helmet *riding* a bike"), and an article after the participle starts
its object ("in a helmet riding *a segway*"); after a plural worn thing a present-tense verb is
the one wearer's ("a girl in pink sunglasses *smiles*"), and a second verb after "and" is what
the participle governs ("with a red tie *standing* and looking"). Verbs misread elsewhere:
:mod:`parsers.misread_verbs`.

>>> from parsers.spacy_model import load_spacy
>>> doc = load_spacy(exclude=("ner",), fast_attributes=True, tree_repairs=True)("A kid playing baseball.")
>>> [(t.text, t.tag_, t.dep_, t.head.text) for t in doc][1:4]
[('kid', 'NN', 'ROOT', 'kid'), ('playing', 'VBG', 'acl', 'kid'), ('baseball', 'NN', 'dobj', 'playing')]
"""

from __future__ import annotations

from typing import Any

from spacy.language import Language

from parsers.components import install_after_parser
from parsers.coordination import retag_listed_things
from parsers.doers import doer_of, owner_of, regroup, relink_doer, second_object_doer, wears, worn_colour
from parsers.misread_verbs import (
    FINITE,
    INSIDE,
    conjoined_candidate,
    counted,
    may_be_finite,
    names_several,
    participle_object_candidate,
    prep_object_candidate,
    preposition_at,
    relink_conjoined,
    subject_verb_candidate,
    verb_tag,
)
from parsers.verb_words import (
    doer,
    garment,
    more_often_a_verb,
    names_one_thing,
    seen,
    verb_form,
    verb_participle,
)

_NOUN_TAGS = frozenset(("NN", "NNS", "NNP", "JJ"))  # "koala *bear*" may be tagged a name
#: The deps of a phrase that holds the caption's subject: the sentence itself or its subject.
_TOP = frozenset(("ROOT", "nsubj", "nsubjpass"))
#: What a participle can govern after it.
_AFTER = frozenset(("prep", "dobj", "advmod", "prt", "npadvmod", "acomp", "dative", "agent"))


def _phrase_head(v: Any) -> Any:
    """The head of the noun phrase the tagger built ``v`` into: ``v`` itself, or the noun to its
    right that ``v`` modifies ("playing" -> "baseball")."""
    h = v
    while h.dep_ in INSIDE and h.head.i > h.i:
        h = h.head
    return h


def _candidate(doc: Any, i: int) -> tuple[Any, Any, Any] | None:
    """``(noun, participle, phrase head)`` when token ``i`` is a misread participle (module
    docstring), else None."""
    v = doc[i]
    if i == 0:
        return None
    n = doc[i - 1]
    # or tagged as one, heading the sentence with its subject built in ("A gray dolphin *swimming*")
    built_in = v.tag_ == "VBG" and v.dep_ in _TOP and n.dep_ == "compound" and n.head.i == v.i
    if v.tag_ == "NN" and v.lower_.endswith("ing") or built_in and not names_one_thing(n.lower_, v.lower_):
        form = "VBG"
    elif may_be_finite(doc, i):
        form = verb_tag(v)  # "A blue bird huddles on a branch": the noun "bird huddles", no verb
    else:
        return None
    if n.tag_ not in _NOUN_TAGS or n.dep_ not in INSIDE | _TOP:
        return None
    h = _phrase_head(v)
    if h.dep_ not in _TOP or n.head.i not in (v.i, h.i):
        return None
    if h.i == v.i:
        if form == "VBG" and not any(c.i > v.i and c.dep_ in _AFTER for c in v.children):
            return None
    elif h.pos_ not in ("NOUN", "PROPN", "") and h.tag_ not in ("NN", "NNS", "NNP", "NNPS"):
        return None
    nxt = doc[i + 1] if i + 1 < len(doc) else None
    if nxt is not None and nxt.is_alpha and nxt.tag_ not in ("IN", "RP") and names_one_thing(v.lower_, nxt.lower_):
        return None
    if form == "VBG" and not verb_participle(v.lower_, form) or not doer(n.lower_, n.tag_ == "JJ"):
        return None  # (:func:`parsers.misread_verbs.may_be_finite` has checked its verb)
    return n, v, h


def _object_candidate(doc: Any, i: int) -> tuple[Any, Any, tuple[Any, str], Any] | None:
    """``(noun, participle, (noun's new head, dep), owner)`` when token ``i`` is a participle (or
    a present-tense verb, :func:`parsers.misread_verbs.may_be_finite`) the tagger joined to the
    noun before it inside a prepositional object (module docstring), or to the first of a list
    before it ("wearing a *bra* and underwear posing": the noun "bra ... posing")."""
    v = doc[i]
    if i == 0 or i + 1 >= len(doc):
        return None
    n = doc[i - 1]
    if n.dep_ == "conj" and n.tag_ in ("NN", "NNS") and v.lower_.endswith("ing") and n.head.head.i == v.i:
        n = n.head if n.head.dep_ in INSIDE and n.head.i < n.i else n  # the list's first, not "black pants"
    if n.head.i != v.i or n.dep_ not in INSIDE or v.tag_ not in ("NN", "NNS", "VBG", "VBZ", "VBP"):
        return None  # (cheap tests first: this runs for every word)
    colour = worn_colour(n)  # "a man in black walks by", "a woman wearing black sits"
    participle = v.tag_ in ("NN", "VBG") and v.lower_.endswith("ing")
    finite = not participle and may_be_finite(doc, i)
    # a verb after a plural worn thing is the wearer's, who is one ("in pink sunglasses *smiles*")
    worn_plural = not participle and not finite and v.tag_ in ("NNS", "VBZ") and n.tag_ == "NNS" and not counted(n, v)
    worn_plural = worn_plural and not any(t.tag_ in FINITE for t in doc[:i]) and verb_participle(v.lower_, "VBZ")
    # a verb of several read as a singular noun: its owner, found below, must be several
    # ("men in formal dress *stand*"), and it must be more often a verb ("men in the beach *sand*")
    several = (
        not participle and not finite and v.tag_ == "NN" and verb_form(v.lower_, "VBP") and more_often_a_verb(v.lower_)
    )
    if not (participle or finite or several or worn_plural or colour and v.tag_ in ("NNS", "VBZ")):
        return None
    tagged_adjective = participle and n.tag_ in ("JJ", "JJS") and doer(n.lower_, True)  # "wearing a *vest* standing"
    if n.tag_ not in ("NN", "NNS", "NNP") and not colour and not tagged_adjective:
        return None
    governs = preposition_at(doc, i + 1) or any(c.dep_ == "dobj" and c.i > v.i for c in v.children)
    governs = governs or participle and doc[i + 1].tag_ in ("DT", "PRP$")  # "in a helmet riding *a* segway"
    # or a second verb follows ("with a red tie standing *and looking*", "in pink sunglasses smiles *and looks*")
    governs = governs or doc[i + 1].lower_ == "and" and i + 2 < len(doc) and doc[i + 2].tag_.startswith("VB")
    if not governs and not (v.tag_ in ("NNS", "VBZ") and doc[i + 1].is_punct):  # "... and a pink shirt smiles."
        return None
    before = [t for t in doc[: n.i] if t.head.i == v.i]
    cc = doc[before[0].i - 1] if before else doc[n.i - 1]
    if v.dep_ in ("pobj", "pcomp"):  # "in black walking a dog": the participle read as the preposition's
        place: tuple[Any, str] = (v.head, "pobj")
    elif cc.dep_ == "cc" and (cc.head.dep_ == "pobj" or cc.head.dep_ == "dobj" and cc.head.head.dep_ == "acl"):
        place = (cc.head, "conj")  # "in a black jacket and helmet skiing down", "wearing a coat and a scarf standing"
    elif v.dep_ == "dobj" and (v.head.dep_ == "acl" or wears(v.head)):  # "wearing a fedora looks at",
        # "wearing a dress standing in", "A man is wearing a helmet riding a bike"
        place = (v.head, "dobj")
    else:
        return None
    owner = owner_of(place[0] if place[1] != "conj" else place[0].head)
    if owner is None or (several and not names_several(owner)) or (worn_plural and names_several(owner)):
        return None
    if names_one_thing(n.lower_, v.lower_) or not verb_participle(v.lower_, verb_tag(v)):
        return None
    compound = doc[n.i - 1] if n.i and doc[n.i - 1].dep_ == "compound" else None  # "a golf club *squats*"
    seen_ = seen(n.lower_) or compound is not None and seen(f"{compound.lower_} {n.lower_}")
    return (n, v, place, owner) if colour or seen_ else None


def _governing_candidate(doc: Any, i: int) -> tuple[Any, Any, Any, Any] | None:
    """``(noun, participle, its object, owner)`` when token ``i`` is a participle the
    tagger built, with the worn or held noun before it, into one prepositional object whose head is
    in truth the participle's object ("a man in a red shirt playing tennis": the noun "shirt
    playing tennis"), else None."""
    v = doc[i]
    if v.tag_ not in ("NN", "VBG") or i == 0 or v.dep_ not in INSIDE:
        return None
    h = _phrase_head(v)
    n = doc[i - 1]
    if h.i == v.i or h.dep_ not in ("pobj", "dobj") or n.tag_ not in ("NN", "NNS"):
        return None
    # the noun inside the phrase, or a second object of the same preposition or participle ("in a
    # blue shirt eating pizza", "wearing black shirt playing cello": "shirt" and "pizza" / "cello")
    inside = n.dep_ in INSIDE | {"npadvmod"} and n.head.i in (v.i, h.i)
    if not (inside or (n.dep_ == h.dep_ and n.head.i == h.head.i)):
        return None
    if any(t.head.i != h.i for t in doc[i + 1 : h.i]):
        return None
    owner = owner_of(h.head)
    if owner is None or not verb_participle(v.lower_) or not doer(n.lower_, False):
        return None
    if names_one_thing(n.lower_, v.lower_) or names_one_thing(v.lower_, doc[i + 1].lower_) or garment(h.lower_):
        return None
    return n, v, h, owner


def _relink_governed(n: Any, v: Any, h: Any, owner: Any) -> None:
    """Make ``n`` the object of what ``h`` hangs from, ``v`` a participle modifying ``owner`` and
    ``h`` its direct object; the words before ``n`` that hung from ``v`` or ``h`` hang from ``n``."""
    movers = [t for t in n.doc[: n.i] if t.head.i in (v.i, h.i)]
    n.head, n.dep_ = h.head, h.dep_
    v.head, v.dep_, v.tag_ = owner, "acl", "VBG"
    h.head, h.dep_ = v, "dobj"
    for t in movers:
        t.head = n


def _relink_object(n: Any, v: Any, place: tuple[Any, str], owner: Any) -> None:
    """Make ``n`` the prepositional object (or coordinated member) ``place`` says, ``v`` a
    participle modifying ``owner``; the words before ``n`` that hung from ``v`` hang from ``n``,
    and the preposition right after ``v`` from ``v``."""
    doc = n.doc
    movers = [t for t in doc[: n.i] if t.head.i == v.i]
    n.head, n.dep_ = place
    if n.tag_ in ("JJ", "JJS") and not worn_colour(n):
        n.tag_ = "NN"
    v.head, v.dep_, v.tag_ = owner, "acl", verb_tag(v)
    for t in movers:
        t.head = n
    nxt = doc[v.i + 1] if v.i + 1 < len(doc) else v  # itself where it ends the text: nothing to hang
    if nxt.head.i != v.i and nxt.dep_ in ("prep", "prt"):
        nxt.head = v
    obj = nxt.head  # "in a helmet riding *a segway*": the noun phrase after it is its object
    if (
        nxt.dep_ in ("det", "poss")
        and obj.i > v.i
        and obj.head.i != v.i
        and obj.dep_ != "ROOT"
        and v not in obj.subtree
    ):
        obj.head, obj.dep_ = v, "dobj"


def _relink(n: Any, v: Any, h: Any) -> None:
    """Make ``n`` the head of the phrase, ``v`` a participle modifying it, ``h`` (when it is not
    ``v``) the participle's object; what hung before ``n`` hangs from ``n``, prepositions after
    the object from the participle, and the sentence's punctuation from ``n`` when it is the
    root."""
    doc = n.doc
    root = h.head.i == h.i
    dep, top = h.dep_, h.head
    movers = [t for t in doc if t.head.i in (v.i, h.i) and t.i not in (n.i, v.i, h.i)]
    n.head, n.dep_ = (n if root else top), dep
    adjective = n.tag_ == "JJ"
    if adjective:
        n.tag_ = "NN"
    v.head, v.dep_, v.tag_ = n, "acl", verb_tag(v)
    if h.i != v.i:
        h.head, h.dep_ = v, "dobj"
    for t in movers:
        if t.i < n.i or t.is_punct and root and t.head.i == h.i and t.i > h.i and t.text in ".!?;":
            t.head = n
        if adjective and t.i == n.i - 1 and t.dep_ == "nmod":  # "a small white microwave *oven* sets": one name
            t.dep_ = "compound"
            for c in [c for c in t.children if c.i < t.i and c.dep_ in ("amod", "det", "nummod", "poss")]:
                c.head = n
        elif t.head.i == h.i and h.i != v.i and t.i > h.i and t.dep_ == "prep":
            t.head = v


def repair(doc: Any) -> Any:
    """Re-read every misread participle of ``doc`` (module docstring), in place; first the
    things of a list read as verbs (:func:`parsers.coordination.retag_listed_things`) and the
    things worn read as second wearers (:func:`parsers.doers.regroup`)."""
    retag_listed_things(doc)
    regroup(doc)
    for i in range(1, len(doc)):
        found = _candidate(doc, i)
        if found is not None:
            _relink(*found)
            continue
        inside = _object_candidate(doc, i) or prep_object_candidate(doc, i) or participle_object_candidate(doc, i)
        if inside is not None:
            _relink_object(*inside)
            if (who := doer_of(inside[1])) is not None:  # "for the camera *standing*": the boy stands
                relink_doer(inside[1], who)
            continue
        conjoined = conjoined_candidate(doc, i)
        if conjoined is not None:
            relink_conjoined(*conjoined)
            continue
        if (tag := subject_verb_candidate(doc, i)) is not None:
            doc[i].tag_ = tag  # the tree is already a verb's: only the tag was a noun's
            continue
        governing = _governing_candidate(doc, i)
        if governing is not None:
            _relink_governed(*governing)
            continue
        doer_ = doer_of(doc[i]) or second_object_doer(doc, i)
        if doer_ is not None:
            relink_doer(doc[i], doer_)
    return doc


@Language.component("halcece_participles")
def _component(doc: Any) -> Any:
    return repair(doc)


def install(nlp: Language) -> bool:
    """Add :func:`repair` to the pipeline right after its parser (so the attribute ruler and the
    lemmatizer read the new tags: "playing" -> VERB, lemma "play"). False when there is no parser."""
    return install_after_parser(nlp, "halcece_participles")

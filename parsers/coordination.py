"""Two coordinated objects that spaCy's small model reads as one noun phrase, put back as two.

In "a man wearing a tall black tent and black sunglasses" the small English model makes "tent" a
modifier (``nmod``) of "sunglasses", with "and black" hanging from "tent": one object, the
sunglasses, and the tent is lost, so a wrong tent is never judged and a rewrite cannot touch it.
:func:`repair` (a pipeline component, after the parser) re-reads such a phrase as a reader does:
"tent" is the head of the first conjunct and "sunglasses" its ``conj``, each with its own
adjectives.

A noun ``n`` is re-read when all of these hold (English syntax only, nothing tuned to a caption):

- ``n`` is a noun modifier (``nmod`` or ``compound``, or ``amod`` when the tagger calls it a noun
  and it is no colour word: "an orange tank *top* and black pants") of a noun ``h`` to its right;
  a noun modifier of ``n`` itself then names it with it ("*tank* top");
- ``n`` has a coordinating conjunction of its own, and only adjectives (or nothing) stand between
  it and ``h``: "black tent and *black* sunglasses", "a purple dress and purple shoes". Where a
  noun stands there the phrase is one object after all ("a strawberry and passion fruit
  meringue", "a pasta and veggie meal").

The small model also reads the first of two coordinated colours as the noun: "the *grey* and
red car", "*silver* and blue skates", "two *gold* and black vases" make the colour the head and
the thing its ``conj``, so the thing loses its first colour and takes none of the phrase's
relations. :func:`repair` reads these as "a black and white cat" is read: when a colour word has
a ``conj`` noun after it, a conjunction between them and only adjectives between the conjunction
and the noun, the noun stands where the colour stood and the colour is its adjective.

And it sometimes reads the first word of a compound name as a second argument of the same
verb ("a yellow *fire* hydrant opened": "fire" and "hydrant" both subjects of "opened"); two
nouns side by side with the same head in the same role are one name, the first a ``compound``
of the second, as in "a red fire hydrant opened".

And it reads the last thing of a list as a verb now and then ("pancakes, bananas, and *sauce*
on the tea", "a suit and *tie*"): the structure is a list's, only the tag is a verb's, so the
thing is lost; a ``conj`` of a noun after the conjunction with no subject, object or auxiliary
of its own, whose word names a thing, is re-tagged as the noun it is. One read as the verb of
the participle after it ("a man in a suit and *tie* standing next to a car", "wearing a hat and
*sunglasses* standing") joins the list before it, and the participle is the wearer's.

And it reads a colour before a noun that is also a past tense ("a red *rose* in a vase", "a
grey *dove*") as the subject of that verb, or of that noun: the rose is lost, and "pink" becomes
a thing that "rose on" a stem. A colour word that is the subject of the very next word, with
nothing of its own but what goes before a noun, when that word is a noun, or a past tense or
participle with no object or auxiliary whose noun names a thing, is that word's adjective, and
the word the noun.

>>> from parsers.spacy_model import load_spacy
>>> nlp = load_spacy(exclude=("ner",), fast_attributes=True, tree_repairs=True)
>>> doc = nlp("A man wearing a black tent and black sunglasses.")
>>> [(t.text, t.dep_, t.head.text) for t in doc][5:9]
[('tent', 'dobj', 'wearing'), ('and', 'cc', 'tent'), ('black', 'amod', 'sunglasses'), ('sunglasses', 'conj', 'tent')]
"""

from __future__ import annotations

from typing import Any

from spacy.language import Language

from parsers.attribute_words import COLOURS
from parsers.components import install_after_parser
from parsers.doers import owner_of
from parsers.verb_words import verb_participle

_NOUNS = frozenset(("NN", "NNS"))
_ANY_NOUN = frozenset(("NN", "NNS", "NNP", "NNPS"))
# Words before a head that belong to its whole phrase, not to its first word.
_PHRASE_WORDS = frozenset(("det", "predet", "nummod", "poss", "quantmod"))


def _candidate(n: Any) -> Any | None:
    """The head noun when ``n`` is the first of two objects the tagger joined into one noun
    phrase (module docstring), else None."""
    h = n.head
    if n.tag_ not in _NOUNS or h.i <= n.i or h.tag_ not in _NOUNS:
        return None
    # the tagger's noun as an adjective too ("an orange tank *top* and black pants"), unless a colour
    if n.dep_ not in ("nmod", "compound") and not (n.dep_ == "amod" and n.lower_ not in COLOURS):
        return None
    cc = next((c for c in n.children if c.dep_ == "cc" and n.i < c.i < h.i), None)
    if cc is None or any(t.tag_ != "JJ" for t in n.doc[cc.i + 1 : h.i]):
        return None
    return h


def _relink(n: Any, h: Any) -> None:
    """Make ``n`` stand where ``h`` stood and ``h`` its ``conj``; the words before ``n`` that hung
    from ``h`` hang from ``n``, the adjectives after the conjunction from ``h``."""
    doc = n.doc
    movers = [t for t in doc[: n.i] if t.head.i == h.i]
    if h.head.i == h.i:  # the phrase is the sentence
        n.head, n.dep_ = n, h.dep_
        for t in doc:
            if t.head.i == h.i and t.i > h.i and t.is_punct:
                t.head = n
    else:
        n.head, n.dep_ = h.head, h.dep_
    h.head, h.dep_ = n, "conj"
    for t in doc[n.i + 1 : h.i]:
        if t.tag_ == "JJ":
            t.head, t.dep_ = h, "amod"
    for t in movers:
        t.head = n
    for t in n.lefts:
        if t.dep_ == "nmod" and t.tag_ in _NOUNS:
            t.dep_ = "compound"  # the noun before a head noun names it with it: "tank top"


def _coloured_noun(c: Any) -> Any | None:
    """The thing when the colour word ``c`` was read as the head of "``c`` and ADJ thing"
    (module docstring), else None."""
    if c.lower_ not in COLOURS or c.dep_ == "amod":  # an adjective already ("grey and red toy monkey")
        return None
    # a colour word that is a thing of its own ("ice *cream* and other food", "whipped cream")
    if any(t.dep_ not in _PHRASE_WORDS and t.tag_ != "JJ" for t in c.lefts):
        return None
    thing = next((t for t in c.children if t.dep_ == "conj" and t.i > c.i), None)
    if thing is None or thing.tag_ not in _ANY_NOUN:
        return None
    cc = next((t for t in c.children if t.dep_ == "cc" and c.i < t.i < thing.i), None)
    between = c.doc[cc.i + 1 : thing.i] if cc is not None else ()
    if not between or any(t.tag_ != "JJ" for t in between):
        return None
    return thing


def _colour_to_thing(c: Any, thing: Any) -> None:
    """Make ``thing`` stand where the colour ``c`` stood, and ``c`` with the adjective after
    the conjunction its colours, as in "a black and white cat"."""
    doc = c.doc
    if c.head.i == c.i:
        thing.head, thing.dep_ = thing, c.dep_
    else:
        thing.head, thing.dep_ = c.head, c.dep_
    for t in doc:
        if t.head.i == c.i and t.i != c.i and (t.i > thing.i or t.dep_ in _PHRASE_WORDS):
            t.head = thing
    c.head, c.dep_, c.tag_ = thing, "amod", "JJ"
    nxt = doc[c.i + 2] if c.i + 2 < thing.i else None  # "grey and *red* car"
    if nxt is not None and nxt.head.i == thing.i and doc[c.i + 1].dep_ == "cc":
        nxt.head, nxt.dep_ = c, "conj"


def _split_compound(n: Any) -> Any | None:
    """The noun after ``n`` when the two were read as two arguments of one head in the same
    role ("fire" and "hydrant" both subjects of "opened"), else None."""
    if n.i + 1 >= len(n.doc) or n.tag_ not in _ANY_NOUN or not n.is_alpha or n.head.i == n.i:
        return None
    nxt = n.doc[n.i + 1]
    same = nxt.tag_ in _ANY_NOUN and nxt.head.i == n.head.i and nxt.dep_ == n.dep_
    if not same or n.dep_ in ("conj", "compound", "appos"):
        return None
    # "a helmet *riding* a motorcycle": a participle read as a noun is no name's second word
    return None if verb_participle(nxt.lower_) else nxt


def _listed_thing(t: Any) -> str | None:
    """The noun tag for ``t`` where the tagger read the last thing of a list as a verb
    ("pancakes, bananas, and *sauce* on the table", "a suit and *tie*"): a ``conj`` of a noun
    after a conjunction, with no subject, object or auxiliary of its own, whose noun names a
    thing, stuff or a part ("and *smiles*" stays a verb); else None."""
    if t.tag_ not in ("VB", "VBP", "VBZ") or t.dep_ != "conj" or t.head.tag_ not in _ANY_NOUN:
        return None
    if not any(c.dep_ == "cc" and c.i < t.i for c in t.head.children):
        return None
    if any(c.dep_ in ("nsubj", "nsubjpass", "dobj", "aux", "auxpass") for c in t.children):
        return None
    from knowledge import noun_synset, objecthood

    if objecthood(noun_synset(t.lower_)) == "abstract":
        return None
    return "NNS" if t.tag_ == "VBZ" else "NN"


def _coloured_subject(c: Any) -> Any | None:
    """The thing when the colour word ``c`` was read as the subject of the thing's word ("a
    red *rose*", module docstring), else None."""
    if c.lower_ not in COLOURS or c.dep_ != "nsubj" or c.i + 1 >= len(c.doc) or c.head.i != c.i + 1:
        return None
    t = c.head
    if any(x.i > c.i for x in c.children) or any(x.dep_ not in (*_PHRASE_WORDS, "amod", "advmod") for x in c.children):
        return None
    if t.tag_ not in (*_NOUNS, "VBD", "VBN"):
        return None
    if t.tag_ in ("VBD", "VBN"):
        if any(x.dep_ in ("dobj", "aux", "auxpass", "nsubjpass", "ccomp", "xcomp") for x in t.children):
            return None
        from knowledge import noun_synset, objecthood

        if objecthood(noun_synset(t.lower_)) in ("abstract", "part"):
            return None
    return t


def _colour_to_adjective(c: Any, t: Any) -> None:
    """Make the colour ``c`` the adjective of ``t`` and ``t`` the noun, with ``c``'s determiner."""
    for x in list(c.children):
        x.head = t
    c.dep_, c.tag_ = "amod", "JJ"
    if t.tag_ not in _NOUNS:
        t.tag_ = "NN"
    if t.dep_ == "ccomp":  # "holds a red rose upside down": the verb's clause was its object
        t.dep_ = "dobj"


def _listed_before_participle(t: Any) -> tuple[Any, Any, Any] | None:
    """``(first member, participle, owner)`` where the tagger read the last thing worn of a list
    as a verb whose object is the participle right after it ("a man in a suit and *tie* standing
    next to a car", "wearing a hat and *sunglasses* standing on a beach"), else None."""
    doc = t.doc
    if t.tag_ not in ("VB", "VBP", "VBZ") or t.dep_ != "conj" or t.i + 1 >= len(doc):
        return None
    v = doc[t.i + 1]
    if v.tag_ != "VBG" or v.head.i != t.i or v.dep_ not in ("dobj", "xcomp", "ccomp"):
        return None
    cc = max((c for c in t.head.children if c.dep_ == "cc" and c.i < t.i), key=lambda c: c.i, default=None)
    if cc is None or not cc.i or doc[cc.i - 1].tag_ not in _NOUNS:
        return None
    first = doc[cc.i - 1]
    while first.dep_ == "conj" and first.head.tag_ in _NOUNS:
        first = first.head
    from knowledge import noun_synset, objecthood

    if first.dep_ not in ("pobj", "dobj") or objecthood(noun_synset(t.lower_)) == "abstract":
        return None
    owner = owner_of(first.head)
    return None if owner is None else (first, v, owner)


def _relist(t: Any, first: Any, v: Any, owner: Any) -> None:
    """Make ``t`` a noun and the last member of ``first``'s list, and participle ``v`` the
    owner's, with what followed it hanging from ``v``."""
    doc = t.doc
    for c in [c for c in t.head.children if c.dep_ == "cc" and first.i < c.i < t.i]:
        c.head = first
    t.tag_ = "NNS" if t.tag_ == "VBZ" else "NN"
    t.head, t.dep_ = first, "conj"
    v.head, v.dep_ = owner, "acl"
    for x in doc[v.i + 1 :]:
        if x.head.i == t.i:
            x.head = v


def retag_listed_things(doc: Any) -> Any:
    """Tag every listed thing the tagger read as a verb as the noun it is (module docstring), in
    place, and put one read as the verb of the participle after it back in its list
    (:func:`_listed_before_participle`). The participle repair
    (:func:`parsers.participles.repair`) calls it first, as it runs first: who wears what is read
    from these tags."""
    for t in doc:
        if (found := _listed_before_participle(t)) is not None:
            _relist(t, *found)
        elif (tag := _listed_thing(t)) is not None:
            t.tag_ = tag
    return doc


def repair(doc: Any) -> Any:
    """Re-read every pair of objects misread as one noun phrase in ``doc``, every colour
    misread as the noun of its phrase or as the subject of its noun, and every compound name
    misread as two arguments (module docstring), in place."""
    for t in doc:
        if (name := _split_compound(t)) is not None:
            for c in t.lefts:
                if c.dep_ in _PHRASE_WORDS:
                    c.head = name
            t.head, t.dep_ = name, "compound"
    for t in doc:
        head = _candidate(t)
        if head is not None:
            _relink(t, head)
    for t in doc:
        thing = _coloured_noun(t)
        if thing is not None:
            _colour_to_thing(t, thing)
    for t in doc:
        if (thing := _coloured_subject(t)) is not None:
            _colour_to_adjective(t, thing)
    return doc


@Language.component("halcece_coordination")
def _component(doc: Any) -> Any:
    return repair(doc)


def install(nlp: Language) -> bool:
    """Add :func:`repair` to the pipeline right after its parser (the participle repair, added
    after it, goes in front of it: it runs first). False when there is no parser."""
    return install_after_parser(nlp, "halcece_coordination")

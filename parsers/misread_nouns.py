"""The head noun of a two-noun name, which spaCy's small model reads as the verb of the noun
before it, put back as the noun.

A caption that is one noun phrase ("A bathroom *counter* with a sink and a mirror.", "Waffle
*cone* with ice cream.", "An antique *oven* with chrome handles.") often loses its head noun: the
tagger reads the second noun as a present-tense verb ("VBP") whose subject is the first, or as a
past participle modifying it. The scene graph then has a bathroom that "counters with" a sink,
and the counter is gone. :func:`repair` (a pipeline component, right after the parser) makes the
second word the head noun and the first its compound, the way a reader does, when all of these
hold (English agreement and WordNet, nothing tuned to a caption):

- the first word ``n`` is a singular noun said once (not "two", not "deer", which is its own
  plural, and not joined to another by "and"): a present-tense verb of several cannot have it as
  its subject, and a past form must be a verb's ("set", "parked" stay verbs);
- the second word ``v`` names something seen (:func:`parsers.verb_words.seen`) or a part of
  something ("doll *head*", "man *face*"), and governs no object of its own ("A man *face* the
  wall" keeps its verb);
- ``v`` is more often a noun in WordNet's sense-tagged corpus ("counter", "bottle", "face"), or,
  when it is more often a verb, the two words are a name WordNet lists ("teddy bear") or the
  first is no one who could do it and only a "with" phrase follows ("A bathroom *sink* with
  ...": a sink; "A woman *stand* in line" keeps her verb).

The same holds of the second word of a name WordNet lists that the tagger reads as an adjective
hung from another word ("a close up of a pink fire *hydrant*": "hydrant" an adjective of "close").
And a noun the tagger reads as an adjective (or a foreign word: "a *fedora*"; or a participle:
"a white cream *filling*") though the parse makes it the head of its noun phrase ("A gray
*mule* pulling a cart", "standing over a *urinal*") is retagged a noun
(:func:`misread_adjective`); before, it was a thing with no relation and no colour.

>>> from parsers.spacy_model import load_spacy
>>> doc = load_spacy(tree_repairs=True)("A bathroom counter with a sink.")
>>> [(t.text, t.tag_, t.dep_, t.head.text) for t in doc[1:3]]
[('bathroom', 'NN', 'compound', 'counter'), ('counter', 'NN', 'ROOT', 'counter')]
"""

from __future__ import annotations

from typing import Any

from spacy.language import Language

from parsers.attribute_words import COLOURS
from parsers.components import install_after_parser
from parsers.misread_verbs import names_several
from parsers.verb_words import listed_name, more_often_a_verb, own_plural, seen, verb_form

#: Tags the tagger gives a noun it reads as a verb after another noun.
_VERB_TAGS = frozenset(("VBP", "VB", "VBD", "VBN"))
#: Where a noun phrase's head stands.
_NOUN_DEPS = frozenset(("ROOT", "nsubj", "nsubjpass", "dobj", "pobj", "conj", "attr", "appos"))
#: What a verb governs that a noun never does.
_OBJECTS = frozenset(("dobj", "ccomp", "xcomp", "aux", "auxpass", "neg", "prt", "dative"))


def misread_head(v: Any) -> Any | None:
    """The first noun ``n`` when token ``v`` is the head noun of "``n`` ``v``" misread as a verb
    (module docstring), else None."""
    if v.i == 0:
        return None
    n = v.doc[v.i - 1]
    if v.tag_ == "JJ" and n.tag_ == "NN" and n.head.i != v.i and v.head.i != n.i:
        # the second word of a listed name, read as an adjective hung elsewhere ("a pink fire *hydrant*")
        return n if listed_name(n.lower_, v.lower_) and not _adjective(v.lower_) else None
    if v.tag_ not in _VERB_TAGS or v.dep_ not in ("ROOT", "acl"):
        return None
    if not (n.head.i == v.i and n.dep_ in ("nsubj", "nsubjpass") or v.head.i == n.i and v.dep_ == "acl"):
        return None
    if n.tag_ not in ("NN", "NNP") or n.dep_ == "conj" or any(c.dep_ == "conj" for c in n.children):
        return None
    if names_several(n) or own_plural(n.lower_) is not False:
        return None
    word = v.lower_
    if not (seen(word) or _part(word)) or any(c.dep_ in _OBJECTS for c in v.children):
        return None
    if v.tag_ in ("VBD", "VBN") and verb_form(word, v.tag_):
        return None
    if more_often_a_verb(word) and not listed_name(n.lower_, word) and not _only_with(n, v):
        return None
    return n


def misread_adjective(t: Any) -> bool:
    """Whether token ``t``, tagged an adjective, a foreign word or a participle, is a noun the
    parse makes the head of a noun phrase: it has an article or possessive of its own (or, a
    participle, an adjective, which no verb has) and stands where a noun does ("A gray *mule*
    pulling a cart", "standing over a *urinal*", "wearing a *fedora* and a white shirt", "The
    pastry has a white cream *filling*"), and its first WordNet sense is a thing seen
    (:func:`parsers.verb_words.seen`: not "the *other*", "a *close* up", "in the *middle*",
    "in red and white *standing*"). Not a colour ("a *white* jeep": the parse lost the jeep,
    not the white), nor a word that is also an adjective with a noun hung from it, which it says
    something of ("with its hood *open*")."""
    if t.tag_ not in ("JJ", "FW", "VBG") or t.dep_ not in _NOUN_DEPS or t.lower_ in COLOURS:
        return False
    marks = ("det", "poss", "amod") if t.tag_ == "VBG" else ("det", "poss")
    if not any(c.dep_ in marks and c.i < t.i for c in t.children):
        return False
    if _adjective(t.lower_) and any(c.tag_.startswith("NN") for c in t.children):
        return False
    return seen(t.lower_)


def _part(word: str) -> bool:
    """Whether noun ``word``'s first sense is a part of something ("head", "handle")."""
    from knowledge import objecthood
    from knowledge.concepts import wordnet_first_sense

    return objecthood(wordnet_first_sense(word)) == "part"


def _adjective(word: str) -> bool:
    """Whether WordNet knows ``word`` as an adjective."""
    from knowledge import get_hierarchy

    return word in get_hierarchy().adjective_lemmas


def _only_with(n: Any, v: Any) -> bool:
    """Whether ``n`` is no one who could do ``v`` and all that follows ``v`` is a "with" phrase."""
    from knowledge.agents import may_be_somebody

    after = [c for c in v.children if c.i > v.i and not c.is_punct]
    return not may_be_somebody(n.lower_) and bool(after) and all(c.lower_ == "with" for c in after)


def relink(n: Any, v: Any) -> None:
    """Make ``v`` the noun ``n`` was (its head and dependency when ``v`` hung from it), ``n`` its
    compound, and what hung from ``n`` hang from ``v``."""
    if n.head.i != v.i:
        root = n.head.i == n.i
        v.head, v.dep_ = (v if root else n.head), n.dep_
    for t in list(n.children):
        if t.i != v.i:
            t.head = v
    n.head, n.dep_ = v, "compound"
    v.tag_ = "NN"


def repair(doc: Any) -> Any:
    """Put back every head noun misread as a verb or an adjective in ``doc`` (module docstring),
    in place."""
    for v in doc:
        if (n := misread_head(v)) is not None:
            relink(n, v)
        elif misread_adjective(v):
            v.tag_ = "NN"
    return doc


@Language.component("halcece_misread_nouns")
def _component(doc: Any) -> Any:
    return repair(doc)


def install(nlp: Language) -> bool:
    """Add :func:`repair` right after the parser, before the other tree repairs (they read its
    tags). False when there is no parser."""
    return install_after_parser(nlp, "halcece_misread_nouns")

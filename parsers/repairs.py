"""Named repairs of SceneGraphParser's output, each a small step on a :class:`Draft`.

Upstream was written for spaCy 2 and for generic sentences; for judging captions it gets some
things wrong. Each step fixes one of them and has its own test in ``tests/test_parsers.py``:

- ``recover_prep_relations``: relations upstream misses ("The cat *is on* the table", "standing
  *in front of*", "*out of*", "*next to* the dog") and inner nouns of multiword prepositions
  ("front", "top", "side") that are not objects.
- ``join_hyphenated``: "an x-ray" is one object, even where spaCy reads "x", "-" and "ray" as
  three; ``drop_symbols``: a "noun" without a letter or digit ("-") names nothing.
- ``split_possessives``: "a man's lap" names two objects (upstream keeps only the lap).
- ``goal_objects``: "putting money *into* a meter" says where the money goes, not the person:
  (money, into, meter), not (person, into, meter); so does "holding a phone *in his hand*".
- ``resolve_pronouns``: relative pronouns stand for their noun ("a dog *that* lies..."), "*what*
  looks like a kite" for the kite, a subject "he", "she", "it", "they" for the clause subject
  before it that agrees ("A goat stretches as *it* climbs a tree"); every other pronoun is
  dropped (upstream checks the spaCy 2 lemma ``-PRON-``, so "her", "it", "they" become objects
  under spaCy 3).
- quantifiers ("a couple of dogs", "a group of people") are :mod:`parsers.quantifiers`.
- ``merge_alternatives``: "a fork or a knife" is one object with an alternative.
- ``drop_negated``: "no cars", "without a hat" assert absence, not objects.
- ``drop_copulas``: "the man is a player" is identity, not a relation between two objects.

The picture framing the caption ("A photo of", "a close up of") is :mod:`parsers.frames`.

>>> from parsers.caption import CaptionParser
>>> CaptionParser().parse("A woman holding her dog.").triples()   # doctest: +SKIP
[('woman', 'hold', 'dog')]
"""

from __future__ import annotations

from typing import Any

from knowledge import is_animate, is_hypernym, is_thing, noun_synset, objecthood
from knowledge.agents import can_act, needs_somebody
from parsers.draft_graph import (
    CHAIN_WORDS,
    DROPPED,
    HYPHENS,
    Draft,
    Link,
    Mention,
    flatten,
    joins_next,
    phrase_subject,
    prep_predicate,
    verb_subject,
    verb_tokens,
    with_verb,
)
from parsers.verb_words import verb_form

# Indefinite pronouns that name a person: kept, and WordNet knows them (someone -> person.n.01).
# "something" is dropped: no WordNet noun, nothing to verify ("a man holding something").
KEEP_PRONOUNS = frozenset(("someone", "somebody", "everyone", "everybody"))
_RELATIVE = frozenset(("that", "which", "who", "whom", "whose"))
#: Subject pronouns that stand for a person (or, plural, people or animals; "it": no person)
#: named before them, and whether they say several.
_PERSONAL = {"he": False, "she": False, "it": False, "they": True, "both": True}
_HEDGE_VERBS = frozenset(("look", "seem", "appear", "resemble"))


def join_hyphenated(d: Draft) -> None:
    """One mention per hyphenated word: where spaCy makes "x", "-" and "ray" of "an x-ray" three
    mentions, the one holding the last part (the head of an English compound) takes the others
    in, so their relations become its relations."""
    if HYPHENS.isdisjoint(d.text):  # nothing to join (most captions): skip the token walk
        return
    doc, i = d.doc, 0
    while i < len(doc):
        j = i
        while joins_next(doc, j):
            j += 1
        word, i = range(i, j + 1), j + 1
        owners = list(dict.fromkeys(d.tok2m[t] for t in word if d.tok2m[t] >= 0))
        if len(owners) < 2:
            continue
        target = d.tok2m[word[-1]] if d.tok2m[word[-1]] >= 0 else owners[-1]
        keep = d.mentions[target]
        for idx in owners:
            if idx == target or d.mentions[idx].alias is not None:
                continue
            m = d.mentions[idx]
            m.alias = target
            keep.start, keep.end = min(keep.start, m.start), max(keep.end, m.end)
        for t in range(keep.start, keep.end):
            d.tok2m[t] = target


def drop_symbols(d: Draft) -> None:
    """A mention whose head has no letter or digit ("-", "…", an emoji the tagger called a
    noun) names nothing WordNet or an annotation could confirm."""
    for m in d.mentions:
        if m.alias is None and not any(ch.isalnum() for ch in d.doc[m.root].text):
            m.alias = DROPPED


def recover_prep_relations(d: Draft) -> None:
    """Add a relation for every prepositional object that upstream left without one, and drop
    the inner noun of a multiword preposition (redirected to the phrase's subject, so a phrase
    hanging from it, "on the back *of a horse to the left of* a tree", still has a subject)."""
    doc = d.doc
    has_rel = {d.mentions[k.object].root for k in d.links}
    for idx in range(len(d.mentions)):
        o = doc[d.mentions[idx].root]
        found = prep_predicate(o, d.tok2m)
        if found is None:
            continue
        attach, tokens, inner = found
        subject = phrase_subject(attach)
        if attach.pos_ == "ADJ" and is_hypernym("property.n.02", noun_synset(o.lower_) or "entity.n.01"):
            continue  # "is red *in color*": what the adjective is a value of, no thing
        if inner is not None and d.tok2m[inner] >= 0 and d.tok2m[inner] != idx:
            m_inner = d.mentions[d.tok2m[inner]]
            s_idx = d.tok2m[subject.i] if subject is not None else -1
            # upstream's link (back, on the back of, horse) then reads (man, on the back of, horse)
            m_inner.alias = s_idx if s_idx >= 0 and s_idx != d.tok2m[inner] else DROPPED
        if o.i in has_rel or subject is None:
            continue
        d.relate(flatten(subject), flatten(o), tuple(with_verb(attach, tokens)))


def recover_verb_objects(d: Draft) -> None:
    """Add a relation for every direct object of a verb coordinated with an earlier one, or of an
    adverbial participle or infinitive, that upstream left without one: "A man sits on a couch and
    *holds a baby*", "a woman standing in a kitchen and *cutting vegetables*", "a man riding a horse
    *wearing a hat*", "sits on a couch while *playing a video game*" -- upstream relates a verb's
    object only to the verb's own subject, and the second verb has none of its own
    (:func:`verb_subject` finds the first's)."""
    doc = d.doc
    has_rel = {d.mentions[k.object].root for k in d.links}
    for idx in range(len(d.mentions)):
        o = doc[d.mentions[idx].root]
        v = o.head
        if o.dep_ != "dobj" or o.i in has_rel or v.pos_ != "VERB":
            continue
        adverbial = _adverbial(v)
        if not (v.dep_ == "conj" or adverbial):
            continue
        if any(c.dep_ in ("nsubj", "nsubjpass") for c in v.children):
            continue
        subject = verb_subject(v)
        if adverbial and subject is not None and needs_somebody(v.lower_) and not can_act(noun_synset(subject.lemma_)):
            continue  # "a speedway shows a person ..., *wearing* a uniform": the person wears it
        if subject is not None:
            d.relate([subject], flatten(o), verb_tokens(v, o))


def _adverbial(v: Any) -> bool:
    """Whether ``v`` is an adverbial participle or "to" infinitive, done by the main verb's
    subject: "riding a horse *wearing* a hat", "while *using* her laptop", "leaning forward to
    *hit* the ball", and a participle or "to" infinitive the parser makes the complement of the
    verb before it ("is standing *holding* ski poles", "is trying to *play* a harp"), also after
    the verb's particle ("kneeling down to *touch* her shoe"). Not a finite verb the parser gave
    the subject after it as an object ("to the side *rests* a marker"), nor a noun or typo it
    read as a bare verb ("next to *train* tracks")."""
    if v.tag_ == "VBG" and v.dep_ in ("advcl", "xcomp"):
        return True
    if v.dep_ not in ("advcl", "xcomp"):
        return False
    to = next((c for c in v.children if c.dep_ == "aux" and c.lower_ == "to"), None)
    if v.tag_ != "VB" or to is None:
        return False
    before = v.doc[to.i - 1] if to.i > 0 else None
    if before is not None and before.lower_ in CHAIN_WORDS and before.dep_ != "prt":
        return False  # "next to *train* tracks"; but a verb's particle ends it: "kneeling down to touch"
    return verb_form(v.lower_, "VB")


#: Prepositions of a goal: after a verb with a direct object they say where the object goes.
GOAL_PREPOSITIONS = frozenset({"into", "onto"})


def goal_objects(d: Draft) -> None:
    """A goal phrase after a verb with a direct object describes the object: "inserting coins
    into a parking meter" is (coins, into, meter), where the verb's subject was given it; so does
    a phrase putting it in a body part of its own ("holding a phone *in his hand*", "carrying a
    baby *in her arms*", "in one hand"): the man is not in his hand, the phone is."""
    doc = d.doc
    for k in d.links:
        if not k.tokens:
            continue
        p = doc[k.tokens[-1]]
        if not (p.lower_ in GOAL_PREPOSITIONS or _in_a_body_part(p)) or p.head.pos_ != "VERB":
            continue
        objs = [c for c in p.head.children if c.dep_ == "dobj" and d.tok2m[c.i] >= 0]
        if objs and d.tok2m[objs[0].i] != k.object:
            k.subject = d.tok2m[objs[0].i]
            k.tokens = (p.i,)


def _in_a_body_part(p: Any) -> bool:
    """Whether preposition ``p`` puts something in or on a body part its phrase gives an owner or
    a number ("in *his* hand", "in *one* hand", "on *her* lap"; :func:`knowledge.objecthood`).
    Not "with", which says how ("holding a fish *with* both hands", "*with* her eyes closed")."""
    if p.lower_ in ("with", "without", "by"):
        return False
    o = next((c for c in p.children if c.dep_ == "pobj"), None)
    if o is None or not any(c.dep_ == "poss" or c.lower_ in ("one", "both") for c in o.children):
        return False
    return objecthood(noun_synset(o.lower_)) == "part"


def split_possessives(d: Draft) -> None:
    """ "a man's lap" -> man and lap, with the relation (man, 's -> has, lap)."""
    doc = d.doc
    for idx in range(len(d.mentions)):
        m = d.mentions[idx]
        for c in doc[m.root].children:
            if c.dep_ != "poss" or c.pos_ not in ("NOUN", "PROPN") or not (m.start <= c.i < m.root):
                continue
            case = [t for t in c.children if t.dep_ == "case"]
            end = (case[-1].i if case else c.i) + 1
            owner = d.add_mention(Mention(root=c.i, start=m.start, end=end))
            m.phrase = (end, m.end)
            if case:
                d.links.append(Link(owner, idx, (case[-1].i,), canonical_text="has"))


def resolve_pronouns(d: Draft) -> None:
    """Relative pronouns alias the noun their clause modifies; "what looks like X" aliases X
    (hedged) and gets the governing verb's relation ("holding what looks like a kite"); a
    subject "he", "she", "they" or "both" aliases the person or people it stands for
    (:func:`_antecedent`); all other pronouns are dropped with their relations."""
    doc = d.doc
    for m in d.mentions:
        root = doc[m.root]
        if root.pos_ != "PRON" or m.alias is not None:
            continue
        low = root.lower_
        if low in KEEP_PRONOUNS:
            continue
        m.alias = DROPPED
        if low in _RELATIVE and root.head.dep_ in ("relcl", "acl") and d.tok2m[root.head.head.i] >= 0:
            m.alias = d.tok2m[root.head.head.i]
        elif low in _PERSONAL and root.dep_ in ("nsubj", "nsubjpass"):
            m.alias = _antecedent(d, root, plural=_PERSONAL[low])
        elif low == "what" and root.head.lemma_ in _HEDGE_VERBS:
            target = _like_object(root.head)
            if target is not None and d.tok2m[target.i] >= 0:
                t_idx = d.tok2m[target.i]
                m.alias = t_idx
                d.mentions[t_idx].uncertain = True
                gov = root.head
                if gov.dep_ in ("ccomp", "dobj", "xcomp") and gov.head.pos_ == "VERB":
                    s = verb_subject(gov.head)
                    if s is not None and d.tok2m[s.i] >= 0:
                        d.links.append(Link(d.tok2m[s.i], t_idx, (gov.head.i,)))


def _antecedent(d: Draft, pronoun: Any, plural: bool) -> int:
    """The mention a subject pronoun stands for ("two men ..., *both* wear glasses"): the last
    person before it (for "they" and "both", several people or animals; for "it", a thing or
    animal that is no person: "A goat stretches as *it* climbs a tree") that is a clause's
    subject ("a girl is holding on to an adult while *she* is learning": the girl), of no other
    sex ("a woman sits next to a boy as *he* peers"), and no other mention's alias; else
    :data:`DROPPED` ("*It* is time to ...", "a man riding a horse while *it* tries to kick": the
    horse is no subject, and the man no "it")."""
    doc = d.doc
    it = pronoun.lower_ == "it"
    other_sex = {"he": "female.n.02", "she": "male.n.02"}.get(pronoun.lower_)
    found = []
    for k, m in enumerate(d.mentions):
        t = doc[m.root]
        s = noun_synset(t.lemma_ or t.lower_)
        several = t.tag_ in ("NNS", "NNPS") or bool(m.counts) or any(c.dep_ == "nummod" for c in t.children)
        if m.root >= pronoun.i or m.alias is not None or t.pos_ not in ("NOUN", "PROPN") or several != plural:
            continue
        if other_sex is not None and s is not None and is_hypernym(other_sex, s):
            continue  # "a woman sits next to a boy as *he* peers at a menu"
        if t.dep_ not in ("nsubj", "nsubjpass", "ROOT"):
            continue
        person = s is not None and is_hypernym("person.n.01", s)
        if (it and s is not None and not person and is_thing(s)) or (not it and is_animate(s) and (plural or person)):
            found.append(k)
    return found[-1] if found else DROPPED


def _like_object(verb: Any) -> Any | None:
    for c in verb.children:
        if c.dep_ == "prep" and c.lower_ == "like":
            for g in c.children:
                if g.dep_ == "pobj":
                    return g
    return None


def merge_alternatives(d: Draft) -> None:
    """ "a fork or a knife": the knife becomes an alternative of the fork, not an object."""
    doc = d.doc
    for idx, m in enumerate(d.mentions):
        root = doc[m.root]
        if root.dep_ != "conj" or m.alias is not None:
            continue
        head_idx = d.tok2m[root.head.i]
        if head_idx < 0 or head_idx == idx:
            continue
        if any(c.dep_ == "cc" and c.lower_ == "or" and root.head.i < c.i < root.i for c in root.head.children):
            target = d.resolve(head_idx)
            if target < 0:
                continue
            base = d.mentions[target]
            base.alternatives.append(idx)
            base.extra_spans.append((m.start, m.end))
            base.uncertain = base.uncertain or m.uncertain
            m.alias = target


def drop_negated(d: Draft) -> None:
    """ "no cars", "without a hat": the caption says these are absent."""
    doc = d.doc
    for m in d.mentions:
        root = doc[m.root]
        if any(c.dep_ == "det" and c.lower_ == "no" for c in root.children) or (
            root.dep_ == "pobj" and root.head.lower_ == "without"
        ):
            m.alias = DROPPED


def drop_copulas(d: Draft) -> None:
    """(man, is, player) says what the man is; it relates no two objects."""
    doc = d.doc
    d.links = [k for k in d.links if not (len(k.tokens) == 1 and doc[k.tokens[0]].lemma_ == "be")]


def finish_links(d: Draft) -> list[Link]:
    """Links with aliases followed, dropped ends removed, self-loops and repeats removed, and
    links whose predicate has no letter or digit ("a cat 🙂 a dog") removed: they say nothing."""
    out, seen = [], set()
    for k in d.links:
        s, o = d.resolve(k.subject), d.resolve(k.object)
        if s < 0 or o < 0 or s == o:
            continue
        if not any(ch.isalnum() for t in k.tokens for ch in d.doc[t].text):
            continue
        key = (s, o, k.tokens)
        if key not in seen:
            seen.add(key)
            out.append(Link(s, o, k.tokens, k.canonical_text))
    return out

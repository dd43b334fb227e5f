"""Cuts on the caption's spaCy dependency tree: the building blocks of the counterfactual
(:mod:`cece.counterfactuals.rewrite`). Each returns :class:`~cece.counterfactuals.text.Change` s, or None when no
grammatical cut exists.

- :func:`removal`: what to cut so that a noun phrase disappears with every word that only depended on it --
  its conjunction, its preposition, the participle, relative clause or joined verb it was the object of,
  the "while ..." clause it was the subject of -- keeping the main verb and its other arguments; where the
  main verb cannot stand without it, the verb goes too, and the subject stays as a caption's noun phrase
  ("Two men pull a croissant." -> "Two men."), else the whole sentence when the caption has others
  (the verb agreeing with what is left, :func:`cece.counterfactuals.verbs.agreement`).

>>> from cece.counterfactuals.text import apply
>>> nlp = __import__("parsers").load_spacy()
>>> doc = nlp("A dog and a cat sitting on a couch.")
>>> apply("A dog and a cat sitting on a couch.", removal(doc, doc[4]))
'A dog sitting on a couch.'
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

from cece.counterfactuals.text import Change
from cece.counterfactuals.verbs import SUBJECTS, agreement
from knowledge import PREPOSITIONS, is_hypernym, noun_senses
from parsers.draft_graph import list_member

_CLAUSES = ("advcl", "conj", "relcl", "acl", "ccomp", "xcomp")
_PLACES = ("in", "on", "at", "near", "by", "beside", "inside", "under", "behind")  # where, not whither


def token_at(doc: Any, start: int, end: int) -> Any | None:
    """The syntactic head of the tokens inside ``[start, end)`` (the noun of a noun phrase)."""
    inside = [t for t in doc if start <= t.idx and t.idx + len(t) <= end]
    if not inside:
        return None
    return next((t for t in inside if not (start <= t.head.idx < end) or t.head.i == t.i), inside[-1])


#: What follows a clause as clauses of its own.
_LATER_CLAUSES = ("conj", "advcl", "xcomp", "ccomp", "cc", "punct")


def _subtree(t: Any, skip: Sequence[str] = ()) -> tuple[int, int]:
    """Char range of ``t``'s subtree, leaving out children whose dependency is in ``skip`` and
    the sentence's closing punctuation (which the sentence keeps)."""
    toks = [t]
    for c in t.children:
        if c.dep_ not in skip:
            toks += list(c.subtree)
    toks = sorted(toks, key=lambda x: x.i)
    while len(toks) > 1 and toks[-1].is_punct and toks[-1].text in ".!?":
        toks.pop()
    return toks[0].idx, toks[-1].idx + len(toks[-1])


def _with_left(doc: Any, span: tuple[int, int], words: Sequence[str]) -> tuple[int, int]:
    """Extend a span leftwards over punctuation and the connecting ``words`` just before it."""
    a, b = span
    i = next((t.i for t in doc if t.idx >= a), len(doc))
    while i > 0 and (doc[i - 1].is_punct and doc[i - 1].text in ",;" or doc[i - 1].lower_ in words):
        i -= 1
        a = doc[i].idx
    return a, b


def _sentence(doc: Any, t: Any) -> tuple[int, int] | None:
    """The whole sentence of ``t`` when the caption has others, else None."""
    sents = list(doc.sents)
    if len(sents) < 2:
        return None
    k = next(i for i, s in enumerate(sents) if s.start <= t.i < s.end)
    end = sents[k + 1].start_char if k + 1 < len(sents) else len(doc.text)
    return sents[k].start_char, end


def removal(
    doc: Any, noun: Any, *, keep: Iterable[int] = (), gone: Iterable[int] = (), holder: bool = False
) -> list[Change] | None:
    """The cuts that remove noun phrase ``noun`` and the words that only depended on it (module
    docstring); None when the noun carries the sentence and nothing else can. ``keep`` are the
    tokens (indices) of other nouns that stay: of the grammatical cuts, the first that leaves them
    all is taken ("a train with cars traveling down tracks" -> "a train traveling down tracks",
    "a bowl of carrots" -> "carrots" when the noun is a ``holder``: a container, a group or a
    piece, not "a picture of a cat"). ``gone`` are the nouns removed with it: a coordination
    whose every member goes, goes whole."""
    kept = [doc[k] for k in set(keep) if k != noun.i]
    held = {t.i for t in kept} if holder else set()
    options = [o for o in _options(doc, noun, set(gone) - {noun.i}, held) if o is not None]
    if not options:
        return None
    return next((o for o in options if not any(_cut(o, t) for t in kept)), options[0])


def _cut(changes: list[Change], t: Any) -> bool:
    return any(c.start <= t.idx < c.end for c in changes)


def _options(doc: Any, noun: Any, gone: set[int], keep: set[int]) -> Iterator[list[Change] | None]:
    """The grammatical cuts removing ``noun``, the preferred first."""
    dep, head = noun.dep_, noun.head
    members = members_of(noun)
    if members[0].i != noun.i:  # a later member: its own words
        yield _from_list(doc, noun, members, gone)
        return
    if len(members) > 1:
        yield _from_list(doc, noun, members, gone)
    if dep == "pobj" and head.dep_ in ("prep", "agent"):
        yield _phrase(doc, noun, head)
        yield _named_instead(doc, noun)
        # only the preposition and the noun's own words: what hung from the noun stays, now said
        # of what the phrase was attached to ("with multiple cars traveling down tracks")
        yield [Change(*_with_left(doc, (_preposition_start(doc, head), _own(noun)[1]), ()), "")]
    elif dep in ("dobj", "attr", "oprd", "dative"):
        joined = head.dep_ == "conj" and head.head.tag_.startswith("VB")
        if (head.dep_ in ("acl", "relcl", "advcl", "xcomp") or joined) and head.head.i != head.i:
            yield [Change(*_with_left(doc, _subtree(head), ("that", "which", "who", "and")), "")]
            # the clause alone, not the clauses that follow it ("wearing team uniforms, playing
            # soccer in a field" keeps the soccer)
            a, b = _with_left(doc, _subtree(head, _LATER_CLAUSES), ("that", "which", "who", "and"))
            comma = re.match(r"\s*,", doc.text[b:])  # "Children, playing soccer": the comma goes too
            # and the "and" before the next ("eating grass and playing ..." -> "playing ...")
            joint = re.match(r"\s*(and|or)\b", doc.text[b:]) if doc[head.i - 1].idx < a else None
            skip = comma if comma and not doc.text[a:].startswith(",") else joint
            yield [Change(a, b + (skip.end() if skip else 0), "")]
            yield _verb_and_object(doc, head, noun)
        # The object of a main verb: whether the verb can do without it ("walks a dog" -> "walks",
        # "has a toaster" -> "has") is not in the tree, so the verb goes with it, leaving its
        # subject as a caption's noun phrase ("Two men pull a croissant." -> "Two men."), or the
        # whole sentence goes.
        yield _subject_alone(doc, head, noun)
        yield _whole(doc, noun)
    elif dep in ("npadvmod", "compound") and head.dep_ == "amod" and head.i > noun.i:
        yield [Change(*_subtree(head), "")]  # "on the grass covered ground" -> "on the ground"
    elif dep in SUBJECTS:
        if head.dep_ in _CLAUSES and head.dep_ != "ccomp" and head.head.i != head.i:  # "has [his arm crossed]"
            yield [Change(*_with_left(doc, _subtree(head), ("and", "but", "while", "as", "when", "whereas")), "")]
        elif _participle_caption(head) and not _sentence(doc, noun) and (kept := _prep_object(head, gone)) is not None:
            # "Several fungi growing off a tree trunk." -> "A tree trunk."
            yield [Change(noun.left_edge.idx, kept.left_edge.idx, "")]
        yield _whole(doc, noun)
    yield _of_example(noun, keep)
    if dep == "poss":  # "a building's ledge" -> "the ledge"
        owner_det = any(c.dep_ == "det" for c in head.children)
        yield [Change(*_subtree(noun), "" if owner_det else "the")]
    elif dep in ("compound", "npadvmod", "appos", "nmod", "amod"):
        yield [Change(*_subtree(noun), "")]
        yield [Change(*_own(noun), "")]  # "a grocery croissant on the street": not the street
    elif dep == "ROOT" and (kept := _prep_object(noun, gone)) is not None and not _sentence(doc, noun):
        # a caption that is one noun phrase: "A guitar on a sofa." -> "A sofa."
        yield [Change(noun.left_edge.idx, kept.left_edge.idx, "")]
    yield _whole(doc, noun)


def modifier_removal(doc: Any, t: Any) -> list[Change]:
    """The cut that removes modifier ``t`` ("a *passenger* jet") with the words modifying it;
    one of a list of modifiers goes with its "and" or comma ("coconut and yellow flowers" ->
    "yellow flowers")."""
    members = members_of(t)
    if len(members) > 1:
        return _from_list(doc, t, members, set()) or []
    return [Change(*_own(t), "")]


def members_of(noun: Any) -> list[Any]:
    """The members of the list ``noun`` is in, in order (just ``noun`` when it is in none)."""
    first = noun
    while list_member(first) and first.head.i != first.i:
        first = first.head
    out, todo = [first], [first]
    while todo:
        t = todo.pop()
        for c in t.children:
            if list_member(c):
                out.append(c)
                todo.append(c)
    return sorted(out, key=lambda t: t.i)


def _from_list(doc: Any, noun: Any, members: list[Any], gone: set[int]) -> list[Change] | None:
    """Take ``noun`` out of its list: the first member gives way to the next one that stays
    ("a dog and a cat" -> "a cat"), a later one goes with its comma or "and" ("a stove, a sink
    and a toaster" -> "a stove and a sink"); the verb agrees with what is left. None for a first
    member when no other stays (the whole list goes as one phrase)."""
    first, stay = members[0], [m for m in members if m.i != noun.i and m.i not in gone]
    plural = len(stay) > 1 or bool(stay) and _plural(stay[0])
    if noun.i == first.i:
        if not stay:
            return None
        start = _subtree(noun, ("conj", "cc", "punct", "appos"))[0]
        return [Change(start, stay[0].left_edge.idx, "")] + agreement(noun, plural)
    span = _with_left(doc, _own(noun), ("and", "or", "as", "well"))
    out = [Change(*span, "")]
    before = [m for m in stay if m.i < noun.i]
    last = noun.i == members[-1].i
    joined = any(t.lower_ in ("and", "or") for t in doc if span[0] <= t.idx < span[1])
    if last and joined and before and before[-1].i != first.i:  # the comma before the new last one becomes "and"
        comma = before[-1].left_edge.i - 1
        if comma >= 0 and doc[comma].text == ",":
            out.append(
                Change(
                    doc[comma].idx,
                    doc[comma].idx + 1,
                    " " + next(t.text for t in doc if span[0] <= t.idx < span[1] and t.lower_ in ("and", "or")),
                )
            )
    return out + (agreement(first, plural) if first.i not in gone else [])


def _phrase(doc: Any, noun: Any, prep: Any) -> list[Change] | None:
    """The prepositional phrase of ``noun`` with all that hangs from it; or the clause or
    conjunct the phrase was all of ("... and is on a tea", "possibly accompanied by X")."""
    a, b = _with_left(doc, _subtree(prep), ())
    after = doc[prep.right_edge.i + 1] if prep.right_edge.i + 2 < len(doc) else None
    if (
        after is not None
        and after.dep_ == "cc"
        and after.head.i == prep.head.i
        and doc[after.i + 1].pos_ in ("DET", "ADJ", "NOUN", "NUM")
        and not any(c.dep_ == "conj" for c in noun.children)
        and not _living(_next_noun(doc, after))
    ):
        # "a man with a beard and a hat": the parser hangs "a hat" on "man", the reader on "with"
        # (not so "a man with a dog and a woman"); the phrase keeps its preposition and the next
        # member ("a man with a hat")
        return [Change(noun.left_edge.idx, doc[after.i + 1].idx, "")]
    # the verb the preposition hangs from, through a preposition of several words ("is *next* to")
    first = next((t for t in doc[: prep.i + 1] if t.idx == _preposition_start(doc, prep)), prep)
    verb = first.head if first.i != prep.i else prep.head
    rest = [
        c
        for c in verb.children
        if c.i not in (prep.i, first.i)
        and c.dep_ not in ("punct", "cc", "aux", "auxpass", "advmod", "neg")
        and not (c.dep_.startswith("nsubj") and c.tag_ in ("WDT", "WP"))
    ]  # "which is covered with X"
    if verb.pos_ in ("VERB", "AUX") and not [c for c in rest if not c.dep_.startswith("nsubj")]:
        if verb.lemma_ == "be" and verb.dep_ == "conj":
            return [Change(*_with_left(doc, _subtree(verb), ("and", "but", "or")), "")]
        if verb.dep_ in ("acl", "advcl", "relcl", "conj") and not rest:
            return [Change(*_with_left(doc, _subtree(verb), ("and", "but", "or", "that", "which", "who")), "")]
        if verb.lemma_ == "be":  # "Bananas are on a coat." -> "Bananas."
            return _subject_alone(doc, verb, noun) or _whole(doc, noun)
    lone_cc = [c for c in noun.children if c.dep_ == "cc"] if not any(c.dep_ == "conj" for c in noun.children) else []
    if lone_cc:  # "a man with a dog and a woman are ...", "and" hung on "dog": it stays
        b = lone_cc[0].idx
    return [Change(min(a, _preposition_start(doc, prep)), b, "")]


def _next_noun(doc: Any, t: Any) -> Any | None:
    return next((x for x in doc[t.i + 1 :] if x.pos_ in ("NOUN", "PROPN")), None)


def _living(t: Any | None) -> bool:
    """Whether noun ``t`` names someone ("a woman", "a dog"; its first sense, as "skirt" can be a
    woman): then "X with A and t" may well be two subjects."""
    senses = noun_senses(t.lemma_) if t is not None else ()
    return not senses or is_hypernym("organism.n.01", senses[0])


def _named_instead(doc: Any, noun: Any) -> list[Change] | None:
    """ "an open area such as a park" -> "a park": the noun gives way to the example it names."""
    for c in noun.rights:
        if c.dep_ == "prep" and (
            c.lower_ in ("like", "including") or c.lower_ == "as" and c.i > 0 and doc[c.i - 1].lower_ == "such"
        ):
            example = next((o for o in c.children if o.dep_ == "pobj"), None)
            if example is not None:
                return [Change(noun.left_edge.idx, example.left_edge.idx, "")]
    return None


def _of_example(noun: Any, keep: set[int]) -> list[Change] | None:
    """ "a bowl of carrots" -> "carrots" when the carrots stay: the noun gives way to what it
    held, and a verb it was the subject of agrees with that."""
    for c in noun.rights:
        if c.dep_ == "prep" and c.lower_ == "of":
            held = next((o for o in c.children if o.dep_ == "pobj" and o.i in keep), None)
            if held is not None:
                # a list of subjects stays plural ("a piece of banana, some strawberries ... are"),
                # however the parser hangs its members
                others = [x for x in noun.head.children if x.dep_ in SUBJECTS and x.i != noun.i]
                plural = _plural(held) or bool(others) or len(members_of(noun)) > 1 or len(members_of(held)) > 1
                return [Change(noun.left_edge.idx, held.left_edge.idx, "")] + agreement(noun, plural)
    return None


def _verb_and_object(doc: Any, verb: Any, noun: Any) -> list[Change] | None:
    """The participle and its object only, where what follows says where it happened, which
    stays said of the noun it described: "A dog eating grass in the yard." -> "A dog in the yard."."""
    after = [c for c in verb.rights if c.i > noun.i]
    places = bool(after) and all(_place(c) for c in after)
    if verb.dep_ != "acl" or any(c.i < verb.i for c in verb.children) or not places:
        return None
    return [Change(doc[verb.i - 1].idx + len(doc[verb.i - 1]), _subtree(noun)[1], "")]


def _place(t: Any) -> bool:
    """Whether ``t`` heads a phrase saying where: "in the yard", "*next* to a woman"."""
    if t.dep_ == "prep":
        return t.lower_ in _PLACES
    return t.dep_ == "advmod" and any(p.dep_ == "prep" and f"{t.lower_} {p.lower_}" in PREPOSITIONS for p in t.children)


def _participle_caption(verb: Any) -> bool:
    """A caption-style root participle with no auxiliary ("Several fungi *growing* off a trunk")."""
    return (
        verb.dep_ == "ROOT"
        and verb.tag_ in ("VBG", "VBN")
        and not any(c.dep_ in ("aux", "auxpass") for c in verb.children)
    )


def _prep_object(t: Any, gone: Collection[int] = ()) -> Any | None:
    """The object of the first preposition after ``t`` ("on a *sofa*"), or after the participle
    that follows it ("floating in a *glass*"), if any, but none of ``gone`` ("of *cake* on a plate")."""
    for c in t.rights:
        if c.dep_ == "prep" and not any(o.dep_ == "pobj" and o.i in gone for o in c.children):
            return next((o for o in c.children if o.dep_ == "pobj"), None)
        if c.dep_ == "acl" and c.tag_ in ("VBG", "VBN"):
            return _prep_object(c, gone)
    return None


def _preposition_start(doc: Any, prep: Any) -> int:
    """Where the multiword preposition ending in ``prep`` starts ("next to", "in front of")."""
    start: int = prep.idx
    for k in (1, 2, 3):
        if prep.i - k >= 0 and doc[prep.i - k : prep.i + 1].text.lower() in PREPOSITIONS:
            start = doc[prep.i - k].idx
    return start


def _own(noun: Any) -> tuple[int, int]:
    """The noun phrase's own words: its left dependents, the noun, and an "of" phrase after it
    ("a glass of wine"); not the clauses after it, which may speak of a whole coordination."""
    end = noun.idx + len(noun)
    for c in noun.rights:
        if c.dep_ == "prep" and c.lower_ == "of":
            end = max(end, _subtree(c)[1])
    return noun.left_edge.idx, end


def _subject_alone(doc: Any, verb: Any, noun: Any) -> list[Change] | None:
    """The cut leaving only the subject of ``verb``, the root of a sentence its subject opens,
    as that sentence: a caption may be a noun phrase ("Two men with bicycles."). None for a verb
    of a clause, whose subject does not open its sentence, or is a pronoun ("He." says nothing:
    the sentence goes), or whose predicate names another thing than ``noun`` (that goes): "while
    wearing *sunglasses*", "its prey *in a web*" stay said."""
    subject = next((c for c in verb.children if c.dep_ in SUBJECTS), None)
    if verb.dep_ != "ROOT" or subject is None or subject.left_edge.i != verb.sent.start or subject.pos_ == "PRON":
        return None
    said = [t for t in verb.sent if t.i > subject.right_edge.i and not t.is_punct and not t.is_space]
    a, b = _own(noun)  # its own words go with it; a thing hung from it ("prey *in a web*") does not
    if not said or any(
        t.pos_ in ("NOUN", "PROPN") and not a <= t.idx < b and not _in_preposition(doc, t) for t in said
    ):
        return None
    end_of_subject = subject.right_edge.idx + len(subject.right_edge)
    return [Change(end_of_subject, said[-1].idx + len(said[-1]), "")]


def _in_preposition(doc: Any, t: Any) -> bool:
    """Whether token ``t`` is a word of a preposition of several words ("in *front* of")."""
    return any(
        doc[a : a + n].text.lower() in PREPOSITIONS
        for n in (2, 3, 4)
        for a in range(max(0, t.i - n + 1), t.i + 1)
        if a + n <= len(doc)
    )


def _whole(doc: Any, t: Any) -> list[Change] | None:
    span = _sentence(doc, t)
    return [Change(*span, "")] if span else None


def _plural(t: Any) -> bool:
    return t.tag_ in ("NNS", "NNPS")

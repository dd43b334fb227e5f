"""Rewrites of one noun phrase on the caption's dependency tree: another noun in the caption's
number, with its article fitted ("a cat" -> "an owl", "a pair of scissors" -> "a knife"), and
another count with the noun and its verb made to agree ("Three giraffes are" -> "Two giraffes
are"). :mod:`cece.counterfactuals.rewrite` decides which edit gets which rewrite.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from cece.counterfactuals.text import Change
from cece.counterfactuals.tree import token_at
from cece.counterfactuals.verbs import agreement
from cece.counterfactuals.words import article, case_like, noun_form, number_word
from cece.edits import Edit
from knowledge import is_hypernym, noun_senses, noun_synset, one_pair, plural_only
from parsers import SceneGraph
from parsers.attribute_words import QUANTIFIER_NOUNS, VAGUE_COUNTS


def bare_span(doc: Any, a: int, b: int) -> tuple[int, int]:
    """The span ``[a, b)`` of a noun widened over its adjectives and compounds."""
    t = token_at(doc, a, b)
    mods = [x.idx for x in t.lefts if x.dep_ in ("amod", "compound", "nmod", "advmod")] if t is not None else []
    return min([a] + mods), b


#: What "a X of Y" can lose its X from and keep the Y ("a bowl of carrots", "a group of people",
#: "a piece of cake"), unlike "a picture of a cat".
HOLDERS = ("container.n.01", "group.n.01", "piece.n.01", "part.n.02")


@lru_cache(maxsize=4096)
def holds_things(lemma: str) -> bool:
    """Whether some noun sense of ``lemma`` is a container, a group or a piece.

    >>> holds_things("bowl"), holds_things("bunch"), holds_things("picture")
    (True, True, False)
    """
    return any(is_hypernym(h, s) for s in noun_senses(lemma.replace(" ", "_")) for h in HOLDERS)


def portion_head(t: Any, phrase: tuple[int, int] | None) -> Any:
    """The noun heading token ``t``'s phrase when the parser folded a portion or quantity into it
    (its phrase starts there: "a *piece* of cake", "a *group* of people"): what goes with the cake
    is the piece, not "a piece" left eating nothing."""
    while (
        t is not None
        and phrase is not None
        and t.dep_ == "pobj"
        and t.head.lower_ == "of"
        and t.head.head.pos_ == "NOUN"
        and phrase[0] <= t.head.head.idx < t.idx < phrase[1]
    ):
        t = t.head.head
    return t


def _article_before(doc: Any, first: Any, head: Any, word: str) -> list[Change]:
    """ "a" / "an" for ``word`` put before token ``first`` of ``head``'s phrase; at the start of a
    sentence the article takes the capital ("Dark sunglasses" -> "A dark hat"), not a name's."""
    lowered = first.text[:1].lower() + first.text[1:]
    if first.i != head.i and first.is_sent_start and first.tag_ not in ("NNP", "NNPS") and not first.text.isupper():
        return [Change(first.idx, first.idx + len(first), case_like(article(word), first.text) + " " + lowered)]
    return [Change(first.idx, first.idx, case_like(article(word) + " ", doc.text[first.idx :]))]


def noun_changes(
    doc: Any, a: int, b: int, *, old: Any, new: Any, uncounted: bool = False, said_plural: bool = False
) -> list[Change]:
    """The caption's noun ``old`` (a concept) at ``[a, b)`` become the image's concept ``new``, in
    the caption's number; nouns with no singular count as none and are said without "a" ("a gear"
    -> "sunglasses", "a pair of scissors" / "sunglasses" -> "a knife"), as are the ones the
    references say so (``said_plural``, :func:`cece.mass.said_plural`: "a skirt" -> "jeans"), and
    an ``uncounted`` one (:func:`cece.mass.uncounted`) loses "a" ("eating a sandwich" -> "eating
    pasta"), and a mass said bare becomes the plural of what they say in the plural ("eating grass"
    -> "eating leaves"). The words that named the old noun with it go too ("a *vending* machine" -> "a
    person")."""
    t = token_at(doc, a, b)
    if t is None:
        return [Change(a, b, case_like(noun_form(new.lemma, old.plural), doc.text[a:b]))]
    # "goggles": a pair said in the plural ("a printer" is no word for a pair of anything)
    was_plural_only = plural_only(old.lemma, old.synset) or t.tag_ in ("NNS", "NNPS") and one_pair(t.lower_, old.synset)
    plural = t.tag_ in ("NNS", "NNPS") and not was_plural_only
    word = noun_form(new.lemma, plural)
    a = min(
        [a]
        + [
            x.idx
            for x in t.lefts
            if x.idx < a
            and not any(y.dep_ in ("compound", "amod") for y in x.children)
            and (x.dep_ == "compound" or _names_with(x, t))
        ]
    )
    # the word before may say the new noun already: "a sail surf board" -> "a sail", not "a sail sail"
    before, lead = doc.text[:a].rstrip(), word.split()[0].lower()
    if before.lower().endswith(lead) and not before[: len(before) - len(lead)][-1:].isalnum():
        a = len(before) - len(lead)
    det = next((d for d in t.lefts if d.dep_ == "det"), None)
    out = []
    if not plural and (said_plural or plural_only(new.lemma, new.synset)):
        word = noun_form(new.lemma, True)
        if det is not None and det.lower_ in ("a", "an"):  # "a skirt" -> "jeans", "A blue skirt is" -> "Blue jeans are"
            after = doc[det.i + 1]
            if after.idx == a or not det.text[:1].isupper():
                out.append(Change(det.idx, after.idx, ""))
                word = case_like(word, det.text) if after.idx == a else word
            else:
                out.append(Change(det.idx, after.idx + 1, after.text[:1].upper()))
            out += agreement(t, plural=True)
    elif (
        uncounted
        and not plural
        and det is not None
        and det.lower_ in ("a", "an")
        and (doc[det.i + 1].idx == a or not det.text[:1].isupper())  # "A big pasta" would lose its capital
    ):
        out.append(Change(det.idx, doc[det.i + 1].idx, ""))
        if det.text[:1].isupper():  # "A sandwich" -> "Pasta"
            word = case_like(word, det.text)
    elif was_plural_only:
        pair = t.head if t.dep_ == "pobj" and t.head.lower_ == "of" and t.head.head.lower_ == "pair" else None
        if pair is not None:  # "a pair of scissors" -> "a knife"
            start = min([pair.head.idx] + [d.idx for d in pair.head.lefts if d.dep_ == "det"])
            out.append(Change(start, t.left_edge.idx, case_like(article(word) + " ", doc.text[start:])))
        elif det is None and not any(x.dep_ in ("poss", "nummod") for x in t.lefts):  # "sunglasses" -> "a hat"
            out += _article_before(doc, t.left_edge, t, word)
        out += agreement(t if pair is None else pair.head, plural=False)  # "Sunglasses are" -> "A hat is"
    elif not plural and new.plural and _bare(t) and not plural_only(new.lemma, new.synset):
        # a mass said bare, where they say things in the plural: "eating grass" -> "eating leaves"
        word = noun_form(new.lemma, True)
        out += agreement(t, plural=True)
    capital = not any(x.start == a for x in out)  # an article put before it takes the capital
    return out + [Change(a, b, case_like(word, _case_of(doc, a, b)) if capital else word)]


def _case_of(doc: Any, a: int, b: int) -> str:
    """The words at ``[a, b)`` as far as their case speaks for a word put in their place: a
    capital inside a sentence is a name's, not the phrase's ("a *California* license plate" ->
    "a lawn", not "a Lawn"); one that opens a sentence, or words in capitals, are the caption's.

    >>> from parsers.spacy_model import load_spacy
    >>> doc = load_spacy()("A car with a California license plate. California plates.")
    >>> _case_of(doc, 13, 37), _case_of(doc, 39, 56)
    ('california license plate', 'California plates')
    """
    old: str = doc.text[a:b]
    words = doc.char_span(a, b, alignment_mode="expand")
    if not words or words[0].is_sent_start or (len(old) >= 4 and old.isupper()):
        return old
    return old.lower()


def _bare(t: Any) -> bool:
    """Whether noun ``t`` is said alone, as a mass is: no determiner, possessive or number before
    it ("eating *grass*"), nor part of another noun's name."""
    return (
        t.tag_ == "NN"
        and t.dep_ != "compound"
        and not any(x.dep_ in ("det", "poss", "nummod", "predet") for x in t.lefts)
    )


def _names_with(x: Any, t: Any) -> bool:
    """Whether participle ``x`` is part of the name of noun ``t`` ("a *vending* machine", "a
    *cutting* board"), not something said of it ("a sleeping cat")."""
    return (
        x.dep_ == "amod"
        and x.tag_ in ("VBG", "VBN")
        and x.i == t.i - 1
        and (noun_synset(f"{x.lower_} {t.lemma_}") != noun_synset(t.lemma_))
    )


def count_changes(caption: SceneGraph, e: Edit, doc: Any) -> list[Change] | None:
    """The caption says the image's count of count edit ``e``: the number word (or quantifier
    phrase) replaced, the noun's number and its verb made to agree; None without the words."""
    c = caption.concepts[e.caption_index]
    head = token_at(doc, *c.spans[0]) if c.spans else None
    target = str(e.target).split("/")[0]
    if head is None or not e.spans:
        return None
    one = target == "1"
    out: list[Change] = []
    if e.source == "several":  # "cakes" where the image has one cake
        singular = _head_form(c.lemma, head, False)
        if singular == head.lower_ or plural_only(c.lemma, c.synset):
            return []  # no number said: "pasta", "sheep", "scissors"
        det = next((t for t in head.lefts if t.dep_ == "det"), None)
        first = next((t for t in head.lefts if t.dep_ != "det"), head)  # "a *red* cake"
        said = _vague_count(doc, head)
        if said is not None:  # "Many dogs", "A group of red cars", "A few people": "A dog", "A red car"
            after = next((t for t in doc[said[1] :] if not t.is_space), head)
            out.append(Change(*said, case_like(article(after.text) + " ", doc.text[said[0] :])))
        elif det is None:  # "Dark curtains" -> "A dark curtain"
            out += _article_before(doc, first, head, first.text if first.i != head.i else singular)
        elif det.lower_ in ("some", "several", "many", "few", "these", "those"):
            out.append(Change(det.idx, det.idx + len(det), case_like("a", det.text)))
        out.append(Change(head.idx, head.idx + len(head), singular))
    else:
        a, b = _quantifier(doc, *e.spans[0])
        det = _determiner_before(doc, a)
        if one and det is not None and det.lower_ == "all":  # "all three boys" -> "a boy"
            a, det = det.idx, None
        if one and det is not None:  # "the four deer" -> "the deer", "these two cups" -> "this cup"
            out.append(Change(a, b + 1 if doc.text[b : b + 1] == " " else b, ""))
            if det.lower_ in _SINGULAR_OF:
                out.append(Change(det.idx, det.idx + len(det), case_like(_SINGULAR_OF[det.lower_], det.text)))
        else:
            word = article(doc.text[b:].split()[0] if b < len(doc.text) else "") if one else number_word(target)
            out.append(Change(a, b, case_like(word, caption.text[a:b]) + (" " if b > e.spans[0][1] else "")))
        if head.tag_ in ("NNS", "NNPS") and one:
            out.append(Change(head.idx, head.idx + len(head), _head_form(c.lemma, head, False)))
        elif head.tag_ in ("NN", "NNP") and not one:
            out.append(Change(head.idx, head.idx + len(head), _head_form(c.lemma, head, True)))
    return out + agreement(head, plural=not one)


def _head_form(lemma: str, head: Any, plural: bool) -> str:
    """The word that replaces noun token ``head`` to say ``lemma`` in that number: the last word
    alone where the words before it are already said ("two swimming *pools*" -> "a swimming
    *pool*", not "a swimming swimming pool")."""
    form = noun_form(lemma, plural)
    words = form.split()
    before = " ".join(words[:-1])
    if len(words) > 1 and head.doc.text[: head.idx].rstrip().lower().endswith(before.lower()):
        return words[-1]
    return form


#: A determiner before a number, as it is said of one.
_SINGULAR_OF = {"these": "this", "those": "that"}


def _determiner_before(doc: Any, a: int) -> Any | None:
    """The definite determiner or possessive right before the count word at ``a`` ("*the* four
    deer", "*his* two dogs"): with it, one is said by dropping the number, not by an article."""
    t = next((t for t in doc if t.idx == a), None)
    if t is None or t.i == 0:
        return None
    d = doc[t.i - 1]
    return d if d.tag_ in ("DT", "PRP$", "WP$") and d.lower_ not in ("a", "an", "another", "some", "any") else None


def _vague_count(doc: Any, head: Any) -> tuple[int, int] | None:
    """The char span of the words that give noun ``head`` a vague count, up to the words after
    them ("*Many* dogs", "*A group of* red cars", "*A few* people"); None without them."""
    of = head.head if head.dep_ == "pobj" and head.head.lower_ == "of" else None
    if of is not None and of.i == head.left_edge.i - 1 and of.head.lemma_.lower() in QUANTIFIER_NOUNS:
        q = of.head
        return min([q.idx] + [d.idx for d in q.lefts if d.dep_ == "det"]), head.left_edge.idx
    vague = next((t for t in head.lefts if t.lower_ in VAGUE_COUNTS), None)
    if vague is None:
        return None
    start = doc[vague.i - 1] if vague.i and doc[vague.i - 1].lower_ in ("a", "an") else vague  # "a few"
    nxt = doc[vague.i + 1] if vague.i + 1 < len(doc) else None
    return start.idx, (nxt.idx if nxt is not None else vague.idx + len(vague))


def _quantifier(doc: Any, a: int, b: int) -> tuple[int, int]:
    """The count word at ``[a, b)``, or the whole quantifier phrase when it is a noun ("a pair
    of", "a couple of"): what a number word replaces."""
    q = token_at(doc, a, b)
    if q is None or q.pos_ != "NOUN" or q.i + 1 >= len(doc) or doc[q.i + 1].lower_ != "of":
        return a, b
    det = next((d for d in q.lefts if d.dep_ == "det"), None)
    after = doc[q.i + 2] if q.i + 2 < len(doc) else None
    return (det.idx if det is not None else q.idx), (after.idx if after is not None else len(doc.text))

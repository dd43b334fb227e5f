"""Relation predicates -> one canonical form (and the verb synset it carries, if any).

Two captions that say "is sitting beside" and "sits next to" describe the same relation, so
role matching compares canonical predicates. Rules, in order:

1. lowercase, strip punctuation, drop articles (a, an, the) and auxiliaries (am, is, are, was,
   were, be, being, been; has/have/had only before "been" or a participle);
2. the whole remaining phrase is looked up in :data:`PHRASE_TABLE` (synonyms -> one form);
3. else, when the first word is a verb, it is lemmatised ("sitting" -> "sit") and the rest, a
   preposition, is mapped through :data:`PREPOSITION_TABLE` ("sitting beside" -> "sit next to");
4. else the cleaned phrase is returned as is.

The tables (``canonical <- synonyms``):

=============  ==================================================================
next to        next to, beside, by, near, near to, close to, alongside, adjacent to
on             on, on top of, atop, upon, onto
in front of    in front of
behind         behind, in back of
under          under, underneath, beneath, below
in             in, inside, inside of, within, into
above          above, over
wear           wear, wears, wearing, wore, worn, dressed in, has on, have on
have           have, has, had, having, with
hold           hold, holds, holding, held
=============  ==================================================================

After a verb the same prepositions map the same way, except "by" (after a verb it is usually
the passive agent: "held by") and "with" (instrumental: "covered with"), which are kept.

>>> canonical_predicate("is sitting on top of"), canonical_predicate("standing beside")
('sit on', 'stand next to')
"""

from __future__ import annotations

from functools import lru_cache

from knowledge.concepts import lemmatize, morphy_forms, verb_synset

__all__ = ["PHRASE_TABLE", "PREPOSITION_TABLE", "canonical_predicate", "predicate_verb_synset"]

_SYNONYMS: dict[str, tuple[str, ...]] = {
    "next to": ("next to", "beside", "by", "near", "near to", "close to", "alongside",
                "adjacent to"),
    "on": ("on", "on top of", "atop", "upon", "onto"),
    "in front of": ("in front of",),
    "behind": ("behind", "in back of"),
    "under": ("under", "underneath", "beneath", "below"),
    "in": ("in", "inside", "inside of", "within", "into"),
    "above": ("above", "over"),
    "wear": ("wear", "wears", "wearing", "wore", "worn", "dressed in", "has on", "have on"),
    "have": ("have", "has", "had", "having", "with"),
    "hold": ("hold", "holds", "holding", "held"),
}  # fmt: skip

#: Whole-predicate synonyms -> canonical form (see the module docstring).
PHRASE_TABLE: dict[str, str] = {syn: canon for canon, syns in _SYNONYMS.items() for syn in syns}

_SPATIAL = ("next to", "on", "in front of", "behind", "under", "in", "above")
#: Prepositions after a verb -> canonical preposition ("by" and "with" deliberately kept).
PREPOSITION_TABLE: dict[str, str] = {
    syn: canon for canon in _SPATIAL for syn in _SYNONYMS[canon] if syn not in ("by", "with")
}

_ARTICLES = frozenset({"a", "an", "the"})
_AUXILIARIES = frozenset({"am", "is", "are", "was", "were", "be", "being", "been", "'s", "'re"})
_PERFECT = frozenset({"has", "have", "had"})
# Words that open a predicate but are not its verb even where WordNet lists a verb sense
# ("near", "up", "down", "back", "top", "front", "close", "part", "side" are WordNet verbs).
_NOT_VERBS = frozenset(
    [
        "about",
        "above",
        "across",
        "after",
        "against",
        "along",
        "alongside",
        "among",
        "around",
        "at",
        "atop",
        "back",
        "before",
        "behind",
        "below",
        "beneath",
        "beside",
        "besides",
        "between",
        "beyond",
        "by",
        "close",
        "down",
        "during",
        "edge",
        "end",
        "for",
        "from",
        "front",
        "full",
        "in",
        "inside",
        "into",
        "like",
        "near",
        "next",
        "not",
        "no",
        "of",
        "off",
        "on",
        "onto",
        "out",
        "outside",
        "over",
        "part",
        "past",
        "side",
        "through",
        "to",
        "top",
        "toward",
        "towards",
        "under",
        "underneath",
        "up",
        "upon",
        "via",
        "with",
        "within",
        "without",
    ]
)
_PUNCTUATION = ' \t\n"`.,;:!?()[]{}'


def _is_participle(word: str) -> bool:
    return word.endswith(("ed", "en", "wn")) and bool(morphy_forms(word, "v"))


def _clean(text: str) -> list[str]:
    tokens = [t.strip(_PUNCTUATION) for t in text.lower().replace("_", " ").split()]
    # a token without a letter or digit ("-", "—", "→") is no word, as in concept lookups
    tokens = [t for t in tokens if any(ch.isalnum() for ch in t) and t not in _ARTICLES]
    out: list[str] = []
    for i, tok in enumerate(tokens):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if tok in _AUXILIARIES and nxt:
            continue  # "is sitting" -> "sitting"; a lone "is" survives and becomes "be"
        if tok in _PERFECT and (nxt == "been" or _is_participle(nxt)):
            continue  # perfect auxiliary ("has parked"), not possession ("has")
        out.append(tok)
    return out


def _is_verb(word: str) -> bool:
    return word not in _NOT_VERBS and bool(morphy_forms(word, "v"))


@lru_cache(maxsize=65536)
def canonical_predicate(text: str) -> str:
    """Canonical form of a relation predicate (deterministic; see the module tables).

    >>> [canonical_predicate(p) for p in ("beside", "is wearing", "holds", "on a", "has")]
    ['next to', 'wear', 'hold', 'on', 'have']
    >>> canonical_predicate("Parked near"), canonical_predicate("held by")
    ('park next to', 'hold by')
    """
    tokens = _clean(text)
    if not tokens:
        return ""
    negated = tokens[0] in ("not", "no") and len(tokens) > 1
    if negated:
        tokens = tokens[1:]
    phrase = " ".join(tokens)
    if phrase in PHRASE_TABLE:
        canon = PHRASE_TABLE[phrase]
    elif _is_verb(tokens[0]):
        verb = PHRASE_TABLE.get(tokens[0]) or lemmatize(tokens[0], "v")
        rest = " ".join(tokens[1:])
        canon = f"{verb} {PREPOSITION_TABLE.get(rest, rest)}".strip()
    else:
        canon = phrase
    return f"not {canon}" if negated else canon


@lru_cache(maxsize=65536)
def predicate_verb_synset(text: str) -> str | None:
    """Verb synset of the predicate's verb, or None for verbless (prepositional) predicates.

    >>> predicate_verb_synset("is sitting on"), predicate_verb_synset("next to")
    ('sit.v.01', None)
    """
    tokens = canonical_predicate(text).split()
    if tokens and tokens[0] == "not":
        tokens = tokens[1:]
    if not tokens or not _is_verb(tokens[0]):
        return None
    return verb_synset(tokens[0])

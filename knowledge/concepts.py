"""Concept text -> WordNet synset names, with WordNet's own morphology, without NLTK at run time.

Lemmatising follows NLTK's ``morphy`` exactly (exception list first, else one pass of the
detachment rules; the word itself is kept when it already is a lemma; first hit wins), but runs
on the cached :class:`~knowledge.hierarchy.Hierarchy`. Noun phrases map to the longest
compound WordNet knows ("tennis rackets" -> ``tennis_racket``; "red double decker bus" has no
compound entry, so -> ``bus``), first sense by default.

>>> noun_synset("tennis rackets"), noun_synset("women"), noun_synset("xyzzy")
('tennis_racket.n.01', 'woman.n.01', None)
"""

from __future__ import annotations

import re
from functools import lru_cache

from knowledge.distance import is_hypernym
from knowledge.hierarchy import get_hierarchy
from knowledge.objecthood import is_portion, is_thing, objecthood
from knowledge.sense_order import senses_in_order

__all__ = ["CAPTION_PLURALS", "lemmatize", "noun_senses", "noun_synset", "verb_synset"]

# NLTK's MORPHOLOGICAL_SUBSTITUTIONS for nouns and verbs (WordNet's morph(7WN) detachment rules),
# in NLTK's order, which decides the first result.
_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (
        ("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"),
        ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y"),
    ),
    "v": (
        ("s", ""), ("ies", "y"), ("es", "e"), ("es", ""),
        ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ),
}  # fmt: skip

#: Caption plurals that WordNet also lists as lemmas of their own whose *first* sense is not the
#: visible thing a caption means ("men" -> work_force.n.01, "arms" -> weaponry.n.01, "shoes" ->
#: place.n.06, "people" -> people.n.01, a social group). For these heads :func:`noun_synset`
#: uses the singular. Only the head word is affected; :func:`lemmatize` stays NLTK-exact.
#: Plurals whose own lemma *is* what captions mean ("glasses", "pants", "shorts", "stairs",
#: "clothes", "fries", "bleachers") are deliberately absent.
CAPTION_PLURALS: dict[str, str] = {
    "people": "person", "men": "man", "arms": "arm", "hands": "hand", "legs": "leg",
    "eyes": "eye", "teeth": "tooth", "shoes": "shoe", "letters": "letter", "numbers": "number",
    "words": "word", "papers": "paper", "boards": "board", "spots": "spot", "stripes": "stripe",
    "waters": "water", "whiskers": "whisker", "cards": "card", "bars": "bar", "sands": "sand",
    "colors": "color", "colours": "colour",
}  # fmt: skip

# Plural endings after a sibilant, whose "-es" detachment beats NLTK's first hit ("-s").
_SIBILANT_PLURALS = ("ches", "shes", "sses", "xes", "zes")

# Determiners and pronouns: some are WordNet nouns ("a" adenine, "it" information technology,
# "one" the number) but never the concept a caption phrase names.
_FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "some",
        "any",
        "each",
        "every",
        "its",
        "his",
        "her",
        "their",
        "my",
        "your",
        "our",
        "it",
        "he",
        "she",
        "they",
        "them",
        "i",
        "we",
        "you",
        "me",
        "us",
    ]
)
# Sense numbers are ASCII digits (r"\d" would also take "٣"), read without int(): a 5000-digit
# number would exceed Python's int-from-str limit.
_SYNSET_NAME = re.compile(r"^(?P<lemma>.+)\.(?P<pos>[nvasr])\.(?P<num>[0-9]+)$")
_STRIP = " \t\n\"'`.,;:!?()[]{}"


def _check_pos(pos: str) -> str:
    if pos not in ("n", "v"):
        raise ValueError(f"pos must be 'n' or 'v', not {pos!r}")
    return pos


def _normalise(word: str) -> str:
    return "_".join(word.strip().lower().split())


def morphy_forms(form: str, pos: str = "n") -> list[str]:
    """All base forms of ``form`` in WordNet, in NLTK ``_morphy`` order (may be empty).

    >>> morphy_forms("glasses")
    ['glasses', 'glass']
    """
    h = get_hierarchy()
    index, exceptions = h.lemmas(_check_pos(pos)), h.exceptions(pos)
    if form in exceptions:
        candidates = exceptions[form]
    else:
        candidates = [form[: -len(old)] + new for old, new in _RULES[pos] if form.endswith(old)]
    out: list[str] = []
    for cand in [form, *candidates]:  # the form itself first, as NLTK checks it too
        if cand in index and cand not in out:
            out.append(cand)
    return out


@lru_cache(maxsize=65536)
def lemmatize(word: str, pos: str = "n") -> str:
    """WordNet base form of ``word`` (NLTK ``morphy`` semantics), lowercased, multiwords joined
    with underscores. A word WordNet does not know comes back normalised but otherwise unchanged
    (where NLTK's ``morphy`` returns None).

    Where a verb form has several base forms WordNet knows, the one lemminflect derives it from:
    "swinging" is "swing" (WordNet also has "swinge", and morphy tries it first), "installed" is
    "install".

    >>> lemmatize("dogs"), lemmatize("glasses"), lemmatize("sitting", "v"), lemmatize("xyzzies")
    ('dog', 'glasses', 'sit', 'xyzzies')
    >>> lemmatize("swinging", "v")
    'swing'
    """
    form = _normalise(word)
    forms = morphy_forms(form, pos)
    if pos == "v" and len(forms) > 1:
        from lemminflect import getAllLemmas  # here: lemminflect loads its tables on import

        derived = [v for v in getAllLemmas(form, "VERB").get("VERB", ()) if v in forms]
        if derived:
            return str(derived[0])
    return forms[0] if forms else form


def _pick(lemma: str, pos: str, sense: int) -> str:
    h = get_hierarchy()
    ids = senses_in_order(lemma, pos)
    return h.names[ids[min(max(sense, 0), len(ids) - 1)]]


def _existing_name(text: str, pos: str) -> str | None:
    """``text`` as a synset name of ``pos`` ("dog.n.1" is normalised to "dog.n.01"), else None."""
    m = _SYNSET_NAME.match(text)
    if m is None or m["pos"] != pos:
        return None
    name = f"{m['lemma']}.{pos}.{m['num'].lstrip('0').zfill(2)}"
    return name if name in get_hierarchy().ids else None


def _tokens(phrase: str) -> list[str]:
    """The words of a phrase, stripped of punctuation; a token without a letter or digit ("-",
    "--", "·") is no word at all, so a bare hyphen ("a - sign") never reaches a lookup."""
    tokens = [t.strip(_STRIP) for t in phrase.lower().replace("_", " ").split()]
    return [t for t in tokens if any(ch.isalnum() for ch in t)]


def _names_things(lemma: str) -> bool:
    """Whether the first sense of ``lemma`` is a visible thing and not a group of them: the
    plural "tigers" is first a Tamil political group, "windows" an operating system, "fungi" a
    kingdom, while "tiger", "window" and "fungus" are the things a caption shows."""
    first = _pick(lemma, "n", 0)
    return is_thing(first) and not is_hypernym("group.n.01", first)


def _head_lemma(word: str) -> str | None:
    """The head noun's lemma. Unlike NLTK's first hit, a sibilant plural takes its "-es" rule,
    as English spelling does: "bunches" -> bunch (not the diplomat Bunche), "crosses" -> cross
    (not a lacrosse crosse). A plural that is a lemma itself keeps it when its first sense is a
    visible thing ("glasses"), else takes a singular that is ("tigers" -> tiger, and the
    irregular "fungi" -> fungus); otherwise a word in the exception list keeps NLTK's order."""
    if word in CAPTION_PLURALS:
        return CAPTION_PLURALS[word]
    forms = morphy_forms(word, "n")
    if len(forms) > 1 and forms[0] == word and not _names_things(word):
        singular = next((f for f in forms[1:] if _names_things(f)), None)
        if singular is not None:
            return singular
    if len(forms) < 2 or forms[0] == word or word in get_hierarchy().exceptions("n"):
        return forms[0] if forms else None
    for old in _SIBILANT_PLURALS:
        if word.endswith(old) and word[:-2] in forms:  # drop the "es"
            return word[:-2]
    return forms[0]


def _noun_lemma(tokens: list[str]) -> str | None:
    lemmas = get_hierarchy().noun_lemmas
    for start in range(len(tokens) - 1):  # longest compound first, down to two words
        words = tokens[start:]
        forms = morphy_forms("_".join(words), "n")  # NLTK semantics on the whole compound
        if forms:
            return forms[0]
        prefix = "_".join(words[:-1])
        lasts = morphy_forms(words[-1], "n")
        for last in lasts:  # e.g. "dining tables" -> dining_table
            if f"{prefix}_{last}" in lemmas:
                return f"{prefix}_{last}"
        # The first two words spelled open, stored hyphenated or closed: "wine glass" ->
        # wineglass, "ice cream cone" -> ice-cream_cone, "hot air balloon" -> hot-air_balloon.
        for joiner in ("-", ""):
            joined = "_".join([words[0] + joiner + words[1], *words[2:]])
            forms = morphy_forms(joined, "n")
            stem = joined[: len(joined) - len(words[-1])]
            forms += [f for f in (f"{stem}{x}" for x in lasts) if f in lemmas]
            if forms:
                return forms[0]
    return _head_lemma(tokens[-1])


@lru_cache(maxsize=65536)
def noun_synset(phrase: str, sense: int = 0) -> str | None:
    """The WordNet noun synset a concept phrase names, or None.

    Tries the longest compound first, then shorter suffixes down to the head (last) word, each
    with its last word lemmatised; leading determiners/pronouns are ignored. ``sense`` indexes
    WordNet's sense list of the lemma found (clamped to it). An existing noun synset name is
    returned unchanged.

    >>> noun_synset("red double decker bus"), noun_synset("people"), noun_synset("dog.n.01")
    ('bus.n.01', 'person.n.01', 'dog.n.01')
    >>> noun_synset("hot dogs"), noun_synset("dog", sense=99), noun_synset("the")
    ('hotdog.n.02', 'andiron.n.01', None)
    """
    text = phrase.strip().lower()
    if _SYNSET_NAME.match(text):
        return _existing_name(text, "n")
    lemma = _phrase_lemma(text)
    return _pick(lemma, "n", sense) if lemma is not None else None


def wordnet_first_sense(word: str) -> str | None:
    """WordNet's own first noun sense of ``word``, where :func:`noun_synset` reads a never-tagged
    abstraction as the thing it also names: whether a word is used as a verb or as a noun
    ("chats", "floats") is a matter of its usual reading, and for that WordNet's order is all
    there is.

    >>> noun_synset("chat"), wordnet_first_sense("chat")
    ('new_world_chat.n.01', 'chat.n.01')
    """
    lemma = _phrase_lemma(word.strip().lower())
    if lemma is None:
        return None
    h = get_hierarchy()
    return h.names[h.lemmas("n")[lemma][0]]


@lru_cache(maxsize=65536)
def noun_senses(phrase: str, min_count: int = 0) -> tuple[str, ...]:
    """The noun synsets of the lemma :func:`noun_synset` finds for ``phrase``, in WordNet sense
    order as :func:`knowledge.sense_order.senses_in_order` reads it (the first is
    ``noun_synset(phrase)``: a tree's "branch" before an office's); an existing synset name gives
    just itself.

    ``min_count`` keeps, beyond the first sense, only senses tagged at least that often in
    WordNet's sense-tagged corpus (index.sense): ``min_count=1`` drops the rare readings
    ("goat" as a person born under Capricorn). Ignored when the database has no counts.

    >>> noun_senses("branch")[:2], noun_senses("xyzzy")
    (('branch.n.02', 'branch.n.01'), ())
    >>> noun_senses("goat", min_count=1)
    ('goat.n.01',)

    A plural WordNet lists as a word of its own ("glasses", "pants") also names what its
    singular names first, after its own senses:

    >>> noun_senses("pants"), noun_senses("glasses")
    (('bloomers.n.01', 'trouser.n.01'), ('spectacles.n.01', 'glass.n.01'))
    """
    text = phrase.strip().lower()
    if _SYNSET_NAME.match(text):
        name = _existing_name(text, "n")
        return (name,) if name else ()
    lemma = _phrase_lemma(text)
    if lemma is None:
        return ()
    h = get_hierarchy()
    lemmas = [lemma]
    if " " not in text and "_" not in lemma:
        # a plural WordNet lists as a word of its own also inflects its singular, and names
        # what that names first: "pants" is women's underpants first, and trousers too
        lemmas += morphy_forms(text)[1:]
    ids: list[int] = []
    counts: dict[int, int] = {}  # each sense's tag count, by the lemma it was found under
    for name in lemmas:
        found = h.noun_sense_counts.get(name) or [0] * len(h.lemmas("n")[name])
        for i, n in zip(h.lemmas("n")[name], found, strict=True):
            counts.setdefault(i, n)
        read = senses_in_order(name, "n")
        ids += [i for i in (read if name == lemma else read[:1]) if i not in ids]
    if min_count > 0 and h.noun_sense_counts:
        ids = [i for k, i in enumerate(ids) if k == 0 or counts[i] >= min_count]
    return tuple(h.names[i] for i in ids)


def _phrase_lemma(text: str) -> str | None:
    """The WordNet noun lemma a lower-cased concept phrase names (see :func:`noun_synset`)."""
    tokens = _tokens(text)
    while tokens and tokens[0] in _FUNCTION_WORDS:
        tokens = tokens[1:]
    if not tokens:
        return None
    lemma = _noun_lemma(tokens)
    if lemma is None and "-" in tokens[-1]:  # "ice-cream cone" style spellings WordNet splits
        parts = [t for t in tokens[-1].split("-") if any(ch.isalnum() for ch in t)]
        lemma = _noun_lemma(tokens[:-1] + parts) if parts else None
    return lemma if lemma is not None else _written_as_one(tokens[-1])


def _written_as_one(word: str) -> str | None:
    """The WordNet compound a word it does not know writes as one ("wetsuit" is a wet suit,
    "firetruck" a fire truck, "lawnmowers" lawn mowers), or None: both words must make it, not
    its last alone ("flowervase" stays unknown, "trimode" is no ode)."""
    for k in range(3, len(word) - 2):
        lemma = _noun_lemma([word[:k], word[k:]]) if word.isalpha() else None
        if lemma is not None and lemma.startswith(f"{word[:k]}_"):
            return lemma
    return None


@lru_cache(maxsize=65536)
def verb_synset(word: str, sense: int = 0) -> str | None:
    """The WordNet verb synset of a verb (or phrasal verb), or None.

    The first word carries the inflection ("picking up" -> ``pick_up``); a phrasal verb
    WordNet lacks falls back to its first word. An existing verb synset name is returned as is.

    >>> verb_synset("sitting"), verb_synset("wears"), verb_synset("picking up"), verb_synset("on")
    ('sit.v.01', 'wear.v.01', 'pick_up.v.01', None)
    """
    text = word.strip().lower()
    if not text:
        return None
    if _SYNSET_NAME.match(text):
        return _existing_name(text, "v")
    tokens = _tokens(text)
    if not tokens:
        return None
    lemmas = get_hierarchy().verb_lemmas
    if len(tokens) > 1:
        rest = "_".join(tokens[1:])
        for first in morphy_forms(tokens[0], "v"):
            if f"{first}_{rest}" in lemmas:
                return _pick(f"{first}_{rest}", "v", sense)
    forms = morphy_forms(tokens[0], "v")
    return _pick(forms[0], "v", sense) if forms else None


@lru_cache(maxsize=8192)
def names_portion(word: str) -> bool:
    """Whether noun ``word`` names a piece or an amount of something (:func:`is_portion`): by its
    first sense, or, when that sense is no visible thing, by another sense tagged in WordNet's
    corpus -- a "slice" is first a share of something, then a piece cut off; a "bite" first the
    act, then a morsel. Not a container whose rarer sense is its contents ("a cup of tea", "a
    *case* of cosmetics": the cup and the case are there).

    >>> [names_portion(w) for w in ("piece", "slice", "bite", "cup", "case")]
    [True, True, True, False, False]
    """
    senses = noun_senses(word, min_count=1)
    portions = [is_portion(s) for s in senses]
    if not portions or portions[0]:
        return bool(portions)
    things = [objecthood(s) == "thing" and not p for s, p in zip(senses, portions, strict=True)]
    return objecthood(senses[0]) == "abstract" and any(portions) and not any(things)

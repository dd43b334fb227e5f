"""The working state between SceneGraphParser's output and a SceneGraph: token-level mentions
and links that the repair steps (:mod:`parsers.repairs`) edit in place.

Upstream's entities carry token bounds but its relations carry only text; ``from_upstream``
recovers the predicate *tokens* of every relation from the dependency tree, so that char spans
are exact and the predicate can be corrected (``"in front"`` -> ``"in front of"``).

>>> from parsers.spacy_model import load_spacy
>>> from parsers.caption import upstream_backend
>>> doc = load_spacy()("A man in front of a bus.")
>>> d = from_upstream(doc, upstream_backend().parse_doc(doc))
>>> [(doc[m.root].text) for m in d.mentions], [d.predicate_text(k) for k in d.links]
(['man', 'bus'], ['in front of'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

# Multiword prepositions built around a noun ("in front of"): the noun is not an object.
NOUN_PREPS = frozenset(
    """in front of|on top of|on the top of|at the top of|on the side of|on side of
|by the side of|at the side of|on the other side of|on either side of|in the middle of
|in the center of|in the centre of|at the end of|at the edge of|on the edge of|in the back of
|at the back of|on the back of|at the bottom of|on the bottom of|in the corner of|to the left of
|to the right of|on the left of|on the right of|on the front of|at the front of|in the midst of
|to the side of|in the front of|at the corner of|on the corner of|at the rear of|in the rear of
|on the surface of|in the shade of|at the foot of|on the outside of|on the inside of""".replace("\n", "").split("|")
)
# Adverbs/adjectives that form one phrase with the preposition after them ("next to", "full of").
# Other adjectives ("asleep on a bed") are attributes of the subject; prepositions always chain
# ("out of", "in between").
CHAIN_WORDS = frozenset(
    [
        "next",
        "close",
        "closer",
        "near",
        "nearer",
        "out",
        "away",
        "ahead",
        "across",
        "inside",
        "outside",
        "off",
        "up",
        "down",
        "full",
        "together",
        "along",
        "apart",
        "instead",
        "right",
        "left",
        "behind",
        "over",
        "back",
    ]
)
_CHAIN_DEP = frozenset(("prep", "advmod", "amod", "acomp", "pcomp", "npadvmod"))
_SPLIT_DEPS = frozenset(("amod", "compound", "appos", "npadvmod", "acl"))  # acl: a noun read as a clause
_SPLIT_POS = frozenset(("NOUN", "ADJ", "PROPN"))
_OBJ_DEPS = frozenset(("dobj", "attr", "oprd", "dative", "ccomp", "xcomp"))
_CLAUSE_DEPS = frozenset(("ccomp", "xcomp"))


@dataclass
class Mention:
    """One noun phrase: ``root`` token, chunk bounds ``start``/``end`` (token indices, end
    exclusive), and what the repairs decide about it. ``alias`` >= 0 redirects every link to
    another mention; ``alias == DROPPED`` removes the mention and its links."""

    root: int
    start: int
    end: int
    alias: int | None = None
    uncertain: bool = False
    alternatives: list[int] = field(default_factory=list)  # mention indices
    counts: list[str] = field(default_factory=list)
    extra_spans: list[tuple[int, int]] = field(default_factory=list)  # token ranges of alternatives
    phrase: tuple[int, int] | None = None  # token range of the whole phrase when not start..end
    tail: int | None = None  # second word of a compound spaCy split off ("fire | hydrant")


DROPPED = -1


@dataclass
class Link:
    """A relation between two mentions; ``tokens`` are the predicate's token indices.
    ``canonical_text`` overrides the text given to ``canonical_predicate`` (possessives)."""

    subject: int
    object: int
    tokens: tuple[int, ...]
    canonical_text: str | None = None


@dataclass
class Draft:
    """One caption being repaired: its Doc, mentions, links and a token -> mention index."""

    doc: Any
    mentions: list[Mention]
    links: list[Link]
    tok2m: list[int]  # token index -> mention index, -1 outside every mention
    text: str = ""  # doc.text, once: spaCy rebuilds it from every token on each access

    def add_mention(self, m: Mention) -> int:
        self.mentions.append(m)
        idx = len(self.mentions) - 1
        for i in range(m.start, m.end):
            self.tok2m[i] = idx
        return idx

    def relate(
        self,
        subjects: Iterable[Any],
        objects: Iterable[Any],
        tokens: tuple[int, ...],
        linked: set[tuple[int, int]] | None = None,
    ) -> None:
        """Link the mention of each token of ``subjects`` to the mention of each token of
        ``objects`` by the predicate ``tokens``: never a token outside a mention, nor a mention to
        itself, nor (when ``linked`` is given; it is kept up to date) a pair already linked."""
        objects = list(objects)
        for s in subjects:
            for o in objects:
                s_m, o_m = self.tok2m[s.i], self.tok2m[o.i]
                if s_m < 0 or o_m < 0 or s_m == o_m or (linked is not None and (s_m, o_m) in linked):
                    continue
                if linked is not None:
                    linked.add((s_m, o_m))
                self.links.append(Link(s_m, o_m, tokens))

    def resolve(self, idx: int) -> int:
        """Follow aliases to the mention that stands for ``idx`` (or DROPPED)."""
        seen = 0
        while idx >= 0 and self.mentions[idx].alias is not None and seen < 16:
            idx = self.mentions[idx].alias  # type: ignore[assignment]  # not None: the loop tests it
            seen += 1
        return idx

    def predicate_text(self, link: Link) -> str:
        a, b = self.doc[link.tokens[0]], self.doc[link.tokens[-1]]
        return self.text[a.idx : b.idx + len(b.text)]

    def predicate_span(self, link: Link) -> tuple[int, int]:
        a, b = self.doc[link.tokens[0]], self.doc[link.tokens[-1]]
        return (a.idx, b.idx + len(b.text))


#: Hyphens that join the parts of one word ("x-ray"): hyphen-minus, hyphen, non-breaking hyphen.
HYPHENS = frozenset("-\u2010\u2011")


def _wordlike(tok: Any) -> bool:
    return any(ch.isalnum() for ch in tok.text)


def joins_next(doc: Any, i: int) -> bool:
    """Whether token ``i`` and the next one are parts of one hyphenated word: "x|-" and "-|ray"
    in "x-ray" (spaCy splits the hyphen off), or "x-| ray" (a prefix spelled open). A hyphen with
    a space on either side joins nothing ("a - sign")."""
    if i + 1 >= len(doc):
        return False
    a, b = doc[i], doc[i + 1]
    if len(a.text) > 1 and a.text[-1] in HYPHENS and _wordlike(a) and _wordlike(b):  # "x- ray"
        return True
    if a.whitespace_:
        return False
    if b.text in HYPHENS:  # "x|-ray"
        return _wordlike(a) and not b.whitespace_ and i + 2 < len(doc) and _wordlike(doc[i + 2])
    if a.text in HYPHENS:  # "x-|ray"
        return _wordlike(b) and i > 0 and not doc[i - 1].whitespace_ and _wordlike(doc[i - 1])
    return False


def list_member(t: Any) -> bool:
    """A later member of a list: a conjunct, or an apposition holding one (spaCy reads "taxis, a
    cyclist and a police officer" as taxis + the apposition "a cyclist and a police officer")."""
    return t.dep_ == "conj" or t.dep_ == "appos" and any(g.dep_ == "conj" for g in t.children)


def first_of_list(t: Any) -> Any:
    """The first member of the list token ``t`` is a later member of (:func:`list_member`; spaCy
    chains each member to the one before), or ``t`` itself."""
    while list_member(t) and t.head.i != t.i:
        t = t.head
    return t


def flatten(tok: Any) -> Iterator[Any]:
    """A token and its conjuncts ("the dog and the bird"), down the chain spaCy builds of a list
    ("pink, white and red": "red" is a conjunct of "white"), and through an apposition holding
    one (spaCy reads "a dog, a cat and a bird" as the dog and the apposition "a cat and a bird")."""
    yield tok
    for c in tok.children:
        if list_member(c):
            yield from flatten(c)


def verb_subject(verb: Any) -> Any | None:
    """The token doing ``verb``: its nsubj, the noun an acl/relcl modifies, or (through
    coordinated and open-complement verbs, and an adjective a verb says of its subject: "is
    *ready* to kick") the subject of the governing verb, or the noun of a caption that is a noun
    phrase the verb is an adverbial participle of."""
    for _ in range(6):
        for c in verb.children:
            if c.dep_ in ("nsubj", "nsubjpass"):
                return c
        if verb.dep_ in ("acl", "relcl"):
            return verb.head
        if verb.dep_ == "acomp" and verb.head.pos_ in ("VERB", "AUX"):
            verb = verb.head  # "gets *ready* to kick the ball": the adjective is the subject's
            continue
        if verb.dep_ in ("conj", "xcomp", "advcl") and verb.head.i != verb.i:
            if verb.dep_ == "advcl" and verb.tag_ in ("VBG", "VBN") and verb.head.pos_ in ("NOUN", "PROPN"):
                # a participle of a caption that is a noun phrase: "A leopard, *laying* in the grass"
                # (not a noun read as a bare verb: "next to *garden* gnome")
                return verb.head if verb.head.dep_ == "ROOT" else None
            verb = verb.head
            continue
        return None
    return None


def verb_tokens(verb: Any, obj: Any) -> tuple[int, ...]:
    """The predicate tokens of ``verb`` with its object ``obj``: the verb and its particles
    before the object ("*picks up* a ball")."""
    return (verb.i, *(c.i for c in verb.children if c.dep_ == "prt" and c.i < obj.i))


def phrase_subject(attach: Any) -> Any | None:
    """The noun a prepositional phrase hanging from ``attach`` describes: ``attach`` itself when a
    noun, a verb's subject (:func:`verb_subject`), or the subject of the copula ``attach`` is the
    adjective of ("The tires are black *with chrome rims*", "A bag is open *on the floor*")."""
    if attach.pos_ in ("NOUN", "PROPN", "PRON", "NUM"):
        return attach
    if attach.pos_ in ("VERB", "AUX"):
        return verb_subject(attach)
    if attach.pos_ == "ADJ" and attach.dep_ == "acomp":
        return verb_subject(attach.head)
    return None


def prep_predicate(o: Any, inside: list[int] | None = None) -> tuple[Any, list[int], int | None] | None:
    """For a prepositional object ``o``: (the token the phrase attaches to, the predicate's token
    indices, the inner noun of a multiword preposition or None). ``None`` when ``o`` is not a
    prepositional object or is a passive agent ("by a woman"). ``inside`` (token -> mention, -1
    outside) stops the chain at a word that names an object."""
    if o.dep_ != "pobj":
        return None
    p = o.head
    if p.dep_ == "agent":
        return None
    h, doc = p.head, o.doc
    # "in front of": the noun "front" sits between two prepositions.
    if h.dep_ == "pobj" and h.i < p.i and h.head.i < h.i:
        q = h.head
        if doc[q.i : p.i + 1].text.lower() in NOUN_PREPS:
            return q.head, list(range(q.i, p.i + 1)), h.i
    tokens = [p.i]
    # "next to", "close to", "out of", "in between": adjacent heads chain into one phrase.
    while (
        h.i < tokens[0]
        and all(doc[k].is_space for k in range(h.i + 1, tokens[0]))  # "next  to": a doubled space is no word
        and (h.pos_ == "ADP" or h.lower_ in CHAIN_WORDS)
        and h.dep_ in _CHAIN_DEP
        and h.head.i != h.i
        and (inside is None or inside[h.i] < 0)
    ):
        tokens.insert(0, h.i)
        h = h.head
    return h, tokens, None


def with_verb(attach: Any, tokens: list[int]) -> list[int]:
    """Prefix an intransitive verb that the phrase follows directly, or after a particle that
    keeps its posture (:data:`POSTURE_PARTICLES`): "sitting on" and "sitting down on", not "on".
    A transitive verb keeps its own relation ("riding a horse on a beach": (man, on, beach))."""
    # A bare base form (VB) here is usually a noun the tagger got wrong ("a bed or blanket near").
    if attach.pos_ != "VERB" or attach.tag_ == "VB" or attach.i >= tokens[0]:
        return tokens
    between = list(range(attach.i + 1, tokens[0]))
    # a doubled space is a token of its own ("swimming  in the sea"): no word between the two
    if any(not (attach.doc[k].is_space or keeps_posture(attach.doc[k], attach)) for k in between):
        return tokens
    # a clause after the phrase is no object ("sits on a bench *to eat* a sandwich")
    if any(c.dep_ in _OBJ_DEPS and not (c.dep_ in _CLAUSE_DEPS and c.i > tokens[-1]) for c in attach.children):
        return tokens
    return [attach.i, *between, *tokens]


#: Particles after which a verb still says the posture or motion it says alone ("sitting *down*
#: on", "standing *up* on", "walking *out* of"); not "over" or "off", after which it says
#: another event ("fell over": toppled, not travelling; "takes off": leaves the ground).
POSTURE_PARTICLES = frozenset(("down", "up", "around", "about", "back", "out"))


def keeps_posture(t: Any, verb: Any) -> bool:
    """Whether token ``t`` is a particle of ``verb`` in :data:`POSTURE_PARTICLES`."""
    return t.dep_ == "prt" and t.head.i == verb.i and t.lower_ in POSTURE_PARTICLES


def _upstream_tokens(o: Any, inside: list[int]) -> list[int]:
    """The predicate tokens of an upstream relation whose object token is ``o``."""
    o = first_of_list(o)  # a conjunct shares the relation of the first conjunct
    if o.dep_ == "pobj":
        found = prep_predicate(o, inside)
        if found is not None:
            attach, tokens, _ = found
            return with_verb(attach, tokens)
    # dobj / attr / nsubjpass: the governing verb is the predicate.
    return [o.head.i]


def _said_with(subject: Any, tokens: tuple[int, ...]) -> list[Any]:
    """The members of the list ``subject`` ends that what follows it is said of too: "A dog and
    a cat *on a bed*", "A man and a woman *riding* bikes" (spaCy hangs the phrase from the last
    member only). Not a member with a phrase of its own ("a man with a hat and a woman on a
    bench"), nor through "of", which names a part or the contents ("a sandwich and a cup *of*
    coffee"), and only of a list of subjects (or of a caption that is one)."""
    if subject.dep_ != "conj" or not tokens or tokens[0] < subject.i:
        return []
    if subject.doc[tokens[0]].lower_ == "of":
        return []
    first = subject
    while first.dep_ == "conj" and first.head.i != first.i:  # conjuncts only: not an apposition's list
        first = first.head
    if first.dep_ not in ("nsubj", "nsubjpass", "ROOT"):
        return []  # a list of objects: "with peppers, potatoes and a slice *served* on a plate"
    own = ("acl", "relcl", "prep")
    return [m for m in flatten(first) if m.i < subject.i and not any(c.dep_ in own for c in m.children)]


def from_upstream(
    doc: Any, result: dict[str, Any], *, joins: Callable[[str, str], bool] | None = None, text: str | None = None
) -> Draft:
    """Mentions from upstream entities (all of them, pronouns too: a repair step decides), links
    from its relations with their predicate tokens recovered.

    ``joins(word, next_word)`` says whether two words name one thing; it repairs compounds that
    spaCy's small model splits ("A fire hydrant": "hydrant" parsed as an adjective of "fire")."""
    from spacy.tokens import Span  # here: importing parsers does not load spaCy

    tok2m = [-1] * len(doc)
    draft = Draft(doc, [], [], tok2m, doc.text if text is None else text)
    for ent in result["entities"]:
        start, end = ent["span_bounds"]
        root = Span(doc, start, end).root  # not doc[start:end]: its slice checks cost 3x the Span
        m = Mention(root=root.i, start=start, end=end)
        if joins is not None and end == root.i + 1 and end < len(doc):
            nxt = doc[end]
            if (
                nxt.head.i == root.i
                and nxt.dep_ in _SPLIT_DEPS
                and nxt.pos_ in _SPLIT_POS
                and joins(root.lower_, nxt.lower_)
            ):
                m.end, m.tail = end + 1, end
        draft.add_mention(m)
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    by_root = {m.root: k for k, m in enumerate(draft.mentions)}
    for rel in result["relations"]:
        # upstream follows a list one conjunct deep: "a dress, a hat and sunglasses" (sunglasses
        # a conjunct of the hat) gave the dress and the hat, not the sunglasses
        subject = doc[draft.mentions[rel["subject"]].root]
        obj = doc[draft.mentions[rel["object"]].root]
        objects = [rel["object"], *(by_root.get(t.i) for t in flatten(obj) if t.i != obj.i)]
        for o in (k for k in objects if k is not None):
            tokens = tuple(_upstream_tokens(doc[draft.mentions[o].root], tok2m))
            # a list member after the predicate is none of its subjects ("A girl holding a kite,
            # a dog and a cat": the dog holds nothing)
            later = [t for t in flatten(subject) if t.i != subject.i and (not tokens or t.i < tokens[0])]
            more = [by_root.get(t.i) for t in later + _said_with(subject, tokens)]
            for s in (rel["subject"], *more):
                if s is None or s == o:
                    continue
                key = (s, o, tokens)
                if key not in seen:  # upstream repeats relations for coordinated words
                    seen.add(key)
                    draft.links.append(Link(s, o, tokens))
    return draft

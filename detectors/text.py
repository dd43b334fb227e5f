"""Small text helpers shared by detectors: sentence spans and span-to-sentence scores.

>>> sentence_spans("A dog.  A cat on a mat!")
[(0, 6), (8, 23)]
>>> sentence_scores("A dog. A cat.", [(7, 12, 0.8)])
[SentenceScore(start=0, end=6, score=0.0), SentenceScore(start=7, end=13, score=0.8)]
"""

from __future__ import annotations

import math
import re
from typing import Iterable

from detectors.base import SentenceScore

# A sentence ends at . ! ? (and closing quotes/brackets) before whitespace and a word that does not
# start in lower case, or at a newline; a few abbreviations never end one.
_END = re.compile(r"[.!?]+[\"')\]]*(?=\s+[^\sa-z]|\s*$)|\n")
_ABBREVIATIONS = ("mr.", "mrs.", "ms.", "dr.", "st.", "vs.", "e.g.", "i.e.", "etc.")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Char spans of the sentences of ``text`` (whitespace around them excluded)."""
    cuts, start = [], 0
    for m in _END.finditer(text):
        word = text[:m.end()].rsplit(None, 1)[-1].lower() if text[:m.end()].strip() else ""
        if m.group() != "\n" and word.endswith(_ABBREVIATIONS) and m.end() < len(text.rstrip()):
            continue
        cuts.append((start, m.end()))
        start = m.end()
    cuts.append((start, len(text)))
    spans = []
    for a, b in cuts:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            spans.append((a, b))
    return spans


def sentence_scores(text: str, scored: Iterable[tuple[int, int, float]],
                    combine: str = "max") -> list[SentenceScore]:
    """Per sentence, the spans ``(start, end, score)`` inside it combined (0 if none).

    A span belongs to the sentence it starts in. ``combine="max"``: one hallucinated word makes
    its sentence unfaithful, however many faithful words sit beside it; ``"noisy_or"``:
    ``1 - prod(1 - score)``, for span scores that are independent probabilities.

    >>> sentence_scores("A b. C d.", [(0, 1, 0.5), (2, 3, 0.5)], combine="noisy_or")[0].score
    0.75
    """
    if combine not in ("max", "noisy_or"):
        raise ValueError(f"combine must be 'max' or 'noisy_or', not {combine!r}")
    scored = list(scored)
    out = []
    for a, b in sentence_spans(text):
        inside = [s for start, _, s in scored if a <= start < b]
        if combine == "max":
            value = max(inside, default=0.0)
        else:
            value = 1.0 - math.prod(1.0 - s for s in inside)
        out.append(SentenceScore(a, b, round(value, 6)))
    return out

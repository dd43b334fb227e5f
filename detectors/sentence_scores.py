"""Sentence scores from span scores, for detectors that score words or phrases.

Sentences are those of :func:`parsers.sentences.split_sentences`, the splitter every detector uses.

>>> sentence_scores("A dog. A cat.", [(7, 12, 0.8)])
[SentenceScore(start=0, end=6, score=0.0), SentenceScore(start=7, end=13, score=0.8)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from detectors.base import SentenceScore
from parsers.sentences import split_sentences


def sentence_scores(text: str, scored: Iterable[tuple[int, int, float]], combine: str = "max") -> list[SentenceScore]:
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
    for a, b in split_sentences(text):
        inside = [s for start, _, s in scored if a <= start < b]
        value = max(inside, default=0.0) if combine == "max" else 1.0 - math.prod(1.0 - s for s in inside)
        out.append(SentenceScore(a, b, round(value, 6)))
    return out

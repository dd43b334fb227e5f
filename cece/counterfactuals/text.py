"""Text edits of the counterfactual: :class:`Change` s applied to the caption, then tidied
(spacing, stray commas and connectives, sentence capitals, "a" / "an").

>>> apply("A guitar on a sofa.", [Change(0, 12, "")])
'A sofa.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from cece.counterfactuals.words import article
from parsers.surface import written_in_capitals


@dataclass
class Change:
    """Replace ``text[start:end]`` by ``new``; ``edit`` is the index of the edit it serves."""

    start: int
    end: int
    new: str
    edit: int | None = None


def apply(text: str, changes: Sequence[Change]) -> str:
    """``text`` with ``changes`` applied, then :func:`tidy`. Overlapping cuts make one cut; a
    change inside a cut is dropped; of other overlapping changes the earlier and wider wins.

    >>> apply("A dog, a cat and a bird.", [Change(5, 12, ""), Change(12, 23, ""), Change(9, 12, "cow")])
    'A dog.'

    Replacements in a caption written in capitals are written so too:

    >>> apply("A MAN ON THE CHAIR.", [Change(13, 18, "table")])
    'A MAN ON THE TABLE.'
    """
    cuts: list[Change] = []
    for c in sorted((c for c in changes if c.new == "" and c.end > c.start), key=lambda c: c.start):
        if cuts and c.start <= cuts[-1].end:
            cuts[-1] = Change(cuts[-1].start, max(cuts[-1].end, c.end), "", cuts[-1].edit)
        else:
            cuts.append(c)
    chosen = list(cuts)
    for c in sorted(
        (c for c in changes if c.new != "" or c.end == c.start),
        key=lambda c: (c.start, c.end > c.start, -(c.end - c.start)),
    ):
        if any(c.start < x.end and x.start < c.end or x.start < c.start < x.end for x in chosen):
            continue
        chosen.append(c)
    chosen.sort(key=lambda c: (c.start, c.end))
    shouted = written_in_capitals(text)  # "A MAN ON THE CHAIR" -> "A MAN ON THE TABLE"
    out = text
    for c in reversed(chosen):
        out = out[: c.start] + (c.new.upper() if shouted else c.new) + out[c.end :]
    return tidy(out, capital=text[:1].isupper()) if chosen else text


def tidy(text: str, capital: bool = True) -> str:
    """Spacing, stray commas and connectives at a sentence edge, sentence capitals, "a" / "an"."""
    text = re.sub(r"[ \t]{2,}", " ", text).strip()
    text = re.sub(r"\s+([.,;:!?])", r"\1", text)
    text = re.sub(r",\s*([.;:!?])", r"\1", text)
    text = re.sub(r"(^|[.!?]\s+)(?:,\s*|(?:and|or|but|while|with)\s+)+", r"\1", text, flags=re.I)
    text = articles(text)
    if capital:
        text = re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
    return text


def articles(text: str) -> str:
    """Every "a" / "an" made to fit the word after it ("a apple" -> "an apple").

    >>> articles("a apple, an dog, A egg"), articles("A EGG ON A APPLE")
    ('an apple, a dog, An egg', 'AN EGG ON AN APPLE')
    """
    shouted = written_in_capitals(text)

    def fix(m: re.Match[str]) -> str:
        said, after = m.group(1), m.group(3)
        word = article(after)
        if said.isupper() and (len(said) > 1 or shouted):  # "AN EGG", in capitals
            word = word.upper()
        elif said[:1].isupper():
            word = word.capitalize()
        return word + m.group(2) + after

    return re.sub(r"\b([Aa][Nn]?)(\s+)(\w+)", fix, text)

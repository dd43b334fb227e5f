"""The counterfactual as a word diff against the caption (shown by ``cece explain`` and the HTML
report: removed words struck, new words marked).

>>> word_diff("A cat on a sofa.", "A dog on a sofa.")
[('=', 'A'), ('-', 'cat'), ('+', 'dog'), ('=', 'on a sofa.')]
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """``(kind, words)`` runs turning ``old`` into ``new``: ``=`` kept, ``-`` removed, ``+`` added."""
    a, b = old.split(), new.split()
    out = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(("=", " ".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(("-", " ".join(a[i1:i2])))
        if j2 > j1:
            out.append(("+", " ".join(b[j1:j2])))
    return out


def added_ranges(old: str, new: str) -> list[tuple[int, int]]:
    """Char ranges of ``new`` holding the words ``old`` did not have (a word losing the words
    after it is no new word).

    >>> added_ranges("A cat on a sofa.", "A dog on a sofa.")
    [(2, 5)]
    >>> added_ranges("A dog near a lamp and a bed.", "A dog near a lamp.")
    []
    """
    a = re.findall(r"\w+|[^\w\s]", old)
    spans = [(m.start(), m.end()) for m in re.finditer(r"\w+|[^\w\s]", new)]
    b = [new[s:e] for s, e in spans]
    out = []
    for tag, _, _, j1, j2 in SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal" and j2 > j1:
            out.append((spans[j1][0], spans[j2 - 1][1]))
    return out

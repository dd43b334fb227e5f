"""The counterfactual as a word diff against the caption (shown by ``cece explain`` and the HTML
report: removed words struck, new words marked).

>>> word_diff("A cat on a sofa.", "A dog on a sofa.")
[('=', 'A'), ('-', 'cat'), ('+', 'dog'), ('=', 'on a sofa.')]
"""

from __future__ import annotations

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


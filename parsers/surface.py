"""The text the caption parser hands spaCy: the caption's own, char for char, with what
misleads the tagger taken out (:func:`spacy_text`), so that every span still indexes the
caption."""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def spacy_text(text: str) -> str:
    """The text the parser hands spaCy for ``text``, one char for one so that spans still index
    the original text: lone surrogates (which spaCy cannot encode) as U+FFFD; the stray "¬" that
    a lost line break leaves in crowd-sourced captions ("in a grassy field¬", one in a hundred
    nocaps references) as a space, since the tagger would read "field¬" as another word; and a
    text written in capitals in lower case. The tagger reads "A CROWN WITH YELLOW GEMS" as names
    ("GEMS" one gem, "PLACED ON" a predicate of its own); about one in 180 COCO and nocaps
    references is written so.

    >>> spacy_text("A dog on a field¬"), spacy_text("A CROWN WITH YELLOW GEMS"), spacy_text("A TV on a stand")
    ('A dog on a field ', 'a crown with yellow gems', 'A TV on a stand')
    """
    text = _SURROGATE.sub("\ufffd", text).replace("\u00ac", " ")
    return _lowered(text) if written_in_capitals(text) else text


#: A text is written in capitals when at least this many of its cased letters are, and they
#: are at least ``_SHOUTED_MIN`` ("TV" alone is a name).
_SHOUTED_SHARE, _SHOUTED_MIN = 0.9, 6


def written_in_capitals(text: str) -> bool:
    """Whether ``text`` is written in capitals (:data:`_SHOUTED_SHARE`, :data:`_SHOUTED_MIN`)."""
    upper = lower = 0
    for ch in text:
        upper += ch.isupper()
        lower += ch.islower()
    return upper >= _SHOUTED_MIN and upper >= _SHOUTED_SHARE * (upper + lower)


def _lowered(text: str) -> str:
    # char by char: a letter whose lower case is longer ("İ") stays, so spans still fit
    return "".join(low if len(low := ch.lower()) == 1 else ch for ch in text)

"""The one sentence splitter: char spans of the sentences of a caption or any English text.

Every part of the project that cuts text into sentences (detectors' sentence scores, the VLM
judge's per-sentence prompts, FaithScore's facts, the ensemble) uses :func:`split_sentences`, so
their sentences coincide and can be compared or merged by offsets.

A sentence ends at ``.``, ``!``, ``?``, an ellipsis (``...`` or ``…``) or ``。！？``, with any
closing quotes or brackets after them, when whitespace or the end of the text follows; and at a
line break. Not an end:

- a period inside a token: decimals (``3.5``), ``U.S.A``, ``www.example.com``;
- the period of a title or Latin abbreviation (``Dr.``, ``Mr.``, ``e.g.``, ``i.e.``, ``vs.``...);
- the period of an initialism or ``etc.`` (``U.S.``, ``J.``), unless a word that usually opens
  a sentence follows (``the``, ``a``, ``it``, ``there``...);
- in a text that starts with a capital, a terminator followed by a lower-case word
  (``"Stop!" he said``, ``wait... what``, ``approx. three``). An all-lower-case caption
  (``a dog. a cat.``) is cut at every terminator instead.

Spans exclude the whitespace around a sentence; a piece with no letter or digit (a lone ``...``)
is no sentence.

``rule="punctuation"`` cuts after every ``.``, ``!``, ``?`` and ``。！？``, whatever follows (decimals
and abbreviations included): DetailVerifyBench's own scoring script cuts so, and its aligned
metrics (:mod:`benchmarks.dvb_metrics`) must count the sentences it counts.

>>> text = 'Dr. Smith walks his dog, e.g. a 3.5 kg terrier. "Look!" she says... The U.S. flag flies.'
>>> [text[s.start:s.end] for s in split_sentences(text)]
['Dr. Smith walks his dog, e.g. a 3.5 kg terrier.', '"Look!" she says...', 'The U.S. flag flies.']
>>> split_sentences("A dog.  A cat on a mat!")
[Sentence(start=0, end=6), Sentence(start=8, end=23)]
>>> a, b = split_sentences("a dog. a cat.")[1]; (a, b)
(7, 13)
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = ["Sentence", "split_sentences"]


class Sentence(NamedTuple):
    """Char offsets of one sentence: ``text[start:end]``. A tuple, so ``for a, b in ...`` works."""

    start: int
    end: int


_CLOSERS = "\"'\u201d\u2019)\\]"
# A run of terminators (an ellipsis included) and closers before whitespace or the end; CJK
# terminators need no space after them; a line break always ends a sentence.
_END = re.compile(rf"(?:\.\.\.|\u2026|[.!?]+)[{_CLOSERS}]*(?=\s|$)|[\u3002\uff01\uff1f]+[{_CLOSERS}]*|\n")
# Abbreviations a name or an example follows: their period never ends a sentence.
_NEVER_END = frozenset(
    ["mr", "mrs", "ms", "dr", "prof", "sr", "st", "mt", "ft", "vs", "cf", "e.g", "i.e", "approx", "ca", "no", "fig"]
)
# Initialisms ("U.S", "J") and "etc" end a sentence only before a word that usually opens one.
_INITIALISM = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]|[A-Z]|etc")
_OPENERS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "there",
        "it",
        "its",
        "they",
        "he",
        "she",
        "we",
        "i",
        "in",
        "on",
        "at",
        "behind",
        "next",
        "some",
        "several",
        "one",
        "two",
        "three",
        "four",
        "five",
        "his",
        "her",
        "their",
        "our",
        "its",
        "meanwhile",
        "also",
    ]
)
_ANY_END = re.compile(r"[.!?\u3002\uff01\uff1f]")
_WORD_BEFORE = re.compile(r"[\w.]*$")
_WORD_AFTER = re.compile(r"\s*[\"'\u201c\u2018(\[]*([\w]*)")


def split_sentences(text: str, rule: str = "caption") -> list[Sentence]:
    """Char spans of the sentences of ``text``, in order, without the whitespace around them;
    ``rule`` is ``"caption"`` (the rules above) or ``"punctuation"`` (every terminator cuts).

    >>> split_sentences("It costs 3.5 dollars in the U.S. and e.g. Canada. Fine.")
    [Sentence(start=0, end=49), Sentence(start=50, end=55)]
    >>> text = "The average is 67.21%. Next!"
    >>> [text[a:b] for a, b in split_sentences(text, rule="punctuation")]
    ['The average is 67.', '21%.', 'Next!']
    >>> split_sentences("   ")
    []
    """
    if rule not in ("caption", "punctuation"):
        raise ValueError(f"rule must be 'caption' or 'punctuation', not {rule!r}")
    cased = _starts_cased(text)
    sentences: list[Sentence] = []
    start = 0
    for m in (_END if rule == "caption" else _ANY_END).finditer(text):
        if rule == "caption" and m.group() != "\n" and not _ends_here(text, m, cased):
            continue
        _add(text, start, m.end(), sentences)
        start = m.end()
    _add(text, start, len(text), sentences)
    return sentences


def _starts_cased(text: str) -> bool:
    first = next((ch for ch in text if ch.isalpha()), "")
    return first.isupper() or not first.islower()  # a text with no cased letter counts as cased


def _ends_here(text: str, m: re.Match[str], cased: bool) -> bool:
    if not text[m.end() :].strip():
        return True  # the last terminator of the text
    mark = m.group().rstrip(_CLOSERS.replace("\\", ""))
    if mark[-1] in "\u3002\uff01\uff1f":
        return True
    after = _WORD_AFTER.match(text, m.end())
    following = after.group(1) if after else ""
    if mark == ".":  # a single period: maybe an abbreviation's
        before = _WORD_BEFORE.search(text, 0, m.start())
        word = (before.group() if before else "").strip(".")
        if word.lower() in _NEVER_END:
            return False
        if _INITIALISM.fullmatch(word):
            return following.lower() in _OPENERS and following[:1].isupper()
    # '"Stop!" he said', 'wait... what': the sentence goes on
    return not (cased and following[:1].islower())


def _add(text: str, start: int, end: int, sentences: list[Sentence]) -> None:
    piece = text[start:end]
    if any(ch.isalnum() for ch in piece):
        lead = len(piece) - len(piece.lstrip())
        sentences.append(Sentence(start + lead, start + len(piece.rstrip())))

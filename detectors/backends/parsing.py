"""Reading model answers: JSON scores, yes/no, tagged captions; and sentence spans of a caption.

Models wrap answers in prose, code fences and reasoning blocks; these readers find the answer
inside and say ``None`` (or an invalid :class:`Tagged`) when there is none, so callers can count
parse failures instead of guessing.

>>> parse_score('Sure! ```json\\n{"score": 73}\\n```'), parse_score("no idea")
(73.0, None)
>>> parse_yes_no("Yes, there is."), parse_yes_no("<think>no?</think> Yes"), parse_yes_no("maybe")
(True, True, None)
>>> t = parse_tagged("A <HALLUCINATION>red</HALLUCINATION> dog.", "A red  dog.")
>>> t.valid, t.spans
(True, [(2, 5)])
>>> split_sentences("A dog. It runs!  ")
[(0, 6), (7, 15)]
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")
_SCORE = re.compile(r"\bscore\b\W{0,4}(-?\d+(?:\.\d+)?)", re.I)
_NUMBER = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(?:/\s*100)?\s*\.?\s*$")
_YES_NO = re.compile(r"\b(yes|no)\b", re.I)
_TAG = re.compile(r"<\s*(/?)\s*hallucination\s*>", re.I)
_RESULT = re.compile(r"<\s*result\s*>(.*?)<\s*/\s*result\s*>", re.S | re.I)
_NO_HALLUCINATION = re.compile(r"^\W*no\s+hallucinations?\W*$", re.I)
# A sentence ends at . ! ? (with closing quotes/brackets) before whitespace or the end, or at a newline.
_SENTENCE_END = re.compile(r"[.!?]+[\"'\u201d\u2019)\]]*(?=\s|$)|\n")


def strip_thinking(text: str) -> str:
    """The answer without ``<think>...</think>`` reasoning (or everything up to a lone ``</think>``)."""
    text = _THINK.sub("", text)
    if "</think>" in text.lower():
        text = text[text.lower().rindex("</think>") + len("</think>"):]
    return text.strip()


def extract_json(text: str) -> Any:
    """The first JSON object in ``text`` (inside prose or code fences), or None."""
    text = _FENCE.sub("", strip_thinking(text).strip())
    try:
        return json.loads(text)
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    for m in re.finditer(r"[{\[]", text):
        try:
            return decoder.raw_decode(text[m.start():])[0]
        except ValueError:
            continue
    return None


def parse_score(text: str, low: float = 0, high: float = 100) -> float | None:
    """A score in ``[low, high]`` from ``{"score": 73}``, "Score: 73" or a bare "73"; else None."""
    obj = extract_json(text)
    value: Any = None
    if isinstance(obj, dict):
        value = next((v for k, v in obj.items() if str(k).lower() == "score"), None)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        value = obj
    if value is None:
        m = _SCORE.search(strip_thinking(text)) or _NUMBER.match(strip_thinking(text))
        value = m.group(1) if m else None
    try:
        score = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return score if low <= score <= high else None


def parse_yes_no(text: str) -> bool | None:
    """True/False from the first standalone "yes" or "no" of the answer, else None."""
    m = _YES_NO.search(strip_thinking(text))
    return None if m is None else m.group(1).lower() == "yes"


@dataclass
class Tagged:
    """A checked ``<HALLUCINATION>`` answer: ``spans`` are char spans of the *caption*."""

    valid: bool
    spans: list[tuple[int, int]] = field(default_factory=list)
    reason: str = ""


def _norm(text: str) -> str:
    return " ".join(text.split())


def parse_tagged(answer: str, caption: str) -> Tagged:
    """Check that ``answer`` is ``caption`` with some words wrapped in ``<HALLUCINATION>`` tags
    (tag names in any case; whitespace may differ; an optional ``<result>`` wrapper and
    "NO HALLUCINATION" are understood) and map the tagged text back to caption char spans."""
    text = strip_thinking(answer)
    results = _RESULT.findall(text)
    text = _FENCE.sub("", (results[-1] if results else text).strip())
    if _NO_HALLUCINATION.match(text) and not _NO_HALLUCINATION.match(caption):
        return Tagged(True)
    plain: list[str] = []
    spans: list[tuple[int, int]] = []
    length, pos, opened = 0, 0, None
    for m in _TAG.finditer(text):
        plain.append(text[pos:m.start()])
        length += m.start() - pos
        pos = m.end()
        if m.group(1):  # closing tag
            if opened is None:
                return Tagged(False, reason="a closing tag without an opening tag")
            spans.append((opened, length))
            opened = None
        elif opened is not None:
            return Tagged(False, reason="nested tags")
        else:
            opened = length
    if opened is not None:
        return Tagged(False, reason="an unclosed tag")
    plain.append(text[pos:])
    plain_text = "".join(plain)
    if _norm(plain_text) != _norm(caption):
        return Tagged(False, reason="the text without tags differs from the caption")
    return Tagged(True, _map_spans(plain_text, caption, spans))


def _map_spans(plain: str, caption: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    # Equal after whitespace normalisation means the non-space characters agree one to one.
    caption_chars = [i for i, ch in enumerate(caption) if not ch.isspace()]
    before = [0]  # before[i]: non-space chars of plain[:i]
    for ch in plain:
        before.append(before[-1] + (not ch.isspace()))
    out = []
    for a, b in spans:
        first, last = before[a], before[b] - 1
        if last >= first:  # a tag around whitespace only marks nothing
            out.append((caption_chars[first], caption_chars[last] + 1))
    return out


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Char spans of the sentences of ``text``, without surrounding whitespace."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        _add_span(text, start, m.end(), spans)
        start = m.end()
    _add_span(text, start, len(text), spans)
    return spans


def _add_span(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    piece = text[start:end]
    if any(ch.isalnum() for ch in piece):
        lead = len(piece) - len(piece.lstrip())
        spans.append((start + lead, start + len(piece.rstrip())))

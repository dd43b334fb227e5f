"""FaithScore's model prompts and the readers of their answers.

Three optional model steps: labelling sub-sentences descriptive (D) or analytical (A), breaking a
descriptive sub-sentence into atomic facts by kind, and the yes/no verification of one statement
by a VLM; the prompts are in :mod:`detectors.prompts`. Each reader returns None on an answer it
cannot use, so the caller can count the failure and fall back to the rule-based step. A fact
that is no statement about its text is refused later (:mod:`.grounding`).

>>> parse_labels('{"labels": ["D", "a"]}', 2), parse_labels('["D"]', 2)
(['descriptive', 'analytical'], None)
>>> parse_labels("Answer: D. The answer is: D", 1)
['descriptive']
>>> parse_facts('{"entities": ["There is a dog."], "colors": ["The dog is brown."]}')
[('entity', 'There is a dog.'), ('colour', 'The dog is brown.')]
"""

from __future__ import annotations

import re

from detectors.backends.answers import extract_json, strip_thinking
from detectors.faithscore.facts import SubSentence
from detectors.prompts import FAITHSCORE_DECOMPOSE, FAITHSCORE_LABEL, FAITHSCORE_VERIFY, label_schema

LABEL_PROMPT, DECOMPOSE_PROMPT, VERIFY_PROMPT = FAITHSCORE_LABEL, FAITHSCORE_DECOMPOSE, FAITHSCORE_VERIFY

_KIND_ALIASES = {
    "entity": "entity",
    "entities": "entity",
    "object": "entity",
    "objects": "entity",
    "relation": "relation",
    "relations": "relation",
    "relationship": "relation",
    "relationships": "relation",
    "colour": "colour",
    "colours": "colour",
    "color": "colour",
    "colors": "colour",
    "count": "count",
    "counts": "count",
    "counting": "count",
    "number": "count",
    "attribute": "attribute",
    "attributes": "attribute",
    "other": "attribute",
    "other attributes": "attribute",
    "other_attributes": "attribute",
}
_STOP = frozenset(
    ["there", "is", "are", "a", "an", "the", "of", "on", "in", "at", "to", "with", "and", "it", "its", "this", "that"]
)


def label_prompt(subs: list[SubSentence]) -> str:
    return LABEL_PROMPT.format(parts="\n".join(f"{i + 1}. {s.text}" for i, s in enumerate(subs)), n=len(subs))


def label_request_schema(subs: list[SubSentence]) -> dict:
    return label_schema(len(subs))


_LABEL_WORD = {
    "d": "descriptive",
    "descriptive": "descriptive",
    "description": "descriptive",
    "a": "analytical",
    "analytical": "analytical",
    "analysis": "analytical",
}
# A label stated in prose: "Answer: D", "the answer is D", "2. A", "Part 1 - descriptive". A bare
# "A" is only a label where nothing else can follow it (it is also an article).
_LABEL = r"(descriptive|description|analytical|analysis|d\b|a(?=\s*(?:[.,;)\]]|\(|$)))"
_NUMBERED = re.compile(rf"^\W*(?:part\s*)?(\d+)\s*[.):\-]?\s*(?:\(?label\)?\s*[:=-]?\s*)?[\"'(*]*{_LABEL}", re.I | re.M)
_STATED = re.compile(rf"(?:answer|label|labels?\s+is|answer\s+is)\s*(?:is)?\s*[:=-]?\s*[\"'(*]*{_LABEL}", re.I)


def parse_labels(text: str, n: int) -> list[str] | None:
    """``n`` labels ("descriptive"/"analytical") from ``{"labels": [...]}``, a bare list, numbered
    lines ("1. D", "Part 2: analytical") or, for one part, a stated label ("Answer: D. The answer
    is: D"); None when the answer gives no label for some part, or two different ones.

    >>> parse_labels("Answer: D. The answer is: D", 1), parse_labels("1. D\\n2. A (analysis)", 2)
    (['descriptive'], ['descriptive', 'analytical'])
    >>> parse_labels("A dog runs.", 1), parse_labels("Answer: D. The answer is A.", 1)
    (None, None)
    """
    obj = extract_json(text)
    labels = obj.get("labels") if isinstance(obj, dict) else obj
    if isinstance(labels, list):
        out = [_LABEL_WORD.get(str(label).strip().strip("[]").lower()) for label in labels]
        found = [label for label in out if label is not None]
        return found if len(found) == len(out) == n else None
    plain = strip_thinking(text)
    numbered: dict[int, set[str]] = {}
    for m in _NUMBERED.finditer(plain):
        numbered.setdefault(int(m.group(1)), set()).add(_LABEL_WORD[m.group(2).lower()])
    if set(numbered) == set(range(1, n + 1)) and all(len(v) == 1 for v in numbered.values()):
        return [numbered[i].pop() for i in range(1, n + 1)]
    if n == 1:
        stated = {_LABEL_WORD[m.group(1).lower()] for m in _STATED.finditer(plain)}
        stated |= {_LABEL_WORD[m.group(1).lower()] for m in re.finditer(rf"^\W*{_LABEL}\W*$", plain, re.I | re.M)}
        if len(stated) == 1:
            return [stated.pop()]
    return None


def parse_facts(text: str) -> list[tuple[str, str]] | None:
    """``(kind, statement)`` pairs from a JSON object keyed by fact kind; None when no key is a kind."""
    obj = extract_json(text)
    if not isinstance(obj, dict):
        return None
    kinds = {k: _KIND_ALIASES.get(str(k).strip().lower()) for k in obj}
    if not any(kinds.values()):
        return None
    out = []
    for key, kind in kinds.items():
        values = obj[key]
        if kind is None:
            continue
        for value in values if isinstance(values, list) else [values]:
            if isinstance(value, str) and value.strip():
                out.append((kind, value.strip()))
    return out


def locate(statement: str, caption: str, sub: SubSentence) -> tuple[int, int]:
    """The caption span of a model-written fact: from the first to the last of its content
    words found in its sub-sentence (crude plural folding); else the whole sub-sentence."""
    found = []
    for word in re.findall(r"[A-Za-z][\w-]*", statement):
        w = word.lower()
        if w in _STOP or len(w) < 3:
            continue
        stem = re.escape(w[:-1] if w.endswith("s") and len(w) > 3 else w)
        m = re.search(rf"\b{stem}\w*", caption[sub.start : sub.end], re.I)
        if m:
            found.append((sub.start + m.start(), sub.start + m.end()))
    if not found:
        return sub.start, sub.end
    return min(a for a, _ in found), max(b for _, b in found)

"""FaithScore's model prompts and the readers of their answers.

Three optional model steps: labelling sub-sentences descriptive (D) or analytical (A), breaking a
descriptive sub-sentence into atomic facts by kind, and the yes/no verification of one statement
by a VLM. Each reader returns None on an answer it cannot use, so the caller can count the
failure and fall back to the rule-based step.

>>> parse_labels('{"labels": ["D", "a"]}', 2), parse_labels('["D"]', 2)
(['descriptive', 'analytical'], None)
>>> parse_facts('{"entities": ["There is a dog."], "colors": ["The dog is brown."]}')
[('entity', 'There is a dog.'), ('colour', 'The dog is brown.')]
"""

from __future__ import annotations

import re

from detectors.backends.answers import extract_json
from detectors.faithscore.facts import SubSentence

LABEL_PROMPT = """Here is a description of an image, cut into numbered parts:
{parts}
For each part, say whether it describes what can be seen in the image (D), or gives analysis, \
interpretation, opinion or commonsense associations beyond what can be seen (A).
Answer with JSON only, one label per part in order, like {{"labels": ["D", "A"]}}."""

DECOMPOSE_PROMPT = """Break this part of an image description into short, independent atomic \
facts, each a simple sentence ("There is a dog.", "The dog is brown.", "There are two cats.", \
"The dog is on the sofa."), and sort them by kind: entity (an object is there), relation \
(between two objects), colour, count, attribute (any other property: size, material, shape, \
state, action).
Text: "{text}"
Answer with JSON only, like {{"entity": [], "relation": [], "colour": [], "count": [], "attribute": []}}."""

VERIFY_PROMPT = "{preface}Statement: {statement} Is the statement correct for {what}? Answer yes or no."
VERIFY_SCHEMA = {"type": "object", "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
                 "required": ["answer"], "additionalProperties": False}

_KIND_ALIASES = {
    "entity": "entity", "entities": "entity", "object": "entity", "objects": "entity",
    "relation": "relation", "relations": "relation", "relationship": "relation", "relationships": "relation",
    "colour": "colour", "colours": "colour", "color": "colour", "colors": "colour",
    "count": "count", "counts": "count", "counting": "count", "number": "count",
    "attribute": "attribute", "attributes": "attribute", "other": "attribute",
    "other attributes": "attribute", "other_attributes": "attribute",
}
_STOP = frozenset("there is are a an the of on in at to with and it its this that".split())


def label_prompt(subs: list[SubSentence]) -> str:
    return LABEL_PROMPT.format(parts="\n".join(f"{i + 1}. {s.text}" for i, s in enumerate(subs)))


def parse_labels(text: str, n: int) -> list[str] | None:
    """``n`` labels ("descriptive"/"analytical") from ``{"labels": [...]}`` or a bare list."""
    obj = extract_json(text)
    labels = obj.get("labels") if isinstance(obj, dict) else obj
    if not isinstance(labels, list) or len(labels) != n:
        return None
    out = []
    for label in labels:
        key = str(label).strip().strip("[]").lower()[:1]
        if key not in ("d", "a"):
            return None
        out.append("descriptive" if key == "d" else "analytical")
    return out


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
        m = re.search(rf"\b{stem}\w*", caption[sub.start:sub.end], re.I)
        if m:
            found.append((sub.start + m.start(), sub.start + m.end()))
    if not found:
        return sub.start, sub.end
    return min(a for a, _ in found), max(b for _, b in found)

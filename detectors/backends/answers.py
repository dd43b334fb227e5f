"""Reading model answers: scores, verdicts, yes/no, tagged captions.

Models wrap answers in prose, code fences, markdown and reasoning blocks, and small instruct
models often ignore the requested format altogether ("The sentence is correct and describes ...",
"I would rate it three out of five"). These readers find the answer inside and say ``None`` (or
an invalid :class:`Tagged`) when there is none, so callers count parse failures instead of
guessing. :func:`read_verdict` reads prose: verdict words (correct, accurate, true, wrong,
hallucinated...), yes/no, their negations ("not correct", "isn't accurate", "no hallucination")
and hedges ("partially correct"); :func:`parse_score` reads numbers first (JSON, "Score: 73",
"8/10", "three out of five", "seventy-five percent correct"), then verdicts.

>>> parse_score('Sure! ```json\\n{"score": 73}\\n```'), parse_score("no idea")
(73.0, None)
>>> parse_score("**Verdict:** The sentence isn't accurate."), parse_score("I'd give it three out of five.")
(0.0, 60.0)
>>> parse_yes_no("Yes, there is."), parse_yes_no("<think>no?</think> Yes"), parse_yes_no("maybe")
(True, True, None)
>>> t = parse_tagged("A <HALLUCINATION>red</HALLUCINATION> dog.", "A red  dog.")
>>> t.valid, t.spans
(True, [(2, 5)])
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from parsers.attribute_words import NUMBER_WORDS
from parsers.sentences import split_sentences

_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")
_TAG = re.compile(r"<\s*(/?)\s*hallucination\s*>", re.I)
_RESULT = re.compile(r"<\s*result\s*>(.*?)<\s*/\s*result\s*>", re.S | re.I)
_NO_HALLUCINATION = re.compile(r"^\W*no\s+hallucinations?\W*$", re.I)


def strip_thinking(text: str) -> str:
    """The answer without ``<think>...</think>`` reasoning (or everything up to a lone ``</think>``)."""
    text = _THINK.sub("", text)
    if "</think>" in text.lower():
        text = text[text.lower().rindex("</think>") + len("</think>") :]
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
            return decoder.raw_decode(text[m.start() :])[0]
        except ValueError:
            continue
    return None


def parse_score(text: str, *, low: float = 0, high: float = 100, echo: tuple[str, ...] = ()) -> float | None:
    """A score in ``[low, high]``: from JSON (``{"score": 73}``), "Score: 73", a bare "73", a
    fraction of 5, 10 or 100 ("8/10", "three out of five": rescaled), "75% correct"; else from a
    verdict in prose (:func:`read_verdict`: correct -> ``high``, incorrect -> ``low``, partly
    correct -> half way); else None. ``echo``: text of the prompt the answer may quote."""
    value = _number(text, high)
    if value is not None and low <= value <= high:
        return value
    verdict = read_verdict(text, echo)
    return None if verdict is None else low + verdict * (high - low)


def parse_yes_no(text: str, echo: tuple[str, ...] = ()) -> bool | None:
    """True/False from an answer's verdict ("Yes, ...", "The statement is false", "Not
    accurate", ``{"answer": "no"}``); a partly correct statement is not correct; else None."""
    verdict = read_verdict(text, echo)
    return None if verdict is None else verdict > 0.5


# -- numbers -------------------------------------------------------------------------------------
_UNITS = NUMBER_WORDS[:20]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_NUMBER_WORDS = re.compile(
    rf"\b(?:(?:a|one)\s+)?hundred\b|\b({'|'.join(_TENS)})(?:[\s-]+({'|'.join(_UNITS[1:10])}))?\b"
    rf"|\b({'|'.join(_UNITS)})\b",
    re.I,
)
_N = r"(\d+(?:\.\d+)?)"
_FRACTION = re.compile(rf"{_N}\s*(?:/|out of|on a scale of)\s*(5|10|100)\b", re.I)
_SCORED = re.compile(
    rf"\b(?:score|rating|rate|rated|alignment|give it|gave it|giving it|assign)\b\W{{0,4}}"
    rf"(?:(?:it|this|the sentence|is|of|at|as|a|an|to)\s+){{0,3}}{_N}\s*(%|percent)?",
    re.I,
)
_PERCENT = re.compile(rf"{_N}\s*(?:%|percent)\s+(?:correct|accurate|aligned|consistent|match)", re.I)
_BARE = re.compile(rf"^\s*{_N}\s*(?:/\s*100)?\s*\.?\s*$")


def words_to_digits(text: str) -> str:
    """Number words as digits ("seventy-five" -> "75", "a hundred" -> "100").

    >>> words_to_digits("Three out of five; seventy-five; a hundred")
    '3 out of 5; 75; 100'
    """

    def digits(m: re.Match) -> str:
        if m.group(1):
            return str(
                10 * (_TENS.index(m.group(1).lower()) + 2) + (_UNITS.index(m.group(2).lower()) if m.group(2) else 0)
            )
        if m.group(3):
            return str(_UNITS.index(m.group(3).lower()))
        return "100"

    return _NUMBER_WORDS.sub(digits, text)


def _number(text: str, high: float) -> float | None:
    obj = extract_json(text)
    if isinstance(obj, dict):
        for key, value in obj.items():
            if str(key).lower() in ("score", "rating", "alignment") and not isinstance(value, bool):
                try:
                    return float(value)
                except (TypeError, ValueError):
                    return _number(str(value), high)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        return float(obj)
    plain = words_to_digits(_plain(text))
    m = _FRACTION.search(plain)
    if m and float(m.group(1)) <= float(m.group(2)):
        return float(m.group(1)) / float(m.group(2)) * high
    m = _SCORED.search(plain) or _PERCENT.search(plain) or _BARE.match(plain)
    return float(m.group(1)) if m else None


# -- verdicts in prose ---------------------------------------------------------------------------
_POSITIVE = (
    r"correct(?:ly)?|accurate(?:ly)?|true|yes|consistent|aligns?|aligned|agrees?|match(?:es)?|matching"
    r"|faithful(?:ly)?|supported|valid|verified|confirm(?:s|ed)?|(?:is|are|that is) right"
)
_NEGATIVE = (
    r"incorrect(?:ly)?|inaccurate(?:ly)?|inaccurac(?:y|ies)|wrong(?:ly)?|false|untrue|hallucinat\w*"
    r"|fabricat\w*|made up|inconsistent|contradict\w*|unsupported|erroneous|mistaken|misaligned|invalid"
    r"|errors?|mistakes?|not right"
)
# "No" as an answer: opening the answer or a sentence, or after "the answer is", before a stop.
_NO = r"(?:^|(?<=[.!:;\n\"'(])|(?<=answer is)|(?<=answer:))\s*no(?=\s*(?:[,.!:;\n\"')-]|$))"
_WEAK_POSITIVE = r"visible|present|can be seen|depicted|shown|i (?:can )?see"
_WEAK_NEGATIVE = r"there (?:is|are) no|i (?:can |do |could )?not see|absent|missing|nowhere"
# The judge saying it cannot judge: no verdict, whatever words follow.
_ABSTAIN = re.compile(
    r"\b(?:can ?not|could not|unable to|do not|am not able to) (?:(?:see|view|access|open) "
    r"(?:the |any |this )?(?:image|picture|photo)|judge|determine|tell|say|verify|assess)\b"
    r"|\bas an ai\b"
)
_TERMS = [
    re.compile(rf"\b(?:{_POSITIVE})\b|(?P<neg>\b(?:{_NEGATIVE})\b|{_NO})", re.M),
    re.compile(rf"\b(?:{_WEAK_POSITIVE})\b|(?P<neg>\b(?:{_WEAK_NEGATIVE})\b)", re.M),
]
_NEGATOR = re.compile(r"\b(?:not|no|never|nothing|without|neither|nor|free of|none of)\b")
_WHOLLY = re.compile(r"\b(?:entirely|completely|fully|totally|quite|perfectly|wholly|exactly|strictly|100%|all)\b")
_HEDGE = re.compile(r"\b(?:(partially|partly|half|somewhat|semi)|(mostly|largely|generally|mainly))\W*$")
_CONCLUSION = re.compile(
    r"\b(?:final answer|answer|verdict|judg(?:e)?ment|conclusion|assessment|result)\s*(?:is)?\s*[:=-]"
    r"|\b(?:therefore|thus|hence|overall|in conclusion|in summary|to conclude|in short|so"
    r"|to sum up|all in all|in the end|all things considered|finally)\b,?"
)
# A last sentence that judges the statement itself ("Looking again, the sentence is accurate.") is
# its conclusion even unannounced; one that says what would make it so ("would be correct if") is not.
_JUDGES = re.compile(
    r"\b(?:the (?:caption|sentence|statement|description|claim|text)|it|this|that)\s+"
    r"(?:\w+\s+){0,2}?(?:is|are|was|seems?|appears?|looks?|remains?)\b"
)
_CONDITIONAL = re.compile(r"\b(?:if|would|could|might|should|unless|whether)\b")
# A positive verdict qualified at once ("Correct, but the sofa is blue") is not a full one.
_CONTRAST = re.compile(r"^[^.!?\n]*?(?:,|;|-)?\s*\b(?:but|however|except|although|though)\b([^.!?\n]*)")
_ACCURACY = re.compile(r"correct|accurate|true|right")
_QUOTED = re.compile(r"\"[^\"\n]*\"|(?:(?<=^)|(?<=[\s(:]))'[^'\n]{2,}'(?=\W|$)")
_MARKUP = re.compile(r"[*_`#]+|^\s*>\s?", re.M)


def _plain(text: str) -> str:
    """The answer without reasoning, fences, markdown and curly quotes."""
    text = _FENCE.sub("", strip_thinking(text).strip())
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2018", "'").replace("\u2019", "'")
    return _MARKUP.sub("", text)


def read_verdict(text: str, echo: tuple[str, ...] = ()) -> float | None:
    """How correct the answer says the judged statement is: 1 (correct, yes), 0 (incorrect, no,
    hallucinated), 0.5 (partly correct), 0.75 / 0.25 (mostly correct / incorrect); None when it
    gives no verdict. A stated conclusion ("Verdict:", "Therefore ...", "so the answer is") wins
    over what comes before it; else a last sentence judging the statement ("Looking again, the
    sentence is accurate.", not "it would be correct if ..."); otherwise the first verdict wins,
    halved when a contrast follows it ("Correct, but the sofa is blue" -> 0.5). Negated negatives
    ("not incorrect", "isn't wrong") are positive. Text in quotes and the ``echo`` strings (the
    statement as the prompt gave it) are not read as the verdict unless nothing else is there.

    >>> [read_verdict(t) for t in ("Yes, the sentence is correct because a dog is there.",
    ...  "This is not entirely accurate.", "No hallucination.", "I can't tell.",
    ...  "Correct, but the sofa is blue.", "It looks wrong. Looking again, the sentence is accurate.")]
    [1.0, 0.5, 1.0, None, 0.5, 1.0]
    """
    obj = extract_json(text)
    if isinstance(obj, dict):
        for key, value in obj.items():
            k = str(key).lower()
            if isinstance(value, bool) and k in ("correct", "is_correct", "accurate", "answer", "verdict"):
                return float(value)
            if isinstance(value, bool) and k in ("hallucinated", "hallucination", "incorrect"):
                return float(not value)
            if isinstance(value, str) and k in ("answer", "verdict", "judgement", "judgment", "label", "result"):
                return read_verdict(value, echo)
    plain = re.sub(r"n['\u2019]t\b", " not", _plain(text)).replace("cannot", "can not").lower()
    for e in echo:
        if e.strip():
            plain = plain.replace(_plain(e).lower().strip(), " ")
    whole = [plain]
    conclusions = list(_CONCLUSION.finditer(plain))
    if conclusions:
        whole.insert(0, plain[conclusions[-1].end() :])
    else:
        sentences = split_sentences(plain)
        if len(sentences) > 1:
            last = plain[sentences[-1][0] : sentences[-1][1]]
            if _JUDGES.search(last) and not _CONDITIONAL.search(last):
                whole.insert(0, last)
    for strong in (True, False):
        if not strong and _ABSTAIN.search(plain):
            return None
        for piece in whole:
            for candidate in (_QUOTED.sub(" ", piece), piece):
                m = _TERMS[0 if strong else 1].search(candidate)
                if m:
                    return _qualified(candidate, m, _value(candidate, m))
    return None


def _qualified(text: str, m: re.Match, value: float) -> float:
    """``value`` lowered when a plain "correct"/"true" is taken back in the same sentence: a
    negative verdict after "but" wins, any other contrast makes it half correct."""
    if value < 1 or not _ACCURACY.fullmatch(m.group(0).strip()):
        return value
    contrast = _CONTRAST.match(text[m.end() :])
    if not contrast:
        return value
    later = _TERMS[0].search(contrast.group(1))
    if later and _value(contrast.group(1), later) < 1:
        return 0.0
    return 0.5


def _value(text: str, m: re.Match) -> float:
    negative = m.group("neg") is not None
    if m.group(0).strip() in ("yes", "no"):
        return 0.0 if negative else 1.0
    clause = re.split(r"[.,;:!?\n]|\bbut\b|\bhowever\b|\balthough\b", text[: m.start()])[-1]
    before = " ".join(clause.split()[-5:])
    negators = list(_NEGATOR.finditer(before))
    if negators:
        if negative:
            return 1.0  # "not wrong", "no hallucination", "without any errors"
        return 0.5 if _WHOLLY.search(before[negators[-1].end() :]) else 0.0
    hedge = _HEDGE.search(before)
    if hedge:
        partial = 0.5 if hedge.group(1) else 0.75
        return 1 - partial if negative else partial
    return 0.0 if negative else 1.0


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
        plain.append(text[pos : m.start()])
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

"""DetailVerifyBench metrics in two modes: ``official`` and ``aligned``.

Both score tokens ``T`` of the caption: runs of ``[A-Za-z0-9]`` joined by ``- ' . @ _``,
``@``/``#`` handles, runs of CJK characters (the benchmark's own tokeniser). Per caption ``c``:

    P_c = TP / (TP + FP)  (0 if nothing predicted)      R_c = TP / (TP + FN)  (0 if nothing gold)
    F1_c = 2 P_c R_c / (P_c + R_c)  (0 if both 0)       IoU_c = TP / |gold ∪ predicted|  (1 if both empty)

and the reported token P, R, F1, IoU are the means over captions (macro). Sentence P/R/F1: a
sentence is positive when one of its tokens is; P_c, R_c, F1_c over the caption's sentences, then
averaged. Response P/R/F1: a caption is positive when one of its tokens is; pooled over captions.
Per-type recall of type k: (gold tokens of type k predicted) / (gold tokens of type k), pooled.

``official`` reproduces the benchmark's ``calculate_metrics.py`` exactly, quirks included: the
prediction is re-tokenised from the model's tagged text, labels are inverted (0 = hallucinated),
a prediction whose token count differs from the gold's is truncated to the shorter and compared
position by position, sentences are cut after ``. ! ?`` (also inside "67.21") and mapped to token
positions by counting, a bare ``NO HALLUCINATION`` answer means no tag, tag types come from the
gold ``hallucination_labels`` matched by text (``Unknown`` when a record has no ``labels`` list).

``official`` also gives the script's ``split_half`` figures (:func:`split_half`) and
``no_hallucination_expanded`` (:func:`no_hallucination_expanded`).

``aligned`` scores the same quantities by char offsets of the caption, so a model that reflows
the text (changes spacing, punctuation or a word) loses only what it changed; a tagged answer is
mapped onto the caption by :func:`spans_from_tagged`.

>>> r = official_scores(["A <HALLUCINATION>red</HALLUCINATION> car."], ["A red <HALLUCINATION>car</HALLUCINATION>."])
>>> r["token"]["f1"], r["token"]["iou"]
(0.0, 0.0)
>>> a = aligned_scores(["A red car."], [[(2, 5)]], [[(2, 9)]])
>>> a["token"]["precision"], a["token"]["recall"]
(0.5, 1.0)
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from benchmarks.loaders.detailverify import merge
from parsers.sentences import split_sentences

WORD = re.compile(
    r"[A-Za-z0-9]+(?:[-'.@_][A-Za-z0-9]+)*|[@#][A-Za-z0-9_]+"
    r"|[\u4e00-\u9fff\u3040-\u309f\u30a0-\u30ff]+"
)
_TAGS = re.compile(r"<HALLUCINATION>|</HALLUCINATION>")
_PAIR = re.compile(r"<HALLUCINATION>(.*?)</HALLUCINATION>", re.DOTALL)
NONE = "None"


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _binary(gold: Sequence[bool], pred: Sequence[bool]) -> tuple[float, float, float, float]:
    """P, R, F1, IoU of one caption's token flags (True = hallucinated); all 0 without tokens."""
    if not gold:
        return 0.0, 0.0, 0.0, 0.0
    tp = sum(g and p for g, p in zip(gold, pred, strict=True))
    fp = sum(p and not g for g, p in zip(gold, pred, strict=True))
    fn = sum(g and not p for g, p in zip(gold, pred, strict=True))
    union = tp + fp + fn
    return (*_prf(tp, fp, fn), tp / union if union else 1.0)


def split_half(y_true: Sequence[Sequence[bool]], y_pred: Sequence[Sequence[bool]]) -> dict[str, dict[str, float]]:
    """The benchmark's ``split_half`` figures: does a detector find hallucinations as well late
    in a long caption as early? Each caption c's token flags (True = hallucinated; gold and
    prediction already cut to a common length n_c) are split at m_c = floor(n_c / 2) into the
    ``first_half`` [0, m_c) and the ``second_half`` [m_c, n_c). Over the N captions, per half:

        precision, recall, f1, iou = (1/N) sum_c of P_c, R_c, F1_c, IoU_c of that half
            (as in the module docstring; all 0 for an empty half or a half without tokens)
        count = N
        avg_gt_hal_count   = (1/N) sum_c |{t in half: y_true[c][t]}|
        avg_test_hal_count = (1/N) sum_c |{t in half: y_pred[c][t]}|

    >>> r = split_half([[True, False, False, True]], [[True, False, False, False]])
    >>> r["first_half"]["f1"], r["second_half"]["recall"], r["second_half"]["avg_gt_hal_count"]
    (1.0, 0.0, 1.0)
    """
    halves: dict[str, dict[str, list[float]]] = {h: defaultdict(list) for h in ("first_half", "second_half")}
    for gold, pred in zip(y_true, y_pred, strict=True):
        n = min(len(gold), len(pred))
        mid = n // 2
        for half, (a, b) in (("first_half", (0, mid)), ("second_half", (mid, n))):
            g, t = list(gold[a:b]), list(pred[a:b])
            for k, v in zip(("precision", "recall", "f1", "iou"), _binary(g, t), strict=True):
                halves[half][k].append(v)
            halves[half]["gt"].append(sum(map(bool, g)))
            halves[half]["test"].append(sum(map(bool, t)))
    n_captions = len(y_true)
    return {
        half: {
            **{k: _mean(v[k]) for k in ("precision", "recall", "f1", "iou")},
            "count": n_captions,
            "avg_gt_hal_count": sum(v["gt"]) / n_captions if n_captions else 0.0,
            "avg_test_hal_count": sum(v["test"]) / n_captions if n_captions else 0.0,
        }
        for half, v in halves.items()
    }


def no_hallucination_expanded(y_pred: Sequence[str]) -> int:
    """How many answers are the bare ``NO HALLUCINATION`` (any case, outer spaces aside), which
    the benchmark's script expands to "no token hallucinated" over the whole gold caption.

    >>> no_hallucination_expanded(["No hallucination ", "A <HALLUCINATION>red</HALLUCINATION> car.", ""])
    1
    """
    return sum(text.strip().upper() == "NO HALLUCINATION" for text in y_pred)


def _key(text: str) -> str:
    return re.sub(r"[^\w\s]", "", text.strip().lower())


def official_sequence(
    tagged: str, label_records: Sequence[dict[str, Any]] | None = None
) -> tuple[list[int], list[str]]:
    """The benchmark's reading of a tagged text: per token 0 (inside a tag: hallucinated) or 1,
    and the tag's type (``"None"`` outside tags)."""
    pool: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in label_records or []:
        pool[_key(r.get("text", ""))].append(r)
    ranges = []
    for m in _PAIR.finditer(tagged):
        found = pool.get(_key(m.group(1)))
        cats = found.pop(0).get("labels", ["Unknown"]) if found else ["Unknown"]
        ranges.append((m.start(1), m.end(1), cats[0] if cats else "Unknown"))
    origin: list[int] = []  # origin[i]: index in ``tagged`` of clean char i
    clean: list[str] = []
    pos = 0
    for m in _TAGS.finditer(tagged):
        origin.extend(range(pos, m.start()))
        clean.append(tagged[pos : m.start()])
        pos = m.end()
    origin.extend(range(pos, len(tagged)))
    clean.append(tagged[pos:])
    seq, cats = [], []
    for m in WORD.finditer("".join(clean)):
        s, e = origin[m.start()], origin[m.end() - 1] + 1
        hit = next((c for ts, te, c in ranges if not (e <= ts or s >= te)), None)
        seq.append(1 if hit is None else 0)
        cats.append(NONE if hit is None else hit)
    return seq, cats


def official_scores(
    gold_tagged: Sequence[str],
    pred_tagged: Sequence[str],
    gold_labels: Sequence[Sequence[dict[str, Any]] | None] | None = None,
) -> dict[str, Any]:
    """The benchmark script's token, sentence, response and per-type figures (module docstring)
    for gold and predicted tagged texts paired by position."""
    gold_labels = gold_labels if gold_labels is not None else [None] * len(gold_tagged)
    tok: defaultdict[str, list[Any]] = defaultdict(list)
    sent: defaultdict[str, list[Any]] = defaultdict(list)
    types: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
    resp, mismatched = [0, 0, 0], 0
    flags: tuple[list[Any], list[Any]] = ([], [])
    for gold_text, pred_text, labels in zip(gold_tagged, pred_tagged, gold_labels, strict=True):
        g, g_cats = official_sequence(gold_text, labels)
        t = [1] * len(g) if pred_text.strip().upper() == "NO HALLUCINATION" else official_sequence(pred_text)[0]
        n = min(len(g), len(t))
        mismatched += len(g) != len(t)
        g, t, g_cats = g[:n], t[:n], g_cats[:n]
        gh, th = [x == 0 for x in g], [x == 0 for x in t]
        flags[0].append(gh)
        flags[1].append(th)
        for k, v in zip(("precision", "recall", "f1", "iou"), _binary(gh, th), strict=True):
            tok[k].append(v)
        counts, cur = [0, 0, 0], 0
        clean = _TAGS.sub("", gold_text)
        for sentence in (clean[a:b] for a, b in split_sentences(clean, rule="punctuation")):
            end = min(cur + len(WORD.findall(sentence)), n)
            if cur < end:
                a, b = any(gh[cur:end]), any(th[cur:end])
                counts[0] += a and b
                counts[1] += b and not a
                counts[2] += a and not b
            cur = end
        for k, v in zip(("precision", "recall", "f1"), _prf(*counts), strict=True):
            sent[k].append(v)
        for cat, hit in zip(g_cats, th, strict=True):
            if cat != NONE:
                types[cat][0] += hit
                types[cat][1] += 1
        resp[0] += any(gh) and any(th)
        resp[1] += any(th) and not any(gh)
        resp[2] += any(gh) and not any(th)
    return _report(
        tok,
        sent,
        resp,
        types,
        n=len(gold_tagged),
        length_mismatches=mismatched,
        split_half=split_half(*flags),
        no_hallucination_expanded=no_hallucination_expanded(pred_tagged),
    )


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _report(tok: dict, sent: dict, resp: list[int], types: dict, **extra: Any) -> dict[str, Any]:
    return {
        "token": {k: _mean(tok[k]) for k in ("precision", "recall", "f1", "iou")},
        "sentence": {k: _mean(sent[k]) for k in ("precision", "recall", "f1")},
        "response": dict(zip(("precision", "recall", "f1"), _prf(*resp), strict=True)),
        "types": {c: {"recall": h / n if n else 0.0, "hits": h, "total": n} for c, (h, n) in sorted(types.items())},
        **extra,
    }


def aligned_scores(
    captions: Sequence[str], gold_spans: Sequence[Sequence[tuple]], pred_spans: Sequence[Sequence[tuple]]
) -> dict[str, Any]:
    """Token, sentence, response and per-type figures by char offsets (module docstring).

    ``gold_spans[i]``: ``(start, end)`` or ``(start, end, type)`` in ``captions[i]``;
    ``pred_spans[i]``: ``(start, end, ...)`` predicted hallucinated.
    """
    tok: defaultdict[str, list[Any]] = defaultdict(list)
    sent: defaultdict[str, list[Any]] = defaultdict(list)
    types: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
    resp = [0, 0, 0]
    for caption, gold, pred in zip(captions, gold_spans, pred_spans, strict=True):
        words = [m.span() for m in WORD.finditer(caption)]
        g_type = [
            next((str(sp[2]) if len(sp) > 2 else "Unknown" for sp in gold if s < sp[1] and sp[0] < e), None)
            for s, e in words
        ]
        gh = [t is not None for t in g_type]
        th = [any(s < sp[1] and sp[0] < e for sp in pred) for s, e in words]
        for k, v in zip(("precision", "recall", "f1", "iou"), _binary(gh, th), strict=True):
            tok[k].append(v)
        counts = [0, 0, 0]
        for a, b in split_sentences(caption, rule="punctuation"):  # the benchmark's cut
            inside = [i for i, (s, _) in enumerate(words) if a <= s < b]
            if inside:
                x, y = any(gh[i] for i in inside), any(th[i] for i in inside)
                counts[0] += x and y
                counts[1] += y and not x
                counts[2] += x and not y
        for k, v in zip(("precision", "recall", "f1"), _prf(*counts), strict=True):
            sent[k].append(v)
        for t, hit in zip(g_type, th, strict=True):
            if t is not None:
                types[t][0] += hit
                types[t][1] += 1
        resp[0] += any(gh) and any(th)
        resp[1] += any(th) and not any(gh)
        resp[2] += any(gh) and not any(th)
    return _report(tok, sent, resp, types, n=len(captions))


_ALIGN_TOKEN = re.compile(r"\w+|[^\w\s]")


def spans_from_tagged(caption: str, tagged: str) -> list[tuple[int, int]]:
    """Char spans of ``caption`` that a tagged answer marks, even when the answer's text differs
    from the caption: answer and caption tokens are aligned (difflib, case-insensitive), and a
    tagged answer token marks the caption token it is aligned with (equal runs, and replaced runs
    of equal length position by position). ``NO HALLUCINATION`` marks nothing.

    >>> spans_from_tagged("A red car, parked.", "a red <hallucination>car</hallucination> parked")
    [(6, 9)]
    """
    if tagged.strip().upper() == "NO HALLUCINATION":
        return []
    flags = re.IGNORECASE | re.DOTALL
    marked = [(m.start(1), m.end(1)) for m in re.finditer(r"<hallucination>(.*?)</hallucination>", tagged, flags)]
    origin: list[int] = []
    pos = 0
    for m in re.finditer(r"</?hallucination>", tagged, re.IGNORECASE):
        origin.extend(range(pos, m.start()))
        pos = m.end()
    origin.extend(range(pos, len(tagged)))
    answer = "".join(tagged[i] for i in origin)
    a_tok = [(origin[m.start()], origin[m.end() - 1] + 1) for m in _ALIGN_TOKEN.finditer(answer)]
    a_hit = [any(s < te and ts < e for ts, te in marked) for s, e in a_tok]
    c_tok = [m.span() for m in _ALIGN_TOKEN.finditer(caption)]
    matcher = difflib.SequenceMatcher(
        a=[tagged[s:e].casefold() for s, e in a_tok], b=[caption[s:e].casefold() for s, e in c_tok], autojunk=False
    )
    out = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            out += [c_tok[j1 + k] for k in range(i2 - i1) if a_hit[i1 + k]]
    return merge(out)

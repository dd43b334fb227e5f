"""Linguistic metrics against reference captions, and how they correlate with HalCECE's.

ROUGE-1/2/L F-measures come from ``rouge-score`` (best over the references, Porter stemming) and
BLEU-4 from NLTK (``sentence_bleu`` with smoothing per caption, ``corpus_bleu`` per model).
Correlations (Pearson and Spearman from SciPy) pair each caption's linguistic score with its HalCECE
metrics, over all captions that have references; a pair with fewer than three captions or a constant
side has no correlation (``None``).

>>> s = caption_scores("A dog on a lap.", ["A dog lies on a lap."])
>>> round(s.rouge1, 3), 0 < s.bleu < 1
(0.909, True)
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cece.report.tables import Captioned

LINGUISTIC = ("rouge1", "rouge2", "rougeL", "bleu")
# (label, level, key): the HalCECE per-caption metrics correlated with the linguistic ones.
HALCECE = [
    ("object HalRate", "objects", "hal_rate"),
    ("object Granularity", "objects", "granularity"),
    ("D rate", "objects", "d_rate"),
    ("R rate", "objects", "r_rate"),
    ("O rate", "objects", "o_rate"),
    ("U rate", "objects", "u_rate"),
    ("role HalRate", "roles", "hal_rate"),
]
_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass
class CaptionScores:
    rouge1: float
    rouge2: float
    rougeL: float
    bleu: float


@dataclass
class ModelLinguistic:
    model: str
    n_captions: int
    rouge1: float
    rouge2: float
    rougeL: float
    bleu: float  # corpus BLEU over the model's captions
    bleu_sentence: float  # mean sentence BLEU


@dataclass
class Correlation:
    linguistic: str
    halcece: str
    n: int
    pearson_r: float | None
    pearson_p: float | None
    spearman_rho: float | None
    spearman_p: float | None


@dataclass
class LinguisticReport:
    models: list[ModelLinguistic]
    correlations: list[Correlation]


@lru_cache(maxsize=1)
def _scorer() -> Any:  # a rouge_score RougeScorer (the package has no type information)
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)


def tokens(text: str) -> list[str]:
    """Lower-cased word and punctuation tokens (BLEU's input; NLTK's punkt data is not needed)."""
    return _TOKEN.findall(text.lower())


def caption_scores(caption: str, references: Sequence[str]) -> CaptionScores:
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    rouge = _scorer().score_multi(list(references), caption)
    bleu = sentence_bleu(
        [tokens(r) for r in references], tokens(caption), smoothing_function=SmoothingFunction().method1
    )
    return CaptionScores(rouge["rouge1"].fmeasure, rouge["rouge2"].fmeasure, rouge["rougeL"].fmeasure, float(bleu))


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _finite(x: Any) -> float | None:
    return None if x is None or not math.isfinite(float(x)) else float(x)


def correlate(xs: Sequence[float], ys: Sequence[float]) -> tuple[float | None, ...]:
    """(Pearson r, p, Spearman rho, p), each None where undefined."""
    from scipy import stats

    if len(xs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return None, None, None, None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p = stats.pearsonr(xs, ys)
        s = stats.spearmanr(xs, ys)
    return _finite(p.statistic), _finite(p.pvalue), _finite(s.statistic), _finite(s.pvalue)


def linguistic_report(
    explanations: Sequence[Captioned], references: Sequence[list[str] | None]
) -> LinguisticReport | None:
    """Scores per model and correlations; None when no caption has references.

    ``references[i]`` belongs to ``explanations[i]``.
    """
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu

    pairs = [(e, refs) for e, refs in zip(explanations, references, strict=True) if refs]
    if not pairs:
        return None
    scores = [caption_scores(e.caption, refs) for e, refs in pairs]
    models: list[ModelLinguistic] = []
    for model in dict.fromkeys(str(e.model) for e, _ in pairs):
        idx = [i for i, (e, _) in enumerate(pairs) if str(e.model) == model]
        bleu = corpus_bleu(
            [[tokens(r) for r in pairs[i][1]] for i in idx],
            [tokens(pairs[i][0].caption) for i in idx],
            smoothing_function=SmoothingFunction().method1,
        )
        rouge1, rouge2, rouge_l = (_mean([getattr(scores[i], k) for i in idx]) for k in ("rouge1", "rouge2", "rougeL"))
        models.append(
            ModelLinguistic(
                model,
                len(idx),
                rouge1,
                rouge2,
                rouge_l,
                float(bleu),
                _mean([scores[i].bleu for i in idx]),
            )
        )
    correlations = []
    for label, level, key in HALCECE:
        for ling in LINGUISTIC:
            xs, ys = [], []
            for (e, _), s in zip(pairs, scores, strict=True):
                value = getattr(getattr(e, level), key)
                if value is None or (level == "roles" and not e.roles.judged):
                    continue
                xs.append(getattr(s, ling))
                ys.append(float(value))
            correlations.append(Correlation(ling, label, len(xs), *correlate(xs, ys)))
    return LinguisticReport(models, correlations)

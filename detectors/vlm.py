"""A VLM as judge, with the AlignBench and DetailVerifyBench protocols, and self-ensembles.

``protocol="alignbench"``: each sentence of the caption is shown with the whole caption as context
and the judge answers a 0-100 alignment score as JSON (``{"score": <0-100>}``, held to a JSON
schema where the server supports structured output; the prompts are in :mod:`detectors.prompts`
and each detection names the version it used in ``details["prompts"]``); prose answers are read too ("The sentence is
correct", "three out of five", see :func:`detectors.backends.answers.parse_score`). A sentence's
hallucination score is ``1 - alignment / 100``; the caption's is the maximum over the sentences
that were scored. An answer that cannot be read counts in ``details["parse_failures"]`` and is
kept in ``details["unparsed"]``; a sentence with no readable answer gets no score (it is left out
of ``sentences`` and listed in ``details["unscored"]``), and a caption with none is an error.

``protocol="detailverify"``: the judge copies the caption wrapping hallucinated words in
``<HALLUCINATION>...</HALLUCINATION>``. The copy must equal the caption once the tags are removed
(whitespace aside); an invalid copy is asked for again, up to ``retries`` times, with a note on
what was wrong. Tagged words become char spans of the caption; the score is 1 when anything is
tagged (``span_score="any"``) or the tagged share of the caption's words (``"fraction"``).

``max_tokens`` bounds each answer; by default 160 for an AlignBench verdict and, for a
DetailVerifyBench copy, enough for the caption twice over (at least 512).
Every detection, failed or not, says ``details["parse_failures"]``.

``samples=N`` asks for N judgements at ``temperature`` (0.7 by default when N > 1) with seeds
``seed``, ``seed + 1``...; scores and span votes are averaged over the valid ones.

The judge sees the sample's ``image``; a text-only backend, or a sample without an image, is
judged against the sample's ``references`` written into the prompt instead. ``images``
(``auto``, ``always``, ``never``) says what happens when the server refuses images (see
:mod:`detectors.model_judge`). ``details["answers"]`` holds the judge's answers (alignment
scores; for DetailVerifyBench the number of spans each judgement tagged), from which a run says
when they do not vary. An image path must
lie inside ``image_root`` (default: the working directory; ``cece`` sets it to the input file's
folder) and be a PNG, JPEG, GIF, WebP or BMP file; anything else is that sample's error and is
never sent (see :mod:`detectors.backends.images`).

>>> VLMDetector(protocol="detailverify", samples=3,
...             backend={"base_url": "http://127.0.0.1:9/v1", "model": "m"}).config.temperature
0.7
"""

from __future__ import annotations

import re
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from detectors.backends import Backend, ChatRequest, resolve_backend, text_of
from detectors.backends.answers import parse_score, parse_tagged
from detectors.backends.images import Evidence, evidence_missing
from detectors.base import Detection, Sample, SentenceScore, SpanScore
from detectors.model_judge import IMAGES, ModelJudgeDetector, make_config
from detectors.prompts import ALIGNBENCH, DETAILVERIFY, DETAILVERIFY_RETRY
from parsers.sentences import split_sentences

ALIGNBENCH_PROMPT, DETAILVERIFY_PROMPT, RETRY_NOTE = ALIGNBENCH, DETAILVERIFY, DETAILVERIFY_RETRY
ALIGNBENCH_SCHEMA = ALIGNBENCH.schema
ALIGNBENCH_MAX_TOKENS = 160  # a verdict, and room for the sentence of reasons small models add


@dataclass
class VLMConfig:
    """The options of :class:`VLMDetector` (see the module docstring)."""

    protocol: str = "alignbench"
    backend: Any = None  # a Backend, {"kind": ..., **options}, a kind name, or None (environment)
    samples: int = 1
    temperature: float | None = None
    seed: int | None = 0
    retries: int = 2
    span_score: str = "any"  # detailverify: "any" | "fraction"
    max_tokens: int | None = None
    image_root: str | None = None
    allow_urls: bool = False  # http(s) image URLs (the server fetches them): refused unless set
    use_references: bool = True
    images: str = "auto"  # "auto" | "always" | "never": see detectors.model_judge
    batch_size: int = 32  # samples whose requests are sent together

    def __post_init__(self) -> None:
        if self.images not in IMAGES:
            raise ValueError(f"images must be one of {', '.join(IMAGES)}, not {self.images!r}")
        if self.protocol not in ("alignbench", "detailverify"):
            raise ValueError(f"protocol must be 'alignbench' or 'detailverify', not {self.protocol!r}")
        if self.span_score not in ("any", "fraction"):
            raise ValueError(f"span_score must be 'any' or 'fraction', not {self.span_score!r}")
        if self.samples < 1:
            raise ValueError("samples must be at least 1")
        if self.temperature is None:
            self.temperature = 0.7 if self.samples > 1 else 0.0
        elif self.samples > 1 and self.temperature <= 0:
            raise ValueError("a self-ensemble (samples > 1) needs temperature > 0")


class VLMDetector(ModelJudgeDetector):
    """A VLM (or LLM with references) as hallucination judge; options: :class:`VLMConfig`."""

    name = "vlm"

    def __init__(self, **options: Any) -> None:
        self.config: VLMConfig = make_config(VLMConfig, options)
        self._backend: Backend | None = None

    @property
    def backend(self) -> Backend:
        if self._backend is None:  # built on first use: listing detectors must not need a server
            self._backend = resolve_backend(self.config.backend)
        return self._backend

    def load(self) -> None:
        self.backend  # noqa: B018 -- the property builds it (a local model loads its weights)

    def missing(self, sample: Sample) -> str | None:
        return super().missing(sample) or evidence_missing(sample, self.config.use_references)

    def setup_error(self, exc: Exception) -> str:
        return f"backend: {exc}"

    def prepare(self, samples: Sequence[Sample]) -> tuple[list, Backend | None]:
        backend = self.backend if samples else None
        protocol = self._alignbench if self.config.protocol == "alignbench" else self._detailverify
        return [protocol(s) for s in samples], backend

    # -- shared ------------------------------------------------------------------------------
    def _request(
        self, prompt: str, evidence: Evidence, k: int, max_tokens: int, schema: dict[str, Any] | None = None
    ) -> ChatRequest:
        c = self.config
        # Judgement k of a self-ensemble gets seed + k; a single judgement with seed=None sends none.
        seed = None if c.seed is None and c.samples == 1 else (c.seed or 0) + k
        return ChatRequest(
            prompt,
            images=evidence.images,
            temperature=c.temperature,
            seed=seed,
            max_tokens=c.max_tokens or max_tokens,
            schema=schema,
        )

    @staticmethod
    def _what(evidence: Evidence) -> str:
        return "the image" if evidence.kind == "image" else "the image described above"

    # -- AlignBench --------------------------------------------------------------------------
    def _alignbench(self, sample: Sample) -> Generator[list[ChatRequest], list, Detection]:
        caption, n = sample["caption"], self.config.samples
        evidence = self._evidence(sample)
        sentences = split_sentences(caption)
        refused: dict[str, str] = {}
        for _ in range(2):  # a second round only when the server refused the image
            requests = [
                self._request(
                    ALIGNBENCH_PROMPT.format(
                        preface=evidence.preface, what=self._what(evidence), caption=caption, sentence=caption[a:b]
                    ),
                    evidence,
                    k,
                    ALIGNBENCH_MAX_TOKENS,
                    ALIGNBENCH_SCHEMA,
                )
                for a, b in sentences
                for k in range(n)
            ]
            answers = yield requests
            fallback = self.images_refused(sample, evidence, answers)
            if fallback is None:
                break
            evidence, refused["images_refused"] = fallback
        failures, unparsed, scored, unscored = 0, [], [], []
        for j, (a, b) in enumerate(sentences):
            alignments = []
            for answer in answers[j * n : (j + 1) * n]:
                text = text_of(answer)
                value = parse_score(text, echo=(caption[a:b],))
                if value is None:  # never a made-up neutral score: counted, kept, left out
                    failures += 1
                    unparsed.append(text[:500])
                else:
                    alignments.append(value)
            if alignments:
                scored.append((a, b, alignments))
            else:
                unscored.append([a, b])
        details = {
            "protocol": "alignbench",
            "prompts": [ALIGNBENCH.id],
            "evidence": evidence.kind,
            "parse_failures": failures,
            "judgements": len(requests),
            "alignment": [al for _, _, al in scored],
            "answers": [round(v) for _, _, al in scored for v in al],
            **refused,
            **({"unparsed": unparsed} if unparsed else {}),
            **({"unscored": unscored} if unscored else {}),
        }
        if sentences and not scored:
            return Detection(
                id=str(sample.get("id")),
                detector=self.name,
                details=details,
                error=f"no judgement could be read ({failures} unparsed answers, in details)",
            )
        sent = [SentenceScore(a, b, 1 - sum(al) / len(al) / 100) for a, b, al in scored]
        return Detection(
            id=str(sample.get("id")),
            detector=self.name,
            score=max((s.score for s in sent), default=0.0),
            sentences=sent,
            details=details,
        )

    # -- DetailVerifyBench -------------------------------------------------------------------
    def _detailverify(self, sample: Sample) -> Generator[list[ChatRequest], list, Detection]:
        c, caption = self.config, sample["caption"]
        evidence = self._evidence(sample)
        base = dict(preface=evidence.preface, what=self._what(evidence), caption=caption)
        prompts = {k: DETAILVERIFY_PROMPT.format(retry="", **base) for k in range(c.samples)}
        valid: dict[int, list[tuple[int, int]]] = {}
        failures, reasons, unparsed, refused = 0, [], [], dict[str, Any]()
        tokens = max(512, len(caption) // 2 + 256)  # the copy, its tags, a <result> wrapper
        attempt = 0
        while prompts and attempt <= c.retries:
            order = sorted(prompts)
            answers = yield [self._request(prompts[k], evidence, k, tokens) for k in order]
            fallback = None if refused else self.images_refused(sample, evidence, answers)
            if fallback is not None:  # the same prompts again, with the references; no attempt used
                evidence, refused["images_refused"] = fallback
                base = dict(preface=evidence.preface, what=self._what(evidence), caption=caption)
                prompts = {k: DETAILVERIFY_PROMPT.format(retry="", **base) for k in order}
                continue
            prompts = {}
            for k, answer in zip(order, answers, strict=True):
                text = text_of(answer)
                tagged = parse_tagged(text, caption)
                if tagged.valid:
                    valid[k] = tagged.spans
                    continue
                failures += 1
                reasons.append(tagged.reason)
                unparsed.append(text[:500])
                if attempt < c.retries:
                    note = RETRY_NOTE.format(reason=tagged.reason, attempt=attempt + 2)  # never a cached repeat
                    prompts[k] = DETAILVERIFY_PROMPT.format(retry=note, **base)
            attempt += 1
        details = {
            "protocol": "detailverify",
            "prompts": [DETAILVERIFY.id],
            "evidence": evidence.kind,
            "parse_failures": failures,
            **refused,
            "invalid": reasons,
            "judgements": c.samples,
            "valid_judgements": len(valid),
            **({"unparsed": unparsed} if unparsed else {}),
        }
        if not valid:
            return Detection(
                id=str(sample.get("id")),
                detector=self.name,
                details=details,
                error=f"no valid tagged caption after {c.retries + 1} attempts: {reasons[-1]}",
            )
        spans, score = _vote(caption, list(valid.values()), c.span_score)
        details["tagged"] = [[caption[a:b] for a, b in s] for s in valid.values()]
        details["answers"] = [len(s) for s in valid.values()]  # how many spans each judgement tagged
        return Detection(
            id=str(sample.get("id")),
            detector=self.name,
            score=score,
            spans=spans,
            sentences=_sentence_scores(caption, spans),
            details=details,
        )


def _vote(caption: str, judgements: list[list[tuple[int, int]]], mode: str) -> tuple[list[SpanScore], float]:
    """Spans where any judgement tagged something, scored by the share of judgements that did;
    the caption score averaged over judgements."""
    votes = [0] * len(caption)
    per_judgement = []
    words = [m.span() for m in re.finditer(r"\S+", caption)]
    for spans in judgements:
        marked = [False] * len(caption)
        for a, b in spans:
            for i in range(a, b):
                marked[i] = True
        for i, m in enumerate(marked):
            votes[i] += m
        if mode == "any":
            per_judgement.append(1.0 if spans else 0.0)
        else:
            hit = sum(any(marked[a:b]) for a, b in words)
            per_judgement.append(hit / len(words) if words else 0.0)
    out, i = [], 0
    while i < len(caption):
        if votes[i] == 0:
            i += 1
            continue
        j = i
        while j < len(caption) and votes[j] > 0:
            j += 1
        out.append(SpanScore(i, j, caption[i:j], max(votes[i:j]) / len(judgements), "hallucination"))
        i = j
    return out, sum(per_judgement) / len(per_judgement)


def _sentence_scores(caption: str, spans: list[SpanScore]) -> list[SentenceScore]:
    return [
        SentenceScore(a, b, max((s.score for s in spans if s.start < b and s.end > a), default=0.0))
        for a, b in split_sentences(caption)
    ]

"""The FaithScore detector: sub-sentences, atomic facts, verification, scores.

Options (:class:`FaithScoreConfig`): ``labeler`` ``"rules"`` (default: the offline recogniser,
:func:`detectors.faithscore.recognise`) or ``"llm"``;
``decomposer`` ``"graph"`` (default, from the caption's scene graph) or ``"llm"``; ``verifier``
``"auto"`` (the annotation/reference graph when the sample has one, else the VLM), ``"graph"`` or
``"vlm"``; ``backend`` for the model steps (see :func:`detectors.backends.resolve_backend`).
A model answer that cannot be read counts in ``details["parse_failures"]`` (every detection
says it, failed or not) and is kept in ``details["unparsed"]``: labels and facts then fall back
to the rules and the graph, a verification stays unjudged (never a guessed verdict). Yes/no
answers are read from prose too ("The statement is false", "Not accurate", ``{"answer": "no"}``:
:func:`detectors.backends.answers.parse_yes_no`). ``max_tokens`` bounds every model answer; by
default 256 for the labels, 512 for a fact list and 96 for a yes/no verdict. A sample's image
path must lie inside ``image_root`` (see :mod:`detectors.vlm`).

A fact the model writes must be a statement about its sub-sentence (:mod:`.grounding`); a
refused one is a parse failure, listed in ``details["refused_facts"]`` with the reason, and a
part whose facts are all refused gets the graph's facts. ``images`` (``auto``, ``always``,
``never``) says what the VLM verifier does when the server refuses images (see
:mod:`detectors.model_judge`); ``details["answers"]`` holds its yes/no verdicts and
``details["prompts"]`` the versions of the prompts used (:mod:`detectors.prompts`).

FaithScore = verified / judged facts (facts the verifier could not judge are left out);
``score`` = 1 - FaithScore. With no judged fact the record is *not judged*: ``score`` is None and
``details["not_judged"]`` says why (never 0.0, which would call it faithful). Each sentence with
a judged fact scores 1 - its own FaithScore; ``spans`` are the facts found false, labelled with
their kind; ``details["facts"]`` lists every fact with its span, verdict and evidence.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

from detectors.backends import Backend, ChatRequest, resolve_backend, text_of
from detectors.backends.answers import parse_yes_no
from detectors.backends.images import evidence_missing
from detectors.base import Detection, Sample, SentenceScore, SpanScore
from detectors.faithscore.facts import KINDS, Fact, facts_from_graph, split_sub_sentences
from detectors.faithscore.grounding import ungrounded
from detectors.faithscore.llm import (
    DECOMPOSE_PROMPT,
    LABEL_PROMPT,
    VERIFY_PROMPT,
    label_prompt,
    label_request_schema,
    locate,
    parse_facts,
    parse_labels,
)
from detectors.faithscore.verify import GraphVerifier
from detectors.model_judge import IMAGES, ModelJudgeDetector, make_config
from parsers import AnnotationError, CaptionParser, SceneGraph, to_scene_graph
from parsers.sentences import split_sentences


@dataclass
class FaithScoreConfig:
    labeler: str = "rules"  # "rules" | "llm"
    decomposer: str = "graph"  # "graph" | "llm"
    verifier: str = "auto"  # "auto" | "graph" | "vlm"
    backend: Any = None
    max_path: int = 0  # WordNet steps that still verify an entity (2 admits siblings)
    image_root: str | None = None
    allow_urls: bool = False  # http(s) image URLs (the server fetches them): refused unless set
    use_references: bool = True  # a text-only verifier judges against the references
    images: str = "auto"  # "auto" | "always" | "never": see detectors.model_judge
    max_tokens: int | None = None
    batch_size: int = 32

    def __post_init__(self) -> None:
        if self.images not in IMAGES:
            raise ValueError(f"images must be one of {', '.join(IMAGES)}, not {self.images!r}")
        for name, allowed in (
            ("labeler", ("rules", "llm")),
            ("decomposer", ("graph", "llm")),
            ("verifier", ("auto", "graph", "vlm")),
        ):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")


class FaithScoreDetector(ModelJudgeDetector):
    """FaithScore (fact-level faithfulness) as a hallucination detector; see the module docstring.
    ``parser`` may be passed to share a loaded :class:`CaptionParser`."""

    name = "faithscore"

    def __init__(self, parser: CaptionParser | None = None, **options: Any) -> None:
        self.config: FaithScoreConfig = make_config(FaithScoreConfig, options)
        self._parser = parser
        self._backend: Backend | None = None

    @property
    def parser(self) -> CaptionParser:
        if self._parser is None:
            self._parser = CaptionParser()
        return self._parser

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            self._backend = resolve_backend(self.config.backend)
        return self._backend

    def load(self) -> None:
        self.parser.parse("A dog.")  # spaCy and WordNet
        c = self.config
        if c.labeler == "llm" or c.decomposer == "llm" or c.verifier == "vlm":  # every sample asks the model
            self.backend  # noqa: B018 -- the property builds it

    def verifier_for(self, sample: Sample) -> str:
        if self.config.verifier != "auto":
            return self.config.verifier
        return "graph" if sample.get("annotation") is not None or sample.get("references") else "vlm"

    def missing(self, sample: Sample) -> str | None:
        reason = super().missing(sample)
        if reason:
            return reason
        if self.verifier_for(sample) == "graph":
            if sample.get("annotation") is None and not sample.get("references"):
                return "the graph verifier needs an 'annotation' or 'references'"
            return None
        return evidence_missing(sample, self.config.use_references)

    def _uses_model(self, samples: Sequence[Sample]) -> bool:
        c = self.config
        return c.labeler == "llm" or c.decomposer == "llm" or any(self.verifier_for(s) == "vlm" for s in samples)

    def prepare(self, samples: Sequence[Sample]) -> tuple[list, Backend | None]:
        graphs = self.parser.parse_many([s["caption"] for s in samples])  # one batched parse
        backend = self.backend if self._uses_model(samples) else None
        return [self._job(s, g) for s, g in zip(samples, graphs, strict=True)], backend

    def _job(self, sample: Sample, graph: SceneGraph) -> Generator[list[ChatRequest], list, Detection]:
        c, caption = self.config, sample["caption"]
        subs = split_sub_sentences(caption)
        failures, unparsed, refused, prompts = 0, [], [], []
        if c.labeler == "llm" and subs:
            prompts.append(LABEL_PROMPT.id)
            answers = yield [
                ChatRequest(label_prompt(subs), max_tokens=c.max_tokens or 256, schema=label_request_schema(subs))
            ]
            labels = parse_labels(text_of(answers[0]), len(subs))
            if labels is None:
                failures += 1  # keep the rule labels
                unparsed.append(text_of(answers[0])[:500])
            else:
                for s, label in zip(subs, labels, strict=True):
                    s.label = label
        facts = facts_from_graph(graph, subs)
        if c.decomposer == "llm":
            desc = [i for i, s in enumerate(subs) if s.label == "descriptive"]
            prompts.append(DECOMPOSE_PROMPT.id)
            answers = yield [
                ChatRequest(
                    DECOMPOSE_PROMPT.format(text=subs[i].text),
                    max_tokens=c.max_tokens or 512,
                    schema=DECOMPOSE_PROMPT.schema,
                )
                for i in desc
            ]
            model_facts = []
            for i, answer in zip(desc, answers, strict=True):
                parsed = parse_facts(text_of(answer))
                if parsed is None:
                    failures += 1
                    unparsed.append(text_of(answer)[:500])
                    model_facts += [f for f in facts if f.sub == i]  # the graph's facts instead
                    continue
                kept = []
                for kind, text in parsed:  # a fact must be a statement about its own text
                    why = ungrounded(text, subs[i].text)
                    if why is None:
                        kept.append(Fact(kind, text, *locate(text, caption, subs[i]), i))
                    else:
                        refused.append({"kind": kind, "text": text[:200], "sub_sentence": i, "reason": why})
                failures += len(parsed) - len(kept)
                # Nothing usable from an answer that said something: the graph's facts instead.
                model_facts += kept if kept or not parsed else [f for f in facts if f.sub == i]
            facts = sorted(model_facts, key=lambda f: (f.start, KINDS.index(f.kind)))
        verifier = self.verifier_for(sample)
        details: dict[str, Any] = {}
        if verifier == "graph":
            self._verify_on_graph(sample, facts)
        elif facts:
            prompts.append(VERIFY_PROMPT.id)
            evidence = self._evidence(sample)
            verdicts: list = []
            for _ in range(2):  # a second round only when the server refused the image
                answers = yield [self._verify_request(evidence, f) for f in facts]
                fallback = self.images_refused(sample, evidence, answers)
                if fallback is None:
                    break
                evidence, details["images_refused"] = fallback
            details["evidence"] = evidence.kind
            for f, answer in zip(facts, answers, strict=True):
                text = text_of(answer)
                f.verdict = parse_yes_no(text, echo=(f.text,))
                f.evidence = f"judge: {text[:80]!r}"
                if f.verdict is None:
                    failures += 1
                    unparsed.append(text[:500])
                else:
                    verdicts.append("yes" if f.verdict else "no")
            details["answers"] = verdicts
        detection = self._detection(sample, subs, facts, verifier, failures)
        detection.details.update(details)
        if prompts:
            detection.details["prompts"] = prompts
        if refused:
            detection.details["refused_facts"] = refused
        if unparsed:
            detection.details["unparsed"] = unparsed
        return detection

    def _verify_request(self, evidence: Any, fact: Fact) -> ChatRequest:
        what = "the image" if evidence.kind == "image" else "the image described above"
        return ChatRequest(
            VERIFY_PROMPT.format(preface=evidence.preface, statement=fact.text, what=what),
            images=evidence.images,
            max_tokens=self.config.max_tokens or 96,
            schema=VERIFY_PROMPT.schema,
        )

    def _verify_on_graph(self, sample: Sample, facts: list[Fact]) -> None:
        annotation = sample.get("annotation")
        try:
            image = to_scene_graph(annotation, sample.get("references"), parser=self.parser)
        except AnnotationError as exc:
            raise ValueError(f"{getattr(exc, 'field', 'annotation')}: {exc}") from None
        verifier = GraphVerifier(image, count_nodes=annotation is not None, max_path=self.config.max_path)
        loose = [f for f in facts if f.concept is None and f.relation is None]
        for f, g in zip(loose, self.parser.parse_many([f.text for f in loose]), strict=True):
            f.graph = g  # a model-written statement: verified through its own parse
        for f in facts:
            f.verdict, f.evidence = verifier.verify(f)

    def _detection(self, sample: Sample, subs: list, facts: list[Fact], verifier: str, failures: int) -> Detection:
        caption = sample["caption"]
        judged = [f for f in facts if f.verdict is not None]
        faith = sum(bool(f.verdict) for f in judged) / len(judged) if judged else None
        sentences = []
        for a, b in split_sentences(caption):  # a sentence without a judged fact gets no score
            mine = [f for f in judged if a <= f.start < b]
            if mine:
                sentences.append(SentenceScore(a, b, 1 - sum(bool(f.verdict) for f in mine) / len(mine)))
        spans = [SpanScore(f.start, f.end, caption[f.start : f.end], 1.0, f.kind) for f in facts if f.verdict is False]
        details = {
            "faithscore": faith,
            "verifier": verifier,
            "parse_failures": failures,
            "facts": [f.to_dict() for f in facts],
            "sub_sentences": [{"start": s.start, "end": s.end, "label": s.label} for s in subs],
        }
        if faith is None:  # nothing judged is no evidence of faithfulness: no score, and why
            details["not_judged"] = _why_not_judged(subs, facts)
        return Detection(
            id=str(sample.get("id")),
            detector=self.name,
            score=1 - faith if faith is not None else None,
            spans=spans,
            sentences=sentences,
            details=details,
        )


def _why_not_judged(subs: list, facts: list[Fact]) -> str:
    if not any(s.label == "descriptive" for s in subs):
        return "no descriptive sub-sentence: nothing to check against the image"
    if not facts:
        return "no fact found in the descriptive sub-sentences"
    return f"none of the {len(facts)} facts could be judged (see facts)"

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

FaithScore = verified / judged facts (facts the verifier could not judge are left out);
``score`` = 1 - FaithScore, 0 when there is no judged fact. Each sentence scores 1 - its own
FaithScore; ``spans`` are the facts found false, labelled with their kind; ``details["facts"]``
lists every fact with its span, verdict and evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generator, Sequence

from detectors.backends import Backend, ChatRequest, resolve_backend, text_of
from detectors.backends.images import evidence_missing, sample_evidence
from detectors.backends.answers import parse_yes_no
from detectors.base import Detection, Sample, SentenceScore, SpanScore
from detectors.faithscore.facts import KINDS, Fact, facts_from_graph, split_sub_sentences
from detectors.faithscore.llm import (DECOMPOSE_PROMPT, VERIFY_PROMPT, VERIFY_SCHEMA, label_prompt, locate,
                                      parse_facts, parse_labels)
from detectors.faithscore.verify import GraphVerifier
from detectors.model_judge import ModelJudgeDetector, make_config
from parsers import AnnotationError, CaptionParser, SceneGraph, to_scene_graph
from parsers.sentences import split_sentences


@dataclass
class FaithScoreConfig:
    labeler: str = "rules"      # "rules" | "llm"
    decomposer: str = "graph"   # "graph" | "llm"
    verifier: str = "auto"      # "auto" | "graph" | "vlm"
    backend: Any = None
    max_path: int = 0           # WordNet steps that still verify an entity (2 admits siblings)
    image_root: str | None = None
    allow_urls: bool = False  # http(s) image URLs (the server fetches them): refused unless set
    use_references: bool = True  # a text-only verifier judges against the references
    max_tokens: int | None = None
    batch_size: int = 32

    def __post_init__(self) -> None:
        for name, allowed in (("labeler", ("rules", "llm")), ("decomposer", ("graph", "llm")),
                              ("verifier", ("auto", "graph", "vlm"))):
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
        return [self._job(s, g) for s, g in zip(samples, graphs)], backend

    def _job(self, sample: Sample, graph: SceneGraph) -> Generator[list[ChatRequest], list, Detection]:
        c, caption = self.config, sample["caption"]
        subs = split_sub_sentences(caption)
        failures, unparsed = 0, []
        if c.labeler == "llm" and subs:
            answers = yield [ChatRequest(label_prompt(subs), max_tokens=c.max_tokens or 256)]
            labels = parse_labels(text_of(answers[0]), len(subs))
            if labels is None:
                failures += 1  # keep the rule labels
                unparsed.append(text_of(answers[0])[:500])
            else:
                for s, label in zip(subs, labels):
                    s.label = label
        facts = facts_from_graph(graph, subs)
        if c.decomposer == "llm":
            desc = [i for i, s in enumerate(subs) if s.label == "descriptive"]
            answers = yield [ChatRequest(DECOMPOSE_PROMPT.format(text=subs[i].text), max_tokens=c.max_tokens or 512)
                             for i in desc]
            model_facts = []
            for i, answer in zip(desc, answers):
                parsed = parse_facts(text_of(answer))
                if parsed is None:
                    failures += 1
                    unparsed.append(text_of(answer)[:500])
                    model_facts += [f for f in facts if f.sub == i]  # the graph's facts instead
                else:
                    model_facts += [Fact(kind, text, *locate(text, caption, subs[i]), i) for kind, text in parsed]
            facts = sorted(model_facts, key=lambda f: (f.start, KINDS.index(f.kind)))
        verifier = self.verifier_for(sample)
        if verifier == "graph":
            self._verify_on_graph(sample, facts)
        else:
            evidence = sample_evidence(sample, self.backend, image_root=c.image_root,
                                       use_references=c.use_references, allow_urls=c.allow_urls)
            what = "the image" if evidence.kind == "image" else "the image described above"
            answers = yield [ChatRequest(VERIFY_PROMPT.format(preface=evidence.preface, statement=f.text, what=what),
                                         images=evidence.images, max_tokens=c.max_tokens or 96, schema=VERIFY_SCHEMA)
                             for f in facts]
            for f, answer in zip(facts, answers):
                text = text_of(answer)
                f.verdict = parse_yes_no(text, echo=(f.text,))
                f.evidence = f"judge: {text[:80]!r}"
                if f.verdict is None:
                    failures += 1
                    unparsed.append(text[:500])
        detection = self._detection(sample, subs, facts, verifier, failures)
        if unparsed:
            detection.details["unparsed"] = unparsed
        return detection

    def _verify_on_graph(self, sample: Sample, facts: list[Fact]) -> None:
        annotation = sample.get("annotation")
        try:
            image = to_scene_graph(annotation, sample.get("references"), parser=self.parser)
        except AnnotationError as exc:
            raise ValueError(f"{getattr(exc, 'field', 'annotation')}: {exc}") from None
        verifier = GraphVerifier(image, count_nodes=annotation is not None, max_path=self.config.max_path)
        loose = [f for f in facts if f.concept is None and f.relation is None]
        for f, g in zip(loose, self.parser.parse_many([f.text for f in loose])):
            f.graph = g  # a model-written statement: verified through its own parse
        for f in facts:
            f.verdict, f.evidence = verifier.verify(f)

    def _detection(self, sample: Sample, subs: list, facts: list[Fact], verifier: str, failures: int) -> Detection:
        caption = sample["caption"]
        judged = [f for f in facts if f.verdict is not None]
        faith = sum(bool(f.verdict) for f in judged) / len(judged) if judged else None
        sentences = []
        for a, b in split_sentences(caption):
            mine = [f for f in judged if a <= f.start < b]
            sentences.append(SentenceScore(a, b, 1 - sum(bool(f.verdict) for f in mine) / len(mine) if mine else 0.0))
        spans = [SpanScore(f.start, f.end, caption[f.start:f.end], 1.0, f.kind) for f in facts if f.verdict is False]
        return Detection(
            id=str(sample.get("id")), detector=self.name, score=1 - faith if faith is not None else 0.0,
            spans=spans, sentences=sentences,
            details={"faithscore": faith, "verifier": verifier, "parse_failures": failures,
                     "facts": [f.to_dict() for f in facts],
                     "sub_sentences": [{"start": s.start, "end": s.end, "label": s.label} for s in subs]})

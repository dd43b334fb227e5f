"""Text and annotations -> scene graphs.

>>> from parsers import CaptionParser, to_scene_graph
>>> CaptionParser().parse("A dog sitting on a lap.").triples()
[('dog', 'sit on', 'lap')]
>>> to_scene_graph(["dog", "laptop"]).concepts[1].synset
'laptop.n.01'

The names below are imported on first use (PEP 562), so that a light submodule
(``parsers.language``, ``parsers.scene_graph``) does not bring spaCy and torch in with it: the
command line answers ``--help`` without loading them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # The redundant aliases mark these as re-exports for type checkers and linters; at run time the
    # names come from __getattr__ below.
    from parsers.annotations import AnnotationError as AnnotationError
    from parsers.annotations import from_coco as from_coco
    from parsers.annotations import from_labels as from_labels
    from parsers.annotations import from_references as from_references
    from parsers.annotations import from_visual_genome as from_visual_genome
    from parsers.annotations import to_scene_graph as to_scene_graph
    from parsers.caption import CaptionParser as CaptionParser
    from parsers.scene_graph import Concept as Concept
    from parsers.scene_graph import Relation as Relation
    from parsers.scene_graph import SceneGraph as SceneGraph
    from parsers.scene_graph import Span as Span
    from parsers.spacy_model import ModelStatus as ModelStatus
    from parsers.spacy_model import SpacyModelError as SpacyModelError
    from parsers.spacy_model import find_spacy_model as find_spacy_model
    from parsers.spacy_model import load_spacy as load_spacy

_HOME = {
    "AnnotationError": "annotations",
    "from_coco": "annotations",
    "from_labels": "annotations",
    "from_references": "annotations",
    "from_visual_genome": "annotations",
    "to_scene_graph": "annotations",
    "CaptionParser": "caption",
    "Concept": "scene_graph",
    "Relation": "scene_graph",
    "SceneGraph": "scene_graph",
    "Span": "scene_graph",
    "ModelStatus": "spacy_model",
    "SpacyModelError": "spacy_model",
    "find_spacy_model": "spacy_model",
    "load_spacy": "spacy_model",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'parsers' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"parsers.{home}"), name)
    globals()[name] = value  # later lookups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])

"""Text and annotations -> scene graphs.

>>> from parsers import CaptionParser, to_scene_graph
>>> CaptionParser().parse("A dog sitting on a lap.").triples()
[('dog', 'sit on', 'lap')]
>>> to_scene_graph(["dog", "laptop"]).concepts[1].synset
'laptop.n.01'
"""

from parsers.annotations import (AnnotationError, from_coco, from_labels, from_references,
                                 from_visual_genome, to_scene_graph)
from parsers.caption import CaptionParser
from parsers.scene_graph import Concept, Relation, SceneGraph, Span
from parsers.spacy_model import ModelStatus, SpacyModelError, find_spacy_model, load_spacy

__all__ = [
    "AnnotationError", "CaptionParser", "Concept", "ModelStatus", "Relation", "SceneGraph", "Span",
    "SpacyModelError", "find_spacy_model", "from_coco", "from_labels", "from_references",
    "from_visual_genome", "load_spacy", "to_scene_graph",
]

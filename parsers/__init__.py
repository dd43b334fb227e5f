"""Text and annotations -> scene graphs."""

from parsers.scene_graph import Concept, Relation, SceneGraph, Span

__all__ = ["Concept", "Relation", "SceneGraph", "Span"]

"""halcece: explain hallucinations in image captions with WordNet-costed graph edits (HalCECE).

The common case is one line::

    from cece import explain
    e = explain("A dog sitting on a lap.", annotation={"objects": ["man", "dog", "laptop", "lap"],
                "relationships": [["laptop", "on", "lap"], ["dog", "next to", "man"]]})
    e.edits, e.objects.hal_rate, e.counterfactual

Names are imported lazily so that `cece --help` stays fast.
"""

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "explain": "cece.api",
    "Explainer": "cece.api",
    "counterfactual": "cece.api",
    "Counterfactual": "cece.counterfactuals.rewrite",
    "Explanation": "cece.explanation",
    "Edit": "cece.edits",
    "CostModel": "cece.costs",
    "ObjectMetrics": "cece.metrics",
    "RoleMetrics": "cece.metrics",
    "aggregate_metrics": "cece.metrics",
    "clear_caches": "knowledge.caches",
    "SceneGraph": "parsers",
    "Concept": "parsers",
    "Relation": "parsers",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'cece' has no attribute {name!r}")

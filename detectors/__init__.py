"""Hallucination detectors behind one interface (:mod:`detectors.base`), found through the registry
(:mod:`detectors.registry`)."""

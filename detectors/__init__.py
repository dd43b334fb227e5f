"""Hallucination detectors behind one interface (built in issue #3)."""

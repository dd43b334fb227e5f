"""Who operates a machine is a person: WordNet files operator.n.02 ("an agent that operates some
apparatus or machine") and the drivers, motorists, chauffeurs, racers and engine drivers below it
among its people (the noun.person file) but under causal_agent.n.01 beside person.n.01, not
under it. A reference's "bike racer" was then no person, so no other name for the man the
others see riding. The index (:func:`knowledge.hierarchy.build_hierarchy`) adds person.n.01 as a
second parent of the operator; the other noun.person synsets WordNet files under a causal agent
are forces, not people (destiny, nature, the supernatural), and are left as they are.

>>> from knowledge.provision import load_wordnet
>>> build_operators(load_wordnet())
{'operator.n.02': 'person.n.01'}
"""

from __future__ import annotations

from typing import Any

#: Classes of people WordNet files outside person.n.01, each with the parent the index adds.
OPERATORS = {"operator.n.02": "person.n.01"}


def build_operators(reader: Any) -> dict[str, str]:
    """:data:`OPERATORS`, of those the WordNet of ``reader`` has (another version may not)."""
    return {k: v for k, v in OPERATORS.items() if _has(reader, k) and _has(reader, v)}


def _has(reader: Any, name: str) -> bool:
    try:
        reader.synset(name)
    except Exception:  # nltk's WordNetError, or a ValueError for a lemma it lacks
        return False
    return True

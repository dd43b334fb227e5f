"""Where the tree repairs go in the spaCy pipeline: each one right after the parser, so that the
attribute ruler and the lemmatizer read the tags it sets, and the one added last runs first
(:func:`parsers.spacy_model.load_spacy` adds them in the order they are to run, backwards).

>>> import spacy
>>> nlp = spacy.blank("en")
>>> install_after_parser(nlp, "halcece_partitives")
False
"""

from __future__ import annotations

from typing import Any


def install_after_parser(nlp: Any, name: str) -> bool:
    """Add the registered component ``name`` to ``nlp`` right after its parser. False when there is
    no parser, or the component is there already."""
    if "parser" not in nlp.pipe_names or name in nlp.pipe_names:
        return False
    nlp.add_pipe(name, after="parser")
    return True

"""A "by" phrase after an active verb, which spaCy's small model reads as a passive agent, read
as the place it names.

Only a passive participle has an agent: "a cake *made by* a woman" is the woman's doing. After an
active verb, "by" says where: "A cow is standing *by* an electric fence", "Kids playing in the
sand *by* the ocean". The parser sometimes labels such a phrase ``agent`` all the same, and
SceneGraphParser takes an agent for the verb's subject, so the ocean was the one "playing in"
the sand and the kids did nothing. :func:`repair` (a pipeline component, last of the tree
repairs, so it reads their tags) relabels an ``agent`` whose verb is not a past participle
(``VBN``) as the preposition it is.

>>> from parsers.spacy_model import load_spacy
>>> doc = load_spacy(tree_repairs=True)("Kids playing in the sand by the ocean.")
>>> [(t.text, t.dep_, t.head.text) for t in doc if t.text == "by"]
[('by', 'prep', 'playing')]
"""

from __future__ import annotations

from typing import Any

from spacy.language import Language

from parsers.components import install_after_parser


def repair(doc: Any) -> Any:
    """Relabel every passive agent of ``doc`` whose verb is not a past participle, in place."""
    for t in doc:
        if t.dep_ == "agent" and t.head.tag_ != "VBN":
            t.dep_ = "prep"
    return doc


@Language.component("halcece_passive_agents")
def _component(doc: Any) -> Any:
    return repair(doc)


def install(nlp: Language) -> bool:
    """Add :func:`repair` right after the parser; installed before the other tree repairs, it
    runs after them. False when there is no parser."""
    return install_after_parser(nlp, "halcece_passive_agents")

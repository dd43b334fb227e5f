"""The sex a person's WordNet gloss gives it, read when the index is built
(:func:`knowledge.hierarchy.build_hierarchy`): WordNet files a "bride", a "waitress" or an
"actress" under what she does, with no female.n.02 above her, but defines her as "a woman who
has recently been married", "a woman waiter", "a female actor". :mod:`knowledge.coreference`
asks for it where the hypernyms say nothing.

>>> _gloss_sex("a woman who has recently been married"), _gloss_sex("a male singer")
('f', 'm')
>>> _gloss_sex("a man or woman who ..."), _gloss_sex("someone who serves food")
(None, None)
"""

from __future__ import annotations

import re
from typing import Any

_SEXED = re.compile(r"(?:an? |the )?(woman|female|girl|lady|man|male|boy)\b(?![-'])(?! or )")
_FEMALE = ("woman", "female", "girl", "lady")


def _gloss_sex(gloss: str) -> str | None:
    """``"f"`` or ``"m"`` when a gloss opens on a word for a woman or a man, else None."""
    m = _SEXED.match(gloss.lower())
    return None if m is None else "f" if m.group(1) in _FEMALE else "m"


def build_sexes(reader: Any) -> dict[str, str]:
    """Per noun synset filed under person.n.01 whose gloss opens on a word for a woman or a
    man, ``"f"`` or ``"m"``, from an NLTK WordNet reader."""
    person = reader.synset("person.n.01")
    out: dict[str, str] = {}
    for synset in reader.all_synsets("n"):
        sex = _gloss_sex(synset.definition())
        if sex and person in synset.closure(lambda s: s.hypernyms() + s.instance_hypernyms()):
            out[synset.name()] = sex
    return dict(sorted(out.items()))

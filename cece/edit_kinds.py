"""The closed sets of values an :class:`cece.edits.Edit` takes (its JSON fields ``op``, ``level``,
``class`` and ``status``), as types a checker holds callers to.

>>> STATUSES
('hallucinated', 'unverified', 'consequence', 'suggestion')
"""

from __future__ import annotations

from typing import Literal, get_args

#: What an edit does to the caption.
Op = Literal["replace", "delete", "insert"]
#: What an edit changes: a concept, a (subject, predicate, object) triple, a modifier, a number.
Level = Literal["object", "relation", "attribute", "count"]
#: The edit's class (:mod:`cece.edits`): Delete, Replace, Over-/Under-specialisation, Insert.
EditClass = Literal["D", "R", "O", "U", "I"]
#: What an edit is, once judged: a hallucination; a claim the image side neither supports nor
#: contradicts; a consequence of another edit; or a suggestion (U, I) that is no claim at all.
Status = Literal["hallucinated", "unverified", "consequence", "suggestion"]
STATUSES: tuple[Status, ...] = get_args(Status)

__all__ = ["STATUSES", "EditClass", "Level", "Op", "Status"]

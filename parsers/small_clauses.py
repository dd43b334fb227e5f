"""The object of a verb that spaCy's small model reads as the subject of what follows it.

In "A dirty car has *a boat* fastened over its roof", "The fireplace has *its door* shut", "A
crowd is watching *a woman* run down a street" or "A man wears *a hat and scarf* covering half
his face" the parser makes the noun the subject (``nsubj``) of a clause that is the verb's
complement (``ccomp``, ``dobj``), so the verb has no object: the car has nothing, the crowd
watches nothing. English reads such a noun as the verb's object, which the participle or bare
verb after it describes (a "small clause"). :func:`relate_small_clause_subjects` adds the verb's
relation to it; the clause keeps its own ("the boat fastened over the roof"). Only after a full
verb (not "is", which the parser gives such clauses when a caption misses a word: "A man is a
Scottish kilt is holding a rifle") and before a participle or a bare verb (not a finite clause:
"a sign saying *the honey is* raw").

>>> from parsers.caption import CaptionParser
>>> CaptionParser().parse("A dirty car has a boat fastened over its roof.").triples()
[('boat', 'fasten above', 'roof'), ('car', 'have', 'boat')]
"""

from __future__ import annotations

from parsers.draft_graph import Draft, flatten, verb_subject, verb_tokens

#: The tags of a clause's verb that make it a small clause: a participle or a bare verb.
_SMALL = frozenset(("VB", "VBG", "VBN"))


def relate_small_clause_subjects(d: Draft) -> None:
    """Relate the subject of every verb with a small clause and no object of its own to the
    small clause's subject (module docstring), as the verb's object."""
    doc = d.doc
    linked = {(k.subject, k.object) for k in d.links}
    for n in doc:
        clause = n.head
        if n.dep_ != "nsubj" or clause.dep_ not in ("ccomp", "dobj") or clause.tag_ not in _SMALL:
            continue
        verb = clause.head
        if (
            verb.pos_ != "VERB"
            or not verb.i < n.i < clause.i
            or any(c.dep_ == "dobj" and c.i != clause.i for c in verb.children)
        ):
            continue
        subject = verb_subject(verb)
        if subject is not None:
            d.relate([subject], flatten(n), verb_tokens(verb, n), linked)

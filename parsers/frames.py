"""The picture framing a caption, which names no object in it: "The image shows a dog", "In
this picture, ...", "A photo of a dog", "The view into a kitchen", "A close up of a cake"; and
the camera taking it, which is where a pose or a look is aimed ("smiling *at the camera*",
"posing *for the camera*"), not a thing in the picture; and where in the picture something is
("a tree *in the background*", "bananas *on top*", "a boat *in the middle*"), no thing either.

:func:`drop_frame_nouns` is one of the repairs of SceneGraphParser's output (:mod:`parsers.repairs`),
run on a :class:`~parsers.draft_graph.Draft`; what the caption says of the frame it says of what is
framed ("a close up of a cake *on a table*": the cake is on it).

>>> from parsers.caption import CaptionParser
>>> CaptionParser().parse("a close up of a cake on a table").triples()
[('cake', 'on', 'table')]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from knowledge import lemmatize, noun_synset
from parsers.draft_graph import DROPPED, Draft

#: Nouns that name the picture itself when they frame a caption ("The image shows ...").
FRAME_NOUNS = frozenset(
    ["image", "picture", "photo", "photograph", "snapshot", "shot", "scene", "view", "frame", "closeup", "close-up"]
)
#: The ways a view looks: "a view *into* a kitchen", "the view *from* a window".
VIEW_PREPOSITIONS = ("of", "into", "from", "through", "inside", "across", "down", "over", "out", "toward", "towards")
#: Verbs whose subject is the picture presenting its content.
PRESENTING_VERBS = frozenset(
    ["show", "depict", "feature", "capture", "display", "contain", "present", "portray", "showcase", "include"]
)
#: Who takes or sees the picture, named as where a look or a pose is aimed.
BEHIND_THE_PICTURE = frozenset(["camera", "photographer", "viewer"])
#: Verbs aimed at someone, and the prepositions that aim them ("looking *into* the camera").
AIMED_VERBS = frozenset(["look", "stare", "gaze", "glance", "peer", "smile", "grin", "pose", "mug", "wave", "point"])
AIMS = frozenset(["at", "for", "into", "in", "to", "toward", "towards"])
#: Nouns that say where in the picture, or where on a thing left unsaid, something is: "in the
#: background", "on top", "in front", "on the side" -- of nothing named, so no object.
POSITIONS = frozenset(
    ["background", "foreground", "distance", "top", "front", "back", "middle", "center", "centre", "side"]
)
#: The determiners of a position of nothing named ("on *each* side"; "a side" is a thing).
POSITION_DETERMINERS = frozenset(["the", "each", "either", "both"])
#: The prepositions that place a thing at such a position.
AT_POSITION = frozenset(["in", "on", "at", "to", "from", "toward", "towards"])


def drop_frame_nouns(d: Draft) -> None:
    """ "The image shows a dog", "In this picture, ...", "A photo of a dog", "The view into a
    kitchen", "A close up of a cake": the picture frames the caption; it is no object in the
    picture (a picture *on the wall* stays one). What the caption says of the frame it says of
    what is framed ("a close up of a cake *on a table*": the cake is on it)."""
    doc = d.doc
    for k, m in enumerate(d.mentions):
        root = doc[m.root]
        close_up = _close_up(root)
        if not close_up and (
            root.lemma_.lower() not in FRAME_NOUNS
            or root.tag_ != "NN"
            or any(c.dep_ == "nummod" for c in root.children)
            or _names_a_thing(root)
        ):
            continue  # "three photographs of people" counts pictures: they are the content
        presents = root.dep_ in ("nsubj", "nsubjpass") and root.head.lemma_.lower() in PRESENTING_VERBS
        framing = (
            root.dep_ == "pobj"
            and root.head.lower_ in ("in", "from")
            and any(c.dep_ == "det" and c.lower_ in ("the", "this", "that") for c in root.children)
        )
        # "a view of / into / from / over ...": a view is where the camera looks, whatever the way
        looks = ("of",) if root.lemma_.lower() != "view" else VIEW_PREPOSITIONS
        ways = [c for t in (root, *(c for c in root.children if c.lower_ == "up")) for c in t.children]
        ways = [c for c in ways if c.dep_ == "prep" and c.lower_ in looks]
        of_what = bool(ways) and root.dep_ in ("ROOT", "nsubj")
        if presents or framing or of_what:
            m.alias = DROPPED
            of = [w for w in ways if w.lower_ == "of"]
            framed = next((d.tok2m[c.i] for w in of for c in w.children if c.dep_ == "pobj"), -1)
            for link in d.links if of_what and framed >= 0 else ():
                if link.subject == k and not any(doc[t].lower_ in ("of", "up") for t in link.tokens):
                    link.subject = framed


def drop_the_camera(d: Draft) -> tuple[tuple[int, int], ...]:
    """Drop "the camera" a look or a pose is aimed at (:func:`behind_the_picture`) with its
    relations; returns the char spans of its words, which name no lost thing either
    (:func:`parsers.recovery.recover_nouns`).

    >>> from parsers.caption import CaptionParser
    >>> CaptionParser().parse("A dog in a room staring at the camera.").triples()
    [('dog', 'in', 'room')]
    """
    return _drop_where(d, behind_the_picture)


def drop_positions(d: Draft) -> tuple[tuple[int, int], ...]:
    """Drop the positions that name no object (:func:`names_a_position`) with their relations;
    returns the char spans of their words, which name no lost thing either.

    >>> from parsers.caption import CaptionParser
    >>> parser = CaptionParser()
    >>> parser.parse("Pancakes with bananas on top.").triples()
    [('pancake', 'have', 'banana')]
    >>> [c.lemma for c in parser.parse("A tree in the background.").concepts]
    ['tree']
    """
    return _drop_where(d, names_a_position)


def _drop_where(d: Draft, names_nothing: Callable[[Any], bool]) -> tuple[tuple[int, int], ...]:
    """Drop the mentions whose root noun ``names_nothing`` says is no thing in the picture; the
    char spans of their words."""
    spans = []
    for m in d.mentions:
        root = d.doc[m.root]
        if m.alias is None and names_nothing(root):
            m.alias = DROPPED
            spans.append((root.idx, root.idx + len(root)))
    return tuple(spans)


def names_a_position(root: Any) -> bool:
    """Whether noun ``root`` says where something is and nothing more: a bare position after a
    preposition ("on top", "in the background", "on each side"). A position of something named
    is a part of it ("on the side *of the road*", "on *its* back"), and "a side", "two sides"
    are things counted."""
    if root.lower_ not in POSITIONS or root.dep_ != "pobj" or root.head.lower_ not in AT_POSITION:
        return False
    if any(c.dep_ == "det" and c.lower_ not in POSITION_DETERMINERS for c in root.children):
        return False
    return not any(c.dep_ in ("poss", "nummod", "compound") or c.lower_ == "of" for c in root.children)


def behind_the_picture(root: Any) -> bool:
    """Whether noun ``root`` is "the camera" (or photographer, viewer) a look or a pose is aimed
    at ("smiling at the camera", "looking up into the camera", "facing the camera"); "a man
    holding *the camera*", and a camera with a phrase of its own ("the camera *on its tripod*",
    where the parse hangs the phrase from it), are things in the picture. A caption's telegraphic
    "looking at camera", with no determiner, means the same; "at *a* camera", "at *his* camera" do
    not."""
    if root.lemma_.lower() not in BEHIND_THE_PICTURE:
        return False
    determiners = [c for c in root.children if c.dep_ in ("det", "poss")]
    if not (any(c.lower_ == "the" for c in determiners) or not determiners and root.tag_ == "NN"):
        return False
    if any(c.dep_ in ("prep", "relcl", "acl") for c in root.children):  # "the camera *on a tripod*": in it
        return False
    if root.dep_ == "dobj":
        return lemmatize(root.head.lower_, "v") == "face"
    if root.dep_ != "pobj" or root.head.lower_ not in AIMS:
        return False
    verb = root.head.head
    while verb.dep_ in ("advmod", "prt") and verb.head.i != verb.i:  # "looking *up* at", "*directly* at"
        verb = verb.head
    return lemmatize(verb.lower_, "v") in AIMED_VERBS  # (spaCy's lemma of a retagged "stares" is "star")


def _close_up(root: Any) -> bool:
    """Whether noun ``root`` is a close up, the picture's framing ("a close up of", "a close-up
    of", "a closeup of")."""
    word = root.lower_
    if word == "closeup":
        return True
    if word == "close" and root.tag_ == "NN":
        return any(c.lower_ == "up" for c in root.children)
    return word == "up" and any(c.lower_ == "close" for c in root.children)


def _names_a_thing(root: Any) -> bool:
    """Whether a compound before the frame noun makes it a thing WordNet knows ("a picture
    *frame* of several men" is a frame on the wall, not the photo's frame)."""
    return any(
        c.dep_ == "compound" and noun_synset(f"{c.lower_} {root.lower_}") != noun_synset(root.lower_)
        for c in root.lefts
    )

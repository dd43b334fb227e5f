"""Word senses chosen by context: the sense of a caption word that the image speaks of.

Concepts map to the first WordNet sense of their lemma, which is often not the one a caption
means: "branch" is first an office of an organisation, "shot" a gunshot. When a caption concept
and an image concept are far apart under their first senses but some pair of their senses is
close (the same synset, or ``max_distance`` hypernym edges apart), both take those senses: the
image is the context that disambiguates the caption and vice versa. Pairs are taken closest
first; every concept changes sense at most once, and a concept whose first sense already has a
close partner, or a kind of it on the other side however far below, keeps it (a word is re-read
only when the image calls for it: the references' "food" stays the food an omelette is, three
edges down, though "bread" beside it is nearer the sense "solid food"). A caption's general word
is read in the sense that names a kind of what the references name however far above it ("a
*plant* in a pot" where they see a tree, six edges below the plant that grows), and rather than
a first sense as near that is only a sibling of what they name ("playing an *instrument*" where
they see a piano, not the device their keyboard is a sibling of): saying less is not saying
something else. A reference's general word is read so far only where the references name no
other kind of it: their "appliances" are the caption's stove, three edges down, but "on a plant"
beside the caption's rose would make the rose merely over-specific where the references'
flowers show it was swapped.

>>> from parsers import Concept, SceneGraph
>>> cap = SceneGraph([Concept("tree branch", "tree branch", "limb.n.02")])
>>> img = SceneGraph([Concept("branch", "branch", "branch.n.01")])
>>> _, img2 = disambiguate(cap, img)
>>> img.concepts[0].synset, img2.concepts[0].synset
('branch.n.01', 'branch.n.02')
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from knowledge import ancestors, distance_matrix, noun_senses, noun_synset
from parsers import Concept, SceneGraph


def _senses(c: Concept, limit: int, min_count: int = 0) -> list[str]:
    if not c.synset:
        return []
    senses = [s for s in noun_senses(c.lemma, min_count) if s != c.synset][: max(limit - 1, 0)]
    return [c.synset, *senses]


def _shared_sense(c: Concept, g: Concept, c_senses: list[str], g_senses: list[str]) -> str | None:
    """The first sense of one word when the other can also name it, however rarely: "case" read
    as the "display case" it is next to (``c_senses``, ``g_senses``: each word's senses, first
    sense first). Any shared sense would be too loose: "home" and "house" can both mean a family."""
    if not (c.synset and g.synset) or c.synset == g.synset:
        return None
    if c.synset in g_senses:
        return c.synset
    return g.synset if g.synset in c_senses else None


def _general_sense(above: dict[str, int], senses: list[str], max_distance: int | None) -> tuple[str, int] | None:
    """A sense of the other word, however rare, that is a kind ``max_distance`` or fewer hypernym
    edges above the first sense of this one (any number when None; ``above``: its ancestors and
    their distances), with its distance: "monitor" read as the display a "computer monitor" is a
    kind of, not as its first sense, a school proctor."""
    if max_distance is None:
        near = [(above[s], s) for s in senses[1:] if above.get(s, 0) > 0]
    else:
        near = [(above[s], s) for s in senses[1:] if 0 < above.get(s, max_distance + 1) <= max_distance]
    return (min(near)[1], min(near)[0]) if near else None


def _reference_general_sense(
    above: dict[str, int], senses: list[str], max_distance: int, image_above: list[dict[str, int]], j: int
) -> tuple[str, int] | None:
    """A sense of reference word ``j`` (``senses``) that is a kind above the caption's first sense
    (``above``), with its distance: within ``max_distance``, or however far when no other thing
    the references name is a kind of it (``image_above``: their ancestors). Their "appliances"
    are the caption's stove, three edges down, where they name no other appliance; but their
    "plant" is not the caption's rose where they also name a flower, which the rose was swapped
    for."""
    general = _general_sense(above, senses, None)
    if general is None or general[1] <= max_distance:
        return general
    alone = not any(general[0] in a for k, a in enumerate(image_above) if k != j)
    return general if alone else None


def disambiguate(
    caption: SceneGraph, image: SceneGraph, *, max_senses: int = 8, max_distance: int = 2, min_count: int = 1
) -> tuple[SceneGraph, SceneGraph]:
    """Copies of both graphs with context-chosen senses (see the module docstring).

    ``max_senses`` bounds the senses tried per word (WordNet orders them by frequency);
    ``min_count`` leaves out senses tagged fewer times in WordNet's sense-tagged corpus (rare
    readings such as "goat" for a person born under Capricorn); ``max_distance`` is how close a
    pair of senses must be to be adopted.
    """
    cap_senses = [_senses(c, max_senses, min_count) for c in caption.concepts]
    img_senses = [_senses(g, max_senses, min_count) for g in image.concepts]
    flat_c = [s for ss in cap_senses for s in ss]
    flat_g = [s for ss in img_senses for s in ss]
    if not flat_c or not flat_g:
        return caption, image
    d = distance_matrix(flat_c, flat_g, max_distance)  # nearer pairs are all that count here
    rows = np.cumsum([0] + [len(ss) for ss in cap_senses])
    cols = np.cumsum([0] + [len(ss) for ss in img_senses])
    cap_above = [ancestors(c.synset) if c.synset else {} for c in caption.concepts]
    img_above = [ancestors(g.synset) if g.synset else {} for g in image.concepts]
    # How close each word's first sense already is to a partner on the other side (0 for a kind
    # of it, however far below): only a strictly closer reading re-reads it.
    settled_c: dict[int, float] = {}
    settled_g: dict[int, float] = {}
    for i, cs in enumerate(cap_senses):
        for j, gs in enumerate(img_senses):
            if not cs or not gs:
                continue
            first = float(d[rows[i], cols[j]])
            near_c = 0.0 if caption.concepts[i].synset in img_above[j] else first
            near_g = 0.0 if image.concepts[j].synset in cap_above[i] else first
            if near_c <= max_distance:
                settled_c[i] = min(settled_c.get(i, near_c), near_c)
            if near_g <= max_distance:
                settled_g[j] = min(settled_g.get(j, near_g), near_g)
    # The closest pair of senses of every two words at once: most pairs have none close enough
    # to try, and those are passed over without looking at their senses one by one.
    c_with = [i for i, ss in enumerate(cap_senses) if ss]
    g_with = [j for j, ss in enumerate(img_senses) if ss]
    closest = np.full((len(cap_senses), len(img_senses)), np.inf)
    closest[np.ix_(c_with, g_with)] = np.minimum.reduceat(
        np.minimum.reduceat(d, rows[c_with], axis=0), cols[g_with], axis=1
    )
    for j, g in enumerate(image.concepts):
        if _named_outright(g):
            settled_g[j] = 0.0  # the references' own words chose its sense: the caption does not re-read it
    candidates = []
    for i, cs in enumerate(cap_senses):
        for j, gs in enumerate(img_senses):
            if not cs or not gs or (i in settled_c and j in settled_g):
                continue  # both keep their first senses whatever this pair could say
            if not closest[i, j] <= max_distance or not closest[i, j] < d[rows[i], cols[j]]:
                continue  # no pair of their senses is close enough, or closer than their first senses
            block = d[rows[i] : rows[i + 1], cols[j] : cols[j + 1]]
            a, b = np.unravel_index(
                np.argmin(block + 1e-3 * np.add.outer(np.arange(len(cs)), np.arange(len(gs)))), block.shape
            )
            if block[a, b] <= max_distance and block[a, b] < block[0, 0]:
                candidates.append((float(block[a, b]), int(a + b), i, j, cs[a], gs[b], False))
    # Two words that share a synset mean that synset, even in a reading too rare to try above.
    cap_all = [_senses(c, 4 * max_senses) for c in caption.concepts]
    img_all = [_senses(g, 4 * max_senses) for g in image.concepts]
    for i, c in enumerate(caption.concepts):
        for j, g in enumerate(image.concepts):
            if i in settled_c and j in settled_g:
                continue
            shared = _shared_sense(c, g, cap_all[i], img_all[j])
            if shared:
                candidates.append((0.0, 0, i, j, shared, shared, False))
                continue
            general = _general_sense(img_above[j], cap_all[i], None)  # the caption's word: however far
            if general:
                candidates.append((general[1], 0, i, j, general[0], img_senses[j][0], True))
            general = _reference_general_sense(cap_above[i], img_all[j], max_distance, img_above, j)
            if general:
                candidates.append((general[1], 0, i, j, cap_senses[i][0], general[0], False))
    new_c: dict[int, str] = {}
    new_g: dict[int, str] = {}
    for dist, _, i, j, sc, sg, kind in sorted(candidates):
        # a reading that names a kind of what they name outdoes a first sense as near that is only
        # a sibling: "playing an *instrument*" beside their piano, not a device like their keyboard
        if (
            i in new_c
            or i in settled_c
            and sc != cap_senses[i][0]
            and not (dist < settled_c[i] or kind and dist == settled_c[i])
        ):
            continue
        if new_g.get(j, sg) != sg or (j in settled_g and sg != img_senses[j][0] and not dist < settled_g[j]):
            continue
        new_c[i], new_g[j] = sc, sg
    if not new_c and not new_g:
        return caption, image
    return _with(caption, new_c), _with(image, new_g)


def _named_outright(g: Concept) -> bool:
    """Whether another name of ``g`` names its sense outright, where its own word's first sense
    is another: the references' "bike" that one of them calls a "bicycle"
    (:func:`parsers.references.from_references`)."""
    return bool(g.synset) and g.synset != noun_synset(g.lemma) and any(noun_synset(a) == g.synset for a in g.aliases)


def _with(graph: SceneGraph, synsets: dict[int, str]) -> SceneGraph:
    concepts = [replace(c, synset=synsets[i]) if i in synsets else c for i, c in enumerate(graph.concepts)]
    return replace(graph, concepts=concepts, relations=list(graph.relations))

"""FaithScore stage 1 without a model: which sub-sentences *describe* the image.

FaithScore checks only descriptive sub-sentences -- what is in the image, checkable by looking:
objects, attributes, counts, positions, actions ("a young girl is standing on a sidewalk",
"holding a red umbrella", "white"). Analytical ones are skipped -- they cannot be checked by
looking, so a checker would count them against a faithful answer:

- framing and connectives: "In the image", "From the image", "Additionally", "On the other hand";
- inference and hedging: "it can be inferred that ...", "suggesting that ...", "the cart can make
  it difficult ...", "as it seems to have found a cozy spot", "giraffes are known to ...";
- interpretation added by a participle or relative clause: "adding a touch of color", "making it
  a memorable moment", "which shields her from the rain", "creating a lively atmosphere";
- purpose, advice and benefit: "to stay dry", "for the cat to rest on", "serves as a storage
  solution", "One of the main challenges is ...";
- evaluation: "The image captures the beauty and grace of ...", "a cozy and inviting
  atmosphere", "visually appealing".

:func:`recognise` reads each sub-sentence with spaCy (the project's pipeline) and decides by the
clause's shape and a small lexicon of inference, purpose and evaluation words. A fragment without
a verb that continues the previous sub-sentence ("..., white", "and orange fur"; "such as
reading") takes its label: a list goes on saying what it was saying.

>>> recognise(["In the image", " a dog is lying on a red couch", " white", " adding a cozy touch to the room"])
[0, 1, 1, 0]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

DESCRIPTIVE, ANALYTICAL = 1, 0

#: Words that open a fragment about the picture, not its content ("In the image").
FRAME_NOUNS = frozenset("image picture photo photograph scene background foreground view shot frame".split())
#: Discourse connectives that are a sub-sentence of their own ("Additionally", "Firstly").
CONNECTIVES = frozenset("""additionally also firstly secondly thirdly lastly finally furthermore moreover
overall however therefore thus hence besides meanwhile consequently instead otherwise alternatively
similarly likewise""".split())
#: Lemmas of verbs that infer, interpret, evaluate or give a purpose or benefit.
#: ("The image shows / depicts ..." is no inference: it says what is there.)
INFERENCE_VERBS = frozenset("""suggest indicate imply infer hint demonstrate reveal signify symbolize
symbolise represent convey evoke reflect emphasize emphasise highlight showcase seem believe assume guess
know think expect consider speculate""".split())
EFFECT_VERBS = frozenset("""add make create provide help allow enable contribute serve shield protect
keep ensure offer encourage facilitate draw lead invite enhance complement enjoy appreciate need require
present prefer avoid engage share communicate express intend design prepare""".split())
#: Participles that open an interpreting clause ("adding a touch of ...", "making it ...").
INTERPRETING_PARTICIPLES = frozenset("""adding making creating providing showcasing highlighting
emphasizing emphasising enjoying leading suggesting indicating implying reflecting evoking conveying
contributing allowing enabling ensuring offering enhancing inviting symbolizing symbolising
demonstrating revealing signifying""".split())
#: Modal verbs and hedges: what may be, not what is.
MODALS = frozenset("can could may might would should must shall".split())
HEDGES = frozenset("""likely possibly perhaps probably presumably apparently seemingly supposedly
potentially typically usually generally commonly often""".split())
#: Words of evaluation, feeling and abstraction a viewer adds to a picture.
EVALUATIVE = frozenset("""beautiful beauty lovely pleasant charming cozy cosy inviting appealing attractive
striking stunning majestic grace graceful serene peaceful tranquil calm lively vibrant cheerful playful
joyful joy fun delightful memorable enjoyable comfortable comfort relaxing relaxed warm warmth softness
welcoming harmonious harmony elegant elegance picturesque scenic idyllic whimsical nostalgic dramatic
captivating engaging impressive perfect ideal practical convenient convenient useful functional
important essential necessary difficult challenging challenge challenges possibility purpose reason
atmosphere ambiance ambience mood vibe feeling sense touch moment enthusiasm excitement curiosity
interest satisfaction positivity companionship security safety protection opportunity opportunities
sight experience typical characteristic distinctive idea""".split())
#: Subjects that make a statement about ideas, not things ("The purpose of ...", "One possibility").
ABSTRACT_SUBJECTS = frozenset("""purpose reason possibility connection combination presence challenge
challenges way idea goal function role benefit advantage""".split())


def recognise(sub_sentences: Sequence[str]) -> list[int]:
    """1 (descriptive) or 0 (analytical) for each sub-sentence of one answer, in order (see the
    module docstring). The order matters: a verbless continuation takes its predecessor's label.

    >>> recognise(["The cat is lying on its side", " which suggests it is relaxed"])
    [1, 0]
    """
    labels: list[int] = []
    for text in sub_sentences:
        doc = _parse(text.strip())
        label = _label(doc, labels[-1] if labels else None)
        labels.append(label)
    return labels


@lru_cache(maxsize=1)
def _nlp() -> Any:
    from parsers.spacy_model import load_spacy

    return load_spacy(exclude=("ner",))


@lru_cache(maxsize=4096)
def _parse(text: str) -> Any:
    return _nlp()(text)


def _label(doc: Any, previous: int | None) -> int:
    words = [t for t in doc if not t.is_punct and not t.is_space]
    if not words:
        return ANALYTICAL
    lower = [t.lower_ for t in words]
    lemmas = {t.lemma_.lower() for t in words} | set(lower)
    verbs = [t for t in words if t.pos_ in ("VERB", "AUX")]
    first = words[0]
    if len(words) <= 4 and (lower[0] in CONNECTIVES or " ".join(lower) in ("on the other hand", "in addition",
                                                                           "in conclusion", "in summary")):
        return ANALYTICAL
    if not verbs:
        if first.pos_ == "ADP" and FRAME_NOUNS & set(lower):
            return ANALYTICAL  # "In the image", "From the picture", "In the background"
        if EVALUATIVE & lemmas or ABSTRACT_SUBJECTS & lemmas:
            return ANALYTICAL
        continuation = first.is_lower or lower[0] in ("and", "or", "such", "including", "like", "as")
        if continuation and previous is not None:
            return previous  # a list goes on saying what it was saying
        return DESCRIPTIVE
    if len(words) <= 2 and first.is_lower and previous is not None and not any(t.dep_.startswith("nsubj") for t in words):
        return previous  # "rowing", "or hiking": one more item of the list before
    if _infers(words, lower, lemmas):
        return ANALYTICAL
    return DESCRIPTIVE


def _infers(words: list[Any], lower: list[str], lemmas: set[str]) -> bool:
    """Whether a clause hedges, infers, interprets, gives a purpose or evaluates."""
    first = words[0]
    if (MODALS & set(lower) and not _can_be_seen(words)) or HEDGES & set(lower):
        return True
    if lower[0] in INTERPRETING_PARTICIPLES or (first.tag_ == "VBG" and first.lemma_.lower() in EFFECT_VERBS):
        return True
    if INFERENCE_VERBS & lemmas:
        # "appears to be" / "seems" hedges what follows, except a plain visible state
        return not _plain_appearance(words)
    heads = [t for t in words if t.dep_ in ("ROOT", "relcl", "advcl", "conj", "xcomp", "ccomp")]
    if any(t.lemma_.lower() in EFFECT_VERBS and t.pos_ == "VERB" for t in heads):
        return True
    if lower[0] in ("as", "because", "since", "so", "by", "especially") and len(words) > 3:
        return True  # a reason, a manner or a concession: the answer explains
    if any(t.lower_ == "to" and t.head.pos_ == "VERB" and t.dep_ == "aux" and t.head.dep_ in ("advcl", "acl", "xcomp")
           and t.head.lemma_.lower() not in ("be",) for t in words) and _purpose(words):
        return True
    if EVALUATIVE & lemmas:
        return True
    subject = next((t for t in words if t.dep_ in ("nsubj", "nsubjpass")), None)
    if subject is not None and subject.lemma_.lower() in ABSTRACT_SUBJECTS:
        return True
    return False


def _can_be_seen(words: list[Any]) -> bool:
    """"can be seen" / "is visible": a modal that reports what is in view, not a possibility."""
    return any(t.lemma_.lower() in ("see", "spot", "notice", "observe") and t.tag_ == "VBN" for t in words)


def _purpose(words: list[Any]) -> bool:
    """A to-infinitive that says what for ("to stay dry"), not what is seen ("seems to hold")."""
    return any(t.lower_ == "to" and t.dep_ == "aux" and t.head.dep_ in ("advcl", "acl") for t in words) or \
        any(t.lower_ in ("for", "in") and t.nbor(1).lower_ == "order" for t in words[:-1] if t.i + 1 < len(t.doc))


def _plain_appearance(words: list[Any]) -> bool:
    """"appears to be smiling" / "seems to be sitting": a visible state put mildly."""
    for t in words:
        if t.lemma_.lower() in ("appear", "seem") and any(c.tag_ == "VBG" or c.dep_ == "xcomp" and c.tag_ == "VBG"
                                                          for c in t.subtree):
            return True
    return False

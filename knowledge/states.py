"""The state a verb puts its subject in -- a posture or a way of moving -- and which states
exclude each other.

"A man standing on a skateboard" and "a man sitting on a skateboard" put the man in the same
place but in two postures that cannot both hold; "a bus parked on the street" and "a bus driving
down a street" in two states of motion. Role matching compares where things are
(:func:`knowledge.relation_key`: both are "on"); this module says what the verb says of the
subject itself, whatever the relation's other end.

The classes are anchored in WordNet's verb hierarchy: a verb is in a class when one of its first
:data:`STATE_SENSES` senses is an anchor synset or a troponym of one ("jog" is a kind of
``run.v.01``, "perch" and "squat" kinds of ``sit.v.01``, "stroll" and "wade" of ``walk.v.01``,
"sleep" of ``lie.v.02``). Each class has three dimensions (Levin's verbs of assuming a position,
of spatial configuration and of manner of motion):

=========  =======================================  ========  ======  =======  ==========
class      anchor synsets                           posture   motion  manner   transitive
=========  =======================================  ========  ======  =======  ==========
sit        sit.v.01, sit_down.v.01                  seated    -       -        no
stand      stand.v.01                               upright   still   -        no
lie        lie.v.02                                 lying     -       -        no
kneel      kneel.v.01                               kneeling  -       -        no
crouch     crouch.v.01                              crouched  -       -        no
park       park.v.01, park.v.02                     -         still   -        no
walk       walk.v.01                                upright   moving  walk     yes
run        run.v.01                                 upright   moving  run      no
swim       swim.v.01                                -         moving  swim     no
fly        fly.v.01                                 airborne  moving  fly      no
ride       ride.v.01, ride.v.02                     -         -       carried  yes
drive      drive.v.01, drive.v.02                   -         moving  carried  yes
travel     travel.v.01                              -         moving  -        no
=========  =======================================  ========  ======  =======  ==========

Two states *exclude* each other when they give different values of one dimension ("-" says
nothing; postures and gaits are a person's or an animal's: a thing that sits, stands or lies
somewhere rests there, in no posture -- "a car sits in the garage" is parked, not driving -- and
a thing that runs or walks moves, on no legs -- "a train running down the tracks" travels; a
bird, reptile, fish or insect that sits, stands or lies somewhere rests there too, :data:`Body`):
sitting and standing (posture), standing and walking (motion), walking and running or riding
(manner), parked and driving (motion), lying and running (posture). Choices the table makes,
and why:

- ``stand`` and ``park`` are at rest (a caption's "standing" is not "walking"); sitting, lying or
  kneeling say nothing of motion (one sits on a moving bus).
- ``ride`` says how the rider is carried, not that the rider's body moves: a skateboarder stands
  while riding, a horseman sits. ``drive`` said of a vehicle is its travel, so it moves.
- ``travel`` (move, go, head) is any motion: it only excludes being at rest.
- "parked" is the resultative state of ``park.v.01/02`` (maneuvering into a space): at rest.
- A verb counts *transitively* (its first sense only) ("a man walking a dog", "riding a horse", "driving a car") only
  where its subject is still in that state; "flying a kite" or "parking a car" are not.
- "lay" is read as "lie" where it has no object ("a dog laying on a bed"): WordNet lists "lay"
  as a form of "lie", and "lay" itself needs an object.

>>> state_of_predicate("sit on"), state_of_predicate("stand next to"), state_of_predicate("fly")
('sit', 'stand', None)
>>> states_exclude("sit", "stand"), states_exclude("stand", "ride"), states_exclude("park", "drive")
(True, False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from knowledge.concepts import morphy_forms, verb_synset
from knowledge.distance import is_hypernym

#: Senses of a verb tried, in WordNet order ("lie": 1 is "be located", 2 is "be lying").
STATE_SENSES = 3


@dataclass(frozen=True)
class State:
    """One state class: its anchor synsets and what it says on each dimension (None: nothing)."""

    name: str
    anchors: tuple[str, ...]
    posture: str | None = None
    motion: str | None = None
    manner: str | None = None
    transitive: bool = False


#: The classes, most specific first (a verb takes the first class one of its senses falls in).
STATES: tuple[State, ...] = (
    State("sit", ("sit.v.01", "sit_down.v.01"), posture="seated"),
    State("stand", ("stand.v.01",), posture="upright", motion="still"),
    State("lie", ("lie.v.02",), posture="lying"),
    State("kneel", ("kneel.v.01",), posture="kneeling"),
    State("crouch", ("crouch.v.01",), posture="crouched"),
    State("park", ("park.v.01", "park.v.02"), motion="still"),
    State("walk", ("walk.v.01",), posture="upright", motion="moving", manner="walk", transitive=True),
    State("run", ("run.v.01",), posture="upright", motion="moving", manner="run"),
    State("swim", ("swim.v.01",), motion="moving", manner="swim"),
    State("fly", ("fly.v.01",), posture="airborne", motion="moving", manner="fly"),
    State("ride", ("ride.v.01", "ride.v.02"), manner="carried", transitive=True),
    State("drive", ("drive.v.01", "drive.v.02"), motion="moving", manner="carried", transitive=True),
    State("travel", ("travel.v.01",), motion="moving"),
)
BY_NAME = {s.name: s for s in STATES}
#: The participle form a state takes before a noun or after "is": "parked", else "-ing".
RESULTATIVE = frozenset({"park"})
#: Verbs read as another without an object: "laying on a bed" is lying.
NO_OBJECT_FORMS = {"lay": "lie"}


@lru_cache(maxsize=8192)
def state_of_verb(word: str, transitive: bool = False) -> str | None:
    """The state class of verb ``word`` (any inflection), or None; ``transitive`` when it has a
    direct object (only some states hold of the subject then)."""
    forms = morphy_forms(word.lower(), "v")
    if not transitive:
        forms = [NO_OBJECT_FORMS.get(f, f) for f in forms]
    for form in dict.fromkeys(forms):
        # with an object, only the first sense: "pulling a cart" is not its third ("steer")
        for k in range(1 if transitive else STATE_SENSES):
            synset = verb_synset(form, k)
            if synset is None:
                continue
            for s in STATES:
                if any(synset == a or is_hypernym(a, synset) for a in s.anchors):
                    if transitive and not s.transitive:
                        return None
                    return s.name
    return None


@lru_cache(maxsize=65536)
def state_of_predicate(canonical: str) -> str | None:
    """The subject's state a canonical predicate states ("sit on" -> sit, "ride" -> ride), or
    None. A bare verb is transitive (its object follows); a verb with a preposition is not."""
    words = canonical.split()
    if not words or words[0] == "not":
        return None
    from knowledge.predicates import _is_verb  # the same test of verbhood as canonical forms

    if not _is_verb(words[0]):
        return None
    return state_of_verb(words[0], transitive=len(words) == 1)


def state_of_modifier(word: str) -> str | None:
    """The state a participle before a noun states ("a parked car", "a flying bird"), or None."""
    w = word.lower()
    if not w.endswith(("ing", "ed")):
        return None
    return state_of_verb(w)


_POSTURES = frozenset({"seated", "upright", "lying", "kneeling", "crouched"})
#: The postures that a creature with no seat to sit on only rests in ("a bird sitting on a branch").
_RESTING = frozenset({"seated", "upright", "lying"})
#: Manners of moving on legs, which only a person or an animal has.
_GAITS = frozenset({"walk", "run"})

#: What the posture verbs of a subject can tell apart (:func:`body_of`):
#:
#: - ``"mammal"``: a person or a mammal sits, stands and lies in three postures;
#: - ``"animal"``: a bird, reptile, amphibian, fish or invertebrate that "sits", "stands" or
#:   "lies" somewhere rests there, and the words are one: in the training and dev references, of the
#:   sets where a bird stands 10 of 15 have another reference where it sits, of an insect's 5 of 9;
#:   of a mammal's 13 of 66, of a person's 36 of 302. Flying, kneeling and crouching exclude that
#:   rest; moving does not, which a photograph rarely shows of such a creature: of the sets where an
#:   insect sits, lies or rests 10 of 26 have another reference where it crawls, walks or moves,
#:   of a reptile's 7 of 11; of a person's 5 of 216. Walking and running keep their gaits;
#: - ``"thing"``: no posture and no gait (module docstring).
Body = Literal["mammal", "animal", "thing"]

#: The animals that are no mammal (and whose sitting, standing and lying are one).
_NOT_MAMMALS = ("bird.n.01", "reptile.n.01", "amphibian.n.03", "fish.n.01", "invertebrate.n.01")


def _dimensions(s: State, body: Body) -> tuple[str | None, str | None, str | None]:
    if body == "mammal":
        return s.posture, s.motion, s.manner
    if body == "animal":
        if s.posture in _RESTING and s.motion != "moving":
            return "resting", None, s.manner
        return (None if s.posture in _RESTING else s.posture), s.motion, s.manner
    # What has no posture rests where it sits, stands or lies: "a sandwich sitting (lying,
    # standing) on a plate" says where it is, and that it rests there: of the 85 training
    # reference sets where a vehicle "sits", 68 have another reference saying it is parked or
    # stopped, 12 one saying it moves.
    motion = "still" if s.posture in _POSTURES and s.motion is None else s.motion
    # Nor has a thing a gait: "a train running down the tracks" moves, as the references'
    # "travels" and "moving" say.
    return None, motion, None if s.manner in _GAITS else s.manner


def states_exclude(a: str | None, b: str | None, body: Body = "mammal") -> bool:
    """Whether state classes ``a`` and ``b`` cannot both hold of one subject with ``body``
    (:data:`Body`; module docstring).

    >>> states_exclude("sit", "lie"), states_exclude("sit", "lie", "thing"), states_exclude("sit", "stand", "animal")
    (True, False, False)
    >>> states_exclude("run", "drive"), states_exclude("run", "drive", "thing"), states_exclude("sit", "fly", "animal")
    (True, False, True)
    """
    if a is None or b is None or a == b:
        return False
    x, y = _dimensions(BY_NAME[a], body), _dimensions(BY_NAME[b], body)
    return any(p is not None and q is not None and p != q for p, q in zip(x, y, strict=True))


def states_agree(a: str | None, b: str | None, body: Body = "mammal") -> bool:
    """Whether state classes ``a`` and ``b`` say the same of a subject with ``body``: the same
    class, or two that a bird's sitting and standing are ("animal") or a car's sitting and being
    parked ("thing").

    >>> states_agree("sit", "stand", "animal"), states_agree("sit", "stand"), states_agree("sit", "park", "thing")
    (True, False, True)
    """
    if a is None or b is None:
        return False
    x = _dimensions(BY_NAME[a], body)
    return a == b or (x == _dimensions(BY_NAME[b], body) and any(v is not None for v in x))


#: People, which WordNet files as a group (noun.group) and not under noun.person.
_ANIMATE_GROUPS = frozenset(("people.n.01",))


def is_animate(synset: str | None) -> bool:
    """Whether a noun synset names a person or an animal (what has a posture).

    >>> is_animate("man.n.01"), is_animate("person.n.01"), is_animate("people.n.01"), is_animate("bench.n.01")
    (True, True, True, False)
    """
    from knowledge.distance import filed_as

    return synset is not None and (synset in _ANIMATE_GROUPS or filed_as(synset) in ("noun.person", "noun.animal"))


@lru_cache(maxsize=8192)
def body_of(synset: str | None) -> Body:
    """What the posture verbs of a subject of noun ``synset`` can tell apart (:data:`Body`).

    >>> body_of("man.n.01"), body_of("dog.n.01"), body_of("owl.n.01"), body_of("bee.n.01"), body_of("bus.n.01")
    ('mammal', 'mammal', 'animal', 'animal', 'thing')
    """
    if not is_animate(synset):
        return "thing"
    assert synset is not None
    return "animal" if any(is_hypernym(a, synset) for a in _NOT_MAMMALS) else "mammal"


def participle_tag(state: str) -> str:
    """The Penn tag of the participle that states ``state`` ("parked" VBN, "sitting" VBG)."""
    return "VBN" if state in RESULTATIVE else "VBG"

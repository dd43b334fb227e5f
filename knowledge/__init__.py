"""WordNet knowledge for halcece: offline provisioning, concept -> synset, distances.

Everything hot runs on a cached index of the noun + verb hierarchy (:mod:`knowledge.hierarchy`),
never on NLTK objects; NLTK is only used once, to build that index.

>>> from knowledge import noun_synset, path_distance
>>> path_distance(noun_synset("dogs"), noun_synset("cat"))
4
"""

from knowledge.concepts import CAPTION_PLURALS, lemmatize, names_portion, noun_senses, noun_synset, verb_synset
from knowledge.contents import is_container, made_to_hold, puts_inside
from knowledge.coreference import another_name, corefer_distance, only_people, people_clash, plain_person, sex_of
from knowledge.distance import (
    UnknownSynsetError,
    ancestors,
    distance_matrix,
    filed_as,
    is_hypernym,
    lexname,
    lowest_common_hypernym,
    num_ancestors,
    path_distance,
    root_distance,
    wup_similarity,
)
from knowledge.hierarchy import Hierarchy, get_hierarchy
from knowledge.objecthood import THINGS, ball_of_game, is_garment, is_portion, is_thing, objecthood
from knowledge.plurals import one_pair, plural_only
from knowledge.predicates import canonical_predicate, predicate_verb_synset
from knowledge.provision import (
    WordNetMissingError,
    WordNetSource,
    cache_dir,
    find_wordnet,
    load_wordnet,
)
from knowledge.relations import (
    PREPOSITIONS,
    aimed,
    canonicals_agree,
    canonicals_contradict,
    inverse_key,
    is_foliage,
    place_part,
    predicates_agree,
    predicates_contradict,
    relation_key,
    verbs_exclude,
)
from knowledge.states import Body, body_of, is_animate, participle_tag, state_of_predicate, states_exclude

__all__ = [
    "CAPTION_PLURALS",
    "Hierarchy",
    "PREPOSITIONS",
    "THINGS",
    "UnknownSynsetError",
    "WordNetMissingError",
    "WordNetSource",
    "aimed",
    "ancestors",
    "cache_dir",
    "canonical_predicate",
    "canonicals_agree",
    "canonicals_contradict",
    "another_name",
    "ball_of_game",
    "corefer_distance",
    "distance_matrix",
    "find_wordnet",
    "get_hierarchy",
    "is_animate",
    "body_of",
    "Body",
    "is_container",
    "made_to_hold",
    "is_garment",
    "is_portion",
    "names_portion",
    "is_hypernym",
    "inverse_key",
    "is_foliage",
    "is_thing",
    "filed_as",
    "lexname",
    "lemmatize",
    "load_wordnet",
    "lowest_common_hypernym",
    "noun_senses",
    "noun_synset",
    "num_ancestors",
    "participle_tag",
    "objecthood",
    "one_pair",
    "path_distance",
    "only_people",
    "people_clash",
    "place_part",
    "plain_person",
    "plural_only",
    "predicates_agree",
    "predicates_contradict",
    "predicate_verb_synset",
    "puts_inside",
    "relation_key",
    "root_distance",
    "sex_of",
    "state_of_predicate",
    "states_exclude",
    "verb_synset",
    "verbs_exclude",
    "wup_similarity",
]

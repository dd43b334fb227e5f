"""The lexicon of FaithScore's sub-sentence recogniser (:mod:`detectors.faithscore.recogniser`):
words that mark a sub-sentence as analytical -- about the answer, an inference, an effect, a
purpose or an evaluation -- rather than a description of what is in the image. Several also
describe in some uses; the recogniser reads them in context.
"""

from __future__ import annotations

#: Words that open a fragment about the picture, not its content ("In the image").
FRAME_NOUNS = frozenset(
    ["image", "picture", "photo", "photograph", "scene", "background", "foreground", "view", "shot", "frame"]
)
#: Discourse connectives that are a sub-sentence of their own ("Additionally", "Firstly").
CONNECTIVES = frozenset(
    [
        "additionally",
        "also",
        "firstly",
        "secondly",
        "thirdly",
        "lastly",
        "finally",
        "furthermore",
        "moreover",
        "overall",
        "however",
        "therefore",
        "thus",
        "hence",
        "besides",
        "meanwhile",
        "consequently",
        "instead",
        "otherwise",
        "alternatively",
        "similarly",
        "likewise",
    ]
)
#: Lemmas of verbs that infer or interpret, anywhere in a clause ("suggests", "seems", "showcasing").
#: ("The image shows / depicts ..." is no inference: it says what is there.)
INFERENCE_VERBS = frozenset(
    [
        "suggest",
        "indicate",
        "imply",
        "infer",
        "hint",
        "demonstrate",
        "reveal",
        "signify",
        "symbolize",
        "symbolise",
        "represent",
        "convey",
        "evoke",
        "reflect",
        "emphasize",
        "emphasise",
        "highlight",
        "showcase",
        "seem",
        "believe",
        "assume",
        "guess",
        "know",
        "think",
        "expect",
        "consider",
        "speculate",
    ]
)
#: Verbs of effect, benefit and purpose, interpreting in any use as a clause's verb ("which
#: provides shade", "helps her stay dry", "is designed for walking").
EFFECT_VERBS = frozenset(
    [
        "provide",
        "contribute",
        "shield",
        "protect",
        "ensure",
        "offer",
        "encourage",
        "facilitate",
        "invite",
        "enhance",
        "complement",
        "appreciate",
        "need",
        "require",
        "prefer",
        "intend",
        "help",
        "allow",
        "enable",
        "engage",
        "communicate",
        "express",
        "design",
    ]
)
#: Verbs with a plain, visible use too ("making a sandwich", "giving a thumbs up", "leading a flock
#: of sheep"): they interpret only with a clause or an abstract object ("making it difficult",
#: "adds a pop of color", "creating a lively atmosphere", "serves as a focal point").
PRODUCTIVE_VERBS = frozenset(
    ["add", "make", "create", "give", "keep", "draw", "lead", "serve", "present", "prepare", "share", "enjoy", "avoid"]
)
#: Modal verbs and hedges: what may be, not what is.
MODALS = frozenset(["can", "could", "may", "might", "would", "should", "must", "shall"])
HEDGES = frozenset(
    [
        "likely",
        "possibly",
        "perhaps",
        "probably",
        "presumably",
        "apparently",
        "seemingly",
        "supposedly",
        "potentially",
        "typically",
        "usually",
        "generally",
        "commonly",
        "often",
    ]
)
#: Words of evaluation, feeling and abstraction a viewer adds to a picture.
EVALUATIVE = frozenset(
    [
        "beautiful",
        "beauty",
        "lovely",
        "pleasant",
        "charming",
        "cozy",
        "cosy",
        "inviting",
        "appealing",
        "attractive",
        "striking",
        "stunning",
        "breathtaking",
        "gorgeous",
        "amazing",
        "wonderful",
        "fantastic",
        "remarkable",
        "pleasing",
        "majestic",
        "grace",
        "graceful",
        "serene",
        "peaceful",
        "tranquil",
        "lively",
        "vibrant",
        "cheerful",
        "playful",
        "joyful",
        "joy",
        "fun",
        "delightful",
        "memorable",
        "enjoyable",
        "relaxing",
        "soothing",
        "calming",
        "welcoming",
        "harmonious",
        "harmony",
        "elegant",
        "elegance",
        "picturesque",
        "scenic",
        "idyllic",
        "whimsical",
        "nostalgic",
        "dramatic",
        "festive",
        "captivating",
        "engaging",
        "impressive",
        "perfect",
        "ideal",
        "practical",
        "convenient",
        "useful",
        "functional",
        "important",
        "essential",
        "necessary",
        "difficult",
        "challenging",
        "challenge",
        "challenges",
        "possibility",
        "purpose",
        "reason",
        "atmosphere",
        "ambiance",
        "ambience",
        "mood",
        "vibe",
        "feel",
        "feeling",
        "sense",
        "moment",
        "enthusiasm",
        "excitement",
        "curiosity",
        "interest",
        "satisfaction",
        "positivity",
        "companionship",
        "opportunity",
        "opportunities",
        "experience",
        "idea",
        "example",
        "popular",
        "common",
    ]
)
#: Words that also name what is seen ("a warm cup of coffee", "a safety vest", "a comfortable
#: couch", "the lake is calm"): evaluative only when they are not said of a visible thing
#: ("a sense of security", "adds a touch of warmth", "which is typical").
MILD_EVALUATIVE = frozenset(
    [
        "calm",
        "comfortable",
        "comfort",
        "relaxed",
        "warm",
        "warmth",
        "softness",
        "touch",
        "security",
        "safety",
        "protection",
        "sight",
        "typical",
        "characteristic",
        "distinctive",
        "healthy",
    ]
)
#: Subjects that make a statement about ideas, not things ("The purpose of ...", "One possibility").
ABSTRACT_SUBJECTS = frozenset(
    [
        "purpose",
        "reason",
        "possibility",
        "connection",
        "combination",
        "presence",
        "challenge",
        "challenges",
        "way",
        "idea",
        "goal",
        "function",
        "role",
        "benefit",
        "advantage",
    ]
)

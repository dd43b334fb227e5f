"""FaithScore: descriptive sub-sentences -> atomic facts -> verification -> verified / facts.

Stages and their default, model-free implementations live in :mod:`.recogniser` (stage 1:
descriptive or analytical, :func:`recognise`), :mod:`.facts` (sub-sentences, facts from the
caption's scene graph) and :mod:`.verify`
(verification against an annotation or reference graph); :mod:`.llm` holds the prompts for
doing any stage with an LLM/VLM backend instead; :mod:`.detector` puts them together.
"""

from detectors.faithscore.detector import FaithScoreConfig, FaithScoreDetector
from detectors.faithscore.facts import Fact, SubSentence, facts_from_graph, split_sub_sentences
from detectors.faithscore.recogniser import recognise
from detectors.faithscore.verify import GraphVerifier

__all__ = [
    "Fact",
    "FaithScoreConfig",
    "FaithScoreDetector",
    "GraphVerifier",
    "SubSentence",
    "facts_from_graph",
    "recognise",
    "split_sub_sentences",
]

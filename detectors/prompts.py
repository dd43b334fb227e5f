"""Every prompt the model-backed detectors send, each in this one place with its version and
JSON schema; detections name the versions they used (``details["prompts"]``).

Small models copy what a prompt shows: an answer format written with a literal example that is
also a valid answer (``{"score": 73}``, ``{"labels": ["D", "A"]}``, "The dog is brown.") comes
back verbatim, whatever the input. So no prompt here holds such an example: formats are shown
with placeholders in angle brackets (``<object>``, ``<0-100>``) that are never a valid answer,
and the schema sent as structured output says the same as the prose (same keys, same values).
A change to a prompt's wording or schema bumps its ``version``.

>>> ALIGNBENCH.id, '"score": 73' in ALIGNBENCH.text
('alignbench/v2', False)
>>> label_schema(2)["properties"]["labels"]["minItems"]
2
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Prompt:
    """A prompt template (``str.format`` fields), its version and the schema of its answer."""

    name: str
    version: int
    text: str
    schema: dict[str, Any] | None = field(default=None, hash=False)

    @property
    def id(self) -> str:
        return f"{self.name}/v{self.version}"

    def format(self, **fields: Any) -> str:
        return self.text.format(**fields)


# -- VLM as judge ------------------------------------------------------------------------------
ALIGNBENCH = Prompt(
    "alignbench",
    2,
    """{preface}You are checking a description of {what} one sentence at a time.
Whole description: "{caption}"
Sentence to judge: "{sentence}"
How well does this sentence agree with {what}? 100 means everything it states is correct; \
0 means it is wrong or describes things that are not there; use values in between for partly \
correct sentences. Judge only this sentence; the rest of the description is context.
Answer with JSON only: {{"score": <0-100>}}, where <0-100> is your whole-number score.""",
    {
        "type": "object",
        "properties": {"score": {"type": "integer", "minimum": 0, "maximum": 100}},
        "required": ["score"],
        "additionalProperties": False,
    },
)

DETAILVERIFY = Prompt(
    "detailverify",
    1,
    """{preface}Here is a caption of {what}:
{caption}
Find the words or phrases of the caption that are hallucinated: objects, attributes, counts, \
relations or other details that are wrong or not present in {what}.
Copy the caption exactly, character for character, and wrap each hallucinated word or phrase in \
<HALLUCINATION></HALLUCINATION> tags. Do not correct, add or remove anything else. If nothing is \
hallucinated, copy the caption without tags.
Give the copy inside <result></result>.{retry}""",
)

DETAILVERIFY_RETRY = (
    "\nYour previous answer was not usable ({reason}). Copy the caption exactly and only "
    "add the tags. (Attempt {attempt}.)"
)

# -- FaithScore --------------------------------------------------------------------------------
FAITHSCORE_LABEL = Prompt(
    "faithscore-label",
    2,
    """Here is a description of an image, cut into numbered parts:
{parts}
For each part, say whether it describes what can be seen in the image (D), or gives analysis, \
interpretation, opinion or commonsense associations beyond what can be seen (A).
Answer with JSON only: {{"labels": [<label of part 1>, ...]}}, one label per part in order \
({n} in all), each "D" or "A".""",
)


def label_schema(n: int) -> dict[str, Any]:
    """The labelling answer's schema: exactly ``n`` labels, each "D" or "A"."""
    return {
        "type": "object",
        "properties": {
            "labels": {"type": "array", "items": {"type": "string", "enum": ["D", "A"]}, "minItems": n, "maxItems": n}
        },
        "required": ["labels"],
        "additionalProperties": False,
    }


FACT_KINDS = ("entity", "relation", "colour", "count", "attribute")
FAITHSCORE_DECOMPOSE = Prompt(
    "faithscore-decompose",
    2,
    """Break this part of an image description into short, \
independent atomic facts. Each fact is a simple sentence that uses only words of the text: \
"There is a <object>.", "The <object> is <colour>.", "There are <number> <objects>.", \
"The <object> is <relation> the <other object>.", where each <...> is a word taken from the text.
Sort the facts by kind: entity (an object is there), relation (between two objects), colour, \
count, attribute (any other property: size, material, shape, state, action). Leave a kind empty \
when the text states nothing of it.
Text: "{text}"
Answer with JSON only: {{"entity": [<facts>], "relation": [<facts>], "colour": [<facts>], \
"count": [<facts>], "attribute": [<facts>]}}.""",
    {
        "type": "object",
        "properties": {k: {"type": "array", "items": {"type": "string"}, "maxItems": 8} for k in FACT_KINDS},
        "required": list(FACT_KINDS),
        "additionalProperties": False,
    },
)

FAITHSCORE_VERIFY = Prompt(
    "faithscore-verify",
    2,
    "{preface}Statement: {statement} Is the statement correct for {what}? Answer yes or no, "
    'as JSON only: {{"answer": <"yes" or "no">}}.',
    {
        "type": "object",
        "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
        "required": ["answer"],
        "additionalProperties": False,
    },
)

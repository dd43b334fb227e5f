"""Does a caption look like English? A cheap, documented check, so that a caption in another
language is refused by name instead of coming back "clean" (its words match nothing on the image
side, so nothing is flagged).

Two signs, no model and nothing downloaded:

1. **Script.** At least half of the caption's letters are outside the Latin script (Chinese,
   Japanese, Korean, Cyrillic, Greek, Arabic, Hebrew, Devanagari...).
2. **Vocabulary.** Of its lower-case words -- names (capitalised words that do not open a
   sentence), numbers and one-letter words left out -- at least ``MIN_WORDS`` remain and more
   than ``MAX_UNKNOWN_SHARE`` of them are unknown to English: not a spaCy English stop word, not
   a WordNet noun or verb (WordNet's own morphology, :func:`knowledge.concepts.morphy_forms`)
   and not a WordNet adjective or adverb (with WordNet's exception lists and the -er / -est
   rules). WordNet knows many short foreign words as abbreviations ("le", "en", "con", "est"), so
   a caption of at least ``NO_FUNCTION_WORDS_MIN`` such words with no English stop word at all
   (no "a", "the", "on", "with"...) is refused from ``NO_FUNCTION_WORDS_SHARE`` unknown words.
   Short captions ("A dog.") are never refused; misspellings, names and rare words cost little,
   since most words of an English caption are common ones. Measured: 0 of 2,065 English texts of
   the dev data refused (captions, references, DetailVerifyBench paragraphs), 20 of 20
   captions in 17 other languages refused (tests/fixtures/non_english_captions.jsonl).

>>> looks_english("A brown dog sits on a red sofa."), looks_english("Ein brauner Hund sitzt auf einem roten Sofa.")
(None, 'caption does not look like English: 6 of 6 words are not English words (ein, brauner, sitzt...)')
>>> looks_english("一只狗坐在红色的沙发上。")
'caption does not look like English: 11 of 11 letters are not Latin script'
"""

from __future__ import annotations

import importlib.util
import re
import unicodedata
import zipfile
from functools import lru_cache
from pathlib import Path

MIN_WORDS = 4
MAX_UNKNOWN_SHARE = 0.5
NO_FUNCTION_WORDS_MIN, NO_FUNCTION_WORDS_SHARE = 5, 0.4
_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\"“(]\s*)$")
_ADJ_RULES = (("er", ""), ("est", ""), ("er", "e"), ("est", "e"))


def looks_english(caption: str) -> str | None:
    """Why ``caption`` does not look like English (a message naming the sign), or None."""
    # ASCII letters are all Latin: only other text needs the per-character script test.
    letters = [] if caption.isascii() else [ch for ch in caption if ch.isalpha()]
    if letters:
        foreign = sum(not _latin(ch) for ch in letters)
        if foreign * 2 >= len(letters):
            return f"caption does not look like English: {foreign} of {len(letters)} letters are not Latin script"
    words = []
    for m in _WORD.finditer(caption):
        word = m.group()
        if len(word) < 2 or (word[0].isupper() and not _SENTENCE_START.search(caption[: m.start()])):
            continue  # a one-letter word, or a name
        words.append(word.lower())
    if len(words) < MIN_WORDS:
        return None
    unknown = [w for w in words if not known(w)]
    # WordNet knows many short foreign words as abbreviations ("le", "en", "con", "est"): a caption
    # with no English function word at all needs fewer unknown words to be refused.
    limit = (
        MAX_UNKNOWN_SHARE
        if len(words) < NO_FUNCTION_WORDS_MIN or _has_function_word(words)
        else NO_FUNCTION_WORDS_SHARE
    )
    if len(unknown) > limit * len(words):
        shown = ", ".join(dict.fromkeys(unknown[:3]))
        return (
            f"caption does not look like English: {len(unknown)} of {len(words)} words are not "
            f"English words ({shown}...)"
        )
    return None


@lru_cache(maxsize=65536)
def known(word: str) -> bool:
    """Whether a lower-case word is English to spaCy's stop words or WordNet (any part of speech).

    >>> known("dogs"), known("sitting"), known("beautiful"), known("bigger"), known("hund")
    (True, True, True, True, False)
    """
    from knowledge.concepts import morphy_forms

    if word in stop_words() or morphy_forms(word, "n") or morphy_forms(word, "v"):
        return True
    return is_modifier(word)


@lru_cache(maxsize=65536)
def is_modifier(word: str) -> bool:
    """Whether a lower-case word is a WordNet adjective or adverb, or a form of one ("bigger").

    >>> is_modifier("white"), is_modifier("bloody"), is_modifier("bigger"), is_modifier("girl")
    (True, True, True, False)
    """
    adjectives, exceptions = _adjectives_and_adverbs()
    if word in adjectives or word in exceptions:
        return True
    return any(word.endswith(old) and word[: len(word) - len(old)] + new in adjectives for old, new in _ADJ_RULES)


def _has_function_word(words: list[str]) -> bool:
    stop = stop_words()
    return any(w in stop for w in words)


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """spaCy's English stop words ("a", "the", "on", "n't"...), read from spaCy's own list
    without importing spaCy: that import loads thinc and torch (3 s), which the parent process of
    a run with workers, checking records for them, never needs.

    >>> "the" in stop_words(), "dog" in stop_words()
    (True, False)
    """
    found = importlib.util.find_spec("spacy")  # finds the package, imports nothing
    try:
        path = Path(found.submodule_search_locations[0], "lang", "en", "stop_words.py")  # type: ignore[union-attr,index]  # None: caught below
        spec = importlib.util.spec_from_file_location("_spacy_en_stop_words", path)
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]  # None: caught below
        spec.loader.exec_module(module)  # type: ignore[union-attr]  # a plain list, no imports of its own
        return frozenset(module.STOP_WORDS)
    except (AttributeError, ImportError, IndexError, OSError, TypeError):  # laid out otherwise: import it
        from spacy.lang.en.stop_words import STOP_WORDS

        return frozenset(STOP_WORDS)


def _latin(ch: str) -> bool:
    try:
        return unicodedata.name(ch).startswith("LATIN")
    except ValueError:  # an unnamed character
        return False


@lru_cache(maxsize=1)
def _adjectives_and_adverbs() -> tuple[frozenset[str], frozenset[str]]:
    """WordNet's adjective and adverb lemmas and its adjective exception forms ("bigger"), read
    from the WordNet the knowledge package uses (a folder or a zip); empty when unreadable."""
    from knowledge.provision import find_wordnet

    src = find_wordnet()
    lemmas: set[str] = set()
    forms: set[str] = set()
    for name, into in (("index.adj", lemmas), ("index.adv", lemmas), ("adj.exc", forms)):
        for line in _lines(src.path, name):
            if line and not line.startswith(" "):
                into.add(line.split(" ", 1)[0])
    return frozenset(lemmas), frozenset(forms)


def _lines(path: Path | None, name: str) -> list[str]:
    if path is None:
        return []
    try:
        if path.is_dir():
            return (path / name).read_text(encoding="utf-8", errors="replace").splitlines()
        with zipfile.ZipFile(path) as z:
            inner = next((n for n in z.namelist() if n.endswith("/" + name)), None)
            return z.read(inner).decode("utf-8", "replace").splitlines() if inner else []
    except (OSError, zipfile.BadZipFile):
        return []

"""A faster stand-in for spaCy's ``attribute_ruler`` that gives identical results.

In ``en_core_web_sm`` the attribute ruler (tag -> POS/morphology map plus ~180 exceptions) costs
about as much as the dependency parser: it runs a general token Matcher over every Doc. Its rules
only test a token's TAG, LOWER, DEP and IS_SPACE (plus a few two-token patterns), so the set of
single-token rules that fire is a function of those four values: we look that up in a memo
instead of matching, and apply the very same normalised attributes with spaCy's own
``set_token_attrs``, in the same precedence (later rules win). A rule set using anything else
raises :class:`Unsupported` at load time and the stock ruler stays (see ``install``).
``tests/test_parsers.py`` checks token-for-token equality with the stock ruler.

>>> from parsers.spacy_model import load_spacy
>>> fast, stock = load_spacy(fast_attributes=True), load_spacy()
>>> text = "A man isn't riding the horse that gets fed."
>>> [(t.pos_, str(t.morph), t.lemma_) for t in fast(text)] == [
...     (t.pos_, str(t.morph), t.lemma_) for t in stock(text)]
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from spacy.language import Language
from spacy.tokens._retokenize import set_token_attrs

_FIELDS = {"TAG": 0, "LOWER": 1, "DEP": 2, "IS_SPACE": 3}
_MEMO_LIMIT = 200_000


class Unsupported(ValueError):
    """The ruler uses a pattern feature this stand-in does not implement."""


def _compile_value(field: int, spec: Any) -> Callable[[tuple[Any, ...]], bool]:
    if not isinstance(spec, dict):
        return lambda f: f[field] == spec
    if len(spec) != 1:
        raise Unsupported(f"operator set {spec}")
    ((op, arg),) = spec.items()
    if op == "IN":
        values = frozenset(arg)
        return lambda f: f[field] in values
    if op == "NOT_IN":
        values = frozenset(arg)
        return lambda f: f[field] not in values
    if op == "REGEX":
        rx = re.compile(arg)  # the Matcher uses re.search
        return lambda f: rx.search(f[field]) is not None
    raise Unsupported(f"operator {op}")


def _compile_token(pattern: dict[str, Any]) -> Callable[[tuple[Any, ...]], bool]:
    checks = []
    for key, spec in pattern.items():
        if key not in _FIELDS:
            raise Unsupported(f"token attribute {key}")
        checks.append(_compile_value(_FIELDS[key], spec))
    return lambda f: all(c(f) for c in checks)


class FastAttributeRuler:
    """Equivalent of a loaded ``AttributeRuler``: ``load_from(ruler)``, then call on Docs."""

    def __init__(self, name: str = "attribute_ruler") -> None:
        self.name = name
        self.single: list[tuple[int, Callable[[tuple[Any, ...]], bool]]] = []
        self.multi: list[tuple[int, list[Callable[[tuple[Any, ...]], bool]], int]] = []
        self.attrs: list[dict[str, Any]] = []
        self._memo: dict[tuple[Any, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._merged: dict[tuple[int, ...], dict[str, Any]] = {}
        # A word no rule names (by value or IN list) fires the same rules as any other such word
        # that the LOWER regexes treat alike: one stand-in word per regex outcome keeps the memo
        # small (its key would otherwise hold every word of the corpus). None: rules test LOWER
        # in another way, every word is its own key.
        self._literals: set[str] | None = set()
        self._regexes: list[re.Pattern[str]] = []
        self._stand_in: dict[tuple[bool, ...], str] = {}
        self._words: dict[str, str] = {}

    def load_from(self, ruler: Any) -> FastAttributeRuler:
        """Take the rules of a stock ``AttributeRuler`` (raises :class:`Unsupported`)."""
        for rule_id, p in enumerate(ruler.patterns):
            for pattern in p["patterns"]:
                tokens = [_compile_token(t) for t in pattern]
                for t in pattern:
                    self._note_lower(t.get("LOWER"))
                if len(pattern) == 1:
                    if p["index"] not in (0, -1):
                        raise Unsupported("index outside a one-token pattern")
                    self.single.append((rule_id, tokens[0]))
                else:
                    self.multi.append((rule_id, tokens, p["index"]))
        self.attrs = list(ruler.attrs)  # normalised exactly as the stock ruler applies them
        return self

    def _note_lower(self, spec: Any) -> None:
        if spec is None or self._literals is None:
            return
        if isinstance(spec, str):
            self._literals.add(spec)
        elif isinstance(spec, dict) and list(spec) == ["IN"]:
            self._literals.update(spec["IN"])
        elif isinstance(spec, dict) and list(spec) == ["REGEX"]:
            self._regexes.append(re.compile(spec["REGEX"]))
        else:
            self._literals = None

    def _word(self, lower: str) -> str:
        """The word ``lower`` is looked up as: itself when a rule names it, else its stand-in."""
        try:
            return self._words[lower]
        except KeyError:
            if len(self._words) > _MEMO_LIMIT:
                self._words.clear()
            if self._literals is None or lower in self._literals:
                key = lower
            else:
                key = self._stand_in.setdefault(tuple(rx.search(lower) is not None for rx in self._regexes), lower)
            self._words[lower] = key
            return key

    def _rules_for(self, feats: tuple[Any, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(single-token rules that fire on a token, multi-token rules whose first token it can be)."""
        try:
            return self._memo[feats]
        except KeyError:
            if len(self._memo) > _MEMO_LIMIT:
                self._memo.clear()
            hit = self._memo[feats] = (
                tuple(r for r, check in self.single if check(feats)),
                tuple(m for m, (_, checks, _) in enumerate(self.multi) if checks[0](feats)),
            )
            return hit

    def _attrs_for(self, rule_ids: tuple[int, ...]) -> dict[str, Any]:
        try:
            return self._merged[rule_ids]
        except KeyError:
            merged: dict[str, Any] = {}
            for r in rule_ids:  # ascending rule id: later rules take precedence, as in spaCy
                merged.update(self.attrs[r])
            self._merged[rule_ids] = merged
            return merged

    def __call__(self, doc: Any) -> Any:
        feats = [(t.tag_, t.lower_, t.dep_, t.is_space) for t in doc]
        memo = [self._rules_for((f[0], self._word(f[1]), f[2], f[3])) for f in feats]
        hits = [single for single, _ in memo]
        extra: dict[int, list[int]] = {}
        # Only where a rule's first token matches are its other tokens tested (the memo knows the
        # first); rules are taken in rule order, as the full scan did.
        starts = sorted((m, s) for s, (_, firsts) in enumerate(memo) for m in firsts)
        for m, s in starts:
            rule_id, checks, index = self.multi[m]
            n = len(checks)
            if s + n <= len(feats) and all(c(feats[s + k]) for k, c in enumerate(checks) if k):
                target = s + index if index >= 0 else s + n + index
                extra.setdefault(target, []).append(rule_id)
        for i, rule_ids in enumerate(hits):
            if i in extra:
                rule_ids = tuple(sorted(set(rule_ids).union(extra[i])))
            if rule_ids:
                set_token_attrs(doc[i], self._attrs_for(rule_ids))
        return doc

    def pipe(self, docs: Any, batch_size: int = 128) -> Any:
        for doc in docs:
            yield self(doc)


@Language.factory("halcece_attribute_ruler")
def _make_fast_ruler(nlp: Language, name: str) -> FastAttributeRuler:
    return FastAttributeRuler(name)


def install(nlp: Language) -> bool:
    """Swap the pipeline's ``attribute_ruler`` for the fast one, in place. Returns False (and
    leaves the stock ruler) when there is none or its rules use an unsupported feature."""
    if "attribute_ruler" not in nlp.pipe_names:
        return False
    stock = nlp.get_pipe("attribute_ruler")
    try:
        FastAttributeRuler().load_from(stock)  # check every rule before touching the pipeline
    except Unsupported:
        return False
    fast = nlp.replace_pipe("attribute_ruler", "halcece_attribute_ruler")
    fast.load_from(stock)  # type: ignore[attr-defined]  # spaCy types every component as Doc -> Doc
    return True

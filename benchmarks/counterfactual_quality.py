"""How good the counterfactuals are: rewritten share, fixed points, kept nouns and grammar.

Run over a benchmark's captions (references mode for HAT and nocaps-FOIL)::

    python -m benchmarks.counterfactual_quality hat data/hat-dev.json
    python -m benchmarks.counterfactual_quality foil data/nocaps-foil-dev.json --examples 10

Figures (each a share of the records named):

- ``rewritten``: records whose counterfactual differs from the caption (hallucinated ones only;
  ``clean_rewritten`` counts clean captions that were touched and must be 0);
- ``fixed_point``: rewritten records whose counterfactual, explained again against the same
  image, has no hallucinated edit;
- ``kept_nouns``: rewritten records where every caption noun that no hallucinated edit points
  at is still in the counterfactual (:func:`lost_nouns`);
- ``grammar_failures``: rewritten records whose counterfactual has a problem
  (:func:`cece.counterfactuals.grammar.grammar_problems`) the caption itself did not have; the library itself
  returns no counterfactual rather than one with such a problem, so this counts what slips by;
- ``restored`` and ``misreplaced`` (nocaps-FOIL only, shares of the foiled captions rewritten): the
  rewrite says, in the foil word's place, the word the foil replaced, a synonym of it, a kind of it
  or a more general word for it -- or another word (:func:`foil_fix`): "a little cookie holding on
  to an adult" made "a little girl ..." is restored, "a little ice ..." misreplaced. (Removing the
  foil word is neither: the references may not name what it replaced.)
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from cece.counterfactuals.grammar import new_grammar_problems
from cece.explanation import Explanation
from knowledge import is_hypernym, lemmatize, noun_senses
from parsers.surface import spacy_text


def lost_nouns(e: Explanation, nlp: Any) -> list[str]:
    """Caption nouns that no hallucinated edit points at (by concept or by span) and that the
    counterfactual no longer says, as word or lemma."""
    if not e.counterfactual:
        return []
    touched = {x.source_index for x in e.edits if x.hallucinated and x.level == "object"}
    hit = [(a, b) for x in e.edits if x.hallucinated for a, b in x.spans]
    words = {w for t in nlp(spacy_text(e.counterfactual)) for w in (t.lower_, t.lemma_.lower())}
    lost = []
    for k, c in enumerate(e.caption_graph.concepts):
        if k in touched or not c.spans or any(a < cb and ca < b for ca, cb in c.spans for a, b in hit):
            continue
        head = e.caption[slice(*c.spans[0])].split()[-1].lower() if e.caption[slice(*c.spans[0])].split() else ""
        if head and head not in words and c.lemma.split()[-1].lower() not in words:
            lost.append(head)
    return lost


def foil_fix(foiled: str, counterfactual: str, foil_word: str, original: str) -> str:
    """How ``counterfactual`` (a rewrite of the ``foiled`` caption) fixes its ``foil_word``:
    ``"restored"`` when it says, among the words it puts in its place, ``original`` or a word one of
    whose noun senses is a synonym, a kind or a more general kind of one of ``original``'s;
    ``"removed"`` when it puts no word there; ``"other"`` when it puts another word there;
    ``"kept"`` when it still says ``foil_word``.

    >>> [foil_fix("A cat on a bed.", cf, "cat", "dog") for cf in ("A dog on a bed.", "A puppy on a bed.")]
    ['restored', 'restored']
    >>> [foil_fix("A cat on a bed.", cf, "cat", "dog") for cf in ("A table on a bed.", "A bed.", "A cat.")]
    ['other', 'removed', 'kept']
    """
    before, after = _words(foiled), _words(counterfactual)
    if _has(after, foil_word):
        return "kept"
    added: list[str] = []
    for op, _, _, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if op in ("replace", "insert"):
            added += after[j1:j2]
    if _has(added, original):
        return "restored"
    wanted = set(noun_senses(original.replace(" ", "_")))
    if any(is_hypernym(a, b) or is_hypernym(b, a) for w in added for a in noun_senses(lemmatize(w)) for b in wanted):
        return "restored"
    return "other" if added else "removed"


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+(?:[-'][a-z]+)*", text.lower())


def _has(words: list[str], phrase: str) -> bool:
    """Whether ``words`` contain ``phrase`` (a word or several), word by word or by lemma."""
    want = _words(phrase)
    if not want:
        return False
    lemmas = [lemmatize(w) for w in words]
    n = len(want)
    targets = (want, [lemmatize(w) for w in want])
    return any(words[i : i + n] in targets or lemmas[i : i + n] in targets for i in range(len(words) - n + 1))


@dataclass
class Quality:
    """Counts over one run (module docstring); ``examples`` are before/after pairs."""

    records: int = 0
    hallucinated: int = 0
    rewritten: int = 0
    clean_rewritten: int = 0
    null: int = 0
    fixed_point: int = 0
    kept_nouns: int = 0
    grammar_failures: int = 0
    foiled_rewritten: int = 0
    restored: int = 0
    misreplaced: int = 0
    errors: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)

    def shares(self) -> dict[str, float]:
        n = max(self.rewritten, 1)
        return {
            "rewritten": self.rewritten / max(self.hallucinated, 1),
            "fixed_point": self.fixed_point / n,
            "kept_nouns": self.kept_nouns / n,
            "grammar_ok": 1 - self.grammar_failures / n,
            "restored": self.restored / max(self.foiled_rewritten, 1),
            "misreplaced": self.misreplaced / max(self.foiled_rewritten, 1),
        }


def counterfactual_quality(
    results: Iterable[Any], nlp: Any, examples: int = 10, *, foils: dict[str, tuple[str, str]] | None = None
) -> Quality:
    """Tally :class:`Quality` over explanations (error rows are counted, not scored). ``foils``
    maps a foiled record's id to ``(foil word, original word)``, for ``restored``."""
    q = Quality()
    for e in results:
        q.records += 1
        if not isinstance(e, Explanation):
            q.errors += 1
            continue
        q.hallucinated += e.hallucinated
        if e.counterfactual is None:
            q.null += 1
            continue
        if e.counterfactual == e.caption:
            continue
        if not e.hallucinated:
            q.clean_rewritten += 1
        q.rewritten += 1
        q.fixed_point += bool(e.fixed_point)
        lost = lost_nouns(e, nlp)
        q.kept_nouns += not lost
        broken = new_grammar_problems(nlp, e.caption, e.counterfactual)
        q.grammar_failures += bool(broken)
        row = {"id": e.id, "caption": e.caption, "counterfactual": e.counterfactual, "fixed_point": e.fixed_point}
        wrong_word = False
        if foils and e.id in foils:
            q.foiled_rewritten += 1
            fix = foil_fix(e.caption, e.counterfactual, *foils[e.id])
            q.restored += fix == "restored"
            q.misreplaced += fix == "other"
            wrong_word = fix == "other"
        if lost or broken or not e.fixed_point or wrong_word:
            q.failures.append({**row, "lost": lost, "grammar": broken, "misreplaced": wrong_word})
        elif len(q.examples) < examples:
            q.examples.append(row)
    return q


def main(argv: list[str] | None = None) -> int:
    from benchmarks.loaders import BENCHMARKS
    from cece.api import Explainer

    ap = argparse.ArgumentParser(prog="python -m benchmarks.counterfactual_quality", description=__doc__.split("\n")[0])
    ap.add_argument("benchmark", choices=sorted(BENCHMARKS))
    ap.add_argument("data", help="the benchmark's data file")
    ap.add_argument("--examples", type=int, default=10, help="good before/after pairs to print")
    ap.add_argument("--failures", action="store_true", help="print every failing rewrite")
    ap.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = ap.parse_args(argv)
    samples, gold = BENCHMARKS[args.benchmark].load(args.data)
    ex = Explainer()
    q = counterfactual_quality(ex.explain_many(samples), ex.parser.nlp, args.examples, foils=_foils(gold))
    if args.json:
        print(json.dumps({**asdict(q), "shares": q.shares()}, indent=1))
        return 0
    s = q.shares()
    print(
        f"{args.benchmark}: {q.records} records, {q.hallucinated} hallucinated, {q.rewritten} rewritten "
        f"({s['rewritten']:.1%}), {q.null} null, clean rewritten {q.clean_rewritten}; "
        f"fixed points {s['fixed_point']:.1%}, kept nouns {s['kept_nouns']:.1%}, "
        f"grammar failures {q.grammar_failures}, errors {q.errors}"
        + (
            f"; of {q.foiled_rewritten} rewritten foils, restored {s['restored']:.1%}, "
            f"put another word in its place {s['misreplaced']:.1%}"
            if q.foiled_rewritten
            else ""
        )
    )
    for row in q.examples:
        print(f"  {row['caption']!r}\n   -> {row['counterfactual']!r}")
    if args.failures:
        for row in q.failures:
            print(
                f"  FAIL {row['id']}: {row['caption']!r}\n   -> {row['counterfactual']!r} "
                f"fixed={row['fixed_point']} lost={row['lost']} grammar={row['grammar']}"
                + (" misreplaced" if row.get("misreplaced") else "")
            )
    return 0


def _foils(gold: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Each foiled record's (foil word, original word), read off its pair: the words the foiled
    caption has where its clean twin differs (empty for benchmarks without pairs)."""
    out: dict[str, tuple[str, str]] = {}
    for g in gold.values():
        clean = gold.get(f"{g.pair}:clean")
        if g.label != 1 or clean is None or not g.id.endswith(":foil"):
            continue
        before, after = _words(clean.caption), _words(g.caption)
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
            if op == "replace":
                out[g.id] = (" ".join(after[j1:j2]), " ".join(before[i1:i2]))
                break
    return out


if __name__ == "__main__":
    sys.exit(main())
